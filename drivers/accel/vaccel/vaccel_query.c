// SPDX-License-Identifier: GPL-2.0-only
/*
 * Copyright 2026 The vaccel authors
 */

/**
 * DOC: Query
 *
 * %DRM_IOCTL_VACCEL_QUERY tells user space what the device is: its uapi
 * version, engines, address-space limits.  Each query type has an answer,
 * built in kernel memory from the immutable &struct vaccel_topology, then
 * copied out by vaccel_query_copy_out(), which implements the size
 * negotiation of &struct drm_vaccel_query in one place for every type:
 *
 * - a zero size asks for the size of the answer;
 * - a buffer may be shorter than the answer, down to the answer's first
 *   released size (older user space), or longer (newer user space), in
 *   which case the tail is cleared so that fields this kernel lacks read
 *   as zero;
 * - an answer that is an array must be taken whole.
 *
 * Each query type passes its answer's first released size as the minimum;
 * when a structure grows, that minimum stays, so old binaries keep working.
 */

#include <linux/nospec.h>
#include <linux/overflow.h>
#include <linux/sched/signal.h>
#include <linux/slab.h>
#include <linux/uaccess.h>

#include <drm/drm_device.h>
#include <drm/drm_file.h>
#include <drm/vaccel_accel.h>

#include "vaccel_dispatch.h"
#include "vaccel_devmem.h"
#include "vaccel_drv.h"
#include "vaccel_file.h"
#include "vaccel_gem.h"
#include "vaccel_packet.h"
#include "vaccel_query.h"
#include "vaccel_vm.h"

/**
 * vaccel_query_device_info() - build the answer to %DRM_VACCEL_QUERY_DEVICE
 * @vdev: the device
 * @info: the answer, fully written
 *
 * Context: Process context.
 */
void vaccel_query_device_info(const struct vaccel_device *vdev,
			      struct drm_vaccel_device_info *info)
{
	const struct vaccel_topology *topo = &vdev->topo;
	unsigned int i;

	memset(info, 0, sizeof(*info));
	info->uapi_major = DRM_VACCEL_UAPI_MAJOR;
	info->uapi_minor = DRM_VACCEL_UAPI_MINOR;
	info->device_index = vdev->index;
	if (topo->single_use)
		info->flags |= DRM_VACCEL_DEVICE_SINGLE_USE;
	for (i = 0; i < DRM_VACCEL_ENGINE_CLASS_COUNT; i++)
		info->engine_count[i] = topo->engine_count[i];
	info->engines_total = topo->num_engines;
	info->hw_queue_depth = VACCEL_HW_QUEUE_DEPTH;
	info->va_bits = topo->va_bits;
	info->page_size = VACCEL_PAGE_SIZE;
	info->va_start = topo->va_start;
	info->va_end = topo->va_end;
	info->max_bo_size = VACCEL_MAX_BO_SIZE;
	info->max_bind_ops = VACCEL_MAX_BIND_OPS;
	info->max_bos_per_file = topo->max_bos_per_file;
	info->max_workgroup_items = VACCEL_MAX_WORKGROUP_ITEMS;
	info->max_local_size = VACCEL_MAX_LOCAL_SIZE;
	info->max_stack_size = VACCEL_MAX_STACK_SIZE;
	info->max_private_size = VACCEL_MAX_PRIVATE_SIZE;
	info->local_base = VACCEL_LOCAL_BASE;
	info->private_base = VACCEL_PRIVATE_BASE;
	info->hang_timeout_ns = topo->timeout_ns;
	info->time_limit_ns = topo->time_limit_ns;
	info->max_grid_items = VACCEL_MAX_GRID_ITEMS;
	info->max_copy_size = VACCEL_MAX_COPY_SIZE;
	info->max_pt_bytes = VACCEL_MAX_PT_BYTES;
	info->max_mappings = topo->max_mappings;
	info->max_jobs_per_file = VACCEL_MAX_JOBS_PER_FILE;
	if (vdev->devmem) {
		info->device_mem_size = vdev->devmem->size;
		info->device_mem_free = vaccel_devmem_free_bytes(vdev->devmem);
		info->device_mem_base = vdev->devmem->base;
	}
	info->cost_system_ns = topo->cost_system_ns;
	info->cost_peer_ns = topo->cost_peer_ns;
}

/**
 * vaccel_query_engine_list_size() - size of the answer to %DRM_VACCEL_QUERY_ENGINES
 * @vdev: the device
 *
 * Context: Any context.
 * Return: the size in bytes of the engine list of @vdev.
 */
size_t vaccel_query_engine_list_size(const struct vaccel_device *vdev)
{
	struct drm_vaccel_engine_list *list;

	return struct_size(list, engines, vdev->topo.num_engines);
}

/**
 * vaccel_query_engine_list() - build the answer to %DRM_VACCEL_QUERY_ENGINES
 * @vdev: the device
 * @buf: vaccel_query_engine_list_size() bytes, fully written
 *
 * Context: Any context.
 */
void vaccel_query_engine_list(const struct vaccel_device *vdev, void *buf)
{
	const struct vaccel_topology *topo = &vdev->topo;
	struct drm_vaccel_engine_list *list = buf;
	unsigned int i;

	memset(buf, 0, vaccel_query_engine_list_size(vdev));
	list->count = topo->num_engines;
	list->entry_size = sizeof(list->engines[0]);
	for (i = 0; i < topo->num_engines; i++) {
		const struct vaccel_engine_desc *desc = &topo->engines[i];
		struct drm_vaccel_engine_info *e = &list->engines[i];

		e->engine_class = desc->engine_class;
		e->instance = desc->instance;
		e->hw_queue_depth = desc->hw_queue_depth;
		e->preempt_caps = desc->preempt_caps;
		e->preempt_granularity = desc->preempt_granularity;
		e->compute_units = desc->compute_units;
	}
}

/* Clears user memory a page at a time, so a huge buffer cannot stall the CPU. */
static int vaccel_clear_user(void __user *ptr, size_t len)
{
	while (len) {
		size_t chunk = min_t(size_t, len, PAGE_SIZE);

		if (clear_user(ptr, chunk))
			return -EFAULT;
		ptr += chunk;
		len -= chunk;
		if (fatal_signal_pending(current))
			return -EINTR;
		cond_resched();
	}
	return 0;
}

/**
 * vaccel_query_copy_out() - negotiate the size and copy an answer to user space
 * @vdev: the device, for the message of a refusal
 * @q: the query; @q->size is updated to @answer_size on success
 * @answer: the answer in kernel memory
 * @answer_size: its size
 * @min_size: the smallest buffer accepted: the answer's first released
 *	      size, or @answer_size for an answer that must be taken whole
 *
 * Context: Process context, may fault and sleep.
 * Return: 0, -EINVAL if the buffer is too small, -EFAULT if it cannot be
 * written, -EINTR if a fatal signal arrived while clearing a large buffer.
 */
int vaccel_query_copy_out(struct vaccel_device *vdev, struct drm_vaccel_query *q,
			  const void *answer, u32 answer_size, u32 min_size)
{
	void __user *data = u64_to_user_ptr(q->data);
	u32 n;
	int ret;

	if (!q->size) {
		q->size = answer_size;
		return 0;
	}
	if (VACCEL_IOCTL_DBG(vdev, q->size < min_size))
		return -EINVAL;

	n = min(q->size, answer_size);
	if (copy_to_user(data, answer, n))
		return -EFAULT;
	if (q->size > n) {
		ret = vaccel_clear_user(data + n, q->size - n);
		if (ret)
			return ret;
	}
	q->size = answer_size;
	return 0;
}

static int vaccel_query_device(struct vaccel_device *vdev, struct drm_file *file,
			       struct drm_vaccel_query *q)
{
	struct drm_vaccel_device_info info;

	vaccel_query_device_info(vdev, &info);
	/* Programs of uapi 1.0 know the fields up to va_end. */
	return vaccel_query_copy_out(vdev, q, &info, sizeof(info),
				     offsetofend(struct drm_vaccel_device_info, va_end));
}

static int vaccel_query_engines(struct vaccel_device *vdev, struct drm_file *file,
				struct drm_vaccel_query *q)
{
	size_t size = vaccel_query_engine_list_size(vdev);
	void *list;
	int ret;

	list = kmalloc(size, GFP_KERNEL);
	if (!list)
		return -ENOMEM;
	vaccel_query_engine_list(vdev, list);
	/* An array is never cut: the minimum is the whole answer. */
	ret = vaccel_query_copy_out(vdev, q, list, size, size);
	kfree(list);
	return ret;
}

static int vaccel_query_vm_stats(struct vaccel_device *vdev,
				 struct drm_file *file,
				 struct drm_vaccel_query *q)
{
	struct vaccel_file *vfile = file->driver_priv;
	struct drm_vaccel_vm_stats stats;

	vaccel_vm_stats(vfile->vm, &stats);
	return vaccel_query_copy_out(vdev, q, &stats, sizeof(stats), sizeof(stats));
}

/* The answer of each &enum drm_vaccel_query_type. */
static int (*const vaccel_queries[])(struct vaccel_device *vdev,
				     struct drm_file *file,
				     struct drm_vaccel_query *q) = {
	[DRM_VACCEL_QUERY_DEVICE] = vaccel_query_device,
	[DRM_VACCEL_QUERY_ENGINES] = vaccel_query_engines,
	[DRM_VACCEL_QUERY_VM_STATS] = vaccel_query_vm_stats,
};

/**
 * vaccel_ioctl_query() - handler of %DRM_IOCTL_VACCEL_QUERY
 * @drm: the device
 * @data: &struct drm_vaccel_query, copied in and out by the DRM core
 * @file: the caller's file
 *
 * Context: Process context.
 * Return: 0 or a negative errno as documented at &struct drm_vaccel_query.
 */
int vaccel_ioctl_query(struct drm_device *drm, void *data,
		       struct drm_file *file)
{
	struct vaccel_device *vdev = to_vaccel_device(drm);
	struct drm_vaccel_query *q = data;
	u32 type;

	if (VACCEL_IOCTL_DBG(vdev, q->flags) || VACCEL_IOCTL_DBG(vdev, q->pad))
		return -EINVAL;

	if (VACCEL_IOCTL_DBG(vdev, q->type >= ARRAY_SIZE(vaccel_queries)))
		return -EINVAL;
	/* A user's index into a table of functions: no speculation past it. */
	type = array_index_nospec(q->type, ARRAY_SIZE(vaccel_queries));
	return vaccel_queries[type](vdev, file, q);
}
