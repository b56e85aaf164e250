// SPDX-License-Identifier: MIT
/*
 * Copyright 2026 The vaccel authors
 *
 * unified.c - the unified device: several vaccel devices behind one
 * device handle, MGPUSim's CreateUnifiedGPU.
 *
 * Devices.  A unified device opens each member anew, as an ordinary device
 * with its own file and GPU address space, and keeps one VA allocator for
 * all of them: the members' own buffers (the DMA buffers of their queues,
 * say) take their addresses from it too, so an address means the same
 * buffer, or nothing, in every member's address space.
 *
 * Buffers.  A unified buffer is split into parts, whole pages, one
 * contiguous range per member in member order, as MGPUSim splits an
 * allocation (15 pages on four members: 4, 4, 4 and 3).  Contiguous
 * ranges rather than interleaved pages because a launch gives each member
 * consecutive workgroups, and kernels mostly index data by global id: a
 * member's workgroups then mostly touch its own pages, and a buffer costs
 * one GEM object per member rather than one per page.  The part of a
 * member is a buffer created on that member (in its device memory, with
 * DRM_VACCEL_BO_DEVICE_PREFERRED, when it has some), exported as a dma-buf
 * and imported by every other member, and mapped at the unified buffer's
 * address plus the part's offset in every member's address space: each
 * member sees the whole buffer, its own part as local memory and the
 * others' parts as peer memory (the kernel maps a dma-buf of another
 * vaccel device where the BO is, see "Peer mappings" in memory.rst).  The CPU view maps the parts, from their
 * owners' files, into one reserved range.  A module's image is one part,
 * on the first member, mapped everywhere with its segments' permissions.
 *
 * Queues.  A unified queue has a queue on every member.  A launch runs on
 * every member with its share of the workgroups, consecutive groups in
 * member order, through the workgroup range of the DISPATCH packet; a copy
 * or a fill is split by the owner of the destination's pages (MGPUSim's
 * page-level commands sent to each page's owner); a write, a timestamp or
 * a wait for memory goes to the owner of its address.  Members run in
 * parallel, so the order of the queue is kept with fences: before a member
 * records (its part of) a command, it waits (on the device, not the CPU)
 * for the fence of the last submission of every other member that recorded
 * commands since it last waited for it, as a sync_file imported into one
 * of its wait syncobjs.  The parts of one command do not wait for each
 * other: every member is ordered before any part is recorded.  Each member counts its commands (@epoch) and knows how many
 * of every other member's it is ordered after (@seen), transitively, so
 * that a run of commands on one member costs nothing, and a launch on n
 * members after a launch costs n (n - 1) imports.
 *
 * Events.  A unified event is an event on every member; a queue signals
 * each member's event with that member's work, a wait waits for all of
 * them, and a queue that waits for the event imports every member's fence.
 *
 * Remap.  vaccel_bo_remap() moves pages between members by copy and
 * rebind: each part the range touches is replaced by new buffers, the
 * pages of the range on the target member and the rest on their owner,
 * which the owner's copy engine fills from the old pages (mapped for the
 * copy at a scratch address); then one VM_BIND per member unmaps the old
 * parts and maps the new ones at the same addresses, all or nothing, and
 * the CPU view is remapped.  A range is pages, not whole parts, so it
 * needs new buffers: BO_MIGRATE (uapi 1.7) moves a whole BO, and would
 * serve only a remap that covers whole parts, which vaccel_remap_fill()
 * could hand to it.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <time.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <libsync.h>

#include "vaccel_priv.h"

#define VACCEL_PAGE_MASK	(VACCEL_PAGE_SIZE - 1)

/* queue.c: vaccel_queue_get_stats() of the current version. */
int vaccel_queue_get_stats_1_5(struct vaccel_queue *q, struct vaccel_queue_stats *stats);

static uint64_t vaccel_min_u64(uint64_t a, uint64_t b)
{
	return a < b ? a : b;
}

static uint64_t vaccel_max_u64(uint64_t a, uint64_t b)
{
	return a > b ? a : b;
}

/* The smaller of two limits, 0 meaning "not said". */
static uint64_t vaccel_min_limit(uint64_t a, uint64_t b)
{
	if (!a || !b)
		return a ? a : b;
	return vaccel_min_u64(a, b);
}

/* --- the device --- */

static void vaccel_unified_free(struct vaccel_device *dev)
{
	struct vaccel_unified *u = dev->unified;
	unsigned int i;

	for (i = 0; i < u->n; i++)
		vaccel_device_close(u->members[i]);
	pthread_mutex_destroy(&u->lock);
	free(u);
	free(dev->engines);
	free(dev->path);
	free(dev);
}

/* The information of a unified device: its first member's, merged. */
static int vaccel_unified_info(struct vaccel_device *dev)
{
	struct vaccel_unified *u = dev->unified;
	struct drm_vaccel_device_info *info = &dev->info;
	const struct vaccel_device *first = u->members[0];
	size_t size;
	unsigned int i;

	*info = first->info;
	for (i = 1; i < u->n; i++) {
		const struct drm_vaccel_device_info *m = &u->members[i]->info;

		info->va_start = vaccel_max_u64(info->va_start, m->va_start);
		info->va_end = vaccel_min_u64(info->va_end, m->va_end);
		info->max_bo_size = vaccel_min_limit(info->max_bo_size, m->max_bo_size);
		info->max_bind_ops = vaccel_min_limit(info->max_bind_ops, m->max_bind_ops);
		info->max_bos_per_file = vaccel_min_limit(info->max_bos_per_file,
							  m->max_bos_per_file);
		info->max_workgroup_items = vaccel_min_u64(info->max_workgroup_items,
							   m->max_workgroup_items);
		info->max_local_size = vaccel_min_u64(info->max_local_size,
						      m->max_local_size);
		info->max_stack_size = vaccel_min_u64(info->max_stack_size,
						      m->max_stack_size);
		info->max_private_size = vaccel_min_u64(info->max_private_size,
							m->max_private_size);
		info->uapi_minor = vaccel_min_u64(info->uapi_minor, m->uapi_minor);
		info->device_mem_size += m->device_mem_size;
		info->device_mem_free += m->device_mem_free;
	}
	info->va_start = (info->va_start + VACCEL_PAGE_MASK) & ~VACCEL_PAGE_MASK;
	info->va_end &= ~VACCEL_PAGE_MASK;
	if (info->va_start >= info->va_end)
		return -ENOTSUP;

	size = sizeof(*first->engines) +
	       (size_t)first->engine_count * first->engine_entry_size;
	dev->engines = malloc(size);
	if (!dev->engines)
		return -ENOMEM;
	memcpy(dev->engines, first->engines, size);
	dev->engine_count = first->engine_count;
	dev->engine_entry_size = first->engine_entry_size;
	return 0;
}

/* "unified:PATH0,PATH1,...", the path of a unified device. */
static char *vaccel_unified_path(const struct vaccel_unified *u)
{
	size_t len = sizeof("unified:");
	unsigned int i;
	char *path;

	for (i = 0; i < u->n; i++)
		len += strlen(u->members[i]->path) + 1;
	path = malloc(len);
	if (!path)
		return NULL;
	strcpy(path, "unified:");
	for (i = 0; i < u->n; i++) {
		if (i)
			strcat(path, ",");
		strcat(path, u->members[i]->path);
	}
	return path;
}

static int vaccel_unified_open(const unsigned int *indices, unsigned int count,
			       struct vaccel_device **out)
{
	struct vaccel_device *dev;
	struct vaccel_unified *u;
	unsigned int i, j;
	int ret;

	if (!indices || !out || !count || count > VACCEL_UNIFIED_MAX_MEMBERS)
		return -EINVAL;
	for (i = 0; i < count; i++)
		for (j = 0; j < i; j++)
			if (indices[i] == indices[j])
				return -EINVAL;

	dev = calloc(1, sizeof(*dev));
	u = calloc(1, sizeof(*u));
	if (!dev || !u) {
		free(dev);
		free(u);
		return -ENOMEM;
	}
	dev->unified = u;
	ret = -pthread_mutex_init(&u->lock, NULL);
	if (ret) {
		free(u);
		free(dev);
		return ret;
	}
	for (i = 0; i < count; i++) {
		ret = vaccel_device_open_plain(indices[i], &u->members[i]);
		if (ret)
			goto err_free;
		u->n++;
	}
	ret = vaccel_unified_info(dev);
	if (ret)
		goto err_free;
	dev->path = vaccel_unified_path(u);
	if (!dev->path) {
		ret = -ENOMEM;
		goto err_free;
	}
	/* Not the unified device's own: the close leaves them alone. */
	dev->fd = u->members[0]->fd;
	dev->version = u->members[0]->version;

	ret = vaccel_va_space_init(&dev->va, dev->info.va_start, dev->info.va_end);
	if (ret)
		goto err_free;
	ret = vaccel_device_init_bos(dev);
	if (ret)
		goto err_fini_va;
	ret = vaccel_device_init_modules(dev);
	if (ret)
		goto err_fini_bos;
	for (i = 0; i < u->n; i++)
		u->members[i]->parent = dev;
	*out = dev;
	return 0;

err_fini_bos:
	vaccel_device_fini_bos(dev);
err_fini_va:
	vaccel_va_space_fini(&dev->va);
err_free:
	vaccel_unified_free(dev);
	return ret;
}

VACCEL_EXPORT int vaccel_device_open_unified(const unsigned int *indices,
					     unsigned int count,
					     struct vaccel_device **out)
{
	return vaccel_unified_open(indices, count, out);
}

/* VACCEL_UNIFIED=0,1,2,3: the members of vaccel_device_open(0). */
int vaccel_unified_open_env(struct vaccel_device **out)
{
	const char *s = secure_getenv("VACCEL_UNIFIED");
	unsigned int indices[VACCEL_UNIFIED_MAX_MEMBERS], n = 0;
	unsigned long v;
	char *end;

	while (s && *s) {
		if (*s < '0' || *s > '9' || n == VACCEL_UNIFIED_MAX_MEMBERS)
			return -EINVAL;
		errno = 0;
		v = strtoul(s, &end, 10);
		if (errno || v > UINT_MAX || (*end && *end != ','))
			return -EINVAL;
		indices[n++] = v;
		s = *end ? end + 1 : end;
		if (*end && !*s)
			return -EINVAL;
	}
	return vaccel_unified_open(indices, n, out);
}

void vaccel_unified_close(struct vaccel_device *dev)
{
	struct vaccel_unified *u = dev->unified;
	struct vaccel_bo *bo, *next;

	vaccel_device_fini_modules(dev);
	/* Buffers left: their members' objects go with the members' files. */
	for (bo = u->bos; bo; bo = next) {
		next = bo->next;
		if (bo->map)
			munmap(bo->map, bo->size);
		free(bo->parts);
		free(bo->ranges);
		free(bo);
	}
	vaccel_device_fini_bos(dev);
	vaccel_va_space_fini(&dev->va);
	vaccel_unified_free(dev);
}

VACCEL_EXPORT int vaccel_device_member_count(const struct vaccel_device *dev)
{
	if (!dev)
		return -EINVAL;
	return dev->unified ? (int)dev->unified->n : 0;
}

VACCEL_EXPORT int vaccel_device_get_member(const struct vaccel_device *dev,
					   unsigned int index,
					   struct vaccel_device **out)
{
	if (!dev || !out || !dev->unified)
		return -EINVAL;
	if (index >= dev->unified->n)
		return -ENOENT;
	*out = dev->unified->members[index];
	return 0;
}

int vaccel_unified_vm_stats(struct vaccel_device *dev, struct vaccel_vm_stats *out)
{
	struct vaccel_unified *u = dev->unified;
	struct vaccel_vm_stats s, sum = { 0 };
	unsigned int i;
	int ret;

	for (i = 0; i < u->n; i++) {
		ret = vaccel_device_vm_stats(u->members[i], &s);
		if (ret)
			return ret;
		sum.mappings += s.mappings;
		sum.mapped_bytes += s.mapped_bytes;
		sum.pt_pages += s.pt_pages;
		sum.pt_bytes += s.pt_bytes;
	}
	*out = sum;
	return 0;
}

/* --- buffers --- */

/*
 * Appends to @ops the mappings of part @p of @bo in member @m: the
 * buffer's ranges, clipped to the part, with their flags.
 */
static unsigned int vaccel_part_map_ops(const struct vaccel_bo *bo,
					const struct vaccel_part *p, unsigned int m,
					struct drm_vaccel_vm_bind_op *ops)
{
	unsigned int i, n = 0;

	for (i = 0; i < bo->nranges; i++) {
		const struct vaccel_bo_range *r = &bo->ranges[i];
		uint64_t a = vaccel_max_u64(r->offset, p->offset);
		uint64_t b = vaccel_min_u64(r->offset + r->size, p->offset + p->size);

		if (a >= b)
			continue;
		memset(&ops[n], 0, sizeof(ops[n]));
		ops[n].op = DRM_VACCEL_VM_BIND_OP_MAP;
		ops[n].flags = vaccel_bo_map_flags(r->flags);
		ops[n].handle = p->bos[m]->handle;
		ops[n].bo_offset = a - p->offset;
		ops[n].va = bo->va + a;
		ops[n].size = b - a;
		n++;
	}
	return n;
}

/* Appends to @ops the unmap of part @p of @bo. */
static unsigned int vaccel_part_unmap_op(const struct vaccel_bo *bo,
					 const struct vaccel_part *p,
					 struct drm_vaccel_vm_bind_op *ops)
{
	memset(ops, 0, sizeof(*ops));
	ops->op = DRM_VACCEL_VM_BIND_OP_UNMAP;
	ops->va = bo->va + p->offset;
	ops->size = p->size;
	return 1;
}

/* Frees the members' buffers of a part that is not (or no longer) mapped. */
static void vaccel_part_release(struct vaccel_part *p, unsigned int n)
{
	unsigned int m;

	for (m = 0; m < n; m++) {
		if (p->bos[m])
			vaccel_bo_free(p->bos[m]);
		p->bos[m] = NULL;
	}
}

/* The part's buffer on its owner shared with every other member, unmapped. */
static int vaccel_part_share(struct vaccel_unified *u, uint32_t flags,
			     struct vaccel_part *p)
{
	struct vaccel_device *owner = u->members[p->owner];
	unsigned int m;
	int fd, ret = 0;

	if (drmPrimeHandleToFD(owner->fd, p->bos[p->owner]->handle,
			       DRM_CLOEXEC | DRM_RDWR, &fd))
		return -errno;
	for (m = 0; m < u->n && !ret; m++)
		if (m != p->owner)
			ret = vaccel_bo_import_wrapped(u->members[m], fd, flags,
						       &p->bos[m]);
	close(fd);
	return ret;
}

/* A part with new buffers: created on its owner, imported by the others. */
static int vaccel_part_make(struct vaccel_unified *u, uint32_t flags,
			    struct vaccel_part *p)
{
	int ret;

	ret = vaccel_bo_create_wrapped(u->members[p->owner], p->size, flags,
				       &p->bos[p->owner]);
	if (!ret)
		ret = vaccel_part_share(u, flags, p);
	if (ret)
		vaccel_part_release(p, u->n);
	return ret;
}

/* Marks the members' buffers of @p mapped at their place in @bo. */
static void vaccel_part_set_bound(const struct vaccel_bo *bo, struct vaccel_part *p,
				  unsigned int n, bool bound)
{
	unsigned int m;

	for (m = 0; m < n; m++) {
		p->bos[m]->va = bo->va + p->offset;
		p->bos[m]->bound = bound;
	}
}

/*
 * Maps every part of @bo in every member, one VM_BIND per member, all or
 * nothing.
 */
static int vaccel_unified_bind(struct vaccel_unified *u, struct vaccel_bo *bo)
{
	struct drm_vaccel_vm_bind_op *ops, unmap;
	unsigned int m, i, n;
	int ret = 0;

	ops = calloc((size_t)bo->nparts * bo->nranges, sizeof(*ops));
	if (!ops)
		return -ENOMEM;
	for (m = 0; m < u->n; m++) {
		for (i = 0, n = 0; i < bo->nparts; i++)
			n += vaccel_part_map_ops(bo, &bo->parts[i], m, ops + n);
		ret = vaccel_vm_bind_ops(u->members[m], ops, n);
		if (ret)
			break;
	}
	free(ops);
	if (ret) {
		memset(&unmap, 0, sizeof(unmap));
		unmap.op = DRM_VACCEL_VM_BIND_OP_UNMAP;
		unmap.va = bo->va;
		unmap.size = bo->size;
		while (m--)
			vaccel_vm_bind_ops(u->members[m], &unmap, 1);
		return ret;
	}
	for (i = 0; i < bo->nparts; i++)
		vaccel_part_set_bound(bo, &bo->parts[i], u->n, true);
	return 0;
}

/* Splits @size bytes over @n members: contiguous whole pages in order. */
static unsigned int vaccel_unified_split(uint64_t size, unsigned int n, bool split,
					 struct vaccel_part *parts)
{
	uint64_t pages = size / VACCEL_PAGE_SIZE;
	uint64_t per = split ? (pages + n - 1) / n : pages;
	unsigned int i, np = 0;

	for (i = 0; i < n && i * per < pages; i++) {
		parts[np].offset = i * per * VACCEL_PAGE_SIZE;
		parts[np].size = vaccel_min_u64(per, pages - i * per) * VACCEL_PAGE_SIZE;
		parts[np].owner = i;
		np++;
	}
	return np;
}

/* A unified buffer without parts yet: its address and its ranges. */
static int vaccel_unified_bo_new(struct vaccel_device *dev, uint64_t size,
				 uint32_t flags, uint64_t align,
				 const struct vaccel_bo_range *ranges,
				 unsigned int count, struct vaccel_bo **out)
{
	struct vaccel_bo *bo;
	int ret;

	bo = calloc(1, sizeof(*bo));
	if (!bo)
		return -ENOMEM;
	bo->parts = calloc(dev->unified->n, sizeof(*bo->parts));
	bo->ranges = calloc(count, sizeof(*bo->ranges));
	if (!bo->parts || !bo->ranges) {
		ret = -ENOMEM;
		goto err_free;
	}
	memcpy(bo->ranges, ranges, count * sizeof(*ranges));
	bo->nranges = count;
	bo->dev = dev;
	bo->flags = flags;
	bo->size = size;
	bo->refcount = 1;
	if (size >= VACCEL_BO_BIG_ALIGN && align < VACCEL_BO_BIG_ALIGN)
		align = VACCEL_BO_BIG_ALIGN;
	ret = vaccel_va_space_alloc(&dev->va, size, align, &bo->va);
	if (ret)
		goto err_free;
	bo->va_owned = true;
	*out = bo;
	return 0;

err_free:
	free(bo->parts);
	free(bo->ranges);
	free(bo);
	return ret;
}

static void vaccel_unified_bo_destroy(struct vaccel_bo *bo)
{
	struct vaccel_unified *u = bo->dev->unified;
	unsigned int i;

	if (bo->map)
		munmap(bo->map, bo->size);
	for (i = 0; i < bo->nparts; i++)
		vaccel_part_release(&bo->parts[i], u->n);
	vaccel_va_space_free(&bo->dev->va, bo->va, bo->size);
	free(bo->parts);
	free(bo->ranges);
	free(bo);
}

static void vaccel_unified_insert(struct vaccel_unified *u, struct vaccel_bo *bo)
{
	pthread_mutex_lock(&u->lock);
	bo->next = u->bos;
	u->bos = bo;
	pthread_mutex_unlock(&u->lock);
}

int vaccel_unified_bo_alloc(struct vaccel_device *dev, uint64_t size,
			    uint32_t flags, uint64_t align,
			    const struct vaccel_bo_range *ranges,
			    unsigned int count, bool split, struct vaccel_bo **out)
{
	struct vaccel_unified *u = dev->unified;
	struct vaccel_bo *bo;
	unsigned int i;
	int ret;

	/* The callers give whole pages. */
	if (dev->info.max_bo_size && size / u->n > dev->info.max_bo_size)
		return -E2BIG;
	ret = vaccel_unified_bo_new(dev, size, flags, align, ranges, count, &bo);
	if (ret)
		return ret;
	bo->nparts = vaccel_unified_split(size, u->n, split, bo->parts);
	for (i = 0; i < bo->nparts; i++) {
		ret = vaccel_part_make(u, flags, &bo->parts[i]);
		if (ret)
			goto err_release;
	}
	ret = vaccel_unified_bind(u, bo);
	if (ret)
		goto err_release;
	vaccel_unified_insert(u, bo);
	*out = bo;
	return 0;

err_release:
	vaccel_unified_bo_destroy(bo);
	return ret;
}

int vaccel_unified_bo_import(struct vaccel_device *dev, int fd,
			     struct vaccel_bo **out)
{
	struct vaccel_unified *u = dev->unified;
	struct vaccel_bo_range range = { 0 };
	struct vaccel_bo *bo, *first = NULL;
	struct vaccel_part *p;
	uint32_t handle;
	unsigned int m;
	int ret;

	ret = vaccel_bo_import_wrapped(u->members[0], fd, 0, &first);
	if (ret == -EEXIST) {
		/* Imported before: the same unified buffer, one more reference. */
		if (drmPrimeFDToHandle(u->members[0]->fd, fd, &handle))
			return -errno;
		pthread_mutex_lock(&u->lock);
		for (bo = u->bos; bo; bo = bo->next)
			if (bo->nparts == 1 && bo->parts[0].bos[0]->handle == handle)
				break;
		if (bo)
			bo->refcount++;
		pthread_mutex_unlock(&u->lock);
		if (!bo)
			return -EEXIST;
		*out = bo;
		return 0;
	}
	if (ret)
		return ret;
	range.size = first->size;
	ret = vaccel_unified_bo_new(dev, first->size, first->flags, VACCEL_PAGE_SIZE,
				    &range, 1, &bo);
	if (ret) {
		vaccel_bo_free(first);
		return ret;
	}
	bo->nparts = 1;
	p = &bo->parts[0];
	p->size = bo->size;
	p->bos[0] = first;
	for (m = 1; m < u->n && !ret; m++)
		ret = vaccel_bo_import_wrapped(u->members[m], fd, first->flags,
					       &p->bos[m]);
	if (!ret)
		ret = vaccel_unified_bind(u, bo);
	if (ret) {
		vaccel_unified_bo_destroy(bo);
		return ret;
	}
	vaccel_unified_insert(u, bo);
	*out = bo;
	return 0;
}

void vaccel_unified_bo_free(struct vaccel_bo *bo)
{
	struct vaccel_unified *u = bo->dev->unified;
	struct vaccel_bo **p;

	pthread_mutex_lock(&u->lock);
	if (--bo->refcount) {
		pthread_mutex_unlock(&u->lock);
		return;
	}
	for (p = &u->bos; *p; p = &(*p)->next) {
		if (*p == bo) {
			*p = bo->next;
			break;
		}
	}
	pthread_mutex_unlock(&u->lock);
	vaccel_unified_bo_destroy(bo);
}

/* Maps part @p of @bo, from its owner's file, at @base + its offset. */
static int vaccel_part_mmap(struct vaccel_unified *u, struct vaccel_part *p,
			    unsigned char *base)
{
	uint64_t off;
	void *map;
	int ret;

	ret = vaccel_bo_mmap_offset(p->bos[p->owner], &off);
	if (ret)
		return ret;
	map = mmap(base + p->offset, p->size, PROT_READ | PROT_WRITE,
		   MAP_SHARED | MAP_FIXED, u->members[p->owner]->fd, off);
	return map == MAP_FAILED ? -errno : 0;
}

int vaccel_unified_bo_map(struct vaccel_bo *bo, void **ptr)
{
	struct vaccel_unified *u = bo->dev->unified;
	unsigned int i;
	void *base;
	int ret = 0;

	if (bo->size > SIZE_MAX)
		return -ENOMEM;
	pthread_mutex_lock(&u->lock);
	if (bo->map)
		goto out_found;
	/* One range for the whole buffer, then each part in its place. */
	base = mmap(NULL, bo->size, PROT_NONE,
		    MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (base == MAP_FAILED) {
		ret = -errno;
		goto out_unlock;
	}
	for (i = 0; i < bo->nparts && !ret; i++)
		ret = vaccel_part_mmap(u, &bo->parts[i], base);
	if (ret) {
		munmap(base, bo->size);
		goto out_unlock;
	}
	bo->map = base;
out_found:
	*ptr = bo->map;
out_unlock:
	pthread_mutex_unlock(&u->lock);
	return ret;
}

int vaccel_unified_bo_export(struct vaccel_bo *bo, int *fd)
{
	struct vaccel_part *p = &bo->parts[0];
	int out;

	if (bo->nparts != 1)
		return -EOPNOTSUPP;
	if (drmPrimeHandleToFD(bo->dev->unified->members[p->owner]->fd,
			       p->bos[p->owner]->handle, DRM_CLOEXEC | DRM_RDWR, &out))
		return -errno;
	*fd = out;
	return 0;
}

/* --- remap --- */

/*
 * Copies @size bytes at GPU address @src into @dst, a buffer of member
 * @dev not mapped yet, with @dev's copy engine (or a compute engine if it
 * has none): @dst is mapped at a scratch address for the copy.
 */
static int vaccel_remap_copy(struct vaccel_device *dev, struct vaccel_bo *dst,
			     uint64_t src, uint64_t size)
{
	struct vaccel_va_space *vs = vaccel_dev_va(dev);
	struct drm_vaccel_vm_bind_op op = { 0 };
	enum vaccel_engine_class cls;
	struct vaccel_queue *q;
	uint64_t scratch;
	int ret;

	ret = vaccel_va_space_alloc(vs, size, VACCEL_PAGE_SIZE, &scratch);
	if (ret)
		return ret;
	op.op = DRM_VACCEL_VM_BIND_OP_MAP;
	op.flags = DRM_VACCEL_VM_BIND_NO_EXEC;
	op.handle = dst->handle;
	op.va = scratch;
	op.size = size;
	ret = vaccel_vm_bind_ops(dev, &op, 1);
	if (ret)
		goto out_free_va;

	cls = dev->info.engine_count[VACCEL_ENGINE_CLASS_COPY] ?
	      VACCEL_ENGINE_CLASS_COPY : VACCEL_ENGINE_CLASS_COMPUTE;
	ret = vaccel_queue_create(dev, cls, VACCEL_PRIORITY_NORMAL, &q);
	if (!ret) {
		ret = vaccel_queue_copy(q, scratch, src, size);
		if (!ret)
			ret = vaccel_queue_finish(q);
		vaccel_queue_destroy(q);
	}

	memset(&op, 0, sizeof(op));
	op.op = DRM_VACCEL_VM_BIND_OP_UNMAP;
	op.va = scratch;
	op.size = size;
	if (vaccel_vm_bind_ops(dev, &op, 1))
		return ret ? ret : -EIO;	/* the address stays reserved */
out_free_va:
	vaccel_va_space_free(vs, scratch, size);
	return ret;
}

/*
 * New buffers for the new part @p of @bo, holding the pages @bo has at its
 * offset now: a buffer on its owner filled by copy, shared with every
 * other member.  Where the kernel moves buffers between devices itself
 * (BO_MIGRATE to another device's region), this is the step it would
 * replace.
 */
static int vaccel_remap_fill(struct vaccel_bo *bo, struct vaccel_part *p)
{
	struct vaccel_unified *u = bo->dev->unified;
	struct vaccel_device *owner = u->members[p->owner];
	int ret;

	ret = vaccel_bo_create_wrapped(owner, p->size, bo->flags, &p->bos[p->owner]);
	if (ret)
		return ret;
	ret = vaccel_remap_copy(owner, p->bos[p->owner], bo->va + p->offset, p->size);
	if (!ret)
		ret = vaccel_part_share(u, bo->flags, p);
	if (ret)
		vaccel_part_release(p, u->n);
	return ret;
}

/*
 * The switch of member @m from the parts of @bo marked in @old to the
 * parts of @np marked in @fresh, or back: one VM_BIND.
 */
static int vaccel_remap_switch(struct vaccel_bo *bo, unsigned int m,
			       struct vaccel_part *from, const bool *from_mask,
			       unsigned int nfrom, struct vaccel_part *to,
			       const bool *to_mask, unsigned int nto,
			       struct drm_vaccel_vm_bind_op *ops)
{
	unsigned int i, n = 0;

	for (i = 0; i < nfrom; i++)
		if (from_mask[i])
			n += vaccel_part_unmap_op(bo, &from[i], ops + n);
	for (i = 0; i < nto; i++)
		if (to_mask[i])
			n += vaccel_part_map_ops(bo, &to[i], m, ops + n);
	return vaccel_vm_bind_ops(bo->dev->unified->members[m], ops, n);
}

VACCEL_EXPORT int vaccel_bo_remap(struct vaccel_bo *bo, uint64_t offset,
				  uint64_t size, unsigned int member)
{
	struct vaccel_part *np = NULL, *old;
	struct drm_vaccel_vm_bind_op *ops = NULL;
	bool *fresh = NULL, *replaced = NULL;
	struct vaccel_unified *u;
	unsigned int i, k = 0, m, nold, nops;
	bool any = false;
	int ret;

	if (!bo || !bo->dev->unified || !size || (offset | size) & VACCEL_PAGE_MASK ||
	    offset > bo->size || size > bo->size - offset ||
	    member >= bo->dev->unified->n)
		return -EINVAL;
	u = bo->dev->unified;
	old = bo->parts;
	nold = bo->nparts;

	np = calloc(nold + 2, sizeof(*np));
	fresh = calloc(nold + 2, sizeof(*fresh));
	replaced = calloc(nold, sizeof(*replaced));
	nops = (nold + 2) * (bo->nranges + 1);
	ops = calloc(nops, sizeof(*ops));
	if (!np || !fresh || !replaced || !ops) {
		ret = -ENOMEM;
		goto out_free;
	}

	/* The new layout: the range on @member, the rest where it was. */
	for (i = 0; i < nold; i++) {
		struct vaccel_part *p = &old[i];
		uint64_t a = vaccel_max_u64(p->offset, offset);
		uint64_t b = vaccel_min_u64(p->offset + p->size, offset + size);

		if (a >= b || p->owner == member) {
			np[k++] = *p;
			continue;
		}
		replaced[i] = any = true;
		if (p->offset < a) {
			np[k] = (struct vaccel_part){ .offset = p->offset, .size = a - p->offset,
						      .owner = p->owner };
			fresh[k++] = true;
		}
		np[k] = (struct vaccel_part){ .offset = a, .size = b - a, .owner = member };
		fresh[k++] = true;
		if (b < p->offset + p->size) {
			np[k] = (struct vaccel_part){ .offset = b,
						      .size = p->offset + p->size - b,
						      .owner = p->owner };
			fresh[k++] = true;
		}
	}
	if (!any) {
		ret = 0;
		goto out_free;
	}

	for (i = 0; i < k; i++) {
		if (!fresh[i])
			continue;
		ret = vaccel_remap_fill(bo, &np[i]);
		if (ret)
			goto err_release;
	}

	/* Every member at once, or none. */
	for (m = 0; m < u->n; m++) {
		ret = vaccel_remap_switch(bo, m, old, replaced, nold, np, fresh, k, ops);
		if (ret) {
			while (m--)
				vaccel_remap_switch(bo, m, np, fresh, k, old, replaced,
						    nold, ops);
			goto err_release;
		}
	}
	for (i = 0; i < k; i++)
		if (fresh[i])
			vaccel_part_set_bound(bo, &np[i], u->n, true);
	for (i = 0; i < nold; i++) {
		if (!replaced[i])
			continue;
		vaccel_part_set_bound(bo, &old[i], u->n, false);
		vaccel_part_release(&old[i], u->n);
	}

	/*
	 * The CPU view follows: the old pages stay until it does.  The lock
	 * also keeps vaccel_uq_owner() from reading the parts as they change.
	 */
	pthread_mutex_lock(&u->lock);
	for (i = 0; bo->map && i < k; i++)
		if (fresh[i] && vaccel_part_mmap(u, &np[i], bo->map)) {
			/* Without memory for it, the view goes; a new map makes it. */
			munmap(bo->map, bo->size);
			bo->map = NULL;
		}
	bo->parts = np;
	bo->nparts = k;
	pthread_mutex_unlock(&u->lock);
	free(old);
	np = NULL;
	ret = 0;
	goto out_free;

err_release:
	for (i = 0; i < k; i++)
		if (fresh[i])
			vaccel_part_release(&np[i], u->n);
out_free:
	free(np);
	free(fresh);
	free(replaced);
	free(ops);
	return ret;
}

/* --- queues --- */

int vaccel_unified_queue_create(struct vaccel_device *dev,
				const struct vaccel_queue_desc *desc,
				struct vaccel_queue **out)
{
	struct vaccel_unified *u = dev->unified;
	struct vaccel_uqueue *uq;
	struct vaccel_queue *q;
	unsigned int i;
	int ret;

	q = calloc(1, sizeof(*q));
	uq = calloc(1, sizeof(*uq));
	if (!q || !uq) {
		free(q);
		free(uq);
		return -ENOMEM;
	}
	q->dev = dev;
	q->engine_class = desc->engine_class;
	q->priority = desc->priority;
	q->u = uq;
	for (i = 0; i < VACCEL_UNIFIED_MAX_MEMBERS; i++)
		uq->export_fd[i] = -1;
	for (i = 0; i < u->n; i++) {
		ret = vaccel_queue_create_ex(u->members[i], desc, &uq->q[i]);
		if (ret) {
			vaccel_unified_queue_destroy(q);
			return ret;
		}
		uq->n++;
	}
	*out = q;
	return 0;
}

void vaccel_unified_queue_destroy(struct vaccel_queue *q)
{
	struct vaccel_uqueue *uq = q->u;
	unsigned int i;

	for (i = 0; i < uq->n; i++) {
		vaccel_queue_destroy(uq->q[i]);
		if (uq->export_fd[i] >= 0)
			close(uq->export_fd[i]);
	}
	free(uq);
	free(q);
}

/* A sync_file of the fence of member @i's work so far, in uq->export_fd[i]. */
static int vaccel_uq_export(struct vaccel_uqueue *uq, unsigned int i)
{
	struct vaccel_queue *qi = uq->q[i];
	int ret, fd;

	ret = vaccel_queue_submit_pending(qi);
	if (ret)
		return ret;
	if (uq->export_fd[i] >= 0 && uq->export_point[i] == qi->submitted)
		return 0;
	if (drmSyncobjExportSyncFile(qi->dev->fd, qi->last, &fd))
		return -errno;
	if (uq->export_fd[i] >= 0)
		close(uq->export_fd[i]);
	uq->export_fd[i] = fd;
	uq->export_point[i] = qi->submitted;
	return 0;
}

/*
 * Orders what member @j records next after every command the other
 * members recorded so far: the queue's order, across members.
 */
static int vaccel_uq_order(struct vaccel_queue *q, unsigned int j)
{
	struct vaccel_uqueue *uq = q->u;
	unsigned int i, k;
	int ret;

	if (uq->error)
		return uq->error;
	for (i = 0; i < uq->n; i++) {
		if (i == j || uq->epoch[i] <= uq->seen[j][i])
			continue;
		ret = vaccel_uq_export(uq, i);
		if (!ret)
			ret = vaccel_queue_wait_sync_file(uq->q[j], uq->export_fd[i]);
		if (ret)
			return ret;
		uq->seen[j][i] = uq->epoch[i];
		/* What member i was ordered after, j is too. */
		for (k = 0; k < uq->n; k++)
			if (k != j && uq->seen[i][k] > uq->seen[j][k])
				uq->seen[j][k] = uq->seen[i][k];
	}
	return 0;
}

/*
 * Orders the members of @mask, the members that record the parts of one
 * command, after what was recorded before it, before any part is
 * recorded: the parts do not wait for each other, and run in parallel.
 */
static int vaccel_uq_order_set(struct vaccel_queue *q, unsigned int mask)
{
	unsigned int j;
	int ret;

	for (j = 0; j < q->u->n; j++) {
		if (!(mask & (1u << j)))
			continue;
		ret = vaccel_uq_order(q, j);
		if (ret)
			return ret;
	}
	return 0;
}

/* Counts a command recorded on member @j, or notes that the queue failed. */
static int vaccel_uq_done(struct vaccel_queue *q, unsigned int j, int ret)
{
	if (!ret)
		q->u->epoch[j]++;
	else if (ret == -ECANCELED)
		q->u->error = ret;
	return ret;
}

/*
 * The member that holds GPU address @va of the unified device, and in
 * *@end the end of its pages there; the first member, to the end of the
 * address space, for an address no unified buffer holds.
 */
static unsigned int vaccel_uq_owner(struct vaccel_device *dev, uint64_t va,
				    uint64_t *end)
{
	struct vaccel_unified *u = dev->unified;
	unsigned int owner = 0, i;
	struct vaccel_bo *bo;

	*end = UINT64_MAX;
	pthread_mutex_lock(&u->lock);
	for (bo = u->bos; bo; bo = bo->next) {
		if (va - bo->va >= bo->size)
			continue;
		for (i = 0; i < bo->nparts; i++) {
			const struct vaccel_part *p = &bo->parts[i];

			if (va - bo->va - p->offset < p->size) {
				owner = p->owner;
				*end = bo->va + p->offset + p->size;
				break;
			}
		}
		break;
	}
	pthread_mutex_unlock(&u->lock);
	return owner;
}

/* A piece of a copy or fill that one member does. */
struct vaccel_uq_run {
	uint64_t off;
	uint64_t len;
	unsigned int owner;
};

/* Splits [@dst, @dst + @size) by the owner of its pages. */
static int vaccel_uq_runs(struct vaccel_device *dev, uint64_t dst, uint64_t size,
			  struct vaccel_uq_run **out, size_t *count)
{
	struct vaccel_uq_run *runs = NULL, *grown;
	size_t n = 0, cap = 0;
	uint64_t off = 0, end;

	while (off < size) {
		unsigned int owner = vaccel_uq_owner(dev, dst + off, &end);
		uint64_t len = end - (dst + off);

		if (end < dst + off || len > size - off)
			len = size - off;
		if (n && runs[n - 1].owner == owner) {
			runs[n - 1].len += len;
		} else {
			if (n == cap) {
				cap = cap ? 2 * cap : 8;
				grown = realloc(runs, cap * sizeof(*runs));
				if (!grown) {
					free(runs);
					return -ENOMEM;
				}
				runs = grown;
			}
			runs[n++] = (struct vaccel_uq_run){ off, len, owner };
		}
		off += len;
	}
	*out = runs;
	*count = n;
	return 0;
}

int vaccel_uq_copy(struct vaccel_queue *q, uint64_t dst, uint64_t src,
		   uint64_t size)
{
	struct vaccel_uq_run *runs;
	size_t n, i;
	bool backwards = dst > src && dst - src < size;
	bool overlap = dst - src < size || src - dst < size;
	unsigned int mask = 0;
	int ret;

	if (q->u->error || !size)
		return q->u->error;
	ret = vaccel_uq_runs(q->dev, dst, size, &runs, &n);
	if (ret)
		return ret;
	/*
	 * Apart, the pieces run in parallel.  Overlapping, one after the
	 * other, the last first when forward, as memmove() does.
	 */
	for (i = 0; i < n && !overlap; i++)
		mask |= 1u << runs[i].owner;
	ret = vaccel_uq_order_set(q, mask);
	for (i = 0; i < n && !ret; i++) {
		const struct vaccel_uq_run *r = &runs[backwards ? n - 1 - i : i];

		if (overlap)
			ret = vaccel_uq_order(q, r->owner);
		if (!ret)
			ret = vaccel_uq_done(q, r->owner,
					     vaccel_queue_copy(q->u->q[r->owner],
							       dst + r->off, src + r->off,
							       r->len));
	}
	free(runs);
	return ret;
}

int vaccel_uq_fill(struct vaccel_queue *q, uint64_t dst, uint64_t size,
		   uint32_t value)
{
	struct vaccel_uq_run *runs;
	unsigned int mask = 0;
	size_t n, i;
	int ret;

	if (q->u->error || !size)
		return q->u->error;
	ret = vaccel_uq_runs(q->dev, dst, size, &runs, &n);
	if (ret)
		return ret;
	/* The pieces run in parallel. */
	for (i = 0; i < n; i++)
		mask |= 1u << runs[i].owner;
	ret = vaccel_uq_order_set(q, mask);
	for (i = 0; i < n && !ret; i++)
		ret = vaccel_uq_done(q, runs[i].owner,
				     vaccel_queue_fill(q->u->q[runs[i].owner],
						       dst + runs[i].off,
						       runs[i].len, value));
	free(runs);
	return ret;
}

/* The member that records a command on address @va, ordered. */
static int vaccel_uq_at(struct vaccel_queue *q, uint64_t va, unsigned int *j)
{
	uint64_t end;

	*j = vaccel_uq_owner(q->dev, va, &end);
	return vaccel_uq_order(q, *j);
}

int vaccel_uq_write(struct vaccel_queue *q, uint64_t va, uint64_t value,
		    unsigned int bits)
{
	unsigned int j;
	int ret = vaccel_uq_at(q, va, &j);

	if (ret)
		return ret;
	return vaccel_uq_done(q, j, vaccel_queue_write(q->u->q[j], va, value, bits));
}

int vaccel_uq_timestamp(struct vaccel_queue *q, uint64_t va)
{
	unsigned int j;
	int ret = vaccel_uq_at(q, va, &j);

	if (ret)
		return ret;
	return vaccel_uq_done(q, j, vaccel_queue_timestamp(q->u->q[j], va));
}

int vaccel_uq_wait_mem(struct vaccel_queue *q, uint64_t va, uint64_t ref,
		       uint64_t mask, enum vaccel_compare op, unsigned int bits)
{
	unsigned int j;
	int ret = vaccel_uq_at(q, va, &j);

	if (ret)
		return ret;
	return vaccel_uq_done(q, j, vaccel_queue_wait_mem(q->u->q[j], va, ref, mask,
							  op, bits));
}

int vaccel_uq_delay(struct vaccel_queue *q, uint64_t ns)
{
	int ret = vaccel_uq_order(q, 0);

	if (ret)
		return ret;
	return vaccel_uq_done(q, 0, vaccel_queue_delay(q->u->q[0], ns));
}

/*
 * The shares of workgroups [@first, @first + @count) of a grid of @groups
 * (a @count of 0: the whole grid): consecutive groups in member order,
 * the first members taking one more when they do not divide evenly, as
 * MGPUSim's wgDist does.  Fills @start and @len per member; checks that
 * every member that needs a range has one (uapi 1.7).
 */
static int vaccel_uq_shares(struct vaccel_queue *q, uint64_t groups,
			    uint64_t first, uint64_t count,
			    uint64_t start[], uint64_t len[])
{
	struct vaccel_uqueue *uq = q->u;
	uint64_t per;
	unsigned int i;

	if (!count) {
		if (first)
			return -EINVAL;
		count = groups;
	} else if (first >= groups || count > groups - first) {
		return -EINVAL;
	}
	per = count / uq->n + (count % uq->n != 0);
	for (i = 0; i < uq->n; i++) {
		uint64_t a = (uint64_t)i * per;

		start[i] = first + a;
		len[i] = a < count ? vaccel_min_u64(per, count - a) : 0;
		if (len[i] && len[i] != groups &&
		    uq->q[i]->dev->info.uapi_minor < 7)
			return -ENOTSUP;
	}
	return 0;
}

/* The members that have a share. */
static unsigned int vaccel_uq_mask(const struct vaccel_uqueue *uq, const uint64_t len[])
{
	unsigned int i, mask = 0;

	for (i = 0; i < uq->n; i++)
		if (len[i])
			mask |= 1u << i;
	return mask;
}

int vaccel_uq_dispatch(struct vaccel_queue *q, uint64_t entry, uint64_t args,
		       const uint32_t grid[3], const uint32_t wg[3],
		       uint32_t local_size, uint32_t stack_size)
{
	struct vaccel_uqueue *uq = q->u;
	uint64_t start[VACCEL_UNIFIED_MAX_MEMBERS], len[VACCEL_UNIFIED_MAX_MEMBERS];
	uint64_t groups;
	unsigned int i;
	int ret;

	if (uq->error)
		return uq->error;
	ret = vaccel_queue_check_dispatch(uq->q[0], entry, grid, wg, local_size,
					  stack_size);
	if (ret)
		return ret;
	groups = vaccel_grid_groups(grid, wg);
	ret = vaccel_uq_shares(q, groups, 0, 0, start, len);
	if (!ret)
		ret = vaccel_uq_order_set(q, vaccel_uq_mask(uq, len));
	for (i = 0; i < uq->n && !ret; i++) {
		if (len[i])
			ret = vaccel_uq_done(q, i, vaccel_queue_record_dispatch(
				uq->q[i], entry, args, grid, wg, local_size, stack_size,
				len[i] == groups ? 0 : start[i],
				len[i] == groups ? 0 : len[i]));
	}
	return ret;
}

int vaccel_uq_launch(struct vaccel_queue *q, const struct vaccel_kernel *k,
		     const uint32_t grid[3], const uint32_t wg[3],
		     const void *args, size_t args_size,
		     const struct vaccel_launch_plan *plan)
{
	struct vaccel_launch_plan share = *plan;
	struct vaccel_uqueue *uq = q->u;
	uint64_t start[VACCEL_UNIFIED_MAX_MEMBERS], len[VACCEL_UNIFIED_MAX_MEMBERS];
	uint64_t groups;
	unsigned int i;
	int ret;

	if (uq->error)
		return uq->error;
	ret = vaccel_queue_check_dispatch(uq->q[0], k->entry, grid, wg,
					  plan->local_size, plan->stack_size);
	if (ret)
		return ret;
	if (args_size > VACCEL_LAUNCH_MAX_ARGS)
		return -E2BIG;
	groups = vaccel_grid_groups(grid, wg);
	ret = vaccel_uq_shares(q, groups, plan->first, plan->count, start, len);
	if (!ret)
		ret = vaccel_uq_order_set(q, vaccel_uq_mask(uq, len));
	for (i = 0; i < uq->n && !ret; i++) {
		if (!len[i])
			continue;
		share.first = len[i] == groups ? 0 : start[i];
		share.count = len[i] == groups ? 0 : len[i];
		ret = vaccel_uq_done(q, i, vaccel_queue_record_launch(uq->q[i], k, args,
								      args_size, grid, wg,
								      &share));
	}
	return ret;
}

int vaccel_uq_flush(struct vaccel_queue *q)
{
	struct vaccel_uqueue *uq = q->u;
	unsigned int i;
	int ret, first = 0;

	if (uq->error)
		return uq->error;
	for (i = 0; i < uq->n; i++) {
		ret = vaccel_queue_flush(uq->q[i]);
		if (ret && !first)
			first = vaccel_uq_done(q, i, ret);
	}
	return first;
}

int vaccel_uq_finish(struct vaccel_queue *q)
{
	struct vaccel_uqueue *uq = q->u;
	unsigned int i;
	int ret, first = 0;

	if (uq->error)
		return uq->error;
	/* Every member's work submitted first: they run in parallel. */
	for (i = 0; i < uq->n; i++) {
		ret = vaccel_queue_flush(uq->q[i]);
		if (ret && !first)
			first = ret;
	}
	for (i = 0; i < uq->n; i++) {
		ret = vaccel_queue_finish(uq->q[i]);
		if (ret && !first)
			first = ret;
	}
	/* Work of a member failed: as a queue, the whole takes no more. */
	if (first)
		uq->error = -ECANCELED;
	return first;
}

int vaccel_uq_signal(struct vaccel_queue *q, struct vaccel_event *ev,
		     uint64_t point)
{
	struct vaccel_uqueue *uq = q->u;
	unsigned int i;
	int ret;

	if (ev->n != uq->n)
		return -EINVAL;
	if (uq->error)
		return uq->error;
	for (i = 0; i < uq->n; i++) {
		ret = vaccel_queue_signal_at(uq->q[i], ev->members[i], point);
		if (ret)
			return vaccel_uq_done(q, i, ret);
	}
	return 0;
}

/*
 * Sync_files of the fences of @count points of events, every member's,
 * in @fds (@count times the members, -1 where none was made).
 */
static int vaccel_uq_export_points(struct vaccel_uqueue *uq,
				   const struct vaccel_event_point *waits,
				   unsigned int count, int *fds)
{
	unsigned int i, w;
	int ret = 0;

	for (i = 0; i < count * uq->n; i++)
		fds[i] = -1;
	for (w = 0; w < count && !ret; w++) {
		struct vaccel_event *ev = waits[w].event;

		if (ev->n != uq->n)
			return -EINVAL;
		for (i = 0; i < uq->n && !ret; i++)
			ret = vaccel_syncobj_export_point(ev->members[i]->dev,
							  ev->members[i]->handle,
							  waits[w].point,
							  &fds[w * uq->n + i]);
	}
	return ret;
}

int vaccel_uq_wait_points(struct vaccel_queue *q,
			  const struct vaccel_event_point *waits, unsigned int count)
{
	struct vaccel_uqueue *uq = q->u;
	int fds[VACCEL_QUEUE_MAX_WAITS * VACCEL_UNIFIED_MAX_MEMBERS];
	unsigned int i, j;
	int ret;

	if (uq->error)
		return uq->error;
	if (count > VACCEL_QUEUE_MAX_WAITS)
		return -EINVAL;
	/* Every fence as it is now, before any member waits. */
	ret = vaccel_uq_export_points(uq, waits, count, fds);
	/* Every member waits for every member's fence. */
	for (j = 0; j < uq->n && !ret; j++)
		for (i = 0; i < count * uq->n && !ret; i++)
			ret = vaccel_queue_wait_sync_file(uq->q[j], fds[i]);
	for (i = 0; i < count * uq->n; i++)
		if (fds[i] >= 0)
			close(fds[i]);
	return ret == -ECANCELED ? (uq->error = ret) : ret;
}

int vaccel_uq_wait_point(struct vaccel_queue *q, struct vaccel_event *ev,
			 uint64_t point)
{
	const struct vaccel_event_point w = { ev, point };

	return vaccel_uq_wait_points(q, &w, 1);
}

/* Commands recorded on all the members' queues so far. */
static uint64_t vaccel_uq_commands(const struct vaccel_uqueue *uq)
{
	uint64_t n = 0;
	unsigned int i;

	for (i = 0; i < uq->n; i++)
		n += uq->q[i]->commands;
	return n;
}

/*
 * A command that signals an event starts on every member, whether it
 * records anything there or not: the unified event is every member's.
 */
int vaccel_uq_command_begin(struct vaccel_queue *q, uint64_t *commands)
{
	struct vaccel_uqueue *uq = q->u;
	unsigned int i;
	int ret;

	*commands = vaccel_uq_commands(uq);
	if (!q->sig_ev)
		return 0;
	if (uq->error)
		return uq->error;
	for (i = 0; i < uq->n; i++) {
		ret = vaccel_queue_sig_start(uq->q[i], q->sig_ev->members[i]);
		if (ret)
			return ret == -ECANCELED ? (uq->error = ret) : ret;
	}
	return 0;
}

int vaccel_uq_command_end(struct vaccel_queue *q, uint64_t commands)
{
	struct vaccel_uqueue *uq = q->u;
	struct vaccel_event *ev = q->sig_ev;
	unsigned int i;
	int ret;

	if (vaccel_uq_commands(uq) == commands)
		return 0;
	q->sig_ev = NULL;
	for (i = 0; i < uq->n; i++) {
		ret = vaccel_queue_sig_finish(uq->q[i], ev->members[i], q->sig_point);
		if (ret)
			return vaccel_uq_done(q, i, ret);
	}
	return 0;
}

int vaccel_uq_get_stats(struct vaccel_queue *q, struct vaccel_queue_stats *stats)
{
	struct vaccel_uqueue *uq = q->u;
	struct vaccel_queue_stats s, sum = { 0 };
	unsigned int i;
	int ret;

	for (i = 0; i < uq->n; i++) {
		ret = vaccel_queue_get_stats_1_5(uq->q[i], &s);
		if (ret)
			return ret;
		sum.engine_ns += s.engine_ns;
		sum.preemptions += s.preemptions;
		sum.guilty_resets += s.guilty_resets;
		sum.innocent_resets += s.innocent_resets;
		if (!sum.error)
			sum.error = s.error;
	}
	*stats = sum;
	return 0;
}

int vaccel_uq_get_fault(struct vaccel_queue *q, struct vaccel_fault_info *out)
{
	struct vaccel_uqueue *uq = q->u;
	unsigned int i;
	int ret;

	for (i = 0; i < uq->n; i++) {
		ret = vaccel_queue_get_fault(uq->q[i], out);
		if (ret || out->failure != VACCEL_FAILURE_NONE)
			return ret;
	}
	return 0;
}

/* --- events --- */

int vaccel_unified_event_create(struct vaccel_device *dev, uint32_t flags,
				struct vaccel_event **out)
{
	struct vaccel_unified *u = dev->unified;
	struct vaccel_event *ev;
	unsigned int i;
	int ret;

	ev = calloc(1, sizeof(*ev));
	if (!ev)
		return -ENOMEM;
	ev->dev = dev;
	ev->flags = flags;
	for (i = 0; i < u->n; i++) {
		ret = vaccel_event_create_ex(u->members[i], flags, &ev->members[i]);
		if (ret) {
			vaccel_unified_event_destroy(ev);
			return ret;
		}
		ev->n++;
	}
	*out = ev;
	return 0;
}

void vaccel_unified_event_destroy(struct vaccel_event *ev)
{
	unsigned int i;

	for (i = 0; i < ev->n; i++)
		vaccel_event_destroy(ev->members[i]);
	free(ev);
}

/* Waits for @point (0: the fence, or the last point) of every member. */
int vaccel_unified_event_wait(struct vaccel_event *ev, uint64_t point,
			      int64_t timeout_ns)
{
	int64_t deadline = 0, left = timeout_ns;
	unsigned int i;
	int ret, first = 0;

	if (timeout_ns > 0)
		deadline = (int64_t)vaccel_now_ns() + timeout_ns;
	for (i = 0; i < ev->n; i++) {
		if (timeout_ns > 0) {
			left = deadline - (int64_t)vaccel_now_ns();
			if (left < 0)
				left = 0;
		}
		if (point)
			ret = vaccel_event_wait_point(ev->members[i], point, left);
		else
			ret = vaccel_event_wait(ev->members[i], left);
		if (ret == -ETIME)
			return ret;
		if (ret && !first)
			first = ret;
	}
	return first;
}

int vaccel_unified_event_signal(struct vaccel_event *ev)
{
	unsigned int i;
	int ret;

	for (i = 0; i < ev->n; i++) {
		ret = vaccel_event_signal(ev->members[i]);
		if (ret)
			return ret;
	}
	return 0;
}

int vaccel_unified_event_reset(struct vaccel_event *ev)
{
	unsigned int i;
	int ret;

	for (i = 0; i < ev->n; i++) {
		ret = vaccel_event_reset(ev->members[i]);
		if (ret)
			return ret;
	}
	return 0;
}

/* One sync_file of every member's fence at @point, merged. */
int vaccel_unified_event_export(struct vaccel_event *ev, uint64_t point, int *fd)
{
	unsigned int i;
	int cur, next, merged, ret;

	ret = vaccel_event_export_sync_file_point(ev->members[0], point, &cur);
	if (ret)
		return ret;
	for (i = 1; i < ev->n; i++) {
		ret = vaccel_event_export_sync_file_point(ev->members[i], point, &next);
		if (ret)
			break;
		merged = sync_merge("vaccel-unified", cur, next);
		/* errno before close() can change it. */
		ret = merged < 0 ? -errno : 0;
		close(next);
		if (ret)
			break;
		close(cur);
		cur = merged;
	}
	if (ret) {
		close(cur);
		return ret;
	}
	*fd = cur;
	return 0;
}

/* The same fence for every member. */
int vaccel_unified_event_import(struct vaccel_event *ev, uint64_t point, int fd)
{
	unsigned int i;
	int ret;

	for (i = 0; i < ev->n; i++) {
		ret = vaccel_event_import_sync_file(ev->members[i], point, fd);
		if (ret)
			return ret;
	}
	return 0;
}

/* The point every member has reached: the lowest of theirs. */
int vaccel_unified_event_get_point(struct vaccel_event *ev, uint64_t *point)
{
	uint64_t p, low = UINT64_MAX;
	unsigned int i;
	int ret;

	for (i = 0; i < ev->n; i++) {
		ret = vaccel_event_get_point(ev->members[i], &p);
		if (ret)
			return ret;
		low = vaccel_min_u64(low, p);
	}
	*point = low;
	return 0;
}

int vaccel_unified_event_signal_point(struct vaccel_event *ev, uint64_t point)
{
	unsigned int i;
	int ret;

	for (i = 0; i < ev->n; i++) {
		ret = vaccel_event_signal_point(ev->members[i], point);
		if (ret)
			return ret;
	}
	return 0;
}

/* The first member's submission and start, the last member's end. */
int vaccel_unified_event_times(struct vaccel_event *ev, struct vaccel_event_times *out)
{
	struct vaccel_event_times t;
	unsigned int i;
	int ret;

	memset(out, 0, sizeof(*out));
	for (i = 0; i < ev->n; i++) {
		ret = vaccel_event_times(ev->members[i], &t);
		if (ret)
			return ret;
		out->submitted_ns = i ? vaccel_min_u64(out->submitted_ns, t.submitted_ns) :
					t.submitted_ns;
		out->started_ns = i ? vaccel_min_u64(out->started_ns, t.started_ns) :
				      t.started_ns;
		out->ended_ns = vaccel_max_u64(out->ended_ns, t.ended_ns);
	}
	return 0;
}
