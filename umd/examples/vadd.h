/* SPDX-License-Identifier: MIT */
/*
 * Copyright 2026 The vaccel authors
 *
 * vadd.h - the argument block of the vector add, shared by the host
 * program (vadd.c) and the kernel (vadd_kernel.c).  Addresses are GPU
 * virtual addresses, 64 bits on both sides.
 */
#ifndef VADD_H
#define VADD_H

#include <stdint.h>

struct vadd_args {
	uint64_t a;	/* const float[n] */
	uint64_t b;	/* const float[n] */
	uint64_t c;	/* float[n]: a + b */
	uint32_t n;
	uint32_t pad;
};

#endif /* VADD_H */
