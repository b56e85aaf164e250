// SPDX-License-Identifier: MIT
/*
 * Copyright 2026 The vaccel authors
 *
 * DOC: math_exact - the math functions whose results are exact, bit for bit
 *
 * fmod, remainder, remquo, fdim, maxmag, minmag, ldexp, ilogb, logb,
 * frexp, fract, modf and nan, for float and double, on every pair of a
 * set of edge values (zeros, subnormals, the smallest and largest normal
 * values, integers and halves, infinities, NaN) and on random pairs, half
 * of any bits, half with exponents close together (so that the division
 * of fmod and remquo runs whole).  The references are the host's C
 * library, whose results for these functions are exact, and MPFR for the
 * seven low bits of remquo's quotient; fract, maxmag and minmag are
 * written from the specification's definitions (so fract(-0) is
 * -0 - floor(-0), +0).  A NaN matches any NaN.
 *
 * Then the vector forms and the other address spaces: float4 and double3
 * with the second result of fract and frexp in __local memory, of modf
 * and remquo in __private memory, and ldexp with one exponent for all
 * components, which must give the scalar forms' results.
 *
 * stdout gets one line per function and type, the number of values and
 * whether all were exact, and the first wrong results: the same on every
 * correct implementation.
 */
#define _GNU_SOURCE
#include <float.h>
#include <limits.h>
#include <math.h>
#include <mpfr.h>
#include <stdint.h>
#include "clt.h"

#define NRANDOM		8192
#define LOCAL_SIZE	64

static const double edges[] = {
	0.0, -0.0, 1.0, -1.0, 0.5, -0.5, 1.5, -1.5, 2.0, -2.0, 3.0, -3.0, 2.5, -3.5, 7.0,
	10.0, -10.0, 0.1, -0.1, 1e-3, 123456.75, -98765.5, 1e10, -1e10, 1e30, -1e30,
	0x1p-149, -0x1p-149, 0x1p-126, -0x1p-126, 0x1.fffffcp-127, 0x1p-140, FLT_MAX, -FLT_MAX,
	0x1.fffffep-1, 0x1.000002p+0, 16777216.0, 16777215.0, 8388608.5, -8388607.5,
	0x1p-1074, -0x1p-1074, 0x1p-1022, 0x1.ffffffffffffep-1023, 1e-310, DBL_MAX, -DBL_MAX,
	0x1.fffffffffffffp-1, 0x1p53, 0x1p52 + 0.5, 1e300, -1e-300,
	INFINITY, -INFINITY, NAN,
};
#define NEDGES (sizeof(edges) / sizeof(edges[0]))
#define NPAIRS (NEDGES * NEDGES + NRANDOM)
/* A multiple of the vector kernels' 4 * LOCAL_SIZE and 3 * LOCAL_SIZE. */
#define N (((NPAIRS + 767) / 768) * 768)

static const int exponents[] = {
	0, 1, -1, 5, -5, 24, -24, 100, -100, 127, -126, -149, -150, 128, 200, -200, 300,
	-300, 1023, -1022, -1074, -1075, 1024, 2046, -2098, 40000, -40000, INT_MAX, INT_MIN,
};
#define NEXPONENTS (sizeof(exponents) / sizeof(exponents[0]))

static uint64_t seed = 0x9e3779b97f4a7c15ULL;

static uint64_t next_random(void)
{
	uint64_t z = (seed += 0x9e3779b97f4a7c15ULL);	/* splitmix64 */

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/* The inputs, as doubles that the float run rounds to float first. */
static double xs[N], ys[N];
static int ks[N];

static void make_inputs(int is_double)
{
	size_t i, a, b;

	for (a = 0; a < NEDGES; a++)
		for (b = 0; b < NEDGES; b++) {
			xs[a * NEDGES + b] = edges[a];
			ys[a * NEDGES + b] = edges[b];
		}
	for (i = NEDGES * NEDGES; i < N; i++) {
		uint64_t r = next_random(), s = next_random();
		double x, y;

		if (i % 2) {
			/* Exponents at most 60 apart, the division runs whole. */
			x = ldexp((double)(r >> 11) * 0x1p-53 + 0.5, (int)(r % 120) - 60);
			y = ldexp((double)(s >> 11) * 0x1p-53 + 0.5, (int)(s % 60) - 30);
			x = r & (1ULL << 62) ? -x : x;
			y = s & (1ULL << 62) ? -y : y;
		} else if (is_double) {
			memcpy(&x, &r, 8);
			memcpy(&y, &s, 8);
		} else {
			uint32_t u = (uint32_t)r, v = (uint32_t)s;
			float f, g;

			memcpy(&f, &u, 4);
			memcpy(&g, &v, 4);
			x = f;
			y = g;
		}
		xs[i] = x;
		ys[i] = y;
	}
	for (i = 0; i < N; i++) {
		ks[i] = exponents[i % NEXPONENTS];
		if (!is_double) {
			xs[i] = (float)xs[i];
			ys[i] = (float)ys[i];
		}
	}
}

/* Bit equality of two results of type float (!is_double) or double; NaN matches NaN. */
static int same(double a, double b)
{
	if (isnan(a) || isnan(b))
		return isnan(a) && isnan(b);
	return a == b && signbit(a) == signbit(b);
}

/*
 * The specification's maxmag and minmag.  Its fmax and fmin return the
 * other operand of a NaN, signalling or not, where the C library's give a
 * NaN for a signalling one.
 */
static double mag(double x, double y, int max)
{
	double ax = fabs(x), ay = fabs(y);

	if (isnan(x) || isnan(y))
		return isnan(x) ? y : x;
	if (max ? ax > ay : ax < ay)
		return x;
	if (max ? ay > ax : ay < ax)
		return y;
	return max ? fmax(x, y) : fmin(x, y);
}

static double fract_ref(double x, double *ip, int is_double)
{
	double below_one = is_double ? 0x1.fffffffffffffp-1 : 0x1.fffffep-1;

	*ip = floor(x);
	if (isnan(x))
		return x;
	if (isinf(x))
		return copysign(0.0, x);
	if (is_double)
		return fmin(x - *ip, below_one);
	return fminf((float)x - (float)*ip, (float)below_one);	/* one float rounding */
}

/* The seven low bits of round(x / y), with its sign, from MPFR. */
static int quo_ref(double x, double y, int is_double)
{
	mpfr_t r, mx, my;
	long q;

	if (isnan(x) || isnan(y) || isinf(x) || y == 0.0)
		return INT_MIN;	/* unspecified */
	mpfr_inits2(64, r, (mpfr_ptr)0);
	mpfr_init2(mx, 53);
	mpfr_init2(my, 53);
	mpfr_set_d(mx, x, MPFR_RNDN);
	mpfr_set_d(my, y, MPFR_RNDN);
	mpfr_remquo(r, &q, mx, my, MPFR_RNDN);
	mpfr_clears(r, mx, my, (mpfr_ptr)0);
	(void)is_double;
	return q >= 0 ? (int)(q & 127) : -(int)(-q & 127);
}

/* A results buffer as doubles: from float or double device values. */
struct results {
	double v[N];
	double second[N];	/* iptr, or the int of frexp, ilogb and remquo */
};

static struct results got, vec;

static cl_program program;
static struct clt t;

static const char source[] =
	"#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n"
	"#define TWO(f, T) __kernel void f##_##T(__global const T *x, __global const T *y,"
	" __global T *r, __global int *s) { size_t i = get_global_id(0); r[i] = f(x[i], y[i]); }\n"
	"#define ONE(f, T, R) __kernel void f##_##T(__global const T *x, __global const T *y,"
	" __global R *r, __global int *s) { size_t i = get_global_id(0); r[i] = f(x[i]); }\n"
	"#define PTR(f, T, P) __kernel void f##_##T(__global const T *x, __global const T *y,"
	" __global T *r, __global P *s) { size_t i = get_global_id(0); r[i] = f(x[i], s + i); }\n"
	"#define ALL(T) TWO(fmod, T) TWO(remainder, T) TWO(fdim, T) TWO(maxmag, T)"
	" TWO(minmag, T) ONE(ilogb, T, int) ONE(logb, T, T) PTR(frexp, T, int) PTR(fract, T, T)"
	" PTR(modf, T, T)\\\n"
	" __kernel void remquo_##T(__global const T *x, __global const T *y, __global T *r,"
	" __global int *s) { size_t i = get_global_id(0); r[i] = remquo(x[i], y[i], s + i); }\\\n"
	" __kernel void ldexp_##T(__global const T *x, __global const T *y, __global T *r,"
	" __global int *s) { size_t i = get_global_id(0); r[i] = ldexp(x[i], s[i]); }\n"
	"ALL(float)\nALL(double)\n"
	"__kernel void nan_float(__global const uint *c, __global float *r)"
	" { size_t i = get_global_id(0); r[i] = nan(c[i]); }\n"
	"__kernel void nan_double(__global const ulong *c, __global double *r)"
	" { size_t i = get_global_id(0); r[i] = nan(c[i]); }\n"
	/* Vectors: @n components of type @T, second results in local and private memory. */
	"#define VEC(T, n) __kernel void vec_##T(__global const T *x, __global const T *y,"
	" __global T *r, __global T *ri, __global int *s, __global const int *k) {\\\n"
	" size_t i = get_global_id(0), l = get_local_id(0);\\\n"
	" __local T##n lf[64]; __local int##n le[64]; T##n pf; int##n pe;\\\n"
	" T##n a = vload##n(i, x), b = vload##n(i, y);\\\n"
	" vstore##n(fract(a, &lf[l]), i, r); vstore##n(lf[l], i, ri);\\\n"
	" vstore##n(frexp(a, &le[l]), i, r + 1 * n * get_global_size(0));"
	" vstore##n(le[l], i, s + 1 * n * get_global_size(0));\\\n"
	" vstore##n(modf(a, &pf), i, r + 2 * n * get_global_size(0));"
	" vstore##n(pf, i, ri + 2 * n * get_global_size(0));\\\n"
	" vstore##n(remquo(a, b, &pe), i, r + 3 * n * get_global_size(0));"
	" vstore##n(pe, i, s + 3 * n * get_global_size(0));\\\n"
	" vstore##n(ldexp(a, k[i]), i, r + 4 * n * get_global_size(0));\\\n"
	" vstore##n(fmod(a, b), i, r + 5 * n * get_global_size(0)); }\n"
	"VEC(float, 4)\nVEC(double, 3)\n";

/* The inputs as the device's type: float (!is_double) or double. */
static void device_inputs(int is_double, void *x, void *y)
{
	size_t i;

	for (i = 0; i < N; i++) {
		if (is_double) {
			((double *)x)[i] = xs[i];
			((double *)y)[i] = ys[i];
		} else {
			((float *)x)[i] = (float)xs[i];
			((float *)y)[i] = (float)ys[i];
		}
	}
}

/* Runs kernel @name_T on the inputs: r gets the results, s the second ones. */
static void run(const char *name, int is_double, struct results *res)
{
	size_t size = is_double ? 8 : 4, n = N, i;
	void *x = malloc(N * size), *y = malloc(N * size), *r = malloc(N * size);
	int *s = malloc(N * sizeof(int));
	int ptr_fp = !strcmp(name, "fract") || !strcmp(name, "modf");
	void *sf = calloc(N, size);
	char kname[64];

	device_inputs(is_double, x, y);
	for (i = 0; i < N; i++)
		s[i] = ks[i];
	cl_mem mx = clt_buffer(&t, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, N * size, x);
	cl_mem my = clt_buffer(&t, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, N * size, y);
	cl_mem mr = clt_buffer(&t, CL_MEM_WRITE_ONLY, N * size, NULL);
	cl_mem ms = clt_buffer(&t, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR,
			       ptr_fp ? N * size : N * sizeof(int), ptr_fp ? sf : (void *)s);

	snprintf(kname, sizeof(kname), "%s_%s", name, is_double ? "double" : "float");
	cl_kernel k = clt_kernel(program, kname);

	ARG(k, 0, mx); ARG(k, 1, my); ARG(k, 2, mr); ARG(k, 3, ms);
	CHECK(clEnqueueNDRangeKernel(t.queue, k, 1, NULL, &n, NULL, 0, NULL, NULL));
	CHECK(clEnqueueReadBuffer(t.queue, mr, CL_TRUE, 0, N * size, r, 0, NULL, NULL));
	CHECK(clEnqueueReadBuffer(t.queue, ms, CL_TRUE, 0, ptr_fp ? N * size : N * sizeof(int),
				  ptr_fp ? sf : (void *)s, 0, NULL, NULL));
	for (i = 0; i < N; i++) {
		if (!strcmp(name, "ilogb"))
			res->v[i] = ((int *)r)[i];
		else
			res->v[i] = is_double ? ((double *)r)[i] : ((float *)r)[i];
		if (ptr_fp)
			res->second[i] = is_double ? ((double *)sf)[i] : ((float *)sf)[i];
		else
			res->second[i] = s[i];
	}
	clReleaseKernel(k);
	clReleaseMemObject(mx); clReleaseMemObject(my);
	clReleaseMemObject(mr); clReleaseMemObject(ms);
	free(x); free(y); free(r); free(s); free(sf);
}

/* The reference of @name at @i: the result, and the second one in *second. */
static double reference(const char *name, size_t i, int is_double, double *second)
{
	double x = xs[i], y = ys[i], r;
	int e;

	*second = NAN;
	if (!strcmp(name, "fmod"))
		return is_double ? fmod(x, y) : fmodf(x, y);
	if (!strcmp(name, "remainder") || !strcmp(name, "remquo")) {
		if (name[3] == 'q')
			*second = quo_ref(x, y, is_double);
		r = is_double ? remainder(x, y) : remainderf(x, y);
		/* A zero remainder has x's sign (IEEE 754), which glibc can miss. */
		return r == 0.0 ? copysign(0.0, x) : r;
	}
	if (!strcmp(name, "fdim"))
		return is_double ? fdim(x, y) : fdimf(x, y);
	if (!strcmp(name, "maxmag") || !strcmp(name, "minmag"))
		return mag(x, y, name[1] == 'a');
	if (!strcmp(name, "ldexp"))
		return is_double ? ldexp(x, ks[i]) : ldexpf(x, ks[i]);
	if (!strcmp(name, "ilogb"))	/* OpenCL's FP_ILOGBNAN is INT_MAX */
		return isnan(x) ? INT_MAX : ilogb(x);
	if (!strcmp(name, "logb"))
		return is_double ? logb(x) : logbf(x);
	if (!strcmp(name, "frexp")) {
		r = is_double ? frexp(x, &e) : frexpf(x, &e);
		*second = isfinite(x) ? e : NAN;	/* unspecified for inf and NaN */
		return r;
	}
	if (!strcmp(name, "fract"))
		return fract_ref(x, second, is_double);
	if (!strcmp(name, "modf"))
		return modf(x, second);		/* exact: the float's is the same */
	return NAN;
}

/* Compares one function's results with the references; prints its line. */
static void check(const char *name, int is_double, const struct results *res, const char *form)
{
	const char *type = is_double ? "double" : "float";
	size_t i, wrong = 0;

	for (i = 0; i < N; i++) {
		double second, want = reference(name, i, is_double, &second);
		int ok = same(res->v[i], want);

		/*
		 * fract(-inf): the specification's list of edge cases says
		 * -0, the formula +0 (PoCL's); the CTS accepts both.
		 */
		if (!strcmp(name, "fract") && isinf(xs[i]))
			ok = res->v[i] == 0.0;
		/* maxmag and minmag of +0 and -0: fmax's, either zero (IEEE 754's maxNum). */
		if (strstr(name, "mag") && xs[i] == 0.0 && ys[i] == 0.0)
			ok = res->v[i] == 0.0;

		if (!isnan(second) && second != INT_MIN)
			ok = ok && same(res->second[i], second);
		if (!ok && wrong++ < 3)
			printf("%s %s%s(%a, %a, %d) = %a, %a; expected %a, %a\n", name, type, form,
			       xs[i], ys[i], ks[i], res->v[i], res->second[i], want, second);
	}
	printf("%s %s%s: %zu values, %s\n", name, type, form, (size_t)N,
	       wrong ? "WRONG" : "all exact");
}

/* The vector kernel: results in six blocks, checked against the scalar references. */
static void check_vectors(int is_double)
{
	static const char *const names[] = { "fract", "frexp", "modf", "remquo", "ldexp", "fmod" };
	size_t size = is_double ? 8 : 4, width = is_double ? 3 : 4, items = N / width, i, f;
	size_t local = LOCAL_SIZE;
	void *x = malloc(N * size), *y = malloc(N * size);
	void *r = calloc(6 * N, size), *ri = calloc(6 * N, size);
	int *s = calloc(6 * N, sizeof(int)), *k = malloc(items * sizeof(int));

	device_inputs(is_double, x, y);
	for (i = 0; i < items; i++)
		k[i] = exponents[i % NEXPONENTS];
	cl_mem mx = clt_buffer(&t, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, N * size, x);
	cl_mem my = clt_buffer(&t, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, N * size, y);
	cl_mem mr = clt_buffer(&t, CL_MEM_WRITE_ONLY, 6 * N * size, NULL);
	cl_mem mri = clt_buffer(&t, CL_MEM_WRITE_ONLY, 6 * N * size, NULL);
	cl_mem ms = clt_buffer(&t, CL_MEM_WRITE_ONLY, 6 * N * sizeof(int), NULL);
	cl_mem mk = clt_buffer(&t, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, items * sizeof(int), k);
	cl_kernel kern = clt_kernel(program, is_double ? "vec_double" : "vec_float");

	ARG(kern, 0, mx); ARG(kern, 1, my); ARG(kern, 2, mr); ARG(kern, 3, mri);
	ARG(kern, 4, ms); ARG(kern, 5, mk);
	CHECK(clEnqueueNDRangeKernel(t.queue, kern, 1, NULL, &items, &local, 0, NULL, NULL));
	CHECK(clEnqueueReadBuffer(t.queue, mr, CL_TRUE, 0, 6 * N * size, r, 0, NULL, NULL));
	CHECK(clEnqueueReadBuffer(t.queue, mri, CL_TRUE, 0, 6 * N * size, ri, 0, NULL, NULL));
	CHECK(clEnqueueReadBuffer(t.queue, ms, CL_TRUE, 0, 6 * N * sizeof(int), s, 0, NULL, NULL));

	/* ldexp's exponent is one per vector here: the references' ks follow it. */
	for (f = 0; f < 6; f++) {
		int saved[N];

		if (f == 4) {
			memcpy(saved, ks, sizeof(saved));
			for (i = 0; i < N; i++)
				ks[i] = k[i / width];
		}
		for (i = 0; i < N; i++) {
			size_t at = f * N + i;
			int fp_second = f == 0 || f == 2;

			vec.v[i] = is_double ? ((double *)r)[at] : ((float *)r)[at];
			if (fp_second)
				vec.second[i] = is_double ? ((double *)ri)[at] : ((float *)ri)[at];
			else
				vec.second[i] = s[at];
		}
		check(names[f], is_double, &vec, is_double ? "3" : "4");
		if (f == 4)
			memcpy(ks, saved, sizeof(saved));
	}
	clReleaseKernel(kern);
	clReleaseMemObject(mx); clReleaseMemObject(my); clReleaseMemObject(mr);
	clReleaseMemObject(mri); clReleaseMemObject(ms); clReleaseMemObject(mk);
	free(x); free(y); free(r); free(ri); free(s); free(k);
}

/* nan(code) is a NaN for every code. */
static void check_nan(void)
{
	static const uint64_t codes[] = { 0, 1, 0x3fffff, 0x400000, 0xffffffff, 0x7ffffffffffff,
					  ~0ULL, 12345 };
	size_t n = 8, i, wrong = 0;
	uint32_t c32[8];
	float rf[8];
	double rd[8];

	for (i = 0; i < n; i++)
		c32[i] = (uint32_t)codes[i];
	cl_mem mc32 = clt_buffer(&t, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, sizeof(c32), c32);
	cl_mem mc64 = clt_buffer(&t, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, sizeof(codes),
				 (void *)codes);
	cl_mem mrf = clt_buffer(&t, CL_MEM_WRITE_ONLY, sizeof(rf), NULL);
	cl_mem mrd = clt_buffer(&t, CL_MEM_WRITE_ONLY, sizeof(rd), NULL);
	cl_kernel kf = clt_kernel(program, "nan_float"), kd = clt_kernel(program, "nan_double");

	ARG(kf, 0, mc32); ARG(kf, 1, mrf); ARG(kd, 0, mc64); ARG(kd, 1, mrd);
	CHECK(clEnqueueNDRangeKernel(t.queue, kf, 1, NULL, &n, NULL, 0, NULL, NULL));
	CHECK(clEnqueueNDRangeKernel(t.queue, kd, 1, NULL, &n, NULL, 0, NULL, NULL));
	CHECK(clEnqueueReadBuffer(t.queue, mrf, CL_TRUE, 0, sizeof(rf), rf, 0, NULL, NULL));
	CHECK(clEnqueueReadBuffer(t.queue, mrd, CL_TRUE, 0, sizeof(rd), rd, 0, NULL, NULL));
	for (i = 0; i < n; i++)
		if (!isnan(rf[i]) || !isnan(rd[i]))
			printf("nan(%#llx) = %a, %a: not NaN\n", (unsigned long long)codes[i],
			       rf[i], rd[i]), wrong++;
	printf("nan float and double: %zu codes, %s\n", n, wrong ? "WRONG" : "all NaN");
	clReleaseKernel(kf); clReleaseKernel(kd);
	clReleaseMemObject(mc32); clReleaseMemObject(mc64);
	clReleaseMemObject(mrf); clReleaseMemObject(mrd);
}

int main(void)
{
	static const char *const names[] = {
		"fmod", "remainder", "remquo", "fdim", "maxmag", "minmag", "ldexp", "ilogb",
		"logb", "frexp", "fract", "modf",
	};
	int is_double;
	size_t f;

	clt_init(&t);
	program = clt_build(&t, source, NULL);
	for (is_double = 0; is_double < 2; is_double++) {
		make_inputs(is_double);
		for (f = 0; f < sizeof(names) / sizeof(names[0]); f++) {
			run(names[f], is_double, &got);
			check(names[f], is_double, &got, "");
		}
		check_vectors(is_double);
	}
	check_nan();
	clReleaseProgram(program);
	clt_fini(&t);
	return 0;
}
