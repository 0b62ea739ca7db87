#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Memory offlining against zram readers: the errno zs_page_migrate()
# returns for a zspage that readers hold. Two memhp kernels: the series
# (patched: -EBUSY, as mainline) and the series with
# bench/variants/zs-migrate-eagain.patch (check: -EAGAIN, which
# migrate_pages() retries at once). Each boot runs the guest job
# "offline" (scripts/guest/job-offline.sh): ROUNDS offlines of movable
# memory blocks that hold zsmalloc pages, under fio readers. Sweeps the
# readers per CPU; then, with one busy loop per CPU and the readers at
# nice 19 (preempted inside their reads, so they hold zspages for whole
# time slices), the readers of HOG_READERS_LIST. Writes
# bench/results/offline.md and .json, with bench/offline-notes.md (by
# hand) at the end.
#
# Environment: READERS_LIST (readers per CPU, "2 8 32"; empty: none), HOG_READERS_LIST
#   (readers per CPU among hogs, "2 8"; empty: none), BOOTS (per kernel
#   and setting, 2), ROUNDS (per boot, 8), CPUS (2), LIMIT (s an offline
#   may take, 60), ONLY=report (only the tables, from the boots already
#   in the build folders).
set -eu
. "$(dirname "$0")/lib.sh"

READERS_LIST=${READERS_LIST-2 8 32}
HOG_READERS_LIST=${HOG_READERS_LIST-2 8}
BOOTS=${BOOTS:-2}
ROUNDS=${ROUNDS:-8}
CPUS=${CPUS:-2}
LIMIT=${LIMIT:-60}
cmd="make bench-offline READERS_LIST='$READERS_LIST' HOG_READERS_LIST='$HOG_READERS_LIST' BOOTS=$BOOTS ROUNDS=$ROUNDS CPUS=$CPUS LIMIT=$LIMIT"
variant=$TOP/bench/variants/zs-migrate-eagain.patch

if [ "${ONLY:-}" != report ]; then
	# The variant: the series and one commit, in the check tree.
	check=$(tree_dir check)
	[ -d "$check" ] || die "bench-offline: no $check: run 'make check-series' once (it creates the check worktree)"
	git -C "$check" checkout -q --detach "$(git -C "$(tree_dir patched)" rev-parse HEAD)"
	git -C "$check" apply "$variant" ||
		die "bench-offline: $variant does not apply to the series"
	git -C "$check" -c user.name=bench -c user.email=bench@localhost \
		commit -qam "zsmalloc: zs_page_migrate() returns -EAGAIN (variant)"
	for tree in patched check; do
		sh "$TOP/scripts/host/kernel.sh" "$tree" memhp
		sh "$TOP/scripts/host/initramfs.sh" "$tree" memhp
	done
	# boots NAME READERS_PER_CPU [GUEST PARAMETERS]: BOOTS boots of each
	# kernel, in turn, into run folders NAME-1, NAME-2...
	boots() {
		b=1
		while [ "$b" -le "$BOOTS" ]; do
			for tree in patched check; do
				CPUS=$CPUS MEM=1024 FIO=1 TIMEOUT=$((ROUNDS * LIMIT * 2 + 600)) \
					RUN=$1-$b \
					APPEND="movablecore=50% preempt=full harness.rounds=$ROUNDS harness.readers=$(($2 * CPUS)) harness.limit=$LIMIT ${3:-}" \
					sh "$TOP/scripts/host/vm.sh" "$tree" memhp offline ||
					say "bench-offline: $tree boot $1-$b failed (its rounds are still read)"
			done
			b=$((b + 1))
		done
	}
	for r in $READERS_LIST; do
		boots "offline-r$r" "$r"
	done
	for r in $HOG_READERS_LIST; do
		boots "offline-h1-r$r" "$r" "harness.hogs=1 harness.nice=19"
	done
fi

set --
for tree in patched check; do
	for d in "$(out_dir "$tree" memhp)"/offline-*-*; do
		[ -f "$d/report.log" ] && set -- "$@" --run "$tree=$d"
	done
done
[ $# -gt 0 ] || die "bench-offline: no boots to report on: run without ONLY=report"
"$PY3" "$TOP/scripts/host/offline-report.py" "$@" --command "$cmd" \
	--project "$(project_id | tr '\n' ' ')" --out-md "$TOP/bench/results/offline.md" \
	--out-json "$TOP/bench/results/offline.json" --notes "$TOP/bench/offline-notes.md"
say "bench-offline: wrote bench/results/offline.md and .json"
