// SPDX-License-Identifier: MIT
/*
 * Copyright 2026 The vaccel authors
 *
 * test_opencl_c.c - OpenCL C kernels, built by vaccel-cc
 * (tests/vm/kernels/opencl.cl), launched through libvaccel with argument
 * blocks laid out as vaccel-cc documents them: the 64-byte header (global
 * offset, work dimension), then each parameter at its natural alignment.
 *
 * - a kernel-scope __local array and barrier(): every workgroup has its
 *   own copy;
 * - every kind of parameter: the integer and floating-point types, a
 *   vector, a struct by value (which the kernel may change), a __local
 *   pointer into the launch's dynamic local memory, a __constant pointer;
 * - the work-item functions in three dimensions, with partial workgroups
 *   and a global offset, and in one dimension;
 * - a kernel that calls another.
 *
 * Needs the default topology.
 */
#include "vt_cl.h"

VT_INCBIN(cl_module, VT_KERNELS "/opencl.elf");

static void vadd_through_local(const char *kernel)
{
	const uint32_t grid[3] = { 1024, 1, 1 }, wg[3] = { 64, 1, 1 }, n = 1000;
	struct vt_cl c = vt_cl_open(VT_MODULE(cl_module));
	struct vt_cl_buf a = vt_cl_buf_new(c.dev, 4096), b = vt_cl_buf_new(c.dev, 4096);
	struct vt_cl_buf out = vt_cl_buf_new(c.dev, 4096);
	float *pa = a.cpu, *pb = b.cpu, *pc = out.cpu;
	struct vt_cl_block blk = vt_cl_block_new(NULL, 1);
	unsigned int i;

	for (i = 0; i < 1024; i++) {
		pa[i] = (float)i;
		pb[i] = 0.5f * (float)i;
		pc[i] = -1.0f;
	}
	VT_CL_PUT(&blk, a.va);
	VT_CL_PUT(&blk, b.va);
	VT_CL_PUT(&blk, out.va);
	VT_CL_PUT(&blk, n);
	vt_cl_run(&c, kernel, grid, wg, &blk, 0);
	for (i = 0; i < 1024; i++) {
		unsigned int from = i / 64 * 64 + (i % 64 + 1) % 64;
		float want = i < n ? pa[from] + pb[i] : -1.0f;

		if (pc[i] != want)
			vtest_fail(__FILE__, __LINE__, "c[%u] = %g, expected %g", i,
				   (double)pc[i], (double)want);
	}
	vt_cl_close(&c);
}

/* A kernel-scope __local array: each workgroup has its own, after barrier(). */
VTEST(local_array_and_barrier)
{
	vadd_through_local("vadd_local");
}

/* A kernel that calls another runs the callee with its own arguments. */
VTEST(kernel_calls_kernel)
{
	vadd_through_local("twice");
}

/*
 * Every kind of parameter at its natural alignment: the result of each,
 * as work-item 0 read it, and the kernel's change to its copy of the
 * struct, which the read-only block could not take.
 */
VTEST(every_parameter_kind)
{
	const uint32_t grid[3] = { 32, 1, 1 }, wg[3] = { 32, 1, 1 };
	struct vt_cl c = vt_cl_open(VT_MODULE(cl_module));
	struct vt_cl_buf out = vt_cl_buf_new(c.dev, 4096), k = vt_cl_buf_new(c.dev, 4096);
	struct vt_cl_block blk = vt_cl_block_new(NULL, 1);
	int8_t ch = -5;
	uint8_t uc = 250;
	int16_t s = -30000;
	uint16_t us = 60000;
	int32_t i = -2000000000;
	uint32_t u = 4000000000u;
	int64_t l = -9000000000000000000ll;
	uint64_t ul = 18000000000000000000ull, local_offset = 16;
	float f = 1.25f, v[4] __attribute__((aligned(16))) = { 1.5f, 2.0f, 3.0f, 4.25f };
	double d = -0.1;
	struct { float a; int32_t b[7]; } st = { 2.5f, { 1, 2, 3, 4, 5, 6, 77 } };
	const uint64_t *o = out.cpu;
	float f12 = 3.5f;
	uint32_t bits;
	uint64_t dbits;

	((int32_t *)k.cpu)[2] = 30;
	VT_CL_PUT(&blk, out.va);
	VT_CL_PUT(&blk, ch);
	VT_CL_PUT(&blk, uc);
	VT_CL_PUT(&blk, s);
	VT_CL_PUT(&blk, us);
	VT_CL_PUT(&blk, i);
	VT_CL_PUT(&blk, u);
	VT_CL_PUT(&blk, l);
	VT_CL_PUT(&blk, ul);
	VT_CL_PUT(&blk, f);
	VT_CL_PUT(&blk, d);
	vt_cl_put(&blk, v, sizeof(v), 16);
	VT_CL_PUT(&blk, st);
	VT_CL_PUT(&blk, local_offset);
	VT_CL_PUT(&blk, k.va);
	VT_ASSERT_EQ(blk.size, 192);
	vt_cl_run(&c, "args", grid, wg, &blk, 16 + 32 * 4);

	VT_ASSERT_EQ((int64_t)o[0], -5);
	VT_ASSERT_EQ(o[1], 250);
	VT_ASSERT_EQ((int64_t)o[2], -30000);
	VT_ASSERT_EQ(o[3], 60000);
	VT_ASSERT_EQ((int64_t)o[4], -2000000000);
	VT_ASSERT_EQ(o[5], 4000000000u);
	VT_ASSERT_EQ((int64_t)o[6], l);
	VT_ASSERT_EQ(o[7], ul);
	memcpy(&bits, &f, 4);
	VT_ASSERT_EQ(o[8], bits);
	memcpy(&dbits, &d, 8);
	VT_ASSERT_EQ(o[9], dbits);
	memcpy(&bits, &v[0], 4);
	VT_ASSERT_EQ(o[10], bits);
	memcpy(&bits, &v[3], 4);
	VT_ASSERT_EQ(o[11], bits);
	memcpy(&bits, &f12, 4);
	VT_ASSERT_EQ(o[12], bits);
	VT_ASSERT_EQ(o[13], 77);
	VT_ASSERT_EQ(o[14], 31 * 3);
	VT_ASSERT_EQ(o[15], 30);
	vt_cl_close(&c);
}

/* Checks the words kernel "ids" wrote for a launch of @grid in @wg. */
static void check_ids(const uint32_t *words, const uint32_t grid[3],
		      const uint32_t wg[3], const uint64_t offset[3],
		      uint32_t work_dim)
{
	unsigned int x, y, z, d, groups[3];

	for (d = 0; d < 3; d++)
		groups[d] = (grid[d] + wg[d] - 1) / wg[d];
	for (z = 0; z < grid[2]; z++)
		for (y = 0; y < grid[1]; y++)
			for (x = 0; x < grid[0]; x++) {
				const uint32_t *o = words + ((z * grid[1] + y) * grid[0] + x) * 8;
				uint32_t g[3] = { x, y, z }, want[8];

				for (d = 0; d < 3; d++)
					want[d] = g[d] + offset[d];
				want[3] = x % wg[0] + 10 * (y % wg[1]) + 100 * (z % wg[2]);
				want[4] = x / wg[0] + 10 * (y / wg[1]) + 100 * (z / wg[2]);
				want[5] = groups[0] + 10 * groups[1] + 100 * groups[2];
				want[6] = wg[0] + 10 * wg[1] + 100 * wg[2];
				want[7] = work_dim + 10;
				for (d = 0; d < 8; d++)
					if (o[d] != want[d])
						vtest_fail(__FILE__, __LINE__,
							   "item (%u, %u, %u) word %u: %u, expected %u",
							   x, y, z, d, o[d], want[d]);
			}
}

/*
 * The work-item functions over 10 x 6 x 3 in workgroups of 4 x 4 x 2,
 * partial at the edges, with a global offset; a dimension past the third
 * has size 1, id 0 and offset 0.  Then a launch of one dimension.
 */
VTEST(work_item_functions)
{
	const uint32_t grid[3] = { 10, 6, 3 }, wg[3] = { 4, 4, 2 };
	const uint32_t grid1[3] = { 5, 1, 1 }, wg1[3] = { 5, 1, 1 };
	const uint64_t offset[3] = { 100, 200, 300 }, none[3] = { 0, 0, 0 };
	struct vt_cl c = vt_cl_open(VT_MODULE(cl_module));
	struct vt_cl_buf out = vt_cl_buf_new(c.dev, 10 * 6 * 3 * 8 * 4);
	struct vt_cl_block blk = vt_cl_block_new(offset, 3);

	VT_CL_PUT(&blk, out.va);
	vt_cl_run(&c, "ids", grid, wg, &blk, 0);
	check_ids(out.cpu, grid, wg, offset, 3);

	blk = vt_cl_block_new(NULL, 1);
	VT_CL_PUT(&blk, out.va);
	vt_cl_run(&c, "ids", grid1, wg1, &blk, 0);
	check_ids(out.cpu, grid1, wg1, none, 1);
	vt_cl_close(&c);
}

VTEST_MAIN()
