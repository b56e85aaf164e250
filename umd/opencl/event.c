// SPDX-License-Identifier: MIT
/*
 * Copyright 2026 The vaccel authors
 */

/**
 * DOC: Events
 *
 * An event of a command has a libvaccel event, a profiling one, that the
 * command's group signals on the device (queue.c); its queue's thread
 * waits for it, does the host's part of the command if any, and then
 * completes the OpenCL event: its status, its callbacks, its waiters.
 * The libvaccel events come from a pool per device, since a command of a
 * busy queue would otherwise create and destroy one each time.
 *
 * A user event has a libvaccel *host event*.  Until clSetUserEventStatus()
 * sets it, the commands that wait for it, and the commands behind them in
 * their queues, are held back by libvaccel in user space: the kernel never
 * sees a fence that might never signal.
 *
 * Statuses go QUEUED, SUBMITTED (once flushed), then COMPLETE or a
 * negative error; RUNNING is not observed separately.  A command that
 * failed on the device (a fault, a hang, its time limit) ends
 * CL_OUT_OF_RESOURCES; a command held behind a user event that failed, or
 * cancelled behind a failed command, ends
 * CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "icd.h"

/* Guards every event's status, user_set and callbacks (icd.h). */
pthread_mutex_t vcl_events_lock = PTHREAD_MUTEX_INITIALIZER;
pthread_cond_t vcl_events_cond = PTHREAD_COND_INITIALIZER;

/* The pool of profiling events, per device: reset and ready for reuse. */
#define VCL_VEV_POOL_MAX	64

struct vcl_vev_pool {
	struct vaccel_device *dev;
	unsigned int count;
	struct vaccel_event *vevs[VCL_VEV_POOL_MAX];
};

/* Guards vcl_pools: which device each pool is for, and its events. */
static pthread_mutex_t vcl_pool_lock = PTHREAD_MUTEX_INITIALIZER;
static struct vcl_vev_pool vcl_pools[16];

static struct vcl_vev_pool *vcl_pool(struct vaccel_device *dev)
{
	unsigned int i;

	for (i = 0; i < 16; i++) {
		if (vcl_pools[i].dev == dev)
			return &vcl_pools[i];
		if (!vcl_pools[i].dev) {
			vcl_pools[i].dev = dev;
			return &vcl_pools[i];
		}
	}
	return NULL;
}

static struct vaccel_event *vcl_vev_get(struct vaccel_device *dev)
{
	struct vaccel_event *vev = NULL;
	struct vcl_vev_pool *p;

	pthread_mutex_lock(&vcl_pool_lock);
	p = vcl_pool(dev);
	if (p && p->count)
		vev = p->vevs[--p->count];
	pthread_mutex_unlock(&vcl_pool_lock);
	if (!vev && vaccel_event_create_ex(dev, VACCEL_EVENT_PROFILING, &vev))
		return NULL;
	return vev;
}

static void vcl_vev_put(struct vaccel_device *dev, struct vaccel_event *vev)
{
	struct vcl_vev_pool *p;

	if (vaccel_event_reset(vev)) {
		vaccel_event_destroy(vev);
		return;
	}
	pthread_mutex_lock(&vcl_pool_lock);
	p = vcl_pool(dev);
	if (p && p->count < VCL_VEV_POOL_MAX) {
		p->vevs[p->count++] = vev;
		vev = NULL;
	}
	pthread_mutex_unlock(&vcl_pool_lock);
	vaccel_event_destroy(vev);
}

bool vcl_event_valid(cl_event e)
{
	return VCL_VALID(e, VCL_MAGIC_EVENT);
}

cl_event vcl_event_new(cl_context ctx, cl_command_queue q, cl_command_type type)
{
	cl_event e = calloc(1, sizeof(*e));

	if (!e)
		return NULL;
	e->dispatch = &vcl_dispatch;
	e->magic = VCL_MAGIC_EVENT;
	vcl_ref_init(&e->ref);
	e->ctx = ctx;
	e->queue = q;
	e->type = type;
	e->status = q ? CL_QUEUED : CL_SUBMITTED;
	e->t_queued = vcl_now_ns();
	if (q) {
		e->profiling = q->props & CL_QUEUE_PROFILING_ENABLE;
		e->device = q->device;
		e->vev = vcl_vev_get(q->device->dev);
	} else if (vaccel_event_create_ex(NULL, VACCEL_EVENT_HOST, &e->vev)) {
		e->vev = NULL;
	}
	if (!e->vev) {
		free(e);
		return NULL;
	}
	clRetainContext(ctx);
	return e;
}

void vcl_event_put(cl_event e)
{
	struct vcl_event_callback *cb, *next;

	if (!vcl_ref_put(&e->ref))
		return;
	e->magic = 0;
	if (e->queue && e->status == CL_COMPLETE)
		vcl_vev_put(e->device->dev, e->vev);
	else
		vaccel_event_destroy(e->vev);
	for (cb = e->callbacks; cb; cb = next) {
		next = cb->next;
		free(cb);
	}
	clReleaseContext(e->ctx);
	free(e);
}

/*
 * Completes @e with @status (CL_COMPLETE or negative), wakes its waiters
 * and calls its callbacks, in the calling thread, outside every lock.
 */
void vcl_event_complete(cl_event e, cl_int status)
{
	struct vcl_event_callback *cb, *run = NULL, *next;

	pthread_mutex_lock(&vcl_events_lock);
	if (e->status <= CL_COMPLETE) {
		pthread_mutex_unlock(&vcl_events_lock);
		return;
	}
	e->status = status;
	if (!e->t_end)
		e->t_end = vcl_now_ns();
	run = e->callbacks;
	e->callbacks = NULL;
	pthread_cond_broadcast(&vcl_events_cond);
	pthread_mutex_unlock(&vcl_events_lock);
	/* In the order they were set. */
	for (cb = run, run = NULL; cb; cb = next) {
		next = cb->next;
		cb->next = run;
		run = cb;
	}
	for (cb = run; cb; cb = next) {
		next = cb->next;
		cb->fn(e, status < 0 ? status : cb->status, cb->user_data);
		free(cb);
	}
}

/* Marks @e submitted (if still queued), and calls the callbacks for it. */
void vcl_event_submitted(cl_event e)
{
	struct vcl_event_callback **pp, *cb, *run = NULL;

	pthread_mutex_lock(&vcl_events_lock);
	if (e->status == CL_QUEUED)
		e->status = CL_SUBMITTED;
	for (pp = &e->callbacks; *pp;) {
		cb = *pp;
		if (cb->status == CL_SUBMITTED) {
			*pp = cb->next;
			cb->next = run;
			run = cb;
		} else {
			pp = &cb->next;
		}
	}
	pthread_mutex_unlock(&vcl_events_lock);
	while (run) {
		cb = run;
		run = cb->next;
		cb->fn(e, CL_SUBMITTED, cb->user_data);
		free(cb);
	}
}

/* Waits until @e has completed; returns its status. */
cl_int vcl_event_wait_complete(cl_event e)
{
	cl_int status;

	pthread_mutex_lock(&vcl_events_lock);
	while (e->status > CL_COMPLETE)
		pthread_cond_wait(&vcl_events_cond, &vcl_events_lock);
	status = e->status;
	pthread_mutex_unlock(&vcl_events_lock);
	return status;
}

CL_API_ENTRY cl_int CL_API_CALL
clWaitForEvents(cl_uint num_events, const cl_event *events)
{
	cl_int err = CL_SUCCESS;
	cl_uint i;

	if (!num_events || !events)
		return CL_INVALID_VALUE;
	for (i = 0; i < num_events; i++) {
		if (!vcl_event_valid(events[i]))
			return CL_INVALID_EVENT;
		if (events[i]->ctx != events[0]->ctx)
			return CL_INVALID_CONTEXT;
	}
	/* Commands are flushed as they are enqueued: nothing to flush here. */
	for (i = 0; i < num_events; i++)
		if (vcl_event_wait_complete(events[i]) < 0)
			err = CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST;
	return err;
}

CL_API_ENTRY cl_int CL_API_CALL
clGetEventInfo(cl_event e, cl_event_info param_name, size_t param_value_size,
	       void *param_value, size_t *param_value_size_ret)
{
	cl_int status;
	cl_uint u;

	if (!vcl_event_valid(e))
		return CL_INVALID_EVENT;
	switch (param_name) {
	case CL_EVENT_COMMAND_QUEUE:
		return VCL_INFO(e->queue);
	case CL_EVENT_CONTEXT:
		return VCL_INFO(e->ctx);
	case CL_EVENT_COMMAND_TYPE:
		return VCL_INFO(e->type);
	case CL_EVENT_COMMAND_EXECUTION_STATUS:
		pthread_mutex_lock(&vcl_events_lock);
		status = e->status;
		pthread_mutex_unlock(&vcl_events_lock);
		return VCL_INFO(status);
	case CL_EVENT_REFERENCE_COUNT:
		u = atomic_load(&e->ref.count);
		return VCL_INFO(u);
	default:
		return CL_INVALID_VALUE;
	}
}

CL_API_ENTRY cl_int CL_API_CALL
clGetEventProfilingInfo(cl_event e, cl_profiling_info param_name,
			size_t param_value_size, void *param_value,
			size_t *param_value_size_ret)
{
	cl_ulong t;
	cl_int status;

	if (!vcl_event_valid(e))
		return CL_INVALID_EVENT;
	pthread_mutex_lock(&vcl_events_lock);
	status = e->status;
	pthread_mutex_unlock(&vcl_events_lock);
	if (!e->queue || !e->profiling || status != CL_COMPLETE)
		return CL_PROFILING_INFO_NOT_AVAILABLE;
	switch (param_name) {
	case CL_PROFILING_COMMAND_QUEUED:
		t = e->t_queued;
		break;
	case CL_PROFILING_COMMAND_SUBMIT:
		t = e->t_submit;
		break;
	case CL_PROFILING_COMMAND_START:
		t = e->t_start;
		break;
	case CL_PROFILING_COMMAND_END:
	case CL_PROFILING_COMMAND_COMPLETE:
		t = e->t_end;
		break;
	default:
		return CL_INVALID_VALUE;
	}
	return VCL_INFO(t);
}

CL_API_ENTRY cl_int CL_API_CALL
clRetainEvent(cl_event e)
{
	if (!vcl_event_valid(e))
		return CL_INVALID_EVENT;
	vcl_ref_get(&e->ref);
	return CL_SUCCESS;
}

CL_API_ENTRY cl_int CL_API_CALL
clReleaseEvent(cl_event e)
{
	if (!vcl_event_valid(e))
		return CL_INVALID_EVENT;
	vcl_event_put(e);
	return CL_SUCCESS;
}

CL_API_ENTRY cl_event CL_API_CALL
clCreateUserEvent(cl_context ctx, cl_int *errcode_ret)
{
	cl_event e = NULL;
	cl_int err = CL_SUCCESS;

	if (!vcl_context_valid(ctx))
		err = CL_INVALID_CONTEXT;
	else if (!(e = vcl_event_new(ctx, NULL, CL_COMMAND_USER)))
		err = CL_OUT_OF_HOST_MEMORY;
	if (errcode_ret)
		*errcode_ret = err;
	return e;
}

CL_API_ENTRY cl_int CL_API_CALL
clSetUserEventStatus(cl_event e, cl_int status)
{
	int ret;

	if (!vcl_event_valid(e) || e->queue)
		return CL_INVALID_EVENT;
	if (status != CL_COMPLETE && status >= 0)
		return CL_INVALID_VALUE;
	pthread_mutex_lock(&vcl_events_lock);
	if (e->status <= CL_COMPLETE || e->user_set) {
		pthread_mutex_unlock(&vcl_events_lock);
		return CL_INVALID_OPERATION;
	}
	e->user_set = true;
	pthread_mutex_unlock(&vcl_events_lock);
	/*
	 * libvaccel submits the commands held behind the event, or fails
	 * them, in this thread; their queues' threads complete them.
	 */
	ret = vaccel_event_set_status(e->vev, status == CL_COMPLETE ? 0 : -ECANCELED);
	if (ret)
		return vcl_errno_to_cl(ret);
	vcl_event_complete(e, status);
	return CL_SUCCESS;
}

CL_API_ENTRY cl_int CL_API_CALL
clSetEventCallback(cl_event e, cl_int status,
		   void (CL_CALLBACK *fn)(cl_event, cl_int, void *), void *user_data)
{
	struct vcl_event_callback *cb;
	cl_int now;

	if (!vcl_event_valid(e))
		return CL_INVALID_EVENT;
	if (!fn || (status != CL_COMPLETE && status != CL_SUBMITTED &&
		    status != CL_RUNNING))
		return CL_INVALID_VALUE;
	cb = malloc(sizeof(*cb));
	if (!cb)
		return CL_OUT_OF_HOST_MEMORY;
	cb->status = status;
	cb->fn = fn;
	cb->user_data = user_data;
	pthread_mutex_lock(&vcl_events_lock);
	now = e->status;
	/* RUNNING is not observed: such callbacks come at completion. */
	if (now > status || (now > CL_COMPLETE && status == CL_RUNNING)) {
		cb->next = e->callbacks;
		e->callbacks = cb;
		cb = NULL;
	}
	pthread_mutex_unlock(&vcl_events_lock);
	if (cb) {
		/* Already there: called now. */
		fn(e, now < 0 ? now : status, user_data);
		free(cb);
	}
	return CL_SUCCESS;
}
