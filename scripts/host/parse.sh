#!/bin/sh
# Read a finished run offline and judge it:  parse.sh RUNDIR
#
# Every result gets a line of RUNDIR/results.tsv (status, name, detail;
# status pass, fail or skip), the one record of the run that the summary
# and the reports read:
#  - "kunit: SUITE/CASE[/PARAM]": every KUnit result on the console's KTAP
#    (before init) that has no results nested under it; a suite or case
#    whose nested results all passed but that failed itself (a crash, a
#    timeout) fails too, and so does a suite with no cases (1..0);
#  - the guest's checks ("HARNESS: ok|not ok|skip NAME" in report.log):
#    swap, zswap, stall, and health.sh's "kernel: ..." checks (taint,
#    lockdep, the kernel log, read in the guest);
#  - "kselftest: PROG: RESULT": every result of the kselftest runner's
#    output, which the test job copies to report.log (checks.awk);
#  - "judge: ...": the guest reported success, the console is free of
#    kernel reports (any WARNING, BUG, Oops, lockdep, KASAN, UBSAN or
#    KFENCE report, hung task or panic, whatever the guest said), the
#    kernel that booted is the one that was built, and what the job's
#    manifest says must run did, with the skips it allows and no other
#    (scripts/manifests/JOB; see manifest.awk).
# A KCSAN data-race report (the kcsan flavour) fails the console check if
# zsmalloc or zram is in it, in its title or on either stack; one entirely
# elsewhere in the kernel is listed (splats.txt, kcsan.txt, the output)
# and does not fail.
# A known bug of the kernel (the manifest's "bug" rules: stock 7.3.4's
# lockup) whose sign is on the console makes its kernel reports and the
# results it fails expected failures: status "xfail", each listed; a
# known bug that did not show fails the run.
# Prints "N passed, N failed, N skipped[, N expected failures]" last (also
# RUNDIR/summary); exits
# 1 if anything failed, if the run left no console, no guest result, or no
# KTAP where the kernel runs KUnit at boot (vm.sh writes ktap-expected).
set -eu
. "$(dirname "$0")/lib.sh"

dir=${1:?usage: parse.sh RUNDIR}
console=$dir/console.log
report=$dir/report.log
results=$dir/results.tsv
# A run that left no console (the VM never started) is a failed run.
if [ ! -s "$console" ]; then
	say "FAIL no console log: $console (the VM did not run; see the lines above)"
	printf 'fail\tjudge: the run left a console log\t%s\n' "$console" > "$results" 2>/dev/null || true
	echo "0 passed, 1 failed, 0 skipped" | tee "$dir/summary" 2>/dev/null
	exit 1
fi
[ -f "$report" ] || : > "$report"
: > "$results"
# The report channel is a serial port: its lines end in CR LF.
tr -d '\r' < "$report" > "$dir/report.txt"
report=$dir/report.txt

# result STATUS NAME [DETAIL]: one line of results.tsv
result() { printf '%s\t%s\t%s\n' "$1" "$2" "${3:-}" >> "$results"; }

# run.info (vm.sh): what was booted, for the checks below; KEY=VALUE lines.
info() { sed -n "s/^$1=//p" "$dir/run.info" 2>/dev/null | head -1; }

# Strip printk timestamps: "[   12.345678] text" -> "text" (an empty line
# may have lost the space after the stamp).
strip() { sed 's/^\[ *[0-9]*\.[0-9]*\] \{0,1\}//' "$1" | tr -d '\r'; }

# One list of what counts as a kernel report, for the host and the guest
# (scripts/guest/health.sh reads the same file in the guest's kernel log).
SPLATS=$(cat "$TOP/scripts/guest/splats.ere")

# KCSAN (kernel/kcsan/report.c) prints a report as
#   ==================================================================
#   BUG: KCSAN: data-race in F1 / F2      (or "assert: race in", or one
#                                          "F+0x../0x.." if the other
#                                          access is of unknown origin)
#   read to 0x... of 8 bytes by task 123 on cpu 1:
#    F1+0x1a/0x2f0                        (the stack, one frame a line)
#   write (marked) to 0x... of 8 bytes by interrupt on cpu 0:
#    ...
#   value changed: 0x... -> 0x...
#   Reported by Kernel Concurrency Sanitizer on:
#   CPU: 1 UID: 0 PID: 123 Comm: fio Not tainted ...
#   Hardware name: ...
#   ==================================================================
# Ours (it fails the run): a function of mm/zsmalloc.c or drivers/block/
# zram/ (zram_drv, zcomp, backend_*) made one of the accesses or called the
# function that did: in the title, or one of the first two frames of an
# access's stack (splats.awk says why not deeper). The kernel
# has no debug info, so a frame names a function, not its file: the names
# are the text symbols of those objects in the kernel's build folder (the
# run folder's parent), less the ones that vmlinux also has from another
# file (lzo_compress, zstd_compress: crypto's), saved as kcsan-ours.txt in
# the run folder for a later judging; and always any name that starts with
# zs_, zspage, zram, zcomp (all of them from those files).
kcsan_ours() {
	k=$(dirname "$dir")
	[ ! -s "$dir/kcsan-ours.txt" ] || return 0
	objs=""
	for o in "$k"/mm/zsmalloc.o "$k"/drivers/block/zram/zram_drv.o \
		"$k"/drivers/block/zram/zcomp.o "$k"/drivers/block/zram/backend_*.o; do
		[ ! -f "$o" ] || objs="$objs $o"
	done
	[ -n "$objs" ] && [ -f "$k/vmlinux" ] && command -v nm >/dev/null 2>&1 || return 0
	texts() { awk 'NF == 3 && $2 ~ /^[tT]$/ { print $3 }' | sort | uniq -c; }
	# shellcheck disable=SC2086 # a list of files
	nm --defined-only $objs | texts > "$dir/kcsan-objs.count"
	nm "$k/vmlinux" | texts > "$dir/kcsan-vmlinux.count"
	awk 'NR == FNR { v[$2] = $1; next }
		$2 !~ /^_sub_/ && !($2 in v && v[$2] > $1) { sub(/\..*/, "", $2); print $2 }' \
		"$dir/kcsan-vmlinux.count" "$dir/kcsan-objs.count" | sort -u > "$dir/kcsan-ours.txt"
	rm -f "$dir/kcsan-objs.count" "$dir/kcsan-vmlinux.count"
}

strip "$console" > "$dir/console.txt"
grep -q 'BUG: KCSAN: ' "$dir/console.txt" && kcsan_ours
# The kernel's part of the console: a console saved before the guest
# wrote to the report channel alone has the job's lines on it too,
# prefixed "guest| ", and kernel text may be glued onto them
# (kernel-lines.awk).
legacy=0
grep -q '^guest| ' "$dir/console.txt" && legacy=1
awk -v report="$report" -v legacy=$legacy -f "$TOP/scripts/host/kernel-lines.awk" \
	"$dir/console.txt" > "$dir/kernel.txt"

# The splat scan, over every line of the kernel's part; a KCSAN report is
# one splat, its title marked ours or listed (splats.awk).
awk -v splats="$SPLATS" -v ourfile="$dir/kcsan-ours.txt" -v kcsan="$dir/kcsan.txt" \
	-f "$TOP/scripts/host/splats.awk" "$dir/kernel.txt" > "$dir/splats.txt"
[ -s "$dir/kcsan.txt" ] || rm -f "$dir/kcsan.txt"
LISTED=' \[KCSAN elsewhere: listed, not failed\]$'
# Built-in KUnit suites run before init: read KTAP from that part only.
sed '/^Run .* as init process/q' "$dir/kernel.txt" > "$dir/kunit.ktap"

# KUnit: every result at every depth that has no results nested under it,
# as kunit: SUITE/CASE[/PARAM]; an empty suite fails (kunit.awk).
awk -f "$TOP/scripts/host/kunit.awk" "$dir/kunit.ktap" >> "$results"
# A suite that crashed before it finished leaves "# Subtest:" without a result.
suites=$(grep -c '^    # Subtest:' "$dir/kunit.ktap" || true)
done_suites=$(grep -cE '^(not )?ok [0-9]+ ' "$dir/kunit.ktap" || true)
if [ "$suites" != "$done_suites" ]; then
	result fail "judge: every KUnit suite that started finished" \
		"$suites suites started but $done_suites finished"
fi
# vm.sh says whether this kernel runs KUnit suites at boot: then a console
# without them (KUnit off, or a crash before it ran) fails.
if [ "$(cat "$dir/ktap-expected" 2>/dev/null)" = 1 ] && [ "$suites" = 0 ]; then
	result fail "judge: the KUnit suites ran at boot" \
		"this kernel runs KUnit at boot, but the console has no KTAP"
fi

# The guest's checks: its "HARNESS:" lines and the kselftest runner's
# results (checks.awk). A guest from before the host read the runner's
# output printed a "HARNESS: ... kselftest: PROG..." line of each itself.
runner=1
grep -qE '^HARNESS: (ok|not ok|skip) kselftest: [^ ]+(: | #|$)' "$report" && runner=0
awk -v runner=$runner -f "$TOP/scripts/host/checks.awk" "$report" >> "$results"

# What must run, the skips allowed and the known bugs: the job's manifest,
# scripts/manifests/JOB (JOB from run.info); a run folder's own "manifest"
# is used only where no such file exists (the golden cases, whose job is
# "golden"). Runs saved before run.info have none.
manifest="" facts="" partial=""
if [ -f "$dir/run.info" ] && [ -f "$TOP/scripts/manifests/$(info job)" ]; then
	manifest=$TOP/scripts/manifests/$(info job)
elif [ -f "$dir/manifest" ]; then
	manifest=$dir/manifest
fi
if [ -n "$manifest" ]; then
	# The facts a manifest's conditions test, from run.info and the
	# console: base, tree, flavour, arch, job, cpus, preempt (a run.info
	# from before there were two bases is 6.12's). The preemption
	# model is the one the kernel says it runs ("Dynamic Preempt: none"
	# at boot, PREEMPT_DYNAMIC), else the one it was built with (vm.sh:
	# preempt_config).
	preempt=$(sed -n 's/^Dynamic Preempt: \([a-z]*\).*/\1/p' "$dir/kernel.txt" | tail -1)
	[ -n "$preempt" ] || preempt=$(info preempt_config)
	base=$(info base)
	facts="base=${base:-6.12} tree=$(info tree) flavour=$(info flavour) arch=$(info arch) job=$(info job)"
	facts="$facts cpus=$(info cpus) preempt=${preempt:-unknown}"
	# A run told to do part of the job (one kselftest, no workloads, a
	# KUnit filter) is judged by the manifest's skip rules only: what it
	# was told to leave out is no missing result.
	partial=$(tr ' ' '\n' < "$dir/cmdline" 2>/dev/null | grep -E \
		'^(harness\.(kselftests|algos|zpools|faults|soak)=|harness\.workloads=0$|kunit\.filter_glob=|kunit\.enable=0$)' |
		tr '\n' ' ' | sed 's/ $//' || true)
fi

# Known bugs (the manifest's "bug" rules that apply to this run): a bug
# showed if its sign is on the kernel's console; its kernel reports and
# the results it fails are then expected failures ("xfail"), each listed.
: > "$dir/bugs.tsv"
if [ -n "$manifest" ]; then
	awk -v mode=bugs -v facts="$facts" -v manifest="$manifest" -v mname="${manifest#"$TOP"/}" \
		-f "$TOP/scripts/host/manifest.awk" /dev/null |
		awk -F '\t' 'NF == 4 && $2 ~ /^(sign|report|fails)$/' > "$dir/bugs.tsv"
fi
# bugs.seen.tsv: the rules of the bugs that showed (bugs.awk, as below).
awk -v step=seen -v rules="$dir/bugs.tsv" -f "$TOP/scripts/host/bugs.awk" "$dir/kernel.txt" > "$dir/bugs.seen.tsv"
[ -s "$dir/bugs.tsv" ] || rm -f "$dir/bugs.tsv" "$dir/bugs.seen.tsv"
KNOWN=' \[known bug [a-z0-9_-]*: expected\]$'
if [ -s "$dir/bugs.seen.tsv" ]; then
	awk -v step=mark -v rules="$dir/bugs.seen.tsv" -v listed="$LISTED" -f "$TOP/scripts/host/bugs.awk" \
		"$dir/splats.txt" > "$dir/splats.known" && mv "$dir/splats.known" "$dir/splats.txt"
fi
if [ -f "$dir/bugs.tsv" ]; then
	awk -v step=rows -v seen="$dir/bugs.seen.tsv" -v partial="$partial" -v mname="${manifest#"$TOP"/}" \
		-f "$TOP/scripts/host/bugs.awk" "$dir/bugs.tsv" >> "$results"
fi

# The guest must have reported, and reported success.
rc=$(sed -n 's/.*HARNESS-RESULT job=[^ ]* rc=\([0-9]*\).*/\1/p' "$report" | tail -1)
if [ "${rc:-x}" = 0 ]; then
	result pass "judge: the guest job ended with rc=0"
else
	result fail "judge: the guest job ended with rc=0" "rc=${rc:-none (no result reported)}"
fi

nsplat=$(grep -v "$LISTED" "$dir/splats.txt" | grep -cv "$KNOWN" || true)
nknown=$(grep -c "$KNOWN" "$dir/splats.txt" || true)
if [ "$nsplat" != 0 ]; then
	result fail "judge: no kernel report on the console" \
		"$nsplat lines, the first: $(grep -v "$LISTED" "$dir/splats.txt" | grep -v "$KNOWN" | head -1)"
elif [ "$nknown" != 0 ]; then
	result xfail "judge: no kernel report on the console" \
		"$nknown lines, all a known bug's: $(grep "$KNOWN" "$dir/splats.txt" | head -1)"
else
	result pass "judge: no kernel report on the console"
fi

# The kernel that booted is the one that was built: vm.sh saved the
# release of the kernel it booted (run.info: built), and the guest printed
# its own (HARNESS-KERNEL). The release carries the id of the tree it was
# built from (kernel.sh: LOCALVERSION). Runs saved before run.info have
# neither: the check is left out for them.
built=$(info built)
booted=$(sed -n 's/^HARNESS-KERNEL release=\([^ ]*\) .*/\1/p' "$report" | head -1)
if [ -f "$dir/run.info" ] && [ -z "$built" ]; then
	result fail "judge: run.info names the kernel that was built" \
		"no built= (was the kernel built by kernel.sh? include/config/kernel.release)"
elif [ -n "$built" ]; then
	if [ "$booted" = "$built" ]; then
		result pass "judge: the kernel that booted is the one built ($built)"
	else
		result fail "judge: the kernel that booted is the one built ($built)" \
			"booted ${booted:-an unknown kernel (no HARNESS-KERNEL line)}"
	fi
fi

# The manifest's judgement, of the results that are not the judge's.
if [ -n "$manifest" ]; then
	grep -v '^[^	]*	judge: ' "$results" > "$dir/results.ours" || true
	awk -v facts="$facts" -v manifest="$manifest" -v mname="${manifest#"$TOP"/}" -v partial="$partial" \
		-f "$TOP/scripts/host/manifest.awk" "$dir/results.ours" >> "$results"
	rm -f "$dir/results.ours"
elif [ -f "$dir/run.info" ]; then
	# No manifest: no skip is allowed (the runs of a job that has none
	# skip nothing where they are meant to run). Runs saved before
	# run.info existed are judged as they were then.
	awk -F '\t' '$1 == "skip" {
		printf("fail\tjudge: an unexpected skip: %s\tthis job has no manifest (scripts/manifests/) to allow it\n", $2)
	}' "$results" > "$dir/results.noman"
	cat "$dir/results.noman" >> "$results"
	rm -f "$dir/results.noman"
fi
# The failures of the bugs that showed are expected (manifest.awk).
if [ -s "$dir/bugs.seen.tsv" ]; then
	awk -v mode=xfail -v bugs="$dir/bugs.seen.tsv" -v facts="$facts" -v manifest="$manifest" \
		-v mname="${manifest#"$TOP"/}" -f "$TOP/scripts/host/manifest.awk" "$results" > "$results.new"
	mv "$results.new" "$results"
fi

# The results: every failure and skip by name, then the counts
# (summary.awk).
awk -v part=list -f "$TOP/scripts/host/summary.awk" "$results"
nlisted=$(grep -c "$LISTED" "$dir/splats.txt" || true)
if [ "$nlisted" != 0 ]; then
	say "listed, not failed: $nlisted KCSAN reports elsewhere in the kernel (not in zsmalloc or zram):"
	grep "$LISTED" "$dir/splats.txt" | sed "s/$LISTED//; s/^/    /"
fi
if [ "$nsplat" != 0 ]; then
	say "kernel reports on the console ($nsplat lines, first ones):"
	grep -v "$LISTED" "$dir/splats.txt" | grep -v "$KNOWN" | head -10 | sed 's/^/    /'
fi
if [ "$nknown" != 0 ]; then
	say "a known bug's kernel reports, expected ($nknown lines, first ones):"
	grep "$KNOWN" "$dir/splats.txt" | head -4 | sed 's/^/    /'
fi
[ -z "$built" ] || say "booted: ${booted:-?}; built from tree $(info tree_id) ($(info tree)), project $(info project), patches $(info patches)"
[ -n "$manifest" ] || say "note: no manifest for this run: what must run is not checked, and no skip is allowed"
awk -v part=counts -f "$TOP/scripts/host/summary.awk" "$results"
passed=$(grep -c '^pass	' "$results" || true)
failed=$(grep -c '^fail	' "$results" || true)
skipped=$(grep -c '^skip	' "$results" || true)
xfailed=$(grep -c '^xfail	' "$results" || true)
line="$passed passed, $failed failed, $skipped skipped"
[ "$xfailed" = 0 ] || line="$line, $xfailed expected failures"
echo "$line" > "$dir/summary"
say "$line"
[ "$failed" = 0 ]
