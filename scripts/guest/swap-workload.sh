#!/bin/sh
# Set zram up as swap the way real systems do (zram-generator, Android init:
# comp_algorithm, disksize, mkswap, swapon), run a workload that needs about
# PERCENT % of the memory it may use and verifies every byte it reads back,
# and report.
#   ALGO=lz4  PERCENT=200  LIMIT_MB= (memory left to the workload; default:
#   all the RAM, and stress-ng runs after our own verified passes)
#   PASSES=2  DEV=zram0  DURATION=20 (seconds of stress-ng after the verified
#   passes)
. /harness/lib.sh
ALGO=${HARNESS_ALGO:-${ALGO:-lz4}}
PERCENT=${HARNESS_PERCENT:-${PERCENT:-200}}
LIMIT_MB=${HARNESS_LIMIT:-${LIMIT_MB:-}}
DEV=${DEV:-zram0}
sys=/sys/block/$DEV

[ -d "$sys" ] || cat /sys/class/zram-control/hot_add > /dev/null
mem_kb=$(meminfo_kb MemTotal)
lock_mb=0
if [ -n "$LIMIT_MB" ]; then
	# Lock all but LIMIT_MB of the available memory while the workload
	# runs, so that a small workload swaps (a fast test on a slow guest).
	lock_mb=$(( $(meminfo_kb MemAvailable) / 1024 - LIMIT_MB ))
	[ $lock_mb -gt 0 ] || lock_mb=0
	limit_kb=$((LIMIT_MB * 1024))
else
	limit_kb=$mem_kb
fi
work_mb=$((limit_kb * PERCENT / 100 / 1024))

echo "swap: $DEV algorithm $ALGO, RAM $((mem_kb / 1024)) MiB," \
	"$lock_mb MiB locked, workload $work_mb MiB"
if ! echo "$ALGO" > "$sys/comp_algorithm"; then
	fail "swap: set comp_algorithm $ALGO (available: $(cat "$sys/comp_algorithm"))"
	exit 1
fi
echo $((work_mb * 2))M > "$sys/disksize" || { fail "swap: set disksize"; exit 1; }
mkswap "/dev/$DEV" > /dev/null || { fail "swap: mkswap"; exit 1; }
# As zram-generator and Android do: no swap readahead on zram.
echo 0 > /proc/sys/vm/page-cluster
swapon "/dev/$DEV" || { fail "swap: swapon"; exit 1; }

# Pages through zram: its block statistics (reads and writes completed).
set -- $(cat "$sys/stat"); rd0=$1 wr0=$5
out0=$(vmstat pswpout); in0=$(vmstat pswpin)
t0=$(date +%s)
# Write every page, then read every byte back and check it (PASSES times).
swapverify -l "$lock_mb" "$work_mb" "${PASSES:-2}"
rc=$?
# Then stress-ng's verifying vm workers over the same amount, for a while
# (without the lock: it needs the whole RAM to swap).
src=0
if [ -z "$LIMIT_MB" ]; then
	stress-ng --vm 2 --vm-bytes "$((work_mb / 2))M" --vm-keep --vm-method all \
		--verify --timeout "${DURATION:-20}s" --oom-avoid --metrics-brief \
		> /tmp/stress.log 2>&1
	src=$?
fi
t1=$(date +%s)
out1=$(vmstat pswpout); in1=$(vmstat pswpin)
set -- $(cat "$sys/stat"); rd1=$1 wr1=$5
[ $src = 0 ] || cat /tmp/stress.log

set -- $(cat "$sys/mm_stat")
orig=$1 compr=$2 used=$3
echo "swap: pswpout $((${out1:-0} - ${out0:-0})) pages, pswpin $((${in1:-0} - ${in0:-0})) pages in $((t1 - t0)) s"
echo "swap: $DEV completed $((wr1 - wr0)) writes (swap-out), $((rd1 - rd0)) reads (swap-in)"
echo "swap: mm_stat $(cat "$sys/mm_stat")"
echo "swap: io_stat $(cat "$sys/io_stat")"
if [ "$compr" -gt 0 ]; then
	echo "swap: stored $((orig / 1024)) KiB in $((compr / 1024)) KiB" \
		"(ratio $((orig / compr)).$((orig * 100 / compr % 100)))," \
		"$((used / 1024)) KiB of memory in use"
fi
zramctl 2>/dev/null

check "swap: every byte read back verified ($ALGO)" [ "$rc" -eq 0 ]
if [ -z "$LIMIT_MB" ]; then
	check "swap: stress-ng verified its data ($ALGO)" [ "$src" -eq 0 ]
fi
check "swap: pages went out to zram ($ALGO)" [ $((wr1 - wr0)) -gt 0 ]
check "swap: pages came back in from zram ($ALGO)" [ $((rd1 - rd0)) -gt 0 ]
check "swap: compression ratio above 1 ($ALGO)" [ "$orig" -gt "$compr" -a "$compr" -gt 0 ]

swapoff "/dev/$DEV" || fail "swap: swapoff"
echo 1 > "$sys/reset"
exit $HARNESS_FAILED
