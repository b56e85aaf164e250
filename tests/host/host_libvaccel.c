// SPDX-License-Identifier: MIT
/*
 * Copyright 2026 The vaccel authors
 *
 * host_libvaccel.c - libvaccel where there is no vaccel device: run.sh
 * points VACCEL_DEVICE_DIR at a directory whose accel nodes belong to
 * other drivers (/dev/null, /dev/zero) and checks that nothing is found and
 * that every error path returns the documented errno.
 *
 *	host_libvaccel DIR
 *
 * Prints the first failed check on stderr and exits 1, else exits 0.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <vaccel.h>

#include "host_check.h"

int main(int argc, char **argv)
{
	struct vaccel_device *dev = (struct vaccel_device *)&dev;
	struct vaccel_device_info info;
	struct vaccel_engine_info e;
	struct vaccel_bo *bo = (struct vaccel_bo *)&bo;
	struct vaccel_vm_stats stats;
	uint32_t size = 0;
	uint64_t va = 1;
	void *ptr = NULL;
	int fd = -1;

	if (argc != 2) {
		fprintf(stderr, "usage: %s DIR\n", argv[0]);
		return 2;
	}

	CHECK(!setenv("VACCEL_DEVICE_DIR", "/nonexistent", 1));
	CHECK(vaccel_device_count() == 0);
	CHECK(vaccel_device_open(0, &dev) == -ENODEV);

	CHECK(!setenv("VACCEL_DEVICE_DIR", argv[1], 1));
	CHECK(vaccel_device_count() == 0);
	CHECK(vaccel_device_open(0, &dev) == -ENODEV);
	CHECK(vaccel_device_open(0, NULL) == -EINVAL);
	CHECK(dev == (struct vaccel_device *)&dev);

	CHECK(vaccel_device_open_path("/dev/null", &dev) == -ENODEV);
	CHECK(vaccel_device_open_path("/dev/zero", &dev) == -ENODEV);
	CHECK(vaccel_device_open_path("/nonexistent", &dev) == -ENOENT);
	CHECK(vaccel_device_open_path("/", &dev) == -EISDIR);
	CHECK(vaccel_device_open_path(NULL, &dev) == -EINVAL);
	CHECK(dev == (struct vaccel_device *)&dev);

	vaccel_device_close(NULL);
	CHECK(vaccel_device_fd(NULL) == -EINVAL);
	CHECK(!vaccel_device_path(NULL));
	CHECK(vaccel_device_get_info(NULL, &info) == -EINVAL);
	CHECK(vaccel_device_engine_count(NULL) == -EINVAL);
	CHECK(vaccel_device_get_engine(NULL, 0, &e) == -EINVAL);
	CHECK(vaccel_device_query(NULL, 0, NULL, &size) == -EINVAL);

	/* The memory API with NULL handles. */
	CHECK(vaccel_device_vm_stats(NULL, &stats) == -EINVAL);
	CHECK(vaccel_va_alloc(NULL, 4096, 0, &va) == -EINVAL);
	CHECK(vaccel_va_free(NULL, 0x10000, 4096) == -EINVAL);
	CHECK(vaccel_bo_alloc(NULL, 4096, 0, &bo) == -EINVAL);
	CHECK(vaccel_bo_import(NULL, 0, &bo) == -EINVAL);
	CHECK(bo == (struct vaccel_bo *)&bo);
	vaccel_bo_free(NULL);
	CHECK(vaccel_bo_map(NULL, &ptr) == -EINVAL);
	CHECK(vaccel_bo_export(NULL, &fd) == -EINVAL);
	CHECK(vaccel_bo_va(NULL) == 0);
	CHECK(vaccel_bo_size(NULL) == 0);
	CHECK(vaccel_bo_handle(NULL) == 0);
	CHECK(fd == -1 && ptr == NULL && va == 1);

	/* Queues and events with NULL handles. */
	{
		struct vaccel_queue *q = (struct vaccel_queue *)&q;
		struct vaccel_event *ev = (struct vaccel_event *)&ev;

		CHECK(vaccel_queue_create(NULL, VACCEL_ENGINE_CLASS_COMPUTE,
					  VACCEL_PRIORITY_NORMAL, &q) == -EINVAL);
		CHECK(q == (struct vaccel_queue *)&q);
		vaccel_queue_destroy(NULL);
		CHECK(vaccel_queue_copy(NULL, 0x10000, 0x20000, 8) == -EINVAL);
		CHECK(vaccel_queue_fill(NULL, 0x10000, 8, 0) == -EINVAL);
		CHECK(vaccel_queue_write(NULL, 0x10000, 0, 32) == -EINVAL);
		CHECK(vaccel_queue_timestamp(NULL, 0x10000) == -EINVAL);
		CHECK(vaccel_queue_wait_mem(NULL, 0x10000, 0, ~0ull, VACCEL_COMPARE_EQ,
					    32) == -EINVAL);
		CHECK(vaccel_queue_delay(NULL, 1) == -EINVAL);
		CHECK(vaccel_queue_flush(NULL) == -EINVAL);
		CHECK(vaccel_queue_finish(NULL) == -EINVAL);
		CHECK(vaccel_queue_signal(NULL, NULL) == -EINVAL);
		CHECK(vaccel_queue_wait_event(NULL, NULL) == -EINVAL);
		CHECK(vaccel_event_create(NULL, &ev) == -EINVAL);
		CHECK(ev == (struct vaccel_event *)&ev);
		vaccel_event_destroy(NULL);
		CHECK(vaccel_event_wait(NULL, 0) == -EINVAL);
		CHECK(vaccel_event_signal(NULL) == -EINVAL);
		CHECK(vaccel_event_reset(NULL) == -EINVAL);
		CHECK(vaccel_event_export_sync_file(NULL, &fd) == -EINVAL);
		CHECK(fd == -1);
	}

	CHECK(!strcmp(vaccel_engine_class_name(VACCEL_ENGINE_CLASS_COMPUTE), "compute"));
	CHECK(!strcmp(vaccel_engine_class_name(VACCEL_ENGINE_CLASS_COPY), "copy"));
	CHECK(!strcmp(vaccel_engine_class_name(VACCEL_ENGINE_CLASS_PAGING), "paging"));
	CHECK(!vaccel_engine_class_name(3));
	CHECK(!strcmp(vaccel_preempt_granularity_name(VACCEL_PREEMPT_DMA_BUFFER),
		      "dma-buffer"));
	CHECK(!strcmp(vaccel_preempt_granularity_name(VACCEL_PREEMPT_PACKET), "packet"));
	CHECK(!strcmp(vaccel_preempt_granularity_name(VACCEL_PREEMPT_WORKGROUP),
		      "workgroup"));
	CHECK(!strcmp(vaccel_preempt_granularity_name(VACCEL_PREEMPT_INSTRUCTION),
		      "instruction"));
	CHECK(!vaccel_preempt_granularity_name(4));
	return 0;
}
