// SPDX-License-Identifier: MIT
/*
 * Copyright 2026 The vaccel authors
 *
 * kernels.c - the kernels of test_kernels.c, built by vaccel-cc with
 * -ffp-contract=off: each exercises one part of vaccel_kernel.h, the
 * device runtime or the loader's work (relocations, local memory,
 * permissions), and stores what the host checks.
 */
#include <vaccel_kernel.h>

#include "kernels.h"

/* --- the work-item functions --- */

VACCEL_KERNEL(tk_ids, const struct tk_args *a)
{
	unsigned int gx = vaccel_global_id(0), gy = vaccel_global_id(1);
	unsigned int gz = vaccel_global_id(2), d;
	struct tk_ids *o = (struct tk_ids *)a->out;

	o += (gz * vaccel_global_size(1) + gy) * vaccel_global_size(0) + gx;
	for (d = 0; d < 3; d++) {
		o->local_id[d] = vaccel_local_id(d);
		o->group_id[d] = vaccel_group_id(d);
		o->local_size[d] = vaccel_local_size(d);
		o->num_groups[d] = vaccel_num_groups(d);
		o->global_size[d] = vaccel_global_size(d);
		o->global_id[d] = vaccel_global_id(d);
	}
	o->flat_local_id = vaccel_flat_local_id();
	o->past_dims = !vaccel_local_id(a->dim) && !vaccel_group_id(a->dim) &&
		       !vaccel_global_id(a->dim) && vaccel_local_size(a->dim) == 1 &&
		       vaccel_num_groups(a->dim) == 1 && vaccel_global_size(a->dim) == 1;
}

/* --- local memory and barriers --- */

VACCEL_LOCAL uint32_t tk_mirror_mem[1024];

/* out[gid] = what the work-item mirrored in the workgroup stored. */
VACCEL_KERNEL(tk_mirror, const struct tk_args *a)
{
	unsigned int l = vaccel_local_id(0), n = vaccel_local_size(0);

	tk_mirror_mem[l] = l * 3 + vaccel_group_id(0);
	vaccel_barrier();
	((uint32_t *)a->out)[vaccel_global_id(0)] = tk_mirror_mem[n - 1 - l];
}

VACCEL_LOCAL struct tk_atoms tk_local_atoms;

VACCEL_KERNEL(tk_local_info, const struct tk_args *a)
{
	struct tk_local_info *o = (struct tk_local_info *)a->out;

	o->base = (uintptr_t)vaccel_local_base();
	o->mirror = (uintptr_t)&tk_mirror_mem[0];
	o->atoms = (uintptr_t)&tk_local_atoms;
	o->size = vaccel_local_mem_size();
}

/* --- atomics --- */

static void tk_atomic_ops(struct tk_atoms *t, uint32_t i)
{
	uint32_t old;

	vaccel_atomic_add(&t->add, (int32_t)i);
	vaccel_atomic_sub(&t->sub, (int32_t)i);
	vaccel_atomic_and(&t->and_, ~(1u << (i % 32)));
	vaccel_atomic_or(&t->or_, 1u << (i % 32));
	vaccel_atomic_xor(&t->xor_, i * 2654435761u);
	vaccel_atomic_min(&t->smin, (int32_t)i - 500);
	vaccel_atomic_max(&t->smax, (int32_t)(i * 7 % 1000) - 300);
	vaccel_atomic_min(&t->umin, i * 3 + 5);
	vaccel_atomic_max(&t->umax, i ^ 0x5a5a);
	vaccel_atomic_xchg(&t->xchg, i + 1);
	do {
		old = vaccel_atomic_load(&t->cas);
	} while (vaccel_atomic_cmpxchg(&t->cas, old, old + 1) != old);
	vaccel_atomic_add_float(&t->fsum, 0.25f);
	vaccel_atomic_add(&t->add64, (uint64_t)i << 32 | 1);
}

/*
 * Every work-item applies every atomic to the global operands at out and
 * to local ones, which work-item 0 of each workgroup then stores at
 * in[group].
 */
VACCEL_KERNEL(tk_atomics, const struct tk_args *a)
{
	uint32_t i = vaccel_global_id(0);

	if (!vaccel_local_id(0)) {
		vaccel_atomic_store(&tk_local_atoms.and_, ~0u);
		tk_local_atoms.smin = INT32_MAX;
		tk_local_atoms.smax = INT32_MIN;
		tk_local_atoms.umin = UINT32_MAX;
	}
	vaccel_barrier();
	tk_atomic_ops((struct tk_atoms *)a->out, i);
	tk_atomic_ops(&tk_local_atoms, i);
	vaccel_barrier();
	if (!vaccel_local_id(0))
		((struct tk_atoms *)a->in)[vaccel_group_id(0)] = tk_local_atoms;
}

/* --- the device runtime --- */

struct tk_block {
	unsigned char b[200];
};

/* One work-item: memory functions on the 4096 bytes at out. */
VACCEL_KERNEL(tk_runtime, const struct tk_args *a)
{
	unsigned char *buf = (unsigned char *)a->out;
	int32_t *res = (int32_t *)(buf + 4000);
	struct tk_block blk;

	memset(buf + 100, 0xab, 200);
	memset(buf + 301, 0, 7);
	memcpy(buf + 1000, buf + 2001, 513);
	memcpy(buf + 2048, buf + 3072, 256);
	memmove(buf + 400, buf + 410, 100);
	memmove(buf + 610, buf + 600, 100);
	memmove(buf + 3504, buf + 3496, 64);
	blk = *(const struct tk_block *)(buf + 3200);
	blk.b[7] ^= 0xff;
	*(struct tk_block *)(buf + 3700) = blk;
	res[0] = memcmp(buf + 100, buf + 101, 199);
	res[1] = memcmp(buf + 100, buf + 300, 2) > 0;
	res[2] = memcmp(buf + 300, buf + 100, 2) < 0;
	res[3] = memcmp(buf, buf, 0);
}

/* --- relocations: pointers to code, read-only data and data --- */

static int tk_f1(int x) { return x + 1; }
static int tk_f2(int x) { return x * 2; }
static int tk_f3(int x) { return x - 3; }

static int (*const tk_funcs[])(int) = { tk_f1, tk_f2, tk_f3 };
static const char *const tk_names[] = { "one", "two", "three" };
int tk_storage = 11;
int *tk_storage_ptr = &tk_storage;

/* out[i] = tk_funcs[i % 3](i) + tk_names[i % 3][1] + *tk_storage_ptr */
VACCEL_KERNEL(tk_relocs, const struct tk_args *a)
{
	int i = vaccel_global_id(0);

	if (i < (int)a->n)
		((int32_t *)a->out)[i] = tk_funcs[i % 3](i) + tk_names[i % 3][1] +
					 *tk_storage_ptr;
}

/* --- floating point: IEEE 754 exactly, compared bit for bit --- */

VACCEL_KERNEL(tk_fp, const struct tk_args *a)
{
	struct tk_fp *f = (struct tk_fp *)a->out + vaccel_global_id(0);

	f->sum = f->a + f->b;
	f->diff = f->a - f->b;
	f->prod = f->a * f->b;
	f->quot = f->a / f->b;
	f->sqrt_a = vaccel_sqrtf(vaccel_fabsf(f->a));
	f->fma_abc = vaccel_fmaf(f->a, f->b, f->c);
	f->min_ab = vaccel_fminf(f->a, f->b);
	f->max_ab = vaccel_fmaxf(f->a, f->b);
	f->dsum = f->da + f->db;
	f->dquot = f->da / f->db;
	f->dsqrt = vaccel_sqrt(vaccel_fabs(f->da));
	f->dfma = vaccel_fma(f->da, f->db, (double)f->c);
	f->a_to_int = (int32_t)(f->a * 1000.0f);
	f->int_to_d = (double)(int64_t)(f->da * 1e6);
}

/* --- vaccel_printf() --- */

VACCEL_KERNEL(tk_printf, const struct tk_args *a)
{
	unsigned int i = vaccel_global_id(0);

	if (i < a->n)
		vaccel_printf("work-item %u of %u: %d %x %.3f %s\n", i,
			      vaccel_global_size(0), -(int)i, i * 255, i / 8.0,
			      i % 2 ? "odd" : "even");
}

/* --- the stack: 3000 bytes of it --- */

VACCEL_KERNEL(tk_stack, const struct tk_args *a)
{
	volatile uint8_t big[3000];
	uint32_t i, sum = 0;

	for (i = 0; i < sizeof(big); i++)
		big[i] = (uint8_t)(i * 7 + vaccel_global_id(0));
	for (i = 0; i < sizeof(big); i++)
		sum += big[i];
	((uint32_t *)a->out)[vaccel_global_id(0)] = sum;
}

/* --- what the loader's permissions forbid: each faults --- */

/* The argument block is read-only. */
VACCEL_KERNEL(tk_write_args, const struct tk_args *a)
{
	((volatile struct tk_args *)a)->n = 1;
}

/* Code is read-only. */
VACCEL_KERNEL(tk_write_code, const struct tk_args *a)
{
	*(volatile uint32_t *)(uintptr_t)tk_funcs[a->n % 3] = 0x00000013;
}

/* Data is not executable: a jump into writable data. */
uint32_t tk_data_code[2] = { 0x00008067 /* ret */, 0 };

VACCEL_KERNEL(tk_exec_data, const struct tk_args *a)
{
	void (*f)(void) = (void (*)(void))(uintptr_t)tk_data_code;

	if (a->n)
		f();
}

/* Read-only data is not executable either. */
static const uint32_t tk_rodata_code[2] = { 0x00008067, 0 };

VACCEL_KERNEL(tk_exec_rodata, const struct tk_args *a)
{
	void (*f)(void) = (void (*)(void))(uintptr_t)tk_rodata_code;

	if (a->n)
		f();
}
