// SPDX-License-Identifier: MIT
/*
 * Copyright 2026 The vaccel authors
 *
 * reduce.c - the sum, minimum and maximum of n 32-bit integers: a tree in
 * local memory with barriers, then atomics (local, then global), on a grid
 * of up to 64 workgroups of 256; checked against the CPU.
 *
 *	example-reduce [-h] [-d INDEX] [-k MODULE] [-n COUNT]
 */
#include "example.h"
#include "reduce.h"

#define GROUPS	64

int main(int argc, char **argv)
{
	struct example ex = { .name = "reduce" };
	struct example_buf in = { 0 }, out = { 0 };
	struct reduce_args args;
	struct reduce_result *res, want = { 0, UINT32_MAX, 0 };
	uint32_t grid[3] = { 0, 1, 1 }, wg[3] = { REDUCE_WG, 1, 1 }, *v;
	uint64_t seed = 4, engine_ns = 0;
	unsigned long i, groups;
	double t0, cpu_ms;
	char label[64];
	bool ok;
	int status, ret;

	status = example_open(&ex, argc, argv,
			      "Sum, minimum and maximum of 32-bit integers, with local memory and atomics.",
			      1 << 20, 1 << 26);
	if (status)
		goto out;
	status = 1;
	if ((ret = example_buf(&ex, ex.size * 4, &in)) ||
	    (ret = example_buf(&ex, sizeof(*res), &out))) {
		example_fail(&ex, "buffers", ret);
		goto out;
	}
	v = in.cpu;
	for (i = 0; i < ex.size; i++)
		v[i] = example_rand(&seed) % 1000000000u + 1000;
	res = out.cpu;
	*res = want;

	groups = (ex.size + REDUCE_WG - 1) / REDUCE_WG;
	if (groups > GROUPS)
		groups = GROUPS;
	grid[0] = groups * REDUCE_WG;
	args = (struct reduce_args){ .in = in.va, .out = out.va, .n = ex.size };
	if (example_run(&ex, "reduce", grid, wg, &args, sizeof(args), &engine_ns))
		goto out;

	t0 = example_now_ms();
	for (i = 0; i < ex.size; i++) {
		want.sum += v[i];
		want.min = v[i] < want.min ? v[i] : want.min;
		want.max = v[i] > want.max ? v[i] : want.max;
	}
	cpu_ms = example_now_ms() - t0;
	ok = res->sum == want.sum && res->min == want.min && res->max == want.max;

	printf("reduce: %lu integers, %lu workgroups of %u, a tree in local memory, atomics\n",
	       ex.size, groups, REDUCE_WG);
	printf("  sum %" PRIu64 ", min %" PRIu32 ", max %" PRIu32 "\n", res->sum,
	       res->min, res->max);
	if (!ok)
		printf("  the CPU says sum %" PRIu64 ", min %" PRIu32 ", max %" PRIu32 "\n",
		       want.sum, want.min, want.max);
	snprintf(label, sizeof(label), "reduce of %lu integers:", ex.size);
	example_report(label, engine_ns, cpu_ms, ex.size, ok,
		       "OK, what the CPU computes");
	status = ok ? 0 : 1;
out:
	vaccel_bo_free(out.bo);
	vaccel_bo_free(in.bo);
	example_close(&ex);
	return status;
}
