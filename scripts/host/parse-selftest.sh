#!/bin/sh
# The judge judged: run parse.sh on saved runs (scripts/host/parse-tests/
# CASE/: console.log, report.log, ktap-expected as vm.sh leaves them) and
# check its exit status and summary line against CASE/expect (a comment
# line, the exit status, the summary line). A passing run, a WARNING, a
# KUnit failure, nested skips, a crash before KTAP ends, no KTAP, no
# console, no guest result, a job that prints "BUG:", a failed guest check.
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
	rm -f "$tmp/$name/expect"
	rc=0
	sh "$TOP/scripts/host/parse.sh" "$tmp/$name" > "$tmp/$name.out" 2>&1 || rc=$?
	got=$(tail -1 "$tmp/$name.out")
	want_rc=$(sed -n 2p "$c/expect")
	want=$(sed -n 3p "$c/expect")
	if [ "$rc" = "$want_rc" ] && [ "$got" = "$want" ]; then
		p=$((p + 1))
	else
		f=$((f + 1))
		say "parse-selftest: FAIL $name ($(sed -n 's/^# //p' "$c/expect")):" \
			"exit $rc, '$got'; expected exit $want_rc, '$want'"
		sed 's/^/    /' "$tmp/$name.out"
	fi
done
say "parse-selftest: $p passed, $f failed"
[ "$f" = 0 ]
