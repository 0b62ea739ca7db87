#!/bin/sh
# A writer that holds a zram write stream must never wait in direct
# reclaim (found in review): kswapd and every task that swaps out through
# the same device take that device's write streams, and would wait behind
# the writer's reclaim, which cannot make progress without them.
#
# zram0 holds an ext2 file system with a swap file on it, so that swap-out
# and ordinary writes go through the same device and its streams. fio
# writers (WRITERS per CPU) write to files on it with O_DIRECT: zram
# compresses and allocates in their context, which is not reclaim. Then
# swapverify, with all but LIMIT_MB of the available memory locked, pages
# SWAP_MB out to the swap file (under that pressure, and with MADV_PAGEOUT
# once written) and checks every byte it reads back.
#
# The deadlock is forever; a slow TCG guest (guest time is host time) can
# keep a task in D for tens of seconds. The hung-task detector (built in
# the debug flavour) is set to HUNG_S seconds, so a task that waits that
# long is reported on the console, which fails the run. The script checks
# that swapverify ends, verified: it fails if no page went in or out of
# swap for STUCK_S seconds, and skips if swapverify still moved but had
# not ended after DURATION seconds. kswapd0 must never stay STALL_S
# seconds in one uninterruptible sleep (D, no context switch between
# samples) while it watched.
#   harness.writers=2  harness.stall=10 (STALL_S)  harness.hung=120 (HUNG_S)
#   harness.duration=240
# Constants: LIMIT_MB=48 SWAP_MB=128 (not harness.limit, which sizes the
# swap workload: a guest that gives that one more room must still swap here)
. /harness/lib.sh
WRITERS=${HARNESS_WRITERS:-2}
STALL_S=${HARNESS_STALL:-10}
HUNG_S=${HARNESS_HUNG:-120}
DURATION=${HARNESS_DURATION:-240}
LIMIT_MB=48
SWAP_MB=128
sys=/sys/block/zram0
mnt=/mnt/stall

if ! command -v fio > /dev/null; then
	skip "stall: fio is not in this initramfs (FIO=1)"
	exit 0
fi
hung=/proc/sys/kernel/hung_task_timeout_secs
# Without the detector, the script's own watch: no swap traffic for 60 s.
STUCK_S=60
if [ -w $hung ]; then
	echo "$HUNG_S" > $hung
	echo -1 > /proc/sys/kernel/hung_task_warnings
	# A scan every 10 s (else every HUNG_S s): a task blocked HUNG_S s is
	# reported within HUNG_S + 10 s. The watch below waits longer, so
	# that the detector's report (the known bug's record) comes first.
	scan_s=$HUNG_S
	scan=/proc/sys/kernel/hung_task_check_interval_secs
	[ -w $scan ] && echo 10 > $scan && scan_s=10
	STUCK_S=$((HUNG_S + scan_s + 30))
	# With the blocked task, what every CPU runs: the stream's holder.
	bt=/proc/sys/kernel/hung_task_all_cpu_backtrace
	[ ! -w $bt ] || echo 1 > $bt
	# A kernel that locks up here (stock 7.3) never gives the guest back:
	# after the report, the backtraces and the locks held, it panics, and
	# the run ends now rather than at its timeout.
	panic_was=$(cat /proc/sys/kernel/hung_task_panic 2> /dev/null)
	[ -z "$panic_was" ] || echo 1 > /proc/sys/kernel/hung_task_panic
	echo "stall: hung-task detector at $HUNG_S s"
else
	echo "stall: no hung-task detector in this kernel; kswapd0 is watched"
fi

[ -d $sys ] || cat /sys/class/zram-control/hot_add > /dev/null
echo lz4 > $sys/comp_algorithm
echo 1G > $sys/disksize || { fail "stall: disksize"; exit 1; }
# Blocks of a page: a swap file's pages must each be one run of blocks.
mke2fs -q -b "$(swapverify -s)" /dev/zram0 > /dev/null ||
	{ fail "stall: mke2fs"; echo 1 > $sys/reset; exit 1; }
mkdir -p $mnt
mount -t ext2 /dev/zram0 $mnt || { fail "stall: mount ext2"; exit 1; }
# The swap file: zeros, which zram stores as same-filled pages.
dd if=/dev/zero of=$mnt/swap bs=1M count=$((SWAP_MB * 2)) 2> /dev/null
chmod 600 $mnt/swap
mkswap $mnt/swap > /dev/null && swapon $mnt/swap ||
	{ fail "stall: swapon of a swap file on zram0"; umount $mnt; echo 1 > $sys/reset; exit 1; }
echo 0 > /proc/sys/vm/page-cluster

# stall_writers_ok AMOUNT: fio's total (AMOUNT) is more than nothing, and
# no job reported an error
stall_writers_ok() {
	case "$1" in
	"" | 0B | 0 | 0.0*B) return 1 ;;
	esac
	grep -q 'err= 0' /tmp/stall-fio.log && ! grep -Eq 'err= *[1-9]' /tmp/stall-fio.log
}

nwriters=$((WRITERS * $(nproc)))
fio --name=stall-writer --directory=$mnt --size=16M --bs=64k --rw=randwrite \
	--direct=1 --ioengine=psync --numjobs=$nwriters --time_based \
	--runtime=$DURATION --buffer_compress_percentage=60 --refill_buffers \
	--output=/tmp/stall-fio.log > /dev/null 2>&1 &
fiopid=$!
sleep 2

avail_mb=$(( $(meminfo_kb MemAvailable) / 1024 ))
lock_mb=$((avail_mb - LIMIT_MB))
[ $lock_mb -gt 0 ] || lock_mb=0
echo "stall: $nwriters O_DIRECT writers on ext2 on zram0, swap file on it;" \
	"swapverify $SWAP_MB MiB with $lock_mb of $avail_mb MiB locked"
out0=$(vmstat pswpout)
# -p: the workload is also paged out once written, so that pages go out
# to the swap file whatever room the lock leaves. The i386-highmem flavour
# once swapped nothing out here (cause not found); swapverify says how
# much of the lock was in memory (MAP_POPULATE does not fail when it
# cannot fault every page in).
swapverify -p -l $lock_mb $SWAP_MB 1 > /tmp/stall-swapverify.log 2>&1 &
svpid=$!

# Watch kswapd0, swapverify and the swap traffic, once a second, by the
# clock (on a slow guest a round takes longer than its sleep).
kswapd=$(for p in /proc/[0-9]*; do
	[ "$(cat $p/comm 2> /dev/null)" = kswapd0 ] && echo ${p#/proc/}; done | head -1)
swap_io() { echo $(($(vmstat pswpin) + $(vmstat pswpout))); }
# kswapd0's context switches: unchanged while it sleeps on one wait.
kswapd_csw() {
	awk '/ctxt_switches:/ { n += $2 } END { print n + 0 }' /proc/$kswapd/status 2> /dev/null
}
start=$(date +%s)
now=$start moved=$start
io0=$(swap_io)
io=$io0 dstart='' csw='' worst=0
while kill -0 $svpid 2> /dev/null; do
	# Stuck: no page in or out for STUCK_S s. Past DURATION and still
	# moving: only slow.
	[ $((now - moved)) -lt $STUCK_S ] || break
	[ $((now - start)) -lt "$DURATION" ] || [ $now -ne $moved ] || break
	sleep 1
	now=$(date +%s)
	v=$(swap_io)
	[ "$v" = "$io" ] || { io=$v; moved=$now; }
	# One wait: in D at each sample, no context switch in between.
	# Repeated short sleeps (reclaim_throttle, writeback) are not one.
	state=$(awk '{ print $3 }' /proc/$kswapd/stat 2> /dev/null)
	c=$(kswapd_csw)
	if [ "$state" != D ]; then
		dstart=
	elif [ -z "$dstart" ] || [ "$c" != "$csw" ]; then
		dstart=$now
	fi
	csw=$c
	[ -z "$dstart" ] || [ $((now - dstart)) -le $worst ] || worst=$((now - dstart))
done
t=$((now - start))
if kill -0 $svpid 2> /dev/null && [ $((now - moved)) -ge $STUCK_S ]; then
	fail "stall: swapverify moved no page in or out of swap for $STUCK_S s (after $t s;" \
		"kswapd0 in D for $worst s at most)"
	cat /proc/$kswapd/stack 2> /dev/null | sed 's/^/stall: kswapd0: /'
	# Every task in D, with its stack, on the console: who holds what.
	[ -w /proc/sysrq-trigger ] && echo w > /proc/sysrq-trigger
	for p in /proc/[0-9]*; do
		[ "$(awk '{ print $3 }' $p/stat 2> /dev/null)" = D ] || continue
		echo "stall: in D: $(cat $p/comm 2> /dev/null) (${p#/proc/}):" \
			$(awk '{ print $2 }' $p/stack 2> /dev/null | head -8)
	done
	kill $svpid $fiopid 2> /dev/null
	exit 1
fi
# Still moving at DURATION: too slow to tell; what it read so far counts.
slow=
if kill -0 $svpid 2> /dev/null; then
	slow="too slow to finish: $t s, pswpin+pswpout +$((io - io0)), still moving"
	kill $svpid 2> /dev/null
fi
wait $svpid
rc=$?
sed -n 's/^swapverify: locked /stall: swapverify: locked /p' /tmp/stall-swapverify.log
out1=$(vmstat pswpout)
kill $fiopid 2> /dev/null
wait $fiopid 2> /dev/null
echo "stall: swapverify rc=$rc in about $t s; pswpout +$((out1 - out0));" \
	"kswapd0 in D for $worst s at most; writestall $(awk '{ print $1 }' $sys/debug_stat | tail -1)"
# The writers must have written, without an error: fio prints its totals
# when it is stopped ("WRITE: bw=..., io=12.3MiB (12.9MB), run=...").
written=$(sed -n 's/.*WRITE: bw=.*, io=\([0-9.]*[KMGTP]*i*B\) .*/\1/p' /tmp/stall-fio.log | head -1)
echo "stall: the fio writers wrote ${written:-nothing (no WRITE line in their output)}"
grep -E 'err= *[1-9]|error' /tmp/stall-fio.log | head -5 | sed 's/^/stall: fio: /'
check "stall: the fio writers wrote, without an error" \
	stall_writers_ok "$written"
if [ -z "$slow" ]; then
	check "stall: swapverify verified every byte" [ $rc = 0 ]
elif grep -q differs /tmp/stall-swapverify.log; then
	# A page read back wrong before it was stopped: the data is the bug.
	echo "stall: swapverify stopped ($slow) after a page differed"
	fail "stall: swapverify verified every byte"
else
	skip "stall: swapverify verified every byte # SKIP $slow"
fi
check "stall: pages went out to the swap file on zram0" [ $((out1 - out0)) -gt 0 ]
check "stall: kswapd0 never waited $STALL_S s" [ $worst -lt "$STALL_S" ]
[ -z "${panic_was:-}" ] || echo "$panic_was" > /proc/sys/kernel/hung_task_panic
swapoff $mnt/swap
umount $mnt
echo 1 > $sys/reset
exit $HARNESS_FAILED
