#!/bin/sh
# Configure and build one kernel:  kernel.sh TREE FLAVOUR [config]
#   TREE     base (tag base, in build/base/linux), patched (build/linux),
#            or ksrc (KSRC=DIR, a tree of the user's: lib.sh)
#   FLAVOUR  a file configs/FLAVOUR.config; merged onto tinyconfig after
#            configs/vm.config and the architecture's configs/vm-ARCH.config,
#            in that order, then configs/BASE/all.config and
#            configs/BASE/FLAVOUR.config where they exist. The
#            architecture is the fragment's "# ARCH:"
#            line (x86_64, i386 or arm64; x86_64 without one): see
#            flavour_arch and arch_vars in lib.sh.
#   config   only configure and check the configuration, build nothing
#   objects  configure, then build only mm/ and drivers/block/zram/ (what
#            the series touches: make check-configs)
# Output: out_dir in lib.sh, e.g. build/out/patched-debug/ (.config,
#   arch/x86/boot/bzImage or arch/arm64/boot/Image, build.log)
set -eu
. "$(dirname "$0")/lib.sh"

tree=${1:?usage: kernel.sh base|patched FLAVOUR}
flavour=${2:?usage: kernel.sh base|patched FLAVOUR}
what=${3:-all}
[ "$tree" != kmi ] || kmi_worktree
src=$(tree_dir "$tree")
# The base worktree is made on first use (tree.sh).
[ "$tree" != base ] || [ -d "$src" ] || sh "$TOP/scripts/host/tree.sh" base
out=$(out_dir "$tree" "$flavour")
jobs=${JOBS:-$(nproc)}

[ -d "$src" ] || die "no source tree $src: run 'make tree' first"
arch=$(flavour_arch "$flavour")
arch_vars "$arch"
frags="$TOP/configs/vm.config $TOP/configs/vm-$arch.config"
[ "$flavour" = vm ] || frags="$frags $TOP/configs/$flavour.config"
for f in $frags; do
	[ -f "$f" ] || die "no config fragment $f (flavours: $(ls "$TOP"/configs | sed -n 's/\.config$//p' | tr '\n' ' '))"
done
# What the base needs on top (configs/BASE/: options renamed or gone there,
# toolchain limits): all.config for every flavour, then FLAVOUR.config.
for f in "$TOP/configs/$BASE/all.config" "$TOP/configs/$BASE/$flavour.config"; do
	[ -f "$f" ] && frags="$frags $f"
done

cc=${CROSS}gcc
command -v "$cc" >/dev/null 2>&1 ||
	die "kernel: no $cc for $arch: run 'sh scripts/host/setup.sh matrix'"
command -v ccache >/dev/null 2>&1 && cc="ccache $cc"
export CCACHE_DIR=${CCACHE_DIR:-$BUILD/ccache} CCACHE_BASEDIR=$BUILD CCACHE_NOHASHDIR=true
# Reproducible builds: the same tree gives the same kernel, byte for byte,
# in any clone and however often it was built (KBUILD_BUILD_VERSION is the
# "#N" of uname -v, which otherwise counts the builds in the folder).
export KBUILD_BUILD_TIMESTAMP='2025-01-01' KBUILD_BUILD_USER=harness KBUILD_BUILD_HOST=harness
export KBUILD_BUILD_VERSION=1
# The release names the source tree: its git tree id (12 digits), with
# "-dirty" if it has uncommitted changes, after the config's "-harness":
# 6.12.117-harness-7c79b1773de7. The guest prints it, and the judge checks
# that the kernel that booted is the one built here (parse.sh).
# A KSRC tree that is not a git tree of its own (none, or a folder
# inside another repository) has no id: "nogit".
if [ "$tree" = ksrc ] &&
	[ "$(git -C "$src" rev-parse --show-toplevel 2>/dev/null)" != "$src" ]; then
	tree_id=nogit
elif tree_id=$(git -C "$src" rev-parse 'HEAD^{tree}' 2>/dev/null); then
	[ -z "$(git -C "$src" status --porcelain --untracked-files=no 2>/dev/null)" ] ||
		tree_id="$tree_id-dirty"
elif [ "$tree" = ksrc ]; then
	tree_id=nogit
else
	die "kernel: $src is not a git tree: run 'make tree'"
fi
short_id=$(echo "$tree_id" | sed 's/^\([0-9a-f]\{12\}\)[0-9a-f]*/\1/')
export LOCALVERSION="-$short_id"
if [ -n "$CROSS" ]; then
	kmake() { run make -s -C "$src" O="$out" ARCH=$KARCH CROSS_COMPILE="$CROSS" CC="$cc" "$@"; }
else
	kmake() { run make -s -C "$src" O="$out" ARCH=$KARCH CC="$cc" "$@"; }
fi

mkdir -p "$out"
stale=0
[ -f "$out/.config" ] || stale=1
# shellcheck disable=SC3013 # dash and busybox sh have -nt
for f in $frags; do [ "$f" -nt "$out/.config" ] && stale=1; done
if [ $stale = 1 ]; then
	kmake tinyconfig >/dev/null
	run "$src/scripts/kconfig/merge_config.sh" -m -O "$out" "$out/.config" $frags >/dev/null
	kmake olddefconfig
fi

# Every option the fragments ask for must have survived olddefconfig; a
# silently dropped CONFIG_KASAN=y would make a test run prove nothing.
# A later fragment overrides an earlier one (as merge_config does): the
# last value of each option is the one checked.
for f in $frags; do
	sed -n -e 's/^\(CONFIG_[A-Za-z0-9_]*\)=\(.*\)$/\1 \2/p' \
	       -e 's/^# \(CONFIG_[A-Za-z0-9_]*\) is not set$/\1 n/p' "$f"
done | awk '{ want[$1] = substr($0, length($1) + 2); if (!($1 in seen)) { seen[$1] = 1; order[n++] = $1 } }
	END { for (i = 0; i < n; i++) print order[i], want[order[i]] }' |
while read -r sym want; do
	have=$(sed -n -e "s/^$sym=\(.*\)$/\1/p" -e "s/^# $sym is not set$/n/p" "$out/.config")
	[ -n "$have" ] || have=n
	[ "$have" = "$want" ] && continue
	# An option that the tree lacks is a note on the base and on trees
	# part-way through the series (mid, check), which lack the series'
	# KUnit suites; on the patched tree it is an error: a tree the
	# series did not reach would build without them.
	if ! grep -rqs --include='Kconfig*' "^[[:space:]]*\(menu\)\?config ${sym#CONFIG_}\$" "$src"; then
		if [ "$tree" = patched ]; then
			echo "$sym=$want (no such option in the patched tree: is it base + patches/? make tree)"
			continue
		fi
		if [ "$(judged_tree "$tree")" = patched ]; then
			echo "$sym=$want (no such option in $src, which has the series' read contexts: is the whole series applied?)"
			continue
		fi
		# A KSRC tree of any version may lack only the series' own
		# options: another one missing (renamed there?) would make the
		# run prove less than it says.
		case "$tree:$sym" in
		ksrc:CONFIG_ZSMALLOC_KUNIT_TEST | ksrc:CONFIG_ZRAM_KUNIT_TEST) ;;
		ksrc:*) echo "$sym=$want (no such option in $src: renamed in this version? configs/$BASE/ says what a base needs)"
			continue ;;
		esac
		say "kernel: note: $sym does not exist in the $tree tree (skipped)" >&2
		continue
	fi
	echo "$sym=$want (got $have)"
done > "$out/config-dropped"
if [ -s "$out/config-dropped" ]; then
	rm -f "$out/.config"
	die "kernel: options dropped by olddefconfig (unmet dependencies?):
$(cat "$out/config-dropped")"
fi

[ "$what" = config ] && { say "kernel: $tree-$flavour configured ($arch): $out/.config"; exit 0; }
if [ "$what" = objects ]; then
	need_space 512 "kernel: the $tree-$flavour objects"
	t0=$(now)
	if ! kmake -j"$jobs" mm/ drivers/block/zram/ > "$out/build.log" 2>&1; then
		tail -40 "$out/build.log"
		die "kernel: objects of $tree-$flavour failed, see $out/build.log"
	fi
	say "kernel: $tree-$flavour objects built in $(( $(now) - t0 ))s ($arch)"
	exit 0
fi

# A cold debug build writes about 600 MiB; ld needs room for vmlinux twice.
need_space 1536 "kernel: the $tree-$flavour build"
t0=$(now)
if ! kmake -j"$jobs" all > "$out/build.log" 2>&1; then
	tail -40 "$out/build.log"
	die "kernel: build of $tree-$flavour failed, see $out/build.log"
fi
grep -E 'warning:' "$out/build.log" | head -20 || true
echo "$tree_id" > "$out/tree-id"
say "kernel: $tree-$flavour built in $(( $(now) - t0 ))s: $out/$KIMAGE"
