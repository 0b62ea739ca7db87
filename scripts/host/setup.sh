#!/bin/sh
# Install what the harness needs from Debian's packages. The kernel source is
# pinned to one exact version: the series is written against it.
set -eu
. "$(dirname "$0")/lib.sh"

SRC_PKG=linux-source-6.12
SRC_VER=6.12.117-1~deb12u1
PKGS="qemu-system-x86 busybox-static fio stress-ng util-linux ccache flex bison bc
libelf-dev libssl-dev cpio sparse kmod xz-utils gcc libc6-dev make perl python3 git rsync file python3-ply"

have_pinned() {
	[ "$(dpkg-query -W -f='${Version}' "$SRC_PKG" 2>/dev/null)" = "$SRC_VER" ]
}

missing=""
for p in $PKGS; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'ok installed' || missing="$missing $p"
done

if [ -z "$missing" ] && have_pinned; then
	say "setup: all packages present ($SRC_PKG $SRC_VER)"
	exit 0
fi

[ "$(id -u)" = 0 ] || die "setup: missing packages:$missing; run 'make setup' as root"

export DEBIAN_FRONTEND=noninteractive
run apt-get update -q
if ! apt-cache madison "$SRC_PKG" | grep -q " $SRC_VER "; then
	die "setup: $SRC_PKG version $SRC_VER is not available from the configured apt sources;" \
	    "the series is pinned to it: add the bookworm-security source or fetch that .deb by hand"
fi
run apt-get install -y -q --no-install-recommends "$SRC_PKG=$SRC_VER" $missing
have_pinned || die "setup: $SRC_PKG $SRC_VER did not install"
say "setup: done"
