# zsmalloc/zram series: build, boot and test a patched Linux in QEMU.
#
#   make run     boot the patched kernel with zram swap under memory pressure
#   make test    debug kernel: KUnit, zram kselftests, verified swap workload
#   make soak    debug kernel: soak and fault tests (DURATION=600 s each)
#   make faults  debug kernel: allocation failures injected (TREE=base too)
#   make matrix  the test job on i386 highmem, PREEMPT_RT, arm64 4K and 16K
#                pages, debug and KCSAN kernels: bench/results/matrix.md
#
# Variables: BASE=6.12|7.3 (the base and its series, patches/BASE/)
#   TREE=patched|base|kmi  KSRC=DIR (your own kernel tree: TREE=ksrc)
#   FLAVOUR=vm|debug  CPUS=2  MEM=512 (MiB)
#   ALGO=lz4  PREEMPT=full|voluntary|none  ACCEL=auto|kvm|tcg  APPEND=...
#   WORKLOAD=MiB (make run: the swap workload's size; refused if it cannot fit)
# A knob NAME is harness.name on the guest's command line and HARNESS_NAME
# in the guest (README: Knobs).
# See README.md.

BASE    ?= 6.12
TREE    ?= patched
FLAVOUR ?= vm
CPUS    ?= 2
MEM     ?= 512
ALGO    ?= lz4
PREEMPT ?= full
H       := scripts/host
export BASE CPUS MEM ACCEL TIMEOUT

# KSRC=DIR: build, boot and test a kernel tree of your own instead of
# Debian's (scripts/host/lib.sh): TREE is then "ksrc".
# Only from the command line: a KSRC in the environment (other build
# systems use the name) is not passed on.
KSRC_GOALS := kernel initramfs run test soak faults kunit parse setup tree-check help all
ifeq ($(origin KSRC),command line)
override TREE := ksrc
export KSRC
ifneq ($(filter-out $(KSRC_GOALS),$(MAKECMDGOALS)),)
$(error KSRC=DIR works with kernel, initramfs, run, test, soak, faults and kunit, not with: $(filter-out $(KSRC_GOALS),$(MAKECMDGOALS)))
endif
else
unexport KSRC
endif

.PHONY: all setup tree tree-check export kernel initramfs run test kunit soak faults parse \
	bench-zsmalloc bench-zram bench-latency bench-write cover-tables bench-boot-mem bench-mem bench-offline check-series check-static check-configs matrix lint \
	clean help
all: help

help: ## this list: every target, then the variables
	@echo "Targets (make TARGET [VARIABLE=value ...]):"
	@awk -F':.*## ' '/^[a-z-]+:.*## / { printf("  %-15s %s\n", $$1, $$2) }' $(MAKEFILE_LIST)
	@echo
	@sed -n '/^# Variables:/,/^# See README/p' Makefile | sed 's/^# \{0,1\}//'

setup: ## install the packages and the pinned kernel sources (as root)
	@sh $(H)/setup.sh

# Reset build/linux to base + patches/ (refuses if it has uncommitted changes).
tree: setup ## reset build/linux (BASE=7.3: build/7.3/linux) to base + patches/BASE/
	@sh $(H)/tree.sh apply

# Every command that builds or boots checks the trees first: build/linux
# must be base + patches/ (applied again if patches/ changed; a tree with
# work not exported stops the run and says what to do).
tree-check: setup ## check that the trees are base + patches/BASE/ (every build runs it)
	@sh $(H)/tree.sh check

# Write the tree's commits on top of base back to patches/.
export: ## write the tree's commits back to patches/BASE/ (AUTHOR="Name <mail>")
	@AUTHOR="$(AUTHOR)" sh $(H)/tree.sh export

kernel: tree-check ## build the TREE FLAVOUR kernel
	@sh $(H)/kernel.sh $(TREE) $(FLAVOUR)

initramfs: tree-check ## build the TREE FLAVOUR initramfs
	@sh $(H)/initramfs.sh $(TREE) $(FLAVOUR)

run: kernel initramfs ## the main job: zram swap under memory pressure, verified
	@APPEND="preempt=$(PREEMPT) harness.algo=$(ALGO) $(if $(WORKLOAD),harness.workload=$(WORKLOAD) )$(APPEND)" \
		sh $(H)/job.sh $(TREE) $(FLAVOUR) run

# The test guest gets fio (the kselftests' concurrent verify case) and
# more memory for it: fio's libraries stay in RAM.
test: FLAVOUR = debug
test: MEM = 768
test: kernel initramfs ## debug kernel: KUnit, zram kselftests, verified swap workloads
	@sh $(H)/tree-selftest.sh
	@sh $(H)/parse-selftest.sh
	@APPEND="preempt=$(PREEMPT) $(APPEND)" TIMEOUT=$${TIMEOUT:-2400} FIO=1 \
		sh $(H)/job.sh $(TREE) $(FLAVOUR) test

# The series' KUnit suites with the kernel's own runner, kunit.py, on a
# KUnit-only x86_64 kernel with 2 vCPUs (drivers/block/zram/.kunitconfig).
# KUNIT_FILTER=SUITE.CASE (a glob) runs only those; KUNIT_RUNS=N runs them
# N times on one build.
kunit: tree-check ## the series' KUnit suites with kunit.py (x86_64, 2 vCPUs)
	@sh $(H)/kunit.sh $(TREE)

# Soak and fault tests (scripts/guest/job-soak.sh): fio verify on zram with
# compaction, writeback, recompression and CPU hotplug; a swap storm; writes
# past mem_limit. DURATION seconds for each of the first two; pick with
# APPEND=harness.soak=zram,swapstorm,memlimit. The timeout leaves 40 minutes
# for boot, setup and the slow exits under TCG.
soak: FLAVOUR = debug
soak: MEM = 1024
soak: DURATION ?= 600
soak: kernel initramfs ## debug kernel: soak tests (DURATION=600 s each)
	@APPEND="preempt=$(PREEMPT) harness.duration=$(DURATION) $(APPEND)" \
		TIMEOUT=$${TIMEOUT:-$$((2 * $(DURATION) + 2400))} FIO=1 \
		sh $(H)/job.sh $(TREE) $(FLAVOUR) soak

# Fault tests (scripts/guest/job-faults.sh) on the debug kernel, whose
# fault injection and kmemleak are otherwise idle: CPU-up failing at each of
# its allocations in turn, swap on zram while zs_malloc() fails, then I/O,
# post-processing and CPU hotplug while allocations fail at random
# (DURATION=120 s). TREE=base runs them on 6.12.
faults: FLAVOUR = debug
faults: MEM = 768
faults: DURATION ?= 120
faults: kernel initramfs ## debug kernel: allocation failures injected
	@APPEND="preempt=$(PREEMPT) kmemleak=on harness.duration=$(DURATION) $(APPEND)" \
		TIMEOUT=$${TIMEOUT:-$$((2 * $(DURATION) + 1800))} \
		sh $(H)/job.sh $(TREE) $(FLAVOUR) faults

# Benchmarks: base and patched kernels in one run; results in bench/results/.
bench-zsmalloc: tree-check ## zsmalloc object API against zs_map_object(), in instructions
	@RUNS=$${RUNS:-10} sh $(H)/bench-zsmalloc.sh

# zram read latency against writers, in virtual time (QEMU
# -icount; ACCEL=tcg|kvm for real time), fio: base, mid (up to preemptible
# streams), patched and rmutex (bench/variants/read-stream-mutex.patch);
# ALGOS="lz4 zstd" LEVEL=12 RUNS=3 RUNTIME=3 THINK=100 BENCH_CPUS="1 2" MEM_CPUS=64;
# ONLY=mem reruns only the memory boots, ONLY=report only the report.
bench-zram: tree-check ## zram read latency against writers, in virtual time
	@sh $(H)/bench-zram.sh

bench-latency: tree-check ## reads and swap-ins timed from when due, in virtual time
	@sh $(H)/bench-latency.sh

bench-write: tree-check ## the write cost of one patch (PATCH=subject), in virtual time
	@sh $(H)/bench-write.sh

cover-tables: tree-check ## write the cover letters' tables from bench/results
	@sh $(H)/cover-tables.sh render

# Memory after boot at 64 vCPUs, base and patched: zsmalloc's per-CPU area.
bench-boot-mem: tree-check ## memory after boot at 64 vCPUs, base and patched
	@sh $(H)/bench-boot-mem.sh
bench-mem: tree-check ## zram's stream and context memory at 8 and 64 vCPUs, base and patched
	@sh $(H)/bench-mem.sh
bench-offline: tree-check ## memory offlining under zram readers, -EBUSY or -EAGAIN
	@sh $(H)/bench-offline.sh

# Build the kernel at every patch of the series and checkpatch each patch.
lint: ## shellcheck and pyflakes on the harness's scripts (CI runs it)
	@sh $(H)/lint.sh

check-series: tree-check ## build every patch, checkpatch it, then sparse, W=1, coccicheck, kernel-doc
	@sh $(H)/check-series.sh

check-static: tree-check ## sparse, W=1, coccicheck and kernel-doc on what the series changes, against the base
	@sh $(H)/check-static.sh

check-configs: tree-check ## build the series in configurations no flavour builds; boot its modules
	@sh $(H)/check-configs.sh

# The reliability matrix (see scripts/host/matrix.sh): every flavour of
# MATRIX="i386-highmem arm64-16k rt arm64 debug kcsan" built, booted with the
# test job (and fio, on every architecture) and judged; the table goes to
# bench/results/matrix.md.
matrix: tree-check ## the test job on other flavours: bench/results/matrix.md
	@sh $(H)/setup.sh matrix
	@MATRIX="$(MATRIX)" TREE="$(TREE)" sh $(H)/matrix.sh

# Re-judge a finished run from its saved logs: make parse RUN=build/out/...
parse: ## judge a saved run again: make parse RUN=build/out/...
	@sh $(H)/parse.sh $(RUN)

clean: ## remove the kernels and initramfs (not the trees or ccache)
	rm -rf build/out build/base/out build/initramfs build/7.3/out build/7.3/base/out build/ksrc build/7.3/ksrc
