#!/bin/sh
# The memory of zram's compression streams and read contexts, base against
# the series: boot each kernel of KERNELS (the "mods" flavour: vm with
# zsmalloc and zram as modules, as Android builds them) at each vCPU count of
# MEM_CPUS_LIST and run scripts/guest/mem-zram.sh there, which sets each
# setup of MEMCONF on zram0 (algorithm, level, recompression algorithm),
# reads the counters before and after "disksize", then offlines the upper
# half of the CPUs and reads them again; first, once a boot, it reads them
# around the loading of zsmalloc.ko and zram.ko (base's zsmalloc allocates
# its per-CPU mapping area there). The boots run in virtual time by default
# (ACCEL=icount, as make bench-zram): a guest's clock runs with the
# instructions it executes, so that 64 vCPUs on a 2-CPU host see no RCU
# stall, and a boot's inputs are fixed (vm.sh), so that runs differ less;
# each boot gets its own random seed (SEED, its number), and the report
# counts a record that another boot repeated exactly once.
# A kernel whose source tree is gone (build/devN/linux removed) but whose
# image and initramfs are built boots as it is. scripts/host/mem-report.py writes
# bench/results/zram-memory.md and .json (zram-memory-7.3.* for BASE=7.3):
# per setup, vCPU count and kernel the growth of each counter, the pages
# taken in all, and patched against base with Student's t.
#
# Environment: KERNELS ("base patched"), MEM_CPUS_LIST ("8 64"),
#   MEMCONF ("zstd,zstd:12,lz4,lz4+zstd"), RUNS (setups per boot, 3),
#   BOOTS (boots per kernel and vCPU count, 2), DISKSIZE (256M),
#   TIMEOUT (per boot, s; 1800), ACCEL (icount; or auto, tcg, kvm: real
#   time), PAR (boots at once: 2 under icount, one host CPU each; else 1),
#   ONLY=report (the report only, from the boots already in the build
#   folders).
set -eu
. "$(dirname "$0")/lib.sh"

KERNELS=${KERNELS:-base patched}
MEM_CPUS_LIST=${MEM_CPUS_LIST:-8 64}
MEMCONF=${MEMCONF:-zstd,zstd:12,lz4,lz4+zstd}
RUNS=${RUNS:-3}
BOOTS=${BOOTS:-2}
DISKSIZE=${DISKSIZE:-256M}
ACCEL=${ACCEL:-icount}
case $ACCEL in icount | tcg | kvm | auto) ;; *) die "ACCEL must be icount, tcg, kvm or auto, not '$ACCEL'" ;; esac
icount=0
vm_accel=$ACCEL
[ "$ACCEL" != icount ] || icount=1 vm_accel=auto
par_default=1
[ "$ACCEL" != icount ] || par_default=2
PAR=${PAR:-$par_default}
FLAVOUR=mods
suffix=""
[ "$BASE" = 6.12 ] || suffix=-$BASE
results=$TOP/bench/results
case ${ONLY:-} in '' | report) ;; *) die "ONLY must be report or unset, not '$ONLY'" ;; esac
for n in $MEM_CPUS_LIST $RUNS $BOOTS $PAR; do
	case $n in '' | *[!0-9]*) die "MEM_CPUS_LIST, RUNS, BOOTS and PAR take whole numbers, not '$n'" ;; esac
done
[ "$PAR" -ge 1 ] || die "PAR must be 1 or more"
echo "$MEMCONF" | grep -Eq '^[a-z0-9-]+(:[0-9-]+)?(\+[a-z0-9-]+(:[0-9-]+)?)?(,[a-z0-9-]+(:[0-9-]+)?(\+[a-z0-9-]+(:[0-9-]+)?)?)*$' ||
	die "MEMCONF is a comma-separated list of ALGO[:LEVEL][+ALGO2[:LEVEL2]], not '$MEMCONF'"

# One boot: tree, vCPUs, boot number; its log in the build folder.
boot() {
	log=$BUILD/bench-mem.$BASE.$1.$2cpu-b$3.log
	if CPUS=$2 MEM=2048 FIO=0 ACCEL=$vm_accel ICOUNT=$icount SEED=$3 \
		TIMEOUT=${TIMEOUT:-1800} RUN=mem-zram-$2cpu-b$3 \
		APPEND="kunit.enable=0 harness.memconf=$MEMCONF harness.runs=$RUNS harness.disksize=$DISKSIZE" \
		sh "$TOP/scripts/host/vm.sh" "$1" "$FLAVOUR" mem-zram > "$log" 2>&1; then
		say "bench-mem: $1 at $2 vCPUs, boot $3: done"
	else
		say "bench-mem: $1 at $2 vCPUs, boot $3 FAILED: $log"
		: > "$BUILD/bench-mem.failed"
	fi
}

if [ "${ONLY:-}" != report ]; then
	for tree in $KERNELS; do
		img=$(out_dir "$tree" "$FLAVOUR")/arch/x86/boot/bzImage
		if [ ! -d "$(tree_dir "$tree")" ] && [ -f "$img" ]; then
			say "bench-mem: no source tree for $tree: booting its built kernel $img"
			continue
		fi
		sh "$TOP/scripts/host/kernel.sh" "$tree" "$FLAVOUR"
		sh "$TOP/scripts/host/initramfs.sh" "$tree" "$FLAVOUR"
	done
	rm -f "$BUILD/bench-mem.failed"
	n=0
	for cpus in $MEM_CPUS_LIST; do
		b=1
		while [ "$b" -le "$BOOTS" ]; do
			for tree in $KERNELS; do
				boot "$tree" "$cpus" "$b" &
				n=$((n + 1))
				if [ "$n" -ge "$PAR" ]; then
					wait
					n=0
				fi
			done
			b=$((b + 1))
		done
	done
	wait
	[ ! -f "$BUILD/bench-mem.failed" ] || die "bench-mem: a boot failed (see the logs above); the report is not written"
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
cmd="$cmd KERNELS='$KERNELS' MEM_CPUS_LIST='$MEM_CPUS_LIST' MEMCONF='$MEMCONF' RUNS=$RUNS BOOTS=$BOOTS DISKSIZE=$DISKSIZE ACCEL=$ACCEL"
mkdir -p "$results"
# shellcheck disable=SC2086 # $runs is a list of options
run "$PY3" "$TOP/scripts/host/mem-report.py" $runs --command "$cmd" \
	--base-text "$SRC_NAME ($SRC_PKG $SRC_VER)" --project "$(project_id | tr '\n' ' ' | sed 's/ $//')" \
	--out-md "$results/zram-memory$suffix.md" --out-json "$results/zram-memory$suffix.json"
say "bench-mem: wrote $results/zram-memory$suffix.md and .json"
