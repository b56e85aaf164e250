// SPDX-License-Identifier: MIT
/*
 * Copyright 2026 The vaccel authors
 *
 * bench_unified.c - what a unified device of two devices gains on a
 * compute-bound kernel, and what two compute units of one device gain.
 *
 * bench_compute's integer kernel (compute_work.h) runs over ITEMS
 * work-items in workgroups of WG, through libvaccel, on one device and
 * on a unified device of two (vaccel_device_open_unified()), which gives
 * each member half of the workgroups.  Each is timed from the launch to
 * vaccel_queue_finish(), best of REPS, alternating, in this run; the
 * results must be equal.
 *
 * Compute units would hide what the unified device adds: with the default
 * of a unit per CPU, one device already runs a workgroup on each vCPU of
 * the dev VM.  So, given the module's file and parameters (as make bench
 * gives them), the program reloads the module with compute_units=1 and
 * measures the unified device's speed-up over one device (speedup_2,
 * target 1.6 on the 2-vCPU dev VM) and, for reference, the same split
 * done by hand: two plain devices, each with half of the workgroups
 * (vaccel_launch_ex()), without the unified device's synchronisation.
 * Then it reloads the module with compute_units=2 and measures one device
 * with two units against the one-unit device of the first part
 * (compute_units_2_speedup, target 1.6): the same parallelism inside one
 * device.  It restores the module's parameters at the end.  Without
 * arguments it measures the module as loaded, and says so.
 * Needs two devices (make bench loads three).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <vaccel.h>

#include "bench.h"
#include "compute_work.h"

#define ITEMS		512
#define WG		16
#define N_ITERS		12000
#define REPS		5
#define SEED		777
#define KERNEL_ELF	"/vaccel/bin/compute_kernel.elf"
#define TARGET		1.6

struct setup {
	struct vaccel_device *dev;
	struct vaccel_module *mod;
	struct vaccel_kernel *k;
	struct vaccel_queue *q;
	struct vaccel_bo *out;
	uint64_t *cpu;
};

/* Device @index, or a unified device of devices 0 to @members - 1. */
static void setup(struct setup *s, unsigned int index, int members)
{
	static const unsigned int indices[] = { 0, 1 };
	char msg[VACCEL_MODULE_MSG_SIZE];
	void *cpu;
	int ret;

	ret = members ? vaccel_device_open_unified(indices, members, &s->dev) :
			vaccel_device_open(index, &s->dev);
	if (ret)
		bench_die("open (%d members): %s", members, strerror(-ret));
	ret = vaccel_module_load_file(s->dev, KERNEL_ELF, &s->mod, msg, sizeof(msg));
	if (ret)
		bench_die("%s: %s", KERNEL_ELF, msg[0] ? msg : strerror(-ret));
	if ((ret = vaccel_kernel_get(s->mod, "bench_int", &s->k)) ||
	    (ret = vaccel_queue_create(s->dev, VACCEL_ENGINE_CLASS_COMPUTE,
				       VACCEL_PRIORITY_NORMAL, &s->q)) ||
	    (ret = vaccel_bo_alloc(s->dev, ITEMS * 8, 0, &s->out)) ||
	    (ret = vaccel_bo_map(s->out, &cpu)))
		bench_die("setup: %s", strerror(-ret));
	s->cpu = cpu;
}

static void teardown(struct setup *s)
{
	vaccel_bo_free(s->out);
	vaccel_queue_destroy(s->q);
	vaccel_module_destroy(s->mod);
	vaccel_device_close(s->dev);
}

/* One launch of the whole grid, waited for: its time in ms. */
static double run(struct setup *s)
{
	const uint32_t grid[3] = { ITEMS, 1, 1 }, wg[3] = { WG, 1, 1 };
	struct compute_args args = {
		.out = vaccel_bo_va(s->out), .seed = SEED, .n = N_ITERS,
	};
	uint64_t t;
	int ret;

	memset(s->cpu, 0, ITEMS * 8);
	t = bench_now_ns();
	ret = vaccel_launch(s->q, s->k, grid, wg, &args, sizeof(args));
	if (!ret)
		ret = vaccel_queue_finish(s->q);
	t = bench_now_ns() - t;
	if (ret)
		bench_die("launch: %s", strerror(-ret));
	return t / 1e6;
}

/*
 * The reference of what two devices can do: two plain devices, each
 * launching half of the workgroups (vaccel_launch_ex()) on its own queue,
 * both submitted before either is waited for.
 */
static double run_pair(struct setup *a, struct setup *b)
{
	const uint32_t grid[3] = { ITEMS, 1, 1 }, wg[3] = { WG, 1, 1 };
	struct vaccel_launch_options half = { .group_count = ITEMS / WG / 2 };
	struct compute_args args = { .seed = SEED, .n = N_ITERS };
	uint64_t t;
	int ret;

	t = bench_now_ns();
	args.out = vaccel_bo_va(a->out);
	ret = vaccel_launch_ex(a->q, a->k, grid, wg, &args, sizeof(args), &half);
	if (!ret)
		ret = vaccel_queue_flush(a->q);
	half.first_group = half.group_count;
	args.out = vaccel_bo_va(b->out);
	if (!ret)
		ret = vaccel_launch_ex(b->q, b->k, grid, wg, &args, sizeof(args), &half);
	if (!ret)
		ret = vaccel_queue_finish(b->q);
	if (!ret)
		ret = vaccel_queue_finish(a->q);
	t = bench_now_ns() - t;
	if (ret)
		bench_die("pair: %s", strerror(-ret));
	return t / 1e6;
}

/* One device (its module now loaded with two units): best of REPS, in ms. */
static double time_one(const uint64_t *want)
{
	struct setup s;
	double best = 1e30, t;
	unsigned int i;

	setup(&s, 0, 0);
	for (i = 0; i < REPS; i++) {
		t = run(&s);
		best = t < best ? t : best;
		if (memcmp(s.cpu, want, ITEMS * 8))
			bench_die("two compute units computed other results");
	}
	teardown(&s);
	return best;
}

int main(int argc, char **argv)
{
	struct setup one, two, pa, pb;
	double t1 = 1e30, t2 = 1e30, tp = 1e30, tu = 0, t, speedup;
	uint64_t want[ITEMS];
	bool units = argc > 1;
	unsigned int i;

	bench_name = "unified";
	if (units)
		bench_reload(argc, argv, "compute_units=1");
	setup(&one, 0, 0);
	setup(&two, 0, 2);
	setup(&pa, 0, 0);
	setup(&pb, 1, 0);
	for (i = 0; i < REPS; i++) {
		t = run(&one);
		t1 = t < t1 ? t : t1;
		t = run(&two);
		t2 = t < t2 ? t : t2;
		if (memcmp(one.cpu, two.cpu, ITEMS * 8))
			bench_die("the unified device computed other results");
		t = run_pair(&pa, &pb);
		tp = t < tp ? t : tp;
	}
	for (i = 0; i < ITEMS; i++)
		if (one.cpu[i] != work_int(SEED + i, N_ITERS))
			bench_die("item %u: %" PRIu64 ", the CPU says %" PRIu64, i,
				  one.cpu[i], work_int(SEED + i, N_ITERS));
	memcpy(want, one.cpu, sizeof(want));
	teardown(&one);
	teardown(&two);
	teardown(&pa);
	teardown(&pb);
	if (units) {
		bench_reload(argc, argv, "compute_units=2");
		tu = time_one(want);
		bench_reload(argc, argv, NULL);
	}

	speedup = t1 / t2;
	printf("the integer kernel of bench_compute over %u work-items (workgroups of %u),\n"
	       "%u iterations each, best of %u, %s:\n", ITEMS, WG, N_ITERS, REPS,
	       units ? "each device with one compute unit" :
	       "the module as loaded (no arguments: its compute units not set)");
	printf("%-32s %10s\n", "device", "ms");
	printf("%-32s %10.1f\n", "one device", t1);
	printf("%-32s %10.1f\n", "unified, two devices", t2);
	printf("%-32s %10.1f\n", "two devices, half each", tp);
	if (units)
		printf("%-32s %10.1f\n", "one device, two compute units", tu);
	printf("\n");
	bench_report(&(struct bench_metric){ "speedup_2", speedup, 2, "ratio", ">=", TARGET });
	bench_report(&(struct bench_metric){ "two_devices_by_hand_speedup", t1 / tp, 2,
		"ratio" });
	if (units)
		bench_report(&(struct bench_metric){ "compute_units_2_speedup", t1 / tu, 2,
			"ratio", ">=", TARGET });
	return 0;
}
