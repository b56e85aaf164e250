/* SPDX-License-Identifier: MIT */
/*
 * Copyright 2026 The vaccel authors
 *
 * cl_abi.h - what the IR step (lower.c), the device library and the ICD
 * agree on: the argument block's hidden header, the kernels' entries and
 * the metadata section.  Plain C, for the host and the device alike.
 */
#ifndef VACCEL_CL_ABI_H
#define VACCEL_CL_ABI_H

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
/*
 * A grid split into slabs along one dimension (the runtime's kernel.c):
 * that dimension plus one (32 bits, 0 when not split), the slab's first
 * work-item along it (64 bits, relative to the global offset) and the
 * grid's size along it (64 bits).
 */
#define VACCEL_CL_HEADER_SPLIT_DIM	44
#define VACCEL_CL_HEADER_SPLIT_START	48
#define VACCEL_CL_HEADER_SPLIT_SIZE	56

/* Prefix of the kernels' entries; the loader's kernels are named without it. */
#define VACCEL_CL_ENTRY_PREFIX		"__vaccel_cl_"

/*
 * The device library's way to the header: ``ulong __vaccel_header_va(void)``,
 * declared there and never defined; the IR step gives it its value.
 */
#define VACCEL_CL_HEADER_FN		"__vaccel_header_va"

/*
 * The kernels' metadata, in a section of the module that is not loaded:
 * text, a line per record, fields separated by tabs.  The first line is
 * the magic; the second says whether the program calls printf (1 or 0):
 *
 *   program PRINTF
 *
 * then each kernel:
 *
 *   kernel NAME NUM_ARGS BLOCK_SIZE REQD_X REQD_Y REQD_Z HINT_X HINT_Y HINT_Z VEC_TYPE_HINT
 *
 * followed by a line per parameter:
 *
 *   arg KIND ACCESS TYPE_QUALIFIERS OFFSET SIZE TYPE_NAME NAME
 *
 * KIND is global, constant, local, private (a pointer), value or byval (a
 * struct); ACCESS is clang's access qualifier (none, read_only, ...);
 * TYPE_QUALIFIERS is clang's, space separated (const restrict volatile).
 * OFFSET and SIZE place the parameter in the argument block.
 */
#define VACCEL_CL_META_SECTION		".vaccel.cl.kernels"
#define VACCEL_CL_META_MAGIC		"vaccel-cl-kernels 1"

#endif /* VACCEL_CL_ABI_H */
