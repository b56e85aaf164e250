/* SPDX-License-Identifier: MIT */
/*
 * Copyright 2026 The vaccel authors
 */
#ifndef _VACCEL_ACCEL_H_
#define _VACCEL_ACCEL_H_

#include "drm.h"

#if defined(__cplusplus)
extern "C" {
#endif

/**
 * DOC: vaccel uapi
 *
 * The user-space interface of vaccel, the virtual compute accelerator.
 *
 * Rules every structure here follows, so that one header serves 32-bit and
 * 64-bit user space alike and can grow without breaking anybody:
 *
 * - Every structure is 8-byte aligned and sized, with explicit ``pad`` or
 *   ``reserved`` fields.  The kernel rejects a non-zero pad or reserved field
 *   with ``-EINVAL``, so that those bits can be given a meaning later.
 * - Pointers are carried in ``__u64`` fields.
 * - Ioctl numbers and enum values are append-only: a value, once released,
 *   is never reused or removed.
 * - A field added later means "the old behaviour" when it is zero.
 * - Invalid user input gets ``-EINVAL`` (a malformed request), ``-EFAULT``
 *   (a user pointer that cannot be read or written) or the errno named at
 *   the ioctl, and the kernel log stays quiet about it.
 */

/**
 * DOC: uapi version
 *
 * %DRM_VACCEL_UAPI_MAJOR changes only if the interface breaks (it never
 * should); %DRM_VACCEL_UAPI_MINOR grows with every addition.  Both are
 * reported by %DRM_VACCEL_QUERY_DEVICE and by ``DRM_IOCTL_VERSION``.
 */
#define DRM_VACCEL_UAPI_MAJOR	1
#define DRM_VACCEL_UAPI_MINOR	0

/**
 * enum drm_vaccel_ioctl_id - ioctl numbers, offsets from %DRM_COMMAND_BASE
 *
 * Append-only: new ioctls take the next free number.
 */
enum drm_vaccel_ioctl_id {
	/** @DRM_VACCEL_QUERY: query device information, see &struct drm_vaccel_query */
	DRM_VACCEL_QUERY = 0,
};

/**
 * enum drm_vaccel_engine_class - the kinds of engine a device has
 */
enum drm_vaccel_engine_class {
	/** @DRM_VACCEL_ENGINE_CLASS_COMPUTE: executes every packet, compute kernels included */
	DRM_VACCEL_ENGINE_CLASS_COMPUTE = 0,
	/** @DRM_VACCEL_ENGINE_CLASS_COPY: executes copy, fill and synchronisation packets */
	DRM_VACCEL_ENGINE_CLASS_COPY = 1,
	/**
	 * @DRM_VACCEL_ENGINE_CLASS_PAGING: executes the page-table updates of
	 * asynchronous VM_BIND.  Not available to user contexts.
	 */
	DRM_VACCEL_ENGINE_CLASS_PAGING = 2,
	/** @DRM_VACCEL_ENGINE_CLASS_COUNT: number of engine classes */
	DRM_VACCEL_ENGINE_CLASS_COUNT,
};

/**
 * enum drm_vaccel_preempt_granularity - where an engine can stop work
 *
 * An engine asked to preempt stops at the next point of its granularity,
 * saves what it needs to resume there and reports the preemption.  The
 * finer the granularity, the lower the preemption latency.
 */
enum drm_vaccel_preempt_granularity {
	/** @DRM_VACCEL_PREEMPT_DMA_BUFFER: between two DMA buffers only */
	DRM_VACCEL_PREEMPT_DMA_BUFFER = 0,
	/** @DRM_VACCEL_PREEMPT_PACKET: between two packets of a DMA buffer */
	DRM_VACCEL_PREEMPT_PACKET = 1,
	/** @DRM_VACCEL_PREEMPT_WORKGROUP: between two workgroups of a dispatch */
	DRM_VACCEL_PREEMPT_WORKGROUP = 2,
	/** @DRM_VACCEL_PREEMPT_INSTRUCTION: between two instructions of a kernel */
	DRM_VACCEL_PREEMPT_INSTRUCTION = 3,
};

/**
 * define DRM_VACCEL_DEVICE_SINGLE_USE - single use flag of &drm_vaccel_device_info.flags
 *
 * The device has a single address space: one open file at a time may use
 * it, and opening it again while it is open fails with ``-EBUSY`` (the
 * MCDM "Single Use" device).
 */
#define DRM_VACCEL_DEVICE_SINGLE_USE	(1u << 0)

/**
 * struct drm_vaccel_device_info - answer to %DRM_VACCEL_QUERY_DEVICE
 *
 * The whole device in one structure: identity, version, engine counts and
 * the limits of the address space.  Fields are only ever appended; see
 * &struct drm_vaccel_query for how old and new user space read it.  The
 * first released size, the smallest buffer the query accepts, is 64 bytes
 * (uapi 1.0).
 */
struct drm_vaccel_device_info {
	/** @uapi_major: %DRM_VACCEL_UAPI_MAJOR of the running module */
	__u32 uapi_major;
	/** @uapi_minor: %DRM_VACCEL_UAPI_MINOR of the running module */
	__u32 uapi_minor;
	/** @device_index: index of this device among the module's devices */
	__u32 device_index;
	/** @flags: a combination of DRM_VACCEL_DEVICE_* flags */
	__u32 flags;
	/**
	 * @engine_count: number of engines of each class, indexed by
	 * &enum drm_vaccel_engine_class; the entries past the classes this
	 * kernel knows are zero
	 */
	__u32 engine_count[4];
	/** @engines_total: number of engines of all classes together */
	__u32 engines_total;
	/**
	 * @hw_queue_depth: DMA buffers an engine holds at once, the running one
	 * and the next (MCDM's HW queue); the same for every engine
	 */
	__u32 hw_queue_depth;
	/** @va_bits: width of a GPU virtual address in bits */
	__u32 va_bits;
	/** @page_size: size of a GPU page in bytes, the granularity of mappings */
	__u32 page_size;
	/**
	 * @va_start: lowest GPU virtual address user space may map; the pages
	 * below stay unmapped so that a null pointer always faults
	 */
	__u64 va_start;
	/** @va_end: end (exclusive) of the GPU virtual addresses user space may map */
	__u64 va_end;
};

/**
 * struct drm_vaccel_engine_info - one engine, in &struct drm_vaccel_engine_list
 */
struct drm_vaccel_engine_info {
	/** @engine_class: the class, &enum drm_vaccel_engine_class */
	__u16 engine_class;
	/** @instance: index of this engine within its class */
	__u16 instance;
	/** @hw_queue_depth: DMA buffers this engine holds at once (2) */
	__u32 hw_queue_depth;
	/**
	 * @preempt_caps: granularities this engine supports, a bit
	 * ``1 << granularity`` for each &enum drm_vaccel_preempt_granularity
	 */
	__u32 preempt_caps;
	/** @preempt_granularity: the granularity in force, &enum drm_vaccel_preempt_granularity */
	__u32 preempt_granularity;
	/** @reserved: zero; room to describe engines further */
	__u64 reserved[2];
};

/**
 * struct drm_vaccel_engine_list - answer to %DRM_VACCEL_QUERY_ENGINES
 *
 * Every engine of the device, ordered by class then instance.  The entries
 * are @entry_size bytes apart: index them with that stride, not with
 * ``sizeof(struct drm_vaccel_engine_info)``, so that a later kernel may
 * grow the entry.
 */
struct drm_vaccel_engine_list {
	/** @count: number of entries in @engines */
	__u32 count;
	/** @entry_size: distance in bytes between two entries */
	__u32 entry_size;
	/** @engines: the entries */
	struct drm_vaccel_engine_info engines[];
};

/**
 * enum drm_vaccel_query_type - what %DRM_IOCTL_VACCEL_QUERY reports
 */
enum drm_vaccel_query_type {
	/** @DRM_VACCEL_QUERY_DEVICE: &struct drm_vaccel_device_info */
	DRM_VACCEL_QUERY_DEVICE = 0,
	/** @DRM_VACCEL_QUERY_ENGINES: &struct drm_vaccel_engine_list */
	DRM_VACCEL_QUERY_ENGINES = 1,
};

/**
 * struct drm_vaccel_query - argument to %DRM_IOCTL_VACCEL_QUERY
 *
 * Size negotiation, in two calls or one:
 *
 * 1. With @size zero the kernel only stores in @size the number of bytes
 *    the answer has, and @data is not looked at.
 * 2. With @size non-zero the kernel writes ``min(size, answer size)`` bytes
 *    of the answer to @data, clears the bytes of the buffer beyond the
 *    answer, and stores in @size the full size of the answer.
 *
 * Thus a program built against an older header (smaller structures) reads
 * the prefix it knows, and one built against a newer header sees zero in
 * the fields this kernel does not have yet.
 *
 * On error, @size is left as it was.  Errors:
 *
 * - ``-EINVAL``: unknown @type, non-zero @flags or @pad, or @size smaller
 *   than the first released size of the answer.  An answer made of an
 *   array (%DRM_VACCEL_QUERY_ENGINES) is never cut: there @size must hold
 *   all of it.
 * - ``-EFAULT``: @data cannot be written.
 */
struct drm_vaccel_query {
	/** @type: what to query, &enum drm_vaccel_query_type */
	__u32 type;
	/** @size: in: bytes available at @data, or 0; out: size of the answer */
	__u32 size;
	/** @data: user pointer to the buffer for the answer */
	__u64 data;
	/** @flags: must be zero */
	__u32 flags;
	/** @pad: must be zero */
	__u32 pad;
};

/**
 * define DRM_IOCTL_VACCEL_QUERY - query the device, &struct drm_vaccel_query
 */
#define DRM_IOCTL_VACCEL_QUERY \
	DRM_IOWR(DRM_COMMAND_BASE + DRM_VACCEL_QUERY, struct drm_vaccel_query)

#if defined(__cplusplus)
}
#endif

#endif /* _VACCEL_ACCEL_H_ */
