# Shared helpers for the host scripts (sourced, POSIX sh).
TOP=$(cd "$(dirname "$0")/../.." && pwd)
BUILD=${BUILD:-$TOP/build}
TREE=$BUILD/linux
SRC_TARBALL=/usr/src/linux-source-6.12.tar.xz

say() { printf '%s\n' "$*"; }
die() { printf 'error: %s\n' "$*" >&2; exit 1; }
# Print a command, then run it.
run() { printf '+ %s\n' "$*"; "$@"; }
# Seconds since the epoch, for stage timings.
now() { date +%s; }

# Source folder for a tree name: "patched" is the git tree, "base" a worktree on tag base,
# "mid" a worktree on a commit of the series (scripts/host/bench-zram.sh sets it up),
# "check" another one that scripts/host/check-series.sh moves along the series.
tree_dir() {
	case "$1" in
	patched) echo "$TREE" ;;
	base) echo "$BUILD/base/linux" ;;
	mid) echo "$BUILD/mid/linux" ;;
	check) echo "$BUILD/check/linux" ;;
	*) die "unknown tree '$1' (use base, mid, check or patched)" ;;
	esac
}

# Build folder of a kernel: beside its tree, so that every kernel sees its
# sources at the same relative path (../../linux) and ccache, with
# CCACHE_BASEDIR, shares the objects of unchanged files between trees:
# build/out/patched-FLAVOUR, build/base/out/base-FLAVOUR, build/mid/out/mid-FLAVOUR.
out_dir() {
	echo "$(dirname "$(tree_dir "$1")")/out/$1-$2"
}
