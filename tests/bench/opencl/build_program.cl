// SPDX-License-Identifier: MIT
// Copyright 2026 The vaccel authors
//
// build_program.cl - the program whose clBuildProgram bench_opencl times
// (about 200 lines): the kinds of kernels an application builds at start,
// elementwise arithmetic, math builtins, vectors, local memory with
// barriers, atomics, integer work and helper functions.  It is built, not
// run.  It uses the builtins vaccel's device library has today: no exp,
// log, sin, cos, rsqrt or rounding-mode conversions yet.

#define TILE	16
#define WG	256

typedef struct {
	float x, y, z, w;
} particle_t;

static float smoothstep_f(float e0, float e1, float x)
{
	float t = clamp((x - e0) / (e1 - e0), 0.0f, 1.0f);

	return t * t * (3.0f - 2.0f * t);
}

static uint hash_u32(uint x)
{
	x ^= x >> 16;
	x *= 0x7feb352du;
	x ^= x >> 15;
	x *= 0x846ca68bu;
	x ^= x >> 16;
	return x;
}

static float2 cmul(float2 a, float2 b)
{
	return (float2)(a.x * b.x - a.y * b.y, a.x * b.y + a.y * b.x);
}

kernel void vadd(global const float *a, global const float *b, global float *c, uint n)
{
	uint i = get_global_id(0);

	if (i < n)
		c[i] = a[i] + b[i];
}

kernel void saxpy(global const float *x, global float *y, float a, uint n)
{
	uint i, stride = get_global_size(0);

	for (i = get_global_id(0); i < n; i += stride)
		y[i] = fma(a, x[i], y[i]);
}

kernel void scale4(global float4 *v, float4 s, uint n)
{
	uint i = get_global_id(0);

	if (i < n)
		v[i] = v[i] * s + (float4)(1.0f);
}

kernel void shape(global const float *in, global float *out, uint n)
{
	uint i = get_global_id(0);
	float x;

	if (i >= n)
		return;
	x = in[i];
	out[i] = sqrt(fabs(x)) + mad(x, x, -1.0f) / (1.0f + fabs(x)) + floor(x) * fmin(x, 2.0f) +
		 smoothstep_f(-1.0f, 1.0f, fmax(x, -4.0f));
}

kernel void matmul(global const float *a, global const float *b, global float *c, uint n)
{
	local float ta[TILE][TILE];
	local float tb[TILE][TILE];
	uint tx = get_local_id(0), ty = get_local_id(1);
	uint col = get_global_id(0), row = get_global_id(1), t, k;
	float sum = 0.0f;

	for (t = 0; t < n; t += TILE) {
		ta[ty][tx] = row < n && t + tx < n ? a[row * n + t + tx] : 0.0f;
		tb[ty][tx] = t + ty < n && col < n ? b[(t + ty) * n + col] : 0.0f;
		barrier(CLK_LOCAL_MEM_FENCE);
		for (k = 0; k < TILE; k++)
			sum += ta[ty][k] * tb[k][tx];
		barrier(CLK_LOCAL_MEM_FENCE);
	}
	if (row < n && col < n)
		c[row * n + col] = sum;
}

kernel void reduce_sum(global const int *in, global int *out, uint n)
{
	local int part[WG];
	uint lid = get_local_id(0), i, s;
	int sum = 0;

	for (i = get_global_id(0); i < n; i += get_global_size(0))
		sum += in[i];
	part[lid] = sum;
	barrier(CLK_LOCAL_MEM_FENCE);
	for (s = get_local_size(0) / 2; s; s /= 2) {
		if (lid < s)
			part[lid] += part[lid + s];
		barrier(CLK_LOCAL_MEM_FENCE);
	}
	if (!lid)
		atomic_add(out, part[0]);
}

kernel void histogram(global const uint *in, global uint *bins, uint n, uint nbins)
{
	local uint lbins[64];
	uint lid = get_local_id(0), i;

	for (i = lid; i < 64; i += get_local_size(0))
		lbins[i] = 0;
	barrier(CLK_LOCAL_MEM_FENCE);
	for (i = get_global_id(0); i < n; i += get_global_size(0))
		atomic_inc(&lbins[hash_u32(in[i]) % min(nbins, 64u)]);
	barrier(CLK_LOCAL_MEM_FENCE);
	for (i = lid; i < min(nbins, 64u); i += get_local_size(0))
		atomic_add(&bins[i], lbins[i]);
}

kernel void nbody_step(global particle_t *p, global float4 *vel, uint n, float dt)
{
	uint i = get_global_id(0), j;
	float4 acc = (float4)(0.0f);
	float4 pi;

	if (i >= n)
		return;
	pi = (float4)(p[i].x, p[i].y, p[i].z, 0.0f);
	for (j = 0; j < n; j++) {
		float4 d = (float4)(p[j].x, p[j].y, p[j].z, 0.0f) - pi;
		float r2 = dot(d, d) + 1e-3f;
		float inv = 1.0f / sqrt(r2);

		acc += d * (p[j].w * inv * inv * inv);
	}
	vel[i] += acc * dt;
	p[i].x += vel[i].x * dt;
	p[i].y += vel[i].y * dt;
	p[i].z += vel[i].z * dt;
}

kernel void mandelbrot(global uint *out, uint w, uint h, uint iters)
{
	uint x = get_global_id(0), y = get_global_id(1), k;
	float2 c, z = (float2)(0.0f);

	if (x >= w || y >= h)
		return;
	c = (float2)(-2.0f + 3.0f * x / w, -1.5f + 3.0f * y / h);
	for (k = 0; k < iters && dot(z, z) < 4.0f; k++)
		z = cmul(z, z) + c;
	out[y * w + x] = k;
}

kernel void convert_pack(global const float *in, global uchar4 *out, uint n)
{
	uint i = get_global_id(0);
	float4 v;

	if (i >= n)
		return;
	v = vload4(i, in);
	out[i] = convert_uchar4_sat(v * 255.0f + 0.5f);
}

kernel void prefix_local(global const uint *in, global uint *out, uint n)
{
	local uint s[WG];
	uint lid = get_local_id(0), gid = get_global_id(0), off;

	s[lid] = gid < n ? in[gid] : 0;
	barrier(CLK_LOCAL_MEM_FENCE);
	for (off = 1; off < get_local_size(0); off *= 2) {
		uint v = lid >= off ? s[lid - off] : 0;

		barrier(CLK_LOCAL_MEM_FENCE);
		s[lid] += v;
		barrier(CLK_LOCAL_MEM_FENCE);
	}
	if (gid < n)
		out[gid] = s[lid];
}

kernel void stencil(global const float *in, global float *out, uint w, uint h)
{
	uint x = get_global_id(0), y = get_global_id(1);

	if (x < 1 || y < 1 || x + 1 >= w || y + 1 >= h)
		return;
	out[y * w + x] = 0.25f * (in[y * w + x - 1] + in[y * w + x + 1] +
				  in[(y - 1) * w + x] + in[(y + 1) * w + x]);
}

kernel void transpose(global const float *in, global float *out, uint w, uint h)
{
	local float t[TILE][TILE + 1];
	uint x = get_global_id(0), y = get_global_id(1);
	uint lx = get_local_id(0), ly = get_local_id(1);

	if (x < w && y < h)
		t[ly][lx] = in[y * w + x];
	barrier(CLK_LOCAL_MEM_FENCE);
	x = get_group_id(1) * TILE + lx;
	y = get_group_id(0) * TILE + ly;
	if (x < h && y < w)
		out[y * h + x] = t[lx][ly];
}
