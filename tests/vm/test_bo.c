// SPDX-License-Identifier: MIT
/*
 * Copyright 2026 The vaccel authors
 *
 * test_bo.c - buffer objects with raw ioctls: the limits of uapi 1.1,
 * BO_CREATE, BO_MMAP_OFFSET and BO_INFO with good and bad input, what a CPU
 * mapping reads and keeps, and a thousand BOs at once.  The device-wide
 * counters of debugfs (accel/<minor>/memory) check that what was created is
 * counted and what was closed is gone.
 *
 * Needs root (debugfs); any topology.
 */
#include "vt_mem.h"

static struct drm_vaccel_device_info dev_info(int fd)
{
	struct drm_vaccel_device_info info;

	vt_device_info(fd, &info);
	return info;
}

/* uapi 1.1 reports the memory limits; the 64-byte 1.0 answer still works. */
VTEST(device_limits)
{
	int fd = vt_open_first();
	struct drm_vaccel_device_info info = dev_info(fd), small;
	unsigned char buf[64];
	__u32 size;

	VT_ASSERT(info.uapi_minor >= 1);
	VT_ASSERT(info.max_bo_size > 0);
	VT_ASSERT_EQ(info.max_bo_size % info.page_size, 0);
	VT_ASSERT(info.max_bind_ops > 0);
	VT_ASSERT(info.max_bos_per_file > 0);

	/* A program of uapi 1.0 asks with 64 bytes and gets that prefix. */
	memset(buf, 0xee, sizeof(buf));
	size = 64;
	VT_ASSERT_EQ(vt_query(fd, DRM_VACCEL_QUERY_DEVICE, buf, &size), 0);
	VT_ASSERT_EQ(size, sizeof(info));
	VT_ASSERT(!memcmp(buf, &info, 64));
	size = 63;
	VT_ASSERT_ERRNO(vt_query(fd, DRM_VACCEL_QUERY_DEVICE, &small, &size), EINVAL);
}

/* A BO gets a handle, its size and no flags; BO_INFO says the same. */
VTEST(create_basic)
{
	int fd = vt_open_first();
	struct drm_vaccel_bo_info info;
	__u32 a, b;
	__u64 size = 0;

	VT_ASSERT_EQ(vt_bo_create_raw(fd, 4096, 0, &a, &size), 0);
	VT_ASSERT(a != 0);
	VT_ASSERT_EQ(size, 4096);
	b = vt_bo_create(fd, 8192, 0);
	VT_ASSERT(b != a);

	vt_bo_info(fd, a, &info);
	VT_ASSERT_EQ(info.handle, a);
	VT_ASSERT_EQ(info.size, 4096);
	VT_ASSERT_EQ(info.flags, 0);
	VT_ASSERT_EQ(info.mappings, 0);
	VT_ASSERT_EQ(info.pad, 0);
	vt_bo_info(fd, b, &info);
	VT_ASSERT_EQ(info.size, 8192);
	vt_gem_close(fd, a);
	vt_gem_close(fd, b);
}

/* Sizes are rounded up to whole pages, in the answer and in BO_INFO. */
VTEST(create_rounding)
{
	static const __u64 sizes[][2] = {
		{ 1, 4096 }, { 4095, 4096 }, { 4096, 4096 }, { 4097, 8192 },
		{ 12345, 16384 }, { VT_MIB + 1, VT_MIB + 4096 },
	};
	struct drm_vaccel_bo_info info;
	int fd = vt_open_first();
	unsigned int i;
	__u32 h;
	__u64 size;

	for (i = 0; i < ARRAY_SIZE(sizes); i++) {
		size = 0;
		VT_ASSERT_EQ(vt_bo_create_raw(fd, sizes[i][0], 0, &h, &size), 0);
		VT_ASSERT_EQ(size, sizes[i][1]);
		vt_bo_info(fd, h, &info);
		VT_ASSERT_EQ(info.size, sizes[i][1]);
		vt_gem_close(fd, h);
	}
}

/* Zero size, unknown flags and sizes past the limit fail and create nothing. */
VTEST(create_errors)
{
	static const __u32 bad_flags[] = { 1u << 3, 1u << 4, 1u << 30,
					   DRM_VACCEL_BO_DEVICE | DRM_VACCEL_BO_DEVICE_PREFERRED,
					   DRM_VACCEL_BO_IMPORTED, 0xffffffff };
	int fd = vt_open_first();
	struct drm_vaccel_device_info info = dev_info(fd);
	struct vt_dev_mem before, after;
	__u64 max = info.max_bo_size;
	__u32 h = 0x5a5a;
	unsigned int i;

	vt_dev_mem(fd, &before);
	VT_ASSERT_ERRNO(vt_bo_create_raw(fd, 0, 0, &h, NULL), EINVAL);
	VT_ASSERT_ERRNO(vt_bo_create_raw(fd, 0, DRM_VACCEL_BO_NO_MMAP, &h, NULL), EINVAL);
	for (i = 0; i < ARRAY_SIZE(bad_flags); i++)
		VT_ASSERT_ERRNO(vt_bo_create_raw(fd, 4096, bad_flags[i], &h, NULL), EINVAL);
	VT_ASSERT_ERRNO(vt_bo_create_raw(fd, max + 1, 0, &h, NULL), E2BIG);
	VT_ASSERT_ERRNO(vt_bo_create_raw(fd, max + 4096, 0, &h, NULL), E2BIG);
	VT_ASSERT_ERRNO(vt_bo_create_raw(fd, max * 2, 0, &h, NULL), E2BIG);
	/* Sizes whose rounding up would wrap. */
	VT_ASSERT_ERRNO(vt_bo_create_raw(fd, UINT64_MAX, 0, &h, NULL), E2BIG);
	VT_ASSERT_ERRNO(vt_bo_create_raw(fd, UINT64_MAX - 4095, 0, &h, NULL), E2BIG);
	VT_ASSERT_EQ(h, 0x5a5a);
	vt_dev_mem(fd, &after);
	VT_ASSERT_EQ(after.bo_count, before.bo_count);
	VT_ASSERT_EQ(after.bo_bytes, before.bo_bytes);
}

/* The largest BO can be created (its pages come only when touched). */
VTEST(create_max)
{
	int fd = vt_open_first();
	struct drm_vaccel_device_info info = dev_info(fd);
	struct drm_vaccel_bo_info bi;
	__u64 size = 0;
	__u32 h;

	VT_ASSERT_EQ(vt_bo_create_raw(fd, info.max_bo_size, 0, &h, &size), 0);
	VT_ASSERT(size == info.max_bo_size);
	vt_bo_info(fd, h, &bi);
	VT_ASSERT(bi.size == info.max_bo_size);
	vt_gem_close(fd, h);
}

/* The device counts BOs and their bytes, and forgets them at close. */
VTEST(memory_counters)
{
	int fd = vt_open_first();
	struct vt_dev_mem m0, m1, m2;
	__u32 a, b;

	vt_dev_mem(fd, &m0);
	a = vt_bo_create(fd, VT_MIB, 0);
	b = vt_bo_create(fd, 5000, DRM_VACCEL_BO_NO_MMAP);
	vt_dev_mem(fd, &m1);
	VT_ASSERT_EQ(m1.bo_count, m0.bo_count + 2);
	VT_ASSERT_EQ(m1.bo_bytes, m0.bo_bytes + VT_MIB + 8192);
	vt_gem_close(fd, a);
	vt_gem_close(fd, b);
	vt_dev_mem(fd, &m2);
	VT_ASSERT_EQ(m2.bo_count, m0.bo_count);
	VT_ASSERT_EQ(m2.bo_bytes, m0.bo_bytes);
}

/* A new 1 MiB BO reads back zeros through a CPU mapping. */
VTEST(new_bo_is_zero)
{
	int fd = vt_open_first();
	__u32 h = vt_bo_create(fd, VT_MIB, 0);
	const volatile __u64 *p = vt_bo_mmap(fd, h, VT_MIB);
	size_t i;

	for (i = 0; i < VT_MIB / 8; i++)
		if (p[i])
			vtest_fail(__FILE__, __LINE__, "byte 0x%zx is not zero", i * 8);
}

static __u64 pattern(size_t i)
{
	return 0x9e3779b97f4a7c15ull * (i + 1);
}

/* What one mapping writes, a second mapping reads, then and later. */
VTEST(write_then_read_in_second_mmap)
{
	const __u64 size = 256 * VT_KIB;
	int fd = vt_open_first();
	__u32 h = vt_bo_create(fd, size, 0);
	__u64 *p, *q, *r;
	size_t i;

	p = vt_bo_mmap(fd, h, size);
	for (i = 0; i < size / 8; i++)
		p[i] = pattern(i);
	VT_ASSERT_EQ(munmap(p, size), 0);

	q = vt_bo_mmap(fd, h, size);
	for (i = 0; i < size / 8; i++)
		VT_ASSERT(q[i] == pattern(i));

	/* Two live mappings see each other's writes at once. */
	r = vt_bo_mmap(fd, h, size);
	VT_ASSERT(r != q);
	q[12345] = 0x1122334455667788ull;
	VT_ASSERT(r[12345] == 0x1122334455667788ull);
	VT_ASSERT_EQ(munmap(q, size), 0);
	VT_ASSERT_EQ(munmap(r, size), 0);
}

/* A CPU mapping outlives the handle, and keeps the BO until it goes. */
VTEST(mmap_keeps_bo)
{
	int fd = vt_open_first();
	struct vt_dev_mem m0, m1;
	__u64 *p;
	__u32 h;

	vt_dev_mem(fd, &m0);
	h = vt_bo_create(fd, 64 * VT_KIB, 0);
	p = vt_bo_mmap(fd, h, 64 * VT_KIB);
	p[0] = 42;
	vt_gem_close(fd, h);
	VT_ASSERT_ERRNO(vt_bo_info_raw(fd, h, &(struct drm_vaccel_bo_info){ 0 }), ENOENT);
	p[8191] = 43;
	VT_ASSERT(p[0] == 42 && p[8191] == 43);
	vt_dev_mem(fd, &m1);
	VT_ASSERT_EQ(m1.bo_count, m0.bo_count + 1);
	VT_ASSERT_EQ(munmap(p, 64 * VT_KIB), 0);
	vt_dev_mem(fd, &m1);
	VT_ASSERT_EQ(m1.bo_count, m0.bo_count);
	VT_ASSERT_EQ(m1.bo_bytes, m0.bo_bytes);
}

/* NO_MMAP: BO_INFO reports it, BO_MMAP_OFFSET refuses with EPERM. */
VTEST(no_mmap)
{
	int fd = vt_open_first();
	struct drm_vaccel_bo_info info;
	__u64 off = 0x77;
	__u32 h;

	h = vt_bo_create(fd, 8192, DRM_VACCEL_BO_NO_MMAP);
	VT_ASSERT_ERRNO(vt_bo_mmap_offset_raw(fd, h, &off), EPERM);
	VT_ASSERT_EQ(off, 0x77);
	vt_bo_info(fd, h, &info);
	VT_ASSERT_EQ(info.flags, DRM_VACCEL_BO_NO_MMAP);
	VT_ASSERT_EQ(info.size, 8192);
	vt_gem_close(fd, h);
}

/* Unknown, closed and other files' handles are ENOENT for both ioctls. */
VTEST(unknown_handle)
{
	int fd = vt_open_first(), other = vt_open_first();
	struct drm_vaccel_bo_info info;
	__u32 handles[5], closed, theirs;
	unsigned int i;
	__u64 off;

	closed = vt_bo_create(fd, 4096, 0);
	vt_gem_close(fd, closed);
	/* A handle of the other file that this file does not have. */
	theirs = vt_bo_create(other, 4096, 0);
	vt_bo_create(other, 4096, 0);
	handles[0] = 0;
	handles[1] = 0x7fffffff;
	handles[2] = 0xffffffff;
	handles[3] = closed;
	handles[4] = theirs;
	for (i = 0; i < ARRAY_SIZE(handles); i++) {
		VT_ASSERT_ERRNO(vt_bo_mmap_offset_raw(fd, handles[i], &off), ENOENT);
		VT_ASSERT_ERRNO(vt_bo_info_raw(fd, handles[i], &info), ENOENT);
	}
	vt_bo_info(other, theirs, &info);
}

/* A non-zero pad is EINVAL for BO_MMAP_OFFSET and BO_INFO. */
VTEST(pad_nonzero)
{
	static const __u32 pads[] = { 1, 0x80000000, 0xffffffff };
	int fd = vt_open_first();
	__u32 h = vt_bo_create(fd, 4096, 0);
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(pads); i++) {
		struct drm_vaccel_bo_mmap_offset m = { .handle = h, .pad = pads[i] };
		struct drm_vaccel_bo_info info = { .handle = h, .pad = pads[i] };

		VT_ASSERT_ERRNO(ioctl(fd, DRM_IOCTL_VACCEL_BO_MMAP_OFFSET, &m), EINVAL);
		VT_ASSERT_ERRNO(ioctl(fd, DRM_IOCTL_VACCEL_BO_INFO, &info), EINVAL);
	}
}

/* A mapping larger than the BO, or copy-on-write, is refused. */
VTEST(mmap_bad)
{
	int fd = vt_open_first();
	__u32 h = vt_bo_create(fd, 8192, 0);
	__u64 off = 0;

	VT_ASSERT_EQ(vt_bo_mmap_offset_raw(fd, h, &off), 0);
	VT_ASSERT(off % 4096 == 0);
	errno = 0;
	VT_ASSERT(mmap(NULL, 3 * 4096, PROT_READ | PROT_WRITE, MAP_SHARED, fd, off) ==
		  MAP_FAILED);
	VT_ASSERT_EQ(errno, EINVAL);
	errno = 0;
	VT_ASSERT(mmap(NULL, 8192, PROT_READ | PROT_WRITE, MAP_PRIVATE, fd, off) ==
		  MAP_FAILED);
	VT_ASSERT_EQ(errno, EINVAL);
	/* The same offset asked twice is stable. */
	{
		__u64 again = 0;

		VT_ASSERT_EQ(vt_bo_mmap_offset_raw(fd, h, &again), 0);
		VT_ASSERT(again == off);
	}
}

#define MANY	1000

/* A thousand BOs at once: distinct handles, all counted, all closed. */
VTEST(many_bos)
{
	int fd = vt_open_first();
	struct drm_vaccel_bo_info info;
	struct vt_dev_mem m0, m1;
	static __u32 h[MANY], sorted[MANY];
	__u64 bytes = 0;
	unsigned int i;

	vt_dev_mem(fd, &m0);
	for (i = 0; i < MANY; i++) {
		h[i] = vt_bo_create(fd, 4096 * (1 + i % 4), i % 3 ? 0 : DRM_VACCEL_BO_NO_MMAP);
		bytes += 4096 * (1 + i % 4);
	}
	vt_dev_mem(fd, &m1);
	VT_ASSERT_EQ(m1.bo_count, m0.bo_count + MANY);
	VT_ASSERT_EQ(m1.bo_bytes, m0.bo_bytes + (long long)bytes);

	for (i = 0; i < MANY; i++) {
		vt_bo_info(fd, h[i], &info);
		VT_ASSERT_EQ(info.size, 4096 * (1 + i % 4));
		VT_ASSERT_EQ(info.flags, i % 3 ? 0 : DRM_VACCEL_BO_NO_MMAP);
	}
	/* Handles are distinct. */
	memcpy(sorted, h, sizeof(h));
	qsort(sorted, MANY, sizeof(sorted[0]), vt_cmp_uint);
	for (i = 1; i < MANY; i++)
		VT_ASSERT(sorted[i] != sorted[i - 1]);

	for (i = 0; i < MANY; i++)
		vt_gem_close(fd, h[(i * 7) % MANY]);	/* out of order */
	for (i = 0; i < MANY; i += 100)
		VT_ASSERT_ERRNO(vt_gem_close_raw(fd, h[i]), EINVAL);
	vt_dev_mem(fd, &m1);
	VT_ASSERT_EQ(m1.bo_count, m0.bo_count);
	VT_ASSERT_EQ(m1.bo_bytes, m0.bo_bytes);
}

/*
 * A file holds at most max_bos_per_file handles: one more BO or a new
 * import is ENOSPC; re-importing a BO it has makes no new handle; other
 * files are not limited by it.
 */
VTEST(handle_limit)
{
	int fd = vt_open_first(), other = vt_open_first();
	struct drm_vaccel_device_info info = dev_info(fd);
	__u32 max = info.max_bos_per_file, i, h2, *h;
	int theirs, ours;

	VT_ASSERT_EQ(max, vt_expect_def("", "max_bos_per_file", 65536, false));
	h = malloc(max * sizeof(*h));
	VT_ASSERT(h);
	theirs = vt_prime_export(other, vt_bo_create(other, 4096, 0));
	for (i = 0; i < max; i++) {
		if (vt_bo_create_raw(fd, 4096, 0, &h[i], NULL))
			vtest_fail(__FILE__, __LINE__, "BO %u of %u: %s", i, max,
				   strerror(errno));
	}
	VT_ASSERT_ERRNO(vt_bo_create_raw(fd, 4096, 0, &h2, NULL), ENOSPC);
	VT_ASSERT_ERRNO(vt_prime_import_raw(fd, theirs, &h2), ENOSPC);
	ours = vt_prime_export(fd, h[max / 2]);
	VT_ASSERT_EQ(vt_prime_import(fd, ours), h[max / 2]);
	vt_bo_create(other, 4096, 0);

	vt_gem_close(fd, h[7]);
	VT_ASSERT_EQ(vt_prime_import(fd, theirs) != 0, 1);
	VT_ASSERT_ERRNO(vt_bo_create_raw(fd, 4096, 0, &h2, NULL), ENOSPC);
	vt_gem_close(fd, h[8]);
	h[8] = vt_bo_create(fd, 4096, 0);
}

/* Closing the file closes its BOs. */
VTEST(close_file_frees)
{
	int fd = vt_open_first(), probe = vt_open_first();
	struct vt_dev_mem m0, m1;
	unsigned int i;

	vt_dev_mem(probe, &m0);
	for (i = 0; i < 16; i++)
		vt_bo_create(fd, 64 * VT_KIB, 0);
	vt_dev_mem(probe, &m1);
	VT_ASSERT_EQ(m1.bo_count, m0.bo_count + 16);
	close(fd);
	vt_dev_mem(probe, &m1);
	VT_ASSERT_EQ(m1.bo_count, m0.bo_count);
	VT_ASSERT_EQ(m1.bo_bytes, m0.bo_bytes);
}

VTEST_MAIN()
