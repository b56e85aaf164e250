// SPDX-License-Identifier: MIT
/*
 * Copyright 2026 The vaccel authors
 *
 * host_elf.c - the loader's parser, umd/libvaccel/elf.c compiled in, on a
 * real module (module_kernel.c built by vaccel-cc) and on broken ones:
 *
 * - the module is accepted, with its kernels, local memory, print
 *   descriptor, and placed with every relocation applied;
 * - every reason to refuse a module, each made by one precise change to
 *   it, gets its errno and a message that says it;
 * - a fuzzer mutates the module at random (bytes, bits, fields of the
 *   headers and tables set to edge values, truncation) and parses and
 *   places it thousands of times.  run.sh builds this program with
 *   -fsanitize=address,undefined and no recovery: any out-of-bounds
 *   access, overflow or other undefined behaviour kills it.
 *
 *	host_elf MODULE [ITERATIONS [SEED]]
 *
 * Prints the first failed check on stderr and exits 1, else a summary of
 * the fuzzing on stdout and exits 0.
 */
#include <elf.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vaccel_priv.h"
#include "host_check.h"

#define LOCAL_BASE	0x0100000000000000ull
#define GPU_VA		0x0000123456780000ull

/* A copy of the module being changed; @p is from malloc, so aligned. */
struct file {
	unsigned char *p;
	size_t size;
};

static unsigned char *orig;
static size_t orig_size;

static struct file copy(void)
{
	struct file f = { malloc(orig_size), orig_size };

	CHECK(f.p);
	memcpy(f.p, orig, orig_size);
	return f;
}

/* Appends @len bytes, 8-byte aligned; returns their offset. */
static uint64_t append(struct file *f, const void *data, size_t len)
{
	size_t off = (f->size + 7) & ~(size_t)7;

	f->p = realloc(f->p, off + len);
	CHECK(f->p);
	memset(f->p + f->size, 0, off - f->size);
	memcpy(f->p + off, data, len);
	f->size = off + len;
	return off;
}

static Elf64_Ehdr *eh(struct file *f)
{
	return (Elf64_Ehdr *)f->p;
}

static Elf64_Phdr *ph(struct file *f, unsigned int i)
{
	return (Elf64_Phdr *)(f->p + eh(f)->e_phoff) + i;
}

/* The @nth (from 0) program header of @type. */
static Elf64_Phdr *ph_type(struct file *f, uint32_t type, unsigned int nth)
{
	unsigned int i;

	for (i = 0; i < eh(f)->e_phnum; i++)
		if (ph(f, i)->p_type == type && !nth--)
			return ph(f, i);
	fprintf(stderr, "no program header of type 0x%x\n", type);
	exit(1);
}

static Elf64_Shdr *sh(struct file *f, unsigned int i)
{
	return (Elf64_Shdr *)(f->p + eh(f)->e_shoff) + i;
}

static Elf64_Shdr *sh_type(struct file *f, uint32_t type)
{
	unsigned int i;

	for (i = 0; i < eh(f)->e_shnum; i++)
		if (sh(f, i)->sh_type == type)
			return sh(f, i);
	fprintf(stderr, "no section of type %u\n", type);
	exit(1);
}

static Elf64_Dyn *dyn(struct file *f, int64_t tag)
{
	Elf64_Dyn *d = (Elf64_Dyn *)(f->p + ph_type(f, PT_DYNAMIC, 0)->p_offset);

	for (; d->d_tag != DT_NULL; d++)
		if (d->d_tag == tag)
			return d;
	if (tag == DT_NULL)
		return d;
	fprintf(stderr, "no dynamic entry %lld\n", (long long)tag);
	exit(1);
}

/* The file offset of link address @va (in a loadable segment's file part). */
static uint64_t offset_of(struct file *f, uint64_t va)
{
	unsigned int i;

	for (i = 0; i < eh(f)->e_phnum; i++) {
		Elf64_Phdr *p = ph(f, i);

		if (p->p_type == PT_LOAD && va >= p->p_vaddr &&
		    va < p->p_vaddr + p->p_filesz)
			return p->p_offset + va - p->p_vaddr;
	}
	fprintf(stderr, "0x%llx is not in the file\n", (unsigned long long)va);
	exit(1);
}

static Elf64_Rela *rela(struct file *f, unsigned int i)
{
	return (Elf64_Rela *)(f->p + offset_of(f, dyn(f, DT_RELA)->d_un.d_ptr)) + i;
}

static unsigned int rela_count(struct file *f)
{
	return dyn(f, DT_RELASZ)->d_un.d_val / sizeof(Elf64_Rela);
}

static const char *strtab(struct file *f)
{
	return (const char *)f->p + sh(f, sh_type(f, SHT_SYMTAB)->sh_link)->sh_offset;
}

static Elf64_Sym *sym(struct file *f, const char *name)
{
	Elf64_Shdr *s = sh_type(f, SHT_SYMTAB);
	Elf64_Sym *y = (Elf64_Sym *)(f->p + s->sh_offset);
	size_t i, n = s->sh_size / sizeof(*y);

	for (i = 0; i < n; i++)
		if (!strcmp(strtab(f) + y[i].st_name, name))
			return &y[i];
	fprintf(stderr, "no symbol %s\n", name);
	exit(1);
}

/* Moves the program headers to the end of the file, with one more. */
static Elf64_Phdr *add_phdr(struct file *f, const Elf64_Phdr *extra)
{
	unsigned int n = eh(f)->e_phnum;
	Elf64_Phdr *table = calloc(n + 1, sizeof(*table));
	uint64_t off;

	CHECK(table);
	memcpy(table, ph(f, 0), n * sizeof(*table));
	table[n] = *extra;
	off = append(f, table, (n + 1) * sizeof(*table));
	free(table);
	eh(f)->e_phoff = off;
	eh(f)->e_phnum = n + 1;
	return ph(f, n);
}

/* Replaces the string table with its copy plus @s; returns @s's offset. */
static uint32_t add_string(struct file *f, const char *s)
{
	Elf64_Shdr *st = sh(f, sh_type(f, SHT_SYMTAB)->sh_link);
	size_t old = st->sh_size, len = strlen(s) + 1;
	unsigned char *tab = malloc(old + len);
	uint64_t off;

	CHECK(tab);
	memcpy(tab, f->p + st->sh_offset, old);
	memcpy(tab + old, s, len);
	off = append(f, tab, old + len);
	free(tab);
	st = sh(f, sh_type(f, SHT_SYMTAB)->sh_link);
	st->sh_offset = off;
	st->sh_size = old + len;
	return old;
}

/* --- the valid module --- */

static void valid_module(void)
{
	struct vaccel_elf_image img;
	char msg[VACCEL_MODULE_MSG_SIZE];
	struct file f = copy();
	const char *name;
	uint64_t pos = 0, off, va;
	unsigned char *dst;
	unsigned int i, kernels = 0;

	CHECK_EQ(vaccel_elf_parse(f.p, f.size, &img, msg, sizeof(msg)), 0);
	CHECK_EQ(msg[0], 0);
	CHECK_EQ(img.nkernels, 2);
	CHECK_EQ(img.base, 0);
	CHECK_EQ(img.align, 4096);
	CHECK_EQ(img.nseg, 3);
	CHECK(img.has_local);
	CHECK_EQ(img.local_vaddr, LOCAL_BASE);
	CHECK_EQ(img.local_size, sym(&f, "mk_sum")->st_value + 24 - LOCAL_BASE);
	CHECK(img.has_print);
	CHECK_EQ(img.print_vaddr, sym(&f, "__vaccel_print")->st_value);
	CHECK_EQ(img.rela_count, rela_count(&f));
	CHECK_EQ(img.size, (ph_type(&f, PT_LOAD, 2)->p_vaddr +
			    ph_type(&f, PT_LOAD, 2)->p_memsz + 4095) & ~4095ull);
	while (vaccel_elf_next_kernel(&img, &pos, &name, &off)) {
		char full[64];

		snprintf(full, sizeof(full), "__vaccel_kernel_%s", name);
		CHECK(!strcmp(name, "mk_fill") || !strcmp(name, "mk_hello"));
		CHECK_EQ(off, sym(&f, full)->st_value);
		CHECK_EQ(off, sym(&f, name)->st_value);
		kernels++;
	}
	CHECK_EQ(kernels, 2);

	/*
	 * The functions, for the names of faulting pcs: the kernels by their
	 * own names, not their aliases, with their sizes; all in the image.
	 */
	pos = 0;
	kernels = 0;
	while (vaccel_elf_next_function(&img, &pos, &name, &off, &va)) {
		CHECK(*name && strncmp(name, "__vaccel_kernel_", 16));
		CHECK(off < img.size && va <= img.size - off);
		if (!strcmp(name, "mk_fill") || !strcmp(name, "mk_hello")) {
			CHECK_EQ(off, sym(&f, name)->st_value);
			CHECK_EQ(va, sym(&f, name)->st_size);
			CHECK(va > 0);
			kernels++;
		}
	}
	CHECK_EQ(kernels, 2);

	/* Placed: the segments' contents, and every relocation applied. */
	dst = malloc(img.size);
	CHECK(dst);
	memset(dst, 0xa5, img.size);
	vaccel_elf_place(&img, dst, GPU_VA, LOCAL_BASE + 0x1000);
	for (i = 0; i < img.nseg; i++) {
		const struct vaccel_elf_segment *s = &img.seg[i];
		uint64_t b;

		for (b = 0; b < s->memsz; b++) {
			unsigned char want = b < s->filesz ? f.p[s->offset + b] : 0;
			unsigned int r;
			bool patched = false;

			for (r = 0; r < rela_count(&f); r++)
				patched |= s->vaddr + b >= rela(&f, r)->r_offset &&
					   s->vaddr + b < rela(&f, r)->r_offset + 8;
			if (!patched)
				CHECK_EQ(dst[s->vaddr + b], want);
		}
	}
	for (i = 0; i < rela_count(&f); i++) {
		Elf64_Rela *r = rela(&f, i);

		memcpy(&va, dst + r->r_offset, 8);
		if ((uint64_t)r->r_addend >= LOCAL_BASE)
			CHECK_EQ(va, LOCAL_BASE + 0x1000 + r->r_addend - LOCAL_BASE);
		else
			CHECK_EQ(va, GPU_VA + r->r_addend);
	}
	/* The GOT entry of a local object points into the device's local base. */
	for (i = 0; i < rela_count(&f); i++)
		if ((uint64_t)rela(&f, i)->r_addend == sym(&f, "mk_sum")->st_value)
			break;
	CHECK(i < rela_count(&f));
	vaccel_elf_put64(&img, dst, img.print_vaddr, 0x1122334455667788ull);
	memcpy(&va, dst + img.print_vaddr, 8);
	CHECK_EQ(va, 0x1122334455667788ull);
	free(dst);
	free(f.p);

	/* No message buffer: still the same answers. */
	CHECK_EQ(vaccel_elf_parse(orig, orig_size, &img, NULL, 0), 0);
	CHECK_EQ(vaccel_elf_parse(orig, 10, &img, NULL, 0), -ENOEXEC);
	CHECK_EQ(vaccel_elf_parse(NULL, 10, &img, msg, sizeof(msg)), -EINVAL);
}

/* --- every reason to refuse, one change each --- */

struct bad {
	const char *name;
	void (*change)(struct file *f);
	int err;
	const char *says;
};

#define ETYPE(f)	(eh(f)->e_type)
#define TEXT(f)		ph_type((f), PT_LOAD, 0)
#define RODATA(f)	ph_type((f), PT_LOAD, 1)
#define DATA(f)		ph_type((f), PT_LOAD, 2)
#define LOCAL(f)	ph_type((f), VACCEL_PT_LOCAL, 0)

static void c_short(struct file *f) { f->size = sizeof(Elf64_Ehdr) - 1; }
static void c_magic(struct file *f) { f->p[1] = 'F'; }
static void c_class(struct file *f) { f->p[EI_CLASS] = ELFCLASS32; }
static void c_data(struct file *f) { f->p[EI_DATA] = ELFDATA2MSB; }
static void c_version(struct file *f) { eh(f)->e_version = 2; }
static void c_osabi(struct file *f) { f->p[EI_OSABI] = ELFOSABI_FREEBSD; }
static void c_machine(struct file *f) { eh(f)->e_machine = EM_X86_64; }
static void c_rel(struct file *f) { ETYPE(f) = ET_REL; }
static void c_exec(struct file *f) { ETYPE(f) = ET_EXEC; }
static void c_core(struct file *f) { ETYPE(f) = ET_CORE; }
static void c_ehsize(struct file *f) { eh(f)->e_ehsize = 32; }
static void c_rvc(struct file *f) { eh(f)->e_flags |= EF_RISCV_RVC; }
static void c_soft(struct file *f) { eh(f)->e_flags &= ~EF_RISCV_FLOAT_ABI; }
static void c_single(struct file *f)
{
	eh(f)->e_flags = (eh(f)->e_flags & ~EF_RISCV_FLOAT_ABI) | EF_RISCV_FLOAT_ABI_SINGLE;
}
static void c_quad(struct file *f) { eh(f)->e_flags |= EF_RISCV_FLOAT_ABI_QUAD; }
static void c_rve(struct file *f) { eh(f)->e_flags |= EF_RISCV_RVE; }
static void c_tso(struct file *f) { eh(f)->e_flags |= EF_RISCV_TSO; }
static void c_flags(struct file *f) { eh(f)->e_flags |= 0x100; }
static void c_phnum0(struct file *f) { eh(f)->e_phnum = 0; }
static void c_phentsize(struct file *f) { eh(f)->e_phentsize = 32; }
static void c_phnum_big(struct file *f) { eh(f)->e_phnum = 65; }
static void c_phoff(struct file *f) { eh(f)->e_phoff = f->size - 8; }
static void c_filesz(struct file *f) { TEXT(f)->p_filesz = TEXT(f)->p_memsz + 1; }
static void c_load_past(struct file *f) { DATA(f)->p_offset = f->size - 8; }
static void c_load_wrap(struct file *f) { DATA(f)->p_vaddr = UINT64_MAX - 0x10; }
static void c_align_pow2(struct file *f) { RODATA(f)->p_align = 0x3000; }
static void c_align_big(struct file *f) { RODATA(f)->p_align = 0x20000; }
static void c_congruence(struct file *f) { RODATA(f)->p_offset += 8; }
static void c_wx(struct file *f) { DATA(f)->p_flags |= PF_X; }

static void c_segments(struct file *f)
{
	Elf64_Phdr extra = { .p_type = PT_LOAD, .p_flags = PF_R, .p_memsz = 16 };
	int i;

	for (i = 0; i < 14; i++) {
		extra.p_vaddr = 0x100000 + i * 0x1000;
		add_phdr(f, &extra);
	}
}

static void c_two_dynamic(struct file *f) { LOCAL(f)->p_type = PT_DYNAMIC; }

static void c_two_local(struct file *f)
{
	Elf64_Phdr extra = *LOCAL(f);

	add_phdr(f, &extra);
}

static void c_interp(struct file *f) { LOCAL(f)->p_type = PT_INTERP; }
static void c_tls(struct file *f) { LOCAL(f)->p_type = PT_TLS; }
static void c_local_file(struct file *f) { LOCAL(f)->p_filesz = 8; }
static void c_local_huge(struct file *f) { LOCAL(f)->p_memsz = 1ull << 33; }
static void c_local_wrap(struct file *f) { LOCAL(f)->p_vaddr = UINT64_MAX - 8; }
static void c_local_align(struct file *f) { LOCAL(f)->p_align = 8192; }
static void c_local_overlap(struct file *f) { LOCAL(f)->p_vaddr = 0x2000; }
static void c_local_misaligned(struct file *f)
{
	LOCAL(f)->p_align = 16;
	LOCAL(f)->p_vaddr = LOCAL_BASE + 8;
}

static void c_no_load(struct file *f)
{
	Elf64_Phdr *t = TEXT(f), *r = RODATA(f), *d = DATA(f);

	t->p_type = PT_NULL;
	r->p_type = PT_NULL;
	d->p_type = PT_NULL;
}

static void c_no_exec(struct file *f) { TEXT(f)->p_flags &= ~PF_X; }

static void c_share_page(struct file *f)
{
	/* Read-only data right after the code, in the code's last page. */
	RODATA(f)->p_vaddr = TEXT(f)->p_memsz + 0x10;
	RODATA(f)->p_offset = 0x1000 + TEXT(f)->p_memsz + 0x10;
}

static void c_too_big(struct file *f) { DATA(f)->p_vaddr += 300ull << 20; }

static void c_base_align(struct file *f)
{
	/* Every segment a page higher, the code aligned to two pages. */
	TEXT(f)->p_vaddr += 0x1000;
	RODATA(f)->p_vaddr += 0x1000;
	DATA(f)->p_vaddr += 0x1000;
	TEXT(f)->p_align = 0x2000;
	TEXT(f)->p_offset = 0x1000;
}

static void c_dyn_past(struct file *f) { ph_type(f, PT_DYNAMIC, 0)->p_offset = f->size - 8; }
static void c_dyn_null(struct file *f) { ph_type(f, PT_DYNAMIC, 0)->p_filesz = 16; }
static void c_dyn_rel(struct file *f) { *dyn(f, DT_DEBUG) = (Elf64_Dyn){ DT_REL, { 0x2000 } }; }
static void c_dyn_relr(struct file *f) { *dyn(f, DT_DEBUG) = (Elf64_Dyn){ DT_RELR, { 0x2000 } }; }
static void c_dyn_plt(struct file *f) { *dyn(f, DT_DEBUG) = (Elf64_Dyn){ DT_PLTRELSZ, { 24 } }; }
static void c_dyn_needed(struct file *f) { *dyn(f, DT_DEBUG) = (Elf64_Dyn){ DT_NEEDED, { 0 } }; }
static void c_dyn_textrel(struct file *f) { *dyn(f, DT_DEBUG) = (Elf64_Dyn){ DT_TEXTREL, { 0 } }; }
static void c_dyn_flags(struct file *f)
{
	*dyn(f, DT_DEBUG) = (Elf64_Dyn){ DT_FLAGS, { DF_TEXTREL } };
}
static void c_dyn_tls(struct file *f)
{
	*dyn(f, DT_DEBUG) = (Elf64_Dyn){ DT_FLAGS, { DF_STATIC_TLS } };
}
static void c_dyn_init(struct file *f) { *dyn(f, DT_DEBUG) = (Elf64_Dyn){ DT_INIT, { 0x10 } }; }
static void c_dyn_init_array(struct file *f) { dyn(f, DT_INIT_ARRAYSZ)->d_un.d_val = 8; }
static void c_dyn_no_relasz(struct file *f) { dyn(f, DT_RELASZ)->d_tag = DT_DEBUG; }
static void c_dyn_relaent(struct file *f) { dyn(f, DT_RELAENT)->d_un.d_val = 16; }
static void c_dyn_relasz(struct file *f) { dyn(f, DT_RELASZ)->d_un.d_val += 1; }
static void c_dyn_rela_addr(struct file *f) { dyn(f, DT_RELA)->d_un.d_ptr = 0x7fff0000; }

static void c_rel_64(struct file *f) { rela(f, 0)->r_info = ELF64_R_INFO(0, R_RISCV_64); }
static void c_rel_slot(struct file *f)
{
	rela(f, 0)->r_info = ELF64_R_INFO(0, R_RISCV_JUMP_SLOT);
}
static void c_rel_tls(struct file *f)
{
	rela(f, 1)->r_info = ELF64_R_INFO(0, R_RISCV_TLS_TPREL64);
}
static void c_rel_unknown(struct file *f) { rela(f, 2)->r_info = ELF64_R_INFO(0, 200); }
static void c_rel_sym(struct file *f) { rela(f, 0)->r_info = ELF64_R_INFO(1, R_RISCV_RELATIVE); }
static void c_rel_outside(struct file *f) { rela(f, 0)->r_offset = 0x10000; }
static void c_rel_text(struct file *f) { rela(f, 0)->r_offset = 0x10; }
static void c_rel_addend(struct file *f) { rela(f, 2)->r_addend = 0x40000000; }

static void c_no_shdrs(struct file *f)
{
	eh(f)->e_shoff = 0;
	eh(f)->e_shnum = 0;
}

static void c_shnum0(struct file *f) { eh(f)->e_shnum = 0; }
static void c_shentsize(struct file *f) { eh(f)->e_shentsize = 40; }
static void c_shoff(struct file *f) { eh(f)->e_shoff = f->size - 16; }
static void c_no_symtab(struct file *f) { sh_type(f, SHT_SYMTAB)->sh_type = SHT_PROGBITS; }
static void c_symtab_entsize(struct file *f) { sh_type(f, SHT_SYMTAB)->sh_entsize = 16; }
static void c_symtab_past(struct file *f) { sh_type(f, SHT_SYMTAB)->sh_offset = f->size - 24; }
static void c_symtab_link(struct file *f) { sh_type(f, SHT_SYMTAB)->sh_link = 0; }
static void c_symtab_link_big(struct file *f) { sh_type(f, SHT_SYMTAB)->sh_link = 1000; }

static void c_strtab_past(struct file *f)
{
	sh(f, sh_type(f, SHT_SYMTAB)->sh_link)->sh_size = f->size;
}

static void c_name_outside(struct file *f) { sym(f, "mk_sum")->st_name = 0x7fffffff; }

static void c_name_unterminated(struct file *f)
{
	Elf64_Shdr *st = sh(f, sh_type(f, SHT_SYMTAB)->sh_link);
	Elf64_Sym *s = sym(f, "mk_sum");

	/* The table ends inside the name. */
	st->sh_size = s->st_name + 3;
}

static void c_kernel_empty(struct file *f)
{
	Elf64_Sym *s = sym(f, "__vaccel_kernel_mk_fill");

	f->p[sh(f, sh_type(f, SHT_SYMTAB)->sh_link)->sh_offset + s->st_name +
	     strlen("__vaccel_kernel_")] = '\0';
}

static void c_kernel_undef(struct file *f) { sym(f, "__vaccel_kernel_mk_fill")->st_shndx = SHN_UNDEF; }
static void c_kernel_data(struct file *f)
{
	sym(f, "__vaccel_kernel_mk_fill")->st_value = DATA(f)->p_vaddr;
}
static void c_kernel_misaligned(struct file *f)
{
	sym(f, "__vaccel_kernel_mk_fill")->st_value += 2;
}
static void c_kernel_twice(struct file *f)
{
	Elf64_Sym *s = sym(f, "__vaccel_kernel_mk_hello");

	s->st_name = sym(f, "__vaccel_kernel_mk_fill")->st_name;
}

static void c_no_kernel(struct file *f)
{
	Elf64_Shdr *st = sh(f, sh_type(f, SHT_SYMTAB)->sh_link);
	char *s = (char *)f->p + st->sh_offset, *end = s + st->sh_size;

	for (; s < end; s += strlen(s) + 1)
		if (!strncmp(s, "__vaccel_kernel_", 16))
			s[2] = 'V';
}

static void c_kernel_long(struct file *f)
{
	char name[300];
	uint32_t off;

	memset(name, 'k', sizeof(name));
	memcpy(name, "__vaccel_kernel_", 16);
	name[16 + 256] = '\0';
	off = add_string(f, name);
	sym(f, "__vaccel_kernel_mk_fill")->st_name = off;
}

static void c_many_kernels(struct file *f)
{
	Elf64_Shdr *s = sh_type(f, SHT_SYMTAB);
	size_t n = s->sh_size / sizeof(Elf64_Sym), i;
	Elf64_Sym *table = calloc(n + 1024, sizeof(*table));
	Elf64_Sym k = *sym(f, "__vaccel_kernel_mk_fill");
	uint64_t off;

	CHECK(table);
	memcpy(table, f->p + s->sh_offset, n * sizeof(*table));
	for (i = 0; i < 1024; i++) {
		char name[40];

		snprintf(name, sizeof(name), "__vaccel_kernel_k%zu", i);
		k.st_name = add_string(f, name);
		table[n + i] = k;
	}
	off = append(f, table, (n + 1024) * sizeof(*table));
	free(table);
	s = sh_type(f, SHT_SYMTAB);
	s->sh_offset = off;
	s->sh_size = (n + 1024) * sizeof(Elf64_Sym);
}

static void c_print_text(struct file *f)
{
	sym(f, "__vaccel_print")->st_value = TEXT(f)->p_vaddr;
}

static void c_print_twice(struct file *f)
{
	Elf64_Sym *s = sym(f, "mk_sum"), *p = sym(f, "__vaccel_print");

	s->st_name = p->st_name;
	s->st_value = p->st_value;
}

static const struct bad bad[] = {
	{ "short", c_short, -ENOEXEC, "not an ELF file" },
	{ "magic", c_magic, -ENOEXEC, "not an ELF file" },
	{ "elf32", c_class, -ENOEXEC, "not ELF64" },
	{ "big_endian", c_data, -ENOEXEC, "not little-endian" },
	{ "version", c_version, -ENOEXEC, "unknown ELF version" },
	{ "osabi", c_osabi, -ENOEXEC, "OS ABI 9" },
	{ "machine", c_machine, -ENOEXEC, "machine 62 is not RISC-V" },
	{ "object_file", c_rel, -ENOEXEC, "object file (ET_REL)" },
	{ "fixed_executable", c_exec, -ENOEXEC, "fixed-address executable (ET_EXEC)" },
	{ "core", c_core, -ENOEXEC, "ELF type 4 is not ET_DYN" },
	{ "ehsize", c_ehsize, -EBADMSG, "ELF header size 32" },
	{ "compressed", c_rvc, -ENOTSUP, "compressed instructions (EF_RISCV_RVC)" },
	{ "soft_float", c_soft, -ENOTSUP, "soft-float (lp64) ABI" },
	{ "single_float", c_single, -ENOTSUP, "single-float (lp64f) ABI" },
	{ "quad_float", c_quad, -ENOTSUP, "quad-float (lp64q) ABI" },
	{ "rve", c_rve, -ENOTSUP, "RV64E" },
	{ "tso", c_tso, -ENOTSUP, "TSO" },
	{ "unknown_flags", c_flags, -ENOTSUP, "unknown ELF flags 0x104" },
	{ "no_phdrs", c_phnum0, -ENOEXEC, "no program headers" },
	{ "phentsize", c_phentsize, -EBADMSG, "program header size 32" },
	{ "phnum", c_phnum_big, -EBADMSG, "65 program headers" },
	{ "phdrs_past_end", c_phoff, -EBADMSG, "program headers past the end" },
	{ "filesz_above_memsz", c_filesz, -EBADMSG, "above its memory size" },
	{ "segment_past_end", c_load_past, -EBADMSG, "segment 2: contents past the end" },
	{ "segment_wraps", c_load_wrap, -EBADMSG, "wraps around" },
	{ "align_not_pow2", c_align_pow2, -EBADMSG, "alignment 0x3000 is not a power of two" },
	{ "align_above_64k", c_align_big, -ENOTSUP, "alignment 0x20000 above 64 KiB" },
	{ "align_congruence", c_congruence, -EBADMSG, "differ modulo its alignment" },
	{ "writable_executable", c_wx, -ENOTSUP, "both writable and executable" },
	{ "too_many_segments", c_segments, -ENOTSUP, "more than 16 loadable segments" },
	{ "two_dynamic", c_two_dynamic, -EBADMSG, "two dynamic segments" },
	{ "two_local", c_two_local, -EBADMSG, "two local memory segments" },
	{ "interpreter", c_interp, -ENOTSUP, "interpreter (PT_INTERP)" },
	{ "pt_tls", c_tls, -ENOTSUP, "thread-local storage (PT_TLS)" },
	{ "local_in_file", c_local_file, -EBADMSG, "local memory with contents in the file" },
	{ "local_huge", c_local_huge, -E2BIG, "bytes of local memory" },
	{ "local_wraps", c_local_wrap, -EBADMSG, "wraps around" },
	{ "local_align", c_local_align, -ENOTSUP, "local memory aligned to 0x2000" },
	{ "local_overlaps", c_local_overlap, -EBADMSG, "overlaps the loadable segments" },
	{ "local_misaligned", c_local_misaligned, -EBADMSG,
	  "local memory at 0x100000000000008 is not aligned to its 0x10" },
	{ "no_load", c_no_load, -ENOEXEC, "no loadable segment" },
	{ "no_exec", c_no_exec, -ENOEXEC, "no executable segment" },
	{ "share_page", c_share_page, -EBADMSG, "share a page" },
	{ "image_too_big", c_too_big, -E2BIG, "above 256 MiB" },
	{ "base_align", c_base_align, -EBADMSG, "below its alignment 0x2000" },
	{ "dynamic_past_end", c_dyn_past, -EBADMSG, "dynamic segment past the end" },
	{ "dynamic_no_null", c_dyn_null, -EBADMSG, "without DT_NULL" },
	{ "dt_rel", c_dyn_rel, -ENOTSUP, "REL relocations (DT_REL)" },
	{ "dt_relr", c_dyn_relr, -ENOTSUP, "packed relative relocations (DT_RELR)" },
	{ "dt_pltrelsz", c_dyn_plt, -ENOTSUP, "PLT relocations" },
	{ "dt_needed", c_dyn_needed, -ENOTSUP, "shared library (DT_NEEDED)" },
	{ "dt_textrel", c_dyn_textrel, -ENOTSUP, "text relocations (DT_TEXTREL)" },
	{ "df_textrel", c_dyn_flags, -ENOTSUP, "text relocations (DF_TEXTREL)" },
	{ "df_static_tls", c_dyn_tls, -ENOTSUP, "thread-local storage (DF_STATIC_TLS)" },
	{ "dt_init", c_dyn_init, -ENOTSUP, "constructors or destructors (DT_INIT" },
	{ "dt_init_array", c_dyn_init_array, -ENOTSUP, "constructors or destructors (DT_INIT_ARRAY" },
	{ "rela_without_size", c_dyn_no_relasz, -EBADMSG, "DT_RELA without DT_RELASZ" },
	{ "relaent", c_dyn_relaent, -EBADMSG, "relocation entry size 16" },
	{ "relasz", c_dyn_relasz, -EBADMSG, "not a multiple of 24" },
	{ "rela_not_in_file", c_dyn_rela_addr, -EBADMSG, "relocation table at 0x7fff0000" },
	{ "reloc_64", c_rel_64, -ENOTSUP, "relocation 0 is R_RISCV_64 (type 2)" },
	{ "reloc_jump_slot", c_rel_slot, -ENOTSUP, "R_RISCV_JUMP_SLOT" },
	{ "reloc_tls", c_rel_tls, -ENOTSUP, "thread-local storage relocation" },
	{ "reloc_unknown", c_rel_unknown, -ENOTSUP, "unknown relocation (type 200)" },
	{ "reloc_symbol", c_rel_sym, -ENOTSUP, "refers to a symbol" },
	{ "reloc_outside", c_rel_outside, -EBADMSG, "at 0x10000 is outside the loadable segments" },
	{ "reloc_read_only", c_rel_text, -ENOTSUP, "patches a read-only segment" },
	{ "reloc_addend", c_rel_addend, -EBADMSG, "0x40000000 points outside" },
	{ "no_section_headers", c_no_shdrs, -ENOEXEC, "no section headers" },
	{ "extended_numbering", c_shnum0, -ENOTSUP, "extended section numbering" },
	{ "shentsize", c_shentsize, -EBADMSG, "section header size 40" },
	{ "shdrs_past_end", c_shoff, -EBADMSG, "section headers past the end" },
	{ "no_symtab", c_no_symtab, -ENOEXEC, "no symbol table (stripped?)" },
	{ "symtab_entsize", c_symtab_entsize, -EBADMSG, "entries are not of 24 bytes" },
	{ "symtab_past_end", c_symtab_past, -EBADMSG, "symbol table past the end" },
	{ "symtab_link", c_symtab_link, -EBADMSG, "without a string table" },
	{ "symtab_link_range", c_symtab_link_big, -EBADMSG, "without a string table" },
	{ "strtab_past_end", c_strtab_past, -EBADMSG, "string table past the end" },
	{ "name_outside", c_name_outside, -EBADMSG, "name outside the string table" },
	{ "name_unterminated", c_name_unterminated, -EBADMSG, "name outside the string table" },
	{ "kernel_without_name", c_kernel_empty, -EBADMSG, "a kernel without a name" },
	{ "kernel_undefined", c_kernel_undef, -EBADMSG, "kernel mk_fill is not defined" },
	{ "kernel_not_code", c_kernel_data, -EBADMSG, "mk_fill at 0x3000 is not in an executable segment" },
	{ "kernel_misaligned", c_kernel_misaligned, -EBADMSG, "mk_fill at 0x2 is not 4-byte aligned" },
	{ "kernel_twice", c_kernel_twice, -EBADMSG, "kernel mk_fill is defined twice" },
	{ "no_kernel", c_no_kernel, -ENOEXEC, "no kernel: define kernels with VACCEL_KERNEL()" },
	{ "kernel_name_long", c_kernel_long, -E2BIG, "kernel name of 256 characters, above 255" },
	{ "too_many_kernels", c_many_kernels, -E2BIG, "more than 1024 kernels" },
	{ "print_not_writable", c_print_text, -EBADMSG, "print descriptor __vaccel_print" },
	{ "print_twice", c_print_twice, -EBADMSG, "print descriptor __vaccel_print" },
};

static void refusals(void)
{
	char msg[VACCEL_MODULE_MSG_SIZE];
	struct vaccel_elf_image img;
	unsigned int i;
	int ret;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct file f = copy();

		bad[i].change(&f);
		memset(msg, 'x', sizeof(msg));
		ret = vaccel_elf_parse(f.p, f.size, &img, msg, sizeof(msg));
		if (ret != bad[i].err || !strstr(msg, bad[i].says)) {
			fprintf(stderr, "%s: %d (%s), \"%s\"; expected %d, \"%s\"\n",
				bad[i].name, ret, strerror(-ret), msg, bad[i].err,
				bad[i].says);
			exit(1);
		}
		/* A message buffer too small is cut, never overrun. */
		memset(msg, 'x', sizeof(msg));
		CHECK_EQ(vaccel_elf_parse(f.p, f.size, &img, msg, 5), bad[i].err);
		CHECK_EQ(strlen(msg), 4);
		CHECK_EQ(msg[5], 'x');
		free(f.p);
	}
	printf("# %zu refusals, each with its errno and message\n",
	       sizeof(bad) / sizeof(bad[0]));
}

/* --- the fuzzer --- */

static uint64_t rng_state;

static uint64_t rnd(void)
{
	/* splitmix64 */
	uint64_t z = (rng_state += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

/* Where the structures of the module are: the fuzzer aims at them. */
struct region {
	uint64_t off;
	uint64_t len;
	unsigned int field;	/* width of its fields */
};

static struct region regions[16];
static unsigned int nregions;

static void add_region(uint64_t off, uint64_t len, unsigned int field)
{
	if (len && nregions < sizeof(regions) / sizeof(regions[0]))
		regions[nregions++] = (struct region){ off, len, field };
}

static void find_regions(void)
{
	struct file f = copy();
	Elf64_Shdr *s = sh_type(&f, SHT_SYMTAB);

	add_region(0, sizeof(Elf64_Ehdr), 2);
	add_region(eh(&f)->e_phoff, eh(&f)->e_phnum * sizeof(Elf64_Phdr), 8);
	add_region(eh(&f)->e_shoff, eh(&f)->e_shnum * sizeof(Elf64_Shdr), 8);
	add_region(ph_type(&f, PT_DYNAMIC, 0)->p_offset,
		   ph_type(&f, PT_DYNAMIC, 0)->p_filesz, 8);
	add_region(offset_of(&f, dyn(&f, DT_RELA)->d_un.d_ptr),
		   dyn(&f, DT_RELASZ)->d_un.d_val, 8);
	add_region(s->sh_offset, s->sh_size, 4);
	add_region(sh(&f, s->sh_link)->sh_offset, sh(&f, s->sh_link)->sh_size, 1);
	free(f.p);
}

static uint64_t interesting(size_t size)
{
	static const uint64_t v[] = {
		0, 1, 2, 3, 4, 7, 8, 16, 24, 56, 64, 0x7f, 0x80, 0xff, 0x100,
		0xfff, 0x1000, 0x1001, 0xffff, 0x10000, 0x7fffffff, 0x80000000,
		0xffffffff, 0x100000000ull, 0x7fffffffffffffffull,
		0x8000000000000000ull, 0xffffffffffffffffull,
		0xfffffffffffffff0ull, 0x0100000000000000ull,
		0x60766c6d, PT_LOAD, PT_DYNAMIC, R_RISCV_RELATIVE,
	};
	uint64_t x = rnd();

	switch (x % 4) {
	case 0:
		return v[(x >> 8) % (sizeof(v) / sizeof(v[0]))];
	case 1:
		return size + (int64_t)((x >> 8) % 33) - 16;
	case 2:
		return (x >> 8) % (size + 1);
	default:
		return rnd();
	}
}

static void mutate(struct file *f)
{
	unsigned int n = 1 + rnd() % 6, i;

	for (i = 0; i < n && f->size; i++) {
		uint64_t x = rnd(), off, v;
		unsigned int width;
		struct region *r;

		switch (x % 8) {
		case 0:		/* a random byte */
			f->p[(x >> 8) % f->size] = rnd();
			break;
		case 1:		/* a random bit */
			f->p[(x >> 8) % f->size] ^= 1u << (rnd() % 8);
			break;
		case 2:		/* truncation */
			f->size = (x >> 8) % (f->size + 1);
			break;
		default:	/* a field of a header or table */
			r = &regions[(x >> 8) % nregions];
			width = (rnd() & 1) ? r->field : 1u << (rnd() % 4);
			off = r->off + (rnd() % r->len) / width * width;
			if (off + width > f->size)
				break;
			v = interesting(f->size);
			memcpy(f->p + off, &v, width);
			break;
		}
	}
}

static void fuzz(unsigned long iterations)
{
	char msg[VACCEL_MODULE_MSG_SIZE];
	unsigned long accepted = 0, by_err[5] = { 0 }, it;
	struct vaccel_elf_image img;
	unsigned char *dst;

	find_regions();
	for (it = 0; it < iterations; it++) {
		struct file f = copy();
		const char *name;
		uint64_t pos = 0, off, size;
		unsigned int k = 0;
		int ret;

		mutate(&f);
		/* An exact-size copy, so that ASan sees any read past its end. */
		f.p = realloc(f.p, f.size ? f.size : 1);
		CHECK(f.p);
		msg[0] = 'x';
		ret = vaccel_elf_parse(f.p, f.size, &img, msg, sizeof(msg));
		if (ret) {
			CHECK(msg[0] && msg[0] != 'x');
			CHECK(strlen(msg) < sizeof(msg));
			if (ret == -ENOEXEC)
				by_err[0]++;
			else if (ret == -EBADMSG)
				by_err[1]++;
			else if (ret == -ENOTSUP)
				by_err[2]++;
			else if (ret == -E2BIG)
				by_err[3]++;
			else {
				fprintf(stderr, "iteration %lu: unexpected %d (%s): %s\n",
					it, ret, strerror(-ret), msg);
				exit(1);
			}
			free(f.p);
			continue;
		}
		/* Accepted: what elf.c promised must hold. */
		accepted++;
		CHECK_EQ(msg[0], 0);
		CHECK(img.size && img.size <= VACCEL_ELF_MAX_IMAGE && !(img.size % 4096));
		CHECK(img.nkernels >= 1 && img.nkernels <= VACCEL_ELF_MAX_KERNELS);
		while (vaccel_elf_next_kernel(&img, &pos, &name, &off)) {
			CHECK(*name && strlen(name) <= VACCEL_KERNEL_NAME_MAX);
			CHECK(off < img.size && !(off % 4));
			k++;
		}
		CHECK_EQ(k, img.nkernels);
		pos = 0;
		while (vaccel_elf_next_function(&img, &pos, &name, &off, &size))
			CHECK(*name && off < img.size && size <= img.size - off);
		/* An exact-size image, so that ASan sees any write past its end. */
		dst = malloc(img.size);
		CHECK(dst);
		vaccel_elf_place(&img, dst, GPU_VA, LOCAL_BASE);
		if (img.has_print) {
			vaccel_elf_put64(&img, dst, img.print_vaddr, 0x1122334455667788ull);
			vaccel_elf_put64(&img, dst, img.print_vaddr + 8, 1);
		}
		free(dst);
		free(f.p);
	}
	printf("# fuzz: %lu mutated modules, %lu accepted, refused: %lu ENOEXEC, "
	       "%lu EBADMSG, %lu ENOTSUP, %lu E2BIG\n", iterations, accepted,
	       by_err[0], by_err[1], by_err[2], by_err[3]);
	/* The mutations must reach the deep checks, not only the header's. */
	CHECK(accepted > 0 && by_err[1] > 0 && by_err[2] > 0);
}

int main(int argc, char **argv)
{
	unsigned long iterations = argc > 2 ? strtoul(argv[2], NULL, 0) : 20000;
	FILE *fp;
	long n;

	if (argc < 2) {
		fprintf(stderr, "usage: host_elf MODULE [ITERATIONS [SEED]]\n");
		return 2;
	}
	rng_state = argc > 3 ? strtoull(argv[3], NULL, 0) : 0x5eed;
	fp = fopen(argv[1], "rb");
	CHECK(fp);
	CHECK(!fseek(fp, 0, SEEK_END));
	n = ftell(fp);
	CHECK(n > 0);
	rewind(fp);
	orig_size = n;
	orig = malloc(orig_size);
	CHECK(orig && fread(orig, 1, orig_size, fp) == orig_size);
	fclose(fp);

	valid_module();
	refusals();
	fuzz(iterations);
	free(orig);
	return 0;
}
