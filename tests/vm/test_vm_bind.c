// SPDX-License-Identifier: MIT
/*
 * Copyright 2026 The vaccel authors
 *
 * test_vm_bind.c - DRM_IOCTL_VACCEL_VM_BIND with raw ioctls: map and unmap
 * with the VM statistics checked after each step, every documented error
 * (EINVAL, ENOENT, EEXIST, E2BIG, EFAULT), the {stride, count, array}
 * rules, all-or-nothing calls, unmaps that split mappings or cross holes,
 * mappings that keep their BO alive, and the translation itself: each GPU
 * page-table entry, read from debugfs, must point at the physical page the
 * CPU sees at the same offset of the BO, with the permission bits the map
 * asked for.
 *
 * Needs root (debugfs); any topology with a COMPUTE engine.
 */
#include "vt_mem.h"

/* An open file with an empty VM, and what the device says of itself. */
struct fx {
	int fd;
	struct drm_vaccel_device_info info;
	struct drm_vaccel_vm_stats empty;
	__u64 base;	/* a 2 MiB aligned VA (one level-0 table) inside the range */
};

static struct fx fx_open(void)
{
	struct fx f;

	f.fd = vt_open_first();
	vt_device_info(f.fd, &f.info);
	vt_vm_stats(f.fd, &f.empty);
	VT_ASSERT_EQ(f.empty.mappings, 0);
	VT_ASSERT_EQ(f.empty.mapped_bytes, 0);
	VT_ASSERT(f.empty.pt_pages >= 1);	/* the root table */
	f.base = ((f.info.va_start + 2 * VT_MIB - 1) & ~(2 * VT_MIB - 1)) + 2 * VT_MIB;
	VT_ASSERT(f.base + 64 * VT_MIB <= f.info.va_end);
	return f;
}

static void expect_stats(int fd, __u64 mappings, __u64 bytes)
{
	struct drm_vaccel_vm_stats s;

	vt_vm_stats(fd, &s);
	VT_ASSERT_EQ(s.mappings, mappings);
	VT_ASSERT_EQ(s.mapped_bytes, bytes);
}

/* The VM is exactly as empty as when the file was opened. */
static void expect_empty(struct fx *f)
{
	struct drm_vaccel_vm_stats s;
	struct vt_pte *t;

	vt_vm_stats(f->fd, &s);
	VT_ASSERT_STATS_EQ(&s, &f->empty);
	VT_ASSERT_EQ(vt_page_table(f->fd, &t), 0);
	free(t);
}

static __u32 bo_mappings(int fd, __u32 handle)
{
	struct drm_vaccel_bo_info info;

	vt_bo_info(fd, handle, &info);
	return info.mappings;
}

/* The debugfs statistics of the VM agree with the query. */
static void expect_debugfs_stats(int fd)
{
	struct drm_vaccel_vm_stats s;
	char *text = vt_vm_debugfs(fd, "stats");

	vt_vm_stats(fd, &s);
	VT_ASSERT_EQ(vt_kv(text, "mappings"), s.mappings);
	VT_ASSERT_EQ(vt_kv(text, "mapped_bytes"), s.mapped_bytes);
	VT_ASSERT_EQ(vt_kv(text, "pt_pages"), s.pt_pages);
	free(text);
}

/* A new VM: no mapping, only the root table, empty debugfs files. */
VTEST(empty_vm)
{
	struct fx f = fx_open();
	struct vt_mapping *m;
	struct vt_pte *t;

	VT_ASSERT_EQ(f.empty.pt_bytes, f.empty.pt_pages * 4096);
	VT_ASSERT_EQ(vt_page_table(f.fd, &t), 0);
	VT_ASSERT_EQ(vt_mappings(f.fd, &m), 0);
	expect_debugfs_stats(f.fd);
	free(t);
	free(m);
}

/* Maps and unmaps, with the statistics after every step. */
VTEST(map_unmap_stats)
{
	struct fx f = fx_open();
	__u32 h = vt_bo_create(f.fd, 64 * VT_KIB, 0);
	__u64 high = (f.info.va_end - 64 * VT_KIB) & ~(64 * VT_KIB - 1);
	struct drm_vaccel_vm_stats s1, s2, s3;
	struct vt_pte *t;

	vt_map(f.fd, h, 0, f.base, 64 * VT_KIB, 0);
	vt_vm_stats(f.fd, &s1);
	VT_ASSERT_EQ(s1.mappings, 1);
	VT_ASSERT_EQ(s1.mapped_bytes, 64 * VT_KIB);
	VT_ASSERT(s1.pt_pages > f.empty.pt_pages);
	VT_ASSERT_EQ(bo_mappings(f.fd, h), 1);
	VT_ASSERT_EQ(vt_page_table(f.fd, &t), 16);
	free(t);
	expect_debugfs_stats(f.fd);

	/* The top of the range needs tables of its own. */
	vt_map(f.fd, h, 0, high, 64 * VT_KIB, 0);
	vt_vm_stats(f.fd, &s2);
	VT_ASSERT_EQ(s2.mappings, 2);
	VT_ASSERT_EQ(s2.mapped_bytes, 128 * VT_KIB);
	VT_ASSERT(s2.pt_pages > s1.pt_pages);
	VT_ASSERT_EQ(bo_mappings(f.fd, h), 2);

	/* Half of the BO, from its middle, near the first mapping. */
	vt_map(f.fd, h, 32 * VT_KIB, f.base + VT_MIB, 32 * VT_KIB, 0);
	vt_vm_stats(f.fd, &s3);
	VT_ASSERT_EQ(s3.mappings, 3);
	VT_ASSERT_EQ(s3.mapped_bytes, 160 * VT_KIB);
	VT_ASSERT_EQ(s3.pt_pages, s2.pt_pages);	/* same level-0 table */
	VT_ASSERT_EQ(bo_mappings(f.fd, h), 3);
	expect_debugfs_stats(f.fd);

	vt_unmap(f.fd, f.base, 64 * VT_KIB);
	expect_stats(f.fd, 2, 96 * VT_KIB);
	vt_unmap(f.fd, high, 64 * VT_KIB);
	expect_stats(f.fd, 1, 32 * VT_KIB);
	VT_ASSERT_EQ(bo_mappings(f.fd, h), 1);
	vt_unmap(f.fd, f.base + VT_MIB, 32 * VT_KIB);
	VT_ASSERT_EQ(bo_mappings(f.fd, h), 0);
	expect_empty(&f);
	expect_debugfs_stats(f.fd);
}

/* The first and the last page of the VA range can be mapped. */
VTEST(va_range_edges)
{
	struct fx f = fx_open();
	__u32 h = vt_bo_create(f.fd, 2 * VT_PAGE, 0);
	unsigned char *cpu = vt_bo_mmap(f.fd, h, 2 * VT_PAGE);

	vt_fill_pages(cpu, 2, 9);
	vt_map(f.fd, h, 0, f.info.va_start, VT_PAGE, 0);
	vt_map(f.fd, h, VT_PAGE, f.info.va_end - VT_PAGE, VT_PAGE, 0);
	expect_stats(f.fd, 2, 2 * VT_PAGE);
	vt_check_translation(f.fd, f.info.va_start, cpu, 1, true, true);
	vt_check_translation(f.fd, f.info.va_end - VT_PAGE, cpu + VT_PAGE, 1, true, true);
	vt_unmap(f.fd, f.info.va_start, VT_PAGE);
	vt_unmap(f.fd, f.info.va_end - VT_PAGE, VT_PAGE);
	expect_empty(&f);
}

/* A malformed map: one defect each, always EINVAL, the VM untouched. */
VTEST(einval_map)
{
	struct fx f = fx_open();
	const __u64 bo = 16 * VT_PAGE;
	__u32 h = vt_bo_create(f.fd, bo, 0);
	__u64 vs = f.info.va_start, ve = f.info.va_end, b = f.base;
	struct {
		const char *what;
		__u32 op, flags, pad;
		__u64 bo_offset, va, size;
	} bad[] = {
		{ "unaligned va", 0, 0, 0, 0, b + 0x800, VT_PAGE },
		{ "unaligned va (1)", 0, 0, 0, 0, b + 1, VT_PAGE },
		{ "unaligned size", 0, 0, 0, 0, b, VT_PAGE + 0x800 },
		{ "size below a page", 0, 0, 0, 0, b, 0x200 },
		{ "unaligned bo_offset", 0, 0, 0, 0x800, b, VT_PAGE },
		{ "size 0", 0, 0, 0, 0, b, 0 },
		{ "va 0", 0, 0, 0, 0, 0, VT_PAGE },
		{ "below va_start", 0, 0, 0, 0, vs - VT_PAGE, VT_PAGE },
		{ "across va_start", 0, 0, 0, 0, vs - VT_PAGE, 2 * VT_PAGE },
		{ "across va_end", 0, 0, 0, 0, ve - VT_PAGE, 2 * VT_PAGE },
		{ "at va_end", 0, 0, 0, 0, ve, VT_PAGE },
		{ "far above va_end", 0, 0, 0, 0, 1ull << 60, VT_PAGE },
		{ "va + size wraps", 0, 0, 0, 0, 0xfffffffffffff000ull, 2 * VT_PAGE },
		{ "size wraps from va", 0, 0, 0, 0, b, 0xfffffffffffff000ull },
		{ "larger than the BO", 0, 0, 0, 0, b, bo + VT_PAGE },
		{ "past the end of the BO", 0, 0, 0, 15 * VT_PAGE, b, 2 * VT_PAGE },
		{ "offset at the end of the BO", 0, 0, 0, bo, b, VT_PAGE },
		{ "offset far past the BO", 0, 0, 0, 1ull << 40, b, VT_PAGE },
		{ "bo_offset + size wraps", 0, 0, 0, 0xfffffffffffff000ull, b, 2 * VT_PAGE },
		{ "unknown op 2", 2, 0, 0, 0, b, VT_PAGE },
		{ "unknown op 0x7fffffff", 0x7fffffff, 0, 0, 0, b, VT_PAGE },
		{ "unknown op ~0", 0xffffffff, 0, 0, 0, b, VT_PAGE },
		{ "unknown flag 1 << 2", 0, 1u << 2, 0, 0, b, VT_PAGE },
		{ "unknown flag 1 << 31", 0, 1u << 31, 0, 0, b, VT_PAGE },
		{ "pad 1", 0, 0, 1, 0, b, VT_PAGE },
		{ "pad 1 << 31", 0, 0, 1u << 31, 0, b, VT_PAGE },
	};
	struct drm_vaccel_vm_bind_op op;
	unsigned int i;

	VT_ASSERT(vs >= 2 * VT_PAGE);
	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		op = vt_op_map(h, bad[i].bo_offset, bad[i].va, bad[i].size, bad[i].flags);
		op.op = bad[i].op;
		op.pad = bad[i].pad;
		errno = 0;
		if (vt_vm_bind_raw(f.fd, &op, 1) != -1 || errno != EINVAL)
			vtest_fail(__FILE__, __LINE__, "%s: expected EINVAL, got %s",
				   bad[i].what, strerror(errno));
	}
	expect_empty(&f);
	VT_ASSERT_EQ(bo_mappings(f.fd, h), 0);
	/* The good op next to them works. */
	vt_map(f.fd, h, 0, b, bo, 0);
	expect_stats(f.fd, 1, bo);
}

/* A malformed unmap: EINVAL, and the mapping it aimed at stays. */
VTEST(einval_unmap)
{
	struct fx f = fx_open();
	__u32 h = vt_bo_create(f.fd, 16 * VT_PAGE, 0);
	__u64 vs = f.info.va_start, ve = f.info.va_end, b = f.base;
	struct {
		const char *what;
		__u32 flags, handle, pad;
		__u64 bo_offset, va, size;
	} bad[] = {
		{ "handle set", 0, 0, 0, 0, b, VT_PAGE },	/* handle filled below */
		{ "bo_offset set", 0, 0, 0, VT_PAGE, b, VT_PAGE },
		{ "read-only flag", DRM_VACCEL_VM_BIND_READ_ONLY, 0, 0, 0, b, VT_PAGE },
		{ "no-exec flag", DRM_VACCEL_VM_BIND_NO_EXEC, 0, 0, 0, b, VT_PAGE },
		{ "unknown flag", 1u << 9, 0, 0, 0, b, VT_PAGE },
		{ "pad", 0, 0, 1, 0, b, VT_PAGE },
		{ "unaligned va", 0, 0, 0, 0, b + 0x800, VT_PAGE },
		{ "unaligned size", 0, 0, 0, 0, b, 0x1800 },
		{ "size 0", 0, 0, 0, 0, b, 0 },
		{ "below va_start", 0, 0, 0, 0, vs - VT_PAGE, VT_PAGE },
		{ "across va_end", 0, 0, 0, 0, ve - VT_PAGE, 2 * VT_PAGE },
		{ "va + size wraps", 0, 0, 0, 0, 0xfffffffffffff000ull, 2 * VT_PAGE },
	};
	struct drm_vaccel_vm_bind_op op;
	struct drm_vaccel_vm_stats before, after;
	unsigned int i;

	bad[0].handle = h;
	vt_map(f.fd, h, 0, b, 16 * VT_PAGE, 0);
	vt_vm_stats(f.fd, &before);
	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		op = vt_op_unmap(bad[i].va, bad[i].size);
		op.flags = bad[i].flags;
		op.handle = bad[i].handle;
		op.pad = bad[i].pad;
		op.bo_offset = bad[i].bo_offset;
		errno = 0;
		if (vt_vm_bind_raw(f.fd, &op, 1) != -1 || errno != EINVAL)
			vtest_fail(__FILE__, __LINE__, "%s: expected EINVAL, got %s",
				   bad[i].what, strerror(errno));
	}
	vt_vm_stats(f.fd, &after);
	VT_ASSERT_STATS_EQ(&after, &before);
	vt_unmap(f.fd, b, 16 * VT_PAGE);
	expect_empty(&f);
}

/* Non-zero flags or pad of the ioctl argument: EINVAL. */
VTEST(einval_bind_args)
{
	static const __u32 bad[] = { 1, 2, 0x80000000, 0xffffffff };
	struct fx f = fx_open();
	__u32 h = vt_bo_create(f.fd, VT_PAGE, 0);
	struct drm_vaccel_vm_bind_op op = vt_op_map(h, 0, f.base, VT_PAGE, 0);
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		VT_ASSERT_ERRNO(vt_vm_bind_full(f.fd, &op, sizeof(op), 1, bad[i], 0), EINVAL);
		VT_ASSERT_ERRNO(vt_vm_bind_full(f.fd, &op, sizeof(op), 1, 0, bad[i]), EINVAL);
	}
	expect_empty(&f);
	VT_ASSERT_EQ(vt_vm_bind_full(f.fd, &op, sizeof(op), 1, 0, 0), 0);
}

/* Handles that this file does not have: ENOENT. */
VTEST(enoent)
{
	struct fx f = fx_open();
	int other = vt_open_first();
	__u32 closed, theirs, handles[5];
	unsigned int i;

	/* The other file has handles this file never had. */
	theirs = vt_bo_create(other, VT_PAGE, 0);
	vt_bo_create(other, VT_PAGE, 0);
	vt_bo_create(other, VT_PAGE, 0);
	closed = vt_bo_create(f.fd, VT_PAGE, 0);
	vt_gem_close(f.fd, closed);
	VT_ASSERT_ERRNO(vt_bo_info_raw(f.fd, theirs + 2, &(struct drm_vaccel_bo_info){ 0 }),
			ENOENT);

	handles[0] = 0x7fffffff;
	handles[1] = 0;
	handles[2] = closed;
	handles[3] = theirs + 2;	/* only in the other file */
	handles[4] = 0xffffffff;
	for (i = 0; i < ARRAY_SIZE(handles); i++) {
		errno = 0;
		if (vt_map_raw(f.fd, handles[i], 0, f.base, VT_PAGE, 0) != -1 ||
		    errno != ENOENT)
			vtest_fail(__FILE__, __LINE__, "handle %u: expected ENOENT, got %s",
				   handles[i], strerror(errno));
	}
	expect_empty(&f);
	/* The other file maps its own handle at the same VA. */
	vt_map(other, theirs + 2, 0, f.base, VT_PAGE, 0);
	expect_stats(other, 1, VT_PAGE);
	expect_empty(&f);
}

/* A map over a mapped page: EEXIST, before or within the same call. */
VTEST(eexist)
{
	struct fx f = fx_open();
	__u32 h = vt_bo_create(f.fd, 32 * VT_PAGE, 0);
	__u64 a = f.base + 16 * VT_PAGE;	/* A: 16 pages */
	struct {
		const char *what;
		__u64 va, pages;
	} over[] = {
		{ "the same range", a, 16 },
		{ "its first page", a, 1 },
		{ "its last page", a + 15 * VT_PAGE, 1 },
		{ "a page in the middle", a + 7 * VT_PAGE, 1 },
		{ "overlapping its start", a - 4 * VT_PAGE, 8 },
		{ "overlapping its end", a + 12 * VT_PAGE, 8 },
		{ "all around it", a - 8 * VT_PAGE, 32 },
	};
	struct drm_vaccel_vm_bind_op two[2];
	struct drm_vaccel_vm_stats before, after;
	unsigned int i;

	vt_map(f.fd, h, 0, a, 16 * VT_PAGE, 0);
	vt_vm_stats(f.fd, &before);
	for (i = 0; i < ARRAY_SIZE(over); i++) {
		errno = 0;
		if (vt_map_raw(f.fd, h, 0, over[i].va, over[i].pages * VT_PAGE, 0) != -1 ||
		    errno != EEXIST)
			vtest_fail(__FILE__, __LINE__, "%s: expected EEXIST, got %s",
				   over[i].what, strerror(errno));
	}
	vt_vm_stats(f.fd, &after);
	VT_ASSERT_STATS_EQ(&after, &before);

	/* Two maps of one call that overlap each other, in a free range. */
	two[0] = vt_op_map(h, 0, f.base + VT_MIB, 4 * VT_PAGE, 0);
	two[1] = vt_op_map(h, 0, f.base + VT_MIB + 3 * VT_PAGE, 4 * VT_PAGE, 0);
	VT_ASSERT_ERRNO(vt_vm_bind_raw(f.fd, two, 2), EEXIST);
	two[1] = vt_op_map(h, 0, f.base + VT_MIB, 4 * VT_PAGE, 0);
	VT_ASSERT_ERRNO(vt_vm_bind_raw(f.fd, two, 2), EEXIST);
	vt_vm_stats(f.fd, &after);
	VT_ASSERT_STATS_EQ(&after, &before);

	/* Right next to A on both sides is free. */
	vt_map(f.fd, h, 0, a - 16 * VT_PAGE, 16 * VT_PAGE, 0);
	vt_map(f.fd, h, 0, a + 16 * VT_PAGE, 16 * VT_PAGE, 0);
	expect_stats(f.fd, 3, 48 * VT_PAGE);
}

/* More operations than max_bind_ops: E2BIG; exactly max_bind_ops works. */
VTEST(e2big)
{
	struct fx f = fx_open();
	__u32 max = f.info.max_bind_ops, i;
	struct drm_vaccel_vm_bind_op *ops = calloc(max + 1, sizeof(*ops));
	__u32 h = vt_bo_create(f.fd, VT_PAGE, 0);

	VT_ASSERT(ops && max >= 2);
	/* Unmaps of free ranges are valid operations. */
	for (i = 0; i <= max; i++)
		ops[i] = vt_op_unmap(f.base + (__u64)i * VT_PAGE, VT_PAGE);
	VT_ASSERT_ERRNO(vt_vm_bind_raw(f.fd, ops, max + 1), E2BIG);
	VT_ASSERT_ERRNO(vt_vm_bind_raw(f.fd, ops, 0xffffffff), E2BIG);
	ops[0] = vt_op_map(h, 0, f.base, VT_PAGE, 0);
	VT_ASSERT_ERRNO(vt_vm_bind_raw(f.fd, ops, max + 1), E2BIG);
	expect_empty(&f);

	/* max_bind_ops operations: one map, then unmaps, the last of the map. */
	ops[max - 1] = vt_op_unmap(f.base, VT_PAGE);
	VT_ASSERT_EQ(vt_vm_bind_raw(f.fd, ops, max), 0);
	expect_empty(&f);
	VT_ASSERT_EQ(vt_vm_bind_raw(f.fd, ops, max - 1), 0);
	expect_stats(f.fd, 1, VT_PAGE);
	free(ops);
}

/* An array the kernel cannot read: EFAULT, and nothing of it applied. */
VTEST(efault)
{
	struct fx f = fx_open();
	__u32 h = vt_bo_create(f.fd, VT_PAGE, 0);
	struct drm_vaccel_vm_bind_op op = vt_op_map(h, 0, f.base, VT_PAGE, 0);
	struct drm_vaccel_vm_bind_op *ops;
	char *map;

	VT_ASSERT_ERRNO(vt_vm_bind_full(f.fd, NULL, sizeof(op), 1, 0, 0), EFAULT);
	VT_ASSERT_ERRNO(vt_vm_bind_full(f.fd, (void *)8, sizeof(op), 1, 0, 0), EFAULT);
	VT_ASSERT_ERRNO(vt_vm_bind_full(f.fd, (void *)-4096L, sizeof(op), 1, 0, 0),
			EFAULT);

	/* The second op lies in a page that is gone: the first is not applied. */
	map = mmap(NULL, 2 * VT_PAGE, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	VT_ASSERT(map != MAP_FAILED);
	VT_ASSERT_EQ(munmap(map + VT_PAGE, VT_PAGE), 0);
	ops = (struct drm_vaccel_vm_bind_op *)(map + VT_PAGE - sizeof(op));
	ops[0] = op;
	VT_ASSERT_ERRNO(vt_vm_bind_raw(f.fd, ops, 2), EFAULT);
	/* Half of the second op readable, half not. */
	ops = (struct drm_vaccel_vm_bind_op *)(map + VT_PAGE - sizeof(op) - 16);
	ops[0] = op;
	memset((char *)&ops[1], 0, 16);
	VT_ASSERT_ERRNO(vt_vm_bind_raw(f.fd, ops, 2), EFAULT);
	expect_empty(&f);

	/* The same op where it can be read works. */
	ops = (struct drm_vaccel_vm_bind_op *)(map + VT_PAGE - sizeof(op));
	ops[0] = op;
	VT_ASSERT_EQ(vt_vm_bind_raw(f.fd, ops, 1), 0);
	expect_stats(f.fd, 1, VT_PAGE);
	munmap(map, VT_PAGE);
}

/* The stride of the array: larger with a zero tail works, else EINVAL. */
VTEST(stride)
{
	const size_t sz = sizeof(struct drm_vaccel_vm_bind_op);
	static const __u32 small[] = { 0, 1, 8, 16, 32, sizeof(struct drm_vaccel_vm_bind_op) - 8,
				       sizeof(struct drm_vaccel_vm_bind_op) - 1 };
	struct fx f = fx_open();
	__u32 h = vt_bo_create(f.fd, 4 * VT_PAGE, 0);
	unsigned char buf[2 * 4096];
	struct drm_vaccel_vm_bind_op two[2];
	__u32 stride;
	unsigned int i, pos;

	two[0] = vt_op_map(h, 0, f.base, 4 * VT_PAGE, 0);
	two[1] = vt_op_unmap(f.base + VT_PAGE, VT_PAGE);

	/* stride == sizeof(op). */
	VT_ASSERT_EQ(vt_vm_bind_full(f.fd, two, sz, 2, 0, 0), 0);
	expect_stats(f.fd, 2, 3 * VT_PAGE);
	vt_unmap(f.fd, f.base, 4 * VT_PAGE);

	/* Larger strides with zero tails: the ops read the same. */
	for (stride = sz + 8; stride <= 4096; stride = stride < 128 ? stride + 8 : stride * 2) {
		memset(buf, 0, sizeof(buf));
		memcpy(buf, &two[0], sz);
		memcpy(buf + stride, &two[1], sz);
		if (vt_vm_bind_full(f.fd, buf, stride, 2, 0, 0))
			vtest_fail(__FILE__, __LINE__, "stride %u: %s", stride,
				   strerror(errno));
		expect_stats(f.fd, 2, 3 * VT_PAGE);
		vt_unmap(f.fd, f.base, 4 * VT_PAGE);
	}

	/* A non-zero byte in the tail, of the first or the second op. */
	stride = sz + 16;
	for (pos = sz; pos < stride; pos++) {
		for (i = 0; i < 2; i++) {
			memset(buf, 0, sizeof(buf));
			memcpy(buf, &two[0], sz);
			memcpy(buf + stride, &two[1], sz);
			buf[i * stride + pos] = 0x01;
			errno = 0;
			if (vt_vm_bind_full(f.fd, buf, stride, 2, 0, 0) != -1 || errno != EINVAL)
				vtest_fail(__FILE__, __LINE__,
					   "stride %u, byte %u of op %u set: expected EINVAL, got %s",
					   stride, pos, i, strerror(errno));
		}
	}
	expect_empty(&f);

	/* Smaller than the op: the fields past the stride would be lost. */
	for (i = 0; i < ARRAY_SIZE(small); i++) {
		memset(buf, 0, sizeof(buf));
		memcpy(buf, &two[0], sz);
		errno = 0;
		if (vt_vm_bind_full(f.fd, buf, small[i], 1, 0, 0) != -1 || errno != EINVAL)
			vtest_fail(__FILE__, __LINE__, "stride %u: expected EINVAL, got %s",
				   small[i], strerror(errno));
	}
	expect_empty(&f);
}

/* A call that fails at its last op leaves the VM exactly as it was. */
VTEST(all_or_nothing)
{
	struct fx f = fx_open();
	__u32 ha = vt_bo_create(f.fd, 8 * VT_PAGE, 0);
	__u32 hb = vt_bo_create(f.fd, 8 * VT_PAGE, 0);
	__u32 hc = vt_bo_create(f.fd, 8 * VT_PAGE, 0);
	__u64 va = f.base, vb = f.base + 16 * VT_PAGE, vc = f.base + 4 * VT_MIB;
	struct drm_vaccel_vm_bind_op ops[4];
	struct drm_vaccel_vm_stats before, after;
	char *pt_before, *pt_after, *m_before, *m_after;
	int err[3] = { EINVAL, ENOENT, EEXIST };
	unsigned int i;

	/* C is mapped before; the failing calls also try to unmap it. */
	vt_map(f.fd, hc, 0, vc, 8 * VT_PAGE, 0);
	vt_vm_stats(f.fd, &before);
	pt_before = vt_vm_debugfs(f.fd, "page_table");
	m_before = vt_vm_debugfs(f.fd, "mappings");

	for (i = 0; i < ARRAY_SIZE(err); i++) {
		ops[0] = vt_op_map(ha, 0, va, 8 * VT_PAGE, 0);
		ops[1] = vt_op_map(hb, 0, vb, 8 * VT_PAGE, 0);
		ops[2] = vt_op_unmap(vc, 8 * VT_PAGE);
		if (err[i] == EINVAL)
			ops[3] = vt_op_map(hb, 0x800, vb + VT_MIB, VT_PAGE, 0);
		else if (err[i] == ENOENT)
			ops[3] = vt_op_map(0x7ffffff0, 0, vb + VT_MIB, VT_PAGE, 0);
		else
			ops[3] = vt_op_map(hc, 0, va + 4 * VT_PAGE, VT_PAGE, 0); /* over A */
		VT_ASSERT_ERRNO(vt_vm_bind_raw(f.fd, ops, 4), err[i]);

		vt_vm_stats(f.fd, &after);
		VT_ASSERT_STATS_EQ(&after, &before);
		pt_after = vt_vm_debugfs(f.fd, "page_table");
		m_after = vt_vm_debugfs(f.fd, "mappings");
		VT_ASSERT(!strcmp(pt_after, pt_before));
		VT_ASSERT(!strcmp(m_after, m_before));
		free(pt_after);
		free(m_after);
		VT_ASSERT_EQ(bo_mappings(f.fd, ha), 0);
		VT_ASSERT_EQ(bo_mappings(f.fd, hb), 0);
		VT_ASSERT_EQ(bo_mappings(f.fd, hc), 1);
	}

	/* A and B can be mapped afterwards, and C unmapped, in one call. */
	VT_ASSERT_EQ(vt_vm_bind_raw(f.fd, ops, 3), 0);
	expect_stats(f.fd, 2, 16 * VT_PAGE);
	VT_ASSERT_EQ(bo_mappings(f.fd, hc), 0);
	free(pt_before);
	free(m_before);
}

/* Operations of one call apply in order: unmap then map the same range. */
VTEST(ops_in_order)
{
	struct fx f = fx_open();
	__u32 h1 = vt_bo_create(f.fd, 4 * VT_PAGE, 0);
	__u32 h2 = vt_bo_create(f.fd, 4 * VT_PAGE, 0);
	struct drm_vaccel_vm_bind_op ops[3];
	struct vt_mapping m;

	vt_map(f.fd, h1, 0, f.base, 4 * VT_PAGE, 0);
	ops[0] = vt_op_unmap(f.base, 4 * VT_PAGE);
	ops[1] = vt_op_map(h2, VT_PAGE, f.base, 2 * VT_PAGE, DRM_VACCEL_VM_BIND_NO_EXEC);
	ops[2] = vt_op_map(h1, 0, f.base + 2 * VT_PAGE, 2 * VT_PAGE, 0);
	VT_ASSERT_EQ(vt_vm_bind_raw(f.fd, ops, 3), 0);
	expect_stats(f.fd, 2, 4 * VT_PAGE);
	VT_ASSERT_EQ(bo_mappings(f.fd, h1), 1);
	VT_ASSERT_EQ(bo_mappings(f.fd, h2), 1);
	m = vt_mapping_at(f.fd, f.base);
	VT_ASSERT(m.end == f.base + 2 * VT_PAGE && m.offset == VT_PAGE);
	VT_ASSERT(!strcmp(m.perm, "rw-"));
}

/* Unmapping the middle of a mapping splits it; the hole can be mapped again. */
VTEST(unmap_splits)
{
	struct fx f = fx_open();
	__u32 h = vt_bo_create(f.fd, 16 * VT_PAGE, 0);
	__u64 v = f.base;
	struct vt_mapping *m;
	struct vt_pte *t;
	unsigned char *cpu;
	size_t n, i;

	cpu = vt_bo_mmap(f.fd, h, 16 * VT_PAGE);
	vt_fill_pages(cpu, 16, 1);
	vt_map(f.fd, h, 0, v, 16 * VT_PAGE, 0);
	vt_unmap(f.fd, v + 4 * VT_PAGE, 4 * VT_PAGE);
	expect_stats(f.fd, 2, 12 * VT_PAGE);
	VT_ASSERT_EQ(bo_mappings(f.fd, h), 2);

	/* The outer parts keep their BO offsets. */
	n = vt_mappings(f.fd, &m);
	VT_ASSERT_EQ(n, 2);
	for (i = 0; i < n; i++) {
		if (m[i].start == v) {
			VT_ASSERT(m[i].end == v + 4 * VT_PAGE && m[i].offset == 0);
		} else {
			VT_ASSERT(m[i].start == v + 8 * VT_PAGE);
			VT_ASSERT(m[i].end == v + 16 * VT_PAGE);
			VT_ASSERT(m[i].offset == 8 * VT_PAGE);
		}
	}
	free(m);
	n = vt_page_table(f.fd, &t);
	VT_ASSERT_EQ(n, 12);
	for (i = 4; i < 8; i++)
		VT_ASSERT(!vt_pte_find(t, n, v + i * VT_PAGE));
	free(t);
	vt_check_translation(f.fd, v, cpu, 4, true, true);
	vt_check_translation(f.fd, v + 8 * VT_PAGE, cpu + 8 * VT_PAGE, 8, true, true);

	/* The remaining parts are mapped: EEXIST over them. */
	VT_ASSERT_ERRNO(vt_map_raw(f.fd, h, 0, v, 4 * VT_PAGE, 0), EEXIST);
	VT_ASSERT_ERRNO(vt_map_raw(f.fd, h, 0, v + 8 * VT_PAGE, 8 * VT_PAGE, 0), EEXIST);
	VT_ASSERT_ERRNO(vt_map_raw(f.fd, h, 0, v + 3 * VT_PAGE, 2 * VT_PAGE, 0), EEXIST);
	VT_ASSERT_ERRNO(vt_map_raw(f.fd, h, 0, v + 7 * VT_PAGE, 2 * VT_PAGE, 0), EEXIST);

	/* The hole takes its pages back. */
	vt_map(f.fd, h, 4 * VT_PAGE, v + 4 * VT_PAGE, 4 * VT_PAGE, 0);
	expect_stats(f.fd, 3, 16 * VT_PAGE);
	vt_check_translation(f.fd, v, cpu, 16, true, true);

	/* Splitting a split part, one page at the edge of each. */
	vt_unmap(f.fd, v + 3 * VT_PAGE, 2 * VT_PAGE);
	expect_stats(f.fd, 3, 14 * VT_PAGE);
	vt_unmap(f.fd, v, 16 * VT_PAGE);
	expect_empty(&f);
}

/* One unmap across several mappings and holes. */
VTEST(unmap_across)
{
	struct fx f = fx_open();
	__u32 h[3];
	__u64 v = f.base;
	struct vt_mapping *m;
	struct vt_pte *t;
	unsigned int i;
	size_t n;

	for (i = 0; i < 3; i++) {
		h[i] = vt_bo_create(f.fd, 4 * VT_PAGE, 0);
		vt_map(f.fd, h[i], 0, v + i * 8 * VT_PAGE, 4 * VT_PAGE, 0);
	}
	expect_stats(f.fd, 3, 12 * VT_PAGE);

	/* From the middle of the first to the middle of the third. */
	vt_unmap(f.fd, v + 2 * VT_PAGE, 16 * VT_PAGE);
	expect_stats(f.fd, 2, 4 * VT_PAGE);
	VT_ASSERT_EQ(bo_mappings(f.fd, h[0]), 1);
	VT_ASSERT_EQ(bo_mappings(f.fd, h[1]), 0);
	VT_ASSERT_EQ(bo_mappings(f.fd, h[2]), 1);
	n = vt_mappings(f.fd, &m);
	VT_ASSERT_EQ(n, 2);
	for (i = 0; i < n; i++) {
		if (m[i].start == v)
			VT_ASSERT(m[i].end == v + 2 * VT_PAGE && m[i].offset == 0);
		else
			VT_ASSERT(m[i].start == v + 18 * VT_PAGE &&
				  m[i].end == v + 20 * VT_PAGE && m[i].offset == 2 * VT_PAGE);
	}
	free(m);
	n = vt_page_table(f.fd, &t);
	VT_ASSERT_EQ(n, 4);
	VT_ASSERT(vt_pte_find(t, n, v + VT_PAGE));
	VT_ASSERT(vt_pte_find(t, n, v + 19 * VT_PAGE));
	free(t);

	/* Only holes: fine, nothing changes. */
	vt_unmap(f.fd, v + 4 * VT_PAGE, 12 * VT_PAGE);
	vt_unmap(f.fd, v + 32 * VT_MIB, VT_MIB);
	expect_stats(f.fd, 2, 4 * VT_PAGE);

	/* The whole VA range at once. */
	vt_unmap(f.fd, f.info.va_start, f.info.va_end - f.info.va_start);
	expect_empty(&f);
}

/* A mapping keeps its BO after GEM_CLOSE; the BO goes with the unmap. */
VTEST(mapping_keeps_bo)
{
	struct fx f = fx_open();
	struct vt_dev_mem m0, m1;
	unsigned char *cpu;
	__u32 h;

	vt_dev_mem(f.fd, &m0);
	h = vt_bo_create(f.fd, 8 * VT_PAGE, 0);
	cpu = vt_bo_mmap(f.fd, h, 8 * VT_PAGE);
	vt_fill_pages(cpu, 8, 2);
	vt_map(f.fd, h, 0, f.base, 8 * VT_PAGE, 0);
	vt_gem_close(f.fd, h);

	expect_stats(f.fd, 1, 8 * VT_PAGE);
	vt_check_translation(f.fd, f.base, cpu, 8, true, true);
	/* The CPU mapping keeps it too: drop it to see only the GPU's. */
	VT_ASSERT_EQ(munmap(cpu, 8 * VT_PAGE), 0);
	vt_dev_mem(f.fd, &m1);
	VT_ASSERT_EQ(m1.bo_count, m0.bo_count + 1);
	VT_ASSERT_EQ(m1.bo_bytes, m0.bo_bytes + 8 * (long long)VT_PAGE);

	vt_unmap(f.fd, f.base, 8 * VT_PAGE);
	vt_dev_mem(f.fd, &m1);
	VT_ASSERT_EQ(m1.bo_count, m0.bo_count);
	VT_ASSERT_EQ(m1.bo_bytes, m0.bo_bytes);
	expect_empty(&f);
}

#define SAME_BO_TIMES	256

/* One BO at many VAs: every mapping reaches the same pages. */
VTEST(same_bo_many_times)
{
	struct fx f = fx_open();
	__u32 h = vt_bo_create(f.fd, 4 * VT_PAGE, 0);
	__u32 batch = f.info.max_bind_ops < 64 ? f.info.max_bind_ops : 64;
	struct drm_vaccel_vm_bind_op ops[64];
	unsigned char *cpu = vt_bo_mmap(f.fd, h, 4 * VT_PAGE);
	__u64 stride = 8 * VT_PAGE;
	struct vt_pte *t;
	unsigned int i, j;
	size_t n;

	vt_fill_pages(cpu, 4, 3);
	for (i = 0; i < SAME_BO_TIMES; i += j) {
		for (j = 0; j < batch && i + j < SAME_BO_TIMES; j++)
			ops[j] = vt_op_map(h, 0, f.base + (i + j) * stride, 4 * VT_PAGE, 0);
		VT_ASSERT_EQ(vt_vm_bind_raw(f.fd, ops, j), 0);
	}
	expect_stats(f.fd, SAME_BO_TIMES, SAME_BO_TIMES * 4 * VT_PAGE);
	VT_ASSERT_EQ(bo_mappings(f.fd, h), SAME_BO_TIMES);

	n = vt_page_table(f.fd, &t);
	VT_ASSERT_EQ(n, SAME_BO_TIMES * 4);
	for (i = 1; i < SAME_BO_TIMES; i++)
		for (j = 0; j < 4; j++)
			VT_ASSERT(vt_pte_find(t, n, f.base + i * stride + j * VT_PAGE) ==
				  vt_pte_find(t, n, f.base + j * VT_PAGE));
	free(t);
	vt_check_translation(f.fd, f.base + 100 * stride, cpu, 4, true, true);

	vt_unmap(f.fd, f.base, SAME_BO_TIMES * stride);
	VT_ASSERT_EQ(bo_mappings(f.fd, h), 0);
	expect_empty(&f);
}

/* Each GPU page is the CPU's page at the same BO offset. */
VTEST(translation)
{
	struct fx f = fx_open();
	const size_t pages = 64;
	__u32 h = vt_bo_create(f.fd, pages * VT_PAGE, 0);
	unsigned char *cpu = vt_bo_mmap(f.fd, h, pages * VT_PAGE);
	__u64 w = f.base + 8 * VT_MIB + 5 * VT_PAGE;	/* not 64 KiB aligned */
	struct vt_mapping m;

	vt_fill_pages(cpu, pages, 4);
	vt_map(f.fd, h, 0, f.base, pages * VT_PAGE, 0);
	vt_map(f.fd, h, 16 * VT_PAGE, w, 8 * VT_PAGE, 0);
	vt_check_translation(f.fd, f.base, cpu, pages, true, true);
	vt_check_translation(f.fd, w, cpu + 16 * VT_PAGE, 8, true, true);

	m = vt_mapping_at(f.fd, f.base);
	VT_ASSERT(m.end == f.base + pages * VT_PAGE && m.offset == 0);
	VT_ASSERT(!strcmp(m.perm, "rwx"));
	m = vt_mapping_at(f.fd, w);
	VT_ASSERT(m.end == w + 8 * VT_PAGE && m.offset == 16 * VT_PAGE);
	VT_ASSERT(!strcmp(m.perm, "rwx"));

	/* The GPU sees later CPU writes: same pages, not a copy. */
	vt_fill_pages(cpu, pages, 5);
	vt_check_translation(f.fd, f.base, cpu, pages, true, true);
}

/* READ_ONLY clears WRITE, NO_EXEC clears EXEC, in the PTEs and the mappings. */
VTEST(permission_flags)
{
	static const struct {
		__u32 flags;
		bool write, exec;
		const char *perm;
	} cases[] = {
		{ 0, true, true, "rwx" },
		{ DRM_VACCEL_VM_BIND_READ_ONLY, false, true, "r-x" },
		{ DRM_VACCEL_VM_BIND_NO_EXEC, true, false, "rw-" },
		{ DRM_VACCEL_VM_BIND_READ_ONLY | DRM_VACCEL_VM_BIND_NO_EXEC, false, false, "r--" },
	};
	struct fx f = fx_open();
	__u32 h = vt_bo_create(f.fd, 4 * VT_PAGE, 0);
	unsigned char *cpu = vt_bo_mmap(f.fd, h, 4 * VT_PAGE);
	struct vt_mapping m;
	unsigned int i;
	__u64 va;

	vt_fill_pages(cpu, 4, 6);
	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		va = f.base + i * VT_MIB;
		vt_map(f.fd, h, 0, va, 4 * VT_PAGE, cases[i].flags);
		vt_check_translation(f.fd, va, cpu, 4, cases[i].write, cases[i].exec);
		m = vt_mapping_at(f.fd, va);
		if (strcmp(m.perm, cases[i].perm))
			vtest_fail(__FILE__, __LINE__, "flags 0x%x: perm %s, expected %s",
				   cases[i].flags, m.perm, cases[i].perm);
	}
	/* A split keeps the flags of the part that stays. */
	vt_unmap(f.fd, f.base + 3 * VT_MIB + VT_PAGE, VT_PAGE);
	m = vt_mapping_at(f.fd, f.base + 3 * VT_MIB + 2 * VT_PAGE);
	VT_ASSERT(!strcmp(m.perm, "r--"));
	vt_check_translation(f.fd, f.base + 3 * VT_MIB + 2 * VT_PAGE, cpu + 2 * VT_PAGE, 2,
			     false, false);
}

/* Each file has its own VM: the same VA maps different BOs in each. */
VTEST(vm_per_file)
{
	struct fx a = fx_open(), b = fx_open();
	__u32 ha = vt_bo_create(a.fd, 4 * VT_PAGE, 0);
	__u32 hb = vt_bo_create(b.fd, 4 * VT_PAGE, 0);
	unsigned char *ca = vt_bo_mmap(a.fd, ha, 4 * VT_PAGE);
	unsigned char *cb = vt_bo_mmap(b.fd, hb, 4 * VT_PAGE);

	VT_ASSERT(vt_client_id(a.fd) != vt_client_id(b.fd));
	vt_fill_pages(ca, 4, 7);
	vt_fill_pages(cb, 4, 8);
	vt_map(a.fd, ha, 0, a.base, 4 * VT_PAGE, 0);
	expect_empty(&b);
	vt_map(b.fd, hb, 0, a.base, 4 * VT_PAGE, DRM_VACCEL_VM_BIND_READ_ONLY);
	vt_check_translation(a.fd, a.base, ca, 4, true, true);
	vt_check_translation(b.fd, a.base, cb, 4, false, true);
	vt_unmap(a.fd, a.base, 4 * VT_PAGE);
	expect_empty(&a);
	expect_stats(b.fd, 1, 4 * VT_PAGE);
}

/* Closing a file with mappings frees its VM: the device's counters return. */
VTEST(close_with_mappings)
{
	int probe = vt_open_first();
	struct vt_dev_mem m0, m1;
	struct fx f;
	__u32 h;

	vt_dev_mem(probe, &m0);
	f = fx_open();
	h = vt_bo_create(f.fd, 64 * VT_PAGE, 0);
	vt_map(f.fd, h, 0, f.base, 64 * VT_PAGE, 0);
	vt_map(f.fd, h, 0, f.info.va_end - 64 * VT_PAGE, 64 * VT_PAGE, 0);
	vt_dev_mem(probe, &m1);
	VT_ASSERT_EQ(m1.vms, m0.vms + 1);
	VT_ASSERT(m1.pt_pages > m0.pt_pages);
	VT_ASSERT_EQ(m1.bo_count, m0.bo_count + 1);
	close(f.fd);
	vt_dev_mem(probe, &m1);
	VT_ASSERT(vt_dev_mem_equal(&m1, &m0));
}

VTEST_MAIN()
