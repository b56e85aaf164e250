// SPDX-License-Identifier: MIT
/*
 * Copyright 2026 The vaccel authors
 */

/**
 * DOC: The IR step of OpenCL C
 *
 * clang-14 compiles OpenCL C for the device (``--target=riscv64-unknown-elf
 * -Xclang -ffake-address-space-map``) into LLVM IR that the RISC-V backend
 * cannot take as it is, and that would be wrong if it could.
 * vaccel_cl_lower() changes three things, through the LLVM C API, never by
 * rewriting IR text:
 *
 * - **Kernels.**  A kernel has the ``spir_kernel`` calling convention, on
 *   which the backend aborts.  It becomes an ordinary internal function,
 *   and every call to it changes as well.  Its *entry*,
 *   ``__vaccel_cl_<name>(const void *block)``, is what vaccel launches:
 *   the symbol ``__vaccel_kernel_<name>`` names it for the loader.  It
 *   loads each parameter from the block and calls the kernel.  The device
 *   library finds the hidden header through ``__vaccel_header_va()``,
 *   which the step resolves after optimisation (resolve_header()): to the
 *   entry's block pointer, or to ``tp``, which the entry then sets.
 * - **The argument block.**  A 64-byte header comes first
 *   (%VACCEL_CL_HEADER_SIZE): the global offset, three 64-bit values at
 *   0, and get_work_dim() at 24, 32 bits.  The parameters follow in order,
 *   each at its natural alignment (the ABI alignment of its LLVM type).
 *   A value takes its bytes: a vector of three takes four elements, a
 *   struct its C layout.  A pointer to global or constant memory is the
 *   GPU virtual address of the buffer.  A pointer to local memory is a
 *   64-bit offset into the launch's dynamic local memory
 *   (&vaccel_launch_options.dynamic_local_size).  A struct passed by value
 *   is passed ``byval`` from the block, so the call copies it to the
 *   work-item's stack: the kernel may change its copy, and the block is
 *   read-only.
 * - **Local variables.**  A kernel-scope ``__local`` array is an internal
 *   global of address space 3, which codegen would put in ``.bss``, one
 *   copy shared by every workgroup.  It becomes an external global of its
 *   own name in ``.bss.vaccel.local``, the section of ``VACCEL_LOCAL``.
 *   PIC code reaches it through the GOT, and the module loader points
 *   that GOT entry at each workgroup's local memory.  (An internal global
 *   stays ``dso_local``, so reached PC-relative, even when made external,
 *   and the C API cannot clear that: the step makes a new global.)
 *
 * Then the device library (bitcode of the same clang) is linked in and
 * everything but the entries and the local variables becomes internal
 * (vaccel_cl_lower()).  vaccel_cl_optimize() runs the ``default<O2>``
 * pipeline, which inlines the builtins into the kernels: get_global_id()
 * is a CSR read, a load of the offset and an add.  It optimises the
 * module whole, or each part of it that split.c makes so that a large
 * program is optimised and compiled on several CPUs at once.  The result
 * goes to vaccel-cc for codegen and linking, as a kernel written in C
 * does.
 */

#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <llvm-c/Analysis.h>
#include <llvm-c/DebugInfo.h>
#include <llvm-c/Linker.h>
#include <llvm-c/Target.h>
#include <llvm-c/TargetMachine.h>
#include <llvm-c/Transforms/PassBuilder.h>

#include "lower.h"

/* The address spaces of clang's fake map: private, global, constant, local. */
#define AS_LOCAL	3

/* The CSR of the workgroup's local memory (vaccel_kernel.h). */
#define CSR_LOCAL_BASE	0xcd3

/* Longest kernel name the module loader takes. */
#define KERNEL_NAME_MAX	255

struct lower {
	LLVMContextRef ctx;
	LLVMModuleRef m;
	LLVMTargetDataRef dl;
	LLVMBuilderRef b;
	char *log;
	size_t log_size;
	size_t log_len;
	/* The kernels' metadata, text (lower.h), growing. */
	char *meta;
	size_t meta_len, meta_cap;
	bool meta_failed;
	/* The entries' debug information (entry_debug_info()), or NULL. */
	LLVMDIBuilderRef dib;
};

/* Appends to the metadata text. */
static void __attribute__((format(printf, 2, 3)))
meta_add(struct lower *l, const char *fmt, ...)
{
	va_list ap;
	int n;

	for (;;) {
		size_t room = l->meta_cap - l->meta_len;
		char *bigger;

		va_start(ap, fmt);
		n = vsnprintf(l->meta ? l->meta + l->meta_len : NULL, room, fmt, ap);
		va_end(ap);
		if (n < 0) {
			l->meta_failed = true;
			return;
		}
		if ((size_t)n < room) {
			l->meta_len += (size_t)n;
			return;
		}
		bigger = realloc(l->meta, l->meta_cap * 2 + (size_t)n + 256);
		if (!bigger) {
			l->meta_failed = true;
			return;
		}
		l->meta = bigger;
		l->meta_cap = l->meta_cap * 2 + (size_t)n + 256;
	}
}

/* Appends a line to the log, as snprintf() would, never past its end. */
static void __attribute__((format(printf, 2, 3)))
lower_log(struct lower *l, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (!l->log || l->log_len + 1 >= l->log_size)
		return;
	va_start(ap, fmt);
	n = vsnprintf(l->log + l->log_len, l->log_size - l->log_len, fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	l->log_len += (size_t)n;
	if (l->log_len >= l->log_size)
		l->log_len = l->log_size - 1;
}

static bool is_kernel(LLVMValueRef f)
{
	return LLVMGetFunctionCallConv(f) == LLVMSPIRKERNELCallConv;
}

/* Kernel-scope __local variables: each into the local section, by the GOT. */
static int lower_locals(struct lower *l)
{
	LLVMValueRef g, next, last = LLVMGetLastGlobal(l->m);
	unsigned int n = 0;

	/* The new globals go at the end of the list: up to the last old one. */
	for (g = LLVMGetFirstGlobal(l->m); g; g = next) {
		LLVMTypeRef type = LLVMGlobalGetValueType(g);
		char name[KERNEL_NAME_MAX + 64];
		LLVMValueRef local;

		next = g == last ? NULL : LLVMGetNextGlobal(g);
		if (LLVMGetPointerAddressSpace(LLVMTypeOf(g)) != AS_LOCAL)
			continue;
		if (LLVMIsDeclaration(g)) {
			lower_log(l, "error: local variable %s is declared, not defined\n",
				  LLVMGetValueName(g));
			return -1;
		}
		snprintf(name, sizeof(name), "__vaccel_cl_local.%u.%s", n++,
			 LLVMGetValueName(g));
		local = LLVMAddGlobalInAddressSpace(l->m, type, name, AS_LOCAL);
		LLVMSetAlignment(local, LLVMGetAlignment(g));
		LLVMSetSection(local, ".bss.vaccel.local");
		LLVMSetVisibility(local, LLVMDefaultVisibility);
		/* Local memory starts zeroed; OpenCL leaves it undefined. */
		LLVMSetInitializer(local, LLVMConstNull(type));
		LLVMReplaceAllUsesWith(g, local);
		LLVMDeleteGlobal(g);
	}
	return 0;
}

/* The address of the launch's dynamic local memory, as an integer. */
static LLVMValueRef build_dynamic_local(struct lower *l)
{
	LLVMTypeRef i64 = LLVMInt64TypeInContext(l->ctx);
	LLVMTypeRef i8 = LLVMInt8TypeInContext(l->ctx);
	LLVMTypeRef csr_type = LLVMFunctionType(i64, NULL, 0, false);
	char asm_text[32];
	LLVMValueRef csr, start, end, used, base;

	snprintf(asm_text, sizeof(asm_text), "csrr $0, %#x", CSR_LOCAL_BASE);
	csr = LLVMGetInlineAsm(csr_type, asm_text, strlen(asm_text), "=r", 2,
			       false, false, LLVMInlineAsmDialectATT, false);
	base = LLVMBuildCall2(l->b, csr_type, csr, NULL, 0, "local_base");
	/* The module's own local variables come first (vaccel-kernel.ld). */
	start = LLVMGetNamedGlobal(l->m, "__vaccel_local_start");
	if (!start)
		start = LLVMAddGlobal(l->m, i8, "__vaccel_local_start");
	end = LLVMGetNamedGlobal(l->m, "__vaccel_local_end");
	if (!end)
		end = LLVMAddGlobal(l->m, i8, "__vaccel_local_end");
	used = LLVMBuildSub(l->b, LLVMBuildPtrToInt(l->b, end, i64, ""),
			    LLVMBuildPtrToInt(l->b, start, i64, ""), "");
	used = LLVMBuildAnd(l->b, LLVMBuildAdd(l->b, used, LLVMConstInt(i64, 15, false), ""),
			    LLVMConstInt(i64, ~15ull, false), "static_local");
	return LLVMBuildAdd(l->b, base, used, "dynamic_local");
}

/* Loads parameter @i of kernel @f, of type @type, from @block at @offset. */
static LLVMValueRef build_param(struct lower *l, LLVMValueRef f, unsigned int i,
				LLVMTypeRef type, LLVMValueRef block,
				unsigned long long offset, LLVMValueRef *dynamic_local)
{
	LLVMTypeRef i8 = LLVMInt8TypeInContext(l->ctx);
	LLVMTypeRef i64 = LLVMInt64TypeInContext(l->ctx);
	LLVMValueRef index = LLVMConstInt(i64, offset, false), p, v;
	unsigned int kind = LLVMGetEnumAttributeKindForName("byval", 5);
	LLVMAttributeRef attr = LLVMGetEnumAttributeAtIndex(f, i + 1, kind);

	p = LLVMBuildGEP2(l->b, i8, block, &index, 1, "");
	if (attr) {
		/*
		 * A struct by value: its bytes in the block, which the call
		 * (byval there too) copies to the kernel's stack.
		 */
		return LLVMBuildBitCast(l->b, p, type, "");
	}
	if (LLVMGetTypeKind(type) == LLVMPointerTypeKind &&
	    LLVMGetPointerAddressSpace(type) == AS_LOCAL) {
		/* An offset into the launch's dynamic local memory. */
		p = LLVMBuildBitCast(l->b, p, LLVMPointerType(i64, 0), "");
		v = LLVMBuildLoad2(l->b, i64, p, "");
		LLVMSetAlignment(v, 8);
		if (!*dynamic_local)
			*dynamic_local = build_dynamic_local(l);
		v = LLVMBuildAdd(l->b, *dynamic_local, v, "");
		return LLVMBuildIntToPtr(l->b, v, type, "");
	}
	p = LLVMBuildBitCast(l->b, p, LLVMPointerType(type, 0), "");
	v = LLVMBuildLoad2(l->b, type, p, "");
	LLVMSetAlignment(v, LLVMABIAlignmentOfType(l->dl, type));
	return v;
}

/* The size and alignment parameter @i takes in the block. */
static void param_layout(struct lower *l, LLVMValueRef f, unsigned int i,
			 LLVMTypeRef type, unsigned long long *size,
			 unsigned long long *align)
{
	unsigned int kind = LLVMGetEnumAttributeKindForName("byval", 5);
	LLVMAttributeRef attr = LLVMGetEnumAttributeAtIndex(f, i + 1, kind);

	if (attr)
		type = LLVMGetTypeAttributeValue(attr);
	else if (LLVMGetTypeKind(type) == LLVMPointerTypeKind &&
		 LLVMGetPointerAddressSpace(type) == AS_LOCAL)
		type = LLVMInt64TypeInContext(l->ctx);
	*size = LLVMABISizeOfType(l->dl, type);
	*align = LLVMABIAlignmentOfType(l->dl, type);
}

/* Calls of @f from other kernels: the C calling convention too. */
static void lower_calls(LLVMValueRef f)
{
	LLVMUseRef u;

	for (u = LLVMGetFirstUse(f); u; u = LLVMGetNextUse(u)) {
		LLVMValueRef user = LLVMGetUser(u);

		if (LLVMIsACallInst(user) || LLVMIsAInvokeInst(user))
			LLVMSetInstructionCallConv(user, LLVMCCallConv);
	}
}

/* Kernel @f's metadata node @kind (clang's kernel_arg_*), or NULL. */
static LLVMValueRef kernel_md(struct lower *l, LLVMValueRef f, const char *kind)
{
	unsigned int id = LLVMGetMDKindIDInContext(l->ctx, kind, (unsigned int)strlen(kind));
	LLVMValueMetadataEntry *entries;
	LLVMValueRef node = NULL;
	size_t n, i;

	entries = LLVMGlobalCopyAllMetadata(f, &n);
	for (i = 0; i < n; i++)
		if (LLVMValueMetadataEntriesGetKind(entries, (unsigned int)i) == id)
			node = LLVMMetadataAsValue(l->ctx,
						   LLVMValueMetadataEntriesGetMetadata(entries,
										       (unsigned int)i));
	if (entries)
		LLVMDisposeValueMetadataEntries(entries);
	return node;
}

/* Operand @i of a metadata node, or NULL. */
static LLVMValueRef md_operand(LLVMValueRef node, unsigned int i)
{
	unsigned int n = node ? LLVMGetMDNodeNumOperands(node) : 0;
	LLVMValueRef *ops, op;

	if (i >= n)
		return NULL;
	ops = calloc(n, sizeof(*ops));
	if (!ops)
		return NULL;
	LLVMGetMDNodeOperands(node, ops);
	op = ops[i];
	free(ops);
	return op;
}

/* Operand @i of a metadata node: a string ("" if not one). */
static const char *md_string(LLVMValueRef node, unsigned int i)
{
	LLVMValueRef op = md_operand(node, i);
	unsigned int len;
	const char *str;

	str = op ? LLVMGetMDString(op, &len) : NULL;
	return str ? str : "";
}

/* Operand @i of a metadata node: an integer (0 if not one). */
static unsigned long long md_int(LLVMValueRef node, unsigned int i)
{
	LLVMValueRef op = md_operand(node, i);

	if (!op || !LLVMIsAConstantInt(op))
		return 0;
	return LLVMConstIntGetZExtValue(op);
}

/* The OpenCL name of a vec_type_hint type: float4, int, ... */
static void type_hint_name(LLVMValueRef node, char *buf, size_t size)
{
	LLVMValueRef ops[2];
	LLVMTypeRef t, e;
	unsigned int n = 0;
	const char *base = "";
	bool is_unsigned;

	buf[0] = '\0';
	if (!node || LLVMGetMDNodeNumOperands(node) != 2)
		return;
	LLVMGetMDNodeOperands(node, ops);
	if (!ops[0])
		return;
	t = e = LLVMTypeOf(ops[0]);
	is_unsigned = !md_int(node, 1);
	if (LLVMGetTypeKind(t) == LLVMVectorTypeKind) {
		n = LLVMGetVectorSize(t);
		e = LLVMGetElementType(t);
	}
	switch (LLVMGetTypeKind(e)) {
	case LLVMHalfTypeKind:
		base = "half";
		break;
	case LLVMFloatTypeKind:
		base = "float";
		break;
	case LLVMDoubleTypeKind:
		base = "double";
		break;
	case LLVMIntegerTypeKind:
		switch (LLVMGetIntTypeWidth(e)) {
		case 8:
			base = is_unsigned ? "uchar" : "char";
			break;
		case 16:
			base = is_unsigned ? "ushort" : "short";
			break;
		case 32:
			base = is_unsigned ? "uint" : "int";
			break;
		default:
			base = is_unsigned ? "ulong" : "long";
			break;
		}
		break;
	default:
		return;
	}
	if (n)
		snprintf(buf, size, "%s%u", base, n);
	else
		snprintf(buf, size, "%s", base);
}

/* The kind of a parameter, in the metadata (lower.h). */
static const char *param_kind(LLVMValueRef f, unsigned int i, LLVMTypeRef type)
{
	unsigned int byval = LLVMGetEnumAttributeKindForName("byval", 5);

	if (LLVMGetEnumAttributeAtIndex(f, i + 1, byval))
		return "byval";
	if (LLVMGetTypeKind(type) != LLVMPointerTypeKind)
		return "value";
	switch (LLVMGetPointerAddressSpace(type)) {
	case 1:
		return "global";
	case 2:
		return "constant";
	case AS_LOCAL:
		return "local";
	default:
		return "private";
	}
}

/* Records kernel @f: its name, attributes and the parameters' layout. */
static void record_kernel(struct lower *l, LLVMValueRef f, const char *kname,
			  LLVMTypeRef *types, const unsigned long long *offsets,
			  const unsigned long long *sizes, unsigned long long block_size)
{
	LLVMValueRef access = kernel_md(l, f, "kernel_arg_access_qual");
	LLVMValueRef type = kernel_md(l, f, "kernel_arg_type");
	LLVMValueRef qual = kernel_md(l, f, "kernel_arg_type_qual");
	LLVMValueRef name = kernel_md(l, f, "kernel_arg_name");
	LLVMValueRef reqd = kernel_md(l, f, "reqd_work_group_size");
	LLVMValueRef hint = kernel_md(l, f, "work_group_size_hint");
	char vec_hint[32];
	unsigned int n = LLVMCountParams(f), i;

	type_hint_name(kernel_md(l, f, "vec_type_hint"), vec_hint, sizeof(vec_hint));
	meta_add(l, "kernel\t%s\t%u\t%llu\t%llu\t%llu\t%llu\t%llu\t%llu\t%llu\t%s\n",
		 kname, n, block_size, md_int(reqd, 0), md_int(reqd, 1), md_int(reqd, 2),
		 md_int(hint, 0), md_int(hint, 1), md_int(hint, 2), vec_hint);
	for (i = 0; i < n; i++)
		meta_add(l, "arg\t%s\t%s\t%s\t%llu\t%llu\t%s\t%s\n",
			 param_kind(f, i, types[i]), md_string(access, i)[0] ?
			 md_string(access, i) : "none", md_string(qual, i), offsets[i],
			 sizes[i], md_string(type, i), md_string(name, i));
}

/*
 * The metadata into a section of its own, not loaded (no SHF_ALLOC): the
 * runtime reads it with vaccel_module_get_section().  Module assembly, in
 * which every byte but the plain ones is an octal escape.
 */
static int emit_metadata(struct lower *l)
{
	static const char head[] = "\t.pushsection " VACCEL_CL_META_SECTION ",\"\",@progbits\n";
	static const char tail[] = "\n\t.popsection\n";
	size_t i, max = sizeof(head) + sizeof(tail) + 16 + l->meta_len * 4 + l->meta_len / 64 * 12;
	char *text = malloc(max), *p;

	if (!text || l->meta_failed) {
		free(text);
		lower_log(l, "error: out of memory\n");
		return -1;
	}
	p = text + sprintf(text, "%s", head);
	for (i = 0; i < l->meta_len; i++) {
		unsigned char c = (unsigned char)l->meta[i];

		if (!(i % 64))
			p += sprintf(p, "%s\t.ascii \"", i ? "\"\n" : "");
		if (c >= 0x20 && c < 0x7f && c != '"' && c != '\\')
			*p++ = (char)c;
		else
			p += sprintf(p, "\\%03o", c);
	}
	if (l->meta_len)
		*p++ = '"';
	p += sprintf(p, "%s", tail);
	LLVMAppendModuleInlineAsm(l->m, text, (size_t)(p - text));
	free(text);
	return 0;
}

/*
 * The kernel's string attributes ("target-features", "no-builtins", ...)
 * on its entry too: the inliner takes the kernel into its entry only when
 * they agree, and a kernel left as a call loads every parameter up front
 * and pays a call per work-item.
 */
static void copy_string_attributes(LLVMValueRef from, LLVMValueRef to)
{
	unsigned int n = LLVMGetAttributeCountAtIndex(from, LLVMAttributeFunctionIndex), i;
	LLVMAttributeRef *attrs;

	if (!n)
		return;
	attrs = calloc(n, sizeof(*attrs));
	if (!attrs)
		return;
	LLVMGetAttributesAtIndex(from, LLVMAttributeFunctionIndex, attrs);
	for (i = 0; i < n; i++)
		if (LLVMIsStringAttribute(attrs[i]))
			LLVMAddAttributeAtIndex(to, LLVMAttributeFunctionIndex, attrs[i]);
	free(attrs);
}

/*
 * Gives the entry of kernel @f a DISubprogram, at the kernel's line, and
 * its @call of the kernel that line, when the kernel has debug
 * information (vaccel-cc builds with -gline-tables-only).  The kernel is
 * then inlined into its entry without losing its line table, which names
 * a fault's source line: the inlined code keeps the kernel's lines, and
 * the symbolizer names the kernel as the innermost function.  The
 * entries are in a compile unit of their own: the C API cannot name the
 * kernel's.
 */
static void entry_debug_info(struct lower *l, LLVMValueRef f, LLVMValueRef entry,
			     LLVMValueRef call)
{
	static const char producer[] = "vaccel-cl-lower";
	LLVMMetadataRef sp = LLVMGetSubprogram(f), file, type, entry_sp;
	unsigned int line;
	const char *name;
	size_t len;

	if (!sp)
		return;
	file = LLVMDIScopeGetFile(sp);
	line = LLVMDISubprogramGetLine(sp);
	if (!l->dib) {
		l->dib = LLVMCreateDIBuilderDisallowUnresolved(l->m);
		LLVMDIBuilderCreateCompileUnit(l->dib, LLVMDWARFSourceLanguageOpenCL, file,
					       producer, sizeof(producer) - 1, true, "", 0, 0,
					       "", 0, LLVMDWARFEmissionLineTablesOnly, 0, false,
					       false, "", 0, "", 0);
	}
	name = LLVMGetValueName2(entry, &len);
	type = LLVMDIBuilderCreateSubroutineType(l->dib, file, NULL, 0, LLVMDIFlagZero);
	entry_sp = LLVMDIBuilderCreateFunction(l->dib, file, name, len, name, len, file, line,
					       type, false, true, line, LLVMDIFlagArtificial,
					       true);
	LLVMSetSubprogram(entry, entry_sp);
	LLVMInstructionSetDebugLoc(call, LLVMDIBuilderCreateDebugLocation(l->ctx, line, 0,
									  entry_sp, NULL));
}

/* The entry of kernel @f, and the symbol by which the loader finds it. */
static int lower_kernel(struct lower *l, LLVMValueRef f)
{
	LLVMTypeRef fty = LLVMGlobalGetValueType(f);
	LLVMTypeRef i8p = LLVMPointerType(LLVMInt8TypeInContext(l->ctx), 0);
	LLVMTypeRef void_type = LLVMVoidTypeInContext(l->ctx);
	LLVMTypeRef entry_type = LLVMFunctionType(void_type, &i8p, 1, false);
	unsigned int n = LLVMCountParams(f), i;
	unsigned long long offset = VACCEL_CL_HEADER_SIZE;
	LLVMValueRef entry, block, dynamic_local = NULL, alias, call;
	unsigned int byval = LLVMGetEnumAttributeKindForName("byval", 5);
	LLVMTypeRef *types;
	LLVMValueRef *args;
	unsigned long long *offsets, *sizes;
	char name[KERNEL_NAME_MAX + 32];
	const char *kname;
	size_t len;

	kname = LLVMGetValueName2(f, &len);
	if (len > KERNEL_NAME_MAX) {
		lower_log(l, "error: kernel name %.40s... is longer than %u characters\n",
			  kname, KERNEL_NAME_MAX);
		return -1;
	}
	if (!strncmp(kname, "__vaccel", 8)) {
		lower_log(l, "error: kernel %s: names starting with __vaccel are reserved\n",
			  kname);
		return -1;
	}
	types = calloc(n + 1, sizeof(*types));
	args = calloc(n + 1, sizeof(*args));
	offsets = calloc(n + 1, sizeof(*offsets));
	sizes = calloc(n + 1, sizeof(*sizes));
	if (!types || !args || !offsets || !sizes) {
		free(types);
		free(args);
		free(offsets);
		free(sizes);
		lower_log(l, "error: out of memory\n");
		return -1;
	}
	LLVMGetParamTypes(fty, types);

	snprintf(name, sizeof(name), VACCEL_CL_ENTRY_PREFIX "%s", kname);
	entry = LLVMAddFunction(l->m, name, entry_type);
	LLVMSetVisibility(entry, LLVMDefaultVisibility);
	/* Nothing unwinds on the device: no unwind table for the entry. */
	LLVMAddAttributeAtIndex(entry, LLVMAttributeFunctionIndex,
				LLVMCreateEnumAttribute(l->ctx,
							LLVMGetEnumAttributeKindForName("nounwind", 8),
							0));
	copy_string_attributes(f, entry);
	LLVMPositionBuilderAtEnd(l->b, LLVMAppendBasicBlockInContext(l->ctx, entry, ""));
	block = LLVMGetParam(entry, 0);

	for (i = 0; i < n; i++) {
		unsigned long long size, align;

		param_layout(l, f, i, types[i], &size, &align);
		offset = (offset + align - 1) / align * align;
		args[i] = build_param(l, f, i, types[i], block, offset, &dynamic_local);
		offsets[i] = offset;
		sizes[i] = size;
		offset += size;
	}
	record_kernel(l, f, kname, types, offsets, sizes, offset);
	call = LLVMBuildCall2(l->b, fty, f, args, n, "");
	for (i = 0; i < n; i++) {
		LLVMAttributeRef attr = LLVMGetEnumAttributeAtIndex(f, i + 1, byval);

		if (attr)
			LLVMAddCallSiteAttribute(call, i + 1, attr);
	}
	LLVMBuildRetVoid(l->b);

	snprintf(name, sizeof(name), "__vaccel_kernel_%s", kname);
	alias = LLVMAddAlias2(l->m, entry_type, 0, entry, name);
	LLVMSetVisibility(alias, LLVMDefaultVisibility);

	LLVMSetFunctionCallConv(f, LLVMCCallConv);
	entry_debug_info(l, f, entry, call);
	lower_calls(f);
	free(types);
	free(args);
	free(offsets);
	free(sizes);
	return 0;
}

/*
 * Keeps out of the program the part of the device library it does not
 * call: the library is large, and linking and optimising all of it would
 * cost most of a build.  The library's functions and globals that the
 * program declares stay external; every other becomes internal, and the
 * linker moves an internal value only when something it moves refers to
 * it, so it takes exactly what the program reaches.  No function body is
 * read here: the library may be loaded lazily, and only the functions
 * the linker moves are then ever read from its bitcode.
 */
static void lib_prune(LLVMModuleRef m, LLVMModuleRef lib)
{
	LLVMValueRef v, own;

	for (v = LLVMGetFirstFunction(lib); v; v = LLVMGetNextFunction(v)) {
		if (LLVMIsDeclaration(v))
			continue;
		own = LLVMGetNamedFunction(m, LLVMGetValueName(v));
		if (!own || !LLVMIsDeclaration(own))
			LLVMSetLinkage(v, LLVMInternalLinkage);
	}
	for (v = LLVMGetFirstGlobal(lib); v; v = LLVMGetNextGlobal(v)) {
		if (LLVMIsDeclaration(v))
			continue;
		own = LLVMGetNamedGlobal(m, LLVMGetValueName(v));
		if (!own || !LLVMIsDeclaration(own))
			LLVMSetLinkage(v, LLVMInternalLinkage);
	}
}

/* Whether @f is an entry (lower_kernel()), by its name. */
bool vaccel_cl_is_entry(LLVMValueRef f)
{
	return !strncmp(LLVMGetValueName(f), VACCEL_CL_ENTRY_PREFIX,
			strlen(VACCEL_CL_ENTRY_PREFIX));
}

/* After the link: what is not an entry or a local variable is internal. */
static void internalize(struct lower *l)
{
	LLVMValueRef f, g;

	for (f = LLVMGetFirstFunction(l->m); f; f = LLVMGetNextFunction(f)) {
		if (LLVMIsDeclaration(f) || vaccel_cl_is_entry(f))
			continue;
		LLVMSetLinkage(f, LLVMInternalLinkage);
	}
	for (g = LLVMGetFirstGlobal(l->m); g; g = LLVMGetNextGlobal(g)) {
		if (LLVMIsDeclaration(g) ||
		    LLVMGetPointerAddressSpace(LLVMTypeOf(g)) == AS_LOCAL)
			continue;
		LLVMSetLinkage(g, LLVMInternalLinkage);
	}
}

/*
 * Gives the device library's calls of VACCEL_CL_HEADER_FN their value,
 * once the optimiser has inlined what it would.  A call in an entry is
 * the entry's pointer to the block, which it has in a register already.
 * If any is left elsewhere (a function not inlined, a program built
 * without optimisation), the function reads tp, and every entry first
 * sets tp to its block: kernels use no thread-local storage, so tp is
 * free.  Nothing then reads tp before its entry has set it: the entry's
 * asm comes first and clobbers memory, and the reads are in the callees.
 */
static void resolve_header(struct lower *l)
{
	LLVMValueRef f = LLVMGetNamedFunction(l->m, VACCEL_CL_HEADER_FN), e, call, v;
	LLVMTypeRef i64 = LLVMInt64TypeInContext(l->ctx);
	LLVMTypeRef i8p = LLVMPointerType(LLVMInt8TypeInContext(l->ctx), 0);
	LLVMTypeRef void_type = LLVMVoidTypeInContext(l->ctx);
	LLVMTypeRef get_type = LLVMFunctionType(i64, NULL, 0, false);
	LLVMTypeRef set_type = LLVMFunctionType(void_type, &i8p, 1, false);
	LLVMUseRef use, next;
	bool tp = false;

	if (!f)
		return;
	for (use = LLVMGetFirstUse(f); use; use = next) {
		next = LLVMGetNextUse(use);
		call = LLVMGetUser(use);
		if (!LLVMIsACallInst(call) || LLVMGetCalledValue(call) != f) {
			tp = true;
			continue;
		}
		e = LLVMGetBasicBlockParent(LLVMGetInstructionParent(call));
		if (!vaccel_cl_is_entry(e)) {
			tp = true;
			continue;
		}
		LLVMPositionBuilderBefore(l->b, call);
		v = LLVMBuildPtrToInt(l->b, LLVMGetParam(e, 0), i64, "");
		LLVMReplaceAllUsesWith(call, v);
		LLVMInstructionEraseFromParent(call);
	}
	if (!tp) {
		if (!LLVMGetFirstUse(f))
			LLVMDeleteFunction(f);
		return;
	}
	/* The function reads tp; the entries set it first. */
	LLVMPositionBuilderAtEnd(l->b, LLVMAppendBasicBlockInContext(l->ctx, f, ""));
	v = LLVMBuildCall2(l->b, get_type,
			   LLVMGetInlineAsm(get_type, "mv $0, tp", 9, "=r", 2, false, false,
					    LLVMInlineAsmDialectATT, false), NULL, 0, "");
	LLVMBuildRet(l->b, v);
	LLVMSetLinkage(f, LLVMInternalLinkage);
	for (e = LLVMGetFirstFunction(l->m); e; e = LLVMGetNextFunction(e)) {
		LLVMValueRef block;

		if (LLVMIsDeclaration(e) || !vaccel_cl_is_entry(e))
			continue;
		LLVMPositionBuilderBefore(l->b, LLVMGetFirstInstruction(LLVMGetEntryBasicBlock(e)));
		block = LLVMGetParam(e, 0);
		LLVMBuildCall2(l->b, set_type,
			       LLVMGetInlineAsm(set_type, "mv tp, $0", 9, "r,~{memory}", 11,
						true, false, LLVMInlineAsmDialectATT, false),
			       &block, 1, "");
	}
}

static LLVMTargetMachineRef target_machine(struct lower *l)
{
	const char *triple = LLVMGetTarget(l->m);
	LLVMTargetRef target;
	char *msg = NULL;

	if (LLVMGetTargetFromTriple(triple, &target, &msg)) {
		lower_log(l, "error: target %s: %s\n", triple, msg ? msg : "unknown");
		LLVMDisposeMessage(msg);
		return NULL;
	}
	return LLVMCreateTargetMachine(target, triple, "generic-rv64", "+m,+a,+f,+d",
				       LLVMCodeGenLevelDefault, LLVMRelocPIC,
				       LLVMCodeModelMedium);
}

/**
 * vaccel_cl_lower() - turn clang's module of OpenCL C into one for vaccel
 * @m: the module, of target riscv64; changed in place
 * @lib: the device library's module, in @m's context, best loaded lazily
 *	(only what @m reaches is then read); linked into @m and destroyed,
 *	even on failure
 * @log: receives the messages, NUL-terminated; may be NULL
 * @log_size: bytes at @log
 *
 * Lowers the kernels and the local variables, links the library and
 * makes internal all but the entries and the local variables.  The module
 * is then whole but not optimised: vaccel_cl_optimize() finishes it, as a
 * whole or in the parts of vaccel_cl_partition() (split.c).  The RISC-V
 * target is registered here, once, before any part is optimised on a
 * thread of its own.
 *
 * Return: 0, or -1 with the reason in @log.
 */
int vaccel_cl_lower(LLVMModuleRef m, LLVMModuleRef lib, char *log,
		    size_t log_size)
{
	struct lower l = {
		.ctx = LLVMGetModuleContext(m),
		.m = m,
		.dl = LLVMGetModuleDataLayout(m),
		.log = log,
		.log_size = log_size,
	};
	LLVMValueRef f, next;
	unsigned int kernels = 0;
	int ret = -1;

	if (log && log_size)
		log[0] = '\0';
	LLVMInitializeRISCVTargetInfo();
	LLVMInitializeRISCVTarget();
	LLVMInitializeRISCVTargetMC();
	if (strncmp(LLVMGetTarget(m), "riscv64", 7)) {
		lower_log(&l, "error: the module is for %s, not for the device (riscv64)\n",
			  LLVMGetTarget(m));
		LLVMDisposeModule(lib);
		return -1;
	}
	l.b = LLVMCreateBuilderInContext(l.ctx);
	meta_add(&l, "%s\n", VACCEL_CL_META_MAGIC);
	/* A program that calls printf needs a printf buffer at each launch. */
	f = LLVMGetNamedFunction(m, "printf");
	meta_add(&l, "program\t%d\n", f && LLVMGetFirstUse(f) ? 1 : 0);
	/* The library's own way to the header is no program's to define. */
	f = LLVMGetNamedFunction(m, VACCEL_CL_HEADER_FN);
	if (f && !LLVMIsDeclaration(f)) {
		lower_log(&l, "error: %s is reserved for the device library\n",
			  VACCEL_CL_HEADER_FN);
		goto out;
	}
	if (lower_locals(&l))
		goto out;
	for (f = LLVMGetFirstFunction(m); f; f = next) {
		next = LLVMGetNextFunction(f);
		if (LLVMIsDeclaration(f) || !is_kernel(f))
			continue;
		if (lower_kernel(&l, f))
			goto out;
		kernels++;
	}
	if (!kernels) {
		lower_log(&l, "error: the program has no kernel\n");
		goto out;
	}
	if (l.dib)
		LLVMDIBuilderFinalize(l.dib);
	if (emit_metadata(&l))
		goto out;
	lib_prune(m, lib);
	ret = LLVMLinkModules2(m, lib) ? -1 : 0;
	lib = NULL;
	if (ret) {
		lower_log(&l, "error: the device library does not link with the program\n");
		goto out;
	}
	internalize(&l);
out:
	if (lib)
		LLVMDisposeModule(lib);
	if (l.dib)
		LLVMDisposeDIBuilder(l.dib);
	LLVMDisposeBuilder(l.b);
	free(l.meta);
	return ret;
}

/**
 * vaccel_cl_optimize() - optimise a lowered module and finish it
 * @m: a module that vaccel_cl_lower() made, or a part of one
 *	(vaccel_cl_keep_part()); changed in place
 * @log: receives the messages, NUL-terminated; may be NULL
 * @log_size: bytes at @log
 *
 * Runs the ``default<O2>`` pipeline, which inlines the builtins into the
 * kernels, then resolves the library's way to the header and verifies the
 * result.  Modules of different contexts may be optimised at the same
 * time, on threads of their own.
 *
 * Return: 0, or -1 with the reason in @log.
 */
int vaccel_cl_optimize(LLVMModuleRef m, char *log, size_t log_size)
{
	struct lower l = {
		.ctx = LLVMGetModuleContext(m),
		.m = m,
		.log = log,
		.log_size = log_size,
	};
	LLVMPassBuilderOptionsRef options;
	LLVMTargetMachineRef tm;
	LLVMErrorRef err;
	char *msg = NULL;
	int ret = -1;

	if (log && log_size)
		log[0] = '\0';
	tm = target_machine(&l);
	if (!tm)
		return -1;
	l.b = LLVMCreateBuilderInContext(l.ctx);
	options = LLVMCreatePassBuilderOptions();
	err = LLVMRunPasses(m, "default<O2>", tm, options);
	LLVMDisposePassBuilderOptions(options);
	LLVMDisposeTargetMachine(tm);
	if (err) {
		msg = LLVMGetErrorMessage(err);
		lower_log(&l, "error: optimisation: %s\n", msg);
		LLVMDisposeErrorMessage(msg);
		msg = NULL;
		goto out;
	}
	resolve_header(&l);
	if (LLVMVerifyModule(m, LLVMReturnStatusAction, &msg)) {
		lower_log(&l, "error: the lowered module is invalid: %s\n", msg);
		goto out;
	}
	ret = 0;
out:
	LLVMDisposeMessage(msg);
	LLVMDisposeBuilder(l.b);
	return ret;
}
