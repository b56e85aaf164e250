// SPDX-License-Identifier: MIT
/*
 * Copyright 2026 The vaccel authors
 *
 * bare_rv.c - the bare interpreter of bench_compute: what interpreting
 * RV64 costs before any of the work an engine must do.
 *
 * It runs one RV64IM function that it decoded, all at once, before the
 * call (a word it does not know ends the program if it is executed): a switch on the decoded operation, the registers in an array (x0
 * writes go to a 33rd, never read), memory a flat stack array.  It has no
 * address translation, no fetch, no check of the code against memory, no
 * budget, no preemption, no fault to report and no floating point: a load
 * or a store outside the stack, or a jump outside the function, ends the
 * program.  Built as user space builds it, with jump tables.
 *
 * Whatever an interpreter of the engines does on top of this is the
 * price of what they must offer, so its ratio to native code is the
 * lowest such an interpreter can reach in this VM (bench_compute prints
 * both).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bare_rv.h"

enum {
	B_LUI, B_AUIPC, B_JAL, B_JALR,
	B_BEQ, B_BNE, B_BLT, B_BGE, B_BLTU, B_BGEU,
	B_LB, B_LH, B_LW, B_LD, B_LBU, B_LHU, B_LWU,
	B_SB, B_SH, B_SW, B_SD,
	B_ADDI, B_SLTI, B_SLTIU, B_XORI, B_ORI, B_ANDI, B_SLLI, B_SRLI, B_SRAI,
	B_ADD, B_SUB, B_SLL, B_SLT, B_SLTU, B_XOR, B_SRL, B_SRA, B_OR, B_AND,
	B_ADDIW, B_SLLIW, B_SRLIW, B_SRAIW,
	B_ADDW, B_SUBW, B_SLLW, B_SRLW, B_SRAW,
	B_MUL, B_MULH, B_MULHSU, B_MULHU, B_DIV, B_DIVU, B_REM, B_REMU,
	B_MULW, B_DIVW, B_DIVUW, B_REMW, B_REMUW,
	B_BAD,		/* not RV64IM: ends the program if executed */
};

struct bare_op {
	uint8_t h, rd, rs1, rs2;
	int32_t imm;
};

#define BARE_X0_SINK	32
#define BARE_MAX_WORDS	1024

static struct bare_op ops[BARE_MAX_WORDS];
static size_t nops;
static uint64_t code_va;
static uint8_t stack[BARE_STACK_SIZE] __attribute__((aligned(16)));

static void __attribute__((noreturn)) die(const char *what, uint64_t v)
{
	fprintf(stderr, "bench_compute: the bare interpreter: %s 0x%llx\n", what,
		(unsigned long long)v);
	exit(1);
}

static int32_t imm_i(uint32_t w) { return (int32_t)w >> 20; }
static int32_t imm_s(uint32_t w) { return ((int32_t)w >> 25 << 5) | ((w >> 7) & 31); }
static int32_t imm_u(uint32_t w) { return (int32_t)(w & 0xfffff000u); }

static int32_t imm_b(uint32_t w)
{
	uint32_t v = (w >> 31) << 12 | ((w >> 7) & 1) << 11 |
		     ((w >> 25) & 63) << 5 | ((w >> 8) & 15) << 1;

	return (int32_t)(v << 19) >> 19;
}

static int32_t imm_j(uint32_t w)
{
	uint32_t v = (w >> 31) << 20 | ((w >> 12) & 255) << 12 |
		     ((w >> 20) & 1) << 11 | ((w >> 21) & 1023) << 1;

	return (int32_t)(v << 11) >> 11;
}

/* The operation of @w, or -1. */
static int decode(uint32_t w, int32_t *imm)
{
	static const int8_t load[8] = { B_LB, B_LH, B_LW, B_LD, B_LBU, B_LHU, B_LWU, -1 };
	static const int8_t branch[8] = { B_BEQ, B_BNE, -1, -1, B_BLT, B_BGE, B_BLTU, B_BGEU };
	static const int8_t opimm[8] = { B_ADDI, B_SLLI, B_SLTI, B_SLTIU, B_XORI, B_SRLI,
					 B_ORI, B_ANDI };
	static const int8_t op[8] = { B_ADD, B_SLL, B_SLT, B_SLTU, B_XOR, B_SRL, B_OR, B_AND };
	static const int8_t m[8] = { B_MUL, B_MULH, B_MULHSU, B_MULHU, B_DIV, B_DIVU, B_REM,
				     B_REMU };
	static const int8_t mw[8] = { B_MULW, -1, -1, -1, B_DIVW, B_DIVUW, B_REMW, B_REMUW };
	unsigned int f3 = (w >> 12) & 7, f7 = w >> 25;

	switch (w & 0x7f) {
	case 0x37: *imm = imm_u(w); return B_LUI;
	case 0x17: *imm = imm_u(w); return B_AUIPC;
	case 0x6f: *imm = imm_j(w); return B_JAL;
	case 0x67: *imm = imm_i(w); return f3 ? -1 : B_JALR;
	case 0x63: *imm = imm_b(w); return branch[f3];
	case 0x03: *imm = imm_i(w); return load[f3];
	case 0x23: *imm = imm_s(w); return f3 < 4 ? B_SB + (int)f3 : -1;
	case 0x13:
		*imm = imm_i(w);
		if (f3 == 1 || f3 == 5) {
			*imm &= 63;
			if (w >> 26 == 0x10 && f3 == 5)
				return B_SRAI;
			if (w >> 26)
				return -1;
		}
		return opimm[f3];
	case 0x1b:
		*imm = imm_i(w);
		if (f3 == 0)
			return B_ADDIW;
		*imm &= 31;
		if (f3 == 1 && f7 == 0)
			return B_SLLIW;
		if (f3 == 5 && (f7 == 0 || f7 == 0x20))
			return f7 ? B_SRAIW : B_SRLIW;
		return -1;
	case 0x33:
		if (f7 == 0)
			return op[f3];
		if (f7 == 1)
			return m[f3];
		if (f7 == 0x20 && (f3 == 0 || f3 == 5))
			return f3 ? B_SRA : B_SUB;
		return -1;
	case 0x3b:
		if (f7 == 1)
			return mw[f3];
		if (f7 == 0 && (f3 == 0 || f3 == 1 || f3 == 5))
			return f3 == 0 ? B_ADDW : f3 == 1 ? B_SLLW : B_SRLW;
		if (f7 == 0x20 && (f3 == 0 || f3 == 5))
			return f3 ? B_SRAW : B_SUBW;
		return -1;
	default:
		return -1;
	}
}

void bare_rv_prepare(const uint32_t *code, size_t words, uint64_t va)
{
	size_t i;

	if (words > BARE_MAX_WORDS)
		die("a function too long, words:", words);
	for (i = 0; i < words; i++) {
		int32_t imm = 0;
		int h = decode(code[i], &imm);

		if (h < 0) {
			h = B_BAD;
			imm = (int32_t)code[i];
		}
		ops[i].h = h;
		ops[i].rd = (code[i] >> 7) & 31;
		if (!ops[i].rd)
			ops[i].rd = BARE_X0_SINK;
		ops[i].rs1 = (code[i] >> 15) & 31;
		ops[i].rs2 = (code[i] >> 20) & 31;
		ops[i].imm = imm;
	}
	nops = words;
	code_va = va;
}

/* The host address of an access of @size at @va on the stack. */
static uint8_t *at(uint64_t va, unsigned int size)
{
	uint64_t off = va - BARE_STACK_VA;

	if (off > BARE_STACK_SIZE - size)
		die("an access outside the stack at", va);
	return stack + off;
}

#define LOAD(type)	({ type v_; memcpy(&v_, at(x[o->rs1] + o->imm, sizeof(v_)), sizeof(v_)); v_; })
#define STORE(type)	do { type v_ = (type)x[o->rs2]; \
			     memcpy(at(x[o->rs1] + o->imm, sizeof(v_)), &v_, sizeof(v_)); } while (0)
#define SEXT32(v)	((uint64_t)(int64_t)(int32_t)(v))

static uint64_t mulh(int64_t a, int64_t b)
{
	return (uint64_t)(((__int128)a * b) >> 64);
}

static uint64_t mulhsu(int64_t a, uint64_t b)
{
	return (uint64_t)(((__int128)a * (unsigned __int128)b) >> 64);
}

static uint64_t mulhu(uint64_t a, uint64_t b)
{
	return (uint64_t)(((unsigned __int128)a * b) >> 64);
}

uint64_t bare_rv_call(uint64_t a0, uint64_t a1, uint64_t *executed)
{
	uint64_t x[33] = { 0 }, n = 0, t, i = 0;

	x[1] = BARE_EXIT_VA;
	x[2] = BARE_STACK_VA + BARE_STACK_SIZE;
	x[10] = a0;
	x[11] = a1;
	for (;;) {
		const struct bare_op *o = &ops[i];
		int64_t off = 1;

		n++;
		switch (o->h) {
		case B_LUI: x[o->rd] = (int64_t)o->imm; break;
		case B_AUIPC: x[o->rd] = code_va + i * 4 + o->imm; break;
		case B_JAL: x[o->rd] = code_va + i * 4 + 4; off = o->imm / 4; break;
		case B_JALR:
			t = (x[o->rs1] + o->imm) & ~1ull;
			x[o->rd] = code_va + i * 4 + 4;
			if (t == BARE_EXIT_VA) {
				*executed += n;
				return x[10];
			}
			if (t & 3)
				die("a jump to a misaligned address,", t);
			off = (int64_t)(t - code_va) / 4 - (int64_t)i;
			break;
		case B_BEQ: if (x[o->rs1] == x[o->rs2]) off = o->imm / 4; break;
		case B_BNE: if (x[o->rs1] != x[o->rs2]) off = o->imm / 4; break;
		case B_BLT: if ((int64_t)x[o->rs1] < (int64_t)x[o->rs2]) off = o->imm / 4; break;
		case B_BGE: if ((int64_t)x[o->rs1] >= (int64_t)x[o->rs2]) off = o->imm / 4; break;
		case B_BLTU: if (x[o->rs1] < x[o->rs2]) off = o->imm / 4; break;
		case B_BGEU: if (x[o->rs1] >= x[o->rs2]) off = o->imm / 4; break;
		case B_LB: x[o->rd] = LOAD(int8_t); break;
		case B_LH: x[o->rd] = LOAD(int16_t); break;
		case B_LW: x[o->rd] = LOAD(int32_t); break;
		case B_LD: x[o->rd] = LOAD(uint64_t); break;
		case B_LBU: x[o->rd] = LOAD(uint8_t); break;
		case B_LHU: x[o->rd] = LOAD(uint16_t); break;
		case B_LWU: x[o->rd] = LOAD(uint32_t); break;
		case B_SB: STORE(uint8_t); break;
		case B_SH: STORE(uint16_t); break;
		case B_SW: STORE(uint32_t); break;
		case B_SD: STORE(uint64_t); break;
		case B_ADDI: x[o->rd] = x[o->rs1] + o->imm; break;
		case B_SLTI: x[o->rd] = (int64_t)x[o->rs1] < o->imm; break;
		case B_SLTIU: x[o->rd] = x[o->rs1] < (uint64_t)(int64_t)o->imm; break;
		case B_XORI: x[o->rd] = x[o->rs1] ^ (int64_t)o->imm; break;
		case B_ORI: x[o->rd] = x[o->rs1] | (int64_t)o->imm; break;
		case B_ANDI: x[o->rd] = x[o->rs1] & (int64_t)o->imm; break;
		case B_SLLI: x[o->rd] = x[o->rs1] << o->imm; break;
		case B_SRLI: x[o->rd] = x[o->rs1] >> o->imm; break;
		case B_SRAI: x[o->rd] = (int64_t)x[o->rs1] >> o->imm; break;
		case B_ADD: x[o->rd] = x[o->rs1] + x[o->rs2]; break;
		case B_SUB: x[o->rd] = x[o->rs1] - x[o->rs2]; break;
		case B_SLL: x[o->rd] = x[o->rs1] << (x[o->rs2] & 63); break;
		case B_SLT: x[o->rd] = (int64_t)x[o->rs1] < (int64_t)x[o->rs2]; break;
		case B_SLTU: x[o->rd] = x[o->rs1] < x[o->rs2]; break;
		case B_XOR: x[o->rd] = x[o->rs1] ^ x[o->rs2]; break;
		case B_SRL: x[o->rd] = x[o->rs1] >> (x[o->rs2] & 63); break;
		case B_SRA: x[o->rd] = (int64_t)x[o->rs1] >> (x[o->rs2] & 63); break;
		case B_OR: x[o->rd] = x[o->rs1] | x[o->rs2]; break;
		case B_AND: x[o->rd] = x[o->rs1] & x[o->rs2]; break;
		case B_ADDIW: x[o->rd] = SEXT32(x[o->rs1] + o->imm); break;
		case B_SLLIW: x[o->rd] = SEXT32((uint32_t)x[o->rs1] << o->imm); break;
		case B_SRLIW: x[o->rd] = SEXT32((uint32_t)x[o->rs1] >> o->imm); break;
		case B_SRAIW: x[o->rd] = SEXT32((int32_t)x[o->rs1] >> o->imm); break;
		case B_ADDW: x[o->rd] = SEXT32(x[o->rs1] + x[o->rs2]); break;
		case B_SUBW: x[o->rd] = SEXT32(x[o->rs1] - x[o->rs2]); break;
		case B_SLLW: x[o->rd] = SEXT32((uint32_t)x[o->rs1] << (x[o->rs2] & 31)); break;
		case B_SRLW: x[o->rd] = SEXT32((uint32_t)x[o->rs1] >> (x[o->rs2] & 31)); break;
		case B_SRAW: x[o->rd] = SEXT32((int32_t)x[o->rs1] >> (x[o->rs2] & 31)); break;
		case B_MUL: x[o->rd] = x[o->rs1] * x[o->rs2]; break;
		case B_MULH: x[o->rd] = mulh(x[o->rs1], x[o->rs2]); break;
		case B_MULHSU: x[o->rd] = mulhsu(x[o->rs1], x[o->rs2]); break;
		case B_MULHU: x[o->rd] = mulhu(x[o->rs1], x[o->rs2]); break;
		case B_DIV:
			x[o->rd] = !x[o->rs2] ? ~0ull :
				   (int64_t)x[o->rs2] == -1 ? -x[o->rs1] :
				   (uint64_t)((int64_t)x[o->rs1] / (int64_t)x[o->rs2]);
			break;
		case B_DIVU: x[o->rd] = x[o->rs2] ? x[o->rs1] / x[o->rs2] : ~0ull; break;
		case B_REM:
			x[o->rd] = !x[o->rs2] ? x[o->rs1] :
				   (int64_t)x[o->rs2] == -1 ? 0 :
				   (uint64_t)((int64_t)x[o->rs1] % (int64_t)x[o->rs2]);
			break;
		case B_REMU: x[o->rd] = x[o->rs2] ? x[o->rs1] % x[o->rs2] : x[o->rs1]; break;
		case B_MULW: x[o->rd] = SEXT32(x[o->rs1] * x[o->rs2]); break;
		case B_DIVW:
			x[o->rd] = !(int32_t)x[o->rs2] ? ~0ull :
				   (int32_t)x[o->rs2] == -1 ? SEXT32(-(uint32_t)x[o->rs1]) :
				   SEXT32((int32_t)x[o->rs1] / (int32_t)x[o->rs2]);
			break;
		case B_DIVUW:
			x[o->rd] = (uint32_t)x[o->rs2] ?
				   SEXT32((uint32_t)x[o->rs1] / (uint32_t)x[o->rs2]) : ~0ull;
			break;
		case B_REMW:
			x[o->rd] = !(int32_t)x[o->rs2] ? SEXT32(x[o->rs1]) :
				   (int32_t)x[o->rs2] == -1 ? 0 :
				   SEXT32((int32_t)x[o->rs1] % (int32_t)x[o->rs2]);
			break;
		case B_REMUW:
			x[o->rd] = (uint32_t)x[o->rs2] ?
				   SEXT32((uint32_t)x[o->rs1] % (uint32_t)x[o->rs2]) :
				   SEXT32(x[o->rs1]);
			break;
		default:
			die("an instruction it does not run:", (uint32_t)o->imm);
		}
		i += off;
		if (i >= nops)
			die("a jump outside the function, to", code_va + i * 4);
	}
}
