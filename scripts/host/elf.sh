# Dynamically linked programs of another architecture (sourced after lib.sh,
# POSIX sh): which files of a tree unpacked from Debian's packages
# (build/foreign/DEBARCH, see setup.sh matrix) a program needs to start.
# Read from the ELF headers with readelf, which reads every architecture's;
# ldd cannot be used: it runs the program's loader.

# deb_multiarch DEBARCH: Debian's multiarch folder name (lib/NAME, usr/lib/NAME).
deb_multiarch() {
	case "$1" in
	amd64) echo x86_64-linux-gnu ;;
	i386) echo i386-linux-gnu ;;
	arm64) echo aarch64-linux-gnu ;;
	*) die "no multiarch name for '$1'" ;;
	esac
}

# deb_qemu_user DEBARCH: the user-mode emulator (qemu-user-static) that runs
# that architecture's programs on this host.
deb_qemu_user() {
	case "$1" in
	amd64) echo qemu-x86_64-static ;;
	i386) echo qemu-i386-static ;;
	arm64) echo qemu-aarch64-static ;;
	*) die "no user-mode emulator for '$1'" ;;
	esac
}

# root_path ROOT PATH: PATH (absolute, as the guest sees it) with the
# symbolic links of its last component followed inside ROOT, not on the
# host (an absolute target is taken from ROOT too). Fails after 40 links.
root_path() {
	root_path_var "$1" "$2" || return 1
	echo "$rp_p"
}

# The same into rp_p, without a subshell (elf_closure calls it often).
root_path_var() {
	rp_p=$2 rp_n=0
	while [ -L "$1$rp_p" ]; do
		rp_n=$((rp_n + 1))
		[ $rp_n -le 40 ] || return 1
		rp_t=$(readlink "$1$rp_p")
		case "$rp_t" in
		/*) rp_p=$rp_t ;;
		*) rp_p=${rp_p%/*}/$rp_t ;;
		esac
	done
}

# elf_closure ROOT DEBARCH PROGRAM...: the files that the dynamically linked
# PROGRAMs (paths as the guest sees them, under ROOT) need to start, one
# path a line: the programs, their program interpreter (PT_INTERP), and the
# libraries of their DT_NEEDED entries, recursively, each looked up as the
# dynamic loader does with no ld.so.cache (the initramfs has none): in the
# object's DT_RUNPATH, or its DT_RPATH if it has no DT_RUNPATH ($ORIGIN
# expanded), then in /lib/MULTIARCH, /usr/lib/MULTIARCH, /lib and /usr/lib.
# (The loader also tries the DT_RPATH of the objects that loaded this one:
# Debian's packages have none that this needs.) A DT_NEEDED that names the
# interpreter's soname (libc's ld-linux*.so) is the interpreter itself,
# already loaded. What is not there is a line "missing NAME NEEDED-BY" (NAME:
# a soname, or the interpreter's file name), and the status is then 1.
elf_closure() {
	ec_root=$1 ec_ma=$(deb_multiarch "$2")
	shift 2
	ec_todo="$*" ec_seen=" " ec_ld="" ec_rc=0
	command -v readelf >/dev/null 2>&1 || die "no readelf: install binutils"
	while [ -n "$ec_todo" ]; do
		# shellcheck disable=SC2086 # a list of paths without blanks
		set -- $ec_todo
		ec_f=$1
		shift
		ec_todo="$*"
		case "$ec_seen" in *" $ec_f "*) continue ;; esac
		ec_seen="$ec_seen$ec_f "
		if ! root_path_var "$ec_root" "$ec_f" || [ ! -f "$ec_root$rp_p" ]; then
			echo "missing ${ec_f##*/} $ec_f"
			ec_rc=1
			continue
		fi
		echo "$ec_f"
		# One readelf a file: its interpreter, search path and DT_NEEDED.
		ec_info=$(readelf -ldW "$ec_root$rp_p" | sed -n \
			-e 's/.*program interpreter: \(.*\)\]$/interp \1/p' \
			-e 's/.*Library runpath: \[\(.*\)\]$/runpath \1/p' \
			-e 's/.*Library rpath: \[\(.*\)\]$/rpath \1/p' \
			-e 's/.*(NEEDED).*\[\(.*\)\]$/needed \1/p')
		ec_run="" ec_rpath="" ec_needed=""
		while read -r ec_k ec_v; do
			case "$ec_k" in
			interp)
				ec_todo="$ec_todo $ec_v"
				if [ -z "$ec_ld" ]; then
					ec_ld=${ec_v##*/}
					root_path_var "$ec_root" "$ec_v" && [ -f "$ec_root$rp_p" ] &&
						ec_ld=$(readelf -dW "$ec_root$rp_p" |
							sed -n 's/.*Library soname: \[\(.*\)\]$/\1/p')
					[ -n "$ec_ld" ] || ec_ld=${ec_v##*/}
				fi ;;
			runpath) ec_run=$ec_v ;;
			rpath) ec_rpath=$ec_v ;;
			needed) ec_needed="$ec_needed $ec_v" ;;
			esac
		done <<-EOF
		$ec_info
		EOF
		[ -n "$ec_run" ] || ec_run=$ec_rpath
		case "$ec_run" in
		*ORIGIN*) ec_run=$(echo "$ec_run" | sed "s#\\\$ORIGIN#${ec_f%/*}#g; s#\\\${ORIGIN}#${ec_f%/*}#g") ;;
		esac
		ec_dirs="$(echo "$ec_run" | tr : ' ') /lib/$ec_ma /usr/lib/$ec_ma /lib /usr/lib"
		for ec_n in $ec_needed; do
			[ "$ec_n" != "$ec_ld" ] || continue
			ec_hit=""
			for ec_d in $ec_dirs; do
				[ -e "$ec_root$ec_d/$ec_n" ] || [ -L "$ec_root$ec_d/$ec_n" ] || continue
				root_path_var "$ec_root" "$ec_d/$ec_n" || continue
				if [ -f "$ec_root$rp_p" ]; then
					ec_hit=$ec_d/$ec_n
					break
				fi
			done
			if [ -n "$ec_hit" ]; then
				ec_todo="$ec_todo $ec_hit"
			else
				echo "missing $ec_n $ec_f"
				ec_rc=1
			fi
		done
	done
	return $ec_rc
}
