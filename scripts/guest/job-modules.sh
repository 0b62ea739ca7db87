#!/bin/sh
# zsmalloc and zram as modules (make check-configs, the "modules"
# configuration): load them, with zram's KUnit suite running at load; use
# a device; unload them; then kmemleak must find nothing (the kernel
# boots with kmemleak=on). Every module must load: a symbol that the
# series uses but the kernel does not export fails here.
. /harness/lib.sh
echo "modules: kernel $(uname -r), $(nproc) CPUs"
KO=/lib/zram

loaded() { grep -q "^$1 " /proc/modules; }

load() {
	if ! insmod "$KO/$1.ko" $2 2> /tmp/insmod.err; then
		sed 's/^/modules: /' /tmp/insmod.err
		return 1
	fi
	loaded "$1"
}

# zram's KUnit suite ran when zram.ko loaded: its KTAP is in the kernel log.
suite_passed() {
	dmesg > /tmp/dmesg.txt
	grep -E '^\[[ 0-9.]+\] +# zcomp: pass:' /tmp/dmesg.txt | sed 's/^\[[ 0-9.]*\] */modules: /'
	grep -Eq '^\[[ 0-9.]+\] +# zcomp: pass:[1-9][0-9]* fail:0 ' /tmp/dmesg.txt &&
		grep -Eq '^\[[ 0-9.]+\] +ok [0-9]+ zcomp$' /tmp/dmesg.txt
}

use_device() {
	echo lz4 > /sys/block/zram0/comp_algorithm &&
	echo 16M > /sys/block/zram0/disksize || return 1
	dd if=/dev/urandom of=/tmp/data bs=4096 count=256 2> /dev/null &&
	dd if=/tmp/data of=/dev/zram0 bs=4096 oflag=direct 2> /dev/null &&
	dd if=/dev/zram0 of=/tmp/back bs=4096 count=256 iflag=direct 2> /dev/null &&
	cmp /tmp/data /tmp/back &&
	echo 1 > /sys/block/zram0/reset
}

unload() {
	rmmod zram && rmmod zsmalloc && ! loaded zram && ! loaded zsmalloc
}

# kmemleak reports unreferenced objects only after two scans, and only
# objects older than a few seconds.
no_leaks() {
	[ -w /sys/kernel/debug/kmemleak ] || { echo "modules: no kmemleak"; return 1; }
	sleep 6
	echo scan > /sys/kernel/debug/kmemleak
	sleep 6
	echo scan > /sys/kernel/debug/kmemleak
	cat /sys/kernel/debug/kmemleak > /tmp/leaks
	if [ -s /tmp/leaks ]; then
		head -40 /tmp/leaks | sed 's/^/modules: /'
		return 1
	fi
	return 0
}

[ -d /sys/kernel/debug/kmemleak ] || mount -t debugfs none /sys/kernel/debug 2> /dev/null
check "modules: zsmalloc.ko loads" load zsmalloc
check "modules: zram.ko loads (num_devices=1)" load zram num_devices=1
check "modules: zram's KUnit suite passed at load" suite_passed
check "modules: a device stores and returns data" use_device
check "modules: zram and zsmalloc unload" unload
check "modules: reload and unload again" sh -c \
	"insmod $KO/zsmalloc.ko && insmod $KO/zram.ko && rmmod zram && rmmod zsmalloc"
check "modules: kmemleak finds no leak" no_leaks
exit $HARNESS_FAILED
