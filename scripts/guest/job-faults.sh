#!/bin/sh
# Fault tests on the debug kernel (CONFIG_FAULT_INJECTION), in sequence:
#   cpuup   CPU-up of cpu1 failing at each of its allocations in turn
#           (faults-cpuup.sh)
#   swap    swap on zram while zs_malloc()'s allocations fail
#           (faults-swap.sh)
#   zstd    zstd with a dictionary while every allocation under
#           zcomp_compress() fails (faults-zstd.sh); only when named:
#           stock 7.3.4 fails it (docs/tests.md)
#   io      zram I/O, post-processing and CPU hotplug while allocations
#           fail at random (faults-io.sh), then kmemleak (which also sees
#           what the parts before it leaked)
#   harness.faults=cpuup,swap,zstd,io (default: cpuup,swap,io)
#   harness.duration=SECONDS (io)
. /harness/lib.sh
echo "faults: kernel $(uname -r), $(nproc) CPUs, $(($(meminfo_kb MemTotal) / 1024)) MiB"
for t in $(echo "${HARNESS_FAULTS:-cpuup,swap,io}" | tr , ' '); do
	case "$t" in
	cpuup) s=faults-cpuup.sh ;;
	swap) s=faults-swap.sh ;;
	zstd) s=faults-zstd.sh ;;
	io) s=faults-io.sh ;;
	*) fail "faults: unknown test '$t' in harness.faults"; continue ;;
	esac
	echo "faults: ---- $t ($(date +%s))"
	/harness/$s || HARNESS_FAILED=1
done
exit $HARNESS_FAILED
