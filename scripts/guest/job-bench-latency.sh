#!/bin/sh
# Latency from when a read was due (see scripts/host/bench-latency.sh).
exec /harness/bench-latency.sh
