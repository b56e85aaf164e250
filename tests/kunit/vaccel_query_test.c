// SPDX-License-Identifier: GPL-2.0-only
/*
 * Copyright 2026 The vaccel authors
 *
 * KUnit tests of the device query: the encoding of the answers and the
 * size negotiation, against real user memory from kunit_vm_mmap().
 */

#include <kunit/test.h>
#include <linux/mman.h>
#include <linux/uaccess.h>

#include <drm/drm_print.h>

#include "../vaccel_drv.h"
#include "../vaccel_query.h"

#define USER_LEN	(2 * PAGE_SIZE)

struct vaccel_query_test {
	struct vaccel_device *vdev;
	unsigned long user;	/* USER_LEN bytes of user memory */
};

static int vaccel_query_test_init(struct kunit *test)
{
	struct vaccel_topology_params p = {
		.devices = 1, .compute_engines = 3, .copy_engines = 2, .va_bits = 40,
		.timeslice_ms = VACCEL_TIMESLICE_MS_DEFAULT,
		.timeout_ms = VACCEL_TIMEOUT_MS_DEFAULT,
		.time_limit_ms = VACCEL_TIME_LIMIT_MS_DEFAULT,
		.dispatch_slice = VACCEL_DISPATCH_SLICE_DEFAULT,
	};
	struct vaccel_query_test *t;
	const char *why;

	t = kunit_kzalloc(test, sizeof(*t), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, t);
	t->vdev = kunit_kzalloc(test, sizeof(*t->vdev), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, t->vdev);
	KUNIT_ASSERT_EQ(test, vaccel_topology_init(&t->vdev->topo, &p, &why), 0);
	t->vdev->index = 5;

	t->user = kunit_vm_mmap(test, NULL, 0, USER_LEN, PROT_READ | PROT_WRITE,
				MAP_ANONYMOUS | MAP_PRIVATE, 0);
	KUNIT_ASSERT_NE_MSG(test, t->user, 0, "no user memory");
	test->priv = t;
	return 0;
}

static void __user *uptr(struct vaccel_query_test *t, size_t off)
{
	return (void __user *)(t->user + off);
}

static void user_fill(struct kunit *test, void __user *p, int c, size_t len)
{
	u8 *buf = kunit_kmalloc(test, len, GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, buf);
	memset(buf, c, len);
	KUNIT_ASSERT_EQ(test, copy_to_user(p, buf, len), 0);
}

static u8 *user_read(struct kunit *test, const void __user *p, size_t len)
{
	u8 *buf = kunit_kmalloc(test, len, GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, buf);
	KUNIT_ASSERT_EQ(test, copy_from_user(buf, p, len), 0);
	return buf;
}

/* The device answer carries the version, the index and the topology. */
static void vaccel_test_query_device_info(struct kunit *test)
{
	struct vaccel_query_test *t = test->priv;
	struct drm_vaccel_device_info info;

	memset(&info, 0xa5, sizeof(info));
	vaccel_query_device_info(t->vdev, &info);
	KUNIT_EXPECT_EQ(test, info.uapi_major, DRM_VACCEL_UAPI_MAJOR);
	KUNIT_EXPECT_EQ(test, info.uapi_minor, DRM_VACCEL_UAPI_MINOR);
	KUNIT_EXPECT_EQ(test, info.device_index, 5);
	KUNIT_EXPECT_EQ(test, info.flags, 0);
	KUNIT_EXPECT_EQ(test, info.engine_count[DRM_VACCEL_ENGINE_CLASS_COMPUTE], 3);
	KUNIT_EXPECT_EQ(test, info.engine_count[DRM_VACCEL_ENGINE_CLASS_COPY], 2);
	KUNIT_EXPECT_EQ(test, info.engine_count[DRM_VACCEL_ENGINE_CLASS_PAGING], 1);
	KUNIT_EXPECT_EQ(test, info.engine_count[3], 0);
	KUNIT_EXPECT_EQ(test, info.engines_total, 6);
	KUNIT_EXPECT_EQ(test, info.hw_queue_depth, 2);
	KUNIT_EXPECT_EQ(test, info.va_bits, 40);
	KUNIT_EXPECT_EQ(test, info.page_size, 4096);
	KUNIT_EXPECT_EQ(test, info.va_start, (u64)VACCEL_VA_START);
	KUNIT_EXPECT_EQ(test, info.va_end, 1ull << 40);
	KUNIT_EXPECT_EQ(test, info.max_bo_size, (u64)SZ_4G);
	KUNIT_EXPECT_EQ(test, info.max_bind_ops, 1024);
	KUNIT_EXPECT_EQ(test, info.max_bos_per_file, 65536);

	t->vdev->topo.single_use = true;
	vaccel_query_device_info(t->vdev, &info);
	KUNIT_EXPECT_EQ(test, info.flags, DRM_VACCEL_DEVICE_SINGLE_USE);
}

/* The engine list has a header, the stride, and one entry per engine. */
static void vaccel_test_query_engine_list(struct kunit *test)
{
	struct vaccel_query_test *t = test->priv;
	size_t size = vaccel_query_engine_list_size(t->vdev);
	struct drm_vaccel_engine_list *list;
	unsigned int i;

	KUNIT_ASSERT_EQ(test, size, sizeof(*list) + 6 * sizeof(list->engines[0]));
	list = kunit_kmalloc(test, size, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, list);
	memset(list, 0xa5, size);
	vaccel_query_engine_list(t->vdev, list);

	KUNIT_EXPECT_EQ(test, list->count, 6);
	KUNIT_EXPECT_EQ(test, list->entry_size, sizeof(list->engines[0]));
	for (i = 0; i < list->count; i++) {
		const struct vaccel_engine_desc *d = &t->vdev->topo.engines[i];
		const struct drm_vaccel_engine_info *e = &list->engines[i];

		KUNIT_EXPECT_EQ(test, e->engine_class, d->engine_class);
		KUNIT_EXPECT_EQ(test, e->instance, d->instance);
		KUNIT_EXPECT_EQ(test, e->hw_queue_depth, 2);
		KUNIT_EXPECT_EQ(test, e->preempt_caps, d->preempt_caps);
		KUNIT_EXPECT_EQ(test, e->preempt_granularity, d->preempt_granularity);
		KUNIT_EXPECT_EQ(test, e->compute_units, d->compute_units);
		KUNIT_EXPECT_EQ(test, e->reserved32, 0);
		KUNIT_EXPECT_EQ(test, e->reserved, 0);
	}
	KUNIT_EXPECT_EQ(test, list->engines[5].engine_class,
			DRM_VACCEL_ENGINE_CLASS_PAGING);
}

/* A zero size asks for the size and leaves the buffer alone. */
static void vaccel_test_query_size_probe(struct kunit *test)
{
	struct vaccel_query_test *t = test->priv;
	struct drm_vaccel_query q = { .size = 0, .data = t->user };
	u64 answer = 0x1122334455667788ull;
	u8 *after;

	user_fill(test, uptr(t, 0), 0x5a, 16);
	KUNIT_EXPECT_EQ(test, vaccel_query_copy_out(t->vdev, &q, &answer, 8, 8), 0);
	KUNIT_EXPECT_EQ(test, q.size, 8);
	after = user_read(test, uptr(t, 0), 16);
	KUNIT_EXPECT_EQ(test, after[0], 0x5a);
	KUNIT_EXPECT_EQ(test, after[15], 0x5a);
}

/* An exact buffer gets the whole answer and nothing beyond it changes. */
static void vaccel_test_query_exact(struct kunit *test)
{
	struct vaccel_query_test *t = test->priv;
	u8 answer[24];
	struct drm_vaccel_query q = { .size = sizeof(answer), .data = t->user };
	u8 *after;
	int i;

	for (i = 0; i < sizeof(answer); i++)
		answer[i] = i + 1;
	user_fill(test, uptr(t, 0), 0x5a, 32);
	KUNIT_ASSERT_EQ(test, vaccel_query_copy_out(t->vdev, &q, answer, 24, 16), 0);
	KUNIT_EXPECT_EQ(test, q.size, 24);
	after = user_read(test, uptr(t, 0), 32);
	KUNIT_EXPECT_MEMEQ(test, after, answer, sizeof(answer));
	KUNIT_EXPECT_EQ(test, after[24], 0x5a);
}

/* A longer buffer gets the answer, then zeros up to its size, no further. */
static void vaccel_test_query_longer_clears_tail(struct kunit *test)
{
	struct vaccel_query_test *t = test->priv;
	u8 answer[24];
	/* Crosses the page boundary to exercise the chunked clearing. */
	struct drm_vaccel_query q = { .size = PAGE_SIZE + 100, .data = t->user };
	u8 *after;
	size_t i;

	memset(answer, 0x11, sizeof(answer));
	user_fill(test, uptr(t, 0), 0x5a, USER_LEN);
	KUNIT_ASSERT_EQ(test, vaccel_query_copy_out(t->vdev, &q, answer, 24, 16), 0);
	KUNIT_EXPECT_EQ(test, q.size, 24);
	after = user_read(test, uptr(t, 0), USER_LEN);
	KUNIT_EXPECT_MEMEQ(test, after, answer, sizeof(answer));
	for (i = 24; i < PAGE_SIZE + 100; i++)
		if (after[i])
			break;
	KUNIT_EXPECT_EQ(test, i, PAGE_SIZE + 100);
	KUNIT_EXPECT_EQ(test, after[PAGE_SIZE + 100], 0x5a);
}

/* Older user space: a buffer down to the minimum gets the prefix. */
static void vaccel_test_query_shorter_gets_prefix(struct kunit *test)
{
	struct vaccel_query_test *t = test->priv;
	u8 answer[24];
	struct drm_vaccel_query q = { .size = 16, .data = t->user };
	u8 *after;

	memset(answer, 0x11, sizeof(answer));
	user_fill(test, uptr(t, 0), 0x5a, 32);
	KUNIT_ASSERT_EQ(test, vaccel_query_copy_out(t->vdev, &q, answer, 24, 16), 0);
	KUNIT_EXPECT_EQ(test, q.size, 24);
	after = user_read(test, uptr(t, 0), 32);
	KUNIT_EXPECT_MEMEQ(test, after, answer, 16);
	KUNIT_EXPECT_EQ(test, after[16], 0x5a);
}

/* Below the minimum is -EINVAL, and user memory is untouched. */
static void vaccel_test_query_too_small(struct kunit *test)
{
	struct vaccel_query_test *t = test->priv;
	u8 answer[24] = {};
	struct drm_vaccel_query q = { .size = 15, .data = t->user };
	u8 *after;

	user_fill(test, uptr(t, 0), 0x5a, 32);
	KUNIT_EXPECT_EQ(test, vaccel_query_copy_out(t->vdev, &q, answer, 24, 16), -EINVAL);
	KUNIT_EXPECT_EQ(test, q.size, 15);
	after = user_read(test, uptr(t, 0), 32);
	KUNIT_EXPECT_EQ(test, after[0], 0x5a);
}

/* Unwritable memory, at the start or in the tail to clear, is -EFAULT. */
static void vaccel_test_query_fault(struct kunit *test)
{
	struct vaccel_query_test *t = test->priv;
	u8 answer[24] = {};
	struct drm_vaccel_query q = { .size = 24, .data = 0 };

	KUNIT_EXPECT_EQ(test, vaccel_query_copy_out(t->vdev, &q, answer, 24, 16), -EFAULT);

	/* The answer fits, but the tail to clear runs off the mapping. */
	q.data = t->user + USER_LEN - 32;
	q.size = 4096;
	KUNIT_EXPECT_EQ(test, vaccel_query_copy_out(t->vdev, &q, answer, 24, 16), -EFAULT);
}

/* The ioctl rejects flags, pad and unknown types, and answers both types. */
static void vaccel_test_query_ioctl(struct kunit *test)
{
	struct vaccel_query_test *t = test->priv;
	struct drm_device *drm = &t->vdev->drm;
	struct drm_vaccel_query q = {};
	struct drm_vaccel_device_info *info;

	q.type = DRM_VACCEL_QUERY_DEVICE;
	q.flags = 1;
	KUNIT_EXPECT_EQ(test, vaccel_ioctl_query(drm, &q, NULL), -EINVAL);
	q.flags = 0;
	q.pad = 1;
	KUNIT_EXPECT_EQ(test, vaccel_ioctl_query(drm, &q, NULL), -EINVAL);
	q.pad = 0;
	q.type = DRM_VACCEL_QUERY_VM_STATS + 1;
	KUNIT_EXPECT_EQ(test, vaccel_ioctl_query(drm, &q, NULL), -EINVAL);
	q.type = ~0u;
	KUNIT_EXPECT_EQ(test, vaccel_ioctl_query(drm, &q, NULL), -EINVAL);

	q.type = DRM_VACCEL_QUERY_ENGINES;
	q.size = 0;
	KUNIT_EXPECT_EQ(test, vaccel_ioctl_query(drm, &q, NULL), 0);
	KUNIT_EXPECT_EQ(test, q.size, vaccel_query_engine_list_size(t->vdev));
	/* One byte short of the whole array is refused. */
	q.size -= 1;
	q.data = t->user;
	KUNIT_EXPECT_EQ(test, vaccel_ioctl_query(drm, &q, NULL), -EINVAL);

	q.type = DRM_VACCEL_QUERY_DEVICE;
	q.size = sizeof(*info);
	KUNIT_ASSERT_EQ(test, vaccel_ioctl_query(drm, &q, NULL), 0);
	info = (void *)user_read(test, uptr(t, 0), sizeof(*info));
	KUNIT_EXPECT_EQ(test, info->device_index, 5);
	KUNIT_EXPECT_EQ(test, info->va_end, 1ull << 40);

	/* A uapi 1.0 program asks for the 64 bytes it knows; 63 is too few. */
	q.size = 64;
	KUNIT_EXPECT_EQ(test, vaccel_ioctl_query(drm, &q, NULL), 0);
	KUNIT_EXPECT_EQ(test, q.size, sizeof(*info));
	q.size = 63;
	KUNIT_EXPECT_EQ(test, vaccel_ioctl_query(drm, &q, NULL), -EINVAL);
}

/*
 * VACCEL_IOCTL_DBG(), the check every ioctl refusal goes through,
 * evaluates its condition once and returns its truth as 0 or 1, with
 * drm.debug's DRIVER category on (it then prints) as with it off.
 */
static void vaccel_test_ioctl_dbg(struct kunit *test)
{
	struct vaccel_query_test *t = test->priv;
	unsigned long debug = __drm_debug;
	int pass, n = 0;

	for (pass = 0; pass < 2; pass++) {
		__drm_debug = pass ? debug | DRM_UT_DRIVER : debug & ~DRM_UT_DRIVER;
		KUNIT_EXPECT_EQ(test, VACCEL_IOCTL_DBG(t->vdev, ++n == 2 * pass + 1), 1);
		KUNIT_EXPECT_EQ(test, VACCEL_IOCTL_DBG(t->vdev, ++n == 0), 0);
		KUNIT_EXPECT_EQ(test, n, 2 * pass + 2);
		/* A true condition that is no boolean still gives 1. */
		KUNIT_EXPECT_EQ(test, VACCEL_IOCTL_DBG(t->vdev, n & 0x40), 0);
		KUNIT_EXPECT_EQ(test, VACCEL_IOCTL_DBG(t->vdev, 0x40), 1);
	}
	__drm_debug = debug;
}

static struct kunit_case vaccel_query_test_cases[] = {
	KUNIT_CASE(vaccel_test_query_device_info),
	KUNIT_CASE(vaccel_test_query_engine_list),
	KUNIT_CASE(vaccel_test_query_size_probe),
	KUNIT_CASE(vaccel_test_query_exact),
	KUNIT_CASE(vaccel_test_query_longer_clears_tail),
	KUNIT_CASE(vaccel_test_query_shorter_gets_prefix),
	KUNIT_CASE(vaccel_test_query_too_small),
	KUNIT_CASE(vaccel_test_query_fault),
	KUNIT_CASE(vaccel_test_query_ioctl),
	KUNIT_CASE(vaccel_test_ioctl_dbg),
	{}
};

static struct kunit_suite vaccel_query_test_suite = {
	.name = "vaccel_query",
	.init = vaccel_query_test_init,
	.test_cases = vaccel_query_test_cases,
};

kunit_test_suite(vaccel_query_test_suite);
