// SPDX-License-Identifier: MIT
/*
 * Copyright 2026 The vaccel authors
 *
 * saxpy.c - y = a * x + y on n floats with fused multiply-adds, on a grid
 * of 64 workgroups of 128 work-items that loop over the vectors; checked
 * bit for bit against the C library's fmaf(): the engines' soft-float
 * rounds exactly as IEEE 754 says.
 *
 *	example-saxpy [-h] [-d INDEX] [-k MODULE] [-n FLOATS]
 */
#include <math.h>

#include "example.h"
#include "saxpy.h"

#define WG	128
#define GROUPS	64

int main(int argc, char **argv)
{
	struct example ex = { .name = "saxpy" };
	struct example_buf x = { 0 }, y = { 0 };
	struct saxpy_args args;
	uint32_t grid[3] = { WG * GROUPS, 1, 1 }, wg[3] = { WG, 1, 1 };
	const float a = 2.718281828f;
	float *want = NULL;
	uint64_t seed = 2, engine_ns = 0;
	unsigned long i, bad = 0;
	double t0, cpu_ms;
	char label[64];
	int status, ret;

	status = example_open(&ex, argc, argv,
			      "y = a * x + y on floats with fused multiply-adds; check on the CPU.",
			      1 << 18, 1 << 24);
	if (status)
		goto out;
	status = 1;
	if ((ret = example_buf(&ex, ex.size * 4, &x)) ||
	    (ret = example_buf(&ex, ex.size * 4, &y))) {
		example_fail(&ex, "buffers", ret);
		goto out;
	}
	want = malloc(ex.size * 4);
	if (!want)
		goto out;
	for (i = 0; i < ex.size; i++) {
		((float *)x.cpu)[i] = example_randf(&seed) * 7.0f / 3.0f;
		((float *)y.cpu)[i] = example_randf(&seed) * 100.0f;
	}

	t0 = example_now_ms();
	for (i = 0; i < ex.size; i++)
		want[i] = fmaf(a, ((float *)x.cpu)[i], ((float *)y.cpu)[i]);
	cpu_ms = example_now_ms() - t0;

	args = (struct saxpy_args){ .x = x.va, .y = y.va, .a = a, .n = ex.size };
	if (example_run(&ex, "saxpy", grid, wg, &args, sizeof(args), &engine_ns))
		goto out;
	for (i = 0; i < ex.size; i++)
		bad += memcmp(&want[i], (float *)y.cpu + i, 4) != 0;

	printf("saxpy: y = %g * x + y, %lu floats, %u workgroups of %u looping over them\n",
	       a, ex.size, GROUPS, WG);
	printf("  y[0] = %.9g, y[%lu] = %.9g\n", ((float *)y.cpu)[0], ex.size - 1,
	       ((float *)y.cpu)[ex.size - 1]);
	snprintf(label, sizeof(label), "saxpy of %lu floats:", ex.size);
	example_report(label, engine_ns, cpu_ms, ex.size, !bad,
		       "OK, bit for bit the C library's fmaf()");
	if (bad)
		printf("  %lu of %lu elements differ\n", bad, ex.size);
	status = bad ? 1 : 0;
out:
	free(want);
	vaccel_bo_free(y.bo);
	vaccel_bo_free(x.bo);
	example_close(&ex);
	return status;
}
