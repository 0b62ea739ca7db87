#!/bin/sh
# I/O on zram while slab and page allocations fail. For DURATION seconds,
# with failslab and fail_page_alloc failing PERCENT% of the allocations of
# the tasks under test (task-filter: /proc/self/make-it-fail, inherited by
# their children), these run at once:
#   - blkverify writers and readers on zram0, two per CPU on ranges of
#     their own (tools/blkverify.c: random 4 KiB O_DIRECT I/O);
#   - a post-processing loop: idle marking, recompression with a second
#     algorithm, writeback to a backing device, compaction;
#   - cpu1 going offline and online (its CPU-up allocations fail too).
# The loops' sysfs writes run under the faults (faulty_write), the loops
# themselves do not: a shell that cannot fork tests nothing.
# What must hold:
#   - no read returns wrong data; a write that fails leaves its block as
#     it was (blkverify checks both, and every block again at the end);
#   - faults were injected, and some I/O failed because of them (a run
#     that injected nothing cannot pass);
#   - once the faults stop, the device works again without a reset: a
#     further run has no failed I/O; cpu1 comes online;
#   - a reset returns mm_stat to zero;
#   - kmemleak (boot with kmemleak=on) reports nothing.
#   harness.duration=120 (s)
# Constants: PERCENT=2  ALGO=lz4  DISKSIZE_MB=64
. /harness/lib.sh
. /harness/faults-lib.sh
DURATION=${HARNESS_DURATION:-120}
PERCENT=2
ALGO=lz4
DISKSIZE_MB=64
CPU1=/sys/devices/system/cpu/cpu1/online
st=/tmp/faults-io
rm -rf "$st"; mkdir -p "$st"
sys=/sys/block/zram0
dev=/dev/zram0

faults_need faults-io
[ -w /proc/self/make-it-fail ] ||
	{ skip "faults-io: no /proc/self/make-it-fail"; exit 0; }

arm() {
	for a in failslab fail_page_alloc; do faults_arm $a "$PERCENT" 0 task; done
}
disarm() { faults_disarm failslab fail_page_alloc; }
# injected: faults injected since arm
injected() { faults_injected failslab fail_page_alloc; }

echo 1 > "$CPU1" 2> /dev/null
[ -d "$sys" ] || cat /sys/class/zram-control/hot_add > /dev/null
echo 1 > "$sys/reset" 2> /dev/null
echo "$ALGO" > "$sys/comp_algorithm" || { fail "faults-io: comp_algorithm $ALGO"; exit 1; }
recomp=0
if [ -e "$sys/recomp_algorithm" ] && echo "algo=zstd priority=1" > "$sys/recomp_algorithm"; then
	recomp=1
fi
loop=
if [ -e "$sys/backing_dev" ]; then
	dd if=/dev/zero of="$st/backing" bs=1M count=0 seek=$((DISKSIZE_MB + 4)) 2> /dev/null
	loop=$(losetup -f) && losetup "$loop" "$st/backing" && echo "$loop" > "$sys/backing_dev" ||
		loop=
fi
echo "${DISKSIZE_MB}M" > "$sys/disksize" || { fail "faults-io: disksize"; exit 1; }
ncpu=$(nproc)
workers=$((2 * ncpu))
blocks=$((DISKSIZE_MB * 256 / workers))
echo "faults-io: zram0 $ALGO ${DISKSIZE_MB} MiB, recompression zstd: $recomp, backing" \
	"device: ${loop:-none}; $workers blkverify workers of $blocks blocks;" \
	"${PERCENT}% of allocations fail for ${DURATION}s"

# faulty_write VALUE FILE: write VALUE to FILE from a task whose
# allocations may fail (a subshell: only the write itself, no fork or exec,
# runs under the faults)
faulty_write() { ( echo 1 > /proc/self/make-it-fail && echo "$1" > "$2" ) 2> /dev/null; }

# Post-processing: failures (ENOMEM, EAGAIN, EIO) are expected and counted.
pp_loop() {
	while [ ! -e "$st/stop" ]; do
		for w in "idle all:$sys/idle" "type=idle:$sys/recompress" \
			 "idle:$sys/writeback" "1:$sys/compact"; do
			f=${w#*:}
			[ -e "$f" ] || continue
			if faulty_write "${w%%:*}" "$f"; then
				echo ok >> "$st/pp"
			else
				echo failed >> "$st/pp"
			fi
		done
		sleep 1
	done
}
hotplug_loop() {
	while [ ! -e "$st/stop" ]; do
		echo 0 > "$CPU1" 2> /dev/null
		sleep 1
		if faulty_write 1 "$CPU1"; then echo ok >> "$st/hp"; else echo failed >> "$st/hp"; fi
		sleep 1
	done
}

arm
pp_loop &
loops=$!
if [ -w "$CPU1" ]; then
	hotplug_loop &
	loops="$loops $!"
fi
# blkverify sets make-it-fail itself, for its I/O loop only.
pids=
i=0
while [ $i -lt $workers ]; do
	BLKVERIFY_MAKE_IT_FAIL=1 blkverify run "$dev" "$st/state$i" $((i * blocks)) $blocks \
		"$DURATION" $((i + 1)) > "$st/w$i.log" 2>&1 &
	pids="$pids $!"
	i=$((i + 1))
done
wait $pids
touch "$st/stop"
wait $loops
n_inj=$(injected)
disarm
echo 1 > "$CPU1" 2> /dev/null

wait_workers() {
	rc=0
	i=0
	while [ $i -lt $workers ]; do
		# blkverify's last line: writes W failed F reads R failed F mismatches M
		tail -n 1 "$st/w$i.log" | grep -q '^blkverify: writes' ||
			{ echo "worker $i: $(tail -n 3 "$st/w$i.log")"; rc=1; }
		i=$((i + 1))
	done
	return $rc
}
sum() { cat "$st"/w*.log | awk -v f="$1" '/^blkverify: writes/ { n += $f } END { print n + 0 }'; }
writes=$(sum 3) wfail=$(sum 5) reads=$(sum 7) rfail=$(sum 9) bad=$(sum 11)
count() { cat "$st/$2" 2> /dev/null | grep -c "$1"; }
pp_ok=$(count ok pp) pp_failed=$(count failed pp)
hp_ok=$(count ok hp) hp_failed=$(count failed hp)
echo "faults-io: injected $n_inj faults; writes $writes ($wfail failed), reads $reads" \
	"($rfail failed), mismatches $bad; post-processing $pp_ok ok, $pp_failed failed;" \
	"cpu1 online $hp_ok ok, $hp_failed failed"
grep -h 'blkverify: block' "$st"/w*.log | head -20

check "faults-io: every worker finished" wait_workers
check "faults-io: no read returned wrong data" [ "$bad" = 0 ]
faults_bit() { [ "$n_inj" -gt 0 ] && [ $((wfail + rfail + pp_failed + hp_failed)) -gt 0 ]; }
check "faults-io: faults were injected and made I/O fail" faults_bit

# Every block, read once: what the last successful write left there.
check_all() {
	rc=0
	i=0
	while [ $i -lt $workers ]; do
		blkverify check "$dev" "$st/state$i" $((i * blocks)) $blocks > "$st/c$i.log" 2>&1 ||
			{ cat "$st/c$i.log" | head -5; rc=1; }
		i=$((i + 1))
	done
	return $rc
}
check "faults-io: every block holds its last successful write" check_all
after() {
	rc=0
	i=0
	while [ $i -lt $workers ]; do
		blkverify run "$dev" "$st/state$i" $((i * blocks)) $blocks 5 $((i + 100)) \
			> "$st/a$i.log" 2>&1 &
		i=$((i + 1))
	done
	wait
	cat "$st"/a*.log | awk '/^blkverify: writes/ { if ($5 || $9 || $11) bad = 1; n++ }
		END { exit bad || n == 0 }' || { cat "$st"/a*.log; rc=1; }
	return $rc
}
check "faults-io: with the faults off, I/O works again without a reset" after
check "faults-io: cpu1 online again" [ "$(cat "$CPU1" 2> /dev/null || echo 1)" = 1 ]
echo 1 > "$sys/reset"
[ -z "$loop" ] || losetup -d "$loop"
check "faults-io: reset returns mm_stat to zero" \
	[ "$(awk '{ print $1 + $2 + $3 }' "$sys/mm_stat")" = 0 ]

if [ -w "$DBG/kmemleak" ]; then
	leaks() {
		echo scan > "$DBG/kmemleak"; sleep 5; echo scan > "$DBG/kmemleak"
		cat "$DBG/kmemleak" > "$st/kmemleak"
		n=$(grep -c '^unreferenced object' "$st/kmemleak")
		echo "faults-io: kmemleak: $n unreferenced object(s)"
		head -40 "$st/kmemleak"
		[ "$n" = 0 ]
	}
	check "faults-io: kmemleak reports nothing" leaks
else
	skip "faults-io: kmemleak reports nothing (boot with kmemleak=on)"
fi
exit $HARNESS_FAILED
