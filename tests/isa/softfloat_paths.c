// SPDX-License-Identifier: GPL-2.0-only
/*
 * Copyright 2026 The vaccel authors
 *
 * softfloat_paths - the soft-float's fast paths against its general path.
 *
 * Every operation with a fast path (add, subtract, multiply, divide,
 * square root, fused multiply-add, in both formats) first tries it, and
 * falls back to the general path when it declines.  The two compute the
 * same exact intermediate in different ways, so they must agree bit for
 * bit, flags included, whenever the fast path answers.  Random operands
 * (as fp_oracle draws them) rarely reach the cases where they could part:
 * exponents a few apart, cancellations of many bits, results next to the
 * overflow and underflow thresholds, quotients and roots that are exact
 * or halfway between two values.  This program draws operands weighted
 * toward those, runs both paths in every rounding mode, and prints
 *
 *	ok isa.softfloat_paths_<op>_<fmt>: N cases, M by the fast path
 *	not ok isa.softfloat_paths_<op>_<fmt>: <operands, both results>
 *
 * A check also fails if the fast path answered fewer than a tenth of its
 * cases: it would then compare the general path with itself.  Last, what
 * both paths share: the binary64 quotient (sf_div_55(), a reciprocal and
 * a correction) against the exact 128-bit division, on edge and random
 * significands, and the integer square root (sf_isqrt(), Newton's method
 * and a correction) against one computed a bit at a time.
 *
 * It includes vaccel_softfloat.c to reach the static paths.
 *
 * usage: softfloat_paths [cases per operation]
 */
#include <stdio.h>
#include <stdlib.h>

#include "vaccel_softfloat.c"

static u64 rng_state = 0x9e3779b97f4a7c15ull;

static u64 rnd(void)
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 7;
	rng_state ^= rng_state << 17;
	return rng_state;
}

static int failures;

/* A value of the format with biased exponent @bexp (clamped to the normals). */
static u64 value(bool dbl, int bexp, bool sign, u64 frac)
{
	int mbits = SF_MBITS(dbl), emax = SF_EMAX(dbl);

	if (bexp < 1)
		bexp = 1;
	if (bexp > emax - 1)
		bexp = emax - 1;
	return (sign ? sf_sign_bit(dbl) : 0) | (u64)bexp << mbits |
	       (frac & ((1ull << mbits) - 1));
}

/*
 * A fraction: random, with long runs of zeros or ones, or sparse (one to
 * three bits), whose products and sums fall exactly halfway between two
 * values, or just off it by a bit that only the sticky bit carries.
 */
static u64 fraction(void)
{
	switch (rnd() % 6) {
	case 0:
		return rnd() << (rnd() % 48);
	case 1:
		return ~(rnd() << (rnd() % 48));
	case 2:
	case 3:
		return 1ull << (rnd() % 53) | (rnd() & 1) << (rnd() % 53) |
		       (rnd() & 1) << (rnd() % 53);
	default:
		return rnd();
	}
}

/* An exponent near @center, @spread either way, or anywhere now and then. */
static int exponent(bool dbl, int center, int spread)
{
	if (rnd() % 16 == 0)
		return 1 + rnd() % (SF_EMAX(dbl) - 1);
	return center + (int)(rnd() % (2 * spread + 1)) - spread;
}

enum op { OP_ADD, OP_SUB, OP_MUL, OP_DIV, OP_SQRT, OP_FMA, OP_COUNT };

static const char *const op_names[OP_COUNT] = {
	"add", "sub", "mul", "div", "sqrt", "fma",
};

/* The fast path's answer in *@r, or false; the flags it raised in *@f. */
static bool fast(enum op op, bool dbl, u64 a, u64 b, u64 c, unsigned int rm,
		 u32 *f, u64 *r)
{
	switch (op) {
	case OP_ADD:
		sf_order(dbl, &a, &b);
		return sf_add_fast(dbl, a, b, rm, f, r);
	case OP_SUB:
		b ^= sf_sign_bit(dbl);
		sf_order(dbl, &a, &b);
		return sf_add_fast(dbl, a, b, rm, f, r);
	case OP_MUL:
		return sf_mul_fast(dbl, a, b, rm, f, r);
	case OP_DIV:
		return sf_div_fast(dbl, a, b, rm, f, r);
	case OP_SQRT:
		return sf_sqrt_fast(dbl, a, rm, f, r);
	default:
		return dbl ? sf_fma_fast64(a, b, c, rm, f, r) :
			     sf_fma_fast32(a, b, c, rm, f, r);
	}
}

static u64 general(enum op op, bool dbl, u64 a, u64 b, u64 c, unsigned int rm,
		   u32 *f)
{
	switch (op) {
	case OP_ADD:
		return sf_add(dbl, a, b, rm, f);
	case OP_SUB:
		return sf_add(dbl, a, b ^ sf_sign_bit(dbl), rm, f);
	case OP_MUL:
		return sf_mul(dbl, a, b, rm, f);
	case OP_DIV:
		return sf_div(dbl, a, b, rm, f);
	case OP_SQRT:
		return sf_sqrt(dbl, a, rm, f);
	default:
		return sf_fma(dbl, a, b, c, rm, f);
	}
}

/* Operands for @op weighted toward the cases where the paths could part. */
static void operands(enum op op, bool dbl, long i, u64 *a, u64 *b, u64 *c)
{
	int bias = SF_BIAS(dbl), emax = SF_EMAX(dbl), mbits = SF_MBITS(dbl);
	int ea = exponent(dbl, bias, 64), spreads[4] = { 1, 3, mbits + 3, 130 };
	int spread = spreads[i % 4], eb, ec, target;
	u64 fa = fraction();

	*a = value(dbl, ea, rnd() & 1, fa);
	switch (op) {
	case OP_ADD:
	case OP_SUB:
		/* Close exponents; sometimes the same fraction (cancellation). */
		eb = exponent(dbl, ea, spread);
		*b = value(dbl, eb, rnd() & 1, i % 8 == 7 ? fa ^ (rnd() & 7) : fraction());
		break;
	case OP_MUL:
	case OP_DIV:
		/* Results next to the overflow or the underflow threshold. */
		target = i % 3 == 0 ? emax - 1 : i % 3 == 1 ? 1 : exponent(dbl, bias, 64);
		eb = op == OP_MUL ? target - ea + bias : ea - target + bias;
		*b = value(dbl, exponent(dbl, eb, 3), rnd() & 1,
			   i % 5 == 4 ? fa : fraction());
		break;
	case OP_SQRT:
		/* Positive, any exponent; now and then an exact square. */
		*a = value(dbl, exponent(dbl, bias, bias - 2), false, fa);
		if (i % 4 == 3) {
			/* A significand of k + 1 bits squares exactly. */
			int k = dbl ? 25 : 11;
			u64 v = value(dbl, exponent(dbl, bias, bias / 2 - 2), false,
				      (rnd() >> (64 - k)) << (mbits - k));
			u32 f = 0;

			*a = sf_mul(dbl, v, v, VACCEL_RM_RNE, &f);
		}
		break;
	default:
		/* The addend's exponent near the product's: cancellations. */
		eb = exponent(dbl, bias, 16);
		*b = value(dbl, eb, rnd() & 1, fraction());
		ec = exponent(dbl, ea + eb - bias, spread);
		*c = value(dbl, ec, rnd() & 1, i % 8 == 7 ? fa : fraction());
		if (i % 16 == 5) {
			/* a * 1 - a: an exact zero. */
			*b = value(dbl, bias, false, 0);
			*c = *a ^ sf_sign_bit(dbl);
		} else if (i % 16 == 9) {
			/*
			 * A product half an ulp of c, give or take its last
			 * bit, which only the sticky bit carries: b a power of
			 * two, a with its lowest bit set.
			 */
			ec = exponent(dbl, bias, 32);
			*c = value(dbl, ec, rnd() & 1, rnd() & 1 ? 0 : fraction());
			*a = value(dbl, ea, rnd() & 1, (rnd() & 1 ? 0 : 1ull << (rnd() % mbits)) | 1);
			*b = value(dbl, ec - mbits - 1 - ea + 2 * bias +
				   (int)(rnd() % 3) - 1, rnd() & 1, 0);
		} else if (i % 16 == 13) {
			/*
			 * A product exactly halfway (a with its lowest bit set
			 * times 1.5), and an addend so much smaller that only
			 * the sticky bit carries it.
			 */
			*a = value(dbl, ea, rnd() & 1, 1);
			*b = value(dbl, eb, rnd() & 1, 1ull << (mbits - 1));
			*c = value(dbl, ea + eb - bias - (dbl ? 124 : 66) -
				   (int)(rnd() % 6), rnd() & 1, fraction());
		}
		break;
	}
}

static void check(enum op op, bool dbl, long n)
{
	long i, fast_cases = 0, cases = 0;
	unsigned int rm;
	u64 a = 0, b = 0, c = 0;
	char name[32];

	snprintf(name, sizeof(name), "%s_%s", op_names[op], dbl ? "d" : "s");
	for (i = 0; i < n; i++) {
		operands(op, dbl, i, &a, &b, &c);
		for (rm = VACCEL_RM_RNE; rm <= VACCEL_RM_RMM; rm++) {
			u32 ff = 0, fg = 0;
			u64 rf, rg;

			cases++;
			if (!fast(op, dbl, a, b, c, rm, &ff, &rf))
				continue;
			fast_cases++;
			rg = general(op, dbl, a, b, c, rm, &fg);
			if (rf != rg || ff != fg) {
				printf("not ok isa.softfloat_paths_%s: 0x%llx 0x%llx 0x%llx rm %u: fast 0x%llx flags 0x%x, general 0x%llx flags 0x%x\n",
				       name, (unsigned long long)a,
				       (unsigned long long)b, (unsigned long long)c,
				       rm, (unsigned long long)rf, ff,
				       (unsigned long long)rg, fg);
				failures++;
				return;
			}
		}
	}
	if (fast_cases * 10 < cases) {
		printf("not ok isa.softfloat_paths_%s: the fast path answered %ld of %ld cases\n",
		       name, fast_cases, cases);
		failures++;
		return;
	}
	printf("ok isa.softfloat_paths_%s: %ld cases, %ld by the fast path\n",
	       name, cases, fast_cases);
}

/* sf_div_55() against the exact division, for significands @n and @d. */
static bool div_ok(u64 n, u64 d)
{
	u128 num = (u128)n << 55;
	u64 q, r;

	q = sf_div_55(n, d, &r);
	if (q == (u64)(num / d) && r == (u64)(num % d))
		return true;
	printf("not ok isa.softfloat_paths_div_55: %llx / %llx gave %llx rem %llx, want %llx rem %llx\n",
	       (unsigned long long)n, (unsigned long long)d,
	       (unsigned long long)q, (unsigned long long)r,
	       (unsigned long long)(u64)(num / d), (unsigned long long)(u64)(num % d));
	failures++;
	return false;
}

static void check_div_55(long n)
{
	static const u64 edges[] = {
		0, 1, 2, 3, 0xfffffffffffffull, 0xffffffffffffeull,
		0x7ffffffffffffull, 0x8000000000000ull, 0x8000000000001ull,
		0x5555555555555ull, 0xaaaaaaaaaaaaaull, 0xfffffff000000ull,
		0xffffffffull, 0x100000000ull, 0x1fffffull, 0x200000ull,
	};
	const u64 lead = 1ull << 52, m = lead - 1;
	size_t i, j;
	long k;

	for (i = 0; i < sizeof(edges) / sizeof(edges[0]); i++)
		for (j = 0; j < sizeof(edges) / sizeof(edges[0]); j++)
			if (!div_ok(lead | edges[i], lead | edges[j]))
				return;
	for (k = 0; k < n; k++) {
		u64 x = lead | (rnd() & m), y = lead | (rnd() & m);

		/* Divisors whose low bits, which the reciprocal's seed drops, are all 0 or 1. */
		if (k & 1)
			y = (y & ~0x1fffffull) | (k & 2 ? 0x1fffff : 0);
		if (!div_ok(x, y) || !div_ok(x, x))
			return;
	}
	printf("ok isa.softfloat_paths_div_55: %ld quotients exact\n",
	       2 * n + (long)(sizeof(edges) * sizeof(edges) / sizeof(u64) / sizeof(u64)));
}

/* floor(sqrt(@n)), a bit at a time: the reference for sf_isqrt(). */
static u64 isqrt_ref(u128 n)
{
	u128 root = 0, bit = (u128)1 << 126;

	while (bit > n)
		bit >>= 2;
	while (bit) {
		if (n >= root + bit) {
			n -= root + bit;
			root = (root >> 1) + bit;
		} else {
			root >>= 1;
		}
		bit >>= 2;
	}
	return (u64)root;
}

/* sf_isqrt() on @sig for the format: the exact root, and whether inexact. */
static bool isqrt_ok(bool dbl, u64 sig)
{
	unsigned int k = dbl ? 29 : 15;
	u128 n = (u128)sig << (2 * k);
	u64 want = isqrt_ref(n), got;
	bool inexact;

	got = sf_isqrt(dbl, sig, k, &inexact);
	if (got == want && inexact == ((u128)want * want != n))
		return true;
	printf("not ok isa.softfloat_paths_isqrt: sqrt(0x%llx << %u) gave 0x%llx (%s), want 0x%llx\n",
	       (unsigned long long)sig, 2 * k, (unsigned long long)got,
	       inexact ? "inexact" : "exact", (unsigned long long)want);
	failures++;
	return false;
}

/*
 * sf_isqrt(), which the fast and the general path share, against the
 * reference: the significands of both formats (either parity of the
 * exponent), exact squares and their neighbours.
 */
static void check_isqrt(long n)
{
	long i;

	for (i = 0; i < n; i++) {
		bool dbl = i & 1;
		unsigned int bits = dbl ? 53 : 24;
		u64 lead = 1ull << (bits - 1 + (i >> 1 & 1));
		u64 sig = lead | (rnd() & (lead - 1)), r;

		if (!isqrt_ok(dbl, sig))
			return;
		/* A root r whose square is a significand of that width: r^2, r^2 +- 1. */
		r = isqrt_ref(sig);
		if (r * r >= lead && !isqrt_ok(dbl, r * r))
			return;
		if (r * r - 1 >= lead && !isqrt_ok(dbl, r * r - 1))
			return;
		if (r * r + 1 < 2 * lead && !isqrt_ok(dbl, r * r + 1))
			return;
	}
	printf("ok isa.softfloat_paths_isqrt: %ld radicands and their neighbours\n", n);
}

int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 200000;
	int op;

	for (op = OP_ADD; op < OP_COUNT; op++) {
		check(op, false, n);
		check(op, true, n);
	}
	check_div_55(10 * n);
	check_isqrt(5 * n);
	return failures ? 1 : 0;
}
