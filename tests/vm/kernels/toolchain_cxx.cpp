// SPDX-License-Identifier: MIT
/*
 * Copyright 2026 The vaccel authors
 *
 * toolchain_cxx.cpp - the C++ kernel of test_toolchain.c, built by
 * vaccel-cc --embed=tc_cxx into a host object: a namespace, templates, a
 * lambda, constexpr tables, and virtual calls through an abstract class,
 * whose tables hold addresses the loader relocates.  The kernel keeps its
 * plain name, tc_cxx (VACCEL_KERNEL() gives it C linkage).
 * test_toolchain.c computes tc_cxx_model() in C.
 */
#include <vaccel_kernel.h>

#include "toolchain.h"

namespace tc {

template <typename T, unsigned int N>
struct table {
	T v[N];

	constexpr T at(unsigned int i) const { return v[i % N]; }
};

constexpr table<int64_t, 5> weights = { { 3, -7, 11, 13, -17 } };

struct op {
	virtual int64_t apply(int64_t x) const = 0;
};

struct square : op {
	int64_t apply(int64_t x) const override { return x * x; }
};

struct shift_xor : op {
	int64_t k;

	explicit shift_xor(int64_t k_) : k(k_) {}
	int64_t apply(int64_t x) const override { return (x << 3) ^ k; }
};

template <typename F>
static int64_t fold(int64_t x, F f)
{
	int64_t acc = 0;

	for (unsigned int i = 0; i < 5; i++)
		acc += f(weights.at(i), x + i);
	return acc;
}

/* Not inlined: the call through the table is made. */
static __attribute__((noinline)) int64_t run(const op &o, int64_t x)
{
	return o.apply(x);
}

} // namespace tc

static_assert(tc::weights.at(6) == -7, "constexpr tables are evaluated at compile time");

VACCEL_KERNEL(tc_cxx, const struct tc_args *args)
{
	unsigned int i = vaccel_global_id(0);
	const int64_t *in = reinterpret_cast<const int64_t *>(args->in);
	int64_t *out = reinterpret_cast<int64_t *>(args->out);
	tc::square sq;
	tc::shift_xor sx(0x5a5a);
	int64_t x;

	if (i >= args->n)
		return;
	x = in[i];
	const tc::op &o = (x & 1) ? static_cast<const tc::op &>(sq) : sx;
	out[i] = tc::run(o, x) + tc::fold(x, [](int64_t w, int64_t y) { return w * y; });
}
