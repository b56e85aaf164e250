/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Copyright 2026 The vaccel authors
 *
 * A user-space environment for the RV64 interpreter: flat memory loaded
 * from a static RV64 ELF, and the two system calls of the tests' programs
 * (write and exit), which the interpreter reports as ECALL faults.
 */
#ifndef __VACCEL_RV_ENV_H__
#define __VACCEL_RV_ENV_H__

#include <elf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vaccel_rv.h"

#define RV_ENV_EXIT_PC	0xdead0000ull

struct rv_image {
	u8 *mem;
	u64 base;
	u64 size;
	u64 entry;
	/* What the program wrote with write(2), whatever the fd. */
	u8 *out;
	size_t out_len, out_cap;
};

static u8 *rv_env_translate(void *env, u64 va, unsigned int access,
			    u32 *reason, unsigned int *mem_class)
{
	struct rv_image *img = env;

	/* One class of memory: the counters are not what this measures. */
	(void)access;
	(void)mem_class;
	if (va - img->base >= img->size) {
		*reason = 1;
		return NULL;
	}
	return img->mem + ((va - img->base) & ~0xfffull);
}

static const struct vaccel_rv_ops rv_env_ops = {
	.translate = rv_env_translate,
};

/* Loads the PT_LOAD segments of @path, with @extra bytes after them. */
static int rv_load_elf(const char *path, struct rv_image *img, u64 extra)
{
	u64 lo = ~0ull, hi = 0;
	Elf64_Ehdr eh;
	Elf64_Phdr *ph;
	FILE *f;
	int i;

	memset(img, 0, sizeof(*img));
	f = fopen(path, "rb");
	if (!f)
		return -1;
	if (fread(&eh, sizeof(eh), 1, f) != 1 || eh.e_machine != EM_RISCV ||
	    eh.e_ident[EI_CLASS] != ELFCLASS64) {
		fclose(f);
		return -1;
	}
	ph = calloc(eh.e_phnum, sizeof(*ph));
	fseek(f, eh.e_phoff, SEEK_SET);
	if (fread(ph, sizeof(*ph), eh.e_phnum, f) != eh.e_phnum) {
		fclose(f);
		free(ph);
		return -1;
	}
	for (i = 0; i < eh.e_phnum; i++) {
		if (ph[i].p_type != PT_LOAD)
			continue;
		if (ph[i].p_vaddr < lo)
			lo = ph[i].p_vaddr;
		if (ph[i].p_vaddr + ph[i].p_memsz > hi)
			hi = ph[i].p_vaddr + ph[i].p_memsz;
	}
	img->base = lo & ~0xfffull;
	img->size = (hi - img->base + extra + 0xfff) & ~0xfffull;
	img->mem = aligned_alloc(4096, img->size);
	memset(img->mem, 0, img->size);
	for (i = 0; i < eh.e_phnum; i++) {
		if (ph[i].p_type != PT_LOAD)
			continue;
		fseek(f, ph[i].p_offset, SEEK_SET);
		if (fread(img->mem + ph[i].p_vaddr - img->base, 1,
			  ph[i].p_filesz, f) != ph[i].p_filesz) {
			fclose(f);
			free(ph);
			return -1;
		}
	}
	img->entry = eh.e_entry;
	fclose(f);
	free(ph);
	return 0;
}

static void rv_env_append(struct rv_image *img, const u8 *p, size_t n)
{
	if (img->out_len + n > img->out_cap) {
		img->out_cap = (img->out_len + n) * 2;
		img->out = realloc(img->out, img->out_cap);
	}
	memcpy(img->out + img->out_len, p, n);
	img->out_len += n;
}

/*
 * Runs the program from its entry, @budget instructions per call of
 * vaccel_rv_run() (a function of the call's number if @budget_fn), until
 * it exits.  Return: its exit status, or -1 with *@fault filled.
 */
static int rv_env_run(struct rv_image *img, struct vaccel_rv_hart *h,
		      u64 (*budget_fn)(u64 call), u64 budget,
		      u64 *executed, struct vaccel_rv_fault *fault)
{
	struct vaccel_rv_cpu cpu;
	u64 call = 0;

	vaccel_rv_cpu_init(&cpu, &rv_env_ops, img, RV_ENV_EXIT_PC);
	memset(h, 0, sizeof(*h));
	h->pc = img->entry;
	h->x[1] = RV_ENV_EXIT_PC;
	*executed = 0;
	for (;;) {
		enum vaccel_rv_stop stop;

		stop = vaccel_rv_run(&cpu, h, budget_fn ? budget_fn(call++) :
					      budget, executed, fault);
		if (stop == VACCEL_RV_BUDGET)
			continue;
		if (stop == VACCEL_RV_EXIT)
			return h->x[10];
		if (stop != VACCEL_RV_FAULT ||
		    fault->cause != VACCEL_RV_CAUSE_ECALL)
			return -1;
		if (h->x[17] == 93)
			return h->x[10] & 0xff;
		if (h->x[17] == 64) {
			u64 va = h->x[11], n = h->x[12];

			if (va - img->base > img->size ||
			    n > img->size - (va - img->base))
				return -1;
			rv_env_append(img, img->mem + (va - img->base), n);
			h->x[10] = n;
		} else {
			h->x[10] = -38ull;	/* -ENOSYS */
		}
		h->pc += 4;
	}
}

#endif /* __VACCEL_RV_ENV_H__ */
