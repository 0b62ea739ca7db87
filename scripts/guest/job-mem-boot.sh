#!/bin/sh
# Memory right after boot, before any zram device or zswap pool exists:
# what zsmalloc costs a kernel that has not used it yet. The base kernel's
# zsmalloc allocates its per-CPU mapping area at boot (a kmalloc'ed page,
# kmalloc-4k, for every possible CPU); the series removes it. Prints
#   BENCH-BOOT-MEM cpus= memtotal_kb= memfree_kb= percpu_kb= sunreclaim_kb=
#     kmalloc4k_objects= kmalloc4k_slabs_kb=
# Boot with kunit.enable=0 so that no test suite runs before it.
. /harness/lib.sh
slab=/sys/kernel/slab/kmalloc-4k
cpus=$(grep -c '^processor' /proc/cpuinfo)
sync
echo 3 > /proc/sys/vm/drop_caches 2> /dev/null
# Flush the per-CPU slabs and drop the empty ones: "objects" then counts
# only the objects in use, not the free ones of 64 CPU slabs.
echo 1 > "$slab/shrink" 2> /dev/null
objs=$(awk '{ print $1 }' "$slab/objects" 2> /dev/null)
slabs=$(awk '{ print $1 }' "$slab/slabs" 2> /dev/null)
order=$(cat "$slab/order" 2> /dev/null)
echo "BENCH-BOOT-MEM cpus=$cpus memtotal_kb=$(meminfo_kb MemTotal)" \
	"memfree_kb=$(meminfo_kb MemFree) percpu_kb=$(meminfo_kb Percpu)" \
	"sunreclaim_kb=$(meminfo_kb SUnreclaim) kmalloc4k_objects=${objs:-?}" \
	"kmalloc4k_slabs_kb=$(( ${slabs:-0} * (4 << ${order:-0}) ))"
check "mem-boot: kmalloc-4k counted" [ -n "$objs" ]
exit $HARNESS_FAILED
