// SPDX-License-Identifier: MIT
/*
 * Copyright 2026 The vaccel authors
 *
 * bench_launch.c - what a launch and a work-item cost on a compute engine,
 * and what its compute units give, each against a reference measured in
 * the same run.  Kernels from kernels/launch_kernel.c, through libvaccel.
 *
 * (a) An empty DISPATCH: one workgroup of 256 work-items that return at
 *     once, recorded, then flushed and waited for; against the same round
 *     trip of a one-packet buffer (a WRITE, the nearest libvaccel records
 *     to a NOP), the two interleaved, SAMPLES times each.  Target: p50 at
 *     most 3x.
 * (b) A work-item's start and retire: one workgroup of 1024 work-items
 *     that return at once against one of a single work-item, the
 *     difference per work-item; against the time of one interpreted
 *     instruction, from an integer loop on one work-item group (the
 *     engine's instruction counter gives the count).  Target: at most 50
 *     instructions.
 * (c) Many short launches: the all-pairs shortest paths of a 48-vertex
 *     graph as 48 launches (one per step of Floyd-Warshall, one work-item
 *     per row), recorded together, flushed once; against the same work as
 *     one launch, the steps separated by barriers.  Both checked against
 *     the CPU.  Target: at most 2x.
 * (d) Compute units: an integer loop over 64 workgroups, with the module
 *     loaded with compute_units=1 and then 2, alternately, best of each.
 *     Target: 2 units at least 1.7x faster.  Needs the module's file and
 *     parameters (the last load is with those):
 *
 *	bench_launch [KO [PARAM=VALUE...]]
 *
 *     Without KO, (d) is skipped.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <vaccel.h>

#include "bench.h"
#include "launch_work.h"

#define KERNEL_ELF	"/vaccel/bin/launch_kernel.elf"
#define SAMPLES		200
#define REPS		5
#define APSP_N		48
#define APSP_INF	(1 << 28)
#define SPIN_N		20000
#define CU_GROUPS	64
#define CU_LOADS	3

#define EMPTY_TARGET	3.0
#define ITEM_TARGET	50.0
#define SHORT_TARGET	2.0
#define CU_TARGET	1.7

struct eng {
	struct vaccel_device *dev;
	struct vaccel_queue *q;
	struct vaccel_module *mod;
	struct vaccel_kernel *empty, *spin, *step, *all;
	struct vaccel_bo *out, *dist, *scratch;
	uint64_t *out_cpu;
	int32_t *dist_cpu;
};

static void eng_open(struct eng *e)
{
	char msg[VACCEL_MODULE_MSG_SIZE];
	void *p;
	int ret;

	ret = vaccel_device_open(0, &e->dev);
	if (ret)
		bench_die("vaccel_device_open: %s", strerror(-ret));
	ret = vaccel_queue_create(e->dev, VACCEL_ENGINE_CLASS_COMPUTE, VACCEL_PRIORITY_NORMAL,
				  &e->q);
	if (ret)
		bench_die("vaccel_queue_create: %s", strerror(-ret));
	ret = vaccel_module_load_file(e->dev, KERNEL_ELF, &e->mod, msg, sizeof(msg));
	if (ret)
		bench_die("vaccel_module_load_file %s: %s: %s", KERNEL_ELF, strerror(-ret), msg);
	if (vaccel_kernel_get(e->mod, "launch_empty", &e->empty) ||
	    vaccel_kernel_get(e->mod, "launch_spin", &e->spin) ||
	    vaccel_kernel_get(e->mod, "apsp_step", &e->step) ||
	    vaccel_kernel_get(e->mod, "apsp_all", &e->all))
		bench_die("%s: a kernel is missing", KERNEL_ELF);
	ret = vaccel_bo_alloc(e->dev, 1024 * sizeof(uint64_t), 0, &e->out);
	if (!ret)
		ret = vaccel_bo_map(e->out, &p);
	if (ret)
		bench_die("output buffer: %s", strerror(-ret));
	e->out_cpu = p;
	ret = vaccel_bo_alloc(e->dev, APSP_N * APSP_N * sizeof(int32_t), 0, &e->dist);
	if (!ret)
		ret = vaccel_bo_map(e->dist, &p);
	if (ret)
		bench_die("distance buffer: %s", strerror(-ret));
	e->dist_cpu = p;
	ret = vaccel_bo_alloc(e->dev, 4096, 0, &e->scratch);
	if (ret)
		bench_die("scratch buffer: %s", strerror(-ret));
}

static void eng_close(struct eng *e)
{
	vaccel_bo_free(e->scratch);
	vaccel_bo_free(e->dist);
	vaccel_bo_free(e->out);
	vaccel_module_destroy(e->mod);
	vaccel_queue_destroy(e->q);
	vaccel_device_close(e->dev);
}

/* Flushes what was recorded and waits for it: the time it took. */
static uint64_t finish_ns(struct eng *e, const char *what)
{
	uint64_t t0 = bench_now_ns();
	int ret = vaccel_queue_flush(e->q);

	if (!ret)
		ret = vaccel_queue_finish(e->q);
	if (ret)
		bench_die("%s failed: %s", what, strerror(-ret));
	return bench_now_ns() - t0;
}

static void launch(struct eng *e, struct vaccel_kernel *k, uint32_t items, uint32_t wg,
		   const void *args, size_t size)
{
	const uint32_t grid[3] = { items, 1, 1 }, wgs[3] = { wg, 1, 1 };
	int ret = vaccel_launch(e->q, k, grid, wgs, args, size);

	if (ret)
		bench_die("vaccel_launch: %s", strerror(-ret));
}

/* A dispatch of @items work-items in workgroups of @wg of the empty kernel. */
static uint64_t empty_ns(struct eng *e, uint32_t items, uint32_t wg)
{
	struct spin_args a = { .out = vaccel_bo_va(e->out), .n = 0 };

	launch(e, e->empty, items, wg, &a, sizeof(a));
	return finish_ns(e, "the empty kernel");
}

/* (a) */
static void round_trips(struct eng *e, double *empty_p50, double *write_p50)
{
	static __u64 empty[SAMPLES], write[SAMPLES];
	unsigned int i;
	int ret;

	for (i = 0; i < SAMPLES + 10; i++) {
		uint64_t t = empty_ns(e, 256, 256);

		ret = vaccel_queue_write(e->q, vaccel_bo_va(e->scratch), i, 64);
		if (ret)
			bench_die("vaccel_queue_write: %s", strerror(-ret));
		if (i >= 10) {
			empty[i - 10] = t;
			write[i - 10] = finish_ns(e, "the write");
		} else {
			finish_ns(e, "the write");
		}
	}
	*empty_p50 = bench_percentile(empty, SAMPLES, 50);
	*write_p50 = bench_percentile(write, SAMPLES, 50);
}

/* The best time of the loop over @items work-items, @wg to a group, and its instructions. */
static uint64_t spin_ns(struct eng *e, uint32_t items, uint32_t wg, uint64_t *insns)
{
	struct spin_args a = { .out = vaccel_bo_va(e->out), .n = SPIN_N };
	uint64_t best = 0;
	unsigned int r, i;

	for (r = 0; r < REPS; r++) {
		uint64_t i0 = bench_engine_instructions(), t;

		launch(e, e->spin, items, wg, &a, sizeof(a));
		t = finish_ns(e, "the integer loop");
		*insns = bench_engine_instructions() - i0;
		for (i = 0; i < items; i++)
			if (e->out_cpu[i] != spin_work(i, SPIN_N))
				bench_die("the integer loop: work-item %u computed 0x%" PRIx64, i,
					  e->out_cpu[i]);
		if (!r || t < best)
			best = t;
	}
	return best;
}

/* (b): nanoseconds per work-item started and retired, and per instruction. */
static void item_cost(struct eng *e, double *item_ns, double *insn_ns)
{
	uint64_t one = 0, many = 0, insns;
	unsigned int r;

	for (r = 0; r < REPS; r++) {
		uint64_t t1 = empty_ns(e, 1, 1), tn = empty_ns(e, 1024, 1024);

		if (!r || t1 < one)
			one = t1;
		if (!r || tn < many)
			many = tn;
	}
	*item_ns = many > one ? (double)(many - one) / 1023 : 0;
	*insn_ns = (double)spin_ns(e, 64, 64, &insns) / insns;
}

/* A random graph: 0 on the diagonal, an edge in three, the others far. */
static void apsp_graph(int32_t *d)
{
	unsigned int i, j;

	srand(48);
	for (i = 0; i < APSP_N; i++)
		for (j = 0; j < APSP_N; j++)
			d[i * APSP_N + j] = i == j ? 0 :
					    rand() % 3 ? APSP_INF : 1 + rand() % 100;
}

/* (c): the best times of the 48 launches and of the one launch. */
static void short_launches(struct eng *e, double *t_short, double *t_long)
{
	static int32_t want[APSP_N * APSP_N];
	unsigned int r, k, i;

	apsp_graph(want);
	for (k = 0; k < APSP_N; k++)
		for (i = 0; i < APSP_N; i++)
			apsp_row(want, APSP_N, i, k);
	for (r = 0; r < 2 * REPS; r++) {
		struct apsp_args a = { .dist = vaccel_bo_va(e->dist), .n = APSP_N };
		bool many = r % 2 == 0;
		uint64_t t;

		apsp_graph(e->dist_cpu);
		if (many) {
			for (k = 0; k < APSP_N; k++) {
				a.k = k;
				launch(e, e->step, APSP_N, APSP_N, &a, sizeof(a));
			}
		} else {
			launch(e, e->all, APSP_N, APSP_N, &a, sizeof(a));
		}
		t = finish_ns(e, "the shortest paths");
		if (memcmp(e->dist_cpu, want, sizeof(want)))
			bench_die("the shortest paths (%s) differ from the CPU's",
				  many ? "48 launches" : "one launch");
		if (many && (r < 2 || t < *t_short))
			*t_short = t;
		if (!many && (r < 2 || t < *t_long))
			*t_long = t;
	}
}

/* Reloads the module with @params and compute_units=@units (0: theirs). */
static void reload(int argc, char **argv, unsigned int units)
{
	if (units)
		bench_reload(argc, argv, "compute_units=%u", units);
	else
		bench_reload(argc, argv, NULL);
}

/* (d): the best times with one unit and with two. */
static void units_speedup(int argc, char **argv, double *t1, double *t2)
{
	unsigned int l, u;
	uint64_t insns;
	struct eng e;

	for (l = 0; l < 2 * CU_LOADS; l++) {
		double t;

		u = 1 + l % 2;
		reload(argc, argv, u);
		eng_open(&e);
		t = spin_ns(&e, CU_GROUPS, 1, &insns);
		eng_close(&e);
		if (u == 1 && (l < 2 || t < *t1))
			*t1 = t;
		if (u == 2 && (l < 2 || t < *t2))
			*t2 = t;
	}
	reload(argc, argv, 0);
}

int main(int argc, char **argv)
{
	double empty_p50, write_p50, item_ns, insn_ns, t_short = 0, t_long = 0;
	double t1 = 0, t2 = 0;
	bool units = argc > 1;
	struct eng e;

	bench_name = "launch";
	setvbuf(stdout, NULL, _IOLBF, 0);
	eng_open(&e);
	round_trips(&e, &empty_p50, &write_p50);
	item_cost(&e, &item_ns, &insn_ns);
	short_launches(&e, &t_short, &t_long);
	eng_close(&e);
	if (units)
		units_speedup(argc, argv, &t1, &t2);

	printf("(a) round trip, flush to finish, p50 of %u: an empty DISPATCH of 256 "
	       "work-items %.1f us,\n    a one-packet buffer (WRITE) %.1f us: %.2fx\n",
	       SAMPLES, empty_p50 / 1e3, write_p50 / 1e3, empty_p50 / write_p50);
	printf("(b) a work-item started and retired: %.1f ns; an instruction: %.2f ns; "
	       "%.1f instructions\n", item_ns, insn_ns, item_ns / insn_ns);
	printf("(c) shortest paths of %u vertices: 48 launches %.2f ms, one launch "
	       "%.2f ms: %.2fx\n", APSP_N, t_short / 1e6, t_long / 1e6, t_short / t_long);
	if (units)
		printf("(d) an integer loop over %u workgroups: 1 unit %.1f ms, 2 units "
		       "%.1f ms: %.2fx\n", CU_GROUPS, t1 / 1e6, t2 / 1e6, t1 / t2);
	printf("\n");
	bench_report(&(struct bench_metric){ "empty_dispatch_rt_ratio", empty_p50 / write_p50,
		2, "ratio", "<=", EMPTY_TARGET });
	bench_report(&(struct bench_metric){ "empty_dispatch_rt_p50_us", empty_p50 / 1e3, 1,
		"us" });
	bench_report(&(struct bench_metric){ "item_insn_ratio", item_ns / insn_ns, 1, "ratio",
		"<=", ITEM_TARGET });
	bench_report(&(struct bench_metric){ "short_long_ratio", t_short / t_long, 2, "ratio",
		"<=", SHORT_TARGET });
	if (units)
		bench_report(&(struct bench_metric){ "units_2_speedup", t1 / t2, 2, "ratio",
			">=", CU_TARGET });
	return 0;
}
