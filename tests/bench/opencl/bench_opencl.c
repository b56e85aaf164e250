// SPDX-License-Identifier: MIT
/*
 * Copyright 2026 The vaccel authors
 *
 * bench_opencl.c - what the OpenCL platform costs over libvaccel, and what
 * its compiler costs against PoCL's, in one process, on one boot:
 *
 * (a) The four examples (umd/examples: vadd, saxpy, matmul, reduce) at
 *     their default sizes, through OpenCL (their .cl kernels, built once,
 *     outside the timing) and through libvaccel (their C kernels, the
 *     modules of the build tree): the median wall time of SAMPLES_EX
 *     launches each, from the enqueue to clFinish() or
 *     vaccel_queue_finish(), alternating.  Target: OpenCL within 1.1x.
 * (b) An empty kernel, one workgroup of 256: clEnqueueNDRangeKernel() +
 *     clFinish() against vaccel_launch() + vaccel_queue_finish() of
 *     bench_launch's empty kernel, p50 of SAMPLES_RT each.  Target: 1.5x.
 * (c) clBuildProgram() of build_program.cl (about 200 lines), cold (a
 *     source never built before: a one-line kernel that stores a counter
 *     makes each one new, in a fresh cache; a comment would not, as PoCL
 *     keys its cache on the preprocessed source) and cached (the same
 *     source again), on vaccel
 *     and, for reference, on PoCL.  Target: vaccel's cold build no slower
 *     than PoCL's.  PoCL compiles the work-group function of a kernel at
 *     its first launch, which clBuildProgram() does not include: so
 * (d) a cold build to its first result, on both: clBuildProgram() of a
 *     fresh source, then one kernel created, launched and finished.  No
 *     target: it shows what (c) leaves out of PoCL's figure.
 *
 * (e) The math library's cost: each float function of the accuracy test
 *     (tests/opencl/math_functions.h) on that test's inputs
 *     (math_inputs.h), each call between two reads of the work-item's
 *     retired instructions (rdinstret, which the engine counts), less the
 *     same reads around no call; the mean per call.  Targets: exp, log,
 *     sin, cos and pow at most 150 instructions.  Then the double
 *     functions of math_double.h on that test's inputs, in the same way;
 *     targets: exp, log, sin, cos and pow at most 400.
 * (f) An out-of-order queue: a kernel of one workgroup (a compute unit
 *     is a CPU of the VM, which has two) and a copy with no dependency
 *     between them, enqueued together and finished, on an out-of-order
 *     queue and on an in-order one, alternating, SAMPLES_OOO pairs; the
 *     median ratio of a pair.  The copy's size is doubled until the best
 *     of three takes 50 ms (up to 64 MiB), the kernel's rounds scaled in
 *     a few steps to the copy's time on the copy engine, where the
 *     out-of-order queue runs it.  Target: the out-of-order queue in at
 *     most 0.6x the in-order queue's time.  The pair spreads over both
 *     vCPUs, the in-order queue runs on one: tcg_tlb_warm() before the
 *     pairs, so that TCG's two vCPUs are alike (tcg_tlb_warm.h).
 *
 * It needs the vaccel platform and PoCL's (OCL_ICD_VENDORS names a
 * directory with both; scripts/bench-opencl.sh sets it up and runs this in
 * the dev VM through vm.sh exec, where clang and PoCL are the host's),
 * XDG_CACHE_HOME and POCL_CACHE_DIR pointing at empty directories, and
 *
 *	bench_opencl UMD_BUILD LAUNCH_KERNEL_ELF
 *
 * UMD_BUILD: where the examples' modules are (share/vaccel/kernels);
 * LAUNCH_KERNEL_ELF: bench_launch's kernels.  BENCH_OPENCL_ONLY=math runs
 * (e) alone, BENCH_OPENCL_ONLY=ooo (f) alone.
 */
#define _GNU_SOURCE
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>

#include <math.h>
#include <stdbool.h>

#include <vaccel.h>

#include "bench.h"
#include "launch_work.h"
#include "matmul.h"
#include "reduce.h"
#include "saxpy.h"
#include "tcg_tlb_warm.h"
#include "vadd.h"

#include "vadd.cl.h"
#include "saxpy.cl.h"
#include "matmul.cl.h"
#include "reduce.cl.h"
#include "build_program.cl.h"

#include "math_functions.h"
#include "math_inputs.h"
#include "math_double.h"

#define SAMPLES_EX	15
#define SAMPLES_RT	200
#define BUILDS		5
#define SAMPLES_OOO	15

static struct {
	cl_platform_id platform, pocl;
	cl_device_id dev, pocl_dev;
	cl_context ctx;
	cl_command_queue q;
	struct vaccel_device *vdev;
	struct vaccel_queue *vq;
} b;

static void cl_check(cl_int err, const char *what)
{
	if (err)
		bench_die("%s: OpenCL error %d", what, err);
}

static void vc_check(int err, const char *what)
{
	if (err)
		bench_die("%s: %s", what, strerror(-err));
}

static cl_platform_id find_platform(const char *want, cl_device_id *dev)
{
	cl_platform_id ids[16];
	cl_uint i, n = 0;
	char name[256];

	cl_check(clGetPlatformIDs(16, ids, &n), "clGetPlatformIDs");
	for (i = 0; i < n && i < 16; i++) {
		if (clGetPlatformInfo(ids[i], CL_PLATFORM_NAME, sizeof(name), name, NULL))
			continue;
		if (strstr(name, want)) {
			cl_check(clGetDeviceIDs(ids[i], CL_DEVICE_TYPE_ALL, 1, dev, NULL),
				 want);
			return ids[i];
		}
	}
	bench_die("no OpenCL platform named %s (OCL_ICD_VENDORS=%s)", want,
		  getenv("OCL_ICD_VENDORS") ?: "");
}

static cl_program build(cl_context ctx, cl_device_id dev, const char *src)
{
	cl_program p;
	cl_int err;

	p = clCreateProgramWithSource(ctx, 1, &src, NULL, &err);
	cl_check(err, "clCreateProgramWithSource");
	err = clBuildProgram(p, 1, &dev, "", NULL, NULL);
	if (err) {
		char log[4096] = "";

		clGetProgramBuildInfo(p, dev, CL_PROGRAM_BUILD_LOG, sizeof(log) - 1, log, NULL);
		bench_die("clBuildProgram: %d: %s", err, log);
	}
	return p;
}

static cl_mem cl_buf(size_t size, const void *init)
{
	cl_int err;
	cl_mem m = clCreateBuffer(b.ctx, CL_MEM_READ_WRITE | (init ? CL_MEM_COPY_HOST_PTR : 0),
				  size, (void *)init, &err);

	cl_check(err, "clCreateBuffer");
	return m;
}

static uint64_t vc_buf(size_t size, const void *init, struct vaccel_bo **bo)
{
	void *cpu;

	vc_check(vaccel_bo_alloc(b.vdev, size, VACCEL_BO_GPU_NO_EXEC, bo), "vaccel_bo_alloc");
	vc_check(vaccel_bo_map(*bo, &cpu), "vaccel_bo_map");
	if (init)
		memcpy(cpu, init, size);
	else
		memset(cpu, 0, size);
	return vaccel_bo_va(*bo);
}

/* One example, both ways: its figures go in @cl_ns and @vc_ns. */
struct example_case {
	const char *name, *src;
	cl_uint dims;
	size_t global[2], local[2];
	cl_kernel k;
	struct vaccel_kernel *vk;
	const void *args;
	size_t args_size;
};

static uint64_t time_cl(struct example_case *e)
{
	uint64_t t0 = bench_now_ns();

	cl_check(clEnqueueNDRangeKernel(b.q, e->k, e->dims, NULL, e->global, e->local, 0,
					NULL, NULL), e->name);
	cl_check(clFinish(b.q), e->name);
	return bench_now_ns() - t0;
}

static uint64_t time_vc(struct example_case *e)
{
	uint32_t grid[3] = { e->global[0], e->dims > 1 ? e->global[1] : 1, 1 };
	uint32_t wg[3] = { e->local[0], e->dims > 1 ? e->local[1] : 1, 1 };
	uint64_t t0 = bench_now_ns();

	vc_check(vaccel_launch(b.vq, e->vk, grid, wg, e->args, e->args_size), e->name);
	vc_check(vaccel_queue_finish(b.vq), e->name);
	return bench_now_ns() - t0;
}

/* Medians of SAMPLES_EX of each, alternating, after one of each to warm up. */
static double run_case(struct example_case *e, double *cl_ms, double *vc_ms)
{
	__u64 c[SAMPLES_EX], v[SAMPLES_EX];
	int i;

	time_cl(e);
	time_vc(e);
	for (i = 0; i < SAMPLES_EX; i++) {
		c[i] = time_cl(e);
		v[i] = time_vc(e);
	}
	*cl_ms = bench_percentile(c, SAMPLES_EX, 50) / 1e6;
	*vc_ms = bench_percentile(v, SAMPLES_EX, 50) / 1e6;
	return *cl_ms / *vc_ms;
}

static struct vaccel_module *load_module(const char *path)
{
	char msg[VACCEL_MODULE_MSG_SIZE] = "";
	struct vaccel_module *m;
	int ret = vaccel_module_load_file(b.vdev, path, &m, msg, sizeof(msg));

	if (ret)
		bench_die("%s: %s", path, msg[0] ? msg : strerror(-ret));
	return m;
}

static cl_kernel cl_kernel_of(const char *src, const char *name)
{
	cl_int err;
	cl_kernel k = clCreateKernel(build(b.ctx, b.dev, src), name, &err);

	cl_check(err, name);
	return k;
}

static void set_args(cl_kernel k, int n, ...)
{
	va_list ap;
	int i;

	va_start(ap, n);
	for (i = 0; i < n; i++) {
		size_t size = va_arg(ap, size_t);
		const void *v = va_arg(ap, const void *);

		cl_check(clSetKernelArg(k, i, size, v), "clSetKernelArg");
	}
	va_end(ap);
}

static bool examples(const char *umd)
{
	enum { VADD_N = 1 << 18, SAXPY_N = 1 << 18, MATMUL_N = 96, REDUCE_N = 1 << 20 };
	static float fa[VADD_N], fb[VADD_N];
	static uint32_t u[REDUCE_N];
	struct reduce_result init = { 0, UINT32_MAX, 0 };
	static struct vadd_args va;
	static struct saxpy_args sa;
	static struct matmul_args ma;
	static struct reduce_args ra;
	struct example_case cases[4] = {
		{ "vadd", vadd_cl, 1, { VADD_N }, { 256 } },
		{ "saxpy", saxpy_cl, 1, { 256 * 64 }, { 256 } },
		{ "matmul", matmul_cl, 2, { MATMUL_N, MATMUL_N }, { MATMUL_TILE, MATMUL_TILE } },
		{ "reduce", reduce_cl, 1, { 256 * 64 }, { REDUCE_WG } },
	};
	struct vaccel_bo *bos[11];
	cl_mem m[11];
	cl_uint n;
	float a = 2.718281828f;
	char path[PATH_MAX];
	bool ok = true;
	int i;

	for (i = 0; i < VADD_N; i++) {
		fa[i] = (float)(i % 8192) / 4096.0f;
		fb[i] = (float)(i % 1000) / 3.0f;
	}
	for (i = 0; i < REDUCE_N; i++)
		u[i] = i * 2654435761u % 1000000000u + 1000;
	for (i = 0; i < 4; i++) {
		cases[i].k = cl_kernel_of(cases[i].src, cases[i].name);
		snprintf(path, sizeof(path), "%s/share/vaccel/kernels/%s.elf", umd, cases[i].name);
		vc_check(vaccel_kernel_get(load_module(path), cases[i].name, &cases[i].vk),
			 cases[i].name);
	}

	/* vadd */
	n = VADD_N;
	m[0] = cl_buf(n * 4, fa);
	m[1] = cl_buf(n * 4, fb);
	m[2] = cl_buf(n * 4, NULL);
	set_args(cases[0].k, 4, sizeof(cl_mem), &m[0], sizeof(cl_mem), &m[1],
		 sizeof(cl_mem), &m[2], sizeof(n), &n);
	va = (struct vadd_args){ vc_buf(n * 4, fa, &bos[0]), vc_buf(n * 4, fb, &bos[1]),
				 vc_buf(n * 4, NULL, &bos[2]), n, 0 };
	cases[0].args = &va;
	cases[0].args_size = sizeof(va);
	/* saxpy */
	n = SAXPY_N;
	m[3] = cl_buf(n * 4, fa);
	m[4] = cl_buf(n * 4, fb);
	set_args(cases[1].k, 4, sizeof(cl_mem), &m[3], sizeof(cl_mem), &m[4],
		 sizeof(a), &a, sizeof(n), &n);
	sa = (struct saxpy_args){ vc_buf(n * 4, fa, &bos[3]), vc_buf(n * 4, fb, &bos[4]), a, n };
	cases[1].args = &sa;
	cases[1].args_size = sizeof(sa);
	/* matmul */
	n = MATMUL_N;
	m[5] = cl_buf(n * n * 4, fa);
	m[6] = cl_buf(n * n * 4, fb);
	m[7] = cl_buf(n * n * 4, NULL);
	set_args(cases[2].k, 4, sizeof(cl_mem), &m[5], sizeof(cl_mem), &m[6],
		 sizeof(cl_mem), &m[7], sizeof(n), &n);
	ma = (struct matmul_args){ vc_buf(n * n * 4, fa, &bos[5]), vc_buf(n * n * 4, fb, &bos[6]),
				   vc_buf(n * n * 4, NULL, &bos[7]), n, 0 };
	cases[2].args = &ma;
	cases[2].args_size = sizeof(ma);
	/* reduce */
	n = REDUCE_N;
	m[8] = cl_buf(n * 4, u);
	m[9] = cl_buf(sizeof(init), &init);
	set_args(cases[3].k, 3, sizeof(cl_mem), &m[8], sizeof(cl_mem), &m[9], sizeof(n), &n);
	ra = (struct reduce_args){ vc_buf(n * 4, u, &bos[8]), vc_buf(sizeof(init), &init, &bos[9]),
				   n, 0 };
	cases[3].args = &ra;
	cases[3].args_size = sizeof(ra);

	printf("(a) the examples, median of %d launches to finish, ms:\n"
	       "    %-8s %10s %10s %7s\n", SAMPLES_EX, "", "OpenCL", "libvaccel", "ratio");
	for (i = 0; i < 4; i++) {
		double cl_ms, vc_ms, r = run_case(&cases[i], &cl_ms, &vc_ms);
		char key[64];

		printf("    %-8s %10.3f %10.3f %7.3f\n", cases[i].name, cl_ms, vc_ms, r);
		snprintf(key, sizeof(key), "%s_cl_ratio", cases[i].name);
		ok &= bench_report(&(struct bench_metric){ key, r, 3, "ratio", "<=", 1.1 });
		snprintf(key, sizeof(key), "%s_cl_ms", cases[i].name);
		bench_report(&(struct bench_metric){ key, cl_ms, 3, "ms" });
		snprintf(key, sizeof(key), "%s_vaccel_ms", cases[i].name);
		bench_report(&(struct bench_metric){ key, vc_ms, 3, "ms" });
	}
	for (i = 0; i < 4; i++)
		clReleaseKernel(cases[i].k);
	for (i = 0; i < 10; i++) {
		clReleaseMemObject(m[i]);
		vaccel_bo_free(bos[i]);
	}
	return ok;
}

static bool round_trip(const char *launch_elf)
{
	static __u64 c[SAMPLES_RT], v[SAMPLES_RT];
	struct example_case e = { "empty", NULL, 1, { 256 }, { 256 } };
	struct spin_args args = { 0, 0 };
	double cp, vp;
	int i;

	e.k = cl_kernel_of("kernel void empty(void) { }\n", "empty");
	vc_check(vaccel_kernel_get(load_module(launch_elf), "launch_empty", &e.vk), "launch_empty");
	e.args = &args;
	e.args_size = sizeof(args);
	for (i = 0; i < 10; i++) {
		time_cl(&e);
		time_vc(&e);
	}
	for (i = 0; i < SAMPLES_RT; i++) {
		c[i] = time_cl(&e);
		v[i] = time_vc(&e);
	}
	cp = bench_percentile(c, SAMPLES_RT, 50);
	vp = bench_percentile(v, SAMPLES_RT, 50);
	clReleaseKernel(e.k);
	printf("(b) an empty kernel, one workgroup of 256, enqueue to finish, p50 of %d: "
	       "OpenCL %.1f us, libvaccel %.1f us, %.3fx\n", SAMPLES_RT, cp / 1e3, vp / 1e3,
	       cp / vp);
	bench_report(&(struct bench_metric){ "empty_cl_rt_us", cp / 1e3, 1, "us" });
	bench_report(&(struct bench_metric){ "empty_vaccel_rt_us", vp / 1e3, 1, "us" });
	return bench_report(&(struct bench_metric){ "empty_rt_ratio", cp / vp, 3, "ratio",
						    "<=", 1.5 });
}

/*
 * What makes a source new to every compiler: code, not a comment (PoCL
 * hashes the preprocessed source), a kernel of its own named and storing
 * the counter.
 */
#define BUILD_FRESH "kernel void fresh_%u(global uint *p) { p[0] = %uu; }\n"

/* The median time of BUILDS builds of build_program.cl; @fresh: a new source each. */
static double build_ms(cl_device_id dev, bool fresh)
{
	static unsigned int counter;
	size_t len = strlen(build_program_cl) + 128;
	char *src = malloc(len);
	__u64 t[BUILDS];
	cl_context ctx;
	cl_int err;
	int i;

	if (!src)
		bench_die("out of memory");
	ctx = clCreateContext(NULL, 1, &dev, NULL, NULL, &err);
	cl_check(err, "clCreateContext");
	/* The cached case: this source once, before the timing. */
	snprintf(src, len, BUILD_FRESH "%s", counter, counter, build_program_cl);
	if (!fresh)
		clReleaseProgram(build(ctx, dev, src));
	for (i = 0; i < BUILDS; i++) {
		uint64_t t0;
		cl_program p;

		if (fresh) {
			counter++;
			snprintf(src, len, BUILD_FRESH "%s", counter, counter, build_program_cl);
		}
		t0 = bench_now_ns();
		p = build(ctx, dev, src);
		t[i] = bench_now_ns() - t0;
		clReleaseProgram(p);
	}
	counter++;
	clReleaseContext(ctx);
	free(src);
	return bench_percentile(t, BUILDS, 50) / 1e6;
}

/*
 * The median time of BUILDS fresh sources from clBuildProgram() to the
 * first result: the build, then vadd created, launched on one work-item
 * (n = 0: it returns at once) and finished.  PoCL makes a kernel's
 * work-group function at its first launch, which this includes.
 */
static double first_result_ms(cl_device_id dev)
{
	static unsigned int counter = 1000000;
	size_t len = strlen(build_program_cl) + 128, one = 1;
	char *src = malloc(len);
	cl_uint n = 0;
	__u64 t[BUILDS];
	cl_command_queue q;
	cl_context ctx;
	cl_mem m;
	cl_int err;
	int i, a;

	if (!src)
		bench_die("out of memory");
	ctx = clCreateContext(NULL, 1, &dev, NULL, NULL, &err);
	cl_check(err, "clCreateContext");
	q = clCreateCommandQueue(ctx, dev, 0, &err);
	cl_check(err, "clCreateCommandQueue");
	m = clCreateBuffer(ctx, CL_MEM_READ_WRITE, 64, NULL, &err);
	cl_check(err, "clCreateBuffer");
	for (i = 0; i < BUILDS; i++) {
		uint64_t t0;
		cl_program p;
		cl_kernel k;

		counter++;
		snprintf(src, len, BUILD_FRESH "%s", counter, counter, build_program_cl);
		t0 = bench_now_ns();
		p = build(ctx, dev, src);
		k = clCreateKernel(p, "vadd", &err);
		cl_check(err, "clCreateKernel");
		for (a = 0; a < 3; a++)
			cl_check(clSetKernelArg(k, a, sizeof(m), &m), "clSetKernelArg");
		cl_check(clSetKernelArg(k, 3, sizeof(n), &n), "clSetKernelArg");
		cl_check(clEnqueueNDRangeKernel(q, k, 1, NULL, &one, &one, 0, NULL, NULL),
			 "clEnqueueNDRangeKernel");
		cl_check(clFinish(q), "clFinish");
		t[i] = bench_now_ns() - t0;
		clReleaseKernel(k);
		clReleaseProgram(p);
	}
	clReleaseMemObject(m);
	clReleaseCommandQueue(q);
	clReleaseContext(ctx);
	free(src);
	return bench_percentile(t, BUILDS, 50) / 1e6;
}

static int lines(const char *s)
{
	int n = 0;

	for (; *s; s++)
		n += *s == '\n';
	return n;
}

static bool builds(void)
{
	double vcold = build_ms(b.dev, true), vwarm = build_ms(b.dev, false);
	double pcold = build_ms(b.pocl_dev, true), pwarm = build_ms(b.pocl_dev, false);
	double vfirst, pfirst;
	bool ok;

	printf("(c) clBuildProgram of %d lines, median of %d, ms: vaccel cold %.1f, cached "
	       "%.1f; PoCL cold %.1f, cached %.1f; cold vaccel/PoCL %.3fx\n",
	       lines(build_program_cl), BUILDS,
	       vcold, vwarm, pcold, pwarm, vcold / pcold);
	bench_report(&(struct bench_metric){ "build_cold_ms", vcold, 1, "ms" });
	bench_report(&(struct bench_metric){ "build_cached_ms", vwarm, 1, "ms" });
	bench_report(&(struct bench_metric){ "build_pocl_cold_ms", pcold, 1, "ms" });
	bench_report(&(struct bench_metric){ "build_pocl_cached_ms", pwarm, 1, "ms" });
	ok = bench_report(&(struct bench_metric){ "build_cold_pocl_ratio", vcold / pcold, 3,
						  "ratio", "<=", 1.0 });
	vfirst = first_result_ms(b.dev);
	pfirst = first_result_ms(b.pocl_dev);
	printf("(d) a cold build to its first result (the build, vadd created, launched and "
	       "finished), median of %d, ms: vaccel %.1f, PoCL %.1f, %.3fx\n",
	       BUILDS, vfirst, pfirst, vfirst / pfirst);
	bench_report(&(struct bench_metric){ "first_result_cold_ms", vfirst, 1, "ms" });
	bench_report(&(struct bench_metric){ "first_result_pocl_cold_ms", pfirst, 1, "ms" });
	bench_report(&(struct bench_metric){ "first_result_cold_pocl_ratio", vfirst / pfirst, 3,
					     "ratio" });
	return ok;
}

/*
 * The cost kernels: @f between two rdinstret, its operands and result
 * passed through empty asm statements so that no part of the call moves
 * out from between the reads; c_none measures the reads alone.
 */
#define COST_KERNELS							\
	"#define COST(name, call, Y, yc) __kernel void c_##name(__global const float *x,"	\
	" __global const float *y, __global float *out, __global ulong *cost) {"		\
	" size_t i = get_global_id(0); float a = x[i]; Y b = (Y)y[i]; ulong t0, t1;"	\
	" __asm__ volatile(\"rdinstret %0\" : \"=r\"(t0));"					\
	" __asm__ volatile(\"\" : \"+f\"(a), yc(b)); float r = call;"			\
	" __asm__ volatile(\"\" : \"+f\"(r));"						\
	" __asm__ volatile(\"rdinstret %0\" : \"=r\"(t1)); out[i] = r; cost[i] = t1 - t0; }\n"	\
	"#define F(f) COST(f, f(a), float, \"+f\")\n"					\
	"#define F2(f, Y, yc) COST(f, f(a, b), Y, yc)\n"					\
	"COST(none, a, float, \"+f\")\n"

/* The mean instructions of kernel c_@name on n inputs x (and y). */
static double mean_cost(cl_program p, const char *name, const float *x, const float *y,
			size_t n)
{
	char kname[64];
	cl_int err;
	cl_kernel k;
	cl_mem mx = cl_buf(n * sizeof(float), x), my = cl_buf(n * sizeof(float), y);
	cl_mem mo = cl_buf(n * sizeof(float), NULL), mc = cl_buf(n * sizeof(cl_ulong), NULL);
	cl_ulong *cost = malloc(n * sizeof(*cost));
	double sum = 0;
	size_t i;

	if (!cost)
		bench_die("out of memory");
	snprintf(kname, sizeof(kname), "c_%s", name);
	k = clCreateKernel(p, kname, &err);
	cl_check(err, kname);
	set_args(k, 4, sizeof(mx), &mx, sizeof(my), &my, sizeof(mo), &mo, sizeof(mc), &mc);
	cl_check(clEnqueueNDRangeKernel(b.q, k, 1, NULL, &n, NULL, 0, NULL, NULL), kname);
	cl_check(clEnqueueReadBuffer(b.q, mc, CL_TRUE, 0, n * sizeof(*cost), cost, 0, NULL, NULL),
		 "clEnqueueReadBuffer");
	for (i = 0; i < n; i++)
		sum += (double)cost[i];
	free(cost);
	clReleaseKernel(k);
	clReleaseMemObject(mx); clReleaseMemObject(my);
	clReleaseMemObject(mo); clReleaseMemObject(mc);
	return sum / n;
}

/*
 * The double functions' cost kernels, and the reads alone (d_none): a
 * call of a and b (nb for an int), read before the first rdinstret.
 */
#define COST_KERNELS_D							\
	"#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n"			\
	"#define D(name, call) __kernel void d_##name(__global const double *x,"	\
	" __global const double *y, __global double *out, __global ulong *cost) {"	\
	" size_t i = get_global_id(0); double a = x[i], b = y[i]; int nb = (int)b;"	\
	" ulong t0, t1; __asm__ volatile(\"\" : \"+f\"(b), \"+r\"(nb));"		\
	" __asm__ volatile(\"rdinstret %0\" : \"=r\"(t0));"				\
	" __asm__ volatile(\"\" : \"+f\"(a)); double r = call;"			\
	" __asm__ volatile(\"\" : \"+f\"(r));"						\
	" __asm__ volatile(\"rdinstret %0\" : \"=r\"(t1)); out[i] = r; cost[i] = t1 - t0; }\n"	\
	"D(none, a)\n"

/* The mean instructions of kernel d_@name on the n inputs (x, y). */
static double mean_cost_d(cl_program p, const char *name, const double *x, const double *y,
			  size_t n)
{
	char kname[64];
	cl_int err;
	cl_kernel k;
	cl_mem mx = cl_buf(n * sizeof(double), x), mo = cl_buf(n * sizeof(double), NULL);
	cl_mem my = cl_buf(n * sizeof(double), y);
	cl_mem mc = cl_buf(n * sizeof(cl_ulong), NULL);
	cl_ulong *cost = malloc(n * sizeof(*cost));
	double sum = 0;
	size_t i;

	if (!cost)
		bench_die("out of memory");
	snprintf(kname, sizeof(kname), "d_%s", name);
	k = clCreateKernel(p, kname, &err);
	cl_check(err, kname);
	set_args(k, 4, sizeof(mx), &mx, sizeof(my), &my, sizeof(mo), &mo, sizeof(mc), &mc);
	cl_check(clEnqueueNDRangeKernel(b.q, k, 1, NULL, &n, NULL, 0, NULL, NULL), kname);
	cl_check(clEnqueueReadBuffer(b.q, mc, CL_TRUE, 0, n * sizeof(*cost), cost, 0, NULL, NULL),
		 "clEnqueueReadBuffer");
	for (i = 0; i < n; i++)
		sum += (double)cost[i];
	free(cost);
	clReleaseKernel(k);
	clReleaseMemObject(mx); clReleaseMemObject(my);
	clReleaseMemObject(mo); clReleaseMemObject(mc);
	return sum / n;
}

/* (e), double: the instructions per call of each double function. */
static bool math_costs_d(void)
{
	static const char *const targeted[] = { "exp", "log", "sin", "cos", "pow" };
	static double x[8192], y[8192];
	char src[8192] = COST_KERNELS_D, key[64];
	size_t f, len = strlen(src), t;
	const char *name;
	double none;
	bool ok = true;
	cl_program p;

	for (f = 0; f < NFUNCTIONS_D; f++)
		len += snprintf(src + len, sizeof(src) - len, "D(%s, %s(a))\n", functions_d[f].name,
				functions_d[f].name);
	for (f = 0; f < NFUNCTIONS2_D; f++)
		len += snprintf(src + len, sizeof(src) - len, "D(%s, %s(a, %s))\n",
				functions2_d[f].name, functions2_d[f].name,
				functions2_d[f].int_y ? "nb" : "b");
	if (len >= sizeof(src))
		bench_die("the cost kernels do not fit");
	p = build(b.ctx, b.dev, src);
	math_inputs_d(&functions_d[0], x, 8192);
	none = mean_cost_d(p, "none", x, x, 8192);
	for (f = 0; f < NFUNCTIONS_D + NFUNCTIONS2_D; f++) {
		struct bench_metric m = { key, 0, 1, "instructions" };

		if (f < NFUNCTIONS_D) {
			name = functions_d[f].name;
			math_inputs_d(&functions_d[f], x, 8192);
			m.value = mean_cost_d(p, name, x, x, 8192) - none;
		} else {
			name = functions2_d[f - NFUNCTIONS_D].name;
			math_pairs_d(&functions2_d[f - NFUNCTIONS_D], x, y, 8192);
			m.value = mean_cost_d(p, name, x, y, 8192) - none;
		}
		snprintf(key, sizeof(key), "math_%s_double_instructions", name);
		for (t = 0; t < sizeof(targeted) / sizeof(targeted[0]); t++)
			if (!strcmp(name, targeted[t])) {
				m.op = "<=";
				m.target = 400;
			}
		ok &= bench_report(&m);
	}
	clReleaseProgram(p);
	return ok;
}

/* (e): the instructions per call of each math function. */
static bool math_costs(void)
{
	static const char *const targeted[] = { "exp", "log", "sin", "cos", "pow" };
	static float x[NIN2 > NIN ? NIN2 : NIN], y[NIN2 > NIN ? NIN2 : NIN];
	char src[8192] = COST_KERNELS, key[64];
	size_t f, len = strlen(src), t;
	double none;
	bool ok = true;
	cl_program p;

	for (f = 0; f < NFUNCTIONS; f++)
		if (!functions[f].device_form)
			len += snprintf(src + len, sizeof(src) - len, "F(%s)\n", functions[f].name);
	for (f = 0; f < NFUNCTIONS2; f++)
		len += snprintf(src + len, sizeof(src) - len, "F2(%s, %s)\n", functions2[f].name,
				functions2[f].int_y ? "int, \"+r\"" : "float, \"+f\"");
	if (len >= sizeof(src))
		bench_die("the cost kernels do not fit");
	p = build(b.ctx, b.dev, src);
	math_inputs("none", -1.0f, 1.0f, x);
	none = mean_cost(p, "none", x, x, NIN);
	bench_report(&(struct bench_metric){ "math_reads_instructions", none, 1, "instructions" });
	for (f = 0; f < NFUNCTIONS + NFUNCTIONS2; f++) {
		const char *name = f < NFUNCTIONS ? functions[f].name : functions2[f - NFUNCTIONS].name;
		struct bench_metric m = { key, 0, 1, "instructions" };

		if (f < NFUNCTIONS && functions[f].device_form)
			continue;
		if (f < NFUNCTIONS) {
			math_inputs(name, functions[f].lo, functions[f].hi, x);
			m.value = mean_cost(p, name, x, x, NIN) - none;
		} else {
			const struct function2 *fn = &functions2[f - NFUNCTIONS];

			math_pairs(name, fn->lo, fn->hi, fn->ylo, fn->yhi, fn->int_y, x, y);
			m.value = mean_cost(p, name, x, y, NIN2) - none;
		}
		snprintf(key, sizeof(key), "math_%s_float_instructions", name);
		for (t = 0; t < sizeof(targeted) / sizeof(targeted[0]); t++)
			if (!strcmp(name, targeted[t])) {
				m.op = "<=";
				m.target = 150;
			}
		ok &= bench_report(&m);
	}
	clReleaseProgram(p);
	return ok;
}

/* (f): a kernel of @rounds and a copy of @size on @q, to clFinish(); ns. */
static uint64_t copy_and_kernel(cl_command_queue q, cl_kernel k, int rounds, cl_mem src,
				cl_mem dst, size_t size)
{
	size_t n = 64;
	uint64_t t0;

	t0 = bench_now_ns();
	if (rounds) {
		/* One workgroup: one compute unit, one of the VM's two CPUs. */
		cl_check(clSetKernelArg(k, 1, sizeof(rounds), &rounds), "work rounds");
		cl_check(clEnqueueNDRangeKernel(q, k, 1, NULL, &n, &n, 0, NULL, NULL), "work");
	}
	if (size)
		cl_check(clEnqueueCopyBuffer(q, src, dst, 0, 0, size, 0, NULL, NULL),
			 "clEnqueueCopyBuffer");
	cl_check(clFinish(q), "clFinish");
	return bench_now_ns() - t0;
}

/* The least of three copy_and_kernel(), in ms. */
static double best_of_3(cl_command_queue q, cl_kernel k, int rounds, cl_mem src, cl_mem dst,
			size_t size)
{
	uint64_t t, best = UINT64_MAX;
	int i;

	for (i = 0; i < 3; i++) {
		t = copy_and_kernel(q, k, rounds, src, dst, size);
		if (t < best)
			best = t;
	}
	return best / 1e6;
}

static bool out_of_order(void)
{
	static const char *src =
		"kernel void work(global uint *p, int rounds)\n"
		"{\n"
		"	size_t i = get_global_id(0);\n"
		"	uint x = p[i];\n"
		"	for (int r = 0; r < rounds; r++)\n"
		"		x = x * 1103515245u + 12345u;\n"
		"	p[i] = x;\n"
		"}\n";
	const size_t max_size = 64u << 20;
	__u64 ooo[SAMPLES_OOO], in[SAMPLES_OOO], ratio[SAMPLES_OOO];
	double copy_ms, kernel_ms, copy_engine_ms, om, im, r;
	cl_command_queue oq;
	size_t size = 1u << 20;
	int rounds = 256, i;
	cl_mem src_m, dst_m, p;
	cl_program prog;
	cl_kernel k;
	cl_int err;

	oq = clCreateCommandQueue(b.ctx, b.dev, CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE, &err);
	cl_check(err, "clCreateCommandQueue(out of order)");
	prog = build(b.ctx, b.dev, src);
	k = clCreateKernel(prog, "work", &err);
	cl_check(err, "clCreateKernel(work)");
	p = cl_buf(256 * sizeof(cl_uint), NULL);
	cl_check(clSetKernelArg(k, 0, sizeof(p), &p), "work p");
	src_m = cl_buf(max_size, NULL);
	dst_m = cl_buf(max_size, NULL);
	/*
	 * The copy: 50 ms or more; the kernel: as long as the copy on the
	 * copy engine, where the out-of-order queue runs it.  Each the best
	 * of three (the first copy of a size also faults its pages in).
	 */
	while ((copy_ms = best_of_3(b.q, k, 0, src_m, dst_m, size)) < 50 && size < max_size)
		size *= 2;
	copy_engine_ms = best_of_3(oq, k, 0, src_m, dst_m, size);
	while ((kernel_ms = best_of_3(b.q, k, rounds, src_m, dst_m, 0)) < 10)
		rounds *= 2;
	/* A launch's own cost does not scale with the rounds: a few steps. */
	for (i = 0; i < 4; i++) {
		rounds = (int)(rounds * copy_engine_ms / kernel_ms);
		kernel_ms = best_of_3(b.q, k, rounds, src_m, dst_m, 0);
	}
	/* The build's compiler switched processes: both vCPUs' TLBs alike again. */
	if (tcg_tlb_warm(300))
		bench_die("tcg_tlb_warm failed");
	for (i = 0; i < SAMPLES_OOO; i++) {
		in[i] = copy_and_kernel(b.q, k, rounds, src_m, dst_m, size);
		ooo[i] = copy_and_kernel(oq, k, rounds, src_m, dst_m, size);
	}
	/* The ratio of each pair, measured one after the other: the machine drifts. */
	for (i = 0; i < SAMPLES_OOO; i++)
		ratio[i] = ooo[i] * 1000000 / in[i];
	r = bench_percentile(ratio, SAMPLES_OOO, 50) / 1e6;
	om = bench_percentile(ooo, SAMPLES_OOO, 50) / 1e6;
	im = bench_percentile(in, SAMPLES_OOO, 50) / 1e6;
	printf("(f) a kernel (%d rounds, %.1f ms alone) and a copy (%zu MiB, %.1f ms alone, "
	       "%.1f ms on the copy engine), median of %d: out of order %.1f ms, in order "
	       "%.1f ms; the median ratio of a pair %.3fx\n", rounds, kernel_ms, size >> 20,
	       copy_ms, copy_engine_ms, SAMPLES_OOO, om, im, r);
	clReleaseMemObject(src_m);
	clReleaseMemObject(dst_m);
	clReleaseMemObject(p);
	clReleaseKernel(k);
	clReleaseProgram(prog);
	clReleaseCommandQueue(oq);
	bench_report(&(struct bench_metric){ "ooo_copy_kernel_ms", om, 1, "ms" });
	bench_report(&(struct bench_metric){ "inorder_copy_kernel_ms", im, 1, "ms" });
	return bench_report(&(struct bench_metric){ "ooo_copy_kernel_ratio", r, 3,
						    "ratio", "<=", 0.6 });
}

int main(int argc, char **argv)
{
	const char *only;
	cl_int err;
	bool ok;

	bench_name = "opencl";
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (argc != 3)
		bench_die("usage: bench_opencl UMD_BUILD LAUNCH_KERNEL_ELF");
	b.platform = find_platform("vaccel", &b.dev);
	b.pocl = find_platform("Portable Computing Language", &b.pocl_dev);
	b.ctx = clCreateContext(NULL, 1, &b.dev, NULL, NULL, &err);
	cl_check(err, "clCreateContext");
	b.q = clCreateCommandQueue(b.ctx, b.dev, 0, &err);
	cl_check(err, "clCreateCommandQueue");
	vc_check(vaccel_device_open(0, &b.vdev), "vaccel_device_open");
	vc_check(vaccel_queue_create(b.vdev, VACCEL_ENGINE_CLASS_COMPUTE, VACCEL_PRIORITY_NORMAL,
				     &b.vq), "vaccel_queue_create");

	only = getenv("BENCH_OPENCL_ONLY");
	if (only && strcmp(only, "math") && strcmp(only, "ooo"))
		bench_die("BENCH_OPENCL_ONLY=%s: \"math\" and \"ooo\" are known", only);
	ok = true;
	if (!only) {
		ok &= examples(argv[1]);
		ok &= round_trip(argv[2]);
		ok &= builds();
	}
	if (!only || !strcmp(only, "math")) {
		ok &= math_costs();
		ok &= math_costs_d();
	}
	if (!only || !strcmp(only, "ooo"))
		ok &= out_of_order();

	clReleaseCommandQueue(b.q);
	clReleaseContext(b.ctx);
	vaccel_queue_destroy(b.vq);
	vaccel_device_close(b.vdev);
	return ok ? 0 : 1;
}
