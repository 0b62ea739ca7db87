# Draft a job's manifest from a run's record (manifest-gen.sh):
#   awk -f manifest-gen.awk RUNDIR/results.tsv
# one "need" rule for each name that passed or failed, one "skip" rule for
# each that skipped, with the reason it gave; numbers that stand alone
# become "*"; the judge's own results are left out; each rule once.
BEGIN { FS = "\t" }
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
}
