#!/bin/sh
# zswap in front of a zram swap device, for each zpool backend in turn
# (zsmalloc, zbud, z3fold; a kernel without zpool, 7.3, has zsmalloc
# alone and skips the others): our verified workload (swapverify) of more than
# the memory left to it, paged out once written and read back, then zswap's
# counters must show pages stored and loaded.
#   harness.zpools=zsmalloc,zbud,z3fold (the default)
# Constants: COMPRESSOR=lzo  LIMIT_MB=128
. /harness/lib.sh
ZPOOLS=$(echo "${HARNESS_ZPOOLS:-zsmalloc,zbud,z3fold}" | tr , ' ')
COMPRESSOR=lzo
par=/sys/module/zswap/parameters
dbg=/sys/kernel/debug/zswap

if [ ! -d "$par" ]; then
	skip "zswap: not built in"
	exit 0
fi
mem_kb=$(meminfo_kb MemTotal)
LIMIT_MB=128
POOL_PERCENT=10
echo 0 > /proc/sys/vm/page-cluster

for zpool in $ZPOOLS; do
	if [ ! -e "$par/zpool" ]; then
		# 7.3: no zpool; zswap calls zsmalloc itself, and zbud and
		# z3fold are gone. zsmalloc is what it runs on.
		if [ "$zpool" != zsmalloc ]; then
			skip "zswap: $zpool (zswap has no zpool parameter: zsmalloc only)"
			continue
		fi
	elif ! echo "$zpool" > "$par/zpool" 2>/dev/null; then
		fail "zswap: zpool $zpool could not be selected"
		continue
	fi
	echo "$COMPRESSOR" > "$par/compressor"
	# A small pool: zswap's pool and zram's store share the memory left.
	echo "$POOL_PERCENT" > "$par/max_pool_percent"
	echo Y > "$par/enabled"
	# The swap device behind zswap; zswap writes back to it when full.
	echo lz4 > /sys/block/zram0/comp_algorithm
	echo $((LIMIT_MB * 4))M > /sys/block/zram0/disksize
	mkswap /dev/zram0 > /dev/null && swapon /dev/zram0

	out0=$(vmstat zswpout); in0=$(vmstat zswpin)
	# The available memory locked but LIMIT_MB and room for zswap's pool
	# (up to POOL_PERCENT of the RAM): without that room the kernel runs
	# out of memory with swap to spare (an OOM kill on arm64 with 16 KiB
	# pages; on 32-bit HIGHMEM, the lock takes highmem first, then the
	# lowmem where zbud and z3fold keep their pool). The workload, a
	# quarter larger than LIMIT_MB, is paged out once written (-p), so
	# that its reads load from zswap what zswap did not write back:
	# reclaim alone may leave zswap nothing that is read again.
	lock_mb=$(( $(meminfo_kb MemAvailable) / 1024 - LIMIT_MB -
		mem_kb / 1024 * POOL_PERCENT / 100 ))
	swapverify -p -l "$lock_mb" $((LIMIT_MB * 5 / 4)) 1 > /tmp/zswap.log 2>&1
	rc=$?
	cat /tmp/zswap.log
	out1=$(vmstat zswpout); in1=$(vmstat zswpin)
	echo "zswap: $zpool/$COMPRESSOR: zswpout $((out1 - out0)), zswpin $((in1 - in0))," \
		"stored_pages $(cat $dbg/stored_pages 2>/dev/null), written_back" \
		"$(cat $dbg/written_back_pages 2>/dev/null), reject_compress_poor" \
		"$(cat $dbg/reject_compress_poor 2>/dev/null)"
	grep -iE 'fail|error' /tmp/zswap.log | head -5

	check "zswap: workload verified its data ($zpool)" [ "$rc" -eq 0 ]
	check "zswap: pages stored ($zpool)" [ $((out1 - out0)) -gt 0 ]
	check "zswap: pages loaded ($zpool)" [ $((in1 - in0)) -gt 0 ]

	swapoff /dev/zram0 || fail "zswap: swapoff ($zpool)"
	echo N > "$par/enabled"
	echo 1 > /sys/block/zram0/reset
done
exit $HARNESS_FAILED
