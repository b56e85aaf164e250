// SPDX-License-Identifier: MIT
/*
 * Copyright 2026 The vaccel authors
 *
 * opencl_lib.cl - OpenCL C kernels that test_opencl_lib runs on the
 * device library's builtins: the atomics under contention in global and
 * local memory, the integer functions of every type, the common, math,
 * relational and geometric functions of float and double, vload and
 * vstore (the half ones too), the async copies, the conversions and
 * printf.  Each writes its results for the host to check exactly.
 * Built by vaccel-cc.
 *
 * Local memory comes as __local pointer parameters, not kernel-scope
 * __local variables: the IR step of this tree loops for ever on a module
 * with two of those (test_opencl_c covers one).
 */

/* What the atomics kernel keeps in local memory. */
typedef struct {
	int li[8];
	uint lu[2];
	long ll;
	float lf;
} atomics_local;

/* Every work-item of many workgroups at the same words. */
__kernel void atomics(__global int *gi, __global uint *gu, __global long *gl,
		      __global ulong *gul, __global float *gf, __global int *seen,
		      __global float *fseen, __global int *locals, __global long *llocals,
		      __local atomics_local *s)
{
	__local int *li = s->li;
	__local uint *lu = s->lu;
	__local long *ll = &s->ll;
	__local float *lf = &s->lf;
	size_t i = get_global_id(0), l = get_local_id(0), g = get_group_id(0);
	int ii = (int)i, il = (int)l, old;
	uint uold;
	long lold;

	if (l == 0) {
		li[0] = 0;
		li[1] = 0;
		li[2] = INT_MIN;
		li[3] = INT_MAX;
		li[4] = 0;
		li[5] = 0;
		li[6] = 100;
		li[7] = -1;
		lu[0] = 0;
		lu[1] = ~0u;
		*ll = 0;
		*lf = -1.0f;
	}
	barrier(CLK_LOCAL_MEM_FENCE);

	atomic_add(&gi[0], 1);
	atomic_sub(&gi[1], 2);
	atomic_inc(&gi[2]);
	atomic_dec(&gi[3]);
	atomic_min(&gi[4], ii - 500);
	atomic_max(&gi[5], ii - 500);
	do {
		old = *(volatile __global int *)&gi[6];
	} while (atomic_cmpxchg(&gi[6], old, old + 3) != old);
	seen[i] = atomic_xchg(&gi[7], ii);
	atom_add(&gi[8], 5);
	atom_sub(&gi[9], 5);
	atom_inc(&gi[10]);
	atom_dec(&gi[11]);
	atom_min(&gi[12], -ii);
	atom_max(&gi[13], ii);
	do {
		old = *(volatile __global int *)&gi[14];
	} while (atom_cmpxchg(&gi[14], old, old - 1) != old);
	atom_xchg(&gi[15], 12345);

	atomic_and(&gu[0], ~(1u << (i % 32)));
	atomic_or(&gu[1], 1u << (i % 32));
	atomic_xor(&gu[2], (uint)i * 2654435761u);
	atomic_min(&gu[3], (uint)i + 7u);
	atomic_max(&gu[4], (uint)i * 3u);
	atom_and(&gu[5], ~(1u << ((i + 5) % 32)));
	atom_or(&gu[6], 1u << ((i + 5) % 32));
	atom_xor(&gu[7], (uint)i);
	atomic_add(&gu[8], 0x10000u);
	atom_min(&gu[9], 0xffff0000u - (uint)i);
	atom_max(&gu[10], 0x80000000u + (uint)i);
	do {
		uold = *(volatile __global uint *)&gu[11];
	} while (atomic_cmpxchg(&gu[11], uold, uold + 2u) != uold);
	atomic_inc(&gu[12]);
	atomic_dec(&gu[13]);

	fseen[i] = atomic_xchg(gf, (float)i);

	atom_add(&gl[0], (long)i << 33);
	atom_sub(&gl[1], (long)i << 20);
	atom_inc(&gl[2]);
	atom_dec(&gl[3]);
	atom_min(&gl[4], -((long)i << 40));
	atom_max(&gl[5], (long)i << 40);
	do {
		lold = *(volatile __global long *)&gl[6];
	} while (atom_cmpxchg(&gl[6], lold, lold + 7) != lold);
	atom_xchg(&gl[7], -5l);
	atom_and(&gul[0], ~(1ul << (i % 64)));
	atom_or(&gul[1], 1ul << (i % 64));
	atom_xor(&gul[2], (ulong)i * 0x9e3779b97f4a7c15ul);
	atom_min(&gul[3], (ulong)i + 100ul);
	atom_max(&gul[4], (ulong)i << 50);

	atomic_add(&li[0], 1);
	atomic_inc(&li[1]);
	atomic_max(&li[2], il);
	atomic_min(&li[3], il);
	atom_add(&li[4], il);
	do {
		old = *(volatile __local int *)&li[5];
	} while (atomic_cmpxchg(&li[5], old, old + 2) != old);
	atomic_sub(&li[6], 1);
	atom_dec(&li[7]);
	atomic_or(&lu[0], 1u << (l % 32));
	atom_and(&lu[1], ~(1u << ((l + 1) % 32)));
	atom_add(ll, (long)l << 32);
	atomic_xchg(lf, (float)l);
	barrier(CLK_LOCAL_MEM_FENCE);
	if (l == 0) {
		for (int k = 0; k < 8; k++)
			locals[g * 11 + k] = li[k];
		locals[g * 11 + 8] = (int)lu[0];
		locals[g * 11 + 9] = (int)lu[1];
		locals[g * 11 + 10] = (int)*lf;
		llocals[g] = *ll;
	}
}

/*
 * The integer functions of type T on a[i], b[i], c[i]: 15 results, then
 * 1 where the vector forms agree with the scalar ones.
 */
#define INTEGER_KERNEL(T, UT)						\
__kernel void integer_##T(__global const T *a, __global const T *b,	\
			  __global const T *c, __global T *o)		\
{									\
	size_t i = get_global_id(0);					\
	T x = a[i], y = b[i], z = c[i];					\
	__global T *r = o + i * 16;					\
	T##4 v = (T##4)(x, y, z, x), w = (T##4)(y, z, x, y);		\
	T##3 v3 = v.xyz, w3 = w.xyz;					\
	T##16 v16 = (T##16)(v, w, v, w);				\
	UT##4 ad = abs_diff(v, w);					\
	T##4 ms = mad_sat(v, w, w), cl = clamp(v, min(y, z), max(y, z));	\
	T##3 mh = mul_hi(v3, w3), ro = rotate(v3, w3);			\
	T##16 cz = clz(v16);						\
	int ok = 1;							\
									\
	r[0] = (T)abs(x);						\
	r[1] = (T)abs_diff(x, y);					\
	r[2] = add_sat(x, y);						\
	r[3] = sub_sat(x, y);						\
	r[4] = hadd(x, y);						\
	r[5] = rhadd(x, y);						\
	r[6] = clamp(x, min(y, z), max(y, z));				\
	r[7] = clz(x);							\
	r[8] = mad_hi(x, y, z);						\
	r[9] = mad_sat(x, y, z);					\
	r[10] = max(x, y);						\
	r[11] = min(x, y);						\
	r[12] = mul_hi(x, y);						\
	r[13] = rotate(x, y);						\
	r[14] = popcount(x);						\
	for (int k = 0; k < 4; k++) {					\
		ok &= ad[k] == abs_diff(v[k], w[k]);			\
		ok &= ms[k] == mad_sat(v[k], w[k], w[k]);		\
		ok &= cl[k] == clamp(v[k], min(y, z), max(y, z));	\
	}								\
	for (int k = 0; k < 3; k++)					\
		ok &= mh[k] == mul_hi(v3[k], w3[k]) && ro[k] == rotate(v3[k], w3[k]); \
	for (int k = 0; k < 16; k++)					\
		ok &= cz[k] == clz(v16[k]);				\
	ok &= all(convert_int4(add_sat(v, w) == (T##4)(add_sat(x, y), add_sat(y, z), \
			add_sat(z, x), add_sat(x, y))) != 0);		\
	ok &= max(v, y).s2 == max(z, y) && min(v, y).s1 == y;		\
	r[15] = (T)ok;							\
}

INTEGER_KERNEL(char, uchar)
INTEGER_KERNEL(uchar, uchar)
INTEGER_KERNEL(short, ushort)
INTEGER_KERNEL(ushort, ushort)
INTEGER_KERNEL(int, uint)
INTEGER_KERNEL(uint, uint)
INTEGER_KERNEL(long, ulong)
INTEGER_KERNEL(ulong, ulong)

/* upsample of every type pair, and mul24 and mad24, from a[i] and b[i]. */
__kernel void upsamples(__global const int *a, __global const int *b, __global long *o)
{
	size_t i = get_global_id(0);
	int x = a[i], y = b[i];
	__global long *r = o + i * 10;
	int2 m = mul24((int2)(x << 8 >> 8, y << 8 >> 8), (int2)(y << 8 >> 8, 3));

	r[0] = upsample((char)x, (uchar)y);
	r[1] = upsample((uchar)x, (uchar)y);
	r[2] = upsample((short)x, (ushort)y);
	r[3] = upsample((ushort)x, (ushort)y);
	r[4] = upsample(x, (uint)y);
	r[5] = (long)upsample((uint)x, (uint)y);
	r[6] = mul24(x << 8 >> 8, y << 8 >> 8);
	r[7] = mad24(x << 8 >> 8, y << 8 >> 8, x);
	r[8] = mul24((uint)x & 0xffffffu, (uint)y & 0xffffffu);
	r[9] = m.x == r[6] && m.y == (y << 8 >> 8) * 3 &&
	       upsample((short2)((short)x, 1), (ushort2)((ushort)y, 2)).x == (int)r[2];
}

/*
 * The float functions of a[i], b[i], c[i]: 24 float results, and 14 int
 * results of the relational ones, then 12 of their vector forms.
 */
__kernel void floats(__global const float *a, __global const float *b,
		     __global const float *c, __global float *of, __global int *oi)
{
	size_t i = get_global_id(0);
	float x = a[i], y = b[i], z = c[i];
	__global float *f = of + i * 24;
	__global int *n = oi + i * 30;
	float4 v = (float4)(x, y, z, x), w = (float4)(y, y, y, y);
	int4 gt = isgreater(v, w), nan = isnan(v);
	float3 fl = floor(v.xyz), sq = sqrt(v.xyz);
	float2 mn = fmin(v.xy, z);

	f[0] = clamp(x, -1.5f, 2.0f);
	f[1] = degrees(x);
	f[2] = radians(x);
	f[3] = max(x, y);
	f[4] = min(x, y);
	f[5] = mix(x, y, 0.25f);
	f[6] = step(y, x);
	f[7] = smoothstep(-1.0f, 2.0f, x);
	f[8] = sign(x);
	f[9] = sqrt(x);
	f[10] = fma(x, y, z);
	f[11] = mad(x, y, z);
	f[12] = fabs(x);
	f[13] = fmin(x, y);
	f[14] = fmax(x, y);
	f[15] = floor(x);
	f[16] = ceil(x);
	f[17] = trunc(x);
	f[18] = round(x);
	f[19] = rint(x);
	f[20] = copysign(x, y);
	f[21] = native_sqrt(x) + half_sqrt(y);
	f[22] = bitselect(x, y, z);
	f[23] = select(x, y, (int)(i & 1)) + select(z, x, (uint)0);

	n[0] = isequal(x, y);
	n[1] = isnotequal(x, y);
	n[2] = isgreater(x, y);
	n[3] = isgreaterequal(x, y);
	n[4] = isless(x, y);
	n[5] = islessequal(x, y);
	n[6] = islessgreater(x, y);
	n[7] = isordered(x, y);
	n[8] = isunordered(x, y);
	n[9] = isfinite(x);
	n[10] = isinf(x);
	n[11] = isnan(x);
	n[12] = isnormal(x);
	n[13] = signbit(x);
	for (int k = 0; k < 4; k++) {
		n[14 + k] = gt[k];
		n[18 + k] = nan[k];
	}
	n[22] = as_int(fl.z) == as_int(floor(z)) && as_int(sq.y) == as_int(sqrt(y));
	n[23] = as_int(mn.x) == as_int(fmin(x, z)) && as_int(mn.y) == as_int(fmin(y, z));
	n[24] = any(gt);
	n[25] = all(nan);
	n[26] = select((int4)(1, 2, 3, 4), (int4)(5, 6, 7, 8), gt).y;
	n[27] = as_int(select(v, w, (uint4)(0, 0x80000000u, 1, 0xffffffffu)).w);
	n[28] = as_int(clamp(v, w, (float4)(3.0f)).x);
	n[29] = as_int(mix(v, w, 0.5f).z);
}

/* The double functions: 16 results, and the relational ones as longs. */
__kernel void doubles(__global const double *a, __global const double *b,
		      __global const double *c, __global double *od, __global long *ol)
{
	size_t i = get_global_id(0);
	double x = a[i], y = b[i], z = c[i];
	__global double *d = od + i * 16;
	__global long *n = ol + i * 12;
	long2 nan = isnan((double2)(x, y));
	long3 lt = isless((double3)(x, y, z), (double3)(y));
	long4 sb = signbit((double4)(x, y, z, -x));

	d[0] = sqrt(x);
	d[1] = fma(x, y, z);
	d[2] = floor(x);
	d[3] = ceil(x);
	d[4] = trunc(x);
	d[5] = round(x);
	d[6] = rint(x);
	d[7] = fmin(x, y);
	d[8] = fmax(x, y);
	d[9] = copysign(x, y);
	d[10] = fabs(x);
	d[11] = mix(x, y, 0.75);
	d[12] = clamp(x, -2.0, 1e10);
	d[13] = sign(x);
	d[14] = degrees(x);
	d[15] = mad(x, y, z);
	n[0] = isequal(x, y);
	n[1] = islessgreater(x, y);
	n[2] = isnormal(x);
	n[3] = isinf(x);
	n[4] = nan.x;
	n[5] = nan.y;
	n[6] = lt.x;
	n[7] = lt.z;
	n[8] = sb.x;
	n[9] = sb.w;
	n[10] = as_long(bitselect(x, y, z));
	n[11] = as_long(select(x, y, (long)(i & 2)));
}

/* The geometric functions of p[i] and q[i]: 20 results. */
__kernel void geometric(__global const float4 *p, __global const float4 *q,
			__global float *o, __global double *od)
{
	size_t i = get_global_id(0);
	float4 x = p[i], y = q[i];
	float4 nz = normalize(x);
	float3 cr = cross(x.xyz, y.xyz);
	float4 c4 = cross(x, y);
	float2 n2 = normalize(x.xy);
	__global float *r = o + i * 20;
	double4 dx = convert_double4(x), dy = convert_double4(y);

	r[0] = dot(x, y);
	r[1] = length(x);
	r[2] = distance(x, y);
	r[3] = nz.x;
	r[4] = nz.y;
	r[5] = nz.z;
	r[6] = nz.w;
	r[7] = cr.x;
	r[8] = cr.y;
	r[9] = cr.z;
	r[10] = c4.w + c4.y - cr.y;
	r[11] = length(x.xyz);
	r[12] = length(x.xy);
	r[13] = length(x.x);
	r[14] = dot(x.xyz, y.xyz);
	r[15] = n2.y;
	r[16] = normalize(x.x);
	r[17] = fast_length(x);
	r[18] = fast_distance(x.xy, y.xy);
	r[19] = fast_normalize(x.xyz).y;
	od[i * 2] = length(dx);
	od[i * 2 + 1] = dot(dx, dy);
}

/*
 * vload and vstore of several types, widths and address spaces, into
 * consecutive parts of o (see test_opencl_lib.c).
 */
__kernel void vloads(__global const uchar *g, __constant uchar *k, __global uchar *o,
		     __local float *lf, __local long *ll)
{
	int priv[8] = { 10, 11, 12, 13, 14, 15, 16, 17 };
	__global int *oi = (__global int *)o;

	if (get_global_id(0))
		return;
	vstore3(vload3(1, (__global const int *)g), 0, oi);		/* 0..2 */
	vstore16(vload16(5, (__global const char *)g + 1), 1, (__global char *)o + 32); /* bytes 48..63 */
	vstore2(vload2(1, (__constant double *)k), 4, (__global double *)o); /* bytes 64..79 */
	vstore4(vload4(1, priv), 5, oi);				/* 20..23 */
	vstore8((float8)(1, 2, 3, 4, 5, 6, 7, 8), 1, lf);
	vstore8(vload8(1, lf) * 2.0f, 3, (__global float *)o);		/* 24..31 */
	vstore2((long2)(-1, 1l << 40), 3, ll);
	vstore2(vload2(3, ll), 8, (__global long *)o);			/* bytes 128..143 */
	vstore4(vload4(0, (__global const ushort *)g), 18, (__global ushort *)o); /* bytes 144..151 */
	vstore3((uchar3)(7, 8, 9), 51, o);				/* bytes 153..155 */
	vstore2(vload2(0, priv + 6), 40, oi);				/* 80..81 */
}

/* Each value converted to half in every rounding mode, and back. */
__kernel void halves(__global const float *f, __global const double *d,
		     __global half *o, __global const half *h, __global float *back)
{
	size_t i = get_global_id(0);

	vstore_half(f[i], i * 10, o);
	vstore_half_rte(f[i], i * 10 + 1, o);
	vstore_half_rtz(f[i], i * 10 + 2, o);
	vstore_half_rtp(f[i], i * 10 + 3, o);
	vstore_half_rtn(f[i], i * 10 + 4, o);
	vstore_half(d[i], i * 10 + 5, o);
	vstore_half_rte(d[i], i * 10 + 6, o);
	vstore_half_rtz(d[i], i * 10 + 7, o);
	vstore_half_rtp(d[i], i * 10 + 8, o);
	vstore_half_rtn(d[i], i * 10 + 9, o);
	back[i] = vload_half(i, h);
}

/* The half loads and stores of vectors, aligned ones, in every address space. */
__kernel void halves_spaces(__global const half *h, __constant half *k, __global half *o,
			    __global float *f, __local half *lh)
{
	ushort priv[8] = { 0 };
	__private half *ph = (__private half *)priv;
	float4 v;

	if (get_global_id(0))
		return;
	vstore_half4_rtz(vload_half4(1, h), 0, lh);			/* halves 4..7 of h */
	v = vload_half4(0, lh);
	vstore4(v, 0, f);
	vstore_half3_rtp((float3)(1.0f / 3, -1.0f / 3, 65520.0f), 0, ph);
	vstore_half2(vload_half2(1, k), 2, ph);				/* k 2..3 to ph 4..5 */
	vstorea_half3(vloada_half3(1, ph + 0), 0, o);			/* stride 4: ph 4..6 */
	vstore4(vloada_half4(0, h), 1, f);
	vstorea_half3_rtn((float3)(1.0f / 3, -1.0f / 3, 1e-8f), 1, o);	/* o 4..6 */
	vstore_half8(vload_half8(0, h), 1, o);				/* o 8..15 */
	for (int j = 0; j < 3; j++)
		f[8 + j] = vload_half(j, ph);
	vstore_half16_rte(vload_half16(0, h) * 2.0f, 1, o);		/* o 16..31 */
	vstore_half((double)1 / 3, 32, o);
	vstorea_half2_rtp((double2)(1e-10, -1e-10), 17, o);		/* o 34..35 */
	f[11] = vloada_half2(17, o).x;
}

/*
 * Async copies through local memory, by workgroups of a size that does
 * not divide the copies: 100 ints and 40 float4 in (the latter chained on
 * the former's event), doubled, out again; every third int into local
 * memory, out at every other place.
 */
__kernel void async(__global const int *src, __global int *dst,
		    __global const float4 *src4, __global float4 *dst4,
		    __global int *strided, __local int *tile, __local int *third,
		    __local float4 *t4)
{
	size_t g = get_group_id(0), l = get_local_id(0), n = get_local_size(0);
	event_t e, evs[2];

	prefetch(src + g * 100, 100);
	e = async_work_group_copy(tile, src + g * 100, 100, 0);
	e = async_work_group_copy(t4, src4 + g * 40, 40, e);
	wait_group_events(1, &e);
	for (size_t i = l; i < 100; i += n)
		tile[i] *= 2;
	for (size_t i = l; i < 40; i += n)
		t4[i] *= 2.0f;
	barrier(CLK_LOCAL_MEM_FENCE);
	evs[0] = async_work_group_copy(dst + g * 100, tile, 100, 0);
	evs[1] = async_work_group_strided_copy(third, src + g * 100, 34, 3, 0);
	wait_group_events(2, evs);
	e = async_work_group_strided_copy(strided + g * 68, third, 34, 2, 0);
	e = async_work_group_copy(dst4 + g * 40, t4, 40, e);
	wait_group_events(1, &e);
}

/* The conversions of value i of each table: see test_opencl_lib.c. */
__kernel void converts(__global const float *f, __global const double *d,
		       __global const long *l, __global int *oi, __global long *ol,
		       __global float *of, __global double *od)
{
	size_t i = get_global_id(0);
	float x = f[i];
	double y = d[i];
	long z = l[i];
	__global int *ri = oi + i * 12;
	__global long *rl = ol + i * 6;
	int4 v = convert_int4((float4)(x, -x, x * 0.5f, 1.5f));

	ri[0] = convert_int(x);
	ri[1] = convert_int_sat(x);
	ri[2] = (int)convert_uint_sat(x);
	ri[3] = convert_int_sat(z);
	ri[4] = (int)convert_uint_sat(z);
	ri[5] = convert_char_sat(z);
	ri[6] = convert_uchar_sat((int)z);
	ri[7] = convert_short_sat(y);
	ri[8] = convert_int((uint)z);
	ri[9] = v.z;
	ri[10] = convert_uchar4_sat(v).y;
	ri[11] = convert_int_sat(y);
	rl[0] = convert_long(y);
	rl[1] = convert_long_sat(y);
	rl[2] = (long)convert_ulong_sat(x);
	rl[3] = (long)convert_ulong(z);
	rl[4] = convert_long_sat((ulong)z);
	rl[5] = (long)convert_ulong_sat(y);
	of[i * 3] = convert_float(z);
	of[i * 3 + 1] = convert_float(y);
	of[i * 3 + 2] = convert_float4(convert_long4((long4)(z))).w;
	od[i * 2] = convert_double(z);
	od[i * 2 + 1] = convert_double2(convert_uint2((uint2)((uint)z))).y;
}

/* printf of every kind of argument, its result into ret[i]. */
__kernel void prints(__global int *ret)
{
	size_t i = get_global_id(0);
	int ii = (int)i;

	ret[i] = printf("item %u: %d %s|%v4hld|%5.2f|%c|%lx|%hhd|%v2hlf|%e|%%|%-*d|%.3s\n",
			(uint)i, -ii * 1000, "lit", (int4)(ii, -1, INT_MIN, 7), 1.25f * ii,
			'A' + ii, 0xdeadbeefcafeul + i, (char)-3, (float2)(0.5f, -ii),
			1e-3, 4, ii, "abcdef");
	ret[get_global_size(0) + i] = printf("%v3hhu %v8hd %v16hlx %v2ld %v4lf %v4hu\n",
		(uchar3)(1, 2, 255), (short8)(-1, 2, -3, 4, -5, 6, -7, ii),
		(uint16)(ii), (long2)(LONG_MIN, ii), (double4)(0.5, -1.0, 1e10, ii),
		(ushort4)(65535, 0, 1, ii));
}
