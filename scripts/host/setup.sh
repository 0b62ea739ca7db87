#!/bin/sh
# Install what the harness needs from Debian's packages. The kernel source is
# pinned to one exact version: the series is written against it. BASE=7.3
# takes linux-source-7.3 from Debian's trixie-backports suite, added for
# that one package (trixie_backports below): nothing else upgrades from it.
#   setup.sh          what make run, make test and the benchmarks need
#   setup.sh matrix   also what make matrix needs (after the above): the
#                     emulators and cross compilers, and the static busybox
#                     and bash of each foreign architecture and its fio with
#                     the libraries it loads, unpacked into
#                     build/foreign/DEBARCH (see matrix_setup, fio_setup)
set -eu
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/elf.sh"

PKGS="qemu-system-x86 busybox-static fio stress-ng util-linux ccache flex bison bc
libelf-dev libssl-dev cpio sparse kmod xz-utils gcc libc6-dev make perl python3 git rsync file python3-ply python3-git
python3-scipy ministat coccinelle shellcheck pyflakes3"

# make matrix: i386 and arm64 guests. The foreign userland comes as .debs
# (busybox-static and bash-static are not Multi-Arch: same, so installing
# them would replace the host's own busybox; fio and its libraries would
# replace the host's fio and pull in much more), fetched with apt-get
# download and unpacked with dpkg-deb under build/foreign/DEBARCH.
MATRIX_PKGS="qemu-system-x86 qemu-system-arm gcc-aarch64-linux-gnu libc6-dev-arm64-cross
gcc-i686-linux-gnu libc6-dev-i386-cross"
MATRIX_ARCHES="i386 arm64"
MATRIX_DEBS="busybox-static bash-static"

# Is fio:ARCH there with every library it loads?
fio_ok() {
	[ -x "$BUILD/foreign/$1/usr/bin/fio" ] &&
		elf_closure "$BUILD/foreign/$1" "$1" /usr/bin/fio >/dev/null 2>&1
}

# deb_depends DEB: the packages DEB depends on (Pre-Depends and Depends; of
# alternatives the first), without versions or architecture qualifiers.
deb_depends() {
	{ dpkg-deb -f "$1" Pre-Depends; dpkg-deb -f "$1" Depends; } | tr ',' '\n' |
		sed 's/|.*//; s/(.*)//; s/:[a-z0-9]*//; s/[[:space:]]//g' | sed '/^$/d'
}

# fio_setup ARCH: fio:ARCH (the zram kselftests zram04, zram08, zram09 need it)
# and the packages of the libraries it loads, unpacked into
# build/foreign/ARCH. fio's Depends name more than its program loads
# (python3 for its scripts, init-system-helpers), so it is the ELF files
# that are followed (elf.sh: elf_closure, from DT_NEEDED): a library that
# the closure misses must come from a package that an unpacked one depends
# on (dpkg-shlibdeps writes those Depends from DT_NEEDED). Each round
# downloads the candidates not seen yet (Architecture: all ones cannot
# have a library of ARCH) and unpacks those that have a missing file; the
# others wait in debs/ARCH/unused in case a later round needs them. Stops
# with the names it cannot find.
fio_setup() {
	a=$1 root=$BUILD/foreign/$1 d=$BUILD/foreign/debs/$1
	command -v readelf >/dev/null 2>&1 || die "setup: no readelf: apt-get install binutils"
	mkdir -p "$d/unused" "$root"
	chmod 777 "$d" "$d/unused"
	rm -f "$d"/fio_*.deb
	(cd "$d" && run apt-get download -q "fio:$a") ||
		die "setup: cannot download fio:$a (apt-get update first? the $a index must be there)"
	for deb in "$d"/fio_*.deb; do run dpkg-deb -x "$deb" "$root"; done
	[ -x "$root/usr/bin/fio" ] || die "setup: no usr/bin/fio in fio:$a"
	looked=" fio " expanded=" "
	while :; do
		missing=$(elf_closure "$root" "$a" /usr/bin/fio | sed -n 's/^missing \([^ ]*\) .*/\1/p' | sort -u)
		[ -n "$missing" ] || break
		# Downloaded in an earlier round and set aside, but needed now?
		got=0
		for deb in "$d"/unused/*.deb; do
			[ -f "$deb" ] || continue
			dpkg-deb -c "$deb" | awk '{ print $6 }' | sed 's#.*/##' | grep -qxF "$missing" ||
				continue
			mv "$deb" "$d/"
			run dpkg-deb -x "$d/${deb##*/}" "$root"
			got=1
		done
		[ $got = 0 ] || continue
		new=""
		for deb in "$d"/*.deb; do
			case "$expanded" in *" $deb "*) continue ;; esac
			expanded="$expanded$deb "
			for p in $(deb_depends "$deb"); do
				case "$looked" in *" $p "*) continue ;; esac
				looked="$looked$p "
				new="$new $p:$a"
			done
		done
		[ -n "$new" ] || die "setup: fio:$a needs" $missing "and no package it depends on has it"
		say "setup: fio:$a needs" $missing "- looking in" $new
		# shellcheck disable=SC2086 # a list of names
		new=$(apt-cache show --no-all-versions $new 2>/dev/null |
			awk -v a="$a" '/^Package: / { p = $2 } /^Architecture: / && $2 == a { print p ":" a }')
		[ -n "$new" ] || continue
		# shellcheck disable=SC2086
		(cd "$d/unused" && run apt-get download -q $new) ||
			die "setup: cannot download" $new "(for fio:$a; apt-get update first?)"
	done
	say "setup: fio:$a and what it loads in $root ($(elf_closure "$root" "$a" /usr/bin/fio | wc -l) files)"
}

matrix_setup() {
	missing=""
	for p in $MATRIX_PKGS; do
		dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'ok installed' || missing="$missing $p"
	done
	need_debs="" need_fio=""
	for a in $MATRIX_ARCHES; do
		if ! [ -x "$BUILD/foreign/$a/bin/busybox" ] || ! [ -x "$BUILD/foreign/$a/bin/bash-static" ]; then
			need_debs="$need_debs $a"
			need_fio="$need_fio $a"
		elif ! fio_ok "$a"; then
			need_fio="$need_fio $a"
		fi
	done
	if [ -z "$missing" ] && [ -z "$need_debs" ] && [ -z "$need_fio" ]; then
		say "setup: matrix packages present"
		return 0
	fi
	[ "$(id -u)" = 0 ] || die "setup: for make matrix, as root: apt-get install$missing;" \
		"dpkg --add-architecture for$need_fio, apt-get update and" \
		"'sh scripts/host/setup.sh matrix' to unpack $MATRIX_DEBS and fio"
	export DEBIAN_FRONTEND=noninteractive
	added=0
	for a in $need_fio; do
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
	for a in $need_fio; do fio_setup "$a"; done
	say "setup: matrix packages installed"
}

# The trixie-backports suite, for linux-source-7.3 alone. The suite is
# NotAutomatic already (priority 1); the pin makes it -1 for every other
# package, so that no upgrade or dependency ever comes from it, and 500 for
# the one exact version of the source package. Bookworm's keyring has
# trixie's archive keys.
TB_LIST=/etc/apt/sources.list.d/harness-trixie-backports.list
TB_PIN=/etc/apt/preferences.d/harness-trixie-backports
trixie_backports() {
	want_list="deb [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] http://deb.debian.org/debian trixie-backports main"
	want_pin="Package: *
Pin: release n=trixie-backports
Pin-Priority: -1

Package: $SRC_PKG
Pin: version $SRC_VER
Pin-Priority: 500"
	[ "$(cat "$TB_LIST" 2>/dev/null)" = "$want_list" ] &&
		[ "$(cat "$TB_PIN" 2>/dev/null)" = "$want_pin" ] && return 1
	printf '%s\n' "$want_list" > "$TB_LIST"
	printf '%s\n' "$want_pin" > "$TB_PIN"
	say "setup: added $TB_LIST, pinned by $TB_PIN ($SRC_PKG $SRC_VER only)"
	return 0
}

# The pinned kernel sources: the base's, and 6.12's on every base (7.3 is
# tested with the 6.12 series' kselftests until it has its own).
SOURCES="linux-source-6.12=6.12.117-1~deb12u1"
[ "$SRC_PKG" = linux-source-6.12 ] || SOURCES="$SOURCES $SRC_PKG=$SRC_VER"

have_pinned() {
	for pv in $SOURCES; do
		[ "$(dpkg-query -W -f='${Version}' "${pv%%=*}" 2>/dev/null)" = "${pv#*=}" ] || return 1
	done
}

if [ "${1:-}" = matrix ]; then
	matrix_setup
	exit 0
fi

missing=""
for p in $PKGS; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'ok installed' || missing="$missing $p"
done

# The suite and its pin are kept as they must be (a setup of another
# version would have left its own).
if [ "$SRC_SUITE" = trixie-backports ] && [ "$(id -u)" = 0 ]; then
	trixie_backports || true
fi

if [ -z "$missing" ] && have_pinned; then
	say "setup: all packages present ($(echo "$SOURCES" | sed 's/=/ /g; s/ linux/, linux/'))"
	exit 0
fi

[ "$(id -u)" = 0 ] || die "setup: missing packages:$missing; run 'make setup' as root"

export DEBIAN_FRONTEND=noninteractive
run apt-get update -q || say "setup: apt-get update reported errors (continuing)"
for pv in $SOURCES; do
	apt-cache madison "${pv%%=*}" | grep -q " ${pv#*=} " && continue
	suite=bookworm-security
	[ "${pv%%=*}" = linux-source-6.12 ] || suite=$SRC_SUITE
	die "setup: ${pv%%=*} version ${pv#*=} is not available from the configured" \
	    "apt sources, and BASE=$BASE needs it: check that Debian's $suite suite can be" \
	    "reached (apt-get update), or fetch that .deb by hand and install it with dpkg -i"
done
# shellcheck disable=SC2086 # lists of names
run apt-get install -y -q --no-install-recommends $SOURCES $missing
have_pinned || die "setup: $SOURCES did not install"
say "setup: done"
