// SPDX-License-Identifier: GPL-2.0
/*
 * blkverify: random 4 KiB writes and reads on a range of a block device,
 * with O_DIRECT, that tolerate failed I/O but never wrong data. Made for
 * fault injection: a write that fails must leave the block as it was, a
 * read that succeeds must return exactly what the last successful write
 * put there (zeros if none did).
 *
 *   blkverify run DEV STATE FIRST COUNT SECONDS SEED [WRITE%]
 *   blkverify check DEV STATE FIRST COUNT
 *
 * run: for SECONDS, picks blocks in [FIRST, FIRST + COUNT) at random
 * (SEED) and writes (WRITE% of the time, default 60) or reads one. Each
 * block's generation, the number of successful writes to it, is kept in
 * STATE (a file, created if missing, so that runs can follow each other).
 * A block's content is a function of its number and generation: a header
 * (magic, block, generation), a quarter page of pseudo-random bytes and a
 * repeated text, so that it compresses (about 3:1) and a block read from
 * the wrong place, an older generation or a partial copy is seen.
 * check: reads every block of the range once; a failed read is an error.
 *
 * With BLKVERIFY_MAKE_IT_FAIL=1 in the environment, run sets
 * /proc/self/make-it-fail for its I/O loop only (fault injection's
 * task-filter): setting up, saving STATE and printing are not failed.
 *
 * Prints one line: "blkverify: writes W failed F reads R failed F
 * mismatches M" (run), and each mismatch. Exits 1 on any mismatch (or a
 * failed read in check), 2 on a usage or setup error, 0 otherwise.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define BLK 4096
#define MAGIC 0x5a425631u	/* "ZBV1" */

static uint64_t rng;

static uint64_t next(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

static void fill(unsigned char *buf, uint32_t block, uint32_t gen)
{
	uint64_t s = ((uint64_t)block << 32 | gen) * 0x9e3779b97f4a7c15ull | 1;
	uint32_t hdr[4] = { MAGIC, block, gen, ~block };
	char text[64];
	size_t i, n;

	if (!gen) {		/* never written: zram reads zeros */
		memset(buf, 0, BLK);
		return;
	}
	memcpy(buf, hdr, sizeof(hdr));
	for (i = sizeof(hdr); i < BLK / 4; i += 8) {
		uint64_t v = next(&s);

		memcpy(buf + i, &v, 8);
	}
	n = snprintf(text, sizeof(text), "block %u generation %u; ", block, gen);
	for (; i < BLK; i++)
		buf[i] = text[(i - BLK / 4) % n];
}

static int mismatch(const unsigned char *got, uint32_t block, uint32_t gen)
{
	uint32_t hdr[4];

	memcpy(hdr, got, sizeof(hdr));
	printf("blkverify: block %u: expected generation %u, read magic %08x block %u generation %u\n",
	       block, gen, hdr[0], hdr[1], hdr[2]);
	return 1;
}

static void die(const char *what)
{
	perror(what);
	exit(2);
}

int main(int argc, char **argv)
{
	unsigned long long writes = 0, wfail = 0, reads = 0, rfail = 0, bad = 0;
	unsigned char *buf, *want;
	uint32_t first, count, i, *gen;
	int check, fd, sfd, ffd = -1, wpct = 60;
	const char *mif = getenv("BLKVERIFY_MAKE_IT_FAIL");
	time_t end = 0;
	ssize_t n;

	check = argc == 6 && !strcmp(argv[1], "check");
	if (!check && !((argc == 8 || argc == 9) && !strcmp(argv[1], "run"))) {
		fprintf(stderr, "usage: blkverify run DEV STATE FIRST COUNT SECONDS SEED [WRITE%%]\n"
				"       blkverify check DEV STATE FIRST COUNT\n");
		return 2;
	}
	first = strtoul(argv[4], NULL, 0);
	count = strtoul(argv[5], NULL, 0);
	if (!count)
		return 2;
	if (!check) {
		end = time(NULL) + strtol(argv[6], NULL, 0);
		rng = strtoull(argv[7], NULL, 0) * 0x9e3779b97f4a7c15ull | 1;
		if (argc == 9)
			wpct = atoi(argv[8]);
	}

	fd = open(argv[2], O_RDWR | O_DIRECT);
	if (fd < 0)
		die(argv[2]);
	sfd = open(argv[3], O_RDWR | O_CREAT, 0600);
	if (sfd < 0)
		die(argv[3]);
	gen = calloc(count, sizeof(*gen));
	if (!gen || posix_memalign((void **)&buf, BLK, BLK) ||
	    posix_memalign((void **)&want, BLK, BLK))
		die("memory");
	n = read(sfd, gen, count * sizeof(*gen));
	if (n < 0)
		die(argv[3]);
	if (!check && mif && !strcmp(mif, "1")) {
		ffd = open("/proc/self/make-it-fail", O_WRONLY);
		if (ffd < 0 || pwrite(ffd, "1", 1, 0) != 1)
			die("/proc/self/make-it-fail");
	}

	for (i = 0; check ? i < count : time(NULL) < end; i++) {
		uint32_t b = check ? i : next(&rng) % count;
		off_t off = (off_t)(first + b) * BLK;

		if (!check && next(&rng) % 100 < (uint64_t)wpct) {
			fill(buf, first + b, gen[b] + 1);
			writes++;
			if (pwrite(fd, buf, BLK, off) == BLK)
				gen[b]++;
			else
				wfail++;	/* the block must keep gen[b] */
			continue;
		}
		reads++;
		if (pread(fd, buf, BLK, off) != BLK) {
			rfail++;
			if (check)
				printf("blkverify: block %u: read failed: %s\n",
				       first + b, strerror(errno));
			continue;
		}
		fill(want, first + b, gen[b]);
		if (memcmp(buf, want, BLK))
			bad += mismatch(buf, first + b, gen[b]);
	}

	if (ffd >= 0 && pwrite(ffd, "0", 1, 0) != 1)
		die("/proc/self/make-it-fail");
	if (!check && (lseek(sfd, 0, SEEK_SET) ||
		       write(sfd, gen, count * sizeof(*gen)) != (ssize_t)(count * sizeof(*gen))))
		die(argv[3]);
	printf("blkverify: writes %llu failed %llu reads %llu failed %llu mismatches %llu\n",
	       writes, wfail, reads, rfail, bad);
	return bad || (check && rfail) ? 1 : 0;
}
