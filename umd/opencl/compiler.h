/* SPDX-License-Identifier: MIT */
/*
 * Copyright 2026 The vaccel authors
 *
 * compiler.h - the ICD's kernel compiler (compiler.c): OpenCL C source to
 * a vaccel module, through vaccel-cc.
 */
#ifndef VACCEL_CL_COMPILER_H
#define VACCEL_CL_COMPILER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

char **vcl_options_split(const char *options, int *count);
void vcl_options_free(char **words, int count);
int vcl_options_check(char **words, int count, bool link);

/*
 * vcl_compile() - build @source with the option @words into a module
 *
 * Return: 0 with the module in *@elf (malloc'd); -ENOEXEC for a program
 * that does not compile, with the diagnostics in *@log (malloc'd, also on
 * success); or another negative errno.
 */
int vcl_compile(const char *source, const char *options, char **words, int count,
		void **elf, size_t *elf_size, char **log);

/*
 * vcl_compile_object() - compile @source into device bitcode, not linked
 * (clCompileProgram()); @headers are the embedded headers, by their
 * include @names.  Return: as vcl_compile(), -EINVAL for a header name
 * that leaves the build's directory.
 */
int vcl_compile_object(const char *source, char **words, int count, unsigned int num_headers,
		       const char *const *headers, const char *const *names, void **bc,
		       size_t *bc_size, char **log);

/* vcl_link() - link @n bitcode objects into a module (clLinkProgram()). */
int vcl_link(unsigned int n, void *const *bcs, const size_t *sizes, char **words, int count,
	     void **elf, size_t *elf_size, char **log);

/*
 * The warm compiler processes (warm.c): vcl_warm_start() starts a server
 * of each tool, once per process (@real: clang's and ld.lld's paths, the
 * IR step is @lib_dir's); vcl_warm_env() is the environment vaccel-cc
 * runs in to use them, NULL when there are none (free it with
 * vcl_warm_env_free()).
 */
#define VCL_WARM_TOOLS	3	/* clang, ld.lld, vaccel-cl-lower */
void vcl_warm_start(const char *lib_dir, const char *const real[VCL_WARM_TOOLS]);
char **vcl_warm_env(void);
void vcl_warm_env_free(char **env);

int vcl_symbolize(const void *elf, size_t size, uint64_t addr, char *out, size_t out_size);

#endif /* VACCEL_CL_COMPILER_H */
