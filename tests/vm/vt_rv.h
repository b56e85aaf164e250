/* SPDX-License-Identifier: MIT */
/*
 * Copyright 2026 The vaccel authors
 *
 * vt_rv.h - a small RV64 assembler for the VM tests that write kernels word
 * by word (the toolchain has its own tests): constant-expression encoders,
 * for static kernels, and the CSRs of the work-item.
 */
#ifndef VT_RV_H
#define VT_RV_H

#include <linux/types.h>

enum { ZERO, RA, SP, GP, TP, T0, T1, T2, S0, S1, A0, A1, A2, A3, A4, A5 };

/* Encoders as constant expressions, for static kernels. */
#define rv_i(op, rd, f3, rs1, imm) \
	((((__u32)(imm) & 0xfff) << 20) | ((rs1) << 15) | ((f3) << 12) | ((rd) << 7) | (op))
#define rv_r(op, rd, f3, rs1, rs2, f7) \
	(((__u32)(f7) << 25) | ((rs2) << 20) | ((rs1) << 15) | ((f3) << 12) | \
	 ((rd) << 7) | (op))
#define rv_s(op, f3, rs1, rs2, imm) \
	(((((__u32)(imm) >> 5) & 0x7f) << 25) | ((rs2) << 20) | ((rs1) << 15) | \
	 ((f3) << 12) | (((__u32)(imm) & 0x1f) << 7) | (op))
#define rv_b(f3, rs1, rs2, off) \
	(((((__u32)(off) >> 12) & 1) << 31) | ((((__u32)(off) >> 5) & 0x3f) << 25) | \
	 ((rs2) << 20) | ((rs1) << 15) | ((f3) << 12) | \
	 ((((__u32)(off) >> 1) & 0xf) << 8) | ((((__u32)(off) >> 11) & 1) << 7) | 0x63)
#define rv_jal(rd, off) \
	(((((__u32)(off) >> 20) & 1) << 31) | ((((__u32)(off) >> 1) & 0x3ff) << 21) | \
	 ((((__u32)(off) >> 11) & 1) << 20) | ((((__u32)(off) >> 12) & 0xff) << 12) | \
	 ((rd) << 7) | 0x6f)

#define ADDI(rd, rs, imm)	rv_i(0x13, rd, 0, rs, imm)
#define SLLI(rd, rs, sh)	rv_i(0x13, rd, 1, rs, sh)
#define ADD(rd, a, b)		rv_r(0x33, rd, 0, a, b, 0)
#define SUB(rd, a, b)		rv_r(0x33, rd, 0, a, b, 0x20)
#define MUL(rd, a, b)		rv_r(0x33, rd, 0, a, b, 1)
#define XOR(rd, a, b)		rv_r(0x33, rd, 4, a, b, 0)
#define LD(rd, rs, imm)		rv_i(0x03, rd, 3, rs, imm)
#define LW(rd, rs, imm)		rv_i(0x03, rd, 2, rs, imm)
#define SD(rs2, rs1, imm)	rv_s(0x23, 3, rs1, rs2, imm)
#define SW(rs2, rs1, imm)	rv_s(0x23, 2, rs1, rs2, imm)
#define FLD(fd, rs, imm)	rv_i(0x07, fd, 3, rs, imm)
#define FSD(fs, rs, imm)	rv_s(0x27, 3, rs, fs, imm)
/* fmadd.d fd, a, b, c with rm = dyn (frm is 0: to nearest) */
#define FMADD_D(fd, a, b, c)	(((__u32)(c) << 27) | (1u << 25) | ((b) << 20) | ((a) << 15) | \
				 (7u << 12) | ((fd) << 7) | 0x43)
#define AMOADD_W(rd, addr, v)	rv_r(0x2f, rd, 2, addr, v, 0)
#define CSRR(rd, csr)		rv_i(0x73, rd, 2, 0, csr)
#define CSRW(csr, rs)		rv_i(0x73, 0, 1, rs, csr)
#define BNE(a, b, off)		rv_b(1, a, b, off)
#define BLTU(a, b, off)		rv_b(6, a, b, off)
#define J(off)			rv_jal(0, off)
#define RET			rv_i(0x67, 0, 0, RA, 0)
#define BARRIER			0x0000000bu
#define ECALL			0x00000073u
#define ILLEGAL			0xffffffffu
#define C_LI_A0_0		0x00004501u	/* a compressed instruction */

#define CSR_LID_X	0xcc0
#define CSR_GRP_X	0xcc3
#define CSR_LSIZE_X	0xcc6
#define CSR_GSIZE_X	0xccc
#define CSR_GSIZE_Y	0xccd
#define CSR_FLAT_LID	0xccf
#define CSR_GID_X	0xcd0
#define CSR_GID_Y	0xcd1
#define CSR_GID_Z	0xcd2
#define CSR_LOCAL_BASE	0xcd3

#endif /* VT_RV_H */
