/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Copyright 2026 The vaccel authors
 */
#ifndef __VACCEL_DISPATCH_H__
#define __VACCEL_DISPATCH_H__

#include <linux/bits.h>
#include <linux/sizes.h>
#include <linux/types.h>

struct drm_vaccel_coredump_dispatch;
struct drm_vaccel_coredump_workitem;
struct vaccel_context;
struct vaccel_cu;
struct vaccel_dispatch;
struct vaccel_engine;
struct vaccel_fault;
struct vaccel_job;
struct vaccel_rv_cpu;

/* The limits of a DISPATCH, reported by the device query. */
#define VACCEL_MAX_WORKGROUP_ITEMS	1024
#define VACCEL_MAX_LOCAL_SIZE		SZ_64K
#define VACCEL_MAX_STACK_SIZE		SZ_64K
#define VACCEL_MAX_PRIVATE_SIZE		SZ_4M
#define VACCEL_MAX_GRID_ITEMS		BIT_ULL(32)

/*
 * The apertures, above any address space's va_end: the workgroup's local
 * memory, the work-items' stacks, and the address a work-item returns to
 * when it ends.
 */
#define VACCEL_LOCAL_BASE		0x0100000000000000ull
#define VACCEL_PRIVATE_BASE		0x0200000000000000ull
#define VACCEL_EXIT_PC			0x0300000000000000ull

int vaccel_dispatch_run(struct vaccel_engine *engine, struct vaccel_job *job,
			u32 flags, const u64 *op, struct vaccel_fault *fault);
bool vaccel_dispatch_range_ok(u64 num_groups, u64 first, u64 count);
void vaccel_dispatch_unit(struct vaccel_cu *cu, struct vaccel_dispatch *d);
void vaccel_dispatch_free(struct vaccel_dispatch *d);
void vaccel_dispatch_put(struct vaccel_context *ctx, struct vaccel_dispatch *d);
s64 vaccel_dispatch_group(const struct vaccel_dispatch *d);
struct vaccel_rv_cpu *vaccel_dispatch_cpu_new(void);
unsigned int vaccel_dispatch_dump(struct vaccel_dispatch *d,
				  struct drm_vaccel_coredump_dispatch *info,
				  struct drm_vaccel_coredump_workitem *items,
				  unsigned int max);

#endif /* __VACCEL_DISPATCH_H__ */
