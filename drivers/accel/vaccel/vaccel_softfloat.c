// SPDX-License-Identifier: GPL-2.0-only
/*
 * Copyright 2026 The vaccel authors
 */

/**
 * DOC: Soft-float
 *
 * The F and D extensions of the interpreter are computed here, with integer
 * arithmetic only: the kernel's FPU is never touched, and the results and
 * the accrued flags are bit for bit those the RISC-V unprivileged
 * specification defines.  The same file builds into the module and into
 * the user-space differential test (tests/isa/run-fp.sh), which compares
 * it with real RV64 instructions run under qemu-riscv64.
 *
 * **Representation.**  binary32 and binary64 share one code path, told
 * apart by a ``dbl`` flag that selects the field widths.  An operand is
 * unpacked into its class (zero, finite, infinity, quiet or signalling
 * NaN), its sign and, when finite, an integer significand with the hidden
 * bit at bit 23 or 52 and an unbounded exponent: subnormal inputs are
 * normalized on the way in, so the arithmetic never sees them.
 *
 * **Exact intermediate, one rounding.**  Every operation first computes
 * its exact result as an integer times a power of two, or when that does
 * not fit, a truncation of it whose lowest bit is ORed with every bit
 * shifted out (a "sticky" or "jammed" bit).  Such a value keeps at least
 * two bits below the last bit of the format, so that the jammed bit never
 * decides a rounding by itself but only tells "exactly halfway" from "a
 * little more".  Sums align the smaller operand to the larger; products
 * are 64 x 64 to 128-bit multiplications; quotients are integer
 * divisions (for binary64, a reciprocal refined by Newton's method and
 * corrected against the exact remainder), the remainder giving the
 * sticky bit; square roots are integer square roots by Newton's method,
 * corrected against the exact remainder, which also gives the sticky
 * bit; fused multiply-add adds the exact 106-bit product and the addend
 * in 128 bits.
 * No division wider than 64 bits is ever needed.
 *
 * sf_round_pack() is then the only place that rounds: it takes the value
 * normalized with its leading bit at bit 62 of a u64, adds the increment
 * of the rounding mode (ties to even, ties away, towards zero, down, up)
 * to the bits below the last kept bit, and packs.  A carry out of the
 * significand bumps the exponent; an exponent above the format's range
 * after rounding is an overflow, which gives infinity or the largest
 * finite value of that sign as the mode dictates, with OF and NX.
 *
 * **Underflow.**  RISC-V detects tininess *after* rounding: a result is
 * tiny when, rounded to the format's precision with an unbounded
 * exponent, it is below the smallest normal.  A value whose exponent is
 * below emin - 1 is always tiny; one just below the smallest normal
 * (exponent emin - 1) is tiny unless rounding it at full precision carries
 * it up to 2^emin.  The value is then shifted right, with sticky, to the
 * subnormal position and rounded there: UF is raised when the result is
 * tiny *and* inexact, as IEEE 754 specifies for untrapped underflow, and a
 * subnormal rounded up into the smallest normal packs as that normal.
 *
 * **NaNs.**  No NaN payload ever propagates: every operation that returns a
 * NaN returns the canonical NaN (0x7fc00000, 0x7ff8000000000000), whatever
 * its operands.  NV is raised by any signalling NaN operand of an
 * arithmetic operation or conversion, by the invalid operations (inf -
 * inf, 0 * inf, 0 / 0, inf / inf, the square root of a negative number),
 * and by fused multiply-add with 0 * inf even when the addend is a quiet
 * NaN.  FMIN and FMAX return the other operand when only one is a NaN and
 * order -0 below +0; FEQ only signals for signalling NaNs, FLT and FLE for
 * any NaN.  Conversions to integers saturate (NaN and too large positive
 * values to the largest integer, too large negative ones to the smallest)
 * with NV and without NX.
 *
 * **Fast paths.**  Add, subtract, multiply, fused multiply-add, divide
 * and square root first try the common case in line: every operand
 * normal (and positive, for a root), the result normal and far enough
 * from the overflow threshold that rounding cannot reach it, not an exact
 * zero.  They then align, add, multiply, divide or take the root of the
 * significands and round directly from the bit patterns (ordering two
 * normals by magnitude is comparing their bits), with no unpacking;
 * anything else goes to the general path above, which starts over.  Both
 * compute the same exact intermediate and round it the same way, so they
 * agree bit for bit.
 *
 * Only VACCEL_RM_RNE to VACCEL_RM_RMM are rounding modes; the instruction
 * decoder rejects the others.  An unknown mode rounds as RNE.
 */

#include <linux/types.h>

#include "vaccel_softfloat.h"

#define SF_MBITS(dbl)	((dbl) ? 52 : 23)
#define SF_EMAX(dbl)	((dbl) ? 0x7ff : 0xff)
#define SF_BIAS(dbl)	((dbl) ? 1023 : 127)

enum sf_class {
	SF_ZERO,
	SF_FINITE,
	SF_INF,
	SF_QNAN,
	SF_SNAN,
};

/*
 * An unpacked operand.  When finite, value = sig * 2^(exp - mbits) with
 * sig in [2^mbits, 2^(mbits + 1)).
 */
struct sf_num {
	u64 sig;
	int exp;
	bool sign;
	enum sf_class cls;
};

static inline int sf_clz64(u64 x)
{
	return __builtin_clzll(x);
}

static inline u64 sf_sign_bit(bool dbl)
{
	return dbl ? 1ull << 63 : 1ull << 31;
}

static inline u64 sf_signed_zero(bool dbl, bool sign)
{
	return sign ? sf_sign_bit(dbl) : 0;
}

static inline u64 sf_inf(bool dbl, bool sign)
{
	return sf_signed_zero(dbl, sign) | ((u64)SF_EMAX(dbl) << SF_MBITS(dbl));
}

static inline u64 sf_default_nan(bool dbl)
{
	return dbl ? VACCEL_F64_CANONICAL_NAN : VACCEL_F32_CANONICAL_NAN;
}

static void sf_unpack(bool dbl, u64 bits, struct sf_num *n)
{
	int mbits = SF_MBITS(dbl);
	u64 frac = bits & ((1ull << mbits) - 1);
	int bexp = (bits >> mbits) & SF_EMAX(dbl);
	int shift;

	n->sign = (bits & sf_sign_bit(dbl)) != 0;
	n->sig = 0;
	n->exp = 0;
	if (bexp == SF_EMAX(dbl)) {
		if (!frac)
			n->cls = SF_INF;
		else if (frac >> (mbits - 1))
			n->cls = SF_QNAN;
		else
			n->cls = SF_SNAN;
	} else if (bexp == 0) {
		if (!frac) {
			n->cls = SF_ZERO;
			return;
		}
		n->cls = SF_FINITE;
		shift = sf_clz64(frac) - (63 - mbits);
		n->sig = frac << shift;
		n->exp = 1 - SF_BIAS(dbl) - shift;
	} else {
		n->cls = SF_FINITE;
		n->sig = frac | (1ull << mbits);
		n->exp = bexp - SF_BIAS(dbl);
	}
}

static inline bool sf_is_nan(const struct sf_num *n)
{
	return n->cls >= SF_QNAN;
}

/* x >> n, ORing every bit shifted out into bit 0; any n. */
static inline u64 sf_shr_jam(u64 x, unsigned int n)
{
	if (!n)
		return x;
	if (n >= 64)
		return x != 0;
	return (x >> n) | ((x & ((1ull << n) - 1)) != 0);
}

static inline u128 sf_shr_jam128(u128 x, unsigned int n)
{
	if (!n)
		return x;
	if (n >= 128)
		return x != 0;
	return (x >> n) | ((x & (((u128)1 << n) - 1)) != 0);
}

/*
 * sig >> shift rounded with rm, for a value of the given sign: the bits
 * shifted out are the rounding bits.  sig + 2^shift must not overflow.
 */
static inline u64 sf_round_shift(u64 sig, unsigned int shift, bool sign,
				 unsigned int rm)
{
	u64 mask = (1ull << shift) - 1;
	u64 inc;

	switch (rm) {
	case VACCEL_RM_RTZ:
		inc = 0;
		break;
	case VACCEL_RM_RDN:
		inc = sign ? mask : 0;
		break;
	case VACCEL_RM_RUP:
		inc = sign ? 0 : mask;
		break;
	case VACCEL_RM_RMM:
		inc = (mask >> 1) + 1;
		break;
	default:
		/* Ties to even: a tie carries only from an odd last bit. */
		inc = (mask >> 1) + ((sig >> shift) & 1);
		break;
	}
	return (sig + inc) >> shift;
}

/* Whether rm takes an overflow of this sign to infinity. */
static inline bool sf_overflows_to_inf(bool sign, unsigned int rm)
{
	switch (rm) {
	case VACCEL_RM_RTZ:
		return false;
	case VACCEL_RM_RDN:
		return sign;
	case VACCEL_RM_RUP:
		return !sign;
	default:
		return true;
	}
}

/**
 * sf_round_pack() - round a value to the format and pack it
 * @dbl: binary64 rather than binary32
 * @sign: the sign of the value
 * @exp: the unbiased exponent of bit 62 of @sig
 * @sig: the significand, in [2^62, 2^63), its bit 0 ORed with any lower bit
 * @rm: the rounding mode
 * @flags: where NX, UF and OF accrue
 *
 * The value is (-1)^@sign * @sig * 2^(@exp - 62).  Tininess is detected
 * after rounding, as RISC-V specifies.
 *
 * Return: the bits of the rounded value.
 */
static u64 sf_round_pack(bool dbl, bool sign, int exp, u64 sig,
			 unsigned int rm, u32 *flags)
{
	unsigned int mbits = SF_MBITS(dbl);
	unsigned int shift = 62 - mbits;
	u64 rbits_mask = (1ull << shift) - 1;
	u64 sbit = sf_signed_zero(dbl, sign);
	int bexp = exp + SF_BIAS(dbl);
	bool tiny;

	if (bexp <= 0) {
		/*
		 * Below the smallest normal before rounding.  Rounded with an
		 * unbounded exponent, only a value in [2^(emin - 1), 2^emin)
		 * can reach 2^emin, and then it is not tiny.
		 */
		tiny = bexp < 0 ||
		       !(sf_round_shift(sig, shift, sign, rm) >> (mbits + 1));
		sig = sf_shr_jam(sig, 1 - bexp);
		if (sig & rbits_mask) {
			*flags |= VACCEL_FFLAG_NX;
			if (tiny)
				*flags |= VACCEL_FFLAG_UF;
		}
		/* A carry into bit mbits makes it the smallest normal. */
		return sbit | sf_round_shift(sig, shift, sign, rm);
	}

	if (sig & rbits_mask)
		*flags |= VACCEL_FFLAG_NX;
	sig = sf_round_shift(sig, shift, sign, rm);
	if (sig >> (mbits + 1)) {
		sig >>= 1;
		bexp++;
	}
	if (bexp >= SF_EMAX(dbl)) {
		*flags |= VACCEL_FFLAG_OF | VACCEL_FFLAG_NX;
		if (sf_overflows_to_inf(sign, rm))
			return sf_inf(dbl, sign);
		return sf_inf(dbl, sign) - 1;
	}
	/* The hidden bit of sig adds one to the biased exponent. */
	return sbit | (((u64)(bexp - 1) << mbits) + sig);
}

/* Rounds (-1)^sign * sig * 2^exp, for any nonzero sig. */
static u64 sf_norm_round_pack(bool dbl, bool sign, int exp, u64 sig,
			      unsigned int rm, u32 *flags)
{
	int lz = sf_clz64(sig);

	if (!lz) {
		sig = sf_shr_jam(sig, 1);
		exp++;
	} else {
		sig <<= lz - 1;
		exp -= lz - 1;
	}
	return sf_round_pack(dbl, sign, exp + 62, sig, rm, flags);
}

/* Rounds (-1)^sign * sig * 2^exp, for any nonzero 128-bit sig. */
static u64 sf_norm_round_pack128(bool dbl, bool sign, int exp, u128 sig,
				 unsigned int rm, u32 *flags)
{
	u64 hi = sig >> 64;
	int msb;

	msb = hi ? 127 - sf_clz64(hi) : 63 - sf_clz64((u64)sig);
	if (msb > 62) {
		sig = sf_shr_jam128(sig, msb - 62);
		exp += msb - 62;
	} else {
		sig <<= 62 - msb;
		exp -= 62 - msb;
	}
	return sf_round_pack(dbl, sign, exp + 62, (u64)sig, rm, flags);
}

/* The result of an operation with a NaN operand. */
static u64 sf_nan_result(bool dbl, const struct sf_num *a,
			 const struct sf_num *b, u32 *flags)
{
	if (a->cls == SF_SNAN || (b && b->cls == SF_SNAN))
		*flags |= VACCEL_FFLAG_NV;
	return sf_default_nan(dbl);
}

static u64 sf_invalid(bool dbl, u32 *flags)
{
	*flags |= VACCEL_FFLAG_NV;
	return sf_default_nan(dbl);
}

/* @a + @b; a subtraction flips the sign of @b first. */
static u64 sf_add(bool dbl, u64 a, u64 b, unsigned int rm, u32 *flags)
{
	unsigned int mbits = SF_MBITS(dbl);
	struct sf_num x, y, t;
	u64 xs, ys, s;

	sf_unpack(dbl, a, &x);
	sf_unpack(dbl, b, &y);
	if (sf_is_nan(&x) || sf_is_nan(&y))
		return sf_nan_result(dbl, &x, &y, flags);
	if (x.cls == SF_INF || y.cls == SF_INF) {
		if (x.cls == SF_INF && y.cls == SF_INF && x.sign != y.sign)
			return sf_invalid(dbl, flags);
		return x.cls == SF_INF ? a : b;
	}
	if (y.cls == SF_ZERO) {
		if (x.cls != SF_ZERO)
			return a;
		if (x.sign == y.sign)
			return a;
		return sf_signed_zero(dbl, rm == VACCEL_RM_RDN);
	}
	if (x.cls == SF_ZERO)
		return b;

	/* x has the larger magnitude; y is aligned to it. */
	if (x.exp < y.exp || (x.exp == y.exp && x.sig < y.sig)) {
		t = x;
		x = y;
		y = t;
	}
	xs = x.sig << (61 - mbits);
	ys = sf_shr_jam(y.sig << (61 - mbits), x.exp - y.exp);
	if (x.sign == y.sign) {
		s = xs + ys;
	} else {
		s = xs - ys;
		if (!s)
			return sf_signed_zero(dbl, rm == VACCEL_RM_RDN);
	}
	return sf_norm_round_pack(dbl, x.sign, x.exp - 61, s, rm, flags);
}

static u64 sf_mul(bool dbl, u64 a, u64 b, unsigned int rm, u32 *flags)
{
	int mbits = SF_MBITS(dbl);
	struct sf_num x, y;
	bool sign;

	sf_unpack(dbl, a, &x);
	sf_unpack(dbl, b, &y);
	if (sf_is_nan(&x) || sf_is_nan(&y))
		return sf_nan_result(dbl, &x, &y, flags);
	sign = x.sign ^ y.sign;
	if (x.cls == SF_INF || y.cls == SF_INF) {
		if (x.cls == SF_ZERO || y.cls == SF_ZERO)
			return sf_invalid(dbl, flags);
		return sf_inf(dbl, sign);
	}
	if (x.cls == SF_ZERO || y.cls == SF_ZERO)
		return sf_signed_zero(dbl, sign);
	return sf_norm_round_pack128(dbl, sign, x.exp + y.exp - 2 * mbits,
				     (u128)x.sig * y.sig, rm, flags);
}

/*
 * floor(@n * 2^55 / @d) for 53-bit significands @n and @d (bit 52 set),
 * with the remainder in *@rem, by multiplications and one 64-bit
 * division: no 128-by-64-bit division, which some machines and emulators
 * (QEMU's x86 among them) do a bit at a time.
 *
 * With @d normalized to dn = @d * 2^11 in [2^63, 2^64):
 *   - r0 = (2^63 - 1) / (dn >> 32), about 2^95 / dn to within 2^-30;
 *   - one Newton step, R = r0 * (2^96 - dn * r0) / 2^64, gives 2^126 / dn
 *     to within 2^-58;
 *   - q = @n * R / 2^60 is then within one of the quotient, and the
 *     remainder @n * 2^55 - q * @d, below 2^63 in magnitude, is exact
 *     modulo 2^64: it corrects q.
 * The correction loops end with the exact quotient whatever the estimate;
 * the error bounds only make them run at most once.
 */
static u64 sf_div_55(u64 n, u64 d, u64 *rem)
{
	u64 dn = d << 11, r0, e, q;
	u128 t;
	s64 r;

	r0 = ((1ull << 63) - 1) / (dn >> 32);
	t = ((u128)1 << 96) - (u128)dn * r0;
	e = (u64)(t >> 32);
	q = (u64)(((u128)n * (u64)(((u128)r0 * e) >> 32)) >> 60);
	r = (s64)((n << 55) - q * d);
	while (r < 0) {
		q--;
		r += d;
	}
	while ((u64)r >= d) {
		q++;
		r -= d;
	}
	*rem = r;
	return q;
}

/*
 * The quotient of significands @x and @y (hidden bits set) with at least
 * two bits below the format's last: floor(@x * 2^55 / @y) for binary64,
 * in [2^54, 2^56), floor(@x * 2^39 / @y) for binary32, in [2^38, 2^40);
 * the remainder in *@rem, and the power of two in *@shift.
 */
static u64 sf_div_sig(bool dbl, u64 x, u64 y, u64 *rem, unsigned int *shift)
{
	if (dbl) {
		*shift = 55;
		return sf_div_55(x, y, rem);
	}
	*shift = 39;
	*rem = (x << 39) % y;
	return (x << 39) / y;
}

static u64 sf_div(bool dbl, u64 a, u64 b, unsigned int rm, u32 *flags)
{
	struct sf_num x, y;
	unsigned int shift;
	u64 q, r;
	bool sign;

	sf_unpack(dbl, a, &x);
	sf_unpack(dbl, b, &y);
	if (sf_is_nan(&x) || sf_is_nan(&y))
		return sf_nan_result(dbl, &x, &y, flags);
	sign = x.sign ^ y.sign;
	if (x.cls == SF_INF) {
		if (y.cls == SF_INF)
			return sf_invalid(dbl, flags);
		return sf_inf(dbl, sign);
	}
	if (y.cls == SF_INF)
		return sf_signed_zero(dbl, sign);
	if (y.cls == SF_ZERO) {
		if (x.cls == SF_ZERO)
			return sf_invalid(dbl, flags);
		*flags |= VACCEL_FFLAG_DZ;
		return sf_inf(dbl, sign);
	}
	if (x.cls == SF_ZERO)
		return sf_signed_zero(dbl, sign);

	q = sf_div_sig(dbl, x.sig, y.sig, &r, &shift);
	return sf_norm_round_pack(dbl, sign, x.exp - y.exp - (int)shift,
				  q | (r != 0), rm, flags);
}

/*
 * 1/sqrt(x) for x in [i/64, (i + 1)/64), i = 64 to 255, at the middle of
 * the interval, in units of 2^-16: within 2^-8.
 */
static const u16 sf_rsqrt_seed[192] = {
	0xff01, 0xfd0d, 0xfb24, 0xf946, 0xf773, 0xf5a9, 0xf3ea, 0xf234,
	0xf087, 0xeee2, 0xed46, 0xebb3, 0xea27, 0xe8a3, 0xe727, 0xe5b1,
	0xe443, 0xe2db, 0xe17a, 0xe020, 0xdecb, 0xdd7c, 0xdc34, 0xdaf1,
	0xd9b3, 0xd87b, 0xd748, 0xd61a, 0xd4f1, 0xd3cd, 0xd2ad, 0xd192,
	0xd07b, 0xcf69, 0xce5a, 0xcd50, 0xcc4a, 0xcb48, 0xca49, 0xc94f,
	0xc858, 0xc764, 0xc674, 0xc587, 0xc49d, 0xc3b7, 0xc2d4, 0xc1f4,
	0xc116, 0xc03c, 0xbf65, 0xbe90, 0xbdbe, 0xbcef, 0xbc23, 0xbb59,
	0xba91, 0xb9cc, 0xb90a, 0xb84a, 0xb78c, 0xb6d0, 0xb617, 0xb560,
	0xb4ab, 0xb3f8, 0xb347, 0xb298, 0xb1eb, 0xb140, 0xb097, 0xaff0,
	0xaf4b, 0xaea7, 0xae06, 0xad66, 0xacc8, 0xac2b, 0xab90, 0xaaf7,
	0xaa5f, 0xa9c9, 0xa934, 0xa8a1, 0xa810, 0xa77f, 0xa6f1, 0xa663,
	0xa5d8, 0xa54d, 0xa4c4, 0xa43c, 0xa3b6, 0xa330, 0xa2ac, 0xa22a,
	0xa1a8, 0xa128, 0xa0a9, 0xa02b, 0x9fae, 0x9f32, 0x9eb7, 0x9e3e,
	0x9dc6, 0x9d4e, 0x9cd8, 0x9c63, 0x9bef, 0x9b7b, 0x9b09, 0x9a98,
	0x9a28, 0x99b8, 0x994a, 0x98dd, 0x9870, 0x9804, 0x979a, 0x9730,
	0x96c7, 0x965e, 0x95f7, 0x9591, 0x952b, 0x94c6, 0x9462, 0x93ff,
	0x939c, 0x933a, 0x92d9, 0x9279, 0x9219, 0x91bb, 0x915d, 0x90ff,
	0x90a3, 0x9047, 0x8feb, 0x8f91, 0x8f37, 0x8edd, 0x8e85, 0x8e2d,
	0x8dd5, 0x8d7e, 0x8d28, 0x8cd3, 0x8c7e, 0x8c2a, 0x8bd6, 0x8b83,
	0x8b30, 0x8ade, 0x8a8d, 0x8a3c, 0x89eb, 0x899c, 0x894c, 0x88fe,
	0x88af, 0x8862, 0x8815, 0x87c8, 0x877c, 0x8730, 0x86e5, 0x869a,
	0x8650, 0x8606, 0x85bd, 0x8574, 0x852c, 0x84e4, 0x849d, 0x8456,
	0x840f, 0x83c9, 0x8384, 0x833f, 0x82fa, 0x82b5, 0x8271, 0x822e,
	0x81eb, 0x81a8, 0x8166, 0x8124, 0x80e2, 0x80a1, 0x8060, 0x8020,
};

/*
 * floor(sqrt(sig * 4^k)) for a nonzero sig * 4^k below 2^112; *inexact
 * tells whether the root is not exact.  With the radicand n scaled into
 * [1, 4) by an even power of two 2^e (m, in Q2.62), Newton's steps
 * r += r * (1 - m * r^2) / 2 take the seed's eight bits of 1/sqrt(m) to
 * about 30 in 64-bit arithmetic (two steps, enough for binary32's 28-bit
 * root), then to about 58 in 128-bit (one more, for binary64's 56);
 * m * r * 2^(e/2) is then the root to within a unit, and the exact
 * remainder n - root^2 corrects it and tells whether it is exact.  The
 * correction ends with the exact root whatever the estimate; the error
 * bounds only make it short.
 */
static u64 sf_isqrt(bool dbl, u64 sig, unsigned int k, bool *inexact)
{
	u128 n = (u128)sig << (2 * k);
	u64 hi = n >> 64, m, m32, r, t, root;
	int msb, e, i;
	s128 rem;
	s64 d;

	msb = hi ? 127 - sf_clz64(hi) : 63 - sf_clz64((u64)n);
	e = msb & ~1;
	m = e > 62 ? (u64)(n >> (e - 62)) : (u64)n << (62 - e);
	/* r = 1/sqrt(m) in Q1.31; m * r^2 in Q4.60. */
	r = (u64)sf_rsqrt_seed[(m >> 56) - 64] << 15;
	m32 = m >> 32;
	for (i = 0; i < 2; i++) {
		t = ((r * r) >> 32) * m32;
		r = (r * (((3ull << 60) - t) >> 30)) >> 31;
	}
	if (dbl) {
		/* r in Q1.62; m * r^2 in Q4.60 again. */
		r <<= 31;
		t = (u64)(((u128)(u64)(((u128)r * r) >> 62) * m) >> 64);
		d = (s64)((1ull << 60) - t);
		r += (s64)(((s128)(s64)r * d) >> 61);
		root = (u64)(((u128)m * r) >> (124 - e / 2));
	} else {
		root = (u64)(((u128)m * r) >> (93 - e / 2));
	}
	rem = (s128)(n - (u128)root * root);
	while (rem < 0) {
		root--;
		rem += 2 * root + 1;
	}
	while (rem > (s128)(2 * root)) {
		root++;
		rem -= 2 * root - 1;
	}
	*inexact = rem != 0;
	return root;
}

static u64 sf_sqrt(bool dbl, u64 a, unsigned int rm, u32 *flags)
{
	struct sf_num x;
	unsigned int k;
	bool inexact;
	u64 root;
	int exp;

	sf_unpack(dbl, a, &x);
	if (sf_is_nan(&x))
		return sf_nan_result(dbl, &x, NULL, flags);
	if (x.cls == SF_ZERO)
		return a;
	if (x.sign)
		return sf_invalid(dbl, flags);
	if (x.cls == SF_INF)
		return a;

	/* value = sig * 2^exp with exp even: sqrt = sqrt(sig) * 2^(exp/2) */
	exp = x.exp - SF_MBITS(dbl);
	if (exp & 1) {
		x.sig <<= 1;
		exp--;
	}
	/* sig < 2^54 (2^25): a root of 56 (28) bits, at least 2^55 (2^26) */
	k = dbl ? 29 : 15;
	root = sf_isqrt(dbl, x.sig, k, &inexact);
	return sf_norm_round_pack(dbl, false, exp / 2 - (int)k, root | inexact,
				  rm, flags);
}

static u64 sf_fma(bool dbl, u64 a, u64 b, u64 c, unsigned int rm,
		  u32 *flags)
{
	int mbits = SF_MBITS(dbl);
	struct sf_num x, y, z;
	bool psign, sign, invalid;
	int pexp, cexp, exp;
	u128 p, addend, sum;

	sf_unpack(dbl, a, &x);
	sf_unpack(dbl, b, &y);
	sf_unpack(dbl, c, &z);
	psign = x.sign ^ y.sign;
	invalid = (x.cls == SF_INF && y.cls == SF_ZERO) ||
		  (x.cls == SF_ZERO && y.cls == SF_INF);
	if (sf_is_nan(&x) || sf_is_nan(&y) || sf_is_nan(&z)) {
		/* RISC-V: 0 * inf is invalid even when c is a quiet NaN. */
		if (invalid || z.cls == SF_SNAN)
			*flags |= VACCEL_FFLAG_NV;
		return sf_nan_result(dbl, &x, &y, flags);
	}
	if (invalid)
		return sf_invalid(dbl, flags);
	if (x.cls == SF_INF || y.cls == SF_INF) {
		if (z.cls == SF_INF && z.sign != psign)
			return sf_invalid(dbl, flags);
		return sf_inf(dbl, psign);
	}
	if (z.cls == SF_INF)
		return c;
	if (x.cls == SF_ZERO || y.cls == SF_ZERO) {
		if (z.cls != SF_ZERO)
			return c;
		if (z.sign == psign)
			return c;
		return sf_signed_zero(dbl, rm == VACCEL_RM_RDN);
	}

	/* The exact product, in [2^(2 * mbits), 2^(2 * mbits + 2)). */
	p = (u128)x.sig * y.sig;
	pexp = x.exp + y.exp - 2 * mbits;
	if (z.cls == SF_ZERO)
		return sf_norm_round_pack128(dbl, psign, pexp, p, rm, flags);

	/*
	 * Both terms with their leading bit at bit 124 or 125, then the one
	 * with the lower exponent shifted right, with sticky.  The product
	 * has 2 * mbits + 2 significant bits and the addend mbits + 1, so
	 * a shift that drops bits leaves the other term at least 2^18 times
	 * larger: at most one bit cancels, and the sticky bit stays far
	 * below the rounding position.
	 */
	p <<= 124 - 2 * mbits;
	pexp -= 124 - 2 * mbits;
	addend = (u128)z.sig << (124 - mbits);
	cexp = z.exp - 124;
	if (pexp >= cexp) {
		addend = sf_shr_jam128(addend, pexp - cexp);
		exp = pexp;
	} else {
		p = sf_shr_jam128(p, cexp - pexp);
		exp = cexp;
	}
	if (psign == z.sign) {
		sum = p + addend;
		sign = psign;
	} else if (p >= addend) {
		sum = p - addend;
		sign = psign;
	} else {
		sum = addend - p;
		sign = z.sign;
	}
	if (!sum)
		return sf_signed_zero(dbl, rm == VACCEL_RM_RDN);
	return sf_norm_round_pack128(dbl, sign, exp, sum, rm, flags);
}

/* a < b for non-NaN values, with -0 < +0. */
static bool sf_lt_total(bool dbl, u64 a, u64 b)
{
	bool sa = (a & sf_sign_bit(dbl)) != 0;
	bool sb = (b & sf_sign_bit(dbl)) != 0;

	if (sa != sb)
		return sa;
	return sa ? a > b : a < b;
}

static inline bool sf_both_zero(bool dbl, u64 a, u64 b)
{
	return !((a | b) & ~sf_sign_bit(dbl));
}

static u64 sf_minmax(bool dbl, u64 a, u64 b, bool max, u32 *flags)
{
	struct sf_num x, y;

	sf_unpack(dbl, a, &x);
	sf_unpack(dbl, b, &y);
	if (x.cls == SF_SNAN || y.cls == SF_SNAN)
		*flags |= VACCEL_FFLAG_NV;
	if (sf_is_nan(&x) && sf_is_nan(&y))
		return sf_default_nan(dbl);
	if (sf_is_nan(&x))
		return b;
	if (sf_is_nan(&y))
		return a;
	return sf_lt_total(dbl, a, b) != max ? a : b;
}

/* The comparisons: a quiet one raises NV for signalling NaNs only. */
static int sf_compare_nan(bool dbl, u64 a, u64 b, bool quiet, u32 *flags)
{
	struct sf_num x, y;

	sf_unpack(dbl, a, &x);
	sf_unpack(dbl, b, &y);
	if (!sf_is_nan(&x) && !sf_is_nan(&y))
		return 0;
	if (!quiet || x.cls == SF_SNAN || y.cls == SF_SNAN)
		*flags |= VACCEL_FFLAG_NV;
	return 1;
}

static bool sf_eq(bool dbl, u64 a, u64 b, u32 *flags)
{
	if (sf_compare_nan(dbl, a, b, true, flags))
		return false;
	return a == b || sf_both_zero(dbl, a, b);
}

static bool sf_lt(bool dbl, u64 a, u64 b, u32 *flags)
{
	if (sf_compare_nan(dbl, a, b, false, flags))
		return false;
	return !sf_both_zero(dbl, a, b) && sf_lt_total(dbl, a, b);
}

static bool sf_le(bool dbl, u64 a, u64 b, u32 *flags)
{
	if (sf_compare_nan(dbl, a, b, false, flags))
		return false;
	return a == b || sf_both_zero(dbl, a, b) || sf_lt_total(dbl, a, b);
}

static u32 sf_classify(bool dbl, u64 a)
{
	unsigned int mbits = SF_MBITS(dbl);
	u64 frac = a & ((1ull << mbits) - 1);
	int bexp = (a >> mbits) & SF_EMAX(dbl);
	bool sign = (a & sf_sign_bit(dbl)) != 0;

	if (bexp == SF_EMAX(dbl)) {
		if (frac)
			return frac >> (mbits - 1) ? 1u << 9 : 1u << 8;
		return sign ? 1u << 0 : 1u << 7;
	}
	if (bexp)
		return sign ? 1u << 1 : 1u << 6;
	if (frac)
		return sign ? 1u << 2 : 1u << 5;
	return sign ? 1u << 3 : 1u << 4;
}

/*
 * Rounds a finite nonzero x to an integer with rm: its magnitude in *mag,
 * or *big when the magnitude is 2^64 or more.  Returns whether inexact.
 */
static bool sf_round_to_int(bool dbl, const struct sf_num *x,
			    unsigned int rm, u64 *mag, bool *big)
{
	int mbits = SF_MBITS(dbl);
	u64 t;

	*big = x->exp >= 64;
	*mag = 0;
	if (*big)
		return false;
	if (x->exp >= mbits) {
		*mag = x->sig << (x->exp - mbits);
		return false;
	}
	/* Four times the value, the quarter bit jammed: round off 2 bits. */
	t = sf_shr_jam(x->sig << 2, mbits - x->exp);
	*mag = sf_round_shift(t, 2, x->sign, rm);
	return (t & 3) != 0;
}

static s64 sf_to_sint(bool dbl, u64 a, unsigned int rm, bool wide,
		      u32 *flags)
{
	u64 max = wide ? 0x7fffffffffffffffull : 0x7fffffffull;
	s64 min = -(s64)max - 1;
	struct sf_num x;
	bool inexact, big;
	u64 mag;

	sf_unpack(dbl, a, &x);
	switch (x.cls) {
	case SF_ZERO:
		return 0;
	case SF_QNAN:
	case SF_SNAN:
		*flags |= VACCEL_FFLAG_NV;
		return max;
	case SF_INF:
		*flags |= VACCEL_FFLAG_NV;
		return x.sign ? min : (s64)max;
	default:
		break;
	}
	inexact = sf_round_to_int(dbl, &x, rm, &mag, &big);
	if (big || mag > max + x.sign) {
		*flags |= VACCEL_FFLAG_NV;
		return x.sign ? min : (s64)max;
	}
	if (inexact)
		*flags |= VACCEL_FFLAG_NX;
	/* -mag in two's complement, 2^63 included. */
	return x.sign ? (s64)(0 - mag) : (s64)mag;
}

static u64 sf_to_uint(bool dbl, u64 a, unsigned int rm, bool wide,
		      u32 *flags)
{
	u64 max = wide ? ~0ull : 0xffffffffull;
	struct sf_num x;
	bool inexact, big;
	u64 mag;

	sf_unpack(dbl, a, &x);
	switch (x.cls) {
	case SF_ZERO:
		return 0;
	case SF_QNAN:
	case SF_SNAN:
		*flags |= VACCEL_FFLAG_NV;
		return max;
	case SF_INF:
		*flags |= VACCEL_FFLAG_NV;
		return x.sign ? 0 : max;
	default:
		break;
	}
	inexact = sf_round_to_int(dbl, &x, rm, &mag, &big);
	if (big || (x.sign ? mag != 0 : mag > max)) {
		*flags |= VACCEL_FFLAG_NV;
		return x.sign ? 0 : max;
	}
	if (inexact)
		*flags |= VACCEL_FFLAG_NX;
	return mag;
}

static u64 sf_from_int(bool dbl, bool sign, u64 mag, unsigned int rm,
		       u32 *flags)
{
	if (!mag)
		return 0;
	return sf_norm_round_pack(dbl, sign, 0, mag, rm, flags);
}

/*
 * The fast paths.  Most operands are normal numbers and most results are
 * too: for those, add, subtract, multiply, fused multiply-add, divide and
 * square root skip the unpacking into &struct sf_num and the special
 * cases, and round in line.  Whatever they do not handle (a zero,
 * subnormal, infinite or NaN operand, a result that may overflow or be
 * tiny, an exact cancellation) goes to the general path, which computes
 * it from scratch.
 */

/* Whether @bits is a normal number (not zero, subnormal, inf or NaN). */
static inline bool sf_is_normal(bool dbl, u64 bits)
{
	unsigned int bexp = (bits >> SF_MBITS(dbl)) & SF_EMAX(dbl);

	return bexp - 1 < SF_EMAX(dbl) - 1;
}

/*
 * What rounding with @rm (RTZ, RDN, RUP or RMM) adds to a magnitude
 * before it drops its low bits @mask, for a value of the given sign.
 */
static u64 sf_round_inc(unsigned int rm, bool sign, u64 mask)
{
	switch (rm) {
	case VACCEL_RM_RTZ:
		return 0;
	case VACCEL_RM_RDN:
		return sign ? mask : 0;
	case VACCEL_RM_RUP:
		return sign ? 0 : mask;
	default:
		return (mask >> 1) + 1;
	}
}

/*
 * Rounds and packs a normal result: @sig with its leading bit at bit 62,
 * its bit 0 sticky, and @bexp its biased exponent.  False, doing nothing,
 * if the result could be tiny or overflow.  The increment of the rounding
 * mode is added below the last kept bit (to nearest even, half less one
 * plus that bit) and the bits dropped: a carry into the exponent packs as
 * the next binade.
 */
static inline bool sf_fast_pack(bool dbl, bool sign, int bexp, u64 sig,
				unsigned int rm, u32 *flags, u64 *res)
{
	unsigned int mbits = SF_MBITS(dbl), shift = 62 - mbits;
	u64 mask = (1ull << shift) - 1, inc;

	/* bexp in [1, emax - 2]: a carry of the rounding can raise it. */
	if ((unsigned int)bexp - 1 > SF_EMAX(dbl) - 3)
		return false;
	/* An unknown mode rounds as RNE, as on the general path. */
	if (rm == VACCEL_RM_RNE || rm > VACCEL_RM_RMM)
		inc = (mask >> 1) + ((sig >> shift) & 1);
	else
		inc = sf_round_inc(rm, sign, mask);
	if (sig & mask)
		*flags |= VACCEL_FFLAG_NX;
	/* The hidden bit adds one to the exponent, a carry out another. */
	*res = (sign ? sf_sign_bit(dbl) : 0) + ((u64)(bexp - 1) << mbits) +
	       ((sig + inc) >> shift);
	return true;
}

/*
 * Puts the operand of the larger magnitude first, which for normals is the
 * one with the larger bits.  Addition commutes, results and flags alike,
 * so the general path takes them in either order: ordered before the fast
 * path tries them, they need no copy kept for the general path.
 */
static inline void sf_order(bool dbl, u64 *a, u64 *b)
{
	u64 t;

	if ((*a & ~sf_sign_bit(dbl)) < (*b & ~sf_sign_bit(dbl))) {
		t = *a;
		*a = *b;
		*b = t;
	}
}

/* @a + @b with @a of the larger magnitude (sf_order()). */
static inline bool sf_add_fast(bool dbl, u64 a, u64 b, unsigned int rm,
			       u32 *flags, u64 *res)
{
	unsigned int mbits = SF_MBITS(dbl), d;
	u64 smask = sf_sign_bit(dbl), fmask = (1ull << mbits) - 1;
	u64 xs, ys;
	int xe, lz;

	if (!sf_is_normal(dbl, a) || !sf_is_normal(dbl, b))
		return false;
	xe = (a >> mbits) & SF_EMAX(dbl);
	d = xe - ((b >> mbits) & SF_EMAX(dbl));
	/* Leading bits at bit 61; y aligned to x, what it loses sticky. */
	xs = ((a & fmask) | (fmask + 1)) << (61 - mbits);
	ys = ((b & fmask) | (fmask + 1)) << (61 - mbits);
	ys = d < 64 ? (ys >> d) | ((ys << (63 - d) << 1) != 0) : 1;
	if ((a ^ b) & smask) {
		xs -= ys;
		if (!xs)
			return false;	/* the sign of zero depends on rm */
	} else {
		xs += ys;
	}
	/* At most one bit of carry, or cancellation: lead it to bit 62. */
	lz = sf_clz64(xs);
	return sf_fast_pack(dbl, a & smask, xe + 2 - lz, xs << (lz - 1), rm,
			    flags, res);
}

static inline bool sf_mul_fast(bool dbl, u64 a, u64 b, unsigned int rm,
			       u32 *flags, u64 *res)
{
	unsigned int mbits = SF_MBITS(dbl);
	u64 smask = sf_sign_bit(dbl), fmask = (1ull << mbits) - 1;
	u64 x, y, sig;
	int bexp;
	u128 p;

	if (!sf_is_normal(dbl, a) || !sf_is_normal(dbl, b))
		return false;
	x = (a & fmask) | (fmask + 1);
	y = (b & fmask) | (fmask + 1);
	bexp = (int)((a >> mbits) & SF_EMAX(dbl)) +
	       (int)((b >> mbits) & SF_EMAX(dbl)) - SF_BIAS(dbl);
	/* x * y is in [2^(2 * mbits), 2^(2 * mbits + 2)). */
	if (dbl) {
		p = (u128)x * y;
		/* Its leading bit to bit 126, then the top 64 bits, sticky. */
		if (p >> (2 * mbits + 1))
			bexp++;
		else
			p <<= 1;
		p <<= 126 - (2 * mbits + 1);
		sig = (u64)(p >> 64) | ((u64)p != 0);
	} else {
		sig = x * y;
		if (sig >> (2 * mbits + 1))
			bexp++;
		else
			sig <<= 1;
		sig <<= 62 - (2 * mbits + 1);
	}
	return sf_fast_pack(dbl, ((a ^ b) & smask) != 0, bexp, sig, rm, flags,
			    res);
}

/*
 * Fused multiply-add of three binary32 normals: the exact product and the
 * addend as in sf_fma(), without unpacking.  An exact zero goes to the
 * general path, which knows its sign.  Binary64 has sf_fma_fast64().
 */
static inline bool sf_fma_fast32(u64 a, u64 b, u64 c, unsigned int rm,
				 u32 *flags, u64 *res)
{
	const bool dbl = false;
	unsigned int mbits = SF_MBITS(dbl);
	u64 smask = sf_sign_bit(dbl), fmask = (1ull << mbits) - 1;
	bool psign = (a ^ b) & smask, sign;
	u128 p, addend, sum;
	int pexp, cexp, exp, msb;
	u64 hi, sig;

	if (!sf_is_normal(dbl, a) || !sf_is_normal(dbl, b) ||
	    !sf_is_normal(dbl, c))
		return false;
	/* Both terms with their leading bit at bit 124 or 125. */
	p = (u128)((a & fmask) | (fmask + 1)) * ((b & fmask) | (fmask + 1));
	p <<= 124 - 2 * mbits;
	pexp = (int)((a >> mbits) & SF_EMAX(dbl)) +
	       (int)((b >> mbits) & SF_EMAX(dbl)) - 2 * SF_BIAS(dbl) - 124;
	addend = (u128)((c & fmask) | (fmask + 1)) << (124 - mbits);
	cexp = (int)((c >> mbits) & SF_EMAX(dbl)) - SF_BIAS(dbl) - 124;
	if (pexp >= cexp) {
		addend = sf_shr_jam128(addend, pexp - cexp);
		exp = pexp;
	} else {
		p = sf_shr_jam128(p, cexp - pexp);
		exp = cexp;
	}
	sign = psign;
	if (psign == !!(c & smask)) {
		sum = p + addend;
	} else if (p >= addend) {
		sum = p - addend;
	} else {
		sum = addend - p;
		sign = !psign;
	}
	if (!sum)
		return false;
	/* Its leading bit to bit 62 of a u64, sticky. */
	hi = sum >> 64;
	msb = hi ? 127 - sf_clz64(hi) : 63 - sf_clz64((u64)sum);
	if (msb > 62)
		sig = (u64)sf_shr_jam128(sum, msb - 62);
	else
		sig = (u64)sum << (62 - msb);
	return sf_fast_pack(dbl, sign, exp + msb + SF_BIAS(dbl), sig, rm, flags,
			    res);
}

/*
 * sf_fma_fast32() for binary64, on 64-bit halves: the product at bits 124
 * or 125 of (ph, pl), the addend at bit 124 of (zh, zl), the one with the
 * lower exponent shifted right with sticky, both added or subtracted with
 * a carry.  What GCC makes of the same on u128 keeps the halves on the
 * stack.  A sum without a bit in its high half (a cancellation of more
 * than 60 bits) goes to the general path.
 */
static inline bool sf_fma_fast64(u64 a, u64 b, u64 c, unsigned int rm,
				 u32 *flags, u64 *res)
{
	const u64 fmask = (1ull << 52) - 1, smask = 1ull << 63;
	int ea = (a >> 52) & 0x7ff, eb = (b >> 52) & 0x7ff;
	int ec = (c >> 52) & 0x7ff, d, bexp, lz;
	u64 ph, pl, zh, zl, sh, sl, jam;
	bool sign = (a ^ b) & smask;
	u128 p;

	if (!sf_is_normal(true, a) || !sf_is_normal(true, b) ||
	    !sf_is_normal(true, c))
		return false;
	p = (u128)((a & fmask) | (fmask + 1)) * ((b & fmask) | (fmask + 1));
	ph = (u64)(p >> 44);
	pl = (u64)p << 20;
	zh = ((c & fmask) | (fmask + 1)) << 8;
	zl = 0;
	/* The product's bit 0 is 2^(ea + eb - 2170), the addend's 2^(ec - 1147). */
	d = ea + eb - ec - 1023;
	if (d >= 0) {
		bexp = ea + eb - 1020;
		if (d >= 128) {
			zl = 1;
			zh = 0;
		} else if (d >= 64) {
			jam = d > 64 && (zh << (128 - d)) != 0;
			zl = (zh >> (d - 64)) | jam;
			zh = 0;
		} else if (d) {
			zl = zh << (64 - d);
			zh >>= d;
		}
	} else {
		d = -d;
		bexp = ec + 3;
		if (d >= 128) {
			pl = 1;
			ph = 0;
		} else if (d >= 64) {
			jam = pl != 0 || (d > 64 && (ph << (128 - d)) != 0);
			pl = (ph >> (d - 64)) | jam;
			ph = 0;
		} else {
			/* The product's low 20 bits are zero: no sticky below 21. */
			jam = (pl << (64 - d)) != 0;
			pl = (pl >> d) | (ph << (64 - d)) | jam;
			ph >>= d;
		}
	}
	if (sign == !!(c & smask)) {
		sl = pl + zl;
		sh = ph + zh + (sl < pl);
	} else if (ph > zh || (ph == zh && pl >= zl)) {
		sl = pl - zl;
		sh = ph - zh - (pl < zl);
	} else {
		sl = zl - pl;
		sh = zh - ph - (zl < pl);
		sign = !sign;
	}
	if (!sh)
		return false;
	/* The sum is below 2^127: its leading bit to bit 62, sticky. */
	lz = sf_clz64(sh);
	return sf_fast_pack(true, sign, bexp - lz,
			    (sh << (lz - 1)) | ((sl >> 1) >> (64 - lz)) |
			    ((sl << (lz - 1)) != 0), rm, flags, res);
}

/*
 * Division of two normals: the quotient of the significands as sf_div()
 * computes it, at least two bits below the format's last with the
 * remainder as sticky, rounded in line.
 */
static inline bool sf_div_fast(bool dbl, u64 a, u64 b, unsigned int rm,
			       u32 *flags, u64 *res)
{
	unsigned int mbits = SF_MBITS(dbl), lead;
	u64 smask = sf_sign_bit(dbl), fmask = (1ull << mbits) - 1;
	u64 x, y, q, r;
	int bexp;

	if (!sf_is_normal(dbl, a) || !sf_is_normal(dbl, b))
		return false;
	x = (a & fmask) | (fmask + 1);
	y = (b & fmask) | (fmask + 1);
	bexp = (int)((a >> mbits) & SF_EMAX(dbl)) -
	       (int)((b >> mbits) & SF_EMAX(dbl)) + SF_BIAS(dbl);
	q = sf_div_sig(dbl, x, y, &r, &lead);
	/* With x < y, the quotient is below 1: its leading bit one lower. */
	if (x < y) {
		bexp--;
		lead--;
	}
	return sf_fast_pack(dbl, ((a ^ b) & smask) != 0, bexp,
			    (q << (62 - lead)) | (r != 0), rm, flags, res);
}

/*
 * The square root of a positive normal, as sf_sqrt() computes it; the
 * root of a normal is always normal, so this never declines but for other
 * operands.
 */
static inline bool sf_sqrt_fast(bool dbl, u64 a, unsigned int rm,
				u32 *flags, u64 *res)
{
	unsigned int mbits = SF_MBITS(dbl), k = dbl ? 29 : 15, lead;
	u64 fmask = (1ull << mbits) - 1, sig, root;
	bool inexact;
	int exp;

	if (!sf_is_normal(dbl, a) || (a & sf_sign_bit(dbl)))
		return false;
	/* value = sig * 2^exp with exp even: sqrt = sqrt(sig) * 2^(exp/2) */
	sig = (a & fmask) | (fmask + 1);
	exp = (int)((a >> mbits) & SF_EMAX(dbl)) - SF_BIAS(dbl) - mbits;
	if (exp & 1) {
		sig <<= 1;
		exp--;
	}
	root = sf_isqrt(dbl, sig, k, &inexact);
	lead = 63 - sf_clz64(root);
	return sf_fast_pack(dbl, false, exp / 2 - (int)k + lead + SF_BIAS(dbl),
			    (root << (62 - lead)) | inexact, rm, flags, res);
}

u32 vaccel_f32_add(u32 a, u32 b, unsigned int rm, u32 *flags)
{
	u64 x = a, y = b, r;

	sf_order(false, &x, &y);
	if (sf_add_fast(false, x, y, rm, flags, &r))
		return r;
	return sf_add(false, x, y, rm, flags);
}

u32 vaccel_f32_sub(u32 a, u32 b, unsigned int rm, u32 *flags)
{
	/* The sign of b flipped: NaNs give the canonical NaN either way. */
	u64 x = a, y = b ^ sf_sign_bit(false), r;

	sf_order(false, &x, &y);
	if (sf_add_fast(false, x, y, rm, flags, &r))
		return r;
	return sf_add(false, x, y, rm, flags);
}

u32 vaccel_f32_mul(u32 a, u32 b, unsigned int rm, u32 *flags)
{
	u64 r;

	if (sf_mul_fast(false, a, b, rm, flags, &r))
		return r;
	return sf_mul(false, a, b, rm, flags);
}

u32 vaccel_f32_div(u32 a, u32 b, unsigned int rm, u32 *flags)
{
	u64 r;

	if (sf_div_fast(false, a, b, rm, flags, &r))
		return r;
	return sf_div(false, a, b, rm, flags);
}

u32 vaccel_f32_sqrt(u32 a, unsigned int rm, u32 *flags)
{
	u64 r;

	if (sf_sqrt_fast(false, a, rm, flags, &r))
		return r;
	return sf_sqrt(false, a, rm, flags);
}

u32 vaccel_f32_fma(u32 a, u32 b, u32 c, unsigned int rm, u32 *flags)
{
	u64 r;

	if (sf_fma_fast32(a, b, c, rm, flags, &r))
		return r;
	return sf_fma(false, a, b, c, rm, flags);
}

u32 vaccel_f32_min(u32 a, u32 b, u32 *flags)
{
	return sf_minmax(false, a, b, false, flags);
}

u32 vaccel_f32_max(u32 a, u32 b, u32 *flags)
{
	return sf_minmax(false, a, b, true, flags);
}

bool vaccel_f32_eq(u32 a, u32 b, u32 *flags)
{
	return sf_eq(false, a, b, flags);
}

bool vaccel_f32_lt(u32 a, u32 b, u32 *flags)
{
	return sf_lt(false, a, b, flags);
}

bool vaccel_f32_le(u32 a, u32 b, u32 *flags)
{
	return sf_le(false, a, b, flags);
}

u32 vaccel_f32_classify(u32 a)
{
	return sf_classify(false, a);
}

u64 vaccel_f64_add(u64 a, u64 b, unsigned int rm, u32 *flags)
{
	u64 x = a, y = b, r;

	sf_order(true, &x, &y);
	if (sf_add_fast(true, x, y, rm, flags, &r))
		return r;
	return sf_add(true, x, y, rm, flags);
}

u64 vaccel_f64_sub(u64 a, u64 b, unsigned int rm, u32 *flags)
{
	/* The sign of b flipped: NaNs give the canonical NaN either way. */
	u64 x = a, y = b ^ sf_sign_bit(true), r;

	sf_order(true, &x, &y);
	if (sf_add_fast(true, x, y, rm, flags, &r))
		return r;
	return sf_add(true, x, y, rm, flags);
}

u64 vaccel_f64_mul(u64 a, u64 b, unsigned int rm, u32 *flags)
{
	u64 r;

	if (sf_mul_fast(true, a, b, rm, flags, &r))
		return r;
	return sf_mul(true, a, b, rm, flags);
}

u64 vaccel_f64_div(u64 a, u64 b, unsigned int rm, u32 *flags)
{
	u64 r;

	if (sf_div_fast(true, a, b, rm, flags, &r))
		return r;
	return sf_div(true, a, b, rm, flags);
}

u64 vaccel_f64_sqrt(u64 a, unsigned int rm, u32 *flags)
{
	u64 r;

	if (sf_sqrt_fast(true, a, rm, flags, &r))
		return r;
	return sf_sqrt(true, a, rm, flags);
}

u64 vaccel_f64_fma(u64 a, u64 b, u64 c, unsigned int rm, u32 *flags)
{
	u64 r;

	if (sf_fma_fast64(a, b, c, rm, flags, &r))
		return r;
	return sf_fma(true, a, b, c, rm, flags);
}

u64 vaccel_f64_min(u64 a, u64 b, u32 *flags)
{
	return sf_minmax(true, a, b, false, flags);
}

u64 vaccel_f64_max(u64 a, u64 b, u32 *flags)
{
	return sf_minmax(true, a, b, true, flags);
}

bool vaccel_f64_eq(u64 a, u64 b, u32 *flags)
{
	return sf_eq(true, a, b, flags);
}

bool vaccel_f64_lt(u64 a, u64 b, u32 *flags)
{
	return sf_lt(true, a, b, flags);
}

bool vaccel_f64_le(u64 a, u64 b, u32 *flags)
{
	return sf_le(true, a, b, flags);
}

u32 vaccel_f64_classify(u64 a)
{
	return sf_classify(true, a);
}

s32 vaccel_f32_to_i32(u32 a, unsigned int rm, u32 *flags)
{
	return (s32)sf_to_sint(false, a, rm, false, flags);
}

u32 vaccel_f32_to_u32(u32 a, unsigned int rm, u32 *flags)
{
	return (u32)sf_to_uint(false, a, rm, false, flags);
}

s64 vaccel_f32_to_i64(u32 a, unsigned int rm, u32 *flags)
{
	return sf_to_sint(false, a, rm, true, flags);
}

u64 vaccel_f32_to_u64(u32 a, unsigned int rm, u32 *flags)
{
	return sf_to_uint(false, a, rm, true, flags);
}

s32 vaccel_f64_to_i32(u64 a, unsigned int rm, u32 *flags)
{
	return (s32)sf_to_sint(true, a, rm, false, flags);
}

u32 vaccel_f64_to_u32(u64 a, unsigned int rm, u32 *flags)
{
	return (u32)sf_to_uint(true, a, rm, false, flags);
}

s64 vaccel_f64_to_i64(u64 a, unsigned int rm, u32 *flags)
{
	return sf_to_sint(true, a, rm, true, flags);
}

u64 vaccel_f64_to_u64(u64 a, unsigned int rm, u32 *flags)
{
	return sf_to_uint(true, a, rm, true, flags);
}

/* The magnitude of a signed integer, INT_MIN included. */
static inline u64 sf_abs64(s64 a)
{
	return a < 0 ? 0 - (u64)a : (u64)a;
}

u32 vaccel_i32_to_f32(s32 a, unsigned int rm, u32 *flags)
{
	return sf_from_int(false, a < 0, sf_abs64(a), rm, flags);
}

u32 vaccel_u32_to_f32(u32 a, unsigned int rm, u32 *flags)
{
	return sf_from_int(false, false, a, rm, flags);
}

u32 vaccel_i64_to_f32(s64 a, unsigned int rm, u32 *flags)
{
	return sf_from_int(false, a < 0, sf_abs64(a), rm, flags);
}

u32 vaccel_u64_to_f32(u64 a, unsigned int rm, u32 *flags)
{
	return sf_from_int(false, false, a, rm, flags);
}

u64 vaccel_i32_to_f64(s32 a, unsigned int rm, u32 *flags)
{
	return sf_from_int(true, a < 0, sf_abs64(a), rm, flags);
}

u64 vaccel_u32_to_f64(u32 a, unsigned int rm, u32 *flags)
{
	return sf_from_int(true, false, a, rm, flags);
}

u64 vaccel_i64_to_f64(s64 a, unsigned int rm, u32 *flags)
{
	return sf_from_int(true, a < 0, sf_abs64(a), rm, flags);
}

u64 vaccel_u64_to_f64(u64 a, unsigned int rm, u32 *flags)
{
	return sf_from_int(true, false, a, rm, flags);
}

/* A finite nonzero value to the other format (or the same), rounded. */
static u64 sf_convert(bool from_dbl, bool to_dbl, u64 a, unsigned int rm,
		      u32 *flags)
{
	struct sf_num x;

	sf_unpack(from_dbl, a, &x);
	switch (x.cls) {
	case SF_QNAN:
	case SF_SNAN:
		sf_nan_result(to_dbl, &x, NULL, flags);
		return sf_default_nan(to_dbl);
	case SF_INF:
		return sf_inf(to_dbl, x.sign);
	case SF_ZERO:
		return sf_signed_zero(to_dbl, x.sign);
	default:
		return sf_round_pack(to_dbl, x.sign, x.exp,
				     x.sig << (62 - SF_MBITS(from_dbl)), rm,
				     flags);
	}
}

u64 vaccel_f32_to_f64(u32 a, u32 *flags)
{
	/* Exact: the mode does not matter. */
	return sf_convert(false, true, a, VACCEL_RM_RNE, flags);
}

u32 vaccel_f64_to_f32(u64 a, unsigned int rm, u32 *flags)
{
	return sf_convert(true, false, a, rm, flags);
}
