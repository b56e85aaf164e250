// SPDX-License-Identifier: MIT
/*
 * Copyright 2026 The vaccel authors
 */

/**
 * DOC: Answers and errors
 *
 * Every clGet*Info() answers the same way: the value's size in
 * *param_value_size_ret if asked, the value in param_value if given, and
 * CL_INVALID_VALUE if param_value is too small for it.  vcl_info() is
 * that rule, once.  vcl_errno_to_cl() maps libvaccel's negative errnos
 * to the OpenCL error codes of the command that got them.
 */
#include <errno.h>
#include <string.h>
#include <time.h>

#include "icd.h"

cl_int vcl_info(const void *value, size_t size, size_t param_value_size,
		void *param_value, size_t *param_value_size_ret)
{
	if (param_value) {
		if (param_value_size < size)
			return CL_INVALID_VALUE;
		if (size)
			memcpy(param_value, value, size);
	}
	if (param_value_size_ret)
		*param_value_size_ret = size;
	return CL_SUCCESS;
}

cl_int vcl_info_string(const char *s, size_t param_value_size,
		       void *param_value, size_t *param_value_size_ret)
{
	return vcl_info(s, strlen(s) + 1, param_value_size, param_value,
			param_value_size_ret);
}

cl_int vcl_errno_to_cl(int err)
{
	switch (err) {
	case 0:
		return CL_SUCCESS;
	case -ENOMEM:
		return CL_OUT_OF_HOST_MEMORY;
	case -ENOSPC:
	case -E2BIG:
		return CL_MEM_OBJECT_ALLOCATION_FAILURE;
	default:
		/*
		 * A fault, a hang, the time limit, a cancelled command:
		 * what GPU implementations report for an illegal address.
		 */
		return CL_OUT_OF_RESOURCES;
	}
}

uint64_t vcl_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}
