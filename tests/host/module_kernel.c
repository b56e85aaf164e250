// SPDX-License-Identifier: MIT
/*
 * Copyright 2026 The vaccel authors
 *
 * module_kernel.c - the kernel module of the loader's host tests, built
 * by run.sh with vaccel-cc.  It has a bit of everything the loader deals
 * with: two kernels, local memory (hence GOT entries relocated to the
 * local base), pointers in data (relative relocations), read-only data, a
 * jump table, and vaccel_printf() (hence the print descriptor).  The host
 * has no RV64 engine: the tests only load and launch it.
 */
#include <vaccel_kernel.h>

struct mk_args {
	uint32_t *out;
	uint32_t n;
	uint32_t mode;
};

VACCEL_LOCAL uint32_t mk_scratch[100];
VACCEL_LOCAL uint64_t mk_sum[3];

static const uint32_t mk_table[] = { 3, 1, 4, 1, 5, 9, 2, 6 };
const uint32_t *mk_tables[] = { mk_table, mk_table + 4 };
uint32_t mk_counter = 7;
uint32_t *mk_counter_ptr = &mk_counter;

static uint32_t mk_pick(uint32_t mode, uint32_t i)
{
	switch (mode) {
	case 0:
		return i;
	case 1:
		return mk_tables[i & 1][i & 3];
	case 2:
		return *mk_counter_ptr + i;
	case 3:
		return mk_scratch[i % 100];
	case 4:
		return (uint32_t)mk_sum[i % 3];
	default:
		return ~i;
	}
}

VACCEL_KERNEL(mk_fill, const struct mk_args *a)
{
	uint32_t i = vaccel_global_id(0);

	mk_scratch[vaccel_local_id(0) % 100] = i;
	vaccel_atomic_add(&mk_sum[0], i);
	vaccel_barrier();
	if (i < a->n)
		a->out[i] = mk_pick(a->mode, i);
}

VACCEL_KERNEL(mk_hello, const struct mk_args *a)
{
	if (!vaccel_global_id(0))
		vaccel_printf("hello from %u of %u\n", vaccel_global_id(0),
			      vaccel_global_size(0));
	memset(a->out, 0, a->n * sizeof(*a->out));
}
