#!/bin/sh
# The main job: zram swap under memory pressure, with data verified.
echo "run: kernel $(uname -r), $(nproc) CPUs, $(cat /sys/kernel/debug/sched/preempt 2>/dev/null)"
. /harness/lib.sh
inject
/harness/swap-workload.sh || HARNESS_FAILED=1
exit $HARNESS_FAILED
