// SPDX-License-Identifier: MIT
/*
 * Copyright 2026 The vaccel authors
 *
 * host_va.c - the GPU VA allocator of libvaccel (umd/libvaccel/va.c),
 * compiled in directly and driven through the public vaccel_va_alloc() and
 * vaccel_va_free() on a fake device handle that has nothing but the
 * allocator: no file, no kernel.
 *
 *	host_va
 *
 * Fixed cases (alignment, reuse, coalescing, exhaustion, bad frees, range
 * edges), then a randomized run of RANDOM_OPS operations against a bitmap
 * model with a fixed seed: the allocator must return exactly the lowest
 * suitably aligned free range (first fit over coalesced holes is that), fail
 * exactly when the model has no room, refuse exactly the frees the model
 * refuses, and have as many holes as the model has free runs.  Last,
 * threads share one allocator and check that their ranges never overlap.
 *
 * Prints the first failed check on stderr and exits 1, else exits 0.
 */
#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vaccel_priv.h"

#include "host_check.h"

#define PAGE		4096ull
#define RANDOM_OPS	100000
#define RANDOM_PAGES	2048
#define RANDOM_SEED	0x5eed1234abcdull

/* A device handle with only its allocator, over [start, end). */
static struct vaccel_device *fake_device(uint64_t start, uint64_t end)
{
	struct vaccel_device *dev = calloc(1, sizeof(*dev));

	CHECK(dev);
	dev->fd = -1;
	CHECK_EQ(vaccel_va_space_init(&dev->va, start, end), 0);
	return dev;
}

static void fake_device_free(struct vaccel_device *dev)
{
	vaccel_va_space_fini(&dev->va);
	free(dev);
}

static uint64_t alloc_ok(struct vaccel_device *dev, uint64_t size, uint64_t align)
{
	uint64_t va = 0;

	CHECK_EQ(vaccel_va_alloc(dev, size, align, &va), 0);
	return va;
}

static size_t holes(struct vaccel_device *dev)
{
	return vaccel_va_space_holes(&dev->va);
}

/* Addresses are handed out lowest first, rounded to pages, reused at once. */
static void test_basic(void)
{
	struct vaccel_device *dev = fake_device(0x10000, 0x10000 + 64 * PAGE);
	uint64_t a, b, c, d;

	a = alloc_ok(dev, PAGE, 0);
	CHECK_EQ(a, 0x10000);
	b = alloc_ok(dev, 1, 0);		/* one byte takes a page */
	CHECK_EQ(b, 0x11000);
	c = alloc_ok(dev, 2 * PAGE, PAGE);
	CHECK_EQ(c, 0x12000);
	CHECK_EQ(holes(dev), 1);

	CHECK_EQ(vaccel_va_free(dev, b, 1), 0);
	CHECK_EQ(holes(dev), 2);
	d = alloc_ok(dev, PAGE, 0);		/* the hole is reused */
	CHECK_EQ(d, b);
	CHECK_EQ(holes(dev), 1);

	/* Freeing with the rounded size is the same allocation. */
	CHECK_EQ(vaccel_va_free(dev, d, PAGE), 0);
	CHECK_EQ(vaccel_va_free(dev, a, PAGE), 0);
	CHECK_EQ(vaccel_va_free(dev, c, 2 * PAGE), 0);
	CHECK_EQ(holes(dev), 1);
	CHECK_EQ(alloc_ok(dev, 64 * PAGE, 0), 0x10000);
	fake_device_free(dev);
}

/* Alignment: power of two >= 4 KiB; the gap before an aligned block stays usable. */
static void test_alignment(void)
{
	struct vaccel_device *dev = fake_device(0x13000, 0x13000 + 1024 * PAGE);
	static const uint64_t bad[] = { 1, 3, 512, 2048, 3 * PAGE, 0x11000,
					(1ull << 63) + PAGE };
	uint64_t va = 0x1234, a, b, c, align;
	unsigned int i;

	a = alloc_ok(dev, PAGE, 0x10000);
	CHECK_EQ(a, 0x20000);
	b = alloc_ok(dev, PAGE, 0);		/* below a, in the gap */
	CHECK_EQ(b, 0x13000);
	c = alloc_ok(dev, 0x10000, 0x10000);
	CHECK_EQ(c, 0x30000);
	CHECK_EQ(holes(dev), 3);		/* 0x14000, 0x21000, 0x40000 */

	for (align = PAGE; align <= 0x100000; align <<= 1) {
		va = alloc_ok(dev, PAGE, align);
		CHECK_EQ(va % align, 0);
		CHECK_EQ(vaccel_va_free(dev, va, PAGE), 0);
	}
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		va = 0x1234;
		CHECK_EQ(vaccel_va_alloc(dev, PAGE, bad[i], &va), -EINVAL);
		CHECK_EQ(va, 0x1234);
	}
	/* An alignment beyond the range cannot be met. */
	CHECK_EQ(vaccel_va_alloc(dev, PAGE, 1ull << 40, &va), -ENOSPC);
	CHECK_EQ(vaccel_va_alloc(dev, PAGE, 1ull << 63, &va), -ENOSPC);
	fake_device_free(dev);
}

/* Freed neighbours merge back into one hole, whatever the order. */
static void test_coalesce(void)
{
	struct vaccel_device *dev = fake_device(0x10000, 0x10000 + 32 * PAGE);
	uint64_t va[32];
	unsigned int i;

	for (i = 0; i < 32; i++)
		va[i] = alloc_ok(dev, PAGE, 0);
	CHECK_EQ(holes(dev), 0);
	for (i = 0; i < 32; i += 2)
		CHECK_EQ(vaccel_va_free(dev, va[i], PAGE), 0);
	CHECK_EQ(holes(dev), 16);
	/* Each odd page joins two holes into one. */
	for (i = 1; i < 32; i += 4)
		CHECK_EQ(vaccel_va_free(dev, va[i], PAGE), 0);
	CHECK_EQ(holes(dev), 8);
	for (i = 3; i < 32; i += 4)
		CHECK_EQ(vaccel_va_free(dev, va[i], PAGE), 0);
	CHECK_EQ(holes(dev), 1);
	CHECK_EQ(alloc_ok(dev, 32 * PAGE, 0), 0x10000);
	fake_device_free(dev);

	/* Merge with the left neighbour only, then the right only. */
	dev = fake_device(0x10000, 0x10000 + 8 * PAGE);
	for (i = 0; i < 8; i++)
		va[i] = alloc_ok(dev, PAGE, 0);
	CHECK_EQ(vaccel_va_free(dev, va[2], PAGE), 0);
	CHECK_EQ(vaccel_va_free(dev, va[3], PAGE), 0);	/* left merge */
	CHECK_EQ(holes(dev), 1);
	CHECK_EQ(vaccel_va_free(dev, va[6], PAGE), 0);
	CHECK_EQ(vaccel_va_free(dev, va[5], PAGE), 0);	/* right merge */
	CHECK_EQ(holes(dev), 2);
	CHECK_EQ(vaccel_va_free(dev, va[4], PAGE), 0);	/* both */
	CHECK_EQ(holes(dev), 1);
	CHECK_EQ(alloc_ok(dev, 5 * PAGE, 0), va[2]);
	fake_device_free(dev);
}

/* A full space says -ENOSPC, and takes allocations again after a free. */
static void test_exhaustion(void)
{
	struct vaccel_device *dev = fake_device(0x10000, 0x10000 + 16 * PAGE);
	uint64_t va = 0, all;
	unsigned int n = 0;

	CHECK_EQ(vaccel_va_alloc(dev, 17 * PAGE, 0, &va), -ENOSPC);
	CHECK_EQ(vaccel_va_alloc(dev, UINT64_MAX, 0, &va), -ENOSPC);
	CHECK_EQ(vaccel_va_alloc(dev, UINT64_MAX - PAGE, 0, &va), -ENOSPC);
	all = alloc_ok(dev, 16 * PAGE, 0);
	CHECK_EQ(vaccel_va_alloc(dev, PAGE, 0, &va), -ENOSPC);
	CHECK_EQ(vaccel_va_free(dev, all, 16 * PAGE), 0);

	while (!vaccel_va_alloc(dev, PAGE, 0, &va))
		n++;
	CHECK_EQ(n, 16);
	CHECK_EQ(vaccel_va_alloc(dev, PAGE, 0, &va), -ENOSPC);
	CHECK_EQ(vaccel_va_free(dev, 0x10000 + 7 * PAGE, PAGE), 0);
	CHECK_EQ(alloc_ok(dev, PAGE, 0), 0x10000 + 7 * PAGE);
	fake_device_free(dev);

	/* An empty range, and bounds that are not page aligned. */
	dev = fake_device(0x10000, 0x10000);
	CHECK_EQ(vaccel_va_alloc(dev, PAGE, 0, &va), -ENOSPC);
	fake_device_free(dev);
	dev = fake_device(0x10001, 0x13fff);
	CHECK_EQ(alloc_ok(dev, 2 * PAGE, 0), 0x11000);
	CHECK_EQ(vaccel_va_alloc(dev, PAGE, 0, &va), -ENOSPC);
	fake_device_free(dev);
}

/* Frees of anything but one live allocation are -EINVAL and change nothing. */
static void test_bad_free(void)
{
	struct vaccel_device *dev = fake_device(0x10000, 0x10000 + 64 * PAGE);
	uint64_t a, b, va = 0x5555;

	a = alloc_ok(dev, 4 * PAGE, 0);
	b = alloc_ok(dev, PAGE, 0);
	CHECK_EQ(vaccel_va_free(dev, a, 3 * PAGE), -EINVAL);	/* wrong size */
	CHECK_EQ(vaccel_va_free(dev, a, 5 * PAGE), -EINVAL);
	CHECK_EQ(vaccel_va_free(dev, a + PAGE, 3 * PAGE), -EINVAL); /* inside */
	CHECK_EQ(vaccel_va_free(dev, a + 1, 4 * PAGE), -EINVAL);   /* unaligned */
	CHECK_EQ(vaccel_va_free(dev, a, 0), -EINVAL);
	CHECK_EQ(vaccel_va_free(dev, a, UINT64_MAX), -EINVAL);
	CHECK_EQ(vaccel_va_free(dev, b + PAGE, PAGE), -EINVAL);	/* never allocated */
	CHECK_EQ(vaccel_va_free(dev, 0, PAGE), -EINVAL);		/* below the range */
	CHECK_EQ(vaccel_va_free(dev, 1ull << 60, PAGE), -EINVAL);	/* above it */
	CHECK_EQ(vaccel_va_free(NULL, a, 4 * PAGE), -EINVAL);
	CHECK_EQ(vaccel_va_alloc(NULL, PAGE, 0, &va), -EINVAL);
	CHECK_EQ(vaccel_va_alloc(dev, 0, 0, &va), -EINVAL);
	CHECK_EQ(vaccel_va_alloc(dev, PAGE, 0, NULL), -EINVAL);
	CHECK_EQ(va, 0x5555);

	CHECK_EQ(vaccel_va_free(dev, a, 4 * PAGE), 0);
	CHECK_EQ(vaccel_va_free(dev, a, 4 * PAGE), -EINVAL);	/* double free */
	CHECK_EQ(vaccel_va_free(dev, b, PAGE), 0);
	CHECK_EQ(vaccel_va_free(dev, b, PAGE), -EINVAL);
	CHECK_EQ(holes(dev), 1);
	CHECK_EQ(alloc_ok(dev, 64 * PAGE, 0), 0x10000);
	fake_device_free(dev);
}

/* A 48-bit space: huge allocations, alignment near the top, no overflow. */
static void test_big_range(void)
{
	struct vaccel_device *dev = fake_device(0x10000, 1ull << 48);
	uint64_t a, b, c, va;

	a = alloc_ok(dev, 1ull << 46, 1ull << 46);
	CHECK_EQ(a, 1ull << 46);
	b = alloc_ok(dev, 1ull << 47, 1ull << 47);
	CHECK_EQ(b, 1ull << 47);
	c = alloc_ok(dev, (1ull << 46) - 0x10000, 0);
	CHECK_EQ(c, 0x10000);
	CHECK_EQ(vaccel_va_alloc(dev, PAGE, 0, &va), -ENOSPC);
	CHECK_EQ(vaccel_va_free(dev, b, 1ull << 47), 0);
	CHECK_EQ(alloc_ok(dev, PAGE, 1ull << 47), 1ull << 47);
	fake_device_free(dev);

	/* The highest page there is. */
	dev = fake_device(UINT64_MAX - 16 * PAGE + 1, UINT64_MAX);
	CHECK_EQ(vaccel_va_alloc(dev, PAGE, 1ull << 63, &va), -ENOSPC);
	CHECK_EQ(vaccel_va_alloc(dev, 16 * PAGE, 0, &va), -ENOSPC);
	va = alloc_ok(dev, 15 * PAGE, 0);
	CHECK_EQ(va, UINT64_MAX - 16 * PAGE + 1);
	CHECK_EQ(vaccel_va_alloc(dev, PAGE, 0, &va), -ENOSPC);
	CHECK_EQ(vaccel_va_free(dev, UINT64_MAX - 16 * PAGE + 1, 15 * PAGE), 0);
	CHECK_EQ(holes(dev), 1);
	fake_device_free(dev);
}

/* --- randomized, against a bitmap model --- */

static uint64_t rng_state = RANDOM_SEED;

static uint64_t rng(void)
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 7;
	rng_state ^= rng_state << 17;
	return rng_state;
}

struct live {
	uint64_t va;
	uint64_t pages;
};

static bool used[RANDOM_PAGES];

/*
 * The lowest address of the range starting at @start, aligned to @align,
 * with @pages free pages; UINT64_MAX if there is none.
 */
static uint64_t model_fit(uint64_t start, uint64_t pages, uint64_t align)
{
	uint64_t a = (start + align - 1) & ~(align - 1), p, q;

	for (;;) {
		p = (a - start) / PAGE;
		if (p + pages > RANDOM_PAGES)
			return UINT64_MAX;
		for (q = p; q < p + pages && !used[q]; q++)
			;
		if (q == p + pages)
			return a;
		/* Page q is used: the next candidate starts after it. */
		a = start + (q + 1) * PAGE;
		a = (a + align - 1) & ~(align - 1);
	}
}

static size_t model_runs(void)
{
	size_t runs = 0, i;

	for (i = 0; i < RANDOM_PAGES; i++)
		if (!used[i] && (i == 0 || used[i - 1]))
			runs++;
	return runs;
}

static void model_set(uint64_t start, const struct live *l, bool val)
{
	uint64_t p = (l->va - start) / PAGE, i;

	for (i = 0; i < l->pages; i++) {
		CHECK(used[p + i] != val);
		used[p + i] = val;
	}
}

static void test_random(void)
{
	/* Not 64 KiB aligned, so that alignment leaves gaps. */
	const uint64_t start = 0x13000;
	struct vaccel_device *dev = fake_device(start, start + RANDOM_PAGES * PAGE);
	static struct live live[RANDOM_PAGES];
	struct live last_freed = { 0, 0 };
	uint64_t va, pages, align, want, r;
	size_t nlive = 0, i, allocs = 0, nospc = 0;
	int ret, op;

	for (op = 0; op < RANDOM_OPS; op++) {
		r = rng() % 100;
		if (r < 55 || !nlive) {
			r = rng() % 100;
			pages = r < 70 ? 1 + rng() % 8 :
				r < 95 ? 9 + rng() % 56 : 65 + rng() % 448;
			r = rng() % 100;
			align = PAGE << (r < 50 ? 0 : r < 95 ? rng() % 7 : 8 + rng() % 4);
			want = model_fit(start, pages, align);
			va = 0;
			/* Sometimes a size that is not a whole number of pages. */
			ret = vaccel_va_alloc(dev, pages * PAGE - (rng() % 2 ? rng() % PAGE : 0),
					      align, &va);
			if (want == UINT64_MAX) {
				CHECK_EQ(ret, -ENOSPC);
				nospc++;
			} else {
				CHECK_EQ(ret, 0);
				CHECK_EQ(va, want);
				live[nlive].va = va;
				live[nlive].pages = pages;
				model_set(start, &live[nlive], true);
				nlive++;
				allocs++;
			}
		} else if (r < 95) {
			i = rng() % nlive;
			CHECK_EQ(vaccel_va_free(dev, live[i].va, live[i].pages * PAGE), 0);
			model_set(start, &live[i], false);
			last_freed = live[i];
			live[i] = live[--nlive];
		} else {
			/* A bad free: double, wrong size, or inside an allocation. */
			r = rng() % 3;
			if (r == 0 && last_freed.pages) {
				va = last_freed.va;
				pages = last_freed.pages;
				/* Unless it was allocated again since. */
				for (i = 0; i < nlive; i++)
					if (live[i].va == va && live[i].pages == pages)
						break;
				if (i < nlive)
					continue;
			} else {
				i = rng() % nlive;
				va = live[i].va;
				pages = live[i].pages;
				if (r == 1 || pages == 1)
					pages++;
				else
					va += PAGE * (1 + rng() % (pages - 1)), pages = 1;
			}
			CHECK_EQ(vaccel_va_free(dev, va, pages * PAGE), -EINVAL);
		}
		if (op % 16 == 0)
			CHECK_EQ(holes(dev), model_runs());
	}
	/* The run must have gone through both full and fragmented states. */
	CHECK(allocs > RANDOM_OPS / 3);
	CHECK(nospc > 100);

	while (nlive) {
		nlive--;
		CHECK_EQ(vaccel_va_free(dev, live[nlive].va, live[nlive].pages * PAGE), 0);
		model_set(start, &live[nlive], false);
	}
	CHECK_EQ(holes(dev), 1);
	CHECK_EQ(dev->va.allocated, 0);
	CHECK_EQ(alloc_ok(dev, RANDOM_PAGES * PAGE, 0), start);
	fake_device_free(dev);
}

/* --- threads --- */

#define THREADS		4
#define THREAD_OPS	20000
#define THREAD_PAGES	4096

static struct vaccel_device *shared_dev;
static unsigned char owner[THREAD_PAGES];

static void claim(uint64_t va, uint64_t pages, unsigned char from, unsigned char to)
{
	uint64_t p = (va - 0x10000) / PAGE, i;
	unsigned char expect;

	for (i = 0; i < pages; i++) {
		expect = from;
		CHECK(__atomic_compare_exchange_n(&owner[p + i], &expect, to, false,
						  __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST));
	}
}

static void *thread_fn(void *arg)
{
	unsigned char me = (unsigned char)(uintptr_t)arg;
	uint64_t seed = RANDOM_SEED * me, va[16], pages[16];
	unsigned int n = 0, i, op;
	int ret;

	for (op = 0; op < THREAD_OPS; op++) {
		seed ^= seed << 13;
		seed ^= seed >> 7;
		seed ^= seed << 17;
		if (n < 16 && (seed & 1)) {
			pages[n] = 1 + (seed >> 8) % 32;
			ret = vaccel_va_alloc(shared_dev, pages[n] * PAGE,
					      PAGE << ((seed >> 20) % 4), &va[n]);
			if (ret == -ENOSPC)
				continue;
			CHECK_EQ(ret, 0);
			claim(va[n], pages[n], 0, me);
			n++;
		} else if (n) {
			i = (seed >> 8) % n;
			claim(va[i], pages[i], me, 0);
			CHECK_EQ(vaccel_va_free(shared_dev, va[i], pages[i] * PAGE), 0);
			va[i] = va[--n];
			pages[i] = pages[n];
		}
	}
	while (n--) {
		claim(va[n], pages[n], me, 0);
		CHECK_EQ(vaccel_va_free(shared_dev, va[n], pages[n] * PAGE), 0);
	}
	return NULL;
}

static void test_threads(void)
{
	pthread_t t[THREADS];
	uintptr_t i;

	shared_dev = fake_device(0x10000, 0x10000 + THREAD_PAGES * PAGE);
	for (i = 0; i < THREADS; i++)
		CHECK_EQ(pthread_create(&t[i], NULL, thread_fn, (void *)(i + 1)), 0);
	for (i = 0; i < THREADS; i++)
		CHECK_EQ(pthread_join(t[i], NULL), 0);
	CHECK_EQ(holes(shared_dev), 1);
	CHECK_EQ(shared_dev->va.allocated, 0);
	fake_device_free(shared_dev);
}

int main(void)
{
	test_basic();
	test_alignment();
	test_coalesce();
	test_exhaustion();
	test_bad_free();
	test_big_range();
	test_random();
	test_threads();
	return 0;
}
