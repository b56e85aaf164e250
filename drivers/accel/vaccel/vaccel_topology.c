// SPDX-License-Identifier: GPL-2.0-only
/*
 * Copyright 2026 The vaccel authors
 */

/**
 * DOC: Topology
 *
 * The shape of the virtual hardware is chosen when the module is loaded,
 * through these read-only module parameters:
 *
 * ================  =========  =======  ===================================
 * parameter         range      default  meaning
 * ================  =========  =======  ===================================
 * devices           1 to 8     1        devices, each /dev/accel/accelN
 * compute_engines   1 to 8     2        COMPUTE engines per device
 * copy_engines      0 to 8     1        COPY engines per device
 * va_bits           32 to 48   48       width of a GPU virtual address
 * single_use        0 or 1     0        one address space: one open file
 *                                       at a time, others get ``-EBUSY``
 * timeslice_ms      1 to 1000  10       time slice of the contexts of one
 *                                       priority band, see "Scheduler"
 * timeout_ms        10 to      2000     engine time without progress after
 *                   600000              which a buffer is hung
 * time_limit_ms     100 to     30000    engine time a buffer may use in all,
 *                   86400000            progress or not; past it the buffer
 *                                       fails with ``-ETIMEDOUT``
 * preempt_granul-   0 to 3     finest   preemption granularity: 0 between
 * arity                                 DMA buffers, 1 between packets and
 *                                       inside long packets, 2 also
 *                                       between workgroups, 3 also inside
 *                                       them (compute engines only; the
 *                                       default there, 1 on copy engines);
 *                                       one value for every compute and
 *                                       copy engine (a copy engine takes at
 *                                       most 1), or one per engine in
 *                                       engine order
 * dispatch_slice    64 to      8192     instructions a workgroup runs
 *                   1048576             between two checks of its engine:
 *                                       the preemption latency of a
 *                                       dispatch against the checks' cost
 * compute_units     0 to 8     0        compute units of each compute
 *                                       engine, which run the workgroups
 *                                       of a dispatch in parallel (see
 *                                       "Compute units"); 0 for the
 *                                       number of online CPUs, at most 8
 * device_mem_mb     0 to       256      MiB of each device's memory
 *                   65536               segment; 0 for none (see "Device
 *                                       memory")
 * cost_system_ns    0 to       0        engine time charged per KiB an
 *                   1000000             engine reads or writes in system
 *                                       memory; 0 turns the cost model off
 *                                       (see "Memory traffic")
 * cost_peer_ns      0 to       0        likewise in a peer's segment
 *                   1000000
 * max_bos_per_file  1024 to    65536    BO handles a file may hold; past
 *                   65536               it, ``-ENOSPC``
 * max_mappings      1024 to    65536    mappings a file's GPU address space
 *                   65536               may hold; past it, ``-ENOSPC``
 * ================  =========  =======  ===================================
 *
 * Every device also has one PAGING engine, which executes the page-table
 * updates of asynchronous VM_BIND, and every engine has a HW queue of two
 * DMA buffers, the running one and the next, as MCDM prescribes.  The
 * paging engine preempts between 2 MiB regions of an update (the packet
 * granularity), so that binds of different files share it, whatever
 * preempt_granularity says.
 *
 * The two per-file limits are the most the driver allows; lowering them
 * serves tests that reach them, as the debug kernel's VM plan does.  0
 * stands for the default.
 *
 * The default time slice, 10 ms, weighs three costs.  A switch between
 * contexts empties the engine's TLB, and refilling its 64 entries through
 * four-level walks costs tens of microseconds under emulation: below 1 %
 * of a 10 ms slice, a few percent of xe's 1 ms.  The engines are kernel
 * threads that the CPU scheduler itself runs in ticks of 4 ms (Debian's
 * HZ=250), so slices shorter than a few ticks are not delivered reliably
 * on a loaded host.  And slices only share an engine within a band:
 * latency-sensitive work goes in a higher band, which preempts at once,
 * so a longer slice costs no responsiveness, as with panthor's 10 ms;
 * ivpu's 16 to 30 ms suit firmware that switches contexts far more
 * slowly than vaccel does.
 *
 * vaccel_topology_init() validates the parameters and lays the engines out
 * by class, then instance: compute engines first, then copy engines, then
 * the paging engine.  An engine's index in that order is its identity in
 * the uapi.  Out-of-range parameters make the module load fail with
 * ``-EINVAL`` and a message naming the parameter, before any device exists.
 */

#include <linux/array_size.h>
#include <linux/bits.h>
#include <linux/cpumask.h>
#include <linux/errno.h>
#include <linux/minmax.h>
#include <linux/moduleparam.h>
#include <linux/string.h>
#include <linux/time64.h>

#include "vaccel_topology.h"

static unsigned int devices = 1;
module_param(devices, uint, 0444);
MODULE_PARM_DESC(devices, "Number of vaccel devices [1..8] (default 1)");

static unsigned int compute_engines = 2;
module_param(compute_engines, uint, 0444);
MODULE_PARM_DESC(compute_engines, "COMPUTE engines per device [1..8] (default 2)");

static unsigned int copy_engines = 1;
module_param(copy_engines, uint, 0444);
MODULE_PARM_DESC(copy_engines, "COPY engines per device [0..8] (default 1)");

static unsigned int va_bits = VACCEL_VA_BITS_MAX;
module_param(va_bits, uint, 0444);
MODULE_PARM_DESC(va_bits, "Width of a GPU virtual address in bits [32..48] (default 48)");

static bool single_use;
module_param(single_use, bool, 0444);
MODULE_PARM_DESC(single_use, "Single Use devices: one open file at a time (default 0)");

static unsigned int timeslice_ms = VACCEL_TIMESLICE_MS_DEFAULT;
module_param(timeslice_ms, uint, 0444);
MODULE_PARM_DESC(timeslice_ms, "Time slice of contexts of one priority, ms [1..1000] (default 10)");

static unsigned int timeout_ms = VACCEL_TIMEOUT_MS_DEFAULT;
module_param(timeout_ms, uint, 0444);
MODULE_PARM_DESC(timeout_ms, "Engine time without progress before a buffer is hung, ms [10..600000] (default 2000)");

static unsigned int time_limit_ms = VACCEL_TIME_LIMIT_MS_DEFAULT;
module_param(time_limit_ms, uint, 0444);
MODULE_PARM_DESC(time_limit_ms, "Engine time a buffer may use in all, ms [100..86400000] (default 30000)");

static unsigned int dispatch_slice = VACCEL_DISPATCH_SLICE_DEFAULT;
module_param(dispatch_slice, uint, 0444);
MODULE_PARM_DESC(dispatch_slice, "Instructions a workgroup runs between two checks of its engine [64..1048576] (default 8192)");

static unsigned int compute_units;
module_param(compute_units, uint, 0444);
MODULE_PARM_DESC(compute_units, "Compute units of each compute engine [0..8] (default 0: the online CPUs, at most 8)");

static unsigned int device_mem_mb = VACCEL_DEVICE_MEM_MB_DEFAULT;
module_param(device_mem_mb, uint, 0444);
MODULE_PARM_DESC(device_mem_mb, "MiB of each device's memory segment [0..65536] (default 256)");

static unsigned int cost_system_ns;
module_param(cost_system_ns, uint, 0444);
MODULE_PARM_DESC(cost_system_ns, "Engine time charged per KiB accessed in system memory, ns [0..1000000] (default 0, none)");

static unsigned int cost_peer_ns;
module_param(cost_peer_ns, uint, 0444);
MODULE_PARM_DESC(cost_peer_ns, "Engine time charged per KiB accessed in a peer's device memory, ns [0..1000000] (default 0, none)");

static unsigned int max_bos_per_file = VACCEL_MAX_BOS_PER_FILE;
module_param(max_bos_per_file, uint, 0444);
MODULE_PARM_DESC(max_bos_per_file, "BO handles a file may hold [1024..65536] (default 65536)");

static unsigned int max_mappings = VACCEL_MAX_MAPPINGS;
module_param(max_mappings, uint, 0444);
MODULE_PARM_DESC(max_mappings, "Mappings a file's GPU address space may hold [1024..65536] (default 65536)");

static unsigned int preempt_granularity[VACCEL_MAX_ENGINES];
static unsigned int preempt_granularity_count;
module_param_array(preempt_granularity, uint, &preempt_granularity_count, 0444);
MODULE_PARM_DESC(preempt_granularity,
		 "Preemption granularity, 0 DMA buffer, 1 packet, 2 workgroup, 3 instruction (compute engines only): one value, or one per compute and copy engine (default: the finest)");

/**
 * vaccel_topology_params_get() - the topology the module parameters ask for
 * @params: filled with the module parameters, not validated yet
 *
 * Context: Any context.
 */
void vaccel_topology_params_get(struct vaccel_topology_params *params)
{
	params->devices = devices;
	params->compute_engines = compute_engines;
	params->copy_engines = copy_engines;
	params->va_bits = va_bits;
	params->single_use = single_use;
	params->timeslice_ms = timeslice_ms;
	params->timeout_ms = timeout_ms;
	params->time_limit_ms = time_limit_ms;
	params->dispatch_slice = dispatch_slice;
	params->compute_units = compute_units;
	params->device_mem_mb = device_mem_mb;
	params->cost_system_ns = cost_system_ns;
	params->cost_peer_ns = cost_peer_ns;
	params->max_bos_per_file = max_bos_per_file;
	params->max_mappings = max_mappings;
	memcpy(params->granularity, preempt_granularity,
	       sizeof(params->granularity));
	params->granularity_count = preempt_granularity_count;
}

static void vaccel_topology_add_engines(struct vaccel_topology *topo,
					enum drm_vaccel_engine_class engine_class,
					unsigned int count, unsigned int units)
{
	unsigned int i;

	for (i = 0; i < count; i++) {
		struct vaccel_engine_desc *e = &topo->engines[topo->num_engines++];

		e->engine_class = engine_class;
		e->instance = i;
		e->hw_queue_depth = VACCEL_HW_QUEUE_DEPTH;
		/* Page-table updates stop between 2 MiB regions too. */
		e->preempt_caps = BIT(DRM_VACCEL_PREEMPT_DMA_BUFFER) |
				  BIT(DRM_VACCEL_PREEMPT_PACKET);
		/* Only compute engines run dispatches. */
		if (engine_class == DRM_VACCEL_ENGINE_CLASS_COMPUTE) {
			e->preempt_caps |= BIT(DRM_VACCEL_PREEMPT_WORKGROUP) |
					   BIT(DRM_VACCEL_PREEMPT_INSTRUCTION);
			e->compute_units = units;
		}
		e->preempt_granularity = fls(e->preempt_caps) - 1;
	}
	topo->engine_count[engine_class] = count;
}

/* Applies preempt_granularity to the compute and copy engines. */
static int vaccel_topology_set_granularity(struct vaccel_topology *topo,
					   const struct vaccel_topology_params *params,
					   const char **why)
{
	unsigned int i, n = 0, count = params->granularity_count;

	if (!count)
		return 0;
	if (count != 1 && count != topo->num_engines - VACCEL_PAGING_ENGINES) {
		*why = "preempt_granularity needs one value, or one per compute and copy engine";
		return -EINVAL;
	}
	for (i = 0; i < topo->num_engines; i++) {
		struct vaccel_engine_desc *e = &topo->engines[i];
		unsigned int g;

		if (e->engine_class == DRM_VACCEL_ENGINE_CLASS_PAGING)
			continue;
		g = params->granularity[count == 1 ? 0 : n];
		n++;
		if (g > DRM_VACCEL_PREEMPT_INSTRUCTION) {
			*why = "preempt_granularity must be 0 to 3 (DMA buffer to instruction)";
			return -EINVAL;
		}
		/* One value for all: a copy engine stops at its finest. */
		if (count == 1)
			g = min_t(unsigned int, g, fls(e->preempt_caps) - 1);
		if (!(e->preempt_caps & BIT(g))) {
			*why = "preempt_granularity: copy engines stop at most between packets (1)";
			return -EINVAL;
		}
		e->preempt_granularity = g;
	}
	return 0;
}

/* A per-file limit: 0 (the default) or %VACCEL_FILE_LIMIT_MIN to @max. */
static bool vaccel_topology_limit_bad(unsigned int value, unsigned int max)
{
	return value && (value < VACCEL_FILE_LIMIT_MIN || value > max);
}

/**
 * vaccel_topology_init() - validate parameters and lay out a device
 * @topo: the topology to fill
 * @params: what was asked for
 * @why: on error, set to a message naming the offending parameter
 *
 * Context: Any context.
 * Return: 0, or -EINVAL if a parameter is out of range (@topo is then
 * left zeroed).
 */
int vaccel_topology_init(struct vaccel_topology *topo,
			 const struct vaccel_topology_params *params,
			 const char **why)
{
	unsigned int units;

	memset(topo, 0, sizeof(*topo));

	if (params->devices < 1 || params->devices > VACCEL_MAX_DEVICES) {
		*why = "devices must be 1 to 8";
		return -EINVAL;
	}
	if (params->compute_engines < 1 ||
	    params->compute_engines > VACCEL_MAX_COMPUTE_ENGINES) {
		*why = "compute_engines must be 1 to 8";
		return -EINVAL;
	}
	if (params->copy_engines > VACCEL_MAX_COPY_ENGINES) {
		*why = "copy_engines must be 0 to 8";
		return -EINVAL;
	}
	if (params->va_bits < VACCEL_VA_BITS_MIN ||
	    params->va_bits > VACCEL_VA_BITS_MAX) {
		*why = "va_bits must be 32 to 48";
		return -EINVAL;
	}

	if (params->compute_units > VACCEL_MAX_COMPUTE_UNITS) {
		*why = "compute_units must be 0 to 8";
		return -EINVAL;
	}
	units = params->compute_units ?:
		min_t(unsigned int, num_online_cpus(), VACCEL_MAX_COMPUTE_UNITS);

	vaccel_topology_add_engines(topo, DRM_VACCEL_ENGINE_CLASS_COMPUTE,
				    params->compute_engines, units);
	vaccel_topology_add_engines(topo, DRM_VACCEL_ENGINE_CLASS_COPY,
				    params->copy_engines, 0);
	vaccel_topology_add_engines(topo, DRM_VACCEL_ENGINE_CLASS_PAGING,
				    VACCEL_PAGING_ENGINES, 0);

	if (params->timeslice_ms < 1 ||
	    params->timeslice_ms > VACCEL_TIMESLICE_MS_MAX) {
		*why = "timeslice_ms must be 1 to 1000";
		goto err;
	}
	if (params->timeout_ms < VACCEL_TIMEOUT_MS_MIN ||
	    params->timeout_ms > VACCEL_TIMEOUT_MS_MAX) {
		*why = "timeout_ms must be 10 to 600000";
		goto err;
	}
	if (params->time_limit_ms < VACCEL_TIME_LIMIT_MS_MIN ||
	    params->time_limit_ms > VACCEL_TIME_LIMIT_MS_MAX) {
		*why = "time_limit_ms must be 100 to 86400000";
		goto err;
	}
	if (params->dispatch_slice < VACCEL_DISPATCH_SLICE_MIN ||
	    params->dispatch_slice > VACCEL_DISPATCH_SLICE_MAX) {
		*why = "dispatch_slice must be 64 to 1048576";
		goto err;
	}
	if (params->device_mem_mb > VACCEL_DEVICE_MEM_MB_MAX) {
		*why = "device_mem_mb must be 0 to 65536";
		goto err;
	}
	if (params->cost_system_ns > VACCEL_COST_NS_MAX ||
	    params->cost_peer_ns > VACCEL_COST_NS_MAX) {
		*why = "cost_system_ns and cost_peer_ns must be 0 to 1000000";
		goto err;
	}
	if (vaccel_topology_limit_bad(params->max_bos_per_file, VACCEL_MAX_BOS_PER_FILE)) {
		*why = "max_bos_per_file must be 1024 to 65536";
		goto err;
	}
	if (vaccel_topology_limit_bad(params->max_mappings, VACCEL_MAX_MAPPINGS)) {
		*why = "max_mappings must be 1024 to 65536";
		goto err;
	}
	if (vaccel_topology_set_granularity(topo, params, why))
		goto err;

	topo->timeslice_ns = (u64)params->timeslice_ms * NSEC_PER_MSEC;
	topo->timeout_ns = (u64)params->timeout_ms * NSEC_PER_MSEC;
	topo->time_limit_ns = (u64)params->time_limit_ms * NSEC_PER_MSEC;
	topo->dispatch_slice = params->dispatch_slice;
	topo->va_bits = params->va_bits;
	topo->va_start = VACCEL_VA_START;
	topo->va_end = BIT_ULL(params->va_bits);
	topo->single_use = params->single_use;
	topo->device_mem_size = (u64)params->device_mem_mb * SZ_1M;
	topo->cost_system_ns = params->cost_system_ns;
	topo->cost_peer_ns = params->cost_peer_ns;
	topo->max_bos_per_file = params->max_bos_per_file ?: VACCEL_MAX_BOS_PER_FILE;
	topo->max_mappings = params->max_mappings ?: VACCEL_MAX_MAPPINGS;
	return 0;

err:
	memset(topo, 0, sizeof(*topo));
	return -EINVAL;
}

static const char *const vaccel_engine_class_names[DRM_VACCEL_ENGINE_CLASS_COUNT] = {
	[DRM_VACCEL_ENGINE_CLASS_COMPUTE] = "compute",
	[DRM_VACCEL_ENGINE_CLASS_COPY] = "copy",
	[DRM_VACCEL_ENGINE_CLASS_PAGING] = "paging",
};

/**
 * vaccel_engine_class_name() - the name of an engine class
 * @engine_class: &enum drm_vaccel_engine_class
 *
 * The one table of the names, which the engine threads, fdinfo's keys
 * (``drm-engine-<name>``) and debugfs use.
 *
 * Context: Any context.
 * Return: the name, or "unknown" for a class that does not exist.
 */
const char *vaccel_engine_class_name(u32 engine_class)
{
	if (engine_class >= ARRAY_SIZE(vaccel_engine_class_names))
		return "unknown";
	return vaccel_engine_class_names[engine_class];
}
