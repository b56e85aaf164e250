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

#include <stddef.h>
#include <stdint.h>

#include <xf86drm.h>
#include <drm/vaccel_accel.h>

#include "vaccel.h"

#define VACCEL_EXPORT	__attribute__((visibility("default")))

/* The DRM driver name that marks a vaccel node. */
#define VACCEL_DRIVER_NAME	"vaccel"

/**
 * struct vaccel_device - an open device, see vaccel.h
 * @fd: the open node, O_RDWR | O_CLOEXEC
 * @path: the path it was opened from
 * @version: drmGetVersion() of @fd
 * @info: the answer to DRM_VACCEL_QUERY_DEVICE (the prefix this library knows)
 * @engines: the raw answer to DRM_VACCEL_QUERY_ENGINES
 * @engine_count: entries in @engines
 * @engine_entry_size: the kernel's stride between two entries of @engines
 *
 * Written only while opening; read-only afterwards, hence safe to read from
 * several threads without a lock.
 */
struct vaccel_device {
	int fd;
	char *path;
	drmVersionPtr version;
	struct drm_vaccel_device_info info;
	struct drm_vaccel_engine_list *engines;
	uint32_t engine_count;
	uint32_t engine_entry_size;
};

/* query.c: fill @dev->info and @dev->engines from the kernel. */
int vaccel_device_init_queries(struct vaccel_device *dev);

#endif /* VACCEL_PRIV_H */
