#!/bin/sh
# The test job: the KUnit suites ran at boot (the host reads them from the
# console); here the zram kselftests, the verified swap workload, zswap on
# each zpool backend, and reclaim under a write stream (stall-reclaim.sh).
. /harness/lib.sh
echo "test: kernel $(uname -r), $(nproc) CPUs"

inject

# kselftests, through the kselftest runner, whose output goes to the report.
# harness.kselftests=zram03,zram07 runs only those; harness.rounds=N runs
# them N times in a row (each result counts every time).
select="-c zram"
if [ -n "${HARNESS_KSELFTESTS:-}" ]; then
	select=""
	for t in $(echo "$HARNESS_KSELFTESTS" | tr , ' '); do
		select="$select -t zram:$t.sh"
	done
fi
if [ -x /kselftest/run_kselftest.sh ]; then
	cd /kselftest || exit 1
	: > /tmp/kselftest.log
	round=0
	while [ "$round" -lt "${HARNESS_ROUNDS:-1}" ]; do
		round=$((round + 1))
		[ "${HARNESS_ROUNDS:-1}" = 1 ] || echo "test: kselftest round $round of $HARNESS_ROUNDS"
		./run_kselftest.sh $select 2>&1 | tee -a /tmp/kselftest.log
	done
	cd /
	# The host reads every result from the runner's output in the report
	# (scripts/host/checks.awk): that record is the judge's. The job's exit
	# status only says whether any result failed (a "not ok" that is no
	# SKIP, a program's or one of its own).
	grep -E '^(# )?not ok [0-9]+ ' /tmp/kselftest.log | grep -qv '# SKIP' && HARNESS_FAILED=1
	grep -qE '^(not )?ok [0-9]+ selftests:' /tmp/kselftest.log ||
		fail "kselftest: runner printed no result"
else
	fail "kselftest: /kselftest/run_kselftest.sh missing from the initramfs"
fi

# harness.workloads=0 stops here (with harness.kselftests: one test alone).
[ "${HARNESS_WORKLOADS:-1}" = 0 ] && exit $HARNESS_FAILED

# Read contexts after CPUs go offline and back: a sysfs cycle, and a
# suspend to RAM stopped at pm_test's "core" (where the kernel has it).
/harness/suspend-contexts.sh || HARNESS_FAILED=1

# The swap workload with verification, a smaller load than "make run".
for algo in ${HARNESS_ALGOS:-lz4 zstd}; do
	HARNESS_ALGO=$algo HARNESS_LIMIT=${HARNESS_LIMIT:-64} HARNESS_PERCENT=${HARNESS_PERCENT:-150} \
		HARNESS_PASSES=${HARNESS_PASSES:-1} /harness/swap-workload.sh || HARNESS_FAILED=1
done

# zswap through zpool, on each backend in turn (zsmalloc, zbud, z3fold).
/harness/zswap-workload.sh || HARNESS_FAILED=1

# Reclaim under a write stream (found in review): O_DIRECT writers on a
# file system on zram0 while swap-out goes to a swap file on it. Where the
# kernel has the hung-task detector (debug), a task blocked 120 s
# (harness.hung) is reported, and that fails the run; kswapd0 may sleep
# 30 s in one wait at most (harness.stall).
HARNESS_STALL=${HARNESS_STALL:-30} /harness/stall-reclaim.sh || HARNESS_FAILED=1
exit $HARNESS_FAILED
