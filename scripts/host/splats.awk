# The splat scan (parse.sh), over every line of the kernel's part of the
# console:
#   awk -v splats=ERE -v ourfile=kcsan-ours.txt -v kcsan=kcsan.txt \
#       -f splats.awk kernel.txt > splats.txt
# prints each line that matches ERE (scripts/guest/splats.ere). A KCSAN
# report is one splat: its title line, marked "[KCSAN in zsmalloc/zram:
# FUNCTION]" or "[KCSAN elsewhere: listed, not failed]", each also a line
# of KCSAN ("fail", title, function; or "listed", title). A report is ours
# if a function of zsmalloc or zram (a name in OURFILE, or one that starts
# with zs_, zspage, zram or zcomp) made one of the two accesses or called
# the function that did: it is in the title, or one of the first two
# frames of an access's stack. Deeper frames only say that our code called
# into the kernel, which raced on its own data (a zsmalloc test's kthread
# in usleep_range(), where hrtimer_wakeup() and
# schedule_hrtimeout_range_clock() race on the sleeper's task pointer). The
# lines of its body are not scanned (a frame such as rcu_..._stall is no
# stall); another CPU's message printed in the middle of it is (it does
# not end the report, whose stack may go on after it). A report ends with
# its closing line of "=", the next KCSAN report or the end of the input.
BEGIN {
	while ((getline l < ourfile) > 0) ours[l] = 1
	printf("") > kcsan
}
# "zram_read_page.isra.0+0x1a/0x2f0" -> "zram_read_page"
function base(f) { sub(/\+0x.*/, "", f); sub(/\..*/, "", f); return f }
function mine(f) { f = base(f); return (f in ours) || f ~ /^(__)?(zs_|zspage|zram|zcomp)/ }
function body(l) {
	return l ~ /^=+$/ || l == "" || l ~ /^ *[^ ]+\+0x[0-9a-f]+\/0x[0-9a-f]+( \[[a-z0-9_]+\])?$/ ||
		l ~ /^(read|write|read-write|assert no [a-z]+)( \([a-z, ]+\))? to 0x[0-9a-f]+ of [0-9]+ bytes by (task [0-9]+|interrupt) on cpu [0-9]+:$/ ||
		l ~ /^race at unknown origin, with / || l ~ /^  \|$/ || l ~ /^  \+-> reordered to: / ||
		l ~ /^ ?(value|bits) changed: / || l ~ /^Reported by Kernel Concurrency Sanitizer on:$/ ||
		l ~ /^CPU: [0-9]+ / || l ~ /^(Hardware name|Workqueue|Tainted|Stopper|Sched_ext): /
}
function report_done() {
	if (!inrep)
		return
	if (hit != "") {
		printf("%s [KCSAN in zsmalloc/zram: %s]\n", title, hit)
		printf("fail\t%s\t%s\n", title, hit) > kcsan
	} else {
		printf("%s [KCSAN elsewhere: listed, not failed]\n", title)
		printf("listed\t%s\n", title) > kcsan
	}
	inrep = 0
}
/^BUG: KCSAN: / {
	report_done()
	inrep = 1; title = $0; hit = ""; footer = 0; frame = 2
	t = $0; sub(/^BUG: KCSAN: .* in /, "", t)
	n = split(t, fs, / \/ /)
	for (i = 1; i <= n; i++)
		if (hit == "" && mine(fs[i]))
			hit = base(fs[i])
	next
}
inrep && body($0) {
	if (footer && $0 ~ /^=+$/) {
		report_done()
		next
	}
	if ($0 ~ /^Reported by Kernel Concurrency Sanitizer on:$/)
		footer = 1
	# An access's line starts its stack; a reordered access's line too.
	if ($0 ~ / on cpu [0-9]+:$/ || $0 ~ /^  \+-> reordered to: /)
		frame = 0
	for (i = 1; i <= NF; i++)
		if ($i ~ /\+0x[0-9a-f]+\/0x[0-9a-f]+$/ && ++frame <= 2 && hit == "" && mine($i))
			hit = base($i)
	next
}
$0 ~ splats { print }
END { report_done() }
