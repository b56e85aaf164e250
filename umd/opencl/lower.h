/* SPDX-License-Identifier: MIT */
/*
 * Copyright 2026 The vaccel authors
 *
 * lower.h - the IR step of OpenCL C: a module clang-14 made for the
 * device, turned into one vaccel can link and launch (see lower.c), in
 * parts compiled at the same time when it is large (see split.c).
 */
#ifndef VACCEL_CL_LOWER_H
#define VACCEL_CL_LOWER_H

#include <stdbool.h>
#include <stddef.h>

#include <llvm-c/Core.h>

#include "cl_abi.h"

/* The most parts a program is optimised and compiled in (split.c). */
#define VACCEL_CL_MAX_PARTS	8

/* lower.c */
bool vaccel_cl_is_entry(LLVMValueRef f);
int vaccel_cl_lower(LLVMModuleRef m, LLVMModuleRef lib, char *log,
		    size_t log_size);
int vaccel_cl_optimize(LLVMModuleRef m, char *log, size_t log_size);

/* split.c */
unsigned int vaccel_cl_partition(LLVMModuleRef m, unsigned int max_parts,
				 unsigned int **part_of);
void vaccel_cl_keep_part(LLVMModuleRef m, unsigned int part, const unsigned int *part_of);
int vaccel_cl_optimize_parts(LLVMModuleRef m, unsigned int nparts, const unsigned int *part_of,
			     const char *const *paths, char *log, size_t log_size);

#endif /* VACCEL_CL_LOWER_H */
