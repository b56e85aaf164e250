// SPDX-License-Identifier: MIT
/*
 * Copyright 2026 The vaccel authors
 *
 * bench_compute.c - how fast the compute engines run kernels.
 *
 * The same work (compute_work.h), an integer kernel and a floating-point
 * one, runs three ways in this VM:
 *
 *   - on a compute engine: the kernel built by vaccel-cc, loaded and
 *     launched through libvaccel over WORK_ITEMS work-items, timed from the
 *     flush to vaccel_queue_finish();
 *   - natively: the same C compiled for x86-64 into this program (scalar,
 *     as RV64G is: no auto-vectorization), looping over the same items;
 *   - under qemu-riscv64: the same RV64 code from the same compiler, as a
 *     freestanding Linux program (kernels/compute_qemu.c), its start-up
 *     (measured with no work) subtracted.
 *
 * The engine counts the instructions it executes (debugfs arbiter), which
 * gives its instructions per second; qemu runs the same instructions.
 * Ratios are of times measured in this run: ROUNDS rounds of one run of
 * each (engine, native, qemu, bare interpreter), the best of each kept,
 * so that the drift of a noisy host weighs on both sides.  The engine
 * runs on one compute unit (given the module's file, the program reloads
 * it with compute_units=1), as the other three run on one CPU.  Target:
 * the engine within 15x native on the floating-point kernel.  The
 * engine's and qemu's results must be equal.
 *
 * The bare interpreter (bare_rv.c) runs the integer work's RV64 code too,
 * decoded once, in flat memory, without a single check: its ratio to
 * native code is the lowest an interpreter reaches in this VM, and the
 * engine's ratio to it is what the engine does on top of interpreting.
 * Target: the engine within 1.3x the bare interpreter on integer work.
 *
 * The cost of the preemption checks: the module is reloaded, in turn, with
 * a check every SMALL_SLICE instructions (the fewest it takes), every
 * BIG_SLICE and every dispatch_slice as loaded, REPS times each, and the
 * engine's best times compared.  The checks cost in proportion to their
 * number: the cost at the smallest slice, well above the noise of the
 * host, scaled to the default slice is the estimate (target: under 5 %);
 * the default against BIG_SLICE directly is printed too, but it is within
 * that noise.  For that the program needs the module's file and the
 * parameters it was loaded with (the last load is with those):
 *
 *	bench_compute [KO [PARAM=VALUE...]]
 *
 * Without KO, that part is skipped, and the engine runs with the units
 * the module was loaded with.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <vaccel.h>

#include "bare_rv.h"
#include "bench.h"
#include "compute_work.h"

#define ROUNDS		5
#define REPS		3
#define BIG_SLICE	1048576
#define SMALL_SLICE	64
#define SLICE_PARAM	"/sys/module/vaccel/parameters/dispatch_slice"
#define BARE_CODE_VA	0x10000ull

#define QEMU		"/bin/qemu-riscv64-static"
#define QEMU_PROG	"/vaccel/bin/compute_qemu"
#define KERNEL_ELF	"/vaccel/bin/compute_kernel.elf"

#define BARE_TARGET	1.3
#define FP_TARGET	15.0
#define CHECK_TARGET	5.0

enum kind { KIND_INT, KIND_FP };

static const char *const kind_names[] = { "integer", "floating point" };

static uint32_t work_n(enum kind k)
{
	return k == KIND_INT ? WORK_N_INT : WORK_N_FP;
}

/* --- native --- */

static uint64_t fold_native(enum kind k, uint32_t n)
{
	uint64_t fold = 0, i;

	for (i = 0; i < WORK_ITEMS; i++) {
		if (k == KIND_INT) {
			fold ^= work_int(WORK_SEED + i, n);
		} else {
			double d = work_fp((double)(WORK_SEED + i), n);
			uint64_t u;

			memcpy(&u, &d, sizeof(u));
			fold ^= u;
		}
	}
	return fold;
}

/* Defeats the optimizer: the result goes somewhere it cannot see. */
static volatile uint64_t native_sink;

static double time_native(enum kind k)
{
	uint64_t t0 = bench_now_ns();

	native_sink = fold_native(k, work_n(k));
	return bench_now_ns() - t0;
}

/* --- qemu-riscv64 --- */

/* Runs compute_qemu with @n iterations: its time, and its result in @fold. */
static double run_qemu_once(enum kind k, uint32_t n, uint64_t *fold)
{
	char items[16], iters[16], seed[16], out[64];
	int pipefd[2], status;
	uint64_t t0, t1;
	ssize_t len;
	pid_t pid;

	snprintf(items, sizeof(items), "%u", WORK_ITEMS);
	snprintf(iters, sizeof(iters), "%u", n);
	snprintf(seed, sizeof(seed), "%u", WORK_SEED);
	if (pipe(pipefd))
		bench_die("pipe: %s", strerror(errno));
	t0 = bench_now_ns();
	pid = fork();
	if (pid < 0)
		bench_die("fork: %s", strerror(errno));
	if (!pid) {
		dup2(pipefd[1], 1);
		close(pipefd[0]);
		execl(QEMU, QEMU, QEMU_PROG, k == KIND_INT ? "int" : "fp", items, iters,
		      seed, (char *)NULL);
		_exit(127);
	}
	close(pipefd[1]);
	len = read(pipefd[0], out, sizeof(out) - 1);
	close(pipefd[0]);
	if (waitpid(pid, &status, 0) != pid)
		bench_die("waitpid: %s", strerror(errno));
	t1 = bench_now_ns();
	if (!WIFEXITED(status) || WEXITSTATUS(status) || len <= 0)
		bench_die("%s %s: exit status 0x%x", QEMU, QEMU_PROG, status);
	out[len] = '\0';
	*fold = strtoull(out, NULL, 16);
	return t1 - t0;
}

/* The work under qemu-riscv64, and qemu's start-up with no work in @empty. */
static double time_qemu(enum kind k, uint64_t *fold, double *empty)
{
	uint64_t ignored;

	*empty = run_qemu_once(k, 0, &ignored);
	return run_qemu_once(k, work_n(k), fold);
}

/* --- the bare interpreter --- */

/* The RV64 code of kernels/compute_bare.c (bare_code.S). */
extern const uint32_t bare_code[], bare_code_end[];

/* The integer work in the bare interpreter, once: its time. */
static double time_bare(uint64_t *insns, uint64_t *fold)
{
	uint64_t t0 = bench_now_ns(), i;

	*insns = 0;
	*fold = 0;
	for (i = 0; i < WORK_ITEMS; i++)
		*fold ^= bare_rv_call(WORK_SEED + i, WORK_N_INT, insns);
	return bench_now_ns() - t0;
}

/* --- the engine --- */

struct engine {
	struct vaccel_device *dev;
	struct vaccel_queue *q;
	struct vaccel_module *mod;
	struct vaccel_kernel *k[2];
	struct vaccel_bo *out;
	uint64_t *cpu;
};

static void engine_open(struct engine *e)
{
	char msg[VACCEL_MODULE_MSG_SIZE];
	void *p;
	int ret;

	ret = vaccel_device_open(0, &e->dev);
	if (ret)
		bench_die("vaccel_device_open: %s", strerror(-ret));
	ret = vaccel_queue_create(e->dev, VACCEL_ENGINE_CLASS_COMPUTE, VACCEL_PRIORITY_NORMAL, &e->q);
	if (ret)
		bench_die("vaccel_queue_create: %s", strerror(-ret));
	ret = vaccel_module_load_file(e->dev, KERNEL_ELF, &e->mod, msg, sizeof(msg));
	if (ret)
		bench_die("vaccel_module_load_file %s: %s: %s", KERNEL_ELF, strerror(-ret), msg);
	if (vaccel_kernel_get(e->mod, "bench_int", &e->k[KIND_INT]) ||
	    vaccel_kernel_get(e->mod, "bench_fp", &e->k[KIND_FP]))
		bench_die("%s: no bench_int or bench_fp kernel", KERNEL_ELF);
	ret = vaccel_bo_alloc(e->dev, WORK_ITEMS * sizeof(uint64_t), 0, &e->out);
	if (!ret)
		ret = vaccel_bo_map(e->out, &p);
	if (ret)
		bench_die("output buffer: %s", strerror(-ret));
	e->cpu = p;
}

static void engine_close(struct engine *e)
{
	vaccel_bo_free(e->out);
	vaccel_module_destroy(e->mod);
	vaccel_queue_destroy(e->q);
	vaccel_device_close(e->dev);
}

/*
 * Runs the kernel once over WORK_ITEMS work-items, workgroups of 16: its time,
 * its instructions and its results folded in @fold.
 */
static double time_engine(struct engine *e, enum kind k, uint64_t *insns, uint64_t *fold)
{
	struct compute_args a = {
		.out = vaccel_bo_va(e->out),
		.seed = WORK_SEED,
		.n = work_n(k),
	};
	const uint32_t grid[3] = { WORK_ITEMS, 1, 1 }, wg[3] = { 16, 1, 1 };
	uint64_t i0 = bench_engine_instructions(), t0, t1, i;
	int ret;

	memset(e->cpu, 0, WORK_ITEMS * sizeof(uint64_t));
	ret = vaccel_launch(e->q, e->k[k], grid, wg, &a, sizeof(a));
	if (ret)
		bench_die("vaccel_launch: %s", strerror(-ret));
	t0 = bench_now_ns();
	ret = vaccel_queue_flush(e->q);
	if (!ret)
		ret = vaccel_queue_finish(e->q);
	t1 = bench_now_ns();
	if (ret)
		bench_die("the %s kernel failed: %s", kind_names[k], strerror(-ret));
	*insns = bench_engine_instructions() - i0;
	*fold = 0;
	for (i = 0; i < WORK_ITEMS; i++)
		*fold ^= e->cpu[i];
	return t1 - t0;
}

/* Keeps the smaller of *@best and @t; the first time (*@best == 0), @t. */
static void keep_best(double *best, double t)
{
	if (*best == 0 || t < *best)
		*best = t;
}

/* --- the cost of the checks --- */

/*
 * Reloads the module with @params and dispatch_slice=@slice (0: none), on
 * one compute unit if @one_unit.
 */
static void reload(int argc, char **argv, unsigned int slice, bool one_unit)
{
	char extra[64] = "";
	int n = 0;

	if (slice)
		n = snprintf(extra, sizeof(extra), "dispatch_slice=%u ", slice);
	if (one_unit)
		snprintf(extra + n, sizeof(extra) - n, "compute_units=1");
	bench_reload(argc, argv, "%s", extra);
}

/* The module's dispatch_slice, as loaded. */
static unsigned int loaded_slice(void)
{
	unsigned int v = 0;
	FILE *f = fopen(SLICE_PARAM, "r");

	if (!f || fscanf(f, "%u", &v) != 1 || !v)
		bench_die("%s: cannot read it", SLICE_PARAM);
	fclose(f);
	return v;
}

/* The share of @t_small over @t_big that checks every @slice would cost. */
static double check_cost_pct(double t_small, double t_big, unsigned int slice)
{
	double per = (t_small / t_big - 1) / (1.0 / SMALL_SLICE - 1.0 / BIG_SLICE);

	return per * (1.0 / slice - 1.0 / BIG_SLICE) * 100;
}

int main(int argc, char **argv)
{
	/* The loads of the checks' cost, the one as loaded last. */
	static const unsigned int slices[3] = { SMALL_SLICE, BIG_SLICE, 0 };
	double t_nat[2] = { 0 }, t_eng[2] = { 0 }, t_qemu[2], t_bare = 0;
	double t_qemu_run[2] = { 0 }, t_qemu_empty[2] = { 0 }, t_slice[3][2] = { { 0 } };
	uint64_t insns[2], f_eng[2], f_qemu[2], f_bare, f_slice, bare_insns, ignored;
	double cost[2] = { 0, 0 }, direct[2] = { 0, 0 };
	unsigned int def_slice = 0;
	bool checks = argc > 1;
	struct engine e;
	int k, r, i;

	bench_name = "compute";
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (access(QEMU, X_OK))
		bench_die("%s: %s (the bench VM takes it from qemu-user-static)", QEMU,
			  strerror(errno));

	/* One unit, as the native, bare and qemu references run on one CPU. */
	if (checks)
		reload(argc, argv, 0, true);
	/*
	 * Rounds of one run of each, the best of each kept: the host's speed
	 * drifts by tens of percent over minutes, and a slow moment then
	 * slows every side of a ratio rather than one.
	 */
	engine_open(&e);
	bare_rv_prepare(bare_code, bare_code_end - bare_code, BARE_CODE_VA);
	for (r = 0; r < ROUNDS; r++) {
		for (k = KIND_INT; k <= KIND_FP; k++) {
			double empty, t_run;

			keep_best(&t_eng[k], time_engine(&e, k, &insns[k], &f_eng[k]));
			keep_best(&t_nat[k], time_native(k));
			t_run = time_qemu(k, &f_qemu[k], &empty);
			keep_best(&t_qemu_run[k], t_run);
			keep_best(&t_qemu_empty[k], empty);
			if (f_eng[k] != f_qemu[k])
				bench_die("%s kernel: the engine computed 0x%016" PRIx64
					  ", qemu-riscv64 0x%016" PRIx64, kind_names[k],
					  f_eng[k], f_qemu[k]);
		}
		keep_best(&t_bare, time_bare(&bare_insns, &f_bare));
		if (f_bare != f_eng[KIND_INT])
			bench_die("integer kernel: the bare interpreter computed 0x%016" PRIx64
				  ", the engine 0x%016" PRIx64, f_bare, f_eng[KIND_INT]);
	}
	engine_close(&e);
	for (k = KIND_INT; k <= KIND_FP; k++)
		t_qemu[k] = t_qemu_run[k] > t_qemu_empty[k] ?
			    t_qemu_run[k] - t_qemu_empty[k] : t_qemu_run[k];

	/*
	 * The checks' cost: alternating loads, best of each, so that a noisy
	 * moment of the host does not weigh on one side only.
	 */
	for (r = 0; checks && r < 3 * REPS; r++) {
		unsigned int s = r % 3;

		reload(argc, argv, slices[s], true);
		if (!slices[s])
			def_slice = loaded_slice();
		engine_open(&e);
		for (k = KIND_INT; k <= KIND_FP; k++) {
			for (i = 0; i < REPS; i++) {
				keep_best(&t_slice[s][k],
					  time_engine(&e, k, &ignored, &f_slice));
				if (f_slice != f_eng[k])
					bench_die("%s kernel: another result with another slice",
						  kind_names[k]);
			}
		}
		engine_close(&e);
	}
	if (checks)
		reload(argc, argv, 0, false);
	for (k = KIND_INT; checks && k <= KIND_FP; k++) {
		cost[k] = check_cost_pct(t_slice[0][k], t_slice[1][k], def_slice);
		direct[k] = (t_slice[2][k] / t_slice[1][k] - 1) * 100;
	}

	printf("the same kernels on a compute engine, natively (x86-64, scalar) and under\n"
	       "qemu-riscv64, in this VM: %u work-items, best of %u rounds\n", WORK_ITEMS, ROUNDS);
	printf("%-16s %12s %10s %10s %10s %12s %9s %9s\n", "kernel", "instructions",
	       "engine ms", "native ms", "qemu ms", "engine M/s", "/native", "/qemu");
	for (k = KIND_INT; k <= KIND_FP; k++)
		printf("%-16s %12" PRIu64 " %10.1f %10.1f %10.1f %12.2f %9.2f %9.2f\n",
		       kind_names[k], insns[k], t_eng[k] / 1e6, t_nat[k] / 1e6,
		       t_qemu[k] / 1e6, insns[k] / (t_eng[k] / 1e3), t_eng[k] / t_nat[k],
		       t_eng[k] / t_qemu[k]);
	printf("\nthe bare interpreter (decoded once, flat memory, no checks) on the integer\n"
	       "kernel: %.1f ms, %.2f M/s, %.2fx native; the engine is %.2fx the bare one\n",
	       t_bare / 1e6, bare_insns / (t_bare / 1e3), t_bare / t_nat[KIND_INT],
	       t_eng[KIND_INT] / t_bare);
	if (checks) {
		printf("\ncost of the checks, alternating module loads: a check every %u, %u\n"
		       "and %u (as loaded) instructions; the cost at %u estimated from %u\n",
		       SMALL_SLICE, BIG_SLICE, def_slice, def_slice, SMALL_SLICE);
		printf("%-16s %10s %10s %10s %10s %10s\n", "kernel", "ms", "ms", "ms",
		       "direct", "estimate");
		for (k = KIND_INT; k <= KIND_FP; k++)
			printf("%-16s %10.1f %10.1f %10.1f %+9.2f%% %+9.2f%%\n", kind_names[k],
			       t_slice[0][k] / 1e6, t_slice[1][k] / 1e6, t_slice[2][k] / 1e6,
			       direct[k], cost[k]);
	}
	printf("\n");
	bench_report(&(struct bench_metric){ "int_native_ratio",
		t_eng[KIND_INT] / t_nat[KIND_INT], 2, "ratio" });
	bench_report(&(struct bench_metric){ "fp_native_ratio",
		t_eng[KIND_FP] / t_nat[KIND_FP], 2, "ratio", "<=", FP_TARGET });
	bench_report(&(struct bench_metric){ "int_qemu_ratio",
		t_eng[KIND_INT] / t_qemu[KIND_INT], 2, "ratio" });
	bench_report(&(struct bench_metric){ "fp_qemu_ratio",
		t_eng[KIND_FP] / t_qemu[KIND_FP], 2, "ratio" });
	bench_report(&(struct bench_metric){ "int_bare_native_ratio",
		t_bare / t_nat[KIND_INT], 2, "ratio" });
	bench_report(&(struct bench_metric){ "int_engine_bare_ratio",
		t_eng[KIND_INT] / t_bare, 2, "ratio", "<=", BARE_TARGET });
	bench_report(&(struct bench_metric){ "int_mips",
		insns[KIND_INT] / (t_eng[KIND_INT] / 1e3), 2, "mips" });
	bench_report(&(struct bench_metric){ "fp_mips",
		insns[KIND_FP] / (t_eng[KIND_FP] / 1e3), 2, "mips" });
	for (k = KIND_INT; checks && k <= KIND_FP; k++) {
		const char *name = k == KIND_INT ? "int" : "fp";
		char key[64];

		snprintf(key, sizeof(key), "check_cost_%s_pct", name);
		bench_report(&(struct bench_metric){ key, cost[k], 2, "pct", "<",
			CHECK_TARGET });
		snprintf(key, sizeof(key), "check_cost_%s_direct_pct", name);
		bench_report(&(struct bench_metric){ key, direct[k], 2, "pct" });
	}
	return 0;
}
