/* SPDX-License-Identifier: MIT */
/*
 * Copyright 2026 The vaccel authors
 *
 * example.h - what the host programs of the examples share: the command
 * line, opening the device, a compute queue, loading the example's kernel
 * module, buffers, timing the launch with engine timestamps, and the
 * report.  Each example is a host program (NAME.c), its kernels
 * (NAME_kernel.c, built by vaccel-cc into NAME.elf) and the argument block
 * both see (NAME.h).
 *
 *	example-NAME [-h] [-d INDEX] [-k MODULE] [-n SIZE]
 *
 * The module is found next to the program, in
 * ../share/vaccel/kernels/NAME.elf, unless -k names it.  Exit status: 0
 * when the device computed what the CPU computes, 1 otherwise, 2 on a
 * usage error.
 */
#ifndef EXAMPLE_H
#define EXAMPLE_H

#include <errno.h>
#include <inttypes.h>
#include <libgen.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <vaccel.h>

struct example {
	const char *name;		/* "vadd" */
	unsigned long size;		/* -n, or the example's default */
	struct vaccel_device *dev;
	struct vaccel_queue *q;
	struct vaccel_module *mod;
	struct vaccel_bo *ts;		/* two engine timestamps */
	uint64_t *ts_cpu;
	uint64_t ts_va;
};

/* A buffer the device and the CPU share. */
struct example_buf {
	struct vaccel_bo *bo;
	void *cpu;
	uint64_t va;
};

static inline void example_usage(const struct example *ex, FILE *f,
				 const char *what, unsigned long size,
				 unsigned long max)
{
	fprintf(f,
		"usage: example-%s [-h] [-d INDEX] [-k MODULE] [-n SIZE]\n"
		"%s\n"
		"\n"
		"  -d INDEX   the device of this index (default 0, the first)\n"
		"  -k MODULE  the kernel module (default: %s.elf in\n"
		"             ../share/vaccel/kernels next to the program)\n"
		"  -n SIZE    the problem size (default %lu, at most %lu)\n"
		"  -h         this help\n", ex->name, what, ex->name, size, max);
}

static inline int example_fail(const struct example *ex, const char *what, int err)
{
	fprintf(stderr, "example-%s: %s: %s\n", ex->name, what, strerror(-err));
	return 1;
}

/* Why the queue of @ex failed, in one line, if it did. */
static inline void example_print_fault(const struct example *ex)
{
	char line[VACCEL_FAULT_MSG_SIZE];
	struct vaccel_fault_info f;

	if (!vaccel_queue_get_fault(ex->q, &f) && f.failure != VACCEL_FAILURE_NONE) {
		vaccel_fault_info_format(&f, line, sizeof(line));
		fprintf(stderr, "example-%s: %s\n", ex->name, line);
	}
}

/* The module next to the running program. */
static inline void example_module_path(const struct example *ex, char *path,
				       size_t len)
{
	char exe[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);

	if (n <= 0) {
		snprintf(path, len, "%s.elf", ex->name);
		return;
	}
	exe[n] = '\0';
	snprintf(path, len, "%s/../share/vaccel/kernels/%s.elf", dirname(exe),
		 ex->name);
}

static inline void example_close(struct example *ex)
{
	vaccel_bo_free(ex->ts);
	vaccel_queue_destroy(ex->q);
	vaccel_module_destroy(ex->mod);
	vaccel_device_close(ex->dev);
}

/*
 * Parses the command line, opens the device, a compute queue and the
 * module.  Return: 0, or the exit status to leave with (1 or 2), with a
 * message printed.
 */
static inline int example_open(struct example *ex, int argc, char **argv,
			       const char *what, unsigned long size,
			       unsigned long max)
{
	char path[PATH_MAX + 64], msg[VACCEL_MODULE_MSG_SIZE];
	const char *module = NULL;
	unsigned long index = 0;
	struct vaccel_device_info info;
	void *cpu;
	char *end;
	int opt, ret;

	ex->size = size;
	while ((opt = getopt(argc, argv, "hd:k:n:")) != -1) {
		switch (opt) {
		case 'h':
			example_usage(ex, stdout, what, size, max);
			exit(0);
		case 'k':
			module = optarg;
			break;
		case 'd':
		case 'n':
			errno = 0;
			if (opt == 'd')
				index = strtoul(optarg, &end, 0);
			else
				ex->size = strtoul(optarg, &end, 0);
			if (errno || *end || !*optarg || optarg[0] == '-' ||
			    index > UINT_MAX || !ex->size || ex->size > max) {
				fprintf(stderr, "example-%s: bad value '%s' for -%c\n",
					ex->name, optarg, opt);
				return 2;
			}
			break;
		default:
			example_usage(ex, stderr, what, size, max);
			return 2;
		}
	}
	if (optind < argc) {
		example_usage(ex, stderr, what, size, max);
		return 2;
	}

	ret = vaccel_device_open(index, &ex->dev);
	if (ret == -ENODEV) {
		fprintf(stderr, "no vaccel device found: is the module loaded? (insmod vaccel.ko)\n");
		return 1;
	}
	if (ret)
		return example_fail(ex, "device", ret);
	ret = vaccel_device_get_info(ex->dev, &info);
	if (ret)
		return example_fail(ex, "device info", ret);

	if (!module) {
		example_module_path(ex, path, sizeof(path));
		module = path;
	}
	ret = vaccel_module_load_file(ex->dev, module, &ex->mod, msg, sizeof(msg));
	if (ret) {
		fprintf(stderr, "example-%s: %s: %s\n", ex->name, module,
			msg[0] ? msg : strerror(-ret));
		return 1;
	}
	ret = vaccel_queue_create(ex->dev, VACCEL_ENGINE_CLASS_COMPUTE,
				  VACCEL_PRIORITY_NORMAL, &ex->q);
	if (ret)
		return example_fail(ex, "compute queue", ret);
	ret = vaccel_bo_alloc(ex->dev, 4096, 0, &ex->ts);
	if (!ret)
		ret = vaccel_bo_map(ex->ts, &cpu);
	if (ret)
		return example_fail(ex, "timestamp buffer", ret);
	ex->ts_cpu = cpu;
	ex->ts_va = vaccel_bo_va(ex->ts);
	return 0;
}

static inline int example_buf(struct example *ex, uint64_t size, struct example_buf *b)
{
	int ret;

	ret = vaccel_bo_alloc(ex->dev, size, VACCEL_BO_GPU_NO_EXEC, &b->bo);
	if (ret)
		return ret;
	ret = vaccel_bo_map(b->bo, &b->cpu);
	if (ret) {
		vaccel_bo_free(b->bo);
		b->bo = NULL;
		return ret;
	}
	b->va = vaccel_bo_va(b->bo);
	return 0;
}

/*
 * Launches @kernel between two engine timestamps and waits for it.
 * Return: 0, or the exit status, with a message printed.
 */
static inline int example_run(struct example *ex, const char *kernel,
			      const uint32_t grid[3], const uint32_t wg[3],
			      const void *args, size_t args_size, uint64_t *engine_ns)
{
	struct vaccel_kernel *k;
	int ret;

	ret = vaccel_kernel_get(ex->mod, kernel, &k);
	if (ret)
		return example_fail(ex, kernel, ret);
	if ((ret = vaccel_queue_timestamp(ex->q, ex->ts_va)) ||
	    (ret = vaccel_launch(ex->q, k, grid, wg, args, args_size)) ||
	    (ret = vaccel_queue_timestamp(ex->q, ex->ts_va + 8))) {
		example_fail(ex, "recording the launch", ret);
		example_print_fault(ex);
		return 1;
	}
	ret = vaccel_queue_finish(ex->q);
	if (ret) {
		/* Such as: fault: read of unmapped address ... by launch #2 (kernel ...) */
		example_fail(ex, kernel, ret);
		example_print_fault(ex);
		return 1;
	}
	*engine_ns = ex->ts_cpu[1] - ex->ts_cpu[0];
	return 0;
}

static inline double example_now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

/* A reproducible pseudo-random sequence, the same on every run. */
static inline uint32_t example_rand(uint64_t *state)
{
	*state = *state * 6364136223846793005ull + 1442695040888963407ull;
	return (uint32_t)(*state >> 33);
}

/* A float in [-1, 1), in steps of 2^-12: sums of them are exact for a while. */
static inline float example_randf(uint64_t *state)
{
	return (float)((int)(example_rand(state) % 8192) - 4096) / 4096.0f;
}

/*
 * The last lines of every example: the engine time, the rate of @elements
 * (of the result, or of the input for a reduction), and the verdict.
 */
static inline void example_report(const char *label, uint64_t engine_ns,
				  double cpu_ms, unsigned long elements, bool ok,
				  const char *exact)
{
	printf("  %-34s %9.3f ms on the engine, %7.2f M elements/s (CPU %.3f ms)\n",
	       label, engine_ns / 1e6, engine_ns ? elements * 1e3 / engine_ns : 0.0,
	       cpu_ms);
	printf("result: %s\n", ok ? exact : "WRONG");
}

#endif /* EXAMPLE_H */
