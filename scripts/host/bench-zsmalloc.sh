#!/bin/sh
# The zsmalloc object API microbenchmark: the same module, built for the base
# kernel (zs_map_object) and the patched one (zs_obj_read_begin/end,
# zs_obj_write), run RUNS times on each under QEMU -icount shift=0 so that
# guest nanoseconds are executed instructions. Writes
# bench/results/zsmalloc-api.md and .json. ONLY=report: the report alone,
# from the runs in the build folders.
set -eu
. "$(dirname "$0")/lib.sh"

FLAVOUR=${FLAVOUR:-vm}
RUNS=${RUNS:-10}
results=$TOP/bench/results

# build_module TREE API KO: bench/zsmalloc built for TREE's kernel, as
# OUT/bench/KO (in the guest: /lib/bench/KO).
build_module() {
	tree=$1 api=$2 ko=$3
	kdir=$(out_dir "$tree" "$FLAVOUR")
	rm -rf "$kdir/bench-src"
	mkdir -p "$kdir/bench"
	cp -r "$TOP/bench/zsmalloc" "$kdir/bench-src"
	run make -s -C "$kdir" M="$kdir/bench-src" API="$api" modules
	cp "$kdir/bench-src/zsbench.ko" "$kdir/bench/$ko"
}

case ${ONLY:-} in '' | report) ;; *) die "ONLY must be report or unset, not '$ONLY'" ;; esac
if [ "${ONLY:-}" != report ]; then
	for tree in base patched; do
		sh "$TOP/scripts/host/kernel.sh" "$tree" "$FLAVOUR"
	done
	# Each kernel runs its API (zsbench.ko), then the same loops without
	# zsmalloc (zsbench-copy.ko): the floor that the report subtracts to
	# show what the API costs by itself.
	for tree in base patched; do
		rm -rf "$(out_dir "$tree" "$FLAVOUR")/bench"
		build_module "$tree" copy zsbench-copy.ko
	done
	build_module base old zsbench.ko
	build_module patched new zsbench.ko
	for tree in base patched; do
		sh "$TOP/scripts/host/initramfs.sh" "$tree" "$FLAVOUR"
		ICOUNT=1 CPUS=1 MEM=512 TIMEOUT=${TIMEOUT:-1200} \
			APPEND="harness.runs=$RUNS" RUN=bench-zsmalloc \
			sh "$TOP/scripts/host/vm.sh" "$tree" "$FLAVOUR" bench-zsmalloc
	done
fi

mkdir -p "$results"
kver() { strings "$(out_dir "$1" "$FLAVOUR")/arch/x86/boot/bzImage" | grep -m1 '^6\.12' || echo unknown; }
"$PY3" "$TOP/scripts/host/zsbench-report.py" \
	--base "$(out_dir base "$FLAVOUR")/bench-zsmalloc/console.log" \
	--patched "$(out_dir patched "$FLAVOUR")/bench-zsmalloc/console.log" \
	--base-version "base: $(kver base), tag base ($(git -C "$LINUX_REPO" rev-parse --short base))" \
	--patched-version "patched: $(kver patched), $(git -C "$LINUX_REPO" rev-list --count base..HEAD) patches, $(project_id | tr '\n' ' ' | sed 's/ $//')" \
	--base-api old --patched-api new \
	--command "make bench-zsmalloc RUNS=$RUNS" \
	--out-md "$results/zsmalloc-api.md" --out-json "$results/zsmalloc-api.json"
say "bench: wrote $results/zsmalloc-api.md and .json"
