// SPDX-License-Identifier: GPL-2.0
/*
 * swapverify: touch more anonymous memory than fits, so that it is swapped
 * out, then read every byte back and check it, so that it is swapped in.
 *
 *   swapverify [-p] [-l LOCK_MIB] MIB [PASSES]
 *   swapverify -o FILE MIB
 *   swapverify -s               (prints the page size)
 *
 * -l first locks LOCK_MIB of memory (mlock) for as long as it runs, so that
 * MIB needs not exceed the whole RAM to be swapped: a small workload on a
 * guest that keeps other memory in use.
 * -p pages the whole area out (madvise(MADV_PAGEOUT)) after it is written,
 * so that the reads that follow swap in every page that reclaim did not
 * keep: in front of zswap, they load from zswap whatever it did not write
 * back, which memory pressure alone does not ensure.
 *
 * -o writes MIB of the same data (pass 0) to FILE instead, a page at a
 * time, and exits: written to a zram device, it tells how well the data
 * compresses under that device's algorithm (mm_stat), so that the caller
 * can size a workload that fits (scripts/guest/swap-workload.sh).
 *
 * Every page gets its own content, every byte of it written: a header with
 * its index, the pass and a magic, a quarter page of pseudo-random bytes
 * and a repeated text, so that it compresses (about 3:1 with lz4) and a
 * page read from the wrong place or a partial copy is seen. Zero pages are
 * never written (zram would not store them in zsmalloc). Prints the pages
 * written and verified; exits 1 on any mismatch, 2 on a usage, allocation
 * or I/O error.
 */
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "tools.h"

#ifndef MADV_PAGEOUT
#define MADV_PAGEOUT 21
#endif

static void fill(unsigned char *p, size_t psz, uint64_t idx, unsigned int pass)
{
	static const char text[] = "zram swap verification page ";
	static const uint32_t magic = 0x7377766d;	/* "swvm" */
	uint64_t s = (idx * 0x9e3779b97f4a7c15ULL) ^ (pass + 1) ^ 1;
	size_t i, rnd = psz / 4;

	memcpy(p, &idx, sizeof(idx));
	memcpy(p + 8, &pass, sizeof(pass));
	memcpy(p + 12, &magic, sizeof(magic));
	for (i = 16; i + 8 <= rnd; i += 8) {
		uint64_t w = next(&s);

		memcpy(p + i, &w, 8);
	}
	for (; i < psz; i++)
		p[i] = text[(i + idx) % (sizeof(text) - 1)];
}

/* Write MIB of pass 0's data to path (a zram device: the ratio probe). */
static int write_file(const char *path, size_t mib, size_t psz)
{
	size_t i, npages = mib * 1024 * 1024 / psz;
	unsigned char *buf = malloc(psz);
	int fd = open(path, O_WRONLY | O_CREAT, 0644);

	if (fd < 0 || !buf) {
		perror(path);
		return 2;
	}
	for (i = 0; i < npages; i++) {
		fill(buf, psz, i, 0);
		if (write(fd, buf, psz) != (ssize_t)psz) {
			perror(path);
			return 2;
		}
	}
	if (fsync(fd) || close(fd)) {
		perror(path);
		return 2;
	}
	printf("swapverify: %zu MiB written to %s\n", mib, path);
	return 0;
}

/*
 * MAP_LOCKED | MAP_POPULATE does not fail when it cannot fault every page
 * in: say how much of the lock is in memory, so that a caller that counts
 * on the pressure sees when it is missing.
 */
static void report_locked(void *hold, size_t len, size_t psz)
{
	size_t n = len / psz, i, in = 0;
	unsigned char *vec = malloc(n);

	if (!vec || mincore(hold, len, vec)) {
		perror("swapverify: mincore");
		free(vec);
		return;
	}
	for (i = 0; i < n; i++)
		in += vec[i] & 1;
	printf("swapverify: locked %zu of %zu MiB in memory\n",
	       in * psz >> 20, len >> 20);
	fflush(stdout);
	free(vec);
}

int main(int argc, char **argv)
{
	size_t psz = sysconf(_SC_PAGESIZE), mib, npages, i, lock_mib = 0;
	unsigned long bad = 0, checked = 0;
	unsigned char *mem, *want;
	unsigned int passes, pass;
	const char *out = NULL;
	int pageout = 0;

	if (argc == 2 && !strcmp(argv[1], "-s")) {
		printf("%zu\n", psz);
		return 0;
	}
	for (;;) {
		if (argc > 1 && !strcmp(argv[1], "-p")) {
			pageout = 1;
			argc--;
			argv++;
		} else if (argc > 2 && !strcmp(argv[1], "-o")) {
			out = argv[2];
			argc -= 2;
			argv += 2;
		} else if (argc > 2 && !strcmp(argv[1], "-l")) {
			lock_mib = strtoul(argv[2], NULL, 0);
			argc -= 2;
			argv += 2;
		} else {
			break;
		}
	}
	passes = argc > 2 ? atoi(argv[2]) : 1;
	if (argc < 2 || !(mib = strtoul(argv[1], NULL, 0)) || !passes) {
		fprintf(stderr, "usage: swapverify [-p] [-l LOCK_MIB] MIB [PASSES]\n"
			"       swapverify -o FILE MIB\n");
		return 2;
	}
	if (out)
		return write_file(out, mib, psz);
	if (lock_mib) {
		void *hold = mmap(NULL, lock_mib << 20, PROT_READ | PROT_WRITE,
				  MAP_PRIVATE | MAP_ANONYMOUS | MAP_LOCKED |
				  MAP_POPULATE, -1, 0);

		if (hold == MAP_FAILED) {
			perror("swapverify: lock");
			return 2;
		}
		report_locked(hold, lock_mib << 20, psz);
	}
	npages = mib * 1024 * 1024 / psz;
	mem = mmap(NULL, npages * psz, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	want = malloc(psz);
	if (mem == MAP_FAILED || !want) {
		perror("swapverify: mmap");
		return 2;
	}
	for (pass = 0; pass < passes; pass++) {
		for (i = 0; i < npages; i++)
			fill(mem + i * psz, psz, i, pass);
		if (pageout && madvise(mem, npages * psz, MADV_PAGEOUT)) {
			perror("swapverify: madvise(MADV_PAGEOUT)");
			return 2;
		}
		for (i = 0; i < npages; i++) {
			fill(want, psz, i, pass);
			checked++;
			if (memcmp(mem + i * psz, want, psz)) {
				if (bad++ < 10)
					fprintf(stderr, "swapverify: page %zu differs (pass %u)\n",
						i, pass);
			}
		}
	}
	printf("swapverify: %zu MiB, %u passes: %lu pages verified, %lu bad\n",
	       mib, passes, checked, bad);
	return bad ? 1 : 0;
}
