/* SPDX-License-Identifier: MIT */
/*
 * host_lib.h - helpers shared by the host test programs that run libvaccel
 * on the fake device of fake_vaccel.c (LD_PRELOAD).  Each failure is a
 * failed check: it prints where and exits 1 (host_check.h).
 *
 * Include it after defining _GNU_SOURCE (RTLD_DEFAULT).
 */
#ifndef HOST_LIB_H
#define HOST_LIB_H

#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <vaccel.h>

#include "host_check.h"

/* A buffer, mapped on the CPU, and its GPU address. */
struct host_buf {
	struct vaccel_bo *bo;
	union {
		unsigned char *cpu;	/* as bytes */
		uint32_t *w32;		/* as 32-bit words */
	};
	uint64_t va;
};

/* A buffer of @size bytes, mapped and zeroed. */
static inline struct host_buf host_buf_alloc(struct vaccel_device *dev, uint64_t size)
{
	struct host_buf b;
	void *p;

	CHECK_EQ(vaccel_bo_alloc(dev, size, 0, &b.bo), 0);
	CHECK_EQ(vaccel_bo_map(b.bo, &p), 0);
	b.cpu = p;
	b.va = vaccel_bo_va(b.bo);
	memset(p, 0, size);
	return b;
}

/* A queue of class @c, normal priority. */
static inline struct vaccel_queue *host_queue(struct vaccel_device *dev,
					      enum vaccel_engine_class c)
{
	struct vaccel_queue *q;

	CHECK_EQ(vaccel_queue_create(dev, c, VACCEL_PRIORITY_NORMAL, &q), 0);
	return q;
}

/* A function of fake_vaccel.so, such as fake_vaccel_objects. */
static inline void *host_hook(const char *name)
{
	void *p = dlsym(RTLD_DEFAULT, name);

	if (!p) {
		fprintf(stderr, "%s not found: run with LD_PRELOAD=fake_vaccel.so\n", name);
		exit(1);
	}
	return p;
}

#endif /* HOST_LIB_H */
