// SPDX-License-Identifier: MIT
/*
 * Copyright 2026 The vaccel authors
 *
 * stack_kernel.c - kernels whose stack needs host_stack.c checks: a chain
 * of direct calls (the deepest path counts, not the sum of all frames), a
 * tail call, recursion, a call through a pointer, a kernel that calls the
 * device runtime (memset), a leaf, and functions that realign their stack
 * for a variable of 128 bytes' and of 4 KiB's alignment.
 */
#include <vaccel_kernel.h>

#define NOINLINE __attribute__((noinline))

NOINLINE static uint32_t sk_leaf_small(volatile uint32_t *p)
{
	volatile uint32_t b[8];

	b[p[0] % 8] = p[1];
	return b[p[2] % 8];
}

NOINLINE static uint32_t sk_leaf_big(volatile uint32_t *p)
{
	volatile uint32_t b[256];

	b[p[0] % 256] = p[1];
	return b[p[2] % 256];
}

NOINLINE static uint32_t sk_middle(volatile uint32_t *p)
{
	volatile uint32_t b[64];

	b[p[0] % 64] = sk_leaf_small(p);
	return b[p[3] % 64] + sk_leaf_big(p);
}

/* Its need is its frame, sk_middle's and sk_leaf_big's. */
VACCEL_KERNEL(sk_chain, uint32_t *p)
{
	volatile uint32_t b[16];

	b[p[0] % 16] = sk_middle(p);
	p[4] = b[p[1] % 16];
}

NOINLINE static uint32_t sk_fact(uint32_t n)
{
	volatile uint32_t keep = n;

	return n < 2 ? 1 : keep * sk_fact(n - 1);
}

VACCEL_KERNEL(sk_recurse, uint32_t *p)
{
	p[0] = sk_fact(p[1]);
}

uint32_t (*volatile sk_fn)(volatile uint32_t *) = sk_leaf_small;

VACCEL_KERNEL(sk_indirect, uint32_t *p)
{
	p[0] = sk_fn(p);
}

VACCEL_KERNEL(sk_runtime, uint32_t *p)
{
	uint32_t b[100];

	memset(b, p[0], sizeof(b));
	p[1] = b[p[2] % 100];
}

VACCEL_KERNEL(sk_leaf, uint32_t *p)
{
	p[0] = p[1] + 1;
}

/* A variable aligned to 128 bytes: andi sp, sp, -128 after the frame. */
NOINLINE static uint32_t sk_aligned_leaf(volatile uint32_t *p)
{
	volatile uint32_t b[32] __attribute__((aligned(128)));

	b[p[0] % 32] = p[1];
	return b[p[2] % 32];
}

/* Its need: its frame, sk_aligned_leaf's, and 112 bytes of realigning. */
VACCEL_KERNEL(sk_aligned, uint32_t *p)
{
	volatile uint32_t b[8];

	b[p[0] % 8] = sk_aligned_leaf(p);
	p[1] = b[p[2] % 8];
}

/* Aligned to 4 KiB: srli and slli of sp.  Its need: its frame + 4080. */
VACCEL_KERNEL(sk_aligned_page, uint32_t *p)
{
	volatile uint32_t b[8] __attribute__((aligned(4096)));

	b[p[0] % 8] = p[1];
	p[2] = b[p[3] % 8];
}
