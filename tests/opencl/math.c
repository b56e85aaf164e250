// SPDX-License-Identifier: MIT
/*
 * Copyright 2026 The vaccel authors
 *
 * DOC: math - the math library's accuracy against MPFR
 *
 * Each function runs on edge values (zeros, subnormals, the thresholds of
 * overflow and underflow, integers, powers of two and their neighbours,
 * infinities, NaN) and on 8,192 random values, half over the range where
 * its result is finite and not 0 or 1 (or some range of interest), half
 * over every float.  Its error on each is measured
 * in ULP against MPFR's value at 160 bits (OpenCL's ULP: the gap between
 * the two floats around the exact value), NaN must give NaN, and an
 * infinite result or an exact zero must be the correctly rounded one's
 * value (a result that underflows is judged in ULP, those of the
 * subnormals).  The sign of an exact zero is not judged here, as the CTS
 * does not judge it (PoCL's sinpi(1) is -0): the host test holds the
 * cores to MPFR's signs, and on vaccel the device gives the cores' bits.
 * The inputs are math_inputs.h's.  stdout gets
 * one line per function: within the specification's bound or not, the
 * same on every correct implementation; stderr the largest error and how
 * many results were not correctly rounded.
 *
 * The functions of two arguments (pow, atan2, hypot, ...) run on every
 * pair of the edge values and on 4,096 random pairs, judged alike.
 *
 * On vaccel, the result must also be, bit for bit, that of the core the
 * device library is built from (umd/opencl/device/math/), compiled here
 * for the host: a difference is printed on stdout, which then differs
 * from PoCL's.
 */
#include <float.h>
#include <math.h>
#include <mpfr.h>
#include <stdint.h>
#include "clt.h"
#include "math_functions.h"
#include "math_inputs.h"

static uint32_t bits(float f)
{
	uint32_t u;

	memcpy(&u, &f, 4);
	return u;
}

/* The error of @y in ULP of the exact value @z; 0 for y == z. */
static double ulp_error(float y, mpfr_srcptr z, mpfr_ptr t)
{
	long e;

	if (mpfr_zero_p(z))
		return y == 0.0f ? 0.0 : INFINITY;
	e = mpfr_get_exp(z) - 1;	/* |z| in [2^e, 2^(e+1)) */
	if (e < -126)
		e = -126;
	mpfr_set_flt(t, y, MPFR_RNDN);
	mpfr_sub(t, t, z, MPFR_RNDN);
	mpfr_abs(t, t, MPFR_RNDN);
	mpfr_mul_2si(t, t, 23 - e, MPFR_RNDN);
	return mpfr_get_d(t, MPFR_RNDU);
}

/* A function of two arguments: the pairs through the device, each judged as main() does. */
static void run_two(struct clt *t, cl_program p, const struct function2 *fn, int on_vaccel,
		    const char *platform)
{
	static float xs[NIN2], ys[NIN2], out[NIN2];
	size_t n = NIN2, i, not_cr = 0, bad = 0, core_diff = 0;
	double worst = 0.0;
	float worst_x = 0.0f, worst_y = 0.0f;
	mpfr_t x, y, z, tmp;
	char name[32];

	mpfr_inits2(160, x, y, z, tmp, (mpfr_ptr)0);
	math_pairs(fn->name, fn->lo, fn->hi, fn->ylo, fn->yhi, fn->int_y, xs, ys);
	cl_mem mx = clt_buffer(t, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, sizeof(xs), xs);
	cl_mem my = clt_buffer(t, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, sizeof(ys), ys);
	cl_mem mo = clt_buffer(t, CL_MEM_WRITE_ONLY, sizeof(out), NULL);

	snprintf(name, sizeof(name), "k2_%s", fn->name);
	cl_kernel k = clt_kernel(p, name);

	ARG(k, 0, mx); ARG(k, 1, my); ARG(k, 2, mo);
	CHECK(clEnqueueNDRangeKernel(t->queue, k, 1, NULL, &n, NULL, 0, NULL, NULL));
	CHECK(clEnqueueReadBuffer(t->queue, mo, CL_TRUE, 0, sizeof(out), out, 0, NULL, NULL));
	clReleaseKernel(k);
	for (i = 0; i < NIN2; i++) {
		float got = out[i], core = fn->core(xs[i], ys[i]), ref;
		double err;

		if (on_vaccel && bits(got) != bits(core) && !(isnan(got) && isnan(core)) &&
		    core_diff++ < 3)
			printf("%s(%a, %a): %a on the device, %a from the core\n", fn->name, xs[i],
			       ys[i], got, core);
		mpfr_set_flt(x, xs[i], MPFR_RNDN);
		mpfr_set_flt(y, ys[i], MPFR_RNDN);
		fn->mpfr(z, x, y, MPFR_RNDN);
		ref = mpfr_get_flt(z, MPFR_RNDN);
		if (isnan(ref) || isinf(ref) || mpfr_zero_p(z) || isinf(got) || isnan(got)) {
			int same = isnan(ref) ? isnan(got) :
				   bits(got) == bits(ref) || (got == 0.0f && ref == 0.0f);

			if (!same && bad++ < 3)
				printf("%s(%a, %a) = %a, not %a\n", fn->name, xs[i], ys[i], got, ref);
			not_cr += !same;
			continue;
		}
		err = ulp_error(got, z, tmp);
		if (bits(got) != bits(ref))
			not_cr++;
		if (err > worst) {
			worst = err;
			worst_x = xs[i];
			worst_y = ys[i];
		}
	}
	if (bad || worst > fn->ulp)
		printf("%s: WRONG: %zu special results wrong, %.3f ULP at (%a, %a) (bound %g)\n",
		       fn->name, bad, worst, worst_x, worst_y, fn->ulp);
	else
		printf("%s: %zu pairs within %g ULP\n", fn->name, (size_t)NIN2, fn->ulp);
	fprintf(stderr, "%s on %s: largest error %.4f ULP at (%a, %a), %zu of %zu not correctly rounded\n",
		fn->name, platform, worst, worst_x, worst_y, not_cr, (size_t)NIN2);
	clReleaseMemObject(mx); clReleaseMemObject(my); clReleaseMemObject(mo);
	mpfr_clears(x, y, z, tmp, (mpfr_ptr)0);
}

int main(void)
{
	static float in[NIN], out[NIN];
	size_t n = NIN, local = 64, i, f;
	struct clt t;
	char platform[64] = "", src[8192];
	int on_vaccel, len = 0;
	mpfr_t x, z, tmp;

	mpfr_inits2(160, x, z, tmp, (mpfr_ptr)0);
	mpfr_set_emin(mpfr_get_emin_min());
	mpfr_set_emax(mpfr_get_emax_max());

	len += snprintf(src + len, sizeof(src) - len, "#define F(f) __kernel void k_##f("
			"__global const float *in, __global float *out) "
			"{ size_t i = get_global_id(0); out[i] = f(in[i]); }\n");
	for (f = 0; f < NFUNCTIONS; f++)
		if (!functions[f].device_form)
			len += snprintf(src + len, sizeof(src) - len, "F(%s)\n", functions[f].name);
	/*
	 * sincos on a float4 of the input: the sine, with the cosine in
	 * __private memory, and the cosine, in __local memory (workgroups of
	 * 64: NIN is a multiple of 64).
	 */
	len += snprintf(src + len, sizeof(src) - len,
			"__kernel void k_sincos_sin(__global const float *in, __global float *out)"
			" { size_t i = get_global_id(0); float4 c;"
			" out[i] = sincos((float4)(in[i]), &c).s2; }\n"
			"__kernel void k_sincos_cos(__global const float *in, __global float *out)"
			" { size_t i = get_global_id(0); __local float4 c[64];"
			" sincos((float4)(in[i]), &c[get_local_id(0)]); out[i] = c[get_local_id(0)].s1; }\n"
			/* lgamma_r: scalar, sign in __local, and float4, in __private, agree. */
			"__kernel void k_lgamma_r(__global const float *in, __global float *out)"
			" { size_t i = get_global_id(0), l = get_local_id(0); __local int s[64]; int4 p;"
			" float v = lgamma_r(in[i], &s[l]); float4 w = lgamma_r((float4)(in[i]), &p);"
			" out[i] = (v == w.s2 || v != v) && s[l] == p.s2 ? (isinf(v) ? v : v * s[l]) : NAN; }\n");

	len += snprintf(src + len, sizeof(src) - len, "#define F2(f, Y) __kernel void k2_##f("
			"__global const float *x, __global const float *y, __global float *out) "
			"{ size_t i = get_global_id(0); out[i] = f(x[i], (Y)y[i]); }\n");
	for (f = 0; f < NFUNCTIONS2; f++)
		len += snprintf(src + len, sizeof(src) - len, "F2(%s, %s)\n", functions2[f].name,
				functions2[f].int_y ? "int" : "float");

	clt_init(&t);
	CHECK(clGetPlatformInfo(t.platform, CL_PLATFORM_NAME, sizeof(platform), platform, NULL));
	on_vaccel = !strcmp(platform, "vaccel");
	cl_program p = clt_build(&t, src, NULL);
	cl_mem mi = clt_buffer(&t, CL_MEM_READ_ONLY, sizeof(in), NULL);
	cl_mem mo = clt_buffer(&t, CL_MEM_WRITE_ONLY, sizeof(out), NULL);

	for (f = 0; f < NFUNCTIONS; f++) {
		const struct function *fn = &functions[f];
		double worst = 0.0;
		float worst_x = 0.0f;
		size_t not_cr = 0, bad = 0, core_diff = 0;
		char name[32];

		math_inputs(fn->name, fn->lo, fn->hi, in);
		snprintf(name, sizeof(name), "k_%s", fn->name);
		cl_kernel k = clt_kernel(p, name);

		ARG(k, 0, mi); ARG(k, 1, mo);
		CHECK(clEnqueueWriteBuffer(t.queue, mi, CL_TRUE, 0, sizeof(in), in, 0, NULL, NULL));
		CHECK(clEnqueueNDRangeKernel(t.queue, k, 1, NULL, &n,
					     fn->device_form ? &local : NULL, 0, NULL, NULL));
		CHECK(clEnqueueReadBuffer(t.queue, mo, CL_TRUE, 0, sizeof(out), out, 0, NULL, NULL));
		clReleaseKernel(k);

		for (i = 0; i < NIN; i++) {
			float y = out[i], ref;
			double err;

			if (on_vaccel && bits(y) != bits(fn->core(in[i])) &&
			    !(isnan(y) && isnan(fn->core(in[i]))) && core_diff++ < 3)
				printf("%s(%a): %a on the device, %a from the core\n", fn->name,
				       in[i], y, fn->core(in[i]));
			if (isnan(in[i])) {
				if (!isnan(y) && bad++ < 3)
					printf("%s(nan) = %a, not NaN\n", fn->name, y);
				continue;
			}
			mpfr_set_flt(x, in[i], MPFR_RNDN);
			fn->mpfr(z, x, MPFR_RNDN);
			ref = mpfr_get_flt(z, MPFR_RNDN);
			if (isnan(ref)) {	/* any NaN: sign and payload are free */
				if (!isnan(y) && bad++ < 3)
					printf("%s(%a) = %a, not NaN\n", fn->name, in[i], y);
				not_cr += !isnan(y);
				continue;
			}
			if (isinf(ref) || mpfr_zero_p(z) || isinf(y) || isnan(y)) {
				int same = bits(y) == bits(ref) || (y == 0.0f && ref == 0.0f);

				if (!same && bad++ < 3)
					printf("%s(%a) = %a, not %a\n", fn->name, in[i], y, ref);
				not_cr += !same;
				continue;
			}
			err = ulp_error(y, z, tmp);
			if (bits(y) != bits(ref))
				not_cr++;
			if (err > worst) {
				worst = err;
				worst_x = in[i];
			}
		}
		if (bad || worst > fn->ulp)
			printf("%s: WRONG: %zu special results wrong, %.3f ULP at %a (bound %g)\n",
			       fn->name, bad, worst, worst_x, fn->ulp);
		else
			printf("%s: %zu values within %g ULP\n", fn->name, (size_t)NIN, fn->ulp);
		fprintf(stderr, "%s on %s: largest error %.4f ULP at %a, %zu of %zu not correctly rounded\n",
			fn->name, platform, worst, worst_x, not_cr, (size_t)NIN);
	}
	clReleaseMemObject(mi); clReleaseMemObject(mo);
	for (f = 0; f < NFUNCTIONS2; f++)
		run_two(&t, p, &functions2[f], on_vaccel, platform);
	clReleaseProgram(p);
	clt_fini(&t);
	mpfr_clears(x, z, tmp, (mpfr_ptr)0);
	return 0;
}
