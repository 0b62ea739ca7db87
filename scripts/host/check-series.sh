#!/bin/sh
# Check every patch of the series on its own: for each commit of base..HEAD
# in build/linux, in order, build the FLAVOUR (vm) kernel of that commit
# (in the worktree build/check/linux, so build/linux is left alone) and run
# scripts/checkpatch.pl --strict on the patch. Stops at the first commit
# that does not build; lists checkpatch findings at the end.
# Environment: FLAVOUR (vm), JOBS (see kernel.sh), FROM (1: the first
# patch to check, to resume a check).
set -eu
. "$(dirname "$0")/lib.sh"

FLAVOUR=${FLAVOUR:-vm}
wt=$(tree_dir check)
commits=$(git -C "$TREE" rev-list --reverse base..HEAD)
[ -n "$commits" ] || die "no commits on top of base in $TREE"
if [ -d "$wt" ] && git -C "$wt" rev-parse -q --verify HEAD >/dev/null 2>&1; then
	[ -z "$(git -C "$wt" status --porcelain --untracked-files=no)" ] ||
		die "$wt has uncommitted changes"
else
	run git -C "$TREE" worktree prune
	run git -C "$TREE" worktree add -q --detach "$wt" base
fi

n=0 total=$(echo "$commits" | wc -l) findings=""
for c in $commits; do
	n=$((n + 1))
	[ "$n" -ge "${FROM:-1}" ] || continue
	subject=$(git -C "$TREE" log -1 --format=%s "$c")
	say "check-series: [$n/$total] $subject"
	git -C "$wt" checkout -q --detach "$c"
	# Configure again at every commit: an option that a patch adds (e.g.
	# CONFIG_ZSMALLOC_KUNIT_TEST) must be set from the fragments. The same
	# .config rebuilds nothing.
	rm -f "$(out_dir check "$FLAVOUR")/.config"
	sh "$TOP/scripts/host/kernel.sh" check "$FLAVOUR" ||
		die "check-series: patch $n ($subject) does not build"
	if ! git -C "$TREE" format-patch -1 --stdout "$c" |
		(cd "$wt" && perl scripts/checkpatch.pl --strict -q -) > "$BUILD/checkpatch.out" 2>&1; then
		findings="$findings $n"
		cat "$BUILD/checkpatch.out"
	fi
done
say "check-series: all $total patches build ($FLAVOUR)"
[ -z "$findings" ] || die "check-series: checkpatch --strict findings in patch(es)$findings"
say "check-series: checkpatch --strict clean"
