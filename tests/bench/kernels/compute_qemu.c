// SPDX-License-Identifier: MIT
/*
 * Copyright 2026 The vaccel authors
 *
 * compute_qemu.c - bench_compute's work as a freestanding RV64 Linux
 * program, for qemu-riscv64: the same code as the vaccel kernel, run over
 * the same work-items.
 *
 *	compute_qemu int|fp ITEMS N SEED
 *
 * prints the work-items' results folded into one 64-bit hex value (the
 * XOR of the integer results, or of the bit patterns of the double ones),
 * which must equal what the engine computed.  Runs with the runtime of
 * the soft-float oracles (tests/isa/fp_oracle_start.S).
 */
#include "../compute_work.h"

long fp_sys_write(int fd, const void *buf, unsigned long len);

static uint64_t parse(const char *s)
{
	uint64_t v = 0;

	while (*s >= '0' && *s <= '9')
		v = v * 10 + (uint64_t)(*s++ - '0');
	return v;
}

static void put_hex(uint64_t v)
{
	char buf[19];
	int i;

	buf[0] = '0';
	buf[1] = 'x';
	for (i = 0; i < 16; i++)
		buf[2 + i] = "0123456789abcdef"[(v >> (60 - 4 * i)) & 15];
	buf[18] = '\n';
	fp_sys_write(1, buf, sizeof(buf));
}

int main(int argc, char **argv)
{
	uint64_t items, n, seed, fold = 0, i;
	int fp;

	if (argc != 5)
		return 2;
	fp = argv[1][0] == 'f';
	items = parse(argv[2]);
	n = parse(argv[3]);
	seed = parse(argv[4]);
	for (i = 0; i < items; i++) {
		if (fp) {
			union { double d; uint64_t u; } r = { work_fp((double)(seed + i), n) };

			fold ^= r.u;
		} else {
			fold ^= work_int(seed + i, n);
		}
	}
	put_hex(fold);
	return 0;
}
