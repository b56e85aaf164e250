/* SPDX-License-Identifier: MIT */
/*
 * Copyright 2026 The vaccel authors
 *
 * vaccel_kernel.h - the device side of vaccel compute kernels: what a C
 * kernel, compiled for RV64G by vaccel-cc and run by a compute engine,
 * needs to know about itself and its workgroup.
 *
 *	#include <vaccel_kernel.h>
 *
 *	struct vadd_args {
 *		const float *a, *b;
 *		float *c;
 *		unsigned int n;
 *	};
 *
 *	VACCEL_KERNEL(vadd, const struct vadd_args *args)
 *	{
 *		unsigned int i = vaccel_global_id(0);
 *
 *		if (i < args->n)
 *			args->c[i] = args->a[i] + args->b[i];
 *	}
 *
 * A kernel is a function of one argument, a pointer to the argument block
 * the host gave vaccel_launch(), which is read-only.  Every work-item of
 * the grid runs it with its own stack; returning ends the work-item.
 * Addresses in the argument block are GPU virtual addresses, such as
 * vaccel_bo_va() of a buffer: the kernel dereferences them like pointers.
 *
 * Kernels are freestanding: no C library, no system calls.  The device
 * runtime linked into every module provides memcpy(), memmove(), memset()
 * and memcmp(), vaccel_printf() below, and the compiler's helpers for
 * 128-bit integers (__int128 division, remainder, overflow checks and
 * conversions to and from float and double).  The F and D extensions make
 * float and double arithmetic, square root, fused multiply-add, min, max
 * and conversions single instructions (vaccel_sqrtf() and the others
 * below); there is no libm, and long double (IEEE quad on RV64) is not
 * supported: vaccel-cc refuses a module whose code computes with it.
 *
 * Kernels may be C++ (vaccel-cc compiles .cpp, .cc and .cxx files without
 * exceptions, run-time type information or a C++ library): VACCEL_KERNEL()
 * gives a kernel C linkage, so that it keeps its plain name; templates,
 * classes and virtual functions work, constructors of global objects do
 * not (nothing runs them).
 *
 * Workgroup-local memory is declared at file scope with VACCEL_LOCAL:
 *
 *	VACCEL_LOCAL float tile[16][16];
 *
 * Such objects are zero when a workgroup starts and shared by its
 * work-items; vaccel_barrier() orders their accesses.  vaccel-kernel.ld
 * links them into a NOLOAD section at the local memory aperture
 * (0x0100000000000000, &vaccel_device_info.local_base), in a program
 * header of their own that is never loaded; the loader relocates the
 * GOT entries that point there to the device's local base and launches
 * the module's kernels with the section's size of local memory.  Kernels
 * are compiled with -fPIC -fvisibility=hidden: every object of the module
 * is then reached PC-relative, except default-visibility ones, which
 * VACCEL_LOCAL objects are, reached through the GOT.  A VACCEL_LOCAL
 * object that is static, or a kernel compiled with -fPIE, would be reached
 * PC-relative: ld.lld refuses to link it ("relocation R_RISCV_PCREL_HI20
 * out of range").  vaccel_local_base() and vaccel_local_mem_size() give
 * the raw local memory for kernels that carve it up themselves.
 */
#ifndef VACCEL_KERNEL_H
#define VACCEL_KERNEL_H

#if !defined(__riscv) || __riscv_xlen != 64
#error "vaccel_kernel.h is for RV64 kernels: build them with vaccel-cc"
#endif
#if defined(__riscv_compressed)
#error "vaccel runs no compressed instructions: compile with -march=rv64imafd"
#endif
#if !defined(__riscv_float_abi_double) || !defined(__riscv_atomic) || \
	!defined(__riscv_mul) || __riscv_flen != 64
#error "vaccel kernels are RV64IMAFD with the lp64d ABI: -march=rv64imafd -mabi=lp64d"
#endif
#if defined(__PIE__) || defined(__pie__) || !defined(__PIC__)
#error "vaccel kernels are compiled with -fPIC -fvisibility=hidden (vaccel-cc does so)"
#endif

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#if defined(__cplusplus)
extern "C" {
#endif

/*
 * VACCEL_KERNEL() - define a kernel
 * @name: its name, which vaccel_kernel_get() looks up
 * @...: its one parameter, a pointer to the argument block
 *
 * Defines the function @name with default visibility and the symbol
 * __vaccel_kernel_@name at the same address, by which the loader finds
 * kernels; in C++, with C linkage.  Used as a function definition's head:
 *
 *	VACCEL_KERNEL(scale, const struct scale_args *a)
 *	{
 *		...
 *	}
 */
#define VACCEL_KERNEL(name, ...)					\
	__asm__(".globl __vaccel_kernel_" #name "\n"			\
		".type __vaccel_kernel_" #name ", @function\n"		\
		".set __vaccel_kernel_" #name ", " #name);		\
	__VACCEL_KERNEL_LINKAGE						\
	__attribute__((visibility("default"), used, aligned(4)))	\
	void name(__VA_ARGS__);						\
	__VACCEL_KERNEL_LINKAGE void name(__VA_ARGS__)

/* In C++, kernels have C linkage: the symbol is the plain name, unmangled. */
#if defined(__cplusplus)
#define __VACCEL_KERNEL_LINKAGE	extern "C"
#else
#define __VACCEL_KERNEL_LINKAGE
#endif

/*
 * VACCEL_LOCAL - place an object in workgroup-local memory
 *
 * For file-scope, non-static objects without an initializer (local memory
 * starts zeroed; clang refuses a non-zero initializer in the section).
 */
#define VACCEL_LOCAL \
	__attribute__((section(".bss.vaccel.local"), visibility("default")))

/* --- the work-item: read-only CSRs, enum drm_vaccel_csr of the uapi --- */

#define VACCEL_CSR_LOCAL_ID	0xcc0	/* x, y, z */
#define VACCEL_CSR_GROUP_ID	0xcc3
#define VACCEL_CSR_LOCAL_SIZE	0xcc6
#define VACCEL_CSR_NUM_GROUPS	0xcc9
#define VACCEL_CSR_GLOBAL_SIZE	0xccc
#define VACCEL_CSR_FLAT_LOCAL_ID 0xccf
#define VACCEL_CSR_GLOBAL_ID	0xcd0
#define VACCEL_CSR_LOCAL_BASE	0xcd3
#define VACCEL_CSR_LOCAL_MEM_SIZE 0xcd4

/*
 * A CSR that does not change during a work-item's life: not volatile, so
 * the compiler may read it once for several uses.
 */
#define __vaccel_csr(csr) __extension__ ({				\
	unsigned long __v;						\
	__asm__("csrr %0, %1" : "=r"(__v) : "i"(csr));			\
	__v;								\
})

/* One of three consecutive CSRs by dimension; @none past dimension 2. */
#define __vaccel_csr3(base, dim, none) __extension__ ({		\
	unsigned int __d = (dim), __r = (none);				\
	if (__d == 0)							\
		__r = __vaccel_csr((base));				\
	else if (__d == 1)						\
		__r = __vaccel_csr((base) + 1);				\
	else if (__d == 2)						\
		__r = __vaccel_csr((base) + 2);				\
	__r;								\
})

/* vaccel_local_id() - index of the work-item in its workgroup along @dim (0 past z) */
static inline __attribute__((always_inline)) unsigned int vaccel_local_id(unsigned int dim)
{
	return __vaccel_csr3(VACCEL_CSR_LOCAL_ID, dim, 0);
}

/* vaccel_group_id() - index of the workgroup in the grid along @dim (0 past z) */
static inline __attribute__((always_inline)) unsigned int vaccel_group_id(unsigned int dim)
{
	return __vaccel_csr3(VACCEL_CSR_GROUP_ID, dim, 0);
}

/* vaccel_local_size() - the workgroup size of the dispatch along @dim (1 past z) */
static inline __attribute__((always_inline)) unsigned int vaccel_local_size(unsigned int dim)
{
	return __vaccel_csr3(VACCEL_CSR_LOCAL_SIZE, dim, 1);
}

/* vaccel_num_groups() - workgroups in the grid along @dim (1 past z) */
static inline __attribute__((always_inline)) unsigned int vaccel_num_groups(unsigned int dim)
{
	return __vaccel_csr3(VACCEL_CSR_NUM_GROUPS, dim, 1);
}

/* vaccel_global_size() - the grid size in work-items along @dim (1 past z) */
static inline __attribute__((always_inline)) unsigned int vaccel_global_size(unsigned int dim)
{
	return __vaccel_csr3(VACCEL_CSR_GLOBAL_SIZE, dim, 1);
}

/* vaccel_global_id() - group id * local size + local id along @dim (0 past z) */
static inline __attribute__((always_inline)) unsigned int vaccel_global_id(unsigned int dim)
{
	return __vaccel_csr3(VACCEL_CSR_GLOBAL_ID, dim, 0);
}

/* vaccel_flat_local_id() - x + y * size x + z * size x * size y of the local id */
static inline __attribute__((always_inline)) unsigned int vaccel_flat_local_id(void)
{
	return __vaccel_csr(VACCEL_CSR_FLAT_LOCAL_ID);
}

/* vaccel_local_base() - the workgroup's local memory */
static inline __attribute__((always_inline)) void *vaccel_local_base(void)
{
	return (void *)__vaccel_csr(VACCEL_CSR_LOCAL_BASE);
}

/* vaccel_local_mem_size() - bytes of local memory the dispatch has */
static inline __attribute__((always_inline)) unsigned int vaccel_local_mem_size(void)
{
	return __vaccel_csr(VACCEL_CSR_LOCAL_MEM_SIZE);
}

/* The ends of the module's VACCEL_LOCAL objects (vaccel-kernel.ld). */
extern char __vaccel_local_start[] __attribute__((visibility("default")));
extern char __vaccel_local_end[] __attribute__((visibility("default")));

/* Bytes of local memory before the dynamic part: the module's, 16-aligned. */
static inline __attribute__((always_inline)) unsigned long __vaccel_static_local(void)
{
	unsigned long used = (unsigned long)__vaccel_local_end -
			     (unsigned long)__vaccel_local_start;

	return (used + 15) & ~15ul;
}

/*
 * vaccel_dynamic_local() - the launch's dynamic local memory: the
 * &vaccel_launch_options.dynamic_local_size bytes each workgroup gets
 * after the module's VACCEL_LOCAL objects, 16-byte aligned (CUDA's extern
 * __shared__ arrays)
 */
static inline __attribute__((always_inline)) void *vaccel_dynamic_local(void)
{
	return (char *)vaccel_local_base() + __vaccel_static_local();
}

/* vaccel_dynamic_local_size() - bytes at vaccel_dynamic_local(), 0 if none */
static inline __attribute__((always_inline)) unsigned int vaccel_dynamic_local_size(void)
{
	unsigned long size = vaccel_local_mem_size(), used = __vaccel_static_local();

	return size > used ? size - used : 0;
}

/* vaccel_instret() - instructions the work-item has retired so far */
static inline __attribute__((always_inline)) uint64_t vaccel_instret(void)
{
	uint64_t v;

	__asm__ volatile("rdinstret %0" : "=r"(v));
	return v;
}

/* vaccel_time_ns() - the engine clock, the host's CLOCK_MONOTONIC, in ns */
static inline __attribute__((always_inline)) uint64_t vaccel_time_ns(void)
{
	uint64_t v;

	__asm__ volatile("rdtime %0" : "=r"(v));
	return v;
}

/*
 * vaccel_barrier() - wait for every work-item of the workgroup
 *
 * Returns once every work-item of the workgroup that has not ended has
 * reached a barrier; what they stored before it, in local or global
 * memory, is then visible to all.  The custom-0 word 0x0000000b; also a
 * compiler barrier for memory.  Every work-item must reach the same
 * barriers, as in OpenCL (one that ended no longer counts).
 */
static inline __attribute__((always_inline)) void vaccel_barrier(void)
{
	__asm__ volatile(".4byte 0x0000000b" ::: "memory");
}

/* --- atomics: the A extension, real atomic operations on any memory --- */

/*
 * Relaxed read-modify-write operations on 32- or 64-bit integers, in
 * global or local memory, naturally aligned (a misaligned atomic faults).
 * Each returns the value before the operation.  They are atomic against
 * other work-items, other engines and the CPU.
 */
#define vaccel_atomic_add(p, v)	__atomic_fetch_add((p), (v), __ATOMIC_RELAXED)
#define vaccel_atomic_sub(p, v)	__atomic_fetch_sub((p), (v), __ATOMIC_RELAXED)
#define vaccel_atomic_and(p, v)	__atomic_fetch_and((p), (v), __ATOMIC_RELAXED)
#define vaccel_atomic_or(p, v)	__atomic_fetch_or((p), (v), __ATOMIC_RELAXED)
#define vaccel_atomic_xor(p, v)	__atomic_fetch_xor((p), (v), __ATOMIC_RELAXED)
#define vaccel_atomic_min(p, v)	__atomic_fetch_min((p), (v), __ATOMIC_RELAXED)
#define vaccel_atomic_max(p, v)	__atomic_fetch_max((p), (v), __ATOMIC_RELAXED)
#define vaccel_atomic_xchg(p, v) __atomic_exchange_n((p), (v), __ATOMIC_RELAXED)
#define vaccel_atomic_load(p)	__atomic_load_n((p), __ATOMIC_RELAXED)
#define vaccel_atomic_store(p, v) __atomic_store_n((p), (v), __ATOMIC_RELAXED)

/*
 * vaccel_atomic_cmpxchg() - store @new at @p if it holds @old
 *
 * Return: the value @p held; the exchange happened if it is @old.
 */
#define vaccel_atomic_cmpxchg(p, old, new) __extension__ ({		\
	__typeof__(*(p)) __old = (old);					\
	__atomic_compare_exchange_n((p), &__old, (new), false,		\
				    __ATOMIC_RELAXED, __ATOMIC_RELAXED); \
	__old;								\
})

/* vaccel_atomic_add_float() - atomic *@p += @v on a float; returns the old value */
static inline float vaccel_atomic_add_float(float *p, float v)
{
	uint32_t old = __atomic_load_n((uint32_t *)p, __ATOMIC_RELAXED), want;
	float f;

	do {
		__builtin_memcpy(&f, &old, 4);
		f += v;
		__builtin_memcpy(&want, &f, 4);
	} while (!__atomic_compare_exchange_n((uint32_t *)p, &old, want, true,
					      __ATOMIC_RELAXED, __ATOMIC_RELAXED));
	__builtin_memcpy(&f, &old, 4);
	return f;
}

/* --- floating point in single instructions --- */

static inline float vaccel_sqrtf(float x) { return __builtin_sqrtf(x); }
static inline double vaccel_sqrt(double x) { return __builtin_sqrt(x); }
static inline float vaccel_fabsf(float x) { return __builtin_fabsf(x); }
static inline double vaccel_fabs(double x) { return __builtin_fabs(x); }
static inline float vaccel_fminf(float a, float b) { return __builtin_fminf(a, b); }
static inline float vaccel_fmaxf(float a, float b) { return __builtin_fmaxf(a, b); }
static inline double vaccel_fmin(double a, double b) { return __builtin_fmin(a, b); }
static inline double vaccel_fmax(double a, double b) { return __builtin_fmax(a, b); }
/* vaccel_fmaf() - a * b + c rounded once */
static inline float vaccel_fmaf(float a, float b, float c) { return __builtin_fmaf(a, b, c); }
static inline double vaccel_fma(double a, double b, double c) { return __builtin_fma(a, b, c); }

/* --- the device runtime --- */

void *memcpy(void *dst, const void *src, size_t n);
void *memmove(void *dst, const void *src, size_t n);
void *memset(void *dst, int c, size_t n);
int memcmp(const void *a, const void *b, size_t n);

/*
 * vaccel_printf() - print from a kernel
 * @fmt: a printf format: %d %i %u %x %X %o %c %s %p %f %e %g %%, with the
 *	flags '-', '0', '+', ' ', '#', a width and a precision (each may be
 *	'*'), and the length modifiers hh, h, l, ll, z, t, j
 *
 * Formats into the module's print buffer, which the host reads with
 * vaccel_module_read_print().  A message is appended whole or not at
 * all: once the buffer is full, messages are dropped and counted.  Meant
 * for debugging; a work-item that prints runs many instructions.
 *
 * Return: the length of the message, or -1 if it was dropped.
 */
int vaccel_printf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#if defined(__cplusplus)
}
#endif

#endif /* VACCEL_KERNEL_H */
