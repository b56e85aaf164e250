// SPDX-License-Identifier: MIT
/*
 * Copyright 2026 The vaccel authors
 */

/**
 * DOC: Buffer commands
 *
 * Every buffer command is a command group of the queue (queue.c) whose
 * packets are the device's copies and fills, so that it runs in the
 * queue's order with the kernels around it:
 *
 * - A write copies the host's data into a staging BO when it is
 *   enqueued (the specification lets it read the host's memory any time
 *   before it completes), then the device copies them into the buffer.
 * - A read has the device copy the buffer into a staging BO; the queue's
 *   thread copies them to the host's memory once the copy has completed,
 *   and only then completes the event.
 * - A fill with a pattern of 1, 2 or 4 bytes, aligned, is the device's
 *   fill; other patterns are written out in a staging BO and copied.
 * - The rect forms are one copy per row, between the buffer and a
 *   staging BO that holds the host's rows packed.
 * - A map returns the buffer's own CPU mapping, once the work before it
 *   has completed; for a CL_MEM_USE_HOST_PTR buffer it returns the
 *   program's pointer, the queue's thread having copied the data there,
 *   and the unmap copies them back.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "icd.h"

/* A command's host part: staging BOs to free, data to copy to the host. */
struct vcl_transfer {
	struct vcl_host_action action;
	struct vaccel_bo *staging;
	void *staging_cpu;
	/* A read's copy to the host: rows of row_size bytes. */
	void *host;
	size_t rows, row_size;
	size_t host_row_pitch, host_slice_pitch, rows_per_slice;
	/* A USE_HOST_PTR map: buffer to host, at map time. */
	void *map_src;
};

static void vcl_transfer_run(struct vcl_host_action *a)
{
	struct vcl_transfer *t = (struct vcl_transfer *)a;
	size_t r;

	if (a->error)
		return;
	if (t->map_src) {
		memcpy(t->host, t->map_src, t->row_size);
		return;
	}
	if (!t->host)
		return;
	for (r = 0; r < t->rows; r++) {
		size_t z = r / t->rows_per_slice, y = r % t->rows_per_slice;

		memcpy((char *)t->host + z * t->host_slice_pitch + y * t->host_row_pitch,
		       (char *)t->staging_cpu + r * t->row_size, t->row_size);
	}
}

static void vcl_transfer_fini(struct vcl_host_action *a)
{
	struct vcl_transfer *t = (struct vcl_transfer *)a;

	vaccel_bo_free(t->staging);
	free(t);
}

/*
 * A command's host part, with a staging BO of @staging bytes on @q's
 * device if @staging is not 0.  Return: it, or NULL with *@err set.
 */
static struct vcl_transfer *vcl_transfer_new(cl_command_queue q, size_t staging, cl_int *err)
{
	struct vcl_transfer *t = calloc(1, sizeof(*t));

	*err = CL_OUT_OF_HOST_MEMORY;
	if (!t)
		return NULL;
	t->action.run = vcl_transfer_run;
	t->action.fini = vcl_transfer_fini;
	t->rows_per_slice = 1;
	if (staging) {
		t->staging = vcl_staging_new(q->device, staging, &t->staging_cpu);
		if (!t->staging) {
			free(t);
			*err = CL_OUT_OF_RESOURCES;
			return NULL;
		}
	}
	*err = CL_SUCCESS;
	return t;
}

/* vcl_command_begin() for a command with a host part, which fails with it. */
static cl_int vcl_transfer_begin(cl_command_queue q, cl_command_type type, cl_uint num_events,
				 const cl_event *wait_list, struct vcl_command *cmd,
				 struct vcl_transfer *t)
{
	cl_int err = vcl_command_begin(q, type, num_events, wait_list, cmd);

	if (err && t)
		t->action.fini(&t->action);
	return err;
}

static cl_int vcl_check_buffer(cl_command_queue q, cl_mem m, size_t offset, size_t size)
{
	if (!vcl_queue_valid(q))
		return CL_INVALID_COMMAND_QUEUE;
	if (!vcl_mem_valid(m))
		return CL_INVALID_MEM_OBJECT;
	if (m->ctx != q->ctx)
		return CL_INVALID_CONTEXT;
	if (offset > m->size || size > m->size - offset)
		return CL_INVALID_VALUE;
	return CL_SUCCESS;
}

/* Ends @cmd after a recording error @ret, or submits it. */
static cl_int vcl_command_finish(struct vcl_command *cmd, int ret,
				 struct vcl_transfer *t, cl_event *event, bool blocking)
{
	if (ret) {
		vcl_command_abort(cmd);
		if (t)
			t->action.fini(&t->action);
		return vcl_errno_to_cl(ret);
	}
	return vcl_command_end(cmd, t ? &t->action : NULL, event, blocking);
}

CL_API_ENTRY cl_int CL_API_CALL
clEnqueueWriteBuffer(cl_command_queue q, cl_mem m, cl_bool blocking, size_t offset,
		     size_t size, const void *ptr, cl_uint num_events,
		     const cl_event *wait_list, cl_event *event)
{
	struct vcl_command cmd;
	struct vcl_transfer *t;
	cl_int err;
	int ret;

	err = vcl_check_buffer(q, m, offset, size);
	if (err)
		return err;
	if (!ptr || !size)
		return CL_INVALID_VALUE;
	if (m->flags & (CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_NO_ACCESS))
		return CL_INVALID_OPERATION;
	t = vcl_transfer_new(q, size, &err);
	if (!t)
		return err;
	memcpy(t->staging_cpu, ptr, size);
	err = vcl_transfer_begin(q, CL_COMMAND_WRITE_BUFFER, num_events, wait_list, &cmd, t);
	if (err)
		return err;
	ret = vcl_command_hold(&cmd, m) ? -ENOMEM :
		vaccel_queue_copy(cmd.vq, vcl_mem_va(m, q->device) + offset,
				  vaccel_bo_va(t->staging), size);
	return vcl_command_finish(&cmd, ret, t, event, blocking);
}

CL_API_ENTRY cl_int CL_API_CALL
clEnqueueReadBuffer(cl_command_queue q, cl_mem m, cl_bool blocking, size_t offset,
		    size_t size, void *ptr, cl_uint num_events,
		    const cl_event *wait_list, cl_event *event)
{
	struct vcl_command cmd;
	struct vcl_transfer *t;
	cl_int err;
	int ret;

	err = vcl_check_buffer(q, m, offset, size);
	if (err)
		return err;
	if (!ptr || !size)
		return CL_INVALID_VALUE;
	if (m->flags & (CL_MEM_HOST_WRITE_ONLY | CL_MEM_HOST_NO_ACCESS))
		return CL_INVALID_OPERATION;
	t = vcl_transfer_new(q, size, &err);
	if (!t)
		return err;
	t->host = ptr;
	t->rows = 1;
	t->row_size = size;
	err = vcl_transfer_begin(q, CL_COMMAND_READ_BUFFER, num_events, wait_list, &cmd, t);
	if (err)
		return err;
	ret = vcl_command_hold(&cmd, m) ? -ENOMEM :
		vaccel_queue_copy(cmd.vq, vaccel_bo_va(t->staging),
				  vcl_mem_va(m, q->device) + offset, size);
	return vcl_command_finish(&cmd, ret, t, event, blocking);
}

CL_API_ENTRY cl_int CL_API_CALL
clEnqueueCopyBuffer(cl_command_queue q, cl_mem src, cl_mem dst, size_t src_offset,
		    size_t dst_offset, size_t size, cl_uint num_events,
		    const cl_event *wait_list, cl_event *event)
{
	struct vcl_command cmd;
	cl_int err;
	int ret;

	err = vcl_check_buffer(q, src, src_offset, size);
	if (!err)
		err = vcl_check_buffer(q, dst, dst_offset, size);
	if (err)
		return err;
	if (!size)
		return CL_INVALID_VALUE;
	if (src == dst && src_offset < dst_offset + size && dst_offset < src_offset + size)
		return CL_MEM_COPY_OVERLAP;
	if (src->parent == dst->parent && src->parent &&
	    src->offset + src_offset < dst->offset + dst_offset + size &&
	    dst->offset + dst_offset < src->offset + src_offset + size)
		return CL_MEM_COPY_OVERLAP;
	err = vcl_command_begin(q, CL_COMMAND_COPY_BUFFER, num_events, wait_list, &cmd);
	if (err)
		return err;
	ret = vcl_command_hold(&cmd, src) || vcl_command_hold(&cmd, dst) ? -ENOMEM :
		vaccel_queue_copy(cmd.vq, vcl_mem_va(dst, q->device) + dst_offset,
				  vcl_mem_va(src, q->device) + src_offset, size);
	return vcl_command_finish(&cmd, ret, NULL, event, false);
}

CL_API_ENTRY cl_int CL_API_CALL
clEnqueueFillBuffer(cl_command_queue q, cl_mem m, const void *pattern,
		    size_t pattern_size, size_t offset, size_t size, cl_uint num_events,
		    const cl_event *wait_list, cl_event *event)
{
	struct vcl_transfer *t = NULL;
	struct vcl_command cmd;
	uint64_t va;
	uint32_t word = 0;
	cl_int err;
	size_t i;
	int ret;

	err = vcl_check_buffer(q, m, offset, size);
	if (err)
		return err;
	if (!pattern || !pattern_size || pattern_size > 128 ||
	    (pattern_size & (pattern_size - 1)) || offset % pattern_size ||
	    size % pattern_size)
		return CL_INVALID_VALUE;
	va = vcl_mem_va(m, q->device) + offset;
	if (pattern_size <= 4 && !(va % 4) && !(size % 4)) {
		for (i = 0; i < 4; i += pattern_size)
			memcpy((char *)&word + i, pattern, pattern_size);
	} else {
		t = vcl_transfer_new(q, size, &err);
		if (!t)
			return err;
		for (i = 0; i < size; i += pattern_size)
			memcpy((char *)t->staging_cpu + i, pattern, pattern_size);
	}
	err = vcl_transfer_begin(q, CL_COMMAND_FILL_BUFFER, num_events, wait_list, &cmd, t);
	if (err)
		return err;
	if (vcl_command_hold(&cmd, m))
		ret = -ENOMEM;
	else if (t)
		ret = vaccel_queue_copy(cmd.vq, va, vaccel_bo_va(t->staging), size);
	else
		ret = vaccel_queue_fill(cmd.vq, va, size, word);
	return vcl_command_finish(&cmd, ret, t, event, false);
}

/* The rect's rows: origin and pitches of one side, in bytes. */
struct vcl_rect {
	size_t origin;			/* byte offset of the region's first row */
	size_t row_pitch, slice_pitch;
};

static cl_int vcl_rect_side(const size_t *origin, const size_t *region,
			    size_t *row_pitch, size_t *slice_pitch, struct vcl_rect *r)
{
	if (!*row_pitch)
		*row_pitch = region[0];
	else if (*row_pitch < region[0])
		return CL_INVALID_VALUE;
	if (!*slice_pitch)
		*slice_pitch = region[1] * *row_pitch;
	else if (*slice_pitch < region[1] * *row_pitch || *slice_pitch % *row_pitch)
		return CL_INVALID_VALUE;
	r->row_pitch = *row_pitch;
	r->slice_pitch = *slice_pitch;
	r->origin = origin[2] * *slice_pitch + origin[1] * *row_pitch + origin[0];
	return CL_SUCCESS;
}

/* The last byte a rect touches, plus one. */
static size_t vcl_rect_end(const struct vcl_rect *r, const size_t *region)
{
	return r->origin + (region[2] - 1) * r->slice_pitch +
		(region[1] - 1) * r->row_pitch + region[0];
}

/* Records a copy of each row of @region between two rects. */
static int vcl_rect_copy(struct vaccel_queue *vq, uint64_t dst_va, const struct vcl_rect *d,
			 uint64_t src_va, const struct vcl_rect *s, const size_t *region)
{
	size_t y, z;
	int ret;

	for (z = 0; z < region[2]; z++)
		for (y = 0; y < region[1]; y++) {
			ret = vaccel_queue_copy(vq,
						dst_va + d->origin + z * d->slice_pitch + y * d->row_pitch,
						src_va + s->origin + z * s->slice_pitch + y * s->row_pitch,
						region[0]);
			if (ret)
				return ret;
		}
	return 0;
}

static cl_int vcl_check_region(const size_t *a, const size_t *b, const size_t *region)
{
	if (!a || !b || !region || !region[0] || !region[1] || !region[2])
		return CL_INVALID_VALUE;
	return CL_SUCCESS;
}

/* A host or buffer rect, checked against the buffer's size. */
static cl_int vcl_rect_buffer(cl_mem m, const size_t *origin, const size_t *region,
			      size_t *row_pitch, size_t *slice_pitch, struct vcl_rect *r)
{
	cl_int err = vcl_rect_side(origin, region, row_pitch, slice_pitch, r);

	if (err)
		return err;
	if (vcl_rect_end(r, region) > m->size)
		return CL_INVALID_VALUE;
	return CL_SUCCESS;
}

static cl_int vcl_rect_transfer(cl_command_queue q, cl_mem m, bool read, cl_bool blocking,
				const size_t *buffer_origin, const size_t *host_origin,
				const size_t *region, size_t buffer_row_pitch,
				size_t buffer_slice_pitch, size_t host_row_pitch,
				size_t host_slice_pitch, void *ptr, cl_uint num_events,
				const cl_event *wait_list, cl_event *event)
{
	struct vcl_rect b, h, packed = { 0 };
	struct vcl_command cmd;
	struct vcl_transfer *t;
	cl_int err;
	size_t rows, r;
	int ret;

	if (!vcl_queue_valid(q))
		return CL_INVALID_COMMAND_QUEUE;
	if (!vcl_mem_valid(m))
		return CL_INVALID_MEM_OBJECT;
	if (m->ctx != q->ctx)
		return CL_INVALID_CONTEXT;
	err = vcl_check_region(buffer_origin, host_origin, region);
	if (err || !ptr)
		return CL_INVALID_VALUE;
	if (m->flags & (CL_MEM_HOST_NO_ACCESS |
			(read ? CL_MEM_HOST_WRITE_ONLY : CL_MEM_HOST_READ_ONLY)))
		return CL_INVALID_OPERATION;
	err = vcl_rect_buffer(m, buffer_origin, region, &buffer_row_pitch,
			      &buffer_slice_pitch, &b);
	if (!err)
		err = vcl_rect_side(host_origin, region, &host_row_pitch, &host_slice_pitch, &h);
	if (err)
		return err;
	rows = region[1] * region[2];
	t = vcl_transfer_new(q, rows * region[0], &err);
	if (!t)
		return err;
	t->rows = rows;
	t->row_size = region[0];
	t->rows_per_slice = region[1];
	t->host_row_pitch = h.row_pitch;
	t->host_slice_pitch = h.slice_pitch;
	t->host = (char *)ptr + h.origin;
	packed.row_pitch = region[0];
	packed.slice_pitch = rows ? region[0] * region[1] : 0;
	if (!read) {
		/* The host's rows, packed now; the action copies nothing back. */
		for (r = 0; r < rows; r++) {
			size_t z = r / region[1], y = r % region[1];

			memcpy((char *)t->staging_cpu + r * region[0],
			       (char *)t->host + z * h.slice_pitch + y * h.row_pitch, region[0]);
		}
		t->host = NULL;
	}
	err = vcl_transfer_begin(q, read ? CL_COMMAND_READ_BUFFER_RECT :
				 CL_COMMAND_WRITE_BUFFER_RECT, num_events, wait_list, &cmd, t);
	if (err)
		return err;
	if (vcl_command_hold(&cmd, m))
		ret = -ENOMEM;
	else if (read)
		ret = vcl_rect_copy(cmd.vq, vaccel_bo_va(t->staging), &packed,
				    vcl_mem_va(m, q->device), &b, region);
	else
		ret = vcl_rect_copy(cmd.vq, vcl_mem_va(m, q->device), &b,
				    vaccel_bo_va(t->staging), &packed, region);
	return vcl_command_finish(&cmd, ret, t, event, blocking);
}

CL_API_ENTRY cl_int CL_API_CALL
clEnqueueReadBufferRect(cl_command_queue q, cl_mem m, cl_bool blocking,
			const size_t *buffer_origin, const size_t *host_origin,
			const size_t *region, size_t buffer_row_pitch,
			size_t buffer_slice_pitch, size_t host_row_pitch,
			size_t host_slice_pitch, void *ptr, cl_uint num_events,
			const cl_event *wait_list, cl_event *event)
{
	return vcl_rect_transfer(q, m, true, blocking, buffer_origin, host_origin, region,
				 buffer_row_pitch, buffer_slice_pitch, host_row_pitch,
				 host_slice_pitch, ptr, num_events, wait_list, event);
}

CL_API_ENTRY cl_int CL_API_CALL
clEnqueueWriteBufferRect(cl_command_queue q, cl_mem m, cl_bool blocking,
			 const size_t *buffer_origin, const size_t *host_origin,
			 const size_t *region, size_t buffer_row_pitch,
			 size_t buffer_slice_pitch, size_t host_row_pitch,
			 size_t host_slice_pitch, const void *ptr, cl_uint num_events,
			 const cl_event *wait_list, cl_event *event)
{
	return vcl_rect_transfer(q, m, false, blocking, buffer_origin, host_origin, region,
				 buffer_row_pitch, buffer_slice_pitch, host_row_pitch,
				 host_slice_pitch, (void *)ptr, num_events, wait_list, event);
}

CL_API_ENTRY cl_int CL_API_CALL
clEnqueueCopyBufferRect(cl_command_queue q, cl_mem src, cl_mem dst,
			const size_t *src_origin, const size_t *dst_origin,
			const size_t *region, size_t src_row_pitch, size_t src_slice_pitch,
			size_t dst_row_pitch, size_t dst_slice_pitch, cl_uint num_events,
			const cl_event *wait_list, cl_event *event)
{
	struct vcl_rect s, d;
	struct vcl_command cmd;
	cl_int err;
	int ret;

	if (!vcl_queue_valid(q))
		return CL_INVALID_COMMAND_QUEUE;
	if (!vcl_mem_valid(src) || !vcl_mem_valid(dst))
		return CL_INVALID_MEM_OBJECT;
	if (src->ctx != q->ctx || dst->ctx != q->ctx)
		return CL_INVALID_CONTEXT;
	err = vcl_check_region(src_origin, dst_origin, region);
	if (!err)
		err = vcl_rect_buffer(src, src_origin, region, &src_row_pitch,
				      &src_slice_pitch, &s);
	if (!err)
		err = vcl_rect_buffer(dst, dst_origin, region, &dst_row_pitch,
				      &dst_slice_pitch, &d);
	if (err)
		return err;
	if (src == dst) {
		/* The same buffer: the pitches must agree, and the regions not overlap. */
		if (src_row_pitch != dst_row_pitch || src_slice_pitch != dst_slice_pitch)
			return CL_INVALID_VALUE;
		if (s.origin < vcl_rect_end(&d, region) && d.origin < vcl_rect_end(&s, region))
			return CL_MEM_COPY_OVERLAP;
	}
	err = vcl_command_begin(q, CL_COMMAND_COPY_BUFFER_RECT, num_events, wait_list, &cmd);
	if (err)
		return err;
	ret = vcl_command_hold(&cmd, src) || vcl_command_hold(&cmd, dst) ? -ENOMEM :
		vcl_rect_copy(cmd.vq, vcl_mem_va(dst, q->device), &d,
			      vcl_mem_va(src, q->device), &s, region);
	return vcl_command_finish(&cmd, ret, NULL, event, false);
}

/* Takes the newest mapping of @m at @ptr off its list; NULL if none. */
static struct vcl_map *vcl_map_take(cl_mem m, void *ptr)
{
	struct vcl_map **pp, *map = NULL;

	pthread_mutex_lock(&m->lock);
	for (pp = &m->maps; *pp; pp = &(*pp)->next)
		if ((*pp)->ptr == ptr) {
			map = *pp;
			*pp = map->next;
			m->map_count--;
			break;
		}
	pthread_mutex_unlock(&m->lock);
	return map;
}

static void vcl_map_put_back(cl_mem m, struct vcl_map *map)
{
	pthread_mutex_lock(&m->lock);
	map->next = m->maps;
	m->maps = map;
	m->map_count++;
	pthread_mutex_unlock(&m->lock);
}

CL_API_ENTRY void *CL_API_CALL
clEnqueueMapBuffer(cl_command_queue q, cl_mem m, cl_bool blocking, cl_map_flags flags,
		   size_t offset, size_t size, cl_uint num_events, const cl_event *wait_list,
		   cl_event *event, cl_int *errcode_ret)
{
	const cl_map_flags known = CL_MAP_READ | CL_MAP_WRITE | CL_MAP_WRITE_INVALIDATE_REGION;
	struct vcl_map *map = calloc(1, sizeof(*map));
	struct vcl_transfer *t = NULL;
	struct vcl_command cmd;
	void *ptr = NULL;
	cl_int err;

	err = vcl_check_buffer(q, m, offset, size);
	if (err)
		goto out;
	if (!map) {
		err = CL_OUT_OF_HOST_MEMORY;
		goto out;
	}
	if (!size || (flags & ~known) ||
	    ((flags & CL_MAP_WRITE_INVALIDATE_REGION) && (flags & (CL_MAP_READ | CL_MAP_WRITE)))) {
		err = CL_INVALID_VALUE;
		goto out;
	}
	if ((m->flags & CL_MEM_HOST_NO_ACCESS) ||
	    ((flags & CL_MAP_READ) && (m->flags & CL_MEM_HOST_WRITE_ONLY)) ||
	    ((flags & (CL_MAP_WRITE | CL_MAP_WRITE_INVALIDATE_REGION)) &&
	     (m->flags & CL_MEM_HOST_READ_ONLY))) {
		err = CL_INVALID_OPERATION;
		goto out;
	}
	if (m->host_ptr) {
		ptr = (char *)m->host_ptr + offset;
		if (!(flags & CL_MAP_WRITE_INVALIDATE_REGION)) {
			t = vcl_transfer_new(q, 0, &err);
			if (!t)
				goto out;
			t->host = ptr;
			t->map_src = (char *)vcl_mem_cpu(m) + offset;
			t->row_size = size;
		}
	} else {
		ptr = (char *)vcl_mem_cpu(m) + offset;
	}
	err = vcl_transfer_begin(q, CL_COMMAND_MAP_BUFFER, num_events, wait_list, &cmd, t);
	if (err) {
		ptr = NULL;
		goto out;
	}
	if (vcl_command_hold(&cmd, m)) {
		vcl_command_abort(&cmd);
		if (t)
			t->action.fini(&t->action);
		err = CL_OUT_OF_HOST_MEMORY;
		ptr = NULL;
		goto out;
	}
	map->ptr = ptr;
	map->size = size;
	map->write = flags & (CL_MAP_WRITE | CL_MAP_WRITE_INVALIDATE_REGION);
	pthread_mutex_lock(&m->lock);
	map->next = m->maps;
	m->maps = map;
	m->map_count++;
	pthread_mutex_unlock(&m->lock);
	map = NULL;
	err = vcl_command_end(&cmd, t ? &t->action : NULL, event, blocking);
	if (err) {
		/* Not mapped after all. */
		map = vcl_map_take(m, ptr);
		ptr = NULL;
	}
out:
	free(map);
	if (errcode_ret)
		*errcode_ret = err;
	return ptr;
}

CL_API_ENTRY cl_int CL_API_CALL
clEnqueueUnmapMemObject(cl_command_queue q, cl_mem m, void *mapped, cl_uint num_events,
			const cl_event *wait_list, cl_event *event)
{
	struct vcl_command cmd;
	struct vcl_map *map;
	cl_int err;

	if (!vcl_queue_valid(q))
		return CL_INVALID_COMMAND_QUEUE;
	if (!vcl_mem_valid(m))
		return CL_INVALID_MEM_OBJECT;
	if (m->ctx != q->ctx)
		return CL_INVALID_CONTEXT;
	map = vcl_map_take(m, mapped);
	if (!map)
		return CL_INVALID_VALUE;
	err = vcl_command_begin(q, CL_COMMAND_UNMAP_MEM_OBJECT, num_events, wait_list, &cmd);
	if (err) {
		vcl_map_put_back(m, map);
		return err;
	}
	/*
	 * The program's data of a region mapped for writing go back into the
	 * buffer before the commands after the unmap: the device does not
	 * touch a mapped region meanwhile, as the specification requires of
	 * programs.
	 */
	if (m->host_ptr && map->write)
		memcpy((char *)vcl_mem_cpu(m) + ((char *)mapped - (char *)m->host_ptr), mapped,
		       map->size);
	free(map);
	return vcl_command_end(&cmd, NULL, event, false);
}

/*
 * A command with nothing for the device: an empty group, which signals
 * once the work before it has completed.  A queue runs in order, so
 * this is a marker, a barrier and a migration alike.
 */
static cl_int vcl_enqueue_empty(cl_command_queue q, cl_command_type type, cl_uint num_events,
				const cl_event *wait_list, cl_event *event)
{
	struct vcl_command cmd;
	cl_int err;

	err = vcl_command_begin(q, type, num_events, wait_list, &cmd);
	if (err)
		return err;
	return vcl_command_end(&cmd, NULL, event, false);
}

CL_API_ENTRY cl_int CL_API_CALL
clEnqueueMarkerWithWaitList(cl_command_queue q, cl_uint num_events,
			    const cl_event *wait_list, cl_event *event)
{
	return vcl_enqueue_empty(q, CL_COMMAND_MARKER, num_events, wait_list, event);
}

CL_API_ENTRY cl_int CL_API_CALL
clEnqueueBarrierWithWaitList(cl_command_queue q, cl_uint num_events,
			     const cl_event *wait_list, cl_event *event)
{
	return vcl_enqueue_empty(q, CL_COMMAND_BARRIER, num_events, wait_list, event);
}

CL_API_ENTRY cl_int CL_API_CALL
clEnqueueMarker(cl_command_queue q, cl_event *event)
{
	if (!event)
		return CL_INVALID_VALUE;
	return clEnqueueMarkerWithWaitList(q, 0, NULL, event);
}

CL_API_ENTRY cl_int CL_API_CALL
clEnqueueBarrier(cl_command_queue q)
{
	return clEnqueueBarrierWithWaitList(q, 0, NULL, NULL);
}

CL_API_ENTRY cl_int CL_API_CALL
clEnqueueWaitForEvents(cl_command_queue q, cl_uint num_events, const cl_event *events)
{
	if (!num_events || !events)
		return CL_INVALID_VALUE;
	return clEnqueueBarrierWithWaitList(q, num_events, events, NULL);
}

CL_API_ENTRY cl_int CL_API_CALL
clEnqueueMigrateMemObjects(cl_command_queue q, cl_uint num_mems, const cl_mem *mems,
			   cl_mem_migration_flags flags, cl_uint num_events,
			   const cl_event *wait_list, cl_event *event)
{
	const cl_mem_migration_flags known = CL_MIGRATE_MEM_OBJECT_HOST |
		CL_MIGRATE_MEM_OBJECT_CONTENT_UNDEFINED;
	cl_uint i;

	if (!vcl_queue_valid(q))
		return CL_INVALID_COMMAND_QUEUE;
	if (!num_mems || !mems || (flags & ~known))
		return CL_INVALID_VALUE;
	for (i = 0; i < num_mems; i++) {
		if (!vcl_mem_valid(mems[i]))
			return CL_INVALID_MEM_OBJECT;
		if (mems[i]->ctx != q->ctx)
			return CL_INVALID_CONTEXT;
	}
	/*
	 * Every device of the context sees every buffer already: the
	 * command orders, and moves nothing.
	 */
	return vcl_enqueue_empty(q, CL_COMMAND_MIGRATE_MEM_OBJECTS, num_events, wait_list,
				 event);
}
