// SPDX-License-Identifier: MIT
/* A C++ kernel of the CMake test, linked with scale_kernel.c into one module. */
#include <vaccel_kernel.h>

#include "tc_cmake.h"

template <typename T>
static constexpr T poly(T x)
{
	return x * x + TC_FACTOR;
}

VACCEL_KERNEL(tc_poly, const struct tc_cmake_args *a)
{
	unsigned int i = vaccel_global_id(0);

	if (i < a->n)
		reinterpret_cast<int32_t *>(a->data)[i] = poly<int32_t>((int32_t)i);
}
