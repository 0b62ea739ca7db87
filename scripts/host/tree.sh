#!/bin/sh
# Build the kernel tree: unpack the pinned base into a git repository
# (one commit, tag "base"), then apply patches/ with git am. BASE (lib.sh)
# picks the base and its series: build/linux and patches/6.12/, or
# build/7.3/linux and patches/7.3/; "patches/" below is that folder, with
# patches/BASE-fixes/ before it and patches/BASE-selftests/ after it where
# they exist (lib.sh: series_dirs).
#
#   tree.sh base     unpack the base if build/linux does not exist yet
#   tree.sh apply    reset build/linux to base and git am the series
#   tree.sh check    build/linux must be base + patches/ (applied again if
#                    patches/ moved; refuses over work not exported)
#   tree.sh id       the git tree id that base + patches/ make
#   tree.sh export   write base..HEAD back to patches/ (format-patch)
set -eu
. "$(dirname "$0")/lib.sh"

GIT_IDENT="-c user.name=Harness -c user.email=harness@localhost"

unpack_base() {
	if [ -d "$LINUX_REPO/.git" ] && git -C "$LINUX_REPO" rev-parse -q --verify base >/dev/null; then
		return 0
	fi
	[ -f "$SRC_TARBALL" ] || die "no $SRC_TARBALL: run 'make setup' first"
	t0=$(now)
	# A base worktree of an earlier build/linux would point at a repository
	# that is gone: it goes too (base_worktree adds it again).
	rm -rf "$LINUX_REPO" "$LINUX_REPO.tmp" "$(tree_dir base)"
	# The sources (1.6 GiB) and git's objects for them (0.5 GiB before packing).
	need_space 3072 "tree: unpacking $SRC_NAME"
	mkdir -p "$LINUX_REPO.tmp"
	run tar -xJf "$SRC_TARBALL" -C "$LINUX_REPO.tmp" --strip-components=1
	cd "$LINUX_REPO.tmp"
	git init -q -b master
	# Debian's top-level .gitignore ignores everything ("/*"): force-add.
	git add -f -A .
	GIT_AUTHOR_DATE='2025-01-01T00:00:00Z' GIT_COMMITTER_DATE='2025-01-01T00:00:00Z' \
		git $GIT_IDENT commit -q -m "$SRC_NAME (Debian $SRC_PKG $SRC_VER)"
	git tag base
	cd "$TOP"
	mv "$LINUX_REPO.tmp" "$LINUX_REPO"
	say "tree: base unpacked into $LINUX_REPO in $(( $(now) - t0 ))s"
}

# The base worktree is made where a command needs it (tree.sh base, run by
# kernel.sh, initramfs.sh and kunit.sh for TREE=base): a 1.4 GB checkout
# that make run and make test of the series never read. Where it exists,
# every check sets it right.
base_worktree_if_present() {
	[ ! -e "$(tree_dir base)" ] || base_worktree
}
# The base worktree, added if missing; one that is not a worktree of
# build/linux (left from an earlier build/linux) is removed and added again.
base_worktree() {
	wt=$(tree_dir base)
	if [ -d "$wt" ]; then
		top=$(git -C "$wt" rev-parse --show-toplevel 2>/dev/null || true)
		common=$(git -C "$wt" rev-parse --path-format=absolute --git-common-dir 2>/dev/null || true)
		if [ "$top" = "$wt" ] && [ "$common" = "$LINUX_REPO/.git" ]; then
			return 0
		fi
		say "tree: $wt is not a worktree of $LINUX_REPO: adding it again"
		rm -rf "$wt"
	fi
	git -C "$LINUX_REPO" worktree prune
	run git -C "$LINUX_REPO" worktree add -q --detach "$wt" base
}

# The patches of one series folder (series_in DIR), or of every series
# of the base in order (series: lib.sh's series_dirs).
series_in() {
	for p in "$1"/[0-9][0-9][0-9][0-9]-*.patch; do
		case $p in */0000-*) continue ;; esac
		[ -f "$p" ] && echo "$p"
	done
	return 0
}
series() {
	for d in $(series_dirs); do
		series_in "$d"
	done
}

# With more than one series, each but the last ends at a branch of the
# kernel repository, series/FOLDER (series/7.3-fixes): export cuts
# base..HEAD there. "git rebase -i --update-refs base" moves them with
# the commits, so that each commit stays in its series (a rebase without
# it leaves them behind, and export says so).
multi_series() { [ "$(series_dirs | wc -l)" -gt 1 ]; }
series_ref() { echo "refs/heads/series/$(basename "$1")"; }
# series_ends_ok: each end is on the way from base to HEAD, in order.
series_ends_ok() {
	prev=base last=$(series_dirs | tail -1)
	for d in $(series_dirs); do
		[ "$d" != "$last" ] || break
		r=$(series_ref "$d")
		git rev-parse -q --verify "$r" > /dev/null &&
			git merge-base --is-ancestor "$prev" "$r" &&
			git merge-base --is-ancestor "$r" HEAD ||
			die "export: where $(basename "$d") ends is lost ($r is not between $prev and HEAD):" \
			    "'git update-ref $r COMMIT' at its last commit, then export again"
		prev=$r
	done
}
# series_ends_by_count: put each end after as many commits from base as
# the folders before it have patches (a tree that is the series, applied
# by no harness that set them).
series_ends_by_count() {
	n=0
	for d in $(series_dirs); do
		n=$((n + $(series_in "$d" | wc -l)))
		c=$(git -C "$LINUX_REPO" rev-list --reverse base..HEAD | sed -n "${n}p")
		[ -z "$c" ] || git -C "$LINUX_REPO" update-ref "$(series_ref "$d")" "$c"
	done
}

apply_series() {
	unpack_base
	base_worktree_if_present
	cd "$LINUX_REPO"
	if [ -n "$(git status --porcelain --untracked-files=no)" ]; then
		die "$LINUX_REPO has uncommitted changes; commit or stash them, then run 'make tree' again"
	fi
	git am --abort >/dev/null 2>&1 || true
	# Keep whatever was checked out reachable, in case it was not exported yet.
	git update-ref refs/harness/before-apply HEAD
	git checkout -q -B master base
	n=0 counts=""
	for d in $(series_dirs); do
		m=0
		for p in $(series_in "$d"); do
			if ! git $GIT_IDENT am -q --keep-cr "$p" >/dev/null 2>&1; then
				git am --abort >/dev/null 2>&1 || true
				die "patch $(basename "$d")/$(basename "$p") does not apply; fix it in $LINUX_REPO" \
				    "(previous HEAD saved as refs/harness/before-apply)"
			fi
			m=$((m + 1))
		done
		n=$((n + m))
		counts="${counts:+$counts, }$m in $(basename "$d")"
		! multi_series || git update-ref "$(series_ref "$d")" HEAD
	done
	git update-ref refs/harness/applied HEAD
	multi_series || counts=""
	say "tree: base + $n patches${counts:+ ($counts)} at $(git log -1 --format=%h), tree $(git rev-parse --short=12 'HEAD^{tree}')"
}

# The id of the tree that base + patches/ make: the git tree hash of the
# result, computed in a scratch index (git apply --cached, no checkout), so
# that it can be compared with the tree that will be built. Cached in
# WORK/series.id against a checksum of patches/.
series_id() {
	sum=$( { git -C "$LINUX_REPO" rev-parse 'base^{tree}'; series; cat $(series) /dev/null; } |
		sha1sum | cut -d' ' -f1)
	if [ -f "$WORK/series.id" ] && [ "$(cut -d' ' -f1 "$WORK/series.id")" = "$sum" ]; then
		cut -d' ' -f2 "$WORK/series.id"
		return 0
	fi
	idx=$WORK/series.index.$$
	(
		export GIT_INDEX_FILE="$idx"
		git -C "$LINUX_REPO" read-tree base
		for p in $(series); do
			git -C "$LINUX_REPO" apply --cached "$p" ||
				{ rm -f "$idx"; die "patch $(basename "$p") does not apply to base:" \
					"fix the series in patches/ (or in $LINUX_REPO, then 'make export')"; }
		done
		git -C "$LINUX_REPO" write-tree > "$idx.id"
	) || exit 1
	id=$(cat "$idx.id")
	rm -f "$idx" "$idx.id"
	echo "$sum $id" > "$WORK/series.id.$$"
	mv -f "$WORK/series.id.$$" "$WORK/series.id"
	echo "$id"
}

# Make sure the trees that will be built are the pinned base and base +
# patches/, before every command that builds or boots: build/linux is
# applied the first time; afterwards its tree must be the series' (id
# above). If patches/ changed since (a git pull, an edit) and build/linux
# holds nothing that patches/ lacks, the series is applied again; if it
# has uncommitted changes, or commits that were never exported, the run
# stops and says what to do. The base worktree, where it exists, must be
# the base, clean.
check_trees() {
	unpack_base
	base_worktree_if_present
	want=$(series_id)
	if ! git -C "$LINUX_REPO" rev-parse -q --verify refs/harness/applied >/dev/null; then
		# Applied by no harness that records it: the base alone (just
		# unpacked) gets the series; a tree that is the series already is
		# taken as applied; anything else may be someone's work.
		if [ "$(git -C "$LINUX_REPO" rev-parse 'HEAD^{tree}')" = "$want" ]; then
			git -C "$LINUX_REPO" update-ref refs/harness/applied HEAD
			! multi_series || series_ends_by_count
		elif [ "$(git -C "$LINUX_REPO" rev-parse HEAD)" = "$(git -C "$LINUX_REPO" rev-parse base)" ] &&
		     [ -z "$(git -C "$LINUX_REPO" status --porcelain --untracked-files=no)" ]; then
			apply_series
		else
			die "$LINUX_REPO is not base + patches/, and this harness did not apply it:" \
			    "'make export' keeps its commits as the series, 'make tree' replaces" \
			    "them with patches/ (they stay reachable as refs/harness/before-apply)"
		fi
	fi
	have=$(git -C "$LINUX_REPO" rev-parse 'HEAD^{tree}')
	dirty=$(git -C "$LINUX_REPO" status --porcelain --untracked-files=no)
	if [ "$have" = "$want" ] && [ -z "$dirty" ]; then
		:
	elif [ -n "$dirty" ]; then
		die "$LINUX_REPO has uncommitted changes, and its tree is not patches/:" \
		    "commit them into the series and run 'make export' (to test them)," \
		    "or 'git -C $LINUX_REPO stash' (to test patches/ as it is)"
	elif [ "$(git -C "$LINUX_REPO" rev-parse HEAD)" != "$(git -C "$LINUX_REPO" rev-parse refs/harness/applied)" ]; then
		die "$LINUX_REPO has commits that patches/ does not have (HEAD moved since" \
		    "the series was last applied or exported): 'make export' keeps them," \
		    "'make tree' drops them (they stay reachable as refs/harness/before-apply)"
	else
		say "tree: patches/ changed since build/linux was applied (tree $(echo "$have" | cut -c1-12)," \
		    "the series is $(echo "$want" | cut -c1-12)): applying it again"
		apply_series
		have=$(git -C "$LINUX_REPO" rev-parse 'HEAD^{tree}')
		[ "$have" = "$want" ] || die "tree: applied tree $have is not the series' $want"
	fi
	wt=$(tree_dir base)
	[ -d "$wt" ] || return 0
	bt=$(git -C "$LINUX_REPO" rev-parse 'base^{tree}')
	if [ "$(git -C "$wt" rev-parse 'HEAD^{tree}')" != "$bt" ] ||
	   [ -n "$(git -C "$wt" status --porcelain --untracked-files=no)" ]; then
		[ -z "$(git -C "$wt" status --porcelain --untracked-files=no)" ] ||
			die "the base worktree $wt has uncommitted changes: 'git -C $wt stash', or remove it"
		say "tree: the base worktree was not at base: checking base out"
		git -C "$wt" checkout -q --detach base
	fi
}

# The identity that the series carries: AUTHOR="Name <mail>" if given, else
# git config user.name and user.email of the project. None: stop.
export_identity() {
	ident=${AUTHOR:-}
	if [ -z "$ident" ]; then
		name=$(git -C "$TOP" config user.name || true)
		mail=$(git -C "$TOP" config user.email || true)
		[ -n "$name" ] && [ -n "$mail" ] ||
			die "export: no identity for From: and Signed-off-by:; set" \
			    "'git config user.name' and 'git config user.email'," \
			    "or run: make export AUTHOR=\"Your Name <you@example.org>\""
		ident="$name <$mail>"
	fi
	case "$ident" in
	*'<'*'@'*'>') ;;
	*) die "export: AUTHOR must read \"Name <mail>\", not \"$ident\"" ;;
	esac
	IDENT_NAME=$(printf '%s\n' "$ident" | sed 's/ *<.*//')
	IDENT_MAIL=$(printf '%s\n' "$ident" | sed 's/.*<\(.*\)>.*/\1/')
	[ -n "$IDENT_NAME" ] || die "export: AUTHOR has no name: \"$ident\""
}

# Give every commit of base..HEAD the identity: author, committer, and one
# Signed-off-by of it in place of any other (the project's commits are all
# the exporter's to send; other trailers are kept).
# The identity the series was signed with until now: the author of its
# first commit that is not a stable backport (sign-commit.sh replaces
# that identity's Signed-off-by in a backport, whose other trailers stay).
prev_ident() {
	for _c in $(git rev-list --reverse base..HEAD); do
		git log -1 --format=%B "$_c" | grep -Eq '^commit [0-9a-f]{40} upstream\.$' && continue
		git log -1 --format='%an <%ae>' "$_c"
		return
	done
}
sign_series() {
	export GIT_COMMITTER_NAME="$IDENT_NAME" GIT_COMMITTER_EMAIL="$IDENT_MAIL"
	export IDENT_NAME IDENT_MAIL
	PREV_IDENT=$(prev_ident)
	export PREV_IDENT
	git -c core.hooksPath=/dev/null rebase -q --update-refs \
		--exec "sh '$TOP/scripts/host/sign-commit.sh'" base ||
		die "export: could not sign the series (git rebase --abort in $LINUX_REPO)"
}

export_series() {
	[ -d "$LINUX_REPO/.git" ] || die "no tree: run 'make tree' first"
	export_identity
	cd "$LINUX_REPO"
	[ -z "$(git status --porcelain --untracked-files=no)" ] ||
		die "export: $LINUX_REPO has uncommitted changes; commit them first"
	n=$(git rev-list --count base..HEAD)
	# Each series but the last must still end where its branch says, on
	# the way from base to HEAD, in order: before the signing rebase
	# (which moves them) and after it.
	! multi_series || series_ends_ok
	[ "$n" -eq 0 ] || sign_series
	! multi_series || series_ends_ok
	prev=base last=$(series_dirs | tail -1) said=""
	for d in $(series_dirs); do
		end=HEAD
		[ "$d" = "$last" ] || end=$(series_ref "$d")
		rm -f "$d"/*.patch
		mkdir -p "$d"
		m=$(git rev-list --count "$prev..$end")
		# A later series names what it needs (base-commit: and a
		# prerequisite-patch-id: for each patch of the series before it).
		if [ "$m" -gt 0 ]; then
			run git format-patch -q --cover-letter --no-signature --zero-commit \
				--base=base -o "$d" "$prev..$end"
			fill_cover "$d"
		fi
		said="${said:+$said, }$m in patches/$(basename "$d")/"
		prev=$end
	done
	git update-ref refs/harness/applied HEAD
	say "export: $said, from $IDENT_NAME <$IDENT_MAIL>"
}

# A series' cover letter: its subject and text live in its folder's
# cover-letter.txt (first line: the subject; the rest: the text);
# format-patch adds the shortlog and the diffstat. fill_cover DIR.
fill_cover() {
	txt=$1/cover-letter.txt
	set -- "$1/0000-cover-letter.patch"
	[ -f "$txt" ] || { say "export: no $txt, cover letter left blank"; return 0; }
	subject=$(head -1 "$txt")
	tail -n +2 "$txt" > "$1.blurb"
	# "@@ " lines mark the tables that cover-tables.py makes from the
	# results files: they stay in cover-letter.txt, not in the letter.
	awk -v subject="$subject" -v blurb="$1.blurb" '
		/\*\*\* SUBJECT HERE \*\*\*/ { sub(/\*\*\* SUBJECT HERE \*\*\*/, subject) }
		/^\*\*\* BLURB HERE \*\*\*$/ {
			while ((getline l < blurb) > 0) if (l !~ /^@@ /) print l
			next
		}
		{ print }' "$1" > "$1.new"
	mv "$1.new" "$1"
	rm -f "$1.blurb"
}

case "${1:-}" in
base) unpack_base; base_worktree ;;
apply) apply_series ;;
check) check_trees ;;
id) series_id ;;
export) export_series ;;
*) die "usage: tree.sh base|apply|check|id|export" ;;
esac
