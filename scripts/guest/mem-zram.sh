#!/bin/sh
# The memory that zram's per-CPU compression streams take, in the guest:
# for each algorithm (HARNESS_ALGOS, default zstd,lz4) and run (HARNESS_RUNS,
# default 3), reset zram0, set the algorithm, and read /proc/meminfo before
# and after writing "disksize" (HARNESS_DISKSIZE, default 256M), which
# allocates the streams of every online CPU. Prints
#   BENCH-ZRAM-MEM algo= cpus= run= workload=mem percpu_kb_before= ...after=
#     memfree_kb_before= ...after= memavail_kb_before= ...after=
#     vmalloc_kb_before= ...after= sunreclaim_kb_before= ...after=
# Percpu: counts only the per-CPU allocator (the stream structures); the
# backends' contexts and buffers are vmalloc memory (VmallocUsed, with
# zram's slot table, the same for every kernel) and unreclaimable slab
# (SUnreclaim: kmalloc'ed buffers such as local_copy). The MemFree drop
# holds all of these but, with 64 CPUs, also the pages that sit on the
# per-CPU free lists, which makes it noisy by megabytes.
. "$(dirname "$0")/lib.sh"

ALGOS=$(echo "${HARNESS_ALGOS:-zstd lz4}" | tr ',' ' ')
RUNS=${HARNESS_RUNS:-3}
DISKSIZE=${HARNESS_DISKSIZE:-256M}
SYS=/sys/block/zram0
cpus=$(nproc 2>/dev/null || grep -c '^processor' /proc/cpuinfo)

[ -d "$SYS" ] || cat /sys/class/zram-control/hot_add > /dev/null
echo "mem-zram: kernel $(uname -r), $cpus CPUs, MemTotal $(meminfo_kb MemTotal) kB," \
	"preempt $(cat /sys/kernel/debug/sched/preempt 2>/dev/null)"
for algo in $ALGOS; do
	for run in $(seq 1 "$RUNS"); do
		ok=0
		echo 1 > "$SYS/reset" && echo "$algo" > "$SYS/comp_algorithm" && ok=1
		sync
		echo 3 > /proc/sys/vm/drop_caches 2> /dev/null
		pc0=$(meminfo_kb Percpu) mf0=$(meminfo_kb MemFree)
		ma0=$(meminfo_kb MemAvailable) vm0=$(meminfo_kb VmallocUsed)
		su0=$(meminfo_kb SUnreclaim)
		[ $ok = 1 ] && echo "$DISKSIZE" > "$SYS/disksize" || ok=0
		pc1=$(meminfo_kb Percpu) mf1=$(meminfo_kb MemFree)
		ma1=$(meminfo_kb MemAvailable) vm1=$(meminfo_kb VmallocUsed)
		su1=$(meminfo_kb SUnreclaim)
		if [ $ok = 1 ]; then
			echo "BENCH-ZRAM-MEM algo=$algo cpus=$cpus run=$run workload=mem" \
				"percpu_kb_before=$pc0 percpu_kb_after=$pc1" \
				"memfree_kb_before=$mf0 memfree_kb_after=$mf1" \
				"memavail_kb_before=$ma0 memavail_kb_after=$ma1" \
				"vmalloc_kb_before=$vm0 vmalloc_kb_after=$vm1" \
				"sunreclaim_kb_before=$su0 sunreclaim_kb_after=$su1"
			pass "mem-zram: $algo run $run"
		else
			fail "mem-zram: $algo run $run (zram0 refused the setup)"
		fi
	done
done
echo 1 > "$SYS/reset"
exit $HARNESS_FAILED
