/* SPDX-License-Identifier: MIT */
/*
 * Copyright 2026 The vaccel authors
 *
 * lower.h - the IR step of OpenCL C: a module clang-14 made for the
 * device, turned into one vaccel can link and launch (see lower.c).
 */
#ifndef VACCEL_CL_LOWER_H
#define VACCEL_CL_LOWER_H

#include <stddef.h>

#include <llvm-c/Core.h>

#include "cl_abi.h"

int vaccel_cl_lower(LLVMModuleRef m, LLVMModuleRef lib, char *log,
		    size_t log_size);

#endif /* VACCEL_CL_LOWER_H */
