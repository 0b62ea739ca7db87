#!/bin/sh
stress-ng --vm 2 --vm-bytes 100M --vm-keep --vm-method all --verify --vm-ops 0 --timeout 5s --oom-avoid --metrics-brief; echo "stress rc=$?"
stress-ng --version
/usr/bin/timeout --foreground 5 /usr/bin/timeout 5 sleep 1; echo "timeout rc=$?"
nproc; cat /proc/cpuinfo | grep -c processor
