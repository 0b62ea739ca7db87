# The benchmark module's lines of the kernel log (bench-zsmalloc.sh):
#   dmesg | awk -v tag=TAG -f zsbench-lines.awk
# the "zsbench: " lines after the line that has TAG (this run's marker),
# else after the last "zsbench: start", each cut to start at "zsbench: ".
tag != "" && index($0, tag) { seen = 1; after_tag = ""; next }
/zsbench: start / { after_start = "" }
/zsbench: / {
	line = $0
	sub(/^.*zsbench: /, "zsbench: ", line)
	after_tag = after_tag line "\n"
	after_start = after_start line "\n"
}
END { printf "%s", seen ? after_tag : after_start }
