# The guest's checks, from its report (report.txt), as results.tsv lines
# (status, name, detail), in the order the report has them:
#   awk [-v runner=0] -f checks.awk REPORT
#
# - "HARNESS: ok|not ok|skip NAME" (scripts/guest/lib.sh): one result; a
#   KTAP directive in the name ("... # SKIP why") is its detail.
# - The kselftest runner's output, which the test job copies to the
#   report as it runs (scripts/guest/job-test.sh): every result of every
#   program counts, as "kselftest: PROG: RESULT": each program's own KTAP
#   results (the runner prefixes them with "# "), and the program's own
#   line ("ok N selftests: zram: PROG") where it printed none, or failed
#   while none of its own did. A program that skipped as a whole says why
#   in its plan ("# 1..0 # SKIP why"). A program cut short (the guest
#   died before the runner printed its line) keeps the results it printed
#   and fails as "kselftest: PROG".
# runner=0: the report of a guest from before the host read the runner
# (it printed its "HARNESS: ... kselftest: PROG..." lines itself, after the
# runner's output); the runner's lines are then not read again.
BEGIN { if (runner == "") runner = 1 }

function check(st, name,   why) {
	why = ""
	if (match(name, / # (SKIP|TODO|XFAIL)( |$)/)) {
		why = substr(name, RSTART + 3); sub(/^SKIP ?/, "", why)
		name = substr(name, 1, RSTART - 1)
	}
	printf("%s\t%s\t%s\n", st, name, why)
}
# The status of a KTAP result line: a SKIP directive anywhere wins.
function ktap(l) { return l ~ /# SKIP/ ? "skip" : (l ~ /^not ok/ ? "fail" : "pass") }

/^HARNESS: (ok|not ok|skip) / {
	st = $2 == "ok" ? "pass" : ($2 == "not" ? "fail" : "skip")
	name = $0; sub(/^HARNESS: (ok|not ok|skip) /, "", name)
	check(st, name)
	next
}
!runner { next }
/^# selftests: / { prog = $0; sub(/^# selftests: [^:]*: /, "", prog); n = 0; bad = 0; why = ""; next }
/^# 1\.\.0 # SKIP/ { why = $0; sub(/^# 1\.\.0 # SKIP */, "", why); next }
prog != "" && /^# (not )?ok [0-9]+ / {
	l = $0; sub(/^# /, "", l); st = ktap(l); sub(/^(not )?ok [0-9]+ /, "", l)
	check(st, "kselftest: " prog ": " l); n++; if (st == "fail") bad = 1
	next
}
/^(not )?ok [0-9]+ selftests: / {
	l = $0; st = ktap(l); sub(/^(not )?ok [0-9]+ selftests: [^:]*: /, "", l)
	if (st == "skip" && why != "") { sub(/ *# SKIP.*$/, "", l); l = l " # SKIP " why }
	if (n == 0 || (st == "fail" && !bad))
		check(st, "kselftest: " l)
	prog = ""; n = 0; bad = 0
}
END {
	if (runner && prog != "")
		printf("fail\tkselftest: %s\tcut short: the runner printed no result for it; did the guest die?\n", prog)
}
