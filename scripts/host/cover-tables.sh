#!/bin/sh
# The cover letters' tables from the results files (cover-tables.py):
#   cover-tables.sh render   write them into patches/BASE*/cover-letter.txt
#   cover-tables.sh check    fail on a table that is not its file's, or
#                            whose file measured another tree than the
#                            series' (make check-series runs it)
#   cover-tables.sh manifest [TREEISH]
#                            bench/results/trees/TREEID.json: the paths
#                            where a measured tree differs from the base
# The series' tree: tree.sh id (base + every series of BASE, as built).
set -eu
. "$(dirname "$0")/lib.sh"

mode=${1:?usage: cover-tables.sh render|check|manifest [TREEISH]}
if [ "$mode" = manifest ]; then
	# bench/results/trees/TREEID.json for TREEISH (a commit or a worktree,
	# default build/linux's HEAD): what it changed against the base.
	what=${2:-$LINUX_REPO}
	if [ -d "$what" ]; then
		repo=$what; what=HEAD
	else
		repo=$LINUX_REPO
	fi
	exec "$PY3" "$TOP/scripts/host/cover-tables.py" manifest --results "$TOP/bench/results" \
		--tree "$what" --repo "$repo" --base base
fi
tree=$(sh "$TOP/scripts/host/tree.sh" id)
covers=$(ls "$TOP"/patches/"$BASE"*/cover-letter.txt 2>/dev/null || true)
[ -n "$covers" ] || die "cover-tables: no patches/$BASE*/cover-letter.txt"
# shellcheck disable=SC2086 # one argument a cover letter
"$PY3" "$TOP/scripts/host/cover-tables.py" "$mode" --results "$TOP/bench/results" \
	--tree "$tree" --repo "$LINUX_REPO" $covers
