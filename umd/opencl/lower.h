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

/* Bytes of the hidden header at the start of every argument block. */
#define VACCEL_CL_HEADER_SIZE		64
/*
 * Offsets in the header: the global offset (3 x 64 bits), get_work_dim(),
 * and the launch's printf buffer: its GPU address (64 bits, 0 for none)
 * and its size in bytes (32 bits).
 */
#define VACCEL_CL_HEADER_OFFSET		0
#define VACCEL_CL_HEADER_WORK_DIM	24
#define VACCEL_CL_HEADER_PRINTF_VA	32
#define VACCEL_CL_HEADER_PRINTF_SIZE	40

/* Prefix of the kernels' entries; the loader's kernels are named without it. */
#define VACCEL_CL_ENTRY_PREFIX		"__vaccel_cl_"

int vaccel_cl_lower(LLVMModuleRef m, LLVMModuleRef lib, char *log,
		    size_t log_size);

#endif /* VACCEL_CL_LOWER_H */
