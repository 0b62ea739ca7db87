#!/bin/sh
# The test job: the KUnit suites ran at boot (the host reads them from the
# console); here the zram kselftests, the verified swap workload, zswap on
# each zpool backend, and reclaim under a write stream (stall-reclaim.sh).
. /harness/lib.sh
echo "test: kernel $(uname -r), $(nproc) CPUs"

inject

# kselftests, through the kselftest runner; one line per test program.
# harness.kselftests=zram03,zram07 runs only those.
select="-c zram"
if [ -n "${HARNESS_KSELFTESTS:-}" ]; then
	select=""
	for t in $(echo "$HARNESS_KSELFTESTS" | tr , ' '); do
		select="$select -t zram:$t.sh"
	done
fi
if [ -x /kselftest/run_kselftest.sh ]; then
	cd /kselftest || exit 1
	./run_kselftest.sh $select 2>&1 | tee /tmp/kselftest.log
	cd /
	# Every result of every program counts: each program's own KTAP
	# results (the runner prefixes them with "# "), and the program's
	# line where it printed none, or failed while none of its own did.
	awk '
	function out(kind, name) { printf("HARNESS: %s kselftest: %s\n", kind, name) }
	function kind(l) { return l ~ /# SKIP/ ? "skip" : (l ~ /^not ok/ ? "not ok" : "ok") }
	/^# selftests: / { prog = $0; sub(/^# selftests: [^:]*: /, "", prog); n = 0; bad = 0; why = ""; next }
	# A program that skipped as a whole says why in its plan: "1..0 # SKIP why".
	/^# 1\.\.0 # SKIP/ { why = $0; sub(/^# 1\.\.0 # SKIP */, "", why); next }
	/^# (not )?ok [0-9]+ / {
		l = $0; sub(/^# /, "", l); k = kind(l); sub(/^(not )?ok [0-9]+ /, "", l)
		out(k, prog ": " l); n++; if (k == "not ok") bad = 1; next
	}
	/^(not )?ok [0-9]+ selftests: / {
		l = $0; k = kind(l); sub(/^(not )?ok [0-9]+ selftests: [^:]*: /, "", l)
		if (k == "skip" && why != "") { sub(/ *# SKIP.*$/, "", l); l = l " # SKIP " why }
		if (n == 0 || (k == "not ok" && !bad)) out(k, l)
		prog = ""; n = 0; bad = 0
	}
	' /tmp/kselftest.log > /tmp/kselftest.results
	cat /tmp/kselftest.results
	grep -q '^HARNESS: not ok ' /tmp/kselftest.results && HARNESS_FAILED=1
	grep -qE '^(not )?ok [0-9]+ selftests:' /tmp/kselftest.log ||
		fail "kselftest: runner printed no result"
else
	fail "kselftest: /kselftest/run_kselftest.sh missing from the initramfs"
fi

# harness.workloads=0 stops here (with harness.kselftests: one test alone).
[ "${HARNESS_WORKLOADS:-1}" = 0 ] && exit $HARNESS_FAILED

# The swap workload with verification, a smaller load than "make run".
for algo in ${HARNESS_ALGOS:-lz4 zstd}; do
	ALGO=$algo LIMIT_MB=${HARNESS_LIMIT:-64} PERCENT=150 PASSES=1 /harness/swap-workload.sh || HARNESS_FAILED=1
done

# zswap through zpool, on each backend in turn (zsmalloc, zbud, z3fold).
ZPOOLS=$(echo "${HARNESS_ZPOOLS:-zsmalloc,zbud,z3fold}" | tr , ' ') \
	/harness/zswap-workload.sh || HARNESS_FAILED=1

# Reclaim under a write stream (issue 12, item 2): O_DIRECT writers on a
# file system on zram0 while swap-out goes to a swap file on it. Where the
# kernel has the hung-task detector (debug), a task blocked 30 s
# (harness.stall) is reported, and that fails the run.
STALL_S=${HARNESS_STALL:-30} /harness/stall-reclaim.sh || HARNESS_FAILED=1
exit $HARNESS_FAILED
