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
 * ================  =========  =======  ===================================
 *
 * Every device also has one PAGING engine, which executes the page-table
 * updates of asynchronous VM_BIND, and every engine has a HW queue of two
 * DMA buffers, the running one and the next, as MCDM prescribes.
 *
 * vaccel_topology_init() validates the parameters and lays the engines out
 * by class, then instance: compute engines first, then copy engines, then
 * the paging engine.  An engine's index in that order is its identity in
 * the uapi.  Out-of-range parameters make the module load fail with
 * ``-EINVAL`` and a message naming the parameter, before any device exists.
 */

#include <linux/bits.h>
#include <linux/errno.h>
#include <linux/moduleparam.h>
#include <linux/string.h>

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
}

static void vaccel_topology_add_engines(struct vaccel_topology *topo,
					enum drm_vaccel_engine_class engine_class,
					unsigned int count)
{
	unsigned int i;

	for (i = 0; i < count; i++) {
		struct vaccel_engine_desc *e = &topo->engines[topo->num_engines++];

		e->engine_class = engine_class;
		e->instance = i;
		e->hw_queue_depth = VACCEL_HW_QUEUE_DEPTH;
		/*
		 * Engines stop between DMA buffers, the granularity every
		 * MCDM engine must support; finer ones come with the
		 * preemption support of the scheduler.
		 */
		e->preempt_caps = BIT(DRM_VACCEL_PREEMPT_DMA_BUFFER);
		e->preempt_granularity = DRM_VACCEL_PREEMPT_DMA_BUFFER;
	}
	topo->engine_count[engine_class] = count;
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

	vaccel_topology_add_engines(topo, DRM_VACCEL_ENGINE_CLASS_COMPUTE,
				    params->compute_engines);
	vaccel_topology_add_engines(topo, DRM_VACCEL_ENGINE_CLASS_COPY,
				    params->copy_engines);
	vaccel_topology_add_engines(topo, DRM_VACCEL_ENGINE_CLASS_PAGING,
				    VACCEL_PAGING_ENGINES);

	topo->va_bits = params->va_bits;
	topo->va_start = VACCEL_VA_START;
	topo->va_end = BIT_ULL(params->va_bits);
	topo->single_use = params->single_use;
	return 0;
}
