// SPDX-License-Identifier: GPL-2.0-only
/*
 * Copyright 2026 The vaccel authors
 */

/**
 * DOC: RV64 interpreter
 *
 * The compute engines run kernels compiled for RV64G (RV64IMAFD with
 * Zicsr, no compressed instructions) by interpreting them, one work-item
 * (one *hart*) at a time, exactly as the RISC-V unprivileged specification
 * defines user-mode execution.
 *
 * State.  &struct vaccel_rv_hart is the whole architectural state of a
 * work-item: the 32 integer and 32 floating-point registers, pc, fcsr, the
 * retired-instruction count and the LR reservation.  It is plain data that
 * the engine saves and restores verbatim to preempt and resume a work-item.
 * &struct vaccel_rv_cpu is the engine's side: its environment (the
 * callbacks that translate addresses and answer the custom CSRs, and the
 * exit address), its micro-TLBs and its decoded code pages.  It keeps
 * nothing of a hart from one call of vaccel_rv_run() to the next.
 *
 * Decoded pages.  Each instruction is decoded once into &struct
 * vaccel_rv_op (the address of the code that executes it, its registers,
 * its sign-extended immediate), in the decoded form of its code page:
 * &struct vaccel_rv_code, one op per word of the page plus one that leaves
 * it, and a copy of the page's words.  A few pages are embedded in the cpu
 * (vaccel_rv_cpu_init() allocates nothing), keyed by virtual address and
 * reused in turn.  When pc enters a page, the page is translated for
 * execution as any fetch (an unmapped page faults FETCH) and its decoded
 * form looked up, or made by copying the words; ops are decoded lazily, a
 * basic block at a time, from a "not decoded yet" handler.  Within a
 * page, execution never reads the instruction words again.
 *
 * Invalidation.  A decoded form is a function of the words (and of the
 * page's address and the exit address), so it is right as long as the
 * words are unchanged; RISC-V says when a hart must see new code:
 *
 * - Its own stores: a store, SC or AMO (also a misaligned store crossing
 *   into the page) to a decoded page forgets its decoding before the next
 *   fetch.  This costs the fast path nothing: a page is never both decoded
 *   and in the write micro-TLB.  Entering or decoding a page drops it from
 *   the write micro-TLB, and filling the write micro-TLB with a page (the
 *   slow path of a store) forgets its decoding: every op becomes "not
 *   decoded yet", so that a run executing from that very page, even in the
 *   middle of a basic block, refunds the rest of the block and decodes the
 *   new words from memory at the next instruction.
 * - FENCE.I forgets every decoded page: it is what the specification
 *   asks a hart to execute before running code it wrote through another
 *   mapping, or that others wrote.
 * - vaccel_rv_cpu_sync(), which the engine calls at every entry into a
 *   dispatch (it may be another address space's) and after an unmap,
 *   makes each page compare its copy of the words with memory the next
 *   time pc enters it, and decode again if they differ.  Decoded code thus
 *   survives launches of the same kernel, while a write by the CPU between
 *   launches, a remap to other content or another context's code at the
 *   same address is seen.
 *
 * Threaded dispatch.  Each handler is a label in vaccel_rv_run() and each
 * op holds the index of its handler's in a table of their addresses: a
 * handler ends with a jump through the next op's entry
 * (``goto *labels[op->handler]``), as the kernel's BPF interpreter does, so
 * that each has a jump of its own (and a prediction of its own on
 * hardware that predicts indirect jumps).  The table is annotated as a
 * jump table, as BPF's is, for objtool; under retpolines the jump goes
 * through the thunk.  GCC would merge the handlers' jumps into a few
 * shared ones; the Makefile keeps one per handler (-fno-gcse, and a
 * larger max-goto-duplication-insns).  Ops keep indexes rather than
 * addresses so that they mean the same in every build and call.
 * Reserved encodings decode to the illegal-instruction handler, integer
 * instructions without a destination to a no-op, and loads and jumps
 * without one to handlers that write no register; x0 is zeroed again
 * after the few rare handlers that may write it otherwise.
 *
 * Basic blocks and the budget.  Decoding gives each op the count of
 * instructions from it to the end of its basic block: up to and including
 * a branch or jump, and stopping before the end of the page, the exit
 * address and the instructions that must run alone, which charge the
 * budget themselves: CSR instructions (the counters read the exact
 * instruction count), the barrier, ECALL, EBREAK, FENCE.I and illegal
 * encodings.  Entering a block (after a jump, or the instruction before
 * one of those) charges the whole block when the budget covers it; the
 * ops then go from one to the next with no check at all.  A fault in the
 * middle refunds the instructions after the faulting one, up to the end
 * of the charge, so the count, instret and pc are those of one
 * instruction at a time.  When the budget ends inside a block, the
 * instruction where it ends is patched, for this run only, to stop there
 * (and a pair or a triple that would cross that point to run its first
 * instruction alone), so that stopping at any budget and resuming gives
 * the same results, bit for bit, as running without it.
 *
 * Pairs and triples.  Dispatch is still much of an instruction's cost, so
 * a few sequences that inner loops are made of decode to one handler that
 * executes them all, when they are in one basic block: an ADDI followed by
 * a conditional branch (a loop latch), two ADDIs and a branch (a latch
 * that also steps two pointers), an ADD followed by a load (LW, LD, FLW,
 * FLD) from the address it computed (array indexing), a MUL (MULW)
 * followed by an ADD (ADDW) of its product and an FMUL followed by an FADD
 * of the same format (multiply-accumulate).  The following instructions
 * keep their own ops, for jumps to them.  A load of a pair that faults, or
 * an FADD with an invalid dynamic rounding mode, does so after the first
 * instruction retired, with pc at the faulting one, as if they had run one
 * at a time.
 *
 * The reference.  Built with VACCEL_RV_REFERENCE (as the KUnit suite
 * does), this file gives vaccel_rv_ref_run() instead: the same handlers,
 * as the cases of a switch, with each instruction fetched, decoded and
 * charged afresh, without decoded pages, blocks or pairs.  The suite runs
 * generated programs on both.
 *
 * Floating-point arithmetic is the integer-only soft-float of
 * vaccel_softfloat.c: the host's FPU is never used.  The handlers call it
 * out of line.  Two other shapes were measured slower in the dev VM:
 * its fast paths inlined into the handlers (GCC then spills the loop's
 * state around them), and stretches of floating-point instructions run by
 * a function of their own with a switch (a chain of compares costs what
 * the jumps it saves do).  Single-precision
 * values are NaN-boxed in the 64-bit f registers, and an operand that is
 * not reads as the canonical NaN.  The custom-0 word 0x0000000b is the
 * workgroup barrier; every other custom encoding is illegal.
 *
 * Micro-TLB.  Loads, stores and fetches each have a small direct-mapped
 * cache of host page addresses, tagged with the page's address.  A hit is a
 * compare in line, with no call; a miss calls the environment's translate()
 * and fills the entry.  The entries are valid during one call of
 * vaccel_rv_run(), during which the caller keeps the translations valid;
 * or, if the caller sets keep_tlb, until it calls
 * vaccel_rv_cpu_flush_tlb() (the engine does at each slice, for which it
 * holds its TLB's lock, so that the work-items of a slice share them).
 * Each flush starts a new generation, which a tag carries in its low bits,
 * so that forgetting every entry costs nothing.  An access that stays in
 * one page reads or writes the host page directly; one that crosses a
 * page (misaligned accesses are supported) translates both pages first.
 * translate() also names the class of memory of each page (the engine's
 * own device memory, system memory, a peer's), and every load and store
 * adds its bytes to the counter of that class, through the entry: one
 * more addition per access, and no branch.
 *
 * Atomics.  Engines and the CPU share memory, so the A extension uses the
 * host's atomic operations on the host page: AMOSWAP is xchg(), the other
 * AMOs are cmpxchg() loops, both fully ordered, so aq and rl need nothing
 * more.  LR loads and records the address and the value; SC is a
 * compare-and-exchange against that value, which succeeds if memory still
 * holds it.  Such an SC may succeed after another hart wrote the same value
 * back, and fails whenever the value changed: both are allowed, as the
 * specification lets SC fail spuriously and cannot tell the difference.
 * FENCE is a full host barrier.
 *
 * Faults are precise.  An instruction checks its encoding, its rounding
 * mode, its alignment and every page it touches before it writes anything:
 * when it faults, the hart is exactly as before it, with pc at it, and a
 * store that faults (also across two pages) wrote nothing.  The fault
 * reports the cause, the instruction, and the address and reason of a
 * refused access.
 *
 * The budget bounds the instructions one call executes, so that the engine
 * regains control regularly, to drop its lock, check for preemption and
 * reschedule (see basic blocks above).  A call also returns at a barrier
 * (pc past it), when pc reaches the exit address (the work-item returned),
 * and at a fault.  Reaching the exit address is noticed when pc enters
 * another page, or, if the exit address is in an executable page, by the
 * op of its slot, which ends the run.
 */

#include <linux/atomic.h>
#include <linux/compiler.h>
#include <linux/string.h>
#include <linux/types.h>
#include <linux/unaligned.h>

#include "vaccel_rv.h"
#include "vaccel_softfloat.h"

#if __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "the RV64 interpreter needs a little-endian host"
#endif

#define RV_PAGE_OFFSET	(VACCEL_RV_PAGE_SIZE - 1)
#define RV_PAGE_MASK	(~RV_PAGE_OFFSET)
#define RV_GEN_MAX	RV_PAGE_OFFSET
#define RV_NO_PAGE	1ull	/* the va of a free struct vaccel_rv_code */

/* The micro-TLBs of struct vaccel_rv_cpu. */
enum {
	RV_TLB_READ,
	RV_TLB_WRITE,
	RV_TLB_EXEC,
};

#define RV_BOX		0xffffffff00000000ull
#define RV_SIGN32	0x80000000u
#define RV_SIGN64	0x8000000000000000ull

/* Major opcodes (the low 7 bits). */
enum {
	RV_OP_LOAD = 0x03,
	RV_OP_LOAD_FP = 0x07,
	RV_OP_CUSTOM_0 = 0x0b,
	RV_OP_MISC_MEM = 0x0f,
	RV_OP_IMM = 0x13,
	RV_OP_AUIPC = 0x17,
	RV_OP_IMM_32 = 0x1b,
	RV_OP_STORE = 0x23,
	RV_OP_STORE_FP = 0x27,
	RV_OP_AMO = 0x2f,
	RV_OP_OP = 0x33,
	RV_OP_LUI = 0x37,
	RV_OP_OP_32 = 0x3b,
	RV_OP_MADD = 0x43,
	RV_OP_MSUB = 0x47,
	RV_OP_NMSUB = 0x4b,
	RV_OP_NMADD = 0x4f,
	RV_OP_FP = 0x53,
	RV_OP_BRANCH = 0x63,
	RV_OP_JALR = 0x67,
	RV_OP_JAL = 0x6f,
	RV_OP_SYSTEM = 0x73,
};

/* AMO funct5. */
enum {
	RV_AMO_ADD = 0x00,
	RV_AMO_SWAP = 0x01,
	RV_AMO_LR = 0x02,
	RV_AMO_SC = 0x03,
	RV_AMO_XOR = 0x04,
	RV_AMO_OR = 0x08,
	RV_AMO_AND = 0x0c,
	RV_AMO_MIN = 0x10,
	RV_AMO_MAX = 0x14,
	RV_AMO_MINU = 0x18,
	RV_AMO_MAXU = 0x1c,
};

/* OP-FP funct5. */
enum {
	RV_FP_ADD = 0x00,
	RV_FP_SUB = 0x01,
	RV_FP_MUL = 0x02,
	RV_FP_DIV = 0x03,
	RV_FP_SGNJ = 0x04,
	RV_FP_MINMAX = 0x05,
	RV_FP_CVT_FF = 0x08,
	RV_FP_SQRT = 0x0b,
	RV_FP_CMP = 0x14,
	RV_FP_CVT_IF = 0x18,
	RV_FP_CVT_FI = 0x1a,
	RV_FP_MV_XF = 0x1c,
	RV_FP_MV_FX = 0x1e,
};

/*
 * What executes a decoded instruction: the labels of vaccel_rv_run(), in
 * its order.  The first ones exist only there: an instruction not decoded
 * yet, the end of a page, the exit address, the prologue of the
 * instructions that charge the budget themselves, the end of a budget
 * inside a block, then the pairs and triples.
 */
enum {
	H_DECODE,
	H_PAGE_END,
	H_EXIT,
	H_EXACT,
	H_STOP,
	H_ADDI_B,		/* ADDI, then a conditional branch */
	H_ADDI_ADDI_B,		/* two ADDIs, then a conditional branch */
	H_ADD_LW,		/* ADD, then a load from its result */
	H_ADD_LD,
	H_ADD_FLW,
	H_ADD_FLD,
	H_MUL_ADD,		/* MUL, then an ADD of its result */
	H_MULW_ADDW,		/* MULW, then an ADDW of its result */
	H_FMUL_FADD_S,		/* FMUL, then an FADD (one format) */
	H_FMUL_FADD_D,
	H_BEQ,
	H_BNE,
	H_LW,
	H_LD,
	H_SB,
	H_SH,
	H_SW,
	H_SD,
	H_ADDI,
	H_SLLI,
	H_SRLI,
	H_ADD,
	H_ADDW,
	H_MULW,
	H_FLW,
	H_FLD,
	H_ILLEGAL,
	H_COMPRESSED,
	H_ECALL,
	H_EBREAK,
	H_BARRIER,
	H_FENCE_I,
	H_CSR,
	H_NOP,
	H_FENCE,
	H_LUI,
	H_AUIPC,
	H_JAL,
	H_J,			/* JAL without a destination */
	H_JALR,
	H_JR,			/* JALR without a destination */
	H_JMIS,			/* JAL to a misaligned target */
	H_BLT,
	H_BGE,
	H_BLTU,
	H_BGEU,
	H_BMIS,			/* a branch to a misaligned target */
	H_LB,
	H_LH,
	H_LBU,
	H_LHU,
	H_LWU,
	H_LX0,			/* an integer load without a destination */
	H_SLTI,
	H_SLTIU,
	H_XORI,
	H_ORI,
	H_ANDI,
	H_SRAI,
	H_ADDIW,
	H_SLLIW,
	H_SRLIW,
	H_SRAIW,
	H_SUB,
	H_SLL,
	H_SLT,
	H_SLTU,
	H_XOR,
	H_SRL,
	H_SRA,
	H_OR,
	H_AND,
	H_SUBW,
	H_SLLW,
	H_SRLW,
	H_SRAW,
	H_MUL,
	H_MULH,
	H_MULHSU,
	H_MULHU,
	H_DIV,
	H_DIVU,
	H_REM,
	H_REMU,
	H_DIVW,
	H_DIVUW,
	H_REMW,
	H_REMUW,
	H_AMO,
	H_FSW,
	H_FSD,
	H_FADD_S,
	H_FSUB_S,
	H_FMUL_S,
	H_FDIV_S,
	H_FADD_D,
	H_FSUB_D,
	H_FMUL_D,
	H_FDIV_D,
	H_FMA_S,
	H_FMA_D,
	H_FSQRT_S,
	H_FSQRT_D,
	H_FP,			/* every other F and D instruction */
	H_COUNT
};

/* Instruction fields. */
static __always_inline unsigned int rv_rd(u32 insn)
{
	return (insn >> 7) & 31;
}

static __always_inline unsigned int rv_funct3(u32 insn)
{
	return (insn >> 12) & 7;
}

static __always_inline unsigned int rv_rs1(u32 insn)
{
	return (insn >> 15) & 31;
}

static __always_inline unsigned int rv_rs2(u32 insn)
{
	return (insn >> 20) & 31;
}

static __always_inline s64 rv_imm_i(u32 insn)
{
	return (s32)insn >> 20;
}

static __always_inline s64 rv_imm_s(u32 insn)
{
	return ((s32)(insn & 0xfe000000) >> 20) | (s32)((insn >> 7) & 0x1f);
}

static __always_inline s64 rv_imm_b(u32 insn)
{
	return ((s32)(insn & 0x80000000) >> 19) |
	       (s32)(((insn << 4) & 0x800) | ((insn >> 20) & 0x7e0) |
		     ((insn >> 7) & 0x1e));
}

static __always_inline s64 rv_imm_u(u32 insn)
{
	return (s32)(insn & 0xfffff000);
}

static __always_inline s64 rv_imm_j(u32 insn)
{
	return ((s32)(insn & 0x80000000) >> 11) |
	       (s32)((insn & 0xff000) | ((insn >> 9) & 0x800) |
		     ((insn >> 20) & 0x7fe));
}

static __always_inline u64 rv_sext32(u64 v)
{
	return (s64)(s32)v;
}

/* Forgets every cached translation: vaccel_rv_run() does so on entry. */
static void vaccel_rv_cpu_flush(struct vaccel_rv_cpu *cpu)
{
	unsigned int t, i;

	if (++cpu->gen <= RV_GEN_MAX)
		return;
	/* Generations wrapped: make every tag unmatched. */
	for (t = 0; t < 3; t++)
		for (i = 0; i < VACCEL_RV_TLB_ENTRIES; i++)
			cpu->tlb[t][i].tag = 0;
	cpu->gen = 1;
}

/* Forgets micro-TLB @t's entry for the page at @va, if it holds one. */
static __always_inline void rv_tlb_drop(struct vaccel_rv_cpu *cpu,
					unsigned int t, u64 va)
{
	struct vaccel_rv_tlb_entry *e =
		&cpu->tlb[t][(va >> VACCEL_RV_PAGE_SHIFT) &
			     (VACCEL_RV_TLB_ENTRIES - 1)];

	if ((e->tag & RV_PAGE_MASK) == (va & RV_PAGE_MASK))
		e->tag = 0;
}

/* Undoes the patches of a run stopping inside a basic block. */
static void rv_unpatch(struct vaccel_rv_cpu *cpu)
{
	while (cpu->npatch) {
		cpu->npatch--;
		cpu->patch[cpu->npatch].op->handler =
			cpu->patch[cpu->npatch].handler;
	}
}

/*
 * Forgets the decoding of @cp: every instruction becomes "not decoded
 * yet", so that a run executing from it decodes it again from memory, and
 * the page is free.  Patches in it are dropped, not undone.
 */
static void rv_code_drop(struct vaccel_rv_cpu *cpu, struct vaccel_rv_code *cp)
{
	unsigned int i, n = 0;

	for (i = 0; i < cpu->npatch; i++)
		if (cpu->patch[i].op < cp->ops ||
		    cpu->patch[i].op > &cp->ops[VACCEL_RV_PAGE_INSNS])
			cpu->patch[n++] = cpu->patch[i];
	cpu->npatch = n;
	cp->va = RV_NO_PAGE;
	for (i = 0; i < VACCEL_RV_PAGE_INSNS; i++) {
		cp->ops[i].handler = H_DECODE;
		cp->ops[i].block = 0;
	}
}

/*
 * The hart is about to store into the page at @va: forget its decoding
 * (see the DOC comment: a page is never both decoded and in the write
 * micro-TLB).
 */
static void rv_code_written(struct vaccel_rv_cpu *cpu, u64 va)
{
	unsigned int i;

	for (i = 0; i < VACCEL_RV_CODE_PAGES; i++)
		if (cpu->code[i].va == (va & RV_PAGE_MASK))
			rv_code_drop(cpu, &cpu->code[i]);
}

/*
 * The host address of @size bytes at @va, if they are in one page that the
 * micro-TLB @t holds; else NULL.
 */
static __always_inline u8 *rv_tlb_hit(struct vaccel_rv_cpu *cpu,
				      unsigned int t, u64 va, unsigned int size)
{
	const struct vaccel_rv_tlb_entry *e =
		&cpu->tlb[t][(va >> VACCEL_RV_PAGE_SHIFT) &
			     (VACCEL_RV_TLB_ENTRIES - 1)];

	if (likely(e->tag == ((va & RV_PAGE_MASK) | cpu->gen) &&
		   (va & RV_PAGE_OFFSET) <= VACCEL_RV_PAGE_SIZE - size)) {
		*e->count += size;
		return e->page + (va & RV_PAGE_OFFSET);
	}
	return NULL;
}

/*
 * The host address of the page holding @va, through micro-TLB @t, asking the
 * environment on a miss, and @bytes more accessed in its class of memory.
 * NULL, with @fault's va and reason set, if it refuses.
 */
static noinline u8 *rv_page(struct vaccel_rv_cpu *cpu, unsigned int t,
			    u64 va, unsigned int bytes,
			    struct vaccel_rv_fault *fault)
{
	static const unsigned int access[] = {
		[RV_TLB_READ] = VACCEL_RV_READ,
		[RV_TLB_WRITE] = VACCEL_RV_WRITE,
		[RV_TLB_EXEC] = VACCEL_RV_EXEC,
	};
	struct vaccel_rv_tlb_entry *e =
		&cpu->tlb[t][(va >> VACCEL_RV_PAGE_SHIFT) &
			     (VACCEL_RV_TLB_ENTRIES - 1)];
	u64 tag = (va & RV_PAGE_MASK) | cpu->gen;
	unsigned int mem_class = 0;
	u32 reason = 0;
	u8 *page;

	if (e->tag == tag) {
		*e->count += bytes;
		return e->page;
	}
	page = cpu->ops->translate(cpu->env, va, access[t], &reason, &mem_class);
	if (!page) {
		fault->va = va;
		fault->reason = reason;
		return NULL;
	}
	if (t == RV_TLB_WRITE)
		rv_code_written(cpu, va);
	e->tag = tag;
	e->page = page;
	if (mem_class >= VACCEL_RV_MEM_CLASSES)
		mem_class = VACCEL_RV_MEM_CLASSES - 1;
	e->count = &cpu->bytes[mem_class][t == RV_TLB_WRITE];
	*e->count += bytes;
	return page;
}

/*
 * The host addresses of the (one or two) pages of an access of @size bytes
 * at @va, through micro-TLB @t.  Fills @p[0] and, if the access crosses a
 * page, @p[1]; false with @fault's va and reason set if a page is refused.
 */
static bool rv_pages(struct vaccel_rv_cpu *cpu, unsigned int t, u64 va,
		     unsigned int size, u8 **p, struct vaccel_rv_fault *fault)
{
	u64 next = (va & RV_PAGE_MASK) + VACCEL_RV_PAGE_SIZE;
	unsigned int first = next - va < size ? next - va : size;

	p[0] = rv_page(cpu, t, va, first, fault);
	if (!p[0])
		return false;
	p[0] += va & RV_PAGE_OFFSET;
	p[1] = NULL;
	if (first < size) {
		p[1] = rv_page(cpu, t, next, size - first, fault);
		if (!p[1])
			return false;
	}
	return true;
}

/* A load the micro-TLB did not hit in one page: false on a fault. */
static noinline bool rv_load_slow(struct vaccel_rv_cpu *cpu, u64 va,
				  unsigned int size, u64 *val,
				  struct vaccel_rv_fault *fault)
{
	unsigned int first = VACCEL_RV_PAGE_SIZE - (va & RV_PAGE_OFFSET);
	u64 v = 0;
	unsigned int i;
	u8 *p[2];

	if (!rv_pages(cpu, RV_TLB_READ, va, size, p, fault))
		return false;
	for (i = 0; i < size; i++)
		v |= (u64)(i < first ? p[0][i] : p[1][i - first]) << (8 * i);
	*val = v;
	return true;
}

/* A store the micro-TLB did not hit in one page: false on a fault. */
static noinline bool rv_store_slow(struct vaccel_rv_cpu *cpu, u64 va,
				   unsigned int size, u64 val,
				   struct vaccel_rv_fault *fault)
{
	unsigned int first = VACCEL_RV_PAGE_SIZE - (va & RV_PAGE_OFFSET);
	unsigned int i;
	u8 *p[2];

	if (!rv_pages(cpu, RV_TLB_WRITE, va, size, p, fault))
		return false;
	for (i = 0; i < size; i++) {
		if (i < first)
			p[0][i] = val >> (8 * i);
		else
			p[1][i - first] = val >> (8 * i);
	}
	return true;
}

static __always_inline u64 rv_read(const u8 *p, unsigned int size)
{
	switch (size) {
	case 1:
		return *p;
	case 2:
		return get_unaligned((const u16 *)p);
	case 4:
		return get_unaligned((const u32 *)p);
	default:
		return get_unaligned((const u64 *)p);
	}
}

static __always_inline void rv_write(u8 *p, unsigned int size, u64 v)
{
	switch (size) {
	case 1:
		*p = v;
		break;
	case 2:
		put_unaligned((u16)v, (u16 *)p);
		break;
	case 4:
		put_unaligned((u32)v, (u32 *)p);
		break;
	default:
		put_unaligned(v, (u64 *)p);
		break;
	}
}

/* Loads @size bytes at @va into @val: false on a fault. */
static __always_inline bool rv_load(struct vaccel_rv_cpu *cpu, u64 va,
				    unsigned int size, u64 *val,
				    struct vaccel_rv_fault *fault)
{
	u8 *p = rv_tlb_hit(cpu, RV_TLB_READ, va, size);
	u64 slow;

	if (likely(p)) {
		*val = rv_read(p, size);
		return true;
	}
	/* Not through @val, which can then live in a register. */
	if (!rv_load_slow(cpu, va, size, &slow, fault))
		return false;
	*val = slow;
	return true;
}

/* Stores @size bytes of @val at @va: false on a fault, nothing written. */
static __always_inline bool rv_store(struct vaccel_rv_cpu *cpu, u64 va,
				     unsigned int size, u64 val,
				     struct vaccel_rv_fault *fault)
{
	u8 *p = rv_tlb_hit(cpu, RV_TLB_WRITE, va, size);

	if (unlikely(!p))
		return rv_store_slow(cpu, va, size, val, fault);
	rv_write(p, size, val);
	return true;
}

/* The new value of an AMO of funct5 @op; 32-bit ones compare as such. */
static u64 rv_amo_op(unsigned int op, u64 old, u64 src, bool word)
{
	s64 so = word ? (s32)old : (s64)old;
	s64 ss = word ? (s32)src : (s64)src;
	u64 uo = word ? (u32)old : old;
	u64 us = word ? (u32)src : src;

	switch (op) {
	case RV_AMO_ADD:
		return old + src;
	case RV_AMO_XOR:
		return old ^ src;
	case RV_AMO_OR:
		return old | src;
	case RV_AMO_AND:
		return old & src;
	case RV_AMO_MIN:
		return so < ss ? old : src;
	case RV_AMO_MAX:
		return so > ss ? old : src;
	case RV_AMO_MINU:
		return uo < us ? old : src;
	case RV_AMO_MAXU:
		return uo > us ? old : src;
	default:	/* RV_AMO_SWAP */
		return src;
	}
}

static bool rv_amo_known(unsigned int op)
{
	switch (op) {
	case RV_AMO_ADD:
	case RV_AMO_SWAP:
	case RV_AMO_LR:
	case RV_AMO_SC:
	case RV_AMO_XOR:
	case RV_AMO_OR:
	case RV_AMO_AND:
	case RV_AMO_MIN:
	case RV_AMO_MAX:
	case RV_AMO_MINU:
	case RV_AMO_MAXU:
		return true;
	}
	return false;
}

/*
 * An A-extension instruction.  Return: 0 with *@rdval the value for rd, or
 * the cause of its fault (@fault's va and reason set for an access).
 */
static noinline u32 rv_amo(struct vaccel_rv_cpu *cpu,
			   struct vaccel_rv_hart *hart, u32 insn, u64 *rdval,
			   struct vaccel_rv_fault *fault)
{
	unsigned int op = insn >> 27, funct3 = rv_funct3(insn);
	u64 va = hart->x[rv_rs1(insn)], src = hart->x[rv_rs2(insn)];
	unsigned int size = funct3 == 2 ? 4 : 8;
	u64 old, new, prev;
	u8 *p;

	if ((funct3 != 2 && funct3 != 3) || !rv_amo_known(op) ||
	    (op == RV_AMO_LR && rv_rs2(insn)))
		return VACCEL_RV_CAUSE_ILLEGAL_INSN;
	if (va & (size - 1)) {
		fault->va = va;
		return VACCEL_RV_CAUSE_MISALIGNED_ATOMIC;
	}

	if (op == RV_AMO_LR) {
		p = rv_page(cpu, RV_TLB_READ, va, size, fault);
		if (!p)
			return VACCEL_RV_CAUSE_LOAD;
		p += va & RV_PAGE_OFFSET;
		if (size == 4) {
			old = READ_ONCE(*(u32 *)p);
			*rdval = rv_sext32(old);
		} else {
			old = READ_ONCE(*(u64 *)p);
			*rdval = old;
		}
		hart->resv_va = va;
		hart->resv_val = old;
		hart->resv_size = size;
		return 0;
	}

	/* SC and the AMOs write, and the AMOs read too. */
	if (op != RV_AMO_SC && !rv_page(cpu, RV_TLB_READ, va, size, fault))
		return VACCEL_RV_CAUSE_STORE;
	p = rv_page(cpu, RV_TLB_WRITE, va, size, fault);
	if (!p)
		return VACCEL_RV_CAUSE_STORE;
	p += va & RV_PAGE_OFFSET;

	if (op == RV_AMO_SC) {
		bool ok = hart->resv_size == size && hart->resv_va == va;

		if (ok && size == 4)
			ok = cmpxchg((u32 *)p, (u32)hart->resv_val, (u32)src) ==
			     (u32)hart->resv_val;
		else if (ok)
			ok = cmpxchg((u64 *)p, hart->resv_val, src) ==
			     hart->resv_val;
		hart->resv_size = 0;
		*rdval = !ok;
		return 0;
	}

	if (size == 4) {
		u32 *w = (u32 *)p;

		if (op == RV_AMO_SWAP) {
			old = xchg(w, (u32)src);
		} else {
			old = READ_ONCE(*w);
			for (;;) {
				new = rv_amo_op(op, old, src, true);
				prev = cmpxchg(w, (u32)old, (u32)new);
				if (prev == old)
					break;
				old = prev;
			}
		}
		*rdval = rv_sext32(old);
	} else {
		u64 *d = (u64 *)p;

		if (op == RV_AMO_SWAP) {
			old = xchg(d, src);
		} else {
			old = READ_ONCE(*d);
			for (;;) {
				new = rv_amo_op(op, old, src, false);
				prev = cmpxchg(d, old, new);
				if (prev == old)
					break;
				old = prev;
			}
		}
		*rdval = old;
	}
	return 0;
}

/*
 * A Zicsr instruction.  Return: 0 with *@rdval the value for rd, or
 * VACCEL_RV_CAUSE_CSR (or ILLEGAL_INSN for a reserved funct3).
 * @executed: instructions this call retired before this one.
 */
static noinline u32 rv_csr(struct vaccel_rv_cpu *cpu,
			   struct vaccel_rv_hart *hart, u32 insn, u64 executed,
			   u64 *rdval)
{
	unsigned int funct3 = rv_funct3(insn), rs1 = rv_rs1(insn);
	unsigned int csr = insn >> 20;
	bool writes = (funct3 & 3) == 1 || rs1;
	bool reads = (funct3 & 3) != 1 || rv_rd(insn);
	u64 src = funct3 & 4 ? rs1 : hart->x[rs1];
	u64 old = 0, new;

	if (!(funct3 & 3))
		return VACCEL_RV_CAUSE_ILLEGAL_INSN;

	switch (csr) {
	case VACCEL_RV_CSR_FFLAGS:
		old = hart->fcsr & 0x1f;
		break;
	case VACCEL_RV_CSR_FRM:
		old = (hart->fcsr >> 5) & 7;
		break;
	case VACCEL_RV_CSR_FCSR:
		old = hart->fcsr & 0xff;
		break;
	case VACCEL_RV_CSR_CYCLE:
	case VACCEL_RV_CSR_INSTRET:
		if (writes)
			return VACCEL_RV_CAUSE_CSR;
		*rdval = hart->instret + executed;
		return 0;
	case VACCEL_RV_CSR_TIME:
	case VACCEL_RV_CSR_CUSTOM_FIRST ... VACCEL_RV_CSR_CUSTOM_LAST:
		if (writes || !cpu->ops->csr_read ||
		    cpu->ops->csr_read(cpu->env, hart, csr, rdval))
			return VACCEL_RV_CAUSE_CSR;
		return 0;
	default:
		return VACCEL_RV_CAUSE_CSR;
	}

	/* fflags, frm, fcsr: read and write. */
	switch (funct3 & 3) {
	case 1:
		new = src;
		break;
	case 2:
		new = old | src;
		break;
	default:
		new = old & ~src;
		break;
	}
	if (writes) {
		if (csr == VACCEL_RV_CSR_FFLAGS)
			hart->fcsr = (hart->fcsr & ~0x1fu) | (new & 0x1f);
		else if (csr == VACCEL_RV_CSR_FRM)
			hart->fcsr = (hart->fcsr & 0x1f) | ((new & 7) << 5);
		else
			hart->fcsr = new & 0xff;
	}
	*rdval = reads ? old : 0;
	return 0;
}

/* The rounding mode of an instruction's rm field: -1 if invalid. */
static __always_inline int rv_rm(const struct vaccel_rv_hart *hart,
				 unsigned int rm)
{
	if (rm == VACCEL_RM_DYN)
		rm = (hart->fcsr >> 5) & 7;
	return rm <= VACCEL_RM_RMM ? (int)rm : -1;
}

/* A single-precision operand: the canonical NaN unless NaN-boxed. */
static __always_inline u32 rv_f32(const struct vaccel_rv_hart *hart,
				  unsigned int r)
{
	u64 v = hart->f[r];

	return (v & RV_BOX) == RV_BOX ? (u32)v : VACCEL_F32_CANONICAL_NAN;
}

static __always_inline void rv_set_f32(struct vaccel_rv_hart *hart,
				       unsigned int r, u32 v)
{
	hart->f[r] = RV_BOX | v;
}

/* OP-FP with fmt S. Return: 0, or a cause. */
static u32 rv_fp_s(struct vaccel_rv_hart *hart, u32 insn)
{
	unsigned int funct5 = insn >> 27, funct3 = rv_funct3(insn);
	unsigned int rd = rv_rd(insn), rs1 = rv_rs1(insn), rs2 = rv_rs2(insn);
	u32 a = rv_f32(hart, rs1), b = rv_f32(hart, rs2), flags = 0, r;
	int rm = rv_rm(hart, funct3);
	u64 *x = hart->x;

	switch (funct5) {
	case RV_FP_ADD:
	case RV_FP_SUB:
	case RV_FP_MUL:
	case RV_FP_DIV:
		if (rm < 0)
			return VACCEL_RV_CAUSE_ILLEGAL_INSN;
		if (funct5 == RV_FP_ADD)
			r = vaccel_f32_add(a, b, rm, &flags);
		else if (funct5 == RV_FP_SUB)
			r = vaccel_f32_sub(a, b, rm, &flags);
		else if (funct5 == RV_FP_MUL)
			r = vaccel_f32_mul(a, b, rm, &flags);
		else
			r = vaccel_f32_div(a, b, rm, &flags);
		rv_set_f32(hart, rd, r);
		break;
	case RV_FP_SQRT:
		if (rm < 0 || rs2)
			return VACCEL_RV_CAUSE_ILLEGAL_INSN;
		rv_set_f32(hart, rd, vaccel_f32_sqrt(a, rm, &flags));
		break;
	case RV_FP_SGNJ:
		if (funct3 == 0)
			r = (a & ~RV_SIGN32) | (b & RV_SIGN32);
		else if (funct3 == 1)
			r = (a & ~RV_SIGN32) | (~b & RV_SIGN32);
		else if (funct3 == 2)
			r = a ^ (b & RV_SIGN32);
		else
			return VACCEL_RV_CAUSE_ILLEGAL_INSN;
		rv_set_f32(hart, rd, r);
		break;
	case RV_FP_MINMAX:
		if (funct3 == 0)
			r = vaccel_f32_min(a, b, &flags);
		else if (funct3 == 1)
			r = vaccel_f32_max(a, b, &flags);
		else
			return VACCEL_RV_CAUSE_ILLEGAL_INSN;
		rv_set_f32(hart, rd, r);
		break;
	case RV_FP_CVT_FF:	/* FCVT.S.D */
		if (rm < 0 || rs2 != 1)
			return VACCEL_RV_CAUSE_ILLEGAL_INSN;
		rv_set_f32(hart, rd,
			   vaccel_f64_to_f32(hart->f[rs1], rm, &flags));
		break;
	case RV_FP_CMP:
		if (funct3 == 2)
			x[rd] = vaccel_f32_eq(a, b, &flags);
		else if (funct3 == 1)
			x[rd] = vaccel_f32_lt(a, b, &flags);
		else if (funct3 == 0)
			x[rd] = vaccel_f32_le(a, b, &flags);
		else
			return VACCEL_RV_CAUSE_ILLEGAL_INSN;
		break;
	case RV_FP_CVT_IF:	/* FCVT.W[U]/L[U].S */
		if (rm < 0 || rs2 > 3)
			return VACCEL_RV_CAUSE_ILLEGAL_INSN;
		if (rs2 == 0)
			x[rd] = (s64)vaccel_f32_to_i32(a, rm, &flags);
		else if (rs2 == 1)
			x[rd] = rv_sext32(vaccel_f32_to_u32(a, rm, &flags));
		else if (rs2 == 2)
			x[rd] = vaccel_f32_to_i64(a, rm, &flags);
		else
			x[rd] = vaccel_f32_to_u64(a, rm, &flags);
		break;
	case RV_FP_CVT_FI:	/* FCVT.S.W[U]/L[U] */
		if (rm < 0 || rs2 > 3)
			return VACCEL_RV_CAUSE_ILLEGAL_INSN;
		if (rs2 == 0)
			r = vaccel_i32_to_f32(x[rs1], rm, &flags);
		else if (rs2 == 1)
			r = vaccel_u32_to_f32(x[rs1], rm, &flags);
		else if (rs2 == 2)
			r = vaccel_i64_to_f32(x[rs1], rm, &flags);
		else
			r = vaccel_u64_to_f32(x[rs1], rm, &flags);
		rv_set_f32(hart, rd, r);
		break;
	case RV_FP_MV_XF:
		if (rs2 || funct3 > 1)
			return VACCEL_RV_CAUSE_ILLEGAL_INSN;
		if (funct3 == 0)	/* FMV.X.W: the raw low bits */
			x[rd] = rv_sext32(hart->f[rs1]);
		else			/* FCLASS.S */
			x[rd] = vaccel_f32_classify(a);
		break;
	case RV_FP_MV_FX:	/* FMV.W.X */
		if (rs2 || funct3)
			return VACCEL_RV_CAUSE_ILLEGAL_INSN;
		rv_set_f32(hart, rd, x[rs1]);
		break;
	default:
		return VACCEL_RV_CAUSE_ILLEGAL_INSN;
	}
	hart->fcsr |= flags;
	return 0;
}

/* OP-FP with fmt D. Return: 0, or a cause. */
static u32 rv_fp_d(struct vaccel_rv_hart *hart, u32 insn)
{
	unsigned int funct5 = insn >> 27, funct3 = rv_funct3(insn);
	unsigned int rd = rv_rd(insn), rs1 = rv_rs1(insn), rs2 = rv_rs2(insn);
	u64 a = hart->f[rs1], b = hart->f[rs2], r;
	int rm = rv_rm(hart, funct3);
	u64 *x = hart->x;
	u32 flags = 0;

	switch (funct5) {
	case RV_FP_ADD:
	case RV_FP_SUB:
	case RV_FP_MUL:
	case RV_FP_DIV:
		if (rm < 0)
			return VACCEL_RV_CAUSE_ILLEGAL_INSN;
		if (funct5 == RV_FP_ADD)
			r = vaccel_f64_add(a, b, rm, &flags);
		else if (funct5 == RV_FP_SUB)
			r = vaccel_f64_sub(a, b, rm, &flags);
		else if (funct5 == RV_FP_MUL)
			r = vaccel_f64_mul(a, b, rm, &flags);
		else
			r = vaccel_f64_div(a, b, rm, &flags);
		hart->f[rd] = r;
		break;
	case RV_FP_SQRT:
		if (rm < 0 || rs2)
			return VACCEL_RV_CAUSE_ILLEGAL_INSN;
		hart->f[rd] = vaccel_f64_sqrt(a, rm, &flags);
		break;
	case RV_FP_SGNJ:
		if (funct3 == 0)
			r = (a & ~RV_SIGN64) | (b & RV_SIGN64);
		else if (funct3 == 1)
			r = (a & ~RV_SIGN64) | (~b & RV_SIGN64);
		else if (funct3 == 2)
			r = a ^ (b & RV_SIGN64);
		else
			return VACCEL_RV_CAUSE_ILLEGAL_INSN;
		hart->f[rd] = r;
		break;
	case RV_FP_MINMAX:
		if (funct3 == 0)
			r = vaccel_f64_min(a, b, &flags);
		else if (funct3 == 1)
			r = vaccel_f64_max(a, b, &flags);
		else
			return VACCEL_RV_CAUSE_ILLEGAL_INSN;
		hart->f[rd] = r;
		break;
	case RV_FP_CVT_FF:	/* FCVT.D.S */
		if (rm < 0 || rs2 != 0)
			return VACCEL_RV_CAUSE_ILLEGAL_INSN;
		hart->f[rd] = vaccel_f32_to_f64(rv_f32(hart, rs1), &flags);
		break;
	case RV_FP_CMP:
		if (funct3 == 2)
			x[rd] = vaccel_f64_eq(a, b, &flags);
		else if (funct3 == 1)
			x[rd] = vaccel_f64_lt(a, b, &flags);
		else if (funct3 == 0)
			x[rd] = vaccel_f64_le(a, b, &flags);
		else
			return VACCEL_RV_CAUSE_ILLEGAL_INSN;
		break;
	case RV_FP_CVT_IF:	/* FCVT.W[U]/L[U].D */
		if (rm < 0 || rs2 > 3)
			return VACCEL_RV_CAUSE_ILLEGAL_INSN;
		if (rs2 == 0)
			x[rd] = (s64)vaccel_f64_to_i32(a, rm, &flags);
		else if (rs2 == 1)
			x[rd] = rv_sext32(vaccel_f64_to_u32(a, rm, &flags));
		else if (rs2 == 2)
			x[rd] = vaccel_f64_to_i64(a, rm, &flags);
		else
			x[rd] = vaccel_f64_to_u64(a, rm, &flags);
		break;
	case RV_FP_CVT_FI:	/* FCVT.D.W[U]/L[U] */
		if (rm < 0 || rs2 > 3)
			return VACCEL_RV_CAUSE_ILLEGAL_INSN;
		if (rs2 == 0)
			r = vaccel_i32_to_f64(x[rs1], rm, &flags);
		else if (rs2 == 1)
			r = vaccel_u32_to_f64(x[rs1], rm, &flags);
		else if (rs2 == 2)
			r = vaccel_i64_to_f64(x[rs1], rm, &flags);
		else
			r = vaccel_u64_to_f64(x[rs1], rm, &flags);
		hart->f[rd] = r;
		break;
	case RV_FP_MV_XF:
		if (rs2 || funct3 > 1)
			return VACCEL_RV_CAUSE_ILLEGAL_INSN;
		if (funct3 == 0)	/* FMV.X.D */
			x[rd] = a;
		else			/* FCLASS.D */
			x[rd] = vaccel_f64_classify(a);
		break;
	case RV_FP_MV_FX:	/* FMV.D.X */
		if (rs2 || funct3)
			return VACCEL_RV_CAUSE_ILLEGAL_INSN;
		hart->f[rd] = x[rs1];
		break;
	default:
		return VACCEL_RV_CAUSE_ILLEGAL_INSN;
	}
	hart->fcsr |= flags;
	return 0;
}

/*
 * OP-FP but the arithmetic the handlers of vaccel_rv_run() do themselves.
 * Return: 0, or a cause.
 */
static noinline u32 rv_fp(struct vaccel_rv_hart *hart, u32 insn)
{
	switch ((insn >> 25) & 3) {
	case 0:
		return rv_fp_s(hart, insn);
	case 1:
		return rv_fp_d(hart, insn);
	default:
		return VACCEL_RV_CAUSE_ILLEGAL_INSN;
	}
}

/* MUL, MULH, MULHSU, MULHU, DIV, DIVU, REM, REMU. */
static __always_inline u64 rv_muldiv(unsigned int funct3, u64 a, u64 b)
{
	switch (funct3) {
	case 0:
		return a * b;
	case 1:
		return (u64)(((s128)(s64)a * (s64)b) >> 64);
	case 2:	/* signed a, unsigned b: the unsigned high part, corrected */
		return (u64)(((u128)a * b) >> 64) - ((s64)a < 0 ? b : 0);
	case 3:
		return (u64)(((u128)a * b) >> 64);
	case 4:
		if (!b)
			return -1ull;
		if (a == RV_SIGN64 && b == -1ull)	/* overflow */
			return a;
		return (s64)a / (s64)b;
	case 5:
		return b ? a / b : -1ull;
	case 6:
		if (!b)
			return a;
		if (a == RV_SIGN64 && b == -1ull)
			return 0;
		return (s64)a % (s64)b;
	default:
		return b ? a % b : a;
	}
}

/* MULW, DIVW, DIVUW, REMW, REMUW (funct3 0, 4, 5, 6, 7). */
static __always_inline u64 rv_muldiv_w(unsigned int funct3, u64 a, u64 b)
{
	s32 sa = a, sb = b;
	u32 ua = a, ub = b;

	switch (funct3) {
	case 0:
		return rv_sext32(ua * ub);
	case 4:
		if (!sb)
			return -1ull;
		if (ua == RV_SIGN32 && ub == ~0u)	/* overflow */
			return (s64)sa;
		return (s64)(sa / sb);
	case 5:
		return rv_sext32(ub ? ua / ub : ~0u);
	case 6:
		if (!sb)
			return (s64)sa;
		if (ua == RV_SIGN32 && ub == ~0u)
			return 0;
		return (s64)(sa % sb);
	default:
		return rv_sext32(ub ? ua % ub : ua);
	}
}

#ifndef VACCEL_RV_REFERENCE
/* The instructions a handler executes: a pair or a triple, or one. */
static unsigned int rv_h_len(unsigned int h)
{
	if (h == H_ADDI_ADDI_B)
		return 3;
	return h >= H_ADDI_B && h <= H_FMUL_FADD_D ? 2 : 1;
}

/*
 * Whether instructions of handler @h charge the budget one at a time
 * themselves, outside any basic block: those that read the instruction
 * count (CSRs), stop the run or always fault, and FENCE.I, which forgets
 * the decoded pages.
 */
static bool rv_h_exact(unsigned int h)
{
	return h >= H_ILLEGAL && h <= H_CSR;
}

/* Whether handler @h may jump, and so ends a basic block. */
static bool rv_h_ends(unsigned int h)
{
	switch (h) {
	case H_BEQ:
	case H_BNE:
	case H_BLT:
	case H_BGE:
	case H_BLTU:
	case H_BGEU:
	case H_BMIS:
	case H_JAL:
	case H_J:
	case H_JALR:
	case H_JR:
	case H_JMIS:
		return true;
	}
	return false;
}
#endif

static const u8 rv_load_h[8] = {
	H_LB, H_LH, H_LW, H_LD, H_LBU, H_LHU, H_LWU, H_ILLEGAL,
};

static const u8 rv_branch_h[8] = {
	H_BEQ, H_BNE, H_ILLEGAL, H_ILLEGAL, H_BLT, H_BGE, H_BLTU, H_BGEU,
};

static const u8 rv_op_h[8] = {
	H_ADD, H_SLL, H_SLT, H_SLTU, H_XOR, H_SRL, H_OR, H_AND,
};

static const u8 rv_m_h[8] = {
	H_MUL, H_MULH, H_MULHSU, H_MULHU, H_DIV, H_DIVU, H_REM, H_REMU,
};

static const u8 rv_mw_h[8] = {
	H_MULW, H_ILLEGAL, H_ILLEGAL, H_ILLEGAL, H_DIVW, H_DIVUW, H_REMW,
	H_REMUW,
};

static const u8 rv_opimm_h[8] = {
	H_ADDI, H_SLLI, H_SLTI, H_SLTIU, H_XORI, H_SRLI, H_ORI, H_ANDI,
};

/* The handler of OP-IMM, OP-IMM-32, OP and OP-32: H_ILLEGAL if reserved. */
static unsigned int rv_decode_alu(u32 insn, s32 *imm)
{
	unsigned int f3 = rv_funct3(insn), f7 = insn >> 25;

	switch (insn & 0x7f) {
	case RV_OP_IMM:
		*imm = rv_imm_i(insn);
		if (f3 == 1 || f3 == 5) {
			*imm &= 63;
			if (insn >> 26 == 0x10 && f3 == 5)
				return H_SRAI;
			if (insn >> 26)
				return H_ILLEGAL;
		}
		return rv_opimm_h[f3];
	case RV_OP_IMM_32:
		*imm = rv_imm_i(insn);
		if (f3 == 0)
			return H_ADDIW;
		*imm &= 31;
		if (f3 == 1 && f7 == 0)
			return H_SLLIW;
		if (f3 == 5 && f7 == 0)
			return H_SRLIW;
		if (f3 == 5 && f7 == 0x20)
			return H_SRAIW;
		return H_ILLEGAL;
	case RV_OP_OP:
		if (f7 == 0)
			return rv_op_h[f3];
		if (f7 == 1)
			return rv_m_h[f3];
		if (f7 == 0x20 && f3 == 0)
			return H_SUB;
		if (f7 == 0x20 && f3 == 5)
			return H_SRA;
		return H_ILLEGAL;
	default:	/* RV_OP_OP_32 */
		if (f7 == 1)
			return rv_mw_h[f3];
		if (f7 == 0 && f3 == 0)
			return H_ADDW;
		if (f7 == 0 && f3 == 1)
			return H_SLLW;
		if (f7 == 0 && f3 == 5)
			return H_SRLW;
		if (f7 == 0x20 && f3 == 0)
			return H_SUBW;
		if (f7 == 0x20 && f3 == 5)
			return H_SRAW;
		return H_ILLEGAL;
	}
}

/* The handler of OP-FP and the fused multiply-adds. */
static unsigned int rv_decode_fp(u32 insn)
{
	unsigned int fmt = (insn >> 25) & 3, rm = rv_funct3(insn);
	unsigned int funct5 = insn >> 27;

	if (fmt > 1)
		return H_ILLEGAL;
	if ((insn & 0x7f) != RV_OP_FP)
		return rm == 5 || rm == 6 ? H_ILLEGAL : fmt ? H_FMA_D : H_FMA_S;
	if (rm == 5 || rm == 6)
		return H_FP;	/* which checks everything */
	if (funct5 == RV_FP_SQRT && !rv_rs2(insn))
		return fmt ? H_FSQRT_D : H_FSQRT_S;
	if (funct5 > RV_FP_DIV)
		return H_FP;
	return (fmt ? H_FADD_D : H_FADD_S) + funct5;
}

#ifndef VACCEL_RV_REFERENCE
/*
 * Makes @op, the decoding of an instruction, execute the @room (at least
 * one) instructions after it in its basic block too, if it can: a
 * conditional branch after an ADDI, a load (LW, LD, FLW, FLD) from the
 * address an ADD computed after an ADD, an ADD (ADDW) of its result after
 * a MUL (MULW), an FADD after an FMUL; and an ADDI before an ADDI and a
 * branch.  @nop is the decoding of the next instruction, final, and
 * @next its word.
 * The second instruction's rd (or rs1) goes in @op->rs3, its rs1 (or rs2)
 * in @op->rs2, its funct3 in @op->rm and its immediate in @op->imm2; the
 * fields of the first stay, so that @op->single can execute it alone.
 */
static void rv_fuse(struct vaccel_rv_op *op, const struct vaccel_rv_op *nop,
		    u32 next, unsigned int room)
{
	unsigned int f3 = rv_funct3(next), h = op->handler;

	if (h == H_ADDI && room >= 2 && nop->handler == H_ADDI_B) {
		op->handler = H_ADDI_ADDI_B;
		op->xrd = nop->rd;
		op->xrs1 = nop->rs1;
		op->ximm = nop->imm;
		op->rs2 = nop->rs2;
		op->rs3 = nop->rs3;
		op->rm = nop->rm;
		op->imm2 = nop->imm2;
		return;
	}

	if (h == H_FMUL_S || h == H_FMUL_D) {
		/* FADD of the same format: rs1 in @op->neg, rs2 and rm in imm2. */
		unsigned int fmt = h == H_FMUL_D;

		if ((next & 0xfe00007f) != (fmt << 25 | RV_OP_FP) ||
		    f3 == 5 || f3 == 6)
			return;
		op->handler = fmt ? H_FMUL_FADD_D : H_FMUL_FADD_S;
		op->rs3 = rv_rd(next);
		op->neg = rv_rs1(next);
		op->imm2 = rv_rs2(next) | f3 << 8;
		return;
	}
	if (h == H_MUL || h == H_MULW) {
		/* ADD or ADDW with rd, its other operand in @op->rm. */
		if ((next & 0xfe00707f) !=
		    (h == H_MUL ? RV_OP_OP : RV_OP_OP_32) ||
		    !rv_rd(next) ||
		    (rv_rs1(next) != op->rd && rv_rs2(next) != op->rd))
			return;
		op->handler = h == H_MUL ? H_MUL_ADD : H_MULW_ADDW;
		op->rs3 = rv_rd(next);
		op->rm = rv_rs1(next) == op->rd ? rv_rs2(next) : rv_rs1(next);
		return;
	}
	if (h == H_ADDI) {
		if ((next & 0x7f) != RV_OP_BRANCH ||
		    rv_branch_h[f3] == H_ILLEGAL || rv_imm_b(next) & 2)
			return;
		op->handler = H_ADDI_B;
		op->imm2 = rv_imm_b(next);
		op->rs2 = rv_rs1(next);
		op->rs3 = rv_rs2(next);
	} else if (h == H_ADD) {
		if (rv_rs1(next) != op->rd || (f3 != 2 && f3 != 3))
			return;
		if ((next & 0x7f) == RV_OP_LOAD && rv_rd(next))
			h = f3 == 2 ? H_ADD_LW : H_ADD_LD;
		else if ((next & 0x7f) == RV_OP_LOAD_FP)
			h = f3 == 2 ? H_ADD_FLW : H_ADD_FLD;
		else
			return;
		op->handler = h;
		op->imm2 = rv_imm_i(next);
		op->rs3 = rv_rd(next);
	} else {
		return;
	}
	op->rm = f3;
}
#endif

/* Decodes the single instruction @insn into @op. */
static void rv_decode_one(u32 insn, struct vaccel_rv_op *op)
{
	unsigned int f3 = rv_funct3(insn), h;
	s32 imm = 0;

	switch (insn & 0x7f) {
	case RV_OP_LUI:
	case RV_OP_AUIPC:
		imm = rv_imm_u(insn);
		h = (insn & 0x7f) == RV_OP_LUI ? H_LUI : H_AUIPC;
		if (!rv_rd(insn))
			h = H_NOP;
		break;
	case RV_OP_JAL:
		imm = rv_imm_j(insn);
		h = imm & 2 ? H_JMIS : rv_rd(insn) ? H_JAL : H_J;
		break;
	case RV_OP_JALR:
		imm = rv_imm_i(insn);
		h = f3 ? H_ILLEGAL : rv_rd(insn) ? H_JALR : H_JR;
		break;
	case RV_OP_BRANCH:
		imm = rv_imm_b(insn);
		h = rv_branch_h[f3];
		if (h != H_ILLEGAL && imm & 2)
			h = H_BMIS;
		break;
	case RV_OP_LOAD:
		imm = rv_imm_i(insn);
		h = rv_load_h[f3];
		if (h != H_ILLEGAL && !rv_rd(insn))
			h = H_LX0;
		break;
	case RV_OP_STORE:
		imm = rv_imm_s(insn);
		h = f3 < 4 ? H_SB + f3 : H_ILLEGAL;
		break;
	case RV_OP_IMM:
	case RV_OP_IMM_32:
	case RV_OP_OP:
	case RV_OP_OP_32:
		h = rv_decode_alu(insn, &imm);
		/* Without a destination, they do nothing. */
		if (h != H_ILLEGAL && !rv_rd(insn))
			h = H_NOP;
		break;
	case RV_OP_MISC_MEM:
		h = f3 == 0 ? H_FENCE : f3 == 1 ? H_FENCE_I : H_ILLEGAL;
		break;
	case RV_OP_AMO:
		h = H_AMO;	/* rv_amo() checks the encoding */
		break;
	case RV_OP_LOAD_FP:
		imm = rv_imm_i(insn);
		h = f3 == 2 ? H_FLW : f3 == 3 ? H_FLD : H_ILLEGAL;
		break;
	case RV_OP_STORE_FP:
		imm = rv_imm_s(insn);
		h = f3 == 2 ? H_FSW : f3 == 3 ? H_FSD : H_ILLEGAL;
		break;
	case RV_OP_MADD:
	case RV_OP_MSUB:
	case RV_OP_NMSUB:
	case RV_OP_NMADD:
	case RV_OP_FP:
		h = rv_decode_fp(insn);
		break;
	case RV_OP_SYSTEM:
		if (insn == 0x00000073)
			h = H_ECALL;
		else if (insn == 0x00100073)
			h = H_EBREAK;
		else
			h = f3 & 3 ? H_CSR : H_ILLEGAL;
		break;
	case RV_OP_CUSTOM_0:
		h = insn == VACCEL_RV_INSN_BARRIER ? H_BARRIER : H_ILLEGAL;
		break;
	default:
		h = (insn & 3) != 3 ? H_COMPRESSED : H_ILLEGAL;
		break;
	}

	op->handler = h;
	op->single = h;
	op->rd = rv_rd(insn);
	op->rs1 = rv_rs1(insn);
	op->rs2 = rv_rs2(insn);
	op->imm = imm;
	op->rs3 = insn >> 27;
	op->rm = f3;
	op->neg = 0;
	if ((insn & 0x7f) == RV_OP_NMSUB || (insn & 0x7f) == RV_OP_NMADD)
		op->neg |= 1;
	if ((insn & 0x7f) == RV_OP_MSUB || (insn & 0x7f) == RV_OP_NMADD)
		op->neg |= 2;
	op->imm2 = 0;
	op->block = 0;
	op->xrd = 0;
	op->xrs1 = 0;
	op->ximm = 0;
	op->pad = 0;
}

#ifndef VACCEL_RV_REFERENCE
/*
 * Decodes the basic block of @cp that starts at slot @idx: the
 * instructions up to and including the first that may jump, but stopping
 * before one that charges itself (which is decoded too), the exit address
 * or the end of the page.  Each gets the count of instructions left in
 * the block, and the pairs and triples are fused, backwards.
 */
static noinline void rv_decode_block(const struct vaccel_rv_cpu *cpu,
				     struct vaccel_rv_code *cp,
				     unsigned int idx)
{
	unsigned int stop = VACCEL_RV_PAGE_INSNS, end = idx, j;
	struct vaccel_rv_op *op;

	if ((cpu->exit_pc & RV_PAGE_MASK) == cp->va && !(cpu->exit_pc & 3) &&
	    (cpu->exit_pc & RV_PAGE_OFFSET) >> 2 >= idx)
		stop = (cpu->exit_pc & RV_PAGE_OFFSET) >> 2;
	for (j = idx; j < stop; j++) {
		op = &cp->ops[j];
		rv_decode_one(cp->words[j], op);
		if (rv_h_exact(op->handler)) {
			op->handler = H_EXACT;
			break;
		}
		end = j + 1;
		if (rv_h_ends(op->handler))
			break;
	}
	if (j == stop && stop < VACCEL_RV_PAGE_INSNS) {
		op = &cp->ops[stop];
		rv_decode_one(0, op);
		op->handler = H_EXIT;
		op->single = H_EXIT;
	}
	for (j = end; j-- > idx;) {
		op = &cp->ops[j];
		op->block = end - j;
		if (j + 1 < end)
			rv_fuse(op, &cp->ops[j + 1], cp->words[j + 1],
				end - j - 1);
	}
}

/*
 * The decoded form of the code page at @va, whose host address is @host:
 * the one kept, compared with memory first if vaccel_rv_cpu_sync() was
 * called since it last was, or a page reused, not decoded yet.  The page
 * leaves the write micro-TLB.
 */
static noinline struct vaccel_rv_code *
rv_code_page(struct vaccel_rv_cpu *cpu, u64 va, const u8 *host)
{
	struct vaccel_rv_code *cp;
	struct vaccel_rv_op *end;
	unsigned int i;

	rv_tlb_drop(cpu, RV_TLB_WRITE, va);
	for (i = 0; i < VACCEL_RV_CODE_PAGES; i++) {
		cp = &cpu->code[i];
		if (cp->va != va)
			continue;
		if (cp->sync == cpu->sync)
			return cp;
		cp->sync = cpu->sync;
		if (!memcmp(cp->words, host, VACCEL_RV_PAGE_SIZE))
			return cp;
		goto decode;
	}
	for (i = 0; i < VACCEL_RV_CODE_PAGES; i++)
		if (cpu->code[i].va == RV_NO_PAGE)
			break;
	if (i == VACCEL_RV_CODE_PAGES) {
		i = cpu->victim;
		cpu->victim = (i + 1) % VACCEL_RV_CODE_PAGES;
	}
	cp = &cpu->code[i];
decode:
	rv_code_drop(cpu, cp);
	cp->va = va;
	cp->sync = cpu->sync;
	memcpy(cp->words, host, VACCEL_RV_PAGE_SIZE);
	end = &cp->ops[VACCEL_RV_PAGE_INSNS];
	rv_decode_one(0, end);
	end->handler = H_PAGE_END;
	end->single = H_PAGE_END;
	return cp;
}

static void rv_patch_one(struct vaccel_rv_cpu *cpu, struct vaccel_rv_op *op,
			 unsigned int h)
{
	cpu->patch[cpu->npatch].op = op;
	cpu->patch[cpu->npatch].handler = op->handler;
	cpu->npatch++;
	op->handler = h;
}

/*
 * Makes the basic block at @op stop after @n of its instructions, fewer
 * than it has: the instruction after them stops the run, and a pair or a
 * triple that would run past them executes its first instruction alone.
 */
static noinline void rv_patch(struct vaccel_rv_cpu *cpu,
			      struct vaccel_rv_op *op, u64 n)
{
	struct vaccel_rv_op *end = op + n;
	unsigned int len;

	while (op < end) {
		len = rv_h_len(op->handler);
		if (op + len > end) {
			rv_patch_one(cpu, op, op->single);
			len = 1;
		}
		op += len;
	}
	rv_patch_one(cpu, end, H_STOP);
}

/**
 * vaccel_rv_cpu_init() - set up the interpreter of an engine
 * @cpu: the interpreter
 * @ops: the environment's callbacks; translate() is mandatory
 * @env: their first argument
 * @exit_pc: the address whose reaching ends a work-item: the initial ra
 */
void vaccel_rv_cpu_init(struct vaccel_rv_cpu *cpu,
			const struct vaccel_rv_ops *ops, void *env, u64 exit_pc)
{
	unsigned int t, i;

	cpu->ops = ops;
	cpu->env = env;
	cpu->exit_pc = exit_pc;
	cpu->keep_tlb = false;
	cpu->gen = 1;
	for (t = 0; t < 3; t++) {
		for (i = 0; i < VACCEL_RV_TLB_ENTRIES; i++) {
			cpu->tlb[t][i].tag = 0;
			cpu->tlb[t][i].page = NULL;
			cpu->tlb[t][i].count = &cpu->bytes[0][0];
		}
	}
	cpu->sync = 0;
	cpu->victim = 0;
	cpu->npatch = 0;
	for (i = 0; i < VACCEL_RV_CODE_PAGES; i++)
		cpu->code[i].va = RV_NO_PAGE;
	memset(cpu->bytes, 0, sizeof(cpu->bytes));
}

/**
 * vaccel_rv_cpu_flush_tlb() - forget every translation of the micro-TLBs
 * @cpu: the interpreter
 *
 * See vaccel_rv.h.
 */
void vaccel_rv_cpu_flush_tlb(struct vaccel_rv_cpu *cpu)
{
	vaccel_rv_cpu_flush(cpu);
}

/**
 * vaccel_rv_cpu_sync() - invalidate the instruction cache of an interpreter
 * @cpu: the interpreter
 *
 * See vaccel_rv.h.
 */
void vaccel_rv_cpu_sync(struct vaccel_rv_cpu *cpu)
{
	cpu->sync++;
}
#endif /* !VACCEL_RV_REFERENCE */

static __always_inline bool rv_branch_taken(unsigned int funct3, u64 a, u64 b)
{
	switch (funct3) {
	case 0:
		return a == b;
	case 1:
		return a != b;
	case 4:
		return (s64)a < (s64)b;
	case 5:
		return (s64)a >= (s64)b;
	case 6:
		return a < b;
	default:
		return a >= b;
	}
}

#ifdef VACCEL_RV_REFERENCE
/* A handler is a case of the switch; pc and the word are at hand. */
#define RV_PC		pc
#define RV_INSN		word

enum vaccel_rv_stop vaccel_rv_ref_run(struct vaccel_rv_cpu *cpu,
				      struct vaccel_rv_hart *hart, u64 budget,
				      u64 *executed,
				      struct vaccel_rv_fault *fault)
#else
/* A handler is a label; pc and the word follow from the op's slot. */

#define RV_PC		(code_va + ((u64)(op - cp->ops) << 2))
#define RV_INSN		(cp->words[op - cp->ops])

/**
 * vaccel_rv_run() - run a hart
 * @cpu: the interpreter of the engine
 * @hart: the work-item's state, updated
 * @budget: the most instructions to execute
 * @executed: incremented by the instructions executed (retired)
 * @fault: filled when the return is %VACCEL_RV_FAULT
 *
 * Runs until @budget instructions have retired, a barrier has, pc reaches
 * the exit address (checked before the budget), or an instruction faults.
 * The instructions retired are also added to @hart->instret.
 * Translations are cached during the call only, or with @cpu->keep_tlb
 * until vaccel_rv_cpu_flush_tlb(): the caller keeps those translate()
 * returns valid until then.
 *
 * Context: Any; does not sleep unless the callbacks do.
 * Return: why it stopped, &enum vaccel_rv_stop.
 */
enum vaccel_rv_stop vaccel_rv_run(struct vaccel_rv_cpu *cpu,
				  struct vaccel_rv_hart *hart, u64 budget,
				  u64 *executed, struct vaccel_rv_fault *fault)
#endif
{
	const u64 exit_pc = cpu->exit_pc;
	u64 *const x = hart->x, *const f = hart->f;
	u64 pc = hart->pc, left = budget, v;
	u64 out;	/* what the out-of-line helpers return */
	enum vaccel_rv_stop stop;
	u32 cause;
	const u8 *code;
	int rm;
#ifdef VACCEL_RV_REFERENCE
	struct vaccel_rv_op one;
	const struct vaccel_rv_op *op = &one;
	u32 word = 0;
#else
	static const void *const labels[H_COUNT] __annotate_jump_table = {
		[H_DECODE] = &&L_H_DECODE,
		[H_PAGE_END] = &&L_H_PAGE_END,
		[H_EXIT] = &&L_H_EXIT,
		[H_EXACT] = &&L_H_EXACT,
		[H_STOP] = &&L_H_STOP,
		[H_ADDI_B] = &&L_H_ADDI_B,
		[H_ADDI_ADDI_B] = &&L_H_ADDI_ADDI_B,
		[H_ADD_LW] = &&L_H_ADD_LW,
		[H_ADD_LD] = &&L_H_ADD_LD,
		[H_ADD_FLW] = &&L_H_ADD_FLW,
		[H_ADD_FLD] = &&L_H_ADD_FLD,
		[H_MUL_ADD] = &&L_H_MUL_ADD,
		[H_MULW_ADDW] = &&L_H_MULW_ADDW,
		[H_FMUL_FADD_S] = &&L_H_FMUL_FADD_S,
		[H_FMUL_FADD_D] = &&L_H_FMUL_FADD_D,
		[H_BEQ] = &&L_H_BEQ,
		[H_BNE] = &&L_H_BNE,
		[H_LW] = &&L_H_LW,
		[H_LD] = &&L_H_LD,
		[H_SB] = &&L_H_SB,
		[H_SH] = &&L_H_SH,
		[H_SW] = &&L_H_SW,
		[H_SD] = &&L_H_SD,
		[H_ADDI] = &&L_H_ADDI,
		[H_SLLI] = &&L_H_SLLI,
		[H_SRLI] = &&L_H_SRLI,
		[H_ADD] = &&L_H_ADD,
		[H_ADDW] = &&L_H_ADDW,
		[H_MULW] = &&L_H_MULW,
		[H_FLW] = &&L_H_FLW,
		[H_FLD] = &&L_H_FLD,
		[H_ILLEGAL] = &&L_H_ILLEGAL,
		[H_COMPRESSED] = &&L_H_COMPRESSED,
		[H_ECALL] = &&L_H_ECALL,
		[H_EBREAK] = &&L_H_EBREAK,
		[H_BARRIER] = &&L_H_BARRIER,
		[H_FENCE_I] = &&L_H_FENCE_I,
		[H_CSR] = &&L_H_CSR,
		[H_NOP] = &&L_H_NOP,
		[H_FENCE] = &&L_H_FENCE,
		[H_LUI] = &&L_H_LUI,
		[H_AUIPC] = &&L_H_AUIPC,
		[H_JAL] = &&L_H_JAL,
		[H_J] = &&L_H_J,
		[H_JALR] = &&L_H_JALR,
		[H_JR] = &&L_H_JR,
		[H_JMIS] = &&L_H_JMIS,
		[H_BLT] = &&L_H_BLT,
		[H_BGE] = &&L_H_BGE,
		[H_BLTU] = &&L_H_BLTU,
		[H_BGEU] = &&L_H_BGEU,
		[H_BMIS] = &&L_H_BMIS,
		[H_LB] = &&L_H_LB,
		[H_LH] = &&L_H_LH,
		[H_LBU] = &&L_H_LBU,
		[H_LHU] = &&L_H_LHU,
		[H_LWU] = &&L_H_LWU,
		[H_LX0] = &&L_H_LX0,
		[H_SLTI] = &&L_H_SLTI,
		[H_SLTIU] = &&L_H_SLTIU,
		[H_XORI] = &&L_H_XORI,
		[H_ORI] = &&L_H_ORI,
		[H_ANDI] = &&L_H_ANDI,
		[H_SRAI] = &&L_H_SRAI,
		[H_ADDIW] = &&L_H_ADDIW,
		[H_SLLIW] = &&L_H_SLLIW,
		[H_SRLIW] = &&L_H_SRLIW,
		[H_SRAIW] = &&L_H_SRAIW,
		[H_SUB] = &&L_H_SUB,
		[H_SLL] = &&L_H_SLL,
		[H_SLT] = &&L_H_SLT,
		[H_SLTU] = &&L_H_SLTU,
		[H_XOR] = &&L_H_XOR,
		[H_SRL] = &&L_H_SRL,
		[H_SRA] = &&L_H_SRA,
		[H_OR] = &&L_H_OR,
		[H_AND] = &&L_H_AND,
		[H_SUBW] = &&L_H_SUBW,
		[H_SLLW] = &&L_H_SLLW,
		[H_SRLW] = &&L_H_SRLW,
		[H_SRAW] = &&L_H_SRAW,
		[H_MUL] = &&L_H_MUL,
		[H_MULH] = &&L_H_MULH,
		[H_MULHSU] = &&L_H_MULHSU,
		[H_MULHU] = &&L_H_MULHU,
		[H_DIV] = &&L_H_DIV,
		[H_DIVU] = &&L_H_DIVU,
		[H_REM] = &&L_H_REM,
		[H_REMU] = &&L_H_REMU,
		[H_DIVW] = &&L_H_DIVW,
		[H_DIVUW] = &&L_H_DIVUW,
		[H_REMW] = &&L_H_REMW,
		[H_REMUW] = &&L_H_REMUW,
		[H_AMO] = &&L_H_AMO,
		[H_FSW] = &&L_H_FSW,
		[H_FSD] = &&L_H_FSD,
		[H_FADD_S] = &&L_H_FADD_S,
		[H_FSUB_S] = &&L_H_FSUB_S,
		[H_FMUL_S] = &&L_H_FMUL_S,
		[H_FDIV_S] = &&L_H_FDIV_S,
		[H_FADD_D] = &&L_H_FADD_D,
		[H_FSUB_D] = &&L_H_FSUB_D,
		[H_FMUL_D] = &&L_H_FMUL_D,
		[H_FDIV_D] = &&L_H_FDIV_D,
		[H_FMA_S] = &&L_H_FMA_S,
		[H_FMA_D] = &&L_H_FMA_D,
		[H_FSQRT_S] = &&L_H_FSQRT_S,
		[H_FSQRT_D] = &&L_H_FSQRT_D,
		[H_FP] = &&L_H_FP,
	};
	struct vaccel_rv_code *cp = NULL;
	struct vaccel_rv_op *op = NULL, *blk_end = NULL;
	u64 code_va = RV_NO_PAGE;
	unsigned int i;
#endif

	if (!cpu->keep_tlb)
		vaccel_rv_cpu_flush(cpu);
	fault->reason = 0;
	fault->va = 0;
	x[0] = 0;
	if (pc & 3 && pc != exit_pc) {
		fault->va = pc;
		cause = VACCEL_RV_CAUSE_MISALIGNED_FETCH;
		goto fetch_fault;
	}

#ifdef VACCEL_RV_REFERENCE
	for (;;) {
		if (pc == exit_pc) {
			stop = VACCEL_RV_EXIT;
			goto out;
		}
		if (!left) {
			stop = VACCEL_RV_BUDGET;
			goto out;
		}
		code = rv_page(cpu, RV_TLB_EXEC, pc, 0, fault);
		if (!code) {
			cause = VACCEL_RV_CAUSE_FETCH;
			goto fetch_fault;
		}
		word = *(const u32 *)(code + (pc & RV_PAGE_OFFSET));
		rv_decode_one(word, &one);
		left--;
		/* The same handlers, reached through a switch. */
		switch (op->handler) {
		case H_BEQ:
			goto L_H_BEQ;
		case H_BNE:
			goto L_H_BNE;
		case H_BLT:
			goto L_H_BLT;
		case H_BGE:
			goto L_H_BGE;
		case H_BLTU:
			goto L_H_BLTU;
		case H_BGEU:
			goto L_H_BGEU;
		case H_BMIS:
			goto L_H_BMIS;
		case H_LW:
			goto L_H_LW;
		case H_LD:
			goto L_H_LD;
		case H_SB:
			goto L_H_SB;
		case H_SH:
			goto L_H_SH;
		case H_SW:
			goto L_H_SW;
		case H_SD:
			goto L_H_SD;
		case H_ADDI:
			goto L_H_ADDI;
		case H_SLLI:
			goto L_H_SLLI;
		case H_SRLI:
			goto L_H_SRLI;
		case H_ADD:
			goto L_H_ADD;
		case H_ADDW:
			goto L_H_ADDW;
		case H_MULW:
			goto L_H_MULW;
		case H_FLW:
			goto L_H_FLW;
		case H_FLD:
			goto L_H_FLD;
		case H_NOP:
			goto L_H_NOP;
		case H_FENCE:
			goto L_H_FENCE;
		case H_FENCE_I:
			goto L_H_FENCE_I;
		case H_LUI:
			goto L_H_LUI;
		case H_AUIPC:
			goto L_H_AUIPC;
		case H_JAL:
			goto L_H_JAL;
		case H_J:
			goto L_H_J;
		case H_JALR:
			goto L_H_JALR;
		case H_JR:
			goto L_H_JR;
		case H_JMIS:
			goto L_H_JMIS;
		case H_LB:
			goto L_H_LB;
		case H_LH:
			goto L_H_LH;
		case H_LBU:
			goto L_H_LBU;
		case H_LHU:
			goto L_H_LHU;
		case H_LWU:
			goto L_H_LWU;
		case H_LX0:
			goto L_H_LX0;
		case H_SLTI:
			goto L_H_SLTI;
		case H_SLTIU:
			goto L_H_SLTIU;
		case H_XORI:
			goto L_H_XORI;
		case H_ORI:
			goto L_H_ORI;
		case H_ANDI:
			goto L_H_ANDI;
		case H_SRAI:
			goto L_H_SRAI;
		case H_ADDIW:
			goto L_H_ADDIW;
		case H_SLLIW:
			goto L_H_SLLIW;
		case H_SRLIW:
			goto L_H_SRLIW;
		case H_SRAIW:
			goto L_H_SRAIW;
		case H_SUB:
			goto L_H_SUB;
		case H_SLL:
			goto L_H_SLL;
		case H_SLT:
			goto L_H_SLT;
		case H_SLTU:
			goto L_H_SLTU;
		case H_XOR:
			goto L_H_XOR;
		case H_SRL:
			goto L_H_SRL;
		case H_SRA:
			goto L_H_SRA;
		case H_OR:
			goto L_H_OR;
		case H_AND:
			goto L_H_AND;
		case H_SUBW:
			goto L_H_SUBW;
		case H_SLLW:
			goto L_H_SLLW;
		case H_SRLW:
			goto L_H_SRLW;
		case H_SRAW:
			goto L_H_SRAW;
		case H_MUL:
			goto L_H_MUL;
		case H_MULH:
			goto L_H_MULH;
		case H_MULHSU:
			goto L_H_MULHSU;
		case H_MULHU:
			goto L_H_MULHU;
		case H_DIV:
			goto L_H_DIV;
		case H_DIVU:
			goto L_H_DIVU;
		case H_REM:
			goto L_H_REM;
		case H_REMU:
			goto L_H_REMU;
		case H_DIVW:
			goto L_H_DIVW;
		case H_DIVUW:
			goto L_H_DIVUW;
		case H_REMW:
			goto L_H_REMW;
		case H_REMUW:
			goto L_H_REMUW;
		case H_AMO:
			goto L_H_AMO;
		case H_CSR:
			goto L_H_CSR;
		case H_FSW:
			goto L_H_FSW;
		case H_FSD:
			goto L_H_FSD;
		case H_FADD_S:
			goto L_H_FADD_S;
		case H_FSUB_S:
			goto L_H_FSUB_S;
		case H_FMUL_S:
			goto L_H_FMUL_S;
		case H_FDIV_S:
			goto L_H_FDIV_S;
		case H_FADD_D:
			goto L_H_FADD_D;
		case H_FSUB_D:
			goto L_H_FSUB_D;
		case H_FMUL_D:
			goto L_H_FMUL_D;
		case H_FDIV_D:
			goto L_H_FDIV_D;
		case H_FMA_S:
			goto L_H_FMA_S;
		case H_FMA_D:
			goto L_H_FMA_D;
		case H_FSQRT_S:
			goto L_H_FSQRT_S;
		case H_FSQRT_D:
			goto L_H_FSQRT_D;
		case H_FP:
			goto L_H_FP;
		case H_BARRIER:
			goto L_H_BARRIER;
		case H_ECALL:
			goto L_H_ECALL;
		case H_EBREAK:
			goto L_H_EBREAK;
		case H_COMPRESSED:
			goto L_H_COMPRESSED;
		default:
			goto L_H_ILLEGAL;
		}
#else
	/* pc enters a page (or is the exit address). */
fetch:
	if (pc == exit_pc) {
		stop = VACCEL_RV_EXIT;
		goto out;
	}
	if (!left) {
		stop = VACCEL_RV_BUDGET;
		goto out;
	}
	code = rv_page(cpu, RV_TLB_EXEC, pc, 0, fault);
	if (!code) {
		cause = VACCEL_RV_CAUSE_FETCH;
		goto fetch_fault;
	}
	code_va = pc & RV_PAGE_MASK;
	cp = rv_code_page(cpu, code_va, code);
	op = &cp->ops[(pc & RV_PAGE_OFFSET) >> 2];

	/*
	 * The start of a basic block: charge all of it if the budget covers
	 * it, else make it stop where the budget does.  blk_end is where the
	 * charge ends: a fault refunds what is left before it.
	 */
enter:
	if (likely(op->block <= left)) {
		left -= op->block;
		blk_end = op + op->block;
		goto *labels[op->handler];
	}
	if (!left)
		goto L_H_STOP;
	rv_patch(cpu, op, left);
	blk_end = op + left;
	left = 0;
	goto *labels[op->handler];

	/* To pc, which is aligned: in the same page, or another. */
jump:
	if (likely((pc & RV_PAGE_MASK) == code_va)) {
		op = &cp->ops[(pc & RV_PAGE_OFFSET) >> 2];
		goto enter;
	}
	goto fetch;

	/* The next instruction, in the same basic block. */
next:
	op++;
	goto *labels[op->handler];

	/* The next instruction, which starts a basic block. */
block_next:
	op++;
	goto enter;

L_H_STOP:
	pc = RV_PC;
	stop = VACCEL_RV_BUDGET;
	goto out;

L_H_DECODE:
	/*
	 * Not decoded yet, or the page's decoding was forgotten: refund the
	 * rest of the block, if any, and decode from pc.
	 */
	left += blk_end - op;
	blk_end = op;
	pc = RV_PC;
	if (cp->va != code_va)
		goto fetch;
	rv_decode_block(cpu, cp, op - cp->ops);
	goto enter;

L_H_PAGE_END:
	pc = code_va + VACCEL_RV_PAGE_SIZE;
	goto fetch;

L_H_EXIT:
	pc = RV_PC;
	stop = VACCEL_RV_EXIT;
	goto out;

L_H_EXACT:
	/* An instruction outside any block: one at a time. */
	if (unlikely(!left))
		goto L_H_STOP;
	left--;
	blk_end = op + 1;
	goto *labels[op->single];

	/*
	 * Pairs and triples: their instructions are all in the block, which
	 * the budget covers (else rv_patch() split them).  A fault of the
	 * second is after the first retired.
	 */
L_H_ADDI_ADDI_B:
	x[op->rd] = x[op->rs1] + op->imm;
	x[op->xrd] = x[op->xrs1] + op->ximm;
	if (rv_branch_taken(op->rm, x[op->rs2], x[op->rs3])) {
		pc = RV_PC + 8 + op->imm2;
		goto jump;
	}
	op += 2;
	goto block_next;

L_H_ADDI_B:
	x[op->rd] = x[op->rs1] + op->imm;
	if (rv_branch_taken(op->rm, x[op->rs2], x[op->rs3])) {
		pc = RV_PC + 4 + op->imm2;
		goto jump;
	}
	op++;
	goto block_next;

L_H_ADD_LW:
	x[op->rd] = x[op->rs1] + x[op->rs2];
	if (unlikely(!rv_load(cpu, x[op->rd] + op->imm2, 4, &v, fault)))
		goto pair_load_fault;
	x[op->rs3] = (s32)v;
	op++;
	goto next;

L_H_ADD_LD:
	x[op->rd] = x[op->rs1] + x[op->rs2];
	if (unlikely(!rv_load(cpu, x[op->rd] + op->imm2, 8, &v, fault)))
		goto pair_load_fault;
	x[op->rs3] = v;
	op++;
	goto next;

L_H_ADD_FLW:
	x[op->rd] = x[op->rs1] + x[op->rs2];
	if (unlikely(!rv_load(cpu, x[op->rd] + op->imm2, 4, &v, fault)))
		goto pair_load_fault;
	f[op->rs3] = RV_BOX | v;
	op++;
	goto next;

L_H_ADD_FLD:
	x[op->rd] = x[op->rs1] + x[op->rs2];
	if (unlikely(!rv_load(cpu, x[op->rd] + op->imm2, 8, &v, fault)))
		goto pair_load_fault;
	f[op->rs3] = v;
	op++;
	goto next;

L_H_MUL_ADD:
	x[op->rd] = x[op->rs1] * x[op->rs2];
	x[op->rs3] = x[op->rd] + x[op->rm];
	op++;
	goto next;

L_H_MULW_ADDW:
	x[op->rd] = rv_muldiv_w(0, x[op->rs1], x[op->rs2]);
	x[op->rs3] = rv_sext32(x[op->rd] + x[op->rm]);
	op++;
	goto next;

L_H_FMUL_FADD_S:
	rm = rv_rm(hart, op->rm);
	if (unlikely(rm < 0))
		goto illegal;
	rv_set_f32(hart, op->rd, vaccel_f32_mul(rv_f32(hart, op->rs1),
						rv_f32(hart, op->rs2), rm,
						&hart->fcsr));
	rm = rv_rm(hart, op->imm2 >> 8);
	if (unlikely(rm < 0))
		goto pair_illegal;
	rv_set_f32(hart, op->rs3, vaccel_f32_add(rv_f32(hart, op->neg),
						 rv_f32(hart, op->imm2 & 31), rm,
						 &hart->fcsr));
	op++;
	goto next;

L_H_FMUL_FADD_D:
	rm = rv_rm(hart, op->rm);
	if (unlikely(rm < 0))
		goto illegal;
	f[op->rd] = vaccel_f64_mul(f[op->rs1], f[op->rs2], rm, &hart->fcsr);
	rm = rv_rm(hart, op->imm2 >> 8);
	if (unlikely(rm < 0))
		goto pair_illegal;
	f[op->rs3] = vaccel_f64_add(f[op->neg], f[op->imm2 & 31], rm,
				    &hart->fcsr);
	op++;
	goto next;
#endif /* VACCEL_RV_REFERENCE */

/* The instructions, one handler each. */
L_H_BEQ:
	if (x[op->rs1] == x[op->rs2]) {
		pc = RV_PC + op->imm;
		goto jump;
	}
	goto block_next;

L_H_BNE:
	if (x[op->rs1] != x[op->rs2]) {
		pc = RV_PC + op->imm;
		goto jump;
	}
	goto block_next;

L_H_BLT:
	if ((s64)x[op->rs1] < (s64)x[op->rs2]) {
		pc = RV_PC + op->imm;
		goto jump;
	}
	goto block_next;

L_H_BGE:
	if ((s64)x[op->rs1] >= (s64)x[op->rs2]) {
		pc = RV_PC + op->imm;
		goto jump;
	}
	goto block_next;

L_H_BLTU:
	if (x[op->rs1] < x[op->rs2]) {
		pc = RV_PC + op->imm;
		goto jump;
	}
	goto block_next;

L_H_BGEU:
	if (x[op->rs1] >= x[op->rs2]) {
		pc = RV_PC + op->imm;
		goto jump;
	}
	goto block_next;

L_H_BMIS:
	if (!rv_branch_taken(op->rm, x[op->rs1], x[op->rs2]))
		goto block_next;
	fault->va = RV_PC + op->imm;
	cause = VACCEL_RV_CAUSE_MISALIGNED_FETCH;
	goto insn_fault;

L_H_LW:
	if (unlikely(!rv_load(cpu, x[op->rs1] + op->imm, 4, &v, fault)))
		goto load_fault;
	x[op->rd] = (s32)v;
	goto next;

L_H_LD:
	if (unlikely(!rv_load(cpu, x[op->rs1] + op->imm, 8, &v, fault)))
		goto load_fault;
	x[op->rd] = v;
	goto next;

L_H_SB:
	if (unlikely(!rv_store(cpu, x[op->rs1] + op->imm, 1, x[op->rs2],
			       fault)))
		goto store_fault;
	goto next;

L_H_SH:
	if (unlikely(!rv_store(cpu, x[op->rs1] + op->imm, 2, x[op->rs2],
			       fault)))
		goto store_fault;
	goto next;

L_H_SW:
	if (unlikely(!rv_store(cpu, x[op->rs1] + op->imm, 4, x[op->rs2],
			       fault)))
		goto store_fault;
	goto next;

L_H_SD:
	if (unlikely(!rv_store(cpu, x[op->rs1] + op->imm, 8, x[op->rs2],
			       fault)))
		goto store_fault;
	goto next;

L_H_ADDI:
	x[op->rd] = x[op->rs1] + op->imm;
	goto next;

L_H_SLLI:
	x[op->rd] = x[op->rs1] << op->imm;
	goto next;

L_H_SRLI:
	x[op->rd] = x[op->rs1] >> op->imm;
	goto next;

L_H_ADD:
	x[op->rd] = x[op->rs1] + x[op->rs2];
	goto next;

L_H_ADDW:
	x[op->rd] = rv_sext32(x[op->rs1] + x[op->rs2]);
	goto next;

L_H_MULW:
	x[op->rd] = rv_muldiv_w(0, x[op->rs1], x[op->rs2]);
	goto next;

L_H_FLW:
	if (unlikely(!rv_load(cpu, x[op->rs1] + op->imm, 4, &v, fault)))
		goto load_fault;
	f[op->rd] = RV_BOX | v;
	goto next;

L_H_FLD:
	if (unlikely(!rv_load(cpu, x[op->rs1] + op->imm, 8, &v, fault)))
		goto load_fault;
	f[op->rd] = v;
	goto next;

L_H_NOP:
	goto next;

L_H_FENCE:
	/* Orders this hart's accesses for the other engines. */
	smp_mb();
	goto next;

L_H_FENCE_I:
#ifndef VACCEL_RV_REFERENCE
	/* Forget every decoded page, this one too: enter it again. */
	pc = RV_PC + 4;
	for (i = 0; i < VACCEL_RV_CODE_PAGES; i++)
		rv_code_drop(cpu, &cpu->code[i]);
	goto fetch;
#else
	goto next;
#endif

L_H_LUI:
	x[op->rd] = (s64)op->imm;
	goto next;

L_H_AUIPC:
	x[op->rd] = RV_PC + op->imm;
	goto next;

L_H_JAL:
	v = RV_PC;
	x[op->rd] = v + 4;
	pc = v + op->imm;
	goto jump;

L_H_J:
	pc = RV_PC + op->imm;
	goto jump;

L_H_JALR:
	v = (x[op->rs1] + op->imm) & ~1ull;
	if (unlikely(v & 3))
		goto jump_fault;
	x[op->rd] = RV_PC + 4;
	pc = v;
	goto jump;

L_H_JR:
	v = (x[op->rs1] + op->imm) & ~1ull;
	if (unlikely(v & 3))
		goto jump_fault;
	pc = v;
	goto jump;

L_H_JMIS:
	fault->va = RV_PC + op->imm;
	cause = VACCEL_RV_CAUSE_MISALIGNED_FETCH;
	goto insn_fault;

L_H_LB:
	if (unlikely(!rv_load(cpu, x[op->rs1] + op->imm, 1, &v, fault)))
		goto load_fault;
	x[op->rd] = (s8)v;
	goto next;

L_H_LH:
	if (unlikely(!rv_load(cpu, x[op->rs1] + op->imm, 2, &v, fault)))
		goto load_fault;
	x[op->rd] = (s16)v;
	goto next;

L_H_LBU:
	if (unlikely(!rv_load(cpu, x[op->rs1] + op->imm, 1, &v, fault)))
		goto load_fault;
	x[op->rd] = v;
	goto next;

L_H_LHU:
	if (unlikely(!rv_load(cpu, x[op->rs1] + op->imm, 2, &v, fault)))
		goto load_fault;
	x[op->rd] = v;
	goto next;

L_H_LWU:
	if (unlikely(!rv_load(cpu, x[op->rs1] + op->imm, 4, &v, fault)))
		goto load_fault;
	x[op->rd] = v;
	goto next;

L_H_LX0:
	/* It may fault: only its size matters. */
	if (unlikely(!rv_load_slow(cpu, x[op->rs1] + op->imm,
				   1 << (op->rm & 3), &out, fault)))
		goto load_fault;
	goto next;

L_H_SLTI:
	x[op->rd] = (s64)x[op->rs1] < (s64)op->imm;
	goto next;

L_H_SLTIU:
	x[op->rd] = x[op->rs1] < (u64)(s64)op->imm;
	goto next;

L_H_XORI:
	x[op->rd] = x[op->rs1] ^ op->imm;
	goto next;

L_H_ORI:
	x[op->rd] = x[op->rs1] | op->imm;
	goto next;

L_H_ANDI:
	x[op->rd] = x[op->rs1] & op->imm;
	goto next;

L_H_SRAI:
	x[op->rd] = (s64)x[op->rs1] >> op->imm;
	goto next;

L_H_ADDIW:
	x[op->rd] = rv_sext32(x[op->rs1] + op->imm);
	goto next;

L_H_SLLIW:
	x[op->rd] = rv_sext32((u32)x[op->rs1] << op->imm);
	goto next;

L_H_SRLIW:
	x[op->rd] = rv_sext32((u32)x[op->rs1] >> op->imm);
	goto next;

L_H_SRAIW:
	x[op->rd] = (s64)((s32)x[op->rs1] >> op->imm);
	goto next;

L_H_SUB:
	x[op->rd] = x[op->rs1] - x[op->rs2];
	goto next;

L_H_SLL:
	x[op->rd] = x[op->rs1] << (x[op->rs2] & 63);
	goto next;

L_H_SLT:
	x[op->rd] = (s64)x[op->rs1] < (s64)x[op->rs2];
	goto next;

L_H_SLTU:
	x[op->rd] = x[op->rs1] < x[op->rs2];
	goto next;

L_H_XOR:
	x[op->rd] = x[op->rs1] ^ x[op->rs2];
	goto next;

L_H_SRL:
	x[op->rd] = x[op->rs1] >> (x[op->rs2] & 63);
	goto next;

L_H_SRA:
	x[op->rd] = (s64)x[op->rs1] >> (x[op->rs2] & 63);
	goto next;

L_H_OR:
	x[op->rd] = x[op->rs1] | x[op->rs2];
	goto next;

L_H_AND:
	x[op->rd] = x[op->rs1] & x[op->rs2];
	goto next;

L_H_SUBW:
	x[op->rd] = rv_sext32(x[op->rs1] - x[op->rs2]);
	goto next;

L_H_SLLW:
	x[op->rd] = rv_sext32((u32)x[op->rs1] << (x[op->rs2] & 31));
	goto next;

L_H_SRLW:
	x[op->rd] = rv_sext32((u32)x[op->rs1] >> (x[op->rs2] & 31));
	goto next;

L_H_SRAW:
	x[op->rd] = (s64)((s32)x[op->rs1] >> (x[op->rs2] & 31));
	goto next;

L_H_MUL:
	x[op->rd] = rv_muldiv(0, x[op->rs1], x[op->rs2]);
	goto next;

L_H_MULH:
	x[op->rd] = rv_muldiv(1, x[op->rs1], x[op->rs2]);
	goto next;

L_H_MULHSU:
	x[op->rd] = rv_muldiv(2, x[op->rs1], x[op->rs2]);
	goto next;

L_H_MULHU:
	x[op->rd] = rv_muldiv(3, x[op->rs1], x[op->rs2]);
	goto next;

L_H_DIV:
	x[op->rd] = rv_muldiv(4, x[op->rs1], x[op->rs2]);
	goto next;

L_H_DIVU:
	x[op->rd] = rv_muldiv(5, x[op->rs1], x[op->rs2]);
	goto next;

L_H_REM:
	x[op->rd] = rv_muldiv(6, x[op->rs1], x[op->rs2]);
	goto next;

L_H_REMU:
	x[op->rd] = rv_muldiv(7, x[op->rs1], x[op->rs2]);
	goto next;

L_H_DIVW:
	x[op->rd] = rv_muldiv_w(4, x[op->rs1], x[op->rs2]);
	goto next;

L_H_DIVUW:
	x[op->rd] = rv_muldiv_w(5, x[op->rs1], x[op->rs2]);
	goto next;

L_H_REMW:
	x[op->rd] = rv_muldiv_w(6, x[op->rs1], x[op->rs2]);
	goto next;

L_H_REMUW:
	x[op->rd] = rv_muldiv_w(7, x[op->rs1], x[op->rs2]);
	goto next;

L_H_AMO:
	cause = rv_amo(cpu, hart, RV_INSN, &out, fault);
	if (unlikely(cause))
		goto insn_fault;
	x[op->rd] = out;
	x[0] = 0;
	goto next;

L_H_CSR:
	hart->pc = RV_PC;
	cause = rv_csr(cpu, hart, RV_INSN, budget - left - 1, &out);
	if (unlikely(cause))
		goto insn_fault;
	x[op->rd] = out;
	x[0] = 0;
	goto block_next;

L_H_FSW:
	if (unlikely(!rv_store(cpu, x[op->rs1] + op->imm, 4, f[op->rs2],
			       fault)))
		goto store_fault;
	goto next;

L_H_FSD:
	if (unlikely(!rv_store(cpu, x[op->rs1] + op->imm, 8, f[op->rs2],
			       fault)))
		goto store_fault;
	goto next;

/*
 * The soft-float ORs the flags it raises into fcsr directly: fflags
 * are its low bits.
 */
L_H_FADD_S:
	rm = rv_rm(hart, op->rm);
	if (unlikely(rm < 0))
		goto illegal;
	rv_set_f32(hart, op->rd, vaccel_f32_add(rv_f32(hart, op->rs1),
						rv_f32(hart, op->rs2), rm,
						&hart->fcsr));
	goto next;

L_H_FSUB_S:
	rm = rv_rm(hart, op->rm);
	if (unlikely(rm < 0))
		goto illegal;
	rv_set_f32(hart, op->rd, vaccel_f32_sub(rv_f32(hart, op->rs1),
						rv_f32(hart, op->rs2), rm,
						&hart->fcsr));
	goto next;

L_H_FMUL_S:
	rm = rv_rm(hart, op->rm);
	if (unlikely(rm < 0))
		goto illegal;
	rv_set_f32(hart, op->rd, vaccel_f32_mul(rv_f32(hart, op->rs1),
						rv_f32(hart, op->rs2), rm,
						&hart->fcsr));
	goto next;

L_H_FDIV_S:
	rm = rv_rm(hart, op->rm);
	if (unlikely(rm < 0))
		goto illegal;
	rv_set_f32(hart, op->rd, vaccel_f32_div(rv_f32(hart, op->rs1),
						rv_f32(hart, op->rs2), rm,
						&hart->fcsr));
	goto next;

L_H_FADD_D:
	rm = rv_rm(hart, op->rm);
	if (unlikely(rm < 0))
		goto illegal;
	f[op->rd] = vaccel_f64_add(f[op->rs1], f[op->rs2], rm, &hart->fcsr);
	goto next;

L_H_FSUB_D:
	rm = rv_rm(hart, op->rm);
	if (unlikely(rm < 0))
		goto illegal;
	f[op->rd] = vaccel_f64_sub(f[op->rs1], f[op->rs2], rm, &hart->fcsr);
	goto next;

L_H_FMUL_D:
	rm = rv_rm(hart, op->rm);
	if (unlikely(rm < 0))
		goto illegal;
	f[op->rd] = vaccel_f64_mul(f[op->rs1], f[op->rs2], rm, &hart->fcsr);
	goto next;

L_H_FDIV_D:
	rm = rv_rm(hart, op->rm);
	if (unlikely(rm < 0))
		goto illegal;
	f[op->rd] = vaccel_f64_div(f[op->rs1], f[op->rs2], rm, &hart->fcsr);
	goto next;

L_H_FMA_S:
	rm = rv_rm(hart, op->rm);
	if (unlikely(rm < 0))
		goto illegal;
	rv_set_f32(hart, op->rd,
		   vaccel_f32_fma(rv_f32(hart, op->rs1) ^
				  (op->neg & 1 ? RV_SIGN32 : 0),
				  rv_f32(hart, op->rs2),
				  rv_f32(hart, op->rs3) ^
				  (op->neg & 2 ? RV_SIGN32 : 0), rm,
				  &hart->fcsr));
	goto next;

L_H_FMA_D:
	rm = rv_rm(hart, op->rm);
	if (unlikely(rm < 0))
		goto illegal;
	f[op->rd] = vaccel_f64_fma(f[op->rs1] ^ (op->neg & 1 ? RV_SIGN64 : 0),
				   f[op->rs2],
				   f[op->rs3] ^ (op->neg & 2 ? RV_SIGN64 : 0),
				   rm, &hart->fcsr);
	goto next;

L_H_FSQRT_S:
	rm = rv_rm(hart, op->rm);
	if (unlikely(rm < 0))
		goto illegal;
	rv_set_f32(hart, op->rd, vaccel_f32_sqrt(rv_f32(hart, op->rs1), rm,
						 &hart->fcsr));
	goto next;

L_H_FSQRT_D:
	rm = rv_rm(hart, op->rm);
	if (unlikely(rm < 0))
		goto illegal;
	f[op->rd] = vaccel_f64_sqrt(f[op->rs1], rm, &hart->fcsr);
	goto next;

L_H_FP:
	cause = rv_fp(hart, RV_INSN);
	if (unlikely(cause))
		goto insn_fault;
	x[0] = 0;
	goto next;

L_H_BARRIER:
	pc = RV_PC + 4;
	stop = VACCEL_RV_BARRIER;
	goto out;

L_H_ECALL:
	cause = VACCEL_RV_CAUSE_ECALL;
	goto insn_fault;

L_H_EBREAK:
	cause = VACCEL_RV_CAUSE_BREAKPOINT;
	goto insn_fault;

L_H_COMPRESSED:
	cause = VACCEL_RV_CAUSE_COMPRESSED;
	goto insn_fault;

L_H_ILLEGAL:
	goto illegal;
#ifdef VACCEL_RV_REFERENCE
next:
block_next:
		pc += 4;
		continue;
jump:
		continue;
	}
#endif

#ifndef VACCEL_RV_REFERENCE
pair_illegal:
	cause = VACCEL_RV_CAUSE_ILLEGAL_INSN;
	goto pair_fault;
pair_load_fault:
	cause = VACCEL_RV_CAUSE_LOAD;
pair_fault:
	/* The first of the pair retired: the fault is the second's. */
	op++;
	goto insn_fault;
#endif
jump_fault:
	fault->va = v;
	cause = VACCEL_RV_CAUSE_MISALIGNED_FETCH;
	goto insn_fault;
load_fault:
	cause = VACCEL_RV_CAUSE_LOAD;
	goto insn_fault;
store_fault:
	cause = VACCEL_RV_CAUSE_STORE;
	goto insn_fault;
illegal:
	cause = VACCEL_RV_CAUSE_ILLEGAL_INSN;
insn_fault:
	/* The instruction did not retire, nor did the rest of its block. */
#ifdef VACCEL_RV_REFERENCE
	left++;
#else
	left += blk_end - op;
	pc = RV_PC;
#endif
	fault->insn = RV_INSN;
	goto fault;
fetch_fault:
	fault->insn = 0;
fault:
	fault->cause = cause;
	fault->pc = pc;
	if (cause != VACCEL_RV_CAUSE_FETCH &&
	    cause != VACCEL_RV_CAUSE_LOAD && cause != VACCEL_RV_CAUSE_STORE)
		fault->reason = 0;
	stop = VACCEL_RV_FAULT;
out:
	rv_unpatch(cpu);
	x[0] = 0;
	hart->pc = pc;
	hart->instret += budget - left;
	*executed += budget - left;
	return stop;
}
