// SPDX-License-Identifier: GPL-2.0-only
/*
 * Copyright 2026 The vaccel authors
 *
 * rv_bench - the speed of the RV64 interpreter (user-space build) against
 * the same C kernels compiled for the host.
 *
 * Builds rv_bench_kern.c for RV64G with clang and ld.lld, runs each kernel
 * in the interpreter in slices of 8192 instructions (as an engine does),
 * runs the host builds of the same kernel (-O2, and -O2 without
 * vectorization, linked in as bench_<kernel>_o2 and bench_<kernel>_scalar),
 * checks that the checksums agree and prints the interpreter's
 * instructions per second and its slowdowns.
 *
 * Usage: rv_bench [-r reps] [-t tries] [-l label] -o builddir [int|fp|work|workfp...]
 * Each try runs the interpreter and both native builds once; each time is
 * the best of the tries.
 */

#include <stdarg.h>
#include <time.h>
#include <unistd.h>

#include "rv_env.h"

typedef unsigned long bench_u64;

bench_u64 bench_int_o2(int reps);
bench_u64 bench_fp_o2(int reps);
bench_u64 bench_int_scalar(int reps);
bench_u64 bench_fp_scalar(int reps);
bench_u64 bench_work_o2(int reps);
bench_u64 bench_work_scalar(int reps);
bench_u64 bench_workfp_o2(int reps);
bench_u64 bench_workfp_scalar(int reps);

static const char *clang = "clang-14", *lld = "ld.lld-14";

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec * 1e-9;
}

struct kernel {
	const char *name;
	bench_u64 (*native)(int reps);
	bench_u64 (*scalar)(int reps);
	int reps;
};

static const struct kernel kernels[] = {
	{ "int", bench_int_o2, bench_int_scalar, 100 },
	{ "fp", bench_fp_o2, bench_fp_scalar, 40 },
	{ "work", bench_work_o2, bench_work_scalar, 20 },
	{ "workfp", bench_workfp_o2, bench_workfp_scalar, 10 },
};

/* The time of one run of @fn, over enough runs. */
static double native_time(bench_u64 (*fn)(int reps), int n)
{
	double t0 = now(), t;
	int runs = 0;

	do {
		fn(n);
		runs++;
		t = now() - t0;
	} while (t < 0.3);
	return t / runs;
}


static int sh(const char *fmt, ...)
{
	char cmd[4096];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(cmd, sizeof(cmd), fmt, ap);
	va_end(ap);
	return system(cmd);
}

static int build(const char *dir, const char *here, const struct kernel *k,
		 int reps)
{
	char path[1024];
	FILE *f;

	snprintf(path, sizeof(path), "%s/rv_bench_%s.S", dir, k->name);
	f = fopen(path, "w");
	if (!f)
		return -1;
	/* _start: a stack, the kernel, its checksum written, exit. */
	fprintf(f,
		"\t.option norvc\n\t.text\n\t.globl _start\n_start:\n"
		"\tlla sp, .Lstack + 65536\n"
		"\tli a0, %d\n"
		"\tcall bench_%s\n"
		"\tlla a1, .Lsum\n\tsd a0, 0(a1)\n"
		"\tli a0, 1\n\tli a2, 8\n\tli a7, 64\n\tecall\n"
		"\tli a0, 0\n\tli a7, 93\n\tecall\n"
		"\t.bss\n\t.balign 16\n.Lstack:\t.zero 65536\n.Lsum:\t.zero 8\n",
		reps, k->name);
	fclose(f);
	return sh("%s --target=riscv64-unknown-elf -march=rv64imafd -mabi=lp64d "
		  "-mcmodel=medany -mno-relax -O2 -ffreestanding -fno-builtin "
		  "-ffp-contract=off -fno-math-errno -nostdlib -c %s/rv_bench_kern.c -o %s/rv_bench_kern.o && "
		  "%s --target=riscv64-unknown-elf -march=rv64imafd -mabi=lp64d "
		  "-mno-relax -c %s -o %s/rv_bench_%s_start.o && "
		  "%s -static -nostdlib -e _start -Ttext=0x10000 %s/rv_bench_%s_start.o "
		  "%s/rv_bench_kern.o -o %s/rv_bench_%s.elf",
		  clang, here, dir, clang, path, dir, k->name, lld, dir,
		  k->name, dir, dir, k->name);
}

static u64 slice_budget(u64 call)
{
	(void)call;
	return 8192;
}

int main(int argc, char **argv)
{
	const char *dir = NULL, *here, *label = "";
	int opt, reps = 0, tries = 3, i, rc = 0;

	while ((opt = getopt(argc, argv, "r:t:l:o:")) != -1) {
		if (opt == 'r')
			reps = atoi(optarg);
		else if (opt == 't')
			tries = atoi(optarg);
		else if (opt == 'l')
			label = optarg;
		else if (opt == 'o')
			dir = optarg;
	}
	if (!dir) {
		fprintf(stderr, "usage: %s [-r reps] -o builddir [int|fp|work|workfp...]\n",
			argv[0]);
		return 2;
	}
	here = getenv("RV_BENCH_SRC") ? getenv("RV_BENCH_SRC") : "tests/isa";
	if (getenv("CLANG"))
		clang = getenv("CLANG");
	if (getenv("LLD"))
		lld = getenv("LLD");

	for (i = 0; i < (int)(sizeof(kernels) / sizeof(kernels[0])); i++) {
		const struct kernel *k = &kernels[i];
		int n = reps ? reps : k->reps, a;
		struct vaccel_rv_fault fault;
		struct vaccel_rv_hart h;
		struct rv_image img;
		bench_u64 native_sum, sum = 0;
		bool natives_agree, same;
		double t0, t_rv, t_nat, t_scalar;
		bool want = optind >= argc;
		char elf[1100];
		u64 executed;

		for (a = optind; a < argc; a++)
			want |= !strcmp(argv[a], k->name);
		if (!want)
			continue;
		if (build(dir, here, k, n)) {
			printf("not ok isa.rv_bench_%s: does not build\n", k->name);
			rc = 1;
			continue;
		}
		snprintf(elf, sizeof(elf), "%s/rv_bench_%s.elf", dir, k->name);
		native_sum = k->native(n);
		natives_agree = k->scalar(n) == native_sum;
		/*
		 * Each try times the interpreter and both native builds once,
		 * the best of each kept: the host's speed drifts, and a slow
		 * moment then weighs on both sides of a ratio.
		 */
		t_rv = t_nat = t_scalar = 1e9;
		for (a = 0; a < tries; a++) {
			double t;

			if (rv_load_elf(elf, &img, 0)) {
				printf("not ok isa.rv_bench_%s: cannot load\n",
				       k->name);
				return 1;
			}
			t0 = now();
			if (rv_env_run(&img, &h, slice_budget, 0, &executed,
				       &fault) || img.out_len != 8) {
				printf("not ok isa.rv_bench_%s: the interpreter stopped: cause %u pc 0x%llx\n",
				       k->name, fault.cause,
				       (unsigned long long)fault.pc);
				return 1;
			}
			t0 = now() - t0;
			if (t0 < t_rv)
				t_rv = t0;
			memcpy(&sum, img.out, 8);
			free(img.mem);
			free(img.out);
			t = native_time(k->native, n);
			if (t < t_nat)
				t_nat = t;
			t = native_time(k->scalar, n);
			if (t < t_scalar)
				t_scalar = t;
		}

		same = natives_agree && sum == native_sum;
		printf("%s isa.rv_bench_%s%s: %llu instructions in %.3f s, %.0f M/s; %.1fx native -O2 (%.2f ms), %.1fx native scalar (%.2f ms)%s\n",
		       same ? "ok" : "not ok", k->name, label,
		       (unsigned long long)executed, t_rv, executed / t_rv / 1e6,
		       t_rv / t_nat, t_nat * 1e3, t_rv / t_scalar,
		       t_scalar * 1e3,
		       same ? "" : " (checksums differ)");
		rc |= !same;
	}
	return rc;
}
