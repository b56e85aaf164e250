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

int main(void)
{
	struct clt t;
	size_t g1[] = { 10 }, l1[] = { 5 };
	size_t off2[] = { 3, 7 }, g2[] = { 8, 6 }, l2[] = { 4, 3 };
	size_t g3[] = { 4, 3, 6 }, l3[] = { 2, 3, 2 }, off3[] = { 1, 0, 2 };

	clt_init(&t);
	cl_program p = clt_build(&t, src, NULL);
	cl_kernel k = clt_kernel(p, "ids");

	clt_run_slots(&t, k, 1, NULL, g1, l1, 16, 0);
	clt_run_slots(&t, k, 2, off2, g2, l2, 16, 0);
	clt_run_slots(&t, k, 3, off3, g3, l3, 16, 0);
	clReleaseKernel(k);
	clReleaseProgram(p);
	clt_fini(&t);
	return 0;
}
