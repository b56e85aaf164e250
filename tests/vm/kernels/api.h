/* SPDX-License-Identifier: MIT */
/*
 * Copyright 2026 The vaccel authors
 *
 * api.h - the argument block of the kernels of api.c, shared by
 * test_api.c (host, x86-64) and the kernels (RV64).
 */
#ifndef TA_API_H
#define TA_API_H

#include <stdint.h>

/* Bytes of the array on ta_frame's stack. */
#define TA_FRAME_BYTES		3000
/* Bytes and alignment of the array on ta_aligned's stack. */
#define TA_ALIGNED_BYTES	256
#define TA_ALIGNED_ALIGN	4096
/* Bytes of the array on ta_huge's stack: above the device's 64 KiB. */
#define TA_HUGE_BYTES		(96 * 1024)
/* Bytes of ta_dynlocal's VACCEL_LOCAL object. */
#define TA_STATIC_LOCAL		40

struct ta_args {
	uint64_t out;
	uint32_t n;
	uint32_t pad;
};

/* What ta_dynlocal stores per workgroup, at its group id. */
struct ta_dynlocal {
	uint64_t dynamic;	/* vaccel_dynamic_local() - vaccel_local_base() */
	uint32_t size;		/* vaccel_dynamic_local_size() */
	uint32_t sum;		/* of the words the work-items wrote there */
	uint32_t stat;		/* the static object's word, untouched */
	uint32_t pad;
};

#endif /* TA_API_H */
