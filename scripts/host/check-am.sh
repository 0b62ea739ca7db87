#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# check-am.sh DEBIAN_VERSION: does the series apply, with git am, to another
# Debian build of the same kernel? Downloads linux-source-$BASE of that
# version with apt-get download (no install, no root), unpacks it in a
# scratch folder, commits it, and applies patches/$BASE (after
# patches/$BASE-fixes, before patches/$BASE-selftests, where they exist). Prints the
# release the tarball's Makefile names, each patch's result, the tree id
# and "N passed, N failed" (patches). Example:
#   sh scripts/host/check-am.sh 6.12.118-1~deb12u1
set -eu
. "$(dirname "$0")/lib.sh"

ver=${1:?usage: check-am.sh DEBIAN_VERSION (apt-cache madison linux-source-$BASE lists them)}
pkg=linux-source-$BASE
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
(cd "$tmp" && apt-get download -q "$pkg=$ver" > apt.log 2>&1) ||
	die "check-am: apt-get download $pkg=$ver failed: $(tail -2 "$tmp/apt.log")"
dpkg-deb -x "$tmp"/*.deb "$tmp/deb"
tarball=$(ls "$tmp"/deb/usr/src/linux-source-*.tar.xz | head -1)
mkdir "$tmp/linux"
tar -xJf "$tarball" -C "$tmp/linux" --strip-components=1
rm -rf "$tmp/deb" "$tmp"/*.deb
release=$(awk -F' *= *' '$1 == "VERSION" { v = $2 } $1 == "PATCHLEVEL" { p = $2 }
	$1 == "SUBLEVEL" { s = $2 } END { print v "." p "." s }' "$tmp/linux/Makefile")
say "check-am: $pkg $ver unpacked: Linux $release"
g() { git -C "$tmp/linux" -c user.name=check-am -c user.email=check-am@localhost "$@"; }
g init -q -b master
g add -f -A .
g commit -q -m "Linux $release (Debian $pkg $ver)"
pass=0 fail=0
# Every series of the base, in order (lib.sh: series_dirs).
for p in $(for d in $(series_dirs); do ls "$d"/[0-9]*.patch; done); do
	case "${p##*/}" in 0000-*) continue ;; esac
	if g am -q --whitespace=nowarn "$p" > "$tmp/am.log" 2>&1; then
		pass=$((pass + 1))
		echo "ok ${p##*/}"
	else
		fail=$((fail + 1))
		echo "not ok ${p##*/}"
		sed 's/^/#   /' "$tmp/am.log" | head -8
		g am --abort > /dev/null 2>&1 || true
		break
	fi
done
[ "$fail" = 0 ] && say "check-am: the series applies to Debian $ver (Linux $release): tree $(g rev-parse --short=12 'HEAD^{tree}')"
echo "$pass passed, $fail failed"
[ "$fail" = 0 ]
