#!/bin/sh
# Write cost per algorithm (see scripts/host/bench-write.sh).
exec /harness/bench-write.sh
