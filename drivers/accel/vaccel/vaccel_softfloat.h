/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Copyright 2026 The vaccel authors
 */
#ifndef __VACCEL_SOFTFLOAT_H__
#define __VACCEL_SOFTFLOAT_H__

#include <linux/types.h>

/*
 * IEEE 754 binary32 and binary64 arithmetic with integers only, exactly as
 * the RISC-V F and D extensions define it.  Values travel as their bit
 * patterns (u32 for binary32, u64 for binary64).  Every operation takes a
 * RISC-V rounding mode (VACCEL_RM_*, never DYN: the caller resolves it
 * from frm) where the instruction has one, and ORs the exceptions it
 * raises into *flags (VACCEL_FFLAG_*), which it never clears.
 *
 * Shared by the kernel module and the user-space tests: includes nothing
 * but <linux/types.h>.
 */

/* Rounding modes, as in the rm field and in frm. */
#define VACCEL_RM_RNE	0	/* to nearest, ties to even */
#define VACCEL_RM_RTZ	1	/* towards zero */
#define VACCEL_RM_RDN	2	/* down, towards -inf */
#define VACCEL_RM_RUP	3	/* up, towards +inf */
#define VACCEL_RM_RMM	4	/* to nearest, ties to max magnitude */
#define VACCEL_RM_DYN	7	/* in an instruction: use frm */

/* Accrued exceptions, as in fflags. */
#define VACCEL_FFLAG_NX	0x01	/* inexact */
#define VACCEL_FFLAG_UF	0x02	/* underflow */
#define VACCEL_FFLAG_OF	0x04	/* overflow */
#define VACCEL_FFLAG_DZ	0x08	/* divide by zero */
#define VACCEL_FFLAG_NV	0x10	/* invalid operation */

#define VACCEL_F32_CANONICAL_NAN	0x7fc00000u
#define VACCEL_F64_CANONICAL_NAN	0x7ff8000000000000ull

/* Arithmetic: a NaN result is always the canonical NaN. */
u32 vaccel_f32_add(u32 a, u32 b, unsigned int rm, u32 *flags);
u32 vaccel_f32_sub(u32 a, u32 b, unsigned int rm, u32 *flags);
u32 vaccel_f32_mul(u32 a, u32 b, unsigned int rm, u32 *flags);
u32 vaccel_f32_div(u32 a, u32 b, unsigned int rm, u32 *flags);
u32 vaccel_f32_sqrt(u32 a, unsigned int rm, u32 *flags);
/* a * b + c with one rounding; FMSUB, FNMSUB, FNMADD negate a and/or c. */
u32 vaccel_f32_fma(u32 a, u32 b, u32 c, unsigned int rm, u32 *flags);
/* FMIN/FMAX: -0 < +0; one NaN gives the other operand; sNaN raises NV. */
u32 vaccel_f32_min(u32 a, u32 b, u32 *flags);
u32 vaccel_f32_max(u32 a, u32 b, u32 *flags);
/* FEQ is quiet (NV on sNaN only), FLT and FLE signal on any NaN. */
bool vaccel_f32_eq(u32 a, u32 b, u32 *flags);
bool vaccel_f32_lt(u32 a, u32 b, u32 *flags);
bool vaccel_f32_le(u32 a, u32 b, u32 *flags);
/* FCLASS: the one-hot 10-bit mask. */
u32 vaccel_f32_classify(u32 a);

u64 vaccel_f64_add(u64 a, u64 b, unsigned int rm, u32 *flags);
u64 vaccel_f64_sub(u64 a, u64 b, unsigned int rm, u32 *flags);
u64 vaccel_f64_mul(u64 a, u64 b, unsigned int rm, u32 *flags);
u64 vaccel_f64_div(u64 a, u64 b, unsigned int rm, u32 *flags);
u64 vaccel_f64_sqrt(u64 a, unsigned int rm, u32 *flags);
u64 vaccel_f64_fma(u64 a, u64 b, u64 c, unsigned int rm, u32 *flags);
u64 vaccel_f64_min(u64 a, u64 b, u32 *flags);
u64 vaccel_f64_max(u64 a, u64 b, u32 *flags);
bool vaccel_f64_eq(u64 a, u64 b, u32 *flags);
bool vaccel_f64_lt(u64 a, u64 b, u32 *flags);
bool vaccel_f64_le(u64 a, u64 b, u32 *flags);
u32 vaccel_f64_classify(u64 a);

/*
 * Float to integer: rounded with rm, saturating as RISC-V specifies (NaN
 * and +overflow give the largest value, -overflow the smallest) with NV;
 * NX when inexact and in range.  The 32-bit results are returned as their
 * 32-bit patterns (the interpreter sign-extends them, as FCVT.W[U] do).
 */
s32 vaccel_f32_to_i32(u32 a, unsigned int rm, u32 *flags);
u32 vaccel_f32_to_u32(u32 a, unsigned int rm, u32 *flags);
s64 vaccel_f32_to_i64(u32 a, unsigned int rm, u32 *flags);
u64 vaccel_f32_to_u64(u32 a, unsigned int rm, u32 *flags);
s32 vaccel_f64_to_i32(u64 a, unsigned int rm, u32 *flags);
u32 vaccel_f64_to_u32(u64 a, unsigned int rm, u32 *flags);
s64 vaccel_f64_to_i64(u64 a, unsigned int rm, u32 *flags);
u64 vaccel_f64_to_u64(u64 a, unsigned int rm, u32 *flags);

/* Integer to float, rounded with rm (NX when inexact). */
u32 vaccel_i32_to_f32(s32 a, unsigned int rm, u32 *flags);
u32 vaccel_u32_to_f32(u32 a, unsigned int rm, u32 *flags);
u32 vaccel_i64_to_f32(s64 a, unsigned int rm, u32 *flags);
u32 vaccel_u64_to_f32(u64 a, unsigned int rm, u32 *flags);
u64 vaccel_i32_to_f64(s32 a, unsigned int rm, u32 *flags);
u64 vaccel_u32_to_f64(u32 a, unsigned int rm, u32 *flags);
u64 vaccel_i64_to_f64(s64 a, unsigned int rm, u32 *flags);
u64 vaccel_u64_to_f64(u64 a, unsigned int rm, u32 *flags);

/* Between formats: NaNs become canonical; f64 to f32 rounds with rm. */
u64 vaccel_f32_to_f64(u32 a, u32 *flags);
u32 vaccel_f64_to_f32(u64 a, unsigned int rm, u32 *flags);

#endif /* __VACCEL_SOFTFLOAT_H__ */
