// SPDX-License-Identifier: GPL-2.0
/*
 * zsbench - a microbenchmark of the zsmalloc object access API
 *
 * A synthetic, reproducible test of the kind described for the kmap_local
 * zsmalloc API upstream: allocate a fixed number of objects of a fixed spread
 * of sizes, then go over all of them reading each one, then over all of them
 * writing each one, and time both passes.
 *
 * The module is built for one of two APIs (see Kbuild):
 *
 *  API=old  read:  zs_map_object(ZS_MM_RO), memcpy() out, zs_unmap_object()
 *           write: zs_map_object(ZS_MM_RW), memcpy() in,  zs_unmap_object()
 *  API=new  read:  zs_obj_read_begin(), memcpy() out, zs_obj_read_end()
 *           write: zs_obj_write()
 *  API=copy read:  memcpy() out of a kmalloc() object (no zsmalloc)
 *           write: memcpy() into it
 *
 * API=copy is the floor of the two others: the copies that any caller makes
 * and the loop. The difference between a run of old or new and a run of
 * copy is what the zsmalloc API costs by itself.
 *
 * Object sizes: nr_objs objects of each of the sizes in zsbench_sizes[], a
 * spread of the sizes that zram stores for compressed 4K pages, from well
 * compressible pages (128 bytes) to poorly compressible ones (3264 bytes,
 * below the huge class threshold: 3625 bytes with 4K pages and the default
 * CONFIG_ZSMALLOC_CHAIN_SIZE=8; the module prints it). The sizes are
 * interleaved in allocation order, so consecutive handles live in different
 * size classes. With 4K pages and that chain size, the classes of 128, 512,
 * 1536, 2800 and 3264 byte objects have some objects that span two pages
 * (6 of 199, 3 of 31, 7 of 21, 6 of 10 and 4 of 6 per zspage), where the
 * two APIs differ most; 1000 and 2000 byte objects go to the 1024 and 2048
 * byte classes, whose objects never span pages.
 *
 * Every object is filled once (not timed) with pseudo-random data and checked.
 * Then each of the runs (module parameter) times, with ktime_get_ns():
 *
 *  - the read phase: every object is read completely into a buffer;
 *  - the write phase: every object is rewritten completely, with contents
 *    that differ from the previous ones;
 *
 * and checks every object afterwards (not timed). Under QEMU with
 * "-icount shift=0" a guest nanosecond is one executed guest instruction, so
 * the times are instruction counts (QEMU's TSC then counts guest ns too,
 * and the guest can calibrate it; without -icount a TCG guest may fall
 * back to the jiffies clocksource, whose steps of a whole tick the start
 * line reports as clock_step_ns). Preemption and interrupts are left as
 * they are. It prints a "zsbench: start api=... clock_step_ns=..." line
 * before the runs and, when all runs are done, one line per run and then
 * "zsbench: done api=...":
 *
 *   zsbench: api=<old|new> run=<i> objs=<n> read_ns=<x> write_ns=<y> total_ns=<x+y>
 *
 * where objs is the number of objects, of all sizes.
 *
 * A data mismatch prints "zsbench: VERIFY FAILED" and fails the load with
 * -EIO. On success everything is freed and init returns 0: the module stays
 * loaded, holding nothing, until it is removed with rmmod.
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/err.h>
#include <linux/init.h>
#include <linux/jiffies.h>
#include <linux/kernel.h>
#include <linux/ktime.h>
#include <linux/limits.h>
#include <linux/minmax.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/zsmalloc.h>

#if defined(ZSBENCH_NEW_API) + defined(ZSBENCH_OLD_API) + \
	defined(ZSBENCH_COPY_ONLY) != 1
#error "build with make API=new|old|copy (exactly one ZSBENCH_* API)"
#endif

#if defined(ZSBENCH_NEW_API)
#define ZSBENCH_API "new"
#elif defined(ZSBENCH_OLD_API)
#define ZSBENCH_API "old"
#else
#define ZSBENCH_API "copy"
#endif

#define ZSBENCH_MAX_OBJS	(1024U * 1024U)
#define ZSBENCH_MAX_RUNS	1000U

static unsigned int nr_objs = 4096;
module_param(nr_objs, uint, 0444);
MODULE_PARM_DESC(nr_objs, "Number of objects of each size (default 4096)");

static unsigned int runs = 10;
module_param(runs, uint, 0444);
MODULE_PARM_DESC(runs, "Number of timed read+write runs (default 10)");

/* Object sizes in bytes, see the top of the file; all below PAGE_SIZE. */
static const unsigned int zsbench_sizes[] = {
	128, 512, 1000, 1536, 2000, 2800, 3264,
};

struct zsbench {
	struct zs_pool *pool;
	unsigned long *handles;
	unsigned int nr;
	/* pseudo-random data that objects are written from: two pages */
	u8 *src;
	/* the read phase and the checks copy objects here: one page */
	u8 *dst;
#ifdef ZSBENCH_NEW_API
	/* zs_obj_read_begin() copies objects that span two pages here */
	u8 *local_copy;
#endif
};

struct zsbench_result {
	u64 read_ns;
	u64 write_ns;
};

static size_t zsbench_size(unsigned int i)
{
	return zsbench_sizes[i % ARRAY_SIZE(zsbench_sizes)];
}

/*
 * The contents of object @i after write generation @gen: a slice of the
 * random source buffer, at an offset that depends on both, so that objects
 * differ from each other and from their previous contents.
 */
static u8 *zsbench_data(struct zsbench *zb, unsigned int i, unsigned int gen)
{
	unsigned int off = (i * 37 + gen * 11) % (PAGE_SIZE / 8);

	return zb->src + off * 8;
}

#ifdef ZSBENCH_NEW_API
static void zsbench_read(struct zsbench *zb, unsigned long handle,
			 size_t len, void *dst)
{
	void *obj;

	obj = zs_obj_read_begin(zb->pool, handle, len, zb->local_copy);
	memcpy(dst, obj, len);
	zs_obj_read_end(zb->pool, handle, len, obj);
}

static void zsbench_write(struct zsbench *zb, unsigned long handle,
			  void *src, size_t len)
{
	zs_obj_write(zb->pool, handle, src, len);
}

/* The first write of an object: the same as any other with this API. */
static void zsbench_fill(struct zsbench *zb, unsigned long handle,
			 void *src, size_t len)
{
	zs_obj_write(zb->pool, handle, src, len);
}
#elif defined(ZSBENCH_COPY_ONLY)
/*
 * No zsmalloc: the objects are kmalloc() buffers and a handle is their
 * address. What is left is what every API needs, the copy of the bytes
 * and the loop around it: subtracted from the two others, it leaves the
 * instructions spent in the API itself.
 */
static void zsbench_read(struct zsbench *zb, unsigned long handle,
			 size_t len, void *dst)
{
	memcpy(dst, (void *)handle, len);
}

static void zsbench_write(struct zsbench *zb, unsigned long handle,
			  void *src, size_t len)
{
	memcpy((void *)handle, src, len);
}

static void zsbench_fill(struct zsbench *zb, unsigned long handle,
			 void *src, size_t len)
{
	memcpy((void *)handle, src, len);
}
#else
static void zsbench_read(struct zsbench *zb, unsigned long handle,
			 size_t len, void *dst)
{
	void *obj;

	obj = zs_map_object(zb->pool, handle, ZS_MM_RO);
	memcpy(dst, obj, len);
	zs_unmap_object(zb->pool, handle);
}

static void zsbench_write(struct zsbench *zb, unsigned long handle,
			  void *src, size_t len)
{
	void *obj;

	obj = zs_map_object(zb->pool, handle, ZS_MM_RW);
	memcpy(obj, src, len);
	zs_unmap_object(zb->pool, handle);
}

/* The first write of an object: write-only, as zram does for new objects. */
static void zsbench_fill(struct zsbench *zb, unsigned long handle,
			 void *src, size_t len)
{
	void *obj;

	obj = zs_map_object(zb->pool, handle, ZS_MM_WO);
	memcpy(obj, src, len);
	zs_unmap_object(zb->pool, handle);
}
#endif

/* Timed: read every object completely. */
static u64 zsbench_read_phase(struct zsbench *zb)
{
	unsigned int i;
	u64 start;

	start = ktime_get_ns();
	for (i = 0; i < zb->nr; i++)
		zsbench_read(zb, zb->handles[i], zsbench_size(i), zb->dst);
	return ktime_get_ns() - start;
}

/* Timed: write every object completely, with generation @gen's contents. */
static u64 zsbench_write_phase(struct zsbench *zb, unsigned int gen)
{
	unsigned int i;
	u64 start;

	start = ktime_get_ns();
	for (i = 0; i < zb->nr; i++)
		zsbench_write(zb, zb->handles[i], zsbench_data(zb, i, gen),
			      zsbench_size(i));
	return ktime_get_ns() - start;
}

/* Not timed: check that every object holds generation @gen's contents. */
static int zsbench_verify(struct zsbench *zb, unsigned int gen)
{
	unsigned int i;

	for (i = 0; i < zb->nr; i++) {
		size_t len = zsbench_size(i);

		memset(zb->dst, 0, len);
		zsbench_read(zb, zb->handles[i], len, zb->dst);
		if (memcmp(zb->dst, zsbench_data(zb, i, gen), len)) {
			pr_err("VERIFY FAILED: api=%s object %u size %zu generation %u\n",
			       ZSBENCH_API, i, len, gen);
			return -EIO;
		}
		cond_resched();
	}
	return 0;
}

#ifdef ZSBENCH_COPY_ONLY
static unsigned long zsbench_alloc(struct zsbench *zb, size_t len)
{
	void *obj = kmalloc(len, GFP_KERNEL | __GFP_NOWARN);

	return obj ? (unsigned long)obj : (unsigned long)ERR_PTR(-ENOMEM);
}

static void zsbench_release(struct zsbench *zb, unsigned long handle)
{
	kfree((void *)handle);
}
#else
static unsigned long zsbench_alloc(struct zsbench *zb, size_t len)
{
	/* as zram allocates its objects */
	return zs_malloc(zb->pool, len,
			 GFP_KERNEL | __GFP_NOWARN | __GFP_HIGHMEM |
			 __GFP_MOVABLE);
}

static void zsbench_release(struct zsbench *zb, unsigned long handle)
{
	zs_free(zb->pool, handle);
}
#endif

/* Not timed: allocate every object and write generation 0 into it. */
static int zsbench_populate(struct zsbench *zb)
{
	unsigned int i;

	for (i = 0; i < zb->nr; i++) {
		size_t len = zsbench_size(i);
		unsigned long handle;

		handle = zsbench_alloc(zb, len);
		if (IS_ERR_VALUE(handle)) {
			pr_err("zs_malloc(%zu) failed for object %u: %ld\n",
			       len, i, (long)handle);
			return -ENOMEM;
		}
		zb->handles[i] = handle;
		zsbench_fill(zb, handle, zsbench_data(zb, i, 0), len);
		cond_resched();
	}
	return 0;
}

/* Deterministic pseudo-random bytes (xorshift32), so that runs repeat. */
static void zsbench_random_fill(u8 *buf, size_t len)
{
	u32 x = 0x2545f491;
	size_t i;

	for (i = 0; i < len; i++) {
		x ^= x << 13;
		x ^= x >> 17;
		x ^= x << 5;
		buf[i] = x >> 24;
	}
}

/*
 * The smallest step of ktime_get_ns() seen in a few tries: its resolution or
 * the time that reading it takes, whichever is larger. That is some ns to
 * some us with a TSC clocksource, but a whole tick with jiffies, as in a QEMU
 * TCG guest that could not calibrate its TSC.
 */
static u64 zsbench_clock_step(void)
{
	u64 step = U64_MAX;
	unsigned int i, spin;

	for (i = 0; i < 8; i++) {
		u64 t0 = ktime_get_ns(), t1 = t0;

		for (spin = 0; spin < 100000000 && t1 == t0; spin++)
			t1 = ktime_get_ns();
		if (t1 != t0)
			step = min(step, t1 - t0);
	}
	return step;
}

static void zsbench_free(struct zsbench *zb)
{
	unsigned int i;

	if (zb->handles) {
		for (i = 0; i < zb->nr; i++) {
			if (zb->handles[i])
				zsbench_release(zb, zb->handles[i]);
		}
	}
	if (zb->pool)
		zs_destroy_pool(zb->pool);
	kvfree(zb->handles);
	kfree(zb->src);
	kfree(zb->dst);
#ifdef ZSBENCH_NEW_API
	kfree(zb->local_copy);
#endif
}

static int __init zsbench_init(void)
{
	struct zsbench_result *res;
	struct zsbench zb = { };
	unsigned int run;
	u64 clock_step;
	int err;

	if (!nr_objs || nr_objs > ZSBENCH_MAX_OBJS || !runs ||
	    runs > ZSBENCH_MAX_RUNS) {
		pr_err("nr_objs must be in 1..%u and runs in 1..%u\n",
		       ZSBENCH_MAX_OBJS, ZSBENCH_MAX_RUNS);
		return -EINVAL;
	}

	zb.nr = nr_objs * ARRAY_SIZE(zsbench_sizes);
	res = kcalloc(runs, sizeof(*res), GFP_KERNEL);
	zb.handles = kvcalloc(zb.nr, sizeof(*zb.handles), GFP_KERNEL);
	zb.src = kmalloc(2 * PAGE_SIZE, GFP_KERNEL);
	zb.dst = kmalloc(PAGE_SIZE, GFP_KERNEL);
#ifdef ZSBENCH_NEW_API
	zb.local_copy = kmalloc(PAGE_SIZE, GFP_KERNEL);
	if (!zb.local_copy)
		goto nomem;
#endif
	if (!res || !zb.handles || !zb.src || !zb.dst)
		goto nomem;

#ifndef ZSBENCH_COPY_ONLY
	zb.pool = zs_create_pool(KBUILD_MODNAME);
	if (!zb.pool)
		goto nomem;
#endif

	clock_step = zsbench_clock_step();
	pr_info("start api=%s runs=%u objs=%u nr_objs=%u sizes=%u..%u huge_class_size=%zu clock_step_ns=%llu\n",
		ZSBENCH_API, runs, zb.nr, nr_objs, zsbench_sizes[0],
		zsbench_sizes[ARRAY_SIZE(zsbench_sizes) - 1],
		zb.pool ? zs_huge_class_size(zb.pool) : 0, clock_step);
	if (clock_step >= TICK_NSEC / 2)
		pr_warn("ktime_get_ns() advances in steps of a tick (%llu ns): the times are that coarse\n",
			clock_step);

	zsbench_random_fill(zb.src, 2 * PAGE_SIZE);
	err = zsbench_populate(&zb);
	if (err)
		goto out;
	err = zsbench_verify(&zb, 0);
	if (err)
		goto out;

	for (run = 0; run < runs; run++) {
		res[run].read_ns = zsbench_read_phase(&zb);
		res[run].write_ns = zsbench_write_phase(&zb, run + 1);
		err = zsbench_verify(&zb, run + 1);
		if (err)
			goto out;
	}

	/* Print only now, so that console output cannot slow down a run. */
	for (run = 0; run < runs; run++)
		pr_info("api=%s run=%u objs=%u read_ns=%llu write_ns=%llu total_ns=%llu\n",
			ZSBENCH_API, run, zb.nr, res[run].read_ns,
			res[run].write_ns,
			res[run].read_ns + res[run].write_ns);
	pr_info("done api=%s\n", ZSBENCH_API);
	goto out;

nomem:
	pr_err("out of memory\n");
	err = -ENOMEM;
out:
	zsbench_free(&zb);
	kfree(res);
	return err;
}

/* Everything was freed by zsbench_init(): this only makes rmmod possible. */
static void __exit zsbench_exit(void)
{
}

module_init(zsbench_init);
module_exit(zsbench_exit);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("zsmalloc object access API microbenchmark (" ZSBENCH_API " API)");
