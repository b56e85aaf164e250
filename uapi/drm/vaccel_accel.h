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
 *   the ioctl, and the kernel log stays quiet about it, unless drm.debug's
 *   DRIVER category (0x2) is on: then each refusal logs, at debug level,
 *   the check that failed.
 */

/**
 * DOC: uapi version
 *
 * %DRM_VACCEL_UAPI_MAJOR changes only if the interface breaks (it never
 * should); %DRM_VACCEL_UAPI_MINOR grows with every addition.  Both are
 * reported by %DRM_VACCEL_QUERY_DEVICE and by ``DRM_IOCTL_VERSION``.
 *
 * What each minor version brought (the fields and values say it too):
 *
 * - 1.2: asynchronous VM_BIND.
 * - 1.3: ban reasons and reset counts in CONTEXT_STATE.
 * - 1.4: compute kernels' limits and fault reasons.
 * - 1.5: the device's limits; every VM_BIND error is the ioctl's.
 * - 1.6: CONTEXT_STATE names the buffer and packet that got a context
 *   banned.
 * - 1.7: memory regions, BO placement, BO_MIGRATE, peers, the cost model.
 * - 1.8: the engines' compute units.
 * - 1.9: BO_MIGRATE's waits hold up only its signals, never the move, and
 *   a move is never cancelled; ``-EACCES`` for another device's segment.
 */
#define DRM_VACCEL_UAPI_MAJOR	1
#define DRM_VACCEL_UAPI_MINOR	9

/**
 * enum drm_vaccel_ioctl_id - ioctl numbers, offsets from %DRM_COMMAND_BASE
 *
 * Append-only: new ioctls take the next free number.
 */
enum drm_vaccel_ioctl_id {
	/** @DRM_VACCEL_QUERY: query device information, see &struct drm_vaccel_query */
	DRM_VACCEL_QUERY = 0,
	/** @DRM_VACCEL_BO_CREATE: create a buffer object, see &struct drm_vaccel_bo_create */
	DRM_VACCEL_BO_CREATE = 1,
	/** @DRM_VACCEL_BO_MMAP_OFFSET: CPU mapping offset, see &struct drm_vaccel_bo_mmap_offset */
	DRM_VACCEL_BO_MMAP_OFFSET = 2,
	/** @DRM_VACCEL_BO_INFO: describe a buffer object, see &struct drm_vaccel_bo_info */
	DRM_VACCEL_BO_INFO = 3,
	/** @DRM_VACCEL_VM_BIND: map and unmap GPU VAs, see &struct drm_vaccel_vm_bind */
	DRM_VACCEL_VM_BIND = 4,
	/** @DRM_VACCEL_CONTEXT_CREATE: create a context, see &struct drm_vaccel_context_create */
	DRM_VACCEL_CONTEXT_CREATE = 5,
	/** @DRM_VACCEL_CONTEXT_DESTROY: see &struct drm_vaccel_context_destroy */
	DRM_VACCEL_CONTEXT_DESTROY = 6,
	/** @DRM_VACCEL_CONTEXT_STATE: a context's state, see &struct drm_vaccel_context_state */
	DRM_VACCEL_CONTEXT_STATE = 7,
	/** @DRM_VACCEL_SUBMIT: submit a DMA buffer, see &struct drm_vaccel_submit */
	DRM_VACCEL_SUBMIT = 8,
	/** @DRM_VACCEL_BO_MIGRATE: move a BO, see &struct drm_vaccel_bo_migrate */
	DRM_VACCEL_BO_MIGRATE = 9,
};

/**
 * struct drm_vaccel_obj_array - an array of structures in user memory
 *
 * The array has @count elements, @stride bytes apart.  @stride lets an
 * element grow: @stride must be at least the element's first released size
 * and at most 4096 (``-EINVAL`` otherwise); the kernel takes the fields a
 * shorter element does not have as zero, and requires the bytes it does not
 * know (a @stride larger than its own size) to be zero (``-EINVAL``).
 */
struct drm_vaccel_obj_array {
	/** @stride: distance in bytes between two elements */
	__u32 stride;
	/** @count: number of elements */
	__u32 count;
	/** @array: user pointer to the first element */
	__u64 array;
};

/**
 * DRM_VACCEL_OBJ_ARRAY() - initialise a &struct drm_vaccel_obj_array
 * @cnt: number of elements
 * @ptr: pointer to the first element
 */
#define DRM_VACCEL_OBJ_ARRAY(cnt, ptr) \
	{ .stride = sizeof((ptr)[0]), .count = (cnt), .array = (__u64)(__UINTPTR_TYPE__)(ptr) }

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
	/** @max_bo_size: largest buffer object, in bytes (uapi 1.1) */
	__u64 max_bo_size;
	/** @max_bind_ops: most operations in one %DRM_IOCTL_VACCEL_VM_BIND (uapi 1.1) */
	__u32 max_bind_ops;
	/**
	 * @max_bos_per_file: most BO handles one open file holds, created and
	 * imported together (uapi 1.1)
	 */
	__u32 max_bos_per_file;
	/** @max_workgroup_items: most work-items in a workgroup (uapi 1.4) */
	__u32 max_workgroup_items;
	/** @max_local_size: most local memory of a workgroup, bytes (uapi 1.4) */
	__u32 max_local_size;
	/** @max_stack_size: largest stack of a work-item, bytes (uapi 1.4) */
	__u32 max_stack_size;
	/**
	 * @max_private_size: most stack memory of a workgroup, work-items
	 * times stack size, bytes (uapi 1.4)
	 */
	__u32 max_private_size;
	/** @local_base: address of a workgroup's local memory (uapi 1.4) */
	__u64 local_base;
	/**
	 * @private_base: address of the first work-item's stack; the stack of
	 * the work-item of flat local id i starts at private_base + i * stack
	 * size (uapi 1.4)
	 */
	__u64 private_base;
	/**
	 * @hang_timeout_ns: engine time a buffer may run without progress
	 * before it is hung, module parameter ``timeout_ms`` (uapi 1.5)
	 */
	__u64 hang_timeout_ns;
	/**
	 * @time_limit_ns: engine time a buffer may use in all, progress or
	 * not, module parameter ``time_limit_ms``; see "Limits" (uapi 1.5)
	 */
	__u64 time_limit_ns;
	/**
	 * @max_grid_items: most work-items in the grid of a DISPATCH, the
	 * product of its three sizes (uapi 1.5)
	 */
	__u64 max_grid_items;
	/**
	 * @max_copy_size: largest size of a COPY or a FILL, bytes (uapi 1.5)
	 */
	__u64 max_copy_size;
	/**
	 * @max_pt_bytes: most page-table memory of one open file's VM,
	 * counting what its pending binds may need; past it VM_BIND fails
	 * with ``-ENOSPC`` (uapi 1.5)
	 */
	__u64 max_pt_bytes;
	/**
	 * @max_mappings: most mappings in one open file's VM, counting the
	 * worst case of a bind (a map adds one, an unmap may split one);
	 * past it VM_BIND fails with ``-ENOSPC`` (uapi 1.5)
	 */
	__u32 max_mappings;
	/**
	 * @max_jobs_per_file: most buffers and asynchronous binds one open
	 * file may have submitted and not yet retired; past it SUBMIT and
	 * VM_BIND wait, interruptibly, for one to retire (uapi 1.5)
	 */
	__u32 max_jobs_per_file;
	/**
	 * @device_mem_size: bytes of the device's memory segment, module
	 * parameter ``device_mem_mb``; zero if it has none (uapi 1.7)
	 */
	__u64 device_mem_size;
	/**
	 * @device_mem_free: bytes of the segment not allocated at the time
	 * of the query (uapi 1.7)
	 */
	__u64 device_mem_free;
	/**
	 * @device_mem_base: device physical address of the segment's first
	 * byte: DRM_VACCEL_DEVICE_MEM_BASE(@device_index), or one past the
	 * eighth for a device bound again while the device it replaces is
	 * still held (uapi 1.7)
	 */
	__u64 device_mem_base;
	/**
	 * @cost_system_ns: engine time an engine is charged per KiB it reads
	 * or writes in system memory, beyond what the access takes: module
	 * parameter ``cost_system_ns``; 0 when the cost model is off
	 * (uapi 1.7)
	 */
	__u32 cost_system_ns;
	/**
	 * @cost_peer_ns: likewise per KiB in another device's segment,
	 * module parameter ``cost_peer_ns`` (uapi 1.7)
	 */
	__u32 cost_peer_ns;
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
	/**
	 * @compute_units: compute units that run the workgroups of a
	 * ``DISPATCH`` in parallel, module parameter ``compute_units``; zero
	 * for an engine that runs no dispatch (uapi 1.8)
	 */
	__u32 compute_units;
	/** @reserved32: zero */
	__u32 reserved32;
	/** @reserved: zero; room to describe engines further */
	__u64 reserved;
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
	/** @DRM_VACCEL_QUERY_VM_STATS: &struct drm_vaccel_vm_stats of the caller's VM */
	DRM_VACCEL_QUERY_VM_STATS = 2,
};

/**
 * struct drm_vaccel_vm_stats - answer to %DRM_VACCEL_QUERY_VM_STATS
 *
 * The GPU address space of the open file that asks, as the page tables
 * see it.  The first released size, the smallest buffer accepted, is the
 * whole 32-byte structure.
 */
struct drm_vaccel_vm_stats {
	/** @mappings: number of mappings */
	__u64 mappings;
	/** @mapped_bytes: bytes of GPU virtual address space mapped */
	__u64 mapped_bytes;
	/** @pt_pages: page-table pages allocated, the root included */
	__u64 pt_pages;
	/** @pt_bytes: bytes of page-table memory, @pt_pages times the page size */
	__u64 pt_bytes;
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
 * DOC: Memory
 *
 * Buffer objects (BOs) live in system memory, in shmem, or in the memory
 * segment of a device (uapi 1.7), see "Memory regions".  Each open file of
 * the device has its own GPU address space, a VM, as MCDM prescribes one per
 * process.  As in the WDDM GpuMmu model, user space chooses the GPU virtual
 * addresses and the kernel validates and maps them with
 * %DRM_IOCTL_VACCEL_VM_BIND.  A BO can be mapped any number of times, in any
 * number of VMs; a mapping keeps the BO's pages alive until it is unmapped,
 * even after the BO's handle is closed.  BOs are shared between files,
 * processes and devices as dma-bufs with the core PRIME ioctls.
 */

/**
 * define DRM_VACCEL_BO_NO_MMAP - BO creation flag, no CPU mapping
 *
 * The BO is for the device only: %DRM_IOCTL_VACCEL_BO_MMAP_OFFSET fails on it
 * with ``-EPERM``, and so does mmap(2) of a dma-buf exported from it, or of
 * another device's import of that dma-buf.
 */
#define DRM_VACCEL_BO_NO_MMAP		(1u << 0)

/**
 * define DRM_VACCEL_BO_IMPORTED - BO info flag, imported from another device
 *
 * The BO wraps a dma-buf exported by another device.  A dma-buf of this
 * device imports as the BO it came from, without the flag.  One of another
 * vaccel device imports as a peer of the exporter's BO: BO_INFO reports
 * that BO's placement flags, region and evictions, BO_MIGRATE moves it,
 * and VM_BIND maps it where it is, a peer's segment included (see "Memory
 * regions").
 */
#define DRM_VACCEL_BO_IMPORTED		(1u << 31)

/**
 * DOC: Memory regions
 *
 * Memory is a set of regions (uapi 1.7): system memory, region
 * %DRM_VACCEL_REGION_SYSTEM, and one segment of device memory per device,
 * region DRM_VACCEL_REGION_DEVICE(i) for the device of index i, of
 * &drm_vaccel_device_info.device_mem_size bytes.  The segments of all
 * devices share one device physical address space without overlapping:
 * device i's begins at DRM_VACCEL_DEVICE_MEM_BASE(i), and a page-table entry
 * of a page in device memory holds that address with
 * %DRM_VACCEL_PTE_DEVICE set.
 *
 * A BO is created with a placement: system memory (no flag), the device's
 * segment (%DRM_VACCEL_BO_DEVICE) or the segment if there is room and system
 * memory otherwise (%DRM_VACCEL_BO_DEVICE_PREFERRED).  It moves with
 * %DRM_IOCTL_VACCEL_BO_MIGRATE, and the kernel moves BOs in device memory to
 * system memory when a segment is full (eviction), least recently used
 * first, and brings those placed in device memory back when a buffer of a
 * VM that maps them is submitted.  Every move is a job on the PAGING engine
 * that copies the data and rewrites every page-table entry that maps the
 * BO, in the VMs of every device; it runs after the buffers submitted
 * before it on any VM that maps the BO, and the buffers submitted after it
 * wait for it.  &drm_vaccel_bo_info.region tells where a BO is.
 *
 * The CPU maps a BO wherever it is, as through a BAR for device memory; a
 * CPU access during a move waits for the move.
 *
 * A BO shared by dma-buf with another vaccel device stays one BO (uapi
 * 1.7): the importer's VM maps it wherever it is, and its engines reach
 * another device's segment as peer memory, through the one device
 * physical address space; moves and evictions, by either device, rewrite
 * the importer's entries too.  A dma-buf attachment of any other driver
 * reads a BO's system pages: it is refused with ``-EOPNOTSUPP`` for a BO
 * in device memory, and a BO it holds cannot move (``-EBUSY``).
 */

/** define DRM_VACCEL_REGION_SYSTEM - region id of system memory */
#define DRM_VACCEL_REGION_SYSTEM	0u

/** DRM_VACCEL_REGION_DEVICE() - region id of the segment of device @i */
#define DRM_VACCEL_REGION_DEVICE(i)	(1u + (__u32)(i))

/** DRM_VACCEL_DEVICE_MEM_BASE() - device physical address of device @i's segment */
#define DRM_VACCEL_DEVICE_MEM_BASE(i)	(((__u64)(i) + 1) << 40)

/**
 * define DRM_VACCEL_BO_DEVICE - BO creation flag, place it in device memory
 *
 * The BO lives in the device's segment (uapi 1.7).  When the segment is
 * full, idle BOs are evicted to make room; if the BO cannot fit even so,
 * creation fails with ``-ENOSPC``.
 */
#define DRM_VACCEL_BO_DEVICE		(1u << 1)

/**
 * define DRM_VACCEL_BO_DEVICE_PREFERRED - BO creation flag, device memory if it fits
 *
 * As %DRM_VACCEL_BO_DEVICE, but a BO that does not fit in the segment is
 * created in system memory instead, and stays there when evicted (uapi
 * 1.7).  Not together with %DRM_VACCEL_BO_DEVICE.
 */
#define DRM_VACCEL_BO_DEVICE_PREFERRED	(1u << 2)

/**
 * struct drm_vaccel_bo_create - argument to %DRM_IOCTL_VACCEL_BO_CREATE
 *
 * Creates a BO of at least @size bytes, filled with zeros.  Errors:
 * ``-EINVAL`` for a zero @size or an unknown flag, ``-E2BIG`` for a size
 * past &drm_vaccel_device_info.max_bo_size, ``-ENOSPC`` when the file holds
 * &drm_vaccel_device_info.max_bos_per_file handles already (so does
 * importing a dma-buf then), ``-ENOMEM``.
 */
struct drm_vaccel_bo_create {
	/** @size: in: bytes wanted; out: the size, rounded up to the page size */
	__u64 size;
	/** @flags: DRM_VACCEL_BO_* creation flags */
	__u32 flags;
	/** @handle: out: the BO's handle, closed with ``DRM_IOCTL_GEM_CLOSE`` */
	__u32 handle;
};

/**
 * struct drm_vaccel_bo_mmap_offset - argument to %DRM_IOCTL_VACCEL_BO_MMAP_OFFSET
 *
 * The offset to pass to mmap(2) on the device file to map the BO in the
 * CPU's address space.  Errors: ``-ENOENT`` for an unknown handle,
 * ``-EPERM`` for a BO created with %DRM_VACCEL_BO_NO_MMAP, ``-EINVAL`` for a
 * non-zero @pad.
 */
struct drm_vaccel_bo_mmap_offset {
	/** @handle: the BO */
	__u32 handle;
	/** @pad: zero */
	__u32 pad;
	/** @offset: out: the mmap offset */
	__u64 offset;
};

/**
 * struct drm_vaccel_bo_info - argument to %DRM_IOCTL_VACCEL_BO_INFO
 *
 * Errors: ``-ENOENT`` for an unknown handle, ``-EINVAL`` for a non-zero
 * @pad.
 */
struct drm_vaccel_bo_info {
	/** @handle: the BO */
	__u32 handle;
	/** @flags: out: creation flags, and %DRM_VACCEL_BO_IMPORTED */
	__u32 flags;
	/** @size: out: size in bytes */
	__u64 size;
	/** @mappings: out: mappings of the BO in the caller's VM */
	__u32 mappings;
	/** @pad: zero */
	__u32 pad;
	/**
	 * @region: out: the region the BO is in, or will be in once the
	 * moves queued so far are done, DRM_VACCEL_REGION_* (uapi 1.7)
	 */
	__u32 region;
	/** @evictions: out: times the kernel evicted the BO (uapi 1.7) */
	__u32 evictions;
};

/**
 * struct drm_vaccel_bo_migrate - argument to %DRM_IOCTL_VACCEL_BO_MIGRATE
 *
 * Moves a BO to a memory region (uapi 1.7), as a job of the kernel on the
 * device's PAGING engine that copies the BO and rewrites every page-table
 * entry that maps it.  The move is ordered after every buffer submitted
 * before it on a VM that maps the BO, of this device or another, and the
 * buffers submitted after it wait for it; a CPU access to the BO waits for
 * it too.  Nothing cancels a move once queued, not even the close of the
 * file: its fence signals, without error, once the data is in place.
 *
 * @signals signal once the move is done and every fence of @waits has
 * signalled.  Since uapi 1.9 the waits hold up only the signals, never the
 * move itself (before, the move waited for them): the work of every
 * process that shares the BO waits for its move, and must not wait for
 * one process's fences.  A move to the region the BO is in does nothing
 * but the waits and signals.  A BO moved to a device's segment is placed
 * there as if created with %DRM_VACCEL_BO_DEVICE, and one moved to system
 * memory as if created without placement flags.
 *
 * The regions a file may move a BO to: system memory, the segment of its
 * own device, and the segment of the device the BO belongs to (for the
 * object of a BO imported from another vaccel device).
 *
 * Errors: ``-EINVAL`` for non-zero @flags or @pad or an unknown region,
 * ``-ENOENT`` for an unknown handle, ``-ENODEV`` for the segment of a device
 * that does not exist or has no device memory, ``-EACCES`` for the segment
 * of another device than those above (uapi 1.9), ``-EOPNOTSUPP`` for a BO
 * imported from another driver, ``-ENOSPC`` when the region cannot hold
 * the BO even after eviction, ``-ENOMEM``, ``-EINTR``, and the syncobj
 * errors of %DRM_IOCTL_VACCEL_SUBMIT.
 */
struct drm_vaccel_bo_migrate {
	/** @handle: the BO */
	__u32 handle;
	/** @region: where to, DRM_VACCEL_REGION_* */
	__u32 region;
	/** @flags: zero */
	__u32 flags;
	/** @pad: zero */
	__u32 pad;
	/** @waits: syncobjs to wait for, &struct drm_vaccel_sync */
	struct drm_vaccel_obj_array waits;
	/** @signals: syncobjs to signal, &struct drm_vaccel_sync */
	struct drm_vaccel_obj_array signals;
};

/**
 * enum drm_vaccel_vm_bind_op_type - what a &struct drm_vaccel_vm_bind_op does
 */
enum drm_vaccel_vm_bind_op_type {
	/**
	 * @DRM_VACCEL_VM_BIND_OP_MAP: map @size bytes of a BO from @bo_offset
	 * at @va.  The range must be free: ``-EEXIST`` otherwise.
	 */
	DRM_VACCEL_VM_BIND_OP_MAP = 0,
	/**
	 * @DRM_VACCEL_VM_BIND_OP_UNMAP: unmap every page in [@va, @va + @size).
	 * A mapping that straddles an end is split and keeps its outer part;
	 * unmapped holes in the range are allowed.  @handle, @bo_offset and
	 * @flags must be zero.
	 */
	DRM_VACCEL_VM_BIND_OP_UNMAP = 1,
};

/**
 * define DRM_VACCEL_VM_BIND_READ_ONLY - map flag, the device may not write
 */
#define DRM_VACCEL_VM_BIND_READ_ONLY	(1u << 0)

/**
 * define DRM_VACCEL_VM_BIND_NO_EXEC - map flag, the device may not fetch code
 */
#define DRM_VACCEL_VM_BIND_NO_EXEC	(1u << 1)

/**
 * struct drm_vaccel_vm_bind_op - one map or unmap in a VM_BIND
 *
 * @va, @size and @bo_offset are multiples of the page size (4 KiB), @size is
 * not zero, the range lies in [&drm_vaccel_device_info.va_start,
 * &drm_vaccel_device_info.va_end), and a map's range lies inside its BO.
 */
struct drm_vaccel_vm_bind_op {
	/** @op: &enum drm_vaccel_vm_bind_op_type */
	__u32 op;
	/** @flags: DRM_VACCEL_VM_BIND_* for a map, zero for an unmap */
	__u32 flags;
	/** @handle: the BO to map; zero for an unmap */
	__u32 handle;
	/** @pad: zero */
	__u32 pad;
	/** @bo_offset: offset in the BO of the first byte mapped */
	__u64 bo_offset;
	/** @va: first GPU virtual address */
	__u64 va;
	/** @size: bytes */
	__u64 size;
};

/**
 * struct drm_vaccel_vm_bind - argument to %DRM_IOCTL_VACCEL_VM_BIND
 *
 * Maps and unmaps ranges of the caller's VM, in array order, all or
 * nothing: if any operation fails, the VM is left as it was.  An empty
 * array does nothing and succeeds.  The first released size of
 * &struct drm_vaccel_vm_bind_op is 40 bytes.
 *
 * Without syncobjs the bind is synchronous: it happens before the ioctl
 * returns, after every asynchronous bind of the VM submitted before it.
 * When a synchronous bind returns, the page tables are updated and no
 * engine can reach the pages of what was unmapped.
 *
 * With @waits or @signals the bind is asynchronous (uapi 1.2): the ioctl
 * checks the batch against the VM as the binds submitted before it leave
 * it, prepares everything the update needs, then queues it as a
 * page-table update job on the PAGING engine, which applies it once every
 * fence of @waits has signalled, after the VM's earlier asynchronous
 * binds.  Every error is the ioctl's (since uapi 1.5; before, ``-EEXIST``
 * and ``-ENOMEM`` were carried by the fences): the fences of @signals
 * carry only ``-ECANCELED``, if the file is closed first, or
 * ``-ETIMEDOUT``, if the update ran past the time limit.  Ordering buffers
 * that use the new mappings is the caller's business: make them wait for
 * the bind's out-syncobj.  As for every job, an error of a fence waited
 * for does not propagate: the bind applies once the fence signals,
 * whatever its status.  Syncobj errors are those of
 * %DRM_IOCTL_VACCEL_SUBMIT, and so is the wait while the file has
 * &drm_vaccel_device_info.max_jobs_per_file jobs.
 *
 * Errors: ``-EINVAL`` for a malformed operation (unknown op or flag,
 * misaligned or zero size, a range outside the VA space or outside the BO,
 * non-zero pad or unused fields), ``-ENOENT`` for an unknown handle,
 * ``-EEXIST`` for a map over a mapped page (mapped before or by an earlier
 * operation of the same call), ``-E2BIG`` for more than
 * &drm_vaccel_device_info.max_bind_ops operations, ``-ENOSPC`` past
 * &drm_vaccel_device_info.max_mappings or .max_pt_bytes, ``-ECANCELED``
 * once an asynchronous bind of the VM was stopped before it applied (its
 * page tables no longer follow its mappings), ``-EFAULT``, ``-ENOMEM``,
 * ``-EINTR`` for a synchronous bind waiting for earlier ones when a fatal
 * signal arrives.
 */
struct drm_vaccel_vm_bind {
	/** @flags: zero */
	__u32 flags;
	/** @pad: zero */
	__u32 pad;
	/** @ops: the operations, &struct drm_vaccel_vm_bind_op */
	struct drm_vaccel_obj_array ops;
	/** @waits: syncobjs to wait for, &struct drm_vaccel_sync (uapi 1.2) */
	struct drm_vaccel_obj_array waits;
	/** @signals: syncobjs to signal, &struct drm_vaccel_sync (uapi 1.2) */
	struct drm_vaccel_obj_array signals;
};

/**
 * DOC: Page-table format
 *
 * The page table of a VM is the one an engine's MMU walks; debugfs shows it
 * in this format.  It has four levels of 512 eight-byte entries in 4 KiB
 * pages, translating 48-bit virtual addresses to 4 KiB pages:
 *
 * ======  ============  ===============================================
 * level   VA bits       an entry points to
 * ======  ============  ===============================================
 * 3       47 to 39      a level-2 table (the root table has level 3)
 * 2       38 to 30      a level-1 table
 * 1       29 to 21      a level-0 table
 * 0       20 to 12      a 4 KiB page of memory
 * ======  ============  ===============================================
 *
 * An entry is %DRM_VACCEL_PTE_VALID with the page frame of what it points to
 * in %DRM_VACCEL_PTE_ADDR_MASK; a level-0 entry adds the permission bits.
 * A valid page is always readable.  An entry without %DRM_VACCEL_PTE_VALID
 * faults.  With %DRM_VACCEL_PTE_DEVICE (uapi 1.7) the frame is a device
 * physical address, in the segment of a device (see "Memory regions"),
 * rather than a page of system memory.
 */

/** define DRM_VACCEL_PTE_VALID - page-table entry bit, the entry is valid */
#define DRM_VACCEL_PTE_VALID		(1ull << 0)
/** define DRM_VACCEL_PTE_WRITE - page-table entry bit, the page is writable */
#define DRM_VACCEL_PTE_WRITE		(1ull << 1)
/** define DRM_VACCEL_PTE_EXEC - page-table entry bit, code may be fetched */
#define DRM_VACCEL_PTE_EXEC		(1ull << 2)
/** define DRM_VACCEL_PTE_DEVICE - page-table entry bit, the frame is in device memory */
#define DRM_VACCEL_PTE_DEVICE		(1ull << 3)
/** define DRM_VACCEL_PTE_ADDR_MASK - page-table entry bits of the page frame */
#define DRM_VACCEL_PTE_ADDR_MASK	0x000ffffffffff000ull

/**
 * DOC: Execution
 *
 * A context is a queue of DMA buffers for one engine, executed in the GPU
 * address space of the file that created it.  A DMA buffer is a sequence of
 * packets in a BO, submitted by its GPU VA with %DRM_IOCTL_VACCEL_SUBMIT.
 * The buffers of a context complete in submission order; syncobjs order
 * them against other contexts, engines and the CPU.
 */

/**
 * enum drm_vaccel_priority - priority of a context
 */
enum drm_vaccel_priority {
	/** @DRM_VACCEL_PRIORITY_LOW: background work */
	DRM_VACCEL_PRIORITY_LOW = 0,
	/** @DRM_VACCEL_PRIORITY_NORMAL: the default */
	DRM_VACCEL_PRIORITY_NORMAL = 1,
	/** @DRM_VACCEL_PRIORITY_HIGH: needs ``CAP_SYS_NICE`` */
	DRM_VACCEL_PRIORITY_HIGH = 2,
	/** @DRM_VACCEL_PRIORITY_REALTIME: needs ``CAP_SYS_NICE`` */
	DRM_VACCEL_PRIORITY_REALTIME = 3,
};

/**
 * define DRM_VACCEL_ENGINE_ANY - any engine of the class, for a context
 *
 * In &drm_vaccel_context_create.engine_instance: the kernel picks the
 * engine of the class with the fewest contexts.
 */
#define DRM_VACCEL_ENGINE_ANY		0xffffffffu

/**
 * struct drm_vaccel_context_create - argument to %DRM_IOCTL_VACCEL_CONTEXT_CREATE
 *
 * Errors: ``-EINVAL`` for an unknown or the PAGING class, an instance the
 * class does not have, an unknown priority, non-zero @flags; ``-EPERM`` for
 * a priority above NORMAL without ``CAP_SYS_NICE``; ``-ENOSPC`` past
 * %DRM_VACCEL_MAX_CONTEXTS_PER_FILE contexts.
 */
struct drm_vaccel_context_create {
	/** @engine_class: COMPUTE or COPY, &enum drm_vaccel_engine_class */
	__u32 engine_class;
	/** @engine_instance: the engine of the class, or %DRM_VACCEL_ENGINE_ANY */
	__u32 engine_instance;
	/** @priority: &enum drm_vaccel_priority */
	__u32 priority;
	/** @flags: zero */
	__u32 flags;
	/** @handle: out: the context's handle, never zero */
	__u32 handle;
	/** @pad: zero */
	__u32 pad;
};

/** define DRM_VACCEL_MAX_CONTEXTS_PER_FILE - contexts one open file may have */
#define DRM_VACCEL_MAX_CONTEXTS_PER_FILE	256

/**
 * struct drm_vaccel_context_destroy - argument to %DRM_IOCTL_VACCEL_CONTEXT_DESTROY
 *
 * Cancels every buffer of the context that has not completed: its fence
 * signals with ``-ECANCELED``, whatever point the buffer reached.  The
 * running buffer stops at its next check; a buffer still waiting for its
 * dependencies signals once they have, never before.  Returns once no
 * buffer of the context is on an engine, without waiting for any
 * dependency.  A SUBMIT to the context that has not pushed its buffer when
 * the destroy begins fails with ``-ENOENT``.  Errors: ``-ENOENT`` for an
 * unknown handle, ``-EINVAL`` for a non-zero @pad.
 */
struct drm_vaccel_context_destroy {
	/** @handle: the context */
	__u32 handle;
	/** @pad: zero */
	__u32 pad;
};

/** define DRM_VACCEL_CONTEXT_FAULTED - context state flag, a buffer faulted */
#define DRM_VACCEL_CONTEXT_FAULTED	(1u << 0)

/**
 * define DRM_VACCEL_CONTEXT_BANNED - context state flag, accepts no more work
 *
 * SUBMIT fails with ``-ECANCELED``.  A context is banned when one of its
 * buffers faults or hangs; &struct drm_vaccel_context_state.ban_reason
 * says which.
 */
#define DRM_VACCEL_CONTEXT_BANNED	(1u << 1)

/**
 * enum drm_vaccel_ban_reason - why a context was banned (uapi 1.3)
 */
enum drm_vaccel_ban_reason {
	/** @DRM_VACCEL_BAN_NONE: it is not banned */
	DRM_VACCEL_BAN_NONE = 0,
	/** @DRM_VACCEL_BAN_FAULT: a buffer faulted, see the fault fields */
	DRM_VACCEL_BAN_FAULT = 1,
	/**
	 * @DRM_VACCEL_BAN_HANG: a buffer made no progress on its engine for
	 * the timeout; its fence carries ``-ETIMEDOUT`` and the engine was
	 * reset
	 */
	DRM_VACCEL_BAN_HANG = 2,
	/**
	 * @DRM_VACCEL_BAN_TIME_LIMIT: a buffer used up its time limit,
	 * &drm_vaccel_device_info.time_limit_ns of engine time; its fence
	 * carries ``-ETIMEDOUT`` (uapi 1.5)
	 */
	DRM_VACCEL_BAN_TIME_LIMIT = 3,
};

/**
 * enum drm_vaccel_fault_reason - why a buffer faulted
 */
enum drm_vaccel_fault_reason {
	/** @DRM_VACCEL_FAULT_NONE: no fault */
	DRM_VACCEL_FAULT_NONE = 0,
	/** @DRM_VACCEL_FAULT_UNMAPPED: the page is not mapped */
	DRM_VACCEL_FAULT_UNMAPPED = 1,
	/** @DRM_VACCEL_FAULT_OUT_OF_RANGE: the address is outside the VA space */
	DRM_VACCEL_FAULT_OUT_OF_RANGE = 2,
	/** @DRM_VACCEL_FAULT_PERMISSION: a write to read-only memory */
	DRM_VACCEL_FAULT_PERMISSION = 3,
	/**
	 * @DRM_VACCEL_FAULT_MALFORMED: an unknown opcode, a wrong length,
	 * reserved bits set, or a packet past the end of the buffer
	 */
	DRM_VACCEL_FAULT_MALFORMED = 4,
	/**
	 * @DRM_VACCEL_FAULT_ILLEGAL_INSTRUCTION: a kernel executed an
	 * instruction vaccel does not implement; fault_va holds the
	 * instruction word (uapi 1.4)
	 */
	DRM_VACCEL_FAULT_ILLEGAL_INSTRUCTION = 5,
	/** @DRM_VACCEL_FAULT_COMPRESSED: a compressed instruction (uapi 1.4) */
	DRM_VACCEL_FAULT_COMPRESSED = 6,
	/**
	 * @DRM_VACCEL_FAULT_MISALIGNED: a jump to an address not a multiple
	 * of 4, or a misaligned atomic (uapi 1.4)
	 */
	DRM_VACCEL_FAULT_MISALIGNED = 7,
	/**
	 * @DRM_VACCEL_FAULT_CSR: an unknown CSR, or a write to a read-only
	 * one; fault_va holds the CSR number (uapi 1.4)
	 */
	DRM_VACCEL_FAULT_CSR = 8,
	/** @DRM_VACCEL_FAULT_TRAP: ECALL or EBREAK (uapi 1.4) */
	DRM_VACCEL_FAULT_TRAP = 9,
};

/**
 * enum drm_vaccel_access - what the engine was doing when it faulted
 */
enum drm_vaccel_access {
	/** @DRM_VACCEL_ACCESS_READ: reading data or fetching a packet */
	DRM_VACCEL_ACCESS_READ = 0,
	/** @DRM_VACCEL_ACCESS_WRITE: writing */
	DRM_VACCEL_ACCESS_WRITE = 1,
	/** @DRM_VACCEL_ACCESS_EXEC: fetching an instruction */
	DRM_VACCEL_ACCESS_EXEC = 2,
};

/**
 * struct drm_vaccel_context_state - argument to %DRM_IOCTL_VACCEL_CONTEXT_STATE
 *
 * Errors: ``-ENOENT`` for an unknown handle, ``-EINVAL`` for a non-zero
 * @pad.
 */
struct drm_vaccel_context_state {
	/** @handle: the context */
	__u32 handle;
	/** @pad: zero */
	__u32 pad;
	/** @flags: out: DRM_VACCEL_CONTEXT_* state flags */
	__u32 flags;
	/** @engine_index: out: the engine, an index in the engine list */
	__u32 engine_index;
	/** @jobs_submitted: out: buffers submitted */
	__u64 jobs_submitted;
	/** @jobs_completed: out: buffers that completed, with or without error */
	__u64 jobs_completed;
	/** @fault_va: out: the address that faulted */
	__u64 fault_va;
	/** @fault_offset: out: offset in its buffer of the packet that faulted */
	__u64 fault_offset;
	/** @fault_reason: out: &enum drm_vaccel_fault_reason */
	__u32 fault_reason;
	/** @fault_access: out: &enum drm_vaccel_access */
	__u32 fault_access;
	/** @ban_reason: out: &enum drm_vaccel_ban_reason (uapi 1.3) */
	__u32 ban_reason;
	/**
	 * @guilty_resets: out: engine resets caused by its hung buffers
	 * (uapi 1.3)
	 */
	__u32 guilty_resets;
	/**
	 * @innocent_resets: out: engine or device resets that preempted its
	 * buffers, which then resumed (uapi 1.3)
	 */
	__u32 innocent_resets;
	/** @pad2: zero */
	__u32 pad2;
	/**
	 * @preemptions: out: times its buffers were preempted, running or
	 * next in the HW queue (uapi 1.3)
	 */
	__u64 preemptions;
	/** @engine_ns: out: time its buffers spent on the engine (uapi 1.3) */
	__u64 engine_ns;
	/**
	 * @fault_pc: out: for a fault of a kernel, the address of the
	 * instruction (uapi 1.4)
	 */
	__u64 fault_pc;
	/**
	 * @ban_job: out: the buffer that got the context banned (by a fault,
	 * a hang or the time limit), as the number of the context's SUBMIT
	 * that queued it, counting the SUBMITs that succeeded from 1; 0
	 * while the context is not banned (uapi 1.6)
	 */
	__u64 ban_job;
	/**
	 * @ban_buffer_va: out: that SUBMIT's &drm_vaccel_submit.buffer_va
	 * (uapi 1.6)
	 */
	__u64 ban_buffer_va;
	/**
	 * @ban_offset: out: offset in that buffer of the packet that
	 * faulted (@fault_offset), hung or was running when the time limit
	 * stopped it (uapi 1.6)
	 */
	__u64 ban_offset;
};

/**
 * struct drm_vaccel_sync - a syncobj to wait for or to signal
 */
struct drm_vaccel_sync {
	/** @handle: the syncobj */
	__u32 handle;
	/** @flags: zero */
	__u32 flags;
	/** @point: the timeline point, or 0 for a binary syncobj */
	__u64 point;
};

/**
 * struct drm_vaccel_submit - argument to %DRM_IOCTL_VACCEL_SUBMIT
 *
 * Queues the DMA buffer at [@buffer_va, @buffer_va + @buffer_size) on a
 * context.  It runs once every fence of @waits has signalled; the fence of
 * its completion is installed in every syncobj of @signals.  While the
 * file has &drm_vaccel_device_info.max_jobs_per_file buffers and binds
 * not yet retired, SUBMIT waits for one to retire, as for room in a full
 * ring; a signal interrupts the wait (``-EINTR``, or a restart).
 *
 * Errors: ``-ENOENT`` for an unknown context or syncobj, or a context
 * destroyed while the SUBMIT ran, ``-EINVAL`` for a syncobj to wait for
 * that has no fence (at that point, for a timeline; points are 64 bits),
 * for a misaligned or empty buffer, a buffer past
 * %DRM_VACCEL_MAX_BUFFER_SIZE, non-zero flags or pad, ``-ECANCELED`` when
 * the context is banned (a fault, a hang or the time limit), ``-E2BIG``
 * for more than %DRM_VACCEL_MAX_SYNCS syncobjs in an array.
 */
struct drm_vaccel_submit {
	/** @context: the context */
	__u32 context;
	/** @flags: zero */
	__u32 flags;
	/** @buffer_va: GPU VA of the first packet, 8-byte aligned */
	__u64 buffer_va;
	/** @buffer_size: bytes, a non-zero multiple of 8 */
	__u64 buffer_size;
	/** @waits: syncobjs to wait for, &struct drm_vaccel_sync */
	struct drm_vaccel_obj_array waits;
	/** @signals: syncobjs to signal, &struct drm_vaccel_sync */
	struct drm_vaccel_obj_array signals;
};

/** define DRM_VACCEL_MAX_BUFFER_SIZE - the largest DMA buffer, in bytes */
#define DRM_VACCEL_MAX_BUFFER_SIZE	(1u << 24)
/** define DRM_VACCEL_MAX_SYNCS - the most syncobjs in one array of a submit */
#define DRM_VACCEL_MAX_SYNCS		64

/**
 * DOC: Limits
 *
 * Every buffer ends in finite time, whatever it holds.  A buffer that
 * makes no progress for &drm_vaccel_device_info.hang_timeout_ns of engine
 * time is hung (its context banned with %DRM_VACCEL_BAN_HANG, the engine
 * reset); a buffer that has used &drm_vaccel_device_info.time_limit_ns of
 * engine time in all, progressing or not, is stopped at its next check
 * (its context banned with %DRM_VACCEL_BAN_TIME_LIMIT).  Either way its
 * fence signals with ``-ETIMEDOUT`` and the context's other buffers with
 * ``-ECANCELED``.  Time off the engine, waiting behind other contexts or
 * preempted, never counts.  The packets are bounded too: a COPY or FILL of
 * more than &drm_vaccel_device_info.max_copy_size bytes, or a DISPATCH of
 * more than &drm_vaccel_device_info.max_grid_items work-items, is
 * malformed.
 */

/**
 * DOC: Packets
 *
 * A DMA buffer is a sequence of packets of 64-bit words.  The first word of
 * a packet is its header, built with DRM_VACCEL_PKT_HEADER(): the opcode in
 * bits 0-7, flags in bits 8-15, the length of the packet in words, header
 * included, in bits 16-31; bits 32-63 are zero.  The words after the header
 * are the packet's operands, in the order listed at each opcode.  Every
 * address is a GPU VA of the context's address space.
 */

/**
 * DRM_VACCEL_PKT_HEADER() - the header word of a packet
 * @op: &enum drm_vaccel_pkt_op
 * @flags: the packet's flags
 * @words: length of the packet in 64-bit words, header included
 */
#define DRM_VACCEL_PKT_HEADER(op, flags, words) \
	((__u64)(op) | ((__u64)(flags) << 8) | ((__u64)(words) << 16))

/**
 * enum drm_vaccel_pkt_op - packet opcodes
 */
enum drm_vaccel_pkt_op {
	/** @DRM_VACCEL_PKT_NOP: does nothing; any length of 1 or more (padding) */
	DRM_VACCEL_PKT_NOP = 0,
	/**
	 * @DRM_VACCEL_PKT_WRITE_IMM: {va, value}: stores the low 32 bits of
	 * value at va, or all 64 with %DRM_VACCEL_PKT_F_64BIT; va aligned to
	 * the size.  Length 3.
	 */
	DRM_VACCEL_PKT_WRITE_IMM = 1,
	/**
	 * @DRM_VACCEL_PKT_COPY: {src, dst, size}: copies size bytes, at most
	 * &drm_vaccel_device_info.max_copy_size.  Length 4.
	 */
	DRM_VACCEL_PKT_COPY = 2,
	/**
	 * @DRM_VACCEL_PKT_FILL: {dst, size, value}: fills size bytes, at most
	 * &drm_vaccel_device_info.max_copy_size, with the low 32 bits of value
	 * repeated; dst and size multiples of 4.  Length 4.
	 */
	DRM_VACCEL_PKT_FILL = 3,
	/**
	 * @DRM_VACCEL_PKT_TIMESTAMP: {va}: stores the engine clock, in ns, as
	 * 64 bits at va, 8-byte aligned.  The engine clock is the host's
	 * CLOCK_MONOTONIC.  Length 2.
	 */
	DRM_VACCEL_PKT_TIMESTAMP = 4,
	/**
	 * @DRM_VACCEL_PKT_WAIT_MEM: {va, reference, mask}: waits until
	 * ``(value at va & mask) <op> (reference & mask)`` holds, value being
	 * 32 bits, or 64 with %DRM_VACCEL_PKT_F_64BIT, and <op> the
	 * comparison in the flags, &enum drm_vaccel_wait_op.  Length 4.
	 * A wait that lasts longer than the engine's hang timeout (module
	 * parameter ``timeout_ms``, 2 s by default) of time on the engine is
	 * a hang: its context is banned and the buffer fails with
	 * ``-ETIMEDOUT``.
	 */
	DRM_VACCEL_PKT_WAIT_MEM = 5,
	/**
	 * @DRM_VACCEL_PKT_DELAY: {ns}: occupies the engine for ns nanoseconds
	 * of engine time: a preempted DELAY resumes with what is left.  Like
	 * WAIT_MEM, a DELAY longer than the hang timeout is a hang.
	 * Length 2.
	 */
	DRM_VACCEL_PKT_DELAY = 6,
	/**
	 * @DRM_VACCEL_PKT_DISPATCH: {entry, args, grid x, grid y, grid z,
	 * workgroup x, workgroup y, workgroup z, local size, stack size}:
	 * runs the RV64 kernel at entry over a grid of work-items, in
	 * workgroups; every work-item starts with a0 = args, sp at the top of
	 * its own stack of stack size bytes, and ends when it returns.  The
	 * grid counts work-items, at most
	 * &drm_vaccel_device_info.max_grid_items in all; the workgroups at its
	 * far edges may be partial.  Limits in &struct drm_vaccel_device_info;
	 * COMPUTE engines only.  A work-item's fault faults the context.  Length 11 (uapi 1.4).
	 * With %DRM_VACCEL_PKT_F_GROUP_RANGE, two more operands, {first group,
	 * group count}, make it run only a range of its workgroups (length
	 * 13, uapi 1.7): see "Workgroup ranges".
	 */
	DRM_VACCEL_PKT_DISPATCH = 7,
};

/**
 * define DRM_VACCEL_PKT_F_GROUP_RANGE - DISPATCH flag, run a range of workgroups
 *
 * The DISPATCH carries two more operands after the stack size, {first
 * group, group count}, and is 13 words long instead of 11.  See
 * "Workgroup ranges".  Since uapi 1.7.
 */
#define DRM_VACCEL_PKT_F_GROUP_RANGE	(1u << 4)

/**
 * DOC: Workgroup ranges
 *
 * The workgroups of a DISPATCH are numbered linearly in the order the
 * engine runs them, x fastest: the workgroup of group id (gx, gy, gz) is
 * number ``gx + gy * groups x + gz * groups x * groups y``, where
 * ``groups x`` is ``ceil(grid x / workgroup x)`` and likewise for y.  A
 * DISPATCH with %DRM_VACCEL_PKT_F_GROUP_RANGE runs only the workgroups
 * numbered first group to first group + group count - 1, in that order,
 * and no other: the workgroup filter of a device that shares a grid with
 * others (MGPUSim's WGFilter).  Every work-item still sees the ids and the
 * sizes of the whole dispatch: its group id, global id, the grid size and
 * the number of workgroups are those it would have in a DISPATCH without
 * the flag, so that the dispatches of several devices, each with its own
 * range, together compute what one DISPATCH of the whole grid computes.
 *
 * The range must be inside the grid: a group count of zero, a first group
 * at or past the number of workgroups of the grid, or a range that runs
 * past its last workgroup (first group + group count overflowing 64 bits
 * included) makes the packet malformed (%DRM_VACCEL_FAULT_MALFORMED; the
 * buffer fails with ``-EINVAL``).  Preemption, at every granularity, and
 * the resumption of a preempted DISPATCH keep to the range.  A packet
 * without the flag keeps its meaning: 11 words, the whole grid.
 */

/**
 * enum drm_vaccel_csr - what a DISPATCH tells each work-item
 *
 * Custom read-only CSRs (the user range 0xCC0 to 0xCFF) that a kernel reads
 * with ``csrr``; the three of a vector are x, y and z at the number given
 * and the next two.  Reading another number of the range, or writing any,
 * is a CSR fault (%DRM_VACCEL_FAULT_CSR).  Device kernels read them
 * through <vaccel_kernel.h>.  Since uapi 1.4.
 */
enum drm_vaccel_csr {
	/** @DRM_VACCEL_CSR_LOCAL_ID: the work-item's index in its workgroup */
	DRM_VACCEL_CSR_LOCAL_ID = 0xcc0,
	/** @DRM_VACCEL_CSR_GROUP_ID: the workgroup's index in the grid */
	DRM_VACCEL_CSR_GROUP_ID = 0xcc3,
	/** @DRM_VACCEL_CSR_LOCAL_SIZE: the packet's workgroup size */
	DRM_VACCEL_CSR_LOCAL_SIZE = 0xcc6,
	/** @DRM_VACCEL_CSR_NUM_GROUPS: workgroups in the grid */
	DRM_VACCEL_CSR_NUM_GROUPS = 0xcc9,
	/** @DRM_VACCEL_CSR_GLOBAL_SIZE: the packet's grid size in work-items */
	DRM_VACCEL_CSR_GLOBAL_SIZE = 0xccc,
	/**
	 * @DRM_VACCEL_CSR_FLAT_LOCAL_ID: x + y * size x + z * size x *
	 * size y of the local id (one CSR)
	 */
	DRM_VACCEL_CSR_FLAT_LOCAL_ID = 0xccf,
	/** @DRM_VACCEL_CSR_GLOBAL_ID: group id * local size + local id */
	DRM_VACCEL_CSR_GLOBAL_ID = 0xcd0,
	/**
	 * @DRM_VACCEL_CSR_LOCAL_BASE: the address of the workgroup's local
	 * memory, &drm_vaccel_device_info.local_base (one CSR)
	 */
	DRM_VACCEL_CSR_LOCAL_BASE = 0xcd3,
	/** @DRM_VACCEL_CSR_LOCAL_MEM_SIZE: the packet's local size (one CSR) */
	DRM_VACCEL_CSR_LOCAL_MEM_SIZE = 0xcd4,
};

/** define DRM_VACCEL_PKT_F_64BIT - packet flag, the value is 64 bits wide */
#define DRM_VACCEL_PKT_F_64BIT		(1u << 0)

/**
 * enum drm_vaccel_wait_op - the comparison of a WAIT_MEM, in flag bits 1-3
 */
enum drm_vaccel_wait_op {
	/** @DRM_VACCEL_WAIT_EQ: equal */
	DRM_VACCEL_WAIT_EQ = 0,
	/** @DRM_VACCEL_WAIT_NE: not equal */
	DRM_VACCEL_WAIT_NE = 1,
	/** @DRM_VACCEL_WAIT_GT: greater than, unsigned */
	DRM_VACCEL_WAIT_GT = 2,
	/** @DRM_VACCEL_WAIT_GE: greater than or equal, unsigned */
	DRM_VACCEL_WAIT_GE = 3,
	/** @DRM_VACCEL_WAIT_LT: less than, unsigned */
	DRM_VACCEL_WAIT_LT = 4,
	/** @DRM_VACCEL_WAIT_LE: less than or equal, unsigned */
	DRM_VACCEL_WAIT_LE = 5,
};

/** DRM_VACCEL_PKT_WAIT_OP() - the flag bits of a WAIT_MEM comparison @op */
#define DRM_VACCEL_PKT_WAIT_OP(op)	((op) << 1)

/**
 * define DRM_IOCTL_VACCEL_QUERY - query the device, &struct drm_vaccel_query
 */
#define DRM_IOCTL_VACCEL_QUERY \
	DRM_IOWR(DRM_COMMAND_BASE + DRM_VACCEL_QUERY, struct drm_vaccel_query)

/**
 * define DRM_IOCTL_VACCEL_BO_CREATE - create a BO, &struct drm_vaccel_bo_create
 */
#define DRM_IOCTL_VACCEL_BO_CREATE \
	DRM_IOWR(DRM_COMMAND_BASE + DRM_VACCEL_BO_CREATE, struct drm_vaccel_bo_create)

/**
 * define DRM_IOCTL_VACCEL_BO_MMAP_OFFSET - mmap offset of a BO, &struct drm_vaccel_bo_mmap_offset
 */
#define DRM_IOCTL_VACCEL_BO_MMAP_OFFSET \
	DRM_IOWR(DRM_COMMAND_BASE + DRM_VACCEL_BO_MMAP_OFFSET, struct drm_vaccel_bo_mmap_offset)

/**
 * define DRM_IOCTL_VACCEL_BO_INFO - describe a BO, &struct drm_vaccel_bo_info
 */
#define DRM_IOCTL_VACCEL_BO_INFO \
	DRM_IOWR(DRM_COMMAND_BASE + DRM_VACCEL_BO_INFO, struct drm_vaccel_bo_info)

/**
 * define DRM_IOCTL_VACCEL_VM_BIND - map and unmap GPU VAs, &struct drm_vaccel_vm_bind
 */
#define DRM_IOCTL_VACCEL_VM_BIND \
	DRM_IOW(DRM_COMMAND_BASE + DRM_VACCEL_VM_BIND, struct drm_vaccel_vm_bind)

/**
 * define DRM_IOCTL_VACCEL_CONTEXT_CREATE - create a context, &struct drm_vaccel_context_create
 */
#define DRM_IOCTL_VACCEL_CONTEXT_CREATE \
	DRM_IOWR(DRM_COMMAND_BASE + DRM_VACCEL_CONTEXT_CREATE, struct drm_vaccel_context_create)

/**
 * define DRM_IOCTL_VACCEL_CONTEXT_DESTROY - destroy a context, &struct drm_vaccel_context_destroy
 */
#define DRM_IOCTL_VACCEL_CONTEXT_DESTROY \
	DRM_IOW(DRM_COMMAND_BASE + DRM_VACCEL_CONTEXT_DESTROY, struct drm_vaccel_context_destroy)

/**
 * define DRM_IOCTL_VACCEL_CONTEXT_STATE - a context's state, &struct drm_vaccel_context_state
 */
#define DRM_IOCTL_VACCEL_CONTEXT_STATE \
	DRM_IOWR(DRM_COMMAND_BASE + DRM_VACCEL_CONTEXT_STATE, struct drm_vaccel_context_state)

/**
 * define DRM_IOCTL_VACCEL_SUBMIT - submit a DMA buffer, &struct drm_vaccel_submit
 */
#define DRM_IOCTL_VACCEL_SUBMIT \
	DRM_IOW(DRM_COMMAND_BASE + DRM_VACCEL_SUBMIT, struct drm_vaccel_submit)

/**
 * define DRM_IOCTL_VACCEL_BO_MIGRATE - move a BO to a memory region, &struct drm_vaccel_bo_migrate
 */
#define DRM_IOCTL_VACCEL_BO_MIGRATE \
	DRM_IOW(DRM_COMMAND_BASE + DRM_VACCEL_BO_MIGRATE, struct drm_vaccel_bo_migrate)

#if defined(__cplusplus)
}
#endif

#endif /* _VACCEL_ACCEL_H_ */
