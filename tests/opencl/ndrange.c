// SPDX-License-Identifier: MIT
/*
 * Copyright 2026 The vaccel authors
 *
 * DOC: ndrange - 1D, 2D and 3D ranges and the work-item functions
 *
 * Each work-item writes get_work_dim(), its global, local and group ids,
 * get_num_groups(), get_local_size() and get_global_offset() into its
 * slot, in 2D with a global offset and in 3D with explicit local sizes.
 * The host prints every slot: the whole map must be identical.
 */
#include "clt.h"

static const char *src =
	"__kernel void ids(__global int *o)\n"
	"{\n"
	"	size_t lin = (get_global_id(2) - get_global_offset(2)) * get_global_size(1) * get_global_size(0)\n"
	"		+ (get_global_id(1) - get_global_offset(1)) * get_global_size(0)\n"
	"		+ (get_global_id(0) - get_global_offset(0));\n"
	"	__global int *s = o + lin * 16;\n"
	"	s[0] = get_work_dim();\n"
	"	for (int d = 0; d < 3; d++) {\n"
	"		s[1 + d] = get_global_id(d);\n"
	"		s[4 + d] = get_local_id(d);\n"
	"		s[7 + d] = get_group_id(d);\n"
	"		s[10 + d] = get_num_groups(d);\n"
	"		s[13 + d] = get_local_size(d) * 100 + get_global_offset(d);\n"
	"	}\n"
	"}\n";

static void run(struct clt *t, cl_kernel k, cl_uint dim, const size_t *off,
		const size_t *gsz, const size_t *lsz)
{
	size_t items = 1, i;
	cl_uint d;

	for (d = 0; d < dim; d++)
		items *= gsz[d];
	cl_int *o = calloc(items * 16, sizeof(cl_int));
	cl_mem m = clt_buffer(t, CL_MEM_WRITE_ONLY, items * 16 * sizeof(cl_int), NULL);

	ARG(k, 0, m);
	CHECK(clEnqueueNDRangeKernel(t->queue, k, dim, off, gsz, lsz, 0, NULL, NULL));
	CHECK(clEnqueueReadBuffer(t->queue, m, CL_TRUE, 0, items * 16 * sizeof(cl_int), o,
				  0, NULL, NULL));
	printf("dim %u items %zu\n", dim, items);
	for (i = 0; i < items; i++) {
		for (d = 0; d < 16; d++)
			printf("%d%c", o[i * 16 + d], d == 15 ? '\n' : ' ');
	}
	clReleaseMemObject(m);
	free(o);
}

int main(void)
{
	struct clt t;
	size_t g1[] = { 10 }, l1[] = { 5 };
	size_t off2[] = { 3, 7 }, g2[] = { 8, 6 }, l2[] = { 4, 3 };
	size_t g3[] = { 4, 3, 6 }, l3[] = { 2, 3, 2 }, off3[] = { 1, 0, 2 };

	clt_init(&t);
	cl_program p = clt_build(&t, src, NULL);
	cl_kernel k = clt_kernel(p, "ids");

	run(&t, k, 1, NULL, g1, l1);
	run(&t, k, 2, off2, g2, l2);
	run(&t, k, 3, off3, g3, l3);
	clReleaseKernel(k);
	clReleaseProgram(p);
	clt_fini(&t);
	return 0;
}
