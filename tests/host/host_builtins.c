// SPDX-License-Identifier: MIT
/*
 * Copyright 2026 The vaccel authors
 *
 * host_builtins.c - the compiler helpers of the device runtime
 * (umd/kernel/rt_*ti.c, rt_powi.c), compiled for the host with
 * -D'RT_NAME(n)=host_##n', against the host compiler's own 128-bit
 * arithmetic and libgcc: division and remainder, multiplication and its
 * overflow check, shifts, bit counts, byte swaps, conversions to and from
 * float and double (in the four rounding modes), powers.
 *
 * Operands: edge values (0, 1, -1, the extremes, every power of two and
 * its neighbours, the 32- and 64-bit boundaries) in every pair, then
 * random values of random widths and signs, so that every path of the
 * division (64-bit, 32-bit digits, bit by bit) is taken.  Where C leaves
 * the result undefined (division by zero, the most negative value divided
 * by -1, conversions out of range), the hardware's results that
 * rt_builtins.h promises are checked.
 *
 * usage: host_builtins [RANDOM_PAIRS]; prints one line and exits 0, or
 * the first difference and exits 1.
 */
#include <fenv.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rt_builtins.h"

typedef __int128 ti;
typedef unsigned __int128 tu;

#define TU_MAX	(~(tu)0)
#define TI_MAX	((ti)(TU_MAX >> 1))
#define TI_MIN	(-TI_MAX - 1)

static unsigned long checks;

static void print_tu(const char *name, tu v)
{
	fprintf(stderr, " %s=0x%016" PRIx64 "%016" PRIx64, name, (uint64_t)(v >> 64),
		(uint64_t)v);
}

#define FAIL(what, a, b, got, want) do {				\
	fprintf(stderr, "host_builtins: %s:", what);			\
	print_tu("a", (tu)(a));						\
	print_tu("b", (tu)(b));						\
	print_tu("got", (tu)(got));					\
	print_tu("want", (tu)(want));					\
	fputc('\n', stderr);						\
	exit(1);							\
} while (0)

#define CHECK(what, a, b, got, want) do {				\
	checks++;							\
	if ((tu)(got) != (tu)(want))					\
		FAIL(what, a, b, got, want);				\
} while (0)

static uint64_t rng = 0x9e3779b97f4a7c15ull;

static uint64_t rnd64(void)
{
	rng ^= rng >> 12;
	rng ^= rng << 25;
	rng ^= rng >> 27;
	return rng * 0x2545f4914f6cdd1dull;
}

/* A value of a random width from 0 to 128 bits, negated half the time. */
static tu rnd_value(void)
{
	unsigned int w = rnd64() % 129;
	tu v = (tu)rnd64() << 64 | rnd64();

	v = w ? v >> (128 - w) : 0;
	return rnd64() & 1 ? -v : v;
}

static void check_pair(tu ua, tu ub)
{
	ti a = (ti)ua, b = (ti)ub, r;
	tu urem;
	int of, want_of;

	/* unsigned division */
	if (ub) {
		CHECK("__udivti3", ua, ub, host___udivti3(ua, ub), ua / ub);
		CHECK("__umodti3", ua, ub, host___umodti3(ua, ub), ua % ub);
		CHECK("__udivmodti4", ua, ub, host___udivmodti4(ua, ub, &urem), ua / ub);
		CHECK("__udivmodti4 rem", ua, ub, urem, ua % ub);
	} else {
		CHECK("__udivti3 by 0", ua, ub, host___udivti3(ua, 0), TU_MAX);
		CHECK("__umodti3 by 0", ua, ub, host___umodti3(ua, 0), ua);
	}
	/* signed division */
	if (!b) {
		CHECK("__divti3 by 0", a, b, host___divti3(a, 0), -1);
		CHECK("__modti3 by 0", a, b, host___modti3(a, 0), a);
	} else if (a == TI_MIN && b == -1) {
		CHECK("__divti3 MIN/-1", a, b, host___divti3(a, b), TI_MIN);
		CHECK("__modti3 MIN%-1", a, b, host___modti3(a, b), 0);
	} else {
		CHECK("__divti3", a, b, host___divti3(a, b), a / b);
		CHECK("__modti3", a, b, host___modti3(a, b), a % b);
	}
	/* multiplication */
	CHECK("__multi3", a, b, host___multi3(a, b), ua * ub);
	want_of = __builtin_mul_overflow(a, b, &r);
	CHECK("__muloti4", a, b, host___muloti4(a, b, &of), r);
	CHECK("__muloti4 overflow", a, b, of, want_of);
	{
		int64_t x = (int64_t)a, y = (int64_t)b, p;

		want_of = __builtin_mul_overflow(x, y, &p);
		CHECK("__mulodi4", x, y, host___mulodi4(x, y, &of), p);
		CHECK("__mulodi4 overflow", x, y, of, want_of);
	}
}

static void check_bits(tu u)
{
	ti a = (ti)u;
	uint64_t lo = (uint64_t)u, hi = (uint64_t)(u >> 64);
	int n, want;

	for (n = 0; n < 128; n++) {
		CHECK("__ashlti3", a, n, host___ashlti3(a, n), u << n);
		CHECK("__lshrti3", a, n, host___lshrti3(a, n), u >> n);
		CHECK("__ashrti3", a, n, host___ashrti3(a, n), a >> n);
	}
	want = hi ? __builtin_clzll(hi) : lo ? 64 + __builtin_clzll(lo) : 128;
	CHECK("__clzti2", a, 0, host___clzti2(a), want);
	want = lo ? __builtin_ctzll(lo) : hi ? 64 + __builtin_ctzll(hi) : 128;
	CHECK("__ctzti2", a, 0, host___ctzti2(a), want);
	CHECK("__ffsti2", a, 0, host___ffsti2(a), u ? want + 1 : 0);
	CHECK("__popcountti2", a, 0, host___popcountti2(a),
	      __builtin_popcountll(lo) + __builtin_popcountll(hi));
	CHECK("__popcountdi2", lo, 0, host___popcountdi2((int64_t)lo), __builtin_popcountll(lo));
	CHECK("__parityti2", a, 0, host___parityti2(a),
	      __builtin_parityll(lo) ^ __builtin_parityll(hi));
	CHECK("__paritydi2", lo, 0, host___paritydi2((int64_t)lo), __builtin_parityll(lo));
	CHECK("__bswapdi2", lo, 0, host___bswapdi2(lo), __builtin_bswap64(lo));
	CHECK("__bswapsi2", lo, 0, host___bswapsi2((uint32_t)lo), __builtin_bswap32((uint32_t)lo));
}

static uint64_t bits_of(double d)
{
	uint64_t u;

	memcpy(&u, &d, 8);
	return u;
}

static uint32_t fbits_of(float f)
{
	uint32_t u;

	memcpy(&u, &f, 4);
	return u;
}

static const int modes[] = { FE_TONEAREST, FE_DOWNWARD, FE_UPWARD, FE_TOWARDZERO };

/* Integer to floating point, in every rounding mode. */
static void check_to_float(tu u)
{
	ti a = (ti)u;
	volatile ti va = a;
	volatile tu vu = u;
	unsigned int m;

	for (m = 0; m < sizeof(modes) / sizeof(modes[0]); m++) {
		fesetround(modes[m]);
		CHECK("__floattidf", a, m, bits_of(host___floattidf(a)), bits_of((double)va));
		CHECK("__floatuntidf", u, m, bits_of(host___floatuntidf(u)), bits_of((double)vu));
		CHECK("__floattisf", a, m, fbits_of(host___floattisf(a)), fbits_of((float)va));
		CHECK("__floatuntisf", u, m, fbits_of(host___floatuntisf(u)), fbits_of((float)vu));
	}
	fesetround(FE_TONEAREST);
}

/* Floating point to integer, for a double in range of both results. */
static void check_from_double(double d)
{
	volatile double vd = d;
	float f = (float)d;
	volatile float vf = f;

	if (d > -0x1p127 && d < 0x1p127) {
		CHECK("__fixdfti", bits_of(d), 0, host___fixdfti(d), (ti)vd);
		if (f > -0x1p127f && f < 0x1p127f)
			CHECK("__fixsfti", fbits_of(f), 0, host___fixsfti(f), (ti)vf);
	}
	if (d > -1 && d < 0x1p128) {
		CHECK("__fixunsdfti", bits_of(d), 0, host___fixunsdfti(d), (tu)vd);
		if (f > -1 && (double)f < 0x1p128)
			CHECK("__fixunssfti", fbits_of(f), 0, host___fixunssfti(f), (tu)vf);
	}
}

/* Out of range: saturated as FCVT does, NaN to the largest value. */
static void check_saturation(void)
{
	CHECK("__fixdfti NaN", 0, 0, host___fixdfti(NAN), TI_MAX);
	CHECK("__fixdfti +inf", 0, 0, host___fixdfti(INFINITY), TI_MAX);
	CHECK("__fixdfti -inf", 0, 0, host___fixdfti(-INFINITY), TI_MIN);
	CHECK("__fixdfti 2^127", 0, 0, host___fixdfti(0x1p127), TI_MAX);
	CHECK("__fixdfti -2^127", 0, 0, host___fixdfti(-0x1p127), TI_MIN);
	CHECK("__fixdfti -2^128", 0, 0, host___fixdfti(-0x1p128), TI_MIN);
	CHECK("__fixdfti 1e300", 0, 0, host___fixdfti(1e300), TI_MAX);
	CHECK("__fixsfti -inf", 0, 0, host___fixsfti(-INFINITY), TI_MIN);
	CHECK("__fixsfti 2^127", 0, 0, host___fixsfti(0x1p127f), TI_MAX);
	CHECK("__fixunsdfti NaN", 0, 0, host___fixunsdfti(NAN), TU_MAX);
	CHECK("__fixunsdfti -1.5", 0, 0, host___fixunsdfti(-1.5), 0);
	CHECK("__fixunsdfti -inf", 0, 0, host___fixunsdfti(-INFINITY), 0);
	CHECK("__fixunsdfti 2^128", 0, 0, host___fixunsdfti(0x1p128), TU_MAX);
	CHECK("__fixunssfti NaN", 0, 0, host___fixunssfti(NAN), TU_MAX);
	CHECK("__fixunssfti +inf", 0, 0, host___fixunssfti(INFINITY), TU_MAX);
}

static void check_powi(double x, int n)
{
	CHECK("__powidf2", bits_of(x), n, bits_of(host___powidf2(x, n)),
	      bits_of(__builtin_powi(x, n)));
	CHECK("__powisf2", fbits_of((float)x), n, fbits_of(host___powisf2((float)x, n)),
	      fbits_of(__builtin_powif((float)x, n)));
}

int main(int argc, char **argv)
{
	long pairs = argc > 1 ? strtol(argv[1], NULL, 0) : 200000;
	tu edge[600];
	unsigned int nedge = 0, i, j, k;
	long n;

	edge[nedge++] = 0;
	edge[nedge++] = TU_MAX;
	edge[nedge++] = (tu)TI_MAX;
	edge[nedge++] = (tu)TI_MIN;
	edge[nedge++] = (tu)TI_MIN + 1;
	edge[nedge++] = 0xffffffffull;
	edge[nedge++] = 0x100000001ull;
	edge[nedge++] = (tu)INT64_MAX;
	edge[nedge++] = (tu)(ti)INT64_MIN;
	edge[nedge++] = UINT64_MAX;
	for (k = 0; k < 128; k++) {
		edge[nedge++] = (tu)1 << k;
		edge[nedge++] = ((tu)1 << k) - 1;
		edge[nedge++] = ((tu)1 << k) + 1;
		edge[nedge++] = -((tu)1 << k);
	}

	for (i = 0; i < nedge; i++) {
		check_bits(edge[i]);
		check_to_float(edge[i]);
		for (j = 0; j < nedge; j++)
			check_pair(edge[i], edge[j]);
	}
	for (n = 0; n < pairs; n++) {
		tu a = rnd_value(), b = rnd_value();
		double d;

		check_pair(a, b);
		if (n % 16 == 0)
			check_bits(a);
		check_to_float(a);
		/* A double of any exponent up to 2^128, both signs. */
		d = ldexp((double)(rnd64() >> 11), (int)(rnd64() % 190) - 117);
		check_from_double(rnd64() & 1 ? -d : d);
		check_from_double((double)(ti)a);
	}
	for (k = 0; k < 1100; k++)
		check_from_double(ldexp(1.0, (int)k - 1000) * (k & 1 ? -1.75 : 1.5));
	check_saturation();
	for (n = -70; n <= 70; n++) {
		check_powi(1.0000001, (int)n * 1000);
		check_powi(-3.25, (int)n);
		check_powi(0.7, (int)n);
	}
	check_powi(2.0, INT32_MIN);
	check_powi(0.0, -1);

	printf("host_builtins: %lu checks, %u edge values and %ld random pairs\n",
	       checks, nedge, pairs);
	return 0;
}
