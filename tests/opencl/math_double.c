// SPDX-License-Identifier: MIT
/*
 * Copyright 2026 The vaccel authors
 *
 * DOC: math_double - the math library's double functions against MPFR
 *
 * Each double function of math_double.h runs on its edge values and on
 * random ones (NIN_D in all: half over a range of interest, half of any
 * bits), in a double4 so that the vector forms are called too; each
 * function of two arguments on NIN_D pairs (math_pairs_d()), with an
 * int4 for pown's and rootn's n.  Its error
 * on each is measured in ULP against MPFR's value at 200 bits; NaN must
 * give NaN, and an infinite result or an exact zero must be the correctly
 * rounded one's value (the sign of a zero is not judged, as in math.c).
 * stdout gets one line per function, within the specification's bound or
 * not, the same on every correct implementation; stderr the largest error
 * and how many results were not correctly rounded.  sincos must give what
 * sin and cos give, with its cosine through __private and __local
 * pointers.
 *
 * On vaccel, the result must also be, bit for bit, that of the core the
 * device library is built from (umd/opencl/device/math/\*_double.h),
 * compiled here for the host: a difference is printed on stdout, which
 * then differs from PoCL's.
 */
#include "clt.h"
#include "math_double.h"

#define NIN_D	8192

static uint64_t bits_d(double d)
{
	uint64_t u;

	memcpy(&u, &d, 8);
	return u;
}

/* What the inputs of one function gave so far. */
struct tally {
	size_t not_cr, bad, core_diff;
	double worst, worst_x, worst_y;
};

/*
 * Judges @y, the device's result on (@x0, @x1), against MPFR's @z, and on
 * vaccel against the core's @core.
 */
static void judge(struct tally *t, const char *name, int on_vaccel, double x0, double x1,
		  double y, double core, mpfr_srcptr z, mpfr_ptr tmp)
{
	double ref = mpfr_get_d(z, MPFR_RNDN), err;

	if (on_vaccel && bits_d(y) != bits_d(core) && !(isnan(y) && isnan(core)) &&
	    t->core_diff++ < 3)
		printf("%s(%a, %a): %a on the device, %a from the core\n", name, x0, x1, y, core);
	if (isnan(ref) || isnan(y)) {	/* any NaN: sign and payload are free */
		if (isnan(ref) != isnan(y) && t->bad++ < 3)
			printf("%s(%a, %a) = %a, not %a\n", name, x0, x1, y, ref);
		return;
	}
	if (isinf(ref) || isinf(y) || mpfr_zero_p(z)) {
		int same = bits_d(y) == bits_d(ref) || (y == 0.0 && ref == 0.0);

		if (!same && t->bad++ < 3)
			printf("%s(%a, %a) = %a, not %a\n", name, x0, x1, y, ref);
		return;
	}
	t->not_cr += bits_d(y) != bits_d(ref);
	err = ulp_error_d(y, z, tmp);
	if (err > t->worst) {
		t->worst = err;
		t->worst_x = x0;
		t->worst_y = x1;
	}
}

/* The function's lines: stdout the verdict, stderr the figures. */
static void verdict(const struct tally *t, const char *name, double bound, const char *platform)
{
	if (t->bad || t->worst > bound)
		printf("%s(double): WRONG: %zu special results wrong, %.3f ULP at (%a, %a) "
		       "(bound %g)\n", name, t->bad, t->worst, t->worst_x, t->worst_y, bound);
	else
		printf("%s(double): %d values within %g ULP\n", name, NIN_D, bound);
	fprintf(stderr, "%s(double) on %s: largest error %.4f ULP at (%a, %a), %zu of %d not "
		"correctly rounded\n", name, platform, t->worst, t->worst_x, t->worst_y,
		t->not_cr, NIN_D);
}

/* The outputs of kernel @name on @in, NIN_D values. */
static void run(struct clt *t, cl_program p, const char *name, cl_mem mi, cl_mem mo,
		double *out)
{
	size_t n = NIN_D / 4;
	cl_kernel k = clt_kernel(p, name);

	ARG(k, 0, mi); ARG(k, 1, mo);
	CHECK(clEnqueueNDRangeKernel(t->queue, k, 1, NULL, &n, NULL, 0, NULL, NULL));
	CHECK(clEnqueueReadBuffer(t->queue, mo, CL_TRUE, 0, NIN_D * sizeof(double), out, 0,
				  NULL, NULL));
	clReleaseKernel(k);
}

/*
 * sincos on sin's inputs gives, bit for bit, sin and cos of the same
 * platform, with the cosine through __private and __local pointers.
 */
static void sincos_check(struct clt *t, cl_program p, cl_mem mi, cl_mem mo, double *in,
			 double *out)
{
	static double s[NIN_D], c[NIN_D], sc[NIN_D];
	size_t n = NIN_D / 4, local = 64, i, wrong = 0;
	cl_mem mc = clt_buffer(t, CL_MEM_WRITE_ONLY, sizeof(sc), NULL);
	cl_kernel k = clt_kernel(p, "k_sincos");

	for (i = 0; strcmp(functions_d[i].name, "sin"); i++)
		;
	math_inputs_d(&functions_d[i], in, NIN_D);
	CHECK(clEnqueueWriteBuffer(t->queue, mi, CL_TRUE, 0, NIN_D * sizeof(double), in, 0, NULL,
				   NULL));
	run(t, p, "k_sin", mi, mo, s);
	run(t, p, "k_cos", mi, mo, c);
	ARG(k, 0, mi); ARG(k, 1, mo); ARG(k, 2, mc);
	CHECK(clEnqueueNDRangeKernel(t->queue, k, 1, NULL, &n, &local, 0, NULL, NULL));
	CHECK(clEnqueueReadBuffer(t->queue, mo, CL_TRUE, 0, sizeof(sc), out, 0, NULL, NULL));
	CHECK(clEnqueueReadBuffer(t->queue, mc, CL_TRUE, 0, sizeof(sc), sc, 0, NULL, NULL));
	clReleaseKernel(k);
	clReleaseMemObject(mc);
	for (i = 0; i < NIN_D; i++) {
		int same_s = bits_d(out[i]) == bits_d(s[i]) || (isnan(out[i]) && isnan(s[i]));
		int same_c = bits_d(sc[i]) == bits_d(c[i]) || (isnan(sc[i]) && isnan(c[i]));

		if ((!same_s || !same_c) && wrong++ < 3)
			printf("sincos(%a) = %a, %a; sin and cos give %a, %a\n", in[i], out[i],
			       sc[i], s[i], c[i]);
	}
	printf("sincos(double): %zu of %d values differ from sin and cos\n", wrong, NIN_D);
}

int main(void)
{
	static double in[NIN_D], in2[NIN_D], out[NIN_D];
	static cl_int iy[NIN_D];
	size_t n = NIN_D / 4, i, f;
	struct clt t;
	char platform[64] = "", src[8192];
	int on_vaccel, len = 0;
	mpfr_t x, x2, z, tmp;

	mpfr_inits2(200, x, x2, z, tmp, (mpfr_ptr)0);
	mpfr_set_emin(mpfr_get_emin_min());
	mpfr_set_emax(mpfr_get_emax_max());

	len += snprintf(src + len, sizeof(src) - len,
			"#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n"
			"#define F(f) __kernel void k_##f(__global const double4 *in,"
			" __global double4 *out) { size_t i = get_global_id(0);"
			" out[i] = f(in[i]); }\n");
	for (f = 0; f < NFUNCTIONS_D; f++)
		len += snprintf(src + len, sizeof(src) - len, "F(%s)\n", functions_d[f].name);
	for (f = 0; f < NFUNCTIONS2_D; f++)
		len += snprintf(src + len, sizeof(src) - len,
				"__kernel void k2_%s(__global const double4 *x, __global const %s4 *y,"
				" __global double4 *out) { size_t i = get_global_id(0);"
				" out[i] = %s(x[i], y[i]); }\n", functions2_d[f].name,
				functions2_d[f].int_y ? "int" : "double", functions2_d[f].name);
	/* sincos: the cosine in __private memory, then in __local (64 a group). */
	len += snprintf(src + len, sizeof(src) - len,
			"__kernel void k_sincos(__global const double4 *in, __global double4 *out,"
			" __global double4 *c) { size_t i = get_global_id(0), l = get_local_id(0);"
			" __local double4 lc[64]; double4 pc; out[i] = sincos(in[i], &pc);"
			" double4 s2 = sincos(in[i], &lc[l]); c[i] = all((s2 == out[i]) |"
			" isnan(s2)) ? (pc + lc[l]) * 0.5 : (double4)(0.5); }\n");

	clt_init(&t);
	CHECK(clGetPlatformInfo(t.platform, CL_PLATFORM_NAME, sizeof(platform), platform, NULL));
	on_vaccel = !strcmp(platform, "vaccel");
	cl_program p = clt_build(&t, src, NULL);
	cl_mem mi = clt_buffer(&t, CL_MEM_READ_ONLY, sizeof(in), NULL);
	cl_mem mo = clt_buffer(&t, CL_MEM_WRITE_ONLY, sizeof(out), NULL);
	cl_mem mi2 = clt_buffer(&t, CL_MEM_READ_ONLY, sizeof(in2), NULL);
	cl_mem miy = clt_buffer(&t, CL_MEM_READ_ONLY, sizeof(iy), NULL);

	for (f = 0; f < NFUNCTIONS_D; f++) {
		const struct function_d *fn = &functions_d[f];
		struct tally ta = { 0 };
		char name[32];

		math_inputs_d(fn, in, NIN_D);
		snprintf(name, sizeof(name), "k_%s", fn->name);
		cl_kernel k = clt_kernel(p, name);

		ARG(k, 0, mi); ARG(k, 1, mo);
		CHECK(clEnqueueWriteBuffer(t.queue, mi, CL_TRUE, 0, sizeof(in), in, 0, NULL, NULL));
		CHECK(clEnqueueNDRangeKernel(t.queue, k, 1, NULL, &n, NULL, 0, NULL, NULL));
		CHECK(clEnqueueReadBuffer(t.queue, mo, CL_TRUE, 0, sizeof(out), out, 0, NULL, NULL));
		clReleaseKernel(k);

		for (i = 0; i < NIN_D; i++) {
			mpfr_set_d(x, in[i], MPFR_RNDN);
			fn->mpfr(z, x, MPFR_RNDN);
			judge(&ta, fn->name, on_vaccel, in[i], 0.0, out[i], fn->core(in[i]), z, tmp);
		}
		verdict(&ta, fn->name, fn->ulp, platform);
	}
	for (f = 0; f < NFUNCTIONS2_D; f++) {
		const struct function2_d *fn = &functions2_d[f];
		struct tally ta = { 0 };
		char name[32];

		math_pairs_d(fn, in, in2, NIN_D);
		for (i = 0; i < NIN_D; i++)
			iy[i] = (cl_int)in2[i];
		snprintf(name, sizeof(name), "k2_%s", fn->name);
		cl_kernel k = clt_kernel(p, name);

		cl_mem my = fn->int_y ? miy : mi2;

		ARG(k, 0, mi); ARG(k, 1, my); ARG(k, 2, mo);
		CHECK(clEnqueueWriteBuffer(t.queue, mi, CL_TRUE, 0, sizeof(in), in, 0, NULL, NULL));
		CHECK(clEnqueueWriteBuffer(t.queue, mi2, CL_TRUE, 0, sizeof(in2), in2, 0, NULL,
					   NULL));
		CHECK(clEnqueueWriteBuffer(t.queue, miy, CL_TRUE, 0, sizeof(iy), iy, 0, NULL, NULL));
		CHECK(clEnqueueNDRangeKernel(t.queue, k, 1, NULL, &n, NULL, 0, NULL, NULL));
		CHECK(clEnqueueReadBuffer(t.queue, mo, CL_TRUE, 0, sizeof(out), out, 0, NULL, NULL));
		clReleaseKernel(k);
		for (i = 0; i < NIN_D; i++) {
			mpfr_set_d(x, in[i], MPFR_RNDN);
			mpfr_set_d(x2, in2[i], MPFR_RNDN);
			fn->mpfr(z, x, x2, MPFR_RNDN);
			judge(&ta, fn->name, on_vaccel, in[i], in2[i], out[i],
			      fn->core(in[i], in2[i]), z, tmp);
		}
		verdict(&ta, fn->name, fn->ulp, platform);
	}
	sincos_check(&t, p, mi, mo, in, out);
	clReleaseMemObject(mi); clReleaseMemObject(mo);
	clReleaseMemObject(mi2); clReleaseMemObject(miy);
	clReleaseProgram(p);
	clt_fini(&t);
	mpfr_clears(x, x2, z, tmp, (mpfr_ptr)0);
	return 0;
}
