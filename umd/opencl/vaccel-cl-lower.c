// SPDX-License-Identifier: MIT
/*
 * Copyright 2026 The vaccel authors
 *
 * vaccel-cl-lower - the IR step of OpenCL C as a program, for vaccel-cc:
 *
 *	vaccel-cl-lower [--source NAME] -o OUT.bc IN.bc... LIBRARY.bc
 *
 * Reads the bitcode clang-14 made of OpenCL C sources for the device (one,
 * or several that link into one program, as clLinkProgram() links
 * compiled programs) and the device library's (the last input), lowers
 * the program with the library (lower.c), and writes the result.
 * Messages go to stderr, prefixed with the source's name (--source, by
 * default the first input's); the exit status is 0, 1 for a program it
 * cannot lower, 2 for a usage error.
 */
#include <limits.h>
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
	fprintf(f, "usage: vaccel-cl-lower [--source NAME] -o OUT.bc IN.bc... LIBRARY.bc\n");
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
	unsigned int n = 0, k;
	char log[4096];
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
		if (vaccel_cl_lower(m, lib, log, sizeof(log)))
			fprintf(stderr, "%s: %s", source ? source : in, log);
		else if (LLVMWriteBitcodeToFile(m, out))
			fprintf(stderr, "vaccel-cl-lower: %s: cannot write\n", out);
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
