/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Copyright 2026 The vaccel authors
 */
#ifndef __VACCEL_RV_H__
#define __VACCEL_RV_H__

#include <linux/types.h>

/*
 * The RV64G interpreter of the compute engines (see the DOC comment of
 * vaccel_rv.c).  Shared by the kernel module and the user-space tests:
 * includes nothing but <linux/types.h>.
 */

/* The interpreter's page: the granule of translate() and of its cache. */
#define VACCEL_RV_PAGE_SHIFT	12
#define VACCEL_RV_PAGE_SIZE	0x1000ull

/* Entries of each of the three micro-TLBs (a power of two). */
#define VACCEL_RV_TLB_ENTRIES	32

/* The CSRs the interpreter knows. */
#define VACCEL_RV_CSR_FFLAGS	0x001
#define VACCEL_RV_CSR_FRM	0x002
#define VACCEL_RV_CSR_FCSR	0x003
#define VACCEL_RV_CSR_CYCLE	0xc00
#define VACCEL_RV_CSR_TIME	0xc01
#define VACCEL_RV_CSR_INSTRET	0xc02
#define VACCEL_RV_CSR_CUSTOM_FIRST	0xcc0	/* read-only, the environment's */
#define VACCEL_RV_CSR_CUSTOM_LAST	0xcff

/* The workgroup barrier: this exact custom-0 word. */
#define VACCEL_RV_INSN_BARRIER	0x0000000bu

/* Kinds of access, as translate() is asked for them (one at a time). */
#define VACCEL_RV_READ		1
#define VACCEL_RV_WRITE		2
#define VACCEL_RV_EXEC		4

/**
 * struct vaccel_rv_hart - the architectural state of one work-item
 * @x: the integer registers; x[0] always reads zero (the interpreter
 *	ignores what is stored there)
 * @f: the floating-point registers; single-precision values are NaN-boxed
 * @pc: the address of the next instruction
 * @fcsr: frm << 5 | fflags; bits above 7 are always zero
 * @instret: instructions retired, which the cycle and instret CSRs read
 * @resv_va: the address LR reserved
 * @resv_val: the value LR loaded there (zero-extended)
 * @resv_size: 0 when there is no reservation, else 4 or 8 (LR.W or LR.D)
 *
 * Plain data: saving and restoring it verbatim preempts and resumes the
 * work-item at an instruction boundary.  A new work-item starts zeroed but
 * for pc and the registers of the ABI.
 */
struct vaccel_rv_hart {
	u64 x[32];
	u64 f[32];
	u64 pc;
	u32 fcsr;
	u64 instret;
	u64 resv_va;
	u64 resv_val;
	u32 resv_size;
};

/**
 * enum vaccel_rv_stop - why vaccel_rv_run() returned
 * @VACCEL_RV_BUDGET: it executed the whole budget
 * @VACCEL_RV_BARRIER: it executed a barrier; pc is past it
 * @VACCEL_RV_EXIT: pc reached the exit address (the work-item returned)
 * @VACCEL_RV_FAULT: an instruction faulted; &struct vaccel_rv_fault says
 *	why, and the hart is as it was before that instruction
 */
enum vaccel_rv_stop {
	VACCEL_RV_BUDGET,
	VACCEL_RV_BARRIER,
	VACCEL_RV_EXIT,
	VACCEL_RV_FAULT,
};

/**
 * enum vaccel_rv_cause - what faulted
 * @VACCEL_RV_CAUSE_ILLEGAL_INSN: an unknown or reserved encoding, an
 *	invalid rounding mode (@insn is the instruction)
 * @VACCEL_RV_CAUSE_COMPRESSED: a 16-bit instruction (low bits not 11)
 * @VACCEL_RV_CAUSE_MISALIGNED_FETCH: a jump or branch to an address that is
 *	not a multiple of 4 (@va), reported on the jump; or a pc not a
 *	multiple of 4 on entry
 * @VACCEL_RV_CAUSE_MISALIGNED_ATOMIC: LR, SC or an AMO at an address (@va)
 *	not a multiple of its size
 * @VACCEL_RV_CAUSE_FETCH: translate() refused to execute at @va (@reason)
 * @VACCEL_RV_CAUSE_LOAD: translate() refused a load or LR at @va (@reason)
 * @VACCEL_RV_CAUSE_STORE: translate() refused a store, SC or AMO at @va
 *	(@reason); an AMO needs both read and write access
 * @VACCEL_RV_CAUSE_CSR: a CSR instruction named an unknown CSR (or one the
 *	environment does not answer), or wrote a read-only one; an illegal
 *	instruction for the specification (@insn)
 * @VACCEL_RV_CAUSE_ECALL: an ECALL
 * @VACCEL_RV_CAUSE_BREAKPOINT: an EBREAK
 */
enum vaccel_rv_cause {
	VACCEL_RV_CAUSE_ILLEGAL_INSN = 1,
	VACCEL_RV_CAUSE_COMPRESSED,
	VACCEL_RV_CAUSE_MISALIGNED_FETCH,
	VACCEL_RV_CAUSE_MISALIGNED_ATOMIC,
	VACCEL_RV_CAUSE_FETCH,
	VACCEL_RV_CAUSE_LOAD,
	VACCEL_RV_CAUSE_STORE,
	VACCEL_RV_CAUSE_CSR,
	VACCEL_RV_CAUSE_ECALL,
	VACCEL_RV_CAUSE_BREAKPOINT,
};

/**
 * struct vaccel_rv_fault - a fault, as vaccel_rv_run() reports it
 * @cause: &enum vaccel_rv_cause
 * @reason: for FETCH, LOAD and STORE, what translate() set; else 0
 * @pc: the address of the faulting instruction (the hart's pc)
 * @va: the address that faulted (FETCH, LOAD, STORE, MISALIGNED_*): for an
 *	access crossing a page, that of the page refused; else 0
 * @insn: the instruction word, when it could be fetched; else 0
 */
struct vaccel_rv_fault {
	u32 cause;
	u32 reason;
	u64 pc;
	u64 va;
	u32 insn;
};

/**
 * struct vaccel_rv_ops - the environment of the interpreter
 * @translate: the host address of the 4 KiB page that holds @va, where the
 *	work-item may access it as @access says (one of %VACCEL_RV_READ,
 *	%VACCEL_RV_WRITE, %VACCEL_RV_EXEC), with *@mem_class set to the
 *	class of memory it is in (below %VACCEL_RV_MEM_CLASSES; 0 if left),
 *	whose counter of &struct vaccel_rv_cpu.bytes its loads and stores
 *	add to; or NULL, with *@reason set to what the fault reports.  The
 *	page must stay valid until vaccel_rv_run() returns.  Called from
 *	vaccel_rv_run() only.
 * @csr_read: the value of CSR @csr (%VACCEL_RV_CSR_TIME, or one of
 *	%VACCEL_RV_CSR_CUSTOM_FIRST to %VACCEL_RV_CSR_CUSTOM_LAST) for
 *	@hart, whose pc is that of the CSR instruction; 0, or nonzero for a
 *	CSR the environment does not know (the instruction then faults).
 *	May be NULL: every such CSR faults.
 */
struct vaccel_rv_ops {
	u8 *(*translate)(void *env, u64 va, unsigned int access, u32 *reason,
			 unsigned int *mem_class);
	int (*csr_read)(void *env, const struct vaccel_rv_hart *hart, u32 csr,
			u64 *val);
};

/* Classes of memory the environment sorts pages into, for the counters. */
#define VACCEL_RV_MEM_CLASSES	4

/**
 * struct vaccel_rv_tlb_entry - one cached translation
 * @tag: the page's address ORed with the cache's generation; an entry of
 *	another generation never matches
 * @page: the host address of the page
 * @count: the counter of &vaccel_rv_cpu.bytes that accesses through the
 *	entry add their bytes to
 */
struct vaccel_rv_tlb_entry {
	u64 tag;
	u8 *page;
	u64 *count;
};

/* The instruction slots of a page, and the decoded pages of a cpu. */
#define VACCEL_RV_PAGE_INSNS	(1u << (VACCEL_RV_PAGE_SHIFT - 2))
#define VACCEL_RV_CODE_PAGES	8

/**
 * struct vaccel_rv_op - a decoded instruction, private to vaccel_rv.c
 * @handler: what executes it: the index of its label in vaccel_rv_run()
 * @rd: destination register
 * @rs1: first source register
 * @rs2: second source register
 * @imm: the immediate, sign-extended (or a shift amount)
 * @rs3: third source register (fused multiply-add)
 * @rm: the rounding mode field
 * @neg: fused multiply-add: bit 0 negates the product, bit 1 the addend
 * @single: the handler of the first instruction alone, for a pair or a
 *	triple executed as one; of the instruction, for one that charges the
 *	budget itself; else @handler
 * @imm2: for such a pair, the immediate of the second
 * @block: the instructions from this one to the end of its basic block,
 *	charged to the budget at once; 0 for one that charges itself
 * @xrd: for a triple, the destination of the second (an ADDI)
 * @xrs1: its source
 * @ximm: its immediate
 * @pad: zero
 *
 * 24 bytes.
 */
struct vaccel_rv_op {
	u8 handler;
	u8 rd;
	u8 rs1;
	u8 rs2;
	s32 imm;
	u8 rs3;
	u8 rm;
	u8 neg;
	u8 single;
	s32 imm2;
	u16 block;
	u8 xrd;
	u8 xrs1;
	s16 ximm;
	u16 pad;
};

/**
 * struct vaccel_rv_code - a code page decoded, private to vaccel_rv.c
 * @va: the page's virtual address; an address not page-aligned when free
 * @sync: the &vaccel_rv_cpu.sync at which @words last matched memory
 * @words: the page's words, which @ops were decoded from
 * @ops: one decoded instruction per word, decoded lazily, and one more
 *	that leaves the page
 */
struct vaccel_rv_code {
	u64 va;
	u64 sync;
	u32 words[VACCEL_RV_PAGE_INSNS];
	struct vaccel_rv_op ops[VACCEL_RV_PAGE_INSNS + 1];
};

/**
 * struct vaccel_rv_patch - a decoded instruction patched for a while
 * @op: the instruction
 * @handler: its own @op->handler, which the patch replaced
 */
struct vaccel_rv_patch {
	struct vaccel_rv_op *op;
	u8 handler;
};

/**
 * struct vaccel_rv_cpu - the interpreter of one engine
 * @ops: the environment's callbacks
 * @env: their first argument
 * @exit_pc: reaching this pc ends the work-item (%VACCEL_RV_EXIT)
 * @keep_tlb: vaccel_rv_run() keeps the micro-TLBs' entries from one call
 *	to the next, until vaccel_rv_cpu_flush_tlb(); else each call starts
 *	with none
 * @gen: the generation of the micro-TLBs' entries, 1 to 4095
 * @tlb: the micro-TLBs, for reads, writes and fetches, direct-mapped by
 *	page number; their entries live for one vaccel_rv_run(), or with
 *	@keep_tlb until vaccel_rv_cpu_flush_tlb()
 * @sync: counts the calls of vaccel_rv_cpu_sync()
 * @victim: the next of @code to reuse
 * @npatch: the entries of @patch in use
 * @patch: instructions patched to stop a run inside a basic block
 * @code: the decoded code pages; they live from one vaccel_rv_run() to
 *	the next (see vaccel_rv_cpu_sync())
 * @bytes: bytes loaded ([class][0]) and stored ([class][1]) in each class
 *	of memory that translate() named, LR, SC and AMOs included,
 *	instruction fetches not; the environment reads and clears them
 *	between two calls of vaccel_rv_run()
 *
 * Use it for one hart at a time; it keeps nothing of a hart between two
 * calls of vaccel_rv_run().  It is about 120 KiB: allocate it (or what
 * embeds it) with kvmalloc() or vmalloc() rather than kmalloc().
 */
struct vaccel_rv_cpu {
	const struct vaccel_rv_ops *ops;
	void *env;
	u64 exit_pc;
	bool keep_tlb;
	u64 gen;
	struct vaccel_rv_tlb_entry tlb[3][VACCEL_RV_TLB_ENTRIES];
	u64 sync;
	unsigned int victim;
	unsigned int npatch;
	struct vaccel_rv_patch patch[3];
	struct vaccel_rv_code code[VACCEL_RV_CODE_PAGES];
	u64 bytes[VACCEL_RV_MEM_CLASSES][2];
};

void vaccel_rv_cpu_init(struct vaccel_rv_cpu *cpu,
			const struct vaccel_rv_ops *ops, void *env, u64 exit_pc);
enum vaccel_rv_stop vaccel_rv_run(struct vaccel_rv_cpu *cpu,
				  struct vaccel_rv_hart *hart, u64 budget,
				  u64 *executed, struct vaccel_rv_fault *fault);

/**
 * vaccel_rv_cpu_sync() - invalidate the instruction cache of an interpreter
 * @cpu: the interpreter
 *
 * Code pages stay decoded from one vaccel_rv_run() to the next.  After
 * this call, each is compared with memory when pc next enters it, and
 * decoded again if a word changed: call it whenever code may have changed
 * other than by the hart's own stores, or be another at the same address:
 * before running a dispatch (at its start and when resuming it, as it may
 * be another address space's), and after an unmap.  The hart's own
 * stores, and FENCE.I, need no call.
 *
 * Context: Any; not during vaccel_rv_run() on @cpu.
 */
void vaccel_rv_cpu_sync(struct vaccel_rv_cpu *cpu);

/**
 * vaccel_rv_cpu_flush_tlb() - forget every translation of the micro-TLBs
 * @cpu: the interpreter
 *
 * With @cpu->keep_tlb set, the caller keeps the pages translate() returned
 * valid across calls of vaccel_rv_run() (an engine holds its TLB locked
 * for a slice of many work-items), and calls this whenever they may stop
 * being so: a work-item then starts without translating again what the
 * one before it did.  Costs an increment.
 *
 * Context: Any; not during vaccel_rv_run() on @cpu.
 */
void vaccel_rv_cpu_flush_tlb(struct vaccel_rv_cpu *cpu);

/*
 * The reference interpreter of the KUnit tests: the same instructions,
 * but decoded afresh and dispatched by a switch one at a time, without
 * decoded pages nor pairs nor basic blocks.  Built only with them.
 */
enum vaccel_rv_stop vaccel_rv_ref_run(struct vaccel_rv_cpu *cpu,
				      struct vaccel_rv_hart *hart, u64 budget,
				      u64 *executed,
				      struct vaccel_rv_fault *fault);

#endif /* __VACCEL_RV_H__ */
