#!/bin/sh
# Run by 'tree.sh export' on each commit of the series (git rebase --exec):
# give HEAD the author IDENT_NAME <IDENT_MAIL> and one Signed-off-by of it
# in place of any other; the committer comes from the environment.
set -eu
msg=$(git rev-parse --git-dir)/sign-msg
git log -1 --format=%B | sed '/^Signed-off-by: /d' |
	git interpret-trailers --trailer "Signed-off-by: $IDENT_NAME <$IDENT_MAIL>" > "$msg"
git commit -q --amend --no-verify --allow-empty \
	--author="$IDENT_NAME <$IDENT_MAIL>" -F "$msg"
rm -f "$msg"
