// SPDX-License-Identifier: MIT
/*
 * Copyright 2026 The vaccel authors
 *
 * compute_kernel.c - bench_compute's work as vaccel kernels: work-item i
 * computes the work from seed + i and stores it in out[i].
 */
#include <vaccel_kernel.h>

#include "../compute_work.h"

VACCEL_KERNEL(bench_int, const struct compute_args *a)
{
	uint64_t i = vaccel_global_id(0);

	((uint64_t *)a->out)[i] = work_int(a->seed + i, a->n);
}

VACCEL_KERNEL(bench_fp, const struct compute_args *a)
{
	uint64_t i = vaccel_global_id(0);

	((double *)a->out)[i] = work_fp((double)(a->seed + i), a->n);
}
