#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# tree-of.sh COMMIT [DIR]: the kernel tree id that the project's series at
# COMMIT gives: its DIR (patches/$BASE; for 6.12, patches/ in commits from
# before the 7.3 series), applied with git am onto tag base of the base's
# kernel repository (BASE=7.3 for 7.3's), in a temporary worktree. Results name kernels by tree id (the -harness-TREEID
# of a release); this resolves one from a project commit. Prints
# "TREE COMMIT:DIR".
set -eu
. "$(dirname "$0")/lib.sh"

commit=${1:?usage: tree-of.sh COMMIT [DIR]}
dir=${2:-}
if [ -z "$dir" ]; then
	dir=patches/$BASE
	[ "$BASE" != 6.12 ] || git -C "$TOP" rev-parse -q --verify "$commit:$dir" > /dev/null ||
		dir=patches
fi
git -C "$TOP" rev-parse -q --verify "$commit:$dir" > /dev/null ||
	die "tree-of: no $dir at project commit $commit"
git -C "$LINUX_REPO" rev-parse -q --verify base > /dev/null ||
	die "tree-of: no tag base in $LINUX_REPO: run 'make tree' first"
tmp=$(mktemp -d)
trap 'git -C "$LINUX_REPO" worktree remove --force "$tmp/linux" 2> /dev/null; rm -rf "$tmp"' EXIT
mkdir "$tmp/p"
# The series before and after it at that commit, where it has them
# (DIR-fixes, DIR-selftests: lib.sh's series_dirs).
dirs=""
for d in "$dir-fixes" "$dir" "$dir-selftests"; do
	git -C "$TOP" rev-parse -q --verify "$commit:$d" > /dev/null || continue
	dirs="$dirs $d"
done
# shellcheck disable=SC2086 # the folders, one word each
git -C "$TOP" archive "$commit" $dirs | tar -x -C "$tmp/p"
git -C "$LINUX_REPO" worktree add -q --detach "$tmp/linux" base
set --
for d in $dirs; do
	for p in "$tmp/p/$d"/[0-9]*.patch; do
		[ -f "$p" ] || continue
		case "${p##*/}" in 0000-*) ;; *) set -- "$@" "$p" ;; esac
	done
done
git -C "$tmp/linux" -c user.name=tree-of -c user.email=tree-of@localhost \
	am -q --whitespace=nowarn "$@" > "$tmp/am.log" 2>&1 ||
	die "tree-of: the series at $commit:$dir does not apply to base: $(tail -3 "$tmp/am.log")"
echo "$(git -C "$tmp/linux" rev-parse --short=12 'HEAD^{tree}') $commit:$dir"
