#!/bin/sh
# The zsmalloc API microbenchmark (see scripts/host/bench-zsmalloc.sh).
exec /harness/bench-zsmalloc.sh "${HARNESS_RUNS:-10}"
