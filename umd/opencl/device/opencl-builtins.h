/* SPDX-License-Identifier: MIT */
/*
 * Copyright 2026 The vaccel authors
 *
 * opencl-builtins.h - the declarations of the OpenCL C builtins that
 * clang-14's own table of builtins lacks or declares wrongly for OpenCL C
 * 1.2, for every OpenCL C program that vaccel-cc compiles (-include):
 *
 * - the half loads and stores (6.12.7): vload_half{,n}, vloada_halfn,
 *   vstore_half{,n}{,_rte,_rtz,_rtp,_rtn} and vstorea_halfn{,...}, from
 *   and to float and double.  The table declares them only with
 *   cl_khr_fp16, which the device does not have and OpenCL C 1.2 does not
 *   ask for: half is a storage format without it.
 * - wait_group_events(), which the table declares with a generic pointer
 *   whatever the language version; OpenCL C 1.2 has no generic address
 *   space, and its event list is private.
 *
 * vaccel-cc declares the builtins from that table
 * (-fdeclare-opencl-builtins), which costs a fraction of parsing
 * opencl-c.h.  The table is looked up only for a name that nothing
 * declares, so these declarations replace its own.  The definitions are
 * the device library's (vload.cl, async.cl); the types are opencl-c.h's,
 * so the mangled names are the same.
 */
#ifndef VACCEL_OPENCL_BUILTINS_H
#define VACCEL_OPENCL_BUILTINS_H

#define VCL_HALF_FN	__attribute__((overloadable))

/* The loads, from address space AS. */
#define VCL_HALF_LOAD_N(n, AS)						\
	float##n VCL_HALF_FN vload_half##n(size_t offset, const AS half *p); \
	float##n VCL_HALF_FN vloada_half##n(size_t offset, const AS half *p);
#define VCL_HALF_LOADS(AS)						\
	float VCL_HALF_FN vload_half(size_t offset, const AS half *p);	\
	VCL_HALF_LOAD_N(2, AS) VCL_HALF_LOAD_N(3, AS) VCL_HALF_LOAD_N(4, AS) \
	VCL_HALF_LOAD_N(8, AS) VCL_HALF_LOAD_N(16, AS)

/* The stores of T, into address space AS, with rounding suffix sfx. */
#define VCL_HALF_STORE_N(n, T, AS, sfx)					\
	void VCL_HALF_FN vstore_half##n##sfx(T##n data, size_t offset, AS half *p); \
	void VCL_HALF_FN vstorea_half##n##sfx(T##n data, size_t offset, AS half *p);
#define VCL_HALF_STORE(T, AS, sfx)					\
	void VCL_HALF_FN vstore_half##sfx(T data, size_t offset, AS half *p); \
	VCL_HALF_STORE_N(2, T, AS, sfx) VCL_HALF_STORE_N(3, T, AS, sfx)	\
	VCL_HALF_STORE_N(4, T, AS, sfx) VCL_HALF_STORE_N(8, T, AS, sfx)	\
	VCL_HALF_STORE_N(16, T, AS, sfx)
#define VCL_HALF_STORES_MODES(T, AS)					\
	VCL_HALF_STORE(T, AS, ) VCL_HALF_STORE(T, AS, _rte)		\
	VCL_HALF_STORE(T, AS, _rtz) VCL_HALF_STORE(T, AS, _rtp)		\
	VCL_HALF_STORE(T, AS, _rtn)

#ifdef cl_khr_fp64
#define VCL_HALF_STORES(AS)						\
	VCL_HALF_STORES_MODES(float, AS) VCL_HALF_STORES_MODES(double, AS)
#else
#define VCL_HALF_STORES(AS) VCL_HALF_STORES_MODES(float, AS)
#endif

VCL_HALF_LOADS(__constant)
VCL_HALF_LOADS(__global)
VCL_HALF_LOADS(__local)
VCL_HALF_LOADS(__private)
VCL_HALF_STORES(__global)
VCL_HALF_STORES(__local)
VCL_HALF_STORES(__private)

void VCL_HALF_FN wait_group_events(int num_events, event_t *event_list);

#undef VCL_HALF_STORES
#undef VCL_HALF_STORES_MODES
#undef VCL_HALF_STORE
#undef VCL_HALF_STORE_N
#undef VCL_HALF_LOADS
#undef VCL_HALF_LOAD_N
#undef VCL_HALF_FN

#endif /* VACCEL_OPENCL_BUILTINS_H */
