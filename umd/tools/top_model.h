/* SPDX-License-Identifier: MIT */
/*
 * Copyright 2026 The vaccel authors
 *
 * top_model.h - what vaccel-top samples and how it turns two samples into
 * a screen: the fdinfo parser, the scan of /proc, sysfs and debugfs, the
 * utilisation arithmetic and the rendering of a frame as plain lines.
 * Kept apart from the terminal handling so that the host tests can feed
 * it canned fdinfo and a fake /proc.
 */
#ifndef VACCEL_TOP_MODEL_H
#define VACCEL_TOP_MODEL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define VTOP_DRIVER		"vaccel"
/* Engine classes a file may report (drm-engine-<class>). */
#define VTOP_MAX_CLASSES	8
/* Engines of a device that debugfs may list. */
#define VTOP_MAX_ENGINES	32
#define VTOP_NAME_MAX		32
#define VTOP_COMM_MAX		32

/* The drm-<kind>-<region> memory keys of drm-usage-stats.rst. */
enum vtop_mem_kind {
	VTOP_MEM_TOTAL,
	VTOP_MEM_SHARED,
	VTOP_MEM_RESIDENT,
	VTOP_MEM_ACTIVE,
	VTOP_MEM_PURGEABLE,
	VTOP_MEM_KINDS,
};

/* drm-engine-<name>, with its drm-engine-capacity-<name>. */
struct vtop_engine_key {
	char name[VTOP_NAME_MAX];
	uint64_t busy_ns;
	unsigned int capacity;		/* 1 when the file gives none */
	bool has_busy;
};

/* One /proc/<pid>/fdinfo/<fd>, the keys vaccel-top uses. */
struct vtop_fdinfo {
	char driver[VTOP_NAME_MAX];
	bool has_client_id;
	uint64_t client_id;
	unsigned int nengines;
	struct vtop_engine_key engine[VTOP_MAX_CLASSES];
	/* Bytes, summed over the regions; bit k of mem_has: kind k seen. */
	uint64_t mem[VTOP_MEM_KINDS];
	unsigned int mem_has;
};

/* One engine of a device, from debugfs engines, contexts and arbiter. */
struct vtop_engine_state {
	char name[VTOP_NAME_MAX];	/* "compute0" */
	char cls[VTOP_NAME_MAX];	/* "compute" */
	bool busy;
	uint64_t busy_ns;
	unsigned int contexts;		/* contexts bound to it */
	unsigned int slots;		/* buffers in its HW queue */
	unsigned int ring;		/* buffers ready on its contexts' rings */
	uint64_t resets, hangs;
};

/* One line of debugfs contexts. */
struct vtop_context_state {
	uint32_t handle;
	uint64_t client;
	unsigned int engine;
	bool active;			/* not faulted, hung or cancelled */
	int64_t in_flight;		/* submitted - completed */
	unsigned int ring;
};

/* A vaccel device, and its debugfs state when it could be read. */
struct vtop_device {
	unsigned int minor;		/* N of /dev/accel/accelN */
	char name[64];			/* the platform device: "vaccel.0" */
	int debugfs_err;		/* 0, or why debugfs was not read */
	uint64_t t_ns;			/* when debugfs was read */
	unsigned int nengines;
	struct vtop_engine_state engine[VTOP_MAX_ENGINES];
	size_t ncontexts;
	struct vtop_context_state *contexts;
	bool has_memory;
	uint64_t bo_count, bo_bytes, pt_pages;
	bool has_resets;
	uint64_t device_resets;
};

/* An open file of a vaccel device (a DRM client), as a process holds it. */
struct vtop_client {
	unsigned int minor;
	int pid;			/* the first process found holding it */
	char comm[VTOP_COMM_MAX];
	uint64_t t_ns;			/* when its fdinfo was read */
	struct vtop_fdinfo info;
};

/* Everything one scan saw. */
struct vtop_sample {
	uint64_t t_ns;
	size_t nclients, clients_cap;
	struct vtop_client *clients;
	size_t ndevices, devices_cap;
	struct vtop_device *devices;
	/* Processes whose open files could not be listed (other users). */
	unsigned int hidden_pids;
};

/* Where the scan looks: "/proc", "/sys", "/sys/kernel/debug" normally. */
struct vtop_paths {
	const char *proc;
	const char *sys;
	const char *debugfs;
};

/* A process's files on one device, one row of the screen. */
struct vtop_row {
	int pid;
	char comm[VTOP_COMM_MAX];
	unsigned int minor;
	unsigned int files;
	/* Per column class: percent of the class's capacity; < 0 unknown. */
	double util[VTOP_MAX_CLASSES];
	double util_sum;
	uint64_t mem_total, mem_resident;
	bool has_total, has_resident;
	/* From debugfs; -1 when it could not be read. */
	long long contexts, in_flight, ring, bad_contexts;
};

/* One device's summary line and engine table. */
struct vtop_device_view {
	const struct vtop_device *dev;
	/* Per column class: utilisation, capacity (0: class absent). */
	double class_util[VTOP_MAX_CLASSES];
	unsigned int class_capacity[VTOP_MAX_CLASSES];
	bool class_from_debugfs;
	double engine_util[VTOP_MAX_ENGINES];	/* < 0 unknown */
	unsigned int clients;
};

/* What a frame shows: the classes as columns, devices, process rows. */
struct vtop_view {
	double interval_s;
	unsigned int nclasses;
	char classes[VTOP_MAX_CLASSES][VTOP_NAME_MAX];
	size_t ndevices;
	struct vtop_device_view *devices;
	size_t nrows;
	struct vtop_row *rows;
	unsigned int hidden_pids;
	bool not_root;
};

/* A frame as lines of plain text, without line ends. */
struct vtop_frame {
	size_t nlines, cap;
	char **lines;
	/* Index of the process table's column header, or -1. */
	long header_line;
};

int vtop_fdinfo_parse(const char *text, struct vtop_fdinfo *out);
double vtop_util(uint64_t busy_prev, uint64_t busy_cur, uint64_t t_prev,
		 uint64_t t_cur, unsigned int capacity);

int vtop_parse_engines(const char *text, struct vtop_device *dev);
int vtop_parse_contexts(const char *text, struct vtop_device *dev);
void vtop_parse_arbiter(const char *text, struct vtop_device *dev);
void vtop_parse_memory(const char *text, struct vtop_device *dev);

int vtop_scan(const struct vtop_paths *paths, struct vtop_sample *s);
void vtop_sample_free(struct vtop_sample *s);
uint64_t vtop_now_ns(void);

int vtop_view_build(const struct vtop_sample *prev,
		    struct vtop_sample *cur, const int *pids,
		    size_t npids, struct vtop_view *v);
void vtop_view_free(struct vtop_view *v);

int vtop_render(const struct vtop_view *v, struct vtop_frame *f);
void vtop_frame_free(struct vtop_frame *f);

void vtop_format_bytes(uint64_t bytes, char *buf, size_t len);

#endif /* VACCEL_TOP_MODEL_H */
