// SPDX-License-Identifier: MIT
/*
 * Copyright 2026 The vaccel authors
 *
 * query.c - DRM_IOCTL_VACCEL_QUERY: the raw size-negotiated query, the
 * queries cached when a device is opened, and the device information built
 * from them.
 *
 * The device answer is read into the structure this library was built
 * with: the kernel fills the prefix it has and clears the rest, so an older
 * or newer kernel both work (a uapi 1.0 module reports no max_bo_size,
 * max_bind_ops or max_bos_per_file, one before 1.4 no compute limits, one
 * before 1.5 no timeouts: they read as zero).  The engine list is
 * read whole, in two calls (size, then data), and indexed with the
 * kernel's entry_size.  The VM statistics are read fresh on every call.
 */
#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "vaccel_priv.h"

/* The library mirrors the uapi values in its own public header. */
#define VACCEL_SAME(a, b)	((int)(a) == (int)(b))
_Static_assert(VACCEL_SAME(VACCEL_ENGINE_CLASS_COMPUTE, DRM_VACCEL_ENGINE_CLASS_COMPUTE) &&
	       VACCEL_SAME(VACCEL_ENGINE_CLASS_COPY, DRM_VACCEL_ENGINE_CLASS_COPY) &&
	       VACCEL_SAME(VACCEL_ENGINE_CLASS_PAGING, DRM_VACCEL_ENGINE_CLASS_PAGING),
	       "engine classes differ from the uapi");
_Static_assert(VACCEL_SAME(VACCEL_PREEMPT_DMA_BUFFER, DRM_VACCEL_PREEMPT_DMA_BUFFER) &&
	       VACCEL_SAME(VACCEL_PREEMPT_PACKET, DRM_VACCEL_PREEMPT_PACKET) &&
	       VACCEL_SAME(VACCEL_PREEMPT_WORKGROUP, DRM_VACCEL_PREEMPT_WORKGROUP) &&
	       VACCEL_SAME(VACCEL_PREEMPT_INSTRUCTION, DRM_VACCEL_PREEMPT_INSTRUCTION),
	       "preemption granularities differ from the uapi");
_Static_assert(VACCEL_DEVICE_FLAG_SINGLE_USE == DRM_VACCEL_DEVICE_SINGLE_USE,
	       "device flags differ from the uapi");
_Static_assert(VACCEL_MAX_ENGINE_CLASSES ==
	       sizeof(((struct drm_vaccel_device_info *)0)->engine_count) /
	       sizeof(__u32), "engine_count slots differ from the uapi");

/*
 * The fields taken from the reserved space kept the structure's size up
 * to libvaccel 1.4: what the programs built before pass to the 1.0
 * version of vaccel_device_get_info().  1.5 added reserved space anew.
 */
#define VACCEL_DEVICE_INFO_1_0_SIZE	offsetof(struct vaccel_device_info, device_mem_size)
_Static_assert(VACCEL_DEVICE_INFO_1_0_SIZE ==
	       offsetof(struct vaccel_device_info, max_bo_size) + 8 * sizeof(uint64_t),
	       "the structure of libvaccel 1.0 to 1.4 changed size");
/* 1.9 took device_mem_size from the reserved space of 1.5. */
_Static_assert(sizeof(struct vaccel_device_info) ==
	       VACCEL_DEVICE_INFO_1_0_SIZE + 8 * sizeof(uint64_t) &&
	       offsetof(struct vaccel_device_info, reserved) ==
	       VACCEL_DEVICE_INFO_1_0_SIZE + sizeof(uint64_t),
	       "struct vaccel_device_info changed size");

/* Tries so many times when the engine list grows between two calls. */
#define VACCEL_QUERY_RETRIES	4

static int vaccel_query_fd(int fd, uint32_t type, void *buf, uint32_t *size)
{
	struct drm_vaccel_query q = {
		.type = type,
		.size = *size,
		.data = (uintptr_t)buf,
	};

	if (drmIoctl(fd, DRM_IOCTL_VACCEL_QUERY, &q))
		return -errno;
	*size = q.size;
	return 0;
}

static int vaccel_device_query_engines(struct vaccel_device *dev)
{
	struct drm_vaccel_engine_list *list = NULL, *grown;
	uint32_t size = 0, alloc;
	uint64_t need;
	int ret, try;

	for (try = 0; try < VACCEL_QUERY_RETRIES; try++) {
		alloc = size;
		ret = vaccel_query_fd(dev->fd, DRM_VACCEL_QUERY_ENGINES, list, &size);
		if (ret)
			goto err_free;
		if (alloc && size <= alloc)
			break;
		if (size < sizeof(*list)) {
			ret = -EPROTO;
			goto err_free;
		}
		grown = realloc(list, size);
		if (!grown) {
			ret = -ENOMEM;
			goto err_free;
		}
		list = grown;
	}
	if (try == VACCEL_QUERY_RETRIES) {
		ret = -EAGAIN;
		goto err_free;
	}

	need = sizeof(*list) + (uint64_t)list->count * list->entry_size;
	if (list->entry_size < sizeof(struct drm_vaccel_engine_info) ||
	    need > size) {
		ret = -EPROTO;
		goto err_free;
	}

	dev->engines = list;
	dev->engine_count = list->count;
	dev->engine_entry_size = list->entry_size;
	return 0;

err_free:
	free(list);
	return ret;
}

int vaccel_device_init_queries(struct vaccel_device *dev)
{
	uint32_t size = sizeof(dev->info);
	int ret;

	ret = vaccel_query_fd(dev->fd, DRM_VACCEL_QUERY_DEVICE, &dev->info, &size);
	if (ret)
		return ret;
	if (dev->info.uapi_major != DRM_VACCEL_UAPI_MAJOR)
		return -ENOTSUP;

	return vaccel_device_query_engines(dev);
}

VACCEL_EXPORT int vaccel_device_query(struct vaccel_device *dev, uint32_t type,
				      void *buf, uint32_t *size)
{
	if (!dev || !size)
		return -EINVAL;
	return vaccel_query_fd(dev->fd, type, buf, size);
}

int vaccel_device_get_info_1_5(const struct vaccel_device *dev,
			       struct vaccel_device_info *out);
int vaccel_device_get_info_1_0(const struct vaccel_device *dev, void *out);

/* Since libvaccel 1.5, with the structure's reserved space. */
VACCEL_EXPORT int vaccel_device_get_info_1_5(const struct vaccel_device *dev,
					     struct vaccel_device_info *out)
{
	const struct drm_vaccel_device_info *info;
	unsigned int i;

	if (!dev || !out)
		return -EINVAL;
	info = &dev->info;

	memset(out, 0, sizeof(*out));
	out->uapi_major = info->uapi_major;
	out->uapi_minor = info->uapi_minor;
	out->device_index = info->device_index;
	out->flags = info->flags;
	out->single_use = info->flags & DRM_VACCEL_DEVICE_SINGLE_USE;
	for (i = 0; i < VACCEL_MAX_ENGINE_CLASSES; i++)
		out->engine_count[i] = info->engine_count[i];
	out->engines_total = info->engines_total;
	out->hw_queue_depth = info->hw_queue_depth;
	out->va_bits = info->va_bits;
	out->page_size = info->page_size;
	out->va_start = info->va_start;
	out->va_end = info->va_end;
	out->driver_name = dev->version->name;
	out->driver_desc = dev->version->desc;
	out->driver_major = dev->version->version_major;
	out->driver_minor = dev->version->version_minor;
	out->driver_patchlevel = dev->version->version_patchlevel;
	out->max_bo_size = info->max_bo_size;
	out->max_bind_ops = info->max_bind_ops;
	out->max_bos_per_file = info->max_bos_per_file;
	out->max_workgroup_items = info->max_workgroup_items;
	out->max_local_size = info->max_local_size;
	out->max_stack_size = info->max_stack_size;
	out->max_private_size = info->max_private_size;
	out->local_base = info->local_base;
	out->private_base = info->private_base;
	out->hang_timeout_ns = info->hang_timeout_ns;
	out->time_limit_ns = info->time_limit_ns;
	if (info->uapi_minor >= 7)
		out->device_mem_size = info->device_mem_size;
	return 0;
}
VACCEL_SYMVER(vaccel_device_get_info_1_5, "vaccel_device_get_info@@VACCEL_1.5");

/* Programs built before 1.5 pass the structure without its reserved space. */
VACCEL_EXPORT int vaccel_device_get_info_1_0(const struct vaccel_device *dev, void *out)
{
	struct vaccel_device_info info;
	int ret;

	if (!out)
		return -EINVAL;
	ret = vaccel_device_get_info_1_5(dev, &info);
	if (!ret)
		memcpy(out, &info, VACCEL_DEVICE_INFO_1_0_SIZE);
	return ret;
}
VACCEL_SYMVER(vaccel_device_get_info_1_0, "vaccel_device_get_info@VACCEL_1");

VACCEL_EXPORT int vaccel_device_vm_stats(struct vaccel_device *dev,
					 struct vaccel_vm_stats *out)
{
	struct drm_vaccel_vm_stats stats;
	uint32_t size = sizeof(stats);
	int ret;

	if (!dev || !out)
		return -EINVAL;
	if (dev->unified)
		return vaccel_unified_vm_stats(dev, out);
	ret = vaccel_query_fd(dev->fd, DRM_VACCEL_QUERY_VM_STATS, &stats, &size);
	if (ret)
		return ret;

	memset(out, 0, sizeof(*out));
	out->mappings = stats.mappings;
	out->mapped_bytes = stats.mapped_bytes;
	out->pt_pages = stats.pt_pages;
	out->pt_bytes = stats.pt_bytes;
	return 0;
}

/* The device memory of a device that is not unified, asked anew. */
static int vaccel_device_memory_plain(struct vaccel_device *dev,
				      struct vaccel_device_memory *out)
{
	struct drm_vaccel_device_info info;
	uint32_t size = sizeof(info);
	int ret;

	if (dev->info.uapi_minor < 7)
		return 0;
	memset(&info, 0, sizeof(info));
	ret = vaccel_query_fd(dev->fd, DRM_VACCEL_QUERY_DEVICE, &info, &size);
	if (ret)
		return ret;
	out->size += info.device_mem_size;
	out->free += info.device_mem_free;
	return 0;
}

VACCEL_EXPORT int vaccel_device_memory_info(struct vaccel_device *dev,
					    struct vaccel_device_memory *out)
{
	unsigned int i;
	int ret;

	if (!dev || !out)
		return -EINVAL;
	memset(out, 0, sizeof(*out));
	if (!dev->unified)
		return vaccel_device_memory_plain(dev, out);
	for (i = 0; i < dev->unified->n; i++) {
		ret = vaccel_device_memory_plain(dev->unified->members[i], out);
		if (ret)
			return ret;
	}
	return 0;
}
