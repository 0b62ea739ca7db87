#!/bin/sh
# Install what the harness needs from Debian's packages. The kernel source is
# pinned to one exact version: the series is written against it.
#   setup.sh          what make run, make test and the benchmarks need
#   setup.sh matrix   also what make matrix needs (after the above): the
#                     emulators and cross compilers, and the static busybox
#                     and bash of each foreign architecture, unpacked into
#                     build/foreign/DEBARCH (see matrix_setup)
set -eu
. "$(dirname "$0")/lib.sh"

SRC_PKG=linux-source-6.12
SRC_VER=6.12.117-1~deb12u1
PKGS="qemu-system-x86 busybox-static fio stress-ng util-linux ccache flex bison bc
libelf-dev libssl-dev cpio sparse kmod xz-utils gcc libc6-dev make perl python3 git rsync file python3-ply"

# make matrix: i386 and arm64 guests. The foreign userland comes as .debs
# (busybox-static and bash-static are not Multi-Arch: same, so installing
# them would replace the host's own busybox), fetched with apt-get download
# and unpacked with dpkg-deb under build/foreign/DEBARCH.
MATRIX_PKGS="qemu-system-x86 qemu-system-arm gcc-aarch64-linux-gnu libc6-dev-arm64-cross
gcc-i686-linux-gnu libc6-dev-i386-cross"
MATRIX_ARCHES="i386 arm64"
MATRIX_DEBS="busybox-static bash-static"

matrix_setup() {
	missing=""
	for p in $MATRIX_PKGS; do
		dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'ok installed' || missing="$missing $p"
	done
	need_debs=""
	for a in $MATRIX_ARCHES; do
		[ -x "$BUILD/foreign/$a/bin/busybox" ] && [ -x "$BUILD/foreign/$a/bin/bash-static" ] ||
			need_debs="$need_debs $a"
	done
	if [ -z "$missing" ] && [ -z "$need_debs" ]; then
		say "setup: matrix packages present"
		return 0
	fi
	[ "$(id -u)" = 0 ] || die "setup: for make matrix, as root: apt-get install$missing;" \
		"dpkg --add-architecture for$need_debs, apt-get update and" \
		"'sh scripts/host/setup.sh matrix' to unpack $MATRIX_DEBS"
	export DEBIAN_FRONTEND=noninteractive
	added=0
	for a in $need_debs; do
		dpkg --print-foreign-architectures | grep -qx "$a" && continue
		run dpkg --add-architecture "$a"
		added=1
	done
	# A foreign index that fails to download (a mirror mid-sync) is reported
	# by apt-get update but is not needed by every step: the download below
	# says which package it could not find.
	if [ -n "$missing" ] || [ $added = 1 ]; then
		run apt-get update -q || say "setup: apt-get update reported errors (continuing)"
	fi
	[ -z "$missing" ] || run apt-get install -y -q --no-install-recommends $missing
	for a in $need_debs; do
		d=$BUILD/foreign/debs/$a
		rm -rf "$d" "$BUILD/foreign/$a"
		mkdir -p "$d" "$BUILD/foreign/$a"
		pkgs=""
		for p in $MATRIX_DEBS; do pkgs="$pkgs $p:$a"; done
		# apt's _apt user downloads into a folder it may write.
		chmod 777 "$d"
		(cd "$d" && run apt-get download -q $pkgs) ||
			die "setup: cannot download$pkgs (apt-get update first?)"
		for deb in "$d"/*.deb; do run dpkg-deb -x "$deb" "$BUILD/foreign/$a"; done
		[ -x "$BUILD/foreign/$a/bin/busybox" ] && [ -x "$BUILD/foreign/$a/bin/bash-static" ] ||
			die "setup: no bin/busybox or bin/bash-static in $BUILD/foreign/$a"
	done
	say "setup: matrix packages installed"
}

have_pinned() {
	[ "$(dpkg-query -W -f='${Version}' "$SRC_PKG" 2>/dev/null)" = "$SRC_VER" ]
}

if [ "${1:-}" = matrix ]; then
	matrix_setup
	exit 0
fi

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
