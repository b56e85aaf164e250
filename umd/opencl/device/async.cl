// SPDX-License-Identifier: MIT
/*
 * Copyright 2026 The vaccel authors
 *
 * async.cl - the async copies of OpenCL C 1.2 (6.12.10):
 * async_work_group_copy and async_work_group_strided_copy between global
 * and local memory, for every type and width; wait_group_events; prefetch.
 *
 * The device is SPMD, and the specification has every work-item of the
 * group call a copy with the same arguments.  So each work-item copies
 * its share at once, elements lid, lid + size, ... (lid its id in the
 * workgroup, flattened, and size the workgroup's), and wait_group_events
 * is a barrier, after which the whole copy is visible to the group.  The
 * event a copy returns is the one it was given (zero for a new copy),
 * since there is nothing left to wait for but the barrier.  prefetch does
 * nothing: memory has no cache to warm.
 */

#include "device/library.h"

/* The work-item's index in its workgroup, and the workgroup's size. */
static size_t OVERLOAD group_item(void)
{
	return get_local_id(0) + get_local_size(0) *
	       (get_local_id(1) + get_local_size(1) * get_local_id(2));
}

static size_t OVERLOAD group_items(void)
{
	return get_local_size(0) * get_local_size(1) * get_local_size(2);
}

#define ASYNC_COPY(T)							\
	event_t OVLD async_work_group_copy(__local T *dst, const __global T *src, \
					   size_t num, event_t event)	\
	{								\
		for (size_t i = group_item(); i < num; i += group_items()) \
			dst[i] = src[i];				\
		return event;						\
	}								\
	event_t OVLD async_work_group_copy(__global T *dst, const __local T *src, \
					   size_t num, event_t event)	\
	{								\
		for (size_t i = group_item(); i < num; i += group_items()) \
			dst[i] = src[i];				\
		return event;						\
	}								\
	event_t OVLD async_work_group_strided_copy(__local T *dst,	\
						   const __global T *src, \
						   size_t num, size_t stride, \
						   event_t event)	\
	{								\
		for (size_t i = group_item(); i < num; i += group_items()) \
			dst[i] = src[i * stride];			\
		return event;						\
	}								\
	event_t OVLD async_work_group_strided_copy(__global T *dst,	\
						   const __local T *src, \
						   size_t num, size_t stride, \
						   event_t event)	\
	{								\
		for (size_t i = group_item(); i < num; i += group_items()) \
			dst[i * stride] = src[i];			\
		return event;						\
	}								\
	void OVERLOAD prefetch(const __global T *p, size_t num)		\
	{								\
	}

#define ASYNC_COPY_N(n, T)	ASYNC_COPY(T##n)

#define ASYNC_TYPE(T)	ASYNC_COPY(T) FOR_WIDTHS(ASYNC_COPY_N, T)

ASYNC_TYPE(char)
ASYNC_TYPE(uchar)
ASYNC_TYPE(short)
ASYNC_TYPE(ushort)
ASYNC_TYPE(int)
ASYNC_TYPE(uint)
ASYNC_TYPE(long)
ASYNC_TYPE(ulong)
ASYNC_TYPE(float)
ASYNC_TYPE(double)

void OVERLOAD wait_group_events(int num_events, event_t *event_list)
{
	barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
}
