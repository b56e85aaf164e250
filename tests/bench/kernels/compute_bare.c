// SPDX-License-Identifier: MIT
/*
 * Copyright 2026 The vaccel authors
 *
 * compute_bare.c - bench_compute's integer work as one bare RV64 function,
 * for its bare interpreter (bare_rv.c): the same code as the vaccel
 * kernel's, linked alone as a flat binary and included in bench_compute
 * (bare_code.S).
 */
#include "../compute_work.h"

uint64_t bare_work_int(uint64_t x, uint32_t n);

uint64_t bare_work_int(uint64_t x, uint32_t n)
{
	return work_int(x, n);
}
