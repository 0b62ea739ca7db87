# Known bugs of a kernel (the manifest's "bug" rules that apply to a run,
# bugs.tsv: NAME, KIND, VALUE, WHAT, tab-separated; see manifest.awk), in
# four steps of parse.sh:
#   awk -v step=seen -v rules=bugs.tsv -f bugs.awk kernel.txt > bugs.seen.tsv
#       the rules of the bugs whose sign (an ERE) is on the kernel's console;
#   awk -v step=reports -v rules=bugs.seen.tsv -v splats=ERE -f bugs.awk \
#       kernel.txt > bugs.reports.tsv
#       the kernel reports of the bugs that showed (NAME, the report's
#       line): a report is a line that matches SPLATS and the lines after
#       it up to the next such line (its stack). One that matches a bug's
#       "report" ERE is the bug's if the sign is on its stack, or if it
#       names a task ("task NAME:PID") that another of the bug's reports
#       names: the hung-task detector's "INFO: task A:1 is blocked on a
#       mutex likely owned by task B:2." after A's stack, and any report of
#       B or of a task blocked behind B. One that matches an "after" ERE
#       (the hung-task panic) is the bug's if one of its reports came
#       before it. Any other report, a hung task whose stack lacks the sign
#       among them, stays a failure;
#   awk -v step=mark -v reports=bugs.reports.tsv -v listed=ERE -f bugs.awk splats.txt
#       each of those reports' lines in splats.txt marked "[known bug NAME:
#       expected]" (not the KCSAN reports that are only listed: LISTED);
#   awk -v step=rows -v seen=bugs.seen.tsv -v partial=ARGS -v mname=MANIFEST \
#       -f bugs.awk bugs.tsv >> results.tsv
#       a result for each bug: "xfail" where it showed, "fail" where it did
#       not (a fixed bug must lose its rules), unless the run did part of
#       the job (PARTIAL), which may leave out what shows the bug.
BEGIN {
	FS = "\t"
	if (step == "seen") {
		while ((getline l < rules) > 0) {
			split(l, f, "\t")
			if (f[2] == "sign") { sign[f[1]] = f[3] }
		}
		close(rules)
	} else if (step == "reports") {
		while ((getline l < rules) > 0) {
			split(l, f, "\t")
			if (f[2] == "sign") { nb++; bug[nb] = f[1]; sign[f[1]] = f[3] }
			else if (f[2] == "report") {
				if (f[1] in rep) rep[f[1]] = rep[f[1]] "|" f[3]
				else rep[f[1]] = f[3]
			} else if (f[2] == "after") {
				if (f[1] in aft) aft[f[1]] = aft[f[1]] "|" f[3]
				else aft[f[1]] = f[3]
			}
		}
	} else if (step == "mark") {
		# The bug's report lines, each as often as it is the bug's.
		while ((getline l < reports) > 0) {
			i = index(l, "\t")
			mine[substr(l, i + 1)]++; whose[substr(l, i + 1)] = substr(l, 1, i - 1)
		}
	} else if (step == "rows") {
		while ((getline l < seen) > 0) { split(l, f, "\t"); s[f[1]] = 1 }
	} else {
		print "bugs.awk: step must be seen, reports, mark or rows" > "/dev/stderr"
		exit 2
	}
}
step == "seen" { for (b in sign) if ($0 ~ sign[b]) shown[b] = 1 }
# The tasks a line names: "INFO: task kworker/u8:2:36 <writer> blocked on
# an rw-semaphore likely owned by task fio:76 <reader>" -> kworker/u8:2:36,
# fio:76 (in TASKS, space-separated).
function named(l,   t, out) {
	out = ""
	while (match(l, /task [^ ]+:[0-9]+/)) {
		t = substr(l, RSTART + 5, RLENGTH - 5)
		out = out " " t
		l = substr(l, RSTART + RLENGTH)
	}
	return out
}
step == "reports" && $0 ~ splats {
	nr++; line[nr] = $0; tasks[nr] = named($0)
}
step == "reports" && nr {
	for (b in sign)
		if ($0 ~ sign[b]) signed[nr, b] = 1
}
step == "mark" {
	if ($0 !~ listed && mine[$0] > 0) {
		mine[$0]--
		$0 = $0 " [known bug " whose[$0] ": expected]"
	}
	print
}
step == "rows" && $2 == "sign" && ($1 in s) { printf("xfail\tjudge: known bug %s showed\t%s\n", $1, $4) }
step == "rows" && $2 == "sign" && !($1 in s) && partial == "" {
	printf("fail\tjudge: known bug %s showed\tno line of the console matches its sign /%s/: fixed? Then remove its bug rules from %s\n", $1, $3, mname)
}
# The bug's reports: those whose stack shows the sign, then, until none is
# added, those that name a task one of them names; then the "after" ones
# that follow one of them.
function bug_reports(b,   i, n, t, k, j, grew, first) {
	for (i = 1; i <= nr; i++)
		if (line[i] ~ rep[b] && signed[i, b]) {
			is[i] = 1
			n = split(tasks[i], t, " ")
			for (k = 1; k <= n; k++) held[t[k]] = 1
		}
	do {
		grew = 0
		for (i = 1; i <= nr; i++) {
			if (is[i] || line[i] !~ rep[b])
				continue
			n = split(tasks[i], t, " ")
			for (k = 1; k <= n && !is[i]; k++)
				if (t[k] in held) is[i] = 1
			if (!is[i])
				continue
			grew = 1
			for (k = 1; k <= n; k++) held[t[k]] = 1
		}
	} while (grew)
	first = 0
	for (i = 1; i <= nr; i++) {
		if (is[i] && !first)
			first = i
		if (!is[i] && first && (b in aft) && line[i] ~ aft[b])
			is[i] = 1
	}
	for (i = 1; i <= nr; i++)
		if (is[i])
			printf("%s\t%s\n", b, line[i])
	split("", is); split("", held)
}
END {
	if (step == "reports")
		for (j = 1; j <= nb; j++)
			if (bug[j] in rep)
				bug_reports(bug[j])
	if (step == "seen")
		while ((getline l < rules) > 0) {
			split(l, f, "\t")
			if (f[1] in shown) print l
		}
}
