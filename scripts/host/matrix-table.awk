# The rows of the committed matrix table (bench/results/matrix.md), one a
# file, for matrix.sh:
#   awk -v rows=DIR -f matrix-table.awk bench/results/matrix.md
# writes DIR/NAME.row (a result row: 13 fields between "|") and
# DIR/NAME.time (a timing row: 6 fields) for each row whose file does not
# exist yet; the header rows and any other table are left out.
BEGIN { FS = "|" }
/^\| (flavour|---) / { next }
/^\| / {
	name = $2; gsub(/^ +| +$/, "", name)
	f = rows "/" name (NF == 13 ? ".row" : NF == 6 ? ".time" : ".other")
	if (name != "" && f !~ /\.other$/ && (getline x < f) < 0)
		print > f
}
