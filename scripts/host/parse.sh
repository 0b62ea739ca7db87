#!/bin/sh
# Read a finished run offline and judge it:  parse.sh RUNDIR
# Counts the KUnit test cases from the console's KTAP output, the guest's
# checks ("HARNESS: ok|not ok|skip NAME" in report.log), and adds one check
# that the console is free of kernel splats (any WARNING, BUG, Oops, lockdep,
# KASAN, UBSAN or KFENCE report, or panic fails it, whatever the guest said).
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

# Strip printk timestamps: "[   12.345678] text" -> "text".
strip() { sed 's/^\[ *[0-9]*\.[0-9]*\] //' "$1" | tr -d '\r'; }

SPLATS='WARNING:|BUG:|Oops|Kernel panic|general protection fault|KASAN:|UBSAN:|KFENCE:|possible circular locking|possible recursive locking|inconsistent lock state|lock held when returning|suspicious RCU usage|INFO: task .* blocked|soft lockup|hard LOCKUP|rcu_.*stall|Unable to handle|kernel BUG|list_add corruption|list_del corruption|bad page state|BUG: sleeping function'

strip "$console" > "$dir/console.txt"
# The guest's init copies the job's output to the console with the prefix
# "guest| " (scripts/guest/init): that is the job talking, not the kernel,
# and is left out of the splat scan.
grep -v '^guest| ' "$dir/console.txt" | grep -E "$SPLATS" > "$dir/splats.txt" || true
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

if [ -s "$dir/splats.txt" ]; then
	failed=$((failed + 1))
	say "FAIL kernel splats on the console ($(wc -l < "$dir/splats.txt") lines, first ones):"
	head -10 "$dir/splats.txt" | sed 's/^/    /'
else
	passed=$((passed + 1))
fi

grep '^HARNESS: not ok ' "$report" | sed 's/^HARNESS: not ok /FAIL /' || true
grep '^HARNESS: skip ' "$report" | sed 's/^HARNESS: skip /skip /' || true
cat "$dir/kunit.txt"
say "kunit: $kp passed, $kf failed, $ks skipped ($suites suites started, $done_suites results at top level)"
say "guest checks: $hp passed, $hf failed, $hs skipped"
echo "$passed passed, $failed failed, $skipped skipped" > "$dir/summary"
say "$passed passed, $failed failed, $skipped skipped"
[ "$failed" = 0 ]
