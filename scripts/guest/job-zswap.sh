#!/bin/sh
# zswap alone, for each zpool backend of harness.zpools (default zsmalloc,
# zbud, z3fold), harness.repeat times (default 1): the zswap part of the
# test job, to compare kernels (e.g. base and patched) on it.
. /harness/lib.sh
echo "zswap: kernel $(uname -r), $(nproc) CPUs"
i=0
while [ $i -lt "${HARNESS_REPEAT:-1}" ]; do
	/harness/zswap-workload.sh || HARNESS_FAILED=1
	i=$((i + 1))
done
exit $HARNESS_FAILED
