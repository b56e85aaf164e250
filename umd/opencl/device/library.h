/* SPDX-License-Identifier: MIT */
/*
 * Copyright 2026 The vaccel authors
 *
 * library.h - the macros the OpenCL C files of the device library share:
 * the attributes of a builtin, and the vector forms of a scalar function.
 *
 * A builtin is defined with __attribute__((overloadable)), so that clang
 * gives it the mangled name of opencl-c.h's declaration that has the same
 * types.  The tiny ones are always_inline (OVERLOAD); the others (OVLD)
 * are left to the inliner of the IR step, so that a program that calls a
 * big one many times does not grow without bound.
 *
 * The device has no vector unit: a vector form applies the scalar
 * function to each component, in a loop that the IR step unrolls.  The
 * V_* macros define the form of width n from the scalar types' names
 * (uint and n = 4 make uint4); FOR_WIDTHS() defines the widths 2, 3, 4,
 * 8 and 16.  ALL_SPACES() defines a function that returns a second
 * result through a pointer, in each address space.
 */
#ifndef VACCEL_CL_DEVICE_LIBRARY_H
#define VACCEL_CL_DEVICE_LIBRARY_H

#define OVERLOAD	__attribute__((overloadable, always_inline))
#define OVLD		__attribute__((overloadable))

#define FOR_WIDTHS(M, ...) \
	M(2, __VA_ARGS__) M(3, __VA_ARGS__) M(4, __VA_ARGS__) \
	M(8, __VA_ARGS__) M(16, __VA_ARGS__)

#define FOR_INTEGERS(M) \
	M(char, uchar) M(short, ushort) M(int, uint) M(long, ulong)

/* R f(A x), component-wise. */
#define V_1(n, R, f, A)						\
	R##n OVLD f(A##n x)					\
	{							\
		R##n r = 0;					\
		for (int i = 0; i < n; i++)			\
			r[i] = f(x[i]);				\
		return r;					\
	}

/* R f(A x, B y) with both vectors. */
#define V_2(n, R, f, A, B)					\
	R##n OVLD f(A##n x, B##n y)				\
	{							\
		R##n r = 0;					\
		for (int i = 0; i < n; i++)			\
			r[i] = f(x[i], y[i]);			\
		return r;					\
	}

/* R f(A x, B y) with y scalar. */
#define V_2S(n, R, f, A, B)					\
	R##n OVLD f(A##n x, B y)				\
	{							\
		R##n r = 0;					\
		for (int i = 0; i < n; i++)			\
			r[i] = f(x[i], y);			\
		return r;					\
	}

/* R f(A x, B y) with x scalar. */
#define V_S2(n, R, f, A, B)					\
	R##n OVLD f(A x, B##n y)				\
	{							\
		R##n r = 0;					\
		for (int i = 0; i < n; i++)			\
			r[i] = f(x, y[i]);			\
		return r;					\
	}

/* R f(A x, B y, C z), all vectors. */
#define V_3(n, R, f, A, B, C)					\
	R##n OVLD f(A##n x, B##n y, C##n z)			\
	{							\
		R##n r = 0;					\
		for (int i = 0; i < n; i++)			\
			r[i] = f(x[i], y[i], z[i]);		\
		return r;					\
	}

/* R f(A x, B y, C z) with y and z scalar (clamp). */
#define V_3SS(n, R, f, A, B, C)					\
	R##n OVLD f(A##n x, B y, C z)				\
	{							\
		R##n r = 0;					\
		for (int i = 0; i < n; i++)			\
			r[i] = f(x[i], y, z);			\
		return r;					\
	}

/* R f(A x, B y, C z) with z scalar (mix). */
#define V_3S(n, R, f, A, B, C)					\
	R##n OVLD f(A##n x, B##n y, C z)			\
	{							\
		R##n r = 0;					\
		for (int i = 0; i < n; i++)			\
			r[i] = f(x[i], y[i], z);		\
		return r;					\
	}

/* R f(A x, B y, C z) with x and y scalar (smoothstep). */
#define V_SS3(n, R, f, A, B, C)					\
	R##n OVLD f(A x, B y, C##n z)				\
	{							\
		R##n r = 0;					\
		for (int i = 0; i < n; i++)			\
			r[i] = f(x, y, z[i]);			\
		return r;					\
	}

/*
 * R f(T x, AS P *p) in address space @AS: the scalar form computes into a
 * private P and stores it; the vector form calls the __private scalar
 * form per component, which is why that space comes first.
 */
#define POINTER_FORMS(AS, f, R, T, P, ...)				\
	R OVLD f(T x, AS P *p)						\
	{								\
		P v;							\
		R r;							\
									\
		__VA_ARGS__;						\
		*p = v;							\
		return r;						\
	}								\
	POINTER_VECTOR(2, AS, f, R, T, P) POINTER_VECTOR(3, AS, f, R, T, P) \
	POINTER_VECTOR(4, AS, f, R, T, P) POINTER_VECTOR(8, AS, f, R, T, P) \
	POINTER_VECTOR(16, AS, f, R, T, P)

#define POINTER_VECTOR(n, AS, f, R, T, P)				\
	R##n OVLD f(T##n x, AS P##n *p)					\
	{								\
		R##n r = 0;						\
		P##n v = 0;						\
									\
		for (int i = 0; i < n; i++) {				\
			P s;						\
									\
			r[i] = f(x[i], &s);				\
			v[i] = s;					\
		}							\
		*p = v;							\
		return r;						\
	}

#define ALL_SPACES(f, R, T, P, ...)					\
	POINTER_FORMS(__private, f, R, T, P, __VA_ARGS__)		\
	POINTER_FORMS(__global, f, R, T, P, __VA_ARGS__)		\
	POINTER_FORMS(__local, f, R, T, P, __VA_ARGS__)

#endif /* VACCEL_CL_DEVICE_LIBRARY_H */
