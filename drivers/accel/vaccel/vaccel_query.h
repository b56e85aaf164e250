/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Copyright 2026 The vaccel authors
 */
#ifndef __VACCEL_QUERY_H__
#define __VACCEL_QUERY_H__

#include <linux/types.h>

struct drm_device;
struct drm_file;
struct drm_vaccel_device_info;
struct drm_vaccel_query;
struct vaccel_device;

void vaccel_query_device_info(const struct vaccel_device *vdev,
			      struct drm_vaccel_device_info *info);
size_t vaccel_query_engine_list_size(const struct vaccel_device *vdev);
void vaccel_query_engine_list(const struct vaccel_device *vdev, void *buf);
int vaccel_query_copy_out(struct vaccel_device *vdev, struct drm_vaccel_query *q,
			  const void *answer, u32 answer_size, u32 min_size);
int vaccel_ioctl_query(struct drm_device *drm, void *data,
		       struct drm_file *file);

#endif /* __VACCEL_QUERY_H__ */
