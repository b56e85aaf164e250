// SPDX-License-Identifier: GPL-2.0-only
/*
 * Copyright 2026 The vaccel authors
 *
 * The oracle of the soft-float differential test, an RV64 program run
 * under qemu-riscv64:
 *
 *   fp_oracle SEED COUNT
 *
 * For every operation of fp_cases.h and every rounding mode it takes (in
 * that order), makes COUNT cases from the stream of (SEED, op, rm), runs
 * the real instruction on each and writes one struct fp_record (result,
 * fflags; little-endian) per case to stdout.  softfloat_diff makes the
 * same cases from the same seed and compares.
 */
#include "fp_oracle.h"

int main(int argc, char **argv)
{
	struct fp_record rec;
	struct fp_case k;
	uint64_t seed, count, i, s;
	unsigned int op, rm;

	if (argc != 3) {
		fp_puts("usage: fp_oracle SEED COUNT\n");
		fp_flush();
		return 1;
	}
	seed = fp_parse(argv[1]);
	count = fp_parse(argv[2]);
	for (op = 0; op < FP_NR_OPS; op++) {
		for (rm = 0; rm < (fp_ops[op].has_rm ? 5u : 1u); rm++) {
			s = fp_stream(seed, op, rm);
			for (i = 0; i < count; i++) {
				fp_make_case(&s, op, &k);
				rec.result = fp_exec(op, rm, &k, &rec.flags);
				fp_put(&rec, sizeof(rec));
			}
		}
	}
	fp_flush();
	return 0;
}
