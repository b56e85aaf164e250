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
 * exit address), its micro-TLBs and its decode cache.  It keeps nothing of
 * a hart from one call of vaccel_rv_run() to the next.
 *
 * Decode and execute.  vaccel_rv_run() reads each instruction word from
 * the host page of the current pc, which it translates again only when pc
 * leaves that page.  The decode cache, direct-mapped by pc, holds the
 * instruction decoded (&struct vaccel_rv_op: what executes it, its
 * registers and its sign-extended immediate) together with the word it was
 * decoded from: an entry is used when that word is the word at pc, so the
 * cache is never flushed, and code written by the program (with FENCE.I),
 * by the CPU between dispatches or belonging to another address space is
 * decoded afresh.  A decoding depends on the words only (see pairs
 * below), never on pc.
 * Execution is a switch on the decoded handler, with no indirect call:
 * the kernel builds it as a tree of compares (no jump tables under
 * retpolines), user space as a jump table.  The tree's depth is what an
 * instruction pays, so the handlers of the hottest instructions are
 * numbered first and dispatched by switches of their own: the pairs and
 * triples below H_WARM, then the loads, stores, branches and arithmetic of
 * inner loops below H_COLD, then the others, each group one compare away
 * from the next.
 * Reserved encodings decode to the illegal-instruction handler, integer
 * instructions without a destination to a no-op, and loads and jumps
 * without one to handlers that write no register; x0 is zeroed again
 * after the few rare handlers that may write it otherwise.
 *
 * Pairs and triples.  Dispatch is most of an instruction's cost, so a few
 * sequences that inner loops are made of decode to one handler that
 * executes them all: an ADDI followed by a conditional branch (a loop
 * latch), two ADDIs and a branch (a latch that also steps two pointers),
 * an ADD followed by a load (LW, LD, FLW, FLD) from the address it
 * computed (array indexing), a MUL (MULW) followed by an ADD (ADDW) of its
 * product and an FMUL followed by an FADD of the same format (multiply-
 * accumulate).  The entry also holds the following words, which the
 * handler compares with memory: it runs the first instruction alone when
 * they differ, when they are not in the page being executed (or are at
 * the exit address) or when the budget has no room for them all, and the
 * rest then executes from its own entries.  A load of a pair that faults,
 * or an FADD with an invalid dynamic rounding mode, does so after the
 * first instruction retired, with pc at the faulting one, as if they had
 * run one at a time.
 *
 * Floating-point arithmetic is the integer-only soft-float of
 * vaccel_softfloat.c: the host's FPU is never used.  Single-precision
 * values are NaN-boxed in the 64-bit f registers, and an operand that is
 * not reads as the canonical NaN.  The custom-0 word 0x0000000b is the
 * workgroup barrier; every other custom encoding is illegal.
 *
 * Micro-TLB.  Loads, stores and fetches each have a small direct-mapped
 * cache of host page addresses, tagged with the page's address.  A hit is a
 * compare in line, with no call; a miss calls the environment's translate()
 * and fills the entry.  The entries are only valid during one call of
 * vaccel_rv_run(), during which the caller keeps the translations valid
 * (the engine holds its TLB's lock): each call starts a new generation,
 * which a tag carries in its low bits, so that forgetting every entry costs
 * nothing.  An access that stays in one page reads or writes the host page
 * directly; one that crosses a page (misaligned accesses are supported)
 * translates both pages first.  translate() also names the class of memory
 * of each page (the engine's own device memory, system memory, a peer's),
 * and every load and store adds its bytes to the counter of that class,
 * through the entry: one more addition per access, and no branch.
 *
 * Atomics.  Engines and the CPU share memory, so the A extension uses the
 * host's atomic operations on the host page: AMOSWAP is xchg(), the other
 * AMOs are cmpxchg() loops, both fully ordered, so aq and rl need nothing
 * more.  LR loads and records the address and the value; SC is a
 * compare-and-exchange against that value, which succeeds if memory still
 * holds it.  Such an SC may succeed after another hart wrote the same value
 * back, and fails whenever the value changed: both are allowed, as the
 * specification lets SC fail spuriously and cannot tell the difference.
 * FENCE is a full host barrier; FENCE.I needs nothing, as the decode
 * cache checks every word it uses against memory.
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
 * reschedule.  Stopping at the budget and resuming later gives the same
 * results as running without it.  A call also returns at a barrier (pc past
 * it), when pc reaches the exit address (the work-item returned), and at a
 * fault.  The fast path checks only that pc is still in the page being
 * executed and that budget is left; reaching the exit address is noticed
 * when pc enters another page, or, if the exit address is in an executable
 * page, because that page's fast path ends there.
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

/*
 * What executes a decoded instruction: the labels of vaccel_rv_run().  The
 * hottest come first, below H_WARM, then the hot ones, below H_COLD: each
 * group has a switch of its own.
 */
enum {
	H_ADDI_B,	/* ADDI, then a conditional branch */
	H_ADDI_ADDI_B,	/* two ADDIs, then a conditional branch */
	H_ADD_LW,	/* ADD, then a load from its result */
	H_ADD_LD,
	H_ADD_FLW,
	H_ADD_FLD,
	H_MUL_ADD,	/* MUL, then an ADD of its result */
	H_MULW_ADDW,	/* MULW, then an ADDW of its result */
	H_WARM,		/* the first of the hot but not hottest */
	H_BEQ = H_WARM,
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
	H_COLD,		/* the first of the others */
	H_ILLEGAL = H_COLD,
	H_COMPRESSED,
	H_ECALL,
	H_EBREAK,
	H_BARRIER,
	H_NOP,
	H_FENCE,
	H_LUI,
	H_AUIPC,
	H_JAL,
	H_J,		/* JAL without a destination */
	H_JALR,
	H_JR,		/* JALR without a destination */
	H_JMIS,		/* JAL to a misaligned target */
	H_BLT,
	H_BGE,
	H_BLTU,
	H_BGEU,
	H_BMIS,		/* a branch to a misaligned target */
	H_LB,
	H_LH,
	H_LBU,
	H_LHU,
	H_LWU,
	H_LX0,		/* an integer load without a destination */
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
	H_CSR,
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
	H_FMUL_FADD_S,	/* FMUL, then an FADD (one format) */
	H_FMUL_FADD_D,
	H_FP,		/* every other F and D instruction */
	H_COUNT
};

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
	if (funct5 > RV_FP_DIV || rm == 5 || rm == 6)
		return H_FP;	/* which checks everything */
	return (fmt ? H_FADD_D : H_FADD_S) + funct5;
}

/*
 * Makes @op, the decoding of an ADDI or an ADD, execute the instruction
 * @next after it too, if it can: a conditional branch after an ADDI, a
 * load (LW, LD, FLW, FLD) from the address an ADD computed after an ADD,
 * an ADD (ADDW) of its result after a MUL (MULW).
 * The second instruction's rd (or rs1) goes in @op->rs3, its rs1 (or rs2)
 * in @op->rs2, its funct3 in @op->rm and its immediate in @op->imm2.
 * And to make a triple: @op an ADDI + branch pair, @next the ADDI before.
 */
static void rv_fuse(u32 next, struct vaccel_rv_op *op)
{
	unsigned int f3 = rv_funct3(next), h;

	if (op->handler == H_ADDI_B) {
		/* @next is an ADDI before the pair ADDI + branch of @op. */
		op->handler = H_ADDI_ADDI_B;
		op->xrd = op->rd;
		op->xrs1 = op->rs1;
		op->ximm = op->imm;
		op->insn3 = op->insn2;
		op->insn2 = op->insn;
		op->insn = next;
		op->rd = rv_rd(next);
		op->rs1 = rv_rs1(next);
		op->imm = rv_imm_i(next);
		return;
	}

	if (op->handler == H_FMUL_S || op->handler == H_FMUL_D) {
		/* FADD of the same format: rs1 in @op->neg, rs2 and rm in imm2. */
		unsigned int fmt = op->handler == H_FMUL_D;

		if ((next & 0xfe00007f) != (fmt << 25 | RV_OP_FP) ||
		    f3 == 5 || f3 == 6)
			return;
		op->handler = op->handler == H_FMUL_S ? H_FMUL_FADD_S :
			      H_FMUL_FADD_D;
		op->rs3 = rv_rd(next);
		op->neg = rv_rs1(next);
		op->imm2 = rv_rs2(next) | f3 << 8;
		op->insn2 = next;
		return;
	}
	if (op->handler == H_MUL || op->handler == H_MULW) {
		/* ADD or ADDW with rd, its other operand in @op->rm. */
		if ((next & 0xfe00707f) !=
		    (op->handler == H_MUL ? RV_OP_OP : RV_OP_OP_32) ||
		    !rv_rd(next) ||
		    (rv_rs1(next) != op->rd && rv_rs2(next) != op->rd))
			return;
		op->handler = op->handler == H_MUL ? H_MUL_ADD : H_MULW_ADDW;
		op->rs3 = rv_rd(next);
		op->insn2 = next;
		op->rm = rv_rs1(next) == op->rd ? rv_rs2(next) : rv_rs1(next);
		return;
	}
	if (op->handler == H_ADDI) {
		if ((next & 0x7f) != RV_OP_BRANCH ||
		    rv_branch_h[f3] == H_ILLEGAL || rv_imm_b(next) & 2)
			return;
		op->handler = H_ADDI_B;
		op->imm2 = rv_imm_b(next);
		op->rs2 = rv_rs1(next);
		op->rs3 = rv_rs2(next);
	} else {
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
	}
	op->insn2 = next;
	op->rm = f3;
}

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
		h = f3 == 0 ? H_FENCE : f3 == 1 ? H_NOP : H_ILLEGAL;
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

	op->insn = insn;
	op->handler = h;
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
	op->pad = 0;
	op->insn2 = 0;
	op->imm2 = 0;
	op->insn3 = 0;
	op->xrd = 0;
	op->xrs1 = 0;
	op->ximm = 0;
}

/*
 * Decodes @insn into @op; @next and @next2 are the words after it, or 0
 * where there is none to execute.  The result depends on the words only,
 * never on where they are, so that an entry of the decode cache serves
 * any pc that holds the same word (and the handler of a pair or a triple
 * checks the other words).
 */
static noinline void rv_decode(u32 insn, u32 next, u32 next2,
			       struct vaccel_rv_op *op)
{
	unsigned int h;

	rv_decode_one(insn, op);
	h = op->handler;
	/*
	 * ADDI, ADDI, branch: the second and third as a pair, then the
	 * first added in front.
	 */
	if (h == H_ADDI && (next & 0x707f) == RV_OP_IMM && rv_rd(next)) {
		rv_decode_one(next, op);
		rv_fuse(next2, op);
		if (op->handler == H_ADDI_B) {
			rv_fuse(insn, op);
			return;
		}
		rv_decode_one(insn, op);
	}
	if (h == H_ADDI || h == H_ADD || h == H_MUL || h == H_MULW ||
	    h == H_FMUL_S || h == H_FMUL_D)
		rv_fuse(next, op);
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
	cpu->gen = 1;
	for (t = 0; t < 3; t++) {
		for (i = 0; i < VACCEL_RV_TLB_ENTRIES; i++) {
			cpu->tlb[t][i].tag = 0;
			cpu->tlb[t][i].page = NULL;
			cpu->tlb[t][i].count = &cpu->bytes[0][0];
		}
	}
	memset(cpu->bytes, 0, sizeof(cpu->bytes));
	/* Every entry starts as the decoding of the word 0. */
	for (i = 0; i < VACCEL_RV_DC_ENTRIES; i++)
		rv_decode(0, 0, 0, &cpu->dc[i]);
}

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

/*
 * Whether the handler of a pair (@op, at offset @off of the page @code
 * being executed, of which @code_len bytes may execute) can execute the
 * second instruction too: budget is @left for it, and it is still there.
 */
static __always_inline bool rv_pair(const struct vaccel_rv_op *op,
				    const u8 *code, u64 off, u64 code_len,
				    u64 left)
{
	return likely(left && off + 4 < code_len &&
		      *(const u32 *)(code + off + 4) == op->insn2);
}

/* The same for the second and third instructions of a triple. */
static __always_inline bool rv_triple(const struct vaccel_rv_op *op,
				      const u8 *code, u64 off, u64 code_len,
				      u64 left)
{
	return likely(left >= 2 && off + 8 < code_len &&
		      *(const u32 *)(code + off + 4) == op->insn2 &&
		      *(const u32 *)(code + off + 8) == op->insn3);
}

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
 * Translations are cached during the call only: the caller keeps those
 * translate() returns valid until it returns.
 *
 * Context: Any; does not sleep unless the callbacks do.
 * Return: why it stopped, &enum vaccel_rv_stop.
 */
enum vaccel_rv_stop vaccel_rv_run(struct vaccel_rv_cpu *cpu,
				  struct vaccel_rv_hart *hart, u64 budget,
				  u64 *executed, struct vaccel_rv_fault *fault)
{
	const u64 exit_pc = cpu->exit_pc;
	struct vaccel_rv_op *const dc = cpu->dc;
	struct vaccel_rv_op *op = NULL;
	u64 *const x = hart->x, *const f = hart->f;
	u64 pc = hart->pc, left = budget, code_va = 1, code_len = 0, off, v;
	u64 out;	/* what the out-of-line helpers return */
	const u8 *code = NULL;
	enum vaccel_rv_stop stop;
	u32 cause, word;
	int rm;

	vaccel_rv_cpu_flush(cpu);
	fault->reason = 0;
	fault->va = 0;
	x[0] = 0;
	if (pc & 3 && pc != exit_pc) {
		fault->va = pc;
		cause = VACCEL_RV_CAUSE_MISALIGNED_FETCH;
		goto fetch_fault;
	}

	for (;;) {
		/*
		 * The fast path: pc in the page being executed (below the
		 * exit address if it is in that page) and budget left.
		 */
		off = pc - code_va;
		if (unlikely(off >= code_len || !left)) {
			if (pc == exit_pc) {
				stop = VACCEL_RV_EXIT;
				goto out;
			}
			if (!left) {
				stop = VACCEL_RV_BUDGET;
				goto out;
			}
			if ((pc & RV_PAGE_MASK) != code_va) {
				code = rv_page(cpu, RV_TLB_EXEC, pc, 0, fault);
				if (!code) {
					cause = VACCEL_RV_CAUSE_FETCH;
					goto fetch_fault;
				}
				code_va = pc & RV_PAGE_MASK;
				code_len = VACCEL_RV_PAGE_SIZE;
				if ((exit_pc & RV_PAGE_MASK) == code_va)
					code_len = exit_pc & RV_PAGE_OFFSET;
			}
			off = pc - code_va;
		}
		op = &dc[(pc >> 2) & (VACCEL_RV_DC_ENTRIES - 1)];
		word = *(const u32 *)(code + off);
		left--;
		if (unlikely(op->insn != word))
			rv_decode(word, off + 4 < code_len ?
				  *(const u32 *)(code + off + 4) : 0,
				  off + 8 < code_len ?
				  *(const u32 *)(code + off + 8) : 0, op);

		if (op->handler >= H_WARM)
			goto warm;
		switch (op->handler) {
		case H_ADDI_ADDI_B:
			x[op->rd] = x[op->rs1] + op->imm;
			if (!rv_triple(op, code, off, code_len, left))
				break;
			x[op->xrd] = x[op->xrs1] + op->ximm;
			left -= 2;
			if (rv_branch_taken(op->rm, x[op->rs2], x[op->rs3])) {
				pc += 8 + op->imm2;
				continue;
			}
			pc += 12;
			continue;

		case H_ADD_LW:
			x[op->rd] = x[op->rs1] + x[op->rs2];
			if (!rv_pair(op, code, off, code_len, left))
				break;
			if (unlikely(!rv_load(cpu, x[op->rd] + op->imm2, 4, &v, fault)))
				goto pair_load_fault;
			x[op->rs3] = (s32)v;
			left--;
			pc += 8;
			continue;

		case H_ADD_LD:
			x[op->rd] = x[op->rs1] + x[op->rs2];
			if (!rv_pair(op, code, off, code_len, left))
				break;
			if (unlikely(!rv_load(cpu, x[op->rd] + op->imm2, 8, &v, fault)))
				goto pair_load_fault;
			x[op->rs3] = v;
			left--;
			pc += 8;
			continue;

		case H_ADD_FLW:
			x[op->rd] = x[op->rs1] + x[op->rs2];
			if (!rv_pair(op, code, off, code_len, left))
				break;
			if (unlikely(!rv_load(cpu, x[op->rd] + op->imm2, 4, &v, fault)))
				goto pair_load_fault;
			f[op->rs3] = RV_BOX | v;
			left--;
			pc += 8;
			continue;

		case H_ADD_FLD:
			x[op->rd] = x[op->rs1] + x[op->rs2];
			if (!rv_pair(op, code, off, code_len, left))
				break;
			if (unlikely(!rv_load(cpu, x[op->rd] + op->imm2, 8, &v, fault)))
				goto pair_load_fault;
			f[op->rs3] = v;
			left--;
			pc += 8;
			continue;

		case H_MUL_ADD:
			x[op->rd] = x[op->rs1] * x[op->rs2];
			if (!rv_pair(op, code, off, code_len, left))
				break;
			x[op->rs3] = x[op->rd] + x[op->rm];
			left--;
			pc += 8;
			continue;

		case H_MULW_ADDW:
			x[op->rd] = rv_muldiv_w(0, x[op->rs1], x[op->rs2]);
			if (!rv_pair(op, code, off, code_len, left))
				break;
			x[op->rs3] = rv_sext32(x[op->rd] + x[op->rm]);
			left--;
			pc += 8;
			continue;

		case H_ADDI_B:
			x[op->rd] = x[op->rs1] + op->imm;
			if (!rv_pair(op, code, off, code_len, left))
				break;
			left--;
			if (rv_branch_taken(op->rm, x[op->rs2], x[op->rs3])) {
				pc += 4 + op->imm2;
				continue;
			}
			pc += 8;
			continue;
		}
		pc += 4;
		continue;

warm:
		if (op->handler >= H_COLD)
			goto cold;
		switch (op->handler) {
		case H_BEQ:
			if (x[op->rs1] == x[op->rs2]) {
				pc += op->imm;
				continue;
			}
			break;

		case H_BNE:
			if (x[op->rs1] != x[op->rs2]) {
				pc += op->imm;
				continue;
			}
			break;

		case H_LW:
			if (unlikely(!rv_load(cpu, x[op->rs1] + op->imm, 4, &v, fault)))
				goto load_fault;
			x[op->rd] = (s32)v;
			break;

		case H_LD:
			if (unlikely(!rv_load(cpu, x[op->rs1] + op->imm, 8, &v, fault)))
				goto load_fault;
			x[op->rd] = v;
			break;

		case H_SB:
			if (unlikely(!rv_store(cpu, x[op->rs1] + op->imm, 1, x[op->rs2],
					       fault)))
				goto store_fault;
			break;

		case H_SH:
			if (unlikely(!rv_store(cpu, x[op->rs1] + op->imm, 2, x[op->rs2],
					       fault)))
				goto store_fault;
			break;

		case H_SW:
			if (unlikely(!rv_store(cpu, x[op->rs1] + op->imm, 4, x[op->rs2],
					       fault)))
				goto store_fault;
			break;

		case H_SD:
			if (unlikely(!rv_store(cpu, x[op->rs1] + op->imm, 8, x[op->rs2],
					       fault)))
				goto store_fault;
			break;

		case H_ADDI:
			x[op->rd] = x[op->rs1] + op->imm;
			break;

		case H_SLLI:
			x[op->rd] = x[op->rs1] << op->imm;
			break;

		case H_SRLI:
			x[op->rd] = x[op->rs1] >> op->imm;
			break;

		case H_ADD:
			x[op->rd] = x[op->rs1] + x[op->rs2];
			break;

		case H_ADDW:
			x[op->rd] = rv_sext32(x[op->rs1] + x[op->rs2]);
			break;

		case H_MULW:
			x[op->rd] = rv_muldiv_w(0, x[op->rs1], x[op->rs2]);
			break;

		case H_FLW:
			if (unlikely(!rv_load(cpu, x[op->rs1] + op->imm, 4, &v, fault)))
				goto load_fault;
			f[op->rd] = RV_BOX | v;
			break;

		case H_FLD:
			if (unlikely(!rv_load(cpu, x[op->rs1] + op->imm, 8, &v, fault)))
				goto load_fault;
			f[op->rd] = v;
			break;
		}
		pc += 4;
		continue;

cold:
		switch (op->handler) {
		case H_NOP:
			break;

		case H_FENCE:
			/* Orders this hart's accesses for the other engines. */
			smp_mb();
			break;

		case H_LUI:
			x[op->rd] = (s64)op->imm;
			break;

		case H_AUIPC:
			x[op->rd] = pc + op->imm;
			break;

		case H_JAL:
			x[op->rd] = pc + 4;
			pc += op->imm;
			continue;

		case H_J:
			pc += op->imm;
			continue;

		case H_JALR:
			v = (x[op->rs1] + op->imm) & ~1ull;
			if (unlikely(v & 3))
				goto jump_fault;
			x[op->rd] = pc + 4;
			pc = v;
			continue;

		case H_JR:
			v = (x[op->rs1] + op->imm) & ~1ull;
			if (unlikely(v & 3))
				goto jump_fault;
			pc = v;
			continue;

		case H_JMIS:
			fault->va = pc + op->imm;
			cause = VACCEL_RV_CAUSE_MISALIGNED_FETCH;
			goto insn_fault;

		case H_BLT:
			if ((s64)x[op->rs1] < (s64)x[op->rs2]) {
				pc += op->imm;
				continue;
			}
			break;

		case H_BGE:
			if ((s64)x[op->rs1] >= (s64)x[op->rs2]) {
				pc += op->imm;
				continue;
			}
			break;

		case H_BLTU:
			if (x[op->rs1] < x[op->rs2]) {
				pc += op->imm;
				continue;
			}
			break;

		case H_BGEU:
			if (x[op->rs1] >= x[op->rs2]) {
				pc += op->imm;
				continue;
			}
			break;

		case H_BMIS:
			if (!rv_branch_taken(op->rm, x[op->rs1], x[op->rs2]))
				break;
			fault->va = pc + op->imm;
			cause = VACCEL_RV_CAUSE_MISALIGNED_FETCH;
			goto insn_fault;

		case H_LB:
			if (unlikely(!rv_load(cpu, x[op->rs1] + op->imm, 1, &v, fault)))
				goto load_fault;
			x[op->rd] = (s8)v;
			break;

		case H_LH:
			if (unlikely(!rv_load(cpu, x[op->rs1] + op->imm, 2, &v, fault)))
				goto load_fault;
			x[op->rd] = (s16)v;
			break;

		case H_LBU:
			if (unlikely(!rv_load(cpu, x[op->rs1] + op->imm, 1, &v, fault)))
				goto load_fault;
			x[op->rd] = v;
			break;

		case H_LHU:
			if (unlikely(!rv_load(cpu, x[op->rs1] + op->imm, 2, &v, fault)))
				goto load_fault;
			x[op->rd] = v;
			break;

		case H_LWU:
			if (unlikely(!rv_load(cpu, x[op->rs1] + op->imm, 4, &v, fault)))
				goto load_fault;
			x[op->rd] = v;
			break;

		case H_LX0:
			/* It may fault: only its size matters. */
			if (unlikely(!rv_load_slow(cpu, x[op->rs1] + op->imm,
						   1 << (op->rm & 3), &out, fault)))
				goto load_fault;
			break;

		case H_SLTI:
			x[op->rd] = (s64)x[op->rs1] < (s64)op->imm;
			break;

		case H_SLTIU:
			x[op->rd] = x[op->rs1] < (u64)(s64)op->imm;
			break;

		case H_XORI:
			x[op->rd] = x[op->rs1] ^ op->imm;
			break;

		case H_ORI:
			x[op->rd] = x[op->rs1] | op->imm;
			break;

		case H_ANDI:
			x[op->rd] = x[op->rs1] & op->imm;
			break;

		case H_SRAI:
			x[op->rd] = (s64)x[op->rs1] >> op->imm;
			break;

		case H_ADDIW:
			x[op->rd] = rv_sext32(x[op->rs1] + op->imm);
			break;

		case H_SLLIW:
			x[op->rd] = rv_sext32((u32)x[op->rs1] << op->imm);
			break;

		case H_SRLIW:
			x[op->rd] = rv_sext32((u32)x[op->rs1] >> op->imm);
			break;

		case H_SRAIW:
			x[op->rd] = (s64)((s32)x[op->rs1] >> op->imm);
			break;

		case H_SUB:
			x[op->rd] = x[op->rs1] - x[op->rs2];
			break;

		case H_SLL:
			x[op->rd] = x[op->rs1] << (x[op->rs2] & 63);
			break;

		case H_SLT:
			x[op->rd] = (s64)x[op->rs1] < (s64)x[op->rs2];
			break;

		case H_SLTU:
			x[op->rd] = x[op->rs1] < x[op->rs2];
			break;

		case H_XOR:
			x[op->rd] = x[op->rs1] ^ x[op->rs2];
			break;

		case H_SRL:
			x[op->rd] = x[op->rs1] >> (x[op->rs2] & 63);
			break;

		case H_SRA:
			x[op->rd] = (s64)x[op->rs1] >> (x[op->rs2] & 63);
			break;

		case H_OR:
			x[op->rd] = x[op->rs1] | x[op->rs2];
			break;

		case H_AND:
			x[op->rd] = x[op->rs1] & x[op->rs2];
			break;

		case H_SUBW:
			x[op->rd] = rv_sext32(x[op->rs1] - x[op->rs2]);
			break;

		case H_SLLW:
			x[op->rd] = rv_sext32((u32)x[op->rs1] << (x[op->rs2] & 31));
			break;

		case H_SRLW:
			x[op->rd] = rv_sext32((u32)x[op->rs1] >> (x[op->rs2] & 31));
			break;

		case H_SRAW:
			x[op->rd] = (s64)((s32)x[op->rs1] >> (x[op->rs2] & 31));
			break;

		case H_MUL:
			x[op->rd] = rv_muldiv(0, x[op->rs1], x[op->rs2]);
			break;

		case H_MULH:
			x[op->rd] = rv_muldiv(1, x[op->rs1], x[op->rs2]);
			break;

		case H_MULHSU:
			x[op->rd] = rv_muldiv(2, x[op->rs1], x[op->rs2]);
			break;

		case H_MULHU:
			x[op->rd] = rv_muldiv(3, x[op->rs1], x[op->rs2]);
			break;

		case H_DIV:
			x[op->rd] = rv_muldiv(4, x[op->rs1], x[op->rs2]);
			break;

		case H_DIVU:
			x[op->rd] = rv_muldiv(5, x[op->rs1], x[op->rs2]);
			break;

		case H_REM:
			x[op->rd] = rv_muldiv(6, x[op->rs1], x[op->rs2]);
			break;

		case H_REMU:
			x[op->rd] = rv_muldiv(7, x[op->rs1], x[op->rs2]);
			break;

		case H_DIVW:
			x[op->rd] = rv_muldiv_w(4, x[op->rs1], x[op->rs2]);
			break;

		case H_DIVUW:
			x[op->rd] = rv_muldiv_w(5, x[op->rs1], x[op->rs2]);
			break;

		case H_REMW:
			x[op->rd] = rv_muldiv_w(6, x[op->rs1], x[op->rs2]);
			break;

		case H_REMUW:
			x[op->rd] = rv_muldiv_w(7, x[op->rs1], x[op->rs2]);
			break;

		case H_AMO:
			cause = rv_amo(cpu, hart, op->insn, &out, fault);
			if (unlikely(cause))
				goto insn_fault;
			x[op->rd] = out;
			x[0] = 0;
			break;

		case H_CSR:
			hart->pc = pc;
			cause = rv_csr(cpu, hart, op->insn, budget - left - 1, &out);
			if (unlikely(cause))
				goto insn_fault;
			x[op->rd] = out;
			x[0] = 0;
			break;

		case H_FSW:
			if (unlikely(!rv_store(cpu, x[op->rs1] + op->imm, 4, f[op->rs2],
					       fault)))
				goto store_fault;
			break;

		case H_FSD:
			if (unlikely(!rv_store(cpu, x[op->rs1] + op->imm, 8, f[op->rs2],
					       fault)))
				goto store_fault;
			break;

		/*
		 * The soft-float ORs the flags it raises into fcsr directly:
		 * fflags are its low bits.
		 */
		case H_FADD_S:
			rm = rv_rm(hart, op->rm);
			if (unlikely(rm < 0))
				goto illegal;
			rv_set_f32(hart, op->rd, vaccel_f32_add(rv_f32(hart, op->rs1),
								rv_f32(hart, op->rs2), rm,
								&hart->fcsr));
			break;

		case H_FSUB_S:
			rm = rv_rm(hart, op->rm);
			if (unlikely(rm < 0))
				goto illegal;
			rv_set_f32(hart, op->rd, vaccel_f32_sub(rv_f32(hart, op->rs1),
								rv_f32(hart, op->rs2), rm,
								&hart->fcsr));
			break;

		case H_FMUL_S:
			rm = rv_rm(hart, op->rm);
			if (unlikely(rm < 0))
				goto illegal;
			rv_set_f32(hart, op->rd, vaccel_f32_mul(rv_f32(hart, op->rs1),
								rv_f32(hart, op->rs2), rm,
								&hart->fcsr));
			break;

		case H_FMUL_FADD_S:
			rm = rv_rm(hart, op->rm);
			if (unlikely(rm < 0))
				goto illegal;
			rv_set_f32(hart, op->rd, vaccel_f32_mul(rv_f32(hart, op->rs1),
								rv_f32(hart, op->rs2), rm,
								&hart->fcsr));
			if (!rv_pair(op, code, off, code_len, left))
				break;
			rm = rv_rm(hart, op->imm2 >> 8);
			if (unlikely(rm < 0))
				goto pair_illegal;
			rv_set_f32(hart, op->rs3, vaccel_f32_add(rv_f32(hart, op->neg),
								 rv_f32(hart, op->imm2 & 31), rm,
								 &hart->fcsr));
			left--;
			pc += 8;
			continue;

		case H_FMUL_FADD_D:
			rm = rv_rm(hart, op->rm);
			if (unlikely(rm < 0))
				goto illegal;
			f[op->rd] = vaccel_f64_mul(f[op->rs1], f[op->rs2], rm, &hart->fcsr);
			if (!rv_pair(op, code, off, code_len, left))
				break;
			rm = rv_rm(hart, op->imm2 >> 8);
			if (unlikely(rm < 0))
				goto pair_illegal;
			f[op->rs3] = vaccel_f64_add(f[op->neg], f[op->imm2 & 31], rm,
						    &hart->fcsr);
			left--;
			pc += 8;
			continue;

		case H_FDIV_S:
			rm = rv_rm(hart, op->rm);
			if (unlikely(rm < 0))
				goto illegal;
			rv_set_f32(hart, op->rd, vaccel_f32_div(rv_f32(hart, op->rs1),
								rv_f32(hart, op->rs2), rm,
								&hart->fcsr));
			break;

		case H_FADD_D:
			rm = rv_rm(hart, op->rm);
			if (unlikely(rm < 0))
				goto illegal;
			f[op->rd] = vaccel_f64_add(f[op->rs1], f[op->rs2], rm, &hart->fcsr);
			break;

		case H_FSUB_D:
			rm = rv_rm(hart, op->rm);
			if (unlikely(rm < 0))
				goto illegal;
			f[op->rd] = vaccel_f64_sub(f[op->rs1], f[op->rs2], rm, &hart->fcsr);
			break;

		case H_FMUL_D:
			rm = rv_rm(hart, op->rm);
			if (unlikely(rm < 0))
				goto illegal;
			f[op->rd] = vaccel_f64_mul(f[op->rs1], f[op->rs2], rm, &hart->fcsr);
			break;

		case H_FDIV_D:
			rm = rv_rm(hart, op->rm);
			if (unlikely(rm < 0))
				goto illegal;
			f[op->rd] = vaccel_f64_div(f[op->rs1], f[op->rs2], rm, &hart->fcsr);
			break;

		case H_FMA_S:
			rm = rv_rm(hart, op->rm);
			if (unlikely(rm < 0))
				goto illegal;
			rv_set_f32(hart, op->rd,
				   vaccel_f32_fma(rv_f32(hart, op->rs1) ^
						  (op->neg & 1 ? RV_SIGN32 : 0),
						  rv_f32(hart, op->rs2),
						  rv_f32(hart, op->rs3) ^
						  (op->neg & 2 ? RV_SIGN32 : 0), rm, &hart->fcsr));
			break;

		case H_FMA_D:
			rm = rv_rm(hart, op->rm);
			if (unlikely(rm < 0))
				goto illegal;
			f[op->rd] = vaccel_f64_fma(f[op->rs1] ^ (op->neg & 1 ? RV_SIGN64 : 0),
						   f[op->rs2],
						   f[op->rs3] ^ (op->neg & 2 ? RV_SIGN64 : 0),
						   rm, &hart->fcsr);
			break;

		case H_FP:
			cause = rv_fp(hart, op->insn);
			if (unlikely(cause))
				goto insn_fault;
			x[0] = 0;
			break;

		case H_BARRIER:
			pc += 4;
			stop = VACCEL_RV_BARRIER;
			goto out;

		case H_ECALL:
			cause = VACCEL_RV_CAUSE_ECALL;
			goto insn_fault;
		case H_EBREAK:
			cause = VACCEL_RV_CAUSE_BREAKPOINT;
			goto insn_fault;
		case H_COMPRESSED:
			cause = VACCEL_RV_CAUSE_COMPRESSED;
			goto insn_fault;
		default:	/* H_ILLEGAL */
			goto illegal;
		}
		pc += 4;
	}

pair_illegal:
	cause = VACCEL_RV_CAUSE_ILLEGAL_INSN;
	goto pair_fault;
pair_load_fault:
	cause = VACCEL_RV_CAUSE_LOAD;
pair_fault:
	/* The first of the pair retired: the fault is the second's. */
	pc += 4;
	fault->insn = op->insn2;
	goto fault;
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
	/* The instruction did not retire. */
	left++;
	fault->insn = op->insn;
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
	x[0] = 0;
	hart->pc = pc;
	hart->instret += budget - left;
	*executed += budget - left;
	return stop;
}
