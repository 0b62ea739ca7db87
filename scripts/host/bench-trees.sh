# The kernels that the benchmarks compare, besides base and patched
# (sourced by bench-zram.sh, bench-latency.sh and bench-write.sh, after
# lib.sh; bench-write.sh uses worktree alone):
#   mid     (6.12) the series up to MID_SUBJECT, a worktree at build/mid/linux
#   rmutex  the series and bench/variants/[BASE/]read-stream-mutex.patch, a
#           worktree at build/rmutex/linux (build/7.3/rmutex/linux)
#   nctx    (7.3) the series and bench/variants/7.3/read-no-context.patch
#           (no read context where decompression needs no state), at
#           build/7.3/nctx/linux
# bench_trees KERNELS puts each worktree that KERNELS names in place.
MID_SUBJECT='zram: preemptible per-CPU compression streams'
VARIANT=$TOP/bench/variants/read-stream-mutex.patch
[ "$BASE" = 6.12 ] || VARIANT=$TOP/bench/variants/$BASE/read-stream-mutex.patch

# worktree NAME SHA: a detached worktree of the series' tree at SHA.
worktree() {
	wt=$(tree_dir "$1")
	if [ -d "$wt" ] && git -C "$wt" rev-parse -q --verify HEAD >/dev/null 2>&1; then
		[ -z "$(git -C "$wt" status --porcelain --untracked-files=no)" ] ||
			die "$wt has uncommitted changes"
		[ "$(git -C "$wt" rev-parse HEAD)" = "$2" ] ||
			run git -C "$wt" checkout -q --detach "$2"
	else
		run git -C "$LINUX_REPO" worktree prune
		run git -C "$LINUX_REPO" worktree add -q --detach "$wt" "$2"
	fi
}

# build/mid/linux: the series' commit MID_SUBJECT.
mid_worktree() {
	sha=$(git -C "$LINUX_REPO" log --format=%H --grep="^$MID_SUBJECT\$" base..HEAD)
	[ -n "$sha" ] || die "no commit '$MID_SUBJECT' in base..HEAD of $LINUX_REPO"
	[ "$(echo "$sha" | wc -l)" = 1 ] || die "several commits '$MID_SUBJECT' in $LINUX_REPO"
	worktree mid "$sha"
}

# variant_worktree NAME PATCH: build/NAME/linux, the series' HEAD and the
# variant PATCH, applied anew when either changed (the variant commit's
# parent must be HEAD, and its patch id the file's).
variant_worktree() {
	[ -f "$2" ] || die "no $2"
	head=$(git -C "$LINUX_REPO" rev-parse HEAD)
	wt=$(tree_dir "$1")
	want=$(git patch-id --stable < "$2" | cut -d' ' -f1)
	if [ -d "$wt" ] && [ "$(git -C "$wt" rev-parse -q --verify HEAD^ 2>/dev/null)" = "$head" ] &&
		[ "$(git -C "$wt" show HEAD | git patch-id --stable | cut -d' ' -f1)" = "$want" ]; then
		return 0
	fi
	worktree "$1" "$head"
	git -C "$wt" -c user.name=bench -c user.email=bench@localhost am -q "$2" ||
		{ git -C "$wt" am --abort; die "$2 does not apply on the series' HEAD: refresh it"; }
}

rmutex_worktree() { variant_worktree rmutex "$VARIANT"; }

# bench_trees KERNELS: the worktrees of mid, rmutex and nctx where KERNELS
# has them.
bench_trees() {
	for t in $1; do
		case $t in
		mid) mid_worktree ;;
		rmutex) rmutex_worktree ;;
		nctx) [ "$BASE" != 6.12 ] || die "nctx: a 7.3 variant only (BASE=7.3)"
			variant_worktree nctx "$TOP/bench/variants/$BASE/read-no-context.patch" ;;
		esac
	done
}
