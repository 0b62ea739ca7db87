#!/bin/sh
# The judge judged: run parse.sh on saved runs (scripts/host/parse-tests/
# CASE/: console.log, report.log, ktap-expected as vm.sh leaves them, and
# kcsan-ours.txt as parse.sh saves it) and check its exit status and
# summary line against CASE/expect (a comment line, the exit status, the
# summary line), and its splats.txt against CASE/splats.expect where there
# is one. A passing run, a WARNING, a KUnit failure, nested skips, a crash
# before KTAP ends, no KTAP, no console, no guest result, a job that prints
# "BUG:", a failed guest check; KCSAN reports (kcsan-*): a race in zram, on
# a stack through zram, of unknown origin in zsmalloc, in zsmalloc's static
# helpers (the saved symbol list), elsewhere in the kernel (listed, passes),
# and elsewhere beside another BUG (fails); known bugs (known-bug-*): one
# that showed (expected failures), one that did not, one beside another
# report, one without a sign, one beside a check that ran and failed.
# Prints "parse-selftest: N passed, N failed"; exits 1 on any mismatch.
set -u
. "$(dirname "$0")/lib.sh"

cases=$TOP/scripts/host/parse-tests
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
p=0 f=0
for c in "$cases"/*/; do
	name=$(basename "$c")
	rm -rf "${tmp:?}/$name"
	cp -r "$c" "$tmp/$name"
	rm -f "$tmp/$name/expect" "$tmp/$name/splats.expect"
	rc=0
	sh "$TOP/scripts/host/parse.sh" "$tmp/$name" > "$tmp/$name.out" 2>&1 || rc=$?
	got=$(tail -1 "$tmp/$name.out")
	want_rc=$(sed -n 2p "$c/expect")
	want=$(sed -n 3p "$c/expect")
	splats_ok=1
	if [ -f "$c/splats.expect" ] && ! cmp -s "$c/splats.expect" "$tmp/$name/splats.txt"; then
		splats_ok=0
	fi
	if [ "$rc" = "$want_rc" ] && [ "$got" = "$want" ] && [ $splats_ok = 1 ]; then
		p=$((p + 1))
	else
		f=$((f + 1))
		say "parse-selftest: FAIL $name ($(sed -n 's/^# //p' "$c/expect")):" \
			"exit $rc, '$got'; expected exit $want_rc, '$want'"
		[ $splats_ok = 1 ] || { say "    splats.txt differs from splats.expect:"
			diff "$c/splats.expect" "$tmp/$name/splats.txt" | sed 's/^/    /'; }
		sed 's/^/    /' "$tmp/$name.out"
	fi
done
say "parse-selftest: $p passed, $f failed"
[ "$f" = 0 ]
