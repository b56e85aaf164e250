// SPDX-License-Identifier: MIT
/*
 * Copyright 2026 The vaccel authors
 *
 * hello.c - a first vaccel program: opens the device, allocates a buffer,
 * loads the kernel module built into this program (vaccel-cc --embed),
 * launches the kernel on a compute queue, waits, and checks the result.
 * Each libvaccel call returns 0 or a negative errno.  The Makefile next
 * to this file builds it; README.md, "Your first kernel", explains it.
 *
 *	usage: hello [DEVICE]	(default 0: /dev/accel/accel0)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <vaccel.h>
#include <vaccel_embed.h>

#include "hello.h"

VACCEL_EMBED_DECLARE(hello);	/* the module: vaccel-cc --embed=hello */

static void check(int ret, const char *what)
{
	if (ret < 0) {
		fprintf(stderr, "hello: %s: %s\n", what, strerror(-ret));
		exit(1);	/* the driver frees what a process leaves */
	}
}

int main(int argc, char **argv)
{
	enum { N = 1000 };
	uint32_t grid[3] = { N, 1, 1 }, workgroup[3] = { 64, 1, 1 }, *squares;
	char msg[VACCEL_MODULE_MSG_SIZE] = "", text[256];
	struct vaccel_device *dev;
	struct vaccel_module *mod;
	struct vaccel_kernel *k;
	struct vaccel_queue *q;
	struct vaccel_bo *bo;
	struct hello_args args;
	unsigned int i, wrong = 0;

	check(vaccel_device_open(argc > 1 ? atoi(argv[1]) : 0, &dev), "open the device");
	check(vaccel_bo_alloc(dev, N * sizeof(*squares), 0, &bo), "allocate");
	check(vaccel_bo_map(bo, (void **)&squares), "map");
	if (vaccel_module_load(dev, VACCEL_EMBED(hello), &mod, msg, sizeof(msg)) < 0) {
		fprintf(stderr, "hello: load the module: %s\n", msg);
		return 1;
	}
	check(vaccel_kernel_get(mod, "squares", &k), "find the kernel");
	check(vaccel_queue_create(dev, VACCEL_ENGINE_CLASS_COMPUTE, VACCEL_PRIORITY_NORMAL, &q),
	      "create a queue");

	args = (struct hello_args){ .squares = vaccel_bo_va(bo), .n = N };
	check(vaccel_launch(q, k, grid, workgroup, &args, sizeof(args)), "launch");
	check(vaccel_queue_finish(q), "run");	/* a fault, a hang: -EIO and more */

	if (vaccel_module_read_print(mod, text, sizeof(text)) > 0)
		fputs(text, stdout);
	for (i = 0; i < N; i++)
		wrong += squares[i] != i * i;
	printf("hello: %u squares from %s, %s\n", N, vaccel_device_path(dev),
	       wrong ? "WRONG" : "all right");

	vaccel_queue_destroy(q);
	vaccel_module_destroy(mod);
	vaccel_bo_free(bo);
	vaccel_device_close(dev);
	return wrong ? 1 : 0;
}
