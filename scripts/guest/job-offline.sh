#!/bin/sh
# Memory offlining against zram readers: how often, and
# how fast, a ZONE_MOVABLE memory block that holds zsmalloc pages goes
# offline while readers hold zspages inside their reads, for comparing
# zs_page_migrate()'s errno for a zspage with readers (-EBUSY, as mainline,
# or -EAGAIN, which migrate_pages() retries at once).
# Needs the memhp flavour and movablecore= (for example movablecore=50%).
# Knobs: harness.rounds (offline attempts, default 8), harness.readers
# (fio readers, default 8 a CPU), harness.limit (seconds an offline may
# take before it is interrupted, default 60), harness.hogs (busy loops
# per CPU at nice 0, default 0) and harness.nice (the readers' nice,
# default 0): readers at nice 19 among hogs are preempted inside their
# reads and hold their zspages for whole time slices, as a reader that
# sleeps in its read would.
. /harness/lib.sh
ROUNDS=${HARNESS_ROUNDS:-8}
READERS=${HARNESS_READERS:-$((8 * $(nproc)))}
LIMIT=${HARNESS_LIMIT:-60}
HOGS=${HARNESS_HOGS:-0}
NICE=${HARNESS_NICE:-0}
MEMDIR=/sys/devices/system/memory
echo "offline: kernel $(uname -r), $(nproc) CPUs, $READERS readers at nice $NICE, $HOGS hogs a CPU, $ROUNDS rounds"

now_ms() { awk '{ printf "%d\n", $1 * 1000 }' /proc/uptime; }

# Online memory blocks of ZONE_MOVABLE.
movable_blocks() {
	for b in "$MEMDIR"/memory*; do
		[ "$(cat "$b/state")" = online ] || continue
		[ "$(cat "$b/valid_zones" 2> /dev/null)" = Movable ] || continue
		echo "${b##*/memory}"
	done | sort -rn
}

setup() {
	echo lz4 > /sys/block/zram0/comp_algorithm &&
	echo 320M > /sys/block/zram0/disksize || return 1
	# 256 MiB of half-compressible data
	fio --name=fill --filename=/dev/zram0 --rw=write --bs=64k --size=256M \
		--direct=1 --buffer_compress_percentage=50 --refill_buffers \
		> /tmp/fill.log 2>&1 || { tail -5 /tmp/fill.log; return 1; }
	awk '{ printf "offline: zram0 holds %d MiB in %d MiB\n", $1 / 1048576, $3 / 1048576 }' /sys/block/zram0/mm_stat
}

start_readers() {
	fio --name=readers --filename=/dev/zram0 --rw=randread --bs=4k --direct=1 \
		--numjobs="$READERS" --time_based --runtime=3600 --size=256M \
		--nice="$NICE" > /tmp/readers.log 2>&1 &
	READERS_PID=$!
	HOG_PIDS=
	h=0
	while [ "$h" -lt $((HOGS * $(nproc))) ]; do
		sh -c 'while :; do :; done' &
		HOG_PIDS="$HOG_PIDS $!"
		h=$((h + 1))
	done
	sleep 3
	kill -0 "$READERS_PID"
}

vm() { awk -v k="$1" '$1 == k { print $2 }' /proc/vmstat; }

# offline_round N [BLOCK]: offline BLOCK, or else the next of $BLOCKS in
# turn (its pages move to the others), time it, online it again. Prints
# "offline: round N block B: ok|failed MS ms" and the migrations counted
# meanwhile.
NEXT=0
offline_round() {
	b=${2:-}
	if [ -z "$b" ]; then
		n=$(echo $BLOCKS | wc -w)
		b=$(echo $BLOCKS | tr ' ' '\n' | sed -n "$((NEXT % n + 1))p")
		NEXT=$((NEXT + 1))
	fi
	[ -n "$b" ] || { echo "offline: no movable block online"; return 1; }
	ms0=$(vm pgmigrate_success); mf0=$(vm pgmigrate_fail)
	t0=$(now_ms)
	if timeout "$LIMIT" sh -c "echo offline > $MEMDIR/memory$b/state" 2> /tmp/offline.err; then
		r=ok
	else
		r=failed
	fi
	t1=$(now_ms)
	echo "offline: round $1 block $b: $r $((t1 - t0)) ms, pgmigrate_success +$(($(vm pgmigrate_success) - ms0)) pgmigrate_fail +$(($(vm pgmigrate_fail) - mf0))"
	[ "$r" = ok ] || sed 's/^/offline:   /' /tmp/offline.err
	echo online_movable > "$MEMDIR/memory$b/state" 2> /dev/null ||
		echo online > "$MEMDIR/memory$b/state" 2> /dev/null ||
		echo "offline: could not online block $b again"
	[ "$r" = ok ]
}

check "offline: zram0 set up and filled" setup || exit 1
[ -n "$(movable_blocks)" ] || { fail "offline: movable memory blocks (movablecore=?)"; exit 1; }
echo "offline: movable blocks $(movable_blocks | tr '\n' ' ')"
# Without readers, each movable block once: the rounds below use those
# that went offline (a block with a memory hole, or one that spans two
# zones, never does: offline fails at once with EINVAL).
BLOCKS=
for b in $(movable_blocks); do
	offline_round "idle-$b" "$b" && BLOCKS="$BLOCKS $b"
done
echo "offline: blocks used:$BLOCKS"
[ -n "$BLOCKS" ] || { fail "offline: a movable block goes offline without readers"; exit 1; }
check "offline: $READERS readers running" start_readers || exit 1
ok=0
i=1
while [ $i -le "$ROUNDS" ]; do
	offline_round "$i" && ok=$((ok + 1))
	i=$((i + 1))
done
kill "$READERS_PID" $HOG_PIDS 2> /dev/null
wait "$READERS_PID" 2> /dev/null
echo "offline: $ok of $ROUNDS offlines under readers succeeded"
check "offline: readers saw no I/O error" sh -c '! grep -Eq "err= *[1-9]" /tmp/readers.log'
[ "$ok" -gt 0 ] && pass "offline: some offline succeeded under readers" || skip "offline: no offline succeeded under readers"
exit $HARNESS_FAILED
