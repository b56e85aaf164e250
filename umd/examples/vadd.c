// SPDX-License-Identifier: MIT
/*
 * Copyright 2026 The vaccel authors
 *
 * vadd.c - the vector add: c = a + b on n floats, one work-item per
 * element in workgroups of 256, checked bit for bit against the CPU
 * (float addition is exact IEEE arithmetic on both).
 *
 *	example-vadd [-h] [-d INDEX] [-k MODULE] [-n FLOATS]
 */
#include "example.h"
#include "vadd.h"

#define WG	256

int main(int argc, char **argv)
{
	struct example ex = { .name = "vadd" };
	struct example_buf a = { 0 }, b = { 0 }, c = { 0 };
	struct vadd_args args;
	uint32_t grid[3], wg[3] = { WG, 1, 1 };
	float *want = NULL;
	uint64_t seed = 1, engine_ns = 0;
	unsigned long i, bad = 0;
	double t0, cpu_ms;
	char label[64];
	int status, ret;

	status = example_open(&ex, argc, argv,
			      "Add two vectors of floats on a compute engine; check on the CPU.",
			      1 << 18, 1 << 24);
	if (status)
		goto out;
	status = 1;
	if ((ret = example_buf(&ex, ex.size * 4, &a)) ||
	    (ret = example_buf(&ex, ex.size * 4, &b)) ||
	    (ret = example_buf(&ex, ex.size * 4, &c))) {
		example_fail(&ex, "buffers", ret);
		goto out;
	}
	want = malloc(ex.size * 4);
	if (!want)
		goto out;
	for (i = 0; i < ex.size; i++) {
		((float *)a.cpu)[i] = example_randf(&seed) * 1000.0f;
		((float *)b.cpu)[i] = example_randf(&seed) / 3.0f;
		((float *)c.cpu)[i] = -1.0f;
	}

	args = (struct vadd_args){ .a = a.va, .b = b.va, .c = c.va, .n = ex.size };
	grid[0] = ex.size;
	grid[1] = grid[2] = 1;
	if (example_run(&ex, "vadd", grid, wg, &args, sizeof(args), &engine_ns))
		goto out;

	t0 = example_now_ms();
	for (i = 0; i < ex.size; i++)
		want[i] = ((float *)a.cpu)[i] + ((float *)b.cpu)[i];
	cpu_ms = example_now_ms() - t0;
	for (i = 0; i < ex.size; i++)
		bad += memcmp(&want[i], (float *)c.cpu + i, 4) != 0;

	printf("vadd: c = a + b, %lu floats, %lu workgroups of %u\n", ex.size,
	       (ex.size + WG - 1) / WG, WG);
	printf("  c[0] = %g + %g = %g, c[%lu] = %g\n", ((float *)a.cpu)[0],
	       ((float *)b.cpu)[0], ((float *)c.cpu)[0], ex.size - 1,
	       ((float *)c.cpu)[ex.size - 1]);
	snprintf(label, sizeof(label), "vadd of %lu floats:", ex.size);
	example_report(label, engine_ns, cpu_ms, ex.size, !bad,
		       "OK, bit for bit what the CPU computes");
	if (bad)
		printf("  %lu of %lu elements differ\n", bad, ex.size);
	status = bad ? 1 : 0;
out:
	free(want);
	vaccel_bo_free(c.bo);
	vaccel_bo_free(b.bo);
	vaccel_bo_free(a.bo);
	example_close(&ex);
	return status;
}
