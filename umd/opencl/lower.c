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
 *   the symbol ``__vaccel_kernel_<name>`` names it for the loader.  The
 *   entry points the work-item's ``tp`` register at the argument block,
 *   where the device library finds the hidden header.  It then loads each
 *   parameter from the block and calls the kernel.
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
 * Then the device library (bitcode of the same clang) is linked in,
 * everything but the entries and the local variables becomes internal,
 * and the ``default<O2>`` pipeline inlines the builtins into the kernels:
 * get_global_id() is a CSR read and an add.  The result goes to vaccel-cc
 * for codegen and linking, as a kernel written in C does.
 */

#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <llvm-c/Analysis.h>
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
};

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
	LLVMValueRef g, next;
	unsigned int n = 0;

	for (g = LLVMGetFirstGlobal(l->m); g; g = next) {
		LLVMTypeRef type = LLVMGlobalGetValueType(g);
		char name[KERNEL_NAME_MAX + 64];
		LLVMValueRef local;

		next = LLVMGetNextGlobal(g);
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

/* The entry of kernel @f, and the symbol by which the loader finds it. */
static int lower_kernel(struct lower *l, LLVMValueRef f)
{
	LLVMTypeRef fty = LLVMGlobalGetValueType(f);
	LLVMTypeRef i8p = LLVMPointerType(LLVMInt8TypeInContext(l->ctx), 0);
	LLVMTypeRef void_type = LLVMVoidTypeInContext(l->ctx);
	LLVMTypeRef entry_type = LLVMFunctionType(void_type, &i8p, 1, false);
	LLVMTypeRef set_tp_type = LLVMFunctionType(void_type, &i8p, 1, false);
	unsigned int n = LLVMCountParams(f), i;
	unsigned long long offset = VACCEL_CL_HEADER_SIZE;
	LLVMValueRef entry, block, set_tp, dynamic_local = NULL, alias, call;
	unsigned int byval = LLVMGetEnumAttributeKindForName("byval", 5);
	LLVMTypeRef *types;
	LLVMValueRef *args;
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
	if (!types || !args) {
		free(types);
		free(args);
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
	LLVMPositionBuilderAtEnd(l->b, LLVMAppendBasicBlockInContext(l->ctx, entry, ""));
	block = LLVMGetParam(entry, 0);

	/* The device library finds the header through tp. */
	set_tp = LLVMGetInlineAsm(set_tp_type, "mv tp, $0", 9, "r,~{memory}", 11,
				  true, false, LLVMInlineAsmDialectATT, false);
	LLVMBuildCall2(l->b, set_tp_type, set_tp, &block, 1, "");

	for (i = 0; i < n; i++) {
		unsigned long long size, align;

		param_layout(l, f, i, types[i], &size, &align);
		offset = (offset + align - 1) / align * align;
		args[i] = build_param(l, f, i, types[i], block, offset, &dynamic_local);
		offset += size;
	}
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
	lower_calls(f);
	free(types);
	free(args);
	return 0;
}

/* After the link: what is not an entry or a local variable is internal. */
static void internalize(struct lower *l)
{
	LLVMValueRef f, g;

	for (f = LLVMGetFirstFunction(l->m); f; f = LLVMGetNextFunction(f)) {
		if (LLVMIsDeclaration(f) ||
		    !strncmp(LLVMGetValueName(f), VACCEL_CL_ENTRY_PREFIX,
			     strlen(VACCEL_CL_ENTRY_PREFIX)))
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

static LLVMTargetMachineRef target_machine(struct lower *l)
{
	const char *triple = LLVMGetTarget(l->m);
	LLVMTargetRef target;
	char *msg = NULL;

	LLVMInitializeRISCVTargetInfo();
	LLVMInitializeRISCVTarget();
	LLVMInitializeRISCVTargetMC();
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
 * @lib: the device library's module, in @m's context; linked into @m and
 *	destroyed, even on failure
 * @log: receives the messages, NUL-terminated; may be NULL
 * @log_size: bytes at @log
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
	LLVMPassBuilderOptionsRef options;
	LLVMTargetMachineRef tm;
	LLVMErrorRef err;
	LLVMValueRef f, next;
	unsigned int kernels = 0;
	char *msg = NULL;
	int ret = -1;

	if (log && log_size)
		log[0] = '\0';
	if (strncmp(LLVMGetTarget(m), "riscv64", 7)) {
		lower_log(&l, "error: the module is for %s, not for the device (riscv64)\n",
			  LLVMGetTarget(m));
		LLVMDisposeModule(lib);
		return -1;
	}
	l.b = LLVMCreateBuilderInContext(l.ctx);
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
	ret = LLVMLinkModules2(m, lib) ? -1 : 0;
	lib = NULL;
	if (ret) {
		lower_log(&l, "error: the device library does not link with the program\n");
		goto out;
	}
	internalize(&l);
	ret = -1;
	tm = target_machine(&l);
	if (!tm)
		goto out;
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
	if (LLVMVerifyModule(m, LLVMReturnStatusAction, &msg)) {
		lower_log(&l, "error: the lowered module is invalid: %s\n", msg);
		goto out;
	}
	ret = 0;
out:
	LLVMDisposeMessage(msg);
	if (lib)
		LLVMDisposeModule(lib);
	LLVMDisposeBuilder(l.b);
	return ret;
}
