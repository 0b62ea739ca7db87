#!/bin/sh
# The zsmalloc API microbenchmark (see scripts/host/bench-zsmalloc.sh): the
# kernel's API (zsbench.ko), then, if the host built it, the same loops
# without zsmalloc (zsbench-copy.ko).
/harness/bench-zsmalloc.sh "${HARNESS_RUNS:-10}" || exit 1
[ -f /lib/bench/zsbench-copy.ko ] || exit 0
exec /harness/bench-zsmalloc.sh "${HARNESS_RUNS:-10}" "" /lib/bench/zsbench-copy.ko
