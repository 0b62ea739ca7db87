#!/bin/sh
# The zsmalloc API microbenchmark, in the guest:
#
#   bench-zsmalloc.sh [RUNS [NR_OBJS [MODULE]]]
#                     (defaults: 10 runs, 4096 objects of each size,
#                     /lib/bench/zsbench.ko)
#
# Loads the module (zsbench.ko, or zsbench-copy.ko) once, with runs=RUNS: the
# module does all its work in its init function (one timed read phase and
# one timed write phase per run, data checked after each), prints one line
# per run, frees everything and returns 0; it is then removed with rmmod. On
# a data mismatch or any other error its init fails, so it never stays
# loaded.
#
# The module prints with pr_info(), so its lines reach the console when the
# console log level lets KERN_INFO through (the default, 7). This script also
# reads them back from the kernel log and prints them on stdout, without the
# printk timestamp:
#
#   zsbench: start api=old runs=10 objs=28672 ...
#   zsbench: api=old run=0 objs=28672 read_ns=... write_ns=... total_ns=...
#   ...
#   zsbench: done api=old
#
# so a console log may hold each line twice (the kernel's copy, with its
# timestamp, and this copy); scripts/host/zsbench-report.py counts each run
# once. Under QEMU -icount shift=0 the ns figures are guest instructions.
#
# Exits non-zero when the module fails to load, reports VERIFY FAILED, does
# not print one line per run, or cannot be removed. (busybox insmod retries a
# failed finit_module() with init_module(), so a failing init runs, and
# prints, twice.)

runs=${1:-10}
nr_objs=${2:-4096}
ko=${3:-/lib/bench/zsbench.ko}

err() { echo "bench-zsmalloc: $*" >&2; }

case $runs in '' | *[!0-9]*) err "RUNS must be a number, not '$runs'"; exit 2 ;; esac
case $nr_objs in '' | *[!0-9]*) err "NR_OBJS must be a number, not '$nr_objs'"; exit 2 ;; esac
if [ ! -f "$ko" ]; then
	err "no module $ko"
	exit 1
fi
if grep -q '^zsbench ' /proc/modules 2>/dev/null; then
	err "zsbench is already loaded: removing it"
	rmmod zsbench || exit 1
fi

# A marker in the kernel log, so that only this load's lines are picked up.
# Should it not get there, the lines after the last "zsbench: start" are.
tag="bench-zsmalloc[$$]: loading $ko runs=$runs nr_objs=$nr_objs at $(date +%s)"
{ echo "$tag" > /dev/kmsg; } 2>/dev/null || tag=

insmod "$ko" runs="$runs" nr_objs="$nr_objs"
rc=$?

lines=$(dmesg | awk -v tag="$tag" -f /harness/zsbench-lines.awk)
[ -n "$lines" ] && printf '%s\n' "$lines"

status=0
if [ $rc -ne 0 ]; then
	err "insmod $ko failed (exit status $rc)"
	status=1
fi
if printf '%s\n' "$lines" | grep -q 'zsbench: VERIFY FAILED'; then
	err "data verification failed"
	status=1
fi
if [ $rc -eq 0 ]; then
	got=$(printf '%s\n' "$lines" | grep -c 'zsbench: api=[a-z]* run=')
	if [ "$got" -ne "$runs" ]; then
		err "expected $runs result lines, found $got in the kernel log"
		status=1
	fi
	if ! rmmod zsbench; then
		err "rmmod zsbench failed"
		status=1
	fi
fi
exit $status
