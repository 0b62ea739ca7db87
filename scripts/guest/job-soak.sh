#!/bin/sh
# Soak and fault tests, in sequence: soak-zram (fio verify with compaction,
# writeback, recompression and CPU hotplug), swapstorm (stress-ng over twice
# the RAM on zram swap), memlimit (writes past zram's mem_limit).
#   harness.soak=zram,swapstorm,memlimit (default all three; any subset)
#   harness.duration=SECONDS (default 600, for soak-zram and swapstorm each)
. /harness/lib.sh
echo "soak: kernel $(uname -r), $(nproc) CPUs, $(($(meminfo_kb MemTotal) / 1024)) MiB," \
	"duration ${HARNESS_DURATION:-600}s"
for t in $(echo "${HARNESS_SOAK:-zram,swapstorm,memlimit}" | tr , ' '); do
	case "$t" in
	zram) s=soak-zram.sh ;;
	swapstorm) s=swapstorm.sh ;;
	memlimit) s=memlimit.sh ;;
	*) fail "soak: unknown test '$t' in harness.soak"; continue ;;
	esac
	echo "soak: ---- $t ($(date +%s))"
	/harness/$s || HARNESS_FAILED=1
done
exit $HARNESS_FAILED
