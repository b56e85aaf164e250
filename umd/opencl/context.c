// SPDX-License-Identifier: MIT
/*
 * Copyright 2026 The vaccel authors
 */

/**
 * DOC: Contexts
 *
 * A context is a set of devices of the platform, the properties it was
 * made with, and the notification callback that hears of errors as they
 * happen (a kernel's fault, with the kernel, its function and the source
 * line).  Its buffers have a BO on each of its devices; its queues, a
 * vaccel queue of one of them.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "icd.h"

bool vcl_context_valid(cl_context c)
{
	return VCL_VALID(c, VCL_MAGIC_CONTEXT);
}

int vcl_context_device_index(cl_context c, cl_device_id d)
{
	cl_uint i;

	for (i = 0; i < c->num_devices; i++)
		if (c->devices[i] == d)
			return (int)i;
	return -1;
}

void vcl_context_notify(cl_context c, const char *fmt, ...)
{
	char msg[1024];
	va_list ap;

	if (!c->notify)
		return;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	c->notify(msg, NULL, 0, c->notify_data);
}

/* Checks the properties and copies them; CL_INVALID_PROPERTY for others. */
static cl_int vcl_context_props(cl_context c, const cl_context_properties *props)
{
	size_t n = 0;

	if (!props)
		return CL_SUCCESS;
	for (; props[n]; n += 2) {
		switch (props[n]) {
		case CL_CONTEXT_PLATFORM:
			if ((cl_platform_id)props[n + 1] != &vcl_platform)
				return CL_INVALID_PLATFORM;
			break;
		case CL_CONTEXT_INTEROP_USER_SYNC:
			break;
		default:
			return CL_INVALID_PROPERTY;
		}
		/* Each property once. */
		for (size_t i = 0; i < n; i += 2)
			if (props[i] == props[n])
				return CL_INVALID_PROPERTY;
	}
	c->props_size = (n + 1) * sizeof(*props);
	c->props = malloc(c->props_size);
	if (!c->props)
		return CL_OUT_OF_HOST_MEMORY;
	memcpy(c->props, props, c->props_size);
	return CL_SUCCESS;
}

static void vcl_context_free(cl_context c)
{
	c->magic = 0;
	pthread_mutex_destroy(&c->lock);
	free(c->devices);
	free(c->props);
	free(c);
}

CL_API_ENTRY cl_context CL_API_CALL
clCreateContext(const cl_context_properties *props, cl_uint num_devices,
		const cl_device_id *devices,
		void (CL_CALLBACK *notify)(const char *, const void *, size_t, void *),
		void *user_data, cl_int *errcode_ret)
{
	cl_context c = NULL;
	cl_int err = CL_SUCCESS;
	cl_uint i, j;

	if (!num_devices || !devices || (!notify && user_data)) {
		err = CL_INVALID_VALUE;
		goto out;
	}
	for (i = 0; i < num_devices; i++) {
		if (!vcl_device_valid(devices[i])) {
			err = CL_INVALID_DEVICE;
			goto out;
		}
		for (j = 0; j < i; j++)
			if (devices[j] == devices[i]) {
				err = CL_INVALID_DEVICE;
				goto out;
			}
	}
	c = calloc(1, sizeof(*c));
	if (!c) {
		err = CL_OUT_OF_HOST_MEMORY;
		goto out;
	}
	c->dispatch = &vcl_dispatch;
	c->magic = VCL_MAGIC_CONTEXT;
	vcl_ref_init(&c->ref);
	pthread_mutex_init(&c->lock, NULL);
	c->notify = notify;
	c->notify_data = user_data;
	err = vcl_context_props(c, props);
	if (err)
		goto out;
	c->devices = malloc(num_devices * sizeof(*devices));
	if (!c->devices) {
		err = CL_OUT_OF_HOST_MEMORY;
		goto out;
	}
	memcpy(c->devices, devices, num_devices * sizeof(*devices));
	c->num_devices = num_devices;
out:
	if (err && c) {
		vcl_context_free(c);
		c = NULL;
	}
	if (errcode_ret)
		*errcode_ret = err;
	return c;
}

CL_API_ENTRY cl_context CL_API_CALL
clCreateContextFromType(const cl_context_properties *props, cl_device_type type,
			void (CL_CALLBACK *notify)(const char *, const void *, size_t, void *),
			void *user_data, cl_int *errcode_ret)
{
	cl_device_id devices[16];
	cl_uint n = 0;
	cl_int err;

	err = clGetDeviceIDs(NULL, type, 16, devices, &n);
	if (err) {
		if (errcode_ret)
			*errcode_ret = err;
		return NULL;
	}
	return clCreateContext(props, n, devices, notify, user_data, errcode_ret);
}

CL_API_ENTRY cl_int CL_API_CALL
clRetainContext(cl_context c)
{
	if (!vcl_context_valid(c))
		return CL_INVALID_CONTEXT;
	vcl_ref_get(&c->ref);
	return CL_SUCCESS;
}

CL_API_ENTRY cl_int CL_API_CALL
clReleaseContext(cl_context c)
{
	struct vcl_callback *cb, *next;

	if (!vcl_context_valid(c))
		return CL_INVALID_CONTEXT;
	if (!vcl_ref_put(&c->ref))
		return CL_SUCCESS;
	/* Last registered, first called. */
	for (cb = c->destructors; cb; cb = next) {
		next = cb->next;
		cb->fn.context(c, cb->user_data);
		free(cb);
	}
	vcl_context_free(c);
	return CL_SUCCESS;
}

CL_API_ENTRY cl_int CL_API_CALL
clGetContextInfo(cl_context c, cl_context_info param_name, size_t param_value_size,
		 void *param_value, size_t *param_value_size_ret)
{
	cl_uint u;

	if (!vcl_context_valid(c))
		return CL_INVALID_CONTEXT;
	switch (param_name) {
	case CL_CONTEXT_REFERENCE_COUNT:
		u = atomic_load(&c->ref.count);
		return VCL_INFO(u);
	case CL_CONTEXT_NUM_DEVICES:
		return VCL_INFO(c->num_devices);
	case CL_CONTEXT_DEVICES:
		return vcl_info(c->devices, c->num_devices * sizeof(cl_device_id),
				param_value_size, param_value, param_value_size_ret);
	case CL_CONTEXT_PROPERTIES:
		return vcl_info(c->props, c->props ? c->props_size : 0,
				param_value_size, param_value, param_value_size_ret);
	default:
		return CL_INVALID_VALUE;
	}
}

CL_API_ENTRY cl_int CL_API_CALL
clSetContextDestructorCallback(cl_context c,
			       void (CL_CALLBACK *fn)(cl_context, void *),
			       void *user_data)
{
	struct vcl_callback *cb;

	if (!vcl_context_valid(c))
		return CL_INVALID_CONTEXT;
	if (!fn)
		return CL_INVALID_VALUE;
	cb = malloc(sizeof(*cb));
	if (!cb)
		return CL_OUT_OF_HOST_MEMORY;
	cb->fn.context = fn;
	cb->user_data = user_data;
	pthread_mutex_lock(&c->lock);
	cb->next = c->destructors;
	c->destructors = cb;
	pthread_mutex_unlock(&c->lock);
	return CL_SUCCESS;
}
