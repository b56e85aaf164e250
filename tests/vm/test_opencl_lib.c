// SPDX-License-Identifier: MIT
/*
 * Copyright 2026 The vaccel authors
 *
 * test_opencl_lib.c - the device library of OpenCL C (umd/opencl/device)
 * on the device: kernels of tests/vm/kernels/opencl_lib.cl, built by
 * vaccel-cc, launched through libvaccel (vt_cl.h), their results checked
 * exactly against values computed here.
 *
 * - the atomics under contention, 4096 work-items in 64 workgroups, on
 *   global and local memory, 32 and 64 bits: exact final values;
 * - the integer functions of every integer type on edge values (MIN,
 *   MAX, -1, 0...), their vector forms against their scalar ones;
 * - the common, math and relational functions of float and double on
 *   NaN, infinities, -0.0, subnormals, halfway values; the relational
 *   vector results -1 and 0;
 * - the geometric functions, with overflow and underflow avoided;
 * - vload and vstore in every address space, the half ones in every
 *   rounding mode on chosen values (ties, overflow, subnormals, double
 *   rounding avoided);
 * - the async copies, plain and strided, in workgroups that do not
 *   divide them;
 * - the conversions, saturated ones included;
 * - printf: the records formatted by the host's formatter
 *   (umd/opencl/printf_format.c, compiled in), a full buffer's dropped
 *   records, and no buffer.
 *
 * Needs the default topology.
 */
#include <float.h>
#include <limits.h>
#include <math.h>

#include "vt_cl.h"

#include "printf_format.c"

VT_INCBIN(lib_module, VT_KERNELS "/opencl_lib.elf");

static const uint32_t one[3] = { 1, 1, 1 };

static void grid1(uint32_t g[3], uint32_t n)
{
	g[0] = n;
	g[1] = 1;
	g[2] = 1;
}

static uint32_t f2u(float f)
{
	uint32_t u;

	memcpy(&u, &f, 4);
	return u;
}

static uint64_t d2u(double d)
{
	uint64_t u;

	memcpy(&u, &d, 8);
	return u;
}

static float u2f(uint32_t u)
{
	float f;

	memcpy(&f, &u, 4);
	return f;
}

/* The same float: both NaN, or the same bits. */
static int same_f(float a, float b)
{
	return (isnan(a) && isnan(b)) || f2u(a) == f2u(b);
}

static int same_d(double a, double b)
{
	return (isnan(a) && isnan(b)) || d2u(a) == d2u(b);
}

/* fmin and fmax as RISC-V and OpenCL have them: a NaN loses, -0 < +0. */
static float ref_fminf(float x, float y)
{
	if (isnan(x))
		return isnan(y) ? NAN : y;
	if (isnan(y))
		return x;
	if (x == y)
		return signbit(x) ? x : y;
	return x < y ? x : y;
}

static float ref_fmaxf(float x, float y)
{
	if (isnan(x))
		return isnan(y) ? NAN : y;
	if (isnan(y))
		return x;
	if (x == y)
		return signbit(x) ? y : x;
	return x > y ? x : y;
}

static double ref_fmin(double x, double y)
{
	if (isnan(x))
		return isnan(y) ? NAN : y;
	if (isnan(y))
		return x;
	if (x == y)
		return signbit(x) ? x : y;
	return x < y ? x : y;
}

static double ref_fmax(double x, double y)
{
	if (isnan(x))
		return isnan(y) ? NAN : y;
	if (isnan(y))
		return x;
	if (x == y)
		return signbit(x) ? y : x;
	return x > y ? x : y;
}

static int cmp_int(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;

	return (x > y) - (x < y);
}

static int cmp_float(const void *a, const void *b)
{
	float x = *(const float *)a, y = *(const float *)b;

	return (x > y) - (x < y);
}

#define N_ATOMIC	4096
#define WG_ATOMIC	64

/*
 * 4096 work-items in 64 workgroups at the same words of global memory,
 * and each workgroup at its own in local memory: every operation, 32 and
 * 64 bits, signed and unsigned, the final value exact; xchg's returned
 * values and the final one are the initial value and every work-item's.
 */
VTEST(atomics_under_contention)
{
	const uint32_t n = N_ATOMIC, groups = N_ATOMIC / WG_ATOMIC;
	uint32_t grid[3], wg[3];
	struct vt_cl c = vt_cl_open(VT_MODULE(lib_module));
	struct vt_cl_buf gi = vt_cl_buf_new(c.dev, 4096), gu = vt_cl_buf_new(c.dev, 4096);
	struct vt_cl_buf gl = vt_cl_buf_new(c.dev, 4096), gul = vt_cl_buf_new(c.dev, 4096);
	struct vt_cl_buf gf = vt_cl_buf_new(c.dev, 4096);
	struct vt_cl_buf seen = vt_cl_buf_new(c.dev, 4 * (N_ATOMIC + 1));
	struct vt_cl_buf fseen = vt_cl_buf_new(c.dev, 4 * (N_ATOMIC + 1));
	struct vt_cl_buf locals = vt_cl_buf_new(c.dev, 4096 * 4);
	struct vt_cl_buf llocals = vt_cl_buf_new(c.dev, 4096);
	struct vt_cl_block blk = vt_cl_block_new(NULL, 1);
	int32_t *pi = gi.cpu, *ps = seen.cpu, *pl = locals.cpu;
	uint32_t *pu = gu.cpu, xor32 = 0;
	int64_t *pgl = gl.cpu, *pll = llocals.cpu, sum33 = 0, sum20 = 0;
	uint64_t *pgul = gul.cpu, xor64 = 0, local_offset = 0;
	float *pf = gf.cpu, *pfs = fseen.cpu;
	uint32_t i, g;

	pi[4] = INT32_MAX;
	pi[5] = INT32_MIN;
	pi[7] = -1;
	pi[12] = INT32_MAX;
	pi[13] = INT32_MIN;
	pu[0] = UINT32_MAX;
	pu[3] = UINT32_MAX;
	pu[5] = UINT32_MAX;
	pu[9] = UINT32_MAX;
	pgl[4] = INT64_MAX;
	pgl[5] = INT64_MIN;
	pgul[0] = UINT64_MAX;
	pgul[3] = UINT64_MAX;
	pf[0] = -1.0f;
	VT_CL_PUT(&blk, gi.va);
	VT_CL_PUT(&blk, gu.va);
	VT_CL_PUT(&blk, gl.va);
	VT_CL_PUT(&blk, gul.va);
	VT_CL_PUT(&blk, gf.va);
	VT_CL_PUT(&blk, seen.va);
	VT_CL_PUT(&blk, fseen.va);
	VT_CL_PUT(&blk, locals.va);
	VT_CL_PUT(&blk, llocals.va);
	VT_CL_PUT(&blk, local_offset);
	grid1(grid, n);
	grid1(wg, WG_ATOMIC);
	vt_cl_run(&c, "atomics", grid, wg, &blk, 64);

	for (i = 0; i < n; i++) {
		xor32 ^= i * 2654435761u;
		xor64 ^= (uint64_t)i * 0x9e3779b97f4a7c15ull;
		sum33 += (int64_t)i << 33;
		sum20 += (int64_t)i << 20;
	}
	VT_ASSERT_EQ(pi[0], (int)n);
	VT_ASSERT_EQ(pi[1], -2 * (int)n);
	VT_ASSERT_EQ(pi[2], (int)n);
	VT_ASSERT_EQ(pi[3], -(int)n);
	VT_ASSERT_EQ(pi[4], -500);
	VT_ASSERT_EQ(pi[5], (int)n - 1 - 500);
	VT_ASSERT_EQ(pi[6], 3 * (int)n);
	VT_ASSERT_EQ(pi[8], 5 * (int)n);
	VT_ASSERT_EQ(pi[9], -5 * (int)n);
	VT_ASSERT_EQ(pi[10], (int)n);
	VT_ASSERT_EQ(pi[11], -(int)n);
	VT_ASSERT_EQ(pi[12], -((int)n - 1));
	VT_ASSERT_EQ(pi[13], (int)n - 1);
	VT_ASSERT_EQ(pi[14], -(int)n);
	VT_ASSERT_EQ(pi[15], 12345);
	/* xchg: the values handed out and the last one are -1 and every id. */
	ps[n] = pi[7];
	qsort(ps, n + 1, sizeof(*ps), cmp_int);
	for (i = 0; i <= n; i++)
		VT_ASSERT_EQ(ps[i], (int)i - 1);
	pfs[n] = pf[0];
	qsort(pfs, n + 1, sizeof(*pfs), cmp_float);
	for (i = 0; i <= n; i++)
		VT_ASSERT_EQ(f2u(pfs[i]), f2u((float)i - 1.0f));

	VT_ASSERT_EQ(pu[0], 0);
	VT_ASSERT_EQ(pu[1], UINT32_MAX);
	VT_ASSERT_EQ(pu[2], xor32);
	VT_ASSERT_EQ(pu[3], 7);
	VT_ASSERT_EQ(pu[4], (n - 1) * 3);
	VT_ASSERT_EQ(pu[5], 0);
	VT_ASSERT_EQ(pu[6], UINT32_MAX);
	VT_ASSERT_EQ(pu[7], 0);
	VT_ASSERT_EQ(pu[8], n * 0x10000u);
	VT_ASSERT_EQ(pu[9], 0xffff0000u - (n - 1));
	VT_ASSERT_EQ(pu[10], 0x80000000u + n - 1);
	VT_ASSERT_EQ(pu[11], 2 * n);
	VT_ASSERT_EQ(pu[12], n);
	VT_ASSERT_EQ(pu[13], 0u - n);

	VT_ASSERT_EQ(pgl[0], sum33);
	VT_ASSERT_EQ(pgl[1], -sum20);
	VT_ASSERT_EQ(pgl[2], (int64_t)n);
	VT_ASSERT_EQ(pgl[3], -(int64_t)n);
	VT_ASSERT_EQ(pgl[4], -((int64_t)(n - 1) << 40));
	VT_ASSERT_EQ(pgl[5], (int64_t)(n - 1) << 40);
	VT_ASSERT_EQ(pgl[6], 7 * (int64_t)n);
	VT_ASSERT_EQ(pgl[7], -5);
	VT_ASSERT_EQ(pgul[0], 0);
	VT_ASSERT_EQ(pgul[1], UINT64_MAX);
	VT_ASSERT_EQ(pgul[2], xor64);
	VT_ASSERT_EQ(pgul[3], 100);
	VT_ASSERT_EQ(pgul[4], (uint64_t)(n - 1) << 50);

	for (g = 0; g < groups; g++) {
		const int32_t *l = pl + g * 11;

		VT_ASSERT_EQ(l[0], WG_ATOMIC);
		VT_ASSERT_EQ(l[1], WG_ATOMIC);
		VT_ASSERT_EQ(l[2], WG_ATOMIC - 1);
		VT_ASSERT_EQ(l[3], 0);
		VT_ASSERT_EQ(l[4], WG_ATOMIC * (WG_ATOMIC - 1) / 2);
		VT_ASSERT_EQ(l[5], 2 * WG_ATOMIC);
		VT_ASSERT_EQ(l[6], 100 - WG_ATOMIC);
		VT_ASSERT_EQ(l[7], -1 - WG_ATOMIC);
		VT_ASSERT_EQ((uint32_t)l[8], UINT32_MAX);
		VT_ASSERT_EQ(l[9], 0);
		VT_ASSERT(l[10] >= 0 && l[10] < WG_ATOMIC);
		VT_ASSERT_EQ(pll[g], (int64_t)(WG_ATOMIC * (WG_ATOMIC - 1) / 2) << 32);
	}
	vt_cl_close(&c);
}

/* The references are generic: some comparisons are constant for some types. */
#pragma GCC diagnostic ignored "-Wtype-limits"

/*
 * The reference of the integer functions of type T, computed in 128 bits
 * (W: signed or unsigned __int128 for the products).
 */
#define REF_INTEGER(T, UT, W, BITS, MINV, MAXV)				\
static T sat_##T(__int128 v)						\
{									\
	return v < (__int128)(MINV) ? (T)(MINV) : v > (__int128)(MAXV) ? (T)(MAXV) : (T)v; \
}									\
static T mul_hi_##T(T x, T y)						\
{									\
	return (T)(((W)x * (W)y) >> (BITS));				\
}									\
static void ref_##T(T x, T y, T z, T *r)				\
{									\
	T lo = x < y ? x : y, hi = x < y ? y : x, m;			\
	W p;								\
	UT u = (UT)x;							\
	unsigned int s = (unsigned int)((UT)y % (BITS)), k;		\
									\
	(void)lo;							\
	(void)hi;							\
	r[0] = (T)(x < 0 ? (UT)0 - (UT)x : (UT)x);			\
	r[1] = (T)(x > y ? (UT)x - (UT)y : (UT)y - (UT)x);		\
	r[2] = sat_##T((__int128)x + y);				\
	r[3] = sat_##T((__int128)x - y);				\
	r[4] = (T)(((__int128)x + y) >> 1);				\
	r[5] = (T)(((__int128)x + y + 1) >> 1);				\
	lo = y < z ? y : z;						\
	hi = y < z ? z : y;						\
	m = x < lo ? lo : x;						\
	r[6] = m > hi ? hi : m;						\
	for (k = 0; k < (BITS) && !((u >> ((BITS) - 1 - k)) & 1); k++)	\
		;							\
	r[7] = (T)k;							\
	r[12] = mul_hi_##T(x, y);					\
	r[8] = (T)((UT)r[12] + (UT)z);					\
	p = (W)x * (W)y + (W)z;						\
	r[9] = (MINV) == 0 ? ((unsigned __int128)p > (unsigned __int128)(MAXV) ? (T)(MAXV) : (T)p) \
			   : sat_##T((__int128)p);			\
	r[10] = x > y ? x : y;						\
	r[11] = x < y ? x : y;						\
	r[13] = (T)(UT)(s ? (UT)(u << s) | (UT)(u >> ((BITS) - s)) : u); \
	r[14] = (T)__builtin_popcountll((unsigned long long)u);	\
}

REF_INTEGER(int8_t, uint8_t, __int128, 8, INT8_MIN, INT8_MAX)
REF_INTEGER(uint8_t, uint8_t, __int128, 8, 0, UINT8_MAX)
REF_INTEGER(int16_t, uint16_t, __int128, 16, INT16_MIN, INT16_MAX)
REF_INTEGER(uint16_t, uint16_t, __int128, 16, 0, UINT16_MAX)
REF_INTEGER(int32_t, uint32_t, __int128, 32, INT32_MIN, INT32_MAX)
REF_INTEGER(uint32_t, uint32_t, __int128, 32, 0, UINT32_MAX)
REF_INTEGER(int64_t, uint64_t, __int128, 64, INT64_MIN, INT64_MAX)
REF_INTEGER(uint64_t, uint64_t, unsigned __int128, 64, 0, UINT64_MAX)

/* Edge values of every integer type, as 64-bit values truncated to it. */
static const int64_t int_values[] = {
	0, 1, -1, 2, -2, 37, -100, 0x5555555555555555ll,
	INT64_MIN, INT64_MAX, INT32_MIN, INT32_MAX, INT16_MIN, INT8_MAX, 128, 0xffff,
};
#define N_INT_VALUES	(sizeof(int_values) / sizeof(int_values[0]))
#define N_INT_ITEMS	(N_INT_VALUES * N_INT_VALUES)

/*
 * Runs kernel integer_<name> on every pair of edge values of type T, a
 * third from the same table, and compares its 15 results with the
 * reference's; the 16th says the vector forms agree with the scalar ones.
 */
#define CHECK_INTEGER(c, T, name, MINV, MAXV)				\
do {									\
	struct vt_cl_buf a = vt_cl_buf_new((c)->dev, 4096), b = vt_cl_buf_new((c)->dev, 4096); \
	struct vt_cl_buf cc = vt_cl_buf_new((c)->dev, 4096);		\
	struct vt_cl_buf o = vt_cl_buf_new((c)->dev, N_INT_ITEMS * 16 * sizeof(T)); \
	struct vt_cl_block blk = vt_cl_block_new(NULL, 1);		\
	T *pa = a.cpu, *pb = b.cpu, *pc = cc.cpu, *po = o.cpu, want[16];	\
	uint32_t grid[3], x, y, k, item;				\
									\
	for (x = 0; x < N_INT_VALUES; x++)				\
		for (y = 0; y < N_INT_VALUES; y++) {			\
			item = x * N_INT_VALUES + y;			\
			pa[item] = (T)int_values[x];			\
			pb[item] = (T)int_values[y];			\
			pc[item] = (T)int_values[(x * 3 + y) % N_INT_VALUES]; \
		}							\
	VT_CL_PUT(&blk, a.va);						\
	VT_CL_PUT(&blk, b.va);						\
	VT_CL_PUT(&blk, cc.va);						\
	VT_CL_PUT(&blk, o.va);						\
	grid1(grid, N_INT_ITEMS);					\
	vt_cl_run(c, "integer_" name, grid, grid, &blk, 0);		\
	for (item = 0; item < N_INT_ITEMS; item++) {			\
		ref_##T(pa[item], pb[item], pc[item], want);		\
		want[15] = 1;						\
		for (k = 0; k < 16; k++)				\
			if (po[item * 16 + k] != want[k])		\
				vtest_fail(__FILE__, __LINE__,		\
					   "%s(%lld, %lld, %lld) result %u: %lld, expected %lld", \
					   name, (long long)pa[item], (long long)pb[item], \
					   (long long)pc[item], k,		\
					   (long long)po[item * 16 + k], (long long)want[k]); \
	}								\
	(void)(MINV);							\
	(void)(MAXV);							\
} while (0)

/*
 * abs, abs_diff, add_sat, sub_sat, hadd, rhadd, clamp, clz, mad_hi,
 * mad_sat, max, min, mul_hi, rotate, popcount of every integer type on
 * edge values; the vector forms (2 to 16 components, a scalar second
 * operand) equal to the scalar ones.
 */
VTEST(integer_functions)
{
	struct vt_cl c = vt_cl_open(VT_MODULE(lib_module));

	CHECK_INTEGER(&c, int8_t, "char", INT8_MIN, INT8_MAX);
	CHECK_INTEGER(&c, uint8_t, "uchar", 0, UINT8_MAX);
	CHECK_INTEGER(&c, int16_t, "short", INT16_MIN, INT16_MAX);
	CHECK_INTEGER(&c, uint16_t, "ushort", 0, UINT16_MAX);
	CHECK_INTEGER(&c, int32_t, "int", INT32_MIN, INT32_MAX);
	CHECK_INTEGER(&c, uint32_t, "uint", 0, UINT32_MAX);
	CHECK_INTEGER(&c, int64_t, "long", INT64_MIN, INT64_MAX);
	CHECK_INTEGER(&c, uint64_t, "ulong", 0, UINT64_MAX);
	vt_cl_close(&c);
}

/* upsample of every pair of types, mul24 and mad24, on edge values. */
VTEST(upsample_mul24)
{
	static const int32_t v[] = { 0, 1, -1, 0x7f, 0x80, 0xff, 0x1234, -0x8000,
				     0x7fffff, -0x800000, INT32_MIN, INT32_MAX };
	const uint32_t nv = sizeof(v) / sizeof(v[0]), n = nv * nv;
	struct vt_cl c = vt_cl_open(VT_MODULE(lib_module));
	struct vt_cl_buf a = vt_cl_buf_new(c.dev, 4096), b = vt_cl_buf_new(c.dev, 4096);
	struct vt_cl_buf o = vt_cl_buf_new(c.dev, n * 10 * 8);
	struct vt_cl_block blk = vt_cl_block_new(NULL, 1);
	int32_t *pa = a.cpu, *pb = b.cpu;
	int64_t *po = o.cpu;
	uint32_t grid[3], i, k;

	for (i = 0; i < n; i++) {
		pa[i] = v[i / nv];
		pb[i] = v[i % nv];
	}
	VT_CL_PUT(&blk, a.va);
	VT_CL_PUT(&blk, b.va);
	VT_CL_PUT(&blk, o.va);
	grid1(grid, n);
	vt_cl_run(&c, "upsamples", grid, grid, &blk, 0);
	for (i = 0; i < n; i++) {
		int32_t x = pa[i], y = pb[i];
		int32_t sx = (int32_t)((uint32_t)x << 8) >> 8, sy = (int32_t)((uint32_t)y << 8) >> 8;
		int64_t want[10];

		want[0] = (int16_t)(uint16_t)((uint16_t)(uint8_t)x << 8 | (uint8_t)y);
		want[1] = (uint16_t)((uint16_t)(uint8_t)x << 8 | (uint8_t)y);
		want[2] = (int32_t)((uint32_t)(uint16_t)x << 16 | (uint16_t)y);
		want[3] = (uint32_t)((uint32_t)(uint16_t)x << 16 | (uint16_t)y);
		want[4] = (int64_t)((uint64_t)(uint32_t)x << 32 | (uint32_t)y);
		want[5] = want[4];
		want[6] = (int32_t)(uint32_t)((int64_t)sx * sy);
		want[7] = (int32_t)((uint32_t)want[6] + (uint32_t)x);
		want[8] = (uint32_t)(((uint32_t)x & 0xffffff) * ((uint32_t)y & 0xffffff));
		want[9] = 1;
		for (k = 0; k < 10; k++)
			if (po[i * 10 + k] != want[k])
				vtest_fail(__FILE__, __LINE__, "(%d, %d) result %u: %lld, expected %lld",
					   x, y, k, (long long)po[i * 10 + k], (long long)want[k]);
	}
	vt_cl_close(&c);
}

static const float float_values[] = {
	0.0f, -0.0f, 1.0f, -1.0f, 0.5f, -0.5f, 1.5f, -2.5f, 2.5f, 3.7f, -3.7f,
	1e30f, -1e-30f, 0x1p-149f, FLT_MAX, INFINITY, -INFINITY, NAN, 8388609.0f,
	0.49999997f, 100.0f,
};
#define N_FLOAT_VALUES	(sizeof(float_values) / sizeof(float_values[0]))

static float ref_sign(float x)
{
	if (x > 0)
		return 1.0f;
	if (x < 0)
		return -1.0f;
	return x == 0 ? x : 0.0f;
}

/*
 * The common, math and relational functions of float on every pair of
 * special values (NaN, infinities, -0.0, the smallest subnormal, FLT_MAX,
 * halfway cases of the roundings), each result bit for bit; the vector
 * relational results -1 or 0.
 */
VTEST(float_functions)
{
	const uint32_t n = N_FLOAT_VALUES * N_FLOAT_VALUES;
	const float pi_f = 3.14159274101257f;
	struct vt_cl c = vt_cl_open(VT_MODULE(lib_module));
	struct vt_cl_buf a = vt_cl_buf_new(c.dev, 4096), b = vt_cl_buf_new(c.dev, 4096);
	struct vt_cl_buf cc = vt_cl_buf_new(c.dev, 4096);
	struct vt_cl_buf of = vt_cl_buf_new(c.dev, n * 24 * 4), oi = vt_cl_buf_new(c.dev, n * 30 * 4);
	struct vt_cl_block blk = vt_cl_block_new(NULL, 1);
	float *pa = a.cpu, *pb = b.cpu, *pc = cc.cpu, *pf = of.cpu;
	int32_t *pi = oi.cpu;
	uint32_t grid[3], i, k;

	for (i = 0; i < n; i++) {
		pa[i] = float_values[i / N_FLOAT_VALUES];
		pb[i] = float_values[i % N_FLOAT_VALUES];
		pc[i] = float_values[(i * 7 + 3) % N_FLOAT_VALUES];
	}
	VT_CL_PUT(&blk, a.va);
	VT_CL_PUT(&blk, b.va);
	VT_CL_PUT(&blk, cc.va);
	VT_CL_PUT(&blk, of.va);
	VT_CL_PUT(&blk, oi.va);
	grid1(grid, n);
	vt_cl_run(&c, "floats", grid, one, &blk, 0);
	for (i = 0; i < n; i++) {
		float x = pa[i], y = pb[i], z = pc[i], want[24], t;
		float v[4] = { x, y, z, x };
		int32_t wi[30], any = 0, all = 1;

		want[0] = ref_fminf(ref_fmaxf(x, -1.5f), 2.0f);
		want[1] = (180.0f / pi_f) * x;
		want[2] = (pi_f / 180.0f) * x;
		want[3] = ref_fmaxf(x, y);
		want[4] = ref_fminf(x, y);
		want[5] = x + (y - x) * 0.25f;
		want[6] = x < y ? 0.0f : 1.0f;
		t = ref_fminf(ref_fmaxf((x - -1.0f) / (2.0f - -1.0f), 0.0f), 1.0f);
		want[7] = t * t * (3.0f - 2.0f * t);
		want[8] = ref_sign(x);
		want[9] = sqrtf(x);
		want[10] = fmaf(x, y, z);
		want[11] = fmaf(x, y, z);
		want[12] = fabsf(x);
		want[13] = ref_fminf(x, y);
		want[14] = ref_fmaxf(x, y);
		want[15] = floorf(x);
		want[16] = ceilf(x);
		want[17] = truncf(x);
		want[18] = roundf(x);
		want[19] = rintf(x);
		want[20] = copysignf(x, y);
		want[21] = sqrtf(x) + sqrtf(y);
		want[22] = u2f((f2u(x) & ~f2u(z)) | (f2u(y) & f2u(z)));
		want[23] = ((i & 1) ? y : x) + z;
		for (k = 0; k < 24; k++)
			if (!same_f(pf[i * 24 + k], want[k]))
				vtest_fail(__FILE__, __LINE__, "(%a, %a, %a) result %u: %a, expected %a",
					   (double)x, (double)y, (double)z, k,
					   (double)pf[i * 24 + k], (double)want[k]);

		wi[0] = x == y;
		wi[1] = x != y;
		wi[2] = x > y;
		wi[3] = x >= y;
		wi[4] = x < y;
		wi[5] = x <= y;
		wi[6] = x < y || x > y;
		wi[7] = !isnan(x) && !isnan(y);
		wi[8] = isnan(x) || isnan(y);
		wi[9] = !!isfinite(x);
		wi[10] = !!isinf(x);
		wi[11] = !!isnan(x);
		wi[12] = !!isnormal(x);
		wi[13] = !!signbit(x);
		for (k = 0; k < 4; k++) {
			wi[14 + k] = -(v[k] > y);
			wi[18 + k] = -!!isnan(v[k]);
			any |= v[k] > y;
			all &= !!isnan(v[k]);
		}
		wi[22] = 1;
		wi[23] = 1;
		wi[24] = any;
		wi[25] = all;
		wi[26] = 2;
		wi[27] = (int32_t)f2u(y);
		wi[28] = (int32_t)f2u(ref_fminf(ref_fmaxf(x, y), 3.0f));
		wi[29] = (int32_t)f2u(z + (y - z) * 0.5f);
		for (k = 0; k < 30; k++)
			if (pi[i * 30 + k] != wi[k] &&
			    !(k == 29 && same_f(u2f((uint32_t)pi[i * 30 + k]), u2f((uint32_t)wi[k]))))
				vtest_fail(__FILE__, __LINE__, "(%a, %a, %a) int %u: %d, expected %d",
					   (double)x, (double)y, (double)z, k,
					   pi[i * 30 + k], wi[k]);
	}
	vt_cl_close(&c);
}

static const double double_values[] = {
	0.0, -0.0, 1.0, -1.0, 0.5, -2.5, 2.5, 1e300, -1e-300, 0x1p-1074, DBL_MAX,
	INFINITY, -INFINITY, NAN, 4503599627370497.0, 0.49999999999999994, 1.0 / 3,
};
#define N_DOUBLE_VALUES	(sizeof(double_values) / sizeof(double_values[0]))

/* The same for double, the vector relational results -1 or 0 as longs. */
VTEST(double_functions)
{
	const uint32_t n = N_DOUBLE_VALUES * N_DOUBLE_VALUES;
	struct vt_cl c = vt_cl_open(VT_MODULE(lib_module));
	struct vt_cl_buf a = vt_cl_buf_new(c.dev, 4096), b = vt_cl_buf_new(c.dev, 4096);
	struct vt_cl_buf cc = vt_cl_buf_new(c.dev, 4096);
	struct vt_cl_buf od = vt_cl_buf_new(c.dev, n * 16 * 8), ol = vt_cl_buf_new(c.dev, n * 12 * 8);
	struct vt_cl_block blk = vt_cl_block_new(NULL, 1);
	double *pa = a.cpu, *pb = b.cpu, *pc = cc.cpu, *pd = od.cpu;
	int64_t *pl = ol.cpu;
	uint32_t grid[3], i, k;

	for (i = 0; i < n; i++) {
		pa[i] = double_values[i / N_DOUBLE_VALUES];
		pb[i] = double_values[i % N_DOUBLE_VALUES];
		pc[i] = double_values[(i * 5 + 1) % N_DOUBLE_VALUES];
	}
	VT_CL_PUT(&blk, a.va);
	VT_CL_PUT(&blk, b.va);
	VT_CL_PUT(&blk, cc.va);
	VT_CL_PUT(&blk, od.va);
	VT_CL_PUT(&blk, ol.va);
	grid1(grid, n);
	vt_cl_run(&c, "doubles", grid, one, &blk, 0);
	for (i = 0; i < n; i++) {
		double x = pa[i], y = pb[i], z = pc[i], want[16];
		int64_t wl[12];

		want[0] = sqrt(x);
		want[1] = fma(x, y, z);
		want[2] = floor(x);
		want[3] = ceil(x);
		want[4] = trunc(x);
		want[5] = round(x);
		want[6] = rint(x);
		want[7] = ref_fmin(x, y);
		want[8] = ref_fmax(x, y);
		want[9] = copysign(x, y);
		want[10] = fabs(x);
		want[11] = x + (y - x) * 0.75;
		want[12] = ref_fmin(ref_fmax(x, -2.0), 1e10);
		want[13] = x > 0 ? 1.0 : x < 0 ? -1.0 : x == 0 ? x : 0.0;
		want[14] = (180.0 / 3.14159265358979323846) * x;
		want[15] = fma(x, y, z);
		for (k = 0; k < 16; k++)
			if (!same_d(pd[i * 16 + k], want[k]))
				vtest_fail(__FILE__, __LINE__, "(%a, %a, %a) result %u: %a, expected %a",
					   x, y, z, k, pd[i * 16 + k], want[k]);
		wl[0] = x == y;
		wl[1] = x < y || x > y;
		wl[2] = !!isnormal(x);
		wl[3] = !!isinf(x);
		wl[4] = -!!isnan(x);
		wl[5] = -!!isnan(y);
		wl[6] = -(x < y);
		wl[7] = -(z < y);
		wl[8] = -!!signbit(x);
		wl[9] = -!!signbit(-x);
		wl[10] = (int64_t)((d2u(x) & ~d2u(z)) | (d2u(y) & d2u(z)));
		wl[11] = (int64_t)d2u((i & 2) ? y : x);
		for (k = 0; k < 12; k++)
			if (pl[i * 12 + k] != wl[k])
				vtest_fail(__FILE__, __LINE__, "(%a, %a, %a) long %u: %lld, expected %lld",
					   x, y, z, k, (long long)pl[i * 12 + k], (long long)wl[k]);
	}
	vt_cl_close(&c);
}

/* The device's algorithms, in the same float operations. */
static float g_dot(const float *x, const float *y, int n)
{
	float s = x[0] * y[0];
	int i;

	for (i = 1; i < n; i++)
		s = s + x[i] * y[i];
	return s;
}

static float g_length(const float *p, int n)
{
	float s = g_dot(p, p, n), q[4];
	int i;

	if (s > 0x1p126f || s < 0x1p-100f) {
		float up = s > 0x1p126f ? 0x1p-100f : 0x1p100f;

		for (i = 0; i < n; i++)
			q[i] = p[i] * up;
		return sqrtf(g_dot(q, q, n)) * (1.0f / up);
	}
	return sqrtf(s);
}

static void g_normalize(const float *p0, float *r, int n)
{
	float p[4], l;
	int i, zero = 1, nan = 0, inf = 0;

	for (i = 0; i < n; i++) {
		p[i] = p0[i];
		zero &= p[i] == 0;
		nan |= !!isnan(p[i]);
		inf |= !!isinf(p[i]);
	}
	if (zero) {
		memcpy(r, p, n * 4);
		return;
	}
	if (nan) {
		for (i = 0; i < n; i++)
			r[i] = NAN;
		return;
	}
	if (inf)
		for (i = 0; i < n; i++)
			p[i] = isinf(p[i]) ? copysignf(1.0f, p[i]) : 0.0f * p[i];
	l = g_length(p, n);
	if (isinf(l) || l < 0x1p-100f) {
		float scale = isinf(l) ? 0x1p-100f : 0x1p100f;

		for (i = 0; i < n; i++)
			p[i] *= scale;
		l = g_length(p, n);
	}
	for (i = 0; i < n; i++)
		r[i] = p[i] / l;
}

static double g_length_d(const double *p)
{
	double s = p[0] * p[0], q[4];
	int i;

	for (i = 1; i < 4; i++)
		s = s + p[i] * p[i];
	if (s > 0x1p1020 || s < 0x1p-900) {
		double up = s > 0x1p1020 ? 0x1p-600 : 0x1p600;

		for (i = 0; i < 4; i++)
			q[i] = p[i] * up;
		s = q[0] * q[0];
		for (i = 1; i < 4; i++)
			s = s + q[i] * q[i];
		return sqrt(s) * (1.0 / up);
	}
	return sqrt(s);
}

/*
 * dot, length, distance, normalize, cross and the fast_ forms on
 * vectors of 1 to 4, with the known answers where the naive sum of
 * squares would overflow or underflow, and the rules of normalize for
 * zero, NaN and infinite vectors.
 */
VTEST(geometric_functions)
{
	static const float P[][4] = {
		{ 1, 2, 3, 4 }, { 3 * 0x1p100f, 4 * 0x1p100f, 0, 0 },
		{ 3 * 0x1p-140f, 4 * 0x1p-140f, 0, 0 }, { 0, -0.0f, 0, 0 },
		{ 0, INFINITY, -INFINITY, 1 }, { NAN, 1, 2, 3 }, { -1.5f, 2.25f, 0.5f, -8 },
		{ FLT_MAX, FLT_MAX, 1, 1 }, { 1e-20f, -1e-20f, 0, 0 }, { 2, 3, 6, 0 },
	};
	static const float Q[][4] = { { 4, 3, 2, 1 }, { 0.5f, -1, 2, -3 }, { 0, 0, 0, 0 } };
	const uint32_t np = sizeof(P) / sizeof(P[0]), nq = sizeof(Q) / sizeof(Q[0]);
	const uint32_t n = np * nq;
	struct vt_cl c = vt_cl_open(VT_MODULE(lib_module));
	struct vt_cl_buf p = vt_cl_buf_new(c.dev, 4096), q = vt_cl_buf_new(c.dev, 4096);
	struct vt_cl_buf o = vt_cl_buf_new(c.dev, n * 20 * 4), od = vt_cl_buf_new(c.dev, n * 16);
	struct vt_cl_block blk = vt_cl_block_new(NULL, 1);
	float (*pp)[4] = p.cpu, (*pq)[4] = q.cpu, *po = o.cpu;
	double *pod = od.cpu;
	uint32_t grid[3], i, k;

	for (i = 0; i < n; i++) {
		memcpy(pp[i], P[i / nq], 16);
		memcpy(pq[i], Q[i % nq], 16);
	}
	VT_CL_PUT(&blk, p.va);
	VT_CL_PUT(&blk, q.va);
	VT_CL_PUT(&blk, o.va);
	VT_CL_PUT(&blk, od.va);
	grid1(grid, n);
	vt_cl_run(&c, "geometric", grid, one, &blk, 0);
	for (i = 0; i < n; i++) {
		const float *x = pp[i], *y = pq[i];
		float want[20], d[4], nz[4], n2[2], cr[3], s;
		double dx[4], dy[4], dd;

		for (k = 0; k < 4; k++) {
			d[k] = x[k] - y[k];
			dx[k] = x[k];
			dy[k] = y[k];
		}
		g_normalize(x, nz, 4);
		g_normalize(x, n2, 2);
		cr[0] = x[1] * y[2] - x[2] * y[1];
		cr[1] = x[2] * y[0] - x[0] * y[2];
		cr[2] = x[0] * y[1] - x[1] * y[0];
		want[0] = g_dot(x, y, 4);
		want[1] = g_length(x, 4);
		want[2] = g_length(d, 4);
		memcpy(want + 3, nz, 16);
		memcpy(want + 7, cr, 12);
		want[10] = (0.0f + cr[1]) - cr[1];
		want[11] = g_length(x, 3);
		want[12] = g_length(x, 2);
		want[13] = fabsf(x[0]);
		want[14] = g_dot(x, y, 3);
		want[15] = n2[1];
		want[16] = x[0] == 0 || isnan(x[0]) ? x[0] : copysignf(1.0f, x[0]);
		want[17] = sqrtf(g_dot(x, x, 4));
		want[18] = sqrtf(g_dot(d, d, 2));
		s = g_dot(x, x, 3);
		want[19] = s == 0.0f ? x[1] : x[1] * (1.0f / sqrtf(s));
		for (k = 0; k < 20; k++)
			if (!same_f(po[i * 20 + k], want[k]))
				vtest_fail(__FILE__, __LINE__,
					   "(%a, %a, %a, %a) . (%a, ...) result %u: %a, expected %a",
					   (double)x[0], (double)x[1], (double)x[2], (double)x[3],
					   (double)y[0], k, (double)po[i * 20 + k], (double)want[k]);
		dd = dx[0] * dy[0];
		for (k = 1; k < 4; k++)
			dd = dd + dx[k] * dy[k];
		VT_ASSERT(same_d(pod[i * 2], g_length_d(dx)));
		VT_ASSERT(same_d(pod[i * 2 + 1], dd));
	}
	/* The known answers: no overflow, no underflow, the infinities' direction. */
	VT_ASSERT_EQ(f2u(po[1 * nq * 20 + 1]), f2u(5 * 0x1p100f));
	VT_ASSERT_EQ(f2u(po[2 * nq * 20 + 1]), f2u(5 * 0x1p-140f));
	VT_ASSERT_EQ(f2u(po[9 * nq * 20 + 1]), f2u(7.0f));
	VT_ASSERT_EQ(f2u(po[4 * nq * 20 + 4]), f2u(1.0f / sqrtf(2.0f)));
	VT_ASSERT_EQ(f2u(po[4 * nq * 20 + 6]), f2u(0.0f));
	VT_ASSERT_EQ(f2u(po[3 * nq * 20 + 4]), f2u(-0.0f));
	VT_ASSERT(isnan(po[5 * nq * 20 + 4]));
	vt_cl_close(&c);
}

/*
 * vload and vstore of int3, char16 (unaligned), double2 (__constant),
 * int4 (__private), float8 and long2 (__local), ushort4, uchar3: the
 * output as the host computes it, byte for byte.
 */
VTEST(vload_vstore)
{
	struct vt_cl c = vt_cl_open(VT_MODULE(lib_module));
	struct vt_cl_buf g = vt_cl_buf_new(c.dev, 4096), k = vt_cl_buf_new(c.dev, 4096);
	struct vt_cl_buf o = vt_cl_buf_new(c.dev, 4096);
	struct vt_cl_block blk = vt_cl_block_new(NULL, 1);
	unsigned char *pg = g.cpu, want[512];
	const double kd[4] = { 1.5, -2.25, 3e300, -0.0 };
	const int32_t priv[4] = { 14, 15, 16, 17 };
	const int64_t ll[2] = { -1, 1ll << 40 };
	uint64_t lf_offset = 0, ll_offset = 128;
	uint32_t i, grid[3];
	float f;

	for (i = 0; i < 256; i++)
		pg[i] = (unsigned char)(i * 7 + 3);
	memcpy(k.cpu, kd, sizeof(kd));
	VT_CL_PUT(&blk, g.va);
	VT_CL_PUT(&blk, k.va);
	VT_CL_PUT(&blk, o.va);
	VT_CL_PUT(&blk, lf_offset);
	VT_CL_PUT(&blk, ll_offset);
	grid1(grid, 1);
	vt_cl_run(&c, "vloads", grid, grid, &blk, 256);

	memset(want, 0, sizeof(want));
	memcpy(want, pg + 12, 12);
	memcpy(want + 48, pg + 1 + 80, 16);
	memcpy(want + 64, kd + 2, 16);
	memcpy(want + 80, priv, 16);
	for (i = 0; i < 8; i++) {
		f = (float)(i + 1) * 2.0f;
		memcpy(want + 96 + 4 * i, &f, 4);
	}
	memcpy(want + 128, ll, 16);
	memcpy(want + 144, pg, 8);
	want[153] = 7;
	want[154] = 8;
	want[155] = 9;
	memcpy(want + 320, priv + 2, 8);
	for (i = 0; i < sizeof(want); i++)
		if (((unsigned char *)o.cpu)[i] != want[i])
			vtest_fail(__FILE__, __LINE__, "byte %u: %u, expected %u", i,
				   ((unsigned char *)o.cpu)[i], want[i]);
	vt_cl_close(&c);
}

/* The value of half bits @h. */
static double half_value(uint16_t h)
{
	int e = (h >> 10) & 0x1f, m = h & 0x3ff;
	double v;

	if (e == 0x1f)
		v = m ? NAN : INFINITY;
	else
		v = e ? ldexp(1024 + m, e - 25) : ldexp(m, -24);
	return (h & 0x8000) ? -v : v;
}

enum { RTE, RTZ, RTP, RTN };

/*
 * The half of @v in @mode, found among every half: the two that surround
 * |v|, and the one the mode picks (ties to the even one).
 */
static uint16_t ref_half(double v, int mode)
{
	uint16_t sign = signbit(v) ? 0x8000 : 0, lo = 0, hi;
	double a = fabs(v), dlo, dhi;
	bool up;

	if (isnan(v))
		return 0x7e00;
	if (isinf(v))
		return sign | 0x7c00;
	if (a > 65504.0) {
		if (mode == RTE)
			up = a >= 65520.0;
		else
			up = mode == (sign ? RTN : RTP);
		return sign | (up ? 0x7c00 : 0x7bff);
	}
	while (lo < 0x7bff && half_value(lo + 1) <= a)
		lo++;
	if (half_value(lo) == a)
		return sign | lo;
	hi = lo + 1;
	dlo = a - half_value(lo);
	dhi = half_value(hi) - a;
	switch (mode) {
	case RTE:
		up = dhi < dlo || (dhi == dlo && (hi & 1) == 0);
		break;
	case RTZ:
		up = false;
		break;
	case RTP:
		up = !sign;
		break;
	default:
		up = !!sign;
		break;
	}
	return sign | (up ? hi : lo);
}

static bool same_half(uint16_t got, uint16_t want)
{
	if ((want & 0x7c00) == 0x7c00 && (want & 0x3ff))
		return (got & 0x7c00) == 0x7c00 && (got & 0x3ff);
	return got == want;
}

/*
 * vstore_half from float and double in every rounding mode, on ties,
 * overflow, subnormals, a double that a float would round twice; and
 * vload_half of chosen halves.
 */
VTEST(vstore_half_rounding)
{
	static const float fv[] = {
		1.0f, 65504.0f, 65519.99f, 65520.0f, 65536.0f, 1.0f / 3, -1.0f / 3,
		0x1p-24f, 0x1p-25f, 0x1.8p-25f, 0x1p-26f, 1e-10f, -1e-10f, 6.1e-5f,
		0x1.ffcp-15f, NAN, INFINITY, -INFINITY, -0.0f, 0.1f, 2049.0f, 2051.0f,
		4097.0f, 1000.5f, -65520.0f, 1e10f, 0x1.002p0f, 0x1.006p0f,
	};
	static const uint16_t hv[] = {
		0x3c00, 0xc000, 0x7bff, 0x0001, 0x03ff, 0x0400, 0x8000, 0x7c00, 0xfc00,
		0x3555, 0x8001, 0x5640, 0x0200, 0x7800,
	};
	const uint32_t n = sizeof(fv) / sizeof(fv[0]);
	struct vt_cl c = vt_cl_open(VT_MODULE(lib_module));
	struct vt_cl_buf f = vt_cl_buf_new(c.dev, 4096), d = vt_cl_buf_new(c.dev, 4096);
	struct vt_cl_buf o = vt_cl_buf_new(c.dev, 4096), h = vt_cl_buf_new(c.dev, 4096);
	struct vt_cl_buf back = vt_cl_buf_new(c.dev, 4096);
	struct vt_cl_block blk = vt_cl_block_new(NULL, 1);
	float *pf = f.cpu, *pback = back.cpu;
	double *pd = d.cpu;
	uint16_t *po = o.cpu, *ph = h.cpu;
	uint32_t grid[3], i, m;

	for (i = 0; i < n; i++) {
		pf[i] = fv[i];
		pd[i] = fv[i];
		ph[i] = hv[i % (sizeof(hv) / sizeof(hv[0]))];
	}
	/* Doubles that would round twice through a float, and ties. */
	pd[0] = 1.0 + 0x1p-11 + 0x1p-40;
	pd[1] = 1.0 + 0x1p-11;
	pd[2] = 0x1p-25 + 0x1p-60;
	pd[3] = 0x1p-25;
	pd[4] = -(1.0 + 0x1p-11 + 0x1p-40);
	pd[5] = 65519.999999999;
	VT_CL_PUT(&blk, f.va);
	VT_CL_PUT(&blk, d.va);
	VT_CL_PUT(&blk, o.va);
	VT_CL_PUT(&blk, h.va);
	VT_CL_PUT(&blk, back.va);
	grid1(grid, n);
	vt_cl_run(&c, "halves", grid, one, &blk, 0);
	VT_ASSERT_EQ(ref_half(pd[0], RTE), 0x3c01);
	VT_ASSERT_EQ(ref_half((float)pd[0], RTE), 0x3c00);
	for (i = 0; i < n; i++) {
		static const int modes[5] = { RTE, RTE, RTZ, RTP, RTN };

		for (m = 0; m < 5; m++) {
			uint16_t wf = ref_half(pf[i], modes[m]), wd = ref_half(pd[i], modes[m]);

			if (!same_half(po[i * 10 + m], wf))
				vtest_fail(__FILE__, __LINE__, "float %a mode %u: 0x%04x, expected 0x%04x",
					   (double)pf[i], m, po[i * 10 + m], wf);
			if (!same_half(po[i * 10 + 5 + m], wd))
				vtest_fail(__FILE__, __LINE__, "double %a mode %u: 0x%04x, expected 0x%04x",
					   pd[i], m, po[i * 10 + 5 + m], wd);
		}
		if (!same_f(pback[i], (float)half_value(ph[i])))
			vtest_fail(__FILE__, __LINE__, "vload_half(0x%04x): %a, expected %a", ph[i],
				   (double)pback[i], half_value(ph[i]));
	}
	vt_cl_close(&c);
}

/*
 * The vector half functions (vload_halfn, vloada_halfn, vstore_halfn,
 * vstorea_halfn, 3 components with a stride of 4) in global, constant,
 * local and private memory.
 */
VTEST(half_vectors_and_spaces)
{
	struct vt_cl c = vt_cl_open(VT_MODULE(lib_module));
	struct vt_cl_buf h = vt_cl_buf_new(c.dev, 4096), o = vt_cl_buf_new(c.dev, 4096);
	struct vt_cl_buf f = vt_cl_buf_new(c.dev, 4096);
	struct vt_cl_block blk = vt_cl_block_new(NULL, 1);
	uint16_t *ph = h.cpu, *po = o.cpu, wo[36], ppriv[3];
	float *pf = f.cpu, wf[12], vals[32];
	uint64_t local_offset = 0;
	uint32_t grid[3], i;

	for (i = 0; i < 32; i++) {
		vals[i] = (float)i * 0.5f - 4.0f;
		ph[i] = ref_half(vals[i], RTE);
	}
	VT_CL_PUT(&blk, h.va);
	VT_CL_PUT(&blk, h.va);		/* __constant: the same halves */
	VT_CL_PUT(&blk, o.va);
	VT_CL_PUT(&blk, f.va);
	VT_CL_PUT(&blk, local_offset);
	grid1(grid, 1);
	vt_cl_run(&c, "halves_spaces", grid, grid, &blk, 64);

	memset(wo, 0, sizeof(wo));
	ppriv[0] = ref_half(1.0f / 3, RTP);
	ppriv[1] = ref_half(-1.0f / 3, RTP);
	ppriv[2] = ref_half(65520.0f, RTP);
	wo[0] = ph[2];
	wo[1] = ph[3];
	wo[2] = 0;
	wo[4] = ref_half(1.0f / 3, RTN);
	wo[5] = ref_half(-1.0f / 3, RTN);
	wo[6] = ref_half(1e-8f, RTN);
	for (i = 0; i < 8; i++)
		wo[8 + i] = ph[i];
	for (i = 0; i < 16; i++)
		wo[16 + i] = ref_half(vals[i] * 2.0f, RTE);
	wo[32] = ref_half(1.0 / 3, RTE);
	wo[34] = ref_half(1e-10, RTP);
	wo[35] = ref_half(-1e-10, RTP);
	VT_ASSERT_EQ(wo[34], 0x0001);
	VT_ASSERT_EQ(wo[35], 0x8000);
	for (i = 0; i < 36; i++)
		if (po[i] != wo[i])
			vtest_fail(__FILE__, __LINE__, "half %u: 0x%04x, expected 0x%04x", i, po[i], wo[i]);
	for (i = 0; i < 4; i++) {
		wf[i] = vals[4 + i];
		wf[4 + i] = vals[i];
	}
	for (i = 0; i < 3; i++)
		wf[8 + i] = (float)half_value(ppriv[i]);
	wf[11] = 0x1p-24f;
	for (i = 0; i < 12; i++)
		if (!same_f(pf[i], wf[i]))
			vtest_fail(__FILE__, __LINE__, "float %u: %a, expected %a", i,
				   (double)pf[i], (double)wf[i]);
	vt_cl_close(&c);
}

/*
 * async_work_group_copy and _strided_copy between global and local
 * memory, in both directions, for int and float4, by workgroups of 16
 * that do not divide the 100, 40 and 34 elements; chained events;
 * wait_group_events of two.
 */
VTEST(async_copies)
{
	const uint32_t groups = 4;
	struct vt_cl c = vt_cl_open(VT_MODULE(lib_module));
	struct vt_cl_buf src = vt_cl_buf_new(c.dev, 4096), dst = vt_cl_buf_new(c.dev, 4096);
	struct vt_cl_buf src4 = vt_cl_buf_new(c.dev, 4096), dst4 = vt_cl_buf_new(c.dev, 4096);
	struct vt_cl_buf strided = vt_cl_buf_new(c.dev, 4096);
	struct vt_cl_block blk = vt_cl_block_new(NULL, 1);
	int32_t *ps = src.cpu, *pd = dst.cpu, *pst = strided.cpu;
	float *ps4 = src4.cpu, *pd4 = dst4.cpu;
	uint64_t tile = 0, third = 400, t4 = 544;
	uint32_t grid[3], wg[3], i, g, j;

	for (i = 0; i < groups * 100; i++)
		ps[i] = (int32_t)i * 3 - 7;
	for (i = 0; i < groups * 40 * 4; i++)
		ps4[i] = (float)i * 0.5f - 3.0f;
	for (i = 0; i < groups * 68; i++)
		pst[i] = -1;
	VT_CL_PUT(&blk, src.va);
	VT_CL_PUT(&blk, dst.va);
	VT_CL_PUT(&blk, src4.va);
	VT_CL_PUT(&blk, dst4.va);
	VT_CL_PUT(&blk, strided.va);
	VT_CL_PUT(&blk, tile);
	VT_CL_PUT(&blk, third);
	VT_CL_PUT(&blk, t4);
	grid1(grid, groups * 16);
	grid1(wg, 16);
	vt_cl_run(&c, "async", grid, wg, &blk, 544 + 640);
	for (i = 0; i < groups * 100; i++)
		VT_ASSERT_EQ(pd[i], 2 * ps[i]);
	for (i = 0; i < groups * 40 * 4; i++)
		VT_ASSERT_EQ(f2u(pd4[i]), f2u(ps4[i] * 2.0f));
	for (g = 0; g < groups; g++)
		for (j = 0; j < 68; j++)
			VT_ASSERT_EQ(pst[g * 68 + j], j % 2 ? -1 : ps[g * 100 + j / 2 * 3]);
	vt_cl_close(&c);
}

static int32_t sat_i32(double v)
{
	return isnan(v) ? 0 : v <= -2147483648.0 ? INT32_MIN : v >= 2147483647.0 ? INT32_MAX :
	       (int32_t)v;
}

static uint32_t sat_u32(double v)
{
	return isnan(v) || v <= 0 ? 0 : v >= 4294967295.0 ? UINT32_MAX : (uint32_t)v;
}

static int64_t sat_i64(double v)
{
	return isnan(v) ? 0 : v <= -0x1p63 ? INT64_MIN : v >= 0x1p63 ? INT64_MAX : (int64_t)v;
}

static uint64_t sat_u64(double v)
{
	return isnan(v) || v <= 0 ? 0 : v >= 0x1p64 ? UINT64_MAX : (uint64_t)v;
}

static int64_t clamp64(int64_t v, int64_t lo, int64_t hi)
{
	return v < lo ? lo : v > hi ? hi : v;
}

/*
 * convert_<type> and convert_<type>_sat between integers, float and
 * double: towards zero to integers, to nearest even to floating point;
 * saturation of NaN (0), infinities and values out of range.
 */
VTEST(conversions)
{
	static const float fv[] = {
		0.5f, -0.5f, 1.5f, -1.99f, 3e9f, -3e9f, NAN, INFINITY, -INFINITY,
		2147483520.0f, -2147483648.0f, 1e20f, 255.9f, 65535.5f, 4294967040.0f,
	};
	static const double dv[] = {
		0.5, -0.7, 1e19, -1e19, 9.3e18, 0x1p63, 1e300, 32767.9, -32768.9, 40000,
		NAN, -INFINITY, 1.8e19, -1.5, 4294967295.5,
	};
	static const int64_t lv[] = {
		0, -1, (1ll << 53) + 1, INT64_MIN, INT64_MAX, 4294967296ll, 300, -300,
		1ll << 31, 127, -129, 65535, (1ll << 62) + 1, -(1ll << 40), 255,
	};
	const uint32_t n = sizeof(fv) / sizeof(fv[0]);
	struct vt_cl c = vt_cl_open(VT_MODULE(lib_module));
	struct vt_cl_buf f = vt_cl_buf_new(c.dev, 4096), d = vt_cl_buf_new(c.dev, 4096);
	struct vt_cl_buf l = vt_cl_buf_new(c.dev, 4096), oi = vt_cl_buf_new(c.dev, 4096);
	struct vt_cl_buf ol = vt_cl_buf_new(c.dev, 4096), of = vt_cl_buf_new(c.dev, 4096);
	struct vt_cl_buf od = vt_cl_buf_new(c.dev, 4096);
	struct vt_cl_block blk = vt_cl_block_new(NULL, 1);
	int32_t *pi = oi.cpu;
	int64_t *pl = ol.cpu;
	float *pf = of.cpu;
	double *pd = od.cpu;
	uint32_t grid[3], i, k;

	memcpy(f.cpu, fv, sizeof(fv));
	memcpy(d.cpu, dv, sizeof(dv));
	memcpy(l.cpu, lv, sizeof(lv));
	VT_CL_PUT(&blk, f.va);
	VT_CL_PUT(&blk, d.va);
	VT_CL_PUT(&blk, l.va);
	VT_CL_PUT(&blk, oi.va);
	VT_CL_PUT(&blk, ol.va);
	VT_CL_PUT(&blk, of.va);
	VT_CL_PUT(&blk, od.va);
	grid1(grid, n);
	vt_cl_run(&c, "converts", grid, one, &blk, 0);
	for (i = 0; i < n; i++) {
		float x = fv[i];
		double y = dv[i];
		int64_t z = lv[i], wl[6];
		int32_t wi[12];
		bool in_range = fabsf(x) < 0x1p31f, half_in_range = fabsf(x * 0.5f) < 0x1p31f;

		wi[0] = in_range ? (int32_t)x : pi[i * 12];
		wi[1] = sat_i32(x);
		wi[2] = (int32_t)sat_u32(x);
		wi[3] = (int32_t)clamp64(z, INT32_MIN, INT32_MAX);
		wi[4] = (int32_t)(z < 0 ? 0 : z > UINT32_MAX ? UINT32_MAX : (uint32_t)z);
		wi[5] = (int32_t)clamp64(z, INT8_MIN, INT8_MAX);
		wi[6] = (int32_t)clamp64((int32_t)(uint32_t)z, 0, UINT8_MAX);
		wi[7] = isnan(y) ? 0 : y <= -32768.0 ? -32768 : y >= 32767.0 ? 32767 : (int32_t)y;
		wi[8] = (int32_t)(uint32_t)z;
		wi[9] = half_in_range ? (int32_t)(x * 0.5f) : pi[i * 12 + 9];
		wi[10] = in_range ? (int32_t)clamp64(-(int64_t)x, 0, 255) : pi[i * 12 + 10];
		wi[11] = sat_i32(y);
		wl[0] = fabs(y) < 0x1p63 ? (int64_t)y : pl[i * 6];
		wl[1] = sat_i64(y);
		wl[2] = (int64_t)sat_u64(x);
		wl[3] = z;
		wl[4] = (uint64_t)z > INT64_MAX ? INT64_MAX : z;
		wl[5] = (int64_t)sat_u64(y);
		for (k = 0; k < 12; k++)
			if (pi[i * 12 + k] != wi[k])
				vtest_fail(__FILE__, __LINE__, "%u (%a, %a, %lld) int %u: %d, expected %d",
					   i, (double)x, y, (long long)z, k, pi[i * 12 + k], wi[k]);
		for (k = 0; k < 6; k++)
			if (pl[i * 6 + k] != wl[k])
				vtest_fail(__FILE__, __LINE__,
					   "%u (%a, %a, %lld) long %u: %lld, expected %lld", i,
					   (double)x, y, (long long)z, k, (long long)pl[i * 6 + k],
					   (long long)wl[k]);
		VT_ASSERT_EQ(f2u(pf[i * 3]), f2u((float)z));
		VT_ASSERT(same_f(pf[i * 3 + 1], (float)y));
		VT_ASSERT_EQ(f2u(pf[i * 3 + 2]), f2u((float)z));
		VT_ASSERT_EQ(d2u(pd[i * 2]), d2u((double)z));
		VT_ASSERT_EQ(d2u(pd[i * 2 + 1]), d2u((double)(uint32_t)z));
	}
	vt_cl_close(&c);
}

#define N_PRINT	8

/* The two lines work-item @i prints, as the host's snprintf makes them. */
static void print_lines(int i, char *l1, char *l2, size_t size)
{
	char hex[16][16], *p;
	int k;

	snprintf(l1, size, "item %u: %d %s|%d,%d,%d,%d|%5.2f|%c|%lx|%hhd|%f,%f|%e|%%|%-*d|%.3s\n",
		 (unsigned int)i, -i * 1000, "lit", i, -1, INT32_MIN, 7, (double)(1.25f * i),
		 'A' + i, 0xdeadbeefcafeul + (unsigned long)i, -3, 0.5, (double)-i, 1e-3, 4, i,
		 "abcdef");
	for (k = 0; k < 16; k++)
		snprintf(hex[k], sizeof(hex[k]), "%x", (unsigned int)i);
	p = l2 + snprintf(l2, size, "%hhu,%hhu,%hhu %hd,%hd,%hd,%hd,%hd,%hd,%hd,%hd ", 1, 2, 255,
			  -1, 2, -3, 4, -5, 6, -7, i);
	for (k = 0; k < 16; k++)
		p += sprintf(p, "%s%s", hex[k], k < 15 ? "," : " ");
	sprintf(p, "%ld,%ld %f,%f,%f,%f %hu,%hu,%hu,%hu\n", LONG_MIN, (long)i, 0.5, -1.0, 1e10,
		(double)i, 65535, 0, 1, i);
}

static int cmp_line(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/*
 * Formats the printf buffer @pb of @size bytes; the lines, sorted, into
 * @lines (each at most 512 bytes).  Return: the formatter's result.
 */
static int format_lines(const void *pb, size_t size, char **lines, int *count)
{
	static char text[65536];
	FILE *f = fmemopen(text, sizeof(text), "w");
	char *p, *save = NULL;
	int ret;

	VT_ASSERT(f);
	memset(text, 0, sizeof(text));
	ret = vaccel_cl_printf_format(pb, size, f);
	fclose(f);
	*count = 0;
	for (p = strtok_r(text, "\n", &save); p; p = strtok_r(NULL, "\n", &save))
		snprintf(lines[(*count)++], 512, "%s\n", p);
	qsort(lines, *count, sizeof(*lines), cmp_line);
	return ret;
}

/*
 * printf of every kind of argument and of vectors of every size (passed
 * in registers, and by reference above 16 bytes) from 8 work-items: the
 * records, formatted by the host, are the host's own snprintf lines.
 * Then a buffer too small for all of them: what fits is whole, the rest
 * are counted as dropped and their printf returned -1.  Without a buffer,
 * printf returns -1.
 */
VTEST(printf_records)
{
	struct vt_cl c = vt_cl_open(VT_MODULE(lib_module));
	struct vt_cl_buf ret = vt_cl_buf_new(c.dev, 4096), pb = vt_cl_buf_new(c.dev, 65536);
	struct vt_cl_block blk = vt_cl_block_new(NULL, 1);
	static char store[2 * N_PRINT][512], want_store[2 * N_PRINT][512];
	char *lines[2 * N_PRINT], *want[2 * N_PRINT];
	int32_t *pr = ret.cpu;
	uint32_t grid[3], failed = 0;
	int i, count, j;

	for (i = 0; i < 2 * N_PRINT; i++) {
		lines[i] = store[i];
		want[i] = want_store[i];
	}
	for (i = 0; i < N_PRINT; i++)
		print_lines(i, want[2 * i], want[2 * i + 1], 512);
	qsort(want, 2 * N_PRINT, sizeof(*want), cmp_line);
	VT_CL_PUT(&blk, ret.va);
	vt_cl_block_printf(&blk, pb.va, 65536);
	grid1(grid, N_PRINT);
	vt_cl_run(&c, "prints", grid, grid, &blk, 0);
	for (i = 0; i < 2 * N_PRINT; i++)
		VT_ASSERT_EQ(pr[i], 0);
	VT_ASSERT_EQ(format_lines(pb.cpu, 65536, lines, &count), 2 * N_PRINT);
	VT_ASSERT_EQ(count, 2 * N_PRINT);
	for (i = 0; i < 2 * N_PRINT; i++)
		if (strcmp(lines[i], want[i]))
			vtest_fail(__FILE__, __LINE__, "line %d: \"%s\", expected \"%s\"", i,
				   lines[i], want[i]);
	VT_ASSERT_EQ(vaccel_cl_printf_dropped(pb.cpu, 65536), 0);

	/* A buffer of 700 bytes: some records fit, the others are dropped. */
	memset(pb.cpu, 0xa5, 65536);
	memset(pb.cpu, 0, 8);
	vt_cl_run(&c, "prints", grid, grid, &blk, 0);
	blk = vt_cl_block_new(NULL, 1);
	VT_CL_PUT(&blk, ret.va);
	vt_cl_block_printf(&blk, pb.va, 700);
	memset(pb.cpu, 0, 8);
	vt_cl_run(&c, "prints", grid, grid, &blk, 0);
	for (i = 0; i < 2 * N_PRINT; i++) {
		VT_ASSERT(pr[i] == 0 || pr[i] == -1);
		failed += pr[i] == -1;
	}
	VT_ASSERT(failed > 0 && failed < 2 * N_PRINT);
	VT_ASSERT_EQ(vaccel_cl_printf_dropped(pb.cpu, 700), failed);
	VT_ASSERT_EQ(format_lines(pb.cpu, 700, lines, &count), 2 * N_PRINT - (int)failed);
	for (i = 0; i < count; i++) {
		for (j = 0; j < 2 * N_PRINT && strcmp(lines[i], want[j]); j++)
			;
		if (j == 2 * N_PRINT)
			vtest_fail(__FILE__, __LINE__, "unexpected line \"%s\"", lines[i]);
	}

	/* No buffer. */
	blk = vt_cl_block_new(NULL, 1);
	VT_CL_PUT(&blk, ret.va);
	vt_cl_run(&c, "prints", grid, grid, &blk, 0);
	for (i = 0; i < 2 * N_PRINT; i++)
		VT_ASSERT_EQ(pr[i], -1);
	vt_cl_close(&c);
}

VTEST_MAIN()
