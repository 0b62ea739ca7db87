#!/bin/sh
# The checks a maintainer's tree and the 0-day bot run on a posting, on
# what the series changes, each against the base:  check-static.sh
#   sparse    every object of a C file the series changes, built with C=2
#             (sparse on each, whether or not it is rebuilt);
#   W=1       the same build, with the extra warnings of W=1;
#   cocci     coccicheck (MODE=report, every semantic patch of
#             scripts/coccinelle/) on each C file the series changes;
#   kdoc      scripts/kernel-doc -none -Wall on each C file and header the
#             series changes.
# A warning is new when the base has no such warning in the same file
# (the same text, line numbers aside, also those in the text: "preceding
# lock on line 408"; as often as it occurs); a file the
# series adds has none at the base. Every new warning is printed with its
# check; any fails the run. A sparse that the tree turns down (too old
# for it: scripts/checker-valid.sh) is a skip, said so, and W=1 still
# runs. Prints "N passed, N failed, N skipped" (checks) last.
# It runs in the worktree build/check/linux and its FLAVOUR (vm) build
# folder (check-series.sh builds it at HEAD; built here if missing), at
# HEAD and then at the base, and leaves the worktree at HEAD.
# Environment: FLAVOUR (vm), CHECKS (the checks to run: "sparse cocci
# kdoc"; W=1 comes with sparse), KEEP=DIR (keep the warnings there).
set -eu
. "$(dirname "$0")/lib.sh"

FLAVOUR=${FLAVOUR:-vm}
CHECKS=${CHECKS:-sparse cocci kdoc}
for c in $CHECKS; do
	case "$c" in sparse | cocci | kdoc) ;; *) die "check-static: unknown check '$c' (sparse, cocci, kdoc)" ;; esac
done
command -v sparse > /dev/null 2>&1 || die "check-static: no sparse: run 'make setup' (Debian's sparse)"
case " $CHECKS " in *" cocci "*)
	command -v spatch > /dev/null 2>&1 ||
		die "check-static: no spatch: run 'make setup' (Debian's coccinelle)" ;;
esac
[ -d "$LINUX_REPO/.git" ] || die "check-static: no tree: run 'make tree' first"
head=$(git -C "$LINUX_REPO" rev-parse HEAD)
wt=$(tree_dir check)
out=$(out_dir check "$FLAVOUR")
check_worktree
git -C "$wt" checkout -q --detach "$head"
# HEAD's configuration and build (check-series leaves them; an
# interrupted run may have left the base's .config): configured again,
# the same .config rebuilds nothing.
rm -f "$out/.config"
sh "$TOP/scripts/host/kernel.sh" check "$FLAVOUR" > "$BUILD/check-static.build.log" 2>&1 ||
	die "check-static: HEAD does not build (see $BUILD/check-static.build.log)"

tmp=$(mktemp -d)
trap 'git -C "$wt" checkout -q --detach "$head"; [ ! -f "$tmp/config" ] || cp "$tmp/config" "$out/.config"; rm -rf "$tmp"' EXIT
cp "$out/.config" "$tmp/config"
# What the series changes: its C files and headers, less the selftests
# (user space, built by their own Makefile).
git -C "$LINUX_REPO" diff --name-only --diff-filter=AM base "$head" -- '*.c' '*.h' |
	grep -v '^tools/' > "$tmp/files" || true
cfiles=$(grep '\.c$' "$tmp/files" || true)
# The objects HEAD's build made of them.
for f in $cfiles; do
	[ ! -f "$out/${f%.c}.o" ] || echo "${f%.c}.o"
done > "$tmp/objects"

cc=gcc
command -v ccache > /dev/null 2>&1 && cc="ccache gcc"
export CCACHE_DIR=${CCACHE_DIR:-$BUILD/ccache} CCACHE_BASEDIR=$BUILD CCACHE_NOHASHDIR=true
export KBUILD_BUILD_TIMESTAMP='2025-01-01' KBUILD_BUILD_USER=harness KBUILD_BUILD_HOST=harness
export KBUILD_BUILD_VERSION=1
kmake() { make -C "$wt" O="$out" ARCH=x86_64 CC="$cc" "$@"; }

# "FILE:LINE:COL: warning: TEXT" (gcc, sparse) or "FILE:LINE: warning:
# TEXT" (kernel-doc) -> "FILE: warning: TEXT", the file relative to the
# tree; other lines (gcc's "In function" context, notes) are dropped.
norm() {
	sed -n -E "s#^(\\.\\./)*(${wt}/)?([^ :]+):[0-9]+(:[0-9]+)?: (warning|error): #\\3: \\5: #p" |
		sed -E 's#^.*/check/linux/##; s#^(\.\./)+##; s#^(check/)?linux/##' | sort
}

# One pass of each check over the tree as it is checked out; TAG names
# the pass (head, base). A C file the tree lacks (one the series adds) is
# left out at the base.
pass_checks() {
	tag=$1
	objs="" have=""
	# An object of the build: a C file included in another (the KUnit
	# suites, inside the file they test) is checked as part of that one.
	for f in $cfiles; do
		[ -f "$wt/$f" ] || continue
		grep -qx "${f%.c}.o" "$tmp/objects" || continue
		have="$have $f"
		objs="$objs ${f%.c}.o"
	done
	for c in $CHECKS; do
		: > "$tmp/$tag.$c"
		case "$c" in
		sparse)
			# shellcheck disable=SC2086 # a list of objects
			[ -z "$objs" ] || kmake C=2 W=1 $objs > "$tmp/$tag.sparse.log" 2>&1 ||
				say "check-static: $tag: the build of$objs failed (see the warnings)"
			# A tree whose scripts/checker-valid.sh turns this sparse
			# down (7.3 wants __typeof_unqual__, which Debian 12's
			# 0.6.4 lacks) builds without it: W=1 alone.
			! grep -q 'specified, but .* is not available or not up to date' "$tmp/$tag.sparse.log" ||
				: > "$tmp/nosparse"
			norm < "$tmp/$tag.sparse.log" > "$tmp/$tag.$c" ;;
		cocci)
			# As coccicheck runs each semantic patch in report mode
			# (its "// Options:", the kernel's include paths), over
			# all the files at once: a spatch run a patch, not a file.
			set --
			for f in $have; do set -- "$@" "$wt/$f"; done
			[ $# = 0 ] || for sp in "$wt"/scripts/coccinelle/*/*.cocci "$wt"/scripts/coccinelle/*/*/*.cocci; do
				[ -f "$sp" ] && grep -q '^virtual report' "$sp" || continue
				# shellcheck disable=SC2046 # the patch's own options
				spatch -D report --no-show-diff --very-quiet --cocci-file "$sp" \
					$(sed -n 's#^// *Options: *##p' "$sp") \
					-I "$wt/arch/x86/include" -I "$out/arch/x86/include/generated" \
					-I "$wt/include" -I "$out/include" -I "$wt/arch/x86/include/uapi" \
					-I "$out/arch/x86/include/generated/uapi" -I "$wt/include/uapi" \
					-I "$out/include/generated/uapi" \
					--include "$wt/include/linux/compiler-version.h" \
					--include "$wt/include/linux/kconfig.h" "$@" 2>&1 |
					sed -n -E "s#^${wt}/([^ :]+):[0-9]+:[0-9-]+: #\\1: $(basename "$sp" .cocci): #p" |
					sed -E 's/(on|at) line [0-9]+/\1 line N/g'
			done | sort > "$tmp/$tag.$c" ;;
		kdoc)
			while read -r f; do
				[ -f "$wt/$f" ] || continue
				(cd "$wt" && perl scripts/kernel-doc -none -Wall "$f" 2>&1)
			done < "$tmp/files" | norm > "$tmp/$tag.$c" ;;
		esac
	done
}

say "check-static: $CHECKS on $(wc -l < "$tmp/files") files the series changes ($(wc -l < "$tmp/objects") objects of its C files)"
pass_checks head
git -C "$wt" checkout -q --detach base
pass_checks base
cp "$tmp/config" "$out/.config"
git -C "$wt" checkout -q --detach "$head"

# New warnings: those of HEAD beyond the base's, counted as a multiset.
p=0 f=0 sk=0
if [ -f "$tmp/nosparse" ]; then
	sk=1
	say "check-static: SKIP sparse: the tree turns down $(sparse --version | head -1) (scripts/checker-valid.sh); the W=1 build alone is compared"
fi
for c in $CHECKS; do
	awk 'FILENAME == ARGV[1] { n[$0]++; next } n[$0] > 0 { n[$0]--; next } { print }' \
		"$tmp/base.$c" "$tmp/head.$c" > "$tmp/new.$c"
	name=$c
	[ "$c" != sparse ] || name="sparse and W=1"
	[ "$c" != sparse ] || [ ! -f "$tmp/nosparse" ] || name="W=1"
	if [ -s "$tmp/new.$c" ]; then
		f=$((f + 1))
		say "check-static: FAIL $name: $(wc -l < "$tmp/new.$c") new warnings (the base: $(wc -l < "$tmp/base.$c")):"
		sed 's/^/    /' "$tmp/new.$c"
	else
		p=$((p + 1))
		say "check-static: ok $name: no new warning (HEAD $(wc -l < "$tmp/head.$c"), the base $(wc -l < "$tmp/base.$c"))"
	fi
done
if [ -n "${KEEP:-}" ]; then
	mkdir -p "$KEEP"
	cp "$tmp"/head.* "$tmp"/base.* "$tmp"/new.* "$KEEP"/ 2> /dev/null || true
fi
echo "$p passed, $f failed, $sk skipped"
[ "$f" = 0 ]
