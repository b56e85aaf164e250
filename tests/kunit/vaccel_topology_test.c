// SPDX-License-Identifier: GPL-2.0-only
/*
 * Copyright 2026 The vaccel authors
 *
 * KUnit tests of the topology: parameter validation and engine layout.
 */

#include <kunit/test.h>
#include <linux/cpumask.h>
#include <linux/minmax.h>
#include <linux/string.h>

#include "../vaccel_topology.h"

struct vaccel_topology_case {
	const char *desc;
	struct vaccel_topology_params params;
	int expected;
};

/* Devices, compute, copy, va_bits, single use; default scheduling. */
#define TOPO(d, c, k, v, ...) \
	{ d, c, k, v, __VA_ARGS__ + 0, VACCEL_TIMESLICE_MS_DEFAULT, \
	  VACCEL_TIMEOUT_MS_DEFAULT, VACCEL_TIME_LIMIT_MS_DEFAULT, \
	  VACCEL_DISPATCH_SLICE_DEFAULT }
/* The default topology with scheduling parameters. */
#define SCHED(slice, timeout, n, ...) \
	{ 1, 2, 1, 48, false, slice, timeout, VACCEL_TIME_LIMIT_MS_DEFAULT, \
	  VACCEL_DISPATCH_SLICE_DEFAULT, { __VA_ARGS__ }, n }
/* The default topology with a dispatch slice. */
#define DSLICE(n) \
	{ 1, 2, 1, 48, false, VACCEL_TIMESLICE_MS_DEFAULT, \
	  VACCEL_TIMEOUT_MS_DEFAULT, VACCEL_TIME_LIMIT_MS_DEFAULT, n }
/* The default topology with a time limit. */
#define LIMIT(ms) \
	{ 1, 2, 1, 48, false, VACCEL_TIMESLICE_MS_DEFAULT, \
	  VACCEL_TIMEOUT_MS_DEFAULT, ms, VACCEL_DISPATCH_SLICE_DEFAULT }
/* The default topology with per-file limits (0: the default). */
#define FILE_LIMITS(bos, maps) \
	{ .devices = 1, .compute_engines = 2, .copy_engines = 1, .va_bits = 48, \
	  .timeslice_ms = VACCEL_TIMESLICE_MS_DEFAULT, \
	  .timeout_ms = VACCEL_TIMEOUT_MS_DEFAULT, \
	  .time_limit_ms = VACCEL_TIME_LIMIT_MS_DEFAULT, \
	  .dispatch_slice = VACCEL_DISPATCH_SLICE_DEFAULT, \
	  .max_bos_per_file = (bos), .max_mappings = (maps) }

static const struct vaccel_topology_case vaccel_topology_cases[] = {
	{ "defaults", TOPO(1, 2, 1, 48), 0 },
	{ "single_use", TOPO(2, 2, 1, 48, true), 0 },
	{ "smallest", TOPO(1, 1, 0, 32), 0 },
	{ "largest", TOPO(8, 8, 8, 48), 0 },
	{ "no_copy_engines", TOPO(3, 4, 0, 39), 0 },
	{ "zero_devices", TOPO(0, 2, 1, 48), -EINVAL },
	{ "too_many_devices", TOPO(9, 2, 1, 48), -EINVAL },
	{ "zero_compute_engines", TOPO(1, 0, 1, 48), -EINVAL },
	{ "too_many_compute_engines", TOPO(1, 9, 1, 48), -EINVAL },
	{ "too_many_copy_engines", TOPO(1, 2, 9, 48), -EINVAL },
	{ "va_bits_too_small", TOPO(1, 2, 1, 31), -EINVAL },
	{ "va_bits_too_large", TOPO(1, 2, 1, 49), -EINVAL },
	{ "huge_values", TOPO(~0u, ~0u, ~0u, ~0u), -EINVAL },
	{ "slice_1ms_timeout_10ms", SCHED(1, 10, 0), 0 },
	{ "slice_1s_timeout_10min", SCHED(1000, 600000, 0), 0 },
	{ "zero_slice", SCHED(0, 2000, 0), -EINVAL },
	{ "slice_too_long", SCHED(1001, 2000, 0), -EINVAL },
	{ "timeout_too_short", SCHED(10, 9, 0), -EINVAL },
	{ "timeout_too_long", SCHED(10, 600001, 0), -EINVAL },
	{ "time_limit_shortest", LIMIT(100), 0 },
	{ "time_limit_longest", LIMIT(86400000), 0 },
	{ "time_limit_too_short", LIMIT(99), -EINVAL },
	{ "time_limit_too_long", LIMIT(86400001), -EINVAL },
	{ "dispatch_slice_smallest", DSLICE(64), 0 },
	{ "dispatch_slice_largest", DSLICE(1 << 20), 0 },
	{ "dispatch_slice_too_small", DSLICE(63), -EINVAL },
	{ "dispatch_slice_too_large", DSLICE((1 << 20) + 1), -EINVAL },
	{ "granularity_buffer_all", SCHED(10, 2000, 1, 0), 0 },
	{ "granularity_per_engine", SCHED(10, 2000, 3, 1, 0, 1), 0 },
	{ "granularity_workgroup_all", SCHED(10, 2000, 1, 2), 0 },
	{ "granularity_instruction_per_engine", SCHED(10, 2000, 3, 3, 2, 1), 0 },
	{ "granularity_workgroup_on_copy", SCHED(10, 2000, 3, 1, 1, 2), -EINVAL },
	{ "granularity_past_instruction", SCHED(10, 2000, 1, 4), -EINVAL },
	{ "granularity_huge", SCHED(10, 2000, 1, ~0u), -EINVAL },
	{ "granularity_count_wrong", SCHED(10, 2000, 2, 1, 1), -EINVAL },
	{ "granularity_count_with_paging", SCHED(10, 2000, 4, 1, 1, 1, 0), -EINVAL },
	{ "file_limits_default", FILE_LIMITS(0, 0), 0 },
	{ "file_limits_least", FILE_LIMITS(1024, 1024), 0 },
	{ "file_limits_most", FILE_LIMITS(65536, 65536), 0 },
	{ "bos_per_file_too_few", FILE_LIMITS(1023, 0), -EINVAL },
	{ "bos_per_file_too_many", FILE_LIMITS(65537, 0), -EINVAL },
	{ "mappings_too_few", FILE_LIMITS(0, 1), -EINVAL },
	{ "mappings_too_many", FILE_LIMITS(4096, 65537), -EINVAL },
	{ "file_limits_huge", FILE_LIMITS(~0u, ~0u), -EINVAL },
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
	KUNIT_EXPECT_EQ(test, topo->max_bos_per_file,
			p->max_bos_per_file ?: VACCEL_MAX_BOS_PER_FILE);
	KUNIT_EXPECT_EQ(test, topo->max_mappings,
			p->max_mappings ?: VACCEL_MAX_MAPPINGS);

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
		if (cls == DRM_VACCEL_ENGINE_CLASS_PAGING) {
			/* Page-table updates stop between regions. */
			KUNIT_EXPECT_EQ(test, e->preempt_granularity,
					DRM_VACCEL_PREEMPT_PACKET);
		} else if (!p->granularity_count) {
			/* The finest the engine has. */
			KUNIT_EXPECT_EQ(test, e->preempt_granularity,
					cls == DRM_VACCEL_ENGINE_CLASS_COMPUTE ?
					DRM_VACCEL_PREEMPT_INSTRUCTION :
					DRM_VACCEL_PREEMPT_PACKET);
		} else if (p->granularity_count == 1) {
			/* One value for all, capped at each engine's finest. */
			KUNIT_EXPECT_EQ(test, e->preempt_granularity,
					min_t(u32, p->granularity[0],
					      fls(e->preempt_caps) - 1));
		} else {
			KUNIT_EXPECT_EQ(test, e->preempt_granularity, p->granularity[i]);
		}
		KUNIT_EXPECT_EQ(test, e->preempt_caps,
				cls == DRM_VACCEL_ENGINE_CLASS_COMPUTE ? 0xfu :
				0x3u);
	}
	KUNIT_EXPECT_EQ(test, topo->timeslice_ns, p->timeslice_ms * NSEC_PER_MSEC);
	KUNIT_EXPECT_EQ(test, topo->timeout_ns, p->timeout_ms * NSEC_PER_MSEC);
	KUNIT_EXPECT_EQ(test, topo->time_limit_ns,
			(u64)p->time_limit_ms * NSEC_PER_MSEC);
	KUNIT_EXPECT_EQ(test, topo->dispatch_slice, p->dispatch_slice);
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
	KUNIT_EXPECT_EQ(test, p.timeslice_ms, 10);
	KUNIT_EXPECT_EQ(test, p.timeout_ms, 2000);
	KUNIT_EXPECT_EQ(test, p.time_limit_ms, 30000);
	KUNIT_EXPECT_EQ(test, p.dispatch_slice, 8192);
	KUNIT_EXPECT_EQ(test, p.compute_units, 0);
	KUNIT_EXPECT_EQ(test, p.granularity_count, 0);
	KUNIT_EXPECT_EQ(test, p.max_bos_per_file, 65536);
	KUNIT_EXPECT_EQ(test, p.max_mappings, 65536);

	topo = kunit_kzalloc(test, sizeof(*topo), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, topo);
	KUNIT_EXPECT_EQ(test, vaccel_topology_init(topo, &p, &why), 0);
	KUNIT_EXPECT_EQ(test, topo->num_engines, 4);
}

/*
 * Compute units: 0 is the online CPUs up to 8, 1 to 8 are taken as they
 * are, 9 is refused by name; only compute engines have units.
 */
static void vaccel_test_topology_compute_units(struct kunit *test)
{
	static const unsigned int asked[] = { 0, 1, 2, 8, 9, ~0u };
	unsigned int online = min_t(unsigned int, num_online_cpus(), 8);
	struct vaccel_topology_params p = TOPO(1, 3, 2, 48);
	struct vaccel_topology *topo;
	unsigned int i, e;

	topo = kunit_kzalloc(test, sizeof(*topo), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, topo);
	for (i = 0; i < ARRAY_SIZE(asked); i++) {
		const char *why = NULL;
		int ret;

		p.compute_units = asked[i];
		ret = vaccel_topology_init(topo, &p, &why);
		if (asked[i] > 8) {
			KUNIT_EXPECT_EQ(test, ret, -EINVAL);
			KUNIT_EXPECT_NOT_NULL(test, why);
			if (why)
				KUNIT_EXPECT_NOT_NULL(test, strstr(why, "compute_units"));
			continue;
		}
		KUNIT_ASSERT_EQ(test, ret, 0);
		for (e = 0; e < topo->num_engines; e++) {
			const struct vaccel_engine_desc *d = &topo->engines[e];

			if (d->engine_class != DRM_VACCEL_ENGINE_CLASS_COMPUTE)
				KUNIT_EXPECT_EQ(test, d->compute_units, 0);
			else
				KUNIT_EXPECT_EQ(test, d->compute_units,
						asked[i] ? asked[i] : online);
		}
	}
}

/* The largest topology fits the fixed engine array exactly. */
static void vaccel_test_topology_max_fits(struct kunit *test)
{
	struct vaccel_topology_params p = {
		.devices = VACCEL_MAX_DEVICES,
		.compute_engines = VACCEL_MAX_COMPUTE_ENGINES,
		.copy_engines = VACCEL_MAX_COPY_ENGINES,
		.va_bits = VACCEL_VA_BITS_MAX,
		.timeslice_ms = VACCEL_TIMESLICE_MS_DEFAULT,
		.timeout_ms = VACCEL_TIMEOUT_MS_DEFAULT,
		.time_limit_ms = VACCEL_TIME_LIMIT_MS_DEFAULT,
		.dispatch_slice = VACCEL_DISPATCH_SLICE_DEFAULT,
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
	KUNIT_CASE(vaccel_test_topology_compute_units),
	KUNIT_CASE(vaccel_test_topology_max_fits),
	{}
};

static struct kunit_suite vaccel_topology_test_suite = {
	.name = "vaccel_topology",
	.test_cases = vaccel_topology_test_cases,
};

kunit_test_suite(vaccel_topology_test_suite);
