/* SPDX-License-Identifier: MIT */
/*
 * Copyright 2026 The vaccel authors
 *
 * hello.h - what the host passes to the kernel: its argument block,
 * copied into each launch.  Both sides include it, so that they agree on
 * the layout; pointers to device memory travel as 64-bit GPU addresses.
 */
#ifndef HELLO_H
#define HELLO_H

#include <stdint.h>

struct hello_args {
	uint64_t squares;	/* uint32_t[n], a GPU address: vaccel_bo_va() */
	uint32_t n;
};

#endif /* HELLO_H */
