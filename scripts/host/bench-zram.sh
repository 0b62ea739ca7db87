#!/bin/sh
# The zram read/write-streams benchmark: fio readers alone, and readers
# against writers, on zram0 (scripts/guest/bench-zram.sh), with preempt=full,
# on three kernels of the same tree:
#   base     tag base (Linux 6.12.117)
#   mid      the series up to "zram: preemptible per-CPU compression
#            streams" (mutex-guarded streams shared by reads and writes), a
#            worktree at build/mid/linux
#   patched  the whole series (read and write streams split)
# for each CPU count of BENCH_CPUS, then the memory that the per-CPU streams
# take at MEM_CPUS (64) vCPUs on base and patched (scripts/guest/mem-zram.sh).
# Writes bench/results/zram-streams.md, .json and zram-read-latency.svg.
#
# Environment: ALGOS ("lz4 zstd"), RUNS (3), RUNTIME (10 s per workload),
#   DISKSIZE (256M: zram0, filled before each workload), BENCH_CPUS ("1 2"),
#   MEM_CPUS (64), TIMEOUT (per boot, s; 3600), APPEND (extra kernel
#   arguments), ACCEL (see vm.sh), ONLY (unset: everything; "mem": only the
#   memory boots, then the report from them and the fio runs already in the
#   build folders; "report": only the report).
set -eu
. "$(dirname "$0")/lib.sh"

FLAVOUR=vm
ALGOS=${ALGOS:-lz4 zstd}
RUNS=${RUNS:-3}
RUNTIME=${RUNTIME:-10}
DISKSIZE=${DISKSIZE:-256M}
BENCH_CPUS=${BENCH_CPUS:-1 2}
MEM_CPUS=${MEM_CPUS:-64}
MID_SUBJECT='zram: preemptible per-CPU compression streams'
results=$TOP/bench/results
algos=$(echo "$ALGOS" | tr ' ' ',')

# build/mid/linux: a detached worktree on the series' commit MID_SUBJECT.
mid_worktree() {
	sha=$(git -C "$TREE" log --format=%H --grep="^$MID_SUBJECT\$" base..HEAD)
	[ -n "$sha" ] || die "no commit '$MID_SUBJECT' in base..HEAD of $TREE"
	[ "$(echo "$sha" | wc -l)" = 1 ] || die "several commits '$MID_SUBJECT' in $TREE"
	wt=$(tree_dir mid)
	if [ -d "$wt" ] && git -C "$wt" rev-parse -q --verify HEAD >/dev/null 2>&1; then
		[ "$(git -C "$wt" rev-parse HEAD)" = "$sha" ] && return 0
		[ -z "$(git -C "$wt" status --porcelain --untracked-files=no)" ] ||
			die "$wt has uncommitted changes"
		run git -C "$wt" checkout -q --detach "$sha"
	else
		run git -C "$TREE" worktree prune
		run git -C "$TREE" worktree add -q --detach "$wt" "$sha"
	fi
}

ONLY=${ONLY:-}
case $ONLY in '' | mem | report) ;; *) die "ONLY must be mem or report, not '$ONLY'" ;; esac

mid_worktree
if [ "$ONLY" != report ]; then
	for tree in base mid patched; do
		sh "$TOP/scripts/host/kernel.sh" "$tree" "$FLAVOUR"
		sh "$TOP/scripts/host/initramfs.sh" "$tree" "$FLAVOUR"
	done
fi

# boot TREE JOB CPUS MEM FIO APPEND: one guest run, in OUT/JOB-CPUScpu. A
# boot that fails is reported and the others still run; the report says
# what is missing, and the script exits non-zero at the end.
failed=""
runs=""
boot() {
	name=$2-$3cpu
	runs="$runs --run $1=$(out_dir "$1" "$FLAVOUR")/$name"
	case "$ONLY:$2" in report:* | mem:bench-zram) return 0 ;; esac
	if ! CPUS=$3 MEM=$4 FIO=$5 APPEND="preempt=full $6 ${APPEND:-}" RUN=$name \
		TIMEOUT=${TIMEOUT:-3600} sh "$TOP/scripts/host/vm.sh" "$1" "$FLAVOUR" "$2"; then
		say "bench: $1 $name failed"
		failed="$failed $1/$name"
	fi
}
for cpus in $BENCH_CPUS; do
	for tree in base mid patched; do
		boot "$tree" bench-zram "$cpus" 1024 1 \
			"harness.algos=$algos harness.runs=$RUNS harness.runtime=$RUNTIME harness.disksize=$DISKSIZE"
	done
done
for tree in base patched; do
	boot "$tree" mem-zram "$MEM_CPUS" 2048 0 "harness.algos=zstd,lz4 harness.runs=$RUNS"
done

mkdir -p "$results"
kver() { strings "$(out_dir "$1" "$FLAVOUR")/arch/x86/boot/bzImage" | grep -m1 '^6\.12' || echo unknown; }
desc() { git -C "$(tree_dir "$1")" log -1 --format='%h %s'; }
run python3 "$TOP/scripts/host/zram-report.py" $runs \
	--version "base=$(kver base), tag base ($(desc base))" \
	--version "mid=$(kver mid), $(git -C "$TREE" rev-list --count "base..$(git -C "$(tree_dir mid)" rev-parse HEAD)") patches, up to $(desc mid)" \
	--version "patched=$(kver patched), $(git -C "$TREE" rev-list --count base..HEAD) patches, up to $(desc patched)" \
	--command "make bench-zram ALGOS='$ALGOS' RUNS=$RUNS RUNTIME=$RUNTIME DISKSIZE=$DISKSIZE BENCH_CPUS='$BENCH_CPUS' MEM_CPUS=$MEM_CPUS" \
	--out-md "$results/zram-streams.md" --out-json "$results/zram-streams.json" \
	--out-svg "$results/zram-read-latency.svg"
say "bench: wrote $results/zram-streams.md, .json and zram-read-latency.svg"
[ -z "$failed" ] || die "bench: failed runs:$failed"
