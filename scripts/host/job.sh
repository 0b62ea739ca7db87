#!/bin/sh
# Boot a kernel with one guest job, then judge the run:
#   job.sh TREE FLAVOUR JOB
# vm.sh boots it (its environment: CPUS, MEM, APPEND, TIMEOUT, ACCEL, FIO,
# RUN), parse.sh judges the run folder, and prints "N passed, N failed,
# N skipped" last. The exit status is non-zero if the judge failed the run,
# or if the run timed out (vm.sh: 124). The judge sees the rest of what
# vm.sh fails on: no console (a bad ACCEL, a missing image; vm.sh empties
# the run folder first, so no earlier run's logs can stand in for it), no
# guest result or a guest's failure; where a known bug of the kernel
# explains them (the manifest's "bug" rules), they are expected failures.
set -u
. "$(dirname "$0")/lib.sh"

tree=${1:?usage: job.sh TREE FLAVOUR JOB}
flavour=${2:?usage: job.sh TREE FLAVOUR JOB}
job=${3:?usage: job.sh TREE FLAVOUR JOB}
dir=$(out_dir "$tree" "$flavour")/${RUN:-$job}

# vm.sh empties the folder too, but may stop before it does: no earlier
# run's logs may stand in for this one.
rm -rf "$dir"
rc=0
sh "$TOP/scripts/host/vm.sh" "$tree" "$flavour" "$job" || rc=$?

# What the job said, for the jobs whose output is the point.
if [ -s "$dir/report.log" ]; then
	case "$job" in
	run)
		say "---- report ($dir/report.log)"
		grep -v '^HARNESS' "$dir/report.log" ;;
	soak)
		say "---- what ran ($dir/report.log)"
		grep -E '^(soak|soak-zram|swapstorm|memlimit):' "$dir/report.log" ;;
	faults)
		say "---- what ran ($dir/report.log)"
		grep -E '^faults' "$dir/report.log" ;;
	esac
fi

prc=0
sh "$TOP/scripts/host/parse.sh" "$dir" || prc=1
[ "$rc" = 124 ] || rc=$prc
[ "$rc" = 0 ] || say "$job: FAILED (vm.sh and parse.sh above say why; logs in $dir)"
[ "$rc" = 0 ]
