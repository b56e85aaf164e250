/* SPDX-License-Identifier: MIT */
/*
 * Copyright 2026 The vaccel authors
 *
 * toolchain.h - the argument blocks of the kernels of toolchain_int128.c
 * and toolchain_cxx.cpp, shared by test_toolchain.c (host, x86-64) and the
 * kernels (RV64, C and C++).  __int128 is 16-byte aligned on both, so the
 * layouts agree.
 */
#ifndef TC_TOOLCHAIN_H
#define TC_TOOLCHAIN_H

#include <stdint.h>

/* Both kernels: n inputs at in, n results at out (GPU addresses). */
struct tc_args {
	uint64_t in;
	uint64_t out;
	uint32_t n;
	uint32_t pad;
};

/* The operands of one work-item of tc_int128. */
struct tc_i128_in {
	__int128 a;
	__int128 b;		/* never 0; never -1 when a is the most negative */
	double d;		/* below 2^126 in magnitude */
	uint32_t shift;		/* 0 to 127 */
	uint32_t pad;
};

/* What tc_int128 computes from them. */
struct tc_i128_out {
	__int128 mul;		/* a * b, wrapped */
	__int128 sdiv;		/* a / b */
	__int128 smod;		/* a % b */
	unsigned __int128 udiv;	/* (unsigned) a / b */
	unsigned __int128 umod;
	__int128 shl;		/* a << shift */
	__int128 ashr;		/* a >> shift */
	unsigned __int128 lshr;
	__int128 d_to_i;	/* (__int128)d */
	unsigned __int128 d_to_u;	/* (unsigned __int128)|d| */
	double i_to_d;		/* (double)a */
	double u_to_d;		/* (double)(unsigned)b */
	float i_to_f;		/* (float)a */
	float u_to_f;
	int32_t mul_overflow;	/* __builtin_mul_overflow(a, b) */
	uint32_t pad;
};

/* tc_cxx: out[i] = tc_cxx_model(in[i]), which test_toolchain.c also has. */

#endif /* TC_TOOLCHAIN_H */
