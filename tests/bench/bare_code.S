/* SPDX-License-Identifier: MIT */
/*
 * Copyright 2026 The vaccel authors
 *
 * bare_code.S - the RV64 code of kernels/compute_bare.c, as the bytes of
 * bare_code[] to bare_code_end[] in bench_compute.  BARE_BIN names the
 * flat binary.
 */
	.section .rodata
	.balign 4
	.globl bare_code
bare_code:
	.incbin BARE_BIN
	.globl bare_code_end
bare_code_end:
	.section .note.GNU-stack, "", @progbits
