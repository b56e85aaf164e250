/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Copyright 2026 The vaccel authors
 *
 * What vaccel_rv.c uses of the kernel's <linux/unaligned.h>, in user space.
 */
#ifndef __VACCEL_SHIM_LINUX_UNALIGNED_H__
#define __VACCEL_SHIM_LINUX_UNALIGNED_H__

#include <string.h>

#define get_unaligned(ptr) ({						\
	__typeof__(*(ptr) + 0) __v;					\
	memcpy(&__v, (ptr), sizeof(*(ptr)));				\
	(__typeof__(*(ptr)))__v;					\
})
#define put_unaligned(val, ptr) ({					\
	__typeof__(*(ptr)) __v = (val);					\
	memcpy((ptr), &__v, sizeof(__v));				\
})

#endif /* __VACCEL_SHIM_LINUX_UNALIGNED_H__ */
