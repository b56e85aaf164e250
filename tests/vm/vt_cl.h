/* SPDX-License-Identifier: MIT */
/*
 * Copyright 2026 The vaccel authors
 *
 * vt_cl.h - OpenCL C kernels (built by vaccel-cc) launched through
 * libvaccel, as the tests see them: buffers with their CPU mapping and
 * GPU address, argument blocks laid out as vaccel-cc documents them (the
 * 64-byte header: global offset, work dimension, printf buffer; then each
 * parameter at its natural alignment), and a module on a compute queue.
 */
#ifndef VT_CL_H
#define VT_CL_H

#include <vaccel.h>

#include "vt_mem.h"

#define VT_CL_HEADER_SIZE	64

struct vt_cl_buf {
	struct vaccel_bo *bo;
	void *cpu;
	uint64_t va;
};

/* An argument block, built as the OpenCL C kernels' entries read it. */
struct vt_cl_block {
	unsigned char bytes[512];
	size_t size;
};

struct vt_cl {
	struct vaccel_device *dev;
	struct vaccel_queue *q;
	struct vaccel_module *mod;
};

/* A zeroed buffer of @size bytes, mapped. */
static inline struct vt_cl_buf vt_cl_buf_new(struct vaccel_device *dev, uint64_t size)
{
	struct vt_cl_buf b;

	VT_ASSERT_OK(vaccel_bo_alloc(dev, size, VACCEL_BO_GPU_NO_EXEC, &b.bo));
	VT_ASSERT_OK(vaccel_bo_map(b.bo, &b.cpu));
	b.va = vaccel_bo_va(b.bo);
	memset(b.cpu, 0, size);
	return b;
}

/* The header: the global offset and the work dimension, no printf buffer. */
static inline struct vt_cl_block vt_cl_block_new(const uint64_t offset[3], uint32_t work_dim)
{
	struct vt_cl_block b = { .size = VT_CL_HEADER_SIZE };

	memset(b.bytes, 0, sizeof(b.bytes));
	if (offset)
		memcpy(b.bytes, offset, 3 * sizeof(uint64_t));
	memcpy(b.bytes + 24, &work_dim, sizeof(work_dim));
	return b;
}

/* The printf buffer of the launch: its GPU address and size in the header. */
static inline void vt_cl_block_printf(struct vt_cl_block *b, uint64_t va, uint32_t size)
{
	memcpy(b->bytes + 32, &va, sizeof(va));
	memcpy(b->bytes + 40, &size, sizeof(size));
}

/* Appends a parameter of @size bytes at its alignment @align. */
static inline void vt_cl_put(struct vt_cl_block *b, const void *v, size_t size, size_t align)
{
	b->size = (b->size + align - 1) / align * align;
	VT_ASSERT(b->size + size <= sizeof(b->bytes));
	memcpy(b->bytes + b->size, v, size);
	b->size += size;
}

#define VT_CL_PUT(b, v)	vt_cl_put(b, &(v), sizeof(v), _Alignof(__typeof__(v)))

/* Opens device 0, a compute queue, and loads the module @image of @size bytes. */
static inline struct vt_cl vt_cl_open(const void *image, size_t size)
{
	char msg[VACCEL_MODULE_MSG_SIZE];
	struct vt_cl c;
	int ret;

	VT_ASSERT_OK(vaccel_device_open(0, &c.dev));
	VT_ASSERT_OK(vaccel_queue_create(c.dev, VACCEL_ENGINE_CLASS_COMPUTE,
					 VACCEL_PRIORITY_NORMAL, &c.q));
	ret = vaccel_module_load(c.dev, image, size, &c.mod, msg, sizeof(msg));
	if (ret)
		vtest_fail(__FILE__, __LINE__, "load: %s: %s", strerror(-ret), msg);
	return c;
}

static inline void vt_cl_close(struct vt_cl *c)
{
	vaccel_queue_destroy(c->q);
	vaccel_module_destroy(c->mod);
	vaccel_device_close(c->dev);
}

/* Launches kernel @name over @grid in @wg with @b and @local bytes, and waits. */
static inline void vt_cl_run(struct vt_cl *c, const char *name, const uint32_t grid[3],
			     const uint32_t wg[3], const struct vt_cl_block *b,
			     uint32_t local)
{
	struct vaccel_launch_options opts = { .dynamic_local_size = local };
	struct vaccel_kernel *k;

	VT_ASSERT_OK(vaccel_kernel_get(c->mod, name, &k));
	VT_ASSERT_OK(vaccel_launch_ex(c->q, k, grid, wg, b->bytes, b->size, &opts));
	VT_ASSERT_OK(vaccel_queue_finish(c->q));
}

#endif /* VT_CL_H */
