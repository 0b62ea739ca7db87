#!/bin/sh
# Swap on zram while zram's own allocations fail. zram0 is swap (mkswap,
# swapon, page-cluster 0, as zram-generator and Android set it up), all but
# LIMIT_MB of the memory is locked, and swapverify writes SWAP_MB of data,
# pages it out and reads every byte back. Meanwhile fail_page_alloc and
# failslab fail PERCENT% of the allocations made under zs_malloc() (the
# stack-trace filter: the handle and the zspage's pages; task-filter off,
# since swap-out runs in kswapd and in whichever task reclaims): a swap-out
# then fails, the page stays in memory, dirty, and is written again later.
# What must hold:
#   - every byte the workload reads back is what it wrote;
#   - faults were injected and some zram writes failed (io_stat), and no
#     read failed (a swap-in allocates nothing in zram);
#   - with the faults off, the workload runs again with no failed I/O;
#   - swapoff brings every page back in; a reset returns mm_stat to zero.
# Constants: ALGO=lz4  PERCENT=20  SWAP_MB=96  LIMIT_MB=64
. /harness/lib.sh
. /harness/faults-lib.sh
ALGO=lz4
PERCENT=20
SWAP_MB=96
LIMIT_MB=64
sys=/sys/block/zram0
dev=/dev/zram0

faults_need faults-swap
faults_need_filter faults-swap

faults_range zs_malloc || { fail "faults-swap: zs_malloc not in /proc/kallsyms"; exit 1; }

arm() {
	for a in failslab fail_page_alloc; do faults_arm $a "$PERCENT" 0 range; done
}
disarm() {
	faults_disarm failslab fail_page_alloc
	faults_anywhere failslab fail_page_alloc
}
injected() { faults_injected failslab fail_page_alloc; }
io_failed() { set -- $(cat "$sys/io_stat"); echo "$1 $2"; }
zram_io() { set -- $(cat "$sys/stat"); echo "$1 $5"; }

[ -w /sys/module/zswap/parameters/enabled ] &&
	echo N > /sys/module/zswap/parameters/enabled
[ -d "$sys" ] || cat /sys/class/zram-control/hot_add > /dev/null
echo 1 > "$sys/reset" 2> /dev/null
echo "$ALGO" > "$sys/comp_algorithm" || { fail "faults-swap: comp_algorithm $ALGO"; exit 1; }
echo $((SWAP_MB * 2))M > "$sys/disksize" || { fail "faults-swap: disksize"; exit 1; }
mkswap "$dev" > /dev/null || { fail "faults-swap: mkswap"; exit 1; }
echo 0 > /proc/sys/vm/page-cluster
swapon "$dev" || { fail "faults-swap: swapon"; exit 1; }
# The reserve that swap-workload.sh gives zram's swap-out (RAM/64).
want_kb=$(( $(meminfo_kb MemTotal) / 64 ))
[ "$(cat /proc/sys/vm/min_free_kbytes)" -ge "$want_kb" ] ||
	echo "$want_kb" > /proc/sys/vm/min_free_kbytes
lock_mb=$(( $(meminfo_kb MemAvailable) / 1024 - LIMIT_MB ))
[ $lock_mb -gt 0 ] || lock_mb=0
echo "faults-swap: zram0 $ALGO swap, workload $SWAP_MB MiB in $LIMIT_MB MiB" \
	"($lock_mb MiB locked); ${PERCENT}% of the allocations under zs_malloc() fail"

set -- $(zram_io); rd0=$1 wr0=$2
oom0=$(vmstat oom_kill)
arm
swapverify -p -l "$lock_mb" "$SWAP_MB" 1
rc=$?
n_inj=$(injected)
disarm
set -- $(zram_io); rd=$(($1 - rd0)) wr=$(($2 - wr0))
set -- $(io_failed); frd=$1 fwr=$2
echo "faults-swap: injected $n_inj faults; zram writes $wr ($fwr failed), reads $rd" \
	"($frd failed); swapverify rc $rc; OOM kills $(( $(vmstat oom_kill) - oom0 ))"
echo "faults-swap: mm_stat $(cat "$sys/mm_stat")"

check "faults-swap: every byte read back verified (swapverify rc $rc)" [ "$rc" -eq 0 ]
check "faults-swap: faults were injected ($n_inj) and made swap-outs fail ($fwr)" \
	[ "$n_inj" -gt 0 -a "$fwr" -gt 0 ]
check "faults-swap: no swap-in failed ($frd)" [ "$frd" -eq 0 ]
check "faults-swap: the workload swapped out and in ($wr writes, $rd reads)" \
	[ "$wr" -gt $((SWAP_MB * 64)) -a "$rd" -gt $((SWAP_MB * 64)) ]

# With the faults off: the same workload again, and no I/O fails.
swapverify -p -l "$lock_mb" "$SWAP_MB" 1
rc=$?
set -- $(io_failed)
check "faults-swap: with the faults off, swapping works again (rc $rc, io_stat $1 $2)" \
	[ "$rc" -eq 0 -a "$1" -eq "$frd" -a "$2" -eq "$fwr" ]
check "faults-swap: swapoff brings every page back" swapoff "$dev"
echo 1 > "$sys/reset"
check "faults-swap: reset returns mm_stat to zero" \
	[ "$(awk '{ print $1 + $2 + $3 }' "$sys/mm_stat")" = 0 ]
exit $HARNESS_FAILED
