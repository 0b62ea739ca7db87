#!/bin/sh
# Read latency from when a read was due, at equal load, in deterministic
# virtual time (scripts/guest/bench-latency.sh): tools/ratereader.c reads
# zram at a fixed rate beside fio writers, tools/swapin.c touches paged-out
# memory back at a fixed rate beside tasks that page out. Every kernel gets
# the same reads at the same times; a read that could not run counts from
# when it was due.
#
# Kernels (KERNELS): 6.12 "base mid patched rmutex", 7.3 "base patched
# rmutex nctx" (bench-trees.sh: mid is the shared-stream kernel of the 6.12
# series; stock 7.3 is one; rmutex the series with a per-CPU read stream
# behind a mutex; nctx the series with reads that take no context where
# decompression needs no state and the object lies in one page). For each
# CPU count of BENCH_CPUS and preemption model of PREEMPTS, BOOTS boots per
# kernel (seeds differ per boot: spread from boots), each running every
# algorithm of ALGOS, RUNS seeds. The models full, voluntary and none boot
# the "vm" flavour with preempt=MODEL; rt boots the "rtbench" flavour
# (PREEMPT_RT, configs/rtbench.config), labelled harness.preempt=rt.
#
# Environment: KERNELS, BENCH_CPUS ("1 2"), PREEMPTS ("full"; also none,
#   voluntary, rt), ALGOS ("lzo-rle lzo lz4 zstd:3 zstd:12"), BOOTS (2), RUNS
#   (2 seeds a boot), RATE (500 reads a second), DURATION (s a measurement, 1),
#   WRITERS (2 per CPU), TOOLS ("ratereader swapin"), PAR (2 guests at a
#   time), TIMEOUT (s a boot, 5400), ONLY=report (only the report, from the
#   runs in the build folders), TAG (a name for the results files).
# Writes bench/results/latency-due.md and .json (7.3: latency-due-7.3.*;
# with TAG=T latency-due[-7.3]-T.*).
set -eu
. "$(dirname "$0")/lib.sh"
. "$TOP/scripts/host/bench-trees.sh"

if [ "$BASE" = 6.12 ]; then
	KERNELS=${KERNELS:-base mid patched rmutex}
	suffix=""
else
	KERNELS=${KERNELS:-base patched rmutex nctx}
	suffix=-$BASE
fi
BENCH_CPUS=${BENCH_CPUS:-1 2}
PREEMPTS=${PREEMPTS:-full}
ALGOS=${ALGOS:-lzo-rle lzo lz4 zstd:3 zstd:12}
BOOTS=${BOOTS:-2}
RUNS=${RUNS:-2}
RATE=${RATE:-500}
DURATION=${DURATION:-1}
WRITERS=${WRITERS:-2}
TOOLS=${TOOLS:-ratereader swapin}
PAR=${PAR:-2}
ONLY=${ONLY:-}
case $ONLY in '' | report) ;; *) die "ONLY must be report or unset, not '$ONLY'" ;; esac
for p in $PREEMPTS; do
	case $p in full | voluntary | none | rt) ;; *) die "PREEMPTS: full, voluntary, none or rt, not '$p'" ;; esac
done
# flavour MODEL: the kernel flavour that runs preemption model MODEL.
flavour() {
	if [ "$1" = rt ]; then echo rtbench; else echo vm; fi
}
# model_param MODEL: the boot parameter that sets (or, for rt, names) MODEL.
model_param() {
	if [ "$1" = rt ]; then echo harness.preempt=rt; else echo "preempt=$1"; fi
}
flavours=$(for p in $PREEMPTS; do flavour "$p"; done | sort -u)
results=$TOP/bench/results
[ -z "${TAG:-}" ] || suffix=$suffix-$TAG
case ${TAG:-} in *[!a-z0-9-]*) die "TAG: lower-case letters, digits and '-' only" ;; esac

if [ "$ONLY" != report ]; then
	bench_trees "$KERNELS"
	for tree in $KERNELS; do
		for f in $flavours; do
			sh "$TOP/scripts/host/kernel.sh" "$tree" "$f"
			sh "$TOP/scripts/host/initramfs.sh" "$tree" "$f"
		done
	done
fi

failed=$WORK/bench-latency.failed
: > "$failed"
runs=""
nrun=0
# boot TREE CPUS PREEMPT B: boot B (1..BOOTS) of TREE, in the background,
# PAR at a time, into OUT/bench-latency-CPUScpu-PREEMPT-bB.
boot() {
	name=bench-latency-$2cpu-$3-b$4
	fl=$(flavour "$3")
	runs="$runs $1=$(out_dir "$1" "$fl")/$name"
	[ "$ONLY" = report ] && return 0
	(CPUS=$2 MEM=1024 FIO=1 ACCEL=auto ICOUNT=1 SEED=$4 RUN=$name TIMEOUT=${TIMEOUT:-5400} \
		APPEND="$(model_param "$3") $params harness.seed0=$((($4 - 1) * RUNS)) ${APPEND:-}" \
		sh "$TOP/scripts/host/vm.sh" "$1" "$fl" bench-latency > "$WORK/bench-latency.$1.$name.log" 2>&1 ||
		echo "$1/$name (log: $WORK/bench-latency.$1.$name.log)" >> "$failed") &
	say "bench: $1 $name started ($WORK/bench-latency.$1.$name.log)"
	nrun=$((nrun + 1))
	if [ "$nrun" -ge "$PAR" ]; then
		wait
		nrun=0
	fi
}
params="harness.algos=$(echo "$ALGOS" | tr ' ' ',') harness.runs=$RUNS harness.rate=$RATE"
params="$params harness.seconds=$DURATION harness.writers=$WRITERS harness.tools=$(echo "$TOOLS" | tr ' ' ',')"
for cpus in $BENCH_CPUS; do
	for p in $PREEMPTS; do
		for b in $(seq 1 "$BOOTS"); do
			for tree in $KERNELS; do
				boot "$tree" "$cpus" "$p" "$b"
			done
		done
	done
done
wait

mkdir -p "$results"
cmd="make bench-latency"
[ "$BASE" = 6.12 ] || cmd="$cmd BASE=$BASE"
cmd="$cmd KERNELS='$KERNELS' BENCH_CPUS='$BENCH_CPUS' PREEMPTS='$PREEMPTS' ALGOS='$ALGOS'"
cmd="$cmd BOOTS=$BOOTS RUNS=$RUNS RATE=$RATE DURATION=$DURATION WRITERS=$WRITERS"
[ -z "${TAG:-}" ] || cmd="$cmd TAG=$TAG"
# shellcheck disable=SC2086 # one argument a run
run "$PY3" "$TOP/scripts/host/latency-report.py" --command "$cmd" \
	--base-text "$SRC_NAME ($SRC_PKG $SRC_VER)" --project "$(project_id | tr '\n' ' ' | sed 's/ $//')" \
	--out-md "$results/latency-due$suffix.md" --out-json "$results/latency-due$suffix.json" $runs
say "bench: wrote $results/latency-due$suffix.md and .json"
# The measured tree's manifest, so that a clone without that tree can
# still compare it with the series' (cover-tables.py).
sh "$TOP/scripts/host/cover-tables.sh" manifest "$(tree_dir patched)" ||
	say "bench: no manifest of the patched tree: run cover-tables.sh manifest TREE"
[ ! -s "$failed" ] || die "bench: failed runs: $(tr '\n' ' ' < "$failed")"
