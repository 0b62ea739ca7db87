#!/bin/sh
# Build the initramfs for one kernel:  initramfs.sh TREE FLAVOUR
# Concatenated cpio archives (the kernel unpacks them all):
#   build/initramfs/common.cpio.gz   busybox-static and the tools with their
#                                    shared libraries; shared by all kernels
#   build/initramfs/fio.cpio.gz      fio and its libraries (some 70 MiB of
#                                    unswappable RAM once unpacked, so only
#                                    in initramfs-fio.cpio.gz, for the jobs
#                                    that run fio)
#   OUT/guest.cpio.gz                the guest scripts, that tree's
#                                    kselftests (the base: the series')
#                                    and the kernel's bench modules
# A flavour of another architecture (i386, arm64: "# ARCH:" in its config
# fragment) gets Debian's packages of that architecture that 'setup.sh
# matrix' unpacks into build/foreign/DEBARCH:
#   build/initramfs/DEBARCH/common.cpio.gz  static binaries only:
#                                    busybox-static, bash-static (/bin/bash),
#                                    swapverify and blkverify, built with the
#                                    cross compiler; no stress-ng or zramctl
#   build/initramfs/DEBARCH/fio.cpio.gz  fio, its program interpreter and
#                                    the libraries of its DT_NEEDED closure
#                                    (elf.sh: elf_closure), libc with them
#                                    (the common part has none)
# and the same two images per kernel as the x86_64 flavours.
# Each part is rebuilt when its inputs are newer than it.
set -eu
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/elf.sh"

tree=${1:?usage: initramfs.sh TREE FLAVOUR}
flavour=${2:?usage: initramfs.sh TREE FLAVOUR}
src=$(tree_dir "$tree")
# The base worktree is made on first use (tree.sh).
[ "$tree" != base ] || [ -d "$src" ] || sh "$TOP/scripts/host/tree.sh" base
# The kselftests come from the tree under test, but the base is tested with
# the series' own (from the patched tree), as kselftest runners run new
# tests on older kernels: what the base lacks must skip, with its reason,
# and what it gets wrong must fail (README: the kselftests on the base).
#
# On 7.3, until the 7.3 series carries its own (its tree has zram03.sh and
# later), the kselftests are the 6.12 series': the same tests, held to
# the same rules on a kernel they were not written for. The 6.12 tree
# (build/linux) is checked, or applied, first.
# A KSRC tree without the series is tested as the base is.
ksrc=$src
[ "$(judged_tree "$tree")" != base ] || ksrc=$(tree_dir patched)
if [ ! -f "$ksrc/tools/testing/selftests/zram/zram03.sh" ] && [ "$BASE" != 6.12 ]; then
	KSRC="" BASE=6.12 sh "$TOP/scripts/host/tree.sh" check ||
		die "initramfs: the 6.12 series' kselftests are needed for BASE=$BASE and build/linux is not ready"
	ksrc=$BUILD/linux
	say "initramfs: the kselftests come from the 6.12 series ($ksrc)"
fi
out=$(out_dir "$tree" "$flavour")
arch=$(flavour_arch "$flavour")
arch_vars "$arch"
common=$BUILD/initramfs/common.cpio.gz
fio=$BUILD/initramfs/fio.cpio.gz
if [ "$arch" != x86_64 ]; then
	common=$BUILD/initramfs/$DEBARCH/common.cpio.gz
	fio=$BUILD/initramfs/$DEBARCH/fio.cpio.gz
fi
TOOLS="/bin/bash /usr/bin/stress-ng /usr/sbin/zramctl /usr/sbin/mke2fs
/usr/bin/bc /usr/bin/timeout /usr/bin/stdbuf"

# Newer than $1? (any of the remaining files or folders' contents)
outdated() {
	target=$1; shift
	[ -e "$target" ] || return 0
	[ -n "$(find "$@" -newer "$target" 2>/dev/null | head -1)" ]
}

# Copy a binary and the shared libraries it needs into $1, but for those
# already in $3 (if given).
copy_with_libs() {
	root=$1 bin=$2 have=${3:-/nonexistent}
	[ -x "$bin" ] || die "initramfs: $bin is missing: run 'make setup'"
	mkdir -p "$root$(dirname "$bin")"
	# The name may be a busybox applet link: replace it, never write through it.
	rm -f "$root$bin"
	cp -L "$bin" "$root$bin"
	ldd "$bin" 2>/dev/null | sed -n 's#.*=> \(/[^ ]*\).*#\1#p; s#^[[:space:]]*\(/[^ ]*\) (.*#\1#p' |
	while read -r lib; do
		mkdir -p "$root$(dirname "$lib")"
		[ -e "$root$lib" ] || [ -e "$have$lib" ] || cp -L "$lib" "$root$lib"
	done
}

# cpio_gz DIR FILE: DIR as a gzipped newc archive that depends on the files'
# contents only (fixed times, owners and inode numbers; no name or time in
# the gzip header), so that a clean clone boots the very same bytes: the
# benchmark's virtual time counts the instructions that unpack them.
cpio_gz() {
	find "$1" -exec touch -h -d @1735689600 {} +
	(cd "$1" && find . -print0 | LC_ALL=C sort -z |
		cpio --null -o -H newc --quiet -R 0:0 --reproducible) | gzip -n -6 > "$2"
}

build_common() {
	outdated "$common" "$TOP/scripts/host/initramfs.sh" "$TOP/tools" || return 0
	stage=$BUILD/initramfs/common
	rm -rf "$stage"
	mkdir -p "$stage"
	cd "$stage"
	mkdir -p bin sbin usr/bin usr/sbin lib lib64 proc sys dev tmp run root etc mnt
	[ -x /bin/busybox ] || die "initramfs: busybox-static is missing: run 'make setup'"
	file -L /bin/busybox 2>/dev/null | grep -q 'statically linked' ||
		die "initramfs: /bin/busybox is not static: install busybox-static"
	cp /bin/busybox bin/busybox
	# One link per applet, where no real tool takes the name.
	for app in $(/bin/busybox --list-full); do
		[ -e "$app" ] || ln -s /bin/busybox "$app"
	done
	for t in $TOOLS; do copy_with_libs "$stage" "$t"; done
	# stdbuf (the kselftest runner uses it) preloads this library.
	mkdir -p usr/libexec/coreutils
	cp /usr/libexec/coreutils/libstdbuf.so usr/libexec/coreutils/
	# Our own tools (tools/), static so they need no library: the
	# verified swap workload and block check, the fixed-rate reader and
	# the swap-in benchmark.
	for t in swapverify blkverify ratereader swapin; do
		gcc -static -O2 -Wall -pthread -o "usr/bin/$t" "$TOP/tools/$t.c" ||
			die "initramfs: cannot build tools/$t.c (gcc, libc6-dev)"
	done
	ln -sf mke2fs usr/sbin/mkfs.ext4
	ln -sf mke2fs usr/sbin/mkfs.ext2
	ln -sf ../../bin/bash usr/bin/bash
	finish_common
}

# The files every guest needs, then $stage packed into $common.
finish_common() {
	echo 'root:x:0:0:root:/root:/bin/sh' > etc/passwd
	echo 'root:x:0:' > etc/group
	: > etc/fstab
	cd "$TOP"
	cpio_gz "$stage" "$common.tmp"
	mv "$common.tmp" "$common"
	say "initramfs: $common ($(du -h "$common" | cut -f1))"
}

# The same for another architecture, from static binaries only.
build_common_foreign() {
	root=$BUILD/foreign/$DEBARCH
	for f in bin/busybox bin/bash-static; do
		[ -x "$root/$f" ] || die "initramfs: no $root/$f: run 'sh scripts/host/setup.sh matrix'"
	done
	command -v "$TARGET_CC" >/dev/null 2>&1 ||
		die "initramfs: no $TARGET_CC: run 'sh scripts/host/setup.sh matrix'"
	outdated "$common" "$TOP/scripts/host/initramfs.sh" "$TOP/tools" "$root" || return 0
	stage=$BUILD/initramfs/$DEBARCH/common
	rm -rf "$stage"
	mkdir -p "$stage"
	cd "$stage"
	mkdir -p bin sbin usr/bin usr/sbin lib proc sys dev tmp run root etc mnt
	cp "$root/bin/busybox" bin/busybox
	cp "$root/bin/bash-static" bin/bash
	ln -sf ../../bin/bash usr/bin/bash
	# The applets of the host's busybox-static: Debian builds every
	# architecture's from one configuration.
	for app in $(/bin/busybox --list-full); do
		[ -e "$app" ] || ln -s /bin/busybox "$app"
	done
	# The kselftest runner bounds each test with GNU's "timeout
	# --foreground"; busybox's timeout lacks the option (and never makes a
	# process group of its own, which is what --foreground avoids). A test
	# it stops ends with status 143, not 124: still a failure.
	rm -f usr/bin/timeout
	printf '%s\n' '#!/bin/sh' '[ "$1" = --foreground ] && shift' \
		'exec /bin/busybox timeout "$@"' > usr/bin/timeout
	chmod 755 usr/bin/timeout
	# busybox's mke2fs makes ext2 (the zram01 kselftest falls back to it);
	# it answers only to its own name, and picks 1 KiB blocks for a small
	# device where e2fsprogs' takes the device's logical block size (4 KiB
	# on zram: the kernel cannot mount smaller blocks there).
	printf '#!/bin/sh\nexec mke2fs -b 4096 "$@"\n' > usr/sbin/mkfs.ext2
	chmod 755 usr/sbin/mkfs.ext2
	for t in swapverify blkverify ratereader swapin; do
		"$TARGET_CC" -static -O2 -Wall -pthread -o "usr/bin/$t" "$TOP/tools/$t.c" ||
			die "initramfs: cannot build tools/$t.c with $TARGET_CC"
	done
	finish_common
}

build_fio() {
	outdated "$fio" "$common" || return 0
	stage=$BUILD/initramfs/fio
	rm -rf "$stage"
	mkdir -p "$stage"
	copy_with_libs "$stage" /usr/bin/fio "$BUILD/initramfs/common"
	cpio_gz "$stage" "$fio.tmp"
	mv "$fio.tmp" "$fio"
	say "initramfs: $fio ($(du -h "$fio" | cut -f1))"
}

# fio of another architecture: the files of its closure, each copied (its
# links followed inside the unpacked tree) to the path the loader looks
# for. If qemu-user-static is installed, the copy must start there alone:
# its own loader, run with --inhibit-cache (the guest has no ld.so.cache;
# the host's must not lend it a library), prints fio's version.
build_fio_foreign() {
	root=$BUILD/foreign/$DEBARCH
	[ -x "$root/usr/bin/fio" ] || die "initramfs: no $root/usr/bin/fio: run 'sh scripts/host/setup.sh matrix'"
	outdated "$fio" "$TOP/scripts/host/initramfs.sh" "$TOP/scripts/host/elf.sh" "$root" || return 0
	files=$(elf_closure "$root" "$DEBARCH" /usr/bin/fio) ||
		die "initramfs: fio:$DEBARCH lacks" \
			"$(echo "$files" | sed -n 's/^missing \([^ ]*\) .*/\1/p' | sort -u | tr '\n' ' ')in $root:" \
			"run 'sh scripts/host/setup.sh matrix'"
	stage=$BUILD/initramfs/$DEBARCH/fio
	rm -rf "$stage"
	for f in $files; do
		mkdir -p "$stage$(dirname "$f")"
		cp "$root$(root_path "$root" "$f")" "$stage$f"
	done
	emu=$(deb_qemu_user "$DEBARCH")
	if command -v "$emu" >/dev/null 2>&1; then
		interp=$(readelf -lW "$stage/usr/bin/fio" | sed -n 's/.*program interpreter: \(.*\)\]$/\1/p')
		v=$("$emu" -L "$stage" "$stage$interp" --inhibit-cache /usr/bin/fio --version 2>&1) ||
			die "initramfs: fio:$DEBARCH does not start from $stage under $emu: $v"
		say "initramfs: $v ($DEBARCH) starts from its files alone under $emu"
	fi
	cpio_gz "$stage" "$fio.tmp"
	mv "$fio.tmp" "$fio"
	say "initramfs: $fio ($(du -h "$fio" | cut -f1); $(echo "$files" | wc -l) files," \
		"$(du -sh "$stage" | cut -f1) unpacked)"
}

build_guest() {
	img=$out/guest.cpio.gz
	outdated "$img" "$TOP/scripts/guest" "$TOP/scripts/host/initramfs.sh" \
		"$ksrc/tools/testing/selftests/zram" \
		"$ksrc/tools/testing/selftests/kselftest" "$out/bench" || return 0
	stage=$out/guest-root
	rm -rf "$stage"
	mkdir -p "$stage/harness" "$stage/kselftest" "$stage/lib/bench"
	# Every file of scripts/guest/: the jobs, the libraries they source
	# (lib.sh, faults-lib.sh) and their awk programs (*.awk).
	cp "$TOP"/scripts/guest/* "$stage/harness/"
	mv "$stage/harness/init" "$stage/init"
	# The tree's own kselftests, installed by the kselftest build system;
	# their programs (zram08's helper) built static for the guest's
	# architecture, as the guest has no libc of its own.
	make -s -C "$ksrc/tools/testing/selftests" O="$out/kselftest-build" \
		CC="$TARGET_CC" USERLDFLAGS=-static TARGETS=zram \
		INSTALL_PATH="$stage/kselftest" install >/dev/null ||
		die "initramfs: kselftest install failed for $tree ($TARGET_CC," \
			"static libc: see 'sh scripts/host/setup.sh')"
	rm -rf "$out/kselftest-build"
	if [ -d "$out/bench" ]; then
		find "$out/bench" -name '*.ko' -exec cp {} "$stage/lib/bench/" \;
	fi
	# zram and zsmalloc built as modules (the check-configs "modules"
	# configuration): the job "modules" loads and unloads them, after the
	# modules they need (lib/'s compressors), listed in load order in
	# lib/zram/deps.
	if [ -f "$out/drivers/block/zram/zram.ko" ]; then
		mkdir -p "$stage/lib/zram"
		module_deps "$out" zram | awk '!seen[$0]++' > "$stage/lib/zram/deps"
		while read -r m; do
			cp "$(find "$out" -name "$m.ko" ! -path '*/guest-root/*' | head -1)" \
				"$stage/lib/zram/"
		done < "$stage/lib/zram/deps"
	fi
	cpio_gz "$stage" "$img.tmp"
	mv "$img.tmp" "$img"
}

# Print the modules that module $2 of build $1 needs, recursively, each
# before the modules that need it, $2 last (modinfo's "depends" field).
module_deps() {
	_ko=$(find "$1" -name "$2.ko" ! -path '*/guest-root/*' | head -1)
	[ -n "$_ko" ] || die "initramfs: $2.ko is not in $1"
	for _d in $(modinfo -F depends "$_ko" | tr , ' '); do
		module_deps "$1" "$_d"
	done
	echo "$2"
}

mkdir -p "$(dirname "$common")" "$out"
if [ "$arch" != x86_64 ]; then
	build_common_foreign
	build_fio_foreign
else
	build_common
	build_fio
fi
build_guest
cat "$common" "$out/guest.cpio.gz" > "$out/initramfs.cpio.gz"
cat "$common" "$fio" "$out/guest.cpio.gz" > "$out/initramfs-fio.cpio.gz"
say "initramfs: $out/initramfs.cpio.gz, $out/initramfs-fio.cpio.gz ($arch)"
