/* SPDX-License-Identifier: MIT */
/*
 * Copyright 2026 The vaccel authors
 *
 * rt_builtins.h - the compiler's helper functions of the device runtime:
 * what clang calls, rather than emitting instructions, for operations
 * RV64IMAFD has no instruction for.
 *
 * Debian ships a riscv64 libgcc, but built for RV64GC: its code is full of
 * compressed instructions, which the engines refuse.  These are our own,
 * compiled like kernels.  For the flags vaccel-cc uses, clang 14 calls:
 *
 * - 128-bit division and remainder: __divti3, __udivti3, __modti3,
 *   __umodti3 (all through __udivmodti4);
 * - the overflow check of a signed 128-bit multiplication
 *   (__builtin_mul_overflow): __muloti4;
 * - conversions between 128-bit integers and float or double: __fixdfti,
 *   __fixunsdfti, __fixsfti, __fixunssfti, __floattidf, __floatuntidf,
 *   __floattisf, __floatuntisf;
 * - __builtin_powi() and __builtin_powif(): __powidf2, __powisf2.
 *
 * 128-bit multiplication and shifts, and counting bits, are inline code
 * with these flags; __multi3, __ashlti3, __ashrti3, __lshrti3, __clzti2,
 * __ctzti2, __ffsti2, __popcountdi2, __popcountti2, __paritydi2,
 * __parityti2, __mulodi4, __bswapsi2 and __bswapdi2 are here all the same,
 * for objects built by other compilers or at other settings.
 *
 * Where C leaves the result undefined, these give the hardware's: a
 * division by zero gives a quotient of all ones and the dividend as the
 * remainder, the most negative value divided by -1 gives itself with a
 * remainder of 0, and a conversion to an integer saturates (NaN gives the
 * largest value), as FCVT does.  Rounding of the conversions to float and
 * double follows the rounding mode in fcsr.
 *
 * The long double functions (__addtf3, __multf3, __extenddftf2, ...) are
 * not here: the engines have no quad-precision arithmetic, and vaccel-cc
 * refuses a module that calls them, with a message.
 *
 * They are in several files (rt_divti.c, rt_multi.c, rt_shiftti.c,
 * rt_bitsti.c, rt_fixti.c, rt_floatti.c, rt_powi.c), each an object of the
 * runtime's archive: a module holds only the groups it calls.  The host
 * tests compile them for x86-64 with -D'RT_NAME(n)=host_##n', and compare
 * every function with the host's native 128-bit arithmetic.  Nothing here
 * may use a 128-bit division or remainder: clang would call these very
 * functions.
 */
#ifndef RT_BUILTINS_H
#define RT_BUILTINS_H

#include <stdint.h>

#ifndef RT_NAME
#define RT_NAME(name)	name
#endif

#define RT_EXPORT	__attribute__((visibility("default")))

typedef __int128 rt_ti;
typedef unsigned __int128 rt_tu;

#define RT_TU_MAX	(~(rt_tu)0)
#define RT_TI_MAX	((rt_ti)(RT_TU_MAX >> 1))
#define RT_TI_MIN	(-RT_TI_MAX - 1)

RT_EXPORT rt_tu RT_NAME(__udivmodti4)(rt_tu a, rt_tu b, rt_tu *rem);
RT_EXPORT rt_tu RT_NAME(__udivti3)(rt_tu a, rt_tu b);
RT_EXPORT rt_tu RT_NAME(__umodti3)(rt_tu a, rt_tu b);
RT_EXPORT rt_ti RT_NAME(__divti3)(rt_ti a, rt_ti b);
RT_EXPORT rt_ti RT_NAME(__modti3)(rt_ti a, rt_ti b);
RT_EXPORT rt_ti RT_NAME(__multi3)(rt_ti a, rt_ti b);
RT_EXPORT rt_ti RT_NAME(__muloti4)(rt_ti a, rt_ti b, int *overflow);
RT_EXPORT int64_t RT_NAME(__mulodi4)(int64_t a, int64_t b, int *overflow);
RT_EXPORT rt_ti RT_NAME(__ashlti3)(rt_ti a, int n);
RT_EXPORT rt_ti RT_NAME(__ashrti3)(rt_ti a, int n);
RT_EXPORT rt_ti RT_NAME(__lshrti3)(rt_ti a, int n);
RT_EXPORT int RT_NAME(__clzti2)(rt_ti a);
RT_EXPORT int RT_NAME(__ctzti2)(rt_ti a);
RT_EXPORT int RT_NAME(__ffsti2)(rt_ti a);
RT_EXPORT int RT_NAME(__popcountdi2)(int64_t a);
RT_EXPORT int RT_NAME(__popcountti2)(rt_ti a);
RT_EXPORT int RT_NAME(__paritydi2)(int64_t a);
RT_EXPORT int RT_NAME(__parityti2)(rt_ti a);
RT_EXPORT uint32_t RT_NAME(__bswapsi2)(uint32_t a);
RT_EXPORT uint64_t RT_NAME(__bswapdi2)(uint64_t a);
RT_EXPORT rt_ti RT_NAME(__fixdfti)(double d);
RT_EXPORT rt_tu RT_NAME(__fixunsdfti)(double d);
RT_EXPORT rt_ti RT_NAME(__fixsfti)(float f);
RT_EXPORT rt_tu RT_NAME(__fixunssfti)(float f);
RT_EXPORT double RT_NAME(__floattidf)(rt_ti a);
RT_EXPORT double RT_NAME(__floatuntidf)(rt_tu a);
RT_EXPORT float RT_NAME(__floattisf)(rt_ti a);
RT_EXPORT float RT_NAME(__floatuntisf)(rt_tu a);
RT_EXPORT double RT_NAME(__powidf2)(double a, int b);
RT_EXPORT float RT_NAME(__powisf2)(float a, int b);

static inline uint64_t hi64(rt_tu x)
{
	return (uint64_t)(x >> 64);
}

static inline unsigned int clz64(uint64_t x)
{
	return x ? (unsigned int)__builtin_clzll(x) : 64;
}

static inline unsigned int ctz64(uint64_t x)
{
	return x ? (unsigned int)__builtin_ctzll(x) : 64;
}

static inline unsigned int clz128(rt_tu x)
{
	return hi64(x) ? clz64(hi64(x)) : 64 + clz64((uint64_t)x);
}

static inline unsigned int pop64(uint64_t x)
{
	x = x - ((x >> 1) & 0x5555555555555555ull);
	x = (x & 0x3333333333333333ull) + ((x >> 2) & 0x3333333333333333ull);
	x = (x + (x >> 4)) & 0x0f0f0f0f0f0f0f0full;
	return (unsigned int)((x * 0x0101010101010101ull) >> 56);
}

/* |@x| as an unsigned value: right for the most negative too. */
static inline rt_tu uabs(rt_ti x)
{
	return x < 0 ? -(rt_tu)x : (rt_tu)x;
}

/* The bits of @d. */
static inline uint64_t double_bits(double d)
{
	uint64_t u;

	__builtin_memcpy(&u, &d, 8);
	return u;
}

#endif /* RT_BUILTINS_H */
