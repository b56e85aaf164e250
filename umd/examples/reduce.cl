// SPDX-License-Identifier: MIT
// Copyright 2026 The vaccel authors
//
// reduce.cl - the sum, minimum and maximum of n 32-bit integers: each
// work-item folds a strided share, a tree in local memory sums the
// workgroup's, local atomics take its minimum and maximum, and one
// work-item per workgroup adds them into out with global atomics (the
// 64-bit add from cl_khr_int64_base_atomics).  out: the sum (ulong), then
// the minimum and the maximum (uint), which the host starts at UINT_MAX
// and 0.

#pragma OPENCL EXTENSION cl_khr_int64_base_atomics : enable

#define WG	256

kernel __attribute__((reqd_work_group_size(WG, 1, 1)))
void reduce(global const uint *in, global ulong *out, uint n)
{
	local ulong partial[WG];
	local uint group_min, group_max;
	global uint *minmax = (global uint *)(out + 1);
	uint lid = get_local_id(0), stride = get_global_size(0), i, s;
	uint mn = UINT_MAX, mx = 0, v;
	ulong sum = 0;

	for (i = get_global_id(0); i < n; i += stride) {
		v = in[i];
		sum += v;
		mn = min(mn, v);
		mx = max(mx, v);
	}
	partial[lid] = sum;
	if (!lid) {
		group_min = UINT_MAX;
		group_max = 0;
	}
	barrier(CLK_LOCAL_MEM_FENCE);
	atomic_min(&group_min, mn);
	atomic_max(&group_max, mx);
	for (s = get_local_size(0) / 2; s; s /= 2) {
		if (lid < s)
			partial[lid] += partial[lid + s];
		barrier(CLK_LOCAL_MEM_FENCE);
	}
	if (!lid) {
		atom_add(out, partial[0]);
		atomic_min(&minmax[0], group_min);
		atomic_max(&minmax[1], group_max);
	}
}
