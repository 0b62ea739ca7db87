#!/bin/sh
# The kernel's own record of its health, read at the end of every job
# (scripts/guest/init runs this after the job): checks of their own, so
# that a report the console lost or garbled still fails the run.
#  - the taint mask: any flag but TEST ('N', which KUnit sets when a suite
#    runs) is a report the kernel made (W: a WARN, D: an oops, B: a bad
#    page or a KASAN report, ...);
#  - lockdep's debug_locks: lockdep turns itself off after its first report;
#  - the kernel log (dmesg, the ring buffer: the last 128 KiB or so of
#    records, so a report from early boot may have left it; the console
#    has those): no line of splats.ere (the console judge's list). A KCSAN
#    data-race report counts only if its title names zsmalloc or zram code
#    (zs_, zspage, zram, zcomp): elsewhere it is listed, as on the host,
#    and its body is not scanned. A log that cannot be read fails.
. /harness/lib.sh

TAINT_TEST=262144	# 1 << 18
TAINT_FLAGS=PFSRMBUDAWCIOELKXTN

# taint_letters MASK: the flags of MASK as /proc/sys/kernel/tainted's
# documentation spells them (bit 0 first)
taint_letters() {
	m=$1 i=0 s=""
	while [ "$m" -gt 0 ] && [ $i -lt ${#TAINT_FLAGS} ]; do
		[ $((m & 1)) = 1 ] && s="$s$(echo "$TAINT_FLAGS" | cut -c$((i + 1)))"
		m=$((m >> 1)) i=$((i + 1))
	done
	[ "$m" = 0 ] || s="$s+"
	echo "$s"
}

taint=$(cat /proc/sys/kernel/tainted)
bad=$((taint & ~TAINT_TEST))
if [ "$bad" = 0 ]; then
	pass "kernel: not tainted by a report (tainted=$taint)"
else
	fail "kernel: not tainted by a report (tainted=$taint: $(taint_letters "$bad"))"
fi

if [ -r /proc/lockdep_stats ]; then
	on=$(awk '/debug_locks:/ { print $2 }' /proc/lockdep_stats)
	check "kernel: lockdep still on (debug_locks=$on)" [ "$on" = 1 ]
fi

# The kernel log; a log that cannot be read is no clean log.
if ! dmesg > /tmp/health.log 2> /tmp/health.err || [ ! -s /tmp/health.log ]; then
	fail "kernel: no report in the kernel log (dmesg failed: $(head -1 /tmp/health.err))"
	exit 1
fi
# Report lines, less the bodies of KCSAN reports (from "BUG: KCSAN:" to
# the closing line of "=" after "Reported by Kernel Concurrency
# Sanitizer"), whose stack frames (rcu_..._stall) are no reports, as the
# host's judge does; a title naming zsmalloc or zram code is ours.
if ! awk -v splats="$(cat /harness/splats.ere)" -f /harness/kernel-log.awk /tmp/health.log > /tmp/health.splats; then
	fail "kernel: no report in the kernel log (the scan failed)"
	exit 1
fi
sed -n 's/^listed\t/kernel log: KCSAN elsewhere, listed, not failed: /p' /tmp/health.splats
n=$(awk '/^ours/ { n++ } END { print n + 0 }' /tmp/health.splats)
if [ "$n" = 0 ]; then
	pass "kernel: no report in the kernel log ($(wc -l < /tmp/health.log) lines)"
else
	fail "kernel: no report in the kernel log ($n report lines)"
	sed -n 's/^ours\t/kernel log: /p' /tmp/health.splats | head -10
fi
exit $HARNESS_FAILED
