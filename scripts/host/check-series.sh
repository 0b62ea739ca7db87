#!/bin/sh
# Check every patch of the series on its own: for each commit of base..HEAD
# in build/linux, in order, build the FLAVOUR (vm) kernel of that commit
# (in the worktree build/check/linux, so build/linux is left alone) and run
# scripts/checkpatch.pl --strict on the patch. Stops at the first commit
# that does not build; lists checkpatch findings at the end; then runs
# check-static.sh on the whole series (sparse, W=1, coccicheck and
# kernel-doc, new warnings against the base; not with NOBUILD=1) and
# cover-tables.sh check (the cover letters' tables and the trees they
# measured); then the line "N passed, N failed" (patches, and a failure
# for each static check that found a new warning and each stale table)
# and exits non-zero on any finding.
# Environment: FLAVOUR (vm), JOBS (see kernel.sh), FROM (1: the first
# patch to check, to resume a check), NOBUILD=1 (checkpatch only: no
# worktree, no build; checkpatch runs from build/linux, which every make
# target first checks is exactly base + the series, so each patch
# applies in turn, and a 1.4 GB checkout less is on the disk).
#
# Two checkpatch types are left out, each for a reason that holds for
# every patch here:
#   UNKNOWN_COMMIT_ID  the tree is Debian's tarball, one commit with no
#                      upstream history: checkpatch cannot look up the ids
#                      of Fixes: tags (the messages name each commit's
#                      subject too);
#   FILE_PATH_CHANGES  "does MAINTAINERS need updating?" on any new file;
#                      the series adds tools/testing/selftests/zram/ and
#                      mm/zsmalloc_kunit.c to MAINTAINERS itself.
# checkpatch's SPDX check runs Python with ply and GitPython (python3-git:
# without it spdxcheck.py fails and checkpatch passes anyway): Debian's
# python3, first in PATH, over a pyenv shim that lacks them.
set -eu
. "$(dirname "$0")/lib.sh"

FLAVOUR=${FLAVOUR:-vm}
wt=$(tree_dir check)
commits=$(git -C "$LINUX_REPO" rev-list --reverse base..HEAD)
[ -n "$commits" ] || die "no commits on top of base in $LINUX_REPO"
if [ "${NOBUILD:-0}" = 1 ]; then
	wt=$LINUX_REPO
else
	check_worktree
fi

n=0 total=$(echo "$commits" | wc -l) findings=""
for c in $commits; do
	n=$((n + 1))
	[ "$n" -ge "${FROM:-1}" ] || continue
	subject=$(git -C "$LINUX_REPO" log -1 --format=%s "$c")
	say "check-series: [$n/$total] $subject"
	# Configure again at every commit: an option that a patch adds (e.g.
	# CONFIG_ZSMALLOC_KUNIT_TEST) must be set from the fragments. The same
	# .config rebuilds nothing.
	if [ "${NOBUILD:-0}" != 1 ]; then
		git -C "$wt" checkout -q --detach "$c"
		rm -f "$(out_dir check "$FLAVOUR")/.config"
		sh "$TOP/scripts/host/kernel.sh" check "$FLAVOUR" ||
			die "check-series: patch $n ($subject) does not build"
	fi
	# One CHECK is not a finding: CamelCase in zstd's own identifiers
	# (ZSTD_error_dstSize_tooSmall, from include/linux/zstd_errors.h),
	# which the kernel's zstd API has no other name for.
	if ! git -C "$LINUX_REPO" format-patch -1 --stdout "$c" |
		(cd "$wt" && PATH=/usr/bin:/bin:$PATH perl scripts/checkpatch.pl --strict -q \
			--ignore UNKNOWN_COMMIT_ID,FILE_PATH_CHANGES -) > "$BUILD/checkpatch.out" 2>&1; then
		if grep -E '^(ERROR|WARNING|CHECK):' "$BUILD/checkpatch.out" |
			grep -Evq '^CHECK: Avoid CamelCase: <ZSTD_[A-Za-z_]+>$' ||
			! grep -Eq '^(ERROR|WARNING|CHECK):' "$BUILD/checkpatch.out"; then
			findings="$findings $n"
			cat "$BUILD/checkpatch.out"
		else
			say "check-series: patch $n: only CamelCase of zstd's own identifiers (allowed)"
		fi
	fi
done
[ "${NOBUILD:-0}" = 1 ] || say "check-series: all $total patches build ($FLAVOUR)"
# The checks of a maintainer's tree on the whole series, against the base
# (check-static.sh: sparse, W=1, coccicheck, kernel-doc); they need the
# builds, so NOBUILD=1 leaves them out. Each that finds a new warning is
# one failure more.
static_failed=0
if [ "${NOBUILD:-0}" != 1 ]; then
	sh "$TOP/scripts/host/check-static.sh" > "$BUILD/check-static.out" 2>&1 || true
	grep -v '^[0-9]* passed, [0-9]* failed' "$BUILD/check-static.out"
	static_failed=$(sed -n 's/^[0-9]* passed, \([0-9]*\) failed.*/\1/p' "$BUILD/check-static.out" | tail -1)
	[ -n "$static_failed" ] || static_failed=1
fi
# The cover letters' tables (cover-tables.sh): each must be what its
# results file gives, and that file must have measured the series' tree
# (or a tree that differs only where the table's "@@ allow" says). Each
# table that is not is one failure more.
sh "$TOP/scripts/host/cover-tables.sh" check > "$BUILD/cover-tables.out" 2>&1 || true
grep -v 'cover-tables: [0-9]* passed' "$BUILD/cover-tables.out" || true
cover_failed=$(sed -n 's/^cover-tables: [0-9]* passed, \([0-9]*\) failed$/\1/p' "$BUILD/cover-tables.out")
[ -n "$cover_failed" ] || { cat "$BUILD/cover-tables.out"; cover_failed=1; }
# The summary line counts patches: one passes when it built (unless
# NOBUILD) and checkpatch found nothing in it.
checked=$((total - ${FROM:-1} + 1))
failed=$(echo "$findings" | wc -w)
if [ -n "$findings" ]; then
	say "check-series: checkpatch --strict findings in patch(es)$findings"
else
	say "check-series: checkpatch --strict clean"
fi
echo "$((checked - failed)) passed, $((failed + static_failed + cover_failed)) failed"
[ -z "$findings" ] && [ "$static_failed" = 0 ] && [ "$cover_failed" = 0 ]
