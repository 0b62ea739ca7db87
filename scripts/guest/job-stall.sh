#!/bin/sh
# Reclaim under a write stream (found in review): scripts/guest/stall-reclaim.sh.
. /harness/lib.sh
echo "stall: kernel $(uname -r), $(nproc) CPUs"
HARNESS_STALL=${HARNESS_STALL:-10} /harness/stall-reclaim.sh || HARNESS_FAILED=1
exit $HARNESS_FAILED
