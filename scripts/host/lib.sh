# Shared helpers for the host scripts (sourced, POSIX sh).
# shellcheck disable=SC2034 # its variables are for the scripts that source it
TOP=$(cd "$(dirname "$0")/../.." && pwd)
BUILD=${BUILD:-$TOP/build}

# Debian's Python, with Debian's python3-scipy (the reports' Student's t,
# scripts/host/ttest.py): not a python3 of another install earlier in PATH.
PY3=/usr/bin/python3

# The KTAP lines of a console, for kunit.py parse (parse.sh, kunit.sh):
# another CPU's printk between a suite's "KTAP version 1" and its
# "# Subtest:" is no KTAP fault, but kunit.py's parser loses its nesting.
KTAP_LINES='^ *(KTAP version [0-9]+|TAP version [0-9]+|# Subtest: |[0-9]+\.\.[0-9]+|(not )?ok [0-9]+ )'

say() { printf '%s\n' "$*"; }
die() { printf 'error: %s\n' "$*" >&2; exit 1; }

# The base the series is written against: BASE=6.12 (the default: Debian's
# 6.12 LTS source) or BASE=7.3 (mainline, Debian's trixie-backports). Each
# has its own series (patches/BASE/), its own trees and kernels (WORK:
# build/ for 6.12, as before there were two bases, build/7.3/ for 7.3) and
# its own config fragments on top of the shared ones (configs/BASE/).
# ccache, the initramfs userland and the foreign architectures' userland
# stay in build/, shared.
BASE=${BASE:-6.12}
case "$BASE" in
6.12) SRC_PKG=linux-source-6.12 SRC_VER=6.12.117-1~deb12u1 SRC_SUITE=bookworm-security
	SRC_NAME="Linux 6.12.117" ;;
7.3) SRC_PKG=linux-source-7.3 SRC_VER=7.3.4-1~bpo13+1 SRC_SUITE=trixie-backports
	SRC_NAME="Linux 7.3.4" ;;
*) die "unknown BASE '$BASE' (6.12 or 7.3)" ;;
esac
export BASE
# The base's folder, from BUILD and BASE as they are when it is called
# (tree-selftest.sh points BUILD at a scratch folder after sourcing this).
work_dir() {
	if [ "$BASE" = 6.12 ]; then echo "$BUILD"; else echo "$BUILD/$BASE"; fi
}
WORK=$(work_dir)
# The kernel's git repository: tag base and the series on top (the
# "patched" tree); the base tree and the others are worktrees of it.
# (TREE, the make variable, names a tree: patched or base.)
LINUX_REPO=$WORK/linux
SRC_TARBALL=${SRC_TARBALL:-/usr/src/$SRC_PKG.tar.xz}
# The series (tree.sh); the tree check's self-test points it elsewhere.
# A base may carry up to three series, applied in this order, each its
# own posting with its own cover letter: PATCHES-fixes (fixes for the
# stable trees, sent first), PATCHES (the feature series) and
# PATCHES-selftests (tests for linux-kselftest). PATCHES is always one;
# the other two where their folders exist.
PATCHES=${PATCHES:-$TOP/patches/$BASE}
series_dirs() {
	for _d in "$PATCHES-fixes" "$PATCHES" "$PATCHES-selftests"; do
		[ "$_d" = "$PATCHES" ] || [ -d "$_d" ] || continue
		echo "$_d"
	done
}
# Print a command, then run it.
run() { printf '+ %s\n' "$*"; "$@"; }

# KSRC=DIR: a kernel tree of the user's own (a mainline checkout, an
# Android or ChromeOS tree, the series applied to another base) instead
# of Debian's tarball: the tree named "ksrc" (make sets TREE=ksrc). It is
# built out of tree (O=, so DIR must be clean: no in-tree build), with
# the same config fragments, jobs and judge. Its version picks the base
# whose fragments and verdicts fit: 6.12 for 6.12.y, 7.3 for 6.15 and
# later (the object API and preemptible streams are upstream there).
if [ -n "${KSRC:-}" ]; then
	[ -f "$KSRC/Makefile" ] && [ -f "$KSRC/mm/zsmalloc.c" ] &&
		[ -f "$KSRC/drivers/block/zram/zram_drv.c" ] ||
		die "KSRC=$KSRC is not a Linux source tree with zsmalloc and zram (no Makefile, mm/zsmalloc.c or drivers/block/zram/zram_drv.c)"
	KSRC=$(cd "$KSRC" && pwd -P)
	_kv=$(sed -n 's/^VERSION = \([0-9]*\)$/\1/p' "$KSRC/Makefile" | head -1)
	_kp=$(sed -n 's/^PATCHLEVEL = \([0-9]*\)$/\1/p' "$KSRC/Makefile" | head -1)
	case "$_kv.$_kp" in
	6.12) _kb=6.12 ;;
	6.1[5-9] | 6.[2-9][0-9] | [7-9].*) _kb=7.3 ;;
	*) die "KSRC=$KSRC is Linux $_kv.$_kp: the harness has configs and verdicts for 6.12 (BASE=6.12) and 6.15 or later (BASE=7.3)" ;;
	esac
	[ "$_kb" = "$BASE" ] || die "KSRC=$KSRC is Linux $_kv.$_kp: run it with BASE=$_kb"
	export KSRC
fi
# What the judge holds the KSRC tree to: the series' verdicts ("patched")
# where it has the series' read contexts (struct zcomp_rctx), the stock
# kernel's ("base": what it lacks skips, its known bugs are expected
# failures) where it has not.
ksrc_judged() {
	if grep -qs '^struct zcomp_rctx {' "$KSRC/drivers/block/zram/zcomp.h"; then
		echo patched
	else
		echo base
	fi
}
# The verdicts a tree is held to: its own name, but for ksrc.
judged_tree() {
	if [ "$1" = ksrc ]; then ksrc_judged; else echo "$1"; fi
}
# The worktree build/check/linux (BASE 7.3: build/7.3/check/linux), for
# building single commits of the series: made at the base if missing;
# one with uncommitted changes stops the caller (check-series.sh,
# check-static.sh).
check_worktree() {
	cw=$(tree_dir check)
	if [ -d "$cw" ] && git -C "$cw" rev-parse -q --verify HEAD > /dev/null 2>&1; then
		[ -z "$(git -C "$cw" status --porcelain --untracked-files=no)" ] ||
			die "$cw has uncommitted changes"
	else
		run git -C "$LINUX_REPO" worktree prune
		run git -C "$LINUX_REPO" worktree add -q --detach "$cw" base
	fi
}
# Seconds since the epoch, for stage timings.
now() { date +%s; }

# need_space MIB WHAT: stop unless the build folder's file system has MIB
# MiB free. A kernel build that fills the disk fails late, in the link,
# with "No space left on device" and a half-written vmlinux; this says it
# first, with what to free.
need_space() {
	mkdir -p "$BUILD"
	_free=$(df -Pm "$BUILD" | awk 'NR == 2 { print $4 }')
	[ -z "$_free" ] || [ "$_free" -ge "$1" ] ||
		die "$2 needs $1 MiB free on the disk of $BUILD, which has $_free MiB:
free some (old clones of the project, build/out/* kernels no longer used) and run it again"
}

# Source folder for a tree name: "patched" is the git tree, "base" a worktree on tag base,
# "mid" a worktree on a commit of the series (scripts/host/bench-zram.sh sets it up),
# "check" another one that scripts/host/check-series.sh moves along the series,
# "rmutex" the series with bench/variants/read-stream-mutex.patch on top,
# "nctx" the series with bench/variants/7.3/read-no-context.patch on top
# (scripts/host/bench-trees.sh), "kmi" the 6.12 series up to its frozen-KMI
# stopping point (kmi_worktree, below), "dev" and "dev0" to "dev9" worktrees
# of the series that carry changes under measurement (made by hand: git -C
# build/linux worktree add --detach ../dev/linux; then bench-mem
# KERNELS="base patched dev").
tree_dir() {
	case "$1" in
	patched) echo "$(work_dir)/linux" ;;
	base) echo "$(work_dir)/base/linux" ;;
	mid) echo "$(work_dir)/mid/linux" ;;
	check) echo "$(work_dir)/check/linux" ;;
	rmutex) echo "$(work_dir)/rmutex/linux" ;;
	nctx) echo "$(work_dir)/nctx/linux" ;;
	kmi) echo "$(work_dir)/kmi/linux" ;;
	dev | dev[0-9]) echo "$(work_dir)/$1/linux" ;;
	ksrc) [ -n "${KSRC:-}" ] || die "TREE=ksrc: say which tree, KSRC=DIR"
		echo "$KSRC" ;;
	*) die "unknown tree '$1' (use base, mid, rmutex, nctx, check, kmi, dev, dev0-dev9, patched, or KSRC=DIR)" ;;
	esac
}

# The first patch of the 6.12 series that a tree with a frozen KMI
# (Android's GKI) cannot take: it changes struct zpool_driver, and the
# patches after it remove exports and renumber enum cpuhp_state. "kmi" is
# the series up to the patch before it (the 6.12 cover letter, "Where a
# tree with a frozen KMI stops"): make test TREE=kmi.
KMI_BREAK="mm: zpool: add object read/write operations"

# kmi_worktree: put build/kmi/linux on that commit (made or moved there).
kmi_worktree() {
	[ "$BASE" = 6.12 ] ||
		die "TREE=kmi: only the 6.12 series has a frozen-KMI stopping point"
	_sha=$(git -C "$LINUX_REPO" log --format=%H --grep="^$KMI_BREAK\$" base..HEAD)
	[ -n "$_sha" ] || die "TREE=kmi: no commit '$KMI_BREAK' in $LINUX_REPO"
	_wt=$(tree_dir kmi)
	if [ -d "$_wt" ] && git -C "$_wt" rev-parse -q --verify HEAD >/dev/null 2>&1; then
		[ -z "$(git -C "$_wt" status --porcelain --untracked-files=no)" ] ||
			die "TREE=kmi: $_wt has uncommitted changes"
		run git -C "$_wt" checkout -q --detach "$_sha^"
	else
		run git -C "$LINUX_REPO" worktree prune
		run git -C "$LINUX_REPO" worktree add -q --detach "$_wt" "$_sha^"
	fi
}

# Build folder of a kernel: beside its tree, so that every kernel sees its
# sources at the same relative path (../../linux) and ccache, with
# CCACHE_BASEDIR, shares the objects of unchanged files between trees:
# build/out/patched-FLAVOUR, build/base/out/base-FLAVOUR, build/mid/out/mid-FLAVOUR.
# A KSRC tree's kernels are built under build/ (build/7.3/ for 7.3), in a
# folder named after the tree's path: build/ksrc/NAME-CKSUM/ksrc-FLAVOUR.
out_dir() {
	if [ "$1" = ksrc ]; then
		_k=$(tree_dir ksrc)
		echo "$(work_dir)/ksrc/$(basename "$_k")-$(printf %s "$_k" | cksum | cut -d' ' -f1)/ksrc-$2"
		return
	fi
	echo "$(dirname "$(tree_dir "$1")")/out/$1-$2"
}

# The architecture of a flavour: the "# ARCH: NAME" line of its config
# fragment (x86_64 if it has none; the vm flavour is x86_64).
flavour_arch() {
	a=""
	[ -f "$TOP/configs/$1.config" ] &&
		a=$(sed -n 's/^# ARCH: *\([a-z0-9_]*\).*$/\1/p' "$TOP/configs/$1.config" | head -1)
	echo "${a:-x86_64}"
}

# What building and booting a kernel of architecture $1 takes:
#   KARCH    make's ARCH=      CROSS  make's CROSS_COMPILE= (empty: host gcc)
#   KIMAGE   the kernel image, relative to the build folder
#   QEMU     the system emulator   CONSOLE  the kernel console's name
#   REPORT   the guest's report channel (/dev/NAME; see scripts/guest/init)
#   DEBARCH  Debian's name for the userland of the initramfs
#   TARGET_CC  compiler for the initramfs's own static tools
# and QEMU's arguments for it (vm.sh):
#   QEMU_MACHINE  the machine ("" for QEMU's default)
#   QEMU_CPU      the CPU under TCG (KVM: the host's). i386: QEMU's "max"
#                 says AuthenticAMD, family 6, which a 32-bit kernel takes
#                 for an Athlon and WARNs is not fit for SMP. arm64:
#                 pauth-impdef, QEMU's own pointer authentication, much
#                 faster under TCG.
#   QEMU_REPORT   how the report channel is attached: "serial" (the second
#                 serial port, ttyS1) or "virtconsole" (a virtio console,
#                 hvc0: arm64's virt machine has one PL011)
arch_vars() {
	case "$1" in
	x86_64) KARCH=x86_64 CROSS="" KIMAGE=arch/x86/boot/bzImage QEMU=qemu-system-x86_64
		CONSOLE=ttyS0 REPORT=ttyS1 DEBARCH=amd64 TARGET_CC=gcc
		QEMU_MACHINE="" QEMU_CPU=max QEMU_REPORT=serial ;;
	i386) KARCH=i386 CROSS="" KIMAGE=arch/x86/boot/bzImage QEMU=qemu-system-i386
		CONSOLE=ttyS0 REPORT=ttyS1 DEBARCH=i386 TARGET_CC=i686-linux-gnu-gcc
		QEMU_MACHINE="" QEMU_CPU=max,vendor=GenuineIntel QEMU_REPORT=serial ;;
	arm64) KARCH=arm64 CROSS=aarch64-linux-gnu- KIMAGE=arch/arm64/boot/Image
		QEMU=qemu-system-aarch64 CONSOLE=ttyAMA0 REPORT=hvc0 DEBARCH=arm64
		TARGET_CC=aarch64-linux-gnu-gcc
		QEMU_MACHINE=virt QEMU_CPU=max,pauth-impdef=on QEMU_REPORT=virtconsole ;;
	*) die "unknown architecture '$1' (x86_64, i386 or arm64)" ;;
	esac
}

# The project as a reader can resolve it: its commit ("-dirty" if the
# working tree differs from it) and the series (git rev-parse HEAD:patches,
# "-dirty" if patches/ differs from that), as KEY=VALUE lines. patches is
# git rev-parse HEAD:patches/BASE (with fixes and selftests series, each
# folder's, in order, joined by "+").
project_id() {
	c=$(git -C "$TOP" rev-parse --short=12 HEAD 2>/dev/null || echo unknown)
	[ -z "$(git -C "$TOP" status --porcelain --untracked-files=no 2>/dev/null)" ] || c="$c-dirty"
	# More than one series: the ids of each folder, joined by "+".
	pt=""
	for _d in $(series_dirs); do
		_d=${_d#"$TOP"/}
		_i=$(git -C "$TOP" rev-parse --short=12 "HEAD:$_d" 2>/dev/null || echo unknown)
		[ -z "$(git -C "$TOP" status --porcelain -- "$_d" 2>/dev/null)" ] || _i="$_i-dirty"
		pt="${pt:+$pt+}$_i"
	done
	echo "project=$c"
	echo "base=$BASE"
	echo "patches=$pt"
}
