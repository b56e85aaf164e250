// SPDX-License-Identifier: MIT
/*
 * Copyright 2026 The vaccel authors
 */

/**
 * DOC: The optional features
 *
 * OpenCL 3.0 makes images, samplers, pipes, shared virtual memory,
 * sub-groups, device-side queues and native kernels optional, and the
 * devices report none of them (platform.c).  Their entry points still
 * exist, for the ICD's dispatch table and for programs that probe them,
 * and answer as the specification says a device without the feature
 * must: CL_INVALID_OPERATION for what cannot be made, an empty list of
 * image formats, the object's error for an object that cannot exist.
 * The GL sharing entries answer the same way: no context shares with GL.
 */
#include <stddef.h>

#include "icd.h"

CL_API_ENTRY cl_mem CL_API_CALL
clCreateImage(cl_context context, cl_mem_flags flags, const cl_image_format *image_format,
	const cl_image_desc *image_desc, void *host_ptr, cl_int *errcode_ret)
{
	if (errcode_ret)
		*errcode_ret = vcl_context_valid(context) ? CL_INVALID_OPERATION : CL_INVALID_CONTEXT;
	return NULL;
}

CL_API_ENTRY cl_mem CL_API_CALL
clCreateImage2D(cl_context context, cl_mem_flags flags,
	const cl_image_format *image_format, size_t image_width, size_t image_height,
	size_t image_row_pitch, void *host_ptr, cl_int *errcode_ret)
{
	if (errcode_ret)
		*errcode_ret = vcl_context_valid(context) ? CL_INVALID_OPERATION : CL_INVALID_CONTEXT;
	return NULL;
}

CL_API_ENTRY cl_mem CL_API_CALL
clCreateImage3D(cl_context context, cl_mem_flags flags,
	const cl_image_format *image_format, size_t image_width, size_t image_height,
	size_t image_depth, size_t image_row_pitch, size_t image_slice_pitch,
	void *host_ptr, cl_int *errcode_ret)
{
	if (errcode_ret)
		*errcode_ret = vcl_context_valid(context) ? CL_INVALID_OPERATION : CL_INVALID_CONTEXT;
	return NULL;
}

CL_API_ENTRY cl_mem CL_API_CALL
clCreateImageWithProperties(cl_context context, const cl_mem_properties *properties,
	cl_mem_flags flags, const cl_image_format *image_format,
	const cl_image_desc *image_desc, void *host_ptr, cl_int *errcode_ret)
{
	if (errcode_ret)
		*errcode_ret = vcl_context_valid(context) ? CL_INVALID_OPERATION : CL_INVALID_CONTEXT;
	return NULL;
}

CL_API_ENTRY cl_int CL_API_CALL
clGetSupportedImageFormats(cl_context context, cl_mem_flags flags,
	cl_mem_object_type image_type, cl_uint num_entries,
	cl_image_format *image_formats, cl_uint *num_image_formats)
{
	if (!vcl_context_valid(context))
		return CL_INVALID_CONTEXT;
	if (!num_entries && image_formats)
		return CL_INVALID_VALUE;
	/* No device has images: the list is empty. */
	if (num_image_formats)
		*num_image_formats = 0;
	return CL_SUCCESS;
}

CL_API_ENTRY cl_int CL_API_CALL
clGetImageInfo(cl_mem image, cl_image_info param_name, size_t param_value_size,
	void *param_value, size_t *param_value_size_ret)
{
	return vcl_mem_valid(image) ? CL_INVALID_MEM_OBJECT : CL_INVALID_MEM_OBJECT;
}

CL_API_ENTRY cl_int CL_API_CALL
clEnqueueReadImage(cl_command_queue command_queue, cl_mem image, cl_bool blocking_read,
	const size_t *origin, const size_t *region, size_t row_pitch, size_t slice_pitch,
	void *ptr, cl_uint num_events_in_wait_list, const cl_event *event_wait_list,
	cl_event *event)
{
	return vcl_queue_valid(command_queue) ? CL_INVALID_OPERATION : CL_INVALID_COMMAND_QUEUE;
}

CL_API_ENTRY cl_int CL_API_CALL
clEnqueueWriteImage(cl_command_queue command_queue, cl_mem image, cl_bool blocking_write,
	const size_t *origin, const size_t *region, size_t input_row_pitch,
	size_t input_slice_pitch, const void *ptr, cl_uint num_events_in_wait_list,
	const cl_event *event_wait_list, cl_event *event)
{
	return vcl_queue_valid(command_queue) ? CL_INVALID_OPERATION : CL_INVALID_COMMAND_QUEUE;
}

CL_API_ENTRY cl_int CL_API_CALL
clEnqueueCopyImage(cl_command_queue command_queue, cl_mem src_image, cl_mem dst_image,
	const size_t *src_origin, const size_t *dst_origin, const size_t *region,
	cl_uint num_events_in_wait_list, const cl_event *event_wait_list, cl_event *event)
{
	return vcl_queue_valid(command_queue) ? CL_INVALID_OPERATION : CL_INVALID_COMMAND_QUEUE;
}

CL_API_ENTRY cl_int CL_API_CALL
clEnqueueFillImage(cl_command_queue command_queue, cl_mem image, const void *fill_color,
	const size_t *origin, const size_t *region, cl_uint num_events_in_wait_list,
	const cl_event *event_wait_list, cl_event *event)
{
	return vcl_queue_valid(command_queue) ? CL_INVALID_OPERATION : CL_INVALID_COMMAND_QUEUE;
}

CL_API_ENTRY void * CL_API_CALL
clEnqueueMapImage(cl_command_queue command_queue, cl_mem image, cl_bool blocking_map,
	cl_map_flags map_flags, const size_t *origin, const size_t *region,
	size_t *image_row_pitch, size_t *image_slice_pitch,
	cl_uint num_events_in_wait_list, const cl_event *event_wait_list, cl_event *event,
	cl_int *errcode_ret)
{
	if (errcode_ret)
		*errcode_ret = vcl_queue_valid(command_queue) ? CL_INVALID_OPERATION : CL_INVALID_COMMAND_QUEUE;
	return NULL;
}

CL_API_ENTRY cl_int CL_API_CALL
clEnqueueCopyImageToBuffer(cl_command_queue command_queue, cl_mem src_image,
	cl_mem dst_buffer, const size_t *src_origin, const size_t *region,
	size_t dst_offset, cl_uint num_events_in_wait_list,
	const cl_event *event_wait_list, cl_event *event)
{
	return vcl_queue_valid(command_queue) ? CL_INVALID_OPERATION : CL_INVALID_COMMAND_QUEUE;
}

CL_API_ENTRY cl_int CL_API_CALL
clEnqueueCopyBufferToImage(cl_command_queue command_queue, cl_mem src_buffer,
	cl_mem dst_image, size_t src_offset, const size_t *dst_origin,
	const size_t *region, cl_uint num_events_in_wait_list,
	const cl_event *event_wait_list, cl_event *event)
{
	return vcl_queue_valid(command_queue) ? CL_INVALID_OPERATION : CL_INVALID_COMMAND_QUEUE;
}

CL_API_ENTRY cl_sampler CL_API_CALL
clCreateSampler(cl_context context, cl_bool normalized_coords,
	cl_addressing_mode addressing_mode, cl_filter_mode filter_mode,
	cl_int *errcode_ret)
{
	if (errcode_ret)
		*errcode_ret = vcl_context_valid(context) ? CL_INVALID_OPERATION : CL_INVALID_CONTEXT;
	return NULL;
}

CL_API_ENTRY cl_sampler CL_API_CALL
clCreateSamplerWithProperties(cl_context context,
	const cl_sampler_properties *sampler_properties, cl_int *errcode_ret)
{
	if (errcode_ret)
		*errcode_ret = vcl_context_valid(context) ? CL_INVALID_OPERATION : CL_INVALID_CONTEXT;
	return NULL;
}

CL_API_ENTRY cl_int CL_API_CALL
clRetainSampler(cl_sampler sampler)
{
	return CL_INVALID_SAMPLER;
}

CL_API_ENTRY cl_int CL_API_CALL
clReleaseSampler(cl_sampler sampler)
{
	return CL_INVALID_SAMPLER;
}

CL_API_ENTRY cl_int CL_API_CALL
clGetSamplerInfo(cl_sampler sampler, cl_sampler_info param_name, size_t param_value_size,
	void *param_value, size_t *param_value_size_ret)
{
	return CL_INVALID_SAMPLER;
}

CL_API_ENTRY cl_mem CL_API_CALL
clCreatePipe(cl_context context, cl_mem_flags flags, cl_uint pipe_packet_size,
	cl_uint pipe_max_packets, const cl_pipe_properties *properties,
	cl_int *errcode_ret)
{
	if (errcode_ret)
		*errcode_ret = vcl_context_valid(context) ? CL_INVALID_OPERATION : CL_INVALID_CONTEXT;
	return NULL;
}

CL_API_ENTRY cl_int CL_API_CALL
clGetPipeInfo(cl_mem pipe, cl_pipe_info param_name, size_t param_value_size,
	void *param_value, size_t *param_value_size_ret)
{
	return vcl_mem_valid(pipe) ? CL_INVALID_MEM_OBJECT : CL_INVALID_MEM_OBJECT;
}

CL_API_ENTRY void * CL_API_CALL
clSVMAlloc(cl_context context, cl_svm_mem_flags flags, size_t size, cl_uint alignment)
{
	/* No device has SVM (CL_DEVICE_SVM_CAPABILITIES is 0). */
	return NULL;
}

CL_API_ENTRY void CL_API_CALL
clSVMFree(cl_context context, void *svm_pointer)
{
	/* No SVM allocation exists: nothing to free. */
}

CL_API_ENTRY cl_int CL_API_CALL
clEnqueueSVMFree(cl_command_queue command_queue, cl_uint num_svm_pointers,
	void *svm_pointers[], void (CL_CALLBACK *pfn_free_func)(cl_command_queue queue,
	cl_uint num_svm_pointers, void *svm_pointers[], void *user_data), void *user_data,
	cl_uint num_events_in_wait_list, const cl_event *event_wait_list, cl_event *event)
{
	return vcl_queue_valid(command_queue) ? CL_INVALID_OPERATION : CL_INVALID_COMMAND_QUEUE;
}

CL_API_ENTRY cl_int CL_API_CALL
clEnqueueSVMMemcpy(cl_command_queue command_queue, cl_bool blocking_copy, void *dst_ptr,
	const void *src_ptr, size_t size, cl_uint num_events_in_wait_list,
	const cl_event *event_wait_list, cl_event *event)
{
	return vcl_queue_valid(command_queue) ? CL_INVALID_OPERATION : CL_INVALID_COMMAND_QUEUE;
}

CL_API_ENTRY cl_int CL_API_CALL
clEnqueueSVMMemFill(cl_command_queue command_queue, void *svm_ptr, const void *pattern,
	size_t pattern_size, size_t size, cl_uint num_events_in_wait_list,
	const cl_event *event_wait_list, cl_event *event)
{
	return vcl_queue_valid(command_queue) ? CL_INVALID_OPERATION : CL_INVALID_COMMAND_QUEUE;
}

CL_API_ENTRY cl_int CL_API_CALL
clEnqueueSVMMap(cl_command_queue command_queue, cl_bool blocking_map, cl_map_flags flags,
	void *svm_ptr, size_t size, cl_uint num_events_in_wait_list,
	const cl_event *event_wait_list, cl_event *event)
{
	return vcl_queue_valid(command_queue) ? CL_INVALID_OPERATION : CL_INVALID_COMMAND_QUEUE;
}

CL_API_ENTRY cl_int CL_API_CALL
clEnqueueSVMUnmap(cl_command_queue command_queue, void *svm_ptr,
	cl_uint num_events_in_wait_list, const cl_event *event_wait_list, cl_event *event)
{
	return vcl_queue_valid(command_queue) ? CL_INVALID_OPERATION : CL_INVALID_COMMAND_QUEUE;
}

CL_API_ENTRY cl_int CL_API_CALL
clEnqueueSVMMigrateMem(cl_command_queue command_queue, cl_uint num_svm_pointers,
	const void * *svm_pointers, const size_t *sizes, cl_mem_migration_flags flags,
	cl_uint num_events_in_wait_list, const cl_event *event_wait_list, cl_event *event)
{
	return vcl_queue_valid(command_queue) ? CL_INVALID_OPERATION : CL_INVALID_COMMAND_QUEUE;
}

CL_API_ENTRY cl_int CL_API_CALL
clSetKernelArgSVMPointer(cl_kernel kernel, cl_uint arg_index, const void *arg_value)
{
	return vcl_kernel_valid(kernel) ? CL_INVALID_OPERATION : CL_INVALID_KERNEL;
}

CL_API_ENTRY cl_int CL_API_CALL
clGetKernelSubGroupInfo(cl_kernel kernel, cl_device_id device,
	cl_kernel_sub_group_info param_name, size_t input_value_size,
	const void *input_value, size_t param_value_size, void *param_value,
	size_t *param_value_size_ret)
{
	return vcl_kernel_valid(kernel) ? CL_INVALID_OPERATION : CL_INVALID_KERNEL;
}

CL_API_ENTRY cl_int CL_API_CALL
clSetDefaultDeviceCommandQueue(cl_context context, cl_device_id device,
	cl_command_queue command_queue)
{
	return vcl_context_valid(context) ? CL_INVALID_OPERATION : CL_INVALID_CONTEXT;
}

CL_API_ENTRY cl_mem CL_API_CALL
clCreateFromGLBuffer(cl_context context, cl_mem_flags flags, cl_GLuint bufobj,
	cl_int *errcode_ret)
{
	if (errcode_ret)
		*errcode_ret = vcl_context_valid(context) ? CL_INVALID_CONTEXT : CL_INVALID_CONTEXT;
	return NULL;
}

CL_API_ENTRY cl_mem CL_API_CALL
clCreateFromGLTexture(cl_context context, cl_mem_flags flags, cl_GLenum target,
	cl_GLint miplevel, cl_GLuint texture, cl_int *errcode_ret)
{
	if (errcode_ret)
		*errcode_ret = vcl_context_valid(context) ? CL_INVALID_CONTEXT : CL_INVALID_CONTEXT;
	return NULL;
}

CL_API_ENTRY cl_mem CL_API_CALL
clCreateFromGLTexture2D(cl_context context, cl_mem_flags flags, cl_GLenum target,
	cl_GLint miplevel, cl_GLuint texture, cl_int *errcode_ret)
{
	if (errcode_ret)
		*errcode_ret = vcl_context_valid(context) ? CL_INVALID_CONTEXT : CL_INVALID_CONTEXT;
	return NULL;
}

CL_API_ENTRY cl_mem CL_API_CALL
clCreateFromGLTexture3D(cl_context context, cl_mem_flags flags, cl_GLenum target,
	cl_GLint miplevel, cl_GLuint texture, cl_int *errcode_ret)
{
	if (errcode_ret)
		*errcode_ret = vcl_context_valid(context) ? CL_INVALID_CONTEXT : CL_INVALID_CONTEXT;
	return NULL;
}

CL_API_ENTRY cl_mem CL_API_CALL
clCreateFromGLRenderbuffer(cl_context context, cl_mem_flags flags, cl_GLuint renderbuffer,
	cl_int *errcode_ret)
{
	if (errcode_ret)
		*errcode_ret = vcl_context_valid(context) ? CL_INVALID_CONTEXT : CL_INVALID_CONTEXT;
	return NULL;
}

CL_API_ENTRY cl_int CL_API_CALL
clGetGLObjectInfo(cl_mem memobj, cl_gl_object_type *gl_object_type,
	cl_GLuint *gl_object_name)
{
	return CL_INVALID_GL_OBJECT;
}

CL_API_ENTRY cl_int CL_API_CALL
clGetGLTextureInfo(cl_mem memobj, cl_gl_texture_info param_name, size_t param_value_size,
	void *param_value, size_t *param_value_size_ret)
{
	return CL_INVALID_GL_OBJECT;
}

CL_API_ENTRY cl_int CL_API_CALL
clEnqueueAcquireGLObjects(cl_command_queue command_queue, cl_uint num_objects,
	const cl_mem *mem_objects, cl_uint num_events_in_wait_list,
	const cl_event *event_wait_list, cl_event *event)
{
	return vcl_queue_valid(command_queue) ? CL_INVALID_CONTEXT : CL_INVALID_COMMAND_QUEUE;
}

CL_API_ENTRY cl_int CL_API_CALL
clEnqueueReleaseGLObjects(cl_command_queue command_queue, cl_uint num_objects,
	const cl_mem *mem_objects, cl_uint num_events_in_wait_list,
	const cl_event *event_wait_list, cl_event *event)
{
	return vcl_queue_valid(command_queue) ? CL_INVALID_CONTEXT : CL_INVALID_COMMAND_QUEUE;
}

CL_API_ENTRY cl_int CL_API_CALL
clGetGLContextInfoKHR(const cl_context_properties *properties,
	cl_gl_context_info param_name, size_t param_value_size, void *param_value,
	size_t *param_value_size_ret)
{
	return CL_INVALID_OPERATION;
}

CL_API_ENTRY cl_event CL_API_CALL
clCreateEventFromGLsyncKHR(cl_context context, cl_GLsync sync, cl_int *errcode_ret)
{
	if (errcode_ret)
		*errcode_ret = vcl_context_valid(context) ? CL_INVALID_CONTEXT : CL_INVALID_CONTEXT;
	return NULL;
}
