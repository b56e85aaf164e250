// SPDX-License-Identifier: MIT
/*
 * Copyright 2026 The vaccel authors
 *
 * bo.c - buffer objects: GEM buffers of the device, each mapped in the
 * device handle's GPU address space for its whole life, CPU-mappable, and
 * shared with other processes and devices as dma-bufs.
 *
 * A buffer is created (BO_CREATE) or imported (PRIME), given a GPU virtual
 * address by the allocator of va.c and mapped there with VM_BIND; freeing
 * undoes the same steps in reverse.  Every step that fails undoes the ones
 * before it, so a failed call leaves neither a handle nor an address nor a
 * mapping behind.
 *
 * A file has one GEM handle per object: importing a dma-buf whose object
 * the file already has (its own export, or a second import) returns the
 * handle it has.  Two &struct vaccel_bo on one handle would close it under
 * each other's feet, so the device keeps a table of its live buffers by
 * handle, and an import that finds its handle there returns that buffer with
 * one more reference.  The table's lock is held from the moment an import
 * gets a handle until the buffer is in the table, and from the moment a
 * free takes a buffer out until its handle is closed: the two cannot
 * interleave, so a handle number names at most one buffer at any time.
 *
 * A buffer of a unified device is made of such buffers of its members
 * (unified.c): the public functions hand it over there.  The members'
 * buffers of a part are "wrapped": in their file's table, with a GEM
 * handle, but mapped by unified.c at the unified buffer's address rather
 * than at one of their own.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "vaccel_priv.h"

#define VACCEL_BO_PLACEMENT	(VACCEL_BO_DEVICE | VACCEL_BO_DEVICE_PREFERRED)
#define VACCEL_BO_VALID_FLAGS	(VACCEL_BO_NO_MMAP | VACCEL_BO_GPU_READ_ONLY | \
				 VACCEL_BO_GPU_NO_EXEC | VACCEL_BO_PLACEMENT)
#define VACCEL_BO_MIN_BUCKETS	64

/* A Fibonacci hash: GEM handles are small consecutive numbers. */
static uint32_t vaccel_bo_bucket(const struct vaccel_device *dev, uint32_t handle)
{
	return (handle * 2654435761u) & (dev->bo_buckets - 1);
}

int vaccel_device_init_bos(struct vaccel_device *dev)
{
	int ret;

	dev->bo_table = calloc(VACCEL_BO_MIN_BUCKETS, sizeof(*dev->bo_table));
	if (!dev->bo_table)
		return -ENOMEM;
	dev->bo_buckets = VACCEL_BO_MIN_BUCKETS;
	dev->bo_count = 0;
	ret = pthread_mutex_init(&dev->bo_lock, NULL);
	if (ret) {
		free(dev->bo_table);
		dev->bo_table = NULL;
		return -ret;
	}
	return 0;
}

/* Frees the buffers left; their handles go with the file. */
void vaccel_device_fini_bos(struct vaccel_device *dev)
{
	struct vaccel_bo *bo, *next;
	uint32_t i;

	if (!dev->bo_table)
		return;
	for (i = 0; i < dev->bo_buckets; i++) {
		for (bo = dev->bo_table[i]; bo; bo = next) {
			next = bo->next;
			if (bo->map)
				munmap(bo->map, bo->size);
			free(bo);
		}
	}
	free(dev->bo_table);
	dev->bo_table = NULL;
	pthread_mutex_destroy(&dev->bo_lock);
}

static struct vaccel_bo *vaccel_bo_lookup_locked(struct vaccel_device *dev,
						 uint32_t handle)
{
	struct vaccel_bo *bo;

	for (bo = dev->bo_table[vaccel_bo_bucket(dev, handle)]; bo; bo = bo->next)
		if (bo->handle == handle)
			return bo;
	return NULL;
}

/* Doubles the table when it is full; keeps the old one if memory is short. */
static void vaccel_bo_table_grow_locked(struct vaccel_device *dev)
{
	struct vaccel_bo **old = dev->bo_table, **table, *bo, *next;
	uint32_t i, n = dev->bo_buckets, b;

	if (dev->bo_count < n || n > UINT32_MAX / 2)
		return;
	table = calloc((size_t)n * 2, sizeof(*table));
	if (!table)
		return;
	dev->bo_table = table;
	dev->bo_buckets = n * 2;
	for (i = 0; i < n; i++) {
		for (bo = old[i]; bo; bo = next) {
			next = bo->next;
			b = vaccel_bo_bucket(dev, bo->handle);
			bo->next = table[b];
			table[b] = bo;
		}
	}
	free(old);
}

static void vaccel_bo_insert_locked(struct vaccel_device *dev,
				    struct vaccel_bo *bo)
{
	uint32_t b;

	vaccel_bo_table_grow_locked(dev);
	b = vaccel_bo_bucket(dev, bo->handle);
	bo->next = dev->bo_table[b];
	dev->bo_table[b] = bo;
	dev->bo_count++;
}

static void vaccel_bo_remove_locked(struct vaccel_device *dev,
				    struct vaccel_bo *bo)
{
	struct vaccel_bo **p = &dev->bo_table[vaccel_bo_bucket(dev, bo->handle)];

	for (; *p; p = &(*p)->next) {
		if (*p == bo) {
			*p = bo->next;
			dev->bo_count--;
			return;
		}
	}
}

/* One VM_BIND operation on the whole of [@va, @va + @size). */
static int vaccel_vm_bind_one(struct vaccel_device *dev, uint32_t op,
			      uint32_t flags, uint32_t handle, uint64_t va,
			      uint64_t size)
{
	struct drm_vaccel_vm_bind_op o = {
		.op = op,
		.flags = flags,
		.handle = handle,
		.va = va,
		.size = size,
	};
	struct drm_vaccel_vm_bind bind = {
		.ops = DRM_VACCEL_OBJ_ARRAY(1, &o),
	};

	return drmIoctl(dev->fd, DRM_IOCTL_VACCEL_VM_BIND, &bind) ? -errno : 0;
}

/* One VM_BIND of @count operations, all or nothing. */
int vaccel_vm_bind_ops(struct vaccel_device *dev,
		       const struct drm_vaccel_vm_bind_op *ops, unsigned int count)
{
	struct drm_vaccel_vm_bind bind = {
		.ops = DRM_VACCEL_OBJ_ARRAY(count, ops),
	};

	return drmIoctl(dev->fd, DRM_IOCTL_VACCEL_VM_BIND, &bind) ? -errno : 0;
}

uint32_t vaccel_bo_map_flags(uint32_t flags)
{
	return (flags & VACCEL_BO_GPU_READ_ONLY ? DRM_VACCEL_VM_BIND_READ_ONLY : 0) |
	       (flags & VACCEL_BO_GPU_NO_EXEC ? DRM_VACCEL_VM_BIND_NO_EXEC : 0);
}

/*
 * Maps @count ranges of the buffer at @va, all or nothing: one VM_BIND of
 * @count operations.
 */
static int vaccel_bo_bind_ranges(struct vaccel_device *dev, uint32_t handle,
				 uint64_t va, const struct vaccel_bo_range *ranges,
				 unsigned int count)
{
	struct drm_vaccel_vm_bind_op ops[VACCEL_BO_MAX_RANGES];
	struct drm_vaccel_vm_bind bind = {
		.ops = DRM_VACCEL_OBJ_ARRAY(count, ops),
	};
	unsigned int i;

	memset(ops, 0, sizeof(ops));
	for (i = 0; i < count; i++) {
		ops[i].op = DRM_VACCEL_VM_BIND_OP_MAP;
		ops[i].flags = vaccel_bo_map_flags(ranges[i].flags);
		ops[i].handle = handle;
		ops[i].bo_offset = ranges[i].offset;
		ops[i].va = va + ranges[i].offset;
		ops[i].size = ranges[i].size;
	}
	return drmIoctl(dev->fd, DRM_IOCTL_VACCEL_VM_BIND, &bind) ? -errno : 0;
}

/*
 * Builds the buffer around a new GEM @handle of @size bytes: a GPU address
 * aligned to at least @align and the mappings of @ranges there.  Takes the
 * handle: closes it on failure.
 */
static int vaccel_bo_setup(struct vaccel_device *dev, uint32_t handle,
			   uint64_t size, uint32_t flags, uint64_t align,
			   const struct vaccel_bo_range *ranges,
			   unsigned int count, struct vaccel_bo **out)
{
	struct vaccel_bo *bo;
	int ret;

	bo = calloc(1, sizeof(*bo));
	if (!bo) {
		ret = -ENOMEM;
		goto err_close;
	}
	bo->dev = dev;
	bo->handle = handle;
	bo->flags = flags;
	bo->size = size;
	bo->refcount = 1;

	if (size >= VACCEL_BO_BIG_ALIGN && align < VACCEL_BO_BIG_ALIGN)
		align = VACCEL_BO_BIG_ALIGN;
	ret = vaccel_va_space_alloc(vaccel_dev_va(dev), size, align, &bo->va);
	if (ret)
		goto err_free_bo;

	ret = vaccel_bo_bind_ranges(dev, handle, bo->va, ranges, count);
	if (ret)
		goto err_free_va;

	bo->va_owned = true;
	bo->bound = true;
	*out = bo;
	return 0;

err_free_va:
	vaccel_va_space_free(vaccel_dev_va(dev), bo->va, size);
err_free_bo:
	free(bo);
err_close:
	drmCloseBufferHandle(dev->fd, handle);
	return ret;
}

/* The one range of a buffer mapped whole. */
static struct vaccel_bo_range vaccel_bo_whole(uint64_t size, uint32_t flags)
{
	return (struct vaccel_bo_range){ .size = size, .flags = flags };
}

VACCEL_EXPORT int vaccel_bo_alloc(struct vaccel_device *dev, uint64_t size,
				  uint32_t flags, struct vaccel_bo **out)
{
	struct drm_vaccel_bo_create create = { .size = size };
	struct vaccel_bo_range range;
	struct vaccel_bo *bo;
	int ret;

	if (!dev || !out || !size || (flags & ~VACCEL_BO_VALID_FLAGS) ||
	    (flags & VACCEL_BO_PLACEMENT) == VACCEL_BO_PLACEMENT)
		return -EINVAL;
	vaccel_error_clear();
	if (flags & VACCEL_BO_PLACEMENT && dev->info.uapi_minor < 7)
		return vaccel_error(-ENOTSUP, "the kernel module (uapi 1.%u) has no device memory placement: 1.7 has",
				    dev->info.uapi_minor);
	if (dev->unified) {
		if (size > UINT64_MAX - (VACCEL_PAGE_SIZE - 1))
			return -E2BIG;
		size = (size + VACCEL_PAGE_SIZE - 1) & ~(VACCEL_PAGE_SIZE - 1);
		range = vaccel_bo_whole(size, flags);
		return vaccel_unified_bo_alloc(dev, size, flags, VACCEL_PAGE_SIZE,
					       &range, 1, true, out);
	}
	if (flags & VACCEL_BO_NO_MMAP)
		create.flags |= DRM_VACCEL_BO_NO_MMAP;
	if (flags & VACCEL_BO_DEVICE)
		create.flags |= DRM_VACCEL_BO_DEVICE;
	if (flags & VACCEL_BO_DEVICE_PREFERRED)
		create.flags |= DRM_VACCEL_BO_DEVICE_PREFERRED;
	if (flags & VACCEL_BO_DEVICE && !dev->info.device_mem_size)
		return vaccel_error(-ENODEV, "the device has no device memory");

	if (drmIoctl(dev->fd, DRM_IOCTL_VACCEL_BO_CREATE, &create))
		return -errno;

	/*
	 * The handle is new, so no buffer of the table can have it, and no
	 * import can return it before the buffer is in the table: it is not
	 * exported yet.  Only the insertion needs the lock.
	 */
	range = vaccel_bo_whole(create.size, flags);
	ret = vaccel_bo_setup(dev, create.handle, create.size, flags,
			      VACCEL_PAGE_SIZE, &range, 1, &bo);
	if (ret)
		return ret;

	pthread_mutex_lock(&dev->bo_lock);
	vaccel_bo_insert_locked(dev, bo);
	pthread_mutex_unlock(&dev->bo_lock);
	*out = bo;
	return 0;
}

int vaccel_bo_alloc_ranges(struct vaccel_device *dev, uint64_t size,
			   uint64_t align, const struct vaccel_bo_range *ranges,
			   unsigned int count, struct vaccel_bo **out)
{
	struct drm_vaccel_bo_create create = { .size = size };
	struct vaccel_bo *bo;
	unsigned int i;
	int ret;

	if (!count || count > VACCEL_BO_MAX_RANGES)
		return -EINVAL;
	for (i = 0; i < count; i++)
		if (ranges[i].offset > size || ranges[i].size > size - ranges[i].offset ||
		    (ranges[i].flags & ~(VACCEL_BO_GPU_READ_ONLY | VACCEL_BO_GPU_NO_EXEC)))
			return -EINVAL;
	/* A module's image: one part, whole on the first member. */
	if (dev->unified)
		return vaccel_unified_bo_alloc(dev, size, 0, align, ranges, count,
					       false, out);
	if (drmIoctl(dev->fd, DRM_IOCTL_VACCEL_BO_CREATE, &create))
		return -errno;
	ret = vaccel_bo_setup(dev, create.handle, create.size, 0, align, ranges,
			      count, &bo);
	if (ret)
		return ret;

	pthread_mutex_lock(&dev->bo_lock);
	vaccel_bo_insert_locked(dev, bo);
	pthread_mutex_unlock(&dev->bo_lock);
	*out = bo;
	return 0;
}

VACCEL_EXPORT int vaccel_bo_import(struct vaccel_device *dev, int fd,
				   struct vaccel_bo **out)
{
	struct drm_vaccel_bo_info info = { 0 };
	struct vaccel_bo_range range;
	uint32_t handle, flags;
	struct vaccel_bo *bo;
	int ret;

	if (!dev || fd < 0 || !out)
		return -EINVAL;
	if (dev->unified)
		return vaccel_unified_bo_import(dev, fd, out);

	pthread_mutex_lock(&dev->bo_lock);
	if (drmPrimeFDToHandle(dev->fd, fd, &handle)) {
		ret = -errno;
		goto out_unlock;
	}

	bo = vaccel_bo_lookup_locked(dev, handle);
	if (bo) {
		/* The object was already ours: PRIME gave back its handle. */
		bo->refcount++;
		*out = bo;
		ret = 0;
		goto out_unlock;
	}

	info.handle = handle;
	if (drmIoctl(dev->fd, DRM_IOCTL_VACCEL_BO_INFO, &info)) {
		ret = -errno;
		drmCloseBufferHandle(dev->fd, handle);
		goto out_unlock;
	}

	flags = info.flags & DRM_VACCEL_BO_NO_MMAP ? VACCEL_BO_NO_MMAP : 0;
	range = vaccel_bo_whole(info.size, flags);
	ret = vaccel_bo_setup(dev, handle, info.size, flags, VACCEL_PAGE_SIZE,
			      &range, 1, &bo);
	if (ret)
		goto out_unlock;
	vaccel_bo_insert_locked(dev, bo);
	*out = bo;

out_unlock:
	pthread_mutex_unlock(&dev->bo_lock);
	return ret;
}

VACCEL_EXPORT void vaccel_bo_free(struct vaccel_bo *bo)
{
	struct vaccel_device *dev;

	if (!bo)
		return;
	dev = bo->dev;
	if (dev->unified) {
		vaccel_unified_bo_free(bo);
		return;
	}

	pthread_mutex_lock(&dev->bo_lock);
	if (--bo->refcount) {
		pthread_mutex_unlock(&dev->bo_lock);
		return;
	}
	vaccel_bo_remove_locked(dev, bo);

	if (bo->map)
		munmap(bo->map, bo->size);
	/*
	 * Addresses still mapped must not be handed out again: if the unmap
	 * fails, which only a broken kernel does, they are leaked instead.
	 */
	if ((!bo->bound ||
	     !vaccel_vm_bind_one(dev, DRM_VACCEL_VM_BIND_OP_UNMAP, 0, 0, bo->va,
				 bo->size)) && bo->va_owned)
		vaccel_va_space_free(vaccel_dev_va(dev), bo->va, bo->size);
	drmCloseBufferHandle(dev->fd, bo->handle);
	pthread_mutex_unlock(&dev->bo_lock);
	free(bo);
}

VACCEL_EXPORT int vaccel_bo_map(struct vaccel_bo *bo, void **ptr)
{
	struct drm_vaccel_bo_mmap_offset arg = { 0 };
	struct vaccel_device *dev;
	void *map;
	int ret = 0;

	if (!bo || !ptr)
		return -EINVAL;
	if (bo->flags & VACCEL_BO_NO_MMAP)
		return -EPERM;
	dev = bo->dev;
	if (dev->unified)
		return vaccel_unified_bo_map(bo, ptr);

	pthread_mutex_lock(&dev->bo_lock);
	if (bo->map)
		goto out_found;

	if (bo->size > SIZE_MAX) {
		ret = -ENOMEM;
		goto out_unlock;
	}
	arg.handle = bo->handle;
	if (drmIoctl(dev->fd, DRM_IOCTL_VACCEL_BO_MMAP_OFFSET, &arg)) {
		ret = -errno;
		goto out_unlock;
	}
	map = mmap(NULL, bo->size, PROT_READ | PROT_WRITE, MAP_SHARED, dev->fd,
		   arg.offset);
	if (map == MAP_FAILED) {
		ret = -errno;
		goto out_unlock;
	}
	bo->map = map;
out_found:
	*ptr = bo->map;
out_unlock:
	pthread_mutex_unlock(&dev->bo_lock);
	return ret;
}

VACCEL_EXPORT uint64_t vaccel_bo_va(const struct vaccel_bo *bo)
{
	return bo ? bo->va : 0;
}

VACCEL_EXPORT uint64_t vaccel_bo_size(const struct vaccel_bo *bo)
{
	return bo ? bo->size : 0;
}

VACCEL_EXPORT uint32_t vaccel_bo_handle(const struct vaccel_bo *bo)
{
	return bo ? bo->handle : 0;
}

VACCEL_EXPORT int vaccel_bo_export(struct vaccel_bo *bo, int *fd)
{
	int out;

	if (!bo || !fd)
		return -EINVAL;
	if (bo->dev->unified)
		return vaccel_unified_bo_export(bo, fd);
	if (drmPrimeHandleToFD(bo->dev->fd, bo->handle, DRM_CLOEXEC | DRM_RDWR, &out))
		return -errno;
	*fd = out;
	return 0;
}

VACCEL_EXPORT int vaccel_bo_owner(const struct vaccel_bo *bo, uint64_t offset)
{
	unsigned int i;

	if (!bo || offset >= bo->size)
		return -EINVAL;
	for (i = 0; i < bo->nparts; i++)
		if (offset - bo->parts[i].offset < bo->parts[i].size)
			return bo->parts[i].owner;
	return 0;
}

/*
 * A buffer around GEM @handle of @dev, in its table but without a GPU
 * address or a mapping yet.  Takes the handle: closes it on failure.
 */
int vaccel_bo_wrap(struct vaccel_device *dev, uint32_t handle, uint64_t size,
		   uint32_t flags, struct vaccel_bo **out)
{
	struct vaccel_bo *bo;

	bo = calloc(1, sizeof(*bo));
	if (!bo) {
		drmCloseBufferHandle(dev->fd, handle);
		return -ENOMEM;
	}
	bo->dev = dev;
	bo->handle = handle;
	bo->flags = flags;
	bo->size = size;
	bo->refcount = 1;
	pthread_mutex_lock(&dev->bo_lock);
	vaccel_bo_insert_locked(dev, bo);
	pthread_mutex_unlock(&dev->bo_lock);
	*out = bo;
	return 0;
}

/*
 * A new wrapped buffer of @size bytes on @dev, in its device memory when
 * it has some and the buffer fits (only there with %VACCEL_BO_DEVICE), in
 * system memory otherwise.
 */
int vaccel_bo_create_wrapped(struct vaccel_device *dev, uint64_t size,
			     uint32_t flags, struct vaccel_bo **out)
{
	struct drm_vaccel_bo_create create = { .size = size };

	if (flags & VACCEL_BO_NO_MMAP)
		create.flags |= DRM_VACCEL_BO_NO_MMAP;
	if (flags & VACCEL_BO_DEVICE)
		create.flags |= DRM_VACCEL_BO_DEVICE;
	else if (dev->info.device_mem_size)
		create.flags |= DRM_VACCEL_BO_DEVICE_PREFERRED;
	if (drmIoctl(dev->fd, DRM_IOCTL_VACCEL_BO_CREATE, &create))
		return -errno;
	return vaccel_bo_wrap(dev, create.handle, create.size, flags, out);
}

/*
 * The dma-buf @fd imported into @dev as a new wrapped buffer.  -EEXIST if
 * @dev's file already has a buffer for it: a handle names one buffer.
 */
int vaccel_bo_import_wrapped(struct vaccel_device *dev, int fd, uint32_t flags,
			     struct vaccel_bo **out)
{
	struct drm_vaccel_bo_info info = { 0 };
	struct vaccel_bo *bo;
	uint32_t handle;
	int ret;

	pthread_mutex_lock(&dev->bo_lock);
	if (drmPrimeFDToHandle(dev->fd, fd, &handle)) {
		ret = -errno;
		goto out_unlock;
	}
	if (vaccel_bo_lookup_locked(dev, handle)) {
		ret = -EEXIST;
		goto out_unlock;
	}
	info.handle = handle;
	if (drmIoctl(dev->fd, DRM_IOCTL_VACCEL_BO_INFO, &info)) {
		ret = -errno;
		drmCloseBufferHandle(dev->fd, handle);
		goto out_unlock;
	}
	bo = calloc(1, sizeof(*bo));
	if (!bo) {
		ret = -ENOMEM;
		drmCloseBufferHandle(dev->fd, handle);
		goto out_unlock;
	}
	bo->dev = dev;
	bo->handle = handle;
	bo->flags = flags | (info.flags & DRM_VACCEL_BO_NO_MMAP ? VACCEL_BO_NO_MMAP : 0);
	bo->size = info.size;
	bo->refcount = 1;
	vaccel_bo_insert_locked(dev, bo);
	*out = bo;
	ret = 0;
out_unlock:
	pthread_mutex_unlock(&dev->bo_lock);
	return ret;
}

/* The offset to mmap() @bo at on its device's file. */
int vaccel_bo_mmap_offset(struct vaccel_bo *bo, uint64_t *offset)
{
	struct drm_vaccel_bo_mmap_offset arg = { .handle = bo->handle };

	if (drmIoctl(bo->dev->fd, DRM_IOCTL_VACCEL_BO_MMAP_OFFSET, &arg))
		return -errno;
	*offset = arg.offset;
	return 0;
}

/* --- placement (libvaccel 1.9, uapi 1.7) --- */

_Static_assert(DRM_VACCEL_REGION_SYSTEM == VACCEL_MEMORY_SYSTEM,
	      "system memory is region 0 of the uapi");

VACCEL_EXPORT int vaccel_bo_migrate(struct vaccel_bo *bo, uint32_t region,
				    uint32_t flags)
{
	struct drm_vaccel_bo_migrate m = { 0 };
	struct vaccel_device *dev;

	if (!bo || flags || (region != VACCEL_MEMORY_SYSTEM && region != VACCEL_MEMORY_DEVICE))
		return -EINVAL;
	dev = bo->dev;
	vaccel_error_clear();
	if (bo->nparts || dev->unified)
		return vaccel_error(-ENOTSUP, "a buffer of a unified device moves with vaccel_bo_remap()");
	if (dev->info.uapi_minor < 7)
		return vaccel_error(-ENOTSUP, "the kernel module (uapi 1.%u) cannot move buffers: 1.7 can",
				    dev->info.uapi_minor);
	m.handle = bo->handle;
	m.region = region == VACCEL_MEMORY_DEVICE ?
		   DRM_VACCEL_REGION_DEVICE(dev->info.device_index) : DRM_VACCEL_REGION_SYSTEM;
	if (drmIoctl(dev->fd, DRM_IOCTL_VACCEL_BO_MIGRATE, &m))
		return -errno;
	return 0;
}

VACCEL_EXPORT int vaccel_bo_region(struct vaccel_bo *bo)
{
	struct drm_vaccel_bo_info info = { 0 };
	struct vaccel_device *dev;

	if (!bo)
		return -EINVAL;
	dev = bo->dev;
	if (bo->nparts || dev->unified)
		return -ENOTSUP;
	if (dev->info.uapi_minor < 7)
		return VACCEL_MEMORY_SYSTEM;
	info.handle = bo->handle;
	if (drmIoctl(dev->fd, DRM_IOCTL_VACCEL_BO_INFO, &info))
		return -errno;
	if (info.region == DRM_VACCEL_REGION_SYSTEM)
		return VACCEL_MEMORY_SYSTEM;
	return info.region == DRM_VACCEL_REGION_DEVICE(dev->info.device_index) ?
	       VACCEL_MEMORY_DEVICE : VACCEL_MEMORY_PEER;
}
