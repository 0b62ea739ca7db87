#!/bin/sh
# The test job: the KUnit suites ran at boot (the host reads them from the
# console); here the zram kselftests and the verified swap workload.
. /harness/lib.sh
echo "test: kernel $(uname -r), $(nproc) CPUs"

case "${HARNESS_INJECT:-}" in
fail) fail "injected failure (harness.inject=fail)" ;;
panic) echo c > /proc/sysrq-trigger ;;
esac

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
	cd /kselftest
	./run_kselftest.sh $select 2>&1 | tee /tmp/kselftest.log
	cd /
	grep -E '^(not )?ok [0-9]+ selftests:' /tmp/kselftest.log | while read -r line; do
		case "$line" in
		*"# SKIP"*) skip "kselftest: ${line#*selftests: }" ;;
		"not ok"*) fail "kselftest: ${line#*selftests: }" ;;
		*) pass "kselftest: ${line#*selftests: }" ;;
		esac
	done
	grep -qE '^(not )?ok [0-9]+ selftests:' /tmp/kselftest.log ||
		fail "kselftest: runner printed no result"
	grep -qE '^not ok [0-9]+ selftests:' /tmp/kselftest.log && HARNESS_FAILED=1
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
exit $HARNESS_FAILED
