// SPDX-License-Identifier: GPL-2.0-only
/*
 * content.c - vaccel-fuzz: what the engines are fed: DMA buffers and RV64
 * kernels, well-formed, bit-flipped, random, or well-shaped with wild
 * addresses, sizes, grids and branch targets.
 *
 * A write call names where the buffer's kernel and data are mapped: the
 * VAs that the snippet's binds got (each bind of a snippet maps at its own
 * call's range, fuzz_call_va()), or the fixed slots 1 and 2 of older
 * programs.  Well-formed packets point there, so that a well-formed
 * program really runs; the other kinds reach the parsers', the MMU's and
 * the interpreter's error paths.
 */
#include <string.h>

#include <drm/vaccel_accel.h>

#include "fuzz.h"

/* The VA of a fixed slot, or of one of the boundary addresses past them. */
uint64_t fuzz_slot_va(const struct fuzz_device *dev, uint64_t slot)
{
	uint64_t base = dev->va_start + (16ull << 20);

	if (slot < FUZZ_SLOTS)
		return base + slot * FUZZ_SLOT_BYTES;
	switch (slot) {
	case 32: return dev->va_end - 0x1000;
	case 33: return dev->va_end;
	case 34: return dev->va_start;
	case 35: return 0;
	case 36: return 1ull << 47;
	case 37: return ~0xfffull;
	default: return base + (slot % FUZZ_SLOTS) * FUZZ_SLOT_BYTES + (slot - 16) * 8;
	}
}

/* The range of call @index of a program, past the fixed slots. */
uint64_t fuzz_call_va(const struct fuzz_device *dev, unsigned int index)
{
	return dev->va_start + (64ull << 20) + index * FUZZ_CALL_VA_BYTES;
}

/* --- DMA buffers ------------------------------------------------------------ */

/* An address in the first 64 KiB of the data, @align-aligned. */
static uint64_t data_va(const struct fuzz_layout *l, struct fuzz_rng *r, unsigned int align)
{
	return l->data_va + (fuzz_below(r, 0x10000 / align) * align);
}

static uint64_t wild_va(const struct fuzz_device *dev, const struct fuzz_layout *l,
			struct fuzz_rng *r)
{
	switch (fuzz_below(r, 6)) {
	case 0: return fuzz_next(r);
	case 1: return fuzz_slot_va(dev, 32 + fuzz_below(r, 6)) + fuzz_below(r, 16);
	case 2: return l->data_va + 0x10000 - fuzz_below(r, 8);
	case 3: return fuzz_slot_va(dev, fuzz_below(r, FUZZ_SLOTS)) + fuzz_below(r, 4096);
	case 4: return fuzz_call_va(dev, fuzz_below(r, FUZZ_MAX_CALLS)) + fuzz_below(r, 0x10000);
	default: return data_va(l, r, 1) + 1;
	}
}

static uint64_t wild_size(struct fuzz_rng *r)
{
	static const uint64_t s[] = {
		0, 1, 3, 4, 0x10000, 0x10001, 1ull << 32, (1ull << 32) + 4, ~0ull, 1ull << 63,
	};

	return s[fuzz_below(r, sizeof(s) / sizeof(s[0]))];
}

/* Writes one packet at w; returns its length in words, 0 if no room. */
static size_t packet(uint64_t *w, size_t room, bool wild, struct fuzz_rng *r,
		     const struct fuzz_device *dev, const struct fuzz_layout *l)
{
	unsigned int op = fuzz_below(r, 8);
	unsigned int flags = 0;

	switch (op) {
	case DRM_VACCEL_PKT_NOP: {
		size_t len = 1 + fuzz_below(r, 3);

		if (len > room)
			return 0;
		w[0] = DRM_VACCEL_PKT_HEADER(op, 0, len);
		for (size_t i = 1; i < len; i++)
			w[i] = fuzz_next(r);
		return len;
	}
	case DRM_VACCEL_PKT_WRITE_IMM:
		if (room < 3)
			return 0;
		flags = fuzz_below(r, 2) ? DRM_VACCEL_PKT_F_64BIT : 0;
		w[0] = DRM_VACCEL_PKT_HEADER(op, flags, 3);
		w[1] = wild ? wild_va(dev, l, r) : data_va(l, r, 8);
		w[2] = fuzz_next(r);
		return 3;
	case DRM_VACCEL_PKT_COPY:
		if (room < 4)
			return 0;
		w[0] = DRM_VACCEL_PKT_HEADER(op, 0, 4);
		w[1] = wild ? wild_va(dev, l, r) : data_va(l, r, 1);
		w[2] = wild ? wild_va(dev, l, r) : data_va(l, r, 1);
		w[3] = wild ? wild_size(r) : fuzz_below(r, 0x4000);
		return 4;
	case DRM_VACCEL_PKT_FILL:
		if (room < 4)
			return 0;
		w[0] = DRM_VACCEL_PKT_HEADER(op, 0, 4);
		w[1] = wild ? wild_va(dev, l, r) : data_va(l, r, 4);
		w[2] = wild ? wild_size(r) : 4 * fuzz_below(r, 0x1000);
		w[3] = fuzz_next(r);
		return 4;
	case DRM_VACCEL_PKT_TIMESTAMP:
		if (room < 2)
			return 0;
		w[0] = DRM_VACCEL_PKT_HEADER(op, 0, 2);
		w[1] = wild ? wild_va(dev, l, r) : data_va(l, r, 8);
		return 2;
	case DRM_VACCEL_PKT_WAIT_MEM:
		if (room < 4)
			return 0;
		flags = DRM_VACCEL_PKT_WAIT_OP(fuzz_below(r, wild ? 8 : 6)) |
			(fuzz_below(r, 2) ? DRM_VACCEL_PKT_F_64BIT : 0);
		w[0] = DRM_VACCEL_PKT_HEADER(op, flags, 4);
		w[1] = wild ? wild_va(dev, l, r) : data_va(l, r, 8);
		w[2] = fuzz_next(r);
		/* A zero mask makes EQ, GE and LE true at once: no hang. */
		w[3] = wild || fuzz_chance(r, 20) ? fuzz_next(r) : 0;
		return 4;
	case DRM_VACCEL_PKT_DELAY:
		if (room < 2)
			return 0;
		w[0] = DRM_VACCEL_PKT_HEADER(op, 0, 2);
		w[1] = wild ? wild_size(r) : fuzz_below(r, 200000);
		return 2;
	default: {
		uint64_t grid[3] = { 1 + fuzz_below(r, 64), 1 + fuzz_below(r, 3), 1 };
		uint64_t wg[3] = { 1 + fuzz_below(r, 16), 1, 1 };

		if (room < 11)
			return 0;
		if (wild) {
			for (int i = 0; i < 3; i++) {
				if (fuzz_chance(r, 30))
					grid[i] = wild_size(r);
				if (fuzz_chance(r, 30))
					wg[i] = wild_size(r) & 0xffffffff;
			}
		}
		w[0] = DRM_VACCEL_PKT_HEADER(DRM_VACCEL_PKT_DISPATCH, 0, 11);
		w[1] = wild && fuzz_chance(r, 50) ? wild_va(dev, l, r) : l->kernel_va;
		w[2] = data_va(l, r, 8);
		w[3] = grid[0];
		w[4] = grid[1];
		w[5] = grid[2];
		w[6] = wg[0];
		w[7] = wg[1];
		w[8] = wg[2];
		w[9] = wild ? wild_size(r) : fuzz_below(r, 2) * 1024;
		w[10] = wild ? wild_size(r) : 1024 * fuzz_below(r, 5);
		/* A workgroup range (uapi 1.7): inside the grid, or wild. */
		if (room >= 13 && fuzz_chance(r, 25)) {
			uint64_t groups = 1;

			for (int i = 0; i < 3; i++)
				groups *= wg[i] ? (grid[i] + wg[i] - 1) / wg[i] : 1;
			w[0] = DRM_VACCEL_PKT_HEADER(DRM_VACCEL_PKT_DISPATCH,
						     DRM_VACCEL_PKT_F_GROUP_RANGE, 13);
			w[11] = wild ? wild_size(r) : fuzz_below(r, groups ? groups : 1);
			w[12] = wild ? wild_size(r) :
				1 + fuzz_below(r, groups > w[11] ? groups - w[11] : 1);
			return 13;
		}
		return 11;
	}
	}
}

/*
 * A long buffer: a DELAY well under the hang timeout, or a DISPATCH of the
 * looping kernels over a large grid, between short packets; what it does
 * matters less than that it runs long enough for another context of its
 * engine to preempt it.
 */
static size_t long_buffer(uint64_t *w, size_t words, struct fuzz_rng *r,
			  const struct fuzz_device *dev, const struct fuzz_layout *l)
{
	size_t n = 0;

	if (words < 16)
		return 0;
	n += packet(w, words, false, r, dev, l);
	if (fuzz_chance(r, 50)) {
		w[n++] = DRM_VACCEL_PKT_HEADER(DRM_VACCEL_PKT_DELAY, 0, 2);
		w[n++] = 5000000 + fuzz_below(r, 25000000);	/* two timeslices or more */
	} else {
		w[n++] = DRM_VACCEL_PKT_HEADER(DRM_VACCEL_PKT_DISPATCH, 0, 11);
		w[n++] = l->kernel_va;
		w[n++] = data_va(l, r, 8);
		w[n++] = 16 + fuzz_below(r, 48);	/* grid */
		w[n++] = 1;
		w[n++] = 1;
		w[n++] = 1 + fuzz_below(r, 64);		/* workgroup */
		w[n++] = 1;
		w[n++] = 1;
		w[n++] = 1024;				/* local memory */
		w[n++] = 1024;				/* stack */
	}
	if (words - n >= 13)
		n += packet(w + n, words - n, false, r, dev, l);
	return n;
}

/*
 * fuzz_write_buffer() - write a DMA buffer of @kind into @dst
 * Return: the bytes of the buffer, at most @len.
 */
size_t fuzz_write_buffer(void *dst, size_t len, unsigned int kind, uint32_t seed,
			 const struct fuzz_device *dev, const struct fuzz_layout *l)
{
	size_t words = len / 8, n = 0, count;
	uint64_t *w = dst;
	struct fuzz_rng r;

	fuzz_seed(&r, seed, 1);
	if (words > 512)
		words = 512;
	count = 1 + fuzz_below(&r, 8);
	switch (kind % FW_KINDS) {
	case FW_RANDOM:
		n = 1 + fuzz_below(&r, words);
		for (size_t i = 0; i < n; i++) {
			w[i] = fuzz_next(&r);
			if (fuzz_chance(&r, 50))	/* a plausible header */
				w[i] = DRM_VACCEL_PKT_HEADER(fuzz_below(&r, 10), fuzz_below(&r, 4),
							     fuzz_below(&r, 14));
		}
		return n * 8;
	case FW_LONG:
		return long_buffer(w, words, &r, dev, l) * 8;
	case FW_WILD:
	case FW_VALID:
	case FW_BITFLIP:
		while (count--) {
			size_t k = packet(w + n, words - n, kind == FW_WILD, &r, dev, l);

			if (!k)
				break;
			n += k;
		}
		if (kind == FW_BITFLIP && n) {
			unsigned int flips = 1 + fuzz_below(&r, 6);

			while (flips--)
				w[fuzz_below(&r, n)] ^= 1ull << fuzz_below(&r, 64);
		}
		return n * 8;
	}
	return 0;
}

/* --- RV64 kernels ----------------------------------------------------------- */

enum { ZERO = 0, RA = 1, SP = 2, T0 = 5, T1 = 6, A0 = 10, A1 = 11, A2 = 12 };

static uint32_t rv_i(uint32_t op, uint32_t rd, uint32_t f3, uint32_t rs1, int32_t imm)
{
	return ((uint32_t)imm & 0xfff) << 20 | rs1 << 15 | f3 << 12 | rd << 7 | op;
}

static uint32_t rv_r(uint32_t op, uint32_t rd, uint32_t f3, uint32_t rs1, uint32_t rs2,
		     uint32_t f7)
{
	return f7 << 25 | rs2 << 20 | rs1 << 15 | f3 << 12 | rd << 7 | op;
}

static uint32_t rv_s(uint32_t op, uint32_t f3, uint32_t rs1, uint32_t rs2, int32_t imm)
{
	uint32_t i = (uint32_t)imm & 0xfff;

	return (i >> 5) << 25 | rs2 << 20 | rs1 << 15 | f3 << 12 | (i & 0x1f) << 7 | op;
}

static uint32_t rv_b(uint32_t f3, uint32_t rs1, uint32_t rs2, int32_t off)
{
	uint32_t i = (uint32_t)off & 0x1fff;

	return ((i >> 12) & 1) << 31 | ((i >> 5) & 0x3f) << 25 | rs2 << 20 | rs1 << 15 |
	       f3 << 12 | ((i >> 1) & 0xf) << 8 | ((i >> 11) & 1) << 7 | 0x63;
}

static uint32_t rv_lui(uint32_t rd, uint32_t imm20)
{
	return (imm20 & 0xfffff) << 12 | rd << 7 | 0x37;
}

#define ADDI(rd, rs, imm)	rv_i(0x13, rd, 0, rs, imm)
#define SLLI(rd, rs, sh)	rv_i(0x13, rd, 1, rs, sh)
#define ADD(rd, a, b)		rv_r(0x33, rd, 0, a, b, 0)
#define LD(rd, rs, imm)		rv_i(0x03, rd, 3, rs, imm)
#define LW(rd, rs, imm)		rv_i(0x03, rd, 2, rs, imm)
#define SD(rs1, rs2, imm)	rv_s(0x23, 3, rs1, rs2, imm)
#define SW(rs1, rs2, imm)	rv_s(0x23, 2, rs1, rs2, imm)
#define CSRR(rd, csr)		rv_i(0x73, rd, 2, 0, csr)
#define BNE(a, b, off)		rv_b(1, a, b, off)
#define JALR(rd, rs, imm)	rv_i(0x67, rd, 0, rs, imm)
#define RET			JALR(ZERO, RA, 0)
#define AMOADD_W(rd, addr, v)	rv_r(0x2f, rd, 2, addr, v, 0)
#define FCVT_D_L(fd, rs)	rv_r(0x53, fd, 7, rs, 2, 0x69)
#define FMUL_D(fd, a, b)	rv_r(0x53, fd, 7, a, b, 0x09)
#define FSD(rs1, f, imm)	rv_s(0x27, 3, rs1, f, imm)
#define ANDI(rd, rs, imm)	rv_i(0x13, rd, 7, rs, imm)
#define LUI(rd, imm20)		rv_lui(rd, imm20)
/* The workgroup barrier: the custom-0 word of vaccel_barrier(). */
#define BARRIER			0x0000000bu

#define TEMPLATES		8

/* The well-formed kernels the others are derived from; a0 is the data. */
static size_t template(uint32_t *k, unsigned int which)
{
	size_t n = 0;

	switch (which % TEMPLATES) {
	case 0:	/* data[global id] = global id */
		k[n++] = CSRR(A1, DRM_VACCEL_CSR_GLOBAL_ID);
		k[n++] = SLLI(A2, A1, 2);
		k[n++] = ADD(A2, A0, A2);
		k[n++] = SW(A2, A1, 0);
		break;
	case 1:	/* a short loop */
		k[n++] = ADDI(T0, ZERO, 200);
		k[n++] = ADDI(T0, T0, -1);
		k[n++] = BNE(T0, ZERO, -4);
		break;
	case 2:	/* an atomic on the data */
		k[n++] = ADDI(A1, ZERO, 1);
		k[n++] = AMOADD_W(A2, A0, A1);
		break;
	case 3:	/* floating point */
		k[n++] = CSRR(A1, DRM_VACCEL_CSR_GLOBAL_ID);
		k[n++] = FCVT_D_L(0, A1);
		k[n++] = FMUL_D(1, 0, 0);
		k[n++] = FSD(A0, 1, 8);
		break;
	case 5:	/* local[id] = id, a barrier, then read a neighbour's */
		k[n++] = CSRR(A1, DRM_VACCEL_CSR_FLAT_LOCAL_ID);
		k[n++] = CSRR(A2, DRM_VACCEL_CSR_LOCAL_BASE);
		k[n++] = SLLI(T0, A1, 2);
		k[n++] = ADD(T0, A2, T0);
		k[n++] = SW(T0, A1, 0);
		k[n++] = BARRIER;
		k[n++] = LW(T1, A2, 0);
		k[n++] = SW(A0, T1, 0);
		break;
	case 6:	/* odd work-items end before the barrier the others reach */
		k[n++] = CSRR(A1, DRM_VACCEL_CSR_FLAT_LOCAL_ID);
		k[n++] = ANDI(T0, A1, 1);
		k[n++] = BNE(T0, ZERO, 12);
		k[n++] = BARRIER;
		k[n++] = SW(A0, A1, 0);
		break;
	case 7:	/* barriers in a loop */
		k[n++] = ADDI(T0, ZERO, 8);
		k[n++] = BARRIER;
		k[n++] = ADDI(T0, T0, -1);
		k[n++] = BNE(T0, ZERO, -8);
		break;
	default: /* the stack and the local memory base */
		k[n++] = ADDI(SP, SP, -16);
		k[n++] = SD(SP, A0, 0);
		k[n++] = LD(A1, SP, 0);
		k[n++] = CSRR(A2, DRM_VACCEL_CSR_LOCAL_BASE);
		k[n++] = LW(A2, A2, 0);
		k[n++] = ADDI(SP, SP, 16);
		break;
	}
	k[n++] = RET;
	return n;
}

/*
 * fuzz_write_kernel() - write an RV64 kernel of @kind into @dst
 * Return: the bytes of the kernel, 0 if @len cannot hold one.
 */
size_t fuzz_write_kernel(void *dst, size_t len, unsigned int kind, uint32_t seed,
			 const struct fuzz_device *dev)
{
	uint32_t *k = dst, buf[64];
	size_t words = len / 4, n;
	struct fuzz_rng r;

	(void)dev;
	fuzz_seed(&r, seed, 2);
	if (words > 64)
		words = 64;
	if (words < 16)
		return 0;
	n = template(buf, fuzz_below(&r, TEMPLATES));
	switch (kind % FW_KINDS) {
	case FW_VALID:
		break;
	case FW_LONG:
		/* 4096 turns of a loop, with a barrier in each, or none. */
		n = 0;
		buf[n++] = LUI(T0, 1);
		if (fuzz_chance(&r, 50))
			buf[n++] = BARRIER;
		buf[n] = ADDI(T0, T0, -1);
		n++;
		buf[n] = BNE(T0, ZERO, -4 * (int32_t)(n - 1));	/* back to buf[1] */
		n++;
		buf[n++] = RET;
		break;
	case FW_BITFLIP: {
		unsigned int flips = 1 + fuzz_below(&r, 4);

		while (flips--)
			buf[fuzz_below(&r, n)] ^= 1u << fuzz_below(&r, 32);
		break;
	}
	case FW_RANDOM:
		n = 1 + fuzz_below(&r, words);
		for (size_t i = 0; i < n; i++)
			buf[i] = fuzz_chance(&r, 70) ? (uint32_t)fuzz_next(&r) | 3 :
						       (uint32_t)fuzz_next(&r);
		break;
	case FW_WILD: {
		/* A wild address in t0: jumped to, loaded from or stored to. */
		uint64_t va = fuzz_next(&r);
		size_t m = 0;

		buf[m++] = rv_lui(T0, (uint32_t)(va >> 12));
		buf[m++] = ADDI(T0, T0, (int32_t)(va & 0xfff));
		if (fuzz_chance(&r, 50))
			buf[m++] = SLLI(T0, T0, fuzz_below(&r, 32));
		switch (fuzz_below(&r, 4)) {
		case 0: buf[m++] = JALR(RA, T0, 0); break;
		case 1: buf[m++] = LD(A1, T0, 0); break;
		case 2: buf[m++] = SD(T0, A0, 0); break;
		default: buf[m++] = rv_b(1, T0, ZERO, (int32_t)(fuzz_next(&r) & 0x1ffe)); break;
		}
		buf[m++] = RET;
		n = m;
		break;
	}
	}
	memcpy(k, buf, n * 4);
	return n * 4;
}
