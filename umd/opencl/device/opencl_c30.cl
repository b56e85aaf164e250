// SPDX-License-Identifier: MIT
/*
 * Copyright 2026 The vaccel authors
 *
 * opencl_c30.cl - what OpenCL C 3.0 adds to 1.2 that a device without the
 * optional features must have all the same, since the device reports
 * OpenCL C 3.0 among its versions (CL_DEVICE_OPENCL_C_ALL_VERSIONS) and a
 * program built with -cl-std=CL3.0 may call it:
 *
 * - get_global_linear_id(), get_local_linear_id() and
 *   get_enqueued_local_size() (6.15.1);
 * - ctz() on every integer type and vector (6.15.4);
 * - work_group_barrier() (6.15.8) and atomic_work_item_fence() (6.15.10);
 * - the atomic functions with an explicit order and scope (6.15.12.7):
 *   atomic_init(), atomic_{load,store,exchange}_explicit(),
 *   atomic_compare_exchange_{strong,weak}_explicit() on atomic_int,
 *   _uint, _long, _ulong, _float and _double; atomic_fetch_{add,sub,or,
 *   xor,and,min,max}_explicit() on the integer ones (add and sub on
 *   atomic_uintptr_t by a ptrdiff_t, and the mixed forms of the pointer
 *   types below); atomic_flag_test_and_set_explicit()
 *   and atomic_flag_clear_explicit(); each on global and local memory,
 *   with and without the scope argument.  The specification ties the
 *   forms without the scope to the optional feature of device scope,
 *   which the device does not report, and clang's table of builtins then
 *   does not declare them, but opencl-c.h does.  The forms without
 *   _explicit need sequential consistency too, and neither declares them.
 *
 * Built with -cl-std=CL3.0 (the rest of the library is OpenCL C 1.2):
 * memory_order, memory_scope and the atomic types are 3.0's.  The device
 * reports the relaxed order and the work-group scope as its atomic
 * capabilities, the minimum of 3.0 (platform.c), but every function here
 * is as strong as sequential consistency at device scope, whatever order
 * and scope it is given: the engine runs an atomic instruction as the
 * host's fully ordered atomic operation, and a fence of the A extension as
 * a full fence.  Workgroups are uniform (no
 * CL_DEVICE_NON_UNIFORM_WORK_GROUP_SUPPORT): the enqueued local size is
 * every workgroup's.
 */

#include "library.h"

#define SC	__ATOMIC_SEQ_CST
#define DEVICE	__OPENCL_MEMORY_SCOPE_DEVICE

/* --- work-items --------------------------------------------------------- */

size_t OVERLOAD get_enqueued_local_size(uint d)
{
	return get_local_size(d);
}

size_t OVERLOAD get_global_linear_id(void)
{
	return ((get_global_id(2) - get_global_offset(2)) * get_global_size(1) +
		(get_global_id(1) - get_global_offset(1))) * get_global_size(0) +
	       (get_global_id(0) - get_global_offset(0));
}

size_t OVERLOAD get_local_linear_id(void)
{
	return (get_local_id(2) * get_local_size(1) + get_local_id(1)) * get_local_size(0) +
	       get_local_id(0);
}

/* --- ctz ---------------------------------------------------------------- */

/* The trailing zeros of @x, the width of @T when @x is 0. */
#define CTZ_SCALAR(T, UT)						\
	T OVERLOAD ctz(T x)						\
	{								\
		return x ? (T)__builtin_ctzl((ulong)(UT)x) : (T)(sizeof(T) * 8); \
	}

#define CTZ_TYPE(T, UT)			\
	CTZ_SCALAR(T, UT)		\
	CTZ_SCALAR(UT, UT)		\
	FOR_WIDTHS(V_1, T, ctz, T)	\
	FOR_WIDTHS(V_1, UT, ctz, UT)

FOR_INTEGERS(CTZ_TYPE)

/* --- barriers and fences ------------------------------------------------ */

void OVERLOAD work_group_barrier(cl_mem_fence_flags flags)
{
	barrier(flags);
}

void OVERLOAD work_group_barrier(cl_mem_fence_flags flags, memory_scope scope)
{
	barrier(flags);
}

/* A relaxed fence orders nothing; any other is a full fence. */
void OVERLOAD atomic_work_item_fence(cl_mem_fence_flags flags, memory_order order,
				     memory_scope scope)
{
	if (order != memory_order_relaxed)
		__asm__ volatile("fence rw, rw" ::: "memory");
}

/* --- atomics ------------------------------------------------------------ */

/* The functions of every atomic type @A of value type @C, in space @AS. */
#define ATOMIC_COMMON(AS, A, C)							\
	void OVERLOAD atomic_init(volatile AS A *p, C v)			\
	{									\
		__opencl_atomic_init(p, v);					\
	}									\
	void OVERLOAD atomic_store_explicit(volatile AS A *p, C v, memory_order order) \
	{									\
		__opencl_atomic_store(p, v, SC, DEVICE);			\
	}									\
	void OVERLOAD atomic_store_explicit(volatile AS A *p, C v, memory_order order, \
					    memory_scope scope)			\
	{									\
		__opencl_atomic_store(p, v, SC, DEVICE);			\
	}									\
	C OVERLOAD atomic_load_explicit(volatile AS A *p, memory_order order)	\
	{									\
		return __opencl_atomic_load(p, SC, DEVICE);			\
	}									\
	C OVERLOAD atomic_load_explicit(volatile AS A *p, memory_order order,	\
					memory_scope scope)			\
	{									\
		return __opencl_atomic_load(p, SC, DEVICE);			\
	}									\
	C OVERLOAD atomic_exchange_explicit(volatile AS A *p, C v, memory_order order) \
	{									\
		return __opencl_atomic_exchange(p, v, SC, DEVICE);		\
	}									\
	C OVERLOAD atomic_exchange_explicit(volatile AS A *p, C v, memory_order order, \
					    memory_scope scope)			\
	{									\
		return __opencl_atomic_exchange(p, v, SC, DEVICE);		\
	}									\
	ATOMIC_CMPXCHG(AS, A, C, __global)					\
	ATOMIC_CMPXCHG(AS, A, C, __local)					\
	ATOMIC_CMPXCHG(AS, A, C, __private)

/* The compare-exchanges of @A in @AS with the expected value in @EAS. */
#define ATOMIC_CMPXCHG(AS, A, C, EAS)						\
	ATOMIC_CMPXCHG_ONE(strong, AS, A, C, EAS)				\
	ATOMIC_CMPXCHG_ONE(weak, AS, A, C, EAS)

/*
 * The weak form may fail spuriously, the strong form may not; an lr/sc
 * loop that retries until the values differ is the strong form, and a
 * valid weak one.
 */
#define ATOMIC_CMPXCHG_ONE(kind, AS, A, C, EAS)					\
	bool OVERLOAD atomic_compare_exchange_##kind##_explicit(		\
		volatile AS A *p, EAS C *expected, C desired,			\
		memory_order success, memory_order failure)			\
	{									\
		return __opencl_atomic_compare_exchange_strong(p, expected, desired, \
							       SC, SC, DEVICE);	\
	}									\
	bool OVERLOAD atomic_compare_exchange_##kind##_explicit(		\
		volatile AS A *p, EAS C *expected, C desired,			\
		memory_order success, memory_order failure, memory_scope scope)	\
	{									\
		return __opencl_atomic_compare_exchange_strong(p, expected, desired, \
							       SC, SC, DEVICE);	\
	}

/* atomic_fetch_@key_explicit() on @A of value type @C, operand type @M. */
#define ATOMIC_FETCH(key, AS, A, C, M)						\
	C OVERLOAD atomic_fetch_##key##_explicit(volatile AS A *p, M v,		\
						 memory_order order)		\
	{									\
		return __opencl_atomic_fetch_##key(p, v, SC, DEVICE);		\
	}									\
	C OVERLOAD atomic_fetch_##key##_explicit(volatile AS A *p, M v,		\
						 memory_order order,		\
						 memory_scope scope)		\
	{									\
		return __opencl_atomic_fetch_##key(p, v, SC, DEVICE);		\
	}

#define ATOMIC_INTEGER(AS, A, C)						\
	ATOMIC_COMMON(AS, A, C)							\
	ATOMIC_FETCH(add, AS, A, C, C)						\
	ATOMIC_FETCH(sub, AS, A, C, C)						\
	ATOMIC_FETCH(or, AS, A, C, C)						\
	ATOMIC_FETCH(xor, AS, A, C, C)						\
	ATOMIC_FETCH(and, AS, A, C, C)						\
	ATOMIC_FETCH(min, AS, A, C, C)						\
	ATOMIC_FETCH(max, AS, A, C, C)

/* atomic_flag is an atomic_int: set is an exchange with 1, clear a store. */
#define ATOMIC_FLAG(AS)								\
	bool OVERLOAD atomic_flag_test_and_set_explicit(volatile AS atomic_flag *p, \
							memory_order order)	\
	{									\
		return __opencl_atomic_exchange(p, 1, SC, DEVICE);		\
	}									\
	void OVERLOAD atomic_flag_clear_explicit(volatile AS atomic_flag *p,	\
						 memory_order order)		\
	{									\
		__opencl_atomic_store(p, 0, SC, DEVICE);			\
	}									\
	bool OVERLOAD atomic_flag_test_and_set_explicit(volatile AS atomic_flag *p, \
							memory_order order,	\
							memory_scope scope)	\
	{									\
		return __opencl_atomic_exchange(p, 1, SC, DEVICE);		\
	}									\
	void OVERLOAD atomic_flag_clear_explicit(volatile AS atomic_flag *p,	\
						 memory_order order,		\
						 memory_scope scope)		\
	{									\
		__opencl_atomic_store(p, 0, SC, DEVICE);			\
	}

#define ATOMIC_SPACE(AS)							\
	ATOMIC_INTEGER(AS, atomic_int, int)					\
	ATOMIC_INTEGER(AS, atomic_uint, uint)					\
	ATOMIC_INTEGER(AS, atomic_long, long)					\
	ATOMIC_INTEGER(AS, atomic_ulong, ulong)					\
	ATOMIC_COMMON(AS, atomic_float, float)					\
	ATOMIC_COMMON(AS, atomic_double, double)				\
	ATOMIC_FETCH(add, AS, atomic_uintptr_t, uintptr_t, ptrdiff_t)		\
	ATOMIC_FETCH(sub, AS, atomic_uintptr_t, uintptr_t, ptrdiff_t)		\
	ATOMIC_PTR_MIXED(AS, or)						\
	ATOMIC_PTR_MIXED(AS, xor)						\
	ATOMIC_PTR_MIXED(AS, and)						\
	ATOMIC_PTR_MIXED(AS, min)						\
	ATOMIC_FLAG(AS)

/*
 * opencl-c.h also declares or, xor, and and min of an atomic_intptr_t by
 * a uintptr_t and of an atomic_uintptr_t by an intptr_t: the operand
 * converts to the object's type, as in C.
 */
#define ATOMIC_PTR_MIXED(AS, key)						\
	ATOMIC_FETCH(key, AS, atomic_intptr_t, intptr_t, uintptr_t)		\
	ATOMIC_FETCH(key, AS, atomic_uintptr_t, uintptr_t, intptr_t)

ATOMIC_SPACE(__global)
ATOMIC_SPACE(__local)
