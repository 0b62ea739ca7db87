# KUnit's results from the KTAP on the console before init (parse.sh):
#   awk -f kunit.awk kunit.ktap >> results.tsv
# Every result at every depth that has no results nested under it (a test
# case, or one parameter of a parameterised case) is one result, named
# "kunit: SUITE/CASE[/PARAM]" from the "# Subtest:" lines above it; a
# result with nested ones (a suite, a parameterised case) is one only if it
# failed while none of its own did (a crash, a timeout). A suite (depth 0)
# with no results of its own (1..0) fails: an empty suite tests nothing.
# Depth: four spaces of indentation a level.
function depth(l,   n) { n = match(l, /[^ ]/) - 1; return int(n / 4) }
function path(d, name,   i, p) {
	p = ""
	for (i = 1; i <= d; i++)
		p = p sub_[i] "/"
	return "kunit: " p name
}
/^ *# Subtest: / {
	d = depth($0); s = $0; sub(/^ *# Subtest: /, "", s); sub_[d] = s
	next
}
/^ *(not )?ok [0-9]+ / {
	d = depth($0); line = $0; sub(/^ */, "", line)
	bad = line ~ /^not ok/; skipped = line ~ /# SKIP/
	name = line; sub(/^(not )?ok [0-9]+ /, "", name)
	why = ""
	if (skipped) { why = name; sub(/.*# SKIP */, "", why) }
	sub(/ *#.*$/, "", name)
	if (kids[d + 1] > 0) {
		if (bad && !badkids[d + 1])
			printf("fail\t%s\t%s\n", path(d, name), "failed, none of its results did (a crash?)")
	} else if (skipped)
		printf("skip\t%s\t%s\n", path(d, name), why)
	else if (bad)
		printf("fail\t%s\t\n", path(d, name))
	else if (d == 0)
		printf("fail\t%s\t%s\n", path(d, name), "an empty suite (no test cases ran)")
	else
		printf("pass\t%s\t\n", path(d, name))
	kids[d + 1] = 0; badkids[d + 1] = 0
	kids[d]++; if (bad) badkids[d] = 1
}
