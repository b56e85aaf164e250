// SPDX-License-Identifier: MIT
/*
 * Copyright 2026 The vaccel authors
 *
 * stack.c - how much stack a kernel needs, from its module alone.
 *
 * vaccel-cc compiles with clang's -fstack-size-section: every function's
 * frame size goes into a section .stack_sizes of the module, a list of
 * (64-bit link address of the function, ULEB128 bytes of its frame).
 * That is each function's own frame; a kernel needs the frames of the
 * deepest chain of calls it can make.  The call graph comes from the code:
 * the functions are those of the symbol table, and a call is
 *
 *	jal ra, target				(rd != x0)
 *	auipc rX, hi ; jalr rd, lo(rX)		(clang's call and tail)
 *
 * whose target must be the start of a function; a jal or auipc/jalr with
 * rd x0 to another function is a tail call, counted as a call (an
 * overestimate by the caller's frame).  The need of a function is its
 * frame plus the largest need of its callees.  A function that keeps a
 * variable more aligned than the ABI's 16 bytes realigns its stack
 * pointer after the frame (andi sp, sp, -ALIGN; for 4 KiB and more,
 * srli rX, sp, K then slli sp, rX, K), which .stack_sizes does not count:
 * up to ALIGN - 16 bytes more, added to its frame.  It is not known when the
 * module has no .stack_sizes, a function reached has no frame size or no
 * symbol size, a call goes through a register (a function pointer, a
 * virtual call, a jump table: `jalr` without its auipc), a call leaves the
 * code or lands inside a function, or the graph has a cycle (recursion);
 * the loader then gives the kernel the default stack.
 *
 * The module is untrusted: the walk is depth-first with a depth limit,
 * so that a crafted graph cannot exhaust the host's stack, and every
 * count and size is bounded.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "vaccel_priv.h"

/* Functions analysed at most; past that, needs are not known. */
#define VACCEL_STACK_MAX_FUNCTIONS	65536u
/* The deepest chain of calls followed. */
#define VACCEL_STACK_MAX_DEPTH		256u
/* The largest need believed; above it, the need is not known. */
#define VACCEL_STACK_MAX_BYTES		(1u << 30)

enum vaccel_stack_state {
	VACCEL_STACK_UNSEEN,
	VACCEL_STACK_WALKING,
	VACCEL_STACK_DONE,
};

/**
 * struct vaccel_stack_fn - a function of the module
 * @start: its offset in the image
 * @size: its size in bytes, whole instructions
 * @frame: its frame, from .stack_sizes
 * @has_frame: .stack_sizes gives @frame
 * @state: &enum vaccel_stack_state of the walk
 * @need: once done, what it needs
 */
struct vaccel_stack_fn {
	uint64_t start;
	uint64_t size;
	uint32_t frame;
	bool has_frame;
	uint8_t state;
	struct vaccel_stack_need need;
};

/**
 * struct vaccel_stack_graph - the functions of a module, by start
 * @img: the module
 * @fns: its functions, sorted by @start, one per address
 * @n: entries of @fns
 * @complete: every function of the symbol table is in @fns
 */
struct vaccel_stack_graph {
	const struct vaccel_elf_image *img;
	struct vaccel_stack_fn *fns;
	unsigned int n;
	bool complete;
};

static const struct vaccel_stack_need vaccel_stack_unknown = { false, 0 };

static int vaccel_stack_fn_cmp(const void *a, const void *b)
{
	const struct vaccel_stack_fn *x = a, *y = b;

	return x->start < y->start ? -1 : x->start > y->start;
}

/* The function that starts at image offset @start, or NULL. */
static struct vaccel_stack_fn *vaccel_stack_fn_at(struct vaccel_stack_graph *g,
						  uint64_t start)
{
	unsigned int lo = 0, hi = g->n;

	while (lo < hi) {
		unsigned int mid = lo + (hi - lo) / 2;

		if (g->fns[mid].start < start)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < g->n && g->fns[lo].start == start ? &g->fns[lo] : NULL;
}

/* Reads a ULEB128 of at most 32 bits at *@p, before @end. */
static bool vaccel_uleb32(const unsigned char **p, const unsigned char *end,
			  uint32_t *out)
{
	uint64_t v = 0;
	unsigned int shift = 0;

	while (*p < end && shift < 35) {
		unsigned char b = *(*p)++;

		v |= (uint64_t)(b & 0x7f) << shift;
		if (!(b & 0x80)) {
			if (v > UINT32_MAX)
				return false;
			*out = v;
			return true;
		}
		shift += 7;
	}
	return false;
}

/* Gives the functions their frames from .stack_sizes; false if malformed. */
static bool vaccel_stack_read_sizes(struct vaccel_stack_graph *g)
{
	const struct vaccel_elf_image *img = g->img;
	const unsigned char *p, *end;
	uint64_t off, size;

	if (!vaccel_elf_find_section(img, ".stack_sizes", &off, &size))
		return false;
	p = img->file + off;
	end = p + size;
	while (p < end) {
		struct vaccel_stack_fn *fn;
		uint64_t addr = 0;
		uint32_t frame;
		int i;

		if (end - p < 8)
			return false;
		for (i = 0; i < 8; i++)
			addr |= (uint64_t)p[i] << (8 * i);
		p += 8;
		if (!vaccel_uleb32(&p, end, &frame))
			return false;
		fn = addr >= img->base ? vaccel_stack_fn_at(g, addr - img->base) : NULL;
		/* Two entries for one address (aliases): the larger frame. */
		if (fn && (!fn->has_frame || frame > fn->frame)) {
			fn->frame = frame;
			fn->has_frame = true;
		}
	}
	return true;
}

int vaccel_stack_graph_build(const struct vaccel_elf_image *img,
			     struct vaccel_stack_graph **out)
{
	struct vaccel_stack_graph *g;
	uint64_t pos = 0, offset, size;
	const char *name;
	unsigned int cap = 0, i, n;

	g = calloc(1, sizeof(*g));
	if (!g)
		return -ENOMEM;
	g->img = img;
	g->complete = true;
	while (vaccel_elf_next_function(img, &pos, &name, &offset, &size)) {
		if (g->n == VACCEL_STACK_MAX_FUNCTIONS) {
			g->complete = false;
			break;
		}
		if (g->n == cap) {
			struct vaccel_stack_fn *fns;

			cap = cap ? cap * 2 : 64;
			fns = realloc(g->fns, cap * sizeof(*fns));
			if (!fns) {
				vaccel_stack_graph_free(g);
				return -ENOMEM;
			}
			g->fns = fns;
		}
		g->fns[g->n++] = (struct vaccel_stack_fn){
			.start = offset,
			.size = size & ~3ull,
		};
	}
	qsort(g->fns, g->n, sizeof(*g->fns), vaccel_stack_fn_cmp);
	/* One entry per address: aliases keep the largest size. */
	for (i = n = 0; i < g->n; i++) {
		if (n && g->fns[n - 1].start == g->fns[i].start) {
			if (g->fns[i].size > g->fns[n - 1].size)
				g->fns[n - 1].size = g->fns[i].size;
			continue;
		}
		g->fns[n++] = g->fns[i];
	}
	g->n = n;
	/* Without frame sizes, nothing is known. */
	if (!vaccel_stack_read_sizes(g))
		g->complete = false;
	*out = g;
	return 0;
}

void vaccel_stack_graph_free(struct vaccel_stack_graph *g)
{
	if (!g)
		return;
	free(g->fns);
	free(g);
}

static int64_t vaccel_sext(uint64_t v, unsigned int bits)
{
	return (int64_t)(v << (64 - bits)) >> (64 - bits);
}

/* The offset of a J-type jump at image offset @pc. */
static uint64_t vaccel_jal_target(uint64_t pc, uint32_t w)
{
	uint64_t imm = ((uint64_t)((w >> 31) & 1) << 20) |
		       ((uint64_t)((w >> 12) & 0xff) << 12) |
		       ((uint64_t)((w >> 20) & 1) << 11) |
		       ((uint64_t)((w >> 21) & 0x3ff) << 1);

	return pc + vaccel_sext(imm, 21);
}

static struct vaccel_stack_need vaccel_stack_walk(struct vaccel_stack_graph *g,
						  struct vaccel_stack_fn *fn,
						  unsigned int depth);

/*
 * Folds the call from @fn to image offset @target into *@deepest: false
 * if that makes the need unknown.  A jump inside @fn is no call.
 */
static bool vaccel_stack_call(struct vaccel_stack_graph *g, struct vaccel_stack_fn *fn,
			      uint64_t target, bool link, unsigned int depth,
			      uint32_t *deepest)
{
	struct vaccel_stack_fn *callee;
	struct vaccel_stack_need need;

	if (target >= fn->start && target - fn->start < fn->size)
		return !link;	/* a branch, or a call of itself */
	callee = vaccel_stack_fn_at(g, target);
	if (!callee)
		return false;
	need = vaccel_stack_walk(g, callee, depth + 1);
	if (!need.known)
		return false;
	if (need.bytes > *deepest)
		*deepest = need.bytes;
	return true;
}

/*
 * Raises *@pad to what the instruction @w may take from the stack below
 * the frame by realigning sp; false if that is beyond belief.
 */
static bool vaccel_stack_realign(uint32_t w, uint32_t *pad)
{
	unsigned int shamt;
	int64_t imm;

	if (((w >> 7) & 31) != 2)
		return true;				/* sp is not written */
	if ((w & 0x707f) == 0x7013) {			/* andi sp, rX, imm */
		imm = vaccel_sext(w >> 20, 12);
		if (imm < -16 && -imm - 16 > *pad)
			*pad = (uint32_t)(-imm - 16);
	} else if ((w & 0xfc00707f) == 0x1013) {	/* slli sp, rX, shamt */
		shamt = (w >> 20) & 63;
		if (shamt >= 30)
			return false;
		if (shamt > 4 && (1u << shamt) - 16 > *pad)
			*pad = (1u << shamt) - 16;
	}
	return true;
}

/*
 * Whether the calls of @fn all have a known need; their largest in
 * *@deepest, and what realigning sp may add to @fn's frame in *@pad.
 */
static bool vaccel_stack_scan(struct vaccel_stack_graph *g, struct vaccel_stack_fn *fn,
			      unsigned int depth, uint32_t *deepest, uint32_t *pad)
{
	const unsigned char *code;
	uint32_t prev = 0;
	uint64_t i;

	code = vaccel_elf_code(g->img, g->img->base + fn->start, fn->size);
	if (!code)
		return false;
	for (i = 0; i < fn->size; i += 4) {
		uint32_t w = code[i] | code[i + 1] << 8 | code[i + 2] << 16 |
			     (uint32_t)code[i + 3] << 24;
		uint64_t pc = fn->start + i, target;
		unsigned int rd = (w >> 7) & 31, rs1 = (w >> 15) & 31;

		if (!vaccel_stack_realign(w, pad))
			return false;
		if ((w & 0x7f) == 0x6f) {			/* jal */
			if (!vaccel_stack_call(g, fn, vaccel_jal_target(pc, w), rd != 0,
					       depth, deepest))
				return false;
		} else if ((w & 0x707f) == 0x67) {		/* jalr */
			if (!rd && rs1 == 1 && !(w >> 20)) {
				/* ret */
			} else if ((prev & 0x7f) == 0x17 && ((prev >> 7) & 31) == rs1 && rs1) {
				/* auipc rs1, hi; jalr rd, lo(rs1) */
				target = pc - 4 + vaccel_sext(prev & 0xfffff000, 32) +
					 vaccel_sext(w >> 20, 12);
				if (!vaccel_stack_call(g, fn, target, rd != 0, depth, deepest))
					return false;
			} else {
				return false;	/* through a register */
			}
		}
		prev = w;
	}
	return true;
}

static struct vaccel_stack_need vaccel_stack_walk(struct vaccel_stack_graph *g,
						  struct vaccel_stack_fn *fn,
						  unsigned int depth)
{
	uint32_t deepest = 0, pad = 0;

	if (fn->state == VACCEL_STACK_DONE)
		return fn->need;
	/* A cycle, or deeper than believable. */
	if (fn->state == VACCEL_STACK_WALKING || depth > VACCEL_STACK_MAX_DEPTH)
		return vaccel_stack_unknown;
	fn->state = VACCEL_STACK_WALKING;
	fn->need = vaccel_stack_unknown;
	if (fn->has_frame && fn->size && vaccel_stack_scan(g, fn, depth, &deepest, &pad) &&
	    (uint64_t)fn->frame + pad + deepest <= VACCEL_STACK_MAX_BYTES) {
		fn->need.known = true;
		fn->need.bytes = fn->frame + pad + deepest;
	}
	fn->state = VACCEL_STACK_DONE;
	return fn->need;
}

struct vaccel_stack_need vaccel_stack_graph_need(struct vaccel_stack_graph *g,
						 uint64_t offset)
{
	struct vaccel_stack_fn *fn;

	if (!g->complete)
		return vaccel_stack_unknown;
	fn = vaccel_stack_fn_at(g, offset);
	return fn ? vaccel_stack_walk(g, fn, 0) : vaccel_stack_unknown;
}
