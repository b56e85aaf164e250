// SPDX-License-Identifier: MIT
/* A C kernel of the CMake test: data[i] *= TC_FACTOR. */
#include <vaccel_kernel.h>

#include "tc_cmake.h"

VACCEL_KERNEL(tc_scale, const struct tc_cmake_args *a)
{
	unsigned int i = vaccel_global_id(0);

	if (i < a->n)
		((int32_t *)a->data)[i] *= TC_FACTOR;
}
