#!/bin/sh
# The zram read/write-streams benchmark (see scripts/host/bench-zram.sh).
exec /harness/bench-zram.sh
