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
 * another thread still uses it.  vaccel_device_close() must not race with
 * any other use of that handle or of its buffers.
 *
 * This header does not need the kernel uapi header.  Programs that call
 * vaccel_device_query() include <drm/vaccel_accel.h> for the query types and
 * structures (pkg-config --cflags libvaccel covers both).
 */
#ifndef VACCEL_H
#define VACCEL_H

#include <stdbool.h>
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
 * @reserved: zero; room for later fields without changing the size
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
	uint64_t reserved[6];
};

/**
 * struct vaccel_engine_info - one engine, from vaccel_device_get_engine()
 * @engine_class: &enum vaccel_engine_class
 * @instance: index of the engine within its class
 * @hw_queue_depth: DMA buffers the engine holds at once
 * @preempt_caps: supported granularities, bit (1 << granularity) for each
 * @preempt_granularity: the granularity in force, &enum vaccel_preempt_granularity
 * @reserved: zero; room for later fields without changing the size
 */
struct vaccel_engine_info {
	unsigned int engine_class;
	unsigned int instance;
	unsigned int hw_queue_depth;
	uint32_t preempt_caps;
	unsigned int preempt_granularity;
	uint64_t reserved[4];
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
 */
enum vaccel_bo_flags {
	VACCEL_BO_NO_MMAP = 1u << 0,
	VACCEL_BO_GPU_READ_ONLY = 1u << 1,
	VACCEL_BO_GPU_NO_EXEC = 1u << 2,
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
 * Return: 0, -EINVAL for a NULL pointer, a zero @size or an unknown flag,
 * -E2BIG if @size is above &vaccel_device_info.max_bo_size, -ENOSPC if the
 * GPU address space is full or @dev holds
 * &vaccel_device_info.max_bos_per_file buffers already, -ENOMEM, or another
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

#if defined(__cplusplus)
}
#endif

#endif /* VACCEL_H */
