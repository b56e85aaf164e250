// SPDX-License-Identifier: MIT
/*
 * Copyright 2026 The vaccel authors
 *
 * math_double.c - the double cores of the device's math library
 * (umd/opencl/device/math/\*_double.h), compiled for the host, against
 * MPFR on N inputs per function (tests/opencl/math_double.h: the edge
 * values, random ones, and the edges only the host tries).
 *
 * A result must be within the bound the function's design claims (1 or
 * 2 ULP, inside the specification's 3), the sign of a zero included where
 * the exact result is a zero, infinite where that is the correctly rounded
 * result, and NaN where MPFR gives NaN.  One line per function:
 *
 *	ok <function>: N inputs within C ULP, the largest error E at X
 *	not ok <function>: ...
 *
 * and on stderr how many results were not correctly rounded.
 *
 * usage: math_double N [FUNCTION...]
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "../opencl/math_double.h"

static uint64_t bits_d(double d)
{
	uint64_t u;

	memcpy(&u, &d, 8);
	return u;
}

static int check(const struct function_d *fn, size_t n)
{
	double *in = malloc(n * sizeof(*in)), worst = 0.0, worst_x = 0.0;
	size_t i, bad = 0, not_cr = 0;
	mpfr_t x, z, t;

	if (!in) {
		perror("malloc");
		exit(2);
	}
	mpfr_inits2(200, x, z, t, (mpfr_ptr)0);
	math_inputs_d(fn, in, n);
	memcpy(in + n - NEDGES_HOST_D, edges_host_d, sizeof(edges_host_d));
	for (i = 0; i < n; i++) {
		double y = fn->core(in[i]), ref, err;

		mpfr_set_d(x, in[i], MPFR_RNDN);
		fn->mpfr(z, x, MPFR_RNDN);
		ref = mpfr_get_d(z, MPFR_RNDN);
		if (isnan(ref) || isnan(y)) {
			if (isnan(ref) != isnan(y) && bad++ < 3)
				printf("# %s(%a) = %a, not %a\n", fn->name, in[i], y, ref);
			continue;
		}
		if (isinf(ref) || isinf(y) || mpfr_zero_p(z)) {
			if (bits_d(y) != bits_d(ref) && bad++ < 3)
				printf("# %s(%a) = %a, not %a\n", fn->name, in[i], y, ref);
			continue;
		}
		not_cr += bits_d(y) != bits_d(ref);
		err = ulp_error_d(y, z, t);
		if (err > worst) {
			worst = err;
			worst_x = in[i];
		}
	}
	mpfr_clears(x, z, t, (mpfr_ptr)0);
	free(in);
	fprintf(stderr, "%s: %zu of %zu not correctly rounded\n", fn->name, not_cr, n);
	if (bad || worst > fn->claim) {
		printf("not ok %s: %zu special results wrong, %.3f ULP at %a (claimed %g)\n",
		       fn->name, bad, worst, worst_x, fn->claim);
		return 1;
	}
	printf("ok %s: %zu inputs within %g ULP, the largest error %.3f at %a\n", fn->name, n,
	       fn->claim, worst, worst_x);
	return 0;
}

int main(int argc, char **argv)
{
	size_t n, f;
	int fails = 0, i;

	if (argc < 2 || (n = strtoul(argv[1], NULL, 0)) < NEDGES_D + NEDGES_HOST_D) {
		fprintf(stderr, "usage: math_double N [FUNCTION...] (N >= %zu)\n",
			NEDGES_D + NEDGES_HOST_D);
		return 2;
	}
	mpfr_set_emin(mpfr_get_emin_min());
	mpfr_set_emax(mpfr_get_emax_max());
	for (f = 0; f < NFUNCTIONS_D; f++) {
		int wanted = argc == 2;

		for (i = 2; i < argc; i++)
			wanted |= !strcmp(argv[i], functions_d[f].name);
		if (wanted)
			fails += check(&functions_d[f], n);
	}
	return fails ? 1 : 0;
}
