// SPDX-License-Identifier: MIT
/*
 * Copyright 2026 The vaccel authors
 */

/**
 * DOC: Buffers
 *
 * A buffer is a BO of libvaccel, allocated on the context's first device,
 * mapped for the CPU, and shared with the context's other devices through
 * a dma-buf: every device sees the same memory at an address of its own.
 * A sub-buffer is an offset and a size into its parent's BOs.
 *
 * - CL_MEM_COPY_HOST_PTR copies the host's data in when the buffer is
 *   made.
 * - CL_MEM_USE_HOST_PTR keeps the host's pointer: the buffer's data live
 *   in the BO, and mapping the buffer copies them to the host's memory
 *   (unmapping copies them back), so that the pointer clEnqueueMapBuffer()
 *   returns is the program's own, as the specification asks.
 * - CL_MEM_ALLOC_HOST_PTR is what every buffer is: memory the host can map.
 * - The host access flags (CL_MEM_HOST_*) are checked by the commands.
 *
 * Commands that use a buffer hold a reference to it until they complete,
 * so that a buffer released while the device still uses it lives on until
 * then.  Its destructor callbacks run when it is finally freed.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "icd.h"

#define VCL_PAGE	4096u

bool vcl_mem_valid(cl_mem m)
{
	return VCL_VALID(m, VCL_MAGIC_MEM);
}

static cl_mem vcl_mem_root(cl_mem m)
{
	return m->parent ? m->parent : m;
}

struct vaccel_bo *vcl_mem_bo(cl_mem m, cl_device_id d)
{
	int i = vcl_context_device_index(m->ctx, d);

	return i < 0 ? NULL : vcl_mem_root(m)->bos[i];
}

uint64_t vcl_mem_va(cl_mem m, cl_device_id d)
{
	return vaccel_bo_va(vcl_mem_bo(m, d)) + m->offset;
}

void *vcl_mem_cpu(cl_mem m)
{
	return (char *)vcl_mem_root(m)->cpu + m->offset;
}

/* A BO for the host's side of a transfer, mapped; freed with vaccel_bo_free(). */
struct vaccel_bo *vcl_staging_new(cl_device_id d, size_t size, void **cpu)
{
	struct vaccel_bo *bo;

	if (vaccel_bo_alloc(d->dev, size ? size : 1, VACCEL_BO_GPU_NO_EXEC, &bo))
		return NULL;
	if (vaccel_bo_map(bo, cpu)) {
		vaccel_bo_free(bo);
		return NULL;
	}
	return bo;
}

static void vcl_mem_free(cl_mem m)
{
	struct vcl_callback *cb, *next;
	cl_uint i;

	m->magic = 0;
	/* Mappings the program never unmapped go with the buffer. */
	while (m->maps) {
		struct vcl_map *map = m->maps;

		m->maps = map->next;
		free(map);
	}
	/* Last registered, first called. */
	for (cb = m->destructors; cb; cb = next) {
		next = cb->next;
		cb->fn.mem(m, cb->user_data);
		free(cb);
	}
	if (m->parent) {
		vcl_mem_put(m->parent);
	} else if (m->bos) {
		for (i = 0; i < m->ctx->num_devices; i++)
			vaccel_bo_free(m->bos[i]);
		free(m->bos);
	}
	pthread_mutex_destroy(&m->lock);
	clReleaseContext(m->ctx);
	free(m->props);
	free(m);
}

void vcl_mem_put(cl_mem m)
{
	if (vcl_ref_put(&m->ref))
		vcl_mem_free(m);
}

/* The flags of a buffer: CL_INVALID_VALUE for a combination that is not. */
static cl_int vcl_mem_check_flags(cl_mem_flags flags)
{
	const cl_mem_flags known = CL_MEM_READ_WRITE | CL_MEM_WRITE_ONLY |
		CL_MEM_READ_ONLY | CL_MEM_USE_HOST_PTR | CL_MEM_ALLOC_HOST_PTR |
		CL_MEM_COPY_HOST_PTR | CL_MEM_HOST_WRITE_ONLY | CL_MEM_HOST_READ_ONLY |
		CL_MEM_HOST_NO_ACCESS;
	cl_mem_flags access = flags & (CL_MEM_READ_WRITE | CL_MEM_WRITE_ONLY |
				       CL_MEM_READ_ONLY);
	cl_mem_flags host = flags & (CL_MEM_HOST_WRITE_ONLY | CL_MEM_HOST_READ_ONLY |
				     CL_MEM_HOST_NO_ACCESS);

	if (flags & ~known)
		return CL_INVALID_VALUE;
	if (access & (access - 1))
		return CL_INVALID_VALUE;
	if (host & (host - 1))
		return CL_INVALID_VALUE;
	if ((flags & CL_MEM_USE_HOST_PTR) &&
	    (flags & (CL_MEM_ALLOC_HOST_PTR | CL_MEM_COPY_HOST_PTR)))
		return CL_INVALID_VALUE;
	return CL_SUCCESS;
}

static cl_mem vcl_mem_new(cl_context ctx, cl_mem_flags flags, size_t size)
{
	cl_mem m = calloc(1, sizeof(*m));

	if (!m)
		return NULL;
	m->dispatch = &vcl_dispatch;
	m->magic = VCL_MAGIC_MEM;
	vcl_ref_init(&m->ref);
	pthread_mutex_init(&m->lock, NULL);
	m->ctx = ctx;
	m->flags = flags;
	m->size = size;
	clRetainContext(ctx);
	return m;
}

/* The root's BOs: one on the first device, shared with the others. */
static cl_int vcl_mem_alloc(cl_mem m)
{
	cl_context ctx = m->ctx;
	size_t size = (m->size + VCL_PAGE - 1) & ~(size_t)(VCL_PAGE - 1);
	cl_uint i;
	int fd, ret;

	m->bos = calloc(ctx->num_devices, sizeof(*m->bos));
	if (!m->bos)
		return CL_OUT_OF_HOST_MEMORY;
	ret = vaccel_bo_alloc(ctx->devices[0]->dev, size, VACCEL_BO_GPU_NO_EXEC, &m->bos[0]);
	if (ret)
		return ret == -ENOMEM ? CL_OUT_OF_HOST_MEMORY : CL_MEM_OBJECT_ALLOCATION_FAILURE;
	if (vaccel_bo_map(m->bos[0], &m->cpu))
		return CL_MEM_OBJECT_ALLOCATION_FAILURE;
	for (i = 1; i < ctx->num_devices; i++) {
		if (vaccel_bo_export(m->bos[0], &fd))
			return CL_MEM_OBJECT_ALLOCATION_FAILURE;
		ret = vaccel_bo_import(ctx->devices[i]->dev, fd, &m->bos[i]);
		close(fd);
		if (ret)
			return CL_MEM_OBJECT_ALLOCATION_FAILURE;
	}
	return CL_SUCCESS;
}

static cl_ulong vcl_context_max_alloc(cl_context ctx)
{
	cl_ulong max = ~0ull, v;
	cl_uint i;

	for (i = 0; i < ctx->num_devices; i++) {
		clGetDeviceInfo(ctx->devices[i], CL_DEVICE_MAX_MEM_ALLOC_SIZE,
				sizeof(v), &v, NULL);
		if (v < max)
			max = v;
	}
	return max;
}

CL_API_ENTRY cl_mem CL_API_CALL
clCreateBufferWithProperties(cl_context ctx, const cl_mem_properties *props,
			     cl_mem_flags flags, size_t size, void *host_ptr,
			     cl_int *errcode_ret)
{
	cl_mem m = NULL;
	cl_int err;

	if (!vcl_context_valid(ctx)) {
		err = CL_INVALID_CONTEXT;
		goto out;
	}
	if (props && props[0]) {
		/* No buffer property is defined for this platform. */
		err = CL_INVALID_PROPERTY;
		goto out;
	}
	if (!flags)
		flags = CL_MEM_READ_WRITE;
	err = vcl_mem_check_flags(flags);
	if (err)
		goto out;
	if (!size || size > vcl_context_max_alloc(ctx)) {
		err = CL_INVALID_BUFFER_SIZE;
		goto out;
	}
	if (!host_ptr != !(flags & (CL_MEM_USE_HOST_PTR | CL_MEM_COPY_HOST_PTR))) {
		err = CL_INVALID_HOST_PTR;
		goto out;
	}
	m = vcl_mem_new(ctx, flags, size);
	if (!m) {
		err = CL_OUT_OF_HOST_MEMORY;
		goto out;
	}
	if (props) {
		m->props_size = sizeof(*props);
		m->props = calloc(1, sizeof(*props));
		if (!m->props) {
			err = CL_OUT_OF_HOST_MEMORY;
			goto out;
		}
	}
	err = vcl_mem_alloc(m);
	if (err)
		goto out;
	if (flags & CL_MEM_USE_HOST_PTR)
		m->host_ptr = host_ptr;
	if (host_ptr)
		memcpy(m->cpu, host_ptr, size);
out:
	if (err && m) {
		vcl_mem_free(m);
		m = NULL;
	}
	if (errcode_ret)
		*errcode_ret = err;
	return m;
}

CL_API_ENTRY cl_mem CL_API_CALL
clCreateBuffer(cl_context ctx, cl_mem_flags flags, size_t size, void *host_ptr,
	       cl_int *errcode_ret)
{
	return clCreateBufferWithProperties(ctx, NULL, flags, size, host_ptr, errcode_ret);
}

CL_API_ENTRY cl_mem CL_API_CALL
clCreateSubBuffer(cl_mem parent, cl_mem_flags flags,
		  cl_buffer_create_type type, const void *info, cl_int *errcode_ret)
{
	const cl_buffer_region *region = info;
	const cl_mem_flags access = CL_MEM_READ_WRITE | CL_MEM_WRITE_ONLY | CL_MEM_READ_ONLY;
	const cl_mem_flags host = CL_MEM_HOST_WRITE_ONLY | CL_MEM_HOST_READ_ONLY |
		CL_MEM_HOST_NO_ACCESS;
	cl_mem m = NULL;
	cl_int err = CL_SUCCESS;

	if (!vcl_mem_valid(parent) || parent->parent) {
		err = CL_INVALID_MEM_OBJECT;
		goto out;
	}
	if (flags & (CL_MEM_USE_HOST_PTR | CL_MEM_ALLOC_HOST_PTR | CL_MEM_COPY_HOST_PTR)) {
		err = CL_INVALID_VALUE;
		goto out;
	}
	err = vcl_mem_check_flags(flags);
	if (err)
		goto out;
	/* The access a sub-buffer asks for must be the parent's, or less. */
	if (((parent->flags & CL_MEM_WRITE_ONLY) && (flags & (CL_MEM_READ_WRITE | CL_MEM_READ_ONLY))) ||
	    ((parent->flags & CL_MEM_READ_ONLY) && (flags & (CL_MEM_READ_WRITE | CL_MEM_WRITE_ONLY))) ||
	    ((parent->flags & CL_MEM_HOST_WRITE_ONLY) && (flags & CL_MEM_HOST_READ_ONLY)) ||
	    ((parent->flags & CL_MEM_HOST_READ_ONLY) && (flags & CL_MEM_HOST_WRITE_ONLY)) ||
	    ((parent->flags & CL_MEM_HOST_NO_ACCESS) &&
	     (flags & (CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_WRITE_ONLY)))) {
		err = CL_INVALID_VALUE;
		goto out;
	}
	if (type != CL_BUFFER_CREATE_TYPE_REGION || !region) {
		err = CL_INVALID_VALUE;
		goto out;
	}
	if (!region->size) {
		err = CL_INVALID_BUFFER_SIZE;
		goto out;
	}
	if (region->origin > parent->size || region->size > parent->size - region->origin) {
		err = CL_INVALID_VALUE;
		goto out;
	}
	if (region->origin % VCL_PAGE) {
		err = CL_MISALIGNED_SUB_BUFFER_OFFSET;
		goto out;
	}
	if (!(flags & access))
		flags |= parent->flags & access;
	if (!(flags & host))
		flags |= parent->flags & host;
	flags |= parent->flags & (CL_MEM_USE_HOST_PTR | CL_MEM_ALLOC_HOST_PTR |
				  CL_MEM_COPY_HOST_PTR);
	m = vcl_mem_new(parent->ctx, flags, region->size);
	if (!m) {
		err = CL_OUT_OF_HOST_MEMORY;
		goto out;
	}
	vcl_ref_get(&parent->ref);
	m->parent = parent;
	m->offset = region->origin;
	if (parent->host_ptr)
		m->host_ptr = (char *)parent->host_ptr + region->origin;
out:
	if (errcode_ret)
		*errcode_ret = err;
	return m;
}

CL_API_ENTRY cl_int CL_API_CALL
clRetainMemObject(cl_mem m)
{
	if (!vcl_mem_valid(m))
		return CL_INVALID_MEM_OBJECT;
	vcl_ref_get(&m->ref);
	return CL_SUCCESS;
}

CL_API_ENTRY cl_int CL_API_CALL
clReleaseMemObject(cl_mem m)
{
	if (!vcl_mem_valid(m))
		return CL_INVALID_MEM_OBJECT;
	vcl_mem_put(m);
	return CL_SUCCESS;
}

CL_API_ENTRY cl_int CL_API_CALL
clSetMemObjectDestructorCallback(cl_mem m, void (CL_CALLBACK *fn)(cl_mem, void *),
				 void *user_data)
{
	struct vcl_callback *cb;

	if (!vcl_mem_valid(m))
		return CL_INVALID_MEM_OBJECT;
	if (!fn)
		return CL_INVALID_VALUE;
	cb = malloc(sizeof(*cb));
	if (!cb)
		return CL_OUT_OF_HOST_MEMORY;
	cb->fn.mem = fn;
	cb->user_data = user_data;
	pthread_mutex_lock(&m->lock);
	cb->next = m->destructors;
	m->destructors = cb;
	pthread_mutex_unlock(&m->lock);
	return CL_SUCCESS;
}

CL_API_ENTRY cl_int CL_API_CALL
clGetMemObjectInfo(cl_mem m, cl_mem_info param_name, size_t param_value_size,
		   void *param_value, size_t *param_value_size_ret)
{
	cl_mem_object_type type = CL_MEM_OBJECT_BUFFER;
	cl_bool b = CL_FALSE;
	cl_uint u;

	if (!vcl_mem_valid(m))
		return CL_INVALID_MEM_OBJECT;
	switch (param_name) {
	case CL_MEM_TYPE:
		return VCL_INFO(type);
	case CL_MEM_FLAGS:
		return VCL_INFO(m->flags);
	case CL_MEM_SIZE:
		return VCL_INFO(m->size);
	case CL_MEM_HOST_PTR:
		return VCL_INFO(m->host_ptr);
	case CL_MEM_MAP_COUNT:
		pthread_mutex_lock(&m->lock);
		u = m->map_count;
		pthread_mutex_unlock(&m->lock);
		return VCL_INFO(u);
	case CL_MEM_REFERENCE_COUNT:
		u = atomic_load(&m->ref.count);
		return VCL_INFO(u);
	case CL_MEM_CONTEXT:
		return VCL_INFO(m->ctx);
	case CL_MEM_ASSOCIATED_MEMOBJECT:
		return VCL_INFO(m->parent);
	case CL_MEM_OFFSET:
		return VCL_INFO(m->offset);
	case CL_MEM_USES_SVM_POINTER:
		return VCL_INFO(b);
	case CL_MEM_PROPERTIES:
		return vcl_info(m->props, m->props ? m->props_size : 0, param_value_size,
				param_value, param_value_size_ret);
	default:
		return CL_INVALID_VALUE;
	}
}
