# Shared helpers for the host scripts (sourced, POSIX sh).
TOP=$(cd "$(dirname "$0")/../.." && pwd)
BUILD=${BUILD:-$TOP/build}
TREE=$BUILD/linux
SRC_TARBALL=${SRC_TARBALL:-/usr/src/linux-source-6.12.tar.xz}
# The series (tree.sh); the tree check's self-test points it elsewhere.
PATCHES=${PATCHES:-$TOP/patches}

say() { printf '%s\n' "$*"; }
die() { printf 'error: %s\n' "$*" >&2; exit 1; }
# Print a command, then run it.
run() { printf '+ %s\n' "$*"; "$@"; }
# Seconds since the epoch, for stage timings.
now() { date +%s; }

# Source folder for a tree name: "patched" is the git tree, "base" a worktree on tag base,
# "mid" a worktree on a commit of the series (scripts/host/bench-zram.sh sets it up),
# "check" another one that scripts/host/check-series.sh moves along the series,
# "rmutex" the series with bench/variants/read-stream-mutex.patch on top
# (scripts/host/bench-zram.sh).
tree_dir() {
	case "$1" in
	patched) echo "$TREE" ;;
	base) echo "$BUILD/base/linux" ;;
	mid) echo "$BUILD/mid/linux" ;;
	check) echo "$BUILD/check/linux" ;;
	rmutex) echo "$BUILD/rmutex/linux" ;;
	*) die "unknown tree '$1' (use base, mid, rmutex, check or patched)" ;;
	esac
}

# Build folder of a kernel: beside its tree, so that every kernel sees its
# sources at the same relative path (../../linux) and ccache, with
# CCACHE_BASEDIR, shares the objects of unchanged files between trees:
# build/out/patched-FLAVOUR, build/base/out/base-FLAVOUR, build/mid/out/mid-FLAVOUR.
out_dir() {
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
arch_vars() {
	case "$1" in
	x86_64) KARCH=x86_64 CROSS="" KIMAGE=arch/x86/boot/bzImage QEMU=qemu-system-x86_64
		CONSOLE=ttyS0 REPORT=ttyS1 DEBARCH=amd64 TARGET_CC=gcc ;;
	i386) KARCH=i386 CROSS="" KIMAGE=arch/x86/boot/bzImage QEMU=qemu-system-i386
		CONSOLE=ttyS0 REPORT=ttyS1 DEBARCH=i386 TARGET_CC=i686-linux-gnu-gcc ;;
	arm64) KARCH=arm64 CROSS=aarch64-linux-gnu- KIMAGE=arch/arm64/boot/Image
		QEMU=qemu-system-aarch64 CONSOLE=ttyAMA0 REPORT=hvc0 DEBARCH=arm64
		TARGET_CC=aarch64-linux-gnu-gcc ;;
	*) die "unknown architecture '$1' (x86_64, i386 or arm64)" ;;
	esac
}

# The project as a reader can resolve it: its commit ("-dirty" if the
# working tree differs from it) and the series (git rev-parse HEAD:patches,
# "-dirty" if patches/ differs from that), as KEY=VALUE lines.
project_id() {
	c=$(git -C "$TOP" rev-parse --short=12 HEAD 2>/dev/null || echo unknown)
	[ -z "$(git -C "$TOP" status --porcelain --untracked-files=no 2>/dev/null)" ] || c="$c-dirty"
	pt=$(git -C "$TOP" rev-parse --short=12 HEAD:patches 2>/dev/null || echo unknown)
	[ -z "$(git -C "$TOP" status --porcelain -- patches 2>/dev/null)" ] || pt="$pt-dirty"
	echo "project=$c"
	echo "patches=$pt"
}
