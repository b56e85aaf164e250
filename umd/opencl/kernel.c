// SPDX-License-Identifier: MIT
/*
 * Copyright 2026 The vaccel authors
 */

/**
 * DOC: Kernels and launches
 *
 * A kernel is a kernel of its program's module on each device, the layout
 * of its parameters that the IR step recorded, and the arguments set so
 * far.  clEnqueueNDRangeKernel() writes the argument block (the 64-byte
 * header, then each parameter at its offset: a buffer's GPU address, a
 * ``__local`` argument's offset in the launch's dynamic local memory, a
 * value's bytes) and records one launch, vaccel_launch_ex(), in the
 * command's group.
 *
 * Without a local size, the runtime picks one: along each dimension in
 * turn, the largest divisor of the global size that keeps the workgroup
 * within the kernel's work-group size and leaves every compute unit a
 * workgroup to run.  The kernel's work-group size is the device's,
 * limited by its stack need: a workgroup's stacks together stay within
 * the device's private memory.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "icd.h"
#include "cl_abi.h"
#include "printf_buffer.h"
#include "printf_format.h"

bool vcl_kernel_valid(cl_kernel k)
{
	return VCL_VALID(k, VCL_MAGIC_KERNEL);
}

static void vcl_kernel_free(cl_kernel k)
{
	cl_uint i;

	k->magic = 0;
	for (i = 0; i < k->info->num_args; i++)
		free(k->args[i].bytes);
	free(k->args);
	free(k->vkernels);
	pthread_mutex_destroy(&k->lock);
	pthread_mutex_lock(&k->program->lock);
	k->program->kernels_attached--;
	pthread_mutex_unlock(&k->program->lock);
	clReleaseProgram(k->program);
	free(k);
}

static cl_kernel vcl_kernel_new(cl_program p, const struct vcl_kernel_info *info,
				cl_int *err)
{
	cl_uint i, n = p->ctx->num_devices;
	cl_kernel k = calloc(1, sizeof(*k));

	*err = CL_OUT_OF_HOST_MEMORY;
	if (!k)
		return NULL;
	k->vkernels = calloc(n, sizeof(*k->vkernels));
	k->args = calloc(info->num_args + 1, sizeof(*k->args));
	if (!k->vkernels || !k->args)
		goto err;
	for (i = 0; i < n; i++) {
		struct vaccel_module *mod = p->per_device[i].module;

		if (mod && vaccel_kernel_get(mod, info->name, &k->vkernels[i])) {
			*err = CL_INVALID_KERNEL_DEFINITION;
			goto err;
		}
	}
	k->dispatch = &vcl_dispatch;
	k->magic = VCL_MAGIC_KERNEL;
	vcl_ref_init(&k->ref);
	pthread_mutex_init(&k->lock, NULL);
	k->program = p;
	k->info = info;
	p->kernels_attached++;
	clRetainProgram(p);
	*err = CL_SUCCESS;
	return k;
err:
	free(k->vkernels);
	free(k->args);
	free(k);
	return NULL;
}

static bool vcl_program_has_executable(cl_program p)
{
	cl_uint i;

	for (i = 0; i < p->ctx->num_devices; i++)
		if (p->per_device[i].module)
			return true;
	return false;
}

CL_API_ENTRY cl_kernel CL_API_CALL
clCreateKernel(cl_program p, const char *name, cl_int *errcode_ret)
{
	cl_kernel k = NULL;
	cl_int err = CL_INVALID_KERNEL_NAME;
	cl_uint i;

	if (!vcl_program_valid(p)) {
		err = CL_INVALID_PROGRAM;
		goto out;
	}
	if (!name) {
		err = CL_INVALID_VALUE;
		goto out;
	}
	pthread_mutex_lock(&p->lock);
	if (!vcl_program_has_executable(p)) {
		err = CL_INVALID_PROGRAM_EXECUTABLE;
	} else {
		for (i = 0; i < p->num_kernels; i++)
			if (!strcmp(p->kernels[i].name, name)) {
				k = vcl_kernel_new(p, &p->kernels[i], &err);
				break;
			}
	}
	pthread_mutex_unlock(&p->lock);
out:
	if (errcode_ret)
		*errcode_ret = err;
	return k;
}

CL_API_ENTRY cl_int CL_API_CALL
clCreateKernelsInProgram(cl_program p, cl_uint num_kernels, cl_kernel *kernels,
			 cl_uint *num_kernels_ret)
{
	cl_int err = CL_SUCCESS;
	cl_uint i, j;

	if (!vcl_program_valid(p))
		return CL_INVALID_PROGRAM;
	pthread_mutex_lock(&p->lock);
	if (!vcl_program_has_executable(p)) {
		err = CL_INVALID_PROGRAM_EXECUTABLE;
		goto out;
	}
	if (kernels && num_kernels < p->num_kernels) {
		err = CL_INVALID_VALUE;
		goto out;
	}
	for (i = 0; kernels && i < p->num_kernels; i++) {
		kernels[i] = vcl_kernel_new(p, &p->kernels[i], &err);
		if (!kernels[i]) {
			pthread_mutex_unlock(&p->lock);
			for (j = 0; j < i; j++)
				vcl_kernel_free(kernels[j]);
			return err;
		}
	}
	if (num_kernels_ret)
		*num_kernels_ret = p->num_kernels;
out:
	pthread_mutex_unlock(&p->lock);
	return err;
}

CL_API_ENTRY cl_int CL_API_CALL
clRetainKernel(cl_kernel k)
{
	if (!vcl_kernel_valid(k))
		return CL_INVALID_KERNEL;
	vcl_ref_get(&k->ref);
	return CL_SUCCESS;
}

CL_API_ENTRY cl_int CL_API_CALL
clReleaseKernel(cl_kernel k)
{
	if (!vcl_kernel_valid(k))
		return CL_INVALID_KERNEL;
	if (vcl_ref_put(&k->ref))
		vcl_kernel_free(k);
	return CL_SUCCESS;
}

CL_API_ENTRY cl_kernel CL_API_CALL
clCloneKernel(cl_kernel src, cl_int *errcode_ret)
{
	cl_kernel k = NULL;
	cl_int err = CL_INVALID_KERNEL;
	cl_uint i;

	if (vcl_kernel_valid(src)) {
		pthread_mutex_lock(&src->program->lock);
		k = vcl_kernel_new(src->program, src->info, &err);
		pthread_mutex_unlock(&src->program->lock);
	}
	if (k) {
		pthread_mutex_lock(&src->lock);
		for (i = 0; i < src->info->num_args; i++) {
			k->args[i] = src->args[i];
			if (src->args[i].bytes) {
				k->args[i].bytes = malloc(src->info->args[i].size);
				if (k->args[i].bytes)
					memcpy(k->args[i].bytes, src->args[i].bytes,
					       src->info->args[i].size);
				else
					k->args[i].set = false;
			}
		}
		pthread_mutex_unlock(&src->lock);
	}
	if (errcode_ret)
		*errcode_ret = err;
	return k;
}

CL_API_ENTRY cl_int CL_API_CALL
clSetKernelArg(cl_kernel k, cl_uint index, size_t size, const void *value)
{
	const struct vcl_arg_info *a;
	struct vcl_arg_value v = { .set = true };

	if (!vcl_kernel_valid(k))
		return CL_INVALID_KERNEL;
	if (index >= k->info->num_args)
		return CL_INVALID_ARG_INDEX;
	a = &k->info->args[index];
	switch (a->kind) {
	case VCL_ARG_GLOBAL:
	case VCL_ARG_CONSTANT:
		if (size != sizeof(cl_mem))
			return CL_INVALID_ARG_SIZE;
		/* NULL, or a NULL cl_mem: a null pointer. */
		if (value && *(const cl_mem *)value) {
			v.mem = *(const cl_mem *)value;
			if (!vcl_mem_valid(v.mem) || v.mem->ctx != k->program->ctx)
				return CL_INVALID_MEM_OBJECT;
		}
		break;
	case VCL_ARG_LOCAL:
		if (value)
			return CL_INVALID_ARG_VALUE;
		if (!size)
			return CL_INVALID_ARG_SIZE;
		v.local_size = size;
		break;
	default:
		if (size != a->size)
			return CL_INVALID_ARG_SIZE;
		if (!value)
			return CL_INVALID_ARG_VALUE;
		v.bytes = malloc(size);
		if (!v.bytes)
			return CL_OUT_OF_HOST_MEMORY;
		memcpy(v.bytes, value, size);
		break;
	}
	/*
	 * The kernel does not hold the buffer: releasing it frees it, and
	 * runs its destructor callbacks, whatever kernels name it (the
	 * CTS's retain_mem_object_set_kernel_arg waits for that).  A launch
	 * holds its buffers until it completes.
	 */
	pthread_mutex_lock(&k->lock);
	free(k->args[index].bytes);
	k->args[index] = v;
	pthread_mutex_unlock(&k->lock);
	return CL_SUCCESS;
}

CL_API_ENTRY cl_int CL_API_CALL
clGetKernelInfo(cl_kernel k, cl_kernel_info param_name, size_t param_value_size,
		void *param_value, size_t *param_value_size_ret)
{
	cl_uint u;

	if (!vcl_kernel_valid(k))
		return CL_INVALID_KERNEL;
	switch (param_name) {
	case CL_KERNEL_FUNCTION_NAME:
		return VCL_INFO_STR(k->info->name);
	case CL_KERNEL_NUM_ARGS:
		return VCL_INFO(k->info->num_args);
	case CL_KERNEL_REFERENCE_COUNT:
		u = atomic_load(&k->ref.count);
		return VCL_INFO(u);
	case CL_KERNEL_CONTEXT:
		return VCL_INFO(k->program->ctx);
	case CL_KERNEL_PROGRAM:
		return VCL_INFO(k->program);
	case CL_KERNEL_ATTRIBUTES:
		return VCL_INFO_STR(k->info->attributes);
	default:
		return CL_INVALID_VALUE;
	}
}

CL_API_ENTRY cl_int CL_API_CALL
clGetKernelArgInfo(cl_kernel k, cl_uint index, cl_kernel_arg_info param_name,
		   size_t param_value_size, void *param_value, size_t *param_value_size_ret)
{
	const struct vcl_arg_info *a;
	cl_kernel_arg_address_qualifier addr;

	if (!vcl_kernel_valid(k))
		return CL_INVALID_KERNEL;
	if (index >= k->info->num_args)
		return CL_INVALID_ARG_INDEX;
	a = &k->info->args[index];
	switch (param_name) {
	case CL_KERNEL_ARG_ADDRESS_QUALIFIER:
		addr = a->kind == VCL_ARG_GLOBAL ? CL_KERNEL_ARG_ADDRESS_GLOBAL :
			a->kind == VCL_ARG_CONSTANT ? CL_KERNEL_ARG_ADDRESS_CONSTANT :
			a->kind == VCL_ARG_LOCAL ? CL_KERNEL_ARG_ADDRESS_LOCAL :
			CL_KERNEL_ARG_ADDRESS_PRIVATE;
		return VCL_INFO(addr);
	case CL_KERNEL_ARG_ACCESS_QUALIFIER:
		return VCL_INFO(a->access);
	case CL_KERNEL_ARG_TYPE_NAME:
		return VCL_INFO_STR(a->type_name);
	case CL_KERNEL_ARG_TYPE_QUALIFIER:
		return VCL_INFO(a->type_qual);
	case CL_KERNEL_ARG_NAME:
		return VCL_INFO_STR(a->name);
	default:
		return CL_INVALID_VALUE;
	}
}

/* The device a kernel query is about: @d, or the program's only one. */
static int vcl_kernel_device(cl_kernel k, cl_device_id d)
{
	cl_context ctx = k->program->ctx;

	if (!d)
		return ctx->num_devices == 1 ? 0 : -1;
	return vcl_device_valid(d) ? vcl_context_device_index(ctx, d) : -1;
}

/* The most work-items of a workgroup of @k on device @i. */
static size_t vcl_kernel_wg_size(cl_kernel k, int i)
{
	cl_device_id d = k->program->ctx->devices[i];
	struct vaccel_kernel_info ki;
	size_t max = d->info.max_workgroup_items, by_stack;

	if (!vaccel_kernel_get_info(k->vkernels[i], &ki) && ki.stack_size) {
		by_stack = d->info.max_private_size / ki.stack_size;
		if (by_stack < max)
			max = by_stack;
	}
	return max ? max : 1;
}

/*
 * A __local argument's alignment: the widest OpenCL C types' (long16,
 * double16), since a pointer to a type must be aligned to its size.
 */
#define VCL_LOCAL_ARG_ALIGN	128

/*
 * The start of a launch's dynamic local memory, where the __local
 * arguments go: after the module's own local variables, @static_local
 * bytes from the local aperture's base, rounded up to 16 (libvaccel's and
 * the IR step's rule).  The base is aligned far beyond
 * VCL_LOCAL_ARG_ALIGN.
 */
static uint64_t vcl_dynamic_local_start(uint64_t static_local)
{
	return (static_local + 15) & ~(uint64_t)15;
}

/*
 * Places a __local argument of @size bytes at *@at (bytes from the
 * aperture's base), aligned to VCL_LOCAL_ARG_ALIGN, and moves *@at past
 * it.  Returns where it goes, or UINT64_MAX if it would end past @limit.
 */
static uint64_t vcl_local_arg_place(uint64_t *at, uint64_t size, uint64_t limit)
{
	uint64_t where = (*at + VCL_LOCAL_ARG_ALIGN - 1) & ~(uint64_t)(VCL_LOCAL_ARG_ALIGN - 1);

	if (where > limit || size > limit - where)
		return UINT64_MAX;
	*at = where + size;
	return where;
}

/*
 * Bytes of local memory @k uses: its variables' and its arguments', with
 * the padding before each __local argument, set or not: a program that
 * gives an argument what this leaves of the device's local memory gets a
 * launch that fits.
 */
static cl_ulong vcl_kernel_local_locked(cl_kernel k, int i)
{
	struct vaccel_module_info mi;
	uint64_t at = 0, size;
	cl_uint a;

	if (!vaccel_module_get_info(k->program->per_device[i].module, &mi))
		at = mi.local_size;
	at = vcl_dynamic_local_start(at);
	for (a = 0; a < k->info->num_args; a++) {
		if (k->info->args[a].kind != VCL_ARG_LOCAL)
			continue;
		size = k->args[a].set ? k->args[a].local_size : 0;
		if (vcl_local_arg_place(&at, size, UINT64_MAX / 2) == UINT64_MAX)
			return UINT64_MAX;
	}
	return at;
}

static cl_ulong vcl_kernel_local(cl_kernel k, int i)
{
	cl_ulong total;

	pthread_mutex_lock(&k->lock);
	total = vcl_kernel_local_locked(k, i);
	pthread_mutex_unlock(&k->lock);
	return total;
}

CL_API_ENTRY cl_int CL_API_CALL
clGetKernelWorkGroupInfo(cl_kernel k, cl_device_id d, cl_kernel_work_group_info param_name,
			 size_t param_value_size, void *param_value,
			 size_t *param_value_size_ret)
{
	struct vaccel_kernel_info ki;
	size_t sz, sizes[3];
	cl_ulong ul;
	int i;

	if (!vcl_kernel_valid(k))
		return CL_INVALID_KERNEL;
	i = vcl_kernel_device(k, d);
	if (i < 0 || !k->vkernels[i])
		return CL_INVALID_DEVICE;
	switch (param_name) {
	case CL_KERNEL_WORK_GROUP_SIZE:
		sz = vcl_kernel_wg_size(k, i);
		return VCL_INFO(sz);
	case CL_KERNEL_COMPILE_WORK_GROUP_SIZE:
		memcpy(sizes, k->info->reqd_wg, sizeof(sizes));
		return VCL_INFO(sizes);
	case CL_KERNEL_LOCAL_MEM_SIZE:
		ul = vcl_kernel_local(k, i);
		return VCL_INFO(ul);
	case CL_KERNEL_PREFERRED_WORK_GROUP_SIZE_MULTIPLE:
		sz = 1;
		return VCL_INFO(sz);
	case CL_KERNEL_PRIVATE_MEM_SIZE:
		ul = 0;
		if (!vaccel_kernel_get_info(k->vkernels[i], &ki))
			ul = ki.stack_need ? ki.stack_need : ki.stack_size;
		return VCL_INFO(ul);
	case CL_KERNEL_GLOBAL_WORK_SIZE:
		/* Only for custom devices and built-in kernels. */
		return CL_INVALID_VALUE;
	default:
		return CL_INVALID_VALUE;
	}
}

CL_API_ENTRY cl_int CL_API_CALL
clSetKernelExecInfo(cl_kernel k, cl_kernel_exec_info param_name, size_t param_value_size,
		    const void *param_value)
{
	if (!vcl_kernel_valid(k))
		return CL_INVALID_KERNEL;
	if (param_name != CL_KERNEL_EXEC_INFO_SVM_PTRS &&
	    param_name != CL_KERNEL_EXEC_INFO_SVM_FINE_GRAIN_SYSTEM)
		return CL_INVALID_VALUE;
	/* Both are about SVM, which no device has. */
	return CL_INVALID_OPERATION;
}

/* A launch's printf buffer, formatted to stdout once the launch completes. */
struct vcl_printf_action {
	struct vcl_host_action action;
	struct vaccel_bo *bo;
	void *cpu;
};

static void vcl_printf_run(struct vcl_host_action *a)
{
	struct vcl_printf_action *p = (struct vcl_printf_action *)a;

	/* What a failed launch printed before it failed is shown too. */
	vaccel_cl_printf_format(p->cpu, VCL_PRINTF_BUFFER_SIZE, stdout);
	fflush(stdout);
	a->error = 0;
}

static void vcl_printf_fini(struct vcl_host_action *a)
{
	struct vcl_printf_action *p = (struct vcl_printf_action *)a;

	vaccel_bo_free(p->bo);
	free(p);
}

static struct vcl_printf_action *vcl_printf_new(cl_device_id d, unsigned char *block)
{
	struct vcl_printf_action *p = calloc(1, sizeof(*p));
	uint64_t va;
	uint32_t size = VCL_PRINTF_BUFFER_SIZE;

	if (!p)
		return NULL;
	p->bo = vcl_staging_new(d, VCL_PRINTF_BUFFER_SIZE, &p->cpu);
	if (!p->bo) {
		free(p);
		return NULL;
	}
	memset(p->cpu, 0, sizeof(struct vaccel_cl_printf_buffer));
	p->action.run = vcl_printf_run;
	p->action.fini = vcl_printf_fini;
	va = vaccel_bo_va(p->bo);
	memcpy(block + VACCEL_CL_HEADER_PRINTF_VA, &va, sizeof(va));
	memcpy(block + VACCEL_CL_HEADER_PRINTF_SIZE, &size, sizeof(size));
	return p;
}

/*
 * The most work-items of one launch: the device's, or fewer when the
 * test aid VACCEL_CL_SLAB_ITEMS says so (grids of 2^32 work-items take
 * the interpreter too long for a test of the slabs).
 */
static size_t vcl_max_grid_items(void)
{
	const char *env = secure_getenv("VACCEL_CL_SLAB_ITEMS");
	unsigned long long v;
	char *end;

	if (env && *env) {
		v = strtoull(env, &end, 0);
		if (!*end && v && v < VCL_MAX_GRID_ITEMS)
			return (size_t)v;
	}
	return VCL_MAX_GRID_ITEMS;
}

/*
 * How a grid runs: one launch takes at most VCL_MAX_GRID_ITEMS work-items
 * and 2^32 - 1 along each dimension.  A bigger grid runs as slabs along
 * its longest dimension, each a whole number of workgroups; the device
 * library sees the whole grid (cl_abi.h).  Sets @split_dim and @slab,
 * the work-items of a slab along it (all of them when one launch will
 * do).
 */
static cl_int vcl_split_plan(cl_uint work_dim, const size_t *global, const size_t *local,
			     cl_uint *split_dim, size_t *slab)
{
	size_t others = 1, per, max = vcl_max_grid_items();
	cl_uint s = 0, d;

	for (d = 1; d < work_dim; d++)
		if (global[d] >= global[s])
			s = d;
	for (d = 0; d < work_dim; d++) {
		if (d == s)
			continue;
		if (global[d] > UINT32_MAX || __builtin_mul_overflow(others, global[d], &others))
			return CL_INVALID_GLOBAL_WORK_SIZE;
	}
	*split_dim = s;
	*slab = global[s];
	if (global[s] <= UINT32_MAX && (!others || global[s] <= max / others))
		return CL_SUCCESS;
	per = max / others;
	if (per > UINT32_MAX)
		per = UINT32_MAX;
	per -= per % local[s];
	if (!per)
		return CL_INVALID_GLOBAL_WORK_SIZE;
	*slab = per;
	return CL_SUCCESS;
}

/* Picks a local size for @global, within @max items. */
static void vcl_pick_local(cl_uint dims, const size_t *global, size_t max,
			   unsigned int units, size_t *local)
{
	size_t total = 1, budget, d, v;

	for (d = 0; d < dims; d++)
		total *= global[d];
	/* Every compute unit gets a workgroup, if the grid is big enough. */
	budget = units > 1 && total / units < max ? total / units : max;
	if (!budget)
		budget = 1;
	for (d = 0; d < 3; d++) {
		local[d] = 1;
		if (d >= dims)
			continue;
		for (v = budget < global[d] ? budget : global[d]; v > 1; v--)
			if (!(global[d] % v))
				break;
		local[d] = v ? v : 1;
		budget /= local[d];
	}
}

CL_API_ENTRY cl_int CL_API_CALL
clEnqueueNDRangeKernel(cl_command_queue q, cl_kernel k, cl_uint work_dim,
		       const size_t *global_offset, const size_t *global_size,
		       const size_t *local_size, cl_uint num_events,
		       const cl_event *wait_list, cl_event *event)
{
	struct vaccel_launch_options opts = { 0 };
	struct vcl_printf_action *printf_action = NULL;
	const struct vcl_kernel_info *info;
	unsigned char block[VACCEL_LAUNCH_MAX_ARGS];
	uint32_t grid[3], wg[3];
	struct vaccel_module_info mi;
	uint64_t local_start, local_at;
	size_t local[3], max_wg, total = 1, slab;
	uint64_t start;
	cl_uint split_dim;
	struct vcl_command cmd;
	uint64_t offset[3] = { 0 }, va;
	cl_uint d, a;
	cl_int err;
	int i, ret;

	if (!vcl_queue_valid(q))
		return CL_INVALID_COMMAND_QUEUE;
	if (!vcl_kernel_valid(k))
		return CL_INVALID_KERNEL;
	if (k->program->ctx != q->ctx)
		return CL_INVALID_CONTEXT;
	i = vcl_context_device_index(q->ctx, q->device);
	if (!k->vkernels[i])
		return CL_INVALID_PROGRAM_EXECUTABLE;
	if (work_dim < 1 || work_dim > 3)
		return CL_INVALID_WORK_DIMENSION;
	if (!global_size)
		return CL_INVALID_GLOBAL_WORK_SIZE;
	info = k->info;
	max_wg = vcl_kernel_wg_size(k, i);
	for (d = 0; d < work_dim; d++) {
		if (global_offset && global_offset[d] > UINT64_MAX - global_size[d])
			return CL_INVALID_GLOBAL_OFFSET;
		if (__builtin_mul_overflow(total, global_size[d], &total))
			return CL_INVALID_GLOBAL_WORK_SIZE;
	}
	if (local_size) {
		size_t items = 1;

		for (d = 0; d < 3; d++)
			local[d] = d < work_dim ? local_size[d] : 1;
		for (d = 0; d < work_dim; d++) {
			if (!local[d] || local[d] > q->device->info.max_workgroup_items)
				return CL_INVALID_WORK_ITEM_SIZE;
			if (global_size[d] % local[d])
				return CL_INVALID_WORK_GROUP_SIZE;
			items *= local[d];
		}
		if (items > max_wg)
			return CL_INVALID_WORK_GROUP_SIZE;
		if (info->reqd_wg[0] && (local[0] != info->reqd_wg[0] ||
					 local[1] != info->reqd_wg[1] ||
					 local[2] != info->reqd_wg[2]))
			return CL_INVALID_WORK_GROUP_SIZE;
	} else if (info->reqd_wg[0]) {
		memcpy(local, info->reqd_wg, sizeof(local));
		for (d = 0; d < work_dim; d++)
			if (global_size[d] % local[d])
				return CL_INVALID_WORK_GROUP_SIZE;
	} else {
		vcl_pick_local(work_dim, global_size, max_wg, q->device->compute_units, local);
	}

	err = vcl_split_plan(work_dim, global_size, local, &split_dim, &slab);
	if (err)
		return err;

	/* The argument block. */
	memset(block, 0, info->block_size);
	for (d = 0; d < work_dim; d++)
		offset[d] = global_offset ? global_offset[d] : 0;
	memcpy(block + VACCEL_CL_HEADER_OFFSET, offset, sizeof(offset));
	memcpy(block + VACCEL_CL_HEADER_WORK_DIM, &work_dim, sizeof(work_dim));
	if (vaccel_module_get_info(k->program->per_device[i].module, &mi))
		return CL_INVALID_PROGRAM_EXECUTABLE;
	local_start = vcl_dynamic_local_start(mi.local_size);
	local_at = local_start;
	pthread_mutex_lock(&k->lock);
	for (a = 0; a < info->num_args; a++) {
		const struct vcl_arg_info *ai = &info->args[a];
		const struct vcl_arg_value *v = &k->args[a];

		if (!v->set) {
			pthread_mutex_unlock(&k->lock);
			return CL_INVALID_KERNEL_ARGS;
		}
		switch (ai->kind) {
		case VCL_ARG_GLOBAL:
		case VCL_ARG_CONSTANT:
			/* A buffer released since it was set is no argument. */
			if (v->mem && !vcl_mem_valid(v->mem)) {
				pthread_mutex_unlock(&k->lock);
				return CL_INVALID_KERNEL_ARGS;
			}
			va = v->mem ? vcl_mem_va(v->mem, q->device) : 0;
			memcpy(block + ai->offset, &va, sizeof(va));
			break;
		case VCL_ARG_LOCAL:
			/* Its offset in the dynamic local memory. */
			va = vcl_local_arg_place(&local_at, v->local_size,
						 q->device->info.max_local_size);
			if (va == UINT64_MAX) {
				pthread_mutex_unlock(&k->lock);
				return CL_OUT_OF_RESOURCES;
			}
			va -= local_start;
			memcpy(block + ai->offset, &va, sizeof(va));
			break;
		default:
			memcpy(block + ai->offset, v->bytes, ai->size);
			break;
		}
	}
	if (vcl_kernel_local_locked(k, i) > q->device->info.max_local_size) {
		pthread_mutex_unlock(&k->lock);
		return CL_OUT_OF_RESOURCES;
	}
	if (k->program->prints && total) {
		printf_action = vcl_printf_new(q->device, block);
		if (!printf_action) {
			pthread_mutex_unlock(&k->lock);
			return CL_OUT_OF_RESOURCES;
		}
	}
	err = vcl_command_begin(q, CL_COMMAND_NDRANGE_KERNEL, num_events, wait_list, &cmd);
	if (err) {
		pthread_mutex_unlock(&k->lock);
		if (printf_action)
			vcl_printf_fini(&printf_action->action);
		return err;
	}
	cmd.event->program = k->program;
	clRetainProgram(k->program);
	ret = 0;
	for (a = 0; a < info->num_args && !ret; a++)
		if (k->args[a].mem && vcl_command_hold(&cmd, k->args[a].mem))
			ret = -ENOMEM;
	pthread_mutex_unlock(&k->lock);
	for (d = 0; d < 3; d++) {
		grid[d] = d < work_dim ? (uint32_t)global_size[d] : 1;
		wg[d] = (uint32_t)local[d];
	}
	opts.dynamic_local_size = (uint32_t)(local_at - local_start);
	/* One launch, or a launch per slab of a grid too big for one. */
	for (start = 0; !ret && total && start < global_size[split_dim]; start += slab) {
		uint64_t size = global_size[split_dim], first = offset[split_dim] + start;
		uint32_t dim = split_dim + 1;

		grid[split_dim] = (uint32_t)(slab < size - start ? slab : size - start);
		if (slab < size) {
			memcpy(block + VACCEL_CL_HEADER_OFFSET + 8 * split_dim, &first, 8);
			memcpy(block + VACCEL_CL_HEADER_SPLIT_DIM, &dim, 4);
			memcpy(block + VACCEL_CL_HEADER_SPLIT_START, &start, 8);
			memcpy(block + VACCEL_CL_HEADER_SPLIT_SIZE, &size, 8);
		}
		ret = vaccel_launch_ex(cmd.vq, k->vkernels[i], grid, wg, block, info->block_size,
				       &opts);
	}
	if (ret) {
		vcl_command_abort(&cmd);
		if (printf_action)
			vcl_printf_fini(&printf_action->action);
		return ret == -E2BIG ? CL_OUT_OF_RESOURCES : vcl_errno_to_cl(ret);
	}
	return vcl_command_end(&cmd, printf_action ? &printf_action->action : NULL, event, false);
}

CL_API_ENTRY cl_int CL_API_CALL
clEnqueueTask(cl_command_queue q, cl_kernel k, cl_uint num_events,
	      const cl_event *wait_list, cl_event *event)
{
	const size_t one[3] = { 1, 1, 1 };

	return clEnqueueNDRangeKernel(q, k, 1, NULL, one, one, num_events, wait_list, event);
}

CL_API_ENTRY cl_int CL_API_CALL
clEnqueueNativeKernel(cl_command_queue q, void (CL_CALLBACK *fn)(void *), void *args,
		      size_t cb_args, cl_uint num_mems, const cl_mem *mems,
		      const void **args_mem_loc, cl_uint num_events,
		      const cl_event *wait_list, cl_event *event)
{
	/* CL_DEVICE_EXECUTION_CAPABILITIES has no CL_EXEC_NATIVE_KERNEL. */
	return vcl_queue_valid(q) ? CL_INVALID_OPERATION : CL_INVALID_COMMAND_QUEUE;
}
