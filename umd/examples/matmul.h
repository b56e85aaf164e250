/* SPDX-License-Identifier: MIT */
/*
 * Copyright 2026 The vaccel authors
 *
 * matmul.h - the argument block of the tiled matrix multiply, shared by
 * matmul.c and matmul_kernel.c.
 */
#ifndef MATMUL_H
#define MATMUL_H

#include <stdint.h>

/* The tile: workgroups of MATMUL_TILE x MATMUL_TILE work-items. */
#define MATMUL_TILE	16

struct matmul_args {
	uint64_t a;	/* const float[n][n], row-major */
	uint64_t b;	/* const float[n][n] */
	uint64_t c;	/* float[n][n]: a x b */
	uint32_t n;
	uint32_t pad;
};

#endif /* MATMUL_H */
