/* SPDX-License-Identifier: MIT */
/*
 * Copyright 2026 The vaccel authors
 *
 * vaccel_priv.h - private header of libvaccel: the structures behind the
 * opaque handles of vaccel.h and the helpers shared between its files.
 * Nothing here is exported; only VACCEL_EXPORT functions are.
 */
#ifndef VACCEL_PRIV_H
#define VACCEL_PRIV_H

#include <pthread.h>
#include <stddef.h>
#include <stdint.h>

#include <xf86drm.h>
#include <drm/vaccel_accel.h>

#include "vaccel.h"

#define VACCEL_EXPORT	__attribute__((visibility("default")))

/* The DRM driver name that marks a vaccel node. */
#define VACCEL_DRIVER_NAME	"vaccel"

/* The GPU page size of the memory API; the uapi fixes it at 4 KiB. */
#define VACCEL_PAGE_SIZE	4096ull
/* VA alignment of buffers of at least this size (64 KiB, see bo.c). */
#define VACCEL_BO_BIG_ALIGN	65536ull

/**
 * struct vaccel_va_extent - a range of GPU virtual addresses
 * @start: first address
 * @end: end, exclusive
 */
struct vaccel_va_extent {
	uint64_t start;
	uint64_t end;
};

/**
 * struct vaccel_va_space - the GPU VA allocator of a device handle (va.c)
 * @lock: protects every other field
 * @start: lowest address handed out, page aligned
 * @end: end (exclusive) of the addresses handed out, page aligned
 * @holes: the free extents, sorted by address; neighbours are always
 *	coalesced, so two holes never touch
 * @nholes: entries in @holes
 * @holes_cap: room in @holes; kept at least @nallocs + 1, the most holes
 *	there can be, so that freeing never needs memory
 * @allocs: the allocated extents, sorted by address, to validate frees
 * @nallocs: entries in @allocs
 * @allocs_cap: room in @allocs
 * @allocated: bytes allocated
 */
struct vaccel_va_space {
	pthread_mutex_t lock;
	uint64_t start;
	uint64_t end;
	struct vaccel_va_extent *holes;
	size_t nholes;
	size_t holes_cap;
	struct vaccel_va_extent *allocs;
	size_t nallocs;
	size_t allocs_cap;
	uint64_t allocated;
};

/* va.c: the allocator itself, also compiled alone by the host tests. */
int vaccel_va_space_init(struct vaccel_va_space *vs, uint64_t start,
			 uint64_t end);
void vaccel_va_space_fini(struct vaccel_va_space *vs);
int vaccel_va_space_alloc(struct vaccel_va_space *vs, uint64_t size,
			  uint64_t align, uint64_t *va);
int vaccel_va_space_free(struct vaccel_va_space *vs, uint64_t va,
			 uint64_t size);
size_t vaccel_va_space_holes(struct vaccel_va_space *vs);

/**
 * struct vaccel_bo - a buffer object, see vaccel.h
 * @dev: the device it belongs to
 * @handle: its GEM handle in @dev's file
 * @flags: VACCEL_BO_* flags
 * @size: size in bytes, as the kernel rounded it
 * @va: GPU virtual address of its mapping in @dev's VM
 * @map: the CPU mapping, or NULL before vaccel_bo_map()
 * @refcount: references; vaccel_bo_import() of a buffer the device already
 *	has adds one, vaccel_bo_free() drops one
 * @next: chain of &vaccel_device.bo_table
 *
 * @map, @refcount and @next are protected by &vaccel_device.bo_lock; the
 * other fields do not change after creation.
 */
struct vaccel_bo {
	struct vaccel_device *dev;
	uint32_t handle;
	uint32_t flags;
	uint64_t size;
	uint64_t va;
	void *map;
	unsigned int refcount;
	struct vaccel_bo *next;
};

/**
 * struct vaccel_device - an open device, see vaccel.h
 * @fd: the open node, O_RDWR | O_CLOEXEC
 * @path: the path it was opened from
 * @version: drmGetVersion() of @fd
 * @info: the answer to DRM_VACCEL_QUERY_DEVICE (the prefix this library knows)
 * @engines: the raw answer to DRM_VACCEL_QUERY_ENGINES
 * @engine_count: entries in @engines
 * @engine_entry_size: the kernel's stride between two entries of @engines
 * @va: the GPU VA allocator of the file's VM, with its own lock
 * @bo_lock: protects @bo_table, @bo_buckets, @bo_count and the mutable
 *	fields of every buffer; held across the creation of a GEM handle by
 *	import and its GEM_CLOSE by free, so that a handle number always
 *	names at most one &struct vaccel_bo
 * @bo_table: the live buffers by GEM handle, a chained hash table
 * @bo_buckets: size of @bo_table, a power of two
 * @bo_count: buffers in @bo_table
 *
 * The fields above @va are written only while opening and read-only
 * afterwards, hence safe to read from several threads without a lock.
 */
struct vaccel_device {
	int fd;
	char *path;
	drmVersionPtr version;
	struct drm_vaccel_device_info info;
	struct drm_vaccel_engine_list *engines;
	uint32_t engine_count;
	uint32_t engine_entry_size;
	struct vaccel_va_space va;
	pthread_mutex_t bo_lock;
	struct vaccel_bo **bo_table;
	uint32_t bo_buckets;
	uint32_t bo_count;
};

/* Snapshots of events a queue holds for its next submission (queue.c). */
#define VACCEL_QUEUE_MAX_WAITS	16

/**
 * struct vaccel_cmdbuf - a DMA buffer of a queue's pool (queue.c)
 * @bo: the buffer object, mapped read-only and non-executable for the device
 * @map: its CPU mapping, where packets are written
 * @va: its GPU virtual address
 * @words: its size in 64-bit words
 * @point: the queue's timeline point of the last submission from it; the
 *	device is done with the buffer once that point has signalled (0:
 *	nothing submitted from it)
 * @next: link in the queue's busy or free list
 */
struct vaccel_cmdbuf {
	struct vaccel_bo *bo;
	uint64_t *map;
	uint64_t va;
	uint32_t words;
	uint64_t point;
	struct vaccel_cmdbuf *next;
};

/**
 * struct vaccel_queue - a command queue, see vaccel.h
 * @dev: the device
 * @context: the kernel context's handle
 * @engine_class: the class of its engine
 * @timeline: a timeline syncobj; submission n signals point n
 * @last: a binary syncobj holding the fence of the last submission, whose
 *	error tells whether the queue's work failed
 * @submitted: the last point submitted
 * @completed: the highest point known to have signalled
 * @cur: the DMA buffer being recorded into, or NULL
 * @start: word of @cur where the recording not yet submitted starts
 * @used: words of @cur written; [@start, @used) is not submitted yet
 * @busy: DMA buffers the device may still read, oldest (lowest @point)
 *	first; @busy_tail is the newest
 * @busy_tail: last entry of @busy
 * @free: DMA buffers ready to be recorded into
 * @nbufs: DMA buffers the pool holds, @cur included
 * @wait_objs: binary syncobjs holding snapshots of the events the next
 *	submission waits for; created as needed and kept
 * @nwait_objs: entries of @wait_objs created
 * @nwaits: entries of @wait_objs the next submission waits for
 * @error: 0, or -ECANCELED once the queue's work failed: the queue accepts
 *	no more work
 *
 * Not locked: the caller serialises the use of a queue.
 */
struct vaccel_queue {
	struct vaccel_device *dev;
	uint32_t context;
	uint32_t engine_class;
	uint32_t timeline;
	uint32_t last;
	uint64_t submitted;
	uint64_t completed;
	struct vaccel_cmdbuf *cur;
	uint32_t start;
	uint32_t used;
	struct vaccel_cmdbuf *busy;
	struct vaccel_cmdbuf *busy_tail;
	struct vaccel_cmdbuf *free;
	unsigned int nbufs;
	uint32_t wait_objs[VACCEL_QUEUE_MAX_WAITS];
	unsigned int nwait_objs;
	unsigned int nwaits;
	int error;
};

/**
 * struct vaccel_event - an event, see vaccel.h
 * @dev: the device
 * @handle: its binary syncobj
 */
struct vaccel_event {
	struct vaccel_device *dev;
	uint32_t handle;
};

/* event.c: binary syncobjs of a device. */
int vaccel_syncobj_create(struct vaccel_device *dev, uint32_t *handle);
void vaccel_syncobj_destroy(struct vaccel_device *dev, uint32_t handle);
int vaccel_syncobj_status(struct vaccel_device *dev, uint32_t handle,
			  int *status);

/* query.c: fill @dev->info and @dev->engines from the kernel. */
int vaccel_device_init_queries(struct vaccel_device *dev);

/* bo.c: the buffer table of a device, set up and torn down with it. */
int vaccel_device_init_bos(struct vaccel_device *dev);
void vaccel_device_fini_bos(struct vaccel_device *dev);

#endif /* VACCEL_PRIV_H */
