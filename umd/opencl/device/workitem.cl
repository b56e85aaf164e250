// SPDX-License-Identifier: MIT
/*
 * Copyright 2026 The vaccel authors
 *
 * workitem.cl - the device library of OpenCL C: the work-item functions
 * and the synchronisation functions (OpenCL C 1.2, 6.12.1 and 6.12.8-9).
 *
 * Built by clang-14 for the device as LLVM bitcode, which the IR step
 * links into every program (lower.c) and inlines: written in OpenCL C with
 * __attribute__((overloadable)), every function gets the mangled name the
 * programs call, from clang itself.
 *
 * The ids and sizes come from the engine's CSRs (vaccel_kernel.h).  The
 * global offset and get_work_dim() come from the hidden header of the
 * argument block (header() below).  A dimension past
 * the third has size 1, id 0 and offset 0, as the specification asks for
 * any dimension past get_work_dim() - 1; the host describes the unused
 * dimensions of a launch that way too.
 */

#define CSR_LOCAL_ID		0xcc0
#define CSR_GROUP_ID		0xcc3
#define CSR_LOCAL_SIZE		0xcc6
#define CSR_NUM_GROUPS		0xcc9
#define CSR_GLOBAL_SIZE		0xccc
#define CSR_GLOBAL_ID		0xcd0

/* Offsets in the hidden header (cl_abi.h). */
#define HEADER_OFFSET		0
#define HEADER_WORK_DIM		24
#define HEADER_SPLIT_DIM	44
#define HEADER_SPLIT_START	48
#define HEADER_SPLIT_SIZE	56

/*
 * A CSR that does not change during a work-item's life: not volatile.
 * The ids and sizes are below 2^32, zero-extended (a launch's grid is at
 * most 2^32 - 1 work-items along each dimension): telling the compiler
 * spares the zero-extensions of every (uint) of them.
 */
#define CSR(c) __extension__ ({ \
	ulong __v; __asm__("csrr %0, %1" : "=r"(__v) : "i"(c)); \
	__builtin_assume(__v <= 0xffffffffUL); __v; })

/* CSR @base + @d for a dimension below 3, else @none. */
#define CSR3(base, d, none) \
	((d) == 0 ? CSR(base) : (d) == 1 ? CSR((base) + 1) : (d) == 2 ? CSR((base) + 2) : (none))

#define OVERLOAD __attribute__((overloadable, always_inline))

/*
 * The hidden header of the launch's argument block: the address that
 * __vaccel_header_va() returns (VACCEL_CL_HEADER_FN).  The IR step
 * (lower.c) replaces each call that the optimiser brought into an entry
 * by the entry's own pointer to the block, so that reading the global
 * offset costs one load; a call left in another function reads tp, where
 * the entry then puts the block.  The header does not change during a
 * launch: the calls may be merged and moved freely.
 */
ulong __vaccel_header_va(void) __attribute__((const));

static __constant uchar *header(void)
{
	return (__constant uchar *)__vaccel_header_va();
}

uint OVERLOAD get_work_dim(void)
{
	return *(__constant uint *)(header() + HEADER_WORK_DIM);
}

/*
 * A grid of more work-items than one DISPATCH takes runs as several
 * launches, each a slab of the grid along one dimension (kernel.c of the
 * runtime): the header then names that dimension, the slab's first
 * work-item along it, and the whole grid's size along it.  Each slab's
 * global offset already includes its start, so get_global_id() stays a
 * CSR read and an add; the rarer functions below correct for the slab.
 */
static bool split(uint d)
{
	return *(__constant uint *)(header() + HEADER_SPLIT_DIM) == d + 1;
}

static ulong split_start(void)
{
	return *(__constant ulong *)(header() + HEADER_SPLIT_START);
}

size_t OVERLOAD get_global_offset(uint d)
{
	if (d >= 3)
		return 0;
	return ((__constant ulong *)(header() + HEADER_OFFSET))[d] -
		(split(d) ? split_start() : 0);
}

size_t OVERLOAD get_global_size(uint d)
{
	if (d < 3 && split(d))
		return *(__constant ulong *)(header() + HEADER_SPLIT_SIZE);
	return (uint)CSR3(CSR_GLOBAL_SIZE, d, 1);
}

size_t OVERLOAD get_global_id(uint d)
{
	return (uint)CSR3(CSR_GLOBAL_ID, d, 0) +
		(d < 3 ? ((__constant ulong *)(header() + HEADER_OFFSET))[d] : 0);
}

size_t OVERLOAD get_local_size(uint d)
{
	return (uint)CSR3(CSR_LOCAL_SIZE, d, 1);
}

size_t OVERLOAD get_local_id(uint d)
{
	return (uint)CSR3(CSR_LOCAL_ID, d, 0);
}

size_t OVERLOAD get_num_groups(uint d)
{
	/* Uniform workgroups: the grid's size is a multiple of theirs. */
	if (d < 3 && split(d))
		return get_global_size(d) / get_local_size(d);
	return (uint)CSR3(CSR_NUM_GROUPS, d, 1);
}

size_t OVERLOAD get_group_id(uint d)
{
	if (d < 3 && split(d))
		return (uint)CSR3(CSR_GROUP_ID, d, 0) + split_start() / get_local_size(d);
	return (uint)CSR3(CSR_GROUP_ID, d, 0);
}

/*
 * The engine's barrier (custom-0 0x0000000b) makes what the workgroup
 * stored before it, in local and global memory, visible to all of it;
 * the fence instruction orders each work-item's own accesses for the
 * fences.
 */
void OVERLOAD barrier(cl_mem_fence_flags flags)
{
	__asm__ volatile(".4byte 0x0000000b" ::: "memory");
}

void OVERLOAD mem_fence(cl_mem_fence_flags flags)
{
	__asm__ volatile("fence rw, rw" ::: "memory");
}

void OVERLOAD read_mem_fence(cl_mem_fence_flags flags)
{
	__asm__ volatile("fence r, r" ::: "memory");
}

void OVERLOAD write_mem_fence(cl_mem_fence_flags flags)
{
	__asm__ volatile("fence w, w" ::: "memory");
}
