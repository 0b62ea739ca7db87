# The kernel's part of a console (parse.sh):
#   awk -v report=REPORT -v legacy=0|1 -f kernel-lines.awk console.txt > kernel.txt
# console.txt is the console, its printk timestamps stripped. The guest no
# longer writes to the console (scripts/guest/init), but a console saved
# before that (legacy=1) has the job's lines there too, prefixed "guest| ",
# and the kernel's output can be glued onto one of them when the two
# interleave mid-line: "guest| HARNESS: ok swap: every byte[ 612.34] INFO:
# task ... blocked". Such a line is the job's only as far as the job wrote
# it: its longest common prefix with a line of REPORT (report.txt) is cut
# off, and the rest (its timestamp stripped) is printed as the kernel's. A
# prefixed line that shares no prefix with a line of the job's is printed
# whole. Every other line is the kernel's.
BEGIN {
	# The job lines by their first 4 characters (shorter ones apart).
	while (legacy && (getline l < report) > 0) {
		if (length(l) >= 4) {
			k = substr(l, 1, 4)
			c4[k, ++n4[k]] = l
		} else if (length(l) > 0)
			shorts[++nshort] = l
		mine[l] = 1
	}
}
/^guest\| / {
	l = substr($0, 8)
	if (l in mine)
		next
	# The most of the line that the job wrote: its longest common prefix
	# with a line of report.log (whole, or cut short by kernel text).
	best = 0
	k = substr(l, 1, 4)
	for (i = 1; i <= n4[k] + nshort; i++) {
		c = i <= n4[k] ? c4[k, i] : shorts[i - n4[k]]
		m = length(c) < length(l) ? length(c) : length(l)
		if (m <= best || substr(l, 1, best + 1) != substr(c, 1, best + 1))
			continue
		lo = best + 1; hi = m
		while (lo < hi) {
			mid = int((lo + hi + 1) / 2)
			if (substr(l, 1, mid) == substr(c, 1, mid)) lo = mid; else hi = mid - 1
		}
		best = lo
	}
	l = substr(l, best + 1)
	sub(/^\[ *[0-9]*\.[0-9]*\] ?/, "", l)
	if (l != "")
		print l
	next
}
{ print }
