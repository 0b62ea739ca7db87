#!/bin/sh
# zstd with a dictionary, while every allocation made under
# zcomp_compress() (the backend's compress, under the stream) fails. zram creates a compression context where it may
# sleep and reclaim (disksize, CPU-up) and compresses with it under the
# compression stream, where nothing may enter direct reclaim: the context
# must be built in a workspace sized when it is created, so that zstd
# never allocates while it compresses. Stock 7.3.4 builds a dictionary's
# context with zstd_create_cctx_advanced(), which sizes its workspace on
# the first compression: there the allocation fails, and so does the
# write ("Compression failed!").
#
# The dictionary is raw content (zstd takes any bytes as one): the
# guest's own scripts. The data: text, compressible.
# What must hold:
#   - the device takes the dictionary (algorithm_params);
#   - the control: the same filter on zs_malloc() injects faults;
#   - SIZE_KB written with O_DIRECT, with the faults armed, succeed, and
#     no allocation was tried under zcomp_compress() (none injected);
#   - the data reads back intact; a reset returns mm_stat to zero.
# Constants: SIZE_KB=1024  DICT_KB=16
. /harness/lib.sh
. /harness/faults-lib.sh
SIZE_KB=1024
DICT_KB=16
sys=/sys/block/zram0
dev=/dev/zram0

faults_need faults-zstd
faults_need_filter faults-zstd
# Under zcomp_compress(): zram's own, where the stream is held (the
# backend's zstd_compress() has a namesake in crypto/zstd.c).
faults_range zcomp_compress ||
	{ fail "faults-zstd: zcomp_compress not in /proc/kallsyms"; exit 1; }

[ -d "$sys" ] || cat /sys/class/zram-control/hot_add > /dev/null
echo 1 > "$sys/reset" 2> /dev/null
echo zstd > "$sys/comp_algorithm" ||
	{ skip "faults-zstd: this zram has no zstd"; exit 0; }
cat /harness/*.sh | head -c $((DICT_KB * 1024)) > /tmp/faults-zstd.dict
# Without the dictionary the test would prove nothing: zstd's plain
# contexts always had their workspace.
if echo "algo=zstd dict=/tmp/faults-zstd.dict" > "$sys/algorithm_params"; then
	pass "faults-zstd: the device takes a $DICT_KB KiB dictionary"
else
	fail "faults-zstd: the device takes a $DICT_KB KiB dictionary"
	exit 1
fi
echo 64M > "$sys/disksize" || { fail "faults-zstd: disksize"; exit 1; }
yes "faults-zstd: a line of text that a dictionary helps with" |
	head -c $((SIZE_KB * 1024)) > /tmp/faults-zstd.data
echo "faults-zstd: zram0 zstd with a $DICT_KB KiB dictionary; every allocation" \
	"under zcomp_compress() ($START-$END) fails"

# The control: the same filter on zs_malloc(), which allocates, must
# inject (else "none injected" below would prove nothing).
zstart=$START zend=$END
faults_range zs_malloc || { fail "faults-zstd: zs_malloc not in /proc/kallsyms"; exit 1; }
for a in failslab fail_page_alloc; do faults_arm $a 100 0 range; done
dd if=/tmp/faults-zstd.data of="$dev" bs=4k count=16 oflag=direct 2> /dev/null
n_ctl=$(faults_injected failslab fail_page_alloc)
faults_disarm failslab fail_page_alloc
check "faults-zstd: the filter injects where zram allocates (control: $n_ctl under zs_malloc())" \
	[ "$n_ctl" -gt 0 ]
START=$zstart END=$zend

for a in failslab fail_page_alloc; do faults_arm $a 100 0 range; done
dd if=/tmp/faults-zstd.data of="$dev" bs=4k oflag=direct 2> /tmp/faults-zstd.dd
rc=$?
n_inj=$(faults_injected failslab fail_page_alloc)
faults_disarm failslab fail_page_alloc
faults_anywhere failslab fail_page_alloc
[ $rc = 0 ] || sed 's/^/faults-zstd: dd: /' /tmp/faults-zstd.dd
echo "faults-zstd: dd rc $rc, $n_inj faults injected; mm_stat $(cat "$sys/mm_stat")"

check "faults-zstd: $SIZE_KB KiB written with no allocation under zcomp_compress() (dd rc $rc, $n_inj injected)" \
	[ "$rc" -eq 0 -a "$n_inj" -eq 0 ]
check "faults-zstd: the data reads back intact" \
	sh -c "dd if=$dev bs=4k count=$((SIZE_KB / 4)) iflag=direct 2> /dev/null | cmp -s - /tmp/faults-zstd.data"
echo 1 > "$sys/reset"
check "faults-zstd: reset returns mm_stat to zero" \
	[ "$(awk '{ print $1 + $2 + $3 }' "$sys/mm_stat")" = 0 ]
rm -f /tmp/faults-zstd.dict /tmp/faults-zstd.data /tmp/faults-zstd.dd
exit $HARNESS_FAILED
