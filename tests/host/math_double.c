// SPDX-License-Identifier: MIT
/*
 * Copyright 2026 The vaccel authors
 *
 * math_double.c - the double cores of the device's math library
 * (umd/opencl/device/math/\*_double.h), compiled for the host, against
 * MPFR on N inputs per function (tests/opencl/math_double.h: the edge
 * values, random ones, and the edges only the host tries), or N pairs of
 * inputs for a function of two arguments (pow, atan2, hypot ...).
 *
 * A result must be within the bound the function's design claims (1 to 4
 * ULP, inside the specification's bound; lgamma, which has none, near its
 * negative roots within 2^-50 absolute), the sign of a zero included where
 * the exact result is a zero, infinite where that is the correctly rounded
 * result, and NaN where MPFR gives NaN.  One line per function:
 *
 *	ok <function>: N inputs within C ULP, the largest error E at X
 *	not ok <function>: ...
 *
 * and on stderr how many results were not correctly rounded.
 *
 * usage: math_double N [--part=K/N] [FUNCTION...]
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "../opencl/math_double.h"
#include "math_part.h"

static uint64_t bits_d(double d)
{
	uint64_t u;

	memcpy(&u, &d, 8);
	return u;
}

/* What the inputs of one function gave so far. */
struct tally {
	size_t bad, not_cr;
	double worst, worst_x, worst_y;
};

/* Judges @y, the core's result on (@x0, @x1), against MPFR's @z. */
static void judge(struct tally *t, const char *name, double x0, double x1, double y,
		  mpfr_srcptr z, mpfr_ptr tmp)
{
	double ref = mpfr_get_d(z, MPFR_RNDN), err;

	if (isnan(ref) || isnan(y)) {
		if (isnan(ref) != isnan(y) && t->bad++ < 3)
			printf("# %s(%a, %a) = %a, not %a\n", name, x0, x1, y, ref);
		return;
	}
	if (isinf(ref) || isinf(y) || mpfr_zero_p(z)) {
		if (bits_d(y) != bits_d(ref) && t->bad++ < 3)
			printf("# %s(%a, %a) = %a, not %a\n", name, x0, x1, y, ref);
		return;
	}
	t->not_cr += bits_d(y) != bits_d(ref);
	err = ulp_error_d(y, z, tmp);
	/*
	 * lgamma about its negative roots, where no bound holds in ULP: an
	 * absolute error under 2^-50 (a tenth of an ULP of 1) passes.
	 */
	if (!strcmp(name, "lgamma") && x0 < 0.0 && fabs(y - ref) < 0x1p-50)
		err = 0.0;
	if (err > t->worst) {
		t->worst = err;
		t->worst_x = x0;
		t->worst_y = x1;
	}
}

/* The line of a function: 0 if it kept its claim. */
static int verdict(const struct tally *t, const char *name, size_t n, double claim, int two)
{
	char where[96];

	if (two)
		snprintf(where, sizeof(where), "(%a, %a)", t->worst_x, t->worst_y);
	else
		snprintf(where, sizeof(where), "%a", t->worst_x);
	fprintf(stderr, "%s: %zu of %zu not correctly rounded\n", name, t->not_cr, n);
	if (t->bad || t->worst > claim) {
		printf("not ok %s: %zu special results wrong, %.3f ULP at %s (claimed %g)\n",
		       name, t->bad, t->worst, where, claim);
		return 1;
	}
	printf("ok %s: %zu inputs within %g ULP, the largest error %.3f at %s\n", name, n,
	       claim, t->worst, where);
	return 0;
}

/* lgamma_r's sign of Gamma(x), against MPFR's, where Gamma(x) is finite. */
static int lgamma_r_sign_wrong(double x, mpfr_ptr mx, mpfr_ptr z)
{
	int sign, want;

	vcl_lgamma_r(x, &sign);
	mpfr_lgamma(z, &want, mx, MPFR_RNDN);
	if (isnan(x) || mpfr_inf_p(z) || sign == want)
		return 0;
	printf("# lgamma_r(%a): sign %d, not %d\n", x, sign, want);
	return 1;
}

static int check(const struct function_d *fn, size_t n)
{
	double *in = malloc(n * sizeof(*in));
	struct tally t = { 0 };
	mpfr_t x, z, tmp;
	size_t i;

	if (!in) {
		perror("malloc");
		exit(2);
	}
	mpfr_inits2(200, x, z, tmp, (mpfr_ptr)0);
	math_inputs_d(fn, in, n);
	memcpy(in + n - NEDGES_HOST_D, edges_host_d, sizeof(edges_host_d));
	for (i = 0; i < n; i++) {
		mpfr_set_d(x, in[i], MPFR_RNDN);
		fn->mpfr(z, x, MPFR_RNDN);
		judge(&t, fn->name, in[i], 0.0, fn->core(in[i]), z, tmp);
		if (!strcmp(fn->name, "lgamma"))
			t.bad += lgamma_r_sign_wrong(in[i], x, z);
	}
	mpfr_clears(x, z, tmp, (mpfr_ptr)0);
	free(in);
	return verdict(&t, fn->name, n, fn->claim, 0);
}

static int check2(const struct function2_d *fn, size_t n)
{
	double *xs = malloc(n * sizeof(*xs)), *ys = malloc(n * sizeof(*ys));
	struct tally t = { 0 };
	mpfr_t x, y, z, tmp;
	size_t i;

	if (!xs || !ys) {
		perror("malloc");
		exit(2);
	}
	mpfr_inits2(200, x, y, z, tmp, (mpfr_ptr)0);
	math_pairs_d(fn, xs, ys, n);
	for (i = 0; i < n; i++) {
		mpfr_set_d(x, xs[i], MPFR_RNDN);
		mpfr_set_d(y, ys[i], MPFR_RNDN);
		fn->mpfr(z, x, y, MPFR_RNDN);
		judge(&t, fn->name, xs[i], ys[i], fn->core(xs[i], ys[i]), z, tmp);
	}
	mpfr_clears(x, y, z, tmp, (mpfr_ptr)0);
	free(xs);
	free(ys);
	return verdict(&t, fn->name, n, fn->claim, 1);
}

int main(int argc, char **argv)
{
	struct math_part part = { 0, 1 };
	unsigned int index = 0;
	int fails = 0, i, r, names = 0;
	size_t n, f;

	if (argc < 2 || (n = strtoul(argv[1], NULL, 0)) < NPAIRS_EDGES_D) {
		fprintf(stderr, "usage: math_double N [--part=K/N] [FUNCTION...] (N >= %zu)\n",
			(size_t)NPAIRS_EDGES_D);
		return 2;
	}
	for (i = 2; i < argc; i++) {
		r = math_part_arg(argv[i], &part);
		if (r < 0) {
			fprintf(stderr, "math_double: %s: not --part=K/N with K < N\n", argv[i]);
			return 2;
		}
		if (r)
			argv[i] = "";
		else
			names++;
	}
	mpfr_set_emin(mpfr_get_emin_min());
	mpfr_set_emax(mpfr_get_emax_max());
	for (f = 0; f < NFUNCTIONS_D; f++) {
		int wanted = !names;

		for (i = 2; i < argc; i++)
			wanted |= !strcmp(argv[i], functions_d[f].name);
		if (wanted && math_part_mine(&part, index++))
			fails += check(&functions_d[f], n);
	}
	for (f = 0; f < NFUNCTIONS2_D; f++) {
		int wanted = !names;

		for (i = 2; i < argc; i++)
			wanted |= !strcmp(argv[i], functions2_d[f].name);
		if (wanted && math_part_mine(&part, index++))
			fails += check2(&functions2_d[f], n);
	}
	return fails ? 1 : 0;
}
