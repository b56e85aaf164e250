// SPDX-License-Identifier: MIT
/*
 * Copyright 2026 The vaccel authors
 *
 * elf.c - the kernel module parser of the loader: decides whether an ELF
 * file is a module the compute engines can run, says why not otherwise,
 * and lays the module out at a GPU address.  No device is involved, so the
 * host tests compile this file alone and feed it mutated modules.
 *
 * A module is what vaccel-cc links: a static PIE for RV64 (ELF64,
 * little-endian, EM_RISCV, ET_DYN, double-float ABI, no compressed code),
 * whose only dynamic relocations are R_RISCV_RELATIVE, plus an optional
 * segment of workgroup-local memory (PT_VACCEL_LOCAL, never loaded).
 * Kernels are the symbols named __vaccel_kernel_<name> (VACCEL_KERNEL()).
 *
 * The file is untrusted: every offset, size and count is checked against
 * the file and against overflow before it is used, every string is
 * checked to end inside its table, and fields are read byte by byte as
 * little-endian values, so that the buffer needs no alignment and the
 * host no particular byte order.  vaccel_elf_parse() checks everything;
 * vaccel_elf_place() and vaccel_elf_next_kernel() then only act on what
 * was checked and cannot fail.
 *
 * Errors, each with a message saying what and where:
 * -ENOEXEC  not a kernel module: not ELF, not ELF64, big-endian, not
 *           RISC-V, not ET_DYN, no loadable or executable segment, no
 *           symbol table, no kernel;
 * -EBADMSG  a broken file: a table, segment or string past the end of the
 *           file, sizes that disagree, overlapping segments, a relocation
 *           or kernel outside the segments, duplicates;
 * -ENOTSUP  what the engines cannot run: compressed code, a float ABI other
 *           than double, RVE, TSO, relocations other than R_RISCV_RELATIVE,
 *           relocations of read-only segments, an interpreter, shared
 *           libraries, thread-local storage, constructors, writable and
 *           executable segments, alignments above 64 KiB;
 * -E2BIG    an image above VACCEL_ELF_MAX_IMAGE, local memory above 4 GiB,
 *           more than VACCEL_ELF_MAX_KERNELS kernels or too long a name.
 */
#include <elf.h>
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "vaccel_priv.h"

/* Packed relative relocations, newer than some <elf.h>. */
#ifndef DT_RELR
#define DT_RELRSZ		35
#define DT_RELR			36
#endif

#define ELF_PAGE		4096ull
#define ELF_MAX_ALIGN		65536ull
#define ELF_MAX_PHDRS		64

static uint16_t le16(const unsigned char *p)
{
	return (uint16_t)(p[0] | p[1] << 8);
}

static uint32_t le32(const unsigned char *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
	       (uint32_t)p[3] << 24;
}

static uint64_t le64(const unsigned char *p)
{
	return (uint64_t)le32(p) | (uint64_t)le32(p + 4) << 32;
}

static void put_le64(unsigned char *p, uint64_t v)
{
	int i;

	for (i = 0; i < 8; i++)
		p[i] = (unsigned char)(v >> (8 * i));
}

/* Field @f of the structure @type at @p. */
#define RD16(p, type, f)	le16((p) + offsetof(type, f))
#define RD32(p, type, f)	le32((p) + offsetof(type, f))
#define RD64(p, type, f)	le64((p) + offsetof(type, f))

__attribute__((format(printf, 4, 5)))
static int elf_fail(char *msg, size_t msg_size, int err, const char *fmt, ...)
{
	va_list ap;

	if (msg && msg_size) {
		va_start(ap, fmt);
		vsnprintf(msg, msg_size, fmt, ap);
		va_end(ap);
	}
	return err;
}

#define FAIL(err, ...)	elf_fail(msg, msg_size, (err), __VA_ARGS__)

/* Whether [@off, @off + @len) lies in a file of @size bytes. */
static bool in_file(uint64_t off, uint64_t len, size_t size)
{
	return off <= size && len <= size - off;
}

static bool is_pow2(uint64_t x)
{
	return x && !(x & (x - 1));
}

static uint64_t page_down(uint64_t x)
{
	return x & ~(ELF_PAGE - 1);
}

/* Rounds up to a page; the callers keep @x far below 2^64. */
static uint64_t page_up(uint64_t x)
{
	return (x + ELF_PAGE - 1) & ~(ELF_PAGE - 1);
}

static const char *float_abi_name(uint32_t flags)
{
	switch (flags & EF_RISCV_FLOAT_ABI) {
	case EF_RISCV_FLOAT_ABI_SOFT:
		return "soft-float (lp64)";
	case EF_RISCV_FLOAT_ABI_SINGLE:
		return "single-float (lp64f)";
	case EF_RISCV_FLOAT_ABI_QUAD:
		return "quad-float (lp64q)";
	default:
		return "double-float (lp64d)";
	}
}

static const char *reloc_name(uint32_t type)
{
	switch (type) {
	case R_RISCV_32:
		return "R_RISCV_32";
	case R_RISCV_64:
		return "R_RISCV_64";
	case R_RISCV_COPY:
		return "R_RISCV_COPY";
	case R_RISCV_JUMP_SLOT:
		return "R_RISCV_JUMP_SLOT";
	case R_RISCV_TLS_DTPMOD32:
	case R_RISCV_TLS_DTPMOD64:
	case R_RISCV_TLS_DTPREL32:
	case R_RISCV_TLS_DTPREL64:
	case R_RISCV_TLS_TPREL32:
	case R_RISCV_TLS_TPREL64:
		return "a thread-local storage relocation";
	case R_RISCV_IRELATIVE:
		return "R_RISCV_IRELATIVE";
	default:
		return "an unknown relocation";
	}
}

static int check_header(const unsigned char *f, size_t size, char *msg,
			size_t msg_size)
{
	uint32_t flags;
	uint16_t type;

	if (size < sizeof(Elf64_Ehdr) || memcmp(f, ELFMAG, SELFMAG))
		return FAIL(-ENOEXEC, "not an ELF file");
	if (f[EI_CLASS] != ELFCLASS64)
		return FAIL(-ENOEXEC, "not ELF64 (class %u): kernels are RV64",
			    f[EI_CLASS]);
	if (f[EI_DATA] != ELFDATA2LSB)
		return FAIL(-ENOEXEC, "not little-endian (data encoding %u)",
			    f[EI_DATA]);
	if (f[EI_VERSION] != EV_CURRENT ||
	    RD32(f, Elf64_Ehdr, e_version) != EV_CURRENT)
		return FAIL(-ENOEXEC, "unknown ELF version");
	if (f[EI_OSABI] != ELFOSABI_SYSV && f[EI_OSABI] != ELFOSABI_GNU)
		return FAIL(-ENOEXEC, "OS ABI %u is neither System V nor GNU",
			    f[EI_OSABI]);
	if (RD16(f, Elf64_Ehdr, e_machine) != EM_RISCV)
		return FAIL(-ENOEXEC, "machine %u is not RISC-V (%u)",
			    RD16(f, Elf64_Ehdr, e_machine), EM_RISCV);

	type = RD16(f, Elf64_Ehdr, e_type);
	if (type == ET_REL)
		return FAIL(-ENOEXEC,
			    "an object file (ET_REL), not a module: link it with vaccel-cc");
	if (type == ET_EXEC)
		return FAIL(-ENOEXEC,
			    "a fixed-address executable (ET_EXEC): link with -pie, as vaccel-cc does");
	if (type != ET_DYN)
		return FAIL(-ENOEXEC, "ELF type %u is not ET_DYN", type);
	if (RD16(f, Elf64_Ehdr, e_ehsize) < sizeof(Elf64_Ehdr))
		return FAIL(-EBADMSG, "ELF header size %u is too small",
			    RD16(f, Elf64_Ehdr, e_ehsize));

	flags = RD32(f, Elf64_Ehdr, e_flags);
	if (flags & EF_RISCV_RVC)
		return FAIL(-ENOTSUP,
			    "compressed instructions (EF_RISCV_RVC): compile with -march=rv64imafd, without C");
	if ((flags & EF_RISCV_FLOAT_ABI) != EF_RISCV_FLOAT_ABI_DOUBLE)
		return FAIL(-ENOTSUP, "%s ABI: kernels use lp64d (-mabi=lp64d)",
			    float_abi_name(flags));
	if (flags & EF_RISCV_RVE)
		return FAIL(-ENOTSUP, "RV64E code (EF_RISCV_RVE): kernels are RV64I");
	if (flags & EF_RISCV_TSO)
		return FAIL(-ENOTSUP, "TSO memory model (EF_RISCV_TSO)");
	if (flags & ~(uint32_t)(EF_RISCV_FLOAT_ABI))
		return FAIL(-ENOTSUP, "unknown ELF flags 0x%" PRIx32, flags);
	return 0;
}

/* The loadable segment that holds [@va, @va + @len), or NULL. */
static const struct vaccel_elf_segment *
seg_of(const struct vaccel_elf_image *img, uint64_t va, uint64_t len)
{
	unsigned int i;

	for (i = 0; i < img->nseg; i++) {
		const struct vaccel_elf_segment *s = &img->seg[i];

		if (va >= s->vaddr && va - s->vaddr <= s->memsz &&
		    len <= s->memsz - (va - s->vaddr))
			return s;
	}
	return NULL;
}

/* The file offset of [@va, @va + @len), in the file part of a segment. */
static bool file_offset_of(const struct vaccel_elf_image *img, uint64_t va,
			   uint64_t len, uint64_t *off)
{
	unsigned int i;

	for (i = 0; i < img->nseg; i++) {
		const struct vaccel_elf_segment *s = &img->seg[i];

		if (va >= s->vaddr && va - s->vaddr <= s->filesz &&
		    len <= s->filesz - (va - s->vaddr)) {
			*off = s->offset + (va - s->vaddr);
			return true;
		}
	}
	return false;
}

static int add_load(struct vaccel_elf_image *img, const unsigned char *ph,
		    unsigned int idx, char *msg, size_t msg_size)
{
	struct vaccel_elf_segment s = {
		.vaddr = RD64(ph, Elf64_Phdr, p_vaddr),
		.memsz = RD64(ph, Elf64_Phdr, p_memsz),
		.offset = RD64(ph, Elf64_Phdr, p_offset),
		.filesz = RD64(ph, Elf64_Phdr, p_filesz),
		.flags = RD32(ph, Elf64_Phdr, p_flags) & (PF_R | PF_W | PF_X),
	};
	uint64_t align = RD64(ph, Elf64_Phdr, p_align);

	if (!s.memsz)
		return 0;
	if (s.filesz > s.memsz)
		return FAIL(-EBADMSG,
			    "segment %u: file size 0x%" PRIx64 " above its memory size 0x%" PRIx64,
			    idx, s.filesz, s.memsz);
	if (!in_file(s.offset, s.filesz, img->file_size))
		return FAIL(-EBADMSG, "segment %u: contents past the end of the file", idx);
	if (s.vaddr > UINT64_MAX - s.memsz ||
	    s.vaddr + s.memsz > UINT64_MAX - ELF_MAX_ALIGN)
		return FAIL(-EBADMSG, "segment %u: address 0x%" PRIx64 " + 0x%" PRIx64
			    " wraps around", idx, s.vaddr, s.memsz);
	if (align > 1 && !is_pow2(align))
		return FAIL(-EBADMSG, "segment %u: alignment 0x%" PRIx64
			    " is not a power of two", idx, align);
	if (align > ELF_MAX_ALIGN)
		return FAIL(-ENOTSUP, "segment %u: alignment 0x%" PRIx64
			    " above 64 KiB", idx, align);
	if (align > 1 && s.filesz && (s.vaddr - s.offset) % align)
		return FAIL(-EBADMSG, "segment %u: address 0x%" PRIx64 " and file offset 0x%"
			    PRIx64 " differ modulo its alignment", idx, s.vaddr, s.offset);
	if ((s.flags & (PF_W | PF_X)) == (PF_W | PF_X))
		return FAIL(-ENOTSUP, "segment %u is both writable and executable", idx);
	if (img->nseg == VACCEL_ELF_MAX_SEGMENTS)
		return FAIL(-ENOTSUP, "more than %u loadable segments",
			    VACCEL_ELF_MAX_SEGMENTS);
	if (align > img->align)
		img->align = align;
	img->seg[img->nseg++] = s;
	return 0;
}

static int add_local(struct vaccel_elf_image *img, const unsigned char *ph,
		     unsigned int idx, char *msg, size_t msg_size)
{
	uint64_t vaddr = RD64(ph, Elf64_Phdr, p_vaddr);
	uint64_t memsz = RD64(ph, Elf64_Phdr, p_memsz);
	uint64_t align = RD64(ph, Elf64_Phdr, p_align);

	if (img->has_local)
		return FAIL(-EBADMSG, "two local memory segments");
	if (RD64(ph, Elf64_Phdr, p_filesz))
		return FAIL(-EBADMSG,
			    "segment %u: local memory with contents in the file (it starts zeroed)",
			    idx);
	if (memsz > UINT32_MAX)
		return FAIL(-E2BIG, "segment %u: 0x%" PRIx64 " bytes of local memory",
			    idx, memsz);
	if (vaddr > UINT64_MAX - memsz)
		return FAIL(-EBADMSG, "segment %u: address 0x%" PRIx64 " + 0x%" PRIx64
			    " wraps around", idx, vaddr, memsz);
	if (align > ELF_PAGE)
		return FAIL(-ENOTSUP, "segment %u: local memory aligned to 0x%" PRIx64
			    ", above a page", idx, align);
	if (align > 1 && vaddr % align)
		return FAIL(-EBADMSG, "segment %u: local memory at 0x%" PRIx64
			    " is not aligned to its 0x%" PRIx64, idx, vaddr, align);
	img->has_local = true;
	img->local_vaddr = vaddr;
	img->local_size = memsz;
	return 0;
}

static int parse_phdrs(struct vaccel_elf_image *img, char *msg, size_t msg_size)
{
	const unsigned char *f = img->file;
	uint64_t phoff = RD64(f, Elf64_Ehdr, e_phoff);
	unsigned int phnum = RD16(f, Elf64_Ehdr, e_phnum), i;
	struct vaccel_elf_segment t;
	bool exec = false;
	int ret;

	if (!phnum)
		return FAIL(-ENOEXEC, "no program headers");
	if (RD16(f, Elf64_Ehdr, e_phentsize) != sizeof(Elf64_Phdr))
		return FAIL(-EBADMSG, "program header size %u is not %zu",
			    RD16(f, Elf64_Ehdr, e_phentsize), sizeof(Elf64_Phdr));
	if (phnum > ELF_MAX_PHDRS)
		return FAIL(-EBADMSG, "%u program headers, more than %u", phnum,
			    ELF_MAX_PHDRS);
	if (!in_file(phoff, (uint64_t)phnum * sizeof(Elf64_Phdr), img->file_size))
		return FAIL(-EBADMSG, "program headers past the end of the file");

	for (i = 0; i < phnum; i++) {
		const unsigned char *ph = f + phoff + i * sizeof(Elf64_Phdr);
		uint32_t type = RD32(ph, Elf64_Phdr, p_type);

		switch (type) {
		case PT_LOAD:
			ret = add_load(img, ph, i, msg, msg_size);
			break;
		case VACCEL_PT_LOCAL:
			ret = add_local(img, ph, i, msg, msg_size);
			break;
		case PT_DYNAMIC:
			if (img->has_dynamic)
				return FAIL(-EBADMSG, "two dynamic segments");
			img->has_dynamic = true;
			img->dyn_offset = RD64(ph, Elf64_Phdr, p_offset);
			img->dyn_size = RD64(ph, Elf64_Phdr, p_filesz);
			if (!in_file(img->dyn_offset, img->dyn_size, img->file_size))
				return FAIL(-EBADMSG, "dynamic segment past the end of the file");
			ret = 0;
			break;
		case PT_INTERP:
			return FAIL(-ENOTSUP,
				    "asks for an interpreter (PT_INTERP): link with --no-dynamic-linker");
		case PT_TLS:
			return FAIL(-ENOTSUP, "thread-local storage (PT_TLS)");
		default:
			/* PT_PHDR, PT_NOTE, PT_GNU_STACK, ...: nothing to load. */
			ret = 0;
			break;
		}
		if (ret)
			return ret;
	}
	if (!img->nseg)
		return FAIL(-ENOEXEC, "no loadable segment");

	/* By address; at most 16, so an insertion sort. */
	for (i = 1; i < img->nseg; i++) {
		unsigned int j = i;

		t = img->seg[i];
		while (j && img->seg[j - 1].vaddr > t.vaddr) {
			img->seg[j] = img->seg[j - 1];
			j--;
		}
		img->seg[j] = t;
	}
	for (i = 0; i < img->nseg; i++) {
		const struct vaccel_elf_segment *s = &img->seg[i];

		if (i && page_up(img->seg[i - 1].vaddr + img->seg[i - 1].memsz) >
		    page_down(s->vaddr))
			return FAIL(-EBADMSG, "segments at 0x%" PRIx64 " and 0x%" PRIx64
				    " share a page", img->seg[i - 1].vaddr, s->vaddr);
		if (s->flags & PF_X)
			exec = true;
	}
	if (!exec)
		return FAIL(-ENOEXEC, "no executable segment");

	img->base = page_down(img->seg[0].vaddr);
	t = img->seg[img->nseg - 1];
	img->size = page_up(t.vaddr + t.memsz) - img->base;
	if (img->size > VACCEL_ELF_MAX_IMAGE)
		return FAIL(-E2BIG, "an image of 0x%" PRIx64 " bytes, above %llu MiB",
			    img->size, VACCEL_ELF_MAX_IMAGE >> 20);
	if (img->base % img->align)
		return FAIL(-EBADMSG, "first segment at 0x%" PRIx64
			    " below its alignment 0x%" PRIx64, img->seg[0].vaddr, img->align);
	if (img->has_local && img->local_size &&
	    img->local_vaddr < img->base + img->size &&
	    img->base < img->local_vaddr + img->local_size)
		return FAIL(-EBADMSG, "local memory at 0x%" PRIx64
			    " overlaps the loadable segments", img->local_vaddr);
	return 0;
}

static int parse_dynamic(struct vaccel_elf_image *img, char *msg, size_t msg_size)
{
	uint64_t rela = 0, relasz = 0, relaent = sizeof(Elf64_Rela), i;
	bool have_rela = false, have_relasz = false, end = false;
	const unsigned char *d;

	if (!img->has_dynamic)
		return 0;
	d = img->file + img->dyn_offset;
	for (i = 0; i + sizeof(Elf64_Dyn) <= img->dyn_size && !end;
	     i += sizeof(Elf64_Dyn), d += sizeof(Elf64_Dyn)) {
		int64_t tag = (int64_t)RD64(d, Elf64_Dyn, d_tag);
		uint64_t val = RD64(d, Elf64_Dyn, d_un);

		switch (tag) {
		case DT_NULL:
			end = true;
			break;
		case DT_RELA:
			rela = val;
			have_rela = true;
			break;
		case DT_RELASZ:
			relasz = val;
			have_relasz = true;
			break;
		case DT_RELAENT:
			relaent = val;
			break;
		case DT_REL:
		case DT_RELSZ:
			if (val)
				return FAIL(-ENOTSUP, "REL relocations (DT_REL): RISC-V uses RELA");
			break;
		case DT_RELR:
		case DT_RELRSZ:
			if (val)
				return FAIL(-ENOTSUP,
					    "packed relative relocations (DT_RELR): link without -z pack-relative-relocs");
			break;
		case DT_PLTRELSZ:
			if (val)
				return FAIL(-ENOTSUP,
					    "PLT relocations: the module calls functions it does not define");
			break;
		case DT_NEEDED:
			return FAIL(-ENOTSUP, "needs a shared library (DT_NEEDED)");
		case DT_TEXTREL:
			return FAIL(-ENOTSUP,
				    "text relocations (DT_TEXTREL): link with -z text");
		case DT_FLAGS:
			if (val & DF_TEXTREL)
				return FAIL(-ENOTSUP,
					    "text relocations (DF_TEXTREL): link with -z text");
			if (val & DF_STATIC_TLS)
				return FAIL(-ENOTSUP, "thread-local storage (DF_STATIC_TLS)");
			break;
		case DT_INIT:
		case DT_FINI:
			return FAIL(-ENOTSUP,
				    "constructors or destructors (DT_INIT, DT_FINI): nothing runs them");
		case DT_INIT_ARRAYSZ:
		case DT_FINI_ARRAYSZ:
		case DT_PREINIT_ARRAYSZ:
			if (val)
				return FAIL(-ENOTSUP,
					    "constructors or destructors (DT_INIT_ARRAY, ...): nothing runs them");
			break;
		default:
			/* Symbol and hash tables, flags, debug: not needed. */
			break;
		}
	}
	if (!end)
		return FAIL(-EBADMSG, "dynamic segment without DT_NULL");
	if (have_rela != have_relasz)
		return FAIL(-EBADMSG, "DT_RELA without DT_RELASZ, or the reverse");
	if (!have_rela || !relasz)
		return 0;
	if (relaent != sizeof(Elf64_Rela))
		return FAIL(-EBADMSG, "relocation entry size %" PRIu64 " is not %zu",
			    relaent, sizeof(Elf64_Rela));
	if (relasz % sizeof(Elf64_Rela))
		return FAIL(-EBADMSG, "relocation table of %" PRIu64
			    " bytes, not a multiple of %zu", relasz, sizeof(Elf64_Rela));
	if (!file_offset_of(img, rela, relasz, &img->rela_offset))
		return FAIL(-EBADMSG, "relocation table at 0x%" PRIx64
			    " is not in the file part of a segment", rela);
	img->rela_count = relasz / sizeof(Elf64_Rela);
	return 0;
}

/* Whether @va is an address of the image, its end included. */
static bool in_image(const struct vaccel_elf_image *img, uint64_t va)
{
	return va >= img->base && va - img->base <= img->size;
}

/* Whether @va is an address of local memory, its end included. */
static bool in_local(const struct vaccel_elf_image *img, uint64_t va)
{
	return img->has_local && va >= img->local_vaddr &&
	       va - img->local_vaddr <= img->local_size;
}

static int check_relocs(struct vaccel_elf_image *img, char *msg, size_t msg_size)
{
	const unsigned char *r = img->file + img->rela_offset;
	uint64_t i;

	for (i = 0; i < img->rela_count; i++, r += sizeof(Elf64_Rela)) {
		uint64_t off = RD64(r, Elf64_Rela, r_offset);
		uint64_t info = RD64(r, Elf64_Rela, r_info);
		uint64_t addend = RD64(r, Elf64_Rela, r_addend);
		uint32_t type = ELF64_R_TYPE(info);
		const struct vaccel_elf_segment *s;

		if (type == R_RISCV_NONE)
			continue;
		if (type != R_RISCV_RELATIVE)
			return FAIL(-ENOTSUP, "relocation %" PRIu64 " is %s (type %" PRIu32
				    "), not R_RISCV_RELATIVE: link a static PIE with vaccel-cc",
				    i, reloc_name(type), type);
		if (ELF64_R_SYM(info))
			return FAIL(-ENOTSUP, "relocation %" PRIu64
				    " refers to a symbol: only relative ones are applied", i);
		s = seg_of(img, off, 8);
		if (!s)
			return FAIL(-EBADMSG, "relocation %" PRIu64 " at 0x%" PRIx64
				    " is outside the loadable segments", i, off);
		if (!(s->flags & PF_W))
			return FAIL(-ENOTSUP, "relocation %" PRIu64 " at 0x%" PRIx64
				    " patches a read-only segment (link with -z text)", i, off);
		if (!in_image(img, addend) && !in_local(img, addend))
			return FAIL(-EBADMSG, "relocation %" PRIu64 " at 0x%" PRIx64
				    ": 0x%" PRIx64 " points outside the module and its local memory",
				    i, off, addend);
	}
	return 0;
}

/* The name of symbol @sym (file offset), or NULL if not inside the table. */
static const char *sym_name(const struct vaccel_elf_image *img, const unsigned char *sym)
{
	uint32_t off = RD32(sym, Elf64_Sym, st_name);
	const char *s = (const char *)img->file + img->strtab_offset;

	if (off >= img->strtab_size || !memchr(s + off, '\0', img->strtab_size - off))
		return NULL;
	return s + off;
}

static int find_symtab(struct vaccel_elf_image *img, char *msg, size_t msg_size)
{
	const unsigned char *f = img->file;
	uint64_t shoff = RD64(f, Elf64_Ehdr, e_shoff);
	unsigned int shnum = RD16(f, Elf64_Ehdr, e_shnum), i;
	const unsigned char *sh, *str;
	uint64_t off, size, link;

	if (!shoff && !shnum)
		return FAIL(-ENOEXEC,
			    "no section headers, hence no symbol table to find kernels in");
	if (!shnum)
		return FAIL(-ENOTSUP, "extended section numbering (e_shnum 0)");
	if (RD16(f, Elf64_Ehdr, e_shentsize) != sizeof(Elf64_Shdr))
		return FAIL(-EBADMSG, "section header size %u is not %zu",
			    RD16(f, Elf64_Ehdr, e_shentsize), sizeof(Elf64_Shdr));
	if (!in_file(shoff, (uint64_t)shnum * sizeof(Elf64_Shdr), img->file_size))
		return FAIL(-EBADMSG, "section headers past the end of the file");

	for (i = 0; i < shnum; i++) {
		sh = f + shoff + i * sizeof(Elf64_Shdr);
		if (RD32(sh, Elf64_Shdr, sh_type) == SHT_SYMTAB)
			break;
	}
	if (i == shnum)
		return FAIL(-ENOEXEC,
			    "no symbol table (stripped?): kernels are found by their symbols");
	off = RD64(sh, Elf64_Shdr, sh_offset);
	size = RD64(sh, Elf64_Shdr, sh_size);
	link = RD32(sh, Elf64_Shdr, sh_link);
	if (RD64(sh, Elf64_Shdr, sh_entsize) != sizeof(Elf64_Sym) ||
	    size % sizeof(Elf64_Sym))
		return FAIL(-EBADMSG, "symbol table entries are not of %zu bytes",
			    sizeof(Elf64_Sym));
	if (!in_file(off, size, img->file_size))
		return FAIL(-EBADMSG, "symbol table past the end of the file");
	if (link >= shnum)
		return FAIL(-EBADMSG, "symbol table without a string table");
	str = f + shoff + link * sizeof(Elf64_Shdr);
	if (RD32(str, Elf64_Shdr, sh_type) != SHT_STRTAB)
		return FAIL(-EBADMSG, "symbol table without a string table");
	img->symtab_offset = off;
	img->symtab_count = size / sizeof(Elf64_Sym);
	img->strtab_offset = RD64(str, Elf64_Shdr, sh_offset);
	img->strtab_size = RD64(str, Elf64_Shdr, sh_size);
	if (!in_file(img->strtab_offset, img->strtab_size, img->file_size))
		return FAIL(-EBADMSG, "string table past the end of the file");
	return 0;
}

/*
 * The kernel a symbol defines: its name after the prefix, or NULL if the
 * symbol is not a kernel's.  *@name_ok is false when the name is not
 * inside the string table.
 */
static const char *kernel_name(const struct vaccel_elf_image *img,
			       const unsigned char *sym, bool *name_ok)
{
	const char *name = sym_name(img, sym);

	*name_ok = name != NULL;
	if (!name || strncmp(name, VACCEL_KERNEL_PREFIX, strlen(VACCEL_KERNEL_PREFIX)))
		return NULL;
	return name + strlen(VACCEL_KERNEL_PREFIX);
}

static int check_symbols(struct vaccel_elf_image *img, char *msg, size_t msg_size)
{
	const unsigned char *syms = img->file + img->symtab_offset, *sym;
	const unsigned char *kernels[VACCEL_ELF_MAX_KERNELS];
	const struct vaccel_elf_segment *s;
	unsigned int n = 0, k;
	const char *name;
	uint64_t i, value;
	bool name_ok;

	/* Symbol 0 is the null symbol. */
	for (i = 1; i < img->symtab_count; i++) {
		sym = syms + i * sizeof(Elf64_Sym);
		name = kernel_name(img, sym, &name_ok);
		if (!name_ok)
			return FAIL(-EBADMSG, "symbol %" PRIu64
				    ": name outside the string table", i);
		value = RD64(sym, Elf64_Sym, st_value);

		if (!name) {
			if (strcmp(sym_name(img, sym), VACCEL_PRINT_SYMBOL))
				continue;
			s = seg_of(img, value, 16);
			if (img->has_print || !s || !(s->flags & PF_W) || value % 8)
				return FAIL(-EBADMSG, "the print descriptor %s at 0x%" PRIx64
					    " is not 16 writable bytes, once",
					    VACCEL_PRINT_SYMBOL, value);
			img->has_print = true;
			img->print_vaddr = value;
			continue;
		}

		if (!*name)
			return FAIL(-EBADMSG, "a kernel without a name (symbol %" PRIu64 ")", i);
		if (strlen(name) > VACCEL_KERNEL_NAME_MAX)
			return FAIL(-E2BIG, "kernel name of %zu characters, above %u",
				    strlen(name), VACCEL_KERNEL_NAME_MAX);
		if (RD16(sym, Elf64_Sym, st_shndx) == SHN_UNDEF)
			return FAIL(-EBADMSG, "kernel %s is not defined", name);
		s = seg_of(img, value, 4);
		if (!s || !(s->flags & PF_X))
			return FAIL(-EBADMSG, "kernel %s at 0x%" PRIx64
				    " is not in an executable segment", name, value);
		if (value % 4)
			return FAIL(-EBADMSG, "kernel %s at 0x%" PRIx64
				    " is not 4-byte aligned", name, value);
		for (k = 0; k < n; k++)
			if (!strcmp(kernel_name(img, kernels[k], &name_ok), name))
				return FAIL(-EBADMSG, "kernel %s is defined twice", name);
		if (n == VACCEL_ELF_MAX_KERNELS)
			return FAIL(-E2BIG, "more than %u kernels", VACCEL_ELF_MAX_KERNELS);
		kernels[n++] = sym;
	}
	if (!n)
		return FAIL(-ENOEXEC, "no kernel: define kernels with VACCEL_KERNEL()");
	img->nkernels = n;
	return 0;
}

int vaccel_elf_parse(const void *file, size_t size, struct vaccel_elf_image *img,
		     char *msg, size_t msg_size)
{
	int ret;

	memset(img, 0, sizeof(*img));
	img->file = file;
	img->file_size = size;
	img->align = ELF_PAGE;
	if (msg && msg_size)
		msg[0] = '\0';
	if (!file)
		return FAIL(-EINVAL, "no image");

	ret = check_header(file, size, msg, msg_size);
	if (!ret)
		ret = parse_phdrs(img, msg, msg_size);
	if (!ret)
		ret = parse_dynamic(img, msg, msg_size);
	if (!ret)
		ret = check_relocs(img, msg, msg_size);
	if (!ret)
		ret = find_symtab(img, msg, msg_size);
	if (!ret)
		ret = check_symbols(img, msg, msg_size);
	return ret;
}

bool vaccel_elf_next_kernel(const struct vaccel_elf_image *img, uint64_t *pos,
			    const char **name, uint64_t *offset)
{
	const unsigned char *syms = img->file + img->symtab_offset;
	bool name_ok;

	for (; *pos < img->symtab_count; (*pos)++) {
		const unsigned char *sym = syms + *pos * sizeof(Elf64_Sym);

		if (!*pos)
			continue;
		*name = kernel_name(img, sym, &name_ok);
		if (!*name)
			continue;
		*offset = RD64(sym, Elf64_Sym, st_value) - img->base;
		(*pos)++;
		return true;
	}
	return false;
}

bool vaccel_elf_next_function(const struct vaccel_elf_image *img, uint64_t *pos,
			      const char **name, uint64_t *offset, uint64_t *size)
{
	const unsigned char *syms = img->file + img->symtab_offset;
	const struct vaccel_elf_segment *s;

	for (; *pos < img->symtab_count; (*pos)++) {
		const unsigned char *sym = syms + *pos * sizeof(Elf64_Sym);
		uint64_t value = RD64(sym, Elf64_Sym, st_value);
		bool name_ok;

		if (!*pos || ELF64_ST_TYPE(sym[offsetof(Elf64_Sym, st_info)]) != STT_FUNC ||
		    RD16(sym, Elf64_Sym, st_shndx) == SHN_UNDEF ||
		    kernel_name(img, sym, &name_ok) || !name_ok)
			continue;
		*name = sym_name(img, sym);
		s = seg_of(img, value, 1);
		if (!**name || !s || !(s->flags & PF_X))
			continue;
		*offset = value - img->base;
		*size = RD64(sym, Elf64_Sym, st_size);
		/* Not past its segment, whatever the symbol says. */
		if (*size > s->memsz - (value - s->vaddr))
			*size = s->memsz - (value - s->vaddr);
		(*pos)++;
		return true;
	}
	return false;
}

void vaccel_elf_place(const struct vaccel_elf_image *img, void *dst, uint64_t va,
		      uint64_t local_base)
{
	const unsigned char *r = img->file + img->rela_offset;
	unsigned char *d = dst;
	unsigned int i;
	uint64_t n;

	memset(d, 0, img->size);
	for (i = 0; i < img->nseg; i++)
		memcpy(d + (img->seg[i].vaddr - img->base), img->file + img->seg[i].offset,
		       img->seg[i].filesz);

	for (n = 0; n < img->rela_count; n++, r += sizeof(Elf64_Rela)) {
		uint64_t off = RD64(r, Elf64_Rela, r_offset);
		uint64_t addend = RD64(r, Elf64_Rela, r_addend);
		uint64_t value;

		if (ELF64_R_TYPE(RD64(r, Elf64_Rela, r_info)) != R_RISCV_RELATIVE)
			continue;
		if (in_image(img, addend))
			value = va + (addend - img->base);
		else
			value = local_base + (addend - img->local_vaddr);
		put_le64(d + (off - img->base), value);
	}
}

void vaccel_elf_put64(const struct vaccel_elf_image *img, void *dst, uint64_t vaddr,
		      uint64_t value)
{
	put_le64((unsigned char *)dst + (vaddr - img->base), value);
}

bool vaccel_elf_find_section(const struct vaccel_elf_image *img, const char *name,
			     uint64_t *offset, uint64_t *size)
{
	const unsigned char *f = img->file;
	uint64_t shoff = RD64(f, Elf64_Ehdr, e_shoff), stroff, strsize, off, len;
	unsigned int shnum = RD16(f, Elf64_Ehdr, e_shnum);
	unsigned int shstrndx = RD16(f, Elf64_Ehdr, e_shstrndx), i;
	size_t want = strlen(name) + 1;
	const unsigned char *sh;

	/* find_symtab() checked the section headers themselves. */
	if (shstrndx >= shnum)
		return false;
	sh = f + shoff + shstrndx * sizeof(Elf64_Shdr);
	stroff = RD64(sh, Elf64_Shdr, sh_offset);
	strsize = RD64(sh, Elf64_Shdr, sh_size);
	if (RD32(sh, Elf64_Shdr, sh_type) != SHT_STRTAB ||
	    !in_file(stroff, strsize, img->file_size))
		return false;
	for (i = 1; i < shnum; i++) {
		uint32_t n;

		sh = f + shoff + i * sizeof(Elf64_Shdr);
		n = RD32(sh, Elf64_Shdr, sh_name);
		if (n >= strsize || strsize - n < want ||
		    memcmp(f + stroff + n, name, want))
			continue;
		off = RD64(sh, Elf64_Shdr, sh_offset);
		len = RD64(sh, Elf64_Shdr, sh_size);
		if (RD32(sh, Elf64_Shdr, sh_type) == SHT_NOBITS ||
		    !in_file(off, len, img->file_size))
			return false;
		*offset = off;
		*size = len;
		return true;
	}
	return false;
}

bool vaccel_elf_next_section(const struct vaccel_elf_image *img, unsigned int *pos,
			     struct vaccel_elf_section *sec)
{
	const unsigned char *f = img->file, *sh, *end;
	uint64_t shoff = RD64(f, Elf64_Ehdr, e_shoff), stroff, strsize;
	unsigned int shnum = RD16(f, Elf64_Ehdr, e_shnum);
	unsigned int shstrndx = RD16(f, Elf64_Ehdr, e_shstrndx);
	uint32_t n;

	/* find_symtab() checked the section headers themselves. */
	if (shstrndx >= shnum)
		return false;
	sh = f + shoff + shstrndx * sizeof(Elf64_Shdr);
	stroff = RD64(sh, Elf64_Shdr, sh_offset);
	strsize = RD64(sh, Elf64_Shdr, sh_size);
	if (RD32(sh, Elf64_Shdr, sh_type) != SHT_STRTAB ||
	    !in_file(stroff, strsize, img->file_size))
		return false;
	while (++*pos < shnum) {
		sh = f + shoff + *pos * sizeof(Elf64_Shdr);
		n = RD32(sh, Elf64_Shdr, sh_name);
		/* A name inside the table, NUL-terminated there. */
		if (n >= strsize)
			continue;
		end = memchr(f + stroff + n, '\0', strsize - n);
		if (!end)
			continue;
		sec->name = (const char *)f + stroff + n;
		sec->type = RD32(sh, Elf64_Shdr, sh_type);
		sec->flags = RD64(sh, Elf64_Shdr, sh_flags);
		sec->offset = RD64(sh, Elf64_Shdr, sh_offset);
		sec->size = RD64(sh, Elf64_Shdr, sh_size);
		sec->in_file = sec->type != SHT_NOBITS &&
			       in_file(sec->offset, sec->size, img->file_size);
		return true;
	}
	return false;
}

const unsigned char *vaccel_elf_code(const struct vaccel_elf_image *img,
				     uint64_t vaddr, uint64_t len)
{
	const struct vaccel_elf_segment *s = seg_of(img, vaddr, len);
	uint64_t off;

	if (!s || !(s->flags & PF_X) || !file_offset_of(img, vaddr, len, &off))
		return NULL;
	return img->file + off;
}
