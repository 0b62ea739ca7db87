#!/bin/sh
# Read a finished run offline and judge it:  parse.sh RUNDIR
# Counts the KUnit test cases from the console's KTAP output, the guest's
# checks ("HARNESS: ok|not ok|skip NAME" in report.log), and adds one check
# that the console is free of kernel splats (any WARNING, BUG, Oops, lockdep,
# KASAN, UBSAN or KFENCE report, or panic fails it, whatever the guest said).
# A KCSAN data-race report (the kcsan flavour) fails it if zsmalloc or zram
# is in it, in its title or on either stack; one entirely elsewhere in the
# kernel is listed (splats.txt, kcsan.txt, the output) and does not fail.
# Prints "N passed, N failed, N skipped" last; exits 1 if anything failed,
# if the run left no console, no guest result, or no KTAP where the kernel
# runs KUnit at boot (vm.sh writes ktap-expected).
set -eu
. "$(dirname "$0")/lib.sh"

dir=${1:?usage: parse.sh RUNDIR}
console=$dir/console.log
report=$dir/report.log
# A run that left no console (the VM never started) is a failed run.
if [ ! -s "$console" ]; then
	say "FAIL no console log: $console (the VM did not run; see the lines above)"
	echo "0 passed, 1 failed, 0 skipped" | tee "$dir/summary" 2>/dev/null
	exit 1
fi
[ -f "$report" ] || : > "$report"

# Strip printk timestamps: "[   12.345678] text" -> "text" (an empty line
# may have lost the space after the stamp).
strip() { sed 's/^\[ *[0-9]*\.[0-9]*\] \{0,1\}//' "$1" | tr -d '\r'; }

SPLATS='WARNING:|BUG:|Oops|Kernel panic|general protection fault|KASAN:|UBSAN:|KFENCE:|possible circular locking|possible recursive locking|inconsistent lock state|lock held when returning|suspicious RCU usage|INFO: task .* blocked|soft lockup|hard LOCKUP|rcu_.*stall|Unable to handle|kernel BUG|list_add corruption|list_del corruption|bad page state|BUG: sleeping function'

# KCSAN (kernel/kcsan/report.c) prints a report as
#   ==================================================================
#   BUG: KCSAN: data-race in F1 / F2      (or "assert: race in", or one
#                                          "F+0x../0x.." if the other
#                                          access is of unknown origin)
#   read to 0x... of 8 bytes by task 123 on cpu 1:
#    F1+0x1a/0x2f0                        (the stack, one frame a line)
#   write (marked) to 0x... of 8 bytes by interrupt on cpu 0:
#    ...
#   value changed: 0x... -> 0x...
#   Reported by Kernel Concurrency Sanitizer on:
#   CPU: 1 UID: 0 PID: 123 Comm: fio Not tainted ...
#   Hardware name: ...
#   ==================================================================
# Ours (it fails the run): a function of mm/zsmalloc.c or drivers/block/
# zram/ (zram_drv, zcomp, backend_*) in the title or on a stack. The kernel
# has no debug info, so a frame names a function, not its file: the names
# are the text symbols of those objects in the kernel's build folder (the
# run folder's parent), less the ones that vmlinux also has from another
# file (lzo_compress, zstd_compress: crypto's), saved as kcsan-ours.txt in
# the run folder for a later judging; and always any name that starts with
# zs_, zspage, zram, zcomp (all of them from those files).
kcsan_ours() {
	k=$(dirname "$dir")
	[ ! -s "$dir/kcsan-ours.txt" ] || return 0
	objs=""
	for o in "$k"/mm/zsmalloc.o "$k"/drivers/block/zram/zram_drv.o \
		"$k"/drivers/block/zram/zcomp.o "$k"/drivers/block/zram/backend_*.o; do
		[ ! -f "$o" ] || objs="$objs $o"
	done
	[ -n "$objs" ] && [ -f "$k/vmlinux" ] && command -v nm >/dev/null 2>&1 || return 0
	texts() { awk 'NF == 3 && $2 ~ /^[tT]$/ { print $3 }' | sort | uniq -c; }
	# shellcheck disable=SC2086 # a list of files
	nm --defined-only $objs | texts > "$dir/kcsan-objs.count"
	nm "$k/vmlinux" | texts > "$dir/kcsan-vmlinux.count"
	awk 'NR == FNR { v[$2] = $1; next }
		$2 !~ /^_sub_/ && !($2 in v && v[$2] > $1) { sub(/\..*/, "", $2); print $2 }' \
		"$dir/kcsan-vmlinux.count" "$dir/kcsan-objs.count" | sort -u > "$dir/kcsan-ours.txt"
	rm -f "$dir/kcsan-objs.count" "$dir/kcsan-vmlinux.count"
}

strip "$console" > "$dir/console.txt"
grep -q '^BUG: KCSAN: ' "$dir/console.txt" && kcsan_ours
# The guest's init copies the job's output to the console with the prefix
# "guest| " (scripts/guest/init): that is the job talking, not the kernel,
# and is left out of the splat scan. A KCSAN report is one splat: its title
# line, marked "[KCSAN in zsmalloc/zram: FUNCTION]" or "[KCSAN elsewhere:
# listed, not failed]". The lines of its body are not scanned (a frame such
# as rcu_..._stall is no stall); another CPU's message printed in the
# middle of it is (it does not end the report, whose stack may go on after
# it). A report ends with its closing line of "=", the next KCSAN report
# or the end of the console.
grep -v '^guest| ' "$dir/console.txt" | awk -v splats="$SPLATS" \
	-v ourfile="$dir/kcsan-ours.txt" -v kcsan="$dir/kcsan.txt" '
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
	inrep = 1; title = $0; hit = ""; footer = 0
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
	for (i = 1; i <= NF; i++)
		if (hit == "" && $i ~ /\+0x[0-9a-f]+\/0x[0-9a-f]+$/ && mine($i))
			hit = base($i)
	next
}
$0 ~ splats { print }
END { report_done() }
' > "$dir/splats.txt"
[ -s "$dir/kcsan.txt" ] || rm -f "$dir/kcsan.txt"
LISTED=' \[KCSAN elsewhere: listed, not failed\]$'
# Built-in KUnit suites run before init: read KTAP from that part only.
sed '/^Run .* as init process/q' "$dir/console.txt" > "$dir/kunit.ktap"

# KUnit: every result at every depth that has no results nested under it
# (a test case, or one parameter of a parameterised case) counts once; a
# result with nested ones (a suite, a parameterised case) only adds a
# failure if it failed while none of its own did (a crash, a timeout).
# Depth: four spaces of indentation a level.
awk '
function depth(l,   n) { n = match(l, /[^ ]/) - 1; return int(n / 4) }
/^ *(not )?ok [0-9]+ / {
	d = depth($0); line = $0; sub(/^ */, "", line)
	bad = line ~ /^not ok/; skipped = line ~ /# SKIP/
	if (kids[d + 1] > 0) {
		if (bad && !badkids[d + 1]) { f++; print "FAIL kunit: " line }
	} else if (skipped) { s++; print "skip kunit: " line }
	else if (bad) { f++; print "FAIL kunit: " line }
	else p++
	kids[d + 1] = 0; badkids[d + 1] = 0
	kids[d]++; if (bad) badkids[d] = 1
}
END { printf("kunit %d %d %d\n", p, f, s) > "/dev/stderr" }
' "$dir/kunit.ktap" 2> "$dir/kunit.count" > "$dir/kunit.txt" || true
read -r _ kp kf ks < "$dir/kunit.count"
# A suite that crashed before it finished leaves "# Subtest:" without a result.
suites=$(grep -c '^    # Subtest:' "$dir/kunit.ktap" || true)
done_suites=$(grep -cE '^(not )?ok [0-9]+ ' "$dir/kunit.ktap" || true)
if [ "$suites" != "$done_suites" ]; then
	kf=$((kf + 1))
	say "FAIL kunit: $suites suites started but $done_suites finished"
fi
# vm.sh says whether this kernel runs KUnit suites at boot: then a console
# without them (KUnit off, or a crash before it ran) fails.
if [ "$(cat "$dir/ktap-expected" 2>/dev/null)" = 1 ] && [ "$suites" = 0 ]; then
	kf=$((kf + 1))
	say "FAIL kunit: this kernel runs KUnit at boot, but the console has no KTAP"
fi

hp=$(grep -c '^HARNESS: ok ' "$report" || true)
hf=$(grep -c '^HARNESS: not ok ' "$report" || true)
hs=$(grep -c '^HARNESS: skip ' "$report" || true)

passed=$((kp + hp))
failed=$((kf + hf))
skipped=$((ks + hs))

# The guest must have reported, and reported success.
rc=$(sed -n 's/.*HARNESS-RESULT job=[^ ]* rc=\([0-9]*\).*/\1/p' "$report" | tail -1)
if [ "${rc:-x}" = 0 ]; then passed=$((passed + 1)); else
	failed=$((failed + 1)); say "FAIL guest job: rc=${rc:-none (no result reported)}"; fi

nsplat=$(grep -cv "$LISTED" "$dir/splats.txt" || true)
if [ "$nsplat" != 0 ]; then
	failed=$((failed + 1))
	say "FAIL kernel splats on the console ($nsplat lines, first ones):"
	grep -v "$LISTED" "$dir/splats.txt" | head -10 | sed 's/^/    /'
else
	passed=$((passed + 1))
fi
nlisted=$(grep -c "$LISTED" "$dir/splats.txt" || true)
if [ "$nlisted" != 0 ]; then
	say "listed, not failed: $nlisted KCSAN reports elsewhere in the kernel (not in zsmalloc or zram):"
	grep "$LISTED" "$dir/splats.txt" | sed "s/$LISTED//; s/^/    /"
fi

grep '^HARNESS: not ok ' "$report" | sed 's/^HARNESS: not ok /FAIL /' || true
grep '^HARNESS: skip ' "$report" | sed 's/^HARNESS: skip /skip /' || true
cat "$dir/kunit.txt"
say "kunit: $kp passed, $kf failed, $ks skipped ($suites suites started, $done_suites results at top level)"
say "guest checks: $hp passed, $hf failed, $hs skipped"
echo "$passed passed, $failed failed, $skipped skipped" > "$dir/summary"
say "$passed passed, $failed failed, $skipped skipped"
[ "$failed" = 0 ]
