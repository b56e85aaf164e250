// SPDX-License-Identifier: MIT
/*
 * Copyright 2026 The vaccel authors
 */

/**
 * DOC: The platform and its devices
 *
 * The ICD has one platform, "vaccel".  Its devices are the vaccel devices
 * of the machine, opened once, the first time the loader asks for the
 * platform, and kept open for the life of the process: an OpenCL device
 * is never released.  When VACCEL_CL_UNIFIED names member indices
 * ("0,1"), the unified device of those members is one more device.
 *
 * Every clGetDeviceInfo() answer comes from the device's own limits
 * (vaccel_device_get_info(), its engines): work-group size, local memory,
 * stacks, address bits, buffer sizes, the timer.  The optional features of
 * OpenCL 3.0 (images, SVM, pipes, device-side enqueue, the generic address
 * space, sub-groups) are reported as absent.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/sysinfo.h>

#include "icd.h"

#define VCL_MAX_DEVICES		16

struct _cl_platform_id vcl_platform = {
	.dispatch = &vcl_dispatch,
	.magic = VCL_MAGIC_PLATFORM,
};

static pthread_once_t vcl_once = PTHREAD_ONCE_INIT;
static struct _cl_device_id vcl_devices[VCL_MAX_DEVICES];
static cl_uint vcl_num_devices;

static void vcl_device_setup(cl_device_id d, struct vaccel_device *dev, bool unified)
{
	int i, n;

	d->dispatch = &vcl_dispatch;
	d->magic = VCL_MAGIC_DEVICE;
	d->dev = dev;
	d->unified = unified;
	vaccel_device_get_info(dev, &d->info);
	n = vaccel_device_engine_count(dev);
	for (i = 0; i < n; i++) {
		struct vaccel_engine_info e;

		if (vaccel_device_get_engine(dev, (unsigned int)i, &e) ||
		    e.engine_class != VACCEL_ENGINE_CLASS_COMPUTE)
			continue;
		d->compute_engines++;
		d->compute_units += e.compute_units ? e.compute_units : 1;
	}
	if (unified)
		snprintf(d->name, sizeof(d->name), "vaccel unified (%d devices)",
			 vaccel_device_member_count(dev));
	else
		snprintf(d->name, sizeof(d->name), "vaccel%u", d->info.device_index);
}

/* Parses VACCEL_CL_UNIFIED ("0,1") into member indices. */
static unsigned int vcl_unified_members(unsigned int *idx, unsigned int max)
{
	const char *s = getenv("VACCEL_CL_UNIFIED");
	unsigned int n = 0;
	char *end;

	while (s && *s && n < max) {
		unsigned long v = strtoul(s, &end, 10);

		if (end == s)
			return 0;
		idx[n++] = (unsigned int)v;
		s = *end == ',' ? end + 1 : end;
		if (*end && *end != ',')
			return 0;
	}
	return n;
}

static void vcl_discover(void)
{
	unsigned int members[VCL_MAX_DEVICES], nm;
	int count = vaccel_device_count(), i;

	for (i = 0; i < count && vcl_num_devices < VCL_MAX_DEVICES - 1; i++) {
		struct vaccel_device *dev;

		if (vaccel_device_open((unsigned int)i, &dev))
			continue;
		vcl_device_setup(&vcl_devices[vcl_num_devices++], dev, false);
	}
	nm = vcl_unified_members(members, VCL_MAX_DEVICES);
	if (nm) {
		struct vaccel_device *dev;

		if (!vaccel_device_open_unified(members, nm, &dev))
			vcl_device_setup(&vcl_devices[vcl_num_devices++], dev, true);
	}
}

int vcl_platform_init(void)
{
	pthread_once(&vcl_once, vcl_discover);
	return 0;
}

cl_uint vcl_device_count(void)
{
	vcl_platform_init();
	return vcl_num_devices;
}

cl_device_id vcl_device_get(cl_uint index)
{
	return index < vcl_num_devices ? &vcl_devices[index] : NULL;
}

bool vcl_device_valid(cl_device_id d)
{
	return VCL_VALID(d, VCL_MAGIC_DEVICE);
}

static bool vcl_platform_valid(cl_platform_id p)
{
	/* NULL is the platform, as the ICD loader allows for one. */
	return !p || p == &vcl_platform;
}

static cl_int vcl_get_platform_ids(cl_uint num_entries, cl_platform_id *platforms,
				   cl_uint *num_platforms)
{
	if ((!num_entries && platforms) || (!platforms && !num_platforms))
		return CL_INVALID_VALUE;
	vcl_platform_init();
	if (platforms)
		platforms[0] = &vcl_platform;
	if (num_platforms)
		*num_platforms = 1;
	return CL_SUCCESS;
}

CL_API_ENTRY cl_int CL_API_CALL
clGetPlatformIDs(cl_uint num_entries, cl_platform_id *platforms,
		 cl_uint *num_platforms)
{
	return vcl_get_platform_ids(num_entries, platforms, num_platforms);
}

VCL_EXPORT CL_API_ENTRY cl_int CL_API_CALL
clIcdGetPlatformIDsKHR(cl_uint num_entries, cl_platform_id *platforms,
		       cl_uint *num_platforms)
{
	if (!num_entries && platforms)
		return CL_INVALID_VALUE;
	if (!platforms && !num_platforms)
		return CL_INVALID_VALUE;
	return vcl_get_platform_ids(num_entries, platforms, num_platforms);
}

/* Exported too: the ICD loader asks for it by name (its version, suffix). */
VCL_EXPORT CL_API_ENTRY cl_int CL_API_CALL
clGetPlatformInfo(cl_platform_id platform, cl_platform_info param_name,
		  size_t param_value_size, void *param_value,
		  size_t *param_value_size_ret)
{
	cl_version v;
	cl_ulong res;

	if (!vcl_platform_valid(platform))
		return CL_INVALID_PLATFORM;
	switch (param_name) {
	case CL_PLATFORM_PROFILE:
		return VCL_INFO_STR("FULL_PROFILE");
	case CL_PLATFORM_VERSION:
		return VCL_INFO_STR("OpenCL 3.0 vaccel " VACCEL_CL_VERSION);
	case CL_PLATFORM_NUMERIC_VERSION:
		v = CL_MAKE_VERSION(3, 0, 0);
		return VCL_INFO(v);
	case CL_PLATFORM_NAME:
		return VCL_INFO_STR(VCL_PLATFORM_NAME);
	case CL_PLATFORM_VENDOR:
		return VCL_INFO_STR(VCL_PLATFORM_VENDOR);
	case CL_PLATFORM_EXTENSIONS:
		return VCL_INFO_STR(VCL_EXTENSIONS);
	case CL_PLATFORM_EXTENSIONS_WITH_VERSION:
		return vcl_extensions_with_version(param_value_size, param_value,
						   param_value_size_ret);
	case CL_PLATFORM_ICD_SUFFIX_KHR:
		return VCL_INFO_STR(VCL_ICD_SUFFIX);
	case CL_PLATFORM_HOST_TIMER_RESOLUTION:
		res = 1;
		return VCL_INFO(res);
	default:
		return CL_INVALID_VALUE;
	}
}

CL_API_ENTRY cl_int CL_API_CALL
clGetDeviceIDs(cl_platform_id platform, cl_device_type type, cl_uint num_entries,
	       cl_device_id *devices, cl_uint *num_devices)
{
	const cl_device_type known = CL_DEVICE_TYPE_DEFAULT | CL_DEVICE_TYPE_CPU |
		CL_DEVICE_TYPE_GPU | CL_DEVICE_TYPE_ACCELERATOR | CL_DEVICE_TYPE_CUSTOM;
	cl_uint i, n = 0, total;

	if (!vcl_platform_valid(platform))
		return CL_INVALID_PLATFORM;
	if (type != CL_DEVICE_TYPE_ALL && (!type || (type & ~known)))
		return CL_INVALID_DEVICE_TYPE;
	if ((!num_entries && devices) || (!devices && !num_devices))
		return CL_INVALID_VALUE;
	total = vcl_device_count();
	for (i = 0; i < total; i++) {
		cl_device_type t = CL_DEVICE_TYPE_ACCELERATOR |
			(i == 0 ? CL_DEVICE_TYPE_DEFAULT : 0);

		if (type != CL_DEVICE_TYPE_ALL && !(type & t))
			continue;
		if (devices && n < num_entries)
			devices[n] = vcl_device_get(i);
		n++;
	}
	if (num_devices)
		*num_devices = n;
	return n ? CL_SUCCESS : CL_DEVICE_NOT_FOUND;
}

static cl_ulong vcl_global_mem(cl_device_id d)
{
	struct sysinfo si;
	cl_ulong ram = 0;

	/* System memory backs every buffer; device memory adds a segment. */
	if (!sysinfo(&si))
		ram = (cl_ulong)si.totalram * si.mem_unit;
	return ram + d->info.device_mem_size;
}

/*
 * The largest buffer: a quarter of the global memory, as GPU drivers
 * report (one buffer of all the memory would leave the system none), at
 * least the specification's minimum, and within the device's largest BO.
 */
static cl_ulong vcl_max_alloc(cl_device_id d)
{
	cl_ulong global = vcl_global_mem(d), max = global / 4, floor = global / 4;

	if (floor > 1024ull << 20)
		floor = 1024ull << 20;
	if (floor < 32ull << 20)
		floor = 32ull << 20;
	if (max < floor)
		max = floor;
	if (d->info.max_bo_size && max > d->info.max_bo_size)
		max = d->info.max_bo_size;
	return max;
}

/* The version of every extension, for the _WITH_VERSION queries. */
cl_int vcl_extensions_with_version(size_t param_value_size, void *param_value,
				   size_t *param_value_size_ret)
{
	static const char *const names[] = {
		"cl_khr_icd", "cl_khr_fp64", "cl_khr_global_int32_base_atomics",
		"cl_khr_global_int32_extended_atomics",
		"cl_khr_local_int32_base_atomics",
		"cl_khr_local_int32_extended_atomics", "cl_khr_int64_base_atomics",
		"cl_khr_int64_extended_atomics", "cl_khr_byte_addressable_store",
		"cl_khr_priority_hints",
	};
	cl_name_version v[sizeof(names) / sizeof(names[0])];
	size_t i;

	memset(v, 0, sizeof(v));
	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		v[i].version = CL_MAKE_VERSION(1, 0, 0);
		snprintf(v[i].name, sizeof(v[i].name), "%s", names[i]);
	}
	return vcl_info(v, sizeof(v), param_value_size, param_value,
			param_value_size_ret);
}

static cl_int vcl_c_versions(size_t param_value_size, void *param_value,
			     size_t *param_value_size_ret)
{
	cl_name_version v[4];
	int i;

	memset(v, 0, sizeof(v));
	for (i = 0; i < 4; i++) {
		strcpy(v[i].name, "OpenCL C");
		v[i].version = CL_MAKE_VERSION(1, i < 3 ? i : 2, 0);
	}
	v[3].version = CL_MAKE_VERSION(3, 0, 0);
	return vcl_info(v, sizeof(v), param_value_size, param_value,
			param_value_size_ret);
}

/* The OpenCL C 3.0 features: only the 64-bit integers and the fp64 one. */
static cl_int vcl_c_features(size_t param_value_size, void *param_value,
			     size_t *param_value_size_ret)
{
	static const char *const names[] = { "__opencl_c_int64", "__opencl_c_fp64" };
	cl_name_version v[2];
	int i;

	memset(v, 0, sizeof(v));
	for (i = 0; i < 2; i++) {
		strcpy(v[i].name, names[i]);
		v[i].version = CL_MAKE_VERSION(3, 0, 0);
	}
	return vcl_info(v, sizeof(v), param_value_size, param_value,
			param_value_size_ret);
}

CL_API_ENTRY cl_int CL_API_CALL
clGetDeviceInfo(cl_device_id d, cl_device_info param_name, size_t param_value_size,
		void *param_value, size_t *param_value_size_ret)
{
	cl_device_fp_config fp = CL_FP_DENORM | CL_FP_INF_NAN | CL_FP_ROUND_TO_NEAREST |
		CL_FP_ROUND_TO_ZERO | CL_FP_ROUND_TO_INF | CL_FP_FMA;
	cl_device_exec_capabilities exec = CL_EXEC_KERNEL;
	cl_command_queue_properties qprops = CL_QUEUE_PROFILING_ENABLE |
		CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE;
	cl_device_type type;
	size_t sizes[3], sz;
	cl_uint u;
	cl_ulong ul;
	cl_bool b;
	cl_version v;
	cl_platform_id p = &vcl_platform;
	cl_device_id none = NULL;
	cl_device_partition_property part = 0;

	if (!vcl_device_valid(d))
		return CL_INVALID_DEVICE;
	switch (param_name) {
	case CL_DEVICE_TYPE:
		type = CL_DEVICE_TYPE_ACCELERATOR |
			(d == vcl_device_get(0) ? CL_DEVICE_TYPE_DEFAULT : 0);
		return VCL_INFO(type);
	case CL_DEVICE_VENDOR_ID:
		u = 0;
		return VCL_INFO(u);
	case CL_DEVICE_MAX_COMPUTE_UNITS:
		u = d->compute_units ? d->compute_units : 1;
		return VCL_INFO(u);
	case CL_DEVICE_MAX_WORK_ITEM_DIMENSIONS:
		u = 3;
		return VCL_INFO(u);
	case CL_DEVICE_MAX_WORK_ITEM_SIZES:
		sizes[0] = sizes[1] = sizes[2] = d->info.max_workgroup_items;
		return VCL_INFO(sizes);
	case CL_DEVICE_MAX_WORK_GROUP_SIZE:
		sz = d->info.max_workgroup_items;
		return VCL_INFO(sz);
	case CL_DEVICE_PREFERRED_VECTOR_WIDTH_CHAR:
	case CL_DEVICE_PREFERRED_VECTOR_WIDTH_SHORT:
	case CL_DEVICE_PREFERRED_VECTOR_WIDTH_INT:
	case CL_DEVICE_PREFERRED_VECTOR_WIDTH_LONG:
	case CL_DEVICE_PREFERRED_VECTOR_WIDTH_FLOAT:
	case CL_DEVICE_PREFERRED_VECTOR_WIDTH_DOUBLE:
	case CL_DEVICE_NATIVE_VECTOR_WIDTH_CHAR:
	case CL_DEVICE_NATIVE_VECTOR_WIDTH_SHORT:
	case CL_DEVICE_NATIVE_VECTOR_WIDTH_INT:
	case CL_DEVICE_NATIVE_VECTOR_WIDTH_LONG:
	case CL_DEVICE_NATIVE_VECTOR_WIDTH_FLOAT:
	case CL_DEVICE_NATIVE_VECTOR_WIDTH_DOUBLE:
		/* A scalar machine. */
		u = 1;
		return VCL_INFO(u);
	case CL_DEVICE_PREFERRED_VECTOR_WIDTH_HALF:
	case CL_DEVICE_NATIVE_VECTOR_WIDTH_HALF:
		u = 0;
		return VCL_INFO(u);
	case CL_DEVICE_MAX_CLOCK_FREQUENCY:
		/* Not a clock: an interpreter.  The specification wants MHz. */
		u = 1;
		return VCL_INFO(u);
	case CL_DEVICE_ADDRESS_BITS:
		u = 64;
		return VCL_INFO(u);
	case CL_DEVICE_MAX_MEM_ALLOC_SIZE:
		ul = vcl_max_alloc(d);
		return VCL_INFO(ul);
	case CL_DEVICE_IMAGE_SUPPORT:
	case CL_DEVICE_ERROR_CORRECTION_SUPPORT:
	case CL_DEVICE_HOST_UNIFIED_MEMORY:
	case CL_DEVICE_PREFERRED_INTEROP_USER_SYNC:
	case CL_DEVICE_SUB_GROUP_INDEPENDENT_FORWARD_PROGRESS:
	case CL_DEVICE_NON_UNIFORM_WORK_GROUP_SUPPORT:
	case CL_DEVICE_WORK_GROUP_COLLECTIVE_FUNCTIONS_SUPPORT:
	case CL_DEVICE_GENERIC_ADDRESS_SPACE_SUPPORT:
	case CL_DEVICE_PIPE_SUPPORT:
		b = param_name == CL_DEVICE_HOST_UNIFIED_MEMORY ||
		    param_name == CL_DEVICE_PREFERRED_INTEROP_USER_SYNC;
		return VCL_INFO(b);
	case CL_DEVICE_MAX_READ_IMAGE_ARGS:
	case CL_DEVICE_MAX_WRITE_IMAGE_ARGS:
	case CL_DEVICE_MAX_READ_WRITE_IMAGE_ARGS:
	case CL_DEVICE_MAX_SAMPLERS:
	case CL_DEVICE_IMAGE_PITCH_ALIGNMENT:
	case CL_DEVICE_IMAGE_BASE_ADDRESS_ALIGNMENT:
	case CL_DEVICE_MAX_PIPE_ARGS:
	case CL_DEVICE_PIPE_MAX_ACTIVE_RESERVATIONS:
	case CL_DEVICE_PIPE_MAX_PACKET_SIZE:
	case CL_DEVICE_MAX_ON_DEVICE_QUEUES:
	case CL_DEVICE_MAX_ON_DEVICE_EVENTS:
	case CL_DEVICE_QUEUE_ON_DEVICE_PREFERRED_SIZE:
	case CL_DEVICE_QUEUE_ON_DEVICE_MAX_SIZE:
	case CL_DEVICE_MAX_NUM_SUB_GROUPS:
	case CL_DEVICE_PARTITION_MAX_SUB_DEVICES:
	case CL_DEVICE_PREFERRED_PLATFORM_ATOMIC_ALIGNMENT:
	case CL_DEVICE_PREFERRED_GLOBAL_ATOMIC_ALIGNMENT:
	case CL_DEVICE_PREFERRED_LOCAL_ATOMIC_ALIGNMENT:
	case CL_DEVICE_REFERENCE_COUNT:
		/* Images, pipes, device queues, sub-groups, partitions: none. */
		u = param_name == CL_DEVICE_REFERENCE_COUNT ? 1 : 0;
		return VCL_INFO(u);
	case CL_DEVICE_IMAGE2D_MAX_WIDTH:
	case CL_DEVICE_IMAGE2D_MAX_HEIGHT:
	case CL_DEVICE_IMAGE3D_MAX_WIDTH:
	case CL_DEVICE_IMAGE3D_MAX_HEIGHT:
	case CL_DEVICE_IMAGE3D_MAX_DEPTH:
	case CL_DEVICE_IMAGE_MAX_BUFFER_SIZE:
	case CL_DEVICE_IMAGE_MAX_ARRAY_SIZE:
	case CL_DEVICE_MAX_GLOBAL_VARIABLE_SIZE:
	case CL_DEVICE_GLOBAL_VARIABLE_PREFERRED_TOTAL_SIZE:
		sz = 0;
		return VCL_INFO(sz);
	case CL_DEVICE_MAX_PARAMETER_SIZE:
		/* The argument block, less its header. */
		sz = VACCEL_LAUNCH_MAX_ARGS - 64;
		return VCL_INFO(sz);
	case CL_DEVICE_MEM_BASE_ADDR_ALIGN:
		/* Bits: buffers start on a page. */
		u = 8 * 4096;
		return VCL_INFO(u);
	case CL_DEVICE_MIN_DATA_TYPE_ALIGN_SIZE:
		u = 128;
		return VCL_INFO(u);
	case CL_DEVICE_SINGLE_FP_CONFIG:
		fp |= CL_FP_CORRECTLY_ROUNDED_DIVIDE_SQRT;
		return VCL_INFO(fp);
	case CL_DEVICE_DOUBLE_FP_CONFIG:
		return VCL_INFO(fp);
	case CL_DEVICE_HALF_FP_CONFIG:
		fp = 0;
		return VCL_INFO(fp);
	case CL_DEVICE_GLOBAL_MEM_CACHE_TYPE:
		u = CL_NONE;
		return VCL_INFO(u);
	case CL_DEVICE_GLOBAL_MEM_CACHELINE_SIZE:
		u = 0;
		return VCL_INFO(u);
	case CL_DEVICE_GLOBAL_MEM_CACHE_SIZE:
		ul = 0;
		return VCL_INFO(ul);
	case CL_DEVICE_GLOBAL_MEM_SIZE:
		ul = vcl_global_mem(d);
		return VCL_INFO(ul);
	case CL_DEVICE_MAX_CONSTANT_BUFFER_SIZE:
		ul = vcl_max_alloc(d);
		return VCL_INFO(ul);
	case CL_DEVICE_MAX_CONSTANT_ARGS:
		u = 64;
		return VCL_INFO(u);
	case CL_DEVICE_LOCAL_MEM_TYPE:
		u = CL_LOCAL;
		return VCL_INFO(u);
	case CL_DEVICE_LOCAL_MEM_SIZE:
		ul = d->info.max_local_size;
		return VCL_INFO(ul);
	case CL_DEVICE_PROFILING_TIMER_RESOLUTION:
		sz = 1;
		return VCL_INFO(sz);
	case CL_DEVICE_ENDIAN_LITTLE:
	case CL_DEVICE_AVAILABLE:
	case CL_DEVICE_COMPILER_AVAILABLE:
	case CL_DEVICE_LINKER_AVAILABLE:
		b = CL_TRUE;
		return VCL_INFO(b);
	case CL_DEVICE_EXECUTION_CAPABILITIES:
		return VCL_INFO(exec);
	case CL_DEVICE_QUEUE_ON_HOST_PROPERTIES:
		return VCL_INFO(qprops);
	case CL_DEVICE_QUEUE_ON_DEVICE_PROPERTIES:
	case CL_DEVICE_SVM_CAPABILITIES:
	case CL_DEVICE_ATOMIC_MEMORY_CAPABILITIES:
	case CL_DEVICE_ATOMIC_FENCE_CAPABILITIES:
	case CL_DEVICE_DEVICE_ENQUEUE_CAPABILITIES:
		/* The minimum of 3.0 for the atomics: relaxed, work-group. */
		ul = 0;
		if (param_name == CL_DEVICE_ATOMIC_MEMORY_CAPABILITIES)
			ul = CL_DEVICE_ATOMIC_ORDER_RELAXED | CL_DEVICE_ATOMIC_SCOPE_WORK_GROUP;
		if (param_name == CL_DEVICE_ATOMIC_FENCE_CAPABILITIES)
			ul = CL_DEVICE_ATOMIC_ORDER_RELAXED | CL_DEVICE_ATOMIC_ORDER_ACQ_REL |
				CL_DEVICE_ATOMIC_SCOPE_WORK_GROUP;
		return VCL_INFO(ul);
	case CL_DEVICE_BUILT_IN_KERNELS:
		return VCL_INFO_STR("");
	case CL_DEVICE_BUILT_IN_KERNELS_WITH_VERSION:
	case CL_DEVICE_ILS_WITH_VERSION:
		return vcl_info(NULL, 0, param_value_size, param_value,
				param_value_size_ret);
	case CL_DEVICE_IL_VERSION:
		return VCL_INFO_STR("");
	case CL_DEVICE_PLATFORM:
		return VCL_INFO(p);
	case CL_DEVICE_NAME:
		return VCL_INFO_STR(d->name);
	case CL_DEVICE_VENDOR:
		return VCL_INFO_STR(VCL_PLATFORM_VENDOR);
	case CL_DRIVER_VERSION:
		return VCL_INFO_STR(VACCEL_CL_VERSION);
	case CL_DEVICE_PROFILE:
		return VCL_INFO_STR("FULL_PROFILE");
	case CL_DEVICE_VERSION:
		return VCL_INFO_STR("OpenCL 3.0 vaccel");
	case CL_DEVICE_NUMERIC_VERSION:
		v = CL_MAKE_VERSION(3, 0, 0);
		return VCL_INFO(v);
	case CL_DEVICE_OPENCL_C_VERSION:
		return VCL_INFO_STR("OpenCL C 1.2 vaccel");
	case CL_DEVICE_OPENCL_C_ALL_VERSIONS:
		return vcl_c_versions(param_value_size, param_value, param_value_size_ret);
	case CL_DEVICE_OPENCL_C_FEATURES:
		return vcl_c_features(param_value_size, param_value, param_value_size_ret);
	case CL_DEVICE_EXTENSIONS:
		return VCL_INFO_STR(VCL_EXTENSIONS);
	case CL_DEVICE_EXTENSIONS_WITH_VERSION:
		return vcl_extensions_with_version(param_value_size, param_value,
						   param_value_size_ret);
	case CL_DEVICE_PRINTF_BUFFER_SIZE:
		sz = VCL_PRINTF_BUFFER_SIZE;
		return VCL_INFO(sz);
	case CL_DEVICE_PARENT_DEVICE:
		return VCL_INFO(none);
	case CL_DEVICE_PARTITION_PROPERTIES:
	case CL_DEVICE_PARTITION_TYPE:
		return VCL_INFO(part);
	case CL_DEVICE_PARTITION_AFFINITY_DOMAIN:
		ul = 0;
		return VCL_INFO(ul);
	case CL_DEVICE_PREFERRED_WORK_GROUP_SIZE_MULTIPLE:
		sz = 1;
		return VCL_INFO(sz);
	case CL_DEVICE_LATEST_CONFORMANCE_VERSION_PASSED:
		/* Never submitted for conformance: the format, and no claim. */
		return VCL_INFO_STR("v0000-01-01-00");
	default:
		return CL_INVALID_VALUE;
	}
}

CL_API_ENTRY cl_int CL_API_CALL
clRetainDevice(cl_device_id d)
{
	return vcl_device_valid(d) ? CL_SUCCESS : CL_INVALID_DEVICE;
}

CL_API_ENTRY cl_int CL_API_CALL
clReleaseDevice(cl_device_id d)
{
	return vcl_device_valid(d) ? CL_SUCCESS : CL_INVALID_DEVICE;
}

CL_API_ENTRY cl_int CL_API_CALL
clCreateSubDevices(cl_device_id d, const cl_device_partition_property *props,
		   cl_uint num_devices, cl_device_id *out, cl_uint *num_devices_ret)
{
	if (!vcl_device_valid(d))
		return CL_INVALID_DEVICE;
	/* CL_DEVICE_PARTITION_PROPERTIES is empty: every partition is refused. */
	return CL_INVALID_VALUE;
}

CL_API_ENTRY cl_int CL_API_CALL
clGetHostTimer(cl_device_id d, cl_ulong *host_timestamp)
{
	if (!vcl_device_valid(d))
		return CL_INVALID_DEVICE;
	if (!host_timestamp)
		return CL_INVALID_VALUE;
	*host_timestamp = vcl_now_ns();
	return CL_SUCCESS;
}

CL_API_ENTRY cl_int CL_API_CALL
clGetDeviceAndHostTimer(cl_device_id d, cl_ulong *device_timestamp,
			cl_ulong *host_timestamp)
{
	if (!vcl_device_valid(d))
		return CL_INVALID_DEVICE;
	if (!device_timestamp || !host_timestamp)
		return CL_INVALID_VALUE;
	/* The engines' clock is CLOCK_MONOTONIC, the host's. */
	*device_timestamp = *host_timestamp = vcl_now_ns();
	return CL_SUCCESS;
}

CL_API_ENTRY cl_int CL_API_CALL
clUnloadCompiler(void)
{
	return CL_SUCCESS;
}

CL_API_ENTRY cl_int CL_API_CALL
clUnloadPlatformCompiler(cl_platform_id platform)
{
	return vcl_platform_valid(platform) && platform ? CL_SUCCESS : CL_INVALID_PLATFORM;
}

/* The extension functions the ICD has: only the loader's own. */
VCL_EXPORT CL_API_ENTRY void *CL_API_CALL
clGetExtensionFunctionAddress(const char *name)
{
	if (name && !strcmp(name, "clIcdGetPlatformIDsKHR"))
		return (void *)clIcdGetPlatformIDsKHR;
	return NULL;
}

CL_API_ENTRY void *CL_API_CALL
clGetExtensionFunctionAddressForPlatform(cl_platform_id platform, const char *name)
{
	if (!vcl_platform_valid(platform))
		return NULL;
	return clGetExtensionFunctionAddress(name);
}
