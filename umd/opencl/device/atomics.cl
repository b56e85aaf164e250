// SPDX-License-Identifier: MIT
/*
 * Copyright 2026 The vaccel authors
 *
 * atomics.cl - the atomic functions of OpenCL C 1.2 (6.12.11): atomic_add,
 * _sub, _xchg, _inc, _dec, _cmpxchg, _min, _max, _and, _or and _xor on
 * 32-bit integers of global and local memory, atomic_xchg on float; the
 * same under the names atom_* of the 32-bit extensions
 * (cl_khr_{global,local}_int32_{base,extended}_atomics), and atom_* on
 * long and ulong (cl_khr_int64_{base,extended}_atomics).
 *
 * Each is one instruction of the A extension (amoadd, amoswap, amoand,
 * amoor, amoxor, amomin[u], amomax[u], .w or .d), or an lr/sc loop for
 * cmpxchg, through clang's __atomic builtins.  The engine executes them
 * as the host's atomic operations on the host page, the same for every
 * compute unit and for the CPU, and local memory is host memory too: so
 * they are atomic across the whole device.  OpenCL 1.2's atomics are
 * relaxed; the engine's AMOs are fully ordered anyway.
 *
 * opencl-c.h declares the atom_* functions only when the extensions are
 * enabled, which the library's own build does not do: the definitions
 * below have the declarations' exact types, so that clang gives them the
 * names the programs call.
 */

#define OVERLOAD __attribute__((overloadable, always_inline))

#define RLX __ATOMIC_RELAXED

/* The two-operand functions of one name, on type @T in address space @AS. */
#define ATOMIC_OP(name, builtin, AS, T) \
	T OVERLOAD name(volatile AS T *p, T v) { return builtin(p, v, RLX); }

#define ATOMIC_INCDEC(name, builtin, AS, T) \
	T OVERLOAD name(volatile AS T *p) { return builtin(p, (T)1, RLX); }

#define ATOMIC_CMPXCHG(name, AS, T)						\
	T OVERLOAD name(volatile AS T *p, T cmp, T v)				\
	{									\
		__atomic_compare_exchange_n(p, &cmp, v, false, RLX, RLX);	\
		return cmp;							\
	}

/* Every function of prefix @pre (atomic or atom) on @T in @AS. */
#define ATOMIC_ALL(pre, AS, T)						\
	ATOMIC_OP(pre##_add, __atomic_fetch_add, AS, T)			\
	ATOMIC_OP(pre##_sub, __atomic_fetch_sub, AS, T)			\
	ATOMIC_OP(pre##_xchg, __atomic_exchange_n, AS, T)		\
	ATOMIC_INCDEC(pre##_inc, __atomic_fetch_add, AS, T)		\
	ATOMIC_INCDEC(pre##_dec, __atomic_fetch_sub, AS, T)		\
	ATOMIC_CMPXCHG(pre##_cmpxchg, AS, T)				\
	ATOMIC_OP(pre##_min, __atomic_fetch_min, AS, T)			\
	ATOMIC_OP(pre##_max, __atomic_fetch_max, AS, T)			\
	ATOMIC_OP(pre##_and, __atomic_fetch_and, AS, T)			\
	ATOMIC_OP(pre##_or, __atomic_fetch_or, AS, T)			\
	ATOMIC_OP(pre##_xor, __atomic_fetch_xor, AS, T)

#define ATOMIC_SPACES(pre, T)		\
	ATOMIC_ALL(pre, __global, T)	\
	ATOMIC_ALL(pre, __local, T)

ATOMIC_SPACES(atomic, int)
ATOMIC_SPACES(atomic, uint)
ATOMIC_SPACES(atom, int)
ATOMIC_SPACES(atom, uint)
ATOMIC_SPACES(atom, long)
ATOMIC_SPACES(atom, ulong)

/* atomic_xchg on float: amoswap.w of its bits. */
#define ATOMIC_XCHG_FLOAT(AS)							\
	float OVERLOAD atomic_xchg(volatile AS float *p, float v)		\
	{									\
		return as_float(__atomic_exchange_n((volatile AS uint *)p,	\
						    as_uint(v), RLX));		\
	}

ATOMIC_XCHG_FLOAT(__global)
ATOMIC_XCHG_FLOAT(__local)
