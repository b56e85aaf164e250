// SPDX-License-Identifier: GPL-2.0-only
/*
 * Copyright 2026 The vaccel authors
 *
 * KUnit tests of the topology: parameter validation and engine layout.
 */

#include <kunit/test.h>

#include "../vaccel_topology.h"

struct vaccel_topology_case {
	const char *desc;
	struct vaccel_topology_params params;
	int expected;
};

static const struct vaccel_topology_case vaccel_topology_cases[] = {
	{ "defaults", { 1, 2, 1, 48 }, 0 },
	{ "single_use", { 2, 2, 1, 48, true }, 0 },
	{ "smallest", { 1, 1, 0, 32 }, 0 },
	{ "largest", { 8, 8, 8, 48 }, 0 },
	{ "no_copy_engines", { 3, 4, 0, 39 }, 0 },
	{ "zero_devices", { 0, 2, 1, 48 }, -EINVAL },
	{ "too_many_devices", { 9, 2, 1, 48 }, -EINVAL },
	{ "zero_compute_engines", { 1, 0, 1, 48 }, -EINVAL },
	{ "too_many_compute_engines", { 1, 9, 1, 48 }, -EINVAL },
	{ "too_many_copy_engines", { 1, 2, 9, 48 }, -EINVAL },
	{ "va_bits_too_small", { 1, 2, 1, 31 }, -EINVAL },
	{ "va_bits_too_large", { 1, 2, 1, 49 }, -EINVAL },
	{ "huge_values", { ~0u, ~0u, ~0u, ~0u }, -EINVAL },
};

static void vaccel_topology_case_desc(const struct vaccel_topology_case *c,
				      char *desc)
{
	strscpy(desc, c->desc, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(vaccel_topology, vaccel_topology_cases,
		  vaccel_topology_case_desc);

/*
 * Valid parameters give a layout with the asked-for counts, ordered by
 * class then instance, a two-slot HW queue everywhere and the VA range of
 * va_bits; invalid ones give -EINVAL, a reason and an empty topology.
 */
static void vaccel_test_topology_init(struct kunit *test)
{
	const struct vaccel_topology_case *c = test->param_value;
	const struct vaccel_topology_params *p = &c->params;
	struct vaccel_topology *topo;
	const char *why = NULL;
	unsigned int i, expect_total;
	int ret;

	topo = kunit_kzalloc(test, sizeof(*topo), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, topo);
	memset(topo, 0xa5, sizeof(*topo));

	ret = vaccel_topology_init(topo, p, &why);
	KUNIT_ASSERT_EQ(test, ret, c->expected);

	if (ret) {
		KUNIT_EXPECT_NOT_NULL(test, why);
		KUNIT_EXPECT_EQ(test, topo->num_engines, 0);
		KUNIT_EXPECT_EQ(test, topo->va_bits, 0);
		return;
	}

	expect_total = p->compute_engines + p->copy_engines + VACCEL_PAGING_ENGINES;
	KUNIT_EXPECT_EQ(test, topo->num_engines, expect_total);
	KUNIT_EXPECT_EQ(test, topo->engine_count[DRM_VACCEL_ENGINE_CLASS_COMPUTE],
			p->compute_engines);
	KUNIT_EXPECT_EQ(test, topo->engine_count[DRM_VACCEL_ENGINE_CLASS_COPY],
			p->copy_engines);
	KUNIT_EXPECT_EQ(test, topo->engine_count[DRM_VACCEL_ENGINE_CLASS_PAGING],
			VACCEL_PAGING_ENGINES);
	KUNIT_EXPECT_EQ(test, topo->va_bits, p->va_bits);
	KUNIT_EXPECT_EQ(test, topo->va_start, (u64)VACCEL_VA_START);
	KUNIT_EXPECT_EQ(test, topo->va_end, 1ull << p->va_bits);
	KUNIT_EXPECT_EQ(test, topo->single_use, p->single_use);

	for (i = 0; i < topo->num_engines; i++) {
		const struct vaccel_engine_desc *e = &topo->engines[i];
		unsigned int cls, inst;

		if (i < p->compute_engines) {
			cls = DRM_VACCEL_ENGINE_CLASS_COMPUTE;
			inst = i;
		} else if (i < p->compute_engines + p->copy_engines) {
			cls = DRM_VACCEL_ENGINE_CLASS_COPY;
			inst = i - p->compute_engines;
		} else {
			cls = DRM_VACCEL_ENGINE_CLASS_PAGING;
			inst = i - p->compute_engines - p->copy_engines;
		}
		KUNIT_EXPECT_EQ_MSG(test, e->engine_class, cls, "engine %u", i);
		KUNIT_EXPECT_EQ_MSG(test, e->instance, inst, "engine %u", i);
		KUNIT_EXPECT_EQ(test, e->hw_queue_depth, VACCEL_HW_QUEUE_DEPTH);
		KUNIT_EXPECT_TRUE(test, e->preempt_caps & BIT(e->preempt_granularity));
	}
}

/* The module parameters default to one device, 2 compute, 1 copy, 48 bits. */
static void vaccel_test_topology_defaults(struct kunit *test)
{
	struct vaccel_topology_params p;
	struct vaccel_topology *topo;
	const char *why = NULL;

	vaccel_topology_params_get(&p);
	KUNIT_EXPECT_EQ(test, p.devices, 1);
	KUNIT_EXPECT_EQ(test, p.compute_engines, 2);
	KUNIT_EXPECT_EQ(test, p.copy_engines, 1);
	KUNIT_EXPECT_EQ(test, p.va_bits, 48);
	KUNIT_EXPECT_FALSE(test, p.single_use);

	topo = kunit_kzalloc(test, sizeof(*topo), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, topo);
	KUNIT_EXPECT_EQ(test, vaccel_topology_init(topo, &p, &why), 0);
	KUNIT_EXPECT_EQ(test, topo->num_engines, 4);
}

/* The largest topology fits the fixed engine array exactly. */
static void vaccel_test_topology_max_fits(struct kunit *test)
{
	struct vaccel_topology_params p = {
		.devices = VACCEL_MAX_DEVICES,
		.compute_engines = VACCEL_MAX_COMPUTE_ENGINES,
		.copy_engines = VACCEL_MAX_COPY_ENGINES,
		.va_bits = VACCEL_VA_BITS_MAX,
	};
	struct vaccel_topology *topo;
	const char *why = NULL;

	topo = kunit_kzalloc(test, sizeof(*topo), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, topo);
	KUNIT_ASSERT_EQ(test, vaccel_topology_init(topo, &p, &why), 0);
	KUNIT_EXPECT_EQ(test, topo->num_engines, VACCEL_MAX_ENGINES);
	KUNIT_EXPECT_EQ(test, topo->engines[VACCEL_MAX_ENGINES - 1].engine_class,
			DRM_VACCEL_ENGINE_CLASS_PAGING);
}

static struct kunit_case vaccel_topology_test_cases[] = {
	KUNIT_CASE_PARAM(vaccel_test_topology_init, vaccel_topology_gen_params),
	KUNIT_CASE(vaccel_test_topology_defaults),
	KUNIT_CASE(vaccel_test_topology_max_fits),
	{}
};

static struct kunit_suite vaccel_topology_test_suite = {
	.name = "vaccel_topology",
	.test_cases = vaccel_topology_test_cases,
};

kunit_test_suite(vaccel_topology_test_suite);
