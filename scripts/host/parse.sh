#!/bin/sh
# Read a finished run offline and judge it:  parse.sh RUNDIR
# Counts the KUnit test cases from the console's KTAP output, the guest's
# checks ("HARNESS: ok|not ok|skip NAME" in report.log), and adds one check
# that the console is free of kernel splats (any WARNING, BUG, Oops, lockdep,
# KASAN, UBSAN or KFENCE report, or panic fails it, whatever the guest said).
# Prints "N passed, N failed" last; exits 1 if anything failed.
set -eu
. "$(dirname "$0")/lib.sh"

dir=${1:?usage: parse.sh RUNDIR}
console=$dir/console.log
report=$dir/report.log
[ -f "$console" ] || die "no $console: run the job first"
[ -f "$report" ] || : > "$report"

# Strip printk timestamps: "[   12.345678] text" -> "text".
strip() { sed 's/^\[ *[0-9]*\.[0-9]*\] //' "$1" | tr -d '\r'; }

SPLATS='WARNING:|BUG:|Oops|Kernel panic|general protection fault|KASAN:|UBSAN:|KFENCE:|possible circular locking|possible recursive locking|inconsistent lock state|lock held when returning|suspicious RCU usage|INFO: task .* blocked|soft lockup|hard LOCKUP|rcu_.*stall|Unable to handle|kernel BUG|list_add corruption|list_del corruption|bad page state|BUG: sleeping function'

strip "$console" > "$dir/console.txt"
grep -E "$SPLATS" "$dir/console.txt" > "$dir/splats.txt" || true
# Built-in KUnit suites run before init: read KTAP from that part only.
sed '/^Run .* as init process/q' "$dir/console.txt" > "$dir/kunit.ktap"

# KUnit: a test case is a KTAP result line at depth 1 (four spaces), or a
# parameter of a parameterised case at depth 2 counted through its case.
awk '
/^    (not )?ok [0-9]+ / {
	line = $0; sub(/^    /, "", line)
	if (line ~ /# SKIP/) { s++; print "skip kunit: " line; next }
	if (line ~ /^not ok/) { f++; print "FAIL kunit: " line; next }
	p++
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
cat "$dir/kunit.txt"
say "kunit: $kp passed, $kf failed, $ks skipped ($suites suites started, $done_suites results at top level)"
say "guest checks: $hp passed, $hf failed, $hs skipped"
echo "$passed passed, $failed failed, $skipped skipped" > "$dir/summary"
say "$passed passed, $failed failed, $skipped skipped"
[ "$failed" = 0 ]
