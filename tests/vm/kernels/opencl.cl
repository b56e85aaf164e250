// SPDX-License-Identifier: MIT
/*
 * Copyright 2026 The vaccel authors
 *
 * opencl.cl - OpenCL C kernels that test_opencl_c runs: local memory and
 * barriers, the layout of every kind of parameter in the argument block,
 * the work-item functions in three dimensions with a global offset, and
 * a kernel that calls another.  Built by vaccel-cc.
 */

typedef struct {
	float a;
	int b[7];
} S;

/* c[i] = a[(i + 1) % size in the workgroup] + b[i], through local memory. */
__kernel void vadd_local(__global const float *a, __global const float *b,
			 __global float *c, uint n)
{
	__local float tile[64];
	size_t i = get_global_id(0), l = get_local_id(0);

	tile[l] = a[i];
	barrier(CLK_LOCAL_MEM_FENCE);
	if (i < n)
		c[get_global_id(0)] = tile[(l + 1) % get_local_size(0)] + b[i];
}

/* Every kind of parameter, written back as 64-bit values by work-item 0. */
__kernel void args(__global ulong *out, char c, uchar uc, short s, ushort us,
		   int i, uint u, long l, ulong ul, float f, double d, float4 v,
		   S st, __local int *scratch, __constant int *k)
{
	scratch[get_local_id(0)] = (int)get_local_id(0) * 3;
	barrier(CLK_LOCAL_MEM_FENCE);
	if (get_global_id(0))
		return;
	st.a += 1.0f;		/* its own copy: the block is read-only */
	out[0] = c;
	out[1] = uc;
	out[2] = s;
	out[3] = us;
	out[4] = i;
	out[5] = u;
	out[6] = l;
	out[7] = ul;
	out[8] = as_uint(f);
	out[9] = as_ulong(d);
	out[10] = as_uint(v.x);
	out[11] = as_uint(v.w);
	out[12] = as_uint(st.a);
	out[13] = st.b[6];
	out[14] = scratch[get_local_size(0) - 1];
	out[15] = k[2];
}

/* Eight words per work-item, at its place in the grid without the offset. */
__kernel void ids(__global uint *out)
{
	size_t x = get_global_id(0) - get_global_offset(0);
	size_t y = get_global_id(1) - get_global_offset(1);
	size_t z = get_global_id(2) - get_global_offset(2);
	__global uint *o = out + ((z * get_global_size(1) + y) * get_global_size(0) + x) * 8;

	o[0] = get_global_id(0);
	o[1] = get_global_id(1);
	o[2] = get_global_id(2);
	o[3] = get_local_id(0) + 10 * get_local_id(1) + 100 * get_local_id(2);
	o[4] = get_group_id(0) + 10 * get_group_id(1) + 100 * get_group_id(2);
	o[5] = get_num_groups(0) + 10 * get_num_groups(1) + 100 * get_num_groups(2);
	o[6] = get_local_size(0) + 10 * get_local_size(1) + 100 * get_local_size(2);
	o[7] = get_work_dim() + 10 * get_global_size(3) + 100 * get_local_id(5) +
	       1000 * get_global_offset(4);
}

/* A kernel may call another, as a function. */
__kernel void twice(__global const float *a, __global const float *b,
		    __global float *c, uint n)
{
	vadd_local(a, b, c, n);
}
