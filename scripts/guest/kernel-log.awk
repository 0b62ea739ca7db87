# The kernel log's reports, in the guest (health.sh; the golden-log suite
# runs it on saved consoles too):
#   awk -v splats="$(cat splats.ere)" -f kernel-log.awk LOG
# prints "ours<TAB>LINE" for each line (its printk timestamp cut) that
# matches SPLATS, and for a KCSAN report's title that names zsmalloc or
# zram code, and "listed<TAB>LINE" for any other KCSAN title; a KCSAN
# report's body (to the closing line of "=" after "Reported by Kernel
# Concurrency Sanitizer") is not scanned: its stack frames (rcu_..._stall)
# are no reports, as the host's judge has it (scripts/host/splats.awk).
{ l = $0; sub(/^\[ *[0-9]*\.[0-9]*\] ?/, "", l) }
l ~ /^BUG: KCSAN: / {
	inrep = 1; footer = 0
	if (l ~ /(zs_|zspage|zram|zcomp)/) print "ours\t" l; else print "listed\t" l
	next
}
inrep {
	if (l ~ /^Reported by Kernel Concurrency Sanitizer on:$/) footer = 1
	else if (footer && l ~ /^=+$/) inrep = 0
	next
}
l ~ splats { print "ours\t" l }
