/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Copyright 2026 The vaccel authors
 *
 * The RV64 side of the soft-float tests: each operation of fp_cases.h run
 * on the real F and D instruction, with frm set to the rounding mode and
 * fflags read back, plus the little output the oracles need.  Built
 * freestanding for RV64G and run under qemu-riscv64 (fp_oracle_start.S
 * provides _start and the system calls).
 */
#ifndef FP_ORACLE_H
#define FP_ORACLE_H

#include <stdint.h>

#include "fp_cases.h"

long fp_sys_write(int fd, const void *buf, unsigned long len);
void fp_sys_exit(int status) __attribute__((noreturn));

/*
 * One instruction between writing fcsr (frm = rm, fflags = 0) and reading
 * fflags, all in one asm statement so that nothing can move in between.
 * The three operands are loaded into ft0-ft2 (NaN-boxed for binary32),
 * the result is left in ft3 or written to an integer register directly.
 */
#define FP_ASM(mvin, body, mvout)					\
	asm volatile("csrw fcsr, %[csr]\n\t"				\
		     mvin " ft0, %[a]\n\t"				\
		     mvin " ft1, %[b]\n\t"				\
		     mvin " ft2, %[c]\n\t"				\
		     body "\n\t"					\
		     mvout "\n\t"					\
		     "csrr %[f], fflags"				\
		     : [r] "=&r" (r), [f] "=&r" (f)			\
		     : [a] "r" (k->a), [b] "r" (k->b), [c] "r" (k->c),	\
		       [csr] "r" (csr)					\
		     : "ft0", "ft1", "ft2", "ft3")

#define S_IN	"fmv.w.x"
#define D_IN	"fmv.d.x"
#define S_OUT	"fmv.x.w %[r], ft3"
#define D_OUT	"fmv.x.d %[r], ft3"
#define X_OUT	""

#define FP_OP(e, mvin, body, mvout) \
	case FP_##e: FP_ASM(mvin, body, mvout); break

/* The result of op on the operands of k with frm = rm; *flags = fflags. */
static inline uint64_t fp_exec(unsigned int op, unsigned int rm,
			const struct fp_case *k, uint64_t *flags)
{
	uint64_t r = 0, f = 0, csr = (uint64_t)rm << 5;

	switch (op) {
	FP_OP(F32_ADD, S_IN, "fadd.s ft3, ft0, ft1, dyn", S_OUT);
	FP_OP(F32_SUB, S_IN, "fsub.s ft3, ft0, ft1, dyn", S_OUT);
	FP_OP(F32_MUL, S_IN, "fmul.s ft3, ft0, ft1, dyn", S_OUT);
	FP_OP(F32_DIV, S_IN, "fdiv.s ft3, ft0, ft1, dyn", S_OUT);
	FP_OP(F32_SQRT, S_IN, "fsqrt.s ft3, ft0, dyn", S_OUT);
	FP_OP(F32_FMADD, S_IN, "fmadd.s ft3, ft0, ft1, ft2, dyn", S_OUT);
	FP_OP(F32_FMSUB, S_IN, "fmsub.s ft3, ft0, ft1, ft2, dyn", S_OUT);
	FP_OP(F32_FNMSUB, S_IN, "fnmsub.s ft3, ft0, ft1, ft2, dyn", S_OUT);
	FP_OP(F32_FNMADD, S_IN, "fnmadd.s ft3, ft0, ft1, ft2, dyn", S_OUT);
	FP_OP(F32_MIN, S_IN, "fmin.s ft3, ft0, ft1", S_OUT);
	FP_OP(F32_MAX, S_IN, "fmax.s ft3, ft0, ft1", S_OUT);
	FP_OP(F32_EQ, S_IN, "feq.s %[r], ft0, ft1", X_OUT);
	FP_OP(F32_LT, S_IN, "flt.s %[r], ft0, ft1", X_OUT);
	FP_OP(F32_LE, S_IN, "fle.s %[r], ft0, ft1", X_OUT);
	FP_OP(F32_CLASSIFY, S_IN, "fclass.s %[r], ft0", X_OUT);
	FP_OP(F32_TO_I32, S_IN, "fcvt.w.s %[r], ft0, dyn", X_OUT);
	FP_OP(F32_TO_U32, S_IN, "fcvt.wu.s %[r], ft0, dyn", X_OUT);
	FP_OP(F32_TO_I64, S_IN, "fcvt.l.s %[r], ft0, dyn", X_OUT);
	FP_OP(F32_TO_U64, S_IN, "fcvt.lu.s %[r], ft0, dyn", X_OUT);
	FP_OP(I32_TO_F32, S_IN, "fcvt.s.w ft3, %[a], dyn", S_OUT);
	FP_OP(U32_TO_F32, S_IN, "fcvt.s.wu ft3, %[a], dyn", S_OUT);
	FP_OP(I64_TO_F32, S_IN, "fcvt.s.l ft3, %[a], dyn", S_OUT);
	FP_OP(U64_TO_F32, S_IN, "fcvt.s.lu ft3, %[a], dyn", S_OUT);
	FP_OP(F64_ADD, D_IN, "fadd.d ft3, ft0, ft1, dyn", D_OUT);
	FP_OP(F64_SUB, D_IN, "fsub.d ft3, ft0, ft1, dyn", D_OUT);
	FP_OP(F64_MUL, D_IN, "fmul.d ft3, ft0, ft1, dyn", D_OUT);
	FP_OP(F64_DIV, D_IN, "fdiv.d ft3, ft0, ft1, dyn", D_OUT);
	FP_OP(F64_SQRT, D_IN, "fsqrt.d ft3, ft0, dyn", D_OUT);
	FP_OP(F64_FMADD, D_IN, "fmadd.d ft3, ft0, ft1, ft2, dyn", D_OUT);
	FP_OP(F64_FMSUB, D_IN, "fmsub.d ft3, ft0, ft1, ft2, dyn", D_OUT);
	FP_OP(F64_FNMSUB, D_IN, "fnmsub.d ft3, ft0, ft1, ft2, dyn", D_OUT);
	FP_OP(F64_FNMADD, D_IN, "fnmadd.d ft3, ft0, ft1, ft2, dyn", D_OUT);
	FP_OP(F64_MIN, D_IN, "fmin.d ft3, ft0, ft1", D_OUT);
	FP_OP(F64_MAX, D_IN, "fmax.d ft3, ft0, ft1", D_OUT);
	FP_OP(F64_EQ, D_IN, "feq.d %[r], ft0, ft1", X_OUT);
	FP_OP(F64_LT, D_IN, "flt.d %[r], ft0, ft1", X_OUT);
	FP_OP(F64_LE, D_IN, "fle.d %[r], ft0, ft1", X_OUT);
	FP_OP(F64_CLASSIFY, D_IN, "fclass.d %[r], ft0", X_OUT);
	FP_OP(F64_TO_I32, D_IN, "fcvt.w.d %[r], ft0, dyn", X_OUT);
	FP_OP(F64_TO_U32, D_IN, "fcvt.wu.d %[r], ft0, dyn", X_OUT);
	FP_OP(F64_TO_I64, D_IN, "fcvt.l.d %[r], ft0, dyn", X_OUT);
	FP_OP(F64_TO_U64, D_IN, "fcvt.lu.d %[r], ft0, dyn", X_OUT);
	/* Exact: these two have no rounding-mode operand in LLVM 14. */
	FP_OP(I32_TO_F64, D_IN, "fcvt.d.w ft3, %[a]", D_OUT);
	FP_OP(U32_TO_F64, D_IN, "fcvt.d.wu ft3, %[a]", D_OUT);
	FP_OP(I64_TO_F64, D_IN, "fcvt.d.l ft3, %[a], dyn", D_OUT);
	FP_OP(U64_TO_F64, D_IN, "fcvt.d.lu ft3, %[a], dyn", D_OUT);
	FP_OP(F32_TO_F64, S_IN, "fcvt.d.s ft3, ft0", D_OUT);
	FP_OP(F64_TO_F32, D_IN, "fcvt.s.d ft3, ft0, dyn", S_OUT);
	default:
		fp_sys_exit(3);
	}
	*flags = f;
	return r & fp_result_mask(op);
}

/* Buffered standard output. */
static char fp_out_buf[1 << 16];
static unsigned long fp_out_len;

static inline void fp_flush(void)
{
	unsigned long done = 0;
	long n;

	while (done < fp_out_len) {
		n = fp_sys_write(1, fp_out_buf + done, fp_out_len - done);
		if (n <= 0)
			fp_sys_exit(2);
		done += (unsigned long)n;
	}
	fp_out_len = 0;
}

static inline void fp_put(const void *p, unsigned long n)
{
	const char *c = p;

	while (n--) {
		if (fp_out_len == sizeof(fp_out_buf))
			fp_flush();
		fp_out_buf[fp_out_len++] = *c++;
	}
}

static inline void fp_puts(const char *s)
{
	while (*s)
		fp_put(s++, 1);
}

/* 0x and digits hex digits. */
static inline void fp_put_hex(uint64_t x, int digits)
{
	char d;

	fp_puts("0x");
	while (digits--) {
		d = "0123456789abcdef"[(x >> (4 * digits)) & 15];
		fp_put(&d, 1);
	}
}

static inline void fp_put_dec(uint64_t x)
{
	char buf[24];
	int n = 0;

	do {
		buf[n++] = (char)('0' + x % 10);
		x /= 10;
	} while (x);
	while (n--)
		fp_put(&buf[n], 1);
}

/* A decimal or 0x hexadecimal number; no validation beyond the digits. */
static inline uint64_t fp_parse(const char *s)
{
	uint64_t x = 0;
	unsigned int base = 10, d;

	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		base = 16;
		s += 2;
	}
	for (; *s; s++) {
		if (*s >= '0' && *s <= '9')
			d = (unsigned int)(*s - '0');
		else if (*s >= 'a' && *s <= 'f')
			d = (unsigned int)(*s - 'a' + 10);
		else if (*s >= 'A' && *s <= 'F')
			d = (unsigned int)(*s - 'A' + 10);
		else
			fp_sys_exit(4);
		if (d >= base)
			fp_sys_exit(4);
		x = x * base + d;
	}
	return x;
}

#endif /* FP_ORACLE_H */
