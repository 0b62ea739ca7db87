#!/bin/sh
# zram's mem_limit: a device whose disksize (64 MiB) is larger than the
# memory it may use (8 MiB). Writing known data must fail once the pool is
# full (EIO, or ENOSPC); everything written before the failure must read
# back intact; with the limit lifted (echo 0 > mem_limit) the rest of the
# device must take the data and the whole device read back equal.
# Constants: LIMIT_MB=8  DISKSIZE_MB=64
. /harness/lib.sh
PSZ=$(swapverify -s)
LIMIT_MB=8
DISKSIZE_MB=64
DEV=zram0
sys=/sys/block/$DEV
dev=/dev/$DEV
st=/tmp/memlimit
rm -rf "$st"; mkdir -p "$st"
pages=$((DISKSIZE_MB * 256))

[ -d "$sys" ] || cat /sys/class/zram-control/hot_add > /dev/null
echo 1 > "$sys/reset" 2> /dev/null
echo lz4 > "$sys/comp_algorithm" || { fail "memlimit: comp_algorithm lz4"; exit 1; }
echo "${DISKSIZE_MB}M" > "$sys/disksize" || { fail "memlimit: disksize"; exit 1; }
echo "${LIMIT_MB}M" > "$sys/mem_limit" || { fail "memlimit: mem_limit"; exit 1; }

# The source: unique pages, about half compressible (fio's buffers), or
# random ones without fio. Either way it cannot fit in LIMIT_MB.
if command -v fio > /dev/null; then
	fio --name=src --filename="$st/src" --rw=write --bs=4k --size="${DISKSIZE_MB}M" \
		--buffer_compress_percentage=50 --refill_buffers --ioengine=psync \
		--output-format=terse > /dev/null 2>&1
fi
[ "$(wc -c < "$st/src" 2> /dev/null)" = $((DISKSIZE_MB * 1048576)) ] ||
	dd if=/dev/urandom of="$st/src" bs=1M count="$DISKSIZE_MB" 2> /dev/null

# O_DIRECT, one page a write: dd stops at the first failed write and says
# how many whole pages went in before it.
dd if="$st/src" of="$dev" bs=4k oflag=direct > "$st/dd1.log" 2>&1
rc=$?
cat "$st/dd1.log"
n=$(sed -n 's/^\([0-9]*\)+[0-9]* records out.*/\1/p' "$st/dd1.log")
echo "memlimit: $n of $pages pages written before the failure (rc=$rc);" \
	"mm_stat $(cat "$sys/mm_stat")"
ok=0; [ "$rc" != 0 ] && [ -n "$n" ] && [ "$n" -lt "$pages" ] && ok=1
check "memlimit: a write fails at the limit" [ $ok = 1 ]
check "memlimit: the error is EIO or ENOSPC" grep -qE 'Input/output error|I/O error|No space left' "$st/dd1.log"
# zram checks the limit after zs_malloc() and frees the object when over:
# the pool may have grown past the limit by one zspage (at most
# CONFIG_ZSMALLOC_CHAIN_SIZE pages, 16 at most) at that moment, so
# mem_used_max may exceed the limit by that much, mem_used_total not.
set -- $(cat "$sys/mm_stat")
check "memlimit: mem_used_total ($3) within the limit" [ "$3" -le $((LIMIT_MB * 1048576)) ]
check "memlimit: mem_used_max ($5) within the limit + one zspage" [ "$5" -le $((LIMIT_MB * 1048576 + 16 * PSZ)) ]

# Everything before the failure reads back as written.
n=${n:-0}
dd if="$dev" of="$st/got" bs=4k count="$n" iflag=direct 2> "$st/dd2.log"
r1=$?
dd if="$st/src" of="$st/want" bs=4k count="$n" 2> /dev/null
ok=0; [ $r1 = 0 ] && [ "$n" -gt 0 ] && cmp "$st/got" "$st/want" && ok=1
check "memlimit: $n pages written before the failure read back intact" [ $ok = 1 ]
rm -f "$st/got" "$st/want"

# Lift the limit: the rest of the device takes the data, and all of it
# reads back equal to the source.
echo 0 > "$sys/mem_limit"
dd if="$st/src" of="$dev" bs=4k skip="$n" seek="$n" oflag=direct 2> "$st/dd3.log"
r2=$?
[ $r2 = 0 ] || cat "$st/dd3.log"
check "memlimit: after mem_limit 0 the rest writes" [ $r2 = 0 ]
dd if="$dev" bs=4k iflag=direct 2> /dev/null | cmp - "$st/src"
check "memlimit: the whole device reads back equal to the source" [ $? = 0 ]
echo "memlimit: mm_stat $(cat "$sys/mm_stat")"
echo 1 > "$sys/reset"
rm -rf "$st"
exit $HARNESS_FAILED
