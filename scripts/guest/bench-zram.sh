#!/bin/sh
# The zram read/write-streams benchmark, in the guest (busybox sh, fio).
# See scripts/host/bench-zram.sh. Parameters (harness.NAME=value on the
# kernel command line; lists take commas):
#   HARNESS_ALGOS=lz4,zstd  HARNESS_RUNS=3  HARNESS_RUNTIME=10 (s)
#   HARNESS_DISKSIZE=256M  HARNESS_JOBS (readers, and writers: online CPUs,
#   at least 2)  HARNESS_IOENGINE=psync
#
# For each algorithm, run and workload, zram0 is reset, set up and filled
# with fio (sequential 4 KiB direct writes of 50 % compressible, non-uniform
# data: zero-filled pages would never reach zsmalloc), then:
#   readers_vs_readers  N random 4 KiB direct readers
#   writers_vs_readers  the same readers and, in a separate fio group,
#                       N random 4 KiB direct writers of the same data
# for RUNTIME seconds. fio's terse (v3) output is parsed into one line per
# group; latencies are fio's total latency (lat: submission + completion),
# in microseconds, percentiles included (--lat_percentiles=1):
#   BENCH-ZRAM algo= workload= run= cpus= jobs= role=read|write iops=
#     avg_us= sd_us= min_us= p50_us= p99_us= p99_9_us= p99_99_us= max_us=
# and, for each setup:
#   BENCH-ZRAM-MEM algo= cpus= run= workload= percpu_kb_before= ...after=
#     memfree_kb_before= ...after= memavail_kb_before= ...after=
#     vmalloc_kb_before= ...after=      (/proc/meminfo around "disksize")
#   BENCH-ZRAM-FILL algo= workload= run= orig_kb= compr_kb= mem_used_kb=
#     same_pages= huge_pages=           (mm_stat after the fill)
# Exits non-zero if a step fails.
. "$(dirname "$0")/lib.sh"

ALGOS=$(echo "${HARNESS_ALGOS:-lz4 zstd}" | tr ',' ' ')
RUNS=${HARNESS_RUNS:-3}
RUNTIME=${HARNESS_RUNTIME:-10}
DISKSIZE=${HARNESS_DISKSIZE:-256M}
IOENGINE=${HARNESS_IOENGINE:-psync}
SYS=${ZRAM_SYS:-/sys/block/zram0}
DEV=${ZRAM_DEV:-/dev/zram0}
FIO=${FIO:-fio}
cpus=$(nproc 2>/dev/null || grep -c '^processor' /proc/cpuinfo)
jobs=${HARNESS_JOBS:-$cpus}
[ "$jobs" -ge 2 ] || jobs=2

# Data options shared by the fill and the writers.
DATA="--buffer_compress_percentage=50 --refill_buffers"
COMMON="--filename=$DEV --direct=1 --bs=4k --ioengine=$IOENGINE $DATA"

err() { echo "bench-zram: $*" >&2; }

command -v "$FIO" > /dev/null || { fail "bench-zram: fio is missing (boot with FIO=1)"; exit 1; }
[ -d "$SYS" ] || cat /sys/class/zram-control/hot_add > /dev/null

# setup ALGO RUN WORKLOAD: reset zram0, set ALGO and DISKSIZE, and print
# /proc/meminfo's figures from before and after "disksize" (which allocates
# the per-CPU streams).
setup() {
	algo=$1 run=$2 wl=$3
	echo 1 > "$SYS/reset" || { err "reset failed"; return 1; }
	echo "$algo" > "$SYS/comp_algorithm" ||
		{ err "comp_algorithm $algo refused (have: $(cat "$SYS/comp_algorithm"))"; return 1; }
	pc0=$(meminfo_kb Percpu) mf0=$(meminfo_kb MemFree)
	ma0=$(meminfo_kb MemAvailable) vm0=$(meminfo_kb VmallocUsed)
	echo "$DISKSIZE" > "$SYS/disksize" || { err "disksize $DISKSIZE refused"; return 1; }
	pc1=$(meminfo_kb Percpu) mf1=$(meminfo_kb MemFree)
	ma1=$(meminfo_kb MemAvailable) vm1=$(meminfo_kb VmallocUsed)
	echo "BENCH-ZRAM-MEM algo=$algo cpus=$cpus run=$run workload=$wl" \
		"percpu_kb_before=$pc0 percpu_kb_after=$pc1" \
		"memfree_kb_before=$mf0 memfree_kb_after=$mf1" \
		"memavail_kb_before=$ma0 memavail_kb_after=$ma1" \
		"vmalloc_kb_before=$vm0 vmalloc_kb_after=$vm1"
}

# fill ALGO RUN WORKLOAD: write the whole device, so that every read finds a
# compressed object, and print mm_stat.
fill() {
	algo=$1 run=$2 wl=$3
	$FIO --name=fill $COMMON --rw=write --output-format=terse \
		> /tmp/fill.out 2>&1 || { cat /tmp/fill.out; err "fill failed"; return 1; }
	set -- $(cat "$SYS/mm_stat")
	echo "BENCH-ZRAM-FILL algo=$algo workload=$wl run=$run orig_kb=$(($1 / 1024))" \
		"compr_kb=$(($2 / 1024)) mem_used_kb=$(($3 / 1024)) same_pages=${6:-0}" \
		"huge_pages=${8:-0}"
	[ "$2" -gt 0 ] || { err "nothing reached zsmalloc (mm_stat: $*)"; return 1; }
}

# measure ALGO RUN WORKLOAD: run the workload and print one line per group.
measure() {
	algo=$1 run=$2 wl=$3
	set -- --name=readers --rw=randread --numjobs="$jobs"
	[ "$wl" = writers_vs_readers ] &&
		set -- "$@" --name=writers --rw=randwrite --numjobs="$jobs" --new_group
	$FIO --output-format=terse --terse-version=3 --group_reporting \
		--lat_percentiles=1 --percentile_list=50:99:99.9:99.99 \
		--time_based --runtime="$RUNTIME" --norandommap --randrepeat=0 \
		$COMMON "$@" > /tmp/fio.out 2> /tmp/fio.err
	rc=$?
	# Terse v3, ';'-separated: 3 jobname groupid error, then READ status from
	# field 6 and WRITE status from field 47, each: io_kb bw_kbs iops
	# runtime_ms, slat min max mean sd, clat min max mean sd, 20 clat (here:
	# lat, with lat_percentiles) percentiles "P%=usec", lat min max mean sd,
	# bw min max pct mean sd.
	awk -F';' -v pre="BENCH-ZRAM algo=$algo workload=$wl run=$run cpus=$cpus jobs=$jobs" '
	$1 == "3" {
		if ($3 == "readers") { role = "read"; b = 6 } else { role = "write"; b = 47 }
		p50 = p99 = p999 = p9999 = "nan"
		for (i = b + 12; i <= b + 31; i++) {
			split($i, kv, "=")
			if (kv[1] == "50.000000%") p50 = kv[2]
			if (kv[1] == "99.000000%") p99 = kv[2]
			if (kv[1] == "99.900000%") p999 = kv[2]
			if (kv[1] == "99.990000%") p9999 = kv[2]
		}
		printf "%s role=%s iops=%s avg_us=%s sd_us=%s min_us=%s p50_us=%s p99_us=%s p99_9_us=%s p99_99_us=%s max_us=%s error=%s\n",
			pre, role, $(b + 2), $(b + 34), $(b + 35), $(b + 32), p50, p99, p999, p9999, $(b + 33), $5
		n++
	}
	END { exit n ? 0 : 1 }' /tmp/fio.out || { cat /tmp/fio.out /tmp/fio.err; err "no fio results"; return 1; }
	[ $rc = 0 ] || { cat /tmp/fio.out /tmp/fio.err; err "fio exited with $rc"; return 1; }
}

echo "bench-zram: kernel $(uname -r), $cpus CPUs, $jobs jobs per side," \
	"algorithms $ALGOS, $RUNS runs of ${RUNTIME}s, disksize $DISKSIZE, $IOENGINE," \
	"$($FIO --version), preempt $(cat /sys/kernel/debug/sched/preempt 2>/dev/null)"
for algo in $ALGOS; do
	for run in $(seq 1 "$RUNS"); do
		for wl in readers_vs_readers writers_vs_readers; do
			if setup "$algo" "$run" "$wl" && fill "$algo" "$run" "$wl" &&
				measure "$algo" "$run" "$wl"; then
				pass "bench-zram: $algo $wl run $run"
			else
				fail "bench-zram: $algo $wl run $run"
			fi
		done
	done
done
echo 1 > "$SYS/reset"
exit $HARNESS_FAILED
