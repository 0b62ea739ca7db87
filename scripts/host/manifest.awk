# Judge a run's results against its job's manifest (parse.sh runs this):
#   awk -v facts="tree=patched preempt=full ..." -v manifest=FILE \
#       -v mname=NAME -f manifest.awk RESULTS.tsv
# and print the judge's results (results.tsv lines) to add.
#
# A manifest has one rule a line; "#" starts a comment:
#   [CONDITIONS] need PATTERN
#       at least one result whose name matches PATTERN ran, and was not
#       skipped (it passed or failed: a failure is counted where it is);
#   [CONDITIONS] skip PATTERN -- REASON
#       a skip that is allowed, and expected: at least one result matching
#       PATTERN was skipped.
# Every skip in the run must match a skip rule that applies: a missing
# result, a missing skip and an extra skip each fail the run, by name.
# A run told to do part of the job (-v partial="ARGS": one kselftest, no
# workloads, a KUnit filter) is held to the skip rules only, as
# allowances: what it left out can be neither missing nor a missing skip.
# PATTERN is a glob over the whole name ("*" any text, "?" one character),
# e.g. "kunit: zsmalloc/zs_test_round_trip/*" or
# "kselftest: zram04.sh: fio: * readers share the read contexts*".
# CONDITIONS, all of which must hold for the rule to apply, test the facts
# of the run (parse.sh: base, tree, flavour, arch, job, cpus, preempt):
#   [preempt=none|voluntary tree!=base]   [base=7.3]
# "KEY=A|B" holds if the fact is A or B, "KEY!=A|B" if it is neither.

function glob2re(g,   i, c, r) {
	r = "^"
	for (i = 1; i <= length(g); i++) {
		c = substr(g, i, 1)
		if (c == "*")
			r = r ".*"
		else if (c == "?")
			r = r "."
		else if (index("\\^$.[]|()+{}/", c))
			r = r "\\" c
		else
			r = r c
	}
	return r "$"
}

# The values a condition may name, where they are known: a typo
# ("[tree=pached]") would otherwise make its rule apply nowhere.
function known(k, v) {
	if (k == "base")
		return v ~ /^(6\.12|7\.3)$/
	if (k == "tree")
		return v ~ /^(patched|base|mid|check|rmutex)$/
	if (k == "preempt")
		return v ~ /^(none|voluntary|full|lazy|rt)$/
	if (k == "arch")
		return v ~ /^(x86_64|i386|arm64)$/
	if (k == "cpus")
		return v ~ /^[0-9]+$/
	return v ~ /^[a-z0-9_-]+$/
}

function holds(conds,   n, i, c, k, v, neg, alts, na, j, ok) {
	n = split(conds, c, /[ \t]+/)
	for (i = 1; i <= n; i++) {
		if (c[i] == "")
			continue
		if (c[i] !~ /^[a-z]+!?=[^=|!]+(\|[^=|!]+)*$/) {
			printf("fail\tjudge: manifest %s: a condition is not KEY=A|B or KEY!=A|B\t%s\n", mname, c[i])
			mbad++
			return 0
		}
		neg = index(c[i], "!=") > 0
		k = c[i]; sub(/!?=.*/, "", k)
		v = c[i]; sub(/^[^=!]*!?=/, "", v)
		if (!(k in fact)) {
			printf("fail\tjudge: manifest %s: a rule tests an unknown fact \"%s\"\t%s\n", mname, k, c[i])
			mbad++
			return 0
		}
		na = split(v, alts, "|")
		for (j = 1; j <= na; j++)
			if (!known(k, alts[j])) {
				printf("fail\tjudge: manifest %s: \"%s\" is no value of %s\t%s\n", mname, alts[j], k, c[i])
				mbad++
				return 0
			}
		# A fact the run did not establish cannot decide a rule.
		if (!known(k, fact[k])) {
			printf("fail\tjudge: manifest %s: the run has no known %s (\"%s\") for a rule that tests it\t%s\n", mname, k, fact[k], c[i])
			mbad++
			return 0
		}
		ok = 0
		for (j = 1; j <= na; j++)
			if (fact[k] == alts[j])
				ok = 1
		if (neg)
			ok = !ok
		if (!ok)
			return 0
	}
	return 1
}

function rule(lineno, raw,   line, conds, kind, pat, why) {
	line = raw
	sub(/^[ \t]+/, "", line)
	if (line == "" || line ~ /^#/)
		return
	conds = ""
	if (line ~ /^\[/) {
		conds = substr(line, 2, index(line, "]") - 2)
		line = substr(line, index(line, "]") + 1)
		sub(/^[ \t]+/, "", line)
	}
	kind = line; sub(/[ \t].*/, "", kind)
	pat = line; sub(/^[a-z]+[ \t]+/, "", pat)
	why = ""
	if (index(pat, " -- ")) {
		why = substr(pat, index(pat, " -- ") + 4)
		pat = substr(pat, 1, index(pat, " -- ") - 1)
	}
	sub(/[ \t]+$/, "", pat)
	if (kind != "need" && kind != "skip") {
		printf("fail\tjudge: manifest %s: line %d is not a rule\t%s\n", mname, lineno, raw)
		mbad++
		return
	}
	if (kind == "skip" && why == "") {
		printf("fail\tjudge: manifest %s: skip without a reason on line %d\t%s\n", mname, lineno, pat)
		mbad++
		return
	}
	if (!holds(conds))
		return
	if (kind == "need" && partial != "")
		return
	nrules++
	rkind[nrules] = kind; rpat[nrules] = pat; rre[nrules] = glob2re(pat); rwhy[nrules] = why
}


BEGIN {
	FS = "\n"
	n = split(facts, f, " ")
	for (i = 1; i <= n; i++) {
		k = f[i]; sub(/=.*/, "", k)
		v = f[i]; sub(/^[^=]*=/, "", v)
		fact[k] = v
	}
	nrules = 0
	n = 0
	while ((gl = (getline l < manifest)) > 0)
		rule(++n, l)
	if (gl < 0) {
		printf("fail\tjudge: manifest %s cannot be read\t\n", mname)
		mbad++
	} else if (n == 0) {
		printf("fail\tjudge: manifest %s is empty\t\n", mname)
		mbad++
	}
}

# The results: status, name, detail
{
	split($0, r, "\t")
	status = r[1]; name = r[2]
	allowed = 0
	for (i = 1; i <= nrules; i++) {
		if (name !~ rre[i])
			continue
		if (rkind[i] == "need" && status != "skip")
			ran[i]++
		if (rkind[i] == "skip" && status == "skip") {
			skipped[i]++
			allowed = 1
		}
	}
	if (status == "skip" && !allowed) {
		printf("fail\tjudge: an unexpected skip: %s\t%s\n", name, "no skip rule of " mname " allows it" (r[3] == "" ? "" : "; it says: " r[3]))
		extra++
	}
}

END {
	bad = extra + mbad
	for (i = 1; i <= nrules; i++) {
		if (rkind[i] == "need" && !ran[i]) {
			printf("fail\tjudge: missing: %s\t%s\n", rpat[i], "no result of that name ran (" mname ")")
			bad++
		}
		if (rkind[i] == "skip" && !skipped[i] && partial == "") {
			printf("fail\tjudge: a skip that did not happen: %s\t%s\n", rpat[i], "expected: " rwhy[i])
			bad++
		}
	}
	if (!bad && partial != "")
		printf("pass\tjudge: the skips are those %s allows (a part of the job: %s; what must run is not checked)\t%d rules\n", mname, partial, nrules)
	else if (!bad)
		printf("pass\tjudge: what %s says must run ran, with the skips it allows\t%d rules\n", mname, nrules)
}
