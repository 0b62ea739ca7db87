#!/bin/sh
# The judge judged: run parse.sh on saved runs (scripts/host/parse-tests/
# CASE/: console.log, report.log, ktap-expected as vm.sh leaves them, and
# kcsan-ours.txt as parse.sh saves it) and check its exit status and
# summary line against CASE/expect (a comment line, the exit status, the
# summary line), its splats.txt against CASE/splats.expect, its record
# results.tsv against CASE/results.expect, and the matrix row's columns
# made from that record (matrix-row.awk) against CASE/matrix.expect, the
# manifest that manifest-gen.sh drafts from it against CASE/draft.expect,
# and the guest's own scan of its kernel log (scripts/guest/kernel-log.awk,
# run on the console) against CASE/health.expect, each where the case has
# one. Then matrix-table.awk on bench/results/matrix.md. A passing run, a WARNING, a KUnit failure, nested skips, a crash
# before KTAP ends, no KTAP, no console, no guest result, a job that prints
# "BUG:", a failed guest check; reports cut to their framing line, split
# or with a byte that is no UTF-8 or a NUL; KTAP plans and parameter
# numbers kunit.py parse finds short; a QEMU timeout; a job whose guest ran
# none of its manifest's tests, or another job; partial runs (a KUnit
# filter, an empty kselftest list); KCSAN reports (kcsan-*): a race in zram, in
# the kernel with zram or a zsmalloc test deep on its stack (listed), of
# unknown origin in zsmalloc, in zsmalloc's static helpers (the saved
# symbol list), elsewhere in the kernel (listed, passes),
# and elsewhere beside another BUG (fails); known bugs (known-bug-*): one
# that showed (expected failures), one that did not, one beside another
# report, one without a sign, one beside a check that ran and failed, and
# (kb-*) a hung task without the sign on its stack, the hung-task
# detector's lines on a semaphore, an rw-semaphore or an unknown owner; the
# kselftest runner's output (kselftest-*): read on the host, a program cut
# short, and the report of a guest from before, which printed its own
# HARNESS lines for it; a KSRC tree judged as the stock kernel and as the
# series (ksrc-as-*).
# Prints "parse-selftest: N passed, N failed"; exits 1 on any mismatch.
set -u
. "$(dirname "$0")/lib.sh"

cases=$TOP/scripts/host/parse-tests
# parse.sh reads KTAP with the kernel's own parser (kunit.py parse), from a
# kernel tree of the harness or KUNIT_PY.
[ -n "${KUNIT_PY:-}" ] || [ -f "$BUILD/linux/tools/testing/kunit/kunit.py" ] ||
	[ -f "$BUILD/7.3/linux/tools/testing/kunit/kunit.py" ] ||
	die "parse-selftest: no kernel tree for kunit.py: run 'make tree' (or set KUNIT_PY=FILE)"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
p=0 f=0
for c in "$cases"/*/; do
	name=$(basename "$c")
	rm -rf "${tmp:?}/$name"
	cp -r "$c" "$tmp/$name"
	rm -f "$tmp/$name"/*expect
	rc=0
	sh "$TOP/scripts/host/parse.sh" "$tmp/$name" > "$tmp/$name.out" 2>&1 || rc=$?
	got=$(tail -1 "$tmp/$name.out")
	want_rc=$(sed -n 2p "$c/expect")
	want=$(sed -n 3p "$c/expect")
	# The record with the case's folder named CASE/ (a manifest's path).
	if [ -f "$tmp/$name/results.tsv" ]; then
		sed "s#$tmp/$name/#CASE/#g" "$tmp/$name/results.tsv" > "$tmp/$name/results.txt"
		awk -f "$TOP/scripts/host/matrix-row.awk" "$tmp/$name/results.tsv" > "$tmp/$name/matrix.txt"
		sh "$TOP/scripts/host/manifest-gen.sh" "$tmp/$name" > "$tmp/$name/draft.txt" 2>&1
	fi
	# The guest's scan of its kernel log (health.sh), over the console.
	[ ! -f "$c/health.expect" ] ||
		awk -v splats="$(cat "$TOP/scripts/guest/splats.ere")" -f "$TOP/scripts/guest/kernel-log.awk" \
			"$c/console.log" > "$tmp/$name/health.txt" 2>&1
	# The files that differ from the case's FILE.expect: "splats:splats.txt ...".
	differ=""
	[ ! -f "$tmp/$name/run.ktap" ] || sed "s#$tmp/$name/#CASE/#g" "$tmp/$name/run.ktap" > "$tmp/$name/ktap.txt"
	for e in splats:splats.txt results:results.txt matrix:matrix.txt draft:draft.txt health:health.txt ktap:ktap.txt; do
		[ ! -f "$c/${e%%:*}.expect" ] || cmp -s "$c/${e%%:*}.expect" "$tmp/$name/${e#*:}" ||
			differ="$differ $e"
	done
	if [ "$rc" = "$want_rc" ] && [ "$got" = "$want" ] && [ -z "$differ" ]; then
		p=$((p + 1))
	else
		f=$((f + 1))
		say "parse-selftest: FAIL $name ($(sed -n 's/^# //p' "$c/expect")):" \
			"exit $rc, '$got'; expected exit $want_rc, '$want'"
		for e in $differ; do
			say "    ${e#*:} differs from ${e%%:*}.expect:"
			diff "$c/${e%%:*}.expect" "$tmp/$name/${e#*:}" | sed 's/^/    /'
		done
		sed 's/^/    /' "$tmp/$name.out"
	fi
done

# matrix.sh keeps the committed table's rows (matrix-table.awk): each of
# bench/results/matrix.md's rows comes back whole, once, in its own file.
table=$TOP/bench/results/matrix.md
mkdir "$tmp/rows"
awk -v rows="$tmp/rows" -f "$TOP/scripts/host/matrix-table.awk" "$table"
want=$(grep '^| ' "$table" | grep -Ev '^\| (flavour|---) ' | sort)
got=$(cat "$tmp"/rows/* 2>/dev/null | sort)
if [ -n "$want" ] && [ "$got" = "$want" ]; then
	p=$((p + 1))
else
	f=$((f + 1))
	say "parse-selftest: FAIL matrix-table.awk: the rows of $table do not come back whole:"
	printf '%s\n' "$want" > "$tmp/want"; printf '%s\n' "$got" > "$tmp/got"
	diff "$tmp/want" "$tmp/got" | sed 's/^/    /'
fi
say "parse-selftest: $p passed, $f failed"
[ "$f" = 0 ]
