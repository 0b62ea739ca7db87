#!/bin/sh
# Write cost per algorithm, in the guest (busybox sh, fio). See
# scripts/host/bench-write.sh. Parameters (harness.NAME=value; lists take
# commas): HARNESS_ALGOS=lzo-rle,lzo,lz4 (zstd:N: zstd at level N)
# HARNESS_RUNS=3 (seeds)  HARNESS_SECONDS=2  HARNESS_DATA=50,0 (fio's
# buffer_compress_percentage: 50 % compressible pages, and pages that do
# not compress)
# For each algorithm, data kind and seed: zram0 of 64 MiB reset and set
# up, one fio writer (4 KiB random direct psync writes, no pause) for
# SECONDS on one CPU's worth of time; prints
#   BENCH-WRITE algo= data= run= cpus= iops= kib_s= huge_pages= compr_kb= orig_kb=
. "$(dirname "$0")/lib.sh"

ALGOS=$(echo "${HARNESS_ALGOS:-lzo-rle,lzo,lz4}" | tr ',' ' ')
RUNS=${HARNESS_RUNS:-3}
SECS=${HARNESS_SECONDS:-2}
DATA=$(echo "${HARNESS_DATA:-50,0}" | tr ',' ' ')
SYS=/sys/block/zram0
cpus=$(nproc 2>/dev/null || grep -c '^processor' /proc/cpuinfo)

command -v fio > /dev/null || { fail "bench-write: fio is missing (boot with FIO=1)"; exit 1; }
[ -d "$SYS" ] || cat /sys/class/zram-control/hot_add > /dev/null
[ -w /sys/module/zswap/parameters/enabled ] && echo N > /sys/module/zswap/parameters/enabled
echo "bench-write: kernel $(uname -r), $cpus CPUs, algorithms $ALGOS, data $DATA, $RUNS runs of $SECS s"
for algo in $ALGOS; do
	name=${algo%%:*} level=
	case $algo in *:*) level=${algo#*:} ;; esac
	for data in $DATA; do
		for run in $(seq 1 "$RUNS"); do
			echo 1 > $SYS/reset
			if ! { echo "$name" > $SYS/comp_algorithm &&
				{ [ -z "$level" ] || echo "algo=$name level=$level" > $SYS/algorithm_params; } &&
				echo 64M > $SYS/disksize; }; then
				fail "bench-write: $algo setup"
				continue
			fi
			out=$(fio --name=w --filename=/dev/zram0 --rw=randwrite --bs=4k --direct=1 \
				--ioengine=psync --size=64M --time_based --runtime="$SECS" --randseed="$run" \
				--buffer_compress_percentage="$data" --refill_buffers \
				--output-format=terse --terse-version=3 2>&1)
			rc=$?
			# terse v3: field 49 write IOPS, 48 write KiB/s
			iops=$(echo "$out" | awk -F';' 'NF > 50 { print $49 }')
			kib=$(echo "$out" | awk -F';' 'NF > 50 { print $48 }')
			if [ "$rc" != 0 ] || [ -z "$iops" ]; then
				echo "$out"
				fail "bench-write: $algo data $data run $run"
				continue
			fi
			set -- $(cat $SYS/mm_stat)
			echo "BENCH-WRITE algo=$algo data=$data run=$run cpus=$cpus iops=$iops kib_s=$kib" \
				"huge_pages=${8:-0} compr_kb=$(($2 / 1024)) orig_kb=$(($1 / 1024))"
			pass "bench-write: $algo data $data run $run"
		done
	done
done
echo 1 > $SYS/reset
exit $HARNESS_FAILED
