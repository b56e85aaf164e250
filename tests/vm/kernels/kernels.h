/* SPDX-License-Identifier: MIT */
/*
 * Copyright 2026 The vaccel authors
 *
 * kernels.h - the argument blocks of the kernels of kernels.c, shared by
 * test_kernels.c (host, x86-64) and the kernels (RV64): fixed-size types
 * only, addresses as 64-bit GPU virtual addresses.
 */
#ifndef TK_KERNELS_H
#define TK_KERNELS_H

#include <stdint.h>

/* Most kernels: where to write, and a value. */
struct tk_args {
	uint64_t out;
	uint64_t in;
	uint32_t n;
	uint32_t dim;		/* a dimension the compiler cannot see: 3 */
};

/* What tk_ids stores per work-item, at its flat global index. */
struct tk_ids {
	uint32_t local_id[3];
	uint32_t group_id[3];
	uint32_t local_size[3];
	uint32_t num_groups[3];
	uint32_t global_size[3];
	uint32_t global_id[3];
	uint32_t flat_local_id;
	uint32_t past_dims;	/* ids 0 and sizes 1 past z: 1 */
};

/* What tk_local_info stores. */
struct tk_local_info {
	uint64_t base;		/* vaccel_local_base() */
	uint64_t mirror;	/* &tk_mirror_mem[0] */
	uint64_t atoms;		/* &tk_local_atoms */
	uint32_t size;		/* vaccel_local_mem_size() */
	uint32_t pad;
};

/* The operands of the atomics, in global and in local memory. */
struct tk_atoms {
	int32_t add;
	int32_t sub;
	uint32_t and_;
	uint32_t or_;
	uint32_t xor_;
	int32_t smin;
	int32_t smax;
	uint32_t umin;
	uint32_t umax;
	uint32_t xchg;
	uint32_t cas;
	float fsum;
	uint64_t add64;
};

/* The inputs and results of tk_fp, per work-item. */
struct tk_fp {
	float a, b, c;
	float sum, diff, prod, quot, sqrt_a, fma_abc, min_ab, max_ab;
	double da, db;
	double dsum, dquot, dsqrt, dfma;
	int32_t a_to_int;
	uint32_t pad;
	double int_to_d;
};

#endif /* TK_KERNELS_H */
