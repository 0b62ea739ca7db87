#!/bin/sh
# The memory that zram's per-CPU compression streams and read contexts take,
# in the guest. For each setup of HARNESS_MEMCONF and each run
# (HARNESS_RUNS, default 3): reset zram0, configure it, and read the
# counters below before and after writing "disksize" (HARNESS_DISKSIZE,
# default 256M), which allocates the streams of every online CPU; then
# offline the upper half of the CPUs and read them again (what comes back
# when CPUs go away), and online them again; then offline and online every
# CPU but CPU 0, as a suspend to RAM does (freeze_secondary_cpus()), and
# read them again ("cycled": what such a cycle leaves allocated).
#
# A setup is ALGO[:LEVEL][+ALGO2[:LEVEL2]]: the primary algorithm and its
# level (algorithm_params; none: the algorithm's default), and optionally a
# recompression algorithm (recomp_algorithm, priority 1) with its level:
# "zstd", "zstd:12", "lz4", "lz4+zstd". HARNESS_ALGOS, the older knob, is a
# list of plain algorithms. Default: "zstd,lz4".
#
# Counters, each in kB:
#   percpu      Percpu: the per-CPU allocator (stream and context structures)
#   vmalloc     VmallocUsed: the backends' contexts, compression buffers and
#               zram's slot table (the same for every kernel)
#   sunreclaim  SUnreclaim: kmalloc'ed buffers and contexts
#   free        free pages: the buddy allocator's (the zones' "pages free")
#               plus those on the per-CPU lists ("count:" of each pageset).
#               Its drop is every page taken in the window, whatever took it
#               (pages taken straight from the page allocator included),
#               without the per-CPU lists' noise that MemFree has.
#   slab        the bytes of the slab objects in use, every cache: each
#               cache is shrunk first (its per-CPU slabs go back to its
#               node), so that its "objects" count is exact: what was
#               kmalloc'ed, to the object, where SUnreclaim counts slab
#               pages and depends on which slabs had free objects (before
#               and after only; CONFIG_SLUB_DEBUG, else not printed).
#   pcpu_free   (bytes, not kB) the per-CPU allocator's own count of free
#               bytes in its chunks, a unit's worth (/sys/kernel/debug/
#               percpu_stats, CONFIG_PERCPU_STATS): exact to its 4-byte
#               granule, where Percpu counts populated pages; with
#               pcpu_chunks, its number of chunks (a new chunk adds free
#               bytes), and pcpu_units, the possible CPUs (each byte is
#               allocated once a unit). Not printed without the file.
# With zsmalloc and zram built as modules (the "mods" flavour), it first
# loads them, and reads the counters around that as the setup "load".
# Prints, per setup and run,
#   BENCH-ZRAM-MEM algo=SETUP cpus= run= workload=mem
#     percpu_kb_before= percpu_kb_after= (and vmalloc_, sunreclaim_, free_,
#     slab_)
#     memfree_kb_before= memfree_kb_after= memavail_kb_before= ...after=
#     offline_cpus= percpu_kb_offline= ... free_kb_offline= (and _online)
#     cycled_cpus= percpu_kb_cycled= ... slab_kb_cycled=
. "$(dirname "$0")/lib.sh"

CONFS=$(echo "${HARNESS_MEMCONF:-${HARNESS_ALGOS:-zstd,lz4}}" | tr ',' ' ')
RUNS=${HARNESS_RUNS:-3}
DISKSIZE=${HARNESS_DISKSIZE:-256M}
SYS=/sys/block/zram0
cpus=$(nproc 2>/dev/null || grep -c '^processor' /proc/cpuinfo)

# free_kb: the buddy allocator's free pages and the per-CPU lists', in kB.
free_kb() {
	awk -v pk="$(($(getconf PAGESIZE 2>/dev/null || echo 4096) / 1024))" '
		$1 == "pages" && $2 == "free" { n += $3 }
		$1 == "count:" { n += $2 }
		END { print n * pk }' /proc/zoneinfo
}

# slab_kb: the bytes of the unreclaimable slab objects in use, in kB, each
# cache shrunk just before its count is read; nothing without
# CONFIG_SLUB_DEBUG. Reclaimable caches (dentries, inodes) are left out:
# reading sysfs fills them. Shell builtins only in the loop, so that the
# count makes no task of its own.
slab_kb() {
	[ -r /sys/kernel/slab/kmalloc-4k/objects ] || return 0
	for d in /sys/kernel/slab/*; do
		# an alias of a merged cache is a link to the cache
		[ -L "$d" ] && continue
		read -r rec < "$d/reclaim_account" && [ "$rec" = 0 ] || continue
		echo 1 > "$d/shrink" 2> /dev/null
		read -r objs _ < "$d/objects" && read -r size < "$d/object_size" &&
			echo "$objs $size ${d##*/}"
	done | awk '{ b += $1 * $2; if (dump) print "SLABDUMP", $3, $1, $2 > "/dev/console" }
		END { printf "%d\n", b / 1024 }' dump="${HARNESS_SLABDUMP:-}"
}

# pcpu_stats SUFFIX: the per-CPU allocator's free bytes and chunks, and
# the units, as pcpu_free_b_SUFFIX= pcpu_chunks_SUFFIX= pcpu_units= words;
# nothing without CONFIG_PERCPU_STATS (or debugfs).
pcpu_stats() {
	[ -r /sys/kernel/debug/percpu_stats ] || return 0
	units=$(awk -F, '{ for (i = 1; i <= NF; i++) { n = split($i, r, "-");
		u += n == 2 ? r[2] - r[1] + 1 : 1 } } END { print u }' \
		/sys/devices/system/cpu/possible)
	awk -v s="$1" -v u="$units" '
		$1 == "nr_chunks" && $2 == ":" { c = $3 }
		$1 == "free_bytes" && $2 == ":" { f += $3 }
		END { printf "pcpu_free_b_%s=%d pcpu_chunks_%s=%d pcpu_units=%d ", s, f, s, c, u }' \
		/sys/kernel/debug/percpu_stats
}

# snap SUFFIX [slab]: the counters, as KEY_kb_SUFFIX=VALUE words; with
# "slab", the slab objects too (slow: every cache is shrunk).
snap() {
	# Fold the per-CPU vmstat deltas into the global counters first: on
	# 7.3 VmallocUsed is a vmstat counter (NR_VMALLOC), which read alone
	# lags by up to a threshold per CPU (124 KiB at 8 vCPUs seen); so do
	# SUnreclaim and the zones' free pages.
	cat /proc/sys/vm/stat_refresh > /dev/null 2>&1
	# harness.vmallocdump=1: every vmalloc area, for finding what moves
	# VmallocUsed (on the console, each line tagged with the snapshot).
	[ -z "${HARNESS_VMALLOCDUMP:-}" ] ||
		sed "s/^/VMALLOCDUMP $1 /" /proc/vmallocinfo > /dev/console
	sl=""
	[ "$2" = slab ] && [ -r /sys/kernel/slab/kmalloc-4k/objects ] &&
		sl="slab_kb_$1=$(slab_kb) "
	echo "${sl}$(pcpu_stats "$1")percpu_kb_$1=$(meminfo_kb Percpu) vmalloc_kb_$1=$(meminfo_kb VmallocUsed)" \
		"sunreclaim_kb_$1=$(meminfo_kb SUnreclaim) free_kb_$1=$(free_kb)" \
		"memfree_kb_$1=$(meminfo_kb MemFree) memavail_kb_$1=$(meminfo_kb MemAvailable)"
}

settle() {
	sync
	echo 3 > /proc/sys/vm/drop_caches 2> /dev/null
	sleep 1
}

# setup SETUP: configure the reset zram0 as SETUP says; non-zero if refused.
setup() {
	prim=${1%%+*} sec=""
	case $1 in *+*) sec=${1#*+} ;; esac
	a=${prim%%:*}
	echo "$a" > "$SYS/comp_algorithm" || return 1
	case $prim in
	*:*) echo "algo=$a level=${prim#*:}" > "$SYS/algorithm_params" || return 1 ;;
	esac
	[ -n "$sec" ] || return 0
	[ -e "$SYS/recomp_algorithm" ] || { echo "mem-zram: no recomp_algorithm (CONFIG_ZRAM_MULTI_COMP)"; return 1; }
	echo "algo=${sec%%:*} priority=1" > "$SYS/recomp_algorithm" || return 1
	case $sec in
	*:*) echo "priority=1 level=${sec#*:}" > "$SYS/algorithm_params" || return 1 ;;
	esac
}

# cpus_online 0|1: offline (0) or online (1) the upper half of the CPUs.
upper_half() { seq $((cpus - cpus / 2)) $((cpus - 1)); }
cpus_online() {
	for c in $(upper_half); do
		f=/sys/devices/system/cpu/cpu$c/online
		[ -w "$f" ] && echo "$1" > "$f"
	done
}
# secondary_online 0|1: offline (0) or online (1) every CPU but CPU 0, the
# last first, as a suspend to RAM takes them down.
secondary_online() {
	for c in $(seq $((cpus - 1)) -1 1); do
		f=/sys/devices/system/cpu/cpu$c/online
		[ -w "$f" ] && echo "$1" > "$f"
	done
}

echo "mem-zram: kernel $(uname -r), $cpus CPUs, MemTotal $(meminfo_kb MemTotal) kB," \
	"preempt $(cat /sys/kernel/debug/sched/preempt 2>/dev/null)"
# zsmalloc and zram as modules (the "mods" flavour): the compressors they
# need first, then what loading zsmalloc.ko and zram.ko takes (on base,
# zsmalloc's per-CPU mapping area), as the setup "load".
KO=/lib/zram
if [ ! -d /sys/class/zram-control ] && [ -f "$KO/deps" ]; then
	ok=1
	for m in $(grep -vx -e zram -e zsmalloc "$KO/deps"); do
		insmod "$KO/$m.ko" || ok=0
	done
	settle
	before=$(snap before slab)
	insmod "$KO/zsmalloc.ko" && insmod "$KO/zram.ko" || ok=0
	settle
	after=$(snap after slab)
	if [ $ok = 1 ]; then
		echo "BENCH-ZRAM-MEM algo=load cpus=$cpus run=1 workload=load $before $after"
		pass "mem-zram: zsmalloc.ko and zram.ko loaded"
	else
		fail "mem-zram: zsmalloc.ko and zram.ko did not load"
	fi
fi
[ -d "$SYS" ] || cat /sys/class/zram-control/hot_add > /dev/null
hotplug=1
[ "$cpus" -ge 2 ] && [ -w /sys/devices/system/cpu/cpu$((cpus - 1))/online ] || hotplug=0
for conf in $CONFS; do
	for run in $(seq 1 "$RUNS"); do
		ok=0
		echo 1 > "$SYS/reset" && setup "$conf" && ok=1
		settle
		before=$(snap before slab)
		[ $ok = 1 ] && echo "$DISKSIZE" > "$SYS/disksize" || ok=0
		after=$(snap after slab)
		if [ $ok != 1 ]; then
			fail "mem-zram: $conf run $run (zram0 refused the setup)"
			continue
		fi
		off="offline_cpus=0"
		if [ $hotplug = 1 ]; then
			cpus_online 0
			settle
			off="offline_cpus=$(($(upper_half | wc -l) - $(upper_half | while read -r c; do cat /sys/devices/system/cpu/cpu$c/online; done | grep -c 1))) $(snap offline)"
			cpus_online 1
			settle
			off="$off $(snap online)"
			secondary_online 0
			settle
			down=$(nproc)
			secondary_online 1
			settle
			off="$off cycled_cpus=$((cpus - down)) $(snap cycled slab)"
		fi
		echo "BENCH-ZRAM-MEM algo=$conf cpus=$cpus run=$run workload=mem $before $after $off"
		if [ "$(nproc)" != "$cpus" ]; then
			fail "mem-zram: $conf run $run (CPUs did not come back online: $(nproc) of $cpus)"
		else
			pass "mem-zram: $conf run $run"
		fi
	done
done
echo 1 > "$SYS/reset"
exit $HARNESS_FAILED
