/* SPDX-License-Identifier: MIT */
/*
 * Copyright 2026 The vaccel authors
 *
 * faults.h - the argument block of the kernels of faults.c, shared by
 * test_libvaccel_fault.c (host, x86-64) and the kernels (RV64).
 */
#ifndef TF_FAULTS_H
#define TF_FAULTS_H

#include <stdint.h>

/* Every kernel: the GPU address it works on. */
struct tf_args {
	uint64_t p;
};

#endif /* TF_FAULTS_H */
