# The KUnit, kselftest and swap columns of a matrix row (matrix.sh), from
# a run's record, parse.sh's results.tsv (status, name, detail):
#   awk -f matrix-row.awk RUNDIR/results.tsv
# prints the three columns, tab-separated:
#   KUnit       "P passed, F failed[, S skipped]"
#   kselftests  "P ok, F failed[ (PROG ...)], S skipped[ (PROG skipped[: why])...]",
#               a line per program: failed if any of its results failed, else
#               skipped if all of them skipped, else ok (a program that
#               skipped as a whole is one result, "kselftest: PROG", whose
#               detail is the reason it printed)
#   swap        "P ok, F failed, S skipped; zswap P ok, F failed, S skipped",
#               the guest checks named "swap: ..." and "zswap: ..."
BEGIN { FS = "\t" }
function word1(s) { sub(/ .*/, "", s); return s }
$2 ~ /^kunit: / { k[$1]++ }
# "kselftest: PROG", "kselftest: PROG: RESULT" or "kselftest: PROG # ...";
# not the guest's own "kselftest: runner printed no result".
$2 ~ /^kselftest: [^ ]+(: | #|$)/ {
	p = substr($2, 12); sub(/(: | #).*$/, "", p)
	if (!(p in seen)) { seen[p] = 1; progs[++np] = p }
	if ($1 == "fail" || $1 == "xfail")
		pf[p] = 1
	else if ($1 != "skip")
		pp[p] = 1
	if ($2 == "kselftest: " p && $1 == "skip")
		why[p] = $3
}
word1($2) == "swap:" { sw[$1]++ }
word1($2) == "zswap:" { zs[$1]++ }
END {
	ksum = sprintf("%d passed, %d failed", k["pass"], k["fail"])
	if (k["skip"])
		ksum = ksum sprintf(", %d skipped", k["skip"])
	for (i = 1; i <= np; i++) {
		p = progs[i]
		if (p in pf) { f++; failed = failed " " p }
		else if (p in pp) ok++
		else { s++; skipped = skipped sprintf(" (%s skipped%s)", p, why[p] == "" ? "" : ": " why[p]) }
	}
	kself = sprintf("%d ok, %d failed%s, %d skipped%s", ok, f,
		f ? " (" substr(failed, 2) ")" : "", s, skipped)
	swap = sprintf("%d ok, %d failed, %d skipped; zswap %d ok, %d failed, %d skipped",
		sw["pass"], sw["fail"], sw["skip"], zs["pass"], zs["fail"], zs["skip"])
	printf("%s\t%s\t%s\n", ksum, kself, swap)
}
