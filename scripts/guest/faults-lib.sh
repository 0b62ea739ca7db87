# The guest's fault-injection protocol (sourced, busybox sh), for
# faults-cpuup.sh, faults-swap.sh and faults-io.sh: failslab and
# fail_page_alloc (Documentation/fault-injection/fault-injection.rst),
# armed and disarmed through their debugfs knobs. As the kernel's
# tools/testing/fault-injection/failcmd.sh does, the knobs' values are
# saved before the first is written and put back on exit (a trap on EXIT,
# INT and TERM), so that a part that stops halfway, or any part, leaves
# no fault armed and no filter set for the parts after it.
#
#   faults_need NAME             skip NAME (exit 0) without the two
#                                (CONFIG_FAULT_INJECTION_DEBUG_FS); then
#                                save the knobs, restored on exit
#   faults_need_filter NAME      skip NAME (exit 0) without the stack-trace
#                                filter (require-start, require-end)
#   faults_range FUNCTION        START and END: FUNCTION's addresses, from
#                                its symbol to the next (/proc/kallsyms);
#                                fails if it has none
#   faults_arm ATTR PERCENT SPACE range|task
#                                fail PERCENT% of ATTR's allocations once
#                                SPACE was allocated (bytes for failslab,
#                                pages for fail_page_alloc): "range", those
#                                made under [START, END) in any task;
#                                "task", those of the tasks that set
#                                /proc/self/make-it-fail, anywhere
#   faults_disarm ATTR...        fail nothing more
#   faults_anywhere ATTR...      no address range (where the filter exists)
#   faults_injected ATTR...      prints the faults injected since arm
# Each arm sets "times" to FAULTS_TIMES, which counts down as faults are
# injected: faults_injected is what it lost.
DBG=/sys/kernel/debug
FAULTS_TIMES=100000000
# The knobs that the functions above write, of each of the two; the last
# five exist with the stack-trace filter or for fail_page_alloc only.
FAULTS_KNOBS="probability interval times space verbose task-filter ignore-gfp-wait \
require-start require-end stacktrace-depth ignore-gfp-highmem min-order"

# faults_save: each knob's value now, in /tmp/faults-saved/ATTR/KNOB.
faults_save() {
	rm -rf /tmp/faults-saved
	for a in failslab fail_page_alloc; do
		mkdir -p "/tmp/faults-saved/$a"
		for k in $FAULTS_KNOBS; do
			[ ! -e "$DBG/$a/$k" ] || cat "$DBG/$a/$k" > "/tmp/faults-saved/$a/$k"
		done
	done
}
# faults_restore: off first, then every saved knob, the probability last.
faults_restore() {
	for a in failslab fail_page_alloc; do
		[ -f "/tmp/faults-saved/$a/probability" ] || continue
		echo 0 > "$DBG/$a/probability"
		for k in $FAULTS_KNOBS; do
			[ "$k" = probability ] || [ ! -f "/tmp/faults-saved/$a/$k" ] ||
				cat "/tmp/faults-saved/$a/$k" > "$DBG/$a/$k"
		done
		cat "/tmp/faults-saved/$a/probability" > "$DBG/$a/probability"
	done
}

faults_need() {
	[ -d "$DBG/fail_page_alloc" ] && [ -d "$DBG/failslab" ] ||
		{ skip "$1: no fail_page_alloc/failslab (CONFIG_FAULT_INJECTION_DEBUG_FS)"; exit 0; }
	faults_save
	trap faults_restore EXIT
	trap 'exit 1' INT TERM
}
faults_need_filter() {
	[ -e "$DBG/fail_page_alloc/require-start" ] ||
		{ skip "$1: no stack-trace filter (CONFIG_FAULT_INJECTION_STACKTRACE_FILTER)"; exit 0; }
}

faults_range() {
	# shellcheck disable=SC2046 # two addresses, split on purpose
	set -- $(sort /proc/kallsyms | awk -v f="$1" '
		found { print $1; exit }
		$3 == f { printf "%s ", $1; found = 1 }')
	[ $# = 2 ] || return 1
	START=0x$1 END=0x$2
}

faults_arm() {
	d=$DBG/$1
	echo N > "$d/ignore-gfp-wait"
	[ -e "$d/ignore-gfp-highmem" ] && echo N > "$d/ignore-gfp-highmem"
	[ -e "$d/min-order" ] && echo 0 > "$d/min-order"
	if [ "$4" = range ]; then
		echo 0 > "$d/task-filter"
		echo "$START" > "$d/require-start"
		echo "$END" > "$d/require-end"
		echo 32 > "$d/stacktrace-depth"
	else
		[ -e "$d/require-start" ] && echo 0 > "$d/require-start" &&
			echo 0xffffffffffffffff > "$d/require-end"
		echo Y > "$d/task-filter"
	fi
	echo 0 > "$d/verbose"
	echo "$3" > "$d/space"
	echo 1 > "$d/interval"
	echo $FAULTS_TIMES > "$d/times"
	echo "$2" > "$d/probability"
}
faults_disarm() {
	for a in "$@"; do echo 0 > "$DBG/$a/probability"; done
}
faults_anywhere() {
	for a in "$@"; do
		echo 0 > "$DBG/$a/require-start"
		echo 0xffffffffffffffff > "$DBG/$a/require-end"
	done
}
faults_injected() {
	_n=0
	for a in "$@"; do _n=$((_n + FAULTS_TIMES - $(cat "$DBG/$a/times"))); done
	echo $_n
}
