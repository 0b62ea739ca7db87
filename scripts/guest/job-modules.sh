#!/bin/sh
# zsmalloc and zram as modules (make check-configs, the "modules"
# configuration): load them, after the compressors zram needs (the list
# in /lib/zram/deps, in load order), with both KUnit suites running at
# load; use a device; unload them; then kmemleak must find nothing (the
# kernel boots with kmemleak=on). Every module must load: a symbol that
# the series uses but the kernel does not export fails here.
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

# A module's KUnit suite $1 ran when the module loaded: its KTAP is in
# the kernel log, and at least one case passed.
suite_passed() {
	dmesg > /tmp/dmesg.txt
	grep -E "^\[[ 0-9.]+\] +# $1: pass:" /tmp/dmesg.txt | sed 's/^\[[ 0-9.]*\] */modules: /'
	grep -Eq "^\[[ 0-9.]+\] +# $1: pass:[1-9][0-9]* fail:0 " /tmp/dmesg.txt &&
		grep -Eq "^\[[ 0-9.]+\] +ok [0-9]+ $1\$" /tmp/dmesg.txt
}

# The modules zram needs, other than zsmalloc, loaded before it.
load_deps() {
	for m in $(grep -vx -e zram -e zsmalloc "$KO/deps"); do
		loaded "$m" || load "$m" || return 1
	done
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
# A kernel booted without kmemleak=on has the file but scans nothing:
# then the check fails, so that it cannot pass without looking.
no_leaks() {
	if [ ! -w /sys/kernel/debug/kmemleak ] ||
		dmesg | grep -q 'kmemleak: Kernel memory leak detector disabled'; then
		echo "modules: kmemleak is off (boot with kmemleak=on)"
		return 1
	fi
	sleep 6
	echo scan > /sys/kernel/debug/kmemleak || return 1
	sleep 6
	echo scan > /sys/kernel/debug/kmemleak || return 1
	cat /sys/kernel/debug/kmemleak > /tmp/leaks
	if [ -s /tmp/leaks ]; then
		head -40 /tmp/leaks | sed 's/^/modules: /'
		return 1
	fi
	return 0
}

[ -e /sys/kernel/debug/kmemleak ] || mount -t debugfs none /sys/kernel/debug 2> /dev/null
check "modules: the compressors zram needs load" load_deps
check "modules: zsmalloc.ko loads" load zsmalloc
check "modules: zsmalloc's KUnit suite passed at load" suite_passed zsmalloc
check "modules: zram.ko loads (num_devices=1)" load zram num_devices=1
check "modules: zram's KUnit suite passed at load" suite_passed zcomp
check "modules: a device stores and returns data" use_device
check "modules: zram and zsmalloc unload" unload
check "modules: reload and unload again" sh -c \
	"insmod $KO/zsmalloc.ko && insmod $KO/zram.ko && rmmod zram && rmmod zsmalloc"
check "modules: kmemleak is on and finds no leak" no_leaks
exit $HARNESS_FAILED
