/* SPDX-License-Identifier: MIT */
/*
 * Copyright 2026 The vaccel authors
 *
 * reduce.h - the argument block and result of the reduction, shared by
 * reduce.c and reduce_kernel.c.
 */
#ifndef REDUCE_H
#define REDUCE_H

#include <stdint.h>

/* Work-items of a workgroup: a power of two, the size of the tree. */
#define REDUCE_WG	256

struct reduce_result {
	uint64_t sum;
	uint32_t min;	/* the host starts it at UINT32_MAX */
	uint32_t max;	/* and this at 0 */
};

struct reduce_args {
	uint64_t in;	/* const uint32_t[n] */
	uint64_t out;	/* struct reduce_result */
	uint32_t n;
	uint32_t pad;
};

#endif /* REDUCE_H */
