#!/bin/sh
# The zram read-latency benchmark (scripts/guest/bench-zram.sh: interactive
# readers alone, against background writers at equal and at lower priority,
# and saturating readers and writers), with preempt=full, on four kernels:
#   base     tag base (Linux 6.12.117)
#   mid      the series up to "zram: preemptible per-CPU compression
#            streams" (mutex-guarded streams shared by reads and writes), a
#            worktree at build/mid/linux
#   patched  the whole series (write streams; lock-free read contexts)
#   rmutex   the series and bench/variants/read-stream-mutex.patch (per-CPU
#            read streams behind a mutex: the shape proposed upstream in
#            October 2026), a worktree at build/rmutex/linux
# for each CPU count of BENCH_CPUS, then the memory that the per-CPU streams
# take at MEM_CPUS (64) vCPUs on base and patched (scripts/guest/mem-zram.sh),
# zstd at LEVEL and lz4 (make bench-mem measures more setups).
# Writes bench/results/zram-latency.md, .json and .svg; the hand-written
# bench/zram-latency-notes.md (what explains the targets, from these runs)
# goes into the .md after the targets.
#
# By default the guests run in virtual time (ACCEL=icount:
# QEMU's -icount shift=0,sleep=off, single-threaded TCG): 1 ns of guest time
# is one executed instruction, several vCPUs run in turn, and medians
# repeat within 1% (maxima do not: see README.md). ACCEL=tcg or kvm runs
# the same job in real time.
# Two guests run at once (PAR, default 2: one host CPU each under icount).
#
# BASE=7.3 (lib.sh): the 7.3 trees; base is stock 7.3.4, whose one per-CPU
# stream behind a mutex, shared by reads and writes, is the shared-stream
# kernel there (what mid is on 6.12), so KERNELS defaults to "base patched
# rmutex", with bench/variants/7.3/read-stream-mutex.patch for rmutex;
# results go to bench/results/zram-latency-7.3.*.
#
# Environment: ALGOS ("lz4 zstd"), LEVEL (zstd's, 12), RUNS (3 seeds),
#   RUNTIME (3 s per scenario), DISKSIZE (64M), THINK (100 us), READERS and
#   WRITERS (2 each per CPU), BENCH_CPUS ("1 2"), KERNELS ("base mid patched rmutex"),
#   MEM_CPUS (64; 0: no memory boots), PAR (2), TIMEOUT (per boot, s; 5400), ACCEL (icount),
#   ONLY (unset: everything; "mem": only the memory boots, then the report;
#   "report": only the report, from the runs in the build folders).
#
# SWEEP=readers: what writers get as readers per CPU rise. Instead of the
# latency job, one boot per kernel and per count of READERS_LIST ("1 2 4 8")
# at each CPU count of BENCH_CPUS, scenarios interactive and saturating,
# WRITERS writers per CPU throughout; no memory boots. Runs go to
# OUT/bench-zram-CPUScpu-rREADERS; the report (zram-readers.py) to
# bench/results/zram-readers.md (-BASE on 7.3), .json.
set -eu
. "$(dirname "$0")/lib.sh"

FLAVOUR=vm
ALGOS=${ALGOS:-lz4 zstd}
LEVEL=${LEVEL:-12}
RUNS=${RUNS:-3}
RUNTIME=${RUNTIME:-3}
DISKSIZE=${DISKSIZE:-64M}
THINK=${THINK:-100}
READERS=${READERS:-2}
WRITERS=${WRITERS:-2}
BENCH_CPUS=${BENCH_CPUS:-1 2}
if [ "$BASE" = 6.12 ]; then
	KERNELS=${KERNELS:-base mid patched rmutex}
	suffix="" notes=$TOP/bench/zram-latency-notes.md
else
	KERNELS=${KERNELS:-base patched rmutex}
	suffix=-$BASE notes=$TOP/bench/zram-latency-notes-$BASE.md
fi
MEM_CPUS=${MEM_CPUS:-64}
PAR=${PAR:-2}
ACCEL=${ACCEL:-icount}
results=$TOP/bench/results
algos=$(echo "$ALGOS" | tr ' ' ',')
ONLY=${ONLY:-}
SWEEP=${SWEEP:-}
READERS_LIST=${READERS_LIST:-1 2 4 8}
case $SWEEP in '' | readers) ;; *) die "SWEEP must be readers or unset, not '$SWEEP'" ;; esac
case $ONLY in '' | mem | report) ;; *) die "ONLY must be mem or report, not '$ONLY'" ;; esac
case $ACCEL in icount | tcg | kvm | auto) ;; *) die "ACCEL must be icount, tcg, kvm or auto" ;; esac

. "$TOP/scripts/host/bench-trees.sh"

if [ "$ONLY" != report ]; then
	for tree in $KERNELS; do
		case $tree in
		mid) mid_worktree ;;
		rmutex) rmutex_worktree ;;
		esac
	done
	for tree in $KERNELS; do
		sh "$TOP/scripts/host/kernel.sh" "$tree" "$FLAVOUR"
		sh "$TOP/scripts/host/initramfs.sh" "$tree" "$FLAVOUR"
	done
fi

# boot TREE JOB CPUS MEM FIO ACCEL APPEND: one guest run, in OUT/JOB-CPUScpu,
# in the background; PAR at a time. A boot that fails is reported and the
# others still run; the script exits non-zero at the end.
failed=$WORK/bench-zram.failed
: > "$failed"
runs=""
nrun=0
boot() {
	name=$2-$3cpu${SUFFIX:-}
	runs="$runs --run $1=$(out_dir "$1" "$FLAVOUR")/$name"
	case "$ONLY:$2" in report:* | mem:bench-zram) return 0 ;; esac
	icount=0 accel=$6
	[ "$accel" = icount ] && icount=1 accel=auto
	(CPUS=$3 MEM=$4 FIO=$5 ACCEL=$accel ICOUNT=$icount RUN=$name \
		APPEND="preempt=full $7 ${APPEND:-}" TIMEOUT=${TIMEOUT:-5400} \
		sh "$TOP/scripts/host/vm.sh" "$1" "$FLAVOUR" "$2" > "$WORK/bench-zram.$1.$name.log" 2>&1 ||
		echo "$1/$name (log: $WORK/bench-zram.$1.$name.log)" >> "$failed") &
	say "bench: $1 $name started ($WORK/bench-zram.$1.$name.log)"
	nrun=$((nrun + 1))
	if [ "$nrun" -ge "$PAR" ]; then
		wait
		nrun=0
	fi
}
params="harness.algos=$algos harness.level=$LEVEL harness.runs=$RUNS harness.runtime=$RUNTIME"
params="$params harness.disksize=$DISKSIZE harness.think=$THINK harness.writers=$WRITERS"
if [ "$SWEEP" = readers ]; then
	for cpus in $BENCH_CPUS; do
		for r in $READERS_LIST; do
			for tree in $KERNELS; do
				SUFFIX=-r$r boot "$tree" bench-zram "$cpus" 1024 1 "$ACCEL" \
					"$params harness.readers=$r harness.scenarios=interactive,saturating"
			done
		done
	done
	wait
	mkdir -p "$results"
	cmd="make bench-zram SWEEP=readers"
	[ "$BASE" = 6.12 ] || cmd="$cmd BASE=$BASE"
	cmd="$cmd KERNELS='$KERNELS' READERS_LIST='$READERS_LIST' WRITERS=$WRITERS ALGOS='$ALGOS' LEVEL=$LEVEL"
	cmd="$cmd RUNS=$RUNS RUNTIME=$RUNTIME DISKSIZE=$DISKSIZE THINK=$THINK BENCH_CPUS='$BENCH_CPUS' ACCEL=$ACCEL"
	run "$PY3" "$TOP/scripts/host/zram-readers.py" $runs --command "$cmd" \
		--base-text "$SRC_NAME ($SRC_PKG $SRC_VER)" --project "$(project_id | tr '\n' ' ' | sed 's/ $//')" \
		--notes "$TOP/bench/zram-readers-notes$suffix.md" \
		--out-md "$results/zram-readers$suffix.md" --out-json "$results/zram-readers$suffix.json"
	say "bench: wrote $results/zram-readers$suffix.md and .json"
	[ ! -s "$failed" ] || die "bench: failed runs: $(tr '\n' ' ' < "$failed")"
	exit 0
fi
params="$params harness.readers=$READERS"
for cpus in $BENCH_CPUS; do
	for tree in $KERNELS; do
		boot "$tree" bench-zram "$cpus" 1024 1 "$ACCEL" "$params"
	done
done
# Memory is not a matter of time: these boots run in real time (64 vCPUs).
# MEM_CPUS=0: no memory boots, and none in the report (ONLY=report with
# MEM_CPUS=64 reports the runs already in the build folders).
for tree in base patched; do
	case " $KERNELS " in *" $tree "*) ;; *) continue ;; esac
	[ "$MEM_CPUS" = 0 ] && continue
	boot "$tree" mem-zram "$MEM_CPUS" 2048 0 auto "harness.memconf=zstd:$LEVEL,lz4 harness.runs=$RUNS"
done
wait

mkdir -p "$results"
kver() { strings "$(out_dir "$1" "$FLAVOUR")/arch/x86/boot/bzImage" | grep -m1 -E '^[0-9]+\.[0-9]+\.[0-9]+-harness' || echo unknown; }
desc() { git -C "$(tree_dir "$1")" log -1 --format='%h %s'; }
count() { git -C "$LINUX_REPO" rev-list --count "base..$(git -C "$(tree_dir "$1")" rev-parse HEAD)"; }
versions=""
for tree in $KERNELS; do
	case $tree in
	base) v="base=$(kver base), tag base ($(desc base))" ;;
	*) v="$tree=$(kver "$tree"), $(count "$tree") commits on base, up to $(desc "$tree")" ;;
	esac
	versions="$versions
$v"
done
# What a reader can resolve: the project commit and the series
# (git rev-parse HEAD:patches), "-dirty" where the files differed.
versions="$versions
$(project_id | tr '\n' ' ' | sed 's/ $//')"
cmd="make bench-zram"
[ "$BASE" = 6.12 ] || cmd="$cmd BASE=$BASE KERNELS='$KERNELS'"
cmd="$cmd ALGOS='$ALGOS' LEVEL=$LEVEL RUNS=$RUNS RUNTIME=$RUNTIME DISKSIZE=$DISKSIZE"
cmd="$cmd THINK=$THINK READERS=$READERS WRITERS=$WRITERS BENCH_CPUS='$BENCH_CPUS' MEM_CPUS=$MEM_CPUS ACCEL=$ACCEL"
echo "$versions" | sed '/^$/d' > "$WORK/bench-zram.versions"
run "$PY3" "$TOP/scripts/host/zram-latency.py" $runs \
	--versions "$WORK/bench-zram.versions" --command "$cmd" \
	--base-text "$SRC_NAME ($SRC_PKG $SRC_VER)" --notes "$notes" \
	--out-md "$results/zram-latency$suffix.md" --out-json "$results/zram-latency$suffix.json" \
	--out-svg "$results/zram-latency$suffix.svg"
say "bench: wrote $results/zram-latency$suffix.md, .json and .svg"
[ ! -s "$failed" ] || die "bench: failed runs: $(tr '\n' ' ' < "$failed")"
