# Known bugs of a kernel (the manifest's "bug" rules that apply to a run,
# bugs.tsv: NAME, KIND, VALUE, WHAT, tab-separated; see manifest.awk), in
# four steps of parse.sh:
#   awk -v step=seen -v rules=bugs.tsv -f bugs.awk kernel.txt > bugs.seen.tsv
#       the rules of the bugs whose sign (an ERE) is on the kernel's console;
#   awk -v step=reports -v rules=bugs.seen.tsv -v splats=ERE -f bugs.awk \
#       kernel.txt > bugs.reports.tsv
#       the kernel reports of the bugs that showed (NAME, the report's
#       line). A report is a line that matches SPLATS; its stack is the
#       lines after it up to the next report or the end of the stack
#       ("</TASK>", a blank line, "NMI backtrace", "Showing all locks
#       held"), so that the next task's or CPU's stack is not its own.
#       The bug's, in a bug's rules:
#         report  a hung task ("blocked for more than") with the sign on
#                 its stack, or a hung task that is a holder (below), or
#                 one whose blocker line (next) is the bug's;
#         names   a hung-task detector's line on what task A waits for
#                 ("INFO: task A:1 is blocked on a mutex likely owned by
#                 task B:2.", and its other wordings): the bug's if the
#                 sign is on the stack it shows, or A is the subject of
#                 the bug's report right before it (its own wait) or a
#                 holder, or B is a signed subject or a holder; then B
#                 is a holder;
#         after   the hung-task panic: the bug's after one of its reports.
#       A hung task without the sign and with no such link to the bug's
#       tasks stays a failure, even if its task shows the sign later (the
#       same kswapd0, hung for another reason earlier);
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
			else if ((f[2] == "report" || f[2] == "names" || f[2] == "after") && ((f[1], f[2]) in re))
				re[f[1], f[2]] = re[f[1], f[2]] "|" f[3]
			else if (f[2] == "report" || f[2] == "names" || f[2] == "after")
				re[f[1], f[2]] = f[3]
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
# fio:76 (space-separated, in order).
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
	nr++; line[nr] = $0; tasks[nr] = named($0); open = 1
	next
}
step == "reports" && nr && open {
	if ($0 ~ /^ *<\/TASK>$/ || $0 == "" || $0 ~ /^NMI backtrace/ || $0 ~ /^Showing all locks held/)
		open = 0
	else
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
step == "rows" && $2 == "sign" && !($1 in s) && partial == "" && ksrc == "" {
	printf("fail\tjudge: known bug %s showed\tno line of the console matches its sign /%s/: fixed? Then remove its bug rules from %s\n", $1, $3, mname)
}
# A KSRC tree judged as the stock kernel may carry the fix: a known bug
# that did not show is no failure there.
step == "rows" && $2 == "sign" && !($1 in s) && partial == "" && ksrc != "" {
	printf("pass\tjudge: known bug %s did not show\ta KSRC tree (%s): it may have the fix\n", $1, ksrc)
}
function first_task(i,   t) {
	split(tasks[i], t, " ")
	return t[1]
}
# The bug's reports (see the top): signed subjects and holders first,
# until none is added, then the panic after them.
function bug_reports(b,   i, n, t, a, o, grew, first, k) {
	for (i = 1; i <= nr; i++) {
		kind[i] = ""
		if (((b, "report") in re) && line[i] ~ re[b, "report"]) kind[i] = "report"
		else if (((b, "names") in re) && line[i] ~ re[b, "names"]) kind[i] = "names"
		else if (((b, "after") in re) && line[i] ~ re[b, "after"]) kind[i] = "after"
		if (kind[i] != "" && kind[i] != "after" && signed[i, b]) {
			is[i] = 1
			n = split(tasks[i], t, " ")
			if (n) subject[t[1]] = 1
		}
	}
	do {
		grew = 0
		for (i = 1; i <= nr; i++) {
			if (is[i] || kind[i] == "" || kind[i] == "after")
				continue
			n = split(tasks[i], t, " ")
			a = n >= 1 ? t[1] : ""; o = n >= 2 ? t[2] : ""
			# Its subject A: a holder, or the task of the signed
			# report right before it (the line says what that one
			# waits for); not merely a task signed elsewhere, which
			# may have hung for another reason at another time.
			if (kind[i] == "names" &&
			    ((a != "" && (a in holder || (i > 1 && is[i - 1] && kind[i - 1] == "report" && first_task(i - 1) == a))) ||
			     (o != "" && (o in subject || o in holder)))) {
				is[i] = 1
				if (o != "") holder[o] = 1
				grew = 1
			} else if (kind[i] == "report" && a != "" && a in holder) {
				is[i] = 1
				grew = 1
			}
		}
		# A hung task whose blocker line, next, is the bug's.
		for (i = 1; i < nr; i++) {
			if (is[i] || kind[i] != "report" || !is[i + 1] || kind[i + 1] != "names")
				continue
			split(tasks[i], t, " "); a = t[1]
			split(tasks[i + 1], t, " ")
			if (a != "" && a == t[1]) { is[i] = 1; grew = 1 }
		}
	} while (grew)
	first = 0
	for (i = 1; i <= nr; i++) {
		if (is[i] && !first)
			first = i
		if (!is[i] && first && kind[i] == "after")
			is[i] = 1
	}
	for (i = 1; i <= nr; i++)
		if (is[i])
			printf("%s\t%s\n", b, line[i])
	split("", is); split("", subject); split("", holder)
}
END {
	if (step == "reports")
		for (j = 1; j <= nb; j++)
			bug_reports(bug[j])
	if (step == "seen")
		while ((getline l < rules) > 0) {
			split(l, f, "\t")
			if (f[1] in shown) print l
		}
}
