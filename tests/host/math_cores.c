// SPDX-License-Identifier: MIT
/*
 * Copyright 2026 The vaccel authors
 *
 * math_cores.c - the cores of the device's math library
 * (umd/opencl/device/math/), compiled for the host, against MPFR's
 * correctly rounded results, on every STEP-th float.
 *
 * The cores are the device library's source: the device computes the same
 * bits (tests/opencl/math.c checks that in the VM), so this is how every
 * float input is tried at the host's speed.  A result must be the
 * correctly rounded one, the sign of a zero included, and a NaN where
 * MPFR gives one (with any sign and payload); the functions are
 * designed to be (opencl-library.rst), and a function that is not, on one
 * input, fails.  One line per function:
 *
 *	ok <function>: N inputs correctly rounded
 *	not ok <function>: M of N not correctly rounded, the first at X
 *
 * usage: math_cores STEP [FUNCTION...]
 *
 * STEP 1 is every float (make math-exhaustive: hours on two cores); make
 * check uses a prime step, which meets every exponent and sign.
 */
#include <errno.h>
#include <float.h>
#include <mpfr.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "../opencl/math_functions.h"

static uint32_t bits(float f)
{
	uint32_t u;

	memcpy(&u, &f, 4);
	return u;
}

/* Inputs every step meets: the signs of zero, infinity and the limits. */
static const uint32_t specials[] = {
	0x00000000, 0x80000000, 0x7f800000, 0xff800000, 0x7fc00000, 0xffc00001, 0x00000001,
	0x80000001, 0x007fffff, 0x807fffff, 0x00800000, 0x80800000, 0x7f7fffff, 0xff7fffff,
	0x3f800000, 0xbf800000,
};

struct tally {
	uint64_t n, wrong;
	float first, got, want;
};

/* One input through @fn, against MPFR. */
static void check_one(const struct function *fn, uint32_t w, struct tally *t, mpfr_t x, mpfr_t z)
{
	float a, got, want;
	int ternary;

	memcpy(&a, &w, 4);
	got = fn->core(a);
	t->n++;
	if (a != a) {
		want = a;
		if (got != got)
			return;
	} else {
		mpfr_set_flt(x, a, MPFR_RNDN);
		ternary = fn->mpfr(z, x, MPFR_RNDN);
		mpfr_subnormalize(z, ternary, MPFR_RNDN);
		want = mpfr_get_flt(z, MPFR_RNDN);
		/* Any NaN is the NaN: its sign and payload are not specified. */
		if (bits(got) == bits(want) || (want != want && got != got))
			return;
	}
	if (!t->wrong++) {
		t->first = a;
		t->got = got;
		t->want = want;
	}
}

/* Every STEP-th float through @fn, and the specials; 0 if all are right. */
static int check(const struct function *fn, uint64_t step)
{
	struct tally t = { 0 };
	uint64_t u;
	size_t i;
	mpfr_t x, z;

	/* Floats: 24 bits, subnormals from 2^-149 (mpfr_subnormalize). */
	mpfr_inits2(24, x, z, (mpfr_ptr)0);
	for (u = 0; u < 0x100000000ULL; u += step)
		check_one(fn, (uint32_t)u, &t, x, z);
	for (i = 0; i < sizeof(specials) / sizeof(specials[0]); i++)
		check_one(fn, specials[i], &t, x, z);
	mpfr_clears(x, z, (mpfr_ptr)0);
	if (!t.wrong) {
		printf("ok %s: %llu inputs correctly rounded\n", fn->name, (unsigned long long)t.n);
		return 0;
	}
	printf("not ok %s: %llu of %llu not correctly rounded, the first %s(%a) = %a, not %a\n",
	       fn->name, (unsigned long long)t.wrong, (unsigned long long)t.n, fn->name, t.first,
	       t.got, t.want);
	return 1;
}

int main(int argc, char **argv)
{
	unsigned long long step;
	size_t f;
	char *end;
	int i, failed = 0, found;

	if (argc < 2) {
		fprintf(stderr, "usage: math_cores STEP [FUNCTION...]\n");
		return 2;
	}
	errno = 0;
	step = strtoull(argv[1], &end, 0);
	if (errno || *end || !step || step > 0xffffffffULL) {
		fprintf(stderr, "math_cores: STEP %s: not a number from 1 to 2^32 - 1\n", argv[1]);
		return 2;
	}
	/* The float range, subnormals included, for mpfr_subnormalize. */
	mpfr_set_emin(-148);
	mpfr_set_emax(128);
	for (i = 2; i < argc; i++) {
		for (found = 0, f = 0; f < NFUNCTIONS; f++)
			found |= !strcmp(argv[i], functions[f].name);
		if (!found) {
			fprintf(stderr, "math_cores: no function %s\n", argv[i]);
			return 2;
		}
	}
	for (f = 0; f < NFUNCTIONS; f++) {
		int wanted = argc == 2;

		for (i = 2; i < argc; i++)
			wanted |= !strcmp(argv[i], functions[f].name);
		if (wanted && !functions[f].device_form)
			failed |= check(&functions[f], step);
	}
	return failed;
}
