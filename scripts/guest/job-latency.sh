#!/bin/sh
# The latency tools on zram (tools/ratereader.c, tools/swapin.c), once
# each, with swap-outs and writes beside them: the fixed-rate reader
# against fio writers on /dev/zram1, the swap-in benchmark on zram0 swap
# with writer processes paging out. Knobs: harness.algo (lz4),
# harness.rate (reads or touches a second: 500), harness.seconds (10),
# harness.writers (processes beside each: 2).
. /harness/lib.sh
ALGO=${HARNESS_ALGO:-lz4}
RATE=${HARNESS_RATE:-500}
SECONDS_=${HARNESS_SECONDS:-10}
WRITERS=${HARNESS_WRITERS:-2}
echo "latency: kernel $(uname -r), $(nproc) CPUs, $ALGO, rate $RATE/s, $SECONDS_ s, $WRITERS writers"
[ -w /sys/module/zswap/parameters/enabled ] && echo N > /sys/module/zswap/parameters/enabled
for i in 0 1; do [ -d /sys/block/zram$i ] || cat /sys/class/zram-control/hot_add > /dev/null; done

# The swap-in benchmark: zram0 as swap, the memory filled from the files
# of the initramfs, paged out, touched back at RATE.
if ! { echo "$ALGO" > /sys/block/zram0/comp_algorithm && echo 256M > /sys/block/zram0/disksize &&
	mkswap /dev/zram0 > /dev/null && swapon /dev/zram0; }; then
	fail "latency: zram0 swap ($ALGO)"
	exit 1
fi
echo 0 > /proc/sys/vm/page-cluster
out=$(swapin -m 32 -r "$RATE" -n $((RATE * SECONDS_)) -w "$WRITERS" -W 8 -d /bin:/usr:/lib:/harness 2>&1)
rc=$?
echo "$out"
maj=$(echo "$out" | sed -n 's/.* major=\([0-9]*\) .*/\1/p')
check "latency: swapin read back every page ($ALGO)" [ "$rc" = 0 ]
check "latency: swapin touches were major faults from zram ($ALGO: ${maj:-0})" [ "${maj:-0}" -gt 0 ]
swapoff /dev/zram0; echo 1 > /sys/block/zram0/reset

# The fixed-rate reader against fio writers on zram1.
if ! { echo "$ALGO" > /sys/block/zram1/comp_algorithm && echo 128M > /sys/block/zram1/disksize; }; then
	fail "latency: zram1 ($ALGO)"
	exit 1
fi
swapverify -o /dev/zram1 96 > /dev/null || { fail "latency: fill zram1"; exit 1; }
pids=""
if command -v fio > /dev/null; then
	fio --name=w --filename=/dev/zram1 --rw=randwrite --bs=4k --direct=1 --size=96M \
		--numjobs="$WRITERS" --time_based --runtime=$((SECONDS_ + 5)) \
		--buffer_compress_percentage=50 --refill_buffers > /tmp/fio-w.log 2>&1 &
	pids=$!
fi
out=$(ratereader -r "$RATE" -t "$SECONDS_" -s 96 /dev/zram1 2>&1)
rc=$?
echo "$out"
[ -z "$pids" ] || wait "$pids"
check "latency: ratereader read every read due ($ALGO)" [ "$rc" = 0 ]
echo 1 > /sys/block/zram1/reset
exit $HARNESS_FAILED
