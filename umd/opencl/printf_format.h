/* SPDX-License-Identifier: MIT */
/*
 * Copyright 2026 The vaccel authors
 *
 * printf_format.h - the host's side of OpenCL C's printf: the records a
 * launch left in its printf buffer (printf_buffer.h), formatted with the
 * host's own printf family.
 */
#ifndef VACCEL_CL_PRINTF_FORMAT_H
#define VACCEL_CL_PRINTF_FORMAT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

int vaccel_cl_printf_format(const void *buf, size_t size, FILE *out);
uint32_t vaccel_cl_printf_dropped(const void *buf, size_t size);

#endif /* VACCEL_CL_PRINTF_FORMAT_H */
