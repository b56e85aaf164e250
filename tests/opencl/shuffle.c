// SPDX-License-Identifier: MIT
/*
 * Copyright 2026 The vaccel authors
 *
 * DOC: shuffle - shuffle() and shuffle2() for every type and width
 *
 * For each of the ten types, a kernel shuffles two vectors of m
 * components into n, with masks of n components taken from a list of
 * random 64-bit values: their high bits are set, and must be ignored.
 * Each type takes four of the sixteen pairs (m, n) of 2, 4, 8 and 16,
 * every m and every n once, turning with the type, so that each pair
 * meets two or three types of different widths (the library's forms are
 * one macro).  Eight work-items, each with masks of its own.  Every result
 * printed in hex.
 */
#include <stdint.h>
#include "clt.h"

#define ITEMS	8
#define PER_ITEM 240	/* at most: n of 2, 4, 8, 16, twice each, for 4 m */

/*
 * The kernel of type @t, of mask type @mask: its pairs of widths (see the
 * DOC above); *@used gets the number of results per work-item.
 */
static int kernel_source(char *p, size_t size, int t, const char *type, const char *mask,
			 int *used)
{
	static const int w[] = { 2, 4, 8, 16 };
	int len, i, j;

	len = snprintf(p, size,
		       "__kernel void sh_%s(__global const ulong *in, __global const ulong *mk,\n"
		       "		    __global ulong *out)\n{\n"
		       "	size_t i = get_global_id(0);\n"
		       "	__global ulong *o = out + i * %d;\n"
		       "	%s v[32];\n	int p = 0;\n\n"
		       "	for (int j = 0; j < 32; j++)\n		v[j] = (%s)in[j];\n",
		       type, PER_ITEM, type, type);
	for (i = 0; i < 4; i++) {
		for (j = 0; j < 4; j++) {
			if ((i + j + t) % 4)
				continue;
			len += snprintf(p + len, size - len, "	ONE(%s, %s, %d, %d)\n", type, mask,
					w[i], w[j]);
			*used += 2 * w[j];
		}
	}
	return len + snprintf(p + len, size - len, "}\n");
}

static const char *const header =
	"#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n"
	"#define OUT_char(v) ((ulong)(uchar)(v))\n#define OUT_uchar(v) ((ulong)(v))\n"
	"#define OUT_short(v) ((ulong)(ushort)(v))\n#define OUT_ushort(v) ((ulong)(v))\n"
	"#define OUT_int(v) ((ulong)(uint)(v))\n#define OUT_uint(v) ((ulong)(v))\n"
	"#define OUT_long(v) ((ulong)(v))\n#define OUT_ulong(v) ((ulong)(v))\n"
	"#define OUT_float(v) ((ulong)as_uint(v))\n#define OUT_double(v) as_ulong(v)\n"
	"#define ONE(T, U, m, n) {\t\t\t\t\t\t\\\n"
	"	T##m x = vload##m(0, v), y = vload##m(1, v);\t\t\\\n"
	"	U##n k;\t\t\t\t\t\t\t\\\n"
	"	for (int j = 0; j < n; j++)\t\t\t\t\\\n"
	"		k[j] = (U)mk[i * 16 + j];\t\t\t\\\n"
	"	T##n r = shuffle(x, k), s = shuffle2(x, y, k);\t\t\\\n"
	"	for (int j = 0; j < n; j++) {\t\t\t\t\\\n"
	"		o[p++] = OUT_##T(r[j]);\t\t\t\t\\\n"
	"		o[p++] = OUT_##T(s[j]);\t\t\t\t\\\n"
	"	}\t\t\t\t\t\t\t\\\n"
	"}\n";

static const char *const types[] = {
	"char", "uchar", "short", "ushort", "int", "uint", "long", "ulong", "float", "double",
};
static const char *const masks[] = {
	"uchar", "uchar", "ushort", "ushort", "uint", "uint", "ulong", "ulong", "uint", "ulong",
};

int main(void)
{
	uint64_t in[32], mk[ITEMS * 16], out[ITEMS * PER_ITEM], seed = 0;
	size_t n = ITEMS, i;
	struct clt t;
	static char src[16384];
	char name[16];
	int ty, k, len, used[10] = { 0 };

	/* Values distinct in every type, exact in float. */
	for (i = 0; i < 32; i++)
		in[i] = 3 * i + 7;
	for (i = 0; i < ITEMS * 16; i++) {
		uint64_t z = (seed += 0x9e3779b97f4a7c15ULL);	/* splitmix64 */

		z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
		z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
		mk[i] = z ^ (z >> 31);
	}

	len = snprintf(src, sizeof(src), "%s", header);
	for (ty = 0; ty < 10; ty++)
		len += kernel_source(src + len, sizeof(src) - len, ty, types[ty], masks[ty],
				     &used[ty]);
	EXPECT((size_t)len < sizeof(src));

	clt_init(&t);
	cl_program p = clt_build(&t, src, NULL);
	cl_mem mi = clt_buffer(&t, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, sizeof(in), in);
	cl_mem mm = clt_buffer(&t, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, sizeof(mk), mk);
	cl_mem mo = clt_buffer(&t, CL_MEM_WRITE_ONLY, sizeof(out), NULL);

	for (ty = 0; ty < 10; ty++) {
		snprintf(name, sizeof(name), "sh_%s", types[ty]);
		cl_kernel kc = clt_kernel(p, name);

		ARG(kc, 0, mi); ARG(kc, 1, mm); ARG(kc, 2, mo);
		CHECK(clEnqueueNDRangeKernel(t.queue, kc, 1, NULL, &n, NULL, 0, NULL, NULL));
		CHECK(clEnqueueReadBuffer(t.queue, mo, CL_TRUE, 0, sizeof(out), out, 0, NULL,
					  NULL));
		for (i = 0; i < ITEMS; i++) {
			printf("%s %zu:", types[ty], i);
			for (k = 0; k < used[ty]; k++)
				printf(" %llx", (unsigned long long)out[i * PER_ITEM + k]);
			printf("\n");
		}
		clReleaseKernel(kc);
	}
	clReleaseMemObject(mi); clReleaseMemObject(mm); clReleaseMemObject(mo);
	clReleaseProgram(p);
	clt_fini(&t);
	return 0;
}
