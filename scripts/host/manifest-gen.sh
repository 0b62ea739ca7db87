#!/bin/sh
# Draft a job's manifest from a run that did what it must:
#   manifest-gen.sh RUNDIR > scripts/manifests/JOB
# One "need" rule for each name that passed or failed, one "skip" rule for
# each that skipped (with the reason it gave: edit it into why the skip is
# right), numbers that stand alone turned into "*" so that a count that
# differs between runs (readers per CPU, MiB, pages) does not matter; the
# judge's own results are left out. Read it before you commit it: a skip
# in the draft is allowed from then on.
set -eu
dir=${1:?usage: manifest-gen.sh RUNDIR}
[ -f "$dir/results.tsv" ] || { echo "no $dir/results.tsv: run parse.sh on it first" >&2; exit 1; }
awk -f "$(dirname "$0")/manifest-gen.awk" "$dir/results.tsv"
