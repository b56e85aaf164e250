/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Copyright 2026 The vaccel authors
 */
#ifndef __VACCEL_DEBUGFS_H__
#define __VACCEL_DEBUGFS_H__

struct vaccel_device;
struct vaccel_vm;

void vaccel_debugfs_init(struct vaccel_device *vdev);
void vaccel_debugfs_vm_add(struct vaccel_vm *vm);
void vaccel_debugfs_vm_remove(struct vaccel_vm *vm);

#endif /* __VACCEL_DEBUGFS_H__ */
