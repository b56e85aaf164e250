// SPDX-License-Identifier: MIT
/*
 * Copyright 2026 The vaccel authors
 *
 * vaccel-cl-lower - the IR step of OpenCL C as a program, for vaccel-cc:
 *
 *	vaccel-cl-lower [--source NAME] [--parts N] -o OUT.bc IN.bc... LIBRARY.bc
 *
 * Reads the bitcode clang-14 made of OpenCL C sources for the device (one,
 * or several that link into one program, as clLinkProgram() links
 * compiled programs) and the device library's (the last input), lowers
 * the program with the library (lower.c), optimises it and writes the
 * result.  With --parts N, a large program of several kernels is written
 * in up to N parts, optimised at the same time (split.c): part 0 to
 * OUT.bc, part k to OUT.k.bc; N of 0 is the number of CPUs the program
 * may run on.  Each part compiles to an object of its own, and the
 * objects link into one module.  Messages go to stderr, prefixed with the
 * source's name (--source, by default the first input's); the exit status
 * is 0, 1 for a program it cannot lower, 2 for a usage error.
 */
#define _GNU_SOURCE
#include <limits.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <llvm-c/BitReader.h>
#include <llvm-c/BitWriter.h>
#include <llvm-c/Core.h>
#include <llvm-c/Linker.h>

#include "lower.h"

static void usage(FILE *f)
{
	fprintf(f, "usage: vaccel-cl-lower [--source NAME] [--parts N] -o OUT.bc IN.bc... LIBRARY.bc\n");
}

/* The CPUs this process may run on, at least 1. */
static unsigned int cpus(void)
{
	cpu_set_t set;
	long n;

	if (!sched_getaffinity(0, sizeof(set), &set) && CPU_COUNT(&set) > 0)
		return (unsigned int)CPU_COUNT(&set);
	n = sysconf(_SC_NPROCESSORS_ONLN);
	return n > 0 ? (unsigned int)n : 1;
}

/*
 * Optimises @m, lowered, and writes it to @out: whole, or in up to
 * @max_parts parts, part k in @out with .k before its .bc.
 */
static int finish(LLVMModuleRef m, const char *out, unsigned int max_parts, char *log,
		  size_t log_size)
{
	char (*names)[PATH_MAX] = NULL;
	const char *paths[VACCEL_CL_MAX_PARTS];
	unsigned int *part_of, nparts, k;
	size_t stem;
	int ret;

	nparts = vaccel_cl_partition(m, max_parts, &part_of);
	if (nparts < 2) {
		if (vaccel_cl_optimize(m, log, log_size))
			return -1;
		if (!LLVMWriteBitcodeToFile(m, out))
			return 0;
		snprintf(log, log_size, "error: cannot write %s\n", out);
		return -1;
	}
	stem = strlen(out);
	if (stem > 3 && !strcmp(out + stem - 3, ".bc"))
		stem -= 3;
	names = calloc(nparts, sizeof(*names));
	if (!names || stem + 16 > PATH_MAX) {
		snprintf(log, log_size, "error: %s\n", names ? "the output's name is too long" :
			 "out of memory");
		free(names);
		free(part_of);
		return -1;
	}
	paths[0] = out;
	for (k = 1; k < nparts; k++) {
		snprintf(names[k], PATH_MAX, "%.*s.%u.bc", (int)stem, out, k);
		paths[k] = names[k];
	}
	ret = vaccel_cl_optimize_parts(m, nparts, part_of, paths, log, log_size);
	free(names);
	free(part_of);
	return ret;
}

/*
 * The module at @path; @lazy: its functions' bodies are read when used
 * (the device library, of which a program reaches a small part).
 */
static LLVMModuleRef read_bitcode(LLVMContextRef ctx, const char *path, int lazy)
{
	LLVMMemoryBufferRef buf;
	LLVMModuleRef m;
	LLVMBool failed;
	char *msg = NULL;

	if (LLVMCreateMemoryBufferWithContentsOfFile(path, &buf, &msg)) {
		fprintf(stderr, "vaccel-cl-lower: %s: %s\n", path, msg ? msg : "cannot read");
		LLVMDisposeMessage(msg);
		return NULL;
	}
	/* A lazy module owns its buffer (LLVM frees it on failure). */
	failed = lazy ? LLVMGetBitcodeModuleInContext2(ctx, buf, &m) :
			LLVMParseBitcodeInContext2(ctx, buf, &m);
	if (!lazy)
		LLVMDisposeMemoryBuffer(buf);
	if (failed) {
		fprintf(stderr, "vaccel-cl-lower: %s: not LLVM bitcode\n", path);
		m = NULL;
	}
	return m;
}

/*
 * In a warm server (warm_preload.c), the device library next to this
 * program is read once, before the server forks its runs: each run
 * starts with it read (copy-on-write), and only the functions it reaches
 * are materialized.  A run that names another library reads that one.
 */
static LLVMContextRef warm_ctx;
static LLVMModuleRef warm_lib;
static struct stat warm_stat;

__attribute__((constructor)) static void warm_preload_library(void)
{
	char path[PATH_MAX], *slash;
	ssize_t n;

	if (!getenv("VACCEL_CL_WARM_DIR"))
		return;
	n = readlink("/proc/self/exe", path, sizeof(path) - sizeof("/opencl.bc"));
	if (n <= 0)
		return;
	path[n] = '\0';
	slash = strrchr(path, '/');
	if (!slash)
		return;
	strcpy(slash, "/opencl.bc");
	if (stat(path, &warm_stat))
		return;
	warm_ctx = LLVMContextCreate();
	warm_lib = read_bitcode(warm_ctx, path, 1);
	if (!warm_lib) {
		LLVMContextDispose(warm_ctx);
		warm_ctx = NULL;
	}
}

/* Whether @path is the library read before the run: the same file, unchanged. */
static int warm_is(const char *path)
{
	struct stat st;

	return warm_lib && !stat(path, &st) && st.st_dev == warm_stat.st_dev &&
	       st.st_ino == warm_stat.st_ino && st.st_size == warm_stat.st_size &&
	       st.st_mtim.tv_sec == warm_stat.st_mtim.tv_sec &&
	       st.st_mtim.tv_nsec == warm_stat.st_mtim.tv_nsec;
}

int main(int argc, char **argv)
{
	const char *out = NULL, *source = NULL, **inputs, *lib_path, *in;
	LLVMContextRef ctx;
	LLVMModuleRef m, lib, more;
	unsigned int n = 0, k, max_parts = 1;
	char log[4096], *end;
	int i, ret = 1;

	/* As many inputs as clLinkProgram() gives: at most every argument. */
	inputs = calloc((size_t)argc, sizeof(*inputs));
	if (!inputs) {
		fprintf(stderr, "vaccel-cl-lower: out of memory\n");
		return 1;
	}
	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
			usage(stdout);
			free(inputs);
			return 0;
		} else if (!strcmp(argv[i], "-o") && i + 1 < argc) {
			out = argv[++i];
		} else if (!strcmp(argv[i], "--source") && i + 1 < argc) {
			source = argv[++i];
		} else if (!strcmp(argv[i], "--parts") && i + 1 < argc) {
			unsigned long v = strtoul(argv[++i], &end, 10);

			if (!*argv[i] || *end || v > 1024) {
				fprintf(stderr, "vaccel-cl-lower: --parts %s: not a number of parts\n",
					argv[i]);
				free(inputs);
				return 2;
			}
			max_parts = v ? (unsigned int)v : cpus();
		} else if (argv[i][0] == '-') {
			fprintf(stderr, "vaccel-cl-lower: unknown option %s\n", argv[i]);
			usage(stderr);
			free(inputs);
			return 2;
		} else {
			inputs[n++] = argv[i];
		}
	}
	if (!out || n < 2) {
		usage(stderr);
		free(inputs);
		return 2;
	}
	lib_path = inputs[--n];
	in = inputs[0];
	/* The program is read into the library's context: they link. */
	ctx = warm_is(lib_path) ? warm_ctx : LLVMContextCreate();
	/* The inputs, linked into the first: a program of several sources. */
	m = read_bitcode(ctx, in, 0);
	for (k = 1; m && k < n; k++) {
		more = read_bitcode(ctx, inputs[k], 0);
		if (!more || LLVMLinkModules2(m, more)) {
			if (more)
				fprintf(stderr, "%s: error: %s does not link with %s\n",
					source ? source : in, inputs[k], in);
			LLVMDisposeModule(m);
			m = NULL;
		}
	}
	lib = !m ? NULL : ctx == warm_ctx ? warm_lib : read_bitcode(ctx, lib_path, 1);
	if (m && lib) {
		if (vaccel_cl_lower(m, lib, log, sizeof(log)) ||
		    finish(m, out, max_parts, log, sizeof(log)))
			fprintf(stderr, "%s: %s", source ? source : in, log);
		else
			ret = 0;
		lib = NULL;
	}
	if (lib)
		LLVMDisposeModule(lib);
	if (m)
		LLVMDisposeModule(m);
	LLVMContextDispose(ctx);
	free(inputs);
	return ret;
}
