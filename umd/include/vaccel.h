/* SPDX-License-Identifier: MIT */
/*
 * Copyright 2026 The vaccel authors
 *
 * vaccel.h - public interface of libvaccel, the user-mode library of the
 * vaccel virtual compute accelerator.
 *
 * Every object is an opaque handle, every function is named
 * vaccel_<object>_<verb>() and returns 0 or a negative errno unless its
 * comment says otherwise.  The library never prints and never exits.
 *
 * Thread safety: the functions that find and open devices keep no global
 * state and may be called from any thread.  The information of a
 * &struct vaccel_device does not change after vaccel_device_open() returns
 * it, so any number of threads may query the same handle at once.  The
 * memory functions (GPU virtual addresses, buffers) may be called from any
 * number of threads on the same device; a buffer must not be freed while
 * another thread still uses it.  A queue is used by one thread at a time
 * (the caller serialises the calls on one queue); different queues may be
 * used from different threads at once; a queue has a lock of its own only
 * so that vaccel_event_set_status(), in any thread, may submit the work it
 * holds back.  Events may be waited for, signalled, set and reset from any
 * number of threads, and used by several queues.
 * Modules may be loaded from any number of threads, and their kernels
 * launched on any number of queues at once; vaccel_kernel_set_stack_size(),
 * vaccel_module_read_print() and vaccel_module_destroy() must not race
 * with other uses of the same module.
 * vaccel_device_close() must not race with any other use of that handle or
 * of its buffers, queues, events and modules, which must all be gone by
 * then.
 *
 * This header does not need the kernel uapi header.  Programs that call
 * vaccel_device_query() include <drm/vaccel_accel.h> for the query types and
 * structures (pkg-config --cflags libvaccel covers both).
 */
#ifndef VACCEL_H
#define VACCEL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#if defined(__cplusplus)
extern "C" {
#endif

/*
 * struct vaccel_device - an open vaccel device (/dev/accel/accelN)
 *
 * Opaque.  Created by vaccel_device_open() or vaccel_device_open_path(),
 * destroyed by vaccel_device_close().
 */
struct vaccel_device;

/*
 * struct vaccel_bo - a buffer object: memory the device can reach
 *
 * Opaque.  Created by vaccel_bo_alloc() or vaccel_bo_import(), released by
 * vaccel_bo_free().  Mapped in the device's GPU address space for its whole
 * life, at the address vaccel_bo_va() returns.
 */
struct vaccel_bo;

/*
 * struct vaccel_queue - a command queue: records work for one engine class
 *
 * Opaque.  Created by vaccel_queue_create(), destroyed by
 * vaccel_queue_destroy().  MCDM's Command Queue: it turns the calls that
 * record work into DMA buffers and submits them to its kernel context.
 */
struct vaccel_queue;

/*
 * struct vaccel_event - a synchronisation point between queues and the CPU
 *
 * Opaque.  Created by vaccel_event_create(), destroyed by
 * vaccel_event_destroy().  A DRM syncobj: it holds the completion fence of
 * the work that signals it, or no fence at all.
 */
struct vaccel_event;

/*
 * struct vaccel_module - a kernel module loaded on a device
 *
 * Opaque.  Created by vaccel_module_load() or vaccel_module_load_file(),
 * destroyed by vaccel_module_destroy().  Its image lives in a buffer of
 * the device, code executable and read-only, data writable.
 */
struct vaccel_module;

/*
 * struct vaccel_kernel - a kernel of a module, what vaccel_launch() runs
 *
 * Opaque.  Found by vaccel_kernel_get(); belongs to its module and goes
 * with it.
 */
struct vaccel_kernel;

/**
 * enum vaccel_engine_class - the kinds of engine (values of the uapi)
 * @VACCEL_ENGINE_CLASS_COMPUTE: executes every packet, compute kernels included
 * @VACCEL_ENGINE_CLASS_COPY: executes copy, fill and synchronisation packets
 * @VACCEL_ENGINE_CLASS_PAGING: executes page-table updates; not for user work
 */
enum vaccel_engine_class {
	VACCEL_ENGINE_CLASS_COMPUTE = 0,
	VACCEL_ENGINE_CLASS_COPY = 1,
	VACCEL_ENGINE_CLASS_PAGING = 2,
};

/* Slots of &vaccel_device_info.engine_count; unknown classes count zero. */
#define VACCEL_MAX_ENGINE_CLASSES	4

/**
 * enum vaccel_preempt_granularity - where an engine can stop work
 * @VACCEL_PREEMPT_DMA_BUFFER: between two DMA buffers only
 * @VACCEL_PREEMPT_PACKET: between two packets of a DMA buffer
 * @VACCEL_PREEMPT_WORKGROUP: between two workgroups of a dispatch
 * @VACCEL_PREEMPT_INSTRUCTION: between two instructions of a kernel
 */
enum vaccel_preempt_granularity {
	VACCEL_PREEMPT_DMA_BUFFER = 0,
	VACCEL_PREEMPT_PACKET = 1,
	VACCEL_PREEMPT_WORKGROUP = 2,
	VACCEL_PREEMPT_INSTRUCTION = 3,
};

/* &vaccel_device_info.flags: one open file at a time may use the device */
#define VACCEL_DEVICE_FLAG_SINGLE_USE	(1u << 0)

/**
 * struct vaccel_device_info - what a device is, from vaccel_device_get_info()
 * @uapi_major: major uapi version of the running kernel module
 * @uapi_minor: minor uapi version of the running kernel module
 * @device_index: index of the device among the module's devices
 * @flags: VACCEL_DEVICE_FLAG_* bits
 * @single_use: @flags has %VACCEL_DEVICE_FLAG_SINGLE_USE
 * @engine_count: engines per &enum vaccel_engine_class
 * @engines_total: engines of all classes together
 * @hw_queue_depth: DMA buffers an engine holds at once
 * @va_bits: width of a GPU virtual address in bits
 * @page_size: GPU page size in bytes
 * @va_start: lowest GPU virtual address user space may map
 * @va_end: end (exclusive) of the user-mappable GPU virtual addresses
 * @driver_name: DRM driver name ("vaccel"), valid until the device is closed
 * @driver_desc: DRM driver description, valid until the device is closed
 * @driver_major: DRM driver major version
 * @driver_minor: DRM driver minor version
 * @driver_patchlevel: DRM driver patch level
 * @max_bo_size: largest buffer in bytes; 0 if the module (uapi 1.0) does
 *	not say
 * @max_bind_ops: most map and unmap operations in one VM_BIND; 0 if the
 *	module (uapi 1.0) does not say
 * @max_bos_per_file: most buffers one device handle holds, allocated and
 *	imported together; 0 if the module (uapi 1.0) does not say
 * @max_workgroup_items: most work-items in a workgroup; 0 if the module
 *	(before uapi 1.4) runs no kernels
 * @max_local_size: most local memory of a workgroup, bytes (uapi 1.4)
 * @max_stack_size: largest stack of a work-item, bytes (uapi 1.4)
 * @max_private_size: most stack memory of a workgroup, work-items times
 *	stack size, bytes (uapi 1.4)
 * @local_base: GPU address of a workgroup's local memory (uapi 1.4)
 * @private_base: GPU address of the first work-item's stack (uapi 1.4)
 * @hang_timeout_ns: engine time a buffer may run without progress before
 *	it is hung; 0 if the module (before uapi 1.5) does not say
 * @time_limit_ns: engine time a buffer may use in all, after which it
 *	fails with -ETIMEDOUT; 0 if the module (before uapi 1.5) does not say
 * @device_mem_size: bytes of the device's memory segment, where buffers
 *	placed with %VACCEL_BO_DEVICE live; 0 if the device has none or the
 *	module (before uapi 1.7) does not say (libvaccel 1.9; its free space
 *	now: vaccel_device_memory_info())
 * @reserved: zero; room for later fields without changing the size (since
 *	libvaccel 1.5: programs built against an older vaccel.h get the
 *	structure without it)
 */
struct vaccel_device_info {
	unsigned int uapi_major;
	unsigned int uapi_minor;
	unsigned int device_index;
	uint32_t flags;
	bool single_use;
	unsigned int engine_count[VACCEL_MAX_ENGINE_CLASSES];
	unsigned int engines_total;
	unsigned int hw_queue_depth;
	unsigned int va_bits;
	uint32_t page_size;
	uint64_t va_start;
	uint64_t va_end;
	const char *driver_name;
	const char *driver_desc;
	int driver_major;
	int driver_minor;
	int driver_patchlevel;
	uint64_t max_bo_size;
	unsigned int max_bind_ops;
	unsigned int max_bos_per_file;
	uint32_t max_workgroup_items;
	uint32_t max_local_size;
	uint32_t max_stack_size;
	uint32_t max_private_size;
	uint64_t local_base;
	uint64_t private_base;
	uint64_t hang_timeout_ns;
	uint64_t time_limit_ns;
	uint64_t device_mem_size;
	uint64_t reserved[7];
};

/**
 * struct vaccel_engine_info - one engine, from vaccel_device_get_engine()
 * @engine_class: &enum vaccel_engine_class
 * @instance: index of the engine within its class
 * @hw_queue_depth: DMA buffers the engine holds at once
 * @preempt_caps: supported granularities, bit (1 << granularity) for each
 * @preempt_granularity: the granularity in force, &enum vaccel_preempt_granularity
 * @compute_units: compute units that run the workgroups of a launch in
 *	parallel; 0 for an engine that runs no kernel, or a kernel before
 *	uapi 1.8 (libvaccel 1.8)
 * @reserved32: zero
 * @reserved: zero; room for later fields without changing the size
 */
struct vaccel_engine_info {
	unsigned int engine_class;
	unsigned int instance;
	unsigned int hw_queue_depth;
	uint32_t preempt_caps;
	unsigned int preempt_granularity;
	unsigned int compute_units;
	unsigned int reserved32;
	uint64_t reserved[3];
};

/**
 * vaccel_device_count() - count the vaccel devices
 *
 * Looks at every accel node (accelN) of the device directory, /dev/accel, or
 * the directory named by the environment variable VACCEL_DEVICE_DIR (a
 * testing aid, ignored in set-user-ID programs).  A node is a vaccel device
 * if its DRM driver name is "vaccel"; a node that cannot be opened counts if
 * sysfs says it belongs to vaccel, so that a busy or forbidden device still
 * has its index.
 *
 * Return: the number of devices (0 if the directory does not exist), or a
 * negative errno if the directory cannot be read.
 */
int vaccel_device_count(void);

/**
 * vaccel_device_open() - open a vaccel device by index
 * @index: which device, counting vaccel devices in accel minor order from 0
 * @out: receives the device handle on success
 *
 * Return: 0, -ENODEV if there are no more than @index devices, -EINVAL if
 * @out is NULL, or a negative errno from open() or from the queries.
 */
int vaccel_device_open(unsigned int index, struct vaccel_device **out);

/**
 * vaccel_device_open_path() - open a vaccel device by node path
 * @path: the device node, such as "/dev/accel/accel0"
 * @out: receives the device handle on success
 *
 * The node is opened with O_RDWR | O_CLOEXEC and its device information is
 * queried and cached.
 *
 * Return: 0, -ENODEV if @path is not a vaccel device, -ENOTSUP if the module
 * speaks another major uapi version, -EINVAL if an argument is NULL, or a
 * negative errno from open() (-ENOENT, -EACCES, -EBUSY, ...) or the queries.
 */
int vaccel_device_open_path(const char *path, struct vaccel_device **out);

/* Most member devices of a unified device. */
#define VACCEL_UNIFIED_MAX_MEMBERS	8

/**
 * vaccel_device_open_unified() - open several devices as one unified device
 * @indices: the member devices, by index as for vaccel_device_open(); no
 *	index twice
 * @count: entries of @indices, from 1 to %VACCEL_UNIFIED_MAX_MEMBERS
 * @out: receives the unified device on success
 *
 * MGPUSim's CreateUnifiedGPU: one device handle, usable by the rest of the
 * API as any other, backed by the member devices, each opened anew (its
 * own file, hence its own GPU address space).  A buffer of the unified
 * device is split between the members, whole pages in one contiguous range
 * per member in member order (pages 0-3, 4-7, 8-11 and 12-14 of 15 pages
 * on four members), each member's part a buffer of that member (in its
 * device memory when it has some) shared with every other member as a
 * dma-buf and mapped at the same GPU address in every member's address
 * space: every member sees the whole buffer.  vaccel_bo_map() maps the
 * parts into one contiguous range.  A queue of the unified device has a
 * queue on every member: a launch runs on every member with its share of
 * the workgroups, consecutive workgroups in member order (the workgroup
 * filter, %DRM_VACCEL_PKT_F_GROUP_RANGE of the uapi), so that each member
 * mostly touches its own pages; a copy or a fill is split by the owner of
 * the destination's pages; the other commands go to the owner of their
 * address.  The members' queues wait for each other's earlier work on the
 * device, so the queue executes in the order it is recorded, as any
 * queue.  Events and waits cover every member, and a finish waits for
 * every member.  vaccel_bo_remap() moves pages between members.
 *
 * vaccel_device_open() of index 0 opens a unified device instead when
 * the environment variable VACCEL_UNIFIED lists the member indices,
 * separated by commas (VACCEL_UNIFIED=0,1,2,3): a way to run an unchanged
 * program on a unified device (ignored in set-user-ID programs).
 *
 * What the unified device reports: the information and the engines of its
 * first member, with the GPU address range all members share and the
 * smallest of the members' limits; vaccel_device_fd() and
 * vaccel_device_query() are its first member's; vaccel_device_vm_stats()
 * adds up the members'.  A unified buffer has no one GEM handle
 * (vaccel_bo_handle() returns 0), and vaccel_bo_export() works only for a
 * buffer that has one part.  Since libvaccel 1.6.
 *
 * Return: 0, -EINVAL for a NULL pointer, a @count of 0 or above
 * %VACCEL_UNIFIED_MAX_MEMBERS or an index given twice, -ENODEV if a member
 * does not exist, -ENOTSUP if a member cannot run kernels or the members'
 * address ranges do not meet, or an error of vaccel_device_open().
 */
int vaccel_device_open_unified(const unsigned int *indices, unsigned int count,
			       struct vaccel_device **out);

/**
 * vaccel_device_member_count() - how many devices a unified device joins
 * @dev: the device
 *
 * Since libvaccel 1.6.
 *
 * Return: the number of members of a unified device, 0 for a device that
 * is not unified, or -EINVAL if @dev is NULL.
 */
int vaccel_device_member_count(const struct vaccel_device *dev);

/**
 * vaccel_device_get_member() - a member of a unified device
 * @dev: the unified device
 * @index: the member, from 0 to vaccel_device_member_count() - 1, in the
 *	order given to vaccel_device_open_unified()
 * @out: receives the member's handle, which belongs to @dev: do not close
 *	it
 *
 * The member is an ordinary device handle, for what is about one member
 * (its buffers, its queues, raw ioctls on its file); its GPU addresses
 * come from the unified device's allocator, so that nothing it maps
 * collides with a unified buffer.  Since libvaccel 1.6.
 *
 * Return: 0, -EINVAL for a NULL pointer or a device that is not unified,
 * or -ENOENT if @index is out of range.
 */
int vaccel_device_get_member(const struct vaccel_device *dev, unsigned int index,
			     struct vaccel_device **out);

/**
 * vaccel_device_close() - close a device and free its handle
 * @dev: the device, or NULL (nothing happens)
 */
void vaccel_device_close(struct vaccel_device *dev);

/**
 * vaccel_device_fd() - file descriptor of a device
 * @dev: the device
 *
 * The descriptor stays owned by @dev: do not close it.
 *
 * Return: the descriptor, or -EINVAL if @dev is NULL.
 */
int vaccel_device_fd(const struct vaccel_device *dev);

/**
 * vaccel_device_path() - node path a device was opened from
 * @dev: the device
 *
 * Return: the path, valid until vaccel_device_close(), or NULL if @dev is NULL.
 */
const char *vaccel_device_path(const struct vaccel_device *dev);

/**
 * vaccel_device_query() - raw DRM_IOCTL_VACCEL_QUERY
 * @dev: the device
 * @type: a DRM_VACCEL_QUERY_* value of <drm/vaccel_accel.h>
 * @buf: buffer for the answer; not looked at when *@size is 0
 * @size: in: bytes at @buf, or 0 to ask for the size; out: size of the answer
 *
 * The size negotiation of &struct drm_vaccel_query: the kernel writes at most
 * *@size bytes, clears the rest of the buffer and reports the full size of
 * the answer.  *@size is left alone on failure.
 *
 * Return: 0, -EINVAL (bad argument, unknown @type, or *@size too small),
 * -EFAULT (@buf cannot be written) or another negative errno of the ioctl.
 */
int vaccel_device_query(struct vaccel_device *dev, uint32_t type, void *buf,
			uint32_t *size);

/**
 * vaccel_device_get_info() - device information, cached at open
 * @dev: the device
 * @out: filled on success
 *
 * Return: 0, or -EINVAL if an argument is NULL.
 */
int vaccel_device_get_info(const struct vaccel_device *dev,
			   struct vaccel_device_info *out);

/**
 * vaccel_device_engine_count() - number of engines of a device
 * @dev: the device
 *
 * Return: the number of engines of all classes, or -EINVAL if @dev is NULL.
 */
int vaccel_device_engine_count(const struct vaccel_device *dev);

/**
 * vaccel_device_get_engine() - one engine of a device, cached at open
 * @dev: the device
 * @index: the engine, from 0 to vaccel_device_engine_count() - 1; engines
 *	   are ordered by class, then instance
 * @out: filled on success
 *
 * Return: 0, -ENOENT if @index is out of range, or -EINVAL if an argument
 * is NULL.
 */
int vaccel_device_get_engine(const struct vaccel_device *dev, unsigned int index,
			     struct vaccel_engine_info *out);

/**
 * vaccel_engine_class_name() - name of an engine class
 * @engine_class: &enum vaccel_engine_class
 *
 * Return: "compute", "copy" or "paging", or NULL for an unknown class.
 */
const char *vaccel_engine_class_name(unsigned int engine_class);

/**
 * vaccel_preempt_granularity_name() - name of a preemption granularity
 * @granularity: &enum vaccel_preempt_granularity
 *
 * Return: "dma-buffer", "packet", "workgroup" or "instruction", or NULL for
 * an unknown granularity.
 */
const char *vaccel_preempt_granularity_name(unsigned int granularity);

/**
 * enum vaccel_bo_flags - flags of vaccel_bo_alloc()
 * @VACCEL_BO_NO_MMAP: the buffer is for the device only: vaccel_bo_map()
 *	fails with -EPERM
 * @VACCEL_BO_GPU_READ_ONLY: the device may read the buffer but not write it
 * @VACCEL_BO_GPU_NO_EXEC: the device may not fetch code from the buffer
 * @VACCEL_BO_DEVICE: place the buffer in the device's memory segment
 *	(&vaccel_device_info.device_mem_size); idle buffers there are evicted
 *	to system memory to make room, and vaccel_bo_alloc() fails with
 *	-ENOSPC if it cannot fit even so (libvaccel 1.9, uapi 1.7)
 * @VACCEL_BO_DEVICE_PREFERRED: as %VACCEL_BO_DEVICE if the buffer fits,
 *	else in system memory; not together with %VACCEL_BO_DEVICE
 *	(libvaccel 1.9, uapi 1.7)
 *
 * Without a placement flag a buffer lives in system memory.  The kernel
 * brings an evicted buffer placed in device memory back when work that
 * uses it is submitted; the CPU maps a buffer wherever it is.
 */
enum vaccel_bo_flags {
	VACCEL_BO_NO_MMAP = 1u << 0,
	VACCEL_BO_GPU_READ_ONLY = 1u << 1,
	VACCEL_BO_GPU_NO_EXEC = 1u << 2,
	VACCEL_BO_DEVICE = 1u << 3,
	VACCEL_BO_DEVICE_PREFERRED = 1u << 4,
};

/**
 * struct vaccel_vm_stats - the GPU address space of a device handle
 * @mappings: number of mappings
 * @mapped_bytes: bytes of GPU virtual address space mapped
 * @pt_pages: page-table pages, the root table included
 * @pt_bytes: bytes of page-table memory
 * @reserved: zero; room for later fields without changing the size
 *
 * Filled by vaccel_device_vm_stats().
 */
struct vaccel_vm_stats {
	uint64_t mappings;
	uint64_t mapped_bytes;
	uint64_t pt_pages;
	uint64_t pt_bytes;
	uint64_t reserved[4];
};

/**
 * vaccel_device_vm_stats() - statistics of a device handle's GPU address space
 * @dev: the device
 * @out: filled on success
 *
 * Each device handle (each open file) has its own GPU address space, a VM;
 * this asks the kernel how many mappings it has and how much page-table
 * memory they take.
 *
 * Return: 0, -EINVAL if an argument is NULL or the module does not have the
 * query (uapi 1.0), or another negative errno of the ioctl.
 */
int vaccel_device_vm_stats(struct vaccel_device *dev, struct vaccel_vm_stats *out);

/**
 * vaccel_va_alloc() - reserve GPU virtual addresses
 * @dev: the device
 * @size: bytes; rounded up to whole 4 KiB pages
 * @align: alignment of the address: a power of two of at least 4096, or 0
 *	for 4096
 * @va: receives the lowest address of the range
 *
 * In the GpuMmu model the user-mode driver chooses GPU virtual addresses.
 * Every device handle has an allocator over the range the device allows,
 * &vaccel_device_info.va_start to &vaccel_device_info.va_end; buffers take
 * their addresses from it too.  It is first fit, lowest address first, and
 * reuses freed addresses at once.  The range is only reserved: map it with
 * the VM_BIND ioctl if wanted.  Thread-safe.
 *
 * Return: 0, -EINVAL for a NULL pointer, a zero @size or a bad @align,
 * -ENOSPC if no free range of that size and alignment is left, or -ENOMEM.
 */
int vaccel_va_alloc(struct vaccel_device *dev, uint64_t size, uint64_t align,
		    uint64_t *va);

/**
 * vaccel_va_free() - give back GPU virtual addresses
 * @dev: the device
 * @va: an address from vaccel_va_alloc()
 * @size: the size given to vaccel_va_alloc() for it
 *
 * Frees one whole allocation; its addresses can be handed out again at
 * once, so nothing may be mapped there any more.  Thread-safe.
 *
 * Return: 0, or -EINVAL if @dev is NULL or [@va, @va + @size) is not one
 * live allocation (a double free, a wrong size, an address inside an
 * allocation).  The addresses of buffers come from the same allocator:
 * never free them here.
 */
int vaccel_va_free(struct vaccel_device *dev, uint64_t va, uint64_t size);

/**
 * vaccel_bo_alloc() - allocate a buffer and map it for the device
 * @dev: the device
 * @size: bytes; the kernel rounds it up to whole pages
 * @flags: a combination of &enum vaccel_bo_flags
 * @out: receives the buffer on success
 *
 * Creates a buffer object filled with zeros, gives it a GPU virtual address
 * (aligned to 64 KiB for buffers of 64 KiB and more, to 4 KiB otherwise)
 * and maps it there in @dev's address space.  On failure nothing is left
 * behind.  Thread-safe.
 *
 * Return: 0, -EINVAL for a NULL pointer, a zero @size, an unknown flag or
 * both placement flags, -ENOTSUP for a placement flag on a module before
 * uapi 1.7, -E2BIG if @size is above &vaccel_device_info.max_bo_size,
 * -ENOSPC if the GPU address space is full, @dev holds
 * &vaccel_device_info.max_bos_per_file buffers already or a
 * %VACCEL_BO_DEVICE buffer does not fit the device's memory, -ENODEV for
 * %VACCEL_BO_DEVICE on a device without device memory, -ENOMEM, or another
 * negative errno of the kernel.
 */
int vaccel_bo_alloc(struct vaccel_device *dev, uint64_t size, uint32_t flags,
		    struct vaccel_bo **out);

/**
 * vaccel_bo_import() - import a dma-buf as a buffer and map it for the device
 * @dev: the device
 * @fd: a dma-buf file descriptor, from vaccel_bo_export() of any device or
 *	from another driver; it stays the caller's to close
 * @out: receives the buffer on success
 *
 * The buffer gets a GPU virtual address and is mapped there like one of
 * vaccel_bo_alloc().  If @dev already has a buffer for that dma-buf (it
 * exported it, or imported it before), the same &struct vaccel_bo is
 * returned with one more reference, which vaccel_bo_free() drops.
 * Thread-safe.
 *
 * Return: 0, -EINVAL for a NULL pointer or a negative @fd, -ENOSPC if the
 * GPU address space is full or @dev holds
 * &vaccel_device_info.max_bos_per_file buffers already, -ENOMEM, or another
 * negative errno of the kernel (such as -EBADF, or -EINVAL if @fd is not a
 * dma-buf).
 */
int vaccel_bo_import(struct vaccel_device *dev, int fd, struct vaccel_bo **out);

/**
 * vaccel_bo_free() - drop a reference to a buffer
 * @bo: the buffer, or NULL (nothing happens)
 *
 * Dropping the last reference unmaps the buffer from the CPU (the pointer
 * of vaccel_bo_map() becomes invalid) and from the device, gives back its
 * GPU virtual addresses and closes its handle.  The memory lives on while
 * dma-bufs or other processes still use it.  Thread-safe, but not against
 * other uses of the same @bo.
 */
void vaccel_bo_free(struct vaccel_bo *bo);

/**
 * vaccel_bo_map() - map a buffer for the CPU
 * @bo: the buffer
 * @ptr: receives the address of the mapping (read and write, shared)
 *
 * The mapping is made on the first call and kept until vaccel_bo_free();
 * later calls return the same address.  Thread-safe.
 *
 * Return: 0, -EINVAL for a NULL pointer, -EPERM for a buffer allocated with
 * %VACCEL_BO_NO_MMAP, or a negative errno of the kernel or of mmap().
 */
int vaccel_bo_map(struct vaccel_bo *bo, void **ptr);

/**
 * vaccel_bo_va() - GPU virtual address of a buffer
 * @bo: the buffer
 *
 * Return: the address where the buffer is mapped in its device's address
 * space, or 0 if @bo is NULL (0 is never a valid address).
 */
uint64_t vaccel_bo_va(const struct vaccel_bo *bo);

/**
 * vaccel_bo_size() - size of a buffer
 * @bo: the buffer
 *
 * Return: the size in bytes, rounded up to whole pages by the kernel, or 0
 * if @bo is NULL.
 */
uint64_t vaccel_bo_size(const struct vaccel_bo *bo);

/**
 * vaccel_bo_handle() - GEM handle of a buffer
 * @bo: the buffer
 *
 * For raw ioctls on vaccel_device_fd().  The handle stays owned by @bo: do
 * not close it.
 *
 * Return: the handle, or 0 if @bo is NULL.
 */
uint32_t vaccel_bo_handle(const struct vaccel_bo *bo);

/**
 * vaccel_bo_export() - export a buffer as a dma-buf
 * @bo: the buffer
 * @fd: receives a new dma-buf file descriptor (close-on-exec, read-write),
 *	which the caller closes
 *
 * Another process, or another device, imports it with vaccel_bo_import().
 * Thread-safe.
 *
 * Return: 0, -EINVAL for a NULL pointer, or a negative errno of the kernel.
 */
int vaccel_bo_export(struct vaccel_bo *bo, int *fd);

/**
 * vaccel_bo_owner() - which member of a unified device holds a page
 * @bo: the buffer
 * @offset: a byte of the buffer
 *
 * Since libvaccel 1.6.
 *
 * Return: the index of the member whose part holds @offset (0 for a
 * buffer of a device that is not unified), or -EINVAL for a NULL @bo or
 * an @offset past the buffer.
 */
int vaccel_bo_owner(const struct vaccel_bo *bo, uint64_t offset);

/**
 * vaccel_bo_remap() - move pages of a unified buffer to another member
 * @bo: a buffer of a unified device
 * @offset: the first byte, a multiple of 4096
 * @size: bytes, a non-zero multiple of 4096, within the buffer
 * @member: the member that holds the pages afterwards
 *
 * MGPUSim's Remap, with the data kept: the pages get a new buffer on
 * @member, the device copies their contents there, and the new pages
 * take the place of the old ones at the same GPU address in every
 * member's address space, and in the CPU mapping.  The parts of the old
 * buffers outside the range move to new buffers of their owner too, so
 * that every part is one buffer mapped whole.  Work that uses the buffer
 * must have completed (vaccel_queue_finish()), as for vaccel_bo_free(),
 * and no other thread may use it meanwhile.  On failure the buffer is as
 * it was.  Since libvaccel 1.6.
 *
 * Return: 0, -EINVAL for a NULL @bo, a buffer of a device that is not
 * unified, a misaligned or empty range, a range past the buffer or an
 * unknown @member, -ENOMEM, -ENOSPC, or an error of the kernel or of the
 * copy.
 */
int vaccel_bo_remap(struct vaccel_bo *bo, uint64_t offset, uint64_t size,
		    unsigned int member);

/**
 * enum vaccel_priority - priority of a queue (values of the uapi)
 * @VACCEL_PRIORITY_LOW: background work
 * @VACCEL_PRIORITY_NORMAL: the default
 * @VACCEL_PRIORITY_HIGH: latency-sensitive work; needs CAP_SYS_NICE
 * @VACCEL_PRIORITY_REALTIME: the highest; needs CAP_SYS_NICE
 */
enum vaccel_priority {
	VACCEL_PRIORITY_LOW = 0,
	VACCEL_PRIORITY_NORMAL = 1,
	VACCEL_PRIORITY_HIGH = 2,
	VACCEL_PRIORITY_REALTIME = 3,
};

/**
 * enum vaccel_compare - the condition of vaccel_queue_wait_mem()
 * @VACCEL_COMPARE_EQ: the masked value equals the masked reference
 * @VACCEL_COMPARE_NE: it differs from it
 * @VACCEL_COMPARE_GT: it is greater, unsigned
 * @VACCEL_COMPARE_GE: it is greater or equal, unsigned
 * @VACCEL_COMPARE_LT: it is less, unsigned
 * @VACCEL_COMPARE_LE: it is less or equal, unsigned
 *
 * The values are those of the uapi's WAIT_MEM packet.
 */
enum vaccel_compare {
	VACCEL_COMPARE_EQ = 0,
	VACCEL_COMPARE_NE = 1,
	VACCEL_COMPARE_GT = 2,
	VACCEL_COMPARE_GE = 3,
	VACCEL_COMPARE_LT = 4,
	VACCEL_COMPARE_LE = 5,
};

/* Bytes of one DMA buffer of a queue's pool. */
#define VACCEL_QUEUE_BUFFER_SIZE	(64u * 1024)
/* DMA buffers a queue's pool holds at most. */
#define VACCEL_QUEUE_MAX_BUFFERS	16u

/**
 * vaccel_queue_create() - create a command queue
 * @dev: the device
 * @engine_class: %VACCEL_ENGINE_CLASS_COMPUTE or %VACCEL_ENGINE_CLASS_COPY
 * @priority: &enum vaccel_priority
 * @out: receives the queue on success
 *
 * Creates a kernel context on the engine of @engine_class that has the
 * fewest contexts, executing in @dev's GPU address space.  Work recorded
 * into the queue (vaccel_queue_copy() and the other recording functions) is
 * appended to a DMA buffer; vaccel_queue_flush() submits it, and a buffer
 * that fills up is submitted by itself and recording continues in the
 * next, so a recording of any length executes in order.  The DMA buffers
 * (%VACCEL_QUEUE_BUFFER_SIZE bytes each, mapped read-only for the device)
 * come from a pool of the queue, reused once the device has executed them;
 * the pool grows as needed up to %VACCEL_QUEUE_MAX_BUFFERS buffers, after
 * which recording waits for the oldest buffer to complete.
 *
 * Work of one queue executes in the order it is recorded, each command
 * after the previous one has completed; events order the work of different
 * queues and the CPU.
 *
 * Return: 0, -EINVAL for a NULL pointer, another engine class or an unknown
 * priority, -ENODEV if the device has no engine of @engine_class, -EPERM
 * for a priority above %VACCEL_PRIORITY_NORMAL without CAP_SYS_NICE,
 * -ENOSPC if @dev has too many queues, -ENOMEM, or another negative errno
 * of the kernel.
 */
int vaccel_queue_create(struct vaccel_device *dev,
			enum vaccel_engine_class engine_class,
			enum vaccel_priority priority, struct vaccel_queue **out);

/**
 * vaccel_queue_destroy() - destroy a command queue
 * @q: the queue, or NULL (nothing happens)
 *
 * Work recorded but not flushed is dropped; submitted work that has not
 * completed is cancelled, and the events it was to signal signal with an
 * error: -ECANCELED, whatever point the work reached (work that still
 * waited for an event signals once that event has).  Work held back in
 * user space (see vaccel_event_set_status()) is dropped too, and its
 * events fail with -ECANCELED at once.  Call vaccel_queue_finish() first
 * to let the work complete.  Returns without waiting for any event, once the
 * device no longer uses the queue's DMA buffers.
 */
void vaccel_queue_destroy(struct vaccel_queue *q);

/**
 * vaccel_queue_copy() - record a copy
 * @q: the queue
 * @dst_va: GPU virtual address of the destination
 * @src_va: GPU virtual address of the source
 * @size: bytes; 0 records nothing
 *
 * Overlapping ranges are copied as memmove() does.  An address the device
 * cannot read or write faults the queue when the copy executes.
 *
 * Return: 0, -EINVAL if @q is NULL, -ECANCELED if the queue has faulted,
 * or the error of submitting a full DMA buffer or of getting a new one
 * (see vaccel_queue_flush()).
 */
int vaccel_queue_copy(struct vaccel_queue *q, uint64_t dst_va, uint64_t src_va,
		      uint64_t size);

/**
 * vaccel_queue_fill() - record a fill
 * @q: the queue
 * @dst_va: GPU virtual address, a multiple of 4
 * @size: bytes, a multiple of 4; 0 records nothing
 * @value: the 32-bit pattern stored in every 4 bytes
 *
 * Return: 0, -EINVAL if @q is NULL or @dst_va or @size is not a multiple
 * of 4, or an error as for vaccel_queue_copy().
 */
int vaccel_queue_fill(struct vaccel_queue *q, uint64_t dst_va, uint64_t size,
		      uint32_t value);

/**
 * vaccel_queue_write() - record the write of an immediate value
 * @q: the queue
 * @va: GPU virtual address, aligned to the size written
 * @value: the value; with @bits 32, its low 32 bits are written
 * @bits: 32 or 64
 *
 * Return: 0, -EINVAL if @q is NULL, @bits is neither 32 nor 64 or @va is
 * misaligned, or an error as for vaccel_queue_copy().
 */
int vaccel_queue_write(struct vaccel_queue *q, uint64_t va, uint64_t value,
		       unsigned int bits);

/**
 * vaccel_queue_timestamp() - record the write of the engine's clock
 * @q: the queue
 * @va: GPU virtual address, a multiple of 8
 *
 * When the command executes, the engine stores its clock as a 64-bit count
 * of nanoseconds at @va.  The clock is the CPU's CLOCK_MONOTONIC, so
 * timestamps compare with clock_gettime() and with each other across
 * engines.
 *
 * Return: 0, -EINVAL if @q is NULL or @va is not a multiple of 8, or an
 * error as for vaccel_queue_copy().
 */
int vaccel_queue_timestamp(struct vaccel_queue *q, uint64_t va);

/**
 * vaccel_queue_wait_mem() - record a wait for a value in memory
 * @q: the queue
 * @va: GPU virtual address of the value, aligned to its size
 * @ref: the reference
 * @mask: the bits compared; with @bits 32, its low 32 bits
 * @op: &enum vaccel_compare
 * @bits: 32 or 64, the size of the value
 *
 * The queue stops at this command until the value at @va, masked with
 * @mask, compares with @ref, masked likewise, as @op says; the CPU,
 * another queue or this one (in an earlier command) may write the value.
 * A wait that never ends keeps the queue busy until it is destroyed.
 *
 * Return: 0, -EINVAL if @q is NULL, @op is unknown, @bits is neither 32
 * nor 64 or @va is misaligned, or an error as for vaccel_queue_copy().
 */
int vaccel_queue_wait_mem(struct vaccel_queue *q, uint64_t va, uint64_t ref,
			  uint64_t mask, enum vaccel_compare op, unsigned int bits);

/**
 * vaccel_queue_delay() - record a delay
 * @q: the queue
 * @ns: nanoseconds the engine spends on the command
 *
 * A test aid: it makes an engine busy for a known time.
 *
 * Return: 0, -EINVAL if @q is NULL, or an error as for vaccel_queue_copy().
 */
int vaccel_queue_delay(struct vaccel_queue *q, uint64_t ns);

/**
 * struct vaccel_queue_stats - how a queue's work has fared on its engine
 * @engine_ns: time its work spent executing on the engine
 * @preemptions: times the engine was taken from its work before it ended
 *	(by higher-priority work, the end of a time slice, or a reset)
 * @guilty_resets: engine resets caused by its work hanging (0 or 1: the
 *	queue takes no more work after a hang)
 * @innocent_resets: resets that interrupted its work, which then resumed
 * @error: 0 while the queue takes work; once it does not, why: -EFAULT or
 *	-EINVAL for a fault, -ETIMEDOUT for a hang or the time limit
 *	(vaccel_queue_get_fault() says more)
 * @reserved: zero; room for later fields without changing the size (since
 *	libvaccel 1.5: programs built against an older vaccel.h get the
 *	structure without it)
 */
struct vaccel_queue_stats {
	uint64_t engine_ns;
	uint64_t preemptions;
	uint32_t guilty_resets;
	uint32_t innocent_resets;
	int error;
	uint64_t reserved[4];
};

/**
 * vaccel_queue_get_stats() - what the device reports about a queue
 * @q: the queue
 * @stats: filled on success
 *
 * Since libvaccel 1.3 (uapi 1.3).
 *
 * Return: 0, -EINVAL for a NULL pointer, or a negative errno of the kernel.
 */
int vaccel_queue_get_stats(struct vaccel_queue *q, struct vaccel_queue_stats *stats);

/**
 * vaccel_queue_flush() - submit the work recorded so far
 * @q: the queue
 *
 * Submits the recorded work that is not submitted yet, with the waits of
 * vaccel_queue_wait_event() since the last submission; does nothing if
 * there is neither.  Does not wait for the work to execute.  Work held
 * back behind an unset host event stays held (vaccel_event_set_status()):
 * it is submitted when the event is set.  After a
 * failure other than -ECANCELED the work stays recorded, and a later call
 * submits it.
 *
 * Return: 0, -EINVAL if @q is NULL, -ECANCELED if the queue has faulted
 * or hung (destroy it: it accepts no more work), or another negative errno
 * of the kernel (such as -ENOMEM).
 */
int vaccel_queue_flush(struct vaccel_queue *q);

/**
 * vaccel_queue_finish() - submit the work recorded so far and wait for it
 * @q: the queue
 *
 * Flushes @q, then waits until all its submitted work has completed.
 * Work held back behind an unset host event is waited for too: this
 * blocks until the event is set and the work submitted (as clFinish()
 * does), or until the work is dropped because the event failed, which is
 * not an error of the queue (its events report it).  Another thread may
 * set the event meanwhile.  When work of the queue failed, the queue refuses further work with
 * -ECANCELED from then on, and vaccel_queue_get_fault() says which
 * command failed and why.
 *
 * Return: 0 when all the work completed without error; -EFAULT if a command
 * of the queue touched memory the device may not access (an unmapped
 * address, a write to read-only memory) or a kernel it launched faulted
 * (an illegal instruction, a misaligned jump, ...), -EINVAL if a DMA
 * buffer was malformed, -ETIMEDOUT if its work hung the engine (made no
 * progress for the device's timeout) or used up its time limit and was
 * stopped, -ECANCELED if the queue had failed before or its work was
 * cancelled; -EINVAL if @q is NULL; or another negative errno of the
 * kernel.
 */
int vaccel_queue_finish(struct vaccel_queue *q);

/**
 * vaccel_queue_signal() - signal an event when the work so far completes
 * @q: the queue
 * @ev: the event, of the same device
 *
 * Flushes @q: the event signals when everything recorded into @q before
 * this call has completed, or with the error of that work if it failed
 * (see vaccel_event_wait()).  The event's previous fence is replaced.
 *
 * Return: 0, -EINVAL if an argument is NULL or @ev belongs to another
 * device, or an error as for vaccel_queue_flush().
 */
int vaccel_queue_signal(struct vaccel_queue *q, struct vaccel_event *ev);

/**
 * vaccel_queue_wait_event() - make the work recorded next wait for an event
 * @q: the queue
 * @ev: the event, of the same device
 *
 * Flushes the work recorded so far, which does not wait, and makes what is
 * recorded after this call wait until @ev has signalled.  The fence @ev
 * holds now is the one waited for: signalling or resetting @ev later does
 * not change the wait.  The device waits, not the CPU: this returns at
 * once.  Work of a queue executes in order, so everything @q executes from
 * then on waits too.  A wait for an event that signalled with an error
 * completes all the same.
 *
 * The event must have a fence already: vaccel_queue_signal() or
 * vaccel_event_signal() on it, and no vaccel_event_reset() since.  Since
 * libvaccel 1.9 it may also be a host event (%VACCEL_EVENT_HOST, of any
 * device) or a pending event, one whose signalling command is held back:
 * then what is recorded after this call is held back in user space until
 * the event is set or its command submitted (see
 * vaccel_event_set_status()).
 *
 * Return: 0, -EINVAL if an argument is NULL, @ev belongs to another device
 * or @ev has no fence, -ENOTSUP for a host or pending event on a unified
 * device, or an error as for vaccel_queue_flush().
 */
int vaccel_queue_wait_event(struct vaccel_queue *q, struct vaccel_event *ev);

/**
 * enum vaccel_failure - why a queue takes no more work
 * @VACCEL_FAILURE_NONE: it has not failed
 * @VACCEL_FAILURE_FAULT: a command faulted: see &vaccel_fault_info.reason
 * @VACCEL_FAILURE_HANG: a command made no progress for the device's hang
 *	timeout (&vaccel_device_info.hang_timeout_ns); the engine was reset
 * @VACCEL_FAILURE_TIME_LIMIT: a DMA buffer used up its time limit of
 *	engine time (&vaccel_device_info.time_limit_ns) while progressing
 *
 * The values are those of the uapi's ban reasons.
 */
enum vaccel_failure {
	VACCEL_FAILURE_NONE = 0,
	VACCEL_FAILURE_FAULT = 1,
	VACCEL_FAILURE_HANG = 2,
	VACCEL_FAILURE_TIME_LIMIT = 3,
};

/**
 * enum vaccel_fault_reason - what a faulting command did (values of the uapi)
 * @VACCEL_FAULT_NONE: no fault
 * @VACCEL_FAULT_UNMAPPED: it accessed an address that is not mapped
 * @VACCEL_FAULT_OUT_OF_RANGE: it accessed an address outside the GPU
 *	address space (a kernel's stack overflow, a wild pointer)
 * @VACCEL_FAULT_PERMISSION: it wrote to read-only memory, or fetched
 *	instructions from memory that is not executable
 * @VACCEL_FAULT_MALFORMED: a packet of its DMA buffer was malformed
 * @VACCEL_FAULT_ILLEGAL_INSTRUCTION: a kernel executed an instruction the
 *	engines do not implement; &vaccel_fault_info.va holds its word
 * @VACCEL_FAULT_COMPRESSED: a kernel executed a compressed instruction
 * @VACCEL_FAULT_MISALIGNED: a kernel jumped to an address not a multiple
 *	of 4, or made a misaligned atomic access
 * @VACCEL_FAULT_CSR: a kernel read an unknown CSR or wrote a read-only
 *	one; &vaccel_fault_info.va holds the CSR number
 * @VACCEL_FAULT_TRAP: a kernel executed ECALL or EBREAK
 */
enum vaccel_fault_reason {
	VACCEL_FAULT_NONE = 0,
	VACCEL_FAULT_UNMAPPED = 1,
	VACCEL_FAULT_OUT_OF_RANGE = 2,
	VACCEL_FAULT_PERMISSION = 3,
	VACCEL_FAULT_MALFORMED = 4,
	VACCEL_FAULT_ILLEGAL_INSTRUCTION = 5,
	VACCEL_FAULT_COMPRESSED = 6,
	VACCEL_FAULT_MISALIGNED = 7,
	VACCEL_FAULT_CSR = 8,
	VACCEL_FAULT_TRAP = 9,
};

/**
 * enum vaccel_access - what the engine was doing when it faulted
 * @VACCEL_ACCESS_READ: reading data, or fetching a packet
 * @VACCEL_ACCESS_WRITE: writing
 * @VACCEL_ACCESS_EXEC: fetching an instruction of a kernel
 */
enum vaccel_access {
	VACCEL_ACCESS_READ = 0,
	VACCEL_ACCESS_WRITE = 1,
	VACCEL_ACCESS_EXEC = 2,
};

/**
 * enum vaccel_command - the recording function a command came from
 * @VACCEL_COMMAND_UNKNOWN: not known: a packet the queue did not record
 *	itself (a raw DMA buffer), or a kernel module older than uapi 1.6,
 *	which does not say which buffer failed
 * @VACCEL_COMMAND_COPY: vaccel_queue_copy()
 * @VACCEL_COMMAND_FILL: vaccel_queue_fill()
 * @VACCEL_COMMAND_WRITE: vaccel_queue_write()
 * @VACCEL_COMMAND_TIMESTAMP: vaccel_queue_timestamp()
 * @VACCEL_COMMAND_WAIT_MEM: vaccel_queue_wait_mem()
 * @VACCEL_COMMAND_DELAY: vaccel_queue_delay()
 * @VACCEL_COMMAND_DISPATCH: vaccel_queue_dispatch()
 * @VACCEL_COMMAND_LAUNCH: vaccel_launch()
 */
enum vaccel_command {
	VACCEL_COMMAND_UNKNOWN = 0,
	VACCEL_COMMAND_COPY = 1,
	VACCEL_COMMAND_FILL = 2,
	VACCEL_COMMAND_WRITE = 3,
	VACCEL_COMMAND_TIMESTAMP = 4,
	VACCEL_COMMAND_WAIT_MEM = 5,
	VACCEL_COMMAND_DELAY = 6,
	VACCEL_COMMAND_DISPATCH = 7,
	VACCEL_COMMAND_LAUNCH = 8,
};

/**
 * struct vaccel_fault_info - why a queue failed, from vaccel_queue_get_fault()
 * @failure: &enum vaccel_failure; %VACCEL_FAILURE_NONE while the queue works,
 *	and then every other field is zero
 * @error: the errno of the failure, as vaccel_queue_finish() reports it:
 *	-EFAULT for a fault, -EINVAL for a malformed packet, -ETIMEDOUT for a
 *	hang or the time limit
 * @reason: for a fault, &enum vaccel_fault_reason
 * @access: for a fault, &enum vaccel_access
 * @va: for a fault, the GPU address that faulted; the instruction word for
 *	%VACCEL_FAULT_ILLEGAL_INSTRUCTION, the CSR number for
 *	%VACCEL_FAULT_CSR
 * @pc: for a fault of a kernel, the GPU address of the instruction; 0
 *	otherwise
 * @submission: the submission of the queue that held the failing command,
 *	counting from 1 (a flush submits what was recorded since the last
 *	one; a full DMA buffer is submitted by itself); 0 if not known
 * @buffer_va: GPU address of that submission's DMA buffer
 * @packet_offset: offset in bytes of the command's packet in that buffer
 * @command: &enum vaccel_command, the recording function of the command
 * @command_index: which command of the queue it is: the queue counts the
 *	calls of its recording functions that recorded something, from 1
 *	(vaccel_queue_copy() and the others, vaccel_queue_dispatch() and
 *	vaccel_launch()); 0 if not known
 * @kernel: for a launch or a dispatch, the kernel's name, if its module is
 *	still loaded (or was when the failure was first seen); else NULL
 * @function: for a fault of a kernel, the function of its module that
 *	holds @pc (from the module's symbol table), or NULL
 * @function_offset: @pc's offset in @function
 * @elf_pc: @pc as an address of the module's ELF file, for
 *	``llvm-addr2line -e module.elf`` or ``llvm-objdump``; 0 if @pc is in
 *	no loaded module
 * @reserved: zero; room for later fields without changing the size
 *
 * @kernel and @function point into the queue: they are valid until the
 * next vaccel_queue_get_fault() of the queue or its destruction.
 */
struct vaccel_fault_info {
	unsigned int failure;
	int error;
	unsigned int reason;
	unsigned int access;
	uint64_t va;
	uint64_t pc;
	uint64_t submission;
	uint64_t buffer_va;
	uint64_t packet_offset;
	unsigned int command;
	uint64_t command_index;
	const char *kernel;
	const char *function;
	uint64_t function_offset;
	uint64_t elf_pc;
	uint64_t reserved[8];
};

/**
 * vaccel_queue_get_fault() - which command made a queue fail, and why
 * @q: the queue
 * @out: filled on success
 *
 * Once work of a queue has faulted, hung or used up its time limit (the
 * kernel then bans the queue's context: vaccel_queue_finish() reports
 * -EFAULT, -EINVAL or -ETIMEDOUT, and then -ECANCELED), this says why,
 * as the kernel recorded it, and which command it was: the queue keeps,
 * for each of its DMA buffers that the device may still read, which
 * command each packet came from.  For a kernel, it also names the kernel
 * and the function of its module the faulting instruction is in.  The
 * record stays the same for the rest of the queue's life.
 * vaccel_fault_info_format() makes a line of text of it.  Since libvaccel
 * 1.5; the command is known with kernel modules of uapi 1.6 and later.
 *
 * Return: 0 (with &vaccel_fault_info.failure %VACCEL_FAILURE_NONE if the
 * queue has not failed), -EINVAL for a NULL pointer, or a negative errno
 * of the kernel.
 */
int vaccel_queue_get_fault(struct vaccel_queue *q, struct vaccel_fault_info *out);

/* A buffer of this size holds any line of vaccel_fault_info_format(). */
#define VACCEL_FAULT_MSG_SIZE		1024

/**
 * vaccel_fault_info_format() - one line of text that says why a queue failed
 * @info: the record, from vaccel_queue_get_fault()
 * @buf: receives the line, NUL-terminated, without a newline
 * @size: bytes at @buf (%VACCEL_FAULT_MSG_SIZE holds any line)
 *
 * Such as these two (each one line, wrapped here)::
 *
 *   fault: read of unmapped address 0x15040 by launch #3 (kernel tf_load,
 *   pc 0x1000c tf_deref+0x0, elf 0xc), submission 1, packet +0xa8 of DMA
 *   buffer 0x30000
 *   hang: no progress for the hang timeout in wait-mem #2, submission 1,
 *   packet +0x18 of DMA buffer 0x30000
 *
 * Return: the length of the whole line, as snprintf() does (a line longer
 * than @size - 1 is cut short), or -EINVAL for a NULL @info, or a NULL
 * @buf with a non-zero @size.
 */
int vaccel_fault_info_format(const struct vaccel_fault_info *info, char *buf,
			     size_t size);

/**
 * vaccel_failure_name() - name of a failure
 * @failure: &enum vaccel_failure
 *
 * Return: "none", "fault", "hang" or "time-limit", or NULL for an unknown
 * value.
 */
const char *vaccel_failure_name(unsigned int failure);

/**
 * vaccel_fault_reason_name() - name of a fault reason
 * @reason: &enum vaccel_fault_reason
 *
 * Return: "none", "unmapped", "out-of-range", "permission", "malformed",
 * "illegal-instruction", "compressed-instruction", "misaligned", "csr" or
 * "trap", or NULL for an unknown value.
 */
const char *vaccel_fault_reason_name(unsigned int reason);

/**
 * vaccel_access_name() - name of an access
 * @access: &enum vaccel_access
 *
 * Return: "read", "write" or "exec", or NULL for an unknown value.
 */
const char *vaccel_access_name(unsigned int access);

/**
 * vaccel_command_name() - name of a command
 * @command: &enum vaccel_command
 *
 * Return: "unknown", "copy", "fill", "write", "timestamp", "wait-mem",
 * "delay", "dispatch" or "launch", or NULL for an unknown value.
 */
const char *vaccel_command_name(unsigned int command);

/**
 * vaccel_queue_dispatch() - record a DISPATCH: run a kernel over a grid
 * @q: the queue, of the compute class
 * @entry_va: GPU address of the kernel's first instruction, a multiple of 4
 * @args_va: GPU address of the argument block, the kernel's a0 (any
 *	value, 0 included: the kernel decides what it means)
 * @grid: work-items along x, y and z, each at least 1
 * @workgroup: work-items of a workgroup along x, y and z, each at least
 *	1, at most &vaccel_device_info.max_workgroup_items together
 * @local_size: bytes of local memory of each workgroup, at most
 *	&vaccel_device_info.max_local_size
 * @stack_size: bytes of stack of each work-item, a multiple of 16 from 16
 *	to &vaccel_device_info.max_stack_size, and at most
 *	&vaccel_device_info.max_private_size for the workgroup's work-items
 *	together
 *
 * The raw packet, for callers that place code and arguments themselves;
 * vaccel_launch() is the usual way.  The workgroups at the grid's far
 * edges may be partial.  Since libvaccel 1.4.
 *
 * Return: 0, -EINVAL if @q or an array is NULL, @q is not a compute queue
 * or an operand breaks the limits above (the device would refuse the
 * packet), -ENOTSUP if the device runs no kernels (uapi before 1.4), or
 * an error as for vaccel_queue_copy().
 */
int vaccel_queue_dispatch(struct vaccel_queue *q, uint64_t entry_va,
			  uint64_t args_va, const uint32_t grid[3],
			  const uint32_t workgroup[3], uint32_t local_size,
			  uint32_t stack_size);

/* A message buffer of this size holds any message of vaccel_module_load(). */
#define VACCEL_MODULE_MSG_SIZE		256
/* Stack of a work-item that vaccel_launch() asks for, unless changed. */
#define VACCEL_DEFAULT_STACK_SIZE	4096u
/* Largest argument block of vaccel_launch(). */
#define VACCEL_LAUNCH_MAX_ARGS		4096u
/* Bytes of a module's print buffer, for vaccel_printf() (header included). */
#define VACCEL_MODULE_PRINT_SIZE	(1024u * 1024)

/**
 * vaccel_module_load() - load a kernel module
 * @dev: the device
 * @image: the module, an ELF file as vaccel-cc links it; read only
 *	during the call
 * @size: its size in bytes
 * @out: receives the module on success
 * @msg: receives a message saying why the module was refused, or ""; may
 *	be NULL
 * @msg_size: bytes at @msg (%VACCEL_MODULE_MSG_SIZE holds any message)
 *
 * Checks that @image is a module the compute engines can run: an ELF64
 * little-endian RISC-V static PIE (ET_DYN) for the double-float ABI,
 * without compressed instructions, whose dynamic relocations are all
 * R_RISCV_RELATIVE and patch writable segments, with sane segments and
 * tables, a symbol table and at least one kernel (VACCEL_KERNEL() of
 * <vaccel_kernel.h>).  Then copies it into a buffer of the device, at a
 * GPU address of its own, maps its segments with their permissions (code
 * executable and read-only, read-only data neither writable nor
 * executable, data writable but not executable), applies the relocations
 * for that address, relocating those into workgroup-local memory to
 * &vaccel_device_info.local_base, and finds the kernels.  A module that
 * calls vaccel_printf() also gets a print buffer
 * (%VACCEL_MODULE_PRINT_SIZE bytes).  The file is untrusted: any content
 * gets either a module or an error.  Thread-safe.  Since libvaccel 1.4.
 *
 * Return: 0; -EINVAL for a NULL @dev, @image or @out; -ENOTSUP if the
 * device runs no kernels (uapi before 1.4); for a refused module, with
 * the reason in @msg: -ENOEXEC if it is not a kernel module (not an
 * ELF64 RISC-V ET_DYN file, no executable segment, no symbol table, no
 * kernel), -EBADMSG if it is malformed (a table or segment past the end
 * of the file, overlapping segments, a relocation or kernel outside the
 * segments, a name outside its table, duplicates), -ENOTSUP if it needs
 * what the engines do not have (compressed instructions, another float
 * ABI, RVE or TSO code, relocations other than R_RISCV_RELATIVE or of a
 * read-only segment, an interpreter, shared libraries, thread-local
 * storage, constructors, a writable and executable segment, an alignment
 * above 64 KiB), -E2BIG if it is too big (an image above 256 MiB or the
 * device's largest buffer, more local memory than
 * &vaccel_device_info.max_local_size, more than 1024 kernels, a kernel
 * name above 255 characters, more than %VACCEL_MODULE_SECTIONS_MAX bytes
 * of ".vaccel." sections, see vaccel_module_get_section()); or an error
 * of allocating and mapping the buffers (-ENOMEM, -ENOSPC, ...).
 */
int vaccel_module_load(struct vaccel_device *dev, const void *image,
		       size_t size, struct vaccel_module **out, char *msg,
		       size_t msg_size);

/**
 * vaccel_module_load_file() - load a kernel module from a file
 * @dev: the device
 * @path: the file, such as "vadd.elf"
 * @out: receives the module on success
 * @msg: receives a message saying why the module was refused, or ""; may
 *	be NULL
 * @msg_size: bytes at @msg
 *
 * Reads the file and loads it as vaccel_module_load() does.
 *
 * Return: as vaccel_module_load(), and -EINVAL for a NULL @path, -EFBIG
 * for a file above 1 GiB, or a negative errno of open() or read() (with a
 * message too).
 */
int vaccel_module_load_file(struct vaccel_device *dev, const char *path,
			    struct vaccel_module **out, char *msg,
			    size_t msg_size);

/**
 * vaccel_module_destroy() - unload a kernel module
 * @mod: the module, or NULL (nothing happens)
 *
 * Frees its buffers and its kernels.  Work that runs its kernels must have
 * completed: the kernels' code goes with the module, and work still
 * running them faults.
 */
void vaccel_module_destroy(struct vaccel_module *mod);

/**
 * struct vaccel_module_info - a loaded module, from vaccel_module_get_info()
 * @va: GPU address of its image
 * @size: bytes of its image, whole pages
 * @local_size: bytes of workgroup-local memory (its VACCEL_LOCAL objects)
 *	that vaccel_launch() gives each workgroup of its kernels
 * @kernel_count: its kernels
 * @prints: it calls vaccel_printf(), hence has a print buffer
 * @reserved: zero; room for later fields without changing the size
 */
struct vaccel_module_info {
	uint64_t va;
	uint64_t size;
	uint32_t local_size;
	unsigned int kernel_count;
	bool prints;
	uint64_t reserved[4];
};

/**
 * vaccel_module_get_info() - what a module is
 * @mod: the module
 * @out: filled on success
 *
 * Return: 0, or -EINVAL if an argument is NULL.
 */
int vaccel_module_get_info(const struct vaccel_module *mod,
			   struct vaccel_module_info *out);

/**
 * vaccel_module_read_print() - read what a module's kernels printed
 * @mod: the module
 * @buf: receives the text, NUL-terminated
 * @size: bytes at @buf, at least 1
 *
 * Copies the text that vaccel_printf() calls of the module's kernels
 * appended to the print buffer since the last read, as much as fits, and
 * keeps the rest for the next call.  Once all of it has been read, the
 * buffer is emptied, and a line says how many messages were dropped
 * because it was full, if any.  Call it only while no work running the
 * module's kernels is in flight (after vaccel_queue_finish(), say): the
 * kernels append to the buffer while they run.
 *
 * Return: the bytes stored at @buf, the NUL excluded (0 if there is
 * nothing, or the module does not print), or -EINVAL for a NULL pointer or
 * a zero @size.
 */
int vaccel_module_read_print(struct vaccel_module *mod, char *buf, size_t size);

/**
 * vaccel_kernel_get() - find a kernel of a module by name
 * @mod: the module
 * @name: the kernel's name, as given to VACCEL_KERNEL()
 * @out: receives the kernel on success
 *
 * Return: 0, -ENOENT if @mod has no kernel of that name, or -EINVAL if an
 * argument is NULL.
 */
int vaccel_kernel_get(struct vaccel_module *mod, const char *name,
		      struct vaccel_kernel **out);

/**
 * vaccel_module_get_kernel() - a kernel of a module by index
 * @mod: the module
 * @index: from 0 to &vaccel_module_info.kernel_count - 1, in the order of
 *	the module's symbol table
 * @out: receives the kernel on success
 *
 * Return: 0, -ENOENT if @index is out of range, or -EINVAL if an argument
 * is NULL.
 */
int vaccel_module_get_kernel(struct vaccel_module *mod, unsigned int index,
			     struct vaccel_kernel **out);

/**
 * struct vaccel_kernel_info - a kernel, from vaccel_kernel_get_info()
 * @name: its name, valid as long as its module
 * @entry_va: GPU address of its entry, for vaccel_queue_dispatch()
 * @local_size: bytes of local memory vaccel_launch() gives each workgroup
 * @stack_size: bytes of stack vaccel_launch() gives each work-item
 * @stack_need: bytes of stack the kernel needs at most, from its module's
 *	stack sizes (see &enum vaccel_kernel_flags); 0 when not known
 * @flags: &enum vaccel_kernel_flags (since libvaccel 1.7)
 * @reserved: zero; room for later fields without changing the size
 */
struct vaccel_kernel_info {
	const char *name;
	uint64_t entry_va;
	uint32_t local_size;
	uint32_t stack_size;
	uint32_t stack_need;
	uint32_t flags;
	uint64_t reserved[3];
};

/**
 * enum vaccel_kernel_flags - what the loader knows of a kernel's stack
 * @VACCEL_KERNEL_STACK_KNOWN: &vaccel_kernel_info.stack_need is exact:
 *	the module has stack sizes (vaccel-cc compiles with clang's
 *	-fstack-size-section) for every function the kernel can reach, and
 *	the kernel makes no indirect call and no recursive one.  Its
 *	launches get that much stack unless told otherwise.
 * @VACCEL_KERNEL_STACK_DYNAMIC: the kernel calls through a pointer or
 *	recursively, or reaches a function without a stack size: its need is
 *	not known, and its launches get %VACCEL_DEFAULT_STACK_SIZE unless
 *	told otherwise
 */
enum vaccel_kernel_flags {
	VACCEL_KERNEL_STACK_KNOWN = 1u << 0,
	VACCEL_KERNEL_STACK_DYNAMIC = 1u << 1,
};

/**
 * vaccel_kernel_get_info() - what a kernel is
 * @k: the kernel
 * @out: filled on success
 *
 * Return: 0, or -EINVAL if an argument is NULL.
 */
int vaccel_kernel_get_info(const struct vaccel_kernel *k,
			   struct vaccel_kernel_info *out);

/**
 * vaccel_kernel_set_stack_size() - the stack its work-items get
 * @k: the kernel
 * @stack_size: bytes, a multiple of 16 from 16 to
 *	&vaccel_device_info.max_stack_size
 *
 * vaccel_launch() gives each work-item the kernel's stack need, rounded up
 * to 16 bytes, when the loader knows it (%VACCEL_KERNEL_STACK_KNOWN), else
 * %VACCEL_DEFAULT_STACK_SIZE bytes, unless this changes it; the launches
 * recorded after the call use the new size.  A size below a known need is
 * taken as given: the caller may know that the deepest calls do not
 * happen.  A workgroup's stacks together must stay within
 * &vaccel_device_info.max_private_size, which vaccel_launch() checks.  A
 * kernel that overflows its stack faults (an address out of range).
 *
 * Return: 0, or -EINVAL if @k is NULL or @stack_size breaks the limits.
 */
int vaccel_kernel_set_stack_size(struct vaccel_kernel *k, uint32_t stack_size);

/**
 * vaccel_launch() - record the launch of a kernel over a grid
 * @q: the queue, of the compute class, of the kernel's device
 * @k: the kernel
 * @grid: work-items along x, y and z, each at least 1
 * @workgroup: work-items of a workgroup along x, y and z, as for
 *	vaccel_queue_dispatch()
 * @args: the argument block, which the kernel receives as its parameter;
 *	may be NULL if @args_size is 0
 * @args_size: bytes of @args, at most %VACCEL_LAUNCH_MAX_ARGS
 *
 * Copies the argument block into the queue's DMA buffer, 16-byte aligned,
 * just before a DISPATCH of the kernel with the module's local memory
 * (&vaccel_module_info.local_size) and the kernel's stack size
 * (vaccel_kernel_set_stack_size()): the block lives exactly as long as
 * the packet, and @args may be reused as soon as the call returns.  The
 * kernel sees the block read-only.  Like every recording, the launch
 * executes after what @q recorded before it, once flushed; the module
 * must stay loaded until it has completed.  A kernel's fault fails the
 * queue's work with -EFAULT (see vaccel_queue_finish(), and
 * vaccel_queue_get_fault() for the launch, the kernel and the function
 * that faulted).  Since libvaccel 1.4.
 *
 * Return: 0, -EINVAL if a pointer is NULL (@args with a non-zero
 * @args_size), @k belongs to another device, or the grid, workgroup, local
 * memory or stack break the limits of vaccel_queue_dispatch(), -E2BIG for
 * a block above %VACCEL_LAUNCH_MAX_ARGS or a kernel whose known stack need
 * does not fit the device (above &vaccel_device_info.max_stack_size, or
 * above &vaccel_device_info.max_private_size for the workgroup's
 * work-items together), or an error as for vaccel_queue_dispatch().  A
 * refused launch says why in vaccel_last_error_message().
 */
int vaccel_launch(struct vaccel_queue *q, const struct vaccel_kernel *k,
		  const uint32_t grid[3], const uint32_t workgroup[3],
		  const void *args, size_t args_size);

/**
 * struct vaccel_launch_options - how vaccel_launch_ex() launches
 * @first_group: the first workgroup to run, by linear index: workgroup
 *	(x, y, z) is number x + y * groups x + z * groups x * groups y, where
 *	groups x is the number of workgroups along x
 * @group_count: how many workgroups to run from @first_group, in that
 *	order; 0 for the whole grid (@first_group must then be 0)
 * @stack_size: bytes of stack of each work-item for this launch, as for
 *	vaccel_kernel_set_stack_size(); 0 for the kernel's (since libvaccel
 *	1.7)
 * @dynamic_local_size: bytes of local memory each workgroup gets on top of
 *	the module's VACCEL_LOCAL objects, which the kernel finds with
 *	vaccel_dynamic_local() of <vaccel_kernel.h> (CUDA's dynamic shared
 *	memory, OpenCL's local kernel arguments); 0 for none (since libvaccel
 *	1.7)
 * @reserved: zero
 *
 * Every work-item of the range sees the ids and sizes of the whole grid.
 * On a unified device the range is shared between the members as a whole
 * grid is.  A zeroed structure launches as vaccel_launch() does.
 */
struct vaccel_launch_options {
	uint64_t first_group;
	uint64_t group_count;
	uint32_t stack_size;
	uint32_t dynamic_local_size;
	uint64_t reserved[5];
};

/**
 * vaccel_launch_ex() - record the launch of a kernel, with options
 * @q: the queue
 * @k: the kernel
 * @grid: work-items along x, y and z, as for vaccel_launch()
 * @workgroup: work-items of a workgroup, as for vaccel_launch()
 * @args: the argument block, as for vaccel_launch()
 * @args_size: bytes of @args
 * @opts: the options, or NULL for none (vaccel_launch())
 *
 * As vaccel_launch(), with the workgroup filter of @opts: only a range of
 * the grid's workgroups runs, each seeing the ids of the whole grid, so
 * that launches of ranges that together cover the grid compute what one
 * launch of the whole grid computes (uapi 1.7, the DISPATCH flag
 * %DRM_VACCEL_PKT_F_GROUP_RANGE).  Since libvaccel 1.6.
 *
 * Return: as vaccel_launch(); also -EINVAL for non-zero reserved fields,
 * a @first_group with a zero @group_count, or a range past the grid's
 * workgroups (overflow included), and -ENOTSUP for a range on a device
 * whose module is older than uapi 1.7.
 */
int vaccel_launch_ex(struct vaccel_queue *q, const struct vaccel_kernel *k,
		     const uint32_t grid[3], const uint32_t workgroup[3],
		     const void *args, size_t args_size,
		     const struct vaccel_launch_options *opts);

/**
 * vaccel_event_create() - create an event
 * @dev: the device
 * @out: receives the event on success
 *
 * The event starts without a fence: not signalled.
 *
 * Return: 0, -EINVAL if an argument is NULL, -ENOMEM, or another negative
 * errno of the kernel.
 */
int vaccel_event_create(struct vaccel_device *dev, struct vaccel_event **out);

/**
 * vaccel_event_destroy() - destroy an event
 * @ev: the event, or NULL (nothing happens)
 *
 * Work already submitted that waits for or signals the event is not
 * affected.
 */
void vaccel_event_destroy(struct vaccel_event *ev);

/**
 * vaccel_event_wait() - wait on the CPU until an event signals
 * @ev: the event
 * @timeout_ns: longest wait in nanoseconds; 0 only looks, a negative value
 *	waits for ever
 *
 * Waits until the event has a fence and the fence has signalled, so it
 * may be called before the vaccel_queue_signal() that signals the event,
 * from another thread.  A host event is waited for until it is set, and
 * its status returned; a pending event (its command held back, see
 * vaccel_event_set_status()) until the command is submitted and has
 * completed, or has been dropped, whose status is then returned.
 * Thread-safe.
 *
 * Return: 0 once the event signalled; -ETIME if it did not in time; the
 * error of the work that signalled it if that failed: -EFAULT or -EINVAL
 * for the buffer that faulted, -ECANCELED for the buffers after it (see
 * vaccel_queue_finish()) and for work cancelled by vaccel_queue_destroy();
 * -ETIMEDOUT for work that hung or ran out of its time limit; -EINVAL if @ev
 * is NULL; or another negative errno of the kernel.
 */
int vaccel_event_wait(struct vaccel_event *ev, int64_t timeout_ns);

/**
 * vaccel_event_signal() - signal an event from the CPU
 * @ev: the event
 *
 * Gives the event a fence that has signalled.  Thread-safe.
 *
 * Return: 0, -EINVAL if @ev is NULL, or a negative errno of the kernel.
 */
int vaccel_event_signal(struct vaccel_event *ev);

/**
 * vaccel_event_reset() - take an event's fence away
 * @ev: the event
 *
 * The event is not signalled any more, and cannot be waited for by a queue
 * until it is signalled again.  Waits recorded before are not affected.
 * Thread-safe.
 *
 * Return: 0, -EINVAL if @ev is NULL, or a negative errno of the kernel.
 */
int vaccel_event_reset(struct vaccel_event *ev);

/**
 * vaccel_event_export_sync_file() - export an event's fence as a sync_file
 * @ev: the event
 * @fd: receives a new sync_file descriptor (close-on-exec), which the
 *	caller closes
 *
 * The sync_file holds the fence the event holds now.  poll() reports it
 * readable once the fence has signalled, and other drivers and APIs take
 * it as a fence.  Thread-safe.
 *
 * Return: 0, -EINVAL if an argument is NULL or the event has no fence, or
 * another negative errno of the kernel (such as -EMFILE).
 */
int vaccel_event_export_sync_file(struct vaccel_event *ev, int *fd);

/* --- libvaccel 1.7: engine selection, event lists, timelines, profiling --- */

/* &vaccel_queue_desc.engine_instance: any engine of the class. */
#define VACCEL_ENGINE_INSTANCE_ANY	0xffffffffu

/**
 * struct vaccel_queue_desc - what vaccel_queue_create_ex() creates
 * @engine_class: &enum vaccel_engine_class, COMPUTE or COPY
 * @engine_instance: the engine of the class the queue runs on, from 0 to
 *	&vaccel_device_info.engine_count of the class - 1, or
 *	%VACCEL_ENGINE_INSTANCE_ANY for the engine of the class that has the
 *	fewest contexts
 * @priority: &enum vaccel_priority
 * @flags: zero
 * @reserved: zero
 *
 * A zeroed structure with a class and a priority is what
 * vaccel_queue_create() asks for, except for @engine_instance, which then
 * names engine 0: set it to %VACCEL_ENGINE_INSTANCE_ANY for any.
 */
struct vaccel_queue_desc {
	uint32_t engine_class;
	uint32_t engine_instance;
	uint32_t priority;
	uint32_t flags;
	uint64_t reserved[4];
};

/**
 * vaccel_queue_create_ex() - create a command queue on a chosen engine
 * @dev: the device
 * @desc: the engine class and instance, and the priority
 * @out: receives the queue on success
 *
 * As vaccel_queue_create(), with the engine chosen by the caller (Level
 * Zero's command queue ordinal and index, CUDA's streams on a chosen copy
 * engine).  On a unified device, every member's queue runs on that
 * instance of its engines.  Since libvaccel 1.7.
 *
 * Return: as vaccel_queue_create(); -EINVAL also for non-zero @flags or
 * reserved fields, -ENODEV also for an instance the class does not have
 * (vaccel_last_error_message() says how many it has).
 */
int vaccel_queue_create_ex(struct vaccel_device *dev,
			   const struct vaccel_queue_desc *desc,
			   struct vaccel_queue **out);

/**
 * struct vaccel_queue_info - a queue, from vaccel_queue_get_info()
 * @engine_class: &enum vaccel_engine_class of its engine
 * @engine_instance: the engine's index within its class, the one the
 *	kernel chose for %VACCEL_ENGINE_INSTANCE_ANY
 * @engine_index: the engine's index for vaccel_device_get_engine()
 * @priority: &enum vaccel_priority
 * @reserved: zero
 *
 * On a unified device, the engine of the first member's queue.
 */
struct vaccel_queue_info {
	uint32_t engine_class;
	uint32_t engine_instance;
	uint32_t engine_index;
	uint32_t priority;
	uint64_t reserved[6];
};

/**
 * vaccel_queue_get_info() - which engine a queue runs on
 * @q: the queue
 * @out: filled on success
 *
 * Since libvaccel 1.7.
 *
 * Return: 0, -EINVAL for a NULL pointer, or a negative errno of the kernel.
 */
int vaccel_queue_get_info(struct vaccel_queue *q, struct vaccel_queue_info *out);

/**
 * enum vaccel_event_flags - what an event is, for vaccel_event_create_ex()
 * @VACCEL_EVENT_TIMELINE: a timeline: a 64-bit counter whose points signal
 *	in increasing order (Vulkan's timeline semaphores, D3D12's fences,
 *	Level Zero's counter-based events); points are named by
 *	&struct vaccel_event_point.  Without it, the event is binary: it holds
 *	one fence (vaccel_event_create())
 * @VACCEL_EVENT_PROFILING: a command that signals the event records when
 *	it was submitted, started and ended (vaccel_event_get_times())
 * @VACCEL_EVENT_HOST: a host event, set once by the CPU with
 *	vaccel_event_set_status() (OpenCL's user events); not with the other
 *	flags (libvaccel 1.9)
 */
enum vaccel_event_flags {
	VACCEL_EVENT_TIMELINE = 1u << 0,
	VACCEL_EVENT_PROFILING = 1u << 1,
	VACCEL_EVENT_HOST = 1u << 2,
};

/**
 * vaccel_event_create_ex() - create a timeline or profiling event
 * @dev: the device
 * @flags: &enum vaccel_event_flags
 * @out: receives the event on success
 *
 * A timeline event starts at point 0, signalled; a binary event starts
 * without a fence.  A profiling event has a small buffer of the device
 * where the engine writes its times.  A host event (libvaccel 1.9) starts
 * unset; @dev may be NULL for it, and is not used: queues of any device
 * may wait for a host event.  Since libvaccel 1.7.
 *
 * Return: 0, -EINVAL for a NULL @out, a NULL @dev for an event that is not
 * a host event, unknown flags or %VACCEL_EVENT_HOST with another flag,
 * -ENOMEM, or another negative errno of the kernel.
 */
int vaccel_event_create_ex(struct vaccel_device *dev, uint32_t flags,
			   struct vaccel_event **out);

/**
 * struct vaccel_event_point - a point of an event, to wait for or signal
 * @event: the event
 * @point: for a timeline event, the point, at least 1; for a binary
 *	event, 0
 */
struct vaccel_event_point {
	struct vaccel_event *event;
	uint64_t point;
};

/**
 * struct vaccel_command_sync - what the next command waits for and signals
 * @waits: the events (points) to wait for; may be NULL if @wait_count is 0
 * @wait_count: entries of @waits, at most %VACCEL_MAX_WAITS
 * @signal: the event the command signals once it has completed, or NULL
 * @signal_point: for a timeline @signal, the point it signals, above the
 *	points signalled or submitted before; 0 for a binary event
 * @reserved: zero
 */
struct vaccel_command_sync {
	const struct vaccel_event_point *waits;
	uint32_t wait_count;
	struct vaccel_event *signal;
	uint64_t signal_point;
	uint64_t reserved[4];
};

/**
 * vaccel_queue_set_command_sync() - make the next command wait and signal
 * @q: the queue
 * @sync: the waits and the signal
 *
 * The waits and the signal of one command, as every command of OpenCL,
 * Level Zero and CUDA's graphs has them.  The next command recorded into
 * @q (vaccel_queue_copy(), _fill(), _write(), _timestamp(), _wait_mem(),
 * _delay(), _dispatch(), vaccel_launch(), vaccel_launch_ex()) waits until
 * every point of @sync->waits has signalled, and signals @sync->signal
 * once it has completed, or with its error if it failed (see
 * vaccel_event_wait()).  A queue executes in order: what is recorded
 * after that command waits too.  The waits are taken now, as
 * vaccel_queue_wait_event() takes them: each point must have a fence
 * already (signalled, or submitted to the device), and a later signal or
 * reset does not change the wait.  If @sync->signal profiles
 * (%VACCEL_EVENT_PROFILING), its times are those of the command.  The
 * signal is submitted with the command, which flushes @q; a queue
 * destroyed before it records a command drops the signal, and the event
 * keeps the fence it had.
 *
 * Events of another device cannot be waited for here: export them as
 * sync_files and import them into an event of @q's device.  Host events
 * (of any device) and pending events can, since libvaccel 1.9: the
 * command is then held back in user space, see vaccel_event_set_status().
 * The signal may not be a host event.  Since libvaccel 1.7.
 *
 * Return: 0; -EINVAL for a NULL @q or @sync, non-zero reserved fields, a
 * NULL event, an event of another device, a point 0 of a timeline event
 * or a point other than 0 of a binary event, a point without a fence, or
 * a host event as the signal; -E2BIG for more than %VACCEL_MAX_WAITS
 * waits (-EINVAL before libvaccel 1.9); -EBUSY if a signal set before is
 * still waiting for its command, or inside a command group; -ENOTSUP for
 * a host or pending event on a unified device; or an error as for
 * vaccel_queue_flush().  On an error, nothing is waited for.
 */
int vaccel_queue_set_command_sync(struct vaccel_queue *q,
				  const struct vaccel_command_sync *sync);

/**
 * vaccel_event_get_point() - the last point of a timeline event that signalled
 * @ev: the event, a timeline
 * @point: receives the point
 *
 * Thread-safe.  Since libvaccel 1.7.
 *
 * Return: 0, -EINVAL for a NULL pointer or a binary event, or a negative
 * errno of the kernel.
 */
int vaccel_event_get_point(struct vaccel_event *ev, uint64_t *point);

/**
 * vaccel_event_signal_point() - signal a point of a timeline event from the CPU
 * @ev: the event, a timeline
 * @point: the point, above every point signalled or submitted before
 *
 * Work waiting for that point or an earlier one may go on.  Thread-safe.
 * Since libvaccel 1.7.
 *
 * Return: 0, -EINVAL for a NULL @ev, a binary event or a point 0, or a
 * negative errno of the kernel.
 */
int vaccel_event_signal_point(struct vaccel_event *ev, uint64_t point);

/**
 * vaccel_event_wait_point() - wait on the CPU until a point has signalled
 * @ev: the event, a timeline
 * @point: the point, at least 1
 * @timeout_ns: as for vaccel_event_wait()
 *
 * Waits also while nothing has yet been submitted to signal @point.
 * Thread-safe.  Since libvaccel 1.7.
 *
 * Return: 0 once the point signalled; -ETIME if it did not in time; the
 * error of the work that signalled it if that failed, as for
 * vaccel_event_wait(); -EINVAL for a NULL @ev, a binary event or a point
 * 0; or another negative errno of the kernel.
 */
int vaccel_event_wait_point(struct vaccel_event *ev, uint64_t point,
			    int64_t timeout_ns);

/**
 * vaccel_event_import_sync_file() - give an event the fence of a sync_file
 * @ev: the event
 * @point: for a timeline event, the point the fence signals, above every
 *	point signalled or submitted before; 0 for a binary event, whose
 *	fence is replaced
 * @fd: the sync_file, from another driver, API or process (the caller
 *	keeps it, and closes it when it likes)
 *
 * Queues of the event's device can then wait for the fence.  The event's
 * profiling times, if any, are not known for an imported fence.
 * Thread-safe.  Since libvaccel 1.7.
 *
 * Return: 0, -EINVAL for a NULL @ev, a bad @point or an @fd that is not a
 * sync_file, or another negative errno of the kernel.
 */
int vaccel_event_import_sync_file(struct vaccel_event *ev, uint64_t point,
				  int fd);

/**
 * vaccel_event_export_sync_file_point() - export a point's fence as a sync_file
 * @ev: the event
 * @point: for a timeline event, the point, at least 1, already submitted
 *	or signalled; for a binary event, 0: as vaccel_event_export_sync_file()
 * @fd: receives a new sync_file descriptor (close-on-exec)
 *
 * Thread-safe.  Since libvaccel 1.7.
 *
 * Return: 0, -EINVAL for a NULL pointer, a bad @point or a point without
 * a fence, or another negative errno of the kernel.
 */
int vaccel_event_export_sync_file_point(struct vaccel_event *ev, uint64_t point,
					int *fd);

/**
 * struct vaccel_event_times - when the command that signalled an event ran
 * @submitted_ns: when its DMA buffer was submitted to the kernel (the
 *	CPU's clock, just before the submission)
 * @started_ns: when the engine started it (the engine's clock, after its
 *	waits and the commands before it had completed)
 * @ended_ns: when the engine completed it
 * @reserved: zero
 *
 * Nanoseconds of CLOCK_MONOTONIC, the clock of engines and CPUs alike:
 * @submitted_ns <= @started_ns <= @ended_ns.  On a unified device, the
 * first member's start and the last member's end.
 */
struct vaccel_event_times {
	uint64_t submitted_ns;
	uint64_t started_ns;
	uint64_t ended_ns;
	uint64_t reserved[5];
};

/**
 * vaccel_event_get_times() - the profiling times of an event's command
 * @ev: the event, created with %VACCEL_EVENT_PROFILING
 * @out: filled on success
 *
 * The times of the last command that signalled @ev through
 * vaccel_queue_set_command_sync(), once it has completed (OpenCL's
 * clGetEventProfilingInfo, Level Zero's kernel timestamps).  Call it after
 * vaccel_event_wait() or another proof of completion.  Thread-safe, but
 * the times of a command that another thread is signalling at the same
 * moment may be those of the one before.  Since libvaccel 1.7.
 *
 * Return: 0; -EINVAL for a NULL pointer or an event without
 * %VACCEL_EVENT_PROFILING; -ENODATA if no command signalled it since it
 * was created, reset or signalled otherwise (from the CPU, by
 * vaccel_queue_signal() or by an import); -EBUSY if that command has not
 * completed; or the error of the command if it failed.
 */
int vaccel_event_get_times(struct vaccel_event *ev, struct vaccel_event_times *out);

/**
 * vaccel_event_elapsed_ns() - how long the event's command ran on the engine
 * @ev: the event, created with %VACCEL_EVENT_PROFILING
 * @ns: receives &vaccel_event_times.ended_ns - &vaccel_event_times.started_ns
 *
 * The elapsed time of a launch, in one call.  Since libvaccel 1.7.
 *
 * Return: as vaccel_event_get_times().
 */
int vaccel_event_elapsed_ns(struct vaccel_event *ev, uint64_t *ns);

/* --- libvaccel 1.9: host events, deferred submission, groups, memory --- */

/*
 * The most events (points) one command waits for: the waits of
 * vaccel_queue_set_command_sync() and vaccel_queue_begin_group().  The
 * uapi's limit of one submission is higher; libvaccel keeps this many
 * for a command and the waits of vaccel_queue_wait_event() together.
 */
#define VACCEL_MAX_WAITS	16u

/**
 * vaccel_event_set_status() - set a host event, once
 * @ev: the event, created with %VACCEL_EVENT_HOST
 * @status: 0 completes the event; a negative errno fails it
 *
 * The finite-fence rule of the kernel: every fence signals in finite
 * time, so no work that waits for an unset host event may reach the
 * kernel.  libvaccel holds it back instead (deferred submission):
 *
 * - A command whose waits (vaccel_queue_set_command_sync(),
 *   vaccel_queue_begin_group(), vaccel_queue_wait_event()) include an
 *   unset host event is recorded as usual, but not submitted; everything
 *   recorded after it into the queue is held too, as a queue executes in
 *   order.  The queue's pool of DMA buffers grows past
 *   %VACCEL_QUEUE_MAX_BUFFERS while work is held.
 * - An event that a held command signals is *pending*.  A command that
 *   waits for a pending event is held in turn, on any queue, until the
 *   pending event's command is submitted: its fence then exists and the
 *   wait goes to the kernel.
 * - When a host event is set to 0, the thread that sets it submits the
 *   held work that no longer waits for anything unset, on every queue,
 *   transitively, before this returns.  The owner of a queue may be
 *   recording into it meanwhile: each queue has a lock for that.
 * - When a host event is set to a negative errno, the held work that waits
 *   for it is dropped and never runs: the events its commands signal fail
 *   with @status (vaccel_event_wait() returns it), and so does the held
 *   work waiting for those events, transitively; everything held after it
 *   in the same queues is dropped too.  The queues stay usable: work
 *   recorded afterwards runs as usual.
 * - A command that waits for a host event already set to 0 does not wait;
 *   one that waits for a failed one, or for an event whose held command
 *   was dropped, is dropped with that status.
 *
 * vaccel_queue_flush() leaves held work held; vaccel_queue_finish() waits
 * for it; vaccel_queue_destroy() drops it, its events failing with
 * -ECANCELED.  Destroying a host event that was not set sets it to
 * -ECANCELED first.  Thread-safe.  Since libvaccel 1.9.
 *
 * Return: 0 (errors of submitting released work are their queue's,
 * reported by its next vaccel_queue_flush() or vaccel_queue_finish());
 * -EINVAL if @ev is NULL or not a host event, or @status is above 0 or
 * below -4095; -EALREADY if the event was set before.
 */
int vaccel_event_set_status(struct vaccel_event *ev, int status);

/**
 * vaccel_event_wait_many() - wait on the CPU for several events, any or all
 * @points: the events and points, as vaccel_queue_set_command_sync() names
 *	them: binary, timeline, host or pending events, of any devices
 * @count: entries of @points, at least 1
 * @all: wait until every point has signalled; false: until one has
 * @timeout_ns: as for vaccel_event_wait(), for the whole call
 * @first: may be NULL; receives the index in @points of the point that
 *	ended the wait: with !@all the one that signalled, with @all the first
 *	that failed
 *
 * Each point completes as vaccel_event_wait() or vaccel_event_wait_point()
 * would see it.  When all the events are events of one device and none is
 * a host event, the kernel waits for them all at once; otherwise, with
 * !@all, the events are looked at in turn, and a completion in the kernel
 * may be seen up to a millisecond late.  Thread-safe.  Since libvaccel
 * 1.9.
 *
 * Return: 0 once every point signalled without error (@all) or one did
 * (!@all); the error of a failed point (with @all, the first in @points
 * order; with !@all, that of the point that ended the wait), as
 * vaccel_event_wait() returns it; -ETIME if the wait did not end in time;
 * -EINVAL for a NULL @points, a @count of 0, a NULL event or a bad point;
 * -ENOMEM; or another negative errno of the kernel.
 */
int vaccel_event_wait_many(const struct vaccel_event_point *points, uint32_t count,
			   bool all, int64_t timeout_ns, uint32_t *first);

/**
 * vaccel_queue_begin_group() - start a command group
 * @q: the queue
 * @sync: the waits and the signal of the group, as for
 *	vaccel_queue_set_command_sync(); NULL for none
 *
 * The commands recorded until vaccel_queue_end_group() form one command
 * (OpenCL's clEnqueue* that take several packets, a Level Zero append):
 * the waits are taken now, before the first of them, and the signal is
 * given after the last, once they have all completed.  A profiling signal
 * gets the start of the first (after the waits and the work before it)
 * and the end of the last.  An empty group is legal: a marker, whose
 * signal signals once the work recorded before it has completed.  Held
 * back as one: a group that waits for an unset host event is held whole,
 * and if one of its commands' work is dropped, the whole group is.
 * Inside a group, vaccel_queue_set_command_sync() is refused.  Not on a
 * unified device.  Since libvaccel 1.9.
 *
 * Return: 0; -EBUSY if a group is open already (groups do not nest) or a
 * signal of vaccel_queue_set_command_sync() still waits for its command;
 * -ENOTSUP on a unified device; otherwise as
 * vaccel_queue_set_command_sync().  On an error, no group is open.
 */
int vaccel_queue_begin_group(struct vaccel_queue *q,
			     const struct vaccel_command_sync *sync);

/**
 * vaccel_queue_end_group() - end a command group
 * @q: the queue
 *
 * Records the group's signal, if it has one, and flushes the queue.
 * Since libvaccel 1.9.
 *
 * Return: 0; -EINVAL if @q is NULL or no group is open; or an error as
 * for vaccel_queue_flush(), the group being closed all the same.
 */
int vaccel_queue_end_group(struct vaccel_queue *q);

/**
 * struct vaccel_device_memory - a device's memory segment now
 * @size: bytes of the segment, as &vaccel_device_info.device_mem_size
 * @free: bytes of it not allocated at the time of the call
 * @reserved: zero
 *
 * On a unified device, the sums of its members'.
 */
struct vaccel_device_memory {
	uint64_t size;
	uint64_t free;
	uint64_t reserved[6];
};

/**
 * vaccel_device_memory_info() - how much device memory there is, and is free
 * @dev: the device
 * @out: filled on success
 *
 * Asks the kernel anew on every call.  A device without device memory,
 * or a module before uapi 1.7, reports zeros.  Thread-safe.  Since
 * libvaccel 1.9.
 *
 * Return: 0, -EINVAL for a NULL pointer, or a negative errno of the
 * kernel.
 */
int vaccel_device_memory_info(struct vaccel_device *dev,
			      struct vaccel_device_memory *out);

/**
 * enum vaccel_memory_region - where a buffer lives
 * @VACCEL_MEMORY_SYSTEM: system memory
 * @VACCEL_MEMORY_DEVICE: the memory segment of the buffer's device
 * @VACCEL_MEMORY_PEER: the segment of another vaccel device (a buffer
 *	imported from it); vaccel_bo_region() only
 */
enum vaccel_memory_region {
	VACCEL_MEMORY_SYSTEM = 0,
	VACCEL_MEMORY_DEVICE = 1,
	VACCEL_MEMORY_PEER = 2,
};

/**
 * vaccel_bo_migrate() - move a buffer to system or device memory
 * @bo: the buffer
 * @region: %VACCEL_MEMORY_SYSTEM or %VACCEL_MEMORY_DEVICE
 * @flags: zero
 *
 * Queues the kernel's move of the buffer (BO_MIGRATE, uapi 1.7), a job of
 * the device's paging engine that copies it and rewrites every mapping
 * of it.  The move runs after all work submitted before it that may use
 * the buffer, on any queue of any device, and work submitted after it
 * waits for it, as does a CPU access; its GPU address does not change.
 * The buffer is then placed there as if allocated with
 * %VACCEL_BO_DEVICE, or with no placement flag.  Returns without waiting
 * for the move.  A buffer imported from another driver, or a buffer of a
 * unified device, cannot move.  Thread-safe.  Since libvaccel 1.9.
 *
 * Return: 0; -EINVAL for a NULL @bo, an unknown @region or non-zero
 * @flags; -ENOTSUP for a unified buffer or a module before uapi 1.7;
 * -ENODEV if the device has no device memory; -ENOSPC if the segment
 * cannot hold the buffer even after eviction; -EOPNOTSUPP for a buffer of
 * another driver; -ENOMEM; or another negative errno of the kernel.
 */
int vaccel_bo_migrate(struct vaccel_bo *bo, uint32_t region, uint32_t flags);

/**
 * vaccel_bo_region() - where a buffer lives now
 * @bo: the buffer
 *
 * The region the buffer is in, or will be in once the moves queued so
 * far are done.  Thread-safe.  Since libvaccel 1.9.
 *
 * Return: an &enum vaccel_memory_region (always %VACCEL_MEMORY_SYSTEM
 * before uapi 1.7), -EINVAL for a NULL @bo, -ENOTSUP for a unified
 * buffer, or another negative errno of the kernel.
 */
int vaccel_bo_region(struct vaccel_bo *bo);

/* Bytes of the ".vaccel." sections a module may carry, together. */
#define VACCEL_MODULE_SECTIONS_MAX	(1u << 20)

/**
 * vaccel_module_get_section() - a named metadata section of a module
 * @mod: the module
 * @name: the section's name, starting with ".vaccel." (such as
 *	".vaccel.cl.kernels", where the OpenCL runtime keeps the argument
 *	metadata of its kernels)
 * @data: receives the section's bytes, valid until the module is
 *	destroyed; NULL for an empty section
 * @size: receives their count
 *
 * The loader keeps a copy of every non-allocated section (one without
 * SHF_ALLOC, which is not loaded in device memory) whose name starts with
 * ".vaccel.", up to %VACCEL_MODULE_SECTIONS_MAX bytes together (a module
 * with more is refused with -E2BIG).  A runtime stores there what it
 * needs to know of its kernels.  Thread-safe.  Since libvaccel 1.9.
 *
 * Return: 0, -EINVAL for a NULL pointer, -ENOENT if the module has no
 * such section.
 */
int vaccel_module_get_section(const struct vaccel_module *mod, const char *name,
			      const void **data, size_t *size);

/**
 * vaccel_last_error_message() - why the last refused call of this thread failed
 *
 * Calls that refuse their arguments for reasons an errno does not tell
 * apart (a launch whose stack does not fit the device, an engine the
 * device does not have, a refused module) leave a sentence here, for the
 * calling thread only.  The library still never prints: the program
 * decides.  Since libvaccel 1.7.
 *
 * Return: the message, or "" if none; valid until the thread's next call
 * into libvaccel.
 */
const char *vaccel_last_error_message(void);

#if defined(__cplusplus)
}
#endif

#endif /* VACCEL_H */
