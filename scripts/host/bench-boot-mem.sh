#!/bin/sh
# What the removal of zsmalloc's per-CPU mapping area saves: boot the base
# and the patched vm kernel with MEM_CPUS (64) vCPUs and read the memory
# right after boot, before any zram device or zswap pool exists
# (scripts/guest/job-mem-boot.sh; KUnit off, so that no suite runs first).
# Base allocates one kmalloc'ed page (kmalloc-4k) per possible CPU for the
# mapping area at boot, and a per-CPU struct mapping_area; the series has
# neither. Writes bench/results/zsmalloc-boot-mem.md.
#
# Environment: MEM_CPUS (64), RUNS (2 boots per kernel), TIMEOUT (per boot,
#   s; 1800), ACCEL (see vm.sh), ONLY=report (only the table, from the
#   boots already in the build folders).
set -eu
. "$(dirname "$0")/lib.sh"

MEM_CPUS=${MEM_CPUS:-64}
RUNS=${RUNS:-2}
results=$TOP/bench/results/zsmalloc-boot-mem.md
cmd="make bench-boot-mem${MEM_CPUS:+ MEM_CPUS=$MEM_CPUS} RUNS=$RUNS"

if [ "${ONLY:-}" != report ]; then
	for tree in base patched; do
		sh "$TOP/scripts/host/kernel.sh" "$tree" vm
		sh "$TOP/scripts/host/initramfs.sh" "$tree" vm
		r=1
		while [ $r -le "$RUNS" ]; do
			CPUS=$MEM_CPUS MEM=2048 TIMEOUT=${TIMEOUT:-1800} \
				RUN=mem-boot-${MEM_CPUS}cpu-$r APPEND="kunit.enable=0" \
				sh "$TOP/scripts/host/vm.sh" "$tree" vm mem-boot
			r=$((r + 1))
		done
	done
fi

# field KEY FILE: the value of KEY= in the BENCH-BOOT-MEM line of FILE
field() { sed -n "s/^BENCH-BOOT-MEM.* $1=\([0-9?]*\).*/\1/p" "$2" | head -1; }
rows() {
	for tree in base patched; do
		for f in "$(out_dir "$tree" vm)"/mem-boot-"$MEM_CPUS"cpu*/report.log; do
			[ -f "$f" ] || continue
			grep -q '^BENCH-BOOT-MEM' "$f" || continue
			printf '| %s | %s | %s | %s | %s | %s | %s |\n' "$tree" \
				"$(field cpus "$f")" "$(field kmalloc4k_objects "$f")" \
				"$(field kmalloc4k_slabs_kb "$f")" "$(field sunreclaim_kb "$f")" \
				"$(field percpu_kb "$f")" "$(field memfree_kb "$f")"
		done
	done
}
table=$(rows)
[ -n "$table" ] || die "bench-boot-mem: no mem-boot runs with $MEM_CPUS CPUs in the build folders"
avg() { # TREE COLUMN: the mean of COLUMN (3 = kmalloc-4k objects) over TREE's rows
	echo "$table" | awk -F'|' -v t=" $1 " -v c="$2" '$2 == t { s += $(c + 1); n++ } END { if (n) printf("%.1f", s / n) }'
}
{
	echo "# Memory after boot: zsmalloc's per-CPU mapping area"
	echo
	echo "Made by \`$cmd\` ($(date -u '+%Y-%m-%d %H:%M UTC'), base $(dpkg-query -W -f='${Version}' linux-source-6.12 2>/dev/null || echo '?'))."
	echo "vm kernels (-O2, no debug options), $MEM_CPUS vCPUs, 2048 MiB, KUnit off, read right"
	echo "after boot (scripts/guest/job-mem-boot.sh) before any zram device or zswap pool."
	echo "Base's zsmalloc allocates its mapping area's copy buffer, one kmalloc(PAGE_SIZE)"
	echo "(kmalloc-4k) per possible CPU, at boot in zs_init(); the series removes it."
	echo
	for tree in base patched; do
		i=$(ls "$(out_dir "$tree" vm)"/mem-boot-"$MEM_CPUS"cpu*/run.info 2> /dev/null | head -1)
		[ -n "$i" ] && echo "- $tree: \`$(sed -n 's/^built=//p' "$i")\`, $(grep -E '^(project|patches)=' "$i" | tr '\n' ' ' | sed 's/ $//')"
	done
	echo
	echo "| kernel | CPUs | kmalloc-4k objects | kmalloc-4k slabs (KiB) | SUnreclaim (KiB) | Percpu (KiB) | MemFree (KiB) |"
	echo "| --- | --: | --: | --: | --: | --: | --: |"
	echo "$table"
	echo
	b=$(avg base 3) p=$(avg patched 3)
	if [ -n "$b" ] && [ -n "$p" ]; then
		echo "kmalloc-4k objects, mean over the boots: base $b, patched $p: the series"
		echo "allocates $(awk -v b="$b" -v p="$p" 'BEGIN { printf("%.1f", b - p) }') fewer 4 KiB objects at boot, $(awk -v b="$b" -v p="$p" 'BEGIN { printf("%.0f", (b - p) * 4) }') KiB at $MEM_CPUS vCPUs."
		echo "SUnreclaim and MemFree move by more than that between boots of one kernel"
		echo "(per-CPU slab and page lists), so the object count is the measure."
	fi
} > "$results"
cat "$results"
