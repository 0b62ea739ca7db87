#!/bin/sh
# The tree check checked (tree.sh check): on a tiny fake base and series,
# in a scratch folder (BUILD, PATCHES and SRC_TARBALL pointed there), each
# way build/linux can differ from base + patches/ gets the decision it
# must: applied the first time, left alone when it is the series, applied
# again when patches/ changed, refused over uncommitted changes and over
# commits never exported, a base worktree off base or not a worktree at
# all set right, a new base tarball taken; three series (fixes, features,
# selftests) applied in order, kept apart through a rebase, an export
# that refuses when a series' end is lost, and the ends put back on a
# tree that is the series but was not applied here; a stable backport
# signed again. Prints "tree-selftest: N passed, N failed"; exits 1 on
# any failure. make test runs it before the judge's own self-test.
set -u
# The scratch folder first: lib.sh's folders must all be in it.
tmp=$(mktemp -d)
trap '[ -n "${KEEP_TMP:-}" ] || rm -rf "$tmp"' EXIT
# A KSRC tree (make test KSRC=DIR) is not this test's: its own base.
unset KSRC
export BASE=6.12 BUILD="$tmp/build" PATCHES="$tmp/patches" SRC_TARBALL="$tmp/src.tar.xz"
. "$(dirname "$0")/lib.sh"
case "$(tree_dir base)" in "$tmp"/*) ;; *) die "tree-selftest: $(tree_dir base) is not in $tmp" ;; esac
G="git -c user.name=T -c user.email=t@t -c init.defaultBranch=master"
p=0 f=0

ok() { p=$((p + 1)); }
bad() { f=$((f + 1)); say "tree-selftest: FAIL $*"; sed 's/^/    /' "$tmp/out"; }
check() { sh "$TOP/scripts/host/tree.sh" check > "$tmp/out" 2>&1; }
tree_of() { git -C "$BUILD/linux" rev-parse 'HEAD^{tree}'; }
series_id() { sh "$TOP/scripts/host/tree.sh" id 2>/dev/null; }

# base: a tarball of one folder; the series: N patches made in a scratch
# repository on top of it (make_series TEXT: the patches change a file to
# TEXT, one line a patch).
make_base() {
	rm -rf "$tmp/src"
	mkdir -p "$tmp/src/linux-source-6.12/mm"
	echo "$1" > "$tmp/src/linux-source-6.12/mm/zsmalloc.c"
	tar -cJf "$SRC_TARBALL" -C "$tmp/src" linux-source-6.12
}
make_series() {
	rm -rf "$tmp/gen" "$PATCHES"
	mkdir -p "$PATCHES"
	cp -r "$tmp/src/linux-source-6.12" "$tmp/gen"
	(
		cd "$tmp/gen" && $G init -q && $G add -A && $G commit -qm base
		for line in "$@"; do
			echo "$line" >> mm/zsmalloc.c
			$G commit -qam "mm: $line"
		done
		$G format-patch -q -o "$PATCHES" HEAD~$# >/dev/null
	)
}

make_base "base one"
make_series "a" "b"

# 1. The first check unpacks the base and applies the series; it makes
# no base worktree (tree.sh base does, where a command needs it).
if check && [ "$(tree_of)" = "$(series_id)" ] && grep -q 'base + 2 patches' "$tmp/out" &&
	[ ! -e "$(tree_dir base)" ]; then ok
else bad "first check: applies the series"; fi

# 2. A tree that is the series is left alone.
head=$(git -C "$BUILD/linux" rev-parse HEAD)
if check && [ "$(git -C "$BUILD/linux" rev-parse HEAD)" = "$head" ] && [ ! -s "$tmp/out" ]; then ok
else bad "second check: leaves the series alone"; fi

# 3. patches/ changed (a git pull): applied again.
make_series "a" "c" "d"
if check && grep -q 'applying it again' "$tmp/out" && [ "$(tree_of)" = "$(series_id)" ]; then ok
else bad "changed patches/: applied again"; fi

# 4. Uncommitted changes in build/linux: refused, nothing lost.
echo edit >> "$BUILD/linux/mm/zsmalloc.c"
if ! check && grep -q 'uncommitted changes' "$tmp/out" &&
	grep -q '^edit$' "$BUILD/linux/mm/zsmalloc.c"; then ok
else bad "uncommitted changes: refused"; fi
git -C "$BUILD/linux" checkout -q mm/zsmalloc.c

# 5. A commit never exported: refused, and kept.
echo local >> "$BUILD/linux/mm/zsmalloc.c"
$G -C "$BUILD/linux" commit -qam "local work"
if ! check && grep -q 'commits that patches/ does not have' "$tmp/out" &&
	[ "$(git -C "$BUILD/linux" log -1 --format=%s)" = "local work" ]; then ok
else bad "a commit not exported: refused"; fi

# 6. The same commit with no record of an apply (an older harness): still
# refused, never reset away.
git -C "$BUILD/linux" update-ref -d refs/harness/applied
if ! check && grep -q 'did not apply it' "$tmp/out" &&
	[ "$(git -C "$BUILD/linux" log -1 --format=%s)" = "local work" ]; then ok
else bad "no applied ref, local work: refused"; fi
git -C "$BUILD/linux" reset -q --hard HEAD~1

# 7. No applied ref but the tree is the series: taken as applied.
if check && [ "$(git -C "$BUILD/linux" rev-parse refs/harness/applied)" = "$(git -C "$BUILD/linux" rev-parse HEAD)" ]; then ok
else bad "no applied ref, the series: taken as applied"; fi

# 8. The base worktree (made on first use) moved off base: checked out at
# base again.
tbase() { sh "$TOP/scripts/host/tree.sh" base > "$tmp/out" 2>&1; }
tbase
git -C "$(tree_dir base)" checkout -q --detach master
if check && [ "$(git -C "$(tree_dir base)" rev-parse HEAD)" = "$(git -C "$BUILD/linux" rev-parse base)" ]; then ok
else bad "base worktree off base: back at base"; fi

# 9. A new base tarball after build/linux is removed: the base is
# unpacked again, its worktree added again (not the stale one), and the
# series id follows the new base.
make_base "base two"
make_series "a" "b"
rm -rf "$BUILD/linux"
if check && [ "$(tree_of)" = "$(series_id)" ] && tbase &&
	grep -q '^base two$' "$(tree_dir base)/mm/zsmalloc.c" &&
	[ "$(git -C "$(tree_dir base)" rev-parse --path-format=absolute --git-common-dir)" = "$BUILD/linux/.git" ]; then ok
else bad "new base: unpacked, worktree and series id follow"; fi

# 10. A base folder that is no worktree of build/linux (a copy left
# behind by hand): replaced by a worktree at base.
rm -rf "$(tree_dir base)"
mkdir -p "$(tree_dir base)/mm"
echo stale > "$(tree_dir base)/mm/zsmalloc.c"
if check && grep -q '^base two$' "$(tree_dir base)/mm/zsmalloc.c"; then ok
else bad "a base folder that is no worktree: added again"; fi

# Three series (PATCHES-fixes, PATCHES, PATCHES-selftests), each its own
# folder: make_multi "F..." "A..." "S..." (the lines of each, space
# separated), from one scratch repository.
make_multi() {
	rm -rf "$tmp/gen" "$PATCHES" "$PATCHES-fixes" "$PATCHES-selftests"
	cp -r "$tmp/src/linux-source-6.12" "$tmp/gen"
	(
		cd "$tmp/gen" && $G init -q && $G add -A && $G commit -qm base
		from=$(git rev-parse HEAD)
		for part in "fixes:$1" ":$2" "selftests:$3"; do
			dir=$PATCHES${part%%:*}
			[ -z "${part%%:*}" ] || dir=$PATCHES-${part%%:*}
			for line in ${part#*:}; do
				echo "$line" >> mm/zsmalloc.c
				$G commit -qam "mm: $line"
			done
			$G format-patch -q -o "$dir" "$from..HEAD" >/dev/null
			from=$(git rev-parse HEAD)
		done
	)
}
subjects() { git -C "$BUILD/linux" log --reverse --format=%s "$@"; }
export_() { AUTHOR="T <t@t>" sh "$TOP/scripts/host/tree.sh" export > "$tmp/out" 2>&1; }
npatches() {
	_n=0
	for _p in "$1"/[0-9]*.patch; do
		case "$_p" in */0000-*) ;; *) [ ! -f "$_p" ] || _n=$((_n + 1)) ;; esac
	done
	echo "$_n"
}

# 11. Three series: applied in order, each but the last ending at its
# branch (series/FOLDER).
make_multi "f1" "a1 a2" "s1"
if check && [ "$(tree_of)" = "$(series_id)" ] &&
	grep -q 'base + 4 patches (1 in patches-fixes, 2 in patches, 1 in patches-selftests)' "$tmp/out" &&
	[ "$(subjects base..series/patches-fixes)" = "mm: f1" ] &&
	[ "$(subjects series/patches-fixes..series/patches | tr '\n' ' ')" = "mm: a1 mm: a2 " ] &&
	[ "$(subjects series/patches..HEAD)" = "mm: s1" ]; then ok
else bad "three series: applied in order, with their branches"; fi

# 12. An interactive rebase that changes the fix and adds a commit to it
# keeps each commit in its series: export writes 2, 2 and 1 patches, and
# the later series name the earlier ones' patches as prerequisites.
(
	cd "$BUILD/linux" &&
	GIT_SEQUENCE_EDITOR="sed -i '1s/^pick/edit/'" $G rebase -q -i --update-refs base > /dev/null 2>&1 &&
	echo f2 > mm/f2.c && $G add mm/f2.c && $G commit -qm "mm: f2" &&
	$G rebase --continue > "$tmp/rebase.log" 2>&1 || cat "$tmp/rebase.log"
)
if export_ && [ "$(npatches "$PATCHES-fixes")" = 2 ] && [ "$(npatches "$PATCHES")" = 2 ] &&
	[ "$(npatches "$PATCHES-selftests")" = 1 ] &&
	grep -q '^Subject: \[PATCH 2/2\] mm: f2' "$PATCHES-fixes"/0002-*.patch &&
	[ "$(grep -c '^prerequisite-patch-id:' "$PATCHES-selftests"/0000-cover-letter.patch)" = 4 ] &&
	check && [ "$(tree_of)" = "$(series_id)" ]; then ok
else bad "rebase, then export: each commit stays in its series"; fi

# 13. A series' end lost (its branch deleted): export refuses, writes
# nothing.
git -C "$BUILD/linux" update-ref -d refs/heads/series/patches-fixes
before=$(cat "$PATCHES-fixes"/*.patch | sha1sum)
if ! export_ && grep -q 'where patches-fixes ends is lost' "$tmp/out" &&
	[ "$(cat "$PATCHES-fixes"/*.patch | sha1sum)" = "$before" ]; then ok
else bad "a lost series end: export refuses"; fi

# 14. The series as a tree that no harness applied (no applied ref, no
# branches): taken as applied, each end put back by the folders' counts.
git -C "$BUILD/linux" update-ref -d refs/harness/applied
git -C "$BUILD/linux" update-ref -d refs/heads/series/patches 2> /dev/null
if check && [ "$(subjects series/patches-fixes..series/patches | tr '\n' ' ')" = "mm: a1 mm: a2 " ] &&
	[ "$(git -C "$BUILD/linux" rev-list --count base..series/patches-fixes)" = 2 ]; then ok
else bad "a series no harness applied: its ends put back"; fi

# 15. A stable backport (a body line "commit SHA upstream.") keeps its
# upstream author and trailers when the series is signed again: the old
# signer's Signed-off-by gives way to the new one's.
(
	cd "$BUILD/linux" && echo bp > mm/bp.c && $G add mm/bp.c &&
	printf 'mm: bp\n\ncommit %s upstream.\n\nA backport.\n\nSigned-off-by: Up <up@u>\nSigned-off-by: T <t@t>\n' \
		"$(printf '%040d' 0)" |
		$G commit -q --author="Up <up@u>" -F -
) > "$tmp/out" 2>&1
if AUTHOR="New <new@n>" sh "$TOP/scripts/host/tree.sh" export > "$tmp/out" 2>&1 &&
	bp=$(grep -l '^Subject: \[PATCH.*mm: bp' "$PATCHES-selftests"/*.patch) &&
	grep -q '^From: Up <up@u>' "$bp" &&
	[ "$(sed -n '/^Signed-off-by: /p' "$bp" | tr '\n' ' ')" = "Signed-off-by: Up <up@u> Signed-off-by: New <new@n> " ] &&
	[ "$(sed -n '/^Signed-off-by: /p' "$PATCHES"/0001-*.patch)" = "Signed-off-by: New <new@n>" ]; then ok
else bad "a backport signed again: upstream trailers kept, the old signer's replaced"; fi

say "tree-selftest: $p passed, $f failed"
[ "$f" = 0 ]
