#!/bin/sh
# The reliability matrix (make matrix): the patched tree built and booted in
# QEMU in several flavours, each running the test job (the KUnit suites at
# boot, the zram kselftests, the verified swap workload, zswap), judged by
# parse.sh. Writes bench/results/matrix.md: one row per flavour, the last
# result of each (a flavour not run this time keeps its older row).
#
#   flavour        arch    pages  guest
#   i386-highmem   i386    4 KiB  2 GiB, PAE: zsmalloc's pages in highmem
#   arm64-16k      arm64  16 KiB  1 GiB, qemu-system-aarch64 -M virt, TCG
#   rt             x86_64  4 KiB  1 GiB, PREEMPT_RT
#   arm64          arm64   4 KiB  1 GiB
#   debug          x86_64  4 KiB  768 MiB, the kernel of make test
#   kcsan          x86_64  4 KiB  1 GiB, KCSAN: a data race in zsmalloc or
#                                 zram fails it, one elsewhere is listed
# Every guest boots with fio (initramfs-fio.cpio.gz; for i386 and arm64
# Debian's fio of that architecture, see setup.sh matrix).
#
# BASE=7.3 (lib.sh) runs 7.3's trees; TREE=base the base itself (stock
# 7.3, or 6.12.117). Their rows are named BASE-TREE-FLAVOUR ("7.3-base-kcsan"),
# beside the 6.12 series' rows, named by the flavour alone.
#
# Environment: MATRIX (the flavours, in that order by default), CPUS (2),
#   TIMEOUT (per boot, s; 3600), APPEND (extra kernel arguments), JOBS
#   (kernel.sh), ACCEL (vm.sh; arm64 always runs under TCG), REJUDGE=1
#   (no build or boot: judge each flavour's last run again with today's
#   parse.sh and manifests, and rewrite its row; its times stay).
set -eu
. "$(dirname "$0")/lib.sh"

ALL="i386-highmem arm64-16k rt arm64 debug kcsan"
tree=${TREE:-patched}
cmd="make matrix"
[ "$BASE" = 6.12 ] || cmd="$cmd BASE=$BASE"
[ "$tree" = patched ] || cmd="$cmd TREE=$tree"
cmd="$cmd${MATRIX:+ MATRIX=\"$MATRIX\"}${APPEND:+ APPEND=\"$APPEND\"}${REJUDGE:+ REJUDGE=$REJUDGE}"
MATRIX=${MATRIX:-$ALL}
results=$TOP/bench/results/matrix.md
rows=$BUILD/matrix
mkdir -p "$rows"
# The rows of earlier runs that this machine has no record of (a clone):
# taken from the committed table, so that a run of one flavour keeps the
# others'.
if [ -f "$results" ]; then
	awk -v rows="$rows" -f "$TOP/scripts/host/matrix-table.awk" "$results"
fi

# Memory and kernel arguments of each flavour's guest. PREEMPT_RT has no
# preempt= (no PREEMPT_DYNAMIC); the others run preempt=full as make test.
guest_mem() {
	case "$1" in
	i386-highmem) echo 2048 ;;
	debug) echo 768 ;;
	*) echo 1024 ;;
	esac
}
# The swap workload leaves harness.limit MiB (64) unlocked, and its
# min_free_kbytes of RAM/64 comes out of that: at 2 GiB (i386) 32 MiB, too
# much of 64 to hold 150% of it, so that guest leaves 128.
guest_append() {
	case "$1" in
	rt) echo "" ;;
	i386-highmem) echo "preempt=full harness.limit=128" ;;
	*) echo "preempt=full" ;;
	esac
}

# The row's name: the flavour for the 6.12 series, else BASE-TREE-FLAVOUR.
key() {
	if [ "$BASE" = 6.12 ] && [ "$tree" = patched ]; then echo "$1"; else echo "$BASE-$tree-$1"; fi
}

# row FLAVOUR STATUS: write the flavour's table row from its last run
# (STATUS: "ran", or what stopped it before the run).
row() {
	rname=$(key "$1") status=$2 out=$(out_dir "$tree" "$1") arch=$(flavour_arch "$1")
	run=$out/matrix
	shift=$(sed -n 's/^CONFIG_PAGE_SHIFT=//p' "$out/.config" 2>/dev/null)
	pages="$(( 1 << (${shift:-12} - 10) )) KiB"
	# The release names the source tree (kernel.sh); the run records the
	# project commit and the series (project_id in lib.sh), each with
	# "-dirty" if it differed from what is committed.
	kver=$(cat "$out/include/config/kernel.release" 2>/dev/null || echo "?")
	if [ -f "$run/run.info" ]; then
		kver="$kver (project $(sed -n 's/^project=//p' "$run/run.info"),"
		kver="$kver patches $(sed -n 's/^patches=//p' "$run/run.info"))"
	fi
	# When it ran (run.info: a row judged again keeps its date), else now.
	date=""
	[ "$status" != ran ] ||
		date=$(sed -n 's/^date=\(.*\)T\([0-9]*:[0-9]*\).*/\1 \2 UTC/p' "$run/run.info" 2>/dev/null)
	[ -n "$date" ] || date=$(date -u '+%Y-%m-%d %H:%M UTC')
	base=$(dpkg-query -W -f='${Version}' "$SRC_PKG" 2>/dev/null || echo "?")
	if [ "$status" != ran ]; then
		printf '| %s | %s | %s | %s | - | - | - | - | **FAIL** (%s) | %s | %s |\n' \
			"$rname" "$arch" "$pages" "$kver" "$status" "$date" "$base" > "$rows/$rname.row"
		return
	fi
	# parse.sh's record of the run (results.tsv: status, name, detail):
	# the KUnit, kselftest and swap columns (matrix-row.awk).
	cols=$(awk -f "$TOP/scripts/host/matrix-row.awk" "$run/results.tsv")
	ksum=$(echo "$cols" | cut -f1) kself=$(echo "$cols" | cut -f2) swap=$(echo "$cols" | cut -f3)
	# What failed the run, then the KCSAN reports elsewhere in the kernel
	# that parse.sh only lists (the kcsan flavour).
	listed=' \[KCSAN elsewhere: listed, not failed\]$'
	first() { head -1 | sed "s/$listed//" | cut -c1-100 | tr '|`' '/ '; }
	known=' \[known bug [a-z0-9_-]*: expected\]$'
	nsplat=$(grep -v "$listed" "$run/splats.txt" | grep -cv "$known" || true)
	nknown=$(grep -c "$known" "$run/splats.txt" || true)
	nlisted=$(grep -c "$listed" "$run/splats.txt" || true)
	splat=""
	[ "$nsplat" = 0 ] || splat="$nsplat lines: \`$(grep -v "$listed" "$run/splats.txt" | grep -v "$known" | first)\`"
	[ "$nknown" = 0 ] || splat="${splat:+$splat; }$nknown lines of a known bug, expected:"
	[ "$nknown" = 0 ] || splat="$splat \`$(grep "$known" "$run/splats.txt" | sed "s/$known//" | first)\` ($(grep -o "$known" "$run/splats.txt" | sort -u | sed 's/^ \[known bug \([^:]*\):.*/\1/' | tr '\n' ' ' | sed 's/ $//'))"
	[ "$nlisted" = 0 ] || splat="${splat:+$splat; }$nlisted KCSAN elsewhere, listed, not failed:"
	[ "$nlisted" = 0 ] || splat="$splat \`$(grep "$listed" "$run/splats.txt" | first)\`"
	splat=${splat:-none}
	verdict=$(cat "$run/summary")
	if [ -f "$run/failed" ]; then verdict="**FAIL** ($verdict)"; else verdict="PASS ($verdict)"; fi
	printf '| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n' \
		"$rname" "$arch" "$pages" "$kver" "$ksum" "$kself" "$swap" "$splat" "$verdict" "$date" "$base" > "$rows/$rname.row"
}

# Build, boot and judge one flavour; its row and its timings.
one() {
	f=$1 out=$(out_dir "$tree" "$1")
	[ -f "$TOP/configs/$f.config" ] || die "no flavour $f (configs/$f.config)"
	say "matrix: ==== $f ($(flavour_arch "$f"))"
	if [ -n "${REJUDGE:-}" ]; then
		run=$out/matrix
		[ -f "$run/console.log" ] || die "matrix: REJUDGE: no run of $f to judge ($run)"
		rm -f "$run/failed"
		sh "$TOP/scripts/host/parse.sh" "$run" > "$run/parse.log" || : > "$run/failed"
		[ ! -f "$run/timed-out" ] || : > "$run/failed"
		cat "$run/parse.log"
		row "$f" ran
		[ ! -f "$run/failed" ]
		return
	fi
	t0=$(now)
	if ! sh "$TOP/scripts/host/kernel.sh" "$tree" "$f"; then
		row "$f" "kernel build failed: $out/build.log"; return 1
	fi
	t1=$(now)
	if ! sh "$TOP/scripts/host/initramfs.sh" "$tree" "$f"; then
		row "$f" "initramfs failed"; return 1
	fi
	rc=0
	rm -rf "$out/matrix"
	# Every flavour boots with fio (initramfs-fio.cpio.gz), as make test does:
	# the kselftests zram04, zram08 and zram09 need it.
	MEM=$(guest_mem "$f") FIO=1 RUN=matrix TIMEOUT=${TIMEOUT:-3600} \
		APPEND="$(guest_append "$f") ${APPEND:-}" \
		sh "$TOP/scripts/host/vm.sh" "$tree" "$f" test || rc=$?
	t2=$(now)
	run=$out/matrix
	[ -f "$run/console.log" ] || { row "$f" "no console log (vm.sh rc=$rc)"; return 1; }
	rm -f "$run/failed"
	sh "$TOP/scripts/host/parse.sh" "$run" > "$run/parse.log" || : > "$run/failed"
	# A timeout fails the row; the judge sees every other failure (job.sh).
	[ $rc != 124 ] || : > "$run/failed"
	cat "$run/parse.log"
	row "$f" ran
	echo "| $(key "$f") | $(( t1 - t0 )) s | $(( t2 - t1 )) s | $(guest_mem "$f") MiB, $CPUS CPUs, $(cat "$run/accel"), \`$(cat "$run/cmdline")\` |" \
		> "$rows/$(key "$f").time"
	[ ! -f "$run/failed" ]
}

CPUS=${CPUS:-2}
export CPUS
failed=""
for f in $MATRIX; do
	one "$f" || failed="$failed $f"
done

# cat_rows EXT: the saved rows/FLAVOUR.EXT files, the flavours of this run
# first, in order, then any others from earlier runs.
cat_rows() {
	seen=""
	for f in $ALL $(ls "$rows" | sed -n "s/\\.$1\$//p"); do
		case " $seen " in *" $f "*) continue ;; esac
		seen="$seen $f"
		[ ! -f "$rows/$f.$1" ] || cat "$rows/$f.$1"
	done
}

# The table: every flavour that has a row, the default ones first.
{
	echo "# Reliability matrix"
	echo
	echo "The 6.12 series (\`build/linux\`: 6.12.117 + \`patches/6.12/\`; rows named by"
	echo "the flavour) and the other trees (rows BASE-TREE-FLAVOUR: \`7.3-base-\` is stock"
	echo "7.3.4, \`7.3-patched-\` is 7.3.4 + \`patches/7.3/\`; the kernel column names its"
	echo "tree id, the project commit and \`git rev-parse HEAD:patches/BASE\`,"
	echo "each with -dirty if the run's files differed) built and booted in QEMU in each flavour, running the"
	echo "test job: the KUnit suites at boot (zsmalloc's), the zram kselftests"
	echo "through the kselftest runner, the verified swap workload (lz4, zstd) and"
	echo "zswap on zsmalloc, zbud and z3fold (7.3: zsmalloc alone). Any kernel splat on the console fails a flavour,"
	echo "but for a KCSAN data race that zsmalloc and zram did not make (neither access made"
	echo "by one of their functions or by a function one of theirs called: scripts/host/splats.awk): that one is listed,"
	echo "and for the reports of a known bug of the kernel (the \"bug\" rules of"
	echo "\`scripts/manifests/test\`: stock 7.3.4's lockup), expected failures where its sign shows."
	echo "Written by \`scripts/host/matrix.sh\`; the last run was:"
	echo
	echo "    $cmd"
	echo
	echo "| flavour | arch | page size | kernel | KUnit | kselftests | swap workload | splats | verdict | date | base version |"
	echo "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |"
	cat_rows row
	echo
	echo "Build and boot times (this machine: 2 cores, TCG), guest and kernel arguments:"
	echo
	echo "| flavour | kernel build | boot and test job | guest |"
	echo "| --- | --- | --- | --- |"
	cat_rows time
	echo
	echo "Flavours (configs/FLAVOUR.config on configs/vm.config and configs/vm-ARCH.config):"
	echo
	for f in $ALL; do
		printf -- '- `%s`: %s\n' "$f" "$(sed -n '/^# CONFIG_/q; /^#/!q; /^# ARCH:/d; s/^# //p' \
			"$TOP/configs/$f.config" | tr '\n' ' ' | sed 's/^The "[^"]*" flavour[^:]*: //; s/ *$//')"
	done
} > "$results.tmp"
mv "$results.tmp" "$results"
say "matrix: $results"
cat "$results"
[ -z "$failed" ] || die "matrix: failed:$failed"
