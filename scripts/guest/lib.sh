# Helpers for the guest jobs (sourced, busybox sh).
# shellcheck disable=SC2034 # HARNESS_FAILED is for the jobs that source it
# Every check prints one KTAP-like line that the host counts:
#   HARNESS: ok NAME | HARNESS: not ok NAME | HARNESS: skip NAME
pass() { echo "HARNESS: ok $*"; }
fail() { echo "HARNESS: not ok $*"; HARNESS_FAILED=1; }
skip() { echo "HARNESS: skip $*"; }
check() { name=$1; shift; if "$@"; then pass "$name"; else fail "$name"; fi; }
HARNESS_FAILED=0

vmstat() { awk -v k="$1" '$1 == k { print $2 }' /proc/vmstat; }
meminfo_kb() { awk -v k="$1:" '$1 == k { print $2 }' /proc/meminfo; }

# harness.inject=fail|panic: prove that a failure fails the run (a failed
# check; a kernel crash).
inject() {
	case "${HARNESS_INJECT:-}" in
	fail) fail "injected failure (harness.inject=fail)" ;;
	panic) echo c > /proc/sysrq-trigger ;;
	esac
}
