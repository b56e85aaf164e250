/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Copyright 2026 The vaccel authors
 *
 * The soft-float differential test's operations and operands, shared by
 * the RV64 oracle (fp_oracle.c, gen_fp_vectors.c, built freestanding and
 * run under qemu-riscv64) and the host side (softfloat_diff.c): both
 * generate the very same operands from the same seed, so only results
 * travel between them.  Integer arithmetic only, no libc.
 */
#ifndef FP_CASES_H
#define FP_CASES_H

#include <stdint.h>

/* How an operation's operands are made and what they are. */
enum fp_kind {
	FP_K_BIN,	/* two floats: arithmetic, min/max, comparisons */
	FP_K_SQRT,	/* one float */
	FP_K_CLASS,	/* one float, any class */
	FP_K_FMA,	/* three floats */
	FP_K_TOINT,	/* one float, near integers of every size */
	FP_K_FROMI32,	/* one 32-bit integer */
	FP_K_FROMI64,	/* one 64-bit integer */
	FP_K_CVT,	/* one float of the other format */
};

/*
 * Every operation: enum suffix, name, format of the result or of the
 * float operands (0 binary32, 1 binary64, for FP_K_CVT the source),
 * operand kind, whether it takes a rounding mode.
 */
#define FP_OPS(X) \
	X(F32_ADD, f32_add, 0, FP_K_BIN, 1) \
	X(F32_SUB, f32_sub, 0, FP_K_BIN, 1) \
	X(F32_MUL, f32_mul, 0, FP_K_BIN, 1) \
	X(F32_DIV, f32_div, 0, FP_K_BIN, 1) \
	X(F32_SQRT, f32_sqrt, 0, FP_K_SQRT, 1) \
	X(F32_FMADD, f32_fmadd, 0, FP_K_FMA, 1) \
	X(F32_FMSUB, f32_fmsub, 0, FP_K_FMA, 1) \
	X(F32_FNMSUB, f32_fnmsub, 0, FP_K_FMA, 1) \
	X(F32_FNMADD, f32_fnmadd, 0, FP_K_FMA, 1) \
	X(F32_MIN, f32_min, 0, FP_K_BIN, 0) \
	X(F32_MAX, f32_max, 0, FP_K_BIN, 0) \
	X(F32_EQ, f32_eq, 0, FP_K_BIN, 0) \
	X(F32_LT, f32_lt, 0, FP_K_BIN, 0) \
	X(F32_LE, f32_le, 0, FP_K_BIN, 0) \
	X(F32_CLASSIFY, f32_classify, 0, FP_K_CLASS, 0) \
	X(F32_TO_I32, f32_to_i32, 0, FP_K_TOINT, 1) \
	X(F32_TO_U32, f32_to_u32, 0, FP_K_TOINT, 1) \
	X(F32_TO_I64, f32_to_i64, 0, FP_K_TOINT, 1) \
	X(F32_TO_U64, f32_to_u64, 0, FP_K_TOINT, 1) \
	X(I32_TO_F32, i32_to_f32, 0, FP_K_FROMI32, 1) \
	X(U32_TO_F32, u32_to_f32, 0, FP_K_FROMI32, 1) \
	X(I64_TO_F32, i64_to_f32, 0, FP_K_FROMI64, 1) \
	X(U64_TO_F32, u64_to_f32, 0, FP_K_FROMI64, 1) \
	X(F64_ADD, f64_add, 1, FP_K_BIN, 1) \
	X(F64_SUB, f64_sub, 1, FP_K_BIN, 1) \
	X(F64_MUL, f64_mul, 1, FP_K_BIN, 1) \
	X(F64_DIV, f64_div, 1, FP_K_BIN, 1) \
	X(F64_SQRT, f64_sqrt, 1, FP_K_SQRT, 1) \
	X(F64_FMADD, f64_fmadd, 1, FP_K_FMA, 1) \
	X(F64_FMSUB, f64_fmsub, 1, FP_K_FMA, 1) \
	X(F64_FNMSUB, f64_fnmsub, 1, FP_K_FMA, 1) \
	X(F64_FNMADD, f64_fnmadd, 1, FP_K_FMA, 1) \
	X(F64_MIN, f64_min, 1, FP_K_BIN, 0) \
	X(F64_MAX, f64_max, 1, FP_K_BIN, 0) \
	X(F64_EQ, f64_eq, 1, FP_K_BIN, 0) \
	X(F64_LT, f64_lt, 1, FP_K_BIN, 0) \
	X(F64_LE, f64_le, 1, FP_K_BIN, 0) \
	X(F64_CLASSIFY, f64_classify, 1, FP_K_CLASS, 0) \
	X(F64_TO_I32, f64_to_i32, 1, FP_K_TOINT, 1) \
	X(F64_TO_U32, f64_to_u32, 1, FP_K_TOINT, 1) \
	X(F64_TO_I64, f64_to_i64, 1, FP_K_TOINT, 1) \
	X(F64_TO_U64, f64_to_u64, 1, FP_K_TOINT, 1) \
	X(I32_TO_F64, i32_to_f64, 1, FP_K_FROMI32, 1) \
	X(U32_TO_F64, u32_to_f64, 1, FP_K_FROMI32, 1) \
	X(I64_TO_F64, i64_to_f64, 1, FP_K_FROMI64, 1) \
	X(U64_TO_F64, u64_to_f64, 1, FP_K_FROMI64, 1) \
	X(F32_TO_F64, f32_to_f64, 0, FP_K_CVT, 0) \
	X(F64_TO_F32, f64_to_f32, 1, FP_K_CVT, 1)

#define FP_ENUM(e, n, d, k, r) FP_##e,
enum fp_op { FP_OPS(FP_ENUM) FP_NR_OPS };
#undef FP_ENUM

struct fp_op_info {
	const char *name;
	const char *ename;
	unsigned char dbl;
	unsigned char kind;
	unsigned char has_rm;
};

#define FP_INFO(e, n, d, k, r) { #n, #e, d, k, r },
static const struct fp_op_info fp_ops[FP_NR_OPS] = { FP_OPS(FP_INFO) };
#undef FP_INFO

static const char *const fp_rm_names[5] = { "RNE", "RTZ", "RDN", "RUP", "RMM" };

/*
 * The bits of op's result that matter: binary32 values and 32-bit integers
 * are compared on their low 32 bits (RV64 NaN-boxes or sign-extends them).
 */
static inline uint64_t fp_result_mask(unsigned int op)
{
	switch (op) {
	case FP_F32_TO_I32:
	case FP_F32_TO_U32:
	case FP_F64_TO_I32:
	case FP_F64_TO_U32:
	case FP_F64_TO_F32:
		return 0xffffffffull;
	case FP_F32_TO_I64:
	case FP_F32_TO_U64:
	case FP_F32_TO_F64:
		return ~0ull;
	default:
		return fp_ops[op].dbl ? ~0ull : 0xffffffffull;
	}
}

/* The operands of one test case. */
struct fp_case {
	uint64_t a, b, c;
};

/* The oracle's answer for one case, as it travels in the pipe. */
struct fp_record {
	uint64_t result;
	uint64_t flags;
};

/* splitmix64: one 64-bit state, good enough mixing for test operands. */
static inline uint64_t fp_rand(uint64_t *s)
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

static inline unsigned int fp_below(uint64_t *s, unsigned int n)
{
	return (unsigned int)((fp_rand(s) >> 32) % n);
}

/* The independent stream of one (op, rm) pair. */
static inline uint64_t fp_stream(uint64_t seed, unsigned int op,
				 unsigned int rm)
{
	uint64_t s = seed ^ ((uint64_t)op << 40) ^ ((uint64_t)rm << 56);

	fp_rand(&s);
	return s;
}

#define FP_MBITS(dbl)	((dbl) ? 52 : 23)
#define FP_EMAX(dbl)	((dbl) ? 0x7ffu : 0xffu)
#define FP_BIAS(dbl)	((dbl) ? 1023 : 127)
#define FP_SIGN(dbl)	((dbl) ? 1ull << 63 : 1ull << 31)

static inline uint64_t fp_pack(int dbl, int sign, uint64_t bexp,
			       uint64_t frac)
{
	return (sign ? FP_SIGN(dbl) : 0) | (bexp << FP_MBITS(dbl)) |
	       (frac & ((1ull << FP_MBITS(dbl)) - 1));
}

static const uint64_t fp_specials32[] = {
	0x00000000, 0x80000000, 0x3f800000, 0xbf800000, 0x00000001,
	0x80000001, 0x007fffff, 0x807fffff, 0x00800000, 0x80800000,
	0x7f7fffff, 0xff7fffff, 0x7f800000, 0xff800000, 0x7fc00000,
	0xffc00000, 0x7fc12345, 0x7f800001, 0xff800001, 0x7fbfffff,
	0x3f000000, 0x3fc00000, 0x40000000, 0x4b000000, 0x4f000000,
	0x4f800000, 0x5f000000, 0x5f800000, 0xcf000000, 0xdf000000,
	0x34000000, 0x33800000, 0x00400000, 0x3f7fffff, 0x3f800001,
};

static const uint64_t fp_specials64[] = {
	0x0000000000000000ull, 0x8000000000000000ull, 0x3ff0000000000000ull,
	0xbff0000000000000ull, 0x0000000000000001ull, 0x8000000000000001ull,
	0x000fffffffffffffull, 0x800fffffffffffffull, 0x0010000000000000ull,
	0x8010000000000000ull, 0x7fefffffffffffffull, 0xffefffffffffffffull,
	0x7ff0000000000000ull, 0xfff0000000000000ull, 0x7ff8000000000000ull,
	0xfff8000000000000ull, 0x7ff8000000012345ull, 0x7ff0000000000001ull,
	0xfff0000000000001ull, 0x7ff7ffffffffffffull, 0x3fe0000000000000ull,
	0x3ff8000000000000ull, 0x4000000000000000ull, 0x4330000000000000ull,
	0x41e0000000000000ull, 0x41f0000000000000ull, 0x43e0000000000000ull,
	0x43f0000000000000ull, 0xc1e0000000000000ull, 0xc3e0000000000000ull,
	0x3cb0000000000000ull, 0x3ca0000000000000ull, 0x0008000000000000ull,
	0x3fefffffffffffffull, 0x3ff0000000000001ull, 0x41dfffffffc00000ull,
	0x41efffffffe00000ull, 0x36a0000000000000ull, 0x3810000000000000ull,
	0x47efffffe0000000ull, 0x380fffffe0000000ull, 0x369fffffffffffffull,
};

#define FP_NSPECIALS(dbl) \
	((dbl) ? sizeof(fp_specials64) / sizeof(fp_specials64[0]) : \
		 sizeof(fp_specials32) / sizeof(fp_specials32[0]))

static inline uint64_t fp_special(uint64_t *s, int dbl)
{
	unsigned int i = fp_below(s, (unsigned int)FP_NSPECIALS(dbl));

	return dbl ? fp_specials64[i] : fp_specials32[i];
}

/* One of the first 19 specials: a value of every class, both signs. */
static inline uint64_t fp_class_special(uint64_t *s, int dbl)
{
	unsigned int i = fp_below(s, 19);

	return dbl ? fp_specials64[i] : fp_specials32[i];
}

/*
 * NOTE: the host and the oracle must draw the same numbers in the same
 * order, and C leaves the order of evaluation of function arguments and
 * of operands unspecified: one draw per statement below.
 */

/* A random sign bit, 0 or 1. */
static inline int fp_coin(uint64_t *s)
{
	return (int)fp_below(s, 2);
}

/*
 * A fraction of mbits bits made to hit rounding corner cases: runs of
 * ones and zeros, few significant bits (exact results and ties), or noise.
 */
static inline uint64_t fp_rand_frac(uint64_t *s, int dbl)
{
	unsigned int mbits = FP_MBITS(dbl);
	uint64_t mask = (1ull << mbits) - 1, f, r;
	unsigned int i, n;

	switch (fp_below(s, 8)) {
	case 0:
		return 0;
	case 1:
		return mask;
	case 2:		/* a few bits set */
		n = 1 + fp_below(s, 3);
		for (f = 0, i = 0; i < n; i++)
			f |= 1ull << fp_below(s, mbits);
		return f;
	case 3:		/* a few bits clear */
		n = 1 + fp_below(s, 3);
		for (f = mask, i = 0; i < n; i++)
			f &= ~(1ull << fp_below(s, mbits));
		return f;
	case 4:		/* few significant bits */
		n = fp_below(s, mbits);
		r = fp_rand(s);
		return r & mask & ~((1ull << n) - 1);
	case 5:		/* noise above, one set bit then zeros */
		n = fp_below(s, mbits);
		r = fp_rand(s);
		return ((r << n) | (1ull << n)) & mask;
	default:
		return fp_rand(s) & mask;
	}
}

/* A biased exponent, finite, weighted towards the edges of the range. */
static inline uint64_t fp_rand_bexp(uint64_t *s, int dbl)
{
	uint64_t emax = FP_EMAX(dbl), bias = FP_BIAS(dbl);

	switch (fp_below(s, 8)) {
	case 0:
		return fp_below(s, 3);			/* subnormal, tiny */
	case 1:
		return emax - 1 - fp_below(s, 3);	/* near overflow */
	case 2:
	case 3:
		return bias - 3 + fp_below(s, 7);	/* near 1 */
	case 4:		/* around the integer-precision boundary */
		return bias + FP_MBITS(dbl) - 2 + fp_below(s, 5);
	default:
		return 1 + fp_below(s, (unsigned int)emax - 1);
	}
}

static inline uint64_t fp_rand_finite(uint64_t *s, int dbl)
{
	int sign = fp_coin(s);
	uint64_t bexp = fp_rand_bexp(s, dbl);
	uint64_t frac = fp_rand_frac(s, dbl);

	return fp_pack(dbl, sign, bexp, frac);
}

static inline uint64_t fp_rand_float(uint64_t *s, int dbl)
{
	unsigned int sel = fp_below(s, 100);

	if (sel < 12)
		return fp_special(s, dbl);
	if (sel < 30)
		return fp_rand(s) & (dbl ? ~0ull : 0xffffffffull);
	return fp_rand_finite(s, dbl);
}

static inline uint64_t fp_bexp_of(int dbl, uint64_t x)
{
	return (x >> FP_MBITS(dbl)) & FP_EMAX(dbl);
}

/* A biased exponent clamped to the finite range, from a signed one. */
static inline uint64_t fp_clamp_bexp(int dbl, int64_t e)
{
	if (e < 0)
		return 0;
	if (e > (int64_t)FP_EMAX(dbl) - 1)
		return FP_EMAX(dbl) - 1;
	return (uint64_t)e;
}

/*
 * The significand (hidden bit included) of a finite float as a 64-bit
 * integer with its leading bit at bit 63; 0 for zero.
 */
static inline uint64_t fp_sig_top(int dbl, uint64_t x)
{
	uint64_t frac = x & ((1ull << FP_MBITS(dbl)) - 1);
	uint64_t sig = fp_bexp_of(dbl, x) ? frac | (1ull << FP_MBITS(dbl))
					   : frac;

	if (!sig)
		return 0;
	while (!(sig >> 63))
		sig <<= 1;
	return sig;
}

/* A float of exponent e (biased, clamped) with a random sign and fraction. */
static inline uint64_t fp_with_bexp(uint64_t *s, int dbl, int64_t e)
{
	int sign = fp_coin(s);
	uint64_t frac = fp_rand_frac(s, dbl);

	return fp_pack(dbl, sign, fp_clamp_bexp(dbl, e), frac);
}

/* The second operand of a binary operation: often related to the first. */
static inline uint64_t fp_rand_second(uint64_t *s, int dbl, uint64_t a)
{
	int64_t ea = (int64_t)fp_bexp_of(dbl, a), bias = FP_BIAS(dbl);
	unsigned int mbits = FP_MBITS(dbl);
	int64_t d;
	uint64_t r;
	int sign;

	switch (fp_below(s, 12)) {
	case 0:		/* close to a, either sign: cancellation */
		sign = fp_coin(s);
		d = fp_below(s, mbits);
		r = fp_rand(s);
		return a ^ (r & ((1ull << d) - 1)) ^ (sign ? FP_SIGN(dbl) : 0);
	case 1:		/* -a or a */
		sign = fp_coin(s);
		return a ^ (sign ? FP_SIGN(dbl) : 0);
	case 2:		/* exponents close enough to align within the guard bits */
		d = fp_below(s, mbits + 4);
		return fp_with_bexp(s, dbl, ea - d);
	case 3:		/* product or quotient near overflow */
		d = fp_below(s, 4);
		return fp_with_bexp(s, dbl, 3 * bias - ea - 1 + d);
	case 4:		/* product near the subnormal range */
		d = fp_below(s, mbits + 3);
		return fp_with_bexp(s, dbl, bias - ea - d + 1);
	case 5:		/* quotient near the subnormal range */
		d = fp_below(s, mbits + 3);
		return fp_with_bexp(s, dbl, ea + bias + d - 1);
	default:
		return fp_rand_float(s, dbl);
	}
}

/* The index of the leading bit of a nonzero x. */
static inline unsigned int fp_msb(uint64_t x)
{
	unsigned int n = 0;

	while (x >> 1) {
		x >>= 1;
		n++;
	}
	return n;
}

/* An exact quotient: a = q * b with q and b of few significant bits. */
static inline void fp_exact_div(uint64_t *s, int dbl, struct fp_case *k)
{
	unsigned int mbits = FP_MBITS(dbl), half = (mbits + 1) / 2;
	uint64_t q, b, p, eb, ea;
	unsigned int lp, lb;
	int sa, sb;

	q = (fp_rand(s) >> (64 - half)) | 1;
	b = (fp_rand(s) >> (64 - half)) | 1;
	p = q * b;
	lp = fp_msb(p);
	lb = fp_msb(b);
	eb = FP_BIAS(dbl) - 8 + fp_below(s, 16);
	ea = eb + lp - lb + fp_below(s, 3);
	sa = fp_coin(s);
	sb = fp_coin(s);
	k->a = fp_pack(dbl, sa, ea, p << (mbits - lp));
	k->b = fp_pack(dbl, sb, eb, b << (mbits - lb));
}

/* A perfect square, or a neighbour of one. */
static inline uint64_t fp_square(uint64_t *s, int dbl)
{
	unsigned int mbits = FP_MBITS(dbl);
	uint64_t m, p, nudge;
	unsigned int lp;
	int64_t e;

	m = (fp_rand(s) >> (64 - (mbits + 1) / 2)) | 1;
	p = m * m;
	lp = fp_msb(p);
	e = (int64_t)fp_below(s, 2 * FP_BIAS(dbl)) - FP_BIAS(dbl);
	nudge = fp_below(s, 3);
	/* p * 4^j, with the leading bit of p as the hidden bit */
	e = (e & ~1ll) + (int64_t)lp + FP_BIAS(dbl);
	return fp_pack(dbl, 0, fp_clamp_bexp(dbl, e),
		       (p << (mbits - lp)) + nudge - 1);
}

/* c close to -(a * b), for the cancellations of fused multiply-add. */
static inline uint64_t fp_near_product(uint64_t *s, int dbl, uint64_t a,
				       uint64_t b)
{
	unsigned int mbits = FP_MBITS(dbl);
	uint64_t sa = fp_sig_top(dbl, a), sb = fp_sig_top(dbl, b), hi;
	int64_t e = (int64_t)fp_bexp_of(dbl, a) + (int64_t)fp_bexp_of(dbl, b) -
		    FP_BIAS(dbl);
	int psign = ((a ^ b) & FP_SIGN(dbl)) != 0;
	uint64_t nudge = fp_below(s, 5);
	int64_t down = fp_below(s, 2);
	int same = !fp_below(s, 4);

	hi = (uint64_t)(((unsigned __int128)sa * sb) >> 64);
	if (!(hi >> 63))
		hi <<= 1;
	else
		e++;
	hi >>= 63 - mbits;
	hi += nudge - 2;
	return fp_pack(dbl, same ? psign : !psign,
		       fp_clamp_bexp(dbl, e - down), hi);
}

/* A float near an integer of any size, ties included. */
static inline uint64_t fp_rand_near_int(uint64_t *s, int dbl)
{
	unsigned int sel = fp_below(s, 10);
	uint64_t bias = FP_BIAS(dbl), frac, e;
	int sign;

	if (sel == 0)
		return fp_special(s, dbl);
	if (sel == 1)
		return fp_rand(s) & (dbl ? ~0ull : 0xffffffffull);
	sign = fp_coin(s);
	if (sel == 2) {		/* 2^k - a few ulps, k = 31, 32, 33, 63, 64, 65 */
		e = bias + 30 + fp_below(s, 3);
		e += 32 * fp_below(s, 2);
		frac = (1ull << FP_MBITS(dbl)) - 1 - fp_below(s, 3);
		return fp_pack(dbl, sign, e, frac);
	}
	/* exponents -3 to 66: from below 1/2 to beyond 2^64 */
	e = bias - 3 + fp_below(s, 70);
	frac = fp_rand_frac(s, dbl);
	return fp_pack(dbl, sign, e, frac);
}

/* An integer for the integer-to-float conversions. */
static inline uint64_t fp_rand_int(uint64_t *s, int wide)
{
	unsigned int bits = wide ? 64 : 32, k = fp_below(s, bits);
	uint64_t x, r, mask = wide ? ~0ull : 0xffffffffull;

	switch (fp_below(s, 8)) {
	case 0:		/* small */
		x = (uint64_t)fp_below(s, 64) - 32;
		break;
	case 1:		/* near a power of two */
		x = (1ull << k) + fp_below(s, 16) - 8;
		break;
	case 2:		/* a tie or a near tie at 24 or 53 bits */
		r = fp_rand(s);
		x = (1ull << k) | (r & ((1ull << k) - 1) &
				   ~((1ull << (k > 26 ? k - 26 : 0)) - 1));
		x |= k > 24 ? 1ull << (k - 24) : 0;
		x += (uint64_t)fp_below(s, 3) - 1;
		break;
	case 3:		/* the ends */
		x = (wide ? 1ull << 63 : 1ull << 31) + fp_below(s, 5) - 2;
		break;
	case 4:		/* few significant bits */
		x = fp_rand(s) & ~((1ull << k) - 1);
		break;
	default:
		r = fp_rand(s);
		x = r >> fp_below(s, bits);
		break;
	}
	x &= mask;
	/* the 32-bit integers travel sign-extended, as in the registers */
	if (!wide)
		x = (uint64_t)(int64_t)(int32_t)(uint32_t)x;
	return x;
}

/* A binary64 around the binary32 range, or rounding at its precision. */
static inline uint64_t fp_rand_f64_for_f32(uint64_t *s)
{
	unsigned int sel = fp_below(s, 10);
	uint64_t frac, e;
	int sign;

	if (sel < 2)
		return fp_rand_float(s, 1);
	switch (fp_below(s, 4)) {
	case 0:		/* binary32 subnormals and below */
		e = 1023 - 126 - fp_below(s, 30);
		break;
	case 1:		/* binary32 overflow */
		e = 1023 + 126 + fp_below(s, 4);
		break;
	default:
		e = 1023 - 150 + fp_below(s, 300);
		break;
	}
	sign = fp_coin(s);
	frac = fp_rand_frac(s, 1);
	if (fp_below(s, 2)) {	/* halfway at the binary32 precision */
		frac &= ~((1ull << 29) - 1);
		frac |= 1ull << 28;
		if (fp_below(s, 2))
			frac |= 1ull << fp_below(s, 28);
	}
	return fp_pack(1, sign, e, frac);
}

/* The operands of one case of op. */
static inline void fp_make_case(uint64_t *s, unsigned int op,
				struct fp_case *k)
{
	const struct fp_op_info *info = &fp_ops[op];
	int dbl = info->dbl;
	uint64_t t;

	k->a = 0;
	k->b = 0;
	k->c = 0;
	switch (info->kind) {
	case FP_K_BIN:
		if ((op == FP_F32_DIV || op == FP_F64_DIV) && !fp_below(s, 6)) {
			fp_exact_div(s, dbl, k);
			break;
		}
		/* specials crossed, often for min, max and comparisons */
		if (!fp_below(s, info->has_rm ? 16 : 4)) {
			k->a = fp_class_special(s, dbl);
			k->b = fp_class_special(s, dbl);
			break;
		}
		k->a = fp_rand_float(s, dbl);
		k->b = fp_rand_second(s, dbl, k->a);
		if (fp_coin(s)) {
			t = k->a;
			k->a = k->b;
			k->b = t;
		}
		break;
	case FP_K_SQRT:
		if (!fp_below(s, 5)) {
			k->a = fp_square(s, dbl);
			break;
		}
		k->a = fp_rand_float(s, dbl);
		if (fp_below(s, 4))
			k->a &= ~FP_SIGN(dbl);
		break;
	case FP_K_CLASS:
		k->a = fp_rand_float(s, dbl);
		break;
	case FP_K_FMA:
		if (!fp_below(s, 12)) {		/* specials crossed */
			k->a = fp_class_special(s, dbl);
			k->b = fp_class_special(s, dbl);
			k->c = fp_class_special(s, dbl);
			break;
		}
		k->a = fp_rand_float(s, dbl);
		k->b = fp_rand_second(s, dbl, k->a);
		switch (fp_below(s, 4)) {
		case 0:
		case 1:
			k->c = fp_near_product(s, dbl, k->a, k->b);
			break;
		case 2:
			k->c = fp_rand_second(s, dbl, k->a);
			break;
		default:
			k->c = fp_rand_float(s, dbl);
			break;
		}
		break;
	case FP_K_TOINT:
		k->a = fp_rand_near_int(s, dbl);
		break;
	case FP_K_FROMI32:
		k->a = fp_rand_int(s, 0);
		break;
	case FP_K_FROMI64:
		k->a = fp_rand_int(s, 1);
		break;
	case FP_K_CVT:
		if (dbl)
			k->a = fp_rand_f64_for_f32(s);
		else
			k->a = fp_rand_float(s, 0);
		break;
	}
}

#endif /* FP_CASES_H */
