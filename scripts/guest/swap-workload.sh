#!/bin/sh
# Set zram up as swap the way real systems do (zram-generator, Android init:
# comp_algorithm, disksize, mkswap, swapon), run a workload that needs about
# twice the RAM and verifies every byte it reads back, and report.
#   ALGO=lz4  FACTOR=2 (workload / RAM)  WORKERS=2  DEV=zram0  TIMEOUT=600
. /harness/lib.sh
ALGO=${HARNESS_ALGO:-${ALGO:-lz4}}
FACTOR=${HARNESS_FACTOR:-${FACTOR:-2}}
WORKERS=${HARNESS_WORKERS:-${WORKERS:-2}}
DEV=${DEV:-zram0}
TIMEOUT=${TIMEOUT:-600}
sys=/sys/block/$DEV

[ -d "$sys" ] || cat /sys/class/zram-control/hot_add > /dev/null
mem_kb=$(meminfo_kb MemTotal)
work_kb=$((mem_kb * FACTOR))
per_worker_kb=$((work_kb / WORKERS))

echo "swap: $DEV algorithm $ALGO, RAM $((mem_kb / 1024)) MiB," \
	"workload $((work_kb / 1024)) MiB in $WORKERS workers"
if ! echo "$ALGO" > "$sys/comp_algorithm"; then
	fail "swap: set comp_algorithm $ALGO (available: $(cat "$sys/comp_algorithm"))"
	exit 1
fi
echo $((work_kb * 2))K > "$sys/disksize" || { fail "swap: set disksize"; exit 1; }
mkswap "/dev/$DEV" > /dev/null || { fail "swap: mkswap"; exit 1; }
swapon "/dev/$DEV" || { fail "swap: swapon"; exit 1; }

out0=$(vmstat pswpout); in0=$(vmstat pswpin)
t0=$(date +%s)
# stress-ng writes its patterns, swaps them out under pressure and checks
# every byte it reads back (--verify); a mismatch makes it fail.
stress-ng --vm "$WORKERS" --vm-bytes "${per_worker_kb}K" --vm-keep \
	--vm-method all --verify --timeout "${DURATION:-30}s" \
	--oom-avoid --metrics-brief > /tmp/stress.log 2>&1
rc=$?
t1=$(date +%s)
out1=$(vmstat pswpout); in1=$(vmstat pswpin)
[ $rc = 0 ] || cat /tmp/stress.log

set -- $(cat "$sys/mm_stat")
orig=$1 compr=$2 used=$3
echo "swap: pswpout $((out1 - out0)) pages, pswpin $((in1 - in0)) pages in $((t1 - t0)) s"
echo "swap: mm_stat $(cat "$sys/mm_stat")"
echo "swap: io_stat $(cat "$sys/io_stat")"
if [ "$compr" -gt 0 ]; then
	echo "swap: stored $((orig / 1024)) KiB in $((compr / 1024)) KiB" \
		"(ratio $((orig * 100 / compr / 100)).$((orig * 100 / compr % 100)))," \
		"$((used / 1024)) KiB of memory in use"
fi
zramctl 2>/dev/null

check "swap: workload verified its data ($ALGO)" [ "$rc" -eq 0 ]
check "swap: pages went out to zram ($ALGO)" [ $((out1 - out0)) -gt 0 ]
check "swap: pages came back in from zram ($ALGO)" [ $((in1 - in0)) -gt 0 ]
check "swap: compression ratio above 1 ($ALGO)" [ "$orig" -gt "$compr" -a "$compr" -gt 0 ]

swapoff "/dev/$DEV" || fail "swap: swapoff"
echo 1 > "$sys/reset"
exit $HARNESS_FAILED
