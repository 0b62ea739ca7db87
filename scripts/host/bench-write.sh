#!/bin/sh
# The write cost of one patch: a kernel of the series just before PATCH
# (a commit subject) and one at it, each booted in virtual time with
# scripts/guest/bench-write.sh (one fio writer of 4 KiB random direct
# writes a run, 50 % compressible pages and pages that do not compress),
# and the two compared (write-report.py: IOPS, the time a write takes, and
# Student's t at 95 %).
#
# Environment: PATCH (default "zram: compress into a one-page buffer":
#   lzo and lzo-rle move to their _safe compressors there), ALGOS
#   ("lzo-rle lzo lz4"), RUNS (5), DURATION (s a run, 2), CPUS (2), DATA
#   ("50 0"), TAG (a name for the results files: default safe).
# The two kernels are built in the worktrees dev1 (before) and dev2 (at
# PATCH). Writes bench/results/write-cost[-7.3]-TAG.md and .json.
set -eu
. "$(dirname "$0")/lib.sh"
. "$TOP/scripts/host/bench-trees.sh"

PATCH=${PATCH:-zram: compress into a one-page buffer}
ALGOS=${ALGOS:-lzo-rle lzo lz4}
RUNS=${RUNS:-5}
DURATION=${DURATION:-2}
CPUS=${CPUS:-2}
DATA=${DATA:-50 0}
TAG=${TAG:-safe}
case $TAG in *[!a-z0-9-]*) die "TAG: lower-case letters, digits and '-' only" ;; esac
suffix=""
[ "$BASE" = 6.12 ] || suffix=-$BASE
FLAVOUR=vm

at=$(git -C "$LINUX_REPO" log --format=%H --grep="^$PATCH\$" base..HEAD)
[ -n "$at" ] || die "no commit '$PATCH' in base..HEAD of $LINUX_REPO"
[ "$(echo "$at" | wc -l)" = 1 ] || die "several commits '$PATCH' in $LINUX_REPO"
for t in dev1:"$at^" dev2:"$at"; do
	name=${t%%:*}
	worktree "$name" "$(git -C "$LINUX_REPO" rev-parse "${t#*:}")"
	sh "$TOP/scripts/host/kernel.sh" "$name" "$FLAVOUR"
	sh "$TOP/scripts/host/initramfs.sh" "$name" "$FLAVOUR"
done

params="harness.algos=$(echo "$ALGOS" | tr ' ' ',') harness.runs=$RUNS harness.seconds=$DURATION"
params="$params harness.data=$(echo "$DATA" | tr ' ' ',')"
runs=""
for name in dev1 dev2; do
	run_name=bench-write-$TAG-${CPUS}cpu
	runs="$runs $name=$(out_dir "$name" "$FLAVOUR")/$run_name"
	CPUS=$CPUS MEM=512 FIO=1 ACCEL=auto ICOUNT=1 RUN=$run_name TIMEOUT=${TIMEOUT:-3600} \
		APPEND="preempt=full $params ${APPEND:-}" \
		sh "$TOP/scripts/host/vm.sh" "$name" "$FLAVOUR" bench-write > "$WORK/bench-write.$name.log" 2>&1 &
done
wait
cmd="make bench-write"
[ "$BASE" = 6.12 ] || cmd="$cmd BASE=$BASE"
cmd="$cmd PATCH='$PATCH' ALGOS='$ALGOS' RUNS=$RUNS DURATION=$DURATION CPUS=$CPUS DATA='$DATA' TAG=$TAG"
# shellcheck disable=SC2086 # one argument a run
run "$PY3" "$TOP/scripts/host/write-report.py" --command "$cmd" --patch "$PATCH" \
	--project "$(project_id | tr '\n' ' ' | sed 's/ $//')" \
	--out-md "$TOP/bench/results/write-cost$suffix-$TAG.md" \
	--out-json "$TOP/bench/results/write-cost$suffix-$TAG.json" $runs
say "bench: wrote bench/results/write-cost$suffix-$TAG.md and .json"
