// SPDX-License-Identifier: GPL-2.0
/*
 * swapin: the swap-in path as a user feels it. Fill anonymous memory with
 * the bytes of real files, push it out to swap, then touch it back at a
 * fixed rate while other tasks swap out, and time each page fault from
 * when the touch was due.
 *
 *   swapin [-d DIRS] [-w WRITERS] [-W MIB] [-p NICE] [-S SEED] -m MIB -r RATE
 *          [-n TOUCHES]
 *
 * 1. MIB of anonymous memory gets the contents of the regular files under
 *    DIRS (colon-separated; default /bin:/sbin:/lib:/usr:/etc), a page of
 *    file after another, cycling: executables, libraries and text, so that
 *    compression ratios are those of real memory, not a synthetic buffer's
 *    (pages of zeros in those files stay: real memory has them too). Each
 *    page's hash is kept.
 * 2. madvise(MADV_PAGEOUT) pushes it out; mincore() counts what left.
 * 3. WRITERS (0) processes each write their own W MiB (8) of such data and
 *    page it out, over and over, until the end: swap-outs (compression)
 *    beside the swap-ins, as kswapd and other apps make them. -p NICE
 *    gives the toucher (not the writers) that nice value: a foreground app.
 * 4. The pages are touched (one byte read) in a random order, RATE a
 *    second, touch i due at start + i / RATE (clock_nanosleep,
 *    TIMER_ABSTIME): a touch's latency runs from its due time to the end of
 *    its read, so a fault that waited for a CPU or a lock counts in full.
 *    getrusage(RUSAGE_THREAD) tells a major fault (the page came from swap)
 *    from a minor one (still in the swap cache, or never left).
 * 5. Every page touched is checked against its hash.
 *
 * Prints one line, for scripts:
 *   SWAPIN pages=N out=N touches=N major=N minor=N achieved=TOUCHES_PER_S
 *     late=N major_p50_us=.. major_p90_us=.. major_p99_us=.. major_p999_us=..
 *     major_max_us=.. all_p50_us=.. all_p99_us=.. all_max_us=.. zero=N
 *     writers=W writer_rounds=N bad=N
 * (one line; out: pages not resident after the page-out; late: touches
 * that began more than one period after their due time; zero: pages of
 * zeros among the data). Exits 1 if a page read back wrong, 2 on a usage,
 * allocation or setup error.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "tools.h"

#ifndef MADV_PAGEOUT
#define MADV_PAGEOUT 21
#endif

static size_t psz;

/* The source: the bytes of the files under DIRS, a page at a time. */
struct source {
	char **paths;
	size_t nr, cap, cur;
	int fd;
};

static void add_path(struct source *s, const char *p)
{
	if (s->nr == s->cap) {
		s->cap = s->cap ? 2 * s->cap : 256;
		s->paths = realloc(s->paths, s->cap * sizeof(*s->paths));
		if (!s->paths)
			exit(2);
	}
	s->paths[s->nr++] = strdup(p);
}

static void walk(struct source *s, const char *dir, int depth)
{
	struct dirent *e;
	struct stat st;
	char p[4096];
	DIR *d;

	if (depth > 8 || !(d = opendir(dir)))
		return;
	while ((e = readdir(d))) {
		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		snprintf(p, sizeof(p), "%s/%s", dir, e->d_name);
		if (lstat(p, &st))
			continue;
		if (S_ISDIR(st.st_mode))
			walk(s, p, depth + 1);
		else if (S_ISREG(st.st_mode) && st.st_size >= (off_t)psz)
			add_path(s, p);
	}
	closedir(d);
}

/* Fill one page from the files, in order, cycling; 0 if there are none. */
static int source_page(struct source *s, unsigned char *page)
{
	size_t got = 0, tries = 0;

	while (got < psz) {
		ssize_t n;

		if (s->fd < 0) {
			if (!s->nr || tries++ > 2 * s->nr)
				return 0;
			s->fd = open(s->paths[s->cur], O_RDONLY);
			s->cur = (s->cur + 1) % s->nr;
			continue;
		}
		n = read(s->fd, page + got, psz - got);
		if (n <= 0) {
			close(s->fd);
			s->fd = -1;
			continue;
		}
		got += (size_t)n;
	}
	return 1;
}

static uint64_t hash(const unsigned char *p, size_t n)
{
	uint64_t h = 0xcbf29ce484222325ULL;
	size_t i;

	for (i = 0; i < n; i++)
		h = (h ^ p[i]) * 0x100000001b3ULL;
	return h;
}

static long majflt(void)
{
	struct rusage ru;

	getrusage(RUSAGE_THREAD, &ru);
	return ru.ru_majflt;
}

static volatile sig_atomic_t stop;

static void on_term(int sig)
{
	(void)sig;
	stop = 1;
}

/* A writer: its own memory, written from the files and paged out, again. */
static void writer(struct source *s, size_t bytes, int out_fd)
{
	unsigned char *m = mmap(NULL, bytes, PROT_READ | PROT_WRITE,
				MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	unsigned long rounds = 0;
	size_t off;

	signal(SIGTERM, on_term);
	if (m == MAP_FAILED)
		_exit(2);
	while (!stop) {
		for (off = 0; off + psz <= bytes && !stop; off += psz)
			source_page(s, m + off);
		madvise(m, bytes, MADV_PAGEOUT);
		rounds++;
	}
	if (write(out_fd, &rounds, sizeof(rounds)) != sizeof(rounds))
		_exit(2);
	_exit(0);
}

static void usage(void)
{
	fprintf(stderr, "usage: swapin [-d DIRS] [-w WRITERS] [-W MIB] [-p NICE] [-S SEED] -m MIB -r RATE\n"
		"              [-n TOUCHES]\n");
	exit(2);
}

int main(int argc, char **argv)
{
	const char *dirs = "/bin:/sbin:/lib:/usr:/etc";
	unsigned int writers = 0, w;
	uint64_t mib = 0, wmib = 8, seed = 1, touches = 0;
	double rate = 0;
	struct source src = { .fd = -1 };
	size_t pages, i, out = 0, zero = 0, nmaj = 0, nall = 0, late = 0, bad = 0;
	unsigned long wrounds = 0;
	uint64_t *hashes, *order, *maj_ns, *all_ns, t0;
	unsigned char *mem, *vec, *zpage;
	pid_t *pids;
	int opt, pfd[2], prio = 0, set_prio = 0;
	char *d, *dup;

	psz = (size_t)sysconf(_SC_PAGESIZE);
	while ((opt = getopt(argc, argv, "d:w:W:p:S:m:r:n:")) != -1) {
		switch (opt) {
		case 'd': dirs = optarg; break;
		case 'w': writers = (unsigned int)strtoul(optarg, NULL, 0); break;
		case 'W': wmib = strtoull(optarg, NULL, 0); break;
		case 'S': seed = strtoull(optarg, NULL, 0) | 1; break;
		case 'm': mib = strtoull(optarg, NULL, 0); break;
		case 'r': rate = strtod(optarg, NULL); break;
		case 'n': touches = strtoull(optarg, NULL, 0); break;
		case 'p': prio = (int)strtol(optarg, NULL, 0); set_prio = 1; break;
		default: usage();
		}
	}
	if (optind != argc || !mib || rate <= 0 || rate > 1e6 || writers > 64 || !wmib)
		usage();
	dup = strdup(dirs);
	for (d = strtok(dup, ":"); d; d = strtok(NULL, ":"))
		walk(&src, d, 0);
	if (!src.nr) {
		fprintf(stderr, "swapin: no file of a page or more under %s\n", dirs);
		return 2;
	}
	pages = (size_t)(mib << 20) / psz;
	if (!touches || touches > pages)
		touches = pages;
	mem = mmap(NULL, pages * psz, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	hashes = malloc(pages * sizeof(*hashes));
	order = malloc(pages * sizeof(*order));
	maj_ns = malloc(touches * sizeof(*maj_ns));
	all_ns = malloc(touches * sizeof(*all_ns));
	vec = malloc(pages);
	zpage = calloc(1, psz);
	pids = calloc(writers + 1, sizeof(*pids));
	if (mem == MAP_FAILED || !hashes || !order || !maj_ns || !all_ns || !vec || !zpage || !pids) {
		fprintf(stderr, "swapin: cannot allocate %llu MiB\n", (unsigned long long)mib);
		return 2;
	}
	/* 1. Real data, every page written (a page never written is no page). */
	for (i = 0; i < pages; i++) {
		unsigned char *p = mem + i * psz;

		if (!source_page(&src, p))
			return 2;
		if (!memcmp(p, zpage, psz))
			zero++;
		hashes[i] = hash(p, psz);
		order[i] = i;
	}
	/* 2. Out to swap. */
	if (madvise(mem, pages * psz, MADV_PAGEOUT)) {
		fprintf(stderr, "swapin: MADV_PAGEOUT: %s\n", strerror(errno));
		return 2;
	}
	if (!mincore(mem, pages * psz, vec))
		for (i = 0; i < pages; i++)
			out += !(vec[i] & 1);
	/* 3. The writers. */
	if (pipe(pfd))
		return 2;
	for (w = 0; w < writers; w++) {
		pids[w] = fork();
		if (pids[w] < 0)
			return 2;
		if (!pids[w]) {
			close(pfd[0]);
			src.fd = -1;
			src.cur = (src.cur + 1 + w * 7) % src.nr;
			writer(&src, (size_t)(wmib << 20), pfd[1]);
		}
	}
	close(pfd[1]);
	/* -p: the toucher's nice value (a foreground app); writers keep theirs */
	if (set_prio && setpriority(PRIO_PROCESS, 0, prio)) {
		fprintf(stderr, "swapin: nice %d: %s\n", prio, strerror(errno));
		return 2;
	}
	if (writers)
		usleep(200000);	/* let them start writing */
	/* 4. Touch them back, a random order, at a fixed rate. */
	for (i = pages - 1; i > 0; i--) {
		size_t j = (size_t)(next(&seed) % (i + 1));
		uint64_t t = order[i];

		order[i] = order[j];
		order[j] = t;
	}
	no_timer_slack();
	t0 = now_ns() + 1000000;
	for (i = 0; i < touches; i++) {
		uint64_t due = t0 + (uint64_t)((double)i * 1e9 / rate), start, end;
		struct timespec ts = { .tv_sec = due / 1000000000ULL, .tv_nsec = due % 1000000000ULL };
		volatile unsigned char *p = mem + order[i] * psz;
		long m0, m1;

		while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == EINTR)
			;
		m0 = majflt();
		start = now_ns();
		(void)*p;
		end = now_ns();
		m1 = majflt();
		if (start > due + (uint64_t)(1e9 / rate))
			late++;
		all_ns[nall++] = end - due;
		if (m1 > m0)
			maj_ns[nmaj++] = end - due;
	}
	/* The writers' rounds, then 5. the data. */
	for (w = 0; w < writers; w++)
		kill(pids[w], SIGTERM);
	for (w = 0; w < writers; w++) {
		unsigned long r = 0;

		if (read(pfd[0], &r, sizeof(r)) == sizeof(r))
			wrounds += r;
		waitpid(pids[w], NULL, 0);
	}
	for (i = 0; i < touches; i++)
		if (hash(mem + order[i] * psz, psz) != hashes[order[i]])
			bad++;
	qsort(maj_ns, nmaj, sizeof(uint64_t), cmp_u64);
	qsort(all_ns, nall, sizeof(uint64_t), cmp_u64);
	printf("SWAPIN pages=%zu out=%zu touches=%zu major=%zu minor=%zu achieved=%.1f late=%zu"
	       " major_p50_us=%.1f major_p90_us=%.1f major_p99_us=%.1f major_p999_us=%.1f"
	       " major_max_us=%.1f all_p50_us=%.1f all_p99_us=%.1f all_max_us=%.1f zero=%zu"
	       " writers=%u writer_rounds=%lu bad=%zu\n",
	       pages, out, nall, nmaj, nall - nmaj,
	       (double)nall / ((double)(now_ns() - t0) / 1e9), late,
	       pct_us(maj_ns, nmaj, 0.50), pct_us(maj_ns, nmaj, 0.90),
	       pct_us(maj_ns, nmaj, 0.99), pct_us(maj_ns, nmaj, 0.999),
	       pct_us(maj_ns, nmaj, 1.0), pct_us(all_ns, nall, 0.50),
	       pct_us(all_ns, nall, 0.99), pct_us(all_ns, nall, 1.0), zero,
	       writers, wrounds, bad);
	return bad ? 1 : 0;
}
