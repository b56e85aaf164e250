// SPDX-License-Identifier: MIT
/*
 * Copyright 2026 The vaccel authors
 *
 * faults.c - the kernels of test_libvaccel_fault.c, built by vaccel-cc:
 * each fails in its own way, so that the test can check what libvaccel's
 * fault record says of it (the reason, the address, the kernel, and the
 * function of the module that holds the faulting pc).
 */
#include <vaccel_kernel.h>

#include "faults.h"

/* Not inlined: the faulting load is in a function of its own name. */
__attribute__((noinline)) static uint32_t tf_deref(const volatile uint32_t *p)
{
	return *p;
}

/* Reads a->p through tf_deref(): an unmapped address faults there. */
VACCEL_KERNEL(tf_load, const struct tf_args *a)
{
	tf_deref((const volatile uint32_t *)a->p);
}

/* Writes a->p: read-only memory faults. */
VACCEL_KERNEL(tf_store, const struct tf_args *a)
{
	*(volatile uint32_t *)a->p = 1;
}

/* An instruction no engine implements (all ones, not a compressed one). */
VACCEL_KERNEL(tf_illegal, const struct tf_args *a)
{
	(void)a;
	__asm__ volatile(".word 0xffffffff");
}

/* An atomic add at a->p + 2: misaligned. */
VACCEL_KERNEL(tf_misaligned, const struct tf_args *a)
{
	vaccel_atomic_add((uint32_t *)(uintptr_t)(a->p + 2), 1u);
}

/* ECALL: a trap. */
VACCEL_KERNEL(tf_ecall, const struct tf_args *a)
{
	(void)a;
	__asm__ volatile("ecall");
}

/* Spins until the word at a->p is 1: without it, a hang. */
VACCEL_KERNEL(tf_spin, const struct tf_args *a)
{
	while (*(volatile uint32_t *)a->p != 1)
		;
}

/*
 * Named like the kernel of the vadd example, and faulting: a load near
 * address 0, below the address space.  test_libvaccel_fault runs
 * example-vadd with this module, to see the example print the record.
 */
VACCEL_KERNEL(vadd, const struct tf_args *a)
{
	(void)a;
	tf_deref((const volatile uint32_t *)(uintptr_t)0x10);
}

/* Does nothing, over as large a grid as asked. */
VACCEL_KERNEL(tf_nop, const struct tf_args *a)
{
	(void)a;
}
