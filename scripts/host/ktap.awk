# The run's record (results.tsv: status, name, detail) as one KTAP stream
# and as JSON (parse.sh):
#   awk -v job=JOB -v json=results.json -v meta='"tree_id": "...", ...' \
#       -f ktap.awk results.tsv > run.ktap
# run.ktap has a suite for each family of results, in this order: "kunit"
# (the KUnit results, SUITE/CASE[/PARAM]), "kselftest" (PROG: RESULT),
# JOB (the guest's own checks: swap, zswap, stall, kernel, ...) and
# "judge" (the judge's own results); an empty family is left out. pass is
# "ok", fail "not ok", skip "ok ... # SKIP REASON", and an expected
# failure (xfail, a known bug's) "ok ... # SKIP expected failure: DETAIL"
# (KTAP has no directive of its own for it: kunit.py counts it skipped).
# A "#" in a name, which KTAP reads as the start of a directive, becomes
# "_". The kernel's parser reads it: tools/testing/kunit/kunit.py parse.
# json gets a JSON array, one object a result: name, family, status,
# detail, and the run's facts (META, already JSON members).
BEGIN { FS = "\t" }
function family(name) {
	if (name ~ /^kunit: /) return "kunit"
	if (name ~ /^kselftest: /) return "kselftest"
	if (name ~ /^judge: /) return "judge"
	return job
}
function jstr(s,   i, c, o) {
	o = ""
	for (i = 1; i <= length(s); i++) {
		c = substr(s, i, 1)
		if (c == "\"" || c == "\\") o = o "\\" c
		else if (c == "\t") o = o "\\t"
		else if (c < " ") o = o sprintf("\\u%04x", ord[c])
		else o = o c
	}
	return "\"" o "\""
}
BEGIN {
	for (i = 1; i < 32; i++) ord[sprintf("%c", i)] = i
	order[1] = "kunit"; order[2] = "kselftest"; order[3] = job; order[4] = "judge"
}
NF >= 2 {
	f = family($2)
	n[f]++
	st[f, n[f]] = $1; nm[f, n[f]] = $2; dt[f, n[f]] = $3
}
END {
	print "KTAP version 1"
	suites = 0
	for (k = 1; k <= 4; k++) if (n[order[k]]) suites++
	print "1.." suites
	s = 0
	printf("[") > json
	sep = ""
	for (k = 1; k <= 4; k++) {
		f = order[k]
		if (!n[f]) continue
		s++
		bad = 0
		print "    KTAP version 1"
		print "    # Subtest: " f
		print "    1.." n[f]
		for (i = 1; i <= n[f]; i++) {
			name = nm[f, i]
			sub("^" f ": ", "", name)
			gsub(/#/, "_", name)
			detail = dt[f, i]
			gsub(/#/, "_", detail)
			if (st[f, i] == "pass")
				line = "ok " i " " name
			else if (st[f, i] == "skip")
				line = "ok " i " " name " # SKIP " detail
			else if (st[f, i] == "xfail")
				line = "ok " i " " name " # SKIP expected failure: " detail
			else {
				line = "not ok " i " " name
				bad = 1
			}
			print "    " line
			printf("%s\n  {\"name\": %s, \"family\": %s, \"status\": %s, \"detail\": %s%s}",
			       sep, jstr(nm[f, i]), jstr(f), jstr(st[f, i]), jstr(dt[f, i]),
			       meta == "" ? "" : ", " meta) > json
			sep = ","
		}
		print (bad ? "not ok " : "ok ") s " " f
	}
	printf("\n]\n") > json
}
