#!/bin/sh
# Run by 'tree.sh export' on each commit of the series (git rebase --exec):
# give HEAD the author IDENT_NAME <IDENT_MAIL> and one Signed-off-by of it
# in place of any other; the committer comes from the environment.
#
# A stable backport of an upstream commit (a body line "commit SHA
# upstream.", as Documentation/process/stable-kernel-rules.rst asks) keeps
# its upstream author and trailers: the exporter's Signed-off-by is
# appended to them, once, in place of that of PREV_IDENT (the identity
# the series was signed with until now, from tree.sh) unless PREV_IDENT
# is the backport's own author.
set -eu
msg=$(git rev-parse --git-dir)/sign-msg
sob="Signed-off-by: $IDENT_NAME <$IDENT_MAIL>"
prev="Signed-off-by: ${PREV_IDENT:-}"
[ -n "${PREV_IDENT:-}" ] && [ "$PREV_IDENT" != "$(git log -1 --format='%an <%ae>')" ] || prev=$sob
if git log -1 --format=%B | grep -Eq '^commit [0-9a-f]{40} upstream\.$'; then
	# Right under the backport note, as stable's backports read.
	printf '%s\n%s\n' "$(git log -1 --format=%B | grep -vxF -e "$sob" -e "$prev")" "$sob" > "$msg"
	git commit -q --amend --no-verify --allow-empty -F "$msg"
else
	git log -1 --format=%B | sed '/^Signed-off-by: /d' |
		git interpret-trailers --trailer "$sob" > "$msg"
	git commit -q --amend --no-verify --allow-empty \
		--author="$IDENT_NAME <$IDENT_MAIL>" -F "$msg"
fi
rm -f "$msg"
