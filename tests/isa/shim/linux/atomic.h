/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Copyright 2026 The vaccel authors
 *
 * What vaccel_rv.c uses of the kernel's <linux/atomic.h>, in user space:
 * fully ordered cmpxchg() and xchg(), and smp_mb().
 */
#ifndef __VACCEL_SHIM_LINUX_ATOMIC_H__
#define __VACCEL_SHIM_LINUX_ATOMIC_H__

#define cmpxchg(ptr, o, n) ({						\
	__typeof__(*(ptr)) __old = (o);					\
	__atomic_compare_exchange_n((ptr), &__old, (n), 0,		\
				    __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);\
	__old;								\
})
#define xchg(ptr, v)	__atomic_exchange_n((ptr), (v), __ATOMIC_SEQ_CST)
#define smp_mb()	__atomic_thread_fence(__ATOMIC_SEQ_CST)

#endif /* __VACCEL_SHIM_LINUX_ATOMIC_H__ */
