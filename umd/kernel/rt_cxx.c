// SPDX-License-Identifier: MIT
/*
 * Copyright 2026 The vaccel authors
 *
 * rt_cxx.c - what C++ kernels need of the device runtime: the function
 * an abstract class's virtual table points at in place of a pure virtual
 * function, and the one for a deleted virtual function.  Neither can be
 * called by a correct program; if one is, the work-item stops on an
 * illegal instruction and the context faults with the pc, which the
 * host's fault record names (vaccel_fault_info).
 *
 * C++ kernels are compiled without exceptions and run-time type
 * information, and there is no C++ library: no operator new, no
 * constructors or destructors of global objects (nothing runs them, and
 * the loader refuses a module that has some), no guarded initialisation
 * of function-local statics.  vaccel-cc says so when a link fails on one.
 */

#define RT_EXPORT	__attribute__((visibility("default"), noreturn))

RT_EXPORT void __cxa_pure_virtual(void);
RT_EXPORT void __cxa_deleted_virtual(void);

/* unimp: a write of 0 to the read-only cycle CSR, an illegal instruction. */
static __attribute__((noreturn, always_inline)) inline void rt_trap(void)
{
	for (;;)
		__asm__ volatile("unimp");
}

void __cxa_pure_virtual(void)
{
	rt_trap();
}

void __cxa_deleted_virtual(void)
{
	rt_trap();
}
