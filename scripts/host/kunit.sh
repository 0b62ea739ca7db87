#!/bin/sh
# The series' KUnit suites with the kernel's own runner, as a kernel
# developer runs them (the .kunitconfig files in the series):
#   kunit.sh [TREE]          build and run (make kunit)
# in the TREE (patched) of BASE: tools/testing/kunit/kunit.py run on
# x86_64 with 2 vCPUs (the read-context cases need a second CPU; UML has
# one), drivers/block/zram/.kunitconfig (zram's suites and zsmalloc's).
# KUNIT_FILTER=SUITE.CASE runs only those cases (a glob: kunit.py's
# filter_glob);
# KUNIT_RUNS=N runs them N times in a row on one build (each run counts);
# KUNIT_DEBUG=1 adds the debug flavour's checks (configs/debug.config:
# KASAN, lockdep, atomic-sleep checks, forced kmap_local, ...), in a build
# folder of its own.
# The results are kunit.py's own, from its KTAP parser, and a kernel report
# (scripts/guest/splats.ere) on the console fails the run. Prints
# "N passed, N failed, N skipped"; exits non-zero on any failure.
. "$(dirname "$0")/lib.sh"

tree=${1:-patched}
src=$(tree_dir "$tree")
# The base worktree is made on first use (tree.sh).
[ "$tree" != base ] || [ -d "$src" ] || sh "$TOP/scripts/host/tree.sh" base
[ -d "$src" ] || die "kunit: no tree $src: run 'make tree BASE=$BASE' first"
config=$src/drivers/block/zram/.kunitconfig
if [ ! -f "$config" ]; then
	[ "$tree" != ksrc ] ||
		die "kunit: KSRC=$src has no drivers/block/zram/.kunitconfig: the series' suites are not in it"
	die "kunit: $tree has no drivers/block/zram/.kunitconfig (is it base + patches/$BASE/? the bases have no suites)"
fi
command -v qemu-system-x86_64 >/dev/null 2>&1 || die "kunit: qemu-system-x86_64 missing: run 'make setup'"
flavour=kunit
[ "${KUNIT_DEBUG:-0}" = 0 ] || flavour=kunit-debug
out=$(out_dir "$tree" "$flavour")
mkdir -p "$out"
need_space 1536 "kunit: the $tree-$flavour build"
runs=${KUNIT_RUNS:-1}
case "$runs" in "" | *[!0-9]* | 0) die "kunit: KUNIT_RUNS must be a positive number, not '$runs'" ;; esac

cc=gcc
command -v ccache >/dev/null 2>&1 && cc="ccache gcc"
export CCACHE_DIR=${CCACHE_DIR:-$BUILD/ccache} CCACHE_BASEDIR=$BUILD CCACHE_NOHASHDIR=true

# kunit.py (7.3) asks QEMU for "-accel kvm -accel hvf -accel tcg", and
# nested KVM hangs in early boot here: unless the harness's probe found KVM
# working (build/accel, scripts/host/vm.sh) or ACCEL=kvm, kunit.py gets a
# qemu-system-x86_64 that drops its -accel arguments and runs under TCG.
accel=${ACCEL:-auto}
[ "$accel" != auto ] || accel=$(cat "$BUILD/accel" 2>/dev/null || echo tcg)
if [ "$accel" != kvm ]; then
	qemu=$(command -v qemu-system-x86_64)
	mkdir -p "$out/bin"
	cat > "$out/bin/qemu-system-x86_64" <<-EOF
	#!/bin/sh
	# Written by scripts/host/kunit.sh: kunit.py's QEMU, under TCG.
	drop=0
	for a do
		shift
		if [ "\$drop" = 1 ]; then drop=0; continue; fi
		if [ "\$a" = -accel ]; then drop=1; continue; fi
		set -- "\$@" "\$a"
	done
	exec $qemu -accel tcg,thread=multi "\$@"
	EOF
	chmod +x "$out/bin/qemu-system-x86_64"
	PATH=$out/bin:$PATH
	export PATH
fi

# kunit.py works from the tree; --build_dir is relative to it.
rel=$(realpath --relative-to="$src" "$out")
kunit() { (cd "$src" && "$PY3" tools/testing/kunit/kunit.py "$@"); }

# The debug options, each as kunit.py's --kconfig_add (it checks that
# each one is in the .config it made).
set --
if [ "$flavour" = kunit-debug ]; then
	for opt in $(grep -E '^CONFIG_[A-Z0-9_]+=' "$TOP/configs/debug.config"); do
		set -- "$@" --kconfig_add "$opt"
	done
fi
say "kunit: building $tree ($(git -C "$src" rev-parse --short=12 'HEAD^{tree}' 2>/dev/null || echo nogit)) in $out"
kunit build --arch=x86_64 --kunitconfig=drivers/block/zram --build_dir="$rel" \
	--jobs="$(nproc)" --make_options "CC=$cc" "$@" > "$out/build.log" 2>&1 ||
	{ tail -n 30 "$out/build.log"; die "kunit: the build failed: $out/build.log"; }

p=0 f=0 s=0 n=0
while [ "$n" -lt "$runs" ]; do
	n=$((n + 1))
	log=$out/run-$n.log
	# kunit.py's own parse of the whole console, in $log, trips on
	# another CPU's printk inside a suite's header (an input device, the
	# TSC's calibration): its results are read from the KTAP lines alone,
	# by the same parser (as parse.sh does).
	# no_timer_check: a vCPU starved by a loaded host fails the IO-APIC
	# timer check at boot ("IO-APIC + timer doesn't work!", a panic).
	kunit exec --arch=x86_64 --build_dir="$rel" --timeout=1800 \
		--qemu_args='-smp 2' --kernel_args=no_timer_check \
		${KUNIT_FILTER:+"$KUNIT_FILTER"} > "$log" 2>&1
	cp "$out/test.log" "$out/run-$n.console" 2>/dev/null || : > "$out/run-$n.console"
	grep -a -E "$KTAP_LINES" "$out/run-$n.console" | kunit parse > "$out/run-$n.parse" 2>&1
	rc=$?
	# "Testing complete. Ran 285 tests: passed: 280, skipped: 5"
	line=$(grep -a 'Testing complete\. Ran' "$out/run-$n.parse" | tail -n 1)
	rp=$(echo "$line" | sed -n 's/.*passed: \([0-9]*\).*/\1/p')
	rf=$(echo "$line" | sed -n 's/.*failed: \([0-9]*\).*/\1/p')
	rs=$(echo "$line" | sed -n 's/.*skipped: \([0-9]*\).*/\1/p')
	rc_=$(echo "$line" | sed -n 's/.*crashed: \([0-9]*\).*/\1/p')
	re=$(echo "$line" | sed -n 's/.*errors: \([0-9]*\).*/\1/p')
	rf=$(( ${rf:-0} + ${rc_:-0} + ${re:-0} ))
	if [ -z "$line" ]; then
		say "kunit: run $n: kunit.py parse printed no summary (exit $rc): $log"
		tail -n 20 "$log"
		rf=$((rf + 1))
	elif [ "$rc" != 0 ] && [ "$rf" = 0 ]; then
		say "kunit: run $n: kunit.py parse exited $rc: $out/run-$n.parse"
		rf=1
	fi
	reports=$(grep -a -c -E -f "$TOP/scripts/guest/splats.ere" "$out/run-$n.console" 2>/dev/null || true)
	if [ "${reports:-0}" != 0 ]; then
		say "kunit: run $n: $reports kernel report lines on the console:"
		grep -a -E -f "$TOP/scripts/guest/splats.ere" "$out/run-$n.console" | head -n 5
		rf=$((rf + 1))
	fi
	grep -a -E '^\[[0-9:]+\] +(\[FAILED\]|\[CRASHED\]|\[SKIPPED\]|\[ERROR\])' "$out/run-$n.parse" | head -n 20
	say "kunit: run $n of $runs: ${rp:-0} passed, $rf failed, ${rs:-0} skipped"
	p=$((p + ${rp:-0})) f=$((f + rf)) s=$((s + ${rs:-0}))
done
say "$p passed, $f failed, $s skipped"
[ "$f" = 0 ]
