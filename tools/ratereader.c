// SPDX-License-Identifier: GPL-2.0
/*
 * ratereader: read a block device at a fixed rate and time each read from
 * when it was due, not from when it was issued.
 *
 *   ratereader [-j THREADS] [-b BYTES] [-s MIB] [-p NICE] [-S SEED] -r RATE
 *              -t SECONDS DEVICE
 *
 * Each of THREADS (1) threads reads blocks of BYTES (4096) at random
 * offsets in the first MIB (all) of DEVICE, O_DIRECT, RATE times a second,
 * for SECONDS, at nice NICE (-p; unchanged without it). Read i of a thread is due at start + i / RATE, an absolute
 * time (clock_nanosleep(TIMER_ABSTIME) on CLOCK_MONOTONIC); its latency
 * runs from that due time to the read's end. So the time a reader could
 * not run (a CPU held by a writer that compresses with preemption off, a
 * wake-up that waits for its vCPU) counts, and the kernels compared get
 * the same load: a read that ends late makes the next ones start late,
 * and their latencies count that too, instead of a reader that asks less
 * often ("coordinated omission").
 *
 * Prints one line, for scripts:
 *   RATEREADER threads=T rate=R seconds=S due=N done=N failed=N
 *     achieved=READS_PER_S late=N p50_us=.. p90_us=.. p99_us=.. p999_us=..
 *     max_us=.. svc_p50_us=.. svc_p99_us=.. svc_max_us=..
 * (one line; late: reads that started more than one period after they
 * were due; svc: from issue to end, as fio reports it). Every latency is
 * kept, so the percentiles are exact (nearest rank). Exits 1 if a read
 * failed, 2 on a usage, allocation or I/O setup error.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <linux/fs.h>

#include "tools.h"

struct reader {
	pthread_t thread;
	int fd;
	uint64_t seed;
	uint64_t nr_due;
	uint64_t done, failed, late;
	uint64_t *lat_ns;	/* from due time, one a read */
	uint64_t *svc_ns;	/* from issue */
};

static size_t block = 4096;
static uint64_t nr_blocks;
static double rate;
static struct timespec start;

static uint64_t ts_ns(const struct timespec *t)
{
	return (uint64_t)t->tv_sec * 1000000000ULL + (uint64_t)t->tv_nsec;
}

static struct timespec ns_ts(uint64_t ns)
{
	struct timespec t = { .tv_sec = ns / 1000000000ULL, .tv_nsec = ns % 1000000000ULL };

	return t;
}

static void *reader_fn(void *arg)
{
	struct reader *r = arg;
	uint64_t t0 = ts_ns(&start), period = (uint64_t)(1e9 / rate), i;
	void *buf;

	if (posix_memalign(&buf, 4096, block)) {
		r->failed = r->nr_due;
		return NULL;
	}
	for (i = 0; i < r->nr_due; i++) {
		uint64_t due = t0 + (uint64_t)((double)i * 1e9 / rate);
		struct timespec d = ns_ts(due);
		uint64_t issue, end;
		off_t off = (off_t)(next(&r->seed) % nr_blocks) * (off_t)block;

		while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &d, NULL) == EINTR)
			;
		issue = now_ns();
		if (issue > due + period)
			r->late++;
		if (pread(r->fd, buf, block, off) != (ssize_t)block) {
			r->failed++;
			continue;
		}
		end = now_ns();
		r->lat_ns[r->done] = end - due;
		r->svc_ns[r->done] = end - issue;
		r->done++;
	}
	free(buf);
	return NULL;
}

static void usage(void)
{
	fprintf(stderr,
		"usage: ratereader [-j THREADS] [-b BYTES] [-s MIB] [-p NICE] [-S SEED] -r RATE\n"
		"                  -t SECONDS DEVICE\n");
	exit(2);
}

int main(int argc, char **argv)
{
	unsigned int threads = 1, t;
	double seconds = 0;
	uint64_t mib = 0, seed = 1, size = 0, n, all_done = 0, all_failed = 0, all_late = 0;
	uint64_t *lat, *svc;
	struct reader *rd;
	struct stat st;
	int opt, fd, prio = 0, set_prio = 0;

	while ((opt = getopt(argc, argv, "j:b:s:p:S:r:t:")) != -1) {
		switch (opt) {
		case 'j': threads = (unsigned int)strtoul(optarg, NULL, 0); break;
		case 'b': block = strtoul(optarg, NULL, 0); break;
		case 's': mib = strtoull(optarg, NULL, 0); break;
		case 'S': seed = strtoull(optarg, NULL, 0) | 1; break;
		case 'r': rate = strtod(optarg, NULL); break;
		case 't': seconds = strtod(optarg, NULL); break;
		case 'p': prio = (int)strtol(optarg, NULL, 0); set_prio = 1; break;
		default: usage();
		}
	}
	if (optind != argc - 1 || !threads || threads > 1024 || rate <= 0 ||
	    rate > 1e6 || seconds <= 0 || !block || block % 512)
		usage();
	fd = open(argv[optind], O_RDONLY | O_DIRECT);
	if (fd < 0 || fstat(fd, &st)) {
		fprintf(stderr, "ratereader: %s: %s\n", argv[optind], strerror(errno));
		return 2;
	}
	if (S_ISBLK(st.st_mode)) {
		if (ioctl(fd, BLKGETSIZE64, &size)) {
			fprintf(stderr, "ratereader: BLKGETSIZE64: %s\n", strerror(errno));
			return 2;
		}
	} else {
		size = (uint64_t)st.st_size;
	}
	if (mib && mib << 20 < size)
		size = mib << 20;
	nr_blocks = size / block;
	if (!nr_blocks) {
		fprintf(stderr, "ratereader: %s: smaller than one block\n", argv[optind]);
		return 2;
	}
	n = (uint64_t)(rate * seconds);
	rd = calloc(threads, sizeof(*rd));
	if (!rd || !n)
		return 2;
	if (set_prio && setpriority(PRIO_PROCESS, 0, prio)) {
		fprintf(stderr, "ratereader: nice %d: %s\n", prio, strerror(errno));
		return 2;
	}
	no_timer_slack();
	clock_gettime(CLOCK_MONOTONIC, &start);
	/* The first reads are due a little later, once every thread exists. */
	start = ns_ts(ts_ns(&start) + 10000000ULL);
	for (t = 0; t < threads; t++) {
		rd[t].fd = fd;
		rd[t].seed = (seed + t) * 0x9e3779b97f4a7c15ULL | 1;
		rd[t].nr_due = n;
		rd[t].lat_ns = malloc(n * sizeof(uint64_t));
		rd[t].svc_ns = malloc(n * sizeof(uint64_t));
		if (!rd[t].lat_ns || !rd[t].svc_ns ||
		    pthread_create(&rd[t].thread, NULL, reader_fn, &rd[t])) {
			fprintf(stderr, "ratereader: cannot start thread %u\n", t);
			return 2;
		}
	}
	for (t = 0; t < threads; t++)
		pthread_join(rd[t].thread, NULL);

	lat = malloc(n * threads * sizeof(uint64_t));
	svc = malloc(n * threads * sizeof(uint64_t));
	if (!lat || !svc)
		return 2;
	for (t = 0; t < threads; t++) {
		memcpy(lat + all_done, rd[t].lat_ns, rd[t].done * sizeof(uint64_t));
		memcpy(svc + all_done, rd[t].svc_ns, rd[t].done * sizeof(uint64_t));
		all_done += rd[t].done;
		all_failed += rd[t].failed;
		all_late += rd[t].late;
	}
	qsort(lat, all_done, sizeof(uint64_t), cmp_u64);
	qsort(svc, all_done, sizeof(uint64_t), cmp_u64);
	printf("RATEREADER threads=%u rate=%g seconds=%g due=%llu done=%llu failed=%llu"
	       " achieved=%.1f late=%llu p50_us=%.1f p90_us=%.1f p99_us=%.1f p999_us=%.1f"
	       " max_us=%.1f svc_p50_us=%.1f svc_p99_us=%.1f svc_max_us=%.1f\n",
	       threads, rate, seconds, (unsigned long long)(n * threads),
	       (unsigned long long)all_done, (unsigned long long)all_failed,
	       (double)all_done / ((double)(now_ns() - ts_ns(&start)) / 1e9),
	       (unsigned long long)all_late,
	       pct_us(lat, all_done, 0.50), pct_us(lat, all_done, 0.90),
	       pct_us(lat, all_done, 0.99), pct_us(lat, all_done, 0.999),
	       pct_us(lat, all_done, 1.0), pct_us(svc, all_done, 0.50),
	       pct_us(svc, all_done, 0.99), pct_us(svc, all_done, 1.0));
	return all_failed ? 1 : 0;
}
