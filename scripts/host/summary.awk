# What parse.sh prints of a run's record (results.tsv: status, name,
# detail), in two parts:
#   awk -v part=list -f summary.awk results.tsv
#       every failure, skip and expected failure by name, with its detail;
#   awk -v part=counts -f summary.awk results.tsv
#       the counts of each kind: KUnit's, the guest's checks (kselftests
#       included) and the judge's own, and the expected failures.
BEGIN { FS = "\t" }
function kind(n) { return n ~ /^kunit: / ? "kunit" : (n ~ /^judge: / ? "judge" : "guest checks") }
part == "list" && $1 == "fail" { printf("FAIL %s%s\n", $2, $3 == "" ? "" : " (" $3 ")") }
part == "list" && $1 == "skip" { printf("skip %s%s\n", $2, $3 == "" ? "" : " (" $3 ")") }
part == "list" && $1 == "xfail" { printf("xfail %s%s\n", $2, $3 == "" ? "" : " (" $3 ")") }
{ c[kind($2) SUBSEP $1]++ }
END {
	if (part != "counts")
		exit
	printf("kunit: %d passed, %d failed, %d skipped\n", c["kunit" SUBSEP "pass"], c["kunit" SUBSEP "fail"], c["kunit" SUBSEP "skip"])
	printf("guest checks: %d passed, %d failed, %d skipped\n", c["guest checks" SUBSEP "pass"], c["guest checks" SUBSEP "fail"], c["guest checks" SUBSEP "skip"])
	printf("judge: %d passed, %d failed\n", c["judge" SUBSEP "pass"], c["judge" SUBSEP "fail"])
	x = c["kunit" SUBSEP "xfail"] + c["guest checks" SUBSEP "xfail"] + c["judge" SUBSEP "xfail"]
	if (x)
		printf("expected failures (known bugs, listed above as xfail): %d\n", x)
}
