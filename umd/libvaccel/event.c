// SPDX-License-Identifier: MIT
/*
 * Copyright 2026 The vaccel authors
 *
 * event.c - events: DRM syncobjs that order the work of queues against
 * each other and against the CPU, and the profiling times of the commands
 * that signal them.
 *
 * A binary event is a syncobj of the device's file holding one fence.
 * vaccel_queue_signal() installs the completion fence of a submission in
 * it, vaccel_event_signal() a fence that has signalled already,
 * vaccel_event_reset() removes its fence.  A timeline event
 * (%VACCEL_EVENT_TIMELINE) is the same syncobj used as a timeline: every
 * signal adds a point, and waits name a point.  A queue waits for the
 * fence of an event or a point (queue.c takes a snapshot of it, so that a
 * later reset or signal does not change what is waited for); the CPU
 * waits with drmSyncobjWait() or drmSyncobjTimelineWait(), or polls a
 * sync_file exported from it.  Every syncobj operation goes through
 * libdrm's drmSyncobj*() functions.
 *
 * Whether the work behind a fence failed is the fence's error, which no
 * syncobj ioctl reports: vaccel_syncobj_status() exports the fence as a
 * sync_file and reads its status with SYNC_IOC_FILE_INFO.
 *
 * Profiling.  A profiling event (%VACCEL_EVENT_PROFILING) owns a slot of
 * two 64-bit words in a buffer of its device.  A command that signals it
 * through vaccel_queue_set_command_sync() is bracketed by two TIMESTAMP
 * packets into the slot (queue.c), and the CPU notes when the submission
 * holding the first one went to the kernel: submitted, started and ended
 * times, all of CLOCK_MONOTONIC.  The slots come from pages a device
 * allocates as needed and keeps until it is closed (struct
 * vaccel_prof_page), never from the event's own memory: a TIMESTAMP still
 * in flight when its event is destroyed then writes to a slot of the
 * device, never to memory that is gone, which would fault the queue.  A
 * freed slot is handed out again only after every other free slot of its
 * page (next fit), so a late write to it is very unlikely to meet a new
 * owner; if it does, that owner reads a wrong time, nothing else.
 *
 * The kernel's objects are thread-safe; the profiling state of an event
 * has its own lock.  Every function here may be called from any thread.
 *
 * An event of a unified device is an event of each member (unified.c).
 *
 * Host events and pending events (libvaccel 1.9).  A host event
 * (%VACCEL_EVENT_HOST) has no syncobj: it is a status in user space, set
 * once by vaccel_event_set_status(), because the kernel takes no fence
 * that might never signal.  Work that waits for it is held back by its
 * queue (queue.c, "Deferred submission"), and an event that such held
 * work signals is pending: its syncobj has no fence until the work is
 * submitted (a binary one is reset when the work is held, so that CPU
 * waits with WAIT_FOR_SUBMIT wait for the held command, not for the fence
 * before).  If the held work is dropped instead, the event's failure is
 * kept here (@fail_status) and its syncobj gets a signalled fence, so
 * that every wait ends; vaccel_event_wait() then reports the failure.
 *
 * The state of deferral, in every event and queue of the process, is
 * under one lock, the deferral lock, with a condition variable that CPU
 * waits for host events sleep on and a generation counter that every
 * change bumps.  The lock is a leaf but for &vaccel_event.lock: nothing
 * under it takes a queue's lock or makes a call into the kernel that may
 * block.  Held work keeps references to the events it waits for and
 * signals, so that an event destroyed by its owner lives until that work
 * is submitted or dropped.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

#include <linux/sync_file.h>

#include "vaccel_priv.h"

/* --- the deferral lock --- */

static pthread_mutex_t vaccel_defer_mutex = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t vaccel_defer_cond = PTHREAD_COND_INITIALIZER;
/* Bumped by every change of held work or host events; under the lock. */
static uint64_t vaccel_defer_gen;

void vaccel_defer_lock(void)
{
	pthread_mutex_lock(&vaccel_defer_mutex);
}

void vaccel_defer_unlock(void)
{
	pthread_mutex_unlock(&vaccel_defer_mutex);
}

void vaccel_defer_changed(void)
{
	vaccel_defer_gen++;
	pthread_cond_broadcast(&vaccel_defer_cond);
}

uint64_t vaccel_defer_generation(void)
{
	uint64_t gen;

	vaccel_defer_lock();
	gen = vaccel_defer_gen;
	vaccel_defer_unlock();
	return gen;
}

/* Called with the lock held; sleeps until @deadline or a change after @gen. */
static int vaccel_defer_sleep_locked(uint64_t gen, int64_t deadline)
{
	struct timespec ts = {
		.tv_sec = deadline / 1000000000,
		.tv_nsec = deadline % 1000000000,
	};

	while (gen == vaccel_defer_gen) {
		if (deadline == INT64_MAX)
			pthread_cond_wait(&vaccel_defer_cond, &vaccel_defer_mutex);
		else if (pthread_cond_clockwait(&vaccel_defer_cond, &vaccel_defer_mutex,
						CLOCK_MONOTONIC, &ts) == ETIMEDOUT)
			return gen == vaccel_defer_gen ? -ETIME : 0;
	}
	return 0;
}

int vaccel_defer_wait_change(uint64_t gen, int64_t deadline)
{
	int ret;

	vaccel_defer_lock();
	ret = vaccel_defer_sleep_locked(gen, deadline);
	vaccel_defer_unlock();
	return ret;
}

/* libdrm's syncobj calls but the waits return -1 and set errno. */
static int vaccel_drm_errno(int ret)
{
	return ret ? -errno : 0;
}

int vaccel_syncobj_create(struct vaccel_device *dev, uint32_t *handle)
{
	return vaccel_drm_errno(drmSyncobjCreate(dev->fd, 0, handle));
}

void vaccel_syncobj_destroy(struct vaccel_device *dev, uint32_t handle)
{
	if (handle)
		drmSyncobjDestroy(dev->fd, handle);
}

/* The status of the fence of sync_file @fd, as for vaccel_syncobj_status(). */
static int vaccel_sync_file_status(int fd, int *status)
{
	/* num_fences 0: only the status of the fence as a whole. */
	struct sync_file_info info = { .num_fences = 0 };

	if (ioctl(fd, SYNC_IOC_FILE_INFO, &info))
		return -errno;
	*status = info.status;
	return 0;
}

/*
 * A sync_file of the fence of @point of syncobj @handle (0: the binary
 * fence), in *@fd.  -EINVAL if there is no fence there.
 */
int vaccel_syncobj_export_point(struct vaccel_device *dev, uint32_t handle,
				uint64_t point, int *fd)
{
	uint32_t tmp;
	int ret;

	if (!point)
		return vaccel_drm_errno(drmSyncobjExportSyncFile(dev->fd, handle, fd));
	/* A point's fence goes through a binary syncobj of its own. */
	ret = vaccel_syncobj_create(dev, &tmp);
	if (ret)
		return ret;
	ret = vaccel_drm_errno(drmSyncobjTransfer(dev->fd, tmp, 0, handle, point, 0));
	if (!ret)
		ret = vaccel_drm_errno(drmSyncobjExportSyncFile(dev->fd, tmp, fd));
	vaccel_syncobj_destroy(dev, tmp);
	return ret;
}

/*
 * The status of the fence a syncobj holds at @point (0: its binary fence),
 * in *@status: 1 signalled, 0 not yet, the fence's error (negative) if it
 * signalled with one.  Return: 0, -EINVAL if there is no fence there, or
 * another negative errno.
 */
int vaccel_syncobj_status(struct vaccel_device *dev, uint32_t handle,
			  uint64_t point, int *status)
{
	int fd, ret;

	ret = vaccel_syncobj_export_point(dev, handle, point, &fd);
	if (ret)
		return ret;
	ret = vaccel_sync_file_status(fd, status);
	close(fd);
	return ret;
}

/* --- profiling slots --- */

/* Two words a slot: started, ended. */
#define VACCEL_PROF_SLOT_WORDS	2
#define VACCEL_PROF_SLOTS	(VACCEL_PAGE_SIZE / (8 * VACCEL_PROF_SLOT_WORDS))

/**
 * struct vaccel_prof_page - a page of profiling slots of a device
 * @bo: the buffer, writable by the device, not executable
 * @map: its CPU mapping
 * @used: a bit per slot in use
 * @cursor: the slot the next search starts at (next fit)
 * @next: the device's next page
 */
struct vaccel_prof_page {
	struct vaccel_bo *bo;
	volatile uint64_t *map;
	uint64_t used[VACCEL_PROF_SLOTS / 64];
	unsigned int cursor;
	struct vaccel_prof_page *next;
};

/* Takes a free slot of @pg, the first from its cursor on; false if none. */
static bool vaccel_prof_page_take(struct vaccel_prof_page *pg, unsigned int *slot)
{
	unsigned int i, s;

	for (i = 0; i < VACCEL_PROF_SLOTS; i++) {
		s = (pg->cursor + i) % VACCEL_PROF_SLOTS;
		if (!(pg->used[s / 64] & (1ull << (s % 64)))) {
			pg->used[s / 64] |= 1ull << (s % 64);
			pg->cursor = (s + 1) % VACCEL_PROF_SLOTS;
			*slot = s;
			return true;
		}
	}
	return false;
}

/* Gives @ev a profiling slot of its device. */
static int vaccel_prof_slot_get(struct vaccel_event *ev)
{
	struct vaccel_device *dev = ev->dev;
	struct vaccel_prof_page *pg;
	unsigned int slot;
	void *map;
	int ret = 0;

	pthread_mutex_lock(&dev->prof_lock);
	for (pg = dev->prof_pages; pg; pg = pg->next)
		if (vaccel_prof_page_take(pg, &slot))
			break;
	if (!pg) {
		pg = calloc(1, sizeof(*pg));
		if (!pg) {
			ret = -ENOMEM;
			goto out;
		}
		ret = vaccel_bo_alloc(dev, VACCEL_PAGE_SIZE, VACCEL_BO_GPU_NO_EXEC, &pg->bo);
		if (!ret)
			ret = vaccel_bo_map(pg->bo, &map);
		if (ret) {
			vaccel_bo_free(pg->bo);
			free(pg);
			goto out;
		}
		pg->map = map;
		pg->next = dev->prof_pages;
		dev->prof_pages = pg;
		vaccel_prof_page_take(pg, &slot);
	}
	ev->prof_page = pg;
	ev->prof_slot = slot;
	ev->times = pg->map + slot * VACCEL_PROF_SLOT_WORDS;
	ev->times_va = vaccel_bo_va(pg->bo) + slot * VACCEL_PROF_SLOT_WORDS * 8;
out:
	pthread_mutex_unlock(&dev->prof_lock);
	return ret;
}

static void vaccel_prof_slot_put(struct vaccel_event *ev)
{
	struct vaccel_prof_page *pg = ev->prof_page;

	pthread_mutex_lock(&ev->dev->prof_lock);
	pg->used[ev->prof_slot / 64] &= ~(1ull << (ev->prof_slot % 64));
	pthread_mutex_unlock(&ev->dev->prof_lock);
}

void vaccel_device_fini_profiling(struct vaccel_device *dev)
{
	struct vaccel_prof_page *pg, *next;

	for (pg = dev->prof_pages; pg; pg = next) {
		next = pg->next;
		vaccel_bo_free(pg->bo);
		free(pg);
	}
	dev->prof_pages = NULL;
}

/*
 * Forgets the command whose times @ev was to hold, and the failure of a
 * dropped one: its fence was replaced.
 */
void vaccel_event_disarm(struct vaccel_event *ev)
{
	if (ev->fail_status) {
		vaccel_defer_lock();
		ev->fail_status = 0;
		vaccel_defer_unlock();
	}
	if (!(ev->flags & VACCEL_EVENT_PROFILING))
		return;
	pthread_mutex_lock(&ev->lock);
	ev->armed = false;
	pthread_mutex_unlock(&ev->lock);
}

/*
 * Notes that a command of the queue now signals @ev at @point, submitted
 * at @submitted_ns, its times at the slot.
 */
void vaccel_event_arm(struct vaccel_event *ev, uint64_t point, uint64_t submitted_ns)
{
	pthread_mutex_lock(&ev->lock);
	ev->armed = true;
	ev->armed_point = point;
	ev->submitted_ns = submitted_ns;
	pthread_mutex_unlock(&ev->lock);
}

/* --- the API --- */

/* A host event: a status in user space, of no device in particular. */
static int vaccel_host_event_create(struct vaccel_device *dev,
				    struct vaccel_event **out)
{
	struct vaccel_event *ev;

	ev = calloc(1, sizeof(*ev));
	if (!ev)
		return -ENOMEM;
	ev->dev = dev;
	ev->flags = VACCEL_EVENT_HOST;
	ev->status = 1;
	ev->refs = 1;
	pthread_mutex_init(&ev->lock, NULL);
	*out = ev;
	return 0;
}

VACCEL_EXPORT int vaccel_event_create_ex(struct vaccel_device *dev, uint32_t flags,
					 struct vaccel_event **out)
{
	struct vaccel_event *ev;
	int ret;

	if (!out || flags & ~(VACCEL_EVENT_TIMELINE | VACCEL_EVENT_PROFILING |
			      VACCEL_EVENT_HOST))
		return -EINVAL;
	if (flags & VACCEL_EVENT_HOST)
		return flags == VACCEL_EVENT_HOST ? vaccel_host_event_create(dev, out) :
						    -EINVAL;
	if (!dev)
		return -EINVAL;
	if (dev->unified)
		return vaccel_unified_event_create(dev, flags, out);
	ev = calloc(1, sizeof(*ev));
	if (!ev)
		return -ENOMEM;
	ev->dev = dev;
	ev->flags = flags;
	ev->refs = 1;
	pthread_mutex_init(&ev->lock, NULL);
	ret = vaccel_syncobj_create(dev, &ev->handle);
	if (ret)
		goto err_free;
	if (flags & VACCEL_EVENT_PROFILING) {
		ret = vaccel_prof_slot_get(ev);
		if (ret)
			goto err_destroy;
	}
	*out = ev;
	return 0;

err_destroy:
	vaccel_syncobj_destroy(dev, ev->handle);
err_free:
	pthread_mutex_destroy(&ev->lock);
	free(ev);
	return ret;
}

VACCEL_EXPORT int vaccel_event_create(struct vaccel_device *dev,
				      struct vaccel_event **out)
{
	return vaccel_event_create_ex(dev, 0, out);
}

void vaccel_event_get(struct vaccel_event *ev)
{
	vaccel_defer_lock();
	ev->refs++;
	vaccel_defer_unlock();
}

void vaccel_event_put(struct vaccel_event *ev)
{
	bool last;

	vaccel_defer_lock();
	last = !--ev->refs;
	vaccel_defer_unlock();
	if (!last)
		return;
	if (ev->flags & VACCEL_EVENT_PROFILING)
		vaccel_prof_slot_put(ev);
	if (!(ev->flags & VACCEL_EVENT_HOST))
		vaccel_syncobj_destroy(ev->dev, ev->handle);
	pthread_mutex_destroy(&ev->lock);
	free(ev);
}

VACCEL_EXPORT void vaccel_event_destroy(struct vaccel_event *ev)
{
	if (!ev)
		return;
	if (ev->n) {
		vaccel_unified_event_destroy(ev);
		return;
	}
	/* Nobody can set it any more: the work waiting for it fails. */
	if (ev->flags & VACCEL_EVENT_HOST)
		vaccel_event_set_status(ev, -ECANCELED);
	vaccel_event_put(ev);
}

VACCEL_EXPORT int vaccel_event_set_status(struct vaccel_event *ev, int status)
{
	if (!ev || !(ev->flags & VACCEL_EVENT_HOST) || status > 0 || status < -4095)
		return -EINVAL;
	vaccel_defer_lock();
	if (ev->status != 1) {
		vaccel_defer_unlock();
		return -EALREADY;
	}
	ev->status = status;
	vaccel_defer_changed();
	vaccel_defer_unlock();
	/* This thread submits, or drops, the work that waited for it. */
	vaccel_defer_sweep();
	return 0;
}

void vaccel_event_fail_held(struct vaccel_event *ev, uint64_t point, int status)
{
	vaccel_defer_lock();
	ev->held--;
	ev->fail_status = status;
	ev->fail_point = point;
	vaccel_defer_changed();
	vaccel_defer_unlock();
	/* A signalled fence, so that every wait for it ends. */
	if (point)
		drmSyncobjTimelineSignal(ev->dev->fd, &ev->handle, &point, 1);
	else
		drmSyncobjSignal(ev->dev->fd, &ev->handle, 1);
}

/* CLOCK_MONOTONIC in ns. */
uint64_t vaccel_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

/* CLOCK_MONOTONIC in ns plus @timeout_ns, saturated; INT64_MAX for ever. */
int64_t vaccel_abs_timeout(int64_t timeout_ns)
{
	int64_t now = (int64_t)vaccel_now_ns();

	if (timeout_ns < 0)
		return INT64_MAX;
	return timeout_ns > INT64_MAX - now ? INT64_MAX : now + timeout_ns;
}

/*
 * Waits for @point of @ev (0: its binary fence), also while nothing is
 * submitted for it yet, then reads the fence's error.
 */
/*
 * The status of @point of @ev (0: its binary fence), which has signalled:
 * 0, the fence's error, or the failure of a held command that was dropped.
 */
static int vaccel_event_fence_status(struct vaccel_event *ev, uint64_t point)
{
	int ret, status;

	vaccel_defer_lock();
	status = ev->fail_status && ev->fail_point == point ? ev->fail_status : 0;
	vaccel_defer_unlock();
	if (status)
		return status;
	ret = vaccel_syncobj_status(ev->dev, ev->handle, point, &status);
	/* Reset by another thread since it signalled: it did signal. */
	if (ret == -EINVAL)
		return 0;
	if (ret)
		return ret;
	return status < 0 ? status : 0;
}

static int vaccel_event_wait_abs(struct vaccel_event *ev, uint64_t point,
				 int64_t deadline)
{
	const uint32_t flags = DRM_SYNCOBJ_WAIT_FLAGS_WAIT_ALL |
			       DRM_SYNCOBJ_WAIT_FLAGS_WAIT_FOR_SUBMIT;
	int ret;

	/* These two return -errno themselves. */
	if (point)
		ret = drmSyncobjTimelineWait(ev->dev->fd, &ev->handle, &point, 1,
					     deadline, flags, NULL);
	else
		ret = drmSyncobjWait(ev->dev->fd, &ev->handle, 1, deadline, flags, NULL);
	if (ret)
		return ret;

	return vaccel_event_fence_status(ev, point);
}

/*
 * The status of a host event, waiting until the absolute @deadline for it
 * to be set: 0, its failure, or -ETIME.
 */
static int vaccel_host_event_wait(struct vaccel_event *ev, int64_t deadline)
{
	int ret = 0;

	vaccel_defer_lock();
	while (ev->status == 1 && !ret)
		ret = vaccel_defer_sleep_locked(vaccel_defer_gen, deadline);
	if (ev->status != 1)
		ret = ev->status;
	vaccel_defer_unlock();
	return ret;
}

/* The last point of timeline @ev submitted, or held back to be. */
int vaccel_event_last_point(struct vaccel_event *ev, uint64_t *point)
{
	int ret;

	ret = vaccel_event_get_point_submitted(ev, point);
	if (ret)
		return ret;
	vaccel_defer_lock();
	if (ev->held && ev->held_point > *point)
		*point = ev->held_point;
	vaccel_defer_unlock();
	return 0;
}

/*
 * Waits for @point of an event of a device that is not unified, or for a
 * host event, until the absolute @deadline.  For a binary event's point 0
 * with @latest, or a timeline's: its last point submitted or held.
 */
static int vaccel_event_wait_until(struct vaccel_event *ev, uint64_t point,
				   bool latest, int64_t deadline)
{
	int ret;

	if (ev->flags & VACCEL_EVENT_HOST)
		return vaccel_host_event_wait(ev, deadline);
	if (latest && ev->flags & VACCEL_EVENT_TIMELINE) {
		ret = vaccel_event_last_point(ev, &point);
		if (ret || !point)
			return ret;
	}
	return vaccel_event_wait_abs(ev, point, deadline);
}

VACCEL_EXPORT int vaccel_event_wait(struct vaccel_event *ev, int64_t timeout_ns)
{
	if (!ev)
		return -EINVAL;
	if (ev->n)
		return vaccel_unified_event_wait(ev, 0, timeout_ns);
	return vaccel_event_wait_until(ev, 0, true, vaccel_abs_timeout(timeout_ns));
}

VACCEL_EXPORT int vaccel_event_signal(struct vaccel_event *ev)
{
	uint64_t point;
	int ret;

	if (!ev || ev->flags & VACCEL_EVENT_HOST)
		return -EINVAL;
	if (ev->n)
		return vaccel_unified_event_signal(ev);
	if (ev->flags & VACCEL_EVENT_TIMELINE) {
		/* The next point after the last one submitted. */
		ret = vaccel_drm_errno(drmSyncobjQuery2(ev->dev->fd, &ev->handle, &point, 1,
							DRM_SYNCOBJ_QUERY_FLAGS_LAST_SUBMITTED));
		return ret ?: vaccel_event_signal_point(ev, point + 1);
	}
	vaccel_event_disarm(ev);
	return vaccel_drm_errno(drmSyncobjSignal(ev->dev->fd, &ev->handle, 1));
}

VACCEL_EXPORT int vaccel_event_reset(struct vaccel_event *ev)
{
	if (!ev || ev->flags & VACCEL_EVENT_HOST)
		return -EINVAL;
	if (ev->n)
		return vaccel_unified_event_reset(ev);
	vaccel_event_disarm(ev);
	return vaccel_drm_errno(drmSyncobjReset(ev->dev->fd, &ev->handle, 1));
}

VACCEL_EXPORT int vaccel_event_export_sync_file_point(struct vaccel_event *ev,
						      uint64_t point, int *fd)
{
	if (!ev || !fd || ev->flags & VACCEL_EVENT_HOST ||
	    !vaccel_event_point_ok(ev, point))
		return -EINVAL;
	if (ev->n)
		return vaccel_unified_event_export(ev, point, fd);
	return vaccel_syncobj_export_point(ev->dev, ev->handle, point, fd);
}

VACCEL_EXPORT int vaccel_event_export_sync_file(struct vaccel_event *ev, int *fd)
{
	uint64_t point = 0;
	int ret;

	if (!ev || !fd || ev->flags & VACCEL_EVENT_HOST)
		return -EINVAL;
	/*
	 * A timeline's sync_file is of its last point submitted (a unified
	 * event's members all have the same points).
	 */
	if (ev->flags & VACCEL_EVENT_TIMELINE) {
		ret = vaccel_event_get_point_submitted(ev->n ? ev->members[0] : ev,
						       &point);
		if (ret)
			return ret;
		if (!point)
			return -EINVAL;
	}
	return vaccel_event_export_sync_file_point(ev, point, fd);
}

/* The last point of timeline @ev submitted or signalled, in *@point. */
int vaccel_event_get_point_submitted(struct vaccel_event *ev, uint64_t *point)
{
	return vaccel_drm_errno(drmSyncobjQuery2(ev->dev->fd, &ev->handle, point, 1,
						 DRM_SYNCOBJ_QUERY_FLAGS_LAST_SUBMITTED));
}

/* Whether @point names a point of @ev: 0 for a binary one, >= 1 for a timeline. */
bool vaccel_event_point_ok(const struct vaccel_event *ev, uint64_t point)
{
	return ev->flags & VACCEL_EVENT_TIMELINE ? point != 0 : point == 0;
}

VACCEL_EXPORT int vaccel_event_import_sync_file(struct vaccel_event *ev,
						uint64_t point, int fd)
{
	uint32_t tmp;
	int ret;

	if (!ev || fd < 0 || ev->flags & VACCEL_EVENT_HOST ||
	    !vaccel_event_point_ok(ev, point))
		return -EINVAL;
	if (ev->n)
		return vaccel_unified_event_import(ev, point, fd);
	vaccel_event_disarm(ev);
	if (!point)
		return vaccel_drm_errno(drmSyncobjImportSyncFile(ev->dev->fd, ev->handle, fd));
	/* Into a binary syncobj, then to the point. */
	ret = vaccel_syncobj_create(ev->dev, &tmp);
	if (ret)
		return ret;
	ret = vaccel_drm_errno(drmSyncobjImportSyncFile(ev->dev->fd, tmp, fd));
	if (!ret)
		ret = vaccel_drm_errno(drmSyncobjTransfer(ev->dev->fd, ev->handle, point,
							  tmp, 0, 0));
	vaccel_syncobj_destroy(ev->dev, tmp);
	return ret;
}

VACCEL_EXPORT int vaccel_event_get_point(struct vaccel_event *ev, uint64_t *point)
{
	if (!ev || !point || !(ev->flags & VACCEL_EVENT_TIMELINE))
		return -EINVAL;
	if (ev->n)
		return vaccel_unified_event_get_point(ev, point);
	return vaccel_drm_errno(drmSyncobjQuery(ev->dev->fd, &ev->handle, point, 1));
}

VACCEL_EXPORT int vaccel_event_signal_point(struct vaccel_event *ev, uint64_t point)
{
	if (!ev || !point || !(ev->flags & VACCEL_EVENT_TIMELINE))
		return -EINVAL;
	if (ev->n)
		return vaccel_unified_event_signal_point(ev, point);
	vaccel_event_disarm(ev);
	return vaccel_drm_errno(drmSyncobjTimelineSignal(ev->dev->fd, &ev->handle,
							 &point, 1));
}

VACCEL_EXPORT int vaccel_event_wait_point(struct vaccel_event *ev, uint64_t point,
					  int64_t timeout_ns)
{
	if (!ev || !point || !(ev->flags & VACCEL_EVENT_TIMELINE))
		return -EINVAL;
	if (ev->n)
		return vaccel_unified_event_wait(ev, point, timeout_ns);
	return vaccel_event_wait_abs(ev, point, vaccel_abs_timeout(timeout_ns));
}

/* The times of the command that signals @ev, once it has completed. */
int vaccel_event_times(struct vaccel_event *ev, struct vaccel_event_times *out)
{
	uint64_t point;
	int ret, status;
	bool armed;

	pthread_mutex_lock(&ev->lock);
	armed = ev->armed;
	point = ev->armed_point;
	memset(out, 0, sizeof(*out));
	out->submitted_ns = ev->submitted_ns;
	pthread_mutex_unlock(&ev->lock);
	if (!armed)
		return -ENODATA;
	ret = vaccel_syncobj_status(ev->dev, ev->handle, point, &status);
	/* Reset meanwhile, or a point forgotten: the command is gone. */
	if (ret == -EINVAL)
		return -ENODATA;
	if (ret)
		return ret;
	if (!status)
		return -EBUSY;
	if (status < 0)
		return status;
	out->started_ns = ev->times[0];
	out->ended_ns = ev->times[1];
	return 0;
}

VACCEL_EXPORT int vaccel_event_get_times(struct vaccel_event *ev,
					 struct vaccel_event_times *out)
{
	if (!ev || !out || !(ev->flags & VACCEL_EVENT_PROFILING))
		return -EINVAL;
	if (ev->n)
		return vaccel_unified_event_times(ev, out);
	return vaccel_event_times(ev, out);
}

VACCEL_EXPORT int vaccel_event_elapsed_ns(struct vaccel_event *ev, uint64_t *ns)
{
	struct vaccel_event_times t;
	int ret;

	if (!ns)
		return -EINVAL;
	ret = vaccel_event_get_times(ev, &t);
	if (!ret)
		*ns = t.ended_ns - t.started_ns;
	return ret;
}

/* --- waits on many events --- */

/* The status of a point, without waiting: 0, its failure, or -ETIME. */
static int vaccel_event_poll(const struct vaccel_event_point *p)
{
	struct vaccel_event *ev = p->event;

	if (ev->n)
		return vaccel_unified_event_wait(ev, p->point, 0);
	return vaccel_event_wait_until(ev, p->point, false, 0);
}

/* Waits for one point until the absolute @deadline. */
static int vaccel_event_wait_one(const struct vaccel_event_point *p, int64_t deadline)
{
	struct vaccel_event *ev = p->event;
	int64_t now, left;

	if (!ev->n)
		return vaccel_event_wait_until(ev, p->point, false, deadline);
	if (deadline == INT64_MAX)
		return vaccel_unified_event_wait(ev, p->point, -1);
	now = (int64_t)vaccel_now_ns();
	left = deadline > now ? deadline - now : 0;
	return vaccel_unified_event_wait(ev, p->point, left);
}

/*
 * All the points are of one device, none unified and none a host event:
 * one wait of the kernel, which waits for submission too.
 */
static bool vaccel_event_points_kernel(const struct vaccel_event_point *points,
				       uint32_t count)
{
	uint32_t i;

	for (i = 0; i < count; i++)
		if (points[i].event->n || points[i].event->flags & VACCEL_EVENT_HOST ||
		    points[i].event->dev != points[0].event->dev)
			return false;
	return true;
}

static int vaccel_event_wait_kernel(const struct vaccel_event_point *points,
				    uint32_t count, bool all, int64_t deadline,
				    uint32_t *first)
{
	uint32_t flags = DRM_SYNCOBJ_WAIT_FLAGS_WAIT_FOR_SUBMIT;
	uint32_t *handles, i, idx = 0;
	uint64_t *pts;
	int ret;

	handles = malloc(count * sizeof(*handles));
	pts = malloc(count * sizeof(*pts));
	if (!handles || !pts) {
		ret = -ENOMEM;
		goto out;
	}
	for (i = 0; i < count; i++) {
		handles[i] = points[i].event->handle;
		pts[i] = points[i].point;
	}
	if (all)
		flags |= DRM_SYNCOBJ_WAIT_FLAGS_WAIT_ALL;
	/* Returns -errno itself. */
	ret = drmSyncobjTimelineWait(points[0].event->dev->fd, handles, pts, count,
				     deadline, flags, &idx);
	if (ret)
		goto out;
	if (!all) {
		if (first)
			*first = idx;
		ret = vaccel_event_fence_status(points[idx].event, points[idx].point);
		goto out;
	}
	for (i = 0; i < count && !ret; i++) {
		ret = vaccel_event_fence_status(points[i].event, points[i].point);
		if (ret && first)
			*first = i;
	}
out:
	free(handles);
	free(pts);
	return ret;
}

/* Longest sleep between two looks at events the kernel cannot wait for at once. */
#define VACCEL_WAIT_ANY_MAX_NS	1000000

VACCEL_EXPORT int vaccel_event_wait_many(const struct vaccel_event_point *points,
					 uint32_t count, bool all, int64_t timeout_ns,
					 uint32_t *first)
{
	int64_t deadline = vaccel_abs_timeout(timeout_ns), step = 20000, now, until;
	int ret, failed = 0;
	uint64_t gen;
	uint32_t i;

	if (!points || !count)
		return -EINVAL;
	for (i = 0; i < count; i++) {
		const struct vaccel_event *ev = points[i].event;

		if (!ev || (ev->flags & VACCEL_EVENT_HOST ? points[i].point != 0 :
			    !vaccel_event_point_ok(ev, points[i].point)))
			return -EINVAL;
	}
	if (vaccel_event_points_kernel(points, count))
		return vaccel_event_wait_kernel(points, count, all, deadline, first);
	if (all) {
		/* One after the other, within the one deadline. */
		for (i = 0; i < count; i++) {
			ret = vaccel_event_wait_one(&points[i], deadline);
			if (ret == -ETIME)
				return ret;
			if (ret && !failed) {
				failed = ret;
				if (first)
					*first = i;
			}
		}
		return failed;
	}
	for (;;) {
		gen = vaccel_defer_generation();
		for (i = 0; i < count; i++) {
			ret = vaccel_event_poll(&points[i]);
			if (ret != -ETIME) {
				if (first)
					*first = i;
				return ret;
			}
		}
		now = (int64_t)vaccel_now_ns();
		if (now >= deadline)
			return -ETIME;
		/* A host event's change wakes us at once; the kernel's, at the next look. */
		until = deadline - now > step ? now + step : deadline;
		vaccel_defer_wait_change(gen, until);
		if (step < VACCEL_WAIT_ANY_MAX_NS)
			step *= 2;
	}
}
