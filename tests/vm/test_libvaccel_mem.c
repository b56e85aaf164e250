// SPDX-License-Identifier: MIT
/*
 * Copyright 2026 The vaccel authors
 *
 * test_libvaccel_mem.c - the memory API of libvaccel end to end: buffers
 * (alloc, map, free, export, import), the GPU VA allocator (alignment,
 * reuse after free, no growth over a thousand cycles), VM statistics, the
 * flags, the errors, unwinding on failure, and threads.  What the library
 * claims is checked against the kernel with raw ioctls and debugfs: the
 * mapping is really there, at the address the buffer reports, onto the
 * pages the CPU sees.
 *
 * Needs root (debugfs); any topology with a COMPUTE engine.
 */
#include <pthread.h>

#include <vaccel.h>

#include "vt_mem.h"

static struct vaccel_device *open_dev(struct vaccel_device_info *info)
{
	struct vaccel_device *dev;

	VT_ASSERT_OK(vaccel_device_open(0, &dev));
	if (info)
		VT_ASSERT_OK(vaccel_device_get_info(dev, info));
	return dev;
}

static void stats(struct vaccel_device *dev, struct vaccel_vm_stats *s)
{
	unsigned int i;

	memset(s, 0xff, sizeof(*s));
	VT_ASSERT_OK(vaccel_device_vm_stats(dev, s));
	for (i = 0; i < ARRAY_SIZE(s->reserved); i++)
		VT_ASSERT(s->reserved[i] == 0);
	VT_ASSERT(s->pt_bytes == s->pt_pages * 4096);
}

static void expect_stats(struct vaccel_device *dev, __u64 mappings, __u64 bytes)
{
	struct vaccel_vm_stats s;

	stats(dev, &s);
	VT_ASSERT_EQ(s.mappings, mappings);
	VT_ASSERT_EQ(s.mapped_bytes, bytes);
}

/* The mapping of @bo in the debugfs view of its VM, or fails. */
static struct vt_mapping bo_mapping(struct vaccel_device *dev, struct vaccel_bo *bo)
{
	struct vt_mapping m = vt_mapping_at(vaccel_device_fd(dev), vaccel_bo_va(bo));

	VT_ASSERT(m.end == vaccel_bo_va(bo) + vaccel_bo_size(bo));
	VT_ASSERT(m.offset == 0);
	return m;
}

/* The limits of uapi 1.1 come through vaccel_device_get_info(). */
VTEST(info_limits)
{
	struct drm_vaccel_device_info raw;
	struct vaccel_device_info info;
	struct vaccel_device *dev = open_dev(&info);

	vt_device_info(vaccel_device_fd(dev), &raw);
	VT_ASSERT(info.max_bo_size == raw.max_bo_size && info.max_bo_size > 0);
	VT_ASSERT_EQ(info.max_bind_ops, raw.max_bind_ops);
	VT_ASSERT_EQ(info.max_bos_per_file, raw.max_bos_per_file);
	vaccel_device_close(dev);
}

/* Alloc, map, write, check the GPU mapping, free: the VM is empty again. */
VTEST(alloc_map_free)
{
	struct vaccel_device_info info;
	struct vaccel_device *dev = open_dev(&info);
	int fd = vaccel_device_fd(dev);
	struct drm_vaccel_bo_info bi;
	struct vaccel_vm_stats empty, s;
	struct vaccel_bo *bo;
	unsigned char *p, *q;
	struct vt_mapping m;
	__u32 handle;
	size_t i;

	stats(dev, &empty);
	VT_ASSERT_OK(vaccel_bo_alloc(dev, VT_MIB, 0, &bo));
	VT_ASSERT(vaccel_bo_size(bo) == VT_MIB);
	VT_ASSERT(vaccel_bo_va(bo) >= info.va_start);
	VT_ASSERT(vaccel_bo_va(bo) + VT_MIB <= info.va_end);
	VT_ASSERT_EQ(vaccel_bo_va(bo) % (64 * VT_KIB), 0);
	handle = vaccel_bo_handle(bo);
	VT_ASSERT(handle != 0);
	vt_bo_info(fd, handle, &bi);
	VT_ASSERT(bi.size == VT_MIB);
	VT_ASSERT_EQ(bi.mappings, 1);
	VT_ASSERT_EQ(bi.flags, 0);
	stats(dev, &s);
	VT_ASSERT(s.mappings == 1 && s.mapped_bytes == VT_MIB);
	m = bo_mapping(dev, bo);
	VT_ASSERT(!strcmp(m.perm, "rwx"));

	VT_ASSERT_OK(vaccel_bo_map(bo, (void **)&p));
	for (i = 0; i < VT_MIB; i++)
		if (p[i])
			vtest_fail(__FILE__, __LINE__, "byte %zu not zero", i);
	VT_ASSERT_OK(vaccel_bo_map(bo, (void **)&q));
	VT_ASSERT(p == q);
	vt_fill_pages(p, 256, 20);
	vt_check_translation(fd, vaccel_bo_va(bo), p, 256, true, true);

	vaccel_bo_free(bo);
	stats(dev, &s);
	VT_ASSERT(s.mappings == 0 && s.mapped_bytes == 0);
	VT_ASSERT(s.pt_pages == empty.pt_pages);
	VT_ASSERT_ERRNO(vt_bo_info_raw(fd, handle, &bi), ENOENT);
	vaccel_device_close(dev);
}

/* Sizes round up to pages; big buffers align to 64 KiB; none overlap. */
VTEST(alignment_and_rounding)
{
	static const struct {
		__u64 size, rounded, align;
	} cases[] = {
		{ 1, 4096, 4096 }, { 4096, 4096, 4096 }, { 5000, 8192, 4096 },
		{ 61441, 65536, 65536 }, { 65536, 65536, 65536 },
		{ 65537, 69632, 65536 }, { 3 * VT_MIB + 1, 3 * VT_MIB + 4096, 65536 },
		{ 12288, 12288, 4096 },
	};
	struct vaccel_device *dev = open_dev(NULL);
	struct vaccel_bo *bo[ARRAY_SIZE(cases)];
	unsigned int i, j;
	__u64 total = 0;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		VT_ASSERT_OK(vaccel_bo_alloc(dev, cases[i].size, 0, &bo[i]));
		VT_ASSERT(vaccel_bo_size(bo[i]) == cases[i].rounded);
		if (vaccel_bo_va(bo[i]) % cases[i].align)
			vtest_fail(__FILE__, __LINE__, "size %llu at 0x%llx, not %llu aligned",
				   (unsigned long long)cases[i].size,
				   (unsigned long long)vaccel_bo_va(bo[i]),
				   (unsigned long long)cases[i].align);
		bo_mapping(dev, bo[i]);
		total += cases[i].rounded;
	}
	for (i = 0; i < ARRAY_SIZE(cases); i++)
		for (j = i + 1; j < ARRAY_SIZE(cases); j++)
			VT_ASSERT(vaccel_bo_va(bo[i]) + vaccel_bo_size(bo[i]) <=
				  vaccel_bo_va(bo[j]) ||
				  vaccel_bo_va(bo[j]) + vaccel_bo_size(bo[j]) <=
				  vaccel_bo_va(bo[i]));
	expect_stats(dev, ARRAY_SIZE(cases), total);
	for (i = 0; i < ARRAY_SIZE(cases); i++)
		vaccel_bo_free(bo[i]);
	expect_stats(dev, 0, 0);
	vaccel_device_close(dev);
}

/* A freed address is handed out again at once. */
VTEST(va_reuse)
{
	struct vaccel_device *dev = open_dev(NULL);
	struct vaccel_bo *a, *b, *c, *d, *e;
	__u64 va_a, va_c;

	VT_ASSERT_OK(vaccel_bo_alloc(dev, VT_MIB, 0, &a));
	va_a = vaccel_bo_va(a);
	vaccel_bo_free(a);
	VT_ASSERT_OK(vaccel_bo_alloc(dev, VT_MIB, 0, &b));
	VT_ASSERT(vaccel_bo_va(b) == va_a);

	VT_ASSERT_OK(vaccel_bo_alloc(dev, 8192, 0, &c));
	VT_ASSERT_OK(vaccel_bo_alloc(dev, 8192, 0, &d));
	va_c = vaccel_bo_va(c);
	vaccel_bo_free(c);
	VT_ASSERT_OK(vaccel_bo_alloc(dev, 4096, 0, &e));
	VT_ASSERT(vaccel_bo_va(e) == va_c);
	VT_ASSERT(vaccel_bo_va(d) != va_c);
	vaccel_bo_free(b);
	vaccel_bo_free(d);
	vaccel_bo_free(e);
	expect_stats(dev, 0, 0);
	vaccel_device_close(dev);
}

#define CYCLES		1000
#define CYCLE_LIVE	8

/*
 * A thousand alloc/free cycles with up to CYCLE_LIVE buffers live: the
 * highest address ever used stays within what CYCLE_LIVE of the largest
 * buffers and their alignment need, and the page tables return to empty.
 */
VTEST(cycles_without_va_growth)
{
	struct vaccel_device_info info;
	struct vaccel_device *dev = open_dev(&info);
	struct vaccel_bo *live[CYCLE_LIVE] = { NULL };
	struct vaccel_vm_stats empty, s;
	__u64 seed = 0x1234567, top = 0, end, size, bound;
	unsigned int c, i;

	stats(dev, &empty);
	for (c = 0; c < CYCLES; c++) {
		seed = seed * 6364136223846793005ull + 1442695040888963407ull;
		i = (seed >> 33) % CYCLE_LIVE;
		if (live[i]) {
			vaccel_bo_free(live[i]);
			live[i] = NULL;
			continue;
		}
		size = 4096 * (1 + (seed >> 40) % 64);	/* 4 KiB to 256 KiB */
		VT_ASSERT_OK(vaccel_bo_alloc(dev, size, 0, &live[i]));
		end = vaccel_bo_va(live[i]) + vaccel_bo_size(live[i]);
		if (end > top)
			top = end;
	}
	/* 8 buffers of 256 KiB, each after up to 64 KiB of alignment gap. */
	bound = ((info.va_start + 65535) & ~65535ull) + CYCLE_LIVE * (256 + 64) * VT_KIB;
	if (top > bound)
		vtest_fail(__FILE__, __LINE__, "VA grew to 0x%llx, bound 0x%llx",
			   (unsigned long long)top, (unsigned long long)bound);
	for (i = 0; i < CYCLE_LIVE; i++)
		vaccel_bo_free(live[i]);
	stats(dev, &s);
	VT_ASSERT(s.mappings == 0 && s.mapped_bytes == 0);
	VT_ASSERT(s.pt_pages == empty.pt_pages);
	vaccel_device_close(dev);
}

/* The public VA allocator: shared with buffers, usable for raw VM_BIND. */
VTEST(va_api)
{
	struct vaccel_device_info info;
	struct vaccel_device *dev = open_dev(&info);
	int fd = vaccel_device_fd(dev);
	struct vaccel_bo *bo;
	uint64_t va = 0x1234, va2;
	__u32 h;

	VT_ASSERT_OK(vaccel_va_alloc(dev, VT_MIB, VT_MIB, &va));
	VT_ASSERT(va >= info.va_start && va % VT_MIB == 0);
	VT_ASSERT_OK(vaccel_bo_alloc(dev, VT_MIB, 0, &bo));
	VT_ASSERT(vaccel_bo_va(bo) + VT_MIB <= va || vaccel_bo_va(bo) >= va + VT_MIB);

	/* The range is the caller's to map. */
	h = vt_bo_create(fd, VT_MIB, 0);
	vt_map(fd, h, 0, va, VT_MIB, 0);
	expect_stats(dev, 2, 2 * VT_MIB);
	vt_unmap(fd, va, VT_MIB);

	va2 = 0x1234;
	VT_ASSERT_EQ(vaccel_va_alloc(dev, 0, 0, &va2), -EINVAL);
	VT_ASSERT_EQ(vaccel_va_alloc(dev, 4096, 3, &va2), -EINVAL);
	VT_ASSERT_EQ(vaccel_va_alloc(dev, 4096, 2048, &va2), -EINVAL);
	VT_ASSERT_EQ(vaccel_va_alloc(dev, 4096, 3 * 4096, &va2), -EINVAL);
	VT_ASSERT_EQ(vaccel_va_alloc(dev, 4096, 0, NULL), -EINVAL);
	VT_ASSERT_EQ(vaccel_va_alloc(NULL, 4096, 0, &va2), -EINVAL);
	VT_ASSERT_EQ(vaccel_va_alloc(dev, info.va_end, 0, &va2), -ENOSPC);
	VT_ASSERT_EQ(vaccel_va_alloc(dev, 4096, info.va_end * 2, &va2), -ENOSPC);
	VT_ASSERT(va2 == 0x1234);
	VT_ASSERT_EQ(vaccel_va_free(dev, va + 4096, VT_MIB - 4096), -EINVAL);
	VT_ASSERT_EQ(vaccel_va_free(dev, va, 2 * VT_MIB), -EINVAL);
	VT_ASSERT_EQ(vaccel_va_free(dev, va + 0x10, VT_MIB), -EINVAL);
	VT_ASSERT_EQ(vaccel_va_free(NULL, va, VT_MIB), -EINVAL);
	VT_ASSERT_OK(vaccel_va_free(dev, va, VT_MIB));
	VT_ASSERT_EQ(vaccel_va_free(dev, va, VT_MIB), -EINVAL);	/* double */

	/* Freed: the next allocation of that shape gets it back. */
	VT_ASSERT_OK(vaccel_va_alloc(dev, VT_MIB, VT_MIB, &va2));
	VT_ASSERT(va2 == va);
	VT_ASSERT_OK(vaccel_va_free(dev, va2, VT_MIB));
	vaccel_bo_free(bo);
	vaccel_device_close(dev);
}

/* A full VA space: vaccel_bo_alloc() fails with -ENOSPC and leaves no BO. */
VTEST(alloc_unwinds)
{
	struct vaccel_device_info info;
	struct vaccel_device *dev = open_dev(&info);
	struct vaccel_bo *bo = (struct vaccel_bo *)&bo, *ok;
	struct vt_dev_mem m0, m1;
	uint64_t all;

	vt_dev_mem(vaccel_device_fd(dev), &m0);
	VT_ASSERT_OK(vaccel_va_alloc(dev, info.va_end - info.va_start, 0, &all));
	VT_ASSERT(all == info.va_start);
	VT_ASSERT_EQ(vaccel_bo_alloc(dev, 4096, 0, &bo), -ENOSPC);
	VT_ASSERT(bo == (struct vaccel_bo *)&bo);
	vt_dev_mem(vaccel_device_fd(dev), &m1);
	VT_ASSERT_EQ(m1.bo_count, m0.bo_count);
	VT_ASSERT_EQ(m1.bo_bytes, m0.bo_bytes);
	expect_stats(dev, 0, 0);

	VT_ASSERT_OK(vaccel_va_free(dev, all, info.va_end - info.va_start));
	VT_ASSERT_OK(vaccel_bo_alloc(dev, 4096, 0, &ok));
	VT_ASSERT(vaccel_bo_va(ok) == info.va_start);

	/* The kernel refuses: nothing is left either. */
	VT_ASSERT_EQ(vaccel_bo_alloc(dev, info.max_bo_size + 1, 0, &bo), -E2BIG);
	vt_dev_mem(vaccel_device_fd(dev), &m1);
	VT_ASSERT_EQ(m1.bo_count, m0.bo_count + 1);
	expect_stats(dev, 1, 4096);
	vaccel_bo_free(ok);
	vaccel_device_close(dev);
}

/* GPU flags reach the page table; NO_MMAP refuses a CPU map. */
VTEST(flags)
{
	static const struct {
		uint32_t flags;
		const char *perm;
	} cases[] = {
		{ 0, "rwx" },
		{ VACCEL_BO_GPU_READ_ONLY, "r-x" },
		{ VACCEL_BO_GPU_NO_EXEC, "rw-" },
		{ VACCEL_BO_GPU_READ_ONLY | VACCEL_BO_GPU_NO_EXEC, "r--" },
		{ VACCEL_BO_NO_MMAP, "rwx" },
		{ VACCEL_BO_NO_MMAP | VACCEL_BO_GPU_READ_ONLY, "r-x" },
	};
	struct vaccel_device *dev = open_dev(NULL);
	int fd = vaccel_device_fd(dev);
	struct drm_vaccel_bo_info bi;
	struct vaccel_bo *bo;
	struct vt_mapping m;
	unsigned int i;
	void *p = NULL;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		VT_ASSERT_OK(vaccel_bo_alloc(dev, 4 * VT_PAGE, cases[i].flags, &bo));
		m = bo_mapping(dev, bo);
		if (strcmp(m.perm, cases[i].perm))
			vtest_fail(__FILE__, __LINE__, "flags 0x%x: %s, expected %s",
				   cases[i].flags, m.perm, cases[i].perm);
		vt_bo_info(fd, vaccel_bo_handle(bo), &bi);
		if (cases[i].flags & VACCEL_BO_NO_MMAP) {
			VT_ASSERT_EQ(bi.flags, DRM_VACCEL_BO_NO_MMAP);
			VT_ASSERT_EQ(vaccel_bo_map(bo, &p), -EPERM);
			VT_ASSERT(!p);
		} else {
			VT_ASSERT_EQ(bi.flags, 0);
			VT_ASSERT_OK(vaccel_bo_map(bo, &p));
			vt_fill_pages(p, 4, 21 + i);
			vt_check_translation(fd, vaccel_bo_va(bo), p, 4, m.perm[1] == 'w',
					     m.perm[2] == 'x');
			p = NULL;
		}
		vaccel_bo_free(bo);
	}
	expect_stats(dev, 0, 0);
	vaccel_device_close(dev);
}

/* Export and import: own export, another handle, another device. */
VTEST(export_import)
{
	long long devices = vt_expect("VT_DEVICES", "devices");
	struct vaccel_device *dev = open_dev(NULL), *dev2, *dev3;
	struct vaccel_bo *bo, *same, *b2, *b3;
	unsigned char *p, *p2, *p3;
	int dmabuf;

	VT_ASSERT_OK(vaccel_bo_alloc(dev, 64 * VT_KIB, 0, &bo));
	VT_ASSERT_OK(vaccel_bo_map(bo, (void **)&p));
	vt_fill_pages(p, 16, 30);
	VT_ASSERT_OK(vaccel_bo_export(bo, &dmabuf));

	VT_ASSERT_OK(vaccel_bo_import(dev, dmabuf, &same));
	VT_ASSERT(same == bo);
	expect_stats(dev, 1, 64 * VT_KIB);

	/* Another handle on the same device: its own buffer, same memory. */
	dev2 = open_dev(NULL);
	VT_ASSERT_OK(vaccel_bo_import(dev2, dmabuf, &b2));
	VT_ASSERT(vaccel_bo_size(b2) == 64 * VT_KIB);
	VT_ASSERT_OK(vaccel_bo_map(b2, (void **)&p2));
	VT_ASSERT(!memcmp(p, p2, 64 * VT_KIB));
	p2[100] ^= 0xff;
	VT_ASSERT(p[100] == p2[100]);
	vt_check_translation(vaccel_device_fd(dev2), vaccel_bo_va(b2), p, 16, true, true);
	expect_stats(dev2, 1, 64 * VT_KIB);

	if (devices >= 2) {
		VT_ASSERT_OK(vaccel_device_open(1, &dev3));
		VT_ASSERT_OK(vaccel_bo_import(dev3, dmabuf, &b3));
		VT_ASSERT(vaccel_bo_size(b3) == 64 * VT_KIB);
		VT_ASSERT_OK(vaccel_bo_map(b3, (void **)&p3));
		VT_ASSERT(!memcmp(p, p3, 64 * VT_KIB));
		vt_check_translation(vaccel_device_fd(dev3), vaccel_bo_va(b3), p, 16,
				     true, true);
		vaccel_bo_free(b3);
		expect_stats(dev3, 0, 0);
		vaccel_device_close(dev3);
	}

	close(dmabuf);
	vaccel_bo_free(same);
	expect_stats(dev, 1, 64 * VT_KIB);
	vaccel_bo_free(bo);
	expect_stats(dev, 0, 0);
	/* dev2's buffer still works alone. */
	p2[0] = 1;
	vaccel_bo_free(b2);
	expect_stats(dev2, 0, 0);
	vaccel_device_close(dev2);
	vaccel_device_close(dev);
}

/* Every error the API documents, and nothing left behind by them. */
VTEST(errors)
{
	struct vaccel_device_info info;
	struct vaccel_device *dev = open_dev(&info);
	struct vaccel_bo *bo = (struct vaccel_bo *)&bo;
	struct vt_dev_mem m0, m1;
	int null = open("/dev/null", O_RDONLY | O_CLOEXEC), fd = -1;
	void *p;

	vt_dev_mem(vaccel_device_fd(dev), &m0);
	VT_ASSERT_EQ(vaccel_bo_alloc(dev, 0, 0, &bo), -EINVAL);
	VT_ASSERT_EQ(vaccel_bo_alloc(dev, 4096, 1u << 5, &bo), -EINVAL);
	VT_ASSERT_EQ(vaccel_bo_alloc(dev, 4096, 1u << 31, &bo), -EINVAL);
	VT_ASSERT_EQ(vaccel_bo_alloc(dev, 4096, 0, NULL), -EINVAL);
	VT_ASSERT_EQ(vaccel_bo_alloc(NULL, 4096, 0, &bo), -EINVAL);
	VT_ASSERT_EQ(vaccel_bo_alloc(dev, info.max_bo_size + 1, 0, &bo), -E2BIG);
	VT_ASSERT_EQ(vaccel_bo_alloc(dev, UINT64_MAX, 0, &bo), -E2BIG);
	VT_ASSERT_EQ(vaccel_bo_import(dev, -1, &bo), -EINVAL);
	VT_ASSERT_EQ(vaccel_bo_import(dev, null, &bo), -EINVAL);
	VT_ASSERT_EQ(vaccel_bo_import(dev, 1000000, &bo), -EBADF);
	VT_ASSERT_EQ(vaccel_bo_import(dev, vaccel_device_fd(dev), &bo), -EINVAL);
	VT_ASSERT_EQ(vaccel_bo_import(NULL, null, &bo), -EINVAL);
	VT_ASSERT_EQ(vaccel_bo_import(dev, null, NULL), -EINVAL);
	VT_ASSERT(bo == (struct vaccel_bo *)&bo);
	VT_ASSERT_EQ(vaccel_bo_map(NULL, &p), -EINVAL);
	VT_ASSERT_EQ(vaccel_bo_export(NULL, &fd), -EINVAL);
	VT_ASSERT_EQ(fd, -1);
	VT_ASSERT_EQ(vaccel_device_vm_stats(NULL, NULL), -EINVAL);
	VT_ASSERT_EQ(vaccel_device_vm_stats(dev, NULL), -EINVAL);
	VT_ASSERT(vaccel_bo_va(NULL) == 0 && vaccel_bo_size(NULL) == 0);
	VT_ASSERT(vaccel_bo_handle(NULL) == 0);
	vaccel_bo_free(NULL);

	VT_ASSERT_OK(vaccel_bo_alloc(dev, 4096, 0, &bo));
	VT_ASSERT_EQ(vaccel_bo_map(bo, NULL), -EINVAL);
	VT_ASSERT_EQ(vaccel_bo_export(bo, NULL), -EINVAL);
	vaccel_bo_free(bo);

	vt_dev_mem(vaccel_device_fd(dev), &m1);
	VT_ASSERT_EQ(m1.bo_count, m0.bo_count);
	VT_ASSERT_EQ(m1.bo_bytes, m0.bo_bytes);
	expect_stats(dev, 0, 0);
	close(null);
	vaccel_device_close(dev);
}

#define THREADS		4
#define THREAD_ITERS	200

static struct vaccel_device *shared_dev;
static int shared_dmabuf = -1;

static void *thread_fn(void *arg)
{
	__u64 seed = 0x9e3779b9ull * ((uintptr_t)arg + 1);
	struct vaccel_bo *bo, *imp;
	unsigned int i;
	__u64 size;
	uint64_t *p;

	for (i = 0; i < THREAD_ITERS; i++) {
		seed = seed * 6364136223846793005ull + 1442695040888963407ull;
		size = 4096 * (1 + (seed >> 40) % 32);
		if (vaccel_bo_alloc(shared_dev, size, 0, &bo))
			return (void *)1;
		if (vaccel_bo_map(bo, (void **)&p))
			return (void *)2;
		p[0] = seed;
		p[size / 8 - 1] = seed;
		/* Imports of one shared dma-buf, racing with the others. */
		if (i % 8 == 0) {
			if (vaccel_bo_import(shared_dev, shared_dmabuf, &imp))
				return (void *)3;
			vaccel_bo_free(imp);
		}
		if (p[0] != seed || p[size / 8 - 1] != seed)
			return (void *)4;
		vaccel_bo_free(bo);
	}
	return NULL;
}

/*
 * Threads allocate, map, import and free on one device at once: all calls
 * succeed (an overlap of two addresses would fail the kernel's map with
 * -EEXIST), and the VM ends as it began.
 */
VTEST(threads)
{
	struct vaccel_bo *keep;
	pthread_t t[THREADS];
	void *ret;
	uintptr_t i;

	shared_dev = open_dev(NULL);
	VT_ASSERT_OK(vaccel_bo_alloc(shared_dev, 8192, 0, &keep));
	VT_ASSERT_OK(vaccel_bo_export(keep, &shared_dmabuf));
	for (i = 0; i < THREADS; i++)
		VT_ASSERT_EQ(pthread_create(&t[i], NULL, thread_fn, (void *)i), 0);
	for (i = 0; i < THREADS; i++) {
		VT_ASSERT_EQ(pthread_join(t[i], &ret), 0);
		if (ret)
			vtest_fail(__FILE__, __LINE__, "thread %u failed at step %lu",
				   (unsigned int)i, (unsigned long)(uintptr_t)ret);
	}
	expect_stats(shared_dev, 1, 8192);
	vaccel_bo_free(keep);
	expect_stats(shared_dev, 0, 0);
	close(shared_dmabuf);
	vaccel_device_close(shared_dev);
}

/* Closing a device with live buffers is safe and gives everything back. */
VTEST(close_with_live_buffers)
{
	struct vaccel_device *dev;
	struct vaccel_bo *bo[3];
	struct vt_dev_mem m0, m1;
	char dir[VT_DIR_MAX];
	unsigned int i;
	void *p;

	vt_debugfs_dir_index(0, dir, sizeof(dir));
	vt_dev_mem_dir(dir, &m0);
	dev = open_dev(NULL);
	for (i = 0; i < 3; i++)
		VT_ASSERT_OK(vaccel_bo_alloc(dev, VT_MIB, 0, &bo[i]));
	VT_ASSERT_OK(vaccel_bo_map(bo[1], &p));
	memset(p, 1, VT_MIB);
	vaccel_device_close(dev);
	vt_dev_mem_dir(dir, &m1);
	VT_ASSERT(vt_dev_mem_equal(&m1, &m0));
}

VTEST_MAIN()
