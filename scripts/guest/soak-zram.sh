#!/bin/sh
# Soak zram0 as a block device: fio writers and readers that verify every
# block (crc32c) for DURATION seconds, while loops compact the pool, write
# idle pages back to a backing device, recompress idle pages with a second
# algorithm and take cpu1 offline and online again.
#   harness.duration=600 (s)
# Constants: DISKSIZE_MB=192
# The backing device (CONFIG_ZRAM_WRITEBACK) is a loop device on a tmpfs
# file, the secondary algorithm (CONFIG_ZRAM_MULTI_COMP) zstd at priority 1;
# each part is left out when the kernel lacks it.
. /harness/lib.sh
# mm_stat counts kernel pages (4 KiB or 16 KiB), bd_stat 4 KiB units.
PSZ=$(swapverify -s)
DURATION=${HARNESS_DURATION:-600}
DISKSIZE_MB=192
DEV=zram0
sys=/sys/block/$DEV
dev=/dev/$DEV
st=/tmp/soak-zram
rm -rf "$st"; mkdir -p "$st"

command -v fio > /dev/null || { skip "soak-zram: no fio in the initramfs (boot with FIO=1)"; exit 0; }
[ -d "$sys" ] || cat /sys/class/zram-control/hot_add > /dev/null
echo 1 > "$sys/reset" 2> /dev/null
echo lz4 > "$sys/comp_algorithm" || { fail "soak-zram: comp_algorithm lz4"; exit 1; }

recomp=0
if [ -e "$sys/recomp_algorithm" ]; then
	if echo "algo=zstd priority=1" > "$sys/recomp_algorithm"; then recomp=1; else
		fail "soak-zram: recomp_algorithm zstd priority 1"; fi
fi
loop=
if [ -e "$sys/backing_dev" ]; then
	# zram never uses the backing device's block 0: one the size of the
	# disk fills up (ENOSPC) once every page has been written back.
	dd if=/dev/zero of="$st/backing" bs=1M count=0 seek=$((DISKSIZE_MB + 4)) 2> /dev/null
	loop=$(losetup -f) && losetup "$loop" "$st/backing" || loop=
	if [ -n "$loop" ] && echo "$loop" > "$sys/backing_dev"; then :; else
		fail "soak-zram: backing_dev on a loop device"; loop=; fi
fi
echo "${DISKSIZE_MB}M" > "$sys/disksize" || { fail "soak-zram: disksize"; exit 1; }
hotplug=0
[ -w /sys/devices/system/cpu/cpu1/online ] && hotplug=1
echo "soak-zram: $dev ${DISKSIZE_MB} MiB, lz4, recompression zstd: $recomp," \
	"backing device: ${loop:-none}, cpu1 hotplug: $hotplug, ${DURATION}s"

# Layout (MiB): [0,64) read-only region for the readers, [64,128) and
# [128,192) one writer each. All of it is written once with verify headers.
common="--filename=$dev --direct=1 --ioengine=psync --bs=4k --verify=crc32c
 --buffer_compress_percentage=50 --refill_buffers --output-format=terse,normal"
fio --name=prefill $common --rw=write --size=${DISKSIZE_MB}M --do_verify=0 \
	> "$st/fio-prefill.log" 2>&1 || { cat "$st/fio-prefill.log"; fail "soak-zram: fio prefill"; exit 1; }

# Background loops: each counts its iterations into $st/NAME.count and
# notes any unexpected error in $st/errors. $st/stop ends them.
# Writes that the driver documents may fail with -EAGAIN (a concurrent
# post-processing action: writeback and recompress) are retried later.
attr_write() { # NAME VALUE FILE
	if ! echo "$2" 2> "$st/$1.err" > "$3"; then
		if grep -q 'Resource temporarily unavailable\|Try again' "$st/$1.err"; then
			echo x >> "$st/$1.eagain"
		else
			echo "$1: echo $2 > $3: $(cat "$st/$1.err")" >> "$st/errors"
		fi
	fi
}
loop_run() { # NAME SLEEP COMMAND...
	name=$1 pause=$2; shift 2; n=0
	while [ ! -e "$st/stop" ]; do
		"$@"; n=$((n + 1)); sleep "$pause"
	done
	echo $n > "$st/$name.count"
}
do_compact() { attr_write compact 1 "$sys/compact"; }
# Writeback and recompress run in turn in one loop: each holds the
# device's post-processing slot for its whole pass (a pass over 192 MiB
# takes a minute under TCG) and the other one gets -EAGAIN meanwhile, so two
# loops let one of them starve the other.
do_postprocess() {
	if [ $recomp = 1 ]; then
		attr_write idle all "$sys/idle"; attr_write recompress type=idle "$sys/recompress"
	fi
	if [ -n "$loop" ]; then
		attr_write idle all "$sys/idle"; attr_write writeback idle "$sys/writeback"
	fi
}
do_hotplug() {
	attr_write offline 0 /sys/devices/system/cpu/cpu1/online; sleep 1
	attr_write online 1 /sys/devices/system/cpu/cpu1/online
}
pids=
loop_run compact 1 do_compact & pids="$pids $!"
if [ -n "$loop" ] || [ $recomp = 1 ]; then
	loop_run postprocess 1 do_postprocess & pids="$pids $!"
fi
[ $hotplug = 1 ] && { loop_run hotplug 1 do_hotplug & pids="$pids $!"; }

# fio rounds until DURATION is spent: each writer writes its region in
# random order, verifying behind itself (verify_backlog) and all of it at
# the end (do_verify); the readers read the read-only region and verify it.
t0=$(date +%s); end=$((t0 + DURATION)); round=0; fio_rc=0
while :; do
	left=$((end - $(date +%s)))
	[ $left -gt 0 ] || break
	[ $left -ge 15 ] || left=15
	round=$((round + 1))
	fio --runtime="$left" $common \
		--name=writer1 --rw=randwrite --offset=64M --size=64M --verify_backlog=256 --do_verify=1 \
		--name=writer2 --rw=randwrite --offset=128M --size=64M --verify_backlog=256 --do_verify=1 \
		--name=reader1 --rw=randread --offset=0 --size=64M \
		--name=reader2 --rw=read --offset=0 --size=64M \
		> "$st/fio-$round.log" 2>&1 || { fio_rc=1; echo "soak-zram: fio round $round failed:"; cat "$st/fio-$round.log"; break; }
done
touch "$st/stop"
wait $pids
t1=$(date +%s)
[ "$(cat /sys/devices/system/cpu/cpu1/online 2> /dev/null || echo 1)" = 1 ] ||
	echo 1 > /sys/devices/system/cpu/cpu1/online

# The whole device once more, read and verified after the loops stopped.
fio --name=final $common --rw=read --size=${DISKSIZE_MB}M > "$st/fio-final.log" 2>&1 ||
	{ fio_rc=1; echo "soak-zram: fio final verify failed:"; cat "$st/fio-final.log"; }

# Terse v3: field 5 the job's error, 6 KiB read (for a writer: its verify
# reads), 47 KiB written.
cat "$st"/fio-*.log | awk -F';' '/^3;fio/ {
	r += $6; w += $47; if ($5 != 0) e++; j++ }
	END { printf("%d %d %d %d\n", j, r, w, e) }' > "$st/fio.sum"
read -r jobs rkb wkb errs < "$st/fio.sum"
verrs=$(cat "$st"/fio-*.log | grep -ciE 'verify: |bad magic|verify failed|crc32c:' || true)
count() { cat "$st/$1.count" 2> /dev/null || echo 0; }
eagain() { [ -f "$st/$1.eagain" ] && wc -l < "$st/$1.eagain" || echo 0; }
echo "soak-zram: $round fio rounds in $((t1 - t0)) s: $jobs jobs," \
	"$((wkb / 1024)) MiB written, $((rkb / 1024)) MiB read and verified (crc32c)," \
	"$errs job errors, $verrs verify messages"
echo "soak-zram: compact $(count compact) times; $(count postprocess) rounds of" \
	"idle+recompress (recompress: $recomp, EAGAIN $(eagain recompress)) and" \
	"idle+writeback (writeback: ${loop:-none}, EAGAIN $(eagain writeback));" \
	"cpu1 offline/online $(count hotplug)"
[ -s "$st/errors" ] && { echo "soak-zram: unexpected errors:"; sort "$st/errors" | uniq -c | head -20; }

check "soak-zram: fio exited 0 in every round" [ $fio_rc = 0 ]
check "soak-zram: no verify error ($((rkb / 1024)) MiB verified)" [ "$errs" = 0 -a "$verrs" = 0 -a "$rkb" -gt 0 ]
check "soak-zram: the background loops saw no unexpected error" [ ! -s "$st/errors" ]
check "soak-zram: compact ran" [ "$(count compact)" -gt 0 ]
[ -n "$loop" ] || [ $recomp = 1 ] &&
	check "soak-zram: writeback/recompress ran" [ "$(count postprocess)" -gt 0 ]
[ $hotplug = 1 ] && check "soak-zram: cpu1 hotplug ran" [ "$(count hotplug)" -gt 0 ]

# mm_stat: orig compr mem_used mem_limit mem_used_max same_pages
# pages_compacted huge_pages [huge_pages_since]; bd_stat: count reads
# writes (pages).
mm=$(cat "$sys/mm_stat"); echo "soak-zram: mm_stat $mm"
echo "soak-zram: io_stat $(cat "$sys/io_stat")"
set -- $mm
sane=1
[ "$2" -le "$1" ] || { echo "soak-zram: compr_data_size $2 > orig_data_size $1"; sane=0; }
[ "$1" -le $((DISKSIZE_MB * 1048576)) ] || { echo "soak-zram: orig_data_size $1 > disksize"; sane=0; }
[ "$5" -ge "$3" ] || { echo "soak-zram: mem_used_max $5 < mem_used_total $3"; sane=0; }
orig=$1 used=$3 same=$6 wb=0
if [ -n "$loop" ]; then
	bd=$(cat "$sys/bd_stat"); echo "soak-zram: bd_stat $bd (pages: count reads writes)"
	set -- $bd; wb=$1
	[ "$1" -le $((DISKSIZE_MB * 256)) ] || { echo "soak-zram: bd_count $1 > disksize"; sane=0; }
	[ "$3" -ge "$1" ] || { echo "soak-zram: bd_writes $3 < bd_count $1"; sane=0; }
	[ "$3" -gt 0 ] || { echo "soak-zram: writeback wrote nothing"; sane=0; }
fi
# Pages neither written back nor same-filled live in the pool.
[ $((orig / PSZ - wb * 4096 / PSZ - same)) -le 0 ] || [ "$used" -gt 0 ] ||
	{ echo "soak-zram: mem_used_total 0 with pages in the pool"; sane=0; }
check "soak-zram: mm_stat and bd_stat consistent" [ $sane = 1 ]

echo 1 > "$sys/reset"
check "soak-zram: reset" [ "$(cat "$sys/disksize")" = 0 ]
[ -n "$loop" ] && losetup -d "$loop"
rm -rf "$st"
exit $HARNESS_FAILED
