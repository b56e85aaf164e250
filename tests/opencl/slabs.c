// SPDX-License-Identifier: MIT
/*
 * Copyright 2026 The vaccel authors
 *
 * DOC: slabs - grids bigger than one launch, run as slabs
 *
 * vaccel runs a grid of more work-items than one launch takes as slabs
 * along its longest dimension.  A launch takes 2^32 work-items, too many
 * for a test under the interpreter, so the program sets the ICD's test
 * aid VACCEL_CL_SLAB_ITEMS to 600 (PoCL ignores it): 1D, 2D and 3D grids
 * with offsets and local sizes then run as two to four slabs, the last
 * one shorter.  Each work-item writes its ids, its group's, the grid's
 * sizes and offsets, and a sum over its workgroup through local memory
 * and a barrier; the host prints every slot, which must be PoCL's.
 */
#include "clt.h"

#define SLOT 19

static const char *src =
	"__kernel void ids(__global int *o, __local int *sum)\n"
	"{\n"
	"	size_t lin = (get_global_id(2) - get_global_offset(2)) * get_global_size(1) * get_global_size(0)\n"
	"		+ (get_global_id(1) - get_global_offset(1)) * get_global_size(0)\n"
	"		+ (get_global_id(0) - get_global_offset(0));\n"
	"	__global int *s = o + lin * 19;\n"
	"	if (get_local_id(0) == 0 && get_local_id(1) == 0 && get_local_id(2) == 0)\n"
	"		*sum = 0;\n"
	"	barrier(CLK_LOCAL_MEM_FENCE);\n"
	"	atomic_add(sum, (int)get_global_id(get_work_dim() - 1));\n"
	"	barrier(CLK_LOCAL_MEM_FENCE);\n"
	"	for (int d = 0; d < 3; d++) {\n"
	"		s[d] = get_global_id(d);\n"
	"		s[3 + d] = get_local_id(d);\n"
	"		s[6 + d] = get_group_id(d);\n"
	"		s[9 + d] = get_num_groups(d);\n"
	"		s[12 + d] = get_global_size(d);\n"
	"		s[15 + d] = get_global_offset(d);\n"
	"	}\n"
	"	s[18] = *sum;\n"
	"}\n";

int main(void)
{
	struct clt t;
	size_t off1[] = { 5 }, g1[] = { 2000 }, l1[] = { 8 };
	size_t off2[] = { 1, 2 }, g2[] = { 12, 100 }, l2[] = { 3, 5 };
	size_t off3[] = { 0, 3, 7 }, g3[] = { 4, 6, 90 }, l3[] = { 2, 3, 5 };

	/* Before the platform is opened: the ICD reads it at each launch. */
	setenv("VACCEL_CL_SLAB_ITEMS", "600", 1);
	clt_init(&t);
	cl_program p = clt_build(&t, src, NULL);
	cl_kernel k = clt_kernel(p, "ids");

	clt_run_slots(&t, k, 1, off1, g1, l1, SLOT, sizeof(cl_int));
	clt_run_slots(&t, k, 2, off2, g2, l2, SLOT, sizeof(cl_int));
	clt_run_slots(&t, k, 3, off3, g3, l3, SLOT, sizeof(cl_int));
	clReleaseKernel(k);
	clReleaseProgram(p);
	clt_fini(&t);
	return 0;
}
