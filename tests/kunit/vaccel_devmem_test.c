// SPDX-License-Identifier: GPL-2.0-only
/*
 * Copyright 2026 The vaccel authors
 *
 * KUnit tests of the device-memory segment: the buddy allocator's ranges,
 * the host pages behind them and their pool, the fabric's translation of
 * device physical addresses, the bounds of both, and the placement of new
 * BOs.
 */

#include <kunit/test.h>
#include <linux/mm.h>
#include <linux/sizes.h>

#include <drm/drm_kunit_helpers.h>
#include <drm/vaccel_accel.h>

#include "../vaccel_devmem.h"
#include "../vaccel_drv.h"
#include "../vaccel_gem.h"
#include "../vaccel_migrate.h"

#define SEG_PAGES	(SZ_1M / PAGE_SIZE)

/* A driver whose GEM objects are vaccel's BOs, for placement. */
static const struct drm_driver vaccel_devmem_test_driver = {
	.driver_features = DRIVER_GEM | DRIVER_GEM_GPUVA,
	.gem_create_object = vaccel_gem_create_object,
};

static int vaccel_devmem_test_init(struct kunit *test)
{
	struct vaccel_topology_params p = {
		.devices = 1, .compute_engines = 1, .copy_engines = 0, .va_bits = 48,
		.timeslice_ms = VACCEL_TIMESLICE_MS_DEFAULT,
		.timeout_ms = VACCEL_TIMEOUT_MS_DEFAULT,
		.time_limit_ms = VACCEL_TIME_LIMIT_MS_DEFAULT,
		.dispatch_slice = VACCEL_DISPATCH_SLICE_DEFAULT,
		.device_mem_mb = 1,
	};
	struct vaccel_device *vdev;
	struct device *dev;
	const char *why;

	dev = drm_kunit_helper_alloc_device(test);
	KUNIT_ASSERT_FALSE(test, IS_ERR(dev));
	vdev = drm_kunit_helper_alloc_drm_device_with_driver(test, dev,
							     struct vaccel_device, drm,
							     &vaccel_devmem_test_driver);
	KUNIT_ASSERT_FALSE(test, IS_ERR(vdev));
	vdev->index = 3;
	KUNIT_ASSERT_EQ(test, vaccel_topology_init(&vdev->topo, &p, &why), 0);
	KUNIT_ASSERT_EQ(test, vaccel_devmem_init(vdev), 0);
	KUNIT_ASSERT_NOT_NULL(test, vdev->devmem);
	test->priv = vdev;
	return 0;
}

/* Ranges are distinct pages of the segment, zeroed, reachable, given back. */
static void vaccel_devmem_test_alloc_free(struct kunit *test)
{
	struct vaccel_device *vdev = test->priv;
	struct vaccel_devmem *mem = vdev->devmem;
	struct vaccel_devmem_range a, b, c;
	unsigned long i, j;

	KUNIT_EXPECT_EQ(test, mem->base, DRM_VACCEL_DEVICE_MEM_BASE(3));
	KUNIT_EXPECT_EQ(test, mem->region, DRM_VACCEL_REGION_DEVICE(3));
	KUNIT_EXPECT_EQ(test, vaccel_devmem_free_bytes(mem), (u64)SZ_1M);

	KUNIT_ASSERT_EQ(test, vaccel_devmem_alloc(mem, 100, true, &a), 0);
	KUNIT_EXPECT_EQ(test, vaccel_devmem_free_bytes(mem), (u64)SZ_1M - 100 * PAGE_SIZE);
	for (i = 0; i < 100; i++) {
		struct page *p = vaccel_devmem_page(a.addrs[i]);
		u8 *bytes;

		KUNIT_EXPECT_TRUE(test, PAGE_ALIGNED(a.addrs[i]));
		KUNIT_EXPECT_GE(test, a.addrs[i], mem->base);
		KUNIT_EXPECT_LT(test, a.addrs[i], mem->base + mem->size);
		KUNIT_EXPECT_EQ(test, vaccel_devmem_region_of(a.addrs[i]), mem->region);
		KUNIT_ASSERT_NOT_NULL(test, p);
		bytes = page_address(p);
		KUNIT_EXPECT_EQ(test, bytes[0] | bytes[PAGE_SIZE - 1], 0);
		for (j = 0; j < i; j++)
			KUNIT_EXPECT_NE(test, a.addrs[i], a.addrs[j]);
	}

	/* Past the room left: -ENOSPC, and nothing taken. */
	KUNIT_EXPECT_EQ(test, vaccel_devmem_alloc(mem, SEG_PAGES - 99, false, &b), -ENOSPC);
	KUNIT_EXPECT_EQ(test, vaccel_devmem_free_bytes(mem), (u64)SZ_1M - 100 * PAGE_SIZE);
	/* Exactly the room left, in several blocks. */
	KUNIT_ASSERT_EQ(test, vaccel_devmem_alloc(mem, SEG_PAGES - 100, false, &b), 0);
	KUNIT_EXPECT_EQ(test, vaccel_devmem_free_bytes(mem), 0);
	KUNIT_EXPECT_EQ(test, vaccel_devmem_alloc(mem, 1, false, &c), -ENOSPC);

	vaccel_devmem_free(&a);
	KUNIT_EXPECT_NULL(test, a.mem);
	KUNIT_EXPECT_EQ(test, vaccel_devmem_free_bytes(mem), 100 * PAGE_SIZE);
	vaccel_devmem_free(&b);
	KUNIT_EXPECT_EQ(test, vaccel_devmem_free_bytes(mem), (u64)SZ_1M);
	/* Freeing an empty range does nothing. */
	vaccel_devmem_free(&b);
	KUNIT_EXPECT_EQ(test, vaccel_devmem_free_bytes(mem), (u64)SZ_1M);
}

/* A range hands over whole; a zero-page request gets nothing. */
static void vaccel_devmem_test_move_and_empty(struct kunit *test)
{
	struct vaccel_devmem *mem = ((struct vaccel_device *)test->priv)->devmem;
	struct vaccel_devmem_range a, b;
	u64 first;

	KUNIT_EXPECT_EQ(test, vaccel_devmem_alloc(mem, 0, true, &a), -ENOSPC);
	KUNIT_ASSERT_EQ(test, vaccel_devmem_alloc(mem, 3, true, &a), 0);
	first = a.addrs[0];
	vaccel_devmem_range_init(&b);
	vaccel_devmem_range_move(&b, &a);
	KUNIT_EXPECT_NULL(test, a.mem);
	KUNIT_EXPECT_PTR_EQ(test, b.mem, mem);
	KUNIT_EXPECT_EQ(test, b.addrs[0], first);
	KUNIT_EXPECT_EQ(test, b.npages, 3);
	vaccel_devmem_free(&a);
	KUNIT_EXPECT_EQ(test, vaccel_devmem_free_bytes(mem), (u64)SZ_1M - 3 * PAGE_SIZE);
	vaccel_devmem_free(&b);
	/* Given back: the address translates to nothing, pooled or not. */
	KUNIT_EXPECT_NULL(test, vaccel_devmem_page(first));
}

/*
 * A range given back keeps its host pages in the pool; the next range at
 * those addresses takes them again, zeroed if it asks, and the shrinker
 * gives them back to the host.
 */
static void vaccel_devmem_test_pool(struct kunit *test)
{
	struct vaccel_devmem *mem = ((struct vaccel_device *)test->priv)->devmem;
	struct vaccel_devmem_range a, b;
	struct page *pages[8];
	unsigned long i;

	KUNIT_ASSERT_EQ(test, vaccel_devmem_alloc(mem, 8, true, &a), 0);
	for (i = 0; i < 8; i++) {
		pages[i] = vaccel_devmem_page(a.addrs[i]);
		memset(page_address(pages[i]), 0xa5, PAGE_SIZE);
	}
	KUNIT_EXPECT_EQ(test, vaccel_devmem_pooled_bytes(mem), 0);
	vaccel_devmem_free(&a);
	KUNIT_EXPECT_EQ(test, vaccel_devmem_pooled_bytes(mem), 8 * PAGE_SIZE);

	/* A move's destination: the same pages, not cleared. */
	KUNIT_ASSERT_EQ(test, vaccel_devmem_alloc(mem, 8, false, &b), 0);
	KUNIT_EXPECT_EQ(test, vaccel_devmem_pooled_bytes(mem), 0);
	for (i = 0; i < 8; i++) {
		struct page *p = vaccel_devmem_page(b.addrs[i]);
		unsigned long j;

		for (j = 0; j < 8 && p != pages[j]; j++)
			;
		KUNIT_EXPECT_LT(test, j, 8);
	}
	vaccel_devmem_free(&b);

	/* A new BO's range: cleared. */
	KUNIT_ASSERT_EQ(test, vaccel_devmem_alloc(mem, 8, true, &b), 0);
	for (i = 0; i < 8; i++) {
		u8 *bytes = page_address(vaccel_devmem_page(b.addrs[i]));

		KUNIT_EXPECT_EQ(test, bytes[0] | bytes[PAGE_SIZE - 1], 0);
	}
	vaccel_devmem_free(&b);

	KUNIT_EXPECT_EQ(test, vaccel_devmem_shrink(mem), 8);
	KUNIT_EXPECT_EQ(test, vaccel_devmem_pooled_bytes(mem), 0);
	KUNIT_EXPECT_EQ(test, vaccel_devmem_shrink(mem), 0);
	/* Allocated afresh after. */
	KUNIT_ASSERT_EQ(test, vaccel_devmem_alloc(mem, 8, true, &b), 0);
	vaccel_devmem_free(&b);
}

/* A new BO of @size with placement @flags, counted as the ioctl does. */
static struct vaccel_bo *placement_bo(struct kunit *test, size_t size, u32 flags)
{
	struct vaccel_device *vdev = test->priv;
	struct drm_gem_shmem_object *shmem = drm_gem_shmem_create(&vdev->drm, size);

	KUNIT_ASSERT_FALSE(test, IS_ERR(shmem));
	vaccel_bo_account(&shmem->base);
	to_vaccel_bo(&shmem->base)->flags = flags;
	return to_vaccel_bo(&shmem->base);
}

/*
 * Placement: a BO that must be in device memory is, cleared, or is refused
 * with -ENOSPC; one that prefers it stays in system memory when it does not
 * fit; freeing a BO gives its range back.
 */
static void vaccel_devmem_test_placement(struct kunit *test)
{
	struct vaccel_device *vdev = test->priv;
	struct vaccel_devmem *mem = vdev->devmem;
	struct vaccel_bo *dev, *pref, *big;
	unsigned long i;

	dev = placement_bo(test, SZ_256K, DRM_VACCEL_BO_DEVICE);
	KUNIT_ASSERT_EQ(test, vaccel_bo_place_new(dev, NULL), 0);
	KUNIT_EXPECT_EQ(test, dev->region, mem->region);
	KUNIT_EXPECT_EQ(test, dev->home, mem->region);
	KUNIT_ASSERT_NOT_NULL(test, dev->vram);
	KUNIT_EXPECT_PTR_EQ(test, dev->gpu_vram, dev->vram);
	KUNIT_EXPECT_EQ(test, dev->vram->npages, SZ_256K / PAGE_SIZE);
	for (i = 0; i < dev->vram->npages; i++) {
		u8 *bytes = page_address(vaccel_devmem_page(dev->vram->addrs[i]));

		KUNIT_EXPECT_EQ(test, bytes[0] | bytes[PAGE_SIZE - 1], 0);
	}
	KUNIT_EXPECT_EQ(test, vaccel_devmem_free_bytes(mem), (u64)SZ_1M - SZ_256K);

	pref = placement_bo(test, SZ_2M, DRM_VACCEL_BO_DEVICE_PREFERRED);
	KUNIT_EXPECT_EQ(test, vaccel_bo_place_new(pref, NULL), 0);
	KUNIT_EXPECT_EQ(test, pref->region, DRM_VACCEL_REGION_SYSTEM);
	KUNIT_EXPECT_NULL(test, pref->vram);

	big = placement_bo(test, SZ_2M, DRM_VACCEL_BO_DEVICE);
	KUNIT_EXPECT_EQ(test, vaccel_bo_place_new(big, NULL), -ENOSPC);
	KUNIT_EXPECT_EQ(test, big->region, DRM_VACCEL_REGION_SYSTEM);
	KUNIT_EXPECT_EQ(test, vaccel_devmem_free_bytes(mem), (u64)SZ_1M - SZ_256K);

	drm_gem_object_put(&dev->base.base);
	drm_gem_object_put(&pref->base.base);
	drm_gem_object_put(&big->base.base);
	KUNIT_EXPECT_EQ(test, vaccel_devmem_free_bytes(mem), (u64)SZ_1M);
}

/* Addresses no segment has memory at translate to nothing. */
static void vaccel_devmem_test_fabric_bounds(struct kunit *test)
{
	struct vaccel_device *vdev = test->priv;
	struct vaccel_devmem *mem = vdev->devmem, *got;

	KUNIT_EXPECT_NULL(test, vaccel_devmem_page(0));
	KUNIT_EXPECT_NULL(test, vaccel_devmem_page(mem->base));
	KUNIT_EXPECT_NULL(test, vaccel_devmem_page(mem->base + mem->size));
	KUNIT_EXPECT_NULL(test, vaccel_devmem_page(DRM_VACCEL_DEVICE_MEM_BASE(2)));
	KUNIT_EXPECT_NULL(test, vaccel_devmem_page(DRM_VACCEL_DEVICE_MEM_BASE(VACCEL_MAX_DEVICES)));
	KUNIT_EXPECT_NULL(test, vaccel_devmem_page(~0ull & DRM_VACCEL_PTE_ADDR_MASK));
	KUNIT_EXPECT_NULL(test, vaccel_devmem_get(DRM_VACCEL_REGION_SYSTEM));
	KUNIT_EXPECT_NULL(test, vaccel_devmem_get(DRM_VACCEL_REGION_DEVICE(2)));
	KUNIT_EXPECT_NULL(test, vaccel_devmem_get(DRM_VACCEL_REGION_DEVICE(VACCEL_MAX_DEVICES)));
	got = vaccel_devmem_get(DRM_VACCEL_REGION_DEVICE(3));
	KUNIT_EXPECT_PTR_EQ(test, got, mem);
	vaccel_devmem_put(got);
}

static struct kunit_case vaccel_devmem_test_cases[] = {
	KUNIT_CASE(vaccel_devmem_test_alloc_free),
	KUNIT_CASE(vaccel_devmem_test_move_and_empty),
	KUNIT_CASE(vaccel_devmem_test_pool),
	KUNIT_CASE(vaccel_devmem_test_placement),
	KUNIT_CASE(vaccel_devmem_test_fabric_bounds),
	{}
};

static struct kunit_suite vaccel_devmem_test_suite = {
	.name = "vaccel_devmem",
	.init = vaccel_devmem_test_init,
	.test_cases = vaccel_devmem_test_cases,
};

kunit_test_suite(vaccel_devmem_test_suite);
