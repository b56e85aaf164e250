// SPDX-License-Identifier: MIT
/*
 * Copyright 2026 The vaccel authors
 *
 * DOC: convert_all - every explicit conversion, in every rounding mode
 *
 * A kernel for each of the 100 pairs of scalar types (destination,
 * source), generated here, converts 64 edge values of the source type with
 * each form the pair has: the default, _rte, _rtz, _rtp and _rtn, and to an
 * integer the same five _sat.  Then two vector forms, their widths (2, 3,
 * 4, 8, 16) and modes turning with the pair, so that every width meets
 * every form across the pairs (a vector form is the scalar one on each
 * component); a vector's components are the next values of the list, and
 * its results are folded into one hash.
 *
 * The values: halfway points and their neighbours, each integer type's
 * limits and one past them, the powers of two where float and double
 * stop having fractions or integers, the ties of int and long to float
 * and double, of double to float (normal and subnormal), overflow to
 * infinity, infinities, NaN, signed zeros.  A conversion to integer that
 * is not _sat is implementation-defined out of the destination's range:
 * its result there is not printed, and a NaN is printed as the canonical
 * one (the engine makes every NaN result canonical, as RISC-V does; x86
 * keeps the sign and payload).  Every result is exact, printed in hex.
 */
#include <float.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include "clt.h"

#define NV 64

static const char *const types[] = {
	"char", "uchar", "short", "ushort", "int", "uint", "long", "ulong", "float", "double",
};
#define NTYPES 10
#define IS_FLOAT(t) ((t) >= 8)
static const char *const modes[] = { "", "_rte", "_rtz", "_rtp", "_rtn" };
/* The rounding of a float source that each mode does, for the range check. */
static const char *const rounds[] = { "trunc", "rint", "trunc", "ceil", "floor" };
/* An integer destination's range as [lo, hi), exact in float and double. */
static const char *const lo[] = { "-0x1p7", "0", "-0x1p15", "0", "-0x1p31", "0", "-0x1p63", "0" };
static const char *const hi[] = { "0x1p7", "0x1p8", "0x1p15", "0x1p16", "0x1p31", "0x1p32",
				  "0x1p63", "0x1p64" };
static const int widths[] = { 2, 3, 4, 8, 16 };

static const int64_t ints[] = {
	0, 1, -1, 2, 0x7e, 0x7f, 0x80, 0x81, 0xff, 0x100, -0x7f, -0x80, -0x81, 0x7fff, 0x8000,
	0xffff, 0x10000, -0x8000, -0x8001, 0x7fffffff, 0x80000000, 0xffffffff, 0x100000000,
	-0x7fffffff - 1, -0x80000001LL, INT64_MAX, INT64_MIN, INT64_MIN + 1, -2,
	0x1000001, 0x1000003, -0x1000001, 0x2000002, 0x2000006, 0x7fffffbf, 0x7fffffc0,
	0x7fffff80, 0xffffff7f, 0xffffff80, 0xffffffc0, 0x20000000000001LL, 0x20000000000003LL,
	-0x20000000000001LL, 0x7ffffffffffffdffLL, 0x7ffffffffffffe00LL, 0x7fffffffffffffc0LL,
	(int64_t)0x8000000000000401ULL, (int64_t)0xfffffffffffff800ULL,
	(int64_t)0xfffffffffffffbffULL, 0x123456789abcdefLL, -0x123456789abcdefLL, 100, -100,
	1000000007, 0x55555555, (int64_t)0xaaaaaaaaaaaaaaaaULL, 0x40000001, 0x800001, -0x800001,
	0xfffff, 0x3fffffffffffffffLL, 12345, 0x10, 0x4000000000000001LL,
};

static const float floats[] = {
	0.0f, -0.0f, 0.5f, -0.5f, 1.5f, -1.5f, 2.5f, -2.5f, 0x1.fffffep-2f, -0x1.fffffep-2f,
	0x1.000002p0f, 127.5f, -128.5f, 128.5f, -129.5f, 255.5f, 256.5f, -0.75f, 32767.5f,
	-32768.5f, 65535.5f, 65536.0f, 0x1.fffffep30f, 0x1p31f, -0x1p31f, -0x1.000002p31f,
	0x1.fffffep31f, 0x1p32f, 0x1.fffffep62f, 0x1p63f, -0x1p63f, -0x1.000002p63f,
	0x1.fffffep63f, 0x1p64f, 1e30f, -1e30f, FLT_MAX, -FLT_MAX, INFINITY, -INFINITY, NAN,
	-NAN, FLT_MIN, 1e-40f, -1e-45f, 3.7f, -3.7f, 1e10f, -1e10f, 0x1.fffffep22f, 4194303.5f,
	16777215.0f, 0x1p24f, 99.999f, -99.999f, 0x1.fffffep-1f, 1e-7f, -126.5f, 126.5f,
	-127.5f, 254.5f, 0x1.8p1f, -0x1.8p1f, 0.25f,
};

static const double doubles[] = {
	0.0, -0.0, 0.5, -0.5, 1.5, -2.5, 1 + 0x1p-24, 1 + 0x3p-24, 1 + 0x1p-30, -1 - 0x1p-30,
	-1 - 0x3p-24, 0x1.fffffefp127, 0x1.ffffffp127, -0x1.ffffffp127, 0x1p128, 1e300, -1e300,
	DBL_MAX, 0x1p-149, 0x1p-150, 0x1.8p-150, -0x1p-150, 0x1.000001p-126, 1e-320,
	2147483647.5, 2147483646.5, -2147483648.5, -2147483647.5, 4294967295.5, 4294967294.5,
	0x1.fffffffffffffp62, 0x1p63, -0x1p63, -0x1.0000000000001p63, 0x1.fffffffffffffp63,
	0x1p64, 127.5, -128.5, 255.5, 32767.5, -32768.5, 65535.5, INFINITY, -INFINITY, NAN,
	0.1, -0.1, 1e-310, 3.4028235e38, 0x1.fffffe8p127, 16777217.0, 16777219.0, -16777217.0,
	0x1.0000003p0, 0x1.0000001p0, 0x1.00000018p0, 0x1p-1074, 9007199254740991.0, 1e15 + 0.5,
	-1e15 - 0.5, 3.5, -3.5, 0.99999999999999989, 2.0,
};

_Static_assert(sizeof(ints) == NV * sizeof(ints[0]), "64 integers");
_Static_assert(sizeof(floats) == NV * sizeof(floats[0]), "64 floats");
_Static_assert(sizeof(doubles) == NV * sizeof(doubles[0]), "64 doubles");

static char *append(char *s, size_t *len, size_t *cap, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static char *append(char *s, size_t *len, size_t *cap, const char *fmt, ...)
{
	va_list ap;
	int n;

	for (;;) {
		va_start(ap, fmt);
		n = vsnprintf(s + *len, *cap - *len, fmt, ap);
		va_end(ap);
		if (n < 0)
			exit(1);
		if ((size_t)n < *cap - *len)
			break;
		*cap = *cap * 2 + (size_t)n;
		s = realloc(s, *cap);
		EXPECT(s);
	}
	*len += (size_t)n;
	return s;
}

/* A kernel for destination @d and source @s: the forms it has, NOUT results. */
static char *pair_kernel(char *p, size_t *len, size_t *cap, int d, int s, int pair)
{
	char in_i[64], in_k[96];
	int m, sat, j, nforms = IS_FLOAT(d) ? 5 : 10, slot = 0;

	if (s == 8)
		snprintf(in_i, sizeof(in_i), "as_float((uint)in[i])");
	else if (s == 9)
		snprintf(in_i, sizeof(in_i), "as_double(in[i])");
	else
		snprintf(in_i, sizeof(in_i), "(%s)in[i]", types[s]);
	if (s == 8)
		snprintf(in_k, sizeof(in_k), "as_float((uint)in[(i + k) %% %d])", NV);
	else if (s == 9)
		snprintf(in_k, sizeof(in_k), "as_double(in[(i + k) %% %d])", NV);
	else
		snprintf(in_k, sizeof(in_k), "(%s)in[(i + k) %% %d]", types[s], NV);

	p = append(p, len, cap,
		   "__kernel void %s_from_%s(__global const ulong *in, __global ulong *out)\n"
		   "{\n\tsize_t i = get_global_id(0);\n\t%s x = %s;\n"
		   "\t__global ulong *o = out + i * 12;\n\tulong h;\n",
		   types[d], types[s], types[s], in_i);
	for (sat = 0; sat < (IS_FLOAT(d) ? 1 : 2); sat++) {
		for (m = 0; m < 5; m++, slot++) {
			if (IS_FLOAT(s) && !IS_FLOAT(d) && !sat)
				p = append(p, len, cap,
					   "\to[%d] = %s(x) >= %s && %s(x) < %s ? OUT_%s(convert_%s%s(x)) : 0;\n",
					   slot, rounds[m], lo[d], rounds[m], hi[d], types[d],
					   types[d], modes[m]);
			else
				p = append(p, len, cap, "\to[%d] = OUT_%s(convert_%s%s%s(x));\n", slot,
					   types[d], types[d], sat ? "_sat" : "", modes[m]);
		}
	}
	for (j = 0, slot = 10; j < 2; j++, slot++) {
		int w = (pair + 2 * j) % 5, f = (pair / 5 + j) % nforms, fm = f % 5, fsat = f / 5;
		int n = widths[w];

		p = append(p, len, cap,
			   "\t{\n\t\t%s%d v;\n\t\t%s%d r;\n\n\t\tfor (int k = 0; k < %d; k++)\n"
			   "\t\t\tv[k] = %s;\n\t\tr = convert_%s%d%s%s(v);\n\t\th = 0;\n"
			   "\t\tfor (int k = 0; k < %d; k++)\n",
			   types[s], n, types[d], n, n, in_k, types[d], n, fsat ? "_sat" : "",
			   modes[fm], n);
		if (IS_FLOAT(s) && !IS_FLOAT(d) && !fsat)
			p = append(p, len, cap,
				   "\t\t\th = h * 31 + (%s(v[k]) >= %s && %s(v[k]) < %s ? OUT_%s(r[k]) : 0);\n",
				   rounds[fm], lo[d], rounds[fm], hi[d], types[d]);
		else
			p = append(p, len, cap, "\t\t\th = h * 31 + OUT_%s(r[k]);\n", types[d]);
		p = append(p, len, cap, "\t\to[%d] = h;\n\t}\n", slot);
	}
	return append(p, len, cap, "}\n\n");
}

int main(void)
{
	size_t len = 0, cap = 1 << 16, n = NV, i;
	char *src = malloc(cap), name[32];
	uint64_t in[3][NV], out[NV * 12];
	struct clt t;
	int d, s, k;

	EXPECT(src);
	src[0] = 0;
	src = append(src, &len, &cap, "#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n"
		     "#define OUT_char(v) ((ulong)(uchar)(v))\n#define OUT_uchar(v) ((ulong)(v))\n"
		     "#define OUT_short(v) ((ulong)(ushort)(v))\n#define OUT_ushort(v) ((ulong)(v))\n"
		     "#define OUT_int(v) ((ulong)(uint)(v))\n#define OUT_uint(v) ((ulong)(v))\n"
		     "#define OUT_long(v) ((ulong)(v))\n#define OUT_ulong(v) ((ulong)(v))\n"
		     "#define OUT_float(v) (isnan(v) ? 0x7fc00000UL : (ulong)as_uint(v))\n"
		     "#define OUT_double(v) (isnan(v) ? 0x7ff8000000000000UL : as_ulong(v))\n\n");
	for (d = 0; d < NTYPES; d++)
		for (s = 0; s < NTYPES; s++)
			src = pair_kernel(src, &len, &cap, d, s, d * NTYPES + s);
	for (i = 0; i < NV; i++) {
		uint32_t fb;

		in[0][i] = (uint64_t)ints[i];
		memcpy(&fb, &floats[i], 4);
		in[1][i] = fb;
		memcpy(&in[2][i], &doubles[i], 8);
	}

	clt_init(&t);
	cl_program p = clt_build(&t, src, NULL);
	cl_mem mo = clt_buffer(&t, CL_MEM_WRITE_ONLY, sizeof(out), NULL);
	cl_mem mi[3];

	for (k = 0; k < 3; k++)
		mi[k] = clt_buffer(&t, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, sizeof(in[k]), in[k]);
	for (d = 0; d < NTYPES; d++) {
		for (s = 0; s < NTYPES; s++) {
			int nf = IS_FLOAT(d) ? 5 : 10;

			snprintf(name, sizeof(name), "%s_from_%s", types[d], types[s]);
			cl_kernel kc = clt_kernel(p, name);

			ARG(kc, 0, mi[s == 8 ? 1 : s == 9 ? 2 : 0]);
			ARG(kc, 1, mo);
			CHECK(clEnqueueNDRangeKernel(t.queue, kc, 1, NULL, &n, NULL, 0, NULL, NULL));
			CHECK(clEnqueueReadBuffer(t.queue, mo, CL_TRUE, 0, sizeof(out), out, 0, NULL,
						  NULL));
			for (i = 0; i < NV; i++) {
				printf("%s %zu:", name, i);
				for (k = 0; k < nf; k++)
					printf(" %llx", (unsigned long long)out[i * 12 + k]);
				printf(" |");
				for (k = 10; k < 12; k++)
					printf(" %llx", (unsigned long long)out[i * 12 + k]);
				printf("\n");
			}
			clReleaseKernel(kc);
		}
	}
	for (k = 0; k < 3; k++)
		clReleaseMemObject(mi[k]);
	clReleaseMemObject(mo);
	clReleaseProgram(p);
	clt_fini(&t);
	free(src);
	return 0;
}
