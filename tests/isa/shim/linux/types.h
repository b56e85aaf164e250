/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Copyright 2026 The vaccel authors
 *
 * The kernel types for the sources the module shares with user-space
 * tests (vaccel_softfloat.c, vaccel_rv.c): they include <linux/types.h>
 * and nothing else, which this shim provides in user space.
 */
#ifndef __VACCEL_SHIM_LINUX_TYPES_H__
#define __VACCEL_SHIM_LINUX_TYPES_H__

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef uint8_t u8;
typedef uint16_t u16;
typedef uint32_t u32;
typedef uint64_t u64;
typedef int8_t s8;
typedef int16_t s16;
typedef int32_t s32;
typedef int64_t s64;
typedef unsigned __int128 u128;
typedef __int128 s128;

#endif /* __VACCEL_SHIM_LINUX_TYPES_H__ */
