// SPDX-License-Identifier: MIT
/*
 * Copyright 2026 The vaccel authors
 */

/**
 * DOC: Command queues
 *
 * A command queue is a compute queue of libvaccel on its device, and a
 * thread.  Every command is one libvaccel *command group*: the waits of
 * its event wait list before its first packet, its event's signal after
 * the last, and one profiling interval (vcl_command_begin() and
 * vcl_command_end()).  A command with nothing for the device (a map, a
 * marker) is an empty group, which signals once the work before it has
 * completed.  Each command is flushed as it is enqueued: the device starts
 * at once, and clFlush() has nothing left to do.
 *
 * The queue's thread completes the commands in order: it waits for the
 * group's signal, does the host's part of the command (copying a read's
 * data to the host, say), then completes the OpenCL event.  So event
 * callbacks run, and non-blocking reads land, without the program calling
 * into OpenCL again.
 *
 * An out-of-order queue has up to three *lanes*, each a libvaccel queue
 * and a thread of its own: two for kernels, one on each compute engine,
 * and one on the copy engine for the buffer commands.  A lane runs and
 * completes its commands in order; the lanes overlap.  A command waits
 * for the events of its wait list that are in other lanes or queues, and
 * for the latest barrier; a marker or a barrier without a wait list waits
 * for the latest command of every lane.  An in-order queue (and any queue
 * of the unified device, whose libvaccel queue has no command groups)
 * has one lane.  Commands of other queues of the same device are waited
 * for on the device; those of another device's queues on the CPU, before
 * the command is recorded.
 *
 * After a fault, a hang or the time limit, a lane's libvaccel queue takes
 * no more work: its commands end with a negative status, the context's
 * callback hears of the fault, and the lane's next command gets a new
 * libvaccel queue, so that the context stays usable.
 *
 * A released queue lets its work finish: each lane's thread completes
 * what is pending, and the last to end frees the queue.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "icd.h"

bool vcl_queue_valid(cl_command_queue q)
{
	return VCL_VALID(q, VCL_MAGIC_QUEUE);
}

static void vcl_queue_free(cl_command_queue q)
{
	unsigned int i;

	for (i = 0; i < VCL_LANES; i++) {
		vaccel_queue_destroy(q->lanes[i].q);
		if (q->lanes[i].last)
			vcl_event_put(q->lanes[i].last);
	}
	if (q->barrier)
		vcl_event_put(q->barrier);
	pthread_cond_destroy(&q->cond);
	pthread_mutex_destroy(&q->lock);
	clReleaseContext(q->ctx);
	free(q->props_array);
	free(q);
}

/* Tells the context of a command's failure on the device, if it was one. */
static void vcl_queue_report(cl_command_queue q, cl_event e, int err)
{
	struct vcl_lane *lane = &q->lanes[e->lane];
	struct vaccel_fault_info fi;
	char what[512], where[512];

	if (err == -ECANCELED)
		return;
	pthread_mutex_lock(&q->lock);
	/* The libvaccel queue takes no more work: the lane's next command replaces it. */
	if (e->generation == lane->generation)
		lane->failed = true;
	if (e->generation != lane->generation || vaccel_queue_get_fault(lane->q, &fi) ||
	    vaccel_fault_info_format(&fi, what, sizeof(what)) < 0) {
		snprintf(what, sizeof(what), "%s", strerror(-err));
		fi.kernel = NULL;
	}
	pthread_mutex_unlock(&q->lock);
	/* A kernel's fault: where in the source. */
	if (fi.kernel && fi.elf_pc && e->program &&
	    !vcl_program_symbolize(e->program, q->device, fi.elf_pc, where, sizeof(where))) {
		vcl_context_notify(q->ctx, "vaccel: kernel %s failed in %s: %s", fi.kernel,
				   where, what);
		return;
	}
	vcl_context_notify(q->ctx, "vaccel: a command of queue %p on %s failed: %s",
			   (void *)q, q->device->name, what);
}

/* What a completed (or failed) command held: its action, its buffers. */
static void vcl_command_release(cl_event e)
{
	unsigned int i;

	if (e->action) {
		e->action->fini(e->action);
		e->action = NULL;
	}
	for (i = 0; i < e->num_mems; i++)
		vcl_mem_put(e->mems[i]);
	if (e->program) {
		clReleaseProgram(e->program);
		e->program = NULL;
	}
	for (i = 0; i < e->num_waits; i++)
		vcl_event_put(e->waits[i]);
	free(e->waits);
	e->waits = NULL;
	e->num_waits = 0;
	free(e->mems);
	e->mems = NULL;
	e->num_mems = 0;
}

/* Keeps @m alive until the command has completed. */
cl_int vcl_command_hold(struct vcl_command *cmd, cl_mem m)
{
	cl_event e = cmd->event;
	cl_mem *mems;

	mems = realloc(e->mems, (e->num_mems + 1) * sizeof(*mems));
	if (!mems)
		return CL_OUT_OF_HOST_MEMORY;
	vcl_ref_get(&m->ref);
	mems[e->num_mems++] = m;
	e->mems = mems;
	return CL_SUCCESS;
}

/*
 * Completes a lane's commands in order; the last lane's thread to end
 * frees the queue.
 */
static void *vcl_lane_thread(void *arg)
{
	struct vcl_lane *lane = arg;
	cl_command_queue q = lane->queue;
	struct vaccel_event_times t;
	unsigned int i;
	bool last;
	cl_event e;
	cl_int status;
	int err;

	for (;;) {
		pthread_mutex_lock(&q->lock);
		while (!lane->pending_head && !q->stopping)
			pthread_cond_wait(&q->cond, &q->lock);
		e = lane->pending_head;
		pthread_mutex_unlock(&q->lock);
		if (!e)
			break;

		err = vaccel_event_wait(e->vev, -1);
		status = CL_COMPLETE;
		if (err) {
			vcl_queue_report(q, e, err);
			status = err == -ECANCELED ? CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST :
				CL_OUT_OF_RESOURCES;
		} else if (!vaccel_event_get_times(e->vev, &t)) {
			e->t_submit = t.submitted_ns;
			e->t_start = t.started_ns;
			e->t_end = t.ended_ns;
		}
		/*
		 * What it waited for in the queue's other lanes has completed on
		 * the device: it completes first here too, so that a program
		 * that waited for a marker finds the commands before it
		 * complete.  Those are older than @e, so no lane waits in a
		 * circle.
		 */
		for (i = 0; i < e->num_waits; i++)
			if (e->waits[i]->queue == q && e->waits[i]->lane != lane->id)
				vcl_event_wait_complete(e->waits[i]);
		if (e->action) {
			e->action->error = err;
			e->action->run(e->action);
			if (!err && e->action->error)
				status = e->action->error;
			if (e->t_end)
				e->t_end = vcl_now_ns();
		}
		/* QUEUED <= SUBMIT <= START <= END, whatever the clocks said. */
		if (e->t_submit < e->t_queued)
			e->t_submit = e->t_queued;
		if (e->t_start < e->t_submit)
			e->t_start = e->t_submit;
		if (e->t_end < e->t_start)
			e->t_end = e->t_start;

		/*
		 * Complete, then leave the pending list: clFinish() returns
		 * once the list is empty, and its commands must be complete
		 * by then, their buffers released, their callbacks called.
		 */
		vcl_event_complete(e, status);
		vcl_command_release(e);

		pthread_mutex_lock(&q->lock);
		lane->pending_head = e->next_pending;
		if (!lane->pending_head)
			lane->pending_tail = NULL;
		lane->pending_count--;
		q->pending_count--;
		pthread_cond_broadcast(&q->cond);
		pthread_mutex_unlock(&q->lock);
		vcl_event_put(e);
	}
	pthread_mutex_lock(&q->lock);
	last = !--q->threads;
	pthread_mutex_unlock(&q->lock);
	if (last)
		vcl_queue_free(q);
	return NULL;
}

/*
 * A libvaccel queue for @lane of @q, at the queue's priority: an
 * in-order queue's on the compute engine with the fewest contexts, an
 * out-of-order queue's second compute lane on another engine than its
 * first, its copy lane on the copy engine.
 */
static int vcl_queue_new_vq(cl_command_queue q, enum vcl_lane_id lane,
			    struct vaccel_queue **out)
{
	struct vaccel_queue_desc desc = {
		.engine_class = VACCEL_ENGINE_CLASS_COMPUTE,
		.engine_instance = VACCEL_ENGINE_INSTANCE_ANY,
	};
	struct vaccel_queue_info info;
	int ret;

	if (lane == VCL_LANE_COPY) {
		desc.engine_class = VACCEL_ENGINE_CLASS_COPY;
	} else if (lane == VCL_LANE_COMPUTE1 && q->lanes[VCL_LANE_COMPUTE0].q &&
		   !vaccel_queue_get_info(q->lanes[VCL_LANE_COMPUTE0].q, &info)) {
		desc.engine_instance = (info.engine_instance + 1) % q->device->compute_engines;
	}
	desc.priority = q->priority;
	ret = vaccel_queue_create_ex(q->device->dev, &desc, out);
	if (ret == -EPERM && q->priority > VACCEL_PRIORITY_NORMAL) {
		/* A hint: without CAP_SYS_NICE, the normal priority. */
		q->priority = VACCEL_PRIORITY_NORMAL;
		desc.priority = q->priority;
		ret = vaccel_queue_create_ex(q->device->dev, &desc, out);
	}
	return ret;
}

/* Gives @lane its libvaccel queue and its thread, at its first command. */
static int vcl_lane_start_locked(cl_command_queue q, enum vcl_lane_id id)
{
	struct vcl_lane *lane = &q->lanes[id];
	int ret;

	lane->queue = q;
	lane->id = id;
	if (!lane->q) {
		ret = vcl_queue_new_vq(q, id, &lane->q);
		if (ret)
			return ret;
	}
	if (lane->running)
		return 0;
	if (pthread_create(&lane->thread, NULL, vcl_lane_thread, lane))
		return -ENOMEM;
	pthread_detach(lane->thread);
	lane->running = true;
	q->threads++;
	return 0;
}

static cl_int vcl_queue_props(cl_command_queue q, const cl_queue_properties *props)
{
	const cl_command_queue_properties known = CL_QUEUE_PROFILING_ENABLE |
		CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE;
	size_t n = 0;

	q->priority = VACCEL_PRIORITY_NORMAL;
	if (!props)
		return CL_SUCCESS;
	for (; props[n]; n += 2) {
		switch (props[n]) {
		case CL_QUEUE_PROPERTIES:
			if (props[n + 1] & ~known) {
				/* On-device queues are not supported. */
				return props[n + 1] & (CL_QUEUE_ON_DEVICE | CL_QUEUE_ON_DEVICE_DEFAULT) ?
					CL_INVALID_QUEUE_PROPERTIES : CL_INVALID_VALUE;
			}
			q->props = props[n + 1];
			break;
		case CL_QUEUE_PRIORITY_KHR:
			switch (props[n + 1]) {
			case CL_QUEUE_PRIORITY_HIGH_KHR:
				q->priority = VACCEL_PRIORITY_HIGH;
				break;
			case CL_QUEUE_PRIORITY_MED_KHR:
				q->priority = VACCEL_PRIORITY_NORMAL;
				break;
			case CL_QUEUE_PRIORITY_LOW_KHR:
				q->priority = VACCEL_PRIORITY_LOW;
				break;
			default:
				return CL_INVALID_VALUE;
			}
			break;
		case CL_QUEUE_SIZE:
			return CL_INVALID_QUEUE_PROPERTIES;
		default:
			return CL_INVALID_VALUE;
		}
	}
	q->props_array_size = (n + 1) * sizeof(*props);
	q->props_array = malloc(q->props_array_size);
	if (!q->props_array)
		return CL_OUT_OF_HOST_MEMORY;
	memcpy(q->props_array, props, q->props_array_size);
	return CL_SUCCESS;
}

CL_API_ENTRY cl_command_queue CL_API_CALL
clCreateCommandQueueWithProperties(cl_context ctx, cl_device_id device,
				   const cl_queue_properties *props,
				   cl_int *errcode_ret)
{
	cl_command_queue q = NULL;
	cl_int err;

	if (!vcl_context_valid(ctx)) {
		err = CL_INVALID_CONTEXT;
		goto out;
	}
	if (!vcl_device_valid(device) || vcl_context_device_index(ctx, device) < 0) {
		err = CL_INVALID_DEVICE;
		goto out;
	}
	q = calloc(1, sizeof(*q));
	if (!q) {
		err = CL_OUT_OF_HOST_MEMORY;
		goto out;
	}
	q->dispatch = &vcl_dispatch;
	q->magic = VCL_MAGIC_QUEUE;
	vcl_ref_init(&q->ref);
	q->ctx = ctx;
	q->device = device;
	pthread_mutex_init(&q->lock, NULL);
	pthread_cond_init(&q->cond, NULL);
	err = vcl_queue_props(q, props);
	if (err)
		goto err_free;
	q->groups = !device->unified;
	q->compute_lanes = 1;
	if (q->groups && (q->props & CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE)) {
		q->compute_lanes = device->compute_engines > 1 ? 2 : 1;
		q->copy_lane = device->info.engine_count[VACCEL_ENGINE_CLASS_COPY] > 0;
	}
	/* The first lane now, so that a queue the device refuses fails here. */
	if (vcl_queue_new_vq(q, VCL_LANE_COMPUTE0, &q->lanes[VCL_LANE_COMPUTE0].q)) {
		err = CL_OUT_OF_RESOURCES;
		goto err_free;
	}
	clRetainContext(ctx);
	if (vcl_lane_start_locked(q, VCL_LANE_COMPUTE0)) {
		clReleaseContext(ctx);
		vaccel_queue_destroy(q->lanes[VCL_LANE_COMPUTE0].q);
		err = CL_OUT_OF_HOST_MEMORY;
		goto err_free;
	}
	goto out;
err_free:
	pthread_cond_destroy(&q->cond);
	pthread_mutex_destroy(&q->lock);
	free(q->props_array);
	free(q);
	q = NULL;
out:
	if (errcode_ret)
		*errcode_ret = err;
	return q;
}

CL_API_ENTRY cl_command_queue CL_API_CALL
clCreateCommandQueue(cl_context ctx, cl_device_id device,
		     cl_command_queue_properties properties, cl_int *errcode_ret)
{
	cl_queue_properties props[] = { CL_QUEUE_PROPERTIES, properties, 0 };

	return clCreateCommandQueueWithProperties(ctx, device, properties ? props : NULL,
						  errcode_ret);
}

CL_API_ENTRY cl_int CL_API_CALL
clRetainCommandQueue(cl_command_queue q)
{
	if (!vcl_queue_valid(q))
		return CL_INVALID_COMMAND_QUEUE;
	vcl_ref_get(&q->ref);
	return CL_SUCCESS;
}

CL_API_ENTRY cl_int CL_API_CALL
clReleaseCommandQueue(cl_command_queue q)
{
	if (!vcl_queue_valid(q))
		return CL_INVALID_COMMAND_QUEUE;
	if (!vcl_ref_put(&q->ref))
		return CL_SUCCESS;
	/* The thread completes what is pending, then frees the queue. */
	pthread_mutex_lock(&q->lock);
	q->magic = 0;
	q->stopping = true;
	pthread_cond_broadcast(&q->cond);
	pthread_mutex_unlock(&q->lock);
	return CL_SUCCESS;
}

CL_API_ENTRY cl_int CL_API_CALL
clGetCommandQueueInfo(cl_command_queue q, cl_command_queue_info param_name,
		      size_t param_value_size, void *param_value,
		      size_t *param_value_size_ret)
{
	cl_command_queue none = NULL;
	cl_uint u;

	if (!vcl_queue_valid(q))
		return CL_INVALID_COMMAND_QUEUE;
	switch (param_name) {
	case CL_QUEUE_CONTEXT:
		return VCL_INFO(q->ctx);
	case CL_QUEUE_DEVICE:
		return VCL_INFO(q->device);
	case CL_QUEUE_REFERENCE_COUNT:
		u = atomic_load(&q->ref.count);
		return VCL_INFO(u);
	case CL_QUEUE_PROPERTIES:
		return VCL_INFO(q->props);
	case CL_QUEUE_PROPERTIES_ARRAY:
		return vcl_info(q->props_array, q->props_array ? q->props_array_size : 0,
				param_value_size, param_value, param_value_size_ret);
	case CL_QUEUE_SIZE:
		return CL_INVALID_COMMAND_QUEUE;
	case CL_QUEUE_DEVICE_DEFAULT:
		return VCL_INFO(none);
	default:
		return CL_INVALID_VALUE;
	}
}

CL_API_ENTRY cl_int CL_API_CALL
clSetCommandQueueProperty(cl_command_queue q, cl_command_queue_properties properties,
			  cl_bool enable, cl_command_queue_properties *old)
{
	if (!vcl_queue_valid(q))
		return CL_INVALID_COMMAND_QUEUE;
	if (properties & ~(cl_command_queue_properties)(CL_QUEUE_PROFILING_ENABLE |
							 CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE))
		return CL_INVALID_VALUE;
	pthread_mutex_lock(&q->lock);
	if (old)
		*old = q->props;
	if (enable)
		q->props |= properties;
	else
		q->props &= ~properties;
	pthread_mutex_unlock(&q->lock);
	return CL_SUCCESS;
}

cl_int vcl_check_wait_list(cl_context ctx, cl_uint num_events, const cl_event *wait_list)
{
	cl_uint i;

	if (!num_events != !wait_list)
		return CL_INVALID_EVENT_WAIT_LIST;
	for (i = 0; i < num_events; i++) {
		if (!vcl_event_valid(wait_list[i]))
			return CL_INVALID_EVENT_WAIT_LIST;
		if (wait_list[i]->ctx != ctx)
			return CL_INVALID_CONTEXT;
	}
	return CL_SUCCESS;
}

/*
 * Makes what @lane records next wait for @points: in groups of
 * VACCEL_MAX_WAITS, all but the last as empty groups of their own.
 * Returns the points left for the command's own group.
 */
static int vcl_queue_wait_excess(struct vcl_lane *lane, struct vaccel_event_point *points,
				 uint32_t *count)
{
	while (*count > VACCEL_MAX_WAITS) {
		struct vaccel_command_sync sync = {
			.waits = points + *count - VACCEL_MAX_WAITS,
			.wait_count = VACCEL_MAX_WAITS,
		};
		int ret = vaccel_queue_begin_group(lane->q, &sync);

		if (ret)
			return ret;
		ret = vaccel_queue_end_group(lane->q);
		if (ret)
			return ret;
		*count -= VACCEL_MAX_WAITS;
	}
	return 0;
}

/* Without groups (a unified device): waits before, a plain signal after. */
static int vcl_queue_wait_plain(struct vcl_lane *lane, struct vaccel_event_point *points,
				uint32_t count)
{
	uint32_t i;
	int ret;

	for (i = 0; i < count; i++) {
		ret = vaccel_queue_wait_event(lane->q, points[i].event);
		if (ret)
			return ret;
	}
	return 0;
}

static int vcl_queue_begin_locked(cl_command_queue q, struct vcl_lane *lane, cl_event e,
				  struct vaccel_event_point *points, uint32_t count)
{
	struct vaccel_command_sync sync = { .signal = e->vev };
	int ret;

	if (!q->groups)
		return vcl_queue_wait_plain(lane, points, count);
	ret = vcl_queue_wait_excess(lane, points, &count);
	if (ret)
		return ret;
	sync.waits = points;
	sync.wait_count = count;
	return vaccel_queue_begin_group(lane->q, &sync);
}

/* A lane's libvaccel queue failed: a new one, for its commands from now on. */
static int vcl_lane_replace_locked(cl_command_queue q, struct vcl_lane *lane)
{
	struct vaccel_queue *vq;
	int ret = vcl_queue_new_vq(q, lane->id, &vq);

	if (ret)
		return ret;
	/* Its pending commands have failed: destroying cancels nothing more. */
	vaccel_queue_destroy(lane->q);
	lane->q = vq;
	lane->generation++;
	lane->failed = false;
	return 0;
}

static bool vcl_queue_out_of_order(cl_command_queue q)
{
	return q->props & CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE;
}

/* Whether @q has lanes besides its first: it was created out of order. */
static bool vcl_queue_has_lanes(cl_command_queue q)
{
	return q->compute_lanes > 1 || q->copy_lane;
}

/*
 * The lane of a command of @type.  In order: the lane of the latest
 * command.  Out of order: a kernel on the compute lane with the fewest
 * pending commands (round robin among equals), a buffer command on the
 * copy lane, a marker, a barrier or a migration where the latest command
 * went.
 */
static enum vcl_lane_id vcl_queue_pick_lane(cl_command_queue q, cl_command_type type)
{
	unsigned int i, best;

	if (!vcl_queue_out_of_order(q))
		return q->current;
	switch (type) {
	case CL_COMMAND_NDRANGE_KERNEL:
	case CL_COMMAND_TASK:
		best = q->next_compute % q->compute_lanes;
		for (i = 1; i < q->compute_lanes; i++) {
			unsigned int l = (q->next_compute + i) % q->compute_lanes;

			if (q->lanes[l].pending_count < q->lanes[best].pending_count)
				best = l;
		}
		q->next_compute = best + 1;
		return (enum vcl_lane_id)best;
	case CL_COMMAND_MARKER:
	case CL_COMMAND_BARRIER:
	case CL_COMMAND_MIGRATE_MEM_OBJECTS:
		return q->current;
	default:
		return q->copy_lane ? VCL_LANE_COPY : VCL_LANE_COMPUTE0;
	}
}

/*
 * What a command in @lane waits for besides its wait list: the latest
 * command of every other lane for a marker or a barrier without a wait
 * list (and for every command once the queue runs in order again), the
 * latest barrier otherwise.  Returns how many went into @out.
 */
static unsigned int vcl_queue_implicit_waits(cl_command_queue q, enum vcl_lane_id lane,
					     cl_command_type type, cl_uint num_events,
					     cl_event out[VCL_LANES + 1])
{
	bool all = !vcl_queue_out_of_order(q) ||
		((type == CL_COMMAND_MARKER || type == CL_COMMAND_BARRIER) && !num_events);
	unsigned int i, n = 0;

	if (!vcl_queue_has_lanes(q))
		return 0;
	if (all) {
		for (i = 0; i < VCL_LANES; i++)
			if (i != lane && q->lanes[i].last)
				out[n++] = q->lanes[i].last;
		return n;
	}
	if (q->barrier && q->barrier->lane != lane)
		out[n++] = q->barrier;
	return n;
}

/**
 * vcl_command_begin() - start a command of a queue
 * @q: the queue
 * @type: the command's CL_COMMAND_*
 * @num_events: the event wait list
 * @wait_list: its events
 * @cmd: filled; @cmd->vq is where to record the command's packets
 *
 * Returns with the queue locked, the command's group open in its lane:
 * record, then vcl_command_end() or vcl_command_abort().
 */
cl_int vcl_command_begin(cl_command_queue q, cl_command_type type, cl_uint num_events,
			 const cl_event *wait_list, struct vcl_command *cmd)
{
	struct vaccel_event_point stack_points[VACCEL_MAX_WAITS], *points = stack_points;
	cl_event implicit[VCL_LANES + 1];
	unsigned int num_implicit;
	uint32_t count = 0;
	struct vcl_lane *lane;
	cl_event e;
	cl_uint i;
	cl_int err;
	int ret;

	memset(cmd, 0, sizeof(*cmd));
	if (!vcl_queue_valid(q))
		return CL_INVALID_COMMAND_QUEUE;
	err = vcl_check_wait_list(q->ctx, num_events, wait_list);
	if (err)
		return err;
	if (num_events + VCL_LANES + 1 > VACCEL_MAX_WAITS) {
		points = calloc(num_events + VCL_LANES + 1, sizeof(*points));
		if (!points)
			return CL_OUT_OF_HOST_MEMORY;
	}
	/* Another device's commands: waited for here, on the CPU. */
	for (i = 0; i < num_events; i++)
		if (wait_list[i]->queue && wait_list[i]->queue != q &&
		    wait_list[i]->device != q->device)
			vcl_event_wait_complete(wait_list[i]);
	e = vcl_event_new(q->ctx, q, type);
	if (!e) {
		err = CL_OUT_OF_HOST_MEMORY;
		goto out;
	}

	pthread_mutex_lock(&q->lock);
	e->lane = vcl_queue_pick_lane(q, type);
	lane = &q->lanes[e->lane];
	ret = vcl_lane_start_locked(q, e->lane);
	if (ret)
		goto err_unlock;
	num_implicit = vcl_queue_implicit_waits(q, e->lane, type, num_events, implicit);
	if (num_events + num_implicit) {
		e->waits = malloc((num_events + num_implicit) * sizeof(*e->waits));
		if (!e->waits) {
			ret = -ENOMEM;
			goto err_unlock;
		}
	}
	for (i = 0; i < num_events + num_implicit; i++) {
		cl_event w = i < num_events ? wait_list[i] : implicit[i - num_events];

		vcl_ref_get(&w->ref);
		e->waits[e->num_waits++] = w;
		/* The lane's own commands are in order before it. */
		if (w->queue == q && w->lane == e->lane)
			continue;
		if (w->queue && w->queue != q && w->device != q->device)
			continue;
		points[count].event = w->vev;
		points[count++].point = 0;
	}
	ret = lane->failed ? -ECANCELED : vcl_queue_begin_locked(q, lane, e, points, count);
	if (ret == -ECANCELED && !vcl_lane_replace_locked(q, lane))
		ret = vcl_queue_begin_locked(q, lane, e, points, count);
	if (ret)
		goto err_unlock;
	e->generation = lane->generation;
	cmd->queue = q;
	cmd->event = e;
	cmd->vq = lane->q;
	goto out;
err_unlock:
	pthread_mutex_unlock(&q->lock);
	vcl_command_release(e);
	vcl_event_put(e);
	err = vcl_errno_to_cl(ret);
out:
	if (points != stack_points)
		free(points);
	return err;
}

/* Closes the command's group and submits it. */
static int vcl_command_close_locked(struct vcl_command *cmd)
{
	cl_command_queue q = cmd->queue;

	if (q->groups)
		return vaccel_queue_end_group(cmd->vq);
	return vaccel_queue_signal(cmd->vq, cmd->event->vev);
}

/*
 * Makes @e its lane's latest command (and the queue's latest barrier);
 * returns in @put what the caller puts once the queue is unlocked.
 */
static void vcl_queue_note_latest_locked(cl_command_queue q, cl_event e, cl_event put[2])
{
	struct vcl_lane *lane = &q->lanes[e->lane];

	q->current = e->lane;
	if (!vcl_queue_has_lanes(q))
		return;
	put[0] = lane->last;
	vcl_ref_get(&e->ref);
	lane->last = e;
	if (e->type == CL_COMMAND_BARRIER && vcl_queue_out_of_order(q)) {
		put[1] = q->barrier;
		vcl_ref_get(&e->ref);
		q->barrier = e;
	}
}

/**
 * vcl_command_end() - submit a command begun by vcl_command_begin()
 * @cmd: the command
 * @action: the host's part, done by the lane's thread once the device's
 *	part has completed; NULL for none.  Its fini() is called in every case.
 * @event_out: the program's event, or NULL
 * @blocking: wait until the command has completed
 *
 * Unlocks the queue.
 */
cl_int vcl_command_end(struct vcl_command *cmd, struct vcl_host_action *action,
		       cl_event *event_out, bool blocking)
{
	cl_command_queue q = cmd->queue;
	cl_event e = cmd->event;
	struct vcl_lane *lane = &q->lanes[e->lane];
	cl_event put[2] = { NULL, NULL };
	cl_int status;
	unsigned int i;
	int ret;

	ret = vcl_command_close_locked(cmd);
	if (ret) {
		/*
		 * Not submitted (a queue that failed meanwhile refuses it with
		 * -ECANCELED): nothing will signal the event, the command
		 * failed here.
		 */
		if (ret == -ECANCELED)
			lane->failed = true;
		pthread_mutex_unlock(&q->lock);
		e->action = action;
		vcl_event_complete(e, vcl_errno_to_cl(ret));
		vcl_command_release(e);
		vcl_event_put(e);
		return vcl_errno_to_cl(ret);
	}
	e->action = action;
	if (event_out)
		vcl_ref_get(&e->ref);
	if (lane->pending_tail)
		lane->pending_tail->next_pending = e;
	else
		lane->pending_head = e;
	lane->pending_tail = e;
	lane->pending_count++;
	q->pending_count++;
	vcl_queue_note_latest_locked(q, e, put);
	pthread_cond_broadcast(&q->cond);
	pthread_mutex_unlock(&q->lock);
	for (i = 0; i < 2; i++)
		if (put[i])
			vcl_event_put(put[i]);
	vcl_event_submitted(e);
	if (event_out)
		*event_out = e;
	if (!blocking)
		return CL_SUCCESS;
	status = vcl_event_wait_complete(e);
	return status < 0 ? CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST : CL_SUCCESS;
}

/* Gives up a command begun by vcl_command_begin(), recorded or not. */
void vcl_command_abort(struct vcl_command *cmd)
{
	cl_command_queue q = cmd->queue;
	cl_event e = cmd->event;

	/* What was recorded runs; nobody waits for its signal. */
	vcl_command_close_locked(cmd);
	pthread_mutex_unlock(&q->lock);
	vcl_event_complete(e, CL_OUT_OF_RESOURCES);
	vcl_command_release(e);
	vcl_event_put(e);
}

CL_API_ENTRY cl_int CL_API_CALL
clFlush(cl_command_queue q)
{
	/* Every command is flushed as it is enqueued. */
	return vcl_queue_valid(q) ? CL_SUCCESS : CL_INVALID_COMMAND_QUEUE;
}

cl_int vcl_finish(cl_command_queue q)
{
	pthread_mutex_lock(&q->lock);
	while (q->pending_count)
		pthread_cond_wait(&q->cond, &q->lock);
	pthread_mutex_unlock(&q->lock);
	return CL_SUCCESS;
}

CL_API_ENTRY cl_int CL_API_CALL
clFinish(cl_command_queue q)
{
	if (!vcl_queue_valid(q))
		return CL_INVALID_COMMAND_QUEUE;
	return vcl_finish(q);
}
