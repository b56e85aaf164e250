// SPDX-License-Identifier: MIT
/*
 * Copyright 2026 The vaccel authors
 *
 * event.c - events: DRM syncobjs that order the work of queues against
 * each other and against the CPU.
 *
 * An event is a binary syncobj of the device's file.  vaccel_queue_signal()
 * installs the completion fence of a submission in it, vaccel_event_signal()
 * a fence that has signalled already, vaccel_event_reset() removes its
 * fence.  A queue waits for the fence an event holds (queue.c takes a
 * snapshot of it, so that a later reset or signal does not change what is
 * waited for); the CPU waits with DRM_IOCTL_SYNCOBJ_WAIT, or polls a
 * sync_file exported from it.
 *
 * Whether the work behind a fence failed is the fence's error, which no
 * syncobj ioctl reports: vaccel_syncobj_status() exports the fence as a
 * sync_file and reads its status with SYNC_IOC_FILE_INFO.  The kernel's
 * objects are thread-safe, and an event holds nothing else: every function
 * here may be called from any thread.
 *
 * An event of a unified device is an event of each member (unified.c).
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

#include <linux/sync_file.h>

#include "vaccel_priv.h"

int vaccel_syncobj_create(struct vaccel_device *dev, uint32_t *handle)
{
	struct drm_syncobj_create c = { 0 };

	if (drmIoctl(dev->fd, DRM_IOCTL_SYNCOBJ_CREATE, &c))
		return -errno;
	*handle = c.handle;
	return 0;
}

void vaccel_syncobj_destroy(struct vaccel_device *dev, uint32_t handle)
{
	struct drm_syncobj_destroy d = { .handle = handle };

	if (handle)
		drmIoctl(dev->fd, DRM_IOCTL_SYNCOBJ_DESTROY, &d);
}

/*
 * The status of the fence a binary syncobj holds, in *@status: 1
 * signalled, 0 not yet, the fence's error (negative) if it signalled with
 * one.  Return: 0, -EINVAL if the syncobj has no fence, or another negative
 * errno.
 */
int vaccel_syncobj_status(struct vaccel_device *dev, uint32_t handle, int *status)
{
	struct drm_syncobj_handle h = {
		.handle = handle,
		.flags = DRM_SYNCOBJ_HANDLE_TO_FD_FLAGS_EXPORT_SYNC_FILE,
		.fd = -1,
	};
	/* num_fences 0: only the status of the fence as a whole. */
	struct sync_file_info info = { .num_fences = 0 };
	int ret = 0;

	if (drmIoctl(dev->fd, DRM_IOCTL_SYNCOBJ_HANDLE_TO_FD, &h))
		return -errno;
	if (ioctl(h.fd, SYNC_IOC_FILE_INFO, &info))
		ret = -errno;
	else
		*status = info.status;
	close(h.fd);
	return ret;
}

/* Runs a syncobj array ioctl (RESET, SIGNAL) on one syncobj. */
static int vaccel_syncobj_array_ioctl(struct vaccel_device *dev,
				      unsigned long request, uint32_t handle)
{
	struct drm_syncobj_array a = {
		.handles = (uintptr_t)&handle,
		.count_handles = 1,
	};

	return drmIoctl(dev->fd, request, &a) ? -errno : 0;
}

VACCEL_EXPORT int vaccel_event_create(struct vaccel_device *dev,
				      struct vaccel_event **out)
{
	struct vaccel_event *ev;
	int ret;

	if (!dev || !out)
		return -EINVAL;
	if (dev->unified)
		return vaccel_unified_event_create(dev, out);
	ev = calloc(1, sizeof(*ev));
	if (!ev)
		return -ENOMEM;
	ev->dev = dev;
	ret = vaccel_syncobj_create(dev, &ev->handle);
	if (ret) {
		free(ev);
		return ret;
	}
	*out = ev;
	return 0;
}

VACCEL_EXPORT void vaccel_event_destroy(struct vaccel_event *ev)
{
	if (!ev)
		return;
	if (ev->n) {
		vaccel_unified_event_destroy(ev);
		return;
	}
	vaccel_syncobj_destroy(ev->dev, ev->handle);
	free(ev);
}

/* CLOCK_MONOTONIC in ns plus @timeout_ns, saturated; INT64_MAX for ever. */
static int64_t vaccel_abs_timeout(int64_t timeout_ns)
{
	struct timespec ts;
	int64_t now;

	if (timeout_ns < 0)
		return INT64_MAX;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	now = (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
	return timeout_ns > INT64_MAX - now ? INT64_MAX : now + timeout_ns;
}

VACCEL_EXPORT int vaccel_event_wait(struct vaccel_event *ev, int64_t timeout_ns)
{
	struct drm_syncobj_wait w = { 0 };
	int ret, status;

	if (!ev)
		return -EINVAL;
	if (ev->n)
		return vaccel_unified_event_wait(ev, timeout_ns);
	w.handles = (uintptr_t)&ev->handle;
	w.count_handles = 1;
	w.timeout_nsec = vaccel_abs_timeout(timeout_ns);
	/* WAIT_FOR_SUBMIT: an event without a fence yet is waited for too. */
	w.flags = DRM_SYNCOBJ_WAIT_FLAGS_WAIT_ALL |
		  DRM_SYNCOBJ_WAIT_FLAGS_WAIT_FOR_SUBMIT;
	if (drmIoctl(ev->dev->fd, DRM_IOCTL_SYNCOBJ_WAIT, &w))
		return -errno;

	ret = vaccel_syncobj_status(ev->dev, ev->handle, &status);
	/* Reset by another thread since it signalled: it did signal. */
	if (ret == -EINVAL)
		return 0;
	if (ret)
		return ret;
	return status < 0 ? status : 0;
}

VACCEL_EXPORT int vaccel_event_signal(struct vaccel_event *ev)
{
	if (!ev)
		return -EINVAL;
	if (ev->n)
		return vaccel_unified_event_signal(ev);
	return vaccel_syncobj_array_ioctl(ev->dev, DRM_IOCTL_SYNCOBJ_SIGNAL,
					  ev->handle);
}

VACCEL_EXPORT int vaccel_event_reset(struct vaccel_event *ev)
{
	if (!ev)
		return -EINVAL;
	if (ev->n)
		return vaccel_unified_event_reset(ev);
	return vaccel_syncobj_array_ioctl(ev->dev, DRM_IOCTL_SYNCOBJ_RESET,
					  ev->handle);
}

VACCEL_EXPORT int vaccel_event_export_sync_file(struct vaccel_event *ev, int *fd)
{
	struct drm_syncobj_handle h = { 0 };

	if (!ev || !fd)
		return -EINVAL;
	if (ev->n)
		return vaccel_unified_event_export(ev, fd);
	h.handle = ev->handle;
	h.flags = DRM_SYNCOBJ_HANDLE_TO_FD_FLAGS_EXPORT_SYNC_FILE;
	h.fd = -1;
	if (drmIoctl(ev->dev->fd, DRM_IOCTL_SYNCOBJ_HANDLE_TO_FD, &h))
		return -errno;
	*fd = h.fd;
	return 0;
}
