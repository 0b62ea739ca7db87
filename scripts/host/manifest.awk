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
#   [CONDITIONS] allow PATTERN -- REASON
#       a skip that is allowed, not expected: a result matching PATTERN
#       may skip with a reason matching the glob REASON, and then counts
#       as run for a need rule (a test that ran and did not see the
#       interleaving it needs: "no round decided*"). Another reason is
#       an unexpected skip.
# Every skip in the run must match a skip or allow rule that applies: a missing
# result, a missing skip and an extra skip each fail the run, by name.
# A run told to do part of the job (-v partial="ARGS", the knobs on its
# command line) is held to the rules of what it ran: the need and skip
# rules of what a knob leaves out apply as allowances only (neither
# missing nor a missing skip). Each knob leaves out its own family:
#   kunit.enable=0                  every "kunit: " rule
#   kunit.filter_glob=SUITE[.CASE]  the "kunit: " rules of other suites
#                                   (cases)
#   harness.kselftests=P1,P2        the "kselftest: " rules of the other
#                                   programs (P1 is zram01 or zram01.sh)
#   harness.workloads=0             every "swap: ", "zswap: ", "stall: " rule
#   harness.algos=A,B               the "swap: " rules of other algorithms
#   harness.zpools=Z1,Z2            the "zswap: " rules of other backends
#   harness.faults=T1,T2            the "faults-T: " rules of other tests
#   harness.soak=T1,T2              the soak rules of other tests (zram:
#                                   "soak-zram: ", swapstorm, memlimit)
# PATTERN is a glob over the whole name ("*" any text, "?" one character),
# e.g. "kunit: zsmalloc/zs_test_round_trip/*" or
# "kselftest: zram04.sh: fio: * readers share the read contexts*".
# CONDITIONS, all of which must hold for the rule to apply, test the facts
# of the run (parse.sh: base, tree, flavour, arch, job, cpus, preempt):
#   [preempt=none|voluntary tree!=base]   [base=7.3]
# "KEY=A|B" holds if the fact is A or B, "KEY!=A|B" if it is neither.
#
# A known bug of a kernel (stock 7.3.4's lockup) is named by "bug" rules:
#   [CONDITIONS] bug NAME sign /ERE/ -- WHAT
#       the bug showed if a line of the kernel's console matches ERE
#       (one sign a bug; WHAT says what the bug is and what fixes it);
#   [CONDITIONS] bug NAME report /ERE/
#       the kernel reports (splats.txt) that the bug makes, when it shows
#       (hung tasks): the bug's only with the sign on their stack, or as
#       tasks that the "names" lines link to it (bugs.awk);
#   [CONDITIONS] bug NAME names /ERE/
#       reports that name the task another waits for (the hung-task
#       detector's "INFO: task A:1 is blocked on a mutex likely owned by
#       task B:2."): the bug's when they link to its signed reports;
#   [CONDITIONS] bug NAME after /ERE/
#       a report that the bug's reports lead to (the hung-task panic): the
#       bug's where one of them came before it;
#   [CONDITIONS] bug NAME fails PATTERN
#       the results it leaves missing ("judge: missing: PATTERN"), or, for
#       "judge: the guest job ended with rc=0", a guest that reported no
#       result; a check that ran and failed is never the bug's.
# parse.sh reads them (-v mode=bugs prints the rules that apply, one a
# line: NAME, KIND, VALUE, WHAT, tab-separated) and, where a bug's sign is
# on the console, counts its reports and failures as expected failures
# ("xfail"; -v mode=xfail -v bugs=FILE rewrites results.tsv). A bug whose
# sign is missing fails the run: a fixed bug must lose its rules.

# A fault of the manifest itself fails the run (printed once: by the
# judge, not by the modes that parse.sh runs first).
function complain(s) {
	if (mode == "")
		printf("%s", s)
	mbad++
}

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
		return v ~ /^(patched|base|mid|check|rmutex|nctx|kmi|dev[0-9]?)$/
	if (k == "preempt")
		return v ~ /^(none|voluntary|full|lazy|rt)$/
	if (k == "arch")
		return v ~ /^(x86_64|i386|arm64)$/
	if (k == "cpus")
		return v ~ /^[0-9]+$/
	if (k == "flavour")
		return v ~ /^[a-z0-9_-]+(\/[a-z0-9_-]+)?$/
	return v ~ /^[a-z0-9_-]+$/
}

function holds(conds,   n, i, c, k, v, neg, alts, na, j, ok) {
	n = split(conds, c, /[ \t]+/)
	for (i = 1; i <= n; i++) {
		if (c[i] == "")
			continue
		if (c[i] !~ /^[a-z]+!?=[^=|!]+(\|[^=|!]+)*$/) {
			complain(sprintf("fail\tjudge: manifest %s: a condition is not KEY=A|B or KEY!=A|B\t%s\n", mname, c[i]))
			return 0
		}
		neg = index(c[i], "!=") > 0
		k = c[i]; sub(/!?=.*/, "", k)
		v = c[i]; sub(/^[^=!]*!?=/, "", v)
		if (!(k in fact)) {
			complain(sprintf("fail\tjudge: manifest %s: a rule tests an unknown fact \"%s\"\t%s\n", mname, k, c[i]))
			return 0
		}
		na = split(v, alts, "|")
		for (j = 1; j <= na; j++)
			if (!known(k, alts[j])) {
				complain(sprintf("fail\tjudge: manifest %s: \"%s\" is no value of %s\t%s\n", mname, alts[j], k, c[i]))
				return 0
			}
		# A fact the run did not establish cannot decide a rule.
		if (!known(k, fact[k])) {
			complain(sprintf("fail\tjudge: manifest %s: the run has no known %s (\"%s\") for a rule that tests it\t%s\n", mname, k, fact[k], c[i]))
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
	if (kind == "bug") {
		bugrule(lineno, raw, conds, pat, why)
		return
	}
	if (kind != "need" && kind != "skip" && kind != "allow") {
		complain(sprintf("fail\tjudge: manifest %s: line %d is not a rule\t%s\n", mname, lineno, raw))
		return
	}
	if ((kind == "skip" || kind == "allow") && why == "") {
		complain(sprintf("fail\tjudge: manifest %s: skip without a reason on line %d\t%s\n", mname, lineno, pat))
		return
	}
	if (!holds(conds))
		return
	nrules++
	rkind[nrules] = kind; rpat[nrules] = pat; rre[nrules] = glob2re(pat); rwhy[nrules] = why
	rout[nrules] = leftout(pat)
}

# "a,b" holds "a"; "zram01,zram09" holds "zram01.sh" (SUFFIX ".sh").
function inlist(v, list, suffix,   n, i, a) {
	n = split(list, a, ",")
	for (i = 1; i <= n; i++)
		if (a[i] == v || a[i] suffix == v)
			return 1
	return 0
}

# Whether the job (fact "job") reads the knob K (the guest's job-JOB.sh).
function knob_of_job(k,   j) {
	j = fact["job"]
	if (j == "golden") j = "test"
	if (k == "harness.kselftests" || k == "harness.workloads" || k == "harness.algos")
		return j == "test"
	if (k == "harness.zpools")
		return j == "test" || j == "zswap"
	if (k == "harness.faults")
		return j == "faults"
	if (k == "harness.soak")
		return j == "soak"
	return 0
}

# Whether the run's knobs (partial) leave out the results PAT names.
function leftout(pat,   n, i, a, k, v, name, g) {
	n = split(partial, a, " ")
	for (i = 1; i <= n; i++) {
		k = a[i]; sub(/=.*/, "", k)
		v = a[i]; sub(/^[^=]*=/, "", v)
		if (k == "kunit.enable" && pat ~ /^kunit: /)
			return 1
		# A filter the judge cannot read (a bracket expression) leaves
		# out nothing: every KUnit rule holds.
		if (k == "kunit.filter_glob" && pat ~ /^kunit: / && v ~ /^[A-Za-z0-9_.*?-]+$/) {
			# "kunit: SUITE/CASE[/PARAM]" against SUITE[.CASE]
			name = pat; sub(/^kunit: /, "", name)
			g = v
			if (index(g, ".")) {
				if (name !~ glob2re(substr(g, 1, index(g, ".") - 1) "/" substr(g, index(g, ".") + 1) "*"))
					return 1
			} else if (name !~ glob2re(g "/*"))
				return 1
		}
		# The knobs of one job leave out nothing in another, which
		# ignores them (the golden cases stand for the test job).
		if (k ~ /^harness\./ && !knob_of_job(k))
			continue
		if (k == "harness.kselftests" && pat ~ /^kselftest: /) {
			name = pat; sub(/^kselftest: /, "", name); sub(/[: ].*/, "", name)
			if (!inlist(name, v, ".sh"))
				return 1
		}
		if (k == "harness.workloads" && pat ~ /^(swap|zswap|stall): /)
			return 1
		if (k == "harness.algos" && pat ~ /^swap: .*\([a-z0-9-]+[:)]/) {
			name = pat; sub(/^swap: .*\(/, "", name); sub(/[:)].*/, "", name)
			if (!inlist(name, v, ""))
				return 1
		}
		if (k == "harness.zpools" && pat ~ /^zswap: /) {
			name = pat
			if (name ~ /\([a-z0-9]+\)$/) { sub(/.*\(/, "", name); sub(/\)$/, "", name) }
			else { sub(/^zswap: /, "", name); sub(/ .*/, "", name) }
			if (!inlist(name, v, ""))
				return 1
		}
		if (k == "harness.faults" && pat ~ /^faults-[a-z]+: /) {
			name = pat; sub(/^faults-/, "", name); sub(/:.*/, "", name)
			if (!inlist(name, v, ""))
				return 1
		}
		if (k == "harness.soak" && pat ~ /^(soak-zram|swapstorm|memlimit): /) {
			name = pat; sub(/:.*/, "", name); sub(/^soak-/, "", name)
			if (!inlist(name, v, ""))
				return 1
		}
	}
	return 0
}

# "NAME sign /ERE/", "NAME report|names|after /ERE/" or "NAME fails
# PATTERN".
function bugrule(lineno, raw, conds, rest, why,   name, bkind, val) {
	name = rest; sub(/[ \t].*/, "", name)
	bkind = rest; sub(/^[^ \t]+[ \t]+/, "", bkind)
	val = bkind; sub(/^[a-z]+[ \t]+/, "", val)
	sub(/[ \t].*/, "", bkind)
	# A bug may leave results missing, and the guest's own result; no
	# other result of the judge's is a bug's to explain.
	if (name !~ /^[a-z0-9][a-z0-9_-]*$/ || bkind !~ /^(sign|report|names|after|fails)$/ || val == "" ||
	    (bkind != "fails" && val !~ /^\/.+\/$/) || (bkind == "sign") != (why != "") ||
	    (bkind == "fails" && val ~ /^judge: / && val != "judge: the guest job ended with rc=0")) {
		complain(sprintf("fail\tjudge: manifest %s: line %d is no bug rule (bug NAME sign /ERE/ -- WHAT, bug NAME report|names|after /ERE/, bug NAME fails PATTERN)\t%s\n", mname, lineno, raw))
		return
	}
	if (bkind == "sign")
		bugsign[name]++
	else
		bugused[name] = lineno
	if (!holds(conds))
		return
	if (bkind != "fails")
		val = substr(val, 2, length(val) - 2)
	if (mode == "bugs")
		printf("%s\t%s\t%s\t%s\n", name, bkind, val, why)
}

# mode=xfail: a failed result that a bug which showed fails (bugs=FILE,
# the rules of the bugs that showed, as mode=bugs prints them) is an
# expected failure; the rest of results.tsv is printed as it was.
function xfail_load(   l, f, n) {
	n = 0
	while ((getline l < bugs) > 0) {
		split(l, f, "\t")
		if (f[2] != "fails")
			continue
		n++
		xname[n] = f[1]; xre[n] = glob2re(f[3]); xwhat[n] = f[4]
	}
	return n
}

# Only what the bug leaves undone is expected: a result that is missing
# ("judge: missing: NAME", NAME matching a fails pattern), and a guest that
# reported no result at all (rc=none), where a fails rule names that judge
# result. A check that ran and failed stays a failure, whatever the bug.
function xfail_line(l,   r, name, i, missing) {
	split(l, r, "\t")
	if (r[1] != "fail")
		return l
	name = r[2]
	missing = sub(/^judge: missing: /, "", name)
	if (!missing && !(name == "judge: the guest job ended with rc=0" && r[3] ~ /^rc=none/))
		return l
	for (i = 1; i <= nx; i++)
		if (name ~ xre[i])
			return "xfail\t" r[2] "\tknown bug " xname[i] (r[3] == "" ? "" : ": " r[3])
	return l
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
		complain(sprintf("fail\tjudge: manifest %s cannot be read\t\n", mname))
	} else if (n == 0) {
		complain(sprintf("fail\tjudge: manifest %s is empty\t\n", mname))
	}
	for (b in bugused)
		if (bugsign[b] != 1) {
			complain(sprintf("fail\tjudge: manifest %s: bug %s needs one sign rule (line %d)\t%d signs\n", mname, b, bugused[b], bugsign[b]))
		}
	if (mode == "bugs")
		exit
	if (mode == "xfail")
		nx = xfail_load()
}

mode == "xfail" {
	print xfail_line($0)
	next
}

# The results: status, name, detail
{
	split($0, r, "\t")
	status = r[1]; name = r[2]
	allowed = 0
	# A skip for a reason an allow rule names counts as a run.
	undecided = 0
	for (i = 1; i <= nrules; i++)
		if (rkind[i] == "allow" && status == "skip" && name ~ rre[i] && r[3] ~ glob2re(rwhy[i]))
			undecided = allowed = 1
	for (i = 1; i <= nrules; i++) {
		if (name !~ rre[i])
			continue
		if (rkind[i] == "need" && (status != "skip" || undecided))
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
	if (mode != "")
		exit
	bad = extra + mbad
	for (i = 1; i <= nrules; i++) {
		if (rkind[i] == "need" && !ran[i] && !rout[i]) {
			printf("fail\tjudge: missing: %s\t%s\n", rpat[i], "no result of that name ran (" mname ")")
			bad++
		}
		if (rkind[i] == "skip" && !skipped[i] && !rout[i]) {
			printf("fail\tjudge: a skip that did not happen: %s\t%s\n", rpat[i], "expected: " rwhy[i])
			bad++
		}
	}
	for (i = 1; i <= nrules; i++)
		nout += rout[i]
	if (!bad && partial != "")
		printf("pass\tjudge: what %s says must run ran, with the skips it allows, less what a part of the job leaves out (%s)\t%d rules, %d of them left out\n", mname, partial, nrules, nout)
	else if (!bad)
		printf("pass\tjudge: what %s says must run ran, with the skips it allows\t%d rules\n", mname, nrules)
}
