// SPDX-License-Identifier: MIT
/*
 * Copyright 2026 The vaccel authors
 *
 * engine.c - the engines of a device, read from the engine list cached at
 * open, and the names of engine classes and preemption granularities.
 *
 * Entries are entry_size bytes apart as the kernel says, never
 * sizeof(struct drm_vaccel_engine_info): a later kernel may grow them.
 */
#include <errno.h>
#include <stddef.h>
#include <string.h>

#include "vaccel_priv.h"

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

static const char *const vaccel_engine_class_names[] = {
	[DRM_VACCEL_ENGINE_CLASS_COMPUTE] = "compute",
	[DRM_VACCEL_ENGINE_CLASS_COPY] = "copy",
	[DRM_VACCEL_ENGINE_CLASS_PAGING] = "paging",
};

static const char *const vaccel_preempt_granularity_names[] = {
	[DRM_VACCEL_PREEMPT_DMA_BUFFER] = "dma-buffer",
	[DRM_VACCEL_PREEMPT_PACKET] = "packet",
	[DRM_VACCEL_PREEMPT_WORKGROUP] = "workgroup",
	[DRM_VACCEL_PREEMPT_INSTRUCTION] = "instruction",
};

VACCEL_EXPORT int vaccel_device_engine_count(const struct vaccel_device *dev)
{
	return dev ? (int)dev->engine_count : -EINVAL;
}

VACCEL_EXPORT int vaccel_device_get_engine(const struct vaccel_device *dev,
					   unsigned int index,
					   struct vaccel_engine_info *out)
{
	struct drm_vaccel_engine_info e;

	if (!dev || !out)
		return -EINVAL;
	if (index >= dev->engine_count)
		return -ENOENT;

	memcpy(&e, (const char *)dev->engines->engines +
	       (size_t)index * dev->engine_entry_size, sizeof(e));

	memset(out, 0, sizeof(*out));
	out->engine_class = e.engine_class;
	out->instance = e.instance;
	out->hw_queue_depth = e.hw_queue_depth;
	out->preempt_caps = e.preempt_caps;
	out->preempt_granularity = e.preempt_granularity;
	/* Zero before uapi 1.8: the field was reserved. */
	out->compute_units = e.compute_units;
	return 0;
}

VACCEL_EXPORT const char *vaccel_engine_class_name(unsigned int engine_class)
{
	if (engine_class >= ARRAY_SIZE(vaccel_engine_class_names))
		return NULL;
	return vaccel_engine_class_names[engine_class];
}

VACCEL_EXPORT const char *vaccel_preempt_granularity_name(unsigned int granularity)
{
	if (granularity >= ARRAY_SIZE(vaccel_preempt_granularity_names))
		return NULL;
	return vaccel_preempt_granularity_names[granularity];
}
