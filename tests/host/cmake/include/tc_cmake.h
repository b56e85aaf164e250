/* SPDX-License-Identifier: MIT */
/* The argument block of the CMake test's kernels. */
#ifndef TC_CMAKE_H
#define TC_CMAKE_H

#include <stdint.h>

struct tc_cmake_args {
	uint64_t data;
	uint32_t n;
	uint32_t pad;
};

#endif
