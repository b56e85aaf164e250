/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Copyright 2026 The vaccel authors
 *
 * The freestanding runtime of the RV64 soft-float oracles, run as Linux
 * user programs under qemu-riscv64: _start, the system calls they use,
 * and the memset/memcpy the compiler may call.
 */

	.text
	.globl	_start
_start:
	ld	a0, 0(sp)		/* argc */
	addi	a1, sp, 8		/* argv */
	andi	sp, sp, -16
	call	main
	li	a7, 93			/* exit */
	ecall
1:	j	1b

/* long fp_sys_write(int fd, const void *buf, unsigned long len) */
	.globl	fp_sys_write
fp_sys_write:
	li	a7, 64
	ecall
	ret

/* void fp_sys_exit(int status) */
	.globl	fp_sys_exit
fp_sys_exit:
	li	a7, 93
	ecall
1:	j	1b

	.globl	memset
memset:
	mv	t0, a0
	beqz	a2, 2f
1:	sb	a1, 0(t0)
	addi	t0, t0, 1
	addi	a2, a2, -1
	bnez	a2, 1b
2:	ret

	.globl	memcpy
memcpy:
	mv	t0, a0
	beqz	a2, 2f
1:	lb	t1, 0(a1)
	sb	t1, 0(t0)
	addi	t0, t0, 1
	addi	a1, a1, 1
	addi	a2, a2, -1
	bnez	a2, 1b
2:	ret
