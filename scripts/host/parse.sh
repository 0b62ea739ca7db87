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
# Bytes, not characters: a console may hold a byte that is no UTF-8 or a
# NUL (serial noise, a corrupted task name). Every grep below reads its
# input as text (-a), in the C locale, so that no line is left out as
# "binary"; the console's NULs are made visible ("?") as it is read.
LC_ALL=C
export LC_ALL

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
tr -d '\r' < "$report" | tr '\000' '?' > "$dir/report.txt"
report=$dir/report.txt

# result STATUS NAME [DETAIL]: one line of results.tsv
result() { printf '%s\t%s\t%s\n' "$1" "$2" "${3:-}" >> "$results"; }

# run.info (vm.sh): what was booted, for the checks below; KEY=VALUE lines.
info() { sed -n "s/^$1=//p" "$dir/run.info" 2>/dev/null | head -1; }

# Strip printk timestamps: "[   12.345678] text" -> "text" (an empty line
# may have lost the space after the stamp).
strip() { tr '\000' '?' < "$1" | sed 's/^\[ *[0-9]*\.[0-9]*\] \{0,1\}//' | tr -d '\r'; }

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
grep -a -q 'BUG: KCSAN: ' "$dir/console.txt" && kcsan_ours
# The kernel's part of the console: a console saved before the guest
# wrote to the report channel alone has the job's lines on it too,
# prefixed "guest| ", and kernel text may be glued onto them
# (kernel-lines.awk).
legacy=0
grep -a -q '^guest| ' "$dir/console.txt" && legacy=1
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
suites=$(grep -a -c '^    # Subtest:' "$dir/kunit.ktap" || true)
done_suites=$(grep -a -cE '^(not )?ok [0-9]+ ' "$dir/kunit.ktap" || true)
if [ "$suites" != "$done_suites" ]; then
	result fail "judge: every KUnit suite that started finished" \
		"$suites suites started but $done_suites finished"
fi
# The KTAP as the kernel's own parser reads it (kunit.py parse): a plan
# that says more results than came (a suite's "1..9" with 6, a top level
# "1..5" with 3 suites), results out of order or with a number missing
# (a lost parameter of a parameterised case: the manifests name each
# case's last one, so this catches the rest), a suite with no result line.
# Its "[ERROR] Test: NAME: WHY" lines are the judge's failures; its
# pass/fail counts are not read here (kunit.awk records every result).
# kunit.py is the tree's own (KUNIT_PY=FILE, else the run's base tree,
# else the other base's: the parser is the same).
kunit_py() {
	if [ -n "${KUNIT_PY:-}" ]; then echo "$KUNIT_PY"; return; fi
	b=$(info base)
	for t in $(info ksrc) "$BUILD/${b:-6.12}/linux" "$BUILD/linux" "$BUILD/7.3/linux"; do
		[ ! -f "$t/tools/testing/kunit/kunit.py" ] || { echo "$t/tools/testing/kunit/kunit.py"; return; }
	done
}
kpy=$(kunit_py)
if [ "$suites" != 0 ]; then
	if [ -z "$kpy" ] || [ ! -f "$kpy" ] || ! command -v python3 > /dev/null 2>&1; then
		result fail "judge: kunit.py parse finds the KTAP well formed" \
			"cannot run kunit.py parse: no kernel tree under $BUILD (make tree) and no KUNIT_PY=FILE, or no python3"
	else
		# The KTAP lines only: another CPU's printk between a suite's
		# "KTAP version 1" and its "# Subtest:" is no KTAP fault.
		grep -a -E "$KTAP_LINES" "$dir/kunit.ktap" |
			python3 "$kpy" parse > "$dir/kunit-parse.txt" 2>&1 || true
		# "[12:34:56] [ERROR] Test: zsmalloc: missing expected subtest!"
		sed -n 's/^\[[0-9:]*\] \[ERROR\] Test: //p' "$dir/kunit-parse.txt" > "$dir/kunit-errors.txt"
		if ! grep -a -q 'Testing complete\.' "$dir/kunit-parse.txt"; then
			result fail "judge: kunit.py parse finds the KTAP well formed" \
				"kunit.py parse did not finish: $(tail -1 "$dir/kunit-parse.txt")"
		elif [ -s "$dir/kunit-errors.txt" ]; then
			result fail "judge: kunit.py parse finds the KTAP well formed" \
				"errors: $(wc -l < "$dir/kunit-errors.txt"), the first: $(head -1 "$dir/kunit-errors.txt")"
		fi
		rm -f "$dir/kunit-errors.txt"
	fi
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
grep -a -qE '^HARNESS: (ok|not ok|skip) kselftest: [^ ]+(: | #|$)' "$report" && runner=0
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
	# A KSRC tree (vm.sh) is judged as the stock kernel or as the series.
	jtree=$(info judged_as)
	[ -n "$jtree" ] || jtree=$(info tree)
	facts="base=${base:-6.12} tree=$jtree flavour=$(info flavour) arch=$(info arch) job=$(info job)"
	facts="$facts cpus=$(info cpus) preempt=${preempt:-unknown}"
	# A run told to do part of the job (one kselftest, no workloads, a
	# KUnit filter): what it was told to leave out is no missing result
	# (manifest.awk: each knob leaves out its own family of results). A
	# knob with an empty value leaves out nothing (the guest runs all).
	# The guest and the kernel take the last value of a knob given twice.
	partial=$(tr ' ' '\n' 2>/dev/null < "$dir/cmdline" |
		awk -F= 'NF > 1 { k = $1; if (!(k in v)) o[++n] = k; v[k] = $0 }
			END { for (i = 1; i <= n; i++) print v[o[i]] }' | grep -a -E \
		'^(harness\.(kselftests|algos|zpools|faults|soak)=.|harness\.workloads=0$|kunit\.filter_glob=.|kunit\.enable=0$)' |
		tr '\n' ' ' | sed 's/ $//' || true)
fi

# Known bugs (the manifest's "bug" rules that apply to this run): a bug
# showed if its sign is on the kernel's console; its kernel reports and
# the results it fails are then expected failures ("xfail"), each listed.
: > "$dir/bugs.tsv"
if [ -n "$manifest" ]; then
	awk -v mode=bugs -v facts="$facts" -v manifest="$manifest" -v mname="${manifest#"$TOP"/}" \
		-f "$TOP/scripts/host/manifest.awk" /dev/null |
		awk -F '\t' 'NF == 4 && $2 ~ /^(sign|report|names|after|fails)$/' > "$dir/bugs.tsv"
fi
# bugs.seen.tsv: the rules of the bugs that showed (bugs.awk, as below).
awk -v step=seen -v rules="$dir/bugs.tsv" -f "$TOP/scripts/host/bugs.awk" "$dir/kernel.txt" > "$dir/bugs.seen.tsv"
[ -s "$dir/bugs.tsv" ] || rm -f "$dir/bugs.tsv" "$dir/bugs.seen.tsv"
KNOWN=' \[known bug [a-z0-9_-]*: expected\]$'
if [ -s "$dir/bugs.seen.tsv" ]; then
	# Its reports: those with the sign on their stack, and those of the
	# tasks they name (bugs.awk); only these are marked expected.
	awk -v step=reports -v rules="$dir/bugs.seen.tsv" -v splats="$SPLATS" -f "$TOP/scripts/host/bugs.awk" \
		"$dir/kernel.txt" > "$dir/bugs.reports.tsv"
	awk -v step=mark -v reports="$dir/bugs.reports.tsv" -v listed="$LISTED" -f "$TOP/scripts/host/bugs.awk" \
		"$dir/splats.txt" > "$dir/splats.known" && mv "$dir/splats.known" "$dir/splats.txt"
fi
if [ -f "$dir/bugs.tsv" ]; then
	awk -v step=rows -v seen="$dir/bugs.seen.tsv" -v partial="$partial" -v ksrc="$(info ksrc)" \
		-v mname="${manifest#"$TOP"/}" \
		-f "$TOP/scripts/host/bugs.awk" "$dir/bugs.tsv" >> "$results"
fi

# The guest must have reported, and reported success, for the job that
# was booted (a harness.job= in APPEND runs another job: its result is not
# this one's).
rc=$(sed -n 's/.*HARNESS-RESULT job=[^ ]* rc=\([0-9]*\).*/\1/p' "$report" | tail -1)
if [ "${rc:-x}" = 0 ]; then
	result pass "judge: the guest job ended with rc=0"
else
	result fail "judge: the guest job ended with rc=0" "rc=${rc:-none (no result reported)}"
fi
rjob=$(sed -n 's/.*HARNESS-RESULT job=\([^ ]*\) rc=.*/\1/p' "$report" | tail -1)
if [ -f "$dir/run.info" ] && [ -n "$rjob" ] && [ "$rjob" != "$(info job)" ]; then
	result fail "judge: the guest ran the job that was booted ($(info job))" \
		"the guest reported job=$rjob (a harness.job= on the command line?)"
fi

# QEMU killed at its time limit (vm.sh leaves timed-out): the run did not
# end, whatever the guest reported before it hung (in sync, in reboot).
if [ -f "$dir/timed-out" ]; then
	result fail "judge: the guest ended before QEMU's time limit" \
		"vm.sh stopped QEMU after $(cat "$dir/seconds" 2>/dev/null || echo '?') s (timed-out)"
fi

nsplat=$(grep -a -v "$LISTED" "$dir/splats.txt" | grep -a -cv "$KNOWN" || true)
nknown=$(grep -a -c "$KNOWN" "$dir/splats.txt" || true)
if [ "$nsplat" != 0 ]; then
	result fail "judge: no kernel report on the console" \
		"$nsplat lines, the first: $(grep -a -v "$LISTED" "$dir/splats.txt" | grep -a -v "$KNOWN" | head -1)"
elif [ "$nknown" != 0 ]; then
	result xfail "judge: no kernel report on the console" \
		"$nknown lines, all a known bug's: $(grep -a "$KNOWN" "$dir/splats.txt" | head -1)"
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
	grep -a -v '^[^	]*	judge: ' "$results" > "$dir/results.ours" || true
	awk -v facts="$facts" -v manifest="$manifest" -v mname="${manifest#"$TOP"/}" -v partial="$partial" \
		-f "$TOP/scripts/host/manifest.awk" "$dir/results.ours" >> "$results"
	rm -f "$dir/results.ours"
elif [ -f "$dir/run.info" ]; then
	# Every job has a manifest: without one nothing would have to run.
	# Its skips are listed too. Runs saved before run.info existed are
	# judged as they were then.
	result fail "judge: a manifest says what job $(info job) must run" \
		"no scripts/manifests/$(info job): write one (scripts/host/manifest-gen.sh RUNDIR drafts it)"
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

# The record as one KTAP stream (run.ktap: a suite for KUnit, the
# kselftests, the job's own checks and the judge) and as JSON
# (results.json, one object a result, with the run's facts), for CI
# systems that read KTAP (ktap.awk). The kernel's parser must count it as
# the judge does: passed, failed, and skipped with the expected failures.
ktap_record() {
	meta=""
	for k in job tree flavour arch base built tree_id project patches; do
		v=$(info "$k" | tr -d '"\\')
		meta="$meta${meta:+, }\"$k\": \"$v\""
	done
	awk -v job="$(info job | sed 's/^$/checks/')" -v json="$dir/results.json" -v meta="$meta" \
		-f "$TOP/scripts/host/ktap.awk" "$results" > "$dir/run.ktap"
}
ktap_record
if [ -n "${kpy:-}" ] && [ -f "$kpy" ]; then
	got=$(python3 "$kpy" parse < "$dir/run.ktap" 2>&1 | sed -n 's/.*Testing complete\. Ran [0-9]* tests: //p' | tail -1)
	count() { c=$(echo "$got" | tr ',' '\n' | sed -n "s/^ *$1: //p" | head -1); echo "${c:-0}"; }
	want="$(grep -a -c '^pass	' "$results" || true) $(grep -a -c '^fail	' "$results" || true) $(grep -a -c '^\(skip\|xfail\)	' "$results" || true)"
	have="$(count passed) $(count failed) $(count skipped)"
	if [ "$want" != "$have" ]; then
		result fail "judge: kunit.py parse counts run.ktap as the judge does" \
			"passed, failed, skipped: the judge $want, kunit.py $have ($got)"
		ktap_record
	fi
fi

# The results: every failure and skip by name, then the counts
# (summary.awk).
awk -v part=list -f "$TOP/scripts/host/summary.awk" "$results"
nlisted=$(grep -a -c "$LISTED" "$dir/splats.txt" || true)
if [ "$nlisted" != 0 ]; then
	say "listed, not failed: $nlisted KCSAN reports elsewhere in the kernel (not in zsmalloc or zram):"
	grep -a "$LISTED" "$dir/splats.txt" | sed "s/$LISTED//; s/^/    /"
fi
if [ "$nsplat" != 0 ]; then
	say "kernel reports on the console ($nsplat lines, first ones):"
	grep -a -v "$LISTED" "$dir/splats.txt" | grep -a -v "$KNOWN" | head -10 | sed 's/^/    /'
fi
if [ "$nknown" != 0 ]; then
	say "a known bug's kernel reports, expected ($nknown lines, first ones):"
	grep -a "$KNOWN" "$dir/splats.txt" | head -4 | sed 's/^/    /'
fi
[ -z "$built" ] || say "booted: ${booted:-?}; built from tree $(info tree_id) ($(info tree)), project $(info project), patches $(info patches)"
[ -z "$(info ksrc)" ] || say "the tree: KSRC=$(info ksrc), judged as $(info judged_as)"
[ -n "$manifest" ] || [ -f "$dir/run.info" ] ||
	say "note: a run saved before run.info: no manifest, what must run is not checked, and no skip is allowed"
awk -v part=counts -f "$TOP/scripts/host/summary.awk" "$results"
passed=$(grep -a -c '^pass	' "$results" || true)
failed=$(grep -a -c '^fail	' "$results" || true)
skipped=$(grep -a -c '^skip	' "$results" || true)
xfailed=$(grep -a -c '^xfail	' "$results" || true)
line="$passed passed, $failed failed, $skipped skipped"
[ "$xfailed" = 0 ] || line="$line, $xfailed expected failures"
echo "$line" > "$dir/summary"
say "$line"
[ "$failed" = 0 ]
