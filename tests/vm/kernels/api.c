// SPDX-License-Identifier: MIT
/*
 * Copyright 2026 The vaccel authors
 *
 * api.c - kernels for test_api.c: stacks whose need the loader computes
 * from .stack_sizes (a frame and a callee; a frame realigned to 4 KiB and
 * a callee; recursion; more than the device has) and dynamic local
 * memory.  Built with -fstack-size-section
 * (tests/vm/Makefile).
 */
#include <vaccel_kernel.h>

#include "api.h"

/* Sums @n bytes; not inlined, so that the kernel makes a call. */
__attribute__((noinline)) static uint32_t ta_sum(const volatile uint8_t *p, uint32_t n)
{
	uint32_t s = 0, i;

	for (i = 0; i < n; i++)
		s += p[i];
	return s;
}

/* A frame of TA_FRAME_BYTES and a call: a known need. */
VACCEL_KERNEL(ta_frame, const struct ta_args *a)
{
	volatile uint8_t buf[TA_FRAME_BYTES];
	unsigned int i, id = vaccel_global_id(0);

	for (i = 0; i < TA_FRAME_BYTES; i++)
		buf[i] = (uint8_t)(i * 3 + id);
	((uint32_t *)a->out)[id] = ta_sum(buf, TA_FRAME_BYTES);
}

/* Sums @n bytes in a frame of its own (a leaf may have none). */
__attribute__((noinline)) static uint32_t ta_sum_framed(const volatile uint8_t *p,
							uint32_t n)
{
	volatile uint32_t acc[16];
	uint32_t s = 0, i;

	for (i = 0; i < 16; i++)
		acc[i] = 0;
	for (i = 0; i < n; i++)
		acc[i % 16] += p[i];
	for (i = 0; i < 16; i++)
		s += acc[i];
	return s;
}

/*
 * An array aligned to 4 KiB: the kernel realigns its stack pointer below
 * its frame, by up to 4080 bytes that .stack_sizes does not count, and
 * its callee's frame is below that.  Counted without them, work-item 0's
 * callee ran below the stacks (a fault), the others' into their
 * neighbours' stacks.
 */
VACCEL_KERNEL(ta_aligned, const struct ta_args *a)
{
	volatile uint8_t buf[TA_ALIGNED_BYTES] __attribute__((aligned(TA_ALIGNED_ALIGN)));
	unsigned int i, id = vaccel_global_id(0);

	for (i = 0; i < TA_ALIGNED_BYTES; i++)
		buf[i] = (uint8_t)(i * 3 + id);
	((uint32_t *)a->out)[id] = ta_sum_framed(buf, TA_ALIGNED_BYTES);
}

__attribute__((noinline)) static uint32_t ta_fib(uint32_t n)
{
	volatile uint32_t keep = n;

	return n < 2 ? keep : ta_fib(n - 1) + ta_fib(n - 2);
}

/* Recursion: the need is not known. */
VACCEL_KERNEL(ta_recurse, const struct ta_args *a)
{
	((uint32_t *)a->out)[vaccel_global_id(0)] = ta_fib(a->n);
}

/* More stack than a work-item may have. */
VACCEL_KERNEL(ta_huge, const struct ta_args *a)
{
	volatile uint8_t buf[TA_HUGE_BYTES];

	buf[a->n % TA_HUGE_BYTES] = 1;
	((uint32_t *)a->out)[0] = buf[a->n % TA_HUGE_BYTES];
}

VACCEL_LOCAL uint32_t ta_static[TA_STATIC_LOCAL / 4];

/*
 * Every work-item adds its id + 1 into the workgroup's dynamic local
 * memory at its own word, then the first one sums them.
 */
VACCEL_KERNEL(ta_dynlocal, const struct ta_args *a)
{
	struct ta_dynlocal *out = (struct ta_dynlocal *)a->out + vaccel_group_id(0);
	uint32_t *dyn = vaccel_dynamic_local();
	unsigned int l = vaccel_local_id(0), n = vaccel_local_size(0), i, s = 0;

	if (!l)
		ta_static[0] = 0x5a5a5a5a;
	dyn[l] = l + 1;
	vaccel_barrier();
	if (l)
		return;
	for (i = 0; i < n; i++)
		s += dyn[i];
	out->dynamic = (uint64_t)dyn - (uint64_t)vaccel_local_base();
	out->size = vaccel_dynamic_local_size();
	out->sum = s;
	out->stat = ta_static[0];
}
