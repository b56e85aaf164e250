/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Copyright 2026 The vaccel authors
 */
#ifndef __VACCEL_COREDUMP_H__
#define __VACCEL_COREDUMP_H__

#include <linux/types.h>

struct seq_file;
struct vaccel_context;
struct vaccel_coredump;
struct vaccel_device;
struct vaccel_engine;
struct vaccel_fault;
struct vaccel_job;

int vaccel_coredump_init(struct vaccel_device *vdev);
void vaccel_coredump_unplug(struct vaccel_device *vdev);
struct vaccel_coredump *vaccel_coredump_begin(struct vaccel_device *vdev,
					      u32 kind,
					      struct vaccel_engine *engine);
void vaccel_coredump_add_job(struct vaccel_coredump *cd,
			     struct vaccel_engine *engine,
			     struct vaccel_job *job);
void vaccel_coredump_add_walk(struct vaccel_coredump *cd,
			      struct vaccel_engine *engine,
			      struct vaccel_job *job,
			      const struct vaccel_fault *fault);
void vaccel_coredump_add_engine_locked(struct vaccel_coredump *cd,
				       struct vaccel_engine *engine, u64 now);
void vaccel_coredump_add_context_locked(struct vaccel_coredump *cd,
					struct vaccel_context *ctx,
					bool guilty, u64 now);
void vaccel_coredump_commit(struct vaccel_coredump *cd);
void vaccel_coredump_show(struct vaccel_device *vdev, struct seq_file *m);

#endif /* __VACCEL_COREDUMP_H__ */
