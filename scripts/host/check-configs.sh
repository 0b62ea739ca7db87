#!/bin/sh
# make check-configs: the series in configurations that no flavour builds.
#  1. For each configs/check/NAME.config (merged after vm.config and the
#     architecture's fragment, as kernel.sh does for a flavour), configure
#     build/linux and build mm/ and drivers/block/zram/: zsmalloc, zpool,
#     zswap, zram and both KUnit suites where the configuration has them.
#  2. Randconfigs (x86_64, KCONFIG_SEED of SEEDS, default "1 2 3") with
#     zsmalloc, zram and their KUnit suites forced on: the same objects.
#  3. The "modules" configuration as a whole kernel, booted: the guest job
#     "modules" loads zsmalloc.ko and zram.ko (their KUnit suites run at
#     load), uses a device, unloads them and has kmemleak scan.
# Environment: CONFIGS (names of step 1, default every file), SEEDS,
# NOBOOT=1 (skip step 3). Ends with "N passed, N failed".
set -eu
. "$(dirname "$0")/lib.sh"

names=${CONFIGS:-$(ls "$TOP/configs/check" | sed -n 's/\.config$//p')}
seeds=${SEEDS:-1 2 3}
logs=$BUILD/check-configs
mkdir -p "$logs"
pass=0 fail=0
ok() { pass=$((pass + 1)); echo "ok $*"; }
notok() { fail=$((fail + 1)); echo "not ok $*"; }

for n in $names; do
	if sh "$TOP/scripts/host/kernel.sh" patched "check/$n" objects > "$logs/$n.log" 2>&1; then
		ok "$n: $(flavour_arch "check/$n"), mm/ and drivers/block/zram/ build"
	else
		notok "$n: see $logs/$n.log"
		tail -15 "$logs/$n.log" | sed 's/^/#   /'
	fi
done

# randconfig: every option random but these.
arch_vars x86_64
cc=gcc
command -v ccache > /dev/null 2>&1 && cc="ccache gcc"
export CCACHE_DIR=${CCACHE_DIR:-$BUILD/ccache} CCACHE_BASEDIR=$BUILD CCACHE_NOHASHDIR=true
forced="CONFIG_MMU=y CONFIG_SYSFS=y CONFIG_BLOCK=y CONFIG_BLK_DEV=y CONFIG_SWAP=y CONFIG_ZSMALLOC=y CONFIG_ZRAM=y
CONFIG_KUNIT=y CONFIG_ZSMALLOC_KUNIT_TEST=y CONFIG_ZRAM_KUNIT_TEST=y
CONFIG_ZRAM_BACKEND_LZ4=y CONFIG_ZRAM_BACKEND_ZSTD=y CONFIG_WERROR=n
CONFIG_COMPILE_TEST=n"
for seed in $seeds; do
	out=$(out_dir patched "check/rand-$seed")
	mkdir -p "$out"
	echo "$forced" | tr ' ' '\n' > "$out/forced.config"
	log=$logs/rand-$seed.log
	if ! make -s -C "$LINUX_REPO" O="$out" ARCH=x86_64 CC="$cc" \
		KCONFIG_ALLCONFIG="$out/forced.config" KCONFIG_SEED="$seed" \
		randconfig > "$log" 2>&1; then
		notok "rand-$seed: randconfig failed, see $log"
		continue
	fi
	missing=""
	for o in $(echo "$forced" | tr ' ' '\n' | grep '=y$'); do
		grep -qx "$o" "$out/.config" || missing="$missing ${o%=y}"
	done
	if [ -n "$missing" ]; then
		notok "rand-$seed: randconfig dropped$missing"
		continue
	fi
	if make -s -C "$LINUX_REPO" O="$out" ARCH=x86_64 CC="$cc" -j"$(nproc)" \
		mm/ drivers/block/zram/ >> "$log" 2>&1; then
		ok "rand-$seed: x86_64 randconfig (KCONFIG_SEED=$seed), mm/ and drivers/block/zram/ build"
	else
		notok "rand-$seed: see $log"
		tail -15 "$log" | sed 's/^/#   /'
	fi
done

if [ "${NOBOOT:-0}" != 1 ]; then
	log=$logs/modules-boot.log
	if sh "$TOP/scripts/host/kernel.sh" patched check/modules > "$log" 2>&1 &&
		sh "$TOP/scripts/host/initramfs.sh" patched check/modules >> "$log" 2>&1; then
		if APPEND="kmemleak=on" TIMEOUT=${TIMEOUT:-900} MEM=${MEM:-512} CPUS=${CPUS:-2} \
			sh "$TOP/scripts/host/job.sh" patched check/modules modules >> "$log" 2>&1; then
			ok "modules: load, KUnit, use, unload, no leak (guest)"
		else
			notok "modules: the guest job failed, see $log"
		fi
		grep -E '^(not )?ok |HARNESS: ' "$log" | sed 's/^/#   /' | tail -12
	else
		notok "modules: build failed, see $log"
		tail -15 "$log" | sed 's/^/#   /'
	fi
fi

echo "$pass passed, $fail failed"
[ "$fail" = 0 ]
