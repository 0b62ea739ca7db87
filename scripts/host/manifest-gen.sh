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
awk -F '\t' '
$2 ~ /^judge: / { next }
{
	p = $2
	# A number that stands alone (after a space, "(", "=", ",", "/" or
	# at the start), with a unit of bytes if it has one (fio scales its
	# own), not one inside a name (zram04, lz4).
	out = ""
	while (match(p, /(^|[ (=,\/])[0-9]+(\.[0-9]+)?([KMGTP]i?B)?/)) {
		lead = substr(p, RSTART, 1) ~ /[0-9]/ ? "" : substr(p, RSTART, 1)
		out = out substr(p, 1, RSTART - 1) lead "*"
		p = substr(p, RSTART + RLENGTH)
	}
	p = out p
	if ($1 == "skip") {
		if (!(("skip " p) in seen)) { seen["skip " p] = 1; printf("skip %s -- %s\n", p, $3 == "" ? "TODO: why" : $3) }
	} else if (!(("need " p) in seen)) {
		seen["need " p] = 1; printf("need %s\n", p)
	}
}' "$dir/results.tsv"
