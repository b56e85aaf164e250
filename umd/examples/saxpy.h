/* SPDX-License-Identifier: MIT */
/*
 * Copyright 2026 The vaccel authors
 *
 * saxpy.h - the argument block of saxpy, shared by saxpy.c and
 * saxpy_kernel.c.
 */
#ifndef SAXPY_H
#define SAXPY_H

#include <stdint.h>

struct saxpy_args {
	uint64_t x;	/* const float[n] */
	uint64_t y;	/* float[n]: y = a * x + y */
	float a;
	uint32_t n;
};

#endif /* SAXPY_H */
