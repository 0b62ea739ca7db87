#!/bin/sh
# The memory that zram's per-CPU streams take (see scripts/host/bench-zram.sh).
exec /harness/mem-zram.sh
