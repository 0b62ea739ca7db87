#!/bin/sh
# A zram device keeps as many read contexts after CPUs go offline and come
# back as it had before: after a sysfs offline/online cycle of every
# secondary CPU, and (the device set up again, so that each check stands
# alone) after a suspend to RAM that stops at its "core" test
# point (/sys/power/pm_test: the devices suspend, freeze_secondary_cpus()
# takes the secondary CPUs down, then everything resumes), which is what
# a phone's or a laptop's suspend does to the CPUs.
#
# What is counted: the zstd decompression workspaces, each a vzalloc() of
# zstd_create_dctx() that /proc/vmallocinfo names as its caller, one for
# each read context of a zstd device. A kernel whose zstd backend has no
# zstd_create_dctx() (no separate read contexts: stock kernels) skips.
# The suspend needs CONFIG_SUSPEND, CONFIG_PM_DEBUG and a machine with S3
# ("deep" in /sys/power/mem_sleep: under QEMU, ACPI with PCI); it skips,
# saying which is missing, otherwise. The sysfs cycle runs the same CPU
# hotplug callbacks.
. /harness/lib.sh

dctx() { grep -c ' zstd_create_dctx+' /proc/vmallocinfo; }
secondary() {
	for f in /sys/devices/system/cpu/cpu[0-9]*/online; do
		[ -e "$f" ] && [ "$f" != /sys/devices/system/cpu/cpu0/online ] && echo "$f"
	done
}

if [ "$(nproc)" -lt 2 ]; then
	skip "suspend: read contexts after a suspend # SKIP one CPU: nothing goes offline"
	exit 0
fi
dev=$(cat /sys/class/zram-control/hot_add) || { fail "suspend: zram hot_add"; exit 1; }
sys=/sys/block/zram$dev
cleanup() { echo 1 > "$sys/reset"; echo "$dev" > /sys/class/zram-control/hot_remove; }
if ! { echo zstd > "$sys/comp_algorithm" && echo 16M > "$sys/disksize"; }; then
	fail "suspend: zram$dev with zstd"
	cleanup
	exit 1
fi
n0=$(dctx)
if [ "$n0" = 0 ]; then
	skip "suspend: read contexts after a suspend # SKIP no zstd_create_dctx() in this kernel: no read contexts"
	cleanup
	exit 0
fi
echo "suspend: zram$dev (zstd) has $n0 zstd decompression contexts, $(nproc) CPUs online"

# Every secondary CPU down, then up again, through sysfs.
for f in $(secondary); do echo 0 > "$f" || fail "suspend: $f offline"; done
echo "suspend: with cpu0 alone: $(dctx) contexts"
for f in $(secondary); do echo 1 > "$f" || fail "suspend: $f online"; done
n1=$(dctx)
check "suspend: an offline/online cycle of every secondary CPU leaves $n0 read contexts (has $n1)" \
	[ "$n1" = "$n0" ]

if [ ! -w /sys/power/pm_test ] || ! grep -qw mem /sys/power/state 2>/dev/null; then
	skip "suspend: read contexts after a suspend # SKIP no /sys/power/pm_test or no 'mem' in /sys/power/state: CONFIG_SUSPEND, CONFIG_PM_DEBUG"
elif ! grep -qw deep /sys/power/mem_sleep 2>/dev/null; then
	skip "suspend: read contexts after a suspend # SKIP no 'deep' in /sys/power/mem_sleep: s2idle keeps the CPUs online"
else
	# A device set up anew (its contexts made again), so that what the
	# cycle above left cannot decide this check.
	if ! { echo 1 > "$sys/reset" && echo zstd > "$sys/comp_algorithm" &&
		echo 16M > "$sys/disksize"; }; then
		fail "suspend: zram$dev with zstd, set up again"
		cleanup
		exit 1
	fi
	n0=$(dctx)
	echo "suspend: zram$dev set up again: $n0 zstd decompression contexts"
	echo deep > /sys/power/mem_sleep
	echo core > /sys/power/pm_test
	[ -w /sys/module/suspend/parameters/pm_test_delay ] &&
		echo 1 > /sys/module/suspend/parameters/pm_test_delay
	online0=$(cat /sys/devices/system/cpu/online)
	if echo mem > /sys/power/state; then
		n2=$(dctx)
		echo "suspend: pm_test core done; CPUs online $online0 before, $(cat /sys/devices/system/cpu/online) after"
		check "suspend: CPUs online again after a suspend (pm_test core)" \
			[ "$(cat /sys/devices/system/cpu/online)" = "$online0" ]
		check "suspend: a suspend to RAM (pm_test core) leaves $n0 read contexts (has $n2)" \
			[ "$n2" = "$n0" ]
	else
		fail "suspend: echo mem > /sys/power/state (pm_test core) failed"
	fi
	echo none > /sys/power/pm_test
fi
cleanup
exit $HARNESS_FAILED
