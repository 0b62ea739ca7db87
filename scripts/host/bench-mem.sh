#!/bin/sh
# The memory of zram's compression streams and read contexts, base against
# the series: boot each kernel of KERNELS (the "mods" flavour: vm with
# zsmalloc and zram as modules, as Android builds them) at each vCPU count of
# MEM_CPUS_LIST and run scripts/guest/mem-zram.sh there, which sets each
# setup of MEMCONF on zram0 (algorithm, level, recompression algorithm),
# reads the counters before and after "disksize", then offlines the upper
# half of the CPUs and reads them again; first, once a boot, it reads them
# around the loading of zsmalloc.ko and zram.ko (base's zsmalloc allocates
# its per-CPU mapping area there). The boots run in real time (TCG or
# KVM): memory is not a matter of time. scripts/host/mem-report.py writes
# bench/results/zram-memory.md and .json (zram-memory-7.3.* for BASE=7.3):
# per setup, vCPU count and kernel the growth of each counter, the pages
# taken in all, and patched against base with Student's t.
#
# Environment: KERNELS ("base patched"), MEM_CPUS_LIST ("8 64"),
#   MEMCONF ("zstd,zstd:12,lz4,lz4+zstd"), RUNS (setups per boot, 3),
#   BOOTS (boots per kernel and vCPU count, 2), DISKSIZE (256M),
#   TIMEOUT (per boot, s; 1800), ONLY=report (the report only, from the
#   boots already in the build folders).
set -eu
. "$(dirname "$0")/lib.sh"

KERNELS=${KERNELS:-base patched}
MEM_CPUS_LIST=${MEM_CPUS_LIST:-8 64}
MEMCONF=${MEMCONF:-zstd,zstd:12,lz4,lz4+zstd}
RUNS=${RUNS:-3}
BOOTS=${BOOTS:-2}
DISKSIZE=${DISKSIZE:-256M}
FLAVOUR=mods
suffix=""
[ "$BASE" = 6.12 ] || suffix=-$BASE
results=$TOP/bench/results
case ${ONLY:-} in '' | report) ;; *) die "ONLY must be report or unset, not '$ONLY'" ;; esac
for n in $MEM_CPUS_LIST $RUNS $BOOTS; do
	case $n in '' | *[!0-9]*) die "MEM_CPUS_LIST, RUNS and BOOTS take whole numbers, not '$n'" ;; esac
done
echo "$MEMCONF" | grep -Eq '^[a-z0-9-]+(:[0-9-]+)?(\+[a-z0-9-]+(:[0-9-]+)?)?(,[a-z0-9-]+(:[0-9-]+)?(\+[a-z0-9-]+(:[0-9-]+)?)?)*$' ||
	die "MEMCONF is a comma-separated list of ALGO[:LEVEL][+ALGO2[:LEVEL2]], not '$MEMCONF'"

if [ "${ONLY:-}" != report ]; then
	for tree in $KERNELS; do
		sh "$TOP/scripts/host/kernel.sh" "$tree" "$FLAVOUR"
		sh "$TOP/scripts/host/initramfs.sh" "$tree" "$FLAVOUR"
	done
	for cpus in $MEM_CPUS_LIST; do
		for tree in $KERNELS; do
			b=1
			while [ "$b" -le "$BOOTS" ]; do
				CPUS=$cpus MEM=2048 FIO=0 ACCEL=${ACCEL:-auto} ICOUNT=0 \
					TIMEOUT=${TIMEOUT:-1800} RUN=mem-zram-${cpus}cpu-b$b \
					APPEND="kunit.enable=0 harness.memconf=$MEMCONF harness.runs=$RUNS harness.disksize=$DISKSIZE" \
					sh "$TOP/scripts/host/vm.sh" "$tree" "$FLAVOUR" mem-zram
				b=$((b + 1))
			done
		done
	done
fi

runs=""
for tree in $KERNELS; do
	for cpus in $MEM_CPUS_LIST; do
		for d in "$(out_dir "$tree" "$FLAVOUR")"/mem-zram-"$cpus"cpu-b*; do
			[ -d "$d" ] && runs="$runs --run $tree=$d"
		done
	done
done
[ -n "$runs" ] || die "bench-mem: no mem-zram runs in the build folders: run it without ONLY=report"
cmd="make bench-mem"
[ "$BASE" = 6.12 ] || cmd="$cmd BASE=$BASE"
cmd="$cmd KERNELS='$KERNELS' MEM_CPUS_LIST='$MEM_CPUS_LIST' MEMCONF='$MEMCONF' RUNS=$RUNS BOOTS=$BOOTS DISKSIZE=$DISKSIZE"
mkdir -p "$results"
# shellcheck disable=SC2086 # $runs is a list of options
run python3 "$TOP/scripts/host/mem-report.py" $runs --command "$cmd" \
	--base-text "$SRC_NAME ($SRC_PKG $SRC_VER)" --project "$(project_id | tr '\n' ' ' | sed 's/ $//')" \
	--out-md "$results/zram-memory$suffix.md" --out-json "$results/zram-memory$suffix.json"
say "bench-mem: wrote $results/zram-memory$suffix.md and .json"
