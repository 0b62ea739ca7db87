#!/bin/sh
# The zram read-latency benchmark, in the guest (busybox sh, fio). See
# scripts/host/bench-zram.sh. Parameters (harness.NAME=value on the kernel
# command line; lists take commas):
#   HARNESS_ALGOS=lz4,zstd  HARNESS_LEVEL=12 (zstd's level, through
#   algorithm_params)  HARNESS_RUNS=3 (seeds 1..RUNS)  HARNESS_RUNTIME=3 (s)
#   HARNESS_DISKSIZE=64M  HARNESS_THINK=100 (us between an interactive
#   reader's reads)  HARNESS_READERS=2, HARNESS_WRITERS=2 (readers and
#   writers per CPU)
#   HARNESS_SCENARIOS=alone,interactive,foreground,saturating
#
# For each algorithm, zram0 is reset, set up and filled once (sequential
# 4 KiB direct writes of 50 % compressible, non-uniform data: zero-filled
# pages never reach zsmalloc). Then, for each seed and scenario, fio runs
# for RUNTIME seconds, 4 KiB direct psync I/O at random offsets, with
# N = online CPUs:
#   alone        READERS x N interactive readers (randread, THINK us
#                between reads)
#   interactive  the same readers, and WRITERS x N writers (randwrite,
#                no pause) in another fio group, all at nice 0
#   foreground   the same, the readers at nice -10 (a foreground app)
#   saturating   the same numbers of readers, without pauses, and
#                writers, all at nice 0
#   exhaust      (not by default) 16 x N readers without pauses, no
#                writers: they hold every read context and queue for one
# Writers write the same kind of data as the fill, so the device stays as
# full. Each run prints fio's JSON+ output (every latency bin) between
#   BENCH-ZRAM-JSON-BEGIN algo= scenario= run= cpus= readers= writers=
#   BENCH-ZRAM-JSON-END
# and, around it, the counters the host report needs:
#   BENCH-ZRAM-STAT algo= scenario= run= when=before|after debug_stat="..."
#     cpu="user nice system idle iowait irq softirq" (/proc/stat, ticks)
# and, once per algorithm, the mm_stat after the fill:
#   BENCH-ZRAM-FILL algo= orig_kb= compr_kb= mem_used_kb= huge_pages=
# Exits non-zero if a step fails.
. "$(dirname "$0")/lib.sh"

ALGOS=$(echo "${HARNESS_ALGOS:-lz4 zstd}" | tr ',' ' ')
LEVEL=${HARNESS_LEVEL:-12}
RUNS=${HARNESS_RUNS:-3}
RUNTIME=${HARNESS_RUNTIME:-3}
DISKSIZE=${HARNESS_DISKSIZE:-64M}
THINK=${HARNESS_THINK:-100}
READERS=${HARNESS_READERS:-2}
WRITERS=${HARNESS_WRITERS:-2}
SCENARIOS=$(echo "${HARNESS_SCENARIOS:-alone,interactive,foreground,saturating}" | tr ',' ' ')
SYS=/sys/block/zram0
DEV=/dev/zram0
FIO=fio
cpus=$(nproc 2>/dev/null || grep -c '^processor' /proc/cpuinfo)

DATA="--buffer_compress_percentage=50 --refill_buffers"
COMMON="--filename=$DEV --direct=1 --bs=4k --ioengine=psync $DATA"

err() { echo "bench-zram: $*" >&2; }

command -v "$FIO" > /dev/null || { fail "bench-zram: fio is missing (boot with FIO=1)"; exit 1; }
[ -d "$SYS" ] || cat /sys/class/zram-control/hot_add > /dev/null

# setup ALGO: reset zram0, set ALGO (zstd at LEVEL), DISKSIZE, and fill it.
setup() {
	algo=$1
	echo 1 > "$SYS/reset" || { err "reset failed"; return 1; }
	echo "$algo" > "$SYS/comp_algorithm" ||
		{ err "comp_algorithm $algo refused (have: $(cat "$SYS/comp_algorithm"))"; return 1; }
	if [ "$algo" = zstd ]; then
		echo "algo=zstd level=$LEVEL" > "$SYS/algorithm_params" ||
			{ err "algorithm_params level=$LEVEL refused"; return 1; }
	fi
	echo "$DISKSIZE" > "$SYS/disksize" || { err "disksize $DISKSIZE refused"; return 1; }
	$FIO --name=fill $COMMON --rw=write --output-format=terse \
		> /tmp/fill.out 2>&1 || { cat /tmp/fill.out; err "fill failed"; return 1; }
	set -- $(cat "$SYS/mm_stat")
	echo "BENCH-ZRAM-FILL algo=$algo orig_kb=$(($1 / 1024)) compr_kb=$(($2 / 1024))" \
		"mem_used_kb=$(($3 / 1024)) huge_pages=${8:-0}"
	[ "$2" -gt 0 ] || { err "nothing reached zsmalloc (mm_stat: $*)"; return 1; }
}

stat() {
	echo "BENCH-ZRAM-STAT algo=$1 scenario=$2 run=$3 when=$4" \
		"debug_stat=\"$(sed -n 2p "$SYS/debug_stat" | tr -s ' ' | sed 's/^ //')\"" \
		"cpu=\"$(awk '$1 == "cpu" { print $2, $3, $4, $5, $6, $7, $8 }' /proc/stat)\""
}

# measure ALGO SCENARIO RUN
measure() {
	algo=$1 sc=$2 run=$3
	readers=$((READERS * cpus)) writers=$((WRITERS * cpus))
	rd="--name=readers --rw=randread --numjobs=$readers"
	wr="--name=writers --new_group --rw=randwrite --numjobs=$writers"
	case $sc in
	alone) set -- $rd --thinktime="$THINK"; writers=0 ;;
	interactive) set -- $rd --thinktime="$THINK" $wr ;;
	foreground) set -- $rd --thinktime="$THINK" --nice=-10 $wr ;;
	saturating) set -- $rd $wr ;;
	exhaust) readers=$((16 * cpus)) writers=0
		set -- --name=readers --rw=randread --numjobs=$readers ;;
	*) err "unknown scenario $sc"; return 1 ;;
	esac
	stat "$algo" "$sc" "$run" before
	$FIO --output-format=json+ --group_reporting --lat_percentiles=1 \
		--time_based --runtime="$RUNTIME" --norandommap --randseed="$run" \
		$COMMON "$@" > /tmp/fio.json 2> /tmp/fio.err
	rc=$?
	stat "$algo" "$sc" "$run" after
	[ $rc = 0 ] || { cat /tmp/fio.err; err "fio exited with $rc"; return 1; }
	grep -q '"jobname"' /tmp/fio.json || { cat /tmp/fio.err; err "no fio results"; return 1; }
	echo "BENCH-ZRAM-JSON-BEGIN algo=$algo scenario=$sc run=$run cpus=$cpus" \
		"readers=$readers writers=$writers think_us=$THINK runtime_s=$RUNTIME"
	# The JSON starts at its first '{' (fio may print notes before it).
	sed -n '/^{/,$p' /tmp/fio.json
	echo "BENCH-ZRAM-JSON-END"
}

echo "bench-zram: kernel $(uname -r), $cpus CPUs, algorithms $ALGOS (zstd level $LEVEL)," \
	"$RUNS runs of ${RUNTIME}s, scenarios $SCENARIOS, think ${THINK}us," \
	"$READERS readers and $WRITERS writers per CPU, disksize $DISKSIZE, $($FIO --version)," \
	"preempt $(cat /sys/kernel/debug/sched/preempt 2>/dev/null)"
for algo in $ALGOS; do
	if ! setup "$algo"; then
		fail "bench-zram: $algo setup"
		continue
	fi
	for run in $(seq 1 "$RUNS"); do
		for sc in $SCENARIOS; do
			if measure "$algo" "$sc" "$run"; then
				pass "bench-zram: $algo $sc run $run"
			else
				fail "bench-zram: $algo $sc run $run"
			fi
		done
	done
done
echo 1 > "$SYS/reset"
exit $HARNESS_FAILED
