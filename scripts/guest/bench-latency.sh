#!/bin/sh
# Latency from when a read was due, in the guest (busybox sh, fio). See
# scripts/host/bench-latency.sh. Parameters (harness.NAME=value; lists take
# commas):
#   HARNESS_ALGOS=lzo-rle,lzo,lz4,zstd:3,zstd:12 (zstd:N: zstd at level N,
#   through algorithm_params)  HARNESS_RUNS=2 (seeds SEED0+1..RUNS)
#   HARNESS_SEED0=0  HARNESS_RATE=500 (reads or touches a second)
#   HARNESS_SECONDS=2  HARNESS_WRITERS=2 (writers per CPU)
#   HARNESS_TOOLS=ratereader,swapin
#   HARNESS_SCENARIOS=alone,writers,foreground
#
# For each algorithm and tool, zram is reset and set up once; then, for
# each seed and scenario (alone: no writers; writers: writers beside, all
# at nice 0; foreground: the same, the reader or toucher at nice -10, an
# app in front):
#   ratereader  zram1 (96 MiB written by swapverify once) read at RATE
#               4 KiB reads a second for SECONDS, each timed from when it
#               was due; "writers": WRITERS x CPUs fio writers (randwrite,
#               4 KiB direct psync, 50 % compressible, no pause) on the
#               same device for the whole time
#   swapin      zram0 as the only swap (page-cluster 0); 32 MiB of the
#               initramfs' files paged out, touched back at RATE a second,
#               each major fault timed from when it was due; "writers":
#               WRITERS x CPUs processes that page out 8 MiB of their own
#               over and over
# Prints, one line a measurement:
#   BENCH-LAT tool= algo= scenario= run= cpus= writers= RATEREADER|SWAPIN ...
# the ratereader writers' fio JSON between
#   BENCH-LAT-FIO-BEGIN tool=ratereader algo= scenario= run= / BENCH-LAT-FIO-END
# and once per algorithm and tool the mm_stat after the fill:
#   BENCH-LAT-FILL tool= algo= orig_kb= compr_kb= mem_used_kb=
# Exits non-zero if a step fails.
. "$(dirname "$0")/lib.sh"

ALGOS=$(echo "${HARNESS_ALGOS:-lzo-rle,lzo,lz4,zstd:3,zstd:12}" | tr ',' ' ')
RUNS=${HARNESS_RUNS:-2}
SEED0=${HARNESS_SEED0:-0}
RATE=${HARNESS_RATE:-500}
SECS=${HARNESS_SECONDS:-2}
WRITERS=${HARNESS_WRITERS:-2}
TOOLS=$(echo "${HARNESS_TOOLS:-ratereader,swapin}" | tr ',' ' ')
SCENARIOS=$(echo "${HARNESS_SCENARIOS:-alone,writers,foreground}" | tr ',' ' ')
cpus=$(nproc 2>/dev/null || grep -c '^processor' /proc/cpuinfo)
nwriters=$((WRITERS * cpus))

err() { echo "bench-latency: $*" >&2; }

for i in 0 1; do [ -d /sys/block/zram$i ] || cat /sys/class/zram-control/hot_add > /dev/null; done
[ -w /sys/module/zswap/parameters/enabled ] && echo N > /sys/module/zswap/parameters/enabled

# setup DEV ALGO SIZE: reset zram DEV and give it ALGO (zstd:N: level N).
setup() {
	sys=/sys/block/$1
	echo 1 > "$sys/reset" || { err "$1: reset failed"; return 1; }
	name=${2%%:*} level=
	case $2 in *:*) level=${2#*:} ;; esac
	echo "$name" > "$sys/comp_algorithm" ||
		{ err "$1: comp_algorithm $name refused (have: $(cat "$sys/comp_algorithm"))"; return 1; }
	if [ -n "$level" ]; then
		echo "algo=$name level=$level" > "$sys/algorithm_params" ||
			{ err "$1: algorithm_params level=$level refused"; return 1; }
	fi
	echo "$3" > "$sys/disksize" || { err "$1: disksize $3 refused"; return 1; }
}

fill_line() {
	set -- "$1" "$2" $(cat "/sys/block/$3/mm_stat")
	echo "BENCH-LAT-FILL tool=$1 algo=$2 orig_kb=$(($3 / 1024)) compr_kb=$(($4 / 1024))" \
		"mem_used_kb=$(($5 / 1024))"
}

# ratereader ALGO: zram1 filled once, then every seed and scenario.
ratereader_all() {
	algo=$1
	setup zram1 "$algo" 128M || return 1
	swapverify -o /dev/zram1 96 > /tmp/fill.out 2>&1 || { cat /tmp/fill.out; err "fill zram1"; return 1; }
	fill_line ratereader "$algo" zram1
	for run in $(seq $((SEED0 + 1)) $((SEED0 + RUNS))); do
		for sc in $SCENARIOS; do
			pid='' w=0 nice=0
			[ "$sc" = foreground ] && nice=-10
			if [ "$sc" != alone ]; then
				w=$nwriters
				fio --name=w --filename=/dev/zram1 --rw=randwrite --bs=4k --direct=1 \
					--ioengine=psync --size=96M --numjobs="$w" --group_reporting \
					--time_based --runtime=$((SECS + 1)) --randseed="$run" \
					--buffer_compress_percentage=50 --refill_buffers \
					--output-format=json > /tmp/fio-w.json 2> /tmp/fio-w.err &
				pid=$!
				# fio's jobs are writing before the reader's first read is due
				sleep 0.2
			fi
			out=$(ratereader -r "$RATE" -t "$SECS" -s 96 -p "$nice" -S "$run" /dev/zram1 2>&1)
			rc=$?
			if [ -n "$pid" ]; then
				wait "$pid" || { cat /tmp/fio-w.err; err "fio writers failed"; rc=1; }
			fi
			line=$(echo "$out" | grep '^RATEREADER ')
			if [ "$rc" != 0 ] || [ -z "$line" ]; then
				echo "$out"
				fail "bench-latency: ratereader $algo $sc run $run"
				continue
			fi
			echo "BENCH-LAT tool=ratereader algo=$algo scenario=$sc run=$run cpus=$cpus writers=$w $line"
			if [ -n "$pid" ]; then
				echo "BENCH-LAT-FIO-BEGIN tool=ratereader algo=$algo scenario=$sc run=$run"
				sed -n '/^{/,$p' /tmp/fio-w.json
				echo "BENCH-LAT-FIO-END"
			fi
			pass "bench-latency: ratereader $algo $sc run $run"
		done
	done
	echo 1 > /sys/block/zram1/reset
}

# swapin ALGO: zram0 as swap, every seed and scenario.
swapin_all() {
	algo=$1
	setup zram0 "$algo" 256M || return 1
	mkswap /dev/zram0 > /dev/null && swapon /dev/zram0 || { err "swapon zram0"; return 1; }
	echo 0 > /proc/sys/vm/page-cluster
	for run in $(seq $((SEED0 + 1)) $((SEED0 + RUNS))); do
		for sc in $SCENARIOS; do
			w=0 nice=0
			[ "$sc" = alone ] || w=$nwriters
			[ "$sc" = foreground ] && nice=-10
			out=$(swapin -m 32 -r "$RATE" -n $((RATE * SECS)) -w "$w" -W 8 -p "$nice" -S "$run" \
				-d /bin:/usr:/lib:/harness 2>&1)
			rc=$?
			line=$(echo "$out" | grep '^SWAPIN ')
			if [ "$rc" != 0 ] || [ -z "$line" ]; then
				echo "$out"
				fail "bench-latency: swapin $algo $sc run $run"
				continue
			fi
			echo "BENCH-LAT tool=swapin algo=$algo scenario=$sc run=$run cpus=$cpus writers=$w $line"
			pass "bench-latency: swapin $algo $sc run $run"
		done
	done
	fill_line swapin "$algo" zram0
	swapoff /dev/zram0
	echo 1 > /sys/block/zram0/reset
}

command -v fio > /dev/null || { fail "bench-latency: fio is missing (boot with FIO=1)"; exit 1; }
echo "bench-latency: kernel $(uname -r), $cpus CPUs, algorithms $ALGOS, tools $TOOLS," \
	"scenarios $SCENARIOS, seeds $((SEED0 + 1))..$((SEED0 + RUNS)), rate $RATE/s, $SECS s," \
	"$WRITERS writers per CPU, preempt $(cat /sys/kernel/debug/sched/preempt 2>/dev/null ||
		uname -v | grep -o PREEMPT_RT)"
for algo in $ALGOS; do
	for tool in $TOOLS; do
		case $tool in
		ratereader) ratereader_all "$algo" || fail "bench-latency: ratereader $algo setup" ;;
		swapin) swapin_all "$algo" || fail "bench-latency: swapin $algo setup" ;;
		*) fail "bench-latency: unknown tool $tool" ;;
		esac
	done
done
exit $HARNESS_FAILED
