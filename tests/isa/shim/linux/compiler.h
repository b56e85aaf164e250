/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Copyright 2026 The vaccel authors
 *
 * What vaccel_rv.c uses of the kernel's <linux/compiler.h>, in user space.
 */
#ifndef __VACCEL_SHIM_LINUX_COMPILER_H__
#define __VACCEL_SHIM_LINUX_COMPILER_H__

#define likely(x)	__builtin_expect(!!(x), 1)
#define unlikely(x)	__builtin_expect(!!(x), 0)
#define noinline	__attribute__((__noinline__))
#ifndef __always_inline
#define __always_inline	inline __attribute__((__always_inline__))
#endif
#define __annotate_jump_table
#define READ_ONCE(x)	(*(const volatile __typeof__(x) *)&(x))

#endif /* __VACCEL_SHIM_LINUX_COMPILER_H__ */
