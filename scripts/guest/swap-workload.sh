#!/bin/sh
# Set zram up as swap the way real systems do (zram-generator, Android init:
# comp_algorithm, disksize, mkswap, swapon), run a workload that verifies
# every byte it reads back, and report.
#
# The workload is sized from what the guest can hold: before it starts, the
# device stores a sample of the workload's own data with the chosen
# algorithm, and mm_stat gives the ratio of that data to the memory zsmalloc
# used for it (the algorithm's ratio and zsmalloc's overhead together).
# The memory available (less a reserve for the kernel) times that ratio is
# the most the guest can hold; the workload is PERCENT % of the memory it may
# use, or less where that does not fit, but never less than MIN_PERCENT %:
# then it says so and stops before it starts.
# Knobs (README; a job may set HARNESS_X for it): harness.algo (lz4),
#   harness.percent (200), harness.limit (MiB of memory left to the
#   workload; default: all the RAM, and stress-ng runs after our own
#   verified passes), harness.workload (ask for this size in MiB: refused
#   if it cannot fit; harness.nofit=1 runs it all the same, to see how a
#   run that dies says so), harness.passes (2).
# Constants: MIN_PERCENT=150  DEV=zram0  VM_OPS=4 (bogo ops, full passes
#   over their memory, of stress-ng's vm workers after the verified
#   passes; VM_TIMEOUT=300 s at most)
. /harness/lib.sh
ALGO=${HARNESS_ALGO:-lz4}
PERCENT=${HARNESS_PERCENT:-200}
LIMIT_MB=${HARNESS_LIMIT:-}
WORKLOAD=${HARNESS_WORKLOAD:-}
PASSES=${HARNESS_PASSES:-2}
MIN_PERCENT=150
DEV=zram0
VM_OPS=4
VM_TIMEOUT=300
PROBE_MB=16
sys=/sys/block/$DEV

[ -d "$sys" ] || cat /sys/class/zram-control/hot_add > /dev/null
# The workload is for zram: zswap (off by default) would take its pages.
[ -w /sys/module/zswap/parameters/enabled ] &&
	echo N > /sys/module/zswap/parameters/enabled
mem_mb=$(( $(meminfo_kb MemTotal) / 1024 ))

set_algo() {
	echo "$ALGO" > "$sys/comp_algorithm" 2> /dev/null && return 0
	fail "swap: set comp_algorithm $ALGO (available: $(cat "$sys/comp_algorithm"))"
	exit 1
}

# The ratio probe: PROBE_MB of the workload's data through the device.
set_algo
echo $((PROBE_MB * 2))M > "$sys/disksize" || { fail "swap: set disksize (probe)"; exit 1; }
swapverify -o "/dev/$DEV" $PROBE_MB > /dev/null || { fail "swap: ratio probe"; exit 1; }
set -- $(cat "$sys/mm_stat")
p_orig=$1 p_compr=$2 p_used=$3
echo 1 > "$sys/reset"
if [ "${p_used:-0}" -le 0 ] || [ "${p_compr:-0}" -le 0 ]; then
	fail "swap: ratio probe stored nothing (mm_stat $p_orig $p_compr $p_used)"
	exit 1
fi
# Hundredths: data over memory used (what sizing needs), and over the
# compressed size (the algorithm alone, for the report).
ratio=$((p_orig * 100 / p_used))
algo_ratio=$((p_orig * 100 / p_compr))
r2() { echo "$(($1 / 100)).$(printf %02d $(($1 % 100)))"; }

# zram swaps out from inside reclaim and allocates memory to do it, from
# the reserve below the min watermark. The default reserve of a small guest
# (2.7 MiB at 512 MiB) can run dry with two CPUs reclaiming: the allocation
# fails and so does the write, the page stays in memory, and io_stat counts
# it. Seen on the base kernel as on the patched one, 1 run in 5
# ("kswapd0: page allocation failure: order:0 ... GFP_NOIO", "free:0").
# Give the reserve RAM/64, as a device that swaps to zram would be tuned.
min_kb=$(cat /proc/sys/vm/min_free_kbytes)
want_kb=$(( $(meminfo_kb MemTotal) / 64 ))
[ "$min_kb" -ge "$want_kb" ] || echo "$want_kb" > /proc/sys/vm/min_free_kbytes
echo "swap: min_free_kbytes $(cat /proc/sys/vm/min_free_kbytes) (was $min_kb)"

avail_mb=$(( $(meminfo_kb MemAvailable) / 1024 ))
lock_mb=0
if [ -n "$LIMIT_MB" ]; then
	# Lock all but LIMIT_MB of the available memory while the workload
	# runs, so that a small workload swaps (a fast test on a slow guest).
	lock_mb=$((avail_mb - LIMIT_MB))
	[ $lock_mb -gt 0 ] || lock_mb=0
	limit_mb=$LIMIT_MB
else
	limit_mb=$mem_mb
fi
# What the kernel keeps for itself under pressure (watermarks, page tables,
# the swap cache, zram's streams), and a margin for zsmalloc's fragmentation
# as the store fills and empties.
reserve_mb=$((16 + mem_mb / 64))
budget_mb=$((avail_mb - lock_mb - reserve_mb))
[ $budget_mb -gt 0 ] || budget_mb=0
fit_mb=$((budget_mb * ratio / 100 * 85 / 100))
want_mb=$((limit_mb * PERCENT / 100))
[ "$MIN_PERCENT" -le "$PERCENT" ] || MIN_PERCENT=$PERCENT
min_mb=$((limit_mb * MIN_PERCENT / 100))

echo "swap: $DEV algorithm $ALGO: the workload's data stores at ratio $(r2 $algo_ratio)" \
	"($(r2 $ratio) with zsmalloc's overhead, from $PROBE_MB MiB)"
echo "swap: RAM $mem_mb MiB, $avail_mb MiB available, $lock_mb MiB locked," \
	"$reserve_mb MiB kept for the kernel: the guest holds about $fit_mb MiB of this data"
if [ -n "$WORKLOAD" ]; then
	# harness.nofit=1 runs it anyway: how a run that dies reports it.
	if [ "$WORKLOAD" -gt "$fit_mb" ] && [ "${HARNESS_NOFIT:-0}" != 1 ]; then
		fail "swap: a workload of $WORKLOAD MiB cannot fit: at ratio $(r2 $ratio) it needs" \
			"about $((WORKLOAD * 100 / ratio + reserve_mb)) MiB and $avail_mb MiB are" \
			"available (RAM $mem_mb MiB); ask for at most $fit_mb MiB or give the guest more memory"
		exit 1
	fi
	work_mb=$WORKLOAD
else
	work_mb=$want_mb
	[ "$work_mb" -le "$fit_mb" ] || work_mb=$fit_mb
	if [ "$work_mb" -lt "$min_mb" ]; then
		fail "swap: the guest cannot hold ${MIN_PERCENT}% of $limit_mb MiB ($min_mb MiB) of" \
			"data at ratio $(r2 $ratio): $avail_mb MiB available holds about $fit_mb MiB;" \
			"give the guest more memory (MEM=)"
		exit 1
	fi
fi
echo "swap: workload $work_mb MiB ($((work_mb * 100 / limit_mb))% of $limit_mb MiB), $PASSES passes"

set_algo
# Four times the workload: the workload's pages, the rest of the guest
# that reclaim pushes out too (the initramfs on tmpfs), and the slots that
# swapped-in pages keep in the swap cache. Twice was filled once, when a
# loaded host slowed the guest (74,298 pages out instead of about 42,000),
# and the OOM killer took swapverify. Only stored pages take memory.
echo $((work_mb * 4))M > "$sys/disksize" || { fail "swap: set disksize"; exit 1; }
mkswap "/dev/$DEV" > /dev/null || { fail "swap: mkswap"; exit 1; }
# As zram-generator and Android do: no swap readahead on zram.
echo 0 > /proc/sys/vm/page-cluster
swapon "/dev/$DEV" || { fail "swap: swapon"; exit 1; }

# Pages through zram: its block statistics (reads and writes completed).
zram_io() { set -- $(cat "$sys/stat"); echo "$1 $5"; }
set -- $(zram_io); rd0=$1 wr0=$2
out0=$(vmstat pswpout); in0=$(vmstat pswpin)
t0=$(date +%s)
# Write every page, then read every byte back and check it (PASSES times).
oom0=$(vmstat oom_kill)
# With a lock (the test job), reclaim may take other pages than the
# workload's (the initramfs on tmpfs) and leave the workload resident:
# page the workload out once written (-p), so that its reads come back
# from zram.
pageout=""
[ -z "$LIMIT_MB" ] || pageout=-p
swapverify $pageout -l "$lock_mb" "$work_mb" "$PASSES"
rc=$?
set -- $(zram_io); rd_sv=$(($1 - rd0)) wr_sv=$(($2 - wr0))
set -- $(cat "$sys/io_stat"); failed_sv="$1 $2"
if [ $rc -gt 128 ]; then
	if [ "$(vmstat oom_kill)" != "$oom0" ] &&
		dmesg | grep -q 'Killed process [0-9]* (swapverify)'; then
		echo "swap: swapverify was killed by the OOM killer: $work_mb MiB of data at" \
			"ratio $(r2 $ratio) needs about $((work_mb * 100 / ratio + reserve_mb)) MiB;" \
			"the guest has $mem_mb MiB ($avail_mb MiB available at the start, $lock_mb MiB locked)"
	else
		echo "swap: swapverify was killed by signal $((rc - 128))"
	fi
fi
# Then stress-ng's verifying vm workers (without the lock), over the memory
# the guest has for them: some of its methods write random data, which
# zram cannot shrink. They run for VM_OPS bogo ops (full passes over their
# memory), not for a time: one that completed none verified nothing.
src=0
if [ -z "$LIMIT_MB" ]; then
	stress-ng --vm 2 --vm-bytes "$((budget_mb / 2))M" --vm-keep --vm-method all \
		--verify --vm-ops "$VM_OPS" --timeout "${VM_TIMEOUT}s" \
		--oom-avoid --metrics-brief \
		> /tmp/stress.log 2>&1
	src=$?
fi
t1=$(date +%s)
out1=$(vmstat pswpout); in1=$(vmstat pswpin)
set -- $(zram_io); rd1=$1 wr1=$2
[ $src = 0 ] || cat /tmp/stress.log
# A vm worker that completed no bogo op (a full method pass over its
# memory) verified nothing.
vmops=0
if [ -z "$LIMIT_MB" ]; then
	vmops=$(awk '$4 == "vm" { print $5; exit }' /tmp/stress.log)
	grep -E 'stressor|\] vm ' /tmp/stress.log
fi

set -- $(cat "$sys/mm_stat")
orig=$1 compr=$2 used=$3 max_used=$5
set -- $(cat "$sys/io_stat")
failed_rd=$1 failed_wr=$2
echo "swap: pswpout $((${out1:-0} - ${out0:-0})) pages, pswpin $((${in1:-0} - ${in0:-0})) pages in $((t1 - t0)) s"
echo "swap: $DEV completed $((wr1 - wr0)) writes (swap-out), $((rd1 - rd0)) reads (swap-in);" \
	"swapverify alone: $wr_sv writes, $rd_sv reads (io_stat failed reads and writes: $failed_sv)"
echo "swap: mm_stat $(cat "$sys/mm_stat")"
echo "swap: io_stat $(cat "$sys/io_stat")"
if [ "$compr" -gt 0 ]; then
	echo "swap: stored $((orig / 1024)) KiB in $((compr / 1024)) KiB" \
		"(ratio $(r2 $((orig * 100 / compr))))," \
		"$((used / 1024)) KiB of memory in use, at most $((max_used / 1048576)) MiB"
fi
zramctl 2>/dev/null

# What had to go out: the part of the workload beyond the memory it may use.
psz=$(swapverify -s)
need_out=$(( (work_mb - limit_mb) * 1048576 / psz ))
[ $need_out -gt 0 ] || need_out=1
check "swap: every byte read back verified ($ALGO)" [ "$rc" -eq 0 ]
if [ -z "$LIMIT_MB" ]; then
	check "swap: stress-ng verified its data ($ALGO: ${vmops:-0} vm bogo ops)" \
		[ "$src" -eq 0 -a "${vmops:-0}" -gt 0 ]
fi
check "swap: at least the $((work_mb - limit_mb)) MiB beyond $limit_mb MiB went out to zram ($ALGO: $wr_sv pages)" \
	[ "$wr_sv" -ge "$need_out" ]
# The verification reads every page of the workload: what had to go out
# must come back in. Paged out whole (-p), most of it must; else at least
# the part beyond the memory it may use. MADV_PAGEOUT is best effort (it
# skips a page it cannot isolate, as while reclaim holds it, and reclaim
# runs throughout: the workload is larger than the memory). Most runs
# read back over 99 % of the pages; one debug run read 87 % (zstd, 21,429
# of 24,576, every byte verified; why was not found): three quarters is
# the floor. (Other pages
# go out too, the initramfs's among them, and never come back: the count
# of pages that went out is no measure.) swapverify does not say how many
# of its pages MADV_PAGEOUT took, so with -p a share below the floor is
# the interleaving, not a fault, if every byte was verified: it skips.
work_pages=$((work_mb * 1048576 / psz))
need_in=$need_out
[ -z "$pageout" ] || need_in=$((work_pages * 3 / 4))
in_name="swap: at least $need_in of the workload's $work_pages pages came back in from zram ($ALGO: $rd_sv)"
if [ -n "$pageout" ] && [ "$rc" -eq 0 ] && [ "$rd_sv" -lt "$need_in" ]; then
	skip "$in_name # SKIP $rd_sv pages came back, every byte verified:" \
		"the rest were still in memory when read (MADV_PAGEOUT skips pages reclaim holds)"
else
	check "$in_name" [ "$rd_sv" -ge "$need_in" ]
fi
check "swap: no failed zram reads or writes ($ALGO: io_stat $failed_rd $failed_wr)" \
	[ "${failed_rd:-1}" -eq 0 -a "${failed_wr:-1}" -eq 0 ]
check "swap: the workload's data compresses ($ALGO: ratio $(r2 $algo_ratio))" [ "$algo_ratio" -gt 100 ]

swapoff "/dev/$DEV" || fail "swap: swapoff"
echo 1 > "$sys/reset"
exit $HARNESS_FAILED
