/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Copyright 2026 The vaccel authors
 */
#ifndef __VACCEL_TOPOLOGY_H__
#define __VACCEL_TOPOLOGY_H__

#include <linux/bits.h>
#include <linux/sizes.h>
#include <linux/types.h>

#include <drm/vaccel_accel.h>

/* Limits of the topology module parameters, see DOC: Topology. */
#define VACCEL_MAX_DEVICES		8
#define VACCEL_MAX_COMPUTE_ENGINES	8
/* Compute units of a compute engine, see DOC: Compute units. */
#define VACCEL_MAX_COMPUTE_UNITS	8
#define VACCEL_MAX_COPY_ENGINES		8
#define VACCEL_PAGING_ENGINES		1
#define VACCEL_MAX_ENGINES \
	(VACCEL_MAX_COMPUTE_ENGINES + VACCEL_MAX_COPY_ENGINES + VACCEL_PAGING_ENGINES)

/* MCDM: an engine's HW queue holds at most two DMA buffers. */
#define VACCEL_HW_QUEUE_DEPTH		2

#define VACCEL_VA_BITS_MIN		32
#define VACCEL_VA_BITS_MAX		48
#define VACCEL_PAGE_SHIFT		12
#define VACCEL_PAGE_SIZE		BIT(VACCEL_PAGE_SHIFT)

/* The GPU VA range below this stays unmapped: null pointers fault. */
#define VACCEL_VA_START			SZ_64K

/* Scheduling parameters, see DOC: Topology and DOC: Scheduler. */
#define VACCEL_TIMESLICE_MS_DEFAULT	10
#define VACCEL_TIMESLICE_MS_MAX		1000
#define VACCEL_TIMEOUT_MS_DEFAULT	2000
#define VACCEL_TIMEOUT_MS_MIN		10
#define VACCEL_TIMEOUT_MS_MAX		600000
/* The time limit of a buffer: engine time in all, see DOC: Engines. */
#define VACCEL_TIME_LIMIT_MS_DEFAULT	30000
#define VACCEL_TIME_LIMIT_MS_MIN	100
#define VACCEL_TIME_LIMIT_MS_MAX	86400000
/* Instructions a workgroup runs between two checks of its engine. */
#define VACCEL_DISPATCH_SLICE_MIN	64
#define VACCEL_DISPATCH_SLICE_DEFAULT	8192
#define VACCEL_DISPATCH_SLICE_MAX	BIT(20)
/* Device memory, see DOC: Device memory. */
#define VACCEL_DEVICE_MEM_MB_DEFAULT	256
#define VACCEL_DEVICE_MEM_MB_MAX	65536
/* Most engine time the cost model charges per KiB, ns: 1 ms. */
#define VACCEL_COST_NS_MAX		1000000
/*
 * Per-file limits, reported by the device query: BO handles (DOC: Buffer
 * objects) and mappings of a VM (DOC: GPU address spaces).  The most is
 * the default; a module parameter may lower it, down to the least.
 */
#define VACCEL_MAX_BOS_PER_FILE		65536
#define VACCEL_MAX_MAPPINGS		65536
#define VACCEL_FILE_LIMIT_MIN		1024

/**
 * struct vaccel_topology_params - the topology as the administrator asked for it
 * @devices: number of devices to create
 * @compute_engines: COMPUTE engines per device
 * @copy_engines: COPY engines per device
 * @va_bits: width of a GPU virtual address
 * @single_use: one address space per device: one open file at a time
 * @timeslice_ms: the time slice of contexts of one band
 * @timeout_ms: time without progress that makes a buffer hung
 * @time_limit_ms: engine time a buffer may use in all
 * @dispatch_slice: instructions a workgroup runs between two checks
 * @granularity: preemption granularity of each compute and copy engine, in
 *	engine order, or of all of them if @granularity_count is 1
 * @granularity_count: values in @granularity; 0 for the default, the
 *	finest each engine supports
 * @device_mem_mb: MiB of each device's memory segment
 * @cost_system_ns: engine time charged per KiB read or written in system
 *	memory
 * @cost_peer_ns: engine time charged per KiB read or written in a peer's
 *	segment
 * @compute_units: compute units of each compute engine; 0 for the
 *	default, the number of online CPUs up to %VACCEL_MAX_COMPUTE_UNITS
 * @max_bos_per_file: BO handles a file may hold; 0 for the default,
 *	%VACCEL_MAX_BOS_PER_FILE
 * @max_mappings: mappings a file's VM may hold; 0 for the default,
 *	%VACCEL_MAX_MAPPINGS
 */
struct vaccel_topology_params {
	unsigned int devices;
	unsigned int compute_engines;
	unsigned int copy_engines;
	unsigned int va_bits;
	bool single_use;
	unsigned int timeslice_ms;
	unsigned int timeout_ms;
	unsigned int time_limit_ms;
	unsigned int dispatch_slice;
	unsigned int granularity[VACCEL_MAX_ENGINES];
	unsigned int granularity_count;
	unsigned int device_mem_mb;
	unsigned int cost_system_ns;
	unsigned int cost_peer_ns;
	unsigned int compute_units;
	unsigned int max_bos_per_file;
	unsigned int max_mappings;
};

/**
 * struct vaccel_engine_desc - what an engine is, as the device query reports it
 * @engine_class: &enum drm_vaccel_engine_class
 * @instance: index within the class
 * @hw_queue_depth: DMA buffers the engine holds at once
 * @preempt_caps: bit (1 << &enum drm_vaccel_preempt_granularity) per granularity
 * @preempt_granularity: the granularity in force
 * @compute_units: compute units that run its workgroups; 0 for an engine
 *	that runs none
 */
struct vaccel_engine_desc {
	u16 engine_class;
	u16 instance;
	u32 hw_queue_depth;
	u32 preempt_caps;
	u32 preempt_granularity;
	u32 compute_units;
};

/**
 * struct vaccel_topology - the validated shape of one device
 * @engine_count: number of engines per &enum drm_vaccel_engine_class
 * @num_engines: number of entries in @engines
 * @va_bits: width of a GPU virtual address
 * @va_start: lowest GPU VA user space may map
 * @va_end: end (exclusive) of the GPU VAs user space may map
 * @single_use: the device admits one open file at a time
 * @timeslice_ns: the time slice
 * @timeout_ns: time without progress that makes a buffer hung
 * @time_limit_ns: engine time a buffer may use in all
 * @dispatch_slice: instructions a workgroup runs between two checks
 * @device_mem_size: bytes of the device's memory segment
 * @cost_system_ns: engine time charged per KiB an engine reads or writes
 *	in system memory, beyond what the access takes; 0: none
 * @cost_peer_ns: likewise in a peer's segment
 * @max_bos_per_file: BO handles a file may hold
 * @max_mappings: mappings a file's VM may hold
 * @engines: every engine, ordered by class then instance
 *
 * Immutable once the device exists, so readers need no lock.
 */
struct vaccel_topology {
	u32 engine_count[DRM_VACCEL_ENGINE_CLASS_COUNT];
	u32 num_engines;
	u32 va_bits;
	u64 va_start;
	u64 va_end;
	bool single_use;
	u64 timeslice_ns;
	u64 timeout_ns;
	u64 time_limit_ns;
	u32 dispatch_slice;
	u64 device_mem_size;
	u32 cost_system_ns;
	u32 cost_peer_ns;
	u32 max_bos_per_file;
	u32 max_mappings;
	struct vaccel_engine_desc engines[VACCEL_MAX_ENGINES];
};

int vaccel_topology_init(struct vaccel_topology *topo,
			 const struct vaccel_topology_params *params,
			 const char **why);
void vaccel_topology_params_get(struct vaccel_topology_params *params);
const char *vaccel_engine_class_name(u32 engine_class);

#endif /* __VACCEL_TOPOLOGY_H__ */
