// SPDX-License-Identifier: MIT
/*
 * Copyright 2026 The vaccel authors
 *
 * test_toolchain.c - what vaccel-cc builds beyond C kernels, run on a
 * compute engine: a C++ kernel (tests/vm/kernels/toolchain_cxx.cpp) found
 * by its plain name, whose virtual calls go through relocated tables; a
 * kernel of 128-bit arithmetic (toolchain_int128.c) whose division,
 * remainder, overflow checks and conversions call the device runtime's
 * helpers, compared with the host's native results; and both modules
 * linked into this program by vaccel-cc --embed, as host objects, and
 * loaded through <vaccel_embed.h>.
 *
 * The default topology.
 */
#include <math.h>

#include <vaccel.h>
#include <vaccel_embed.h>

#include "vt_mem.h"
#include "kernels/toolchain.h"

VACCEL_EMBED_DECLARE(tc_int128);
VACCEL_EMBED_DECLARE(tc_cxx);

#define TC_N	4096

struct fx {
	struct vaccel_device *dev;
	struct vaccel_queue *q;
	struct vaccel_module *mod;
	struct vaccel_kernel *k;
	struct vaccel_bo *in, *out;
	void *in_cpu, *out_cpu;
};

static struct fx fx_open(const void *image, size_t size, const char *kernel,
			 size_t in_size, size_t out_size)
{
	char msg[VACCEL_MODULE_MSG_SIZE];
	struct fx f;
	int ret;

	VT_ASSERT_OK(vaccel_device_open(0, &f.dev));
	VT_ASSERT_OK(vaccel_queue_create(f.dev, VACCEL_ENGINE_CLASS_COMPUTE,
					 VACCEL_PRIORITY_NORMAL, &f.q));
	ret = vaccel_module_load(f.dev, image, size, &f.mod, msg, sizeof(msg));
	if (ret)
		vtest_fail(__FILE__, __LINE__, "vaccel_module_load: %d (%s)", ret, msg);
	VT_ASSERT_OK(vaccel_kernel_get(f.mod, kernel, &f.k));
	VT_ASSERT_OK(vaccel_bo_alloc(f.dev, in_size, VACCEL_BO_GPU_NO_EXEC, &f.in));
	VT_ASSERT_OK(vaccel_bo_alloc(f.dev, out_size, VACCEL_BO_GPU_NO_EXEC, &f.out));
	VT_ASSERT_OK(vaccel_bo_map(f.in, &f.in_cpu));
	VT_ASSERT_OK(vaccel_bo_map(f.out, &f.out_cpu));
	memset(f.out_cpu, 0xa5, out_size);
	return f;
}

static void fx_run(struct fx *f, uint32_t n)
{
	struct tc_args args = {
		.in = vaccel_bo_va(f->in),
		.out = vaccel_bo_va(f->out),
		.n = n,
	};
	uint32_t grid[3] = { n, 1, 1 }, wg[3] = { 64, 1, 1 };

	VT_ASSERT_OK(vaccel_launch(f->q, f->k, grid, wg, &args, sizeof(args)));
	VT_ASSERT_OK(vaccel_queue_finish(f->q));
}

static void fx_close(struct fx *f)
{
	vaccel_bo_free(f->in);
	vaccel_bo_free(f->out);
	vaccel_module_destroy(f->mod);
	vaccel_queue_destroy(f->q);
	vaccel_device_close(f->dev);
}

static uint64_t rng = 0x2545f4914f6cdd1dull;

static uint64_t rnd64(void)
{
	rng ^= rng >> 12;
	rng ^= rng << 25;
	rng ^= rng >> 27;
	return rng * 0x2545f4914f6cdd1dull;
}

/* The embedded modules are what vaccel-cc linked: RV64 ELF files. */
VTEST(embedded_modules_are_rv64_elf)
{
	static const unsigned char magic[] = { 0x7f, 'E', 'L', 'F', 2, 1 };

	VT_ASSERT(vaccel_embed_tc_int128_size > 4096);
	VT_ASSERT(vaccel_embed_tc_cxx_size > 4096);
	VT_ASSERT_EQ(memcmp(vaccel_embed_tc_int128, magic, sizeof(magic)), 0);
	VT_ASSERT_EQ(memcmp(vaccel_embed_tc_cxx, magic, sizeof(magic)), 0);
	/* e_machine: EM_RISCV */
	VT_ASSERT_EQ(vaccel_embed_tc_cxx[18] | vaccel_embed_tc_cxx[19] << 8, 243);
	VT_ASSERT_EQ((uintptr_t)vaccel_embed_tc_cxx % 64, 0);
}

/* What toolchain_cxx.cpp computes, in C. */
static int64_t tc_cxx_model(int64_t x)
{
	static const int64_t w[5] = { 3, -7, 11, 13, -17 };
	int64_t r = (x & 1) ? x * x : (x << 3) ^ 0x5a5a;
	unsigned int i;

	for (i = 0; i < 5; i++)
		r += w[i] * (x + i);
	return r;
}

/* The C++ kernel, by its plain name, matches the model. */
VTEST(cxx_kernel_by_plain_name)
{
	struct fx f = fx_open(VACCEL_EMBED(tc_cxx), "tc_cxx", TC_N * 8, TC_N * 8);
	int64_t *in = f.in_cpu, *out = f.out_cpu;
	struct vaccel_kernel *k;
	unsigned int i;

	VT_ASSERT_EQ(vaccel_kernel_get(f.mod, "_Z6tc_cxxPK7tc_args", &k), -ENOENT);
	for (i = 0; i < TC_N; i++)
		in[i] = (int64_t)(rnd64() >> 34);
	in[0] = 0;
	in[1] = 1;
	fx_run(&f, TC_N);
	for (i = 0; i < TC_N; i++)
		if (out[i] != tc_cxx_model(in[i]))
			vtest_fail(__FILE__, __LINE__, "item %u: tc_cxx(%lld) = %lld, not %lld",
				   i, (long long)in[i], (long long)out[i],
				   (long long)tc_cxx_model(in[i]));
	fx_close(&f);
}

/* A 128-bit value of a random width and sign. */
static __int128 rnd_i128(void)
{
	unsigned int w = rnd64() % 129;
	unsigned __int128 v = (unsigned __int128)rnd64() << 64 | rnd64();

	v = w ? v >> (128 - w) : 0;
	return (__int128)(rnd64() & 1 ? -v : v);
}

static void print_i128(const char *what, unsigned __int128 got, unsigned __int128 want)
{
	fprintf(stderr, "%s: 0x%016llx%016llx, not 0x%016llx%016llx\n", what,
		(unsigned long long)(got >> 64), (unsigned long long)got,
		(unsigned long long)(want >> 64), (unsigned long long)want);
}

/* Every result of the 128-bit kernel is the host's. */
VTEST(int128_matches_host)
{
	const __int128 min = (__int128)((unsigned __int128)1 << 127);
	struct fx f = fx_open(VACCEL_EMBED(tc_int128), "tc_int128",
			      TC_N * sizeof(struct tc_i128_in),
			      TC_N * sizeof(struct tc_i128_out));
	struct tc_i128_in *in = f.in_cpu;
	struct tc_i128_out *out = f.out_cpu, want;
	unsigned int i, bad = 0;

	for (i = 0; i < TC_N; i++) {
		memset(&in[i], 0, sizeof(in[i]));
		in[i].a = i < 4 ? (i & 1 ? min : -1) : rnd_i128();
		do
			in[i].b = i < 4 ? (i & 2 ? 3 : (__int128)1 << 100) : rnd_i128();
		while (!in[i].b || (in[i].a == min && in[i].b == -1));
		in[i].d = ldexp((double)(rnd64() >> 11), (int)(rnd64() % 126) - 53) *
			  (rnd64() & 1 ? -1 : 1);
		in[i].shift = rnd64() % 128;
	}
	fx_run(&f, TC_N);

	for (i = 0; i < TC_N && bad < 4; i++) {
		const struct tc_i128_in *x = &in[i];
		unsigned __int128 ua = (unsigned __int128)x->a, ub = (unsigned __int128)x->b;
		__int128 p;

		memset(&want, 0, sizeof(want));
		want.mul = (__int128)(ua * ub);
		want.sdiv = x->a / x->b;
		want.smod = x->a % x->b;
		want.udiv = ua / ub;
		want.umod = ua % ub;
		want.shl = (__int128)(ua << x->shift);
		want.ashr = x->a >> x->shift;
		want.lshr = ua >> x->shift;
		want.d_to_i = (__int128)x->d;
		want.d_to_u = (unsigned __int128)fabs(x->d);
		want.i_to_d = (double)x->a;
		want.u_to_d = (double)ub;
		want.i_to_f = (float)x->a;
		want.u_to_f = (float)ub;
		want.mul_overflow = __builtin_mul_overflow(x->a, x->b, &p);
		if (!memcmp(&out[i], &want, sizeof(want)))
			continue;
		bad++;
		fprintf(stderr, "item %u differs:\n", i);
		print_i128(" a", ua, ua);
		print_i128(" b", ub, ub);
#define TC_CMP(field)							\
		if (memcmp(&out[i].field, &want.field, sizeof(want.field)))	\
			print_i128(" " #field, (unsigned __int128)out[i].field,	\
				   (unsigned __int128)want.field)
		TC_CMP(mul);
		TC_CMP(sdiv);
		TC_CMP(smod);
		TC_CMP(udiv);
		TC_CMP(umod);
		TC_CMP(shl);
		TC_CMP(ashr);
		TC_CMP(lshr);
		TC_CMP(d_to_i);
		TC_CMP(d_to_u);
		TC_CMP(mul_overflow);
#undef TC_CMP
		if (out[i].i_to_d != want.i_to_d || out[i].u_to_d != want.u_to_d ||
		    out[i].i_to_f != want.i_to_f || out[i].u_to_f != want.u_to_f)
			fprintf(stderr, " conversions: %a %a %a %a, not %a %a %a %a\n",
				out[i].i_to_d, out[i].u_to_d, out[i].i_to_f, out[i].u_to_f,
				want.i_to_d, want.u_to_d, want.i_to_f, want.u_to_f);
	}
	if (bad)
		vtest_fail(__FILE__, __LINE__, "128-bit results differ from the host's");
	fx_close(&f);
}

VTEST_MAIN()
