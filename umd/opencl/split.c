// SPDX-License-Identifier: MIT
/*
 * Copyright 2026 The vaccel authors
 */

/**
 * DOC: A program in parts, optimised and compiled on several CPUs
 *
 * The optimiser and the code generator take most of a cold build, and
 * each works on one module on one CPU.  A program of several kernels is
 * several independent pieces of work: a kernel's entry reaches its own
 * functions and the library functions it calls, and nothing of another
 * kernel's.  So a lowered program (vaccel_cl_lower()) of enough work is
 * cut into parts, as many as the CPUs the process may run on (at most
 * %VACCEL_CL_MAX_PARTS), each a copy of the whole module that keeps some
 * of the entries:
 *
 * - vaccel_cl_partition() weighs each entry by the instructions of the
 *   functions it reaches and deals the entries out heaviest first, each
 *   to the lightest part so far.  It depends on the module alone (and the
 *   number of parts), so the same program gives the same parts.
 * - vaccel_cl_keep_part() makes a copy one part: the other parts' entries
 *   (and their ``__vaccel_kernel_`` names) become internal, so the
 *   optimiser drops them and what only they reached.  A value that must
 *   be defined once in the module (a local variable, the kernels'
 *   metadata, the program's inline assembly) stays in part 0; the other
 *   parts declare the local variables, which they reach through the GOT
 *   as before.
 * - vaccel_cl_optimize_parts() optimises part 0 in the calling thread and
 *   each other part on a thread of its own, in an LLVM context of its
 *   own, and writes each to its file.  vaccel-cc compiles the files at
 *   the same time and links the objects into one module.
 *
 * A function that kernels of two parts call is compiled in both, as a
 * static function of each; the loader sees the same entries, the same
 * local variables and the same metadata as from a program in one part.
 */

#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <llvm-c/BitReader.h>
#include <llvm-c/BitWriter.h>

#include "lower.h"

/* Below this many instructions a second part costs more than it saves. */
#define SPLIT_MIN_INSTRUCTIONS	600

/* The address space of local memory in clang's fake map. */
#define AS_LOCAL	3

struct split_fn {
	LLVMValueRef f;
	unsigned long size;		/* instructions */
	unsigned int *callees;		/* indices into the table */
	unsigned int ncallees;
	unsigned int mark;		/* the last entry whose walk saw it, + 1 */
};

struct split_pair {
	LLVMValueRef f;
	unsigned int index;
};

struct split_table {
	struct split_fn *fns;
	unsigned int n;
	struct split_pair *sorted;	/* the functions by address, for lookups */
};

/* An entry that this module defines and exports (not another part's). */
static bool is_entry(LLVMValueRef f)
{
	return !LLVMIsDeclaration(f) && LLVMGetLinkage(f) == LLVMExternalLinkage &&
	       vaccel_cl_is_entry(f);
}

static int cmp_pair(const void *a, const void *b)
{
	const struct split_pair *x = a, *y = b;

	return x->f < y->f ? -1 : x->f > y->f;
}

/* The table index of @f, or -1 if it is not a defined function. */
static int split_index(const struct split_table *t, LLVMValueRef f)
{
	struct split_pair key = { .f = f }, *p;

	p = bsearch(&key, t->sorted, t->n, sizeof(*t->sorted), cmp_pair);
	return p ? (int)p->index : -1;
}

static void split_table_free(struct split_table *t)
{
	unsigned int i;

	for (i = 0; t->fns && i < t->n; i++)
		free(t->fns[i].callees);
	free(t->fns);
	free(t->sorted);
}

/* Every defined function of @m, its size and the defined functions it calls. */
static int split_table_build(struct split_table *t, LLVMModuleRef m)
{
	LLVMValueRef f;
	unsigned int i;

	memset(t, 0, sizeof(*t));
	for (f = LLVMGetFirstFunction(m); f; f = LLVMGetNextFunction(f))
		if (!LLVMIsDeclaration(f))
			t->n++;
	t->fns = calloc(t->n ? t->n : 1, sizeof(*t->fns));
	t->sorted = calloc(t->n ? t->n : 1, sizeof(*t->sorted));
	if (!t->fns || !t->sorted) {
		split_table_free(t);
		return -1;
	}
	i = 0;
	for (f = LLVMGetFirstFunction(m); f; f = LLVMGetNextFunction(f)) {
		if (LLVMIsDeclaration(f))
			continue;
		t->fns[i].f = f;
		t->sorted[i] = (struct split_pair){ .f = f, .index = i };
		i++;
	}
	qsort(t->sorted, t->n, sizeof(*t->sorted), cmp_pair);

	for (i = 0; i < t->n; i++) {
		struct split_fn *fn = &t->fns[i];
		unsigned int cap = 0;
		LLVMBasicBlockRef bb;
		LLVMValueRef in;

		for (bb = LLVMGetFirstBasicBlock(fn->f); bb; bb = LLVMGetNextBasicBlock(bb)) {
			for (in = LLVMGetFirstInstruction(bb); in; in = LLVMGetNextInstruction(in)) {
				LLVMValueRef callee;
				int k;

				fn->size++;
				if (!LLVMIsACallInst(in))
					continue;
				callee = LLVMGetCalledValue(in);
				if (!callee || !LLVMIsAFunction(callee))
					continue;
				k = split_index(t, callee);
				if (k < 0)
					continue;
				if (fn->ncallees == cap) {
					unsigned int *more;

					cap = cap ? 2 * cap : 8;
					more = realloc(fn->callees, cap * sizeof(*more));
					if (!more) {
						split_table_free(t);
						return -1;
					}
					fn->callees = more;
				}
				fn->callees[fn->ncallees++] = (unsigned int)k;
			}
		}
	}
	return 0;
}

/* Instructions of every function @root reaches, each counted once. */
static unsigned long split_weigh(struct split_table *t, unsigned int root, unsigned int mark,
				 unsigned int *stack)
{
	unsigned long total = 0;
	unsigned int depth = 0, i, k;

	t->fns[root].mark = mark;
	stack[depth++] = root;
	while (depth) {
		struct split_fn *fn = &t->fns[stack[--depth]];

		total += fn->size;
		for (i = 0; i < fn->ncallees; i++) {
			k = fn->callees[i];
			if (t->fns[k].mark == mark)
				continue;
			t->fns[k].mark = mark;
			stack[depth++] = k;
		}
	}
	return total;
}

struct split_entry {
	unsigned long weight;		/* instructions it reaches */
	unsigned int index;		/* among the entries, in module order */
};

/* Heaviest first; of equal weight, the earlier entry first. */
static int cmp_heaviest(const void *a, const void *b)
{
	const struct split_entry *x = a, *y = b;

	if (x->weight != y->weight)
		return x->weight > y->weight ? -1 : 1;
	return x->index < y->index ? -1 : x->index > y->index;
}

/**
 * vaccel_cl_partition() - deal a lowered program's kernels out to parts
 * @m: the module vaccel_cl_lower() made
 * @max_parts: at most this many parts, 1 to %VACCEL_CL_MAX_PARTS
 * @part_of: receives an array, the part of each entry in the order of
 *	@m's functions (free() it); NULL when the program is one part
 *
 * Each entry weighs the instructions of the functions it reaches.  A
 * program of one kernel, or of less work than is worth a second part,
 * is one part; otherwise the entries go heaviest first to the lightest
 * part, ties to the lower part and the earlier entry.  Without memory
 * for the walk, the program is one part.
 *
 * Return: the number of parts, 1 to @max_parts.
 */
unsigned int vaccel_cl_partition(LLVMModuleRef m, unsigned int max_parts,
				 unsigned int **part_of)
{
	unsigned long load[VACCEL_CL_MAX_PARTS] = { 0 }, total = 0;
	struct split_entry *entries = NULL;
	unsigned int *stack = NULL, *parts = NULL;
	unsigned int nentries = 0, nparts = 1, i, k;
	struct split_table t;

	*part_of = NULL;
	if (max_parts > VACCEL_CL_MAX_PARTS)
		max_parts = VACCEL_CL_MAX_PARTS;
	if (max_parts < 2 || split_table_build(&t, m))
		return 1;
	entries = calloc(t.n + 1, sizeof(*entries));
	stack = calloc(t.n + 1, sizeof(*stack));
	if (!entries || !stack)
		goto out;
	for (i = 0; i < t.n; i++) {
		if (!is_entry(t.fns[i].f))
			continue;
		entries[nentries].weight = split_weigh(&t, i, nentries + 1, stack);
		entries[nentries].index = nentries;
		total += entries[nentries++].weight;
	}
	nparts = nentries < max_parts ? nentries : max_parts;
	if (nparts < 2 || total < SPLIT_MIN_INSTRUCTIONS) {
		nparts = 1;
		goto out;
	}
	parts = calloc(nentries, sizeof(*parts));
	if (!parts) {
		nparts = 1;
		goto out;
	}
	qsort(entries, nentries, sizeof(*entries), cmp_heaviest);
	for (i = 0; i < nentries; i++) {
		unsigned int lightest = 0;

		for (k = 1; k < nparts; k++)
			if (load[k] < load[lightest])
				lightest = k;
		parts[entries[i].index] = lightest;
		load[lightest] += entries[i].weight;
	}
	*part_of = parts;
out:
	free(entries);
	free(stack);
	split_table_free(&t);
	return nparts;
}

/**
 * vaccel_cl_keep_part() - make a copy of a lowered program one of its parts
 * @m: a copy of the module vaccel_cl_partition() dealt out; changed in place
 * @part: the part to keep
 * @part_of: vaccel_cl_partition()'s array
 *
 * The entries of other parts, and the aliases that name them, become
 * internal: the optimiser then drops them.  Part 0 keeps every value the
 * module must define once; the others declare the local variables and
 * have no inline assembly (the kernels' metadata).
 */
void vaccel_cl_keep_part(LLVMModuleRef m, unsigned int part, const unsigned int *part_of)
{
	LLVMValueRef f, a, g;
	unsigned int n = 0;

	for (f = LLVMGetFirstFunction(m); f; f = LLVMGetNextFunction(f)) {
		if (!is_entry(f))
			continue;
		if (part_of[n++] == part)
			continue;
		for (a = LLVMGetFirstGlobalAlias(m); a; a = LLVMGetNextGlobalAlias(a))
			if (LLVMAliasGetAliasee(a) == f)
				LLVMSetLinkage(a, LLVMInternalLinkage);
		LLVMSetLinkage(f, LLVMInternalLinkage);
	}
	if (!part)
		return;
	for (g = LLVMGetFirstGlobal(m); g; g = LLVMGetNextGlobal(g)) {
		if (LLVMIsDeclaration(g) || LLVMGetLinkage(g) != LLVMExternalLinkage ||
		    LLVMGetPointerAddressSpace(LLVMTypeOf(g)) != AS_LOCAL)
			continue;
		LLVMSetInitializer(g, NULL);
	}
	LLVMSetModuleInlineAsm2(m, "", 0);
}

struct split_job {
	LLVMMemoryBufferRef bitcode;	/* the whole module, read-only */
	const unsigned int *part_of;
	unsigned int part;
	const char *path;
	pthread_t thread;
	bool started;
	int ret;
	char log[1024];
};

static int split_write(LLVMModuleRef m, const char *path, char *log, size_t log_size)
{
	if (!LLVMWriteBitcodeToFile(m, path))
		return 0;
	snprintf(log, log_size, "error: cannot write %s\n", path);
	return -1;
}

/* One part other than 0: its own copy of the module, in its own context. */
static void *split_run(void *arg)
{
	struct split_job *job = arg;
	LLVMContextRef ctx = LLVMContextCreate();
	LLVMModuleRef m;

	job->ret = -1;
	if (LLVMParseBitcodeInContext2(ctx, job->bitcode, &m)) {
		snprintf(job->log, sizeof(job->log), "error: part %u: cannot copy the module\n",
			 job->part);
		LLVMContextDispose(ctx);
		return NULL;
	}
	vaccel_cl_keep_part(m, job->part, job->part_of);
	job->ret = vaccel_cl_optimize(m, job->log, sizeof(job->log));
	if (!job->ret)
		job->ret = split_write(m, job->path, job->log, sizeof(job->log));
	LLVMDisposeModule(m);
	LLVMContextDispose(ctx);
	return NULL;
}

/**
 * vaccel_cl_optimize_parts() - optimise the parts of a program at once
 * @m: the module vaccel_cl_partition() dealt out; becomes part 0
 * @nparts: its number of parts, 2 or more
 * @part_of: vaccel_cl_partition()'s array
 * @paths: where each part's bitcode goes, @nparts of them
 * @log: receives the messages, NUL-terminated; may be NULL
 * @log_size: bytes at @log
 *
 * Each part but 0 is copied from @m's bitcode into a context of its own
 * and optimised on a thread of its own (or in the calling thread, after
 * part 0, if no thread can be made); part 0 is @m itself.
 *
 * Return: 0 once every part is written, or -1 with the reasons in @log.
 */
int vaccel_cl_optimize_parts(LLVMModuleRef m, unsigned int nparts, const unsigned int *part_of,
			     const char *const *paths, char *log, size_t log_size)
{
	struct split_job *jobs = calloc(nparts, sizeof(*jobs));
	LLVMMemoryBufferRef bitcode;
	size_t len;
	unsigned int k;
	int ret;

	if (log && log_size)
		log[0] = '\0';
	if (!jobs) {
		if (log && log_size)
			snprintf(log, log_size, "error: out of memory\n");
		return -1;
	}
	bitcode = LLVMWriteBitcodeToMemoryBuffer(m);
	if (!bitcode) {
		if (log && log_size)
			snprintf(log, log_size, "error: cannot copy the module\n");
		free(jobs);
		return -1;
	}
	for (k = 1; k < nparts; k++) {
		jobs[k] = (struct split_job){
			.bitcode = bitcode, .part_of = part_of, .part = k, .path = paths[k],
		};
		jobs[k].started = !pthread_create(&jobs[k].thread, NULL, split_run, &jobs[k]);
	}
	vaccel_cl_keep_part(m, 0, part_of);
	ret = vaccel_cl_optimize(m, log, log_size);
	if (!ret)
		ret = split_write(m, paths[0], log, log_size);
	for (k = 1; k < nparts; k++) {
		if (jobs[k].started)
			pthread_join(jobs[k].thread, NULL);
		else
			split_run(&jobs[k]);
		if (!jobs[k].ret)
			continue;
		ret = -1;
		len = log ? strlen(log) : 0;
		if (log && len + 1 < log_size)
			snprintf(log + len, log_size - len, "%s", jobs[k].log);
	}
	LLVMDisposeMemoryBuffer(bitcode);
	free(jobs);
	return ret;
}
