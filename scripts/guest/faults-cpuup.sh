#!/bin/sh
# CPU-up that fails halfway. zram's zcomp allocates a CPU's compression
# stream (and, with the series, its read contexts) when the CPU comes
# online. Here cpu1 is brought online again and again while the page
# allocator (fail_page_alloc), then the slab allocator (failslab), fails
# every allocation made under zcomp_cpu_up_prepare() once a budget is
# spent (the "space" attribute, grown each round), so that each round
# fails a later allocation, until CPU-up passes with the faults armed.
# After every round, with the faults off:
#   - the device still works on cpu0: a write and its read-back match;
#   - cpu1 comes online, gets its streams, and a write and read-back on it
#     match;
#   - at the end every round's data reads back intact and a reset returns
#     mm_stat to zero.
# On 6.12 itself a failed zstd context creation frees the device's shared
# parameters (zstd_create() calls zstd_release_params()): the next write
# oopses in zstd_compress(). The injected faults are counted with the
# attribute "times" (faults-lib.sh).
# Constants: ALGO=zstd  DISKSIZE_MB=128
. /harness/lib.sh
. /harness/faults-lib.sh
ALGO=zstd
DISKSIZE_MB=128
CPU1=/sys/devices/system/cpu/cpu1/online
st=/tmp/faults-cpuup
rm -rf "$st"; mkdir -p "$st"
sys=/sys/block/zram0
dev=/dev/zram0

faults_need faults-cpuup
faults_need_filter faults-cpuup
[ -w "$CPU1" ] || { skip "faults-cpuup: cpu1 cannot go offline"; exit 0; }

faults_range zcomp_cpu_up_prepare ||
	{ fail "faults-cpuup: zcomp_cpu_up_prepare not in /proc/kallsyms"; exit 1; }

# arm ATTR SPACE: fail every allocation under zcomp_cpu_up_prepare() once
# SPACE was allocated there (pages for fail_page_alloc, bytes for failslab)
arm() { faults_arm "$1" 100 "$2" range; }
# disarm ATTR: fail nothing more; prints the faults injected since arm
disarm() {
	faults_disarm "$1"
	faults_injected "$1"
}

# io CPU ROUND: write 1 MiB of this round's data at the round's offset on
# CPU, read it back and compare
io() {
	printf 'round %s cpu %s ' "$2" "$1" > "$st/head"
	yes "zram faults-cpuup round $2 on cpu $1" | head -c 1048576 |
		cat "$st/head" - | head -c 1048576 > "$st/r$2"
	taskset -c "$1" dd if="$st/r$2" of="$dev" bs=4k seek=$(($2 * 256)) \
		oflag=direct 2> "$st/dd.log" ||
		{ echo "write of round $2 on cpu$1 failed: $(cat "$st/dd.log")"; return 1; }
	taskset -c "$1" dd if="$dev" of="$st/got" bs=4k skip=$(($2 * 256)) count=256 \
		iflag=direct 2> "$st/dd.log" ||
		{ echo "read of round $2 on cpu$1 failed: $(cat "$st/dd.log")"; return 1; }
	cmp -s "$st/got" "$st/r$2" || { echo "round $2 on cpu$1: data differ"; return 1; }
	md5sum < "$st/r$2" > "$st/r$2.md5"
	rm -f "$st/r$2" "$st/got"
}

echo 1 > "$CPU1" 2> /dev/null
[ -d "$sys" ] || cat /sys/class/zram-control/hot_add > /dev/null
echo 1 > "$sys/reset" 2> /dev/null
echo "$ALGO" > "$sys/comp_algorithm" || { fail "faults-cpuup: comp_algorithm $ALGO"; exit 1; }
echo "${DISKSIZE_MB}M" > "$sys/disksize" || { fail "faults-cpuup: disksize"; exit 1; }
echo "faults-cpuup: zram0 $ALGO ${DISKSIZE_MB} MiB; faults under zcomp_cpu_up_prepare" \
	"[$START, $END)"
check "faults-cpuup: $ALGO write and read-back before any fault" io 0 0

round=0 cpuup_failed=0 bad=0 total=0
for attr in fail_page_alloc failslab; do
	passed=0
	# Budgets: fail_page_alloc counts 1 << order a call (a vmalloc bulk
	# call counts one), failslab the bytes of each object.
	if [ $attr = fail_page_alloc ]; then
		budgets="0 1 2 3 4 6 8 12 16 20 22 23 24 25 26 28 30 32 40 48 52 56 64 96 128 192 256"
		unit=1 what=pages
	else
		budgets="0 1 2 4 8 16 32 64 128 256 512 1024"
		unit=64 what=bytes
	fi
	for b in $budgets; do
		round=$((round + 1))
		# Two rounds of 1 MiB each, within the device.
		[ $((round + 1)) -lt "$DISKSIZE_MB" ] || break
		echo 0 > "$CPU1" || { echo "round $round: cpu1 would not go offline"; bad=1; break; }
		arm $attr $((b * unit))
		if echo 1 > "$CPU1" 2> "$st/online.err"; then up=1; else up=0; fi
		n=$(disarm $attr)
		total=$((total + n))
		echo "faults-cpuup: round $round $attr budget $((b * unit)) $what: $n fault(s)" \
			"injected, cpu1 $([ $up = 1 ] && echo online || echo "stayed offline ($(cat "$st/online.err" | sed 's/.*: //'))")"
		[ $up = 1 ] || cpuup_failed=$((cpuup_failed + 1))
		if [ $up = 1 ] && [ "$n" = 0 ]; then passed=1; fi
		# The device must work on cpu0 whatever became of cpu1.
		io 0 "$round" || { bad=1; break; }
		# cpu1 comes online with the faults off, with working streams.
		if [ $up = 0 ]; then
			echo 1 > "$CPU1" || { echo "round $round: cpu1 would not come online"; bad=1; break; }
		fi
		round=$((round + 1))
		io 1 "$round" || { bad=1; break; }
		[ $passed = 0 ] || break
	done
	[ $bad = 0 ] || break
	[ $passed = 1 ] || { echo "faults-cpuup: $attr: CPU-up never passed with the faults armed"; bad=1; }
done
for attr in fail_page_alloc failslab; do disarm $attr > /dev/null; done
echo 1 > "$CPU1" 2> /dev/null
echo "faults-cpuup: $round rounds, $total fault(s) injected, cpu1 failed to come online $cpuup_failed time(s)"
check "faults-cpuup: every round worked on cpu0 and, after CPU-up, on cpu1" [ $bad = 0 ]
injected_and_failed() { [ "$total" -gt 0 ] && [ "$cpuup_failed" -gt 0 ]; }
check "faults-cpuup: faults were injected and CPU-up failed because of them" \
	injected_and_failed

# Every round's data, read again at the end.
verify_all() {
	r=0
	while [ $r -le $round ]; do
		if [ -f "$st/r$r.md5" ]; then
			dd if="$dev" bs=4k skip=$((r * 256)) count=256 iflag=direct 2> /dev/null |
				md5sum | cmp -s - "$st/r$r.md5" ||
				{ echo "round $r: data differ at the end"; return 1; }
		fi
		r=$((r + 1))
	done
}
check "faults-cpuup: every round's data intact at the end" verify_all
echo 1 > "$sys/reset"
check "faults-cpuup: reset returns mm_stat to zero" \
	[ "$(awk '{ print $1 + $2 + $3 }' "$sys/mm_stat")" = 0 ]
exit $HARNESS_FAILED
