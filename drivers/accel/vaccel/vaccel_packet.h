/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Copyright 2026 The vaccel authors
 */
#ifndef __VACCEL_PACKET_H__
#define __VACCEL_PACKET_H__

#include <linux/sizes.h>

/* The largest COPY or FILL, reported by the device query: a BO's most. */
#define VACCEL_MAX_COPY_SIZE	SZ_4G
/* The longest packet, header included: DISPATCH's with a workgroup range. */
#define VACCEL_PKT_MAX_WORDS	13

struct vaccel_engine;
struct vaccel_fault;
struct vaccel_job;

int vaccel_packet_run(struct vaccel_engine *engine, struct vaccel_job *job,
		      struct vaccel_fault *fault);
void vaccel_packet_wrote(struct vaccel_engine *engine);

#endif /* __VACCEL_PACKET_H__ */
