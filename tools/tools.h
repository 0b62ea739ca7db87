/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the tools share (swapverify, ratereader, swapin): a xorshift
 * generator, the monotonic clock in nanoseconds, no timer slack, and exact
 * percentiles of a sorted array of latencies.
 */
#ifndef HARNESS_TOOLS_H
#define HARNESS_TOOLS_H

#include <stdint.h>
#include <sys/prctl.h>
#include <time.h>

/* xorshift64: never returns 0 from a seed that is not 0. */
static inline uint64_t next(uint64_t *s)
{
	uint64_t x = *s;

	x ^= x << 13;
	x ^= x >> 7;
	x ^= x << 17;
	return *s = x;
}

static inline uint64_t now_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (uint64_t)t.tv_sec * 1000000000ULL + (uint64_t)t.tv_nsec;
}

/*
 * Wake at the due time itself: a timer slack of 1 ns instead of the
 * default 50 us, which would otherwise be in every latency from a due
 * time. Threads created afterwards inherit it.
 */
static inline void no_timer_slack(void)
{
	prctl(PR_SET_TIMERSLACK, 1UL, 0UL, 0UL, 0UL);
}

/* For qsort() of uint64_t. */
static inline int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/*
 * The p quantile (0 < p <= 1) of @n sorted nanosecond values, in
 * microseconds, by nearest rank: the smallest value with at least p of
 * the values at or below it. 0 for no values.
 */
static inline double pct_us(const uint64_t *v, uint64_t n, double p)
{
	uint64_t k;

	if (!n)
		return 0;
	k = (uint64_t)(p * (double)n + 0.999999999);
	if (k < 1)
		k = 1;
	if (k > n)
		k = n;
	return (double)v[k - 1] / 1000.0;
}

#endif
