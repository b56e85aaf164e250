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
 * A function of two arguments takes 2^32 / STEP pairs instead, random ones
 * (half over a range of interest, half of any bits) and every pair of the
 * special values, with the same demand, or for the pow family (faithful
 * in math_functions.h) within 1 ULP and a count of the others:
 *
 *	ok <function>: N pairs correctly rounded
 *	ok <function>: N pairs within 1 ULP, M not correctly rounded
 *
 * usage: math_cores STEP [--part=K/N] [FUNCTION...]
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
#include "math_part.h"

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

static uint64_t seed = 0x5851f42d4c957f2dULL;

static uint64_t next_random(void)
{
	uint64_t z = (seed += 0x9e3779b97f4a7c15ULL);	/* splitmix64 */

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static float from_bits(uint32_t u)
{
	float f;

	memcpy(&f, &u, 4);
	return f;
}

/* The ints a y of pown and rootn takes besides small ones. */
static const int int_edges[] = {
	0, 1, -1, 2, -2, 3, -3, 1 << 24, -(1 << 24), (1 << 24) + 1, 1 << 30, -(1 << 30),
};

/* A pair for @fn: from the specials, the int edges, its ranges or any bits. */
static void pair(const struct function2 *fn, uint64_t i, float *x, float *y)
{
	uint64_t r = next_random(), s = next_random();
	int n;

	if (i % 2) {
		*x = fn->lo + (fn->hi - fn->lo) * (float)((r >> 40) * 0x1p-24);
		*y = fn->ylo + (fn->yhi - fn->ylo) * (float)((s >> 40) * 0x1p-24);
	} else {
		*x = from_bits((uint32_t)r);
		*y = from_bits((uint32_t)s);
	}
	if (fn->int_y) {
		n = i % 4 == 0 ? int_edges[s % (sizeof(int_edges) / sizeof(int_edges[0]))]
			       : (int)*y;
		if (*y != *y || *y > 0x1p30f || *y < -0x1p30f)
			n = (int)(s % 81) - 40;
		*y = (float)n;
	}
}

/*
 * (2^32 / STEP) pairs through @fn, and every pair of the specials: each
 * correctly rounded; 0 if all are.
 */
static int check2(const struct function2 *fn, uint64_t step)
{
	uint64_t n = 0x100000000ULL / step + 1, i, wrong = 0, not_cr = 0;
	size_t ns = sizeof(specials) / sizeof(specials[0]);
	float x, y, got, want, fx = 0, fy = 0, fgot = 0, fwant = 0;
	mpfr_t mx, my, z;
	int ternary;

	mpfr_inits2(24, mx, my, z, (mpfr_ptr)0);
	for (i = 0; i < n + ns * ns; i++) {
		if (i < ns * ns) {
			x = from_bits(specials[i / ns]);
			y = from_bits(specials[i % ns]);
			if (fn->int_y)
				y = y != y || y > 0x1p30f || y < -0x1p30f ? 3.0f : (float)(int)y;
		} else {
			pair(fn, i, &x, &y);
		}
		got = fn->core(x, y);
		mpfr_set_flt(mx, x, MPFR_RNDN);
		mpfr_set_flt(my, y, MPFR_RNDN);
		ternary = fn->mpfr(z, mx, my, MPFR_RNDN);
		mpfr_subnormalize(z, ternary, MPFR_RNDN);
		want = mpfr_get_flt(z, MPFR_RNDN);
		if (bits(got) == bits(want) || (want != want && got != got))
			continue;
		not_cr++;
		if (fn->faithful && got == got && want == want) {
			/* Within 1 ULP: the float on the other side of the exact value. */
			mpfr_set_flt(mx, x, MPFR_RNDN);
			ternary = fn->mpfr(z, mx, my, want < got ? MPFR_RNDU : MPFR_RNDD);
			mpfr_subnormalize(z, ternary, want < got ? MPFR_RNDU : MPFR_RNDD);
			if (bits(got) == bits(mpfr_get_flt(z, MPFR_RNDN)))
				continue;
		}
		if (!wrong++) {
			fx = x;
			fy = y;
			fgot = got;
			fwant = want;
		}
	}
	mpfr_clears(mx, my, z, (mpfr_ptr)0);
	if (!wrong && fn->faithful) {
		printf("ok %s: %llu pairs within 1 ULP, %llu not correctly rounded\n", fn->name,
		       (unsigned long long)(n + ns * ns), (unsigned long long)not_cr);
		return 0;
	}
	if (!wrong) {
		printf("ok %s: %llu pairs correctly rounded\n", fn->name,
		       (unsigned long long)(n + ns * ns));
		return 0;
	}
	printf("not ok %s: %llu of %llu not correctly rounded, the first %s(%a, %a) = %a, not %a\n",
	       fn->name, (unsigned long long)wrong, (unsigned long long)(n + ns * ns), fn->name,
	       fx, fy, fgot, fwant);
	return 1;
}

int main(int argc, char **argv)
{
	struct math_part part = { 0, 1 };
	unsigned long long step;
	unsigned int index = 0;
	int i, failed = 0, found, names = 0;
	size_t f;
	char *end;

	if (argc < 2) {
		fprintf(stderr, "usage: math_cores STEP [--part=K/N] [FUNCTION...]\n");
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
		found = math_part_arg(argv[i], &part);
		if (found < 0) {
			fprintf(stderr, "math_cores: %s: not --part=K/N with K < N\n", argv[i]);
			return 2;
		}
		if (found) {
			argv[i] = "";
			continue;
		}
		names++;
		for (f = 0; f < NFUNCTIONS; f++)
			found |= !strcmp(argv[i], functions[f].name);
		for (f = 0; f < NFUNCTIONS2; f++)
			found |= !strcmp(argv[i], functions2[f].name);
		if (!found) {
			fprintf(stderr, "math_cores: no function %s\n", argv[i]);
			return 2;
		}
	}
	for (f = 0; f < NFUNCTIONS; f++) {
		int wanted = !names;

		for (i = 2; i < argc; i++)
			wanted |= !strcmp(argv[i], functions[f].name);
		if (wanted && !functions[f].device_form && math_part_mine(&part, index++))
			failed |= check(&functions[f], step);
	}
	for (f = 0; f < NFUNCTIONS2; f++) {
		int wanted = !names;

		for (i = 2; i < argc; i++)
			wanted |= !strcmp(argv[i], functions2[f].name);
		if (wanted && math_part_mine(&part, index++))
			failed |= check2(&functions2[f], step);
	}
	return failed;
}
