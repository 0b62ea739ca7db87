# Known bugs of a kernel (the manifest's "bug" rules that apply to a run,
# bugs.tsv: NAME, KIND, VALUE, WHAT, tab-separated; see manifest.awk), in
# three steps of parse.sh:
#   awk -v step=seen -v rules=bugs.tsv -f bugs.awk kernel.txt > bugs.seen.tsv
#       the rules of the bugs whose sign (an ERE) is on the kernel's console;
#   awk -v step=mark -v rules=bugs.seen.tsv -v listed=ERE -f bugs.awk splats.txt
#       each kernel report of a bug that showed marked "[known bug NAME:
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
	} else if (step == "mark") {
		while ((getline l < rules) > 0) {
			split(l, f, "\t")
			if (f[2] == "report") { n++; bug[n] = f[1]; re[n] = f[3] }
		}
	} else if (step == "rows") {
		while ((getline l < seen) > 0) { split(l, f, "\t"); s[f[1]] = 1 }
	} else {
		print "bugs.awk: step must be seen, mark or rows" > "/dev/stderr"
		exit 2
	}
}
step == "seen" { for (b in sign) if ($0 ~ sign[b]) shown[b] = 1 }
step == "mark" {
	if ($0 !~ listed)
		for (i = 1; i <= n; i++)
			if ($0 ~ re[i]) { $0 = $0 " [known bug " bug[i] ": expected]"; break }
	print
}
step == "rows" && $2 == "sign" && ($1 in s) { printf("xfail\tjudge: known bug %s showed\t%s\n", $1, $4) }
step == "rows" && $2 == "sign" && !($1 in s) && partial == "" {
	printf("fail\tjudge: known bug %s showed\tno line of the console matches its sign /%s/: fixed? Then remove its bug rules from %s\n", $1, $3, mname)
}
END {
	if (step == "seen")
		while ((getline l < rules) > 0) {
			split(l, f, "\t")
			if (f[1] in shown) print l
		}
}
