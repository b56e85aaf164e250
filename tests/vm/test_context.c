// SPDX-License-Identifier: MIT
/*
 * Copyright 2026 The vaccel authors
 *
 * test_context.c - DRM_IOCTL_VACCEL_CONTEXT_CREATE, _DESTROY and _STATE with
 * raw ioctls: contexts on every engine of the COMPUTE and COPY classes,
 * explicit or DRM_VACCEL_ENGINE_ANY (the engine with the fewest contexts),
 * engine_index against the engine list, every documented error (EINVAL,
 * EPERM without CAP_SYS_NICE, ENOSPC past 256 contexts, ENOENT), handles
 * private to their file, destroying and closing with work pending, the
 * jobs_submitted / jobs_completed counters, SUBMIT racing DESTROY (held
 * inside its copy_from_user() by userfaultfd), and the errno of every
 * buffer a destroy cancels, whatever point it reached.
 *
 * Needs root (CAP_SYS_NICE, debugfs); any topology with a COPY engine and,
 * for some cases, two COMPUTE engines (the default one).  Expects nobody
 * else to hold contexts on the device while it runs (the ENGINE_ANY cases
 * count contexts per engine).
 */
#include <sys/syscall.h>
#include <linux/capability.h>

#include "vt_exec.h"
#include "vt_uffd.h"
#include "vt_vgem.h"

#define COMPUTE	DRM_VACCEL_ENGINE_CLASS_COMPUTE
#define COPY	DRM_VACCEL_ENGINE_CLASS_COPY
#define PAGING	DRM_VACCEL_ENGINE_CLASS_PAGING
#define ANY	DRM_VACCEL_ENGINE_ANY

static __u32 engine_of(int fd, __u32 ctx)
{
	return vt_ctx_state(fd, ctx).engine_index;
}

/* A fresh context: no job, no fault, on engine @index. */
static void expect_fresh(int fd, __u32 ctx, int index)
{
	struct drm_vaccel_context_state s = vt_ctx_state(fd, ctx);

	VT_ASSERT(index >= 0);
	VT_ASSERT_EQ(s.engine_index, index);
	VT_ASSERT_EQ(s.flags, 0);
	VT_ASSERT_EQ(s.jobs_submitted, 0);
	VT_ASSERT_EQ(s.jobs_completed, 0);
	VT_ASSERT_EQ(s.fault_va, 0);
	VT_ASSERT_EQ(s.fault_offset, 0);
	VT_ASSERT_EQ(s.fault_reason, DRM_VACCEL_FAULT_NONE);
	VT_ASSERT_EQ(s.fault_access, 0);
}

/* Contexts on each engine of COMPUTE and COPY, by instance and with ANY. */
VTEST(create_each_engine)
{
	struct vt_dev d = vt_dev_open();
	__u32 classes[] = { COMPUTE, COPY }, c, i, h;

	VT_REQUIRE_ENGINES(&d, COPY, 1);
	for (c = 0; c < ARRAY_SIZE(classes); c++) {
		__u32 n = d.info.engine_count[classes[c]];

		for (i = 0; i < n; i++) {
			h = vt_ctx_create(d.fd, classes[c], i);
			expect_fresh(d.fd, h, vt_engine_index(&d, classes[c], i));
			vt_ctx_destroy(d.fd, h);
		}
		h = vt_ctx_create(d.fd, classes[c], ANY);
		VT_ASSERT_EQ(vt_engine(d.engines, engine_of(d.fd, h))->engine_class,
			     classes[c]);
		vt_ctx_destroy(d.fd, h);
	}
}

/* engine_index is the index in the engine list: compute engines first. */
VTEST(engine_index_matches_list)
{
	struct vt_dev d = vt_dev_open();
	__u32 ncompute = d.info.engine_count[COMPUTE];
	__u32 ncopy = d.info.engine_count[COPY], i;
	__u32 h[16];

	VT_REQUIRE_ENGINES(&d, COPY, 1);
	VT_ASSERT(ncompute + ncopy <= ARRAY_SIZE(h));
	VT_ASSERT_EQ(d.engines->count, d.info.engines_total);
	for (i = 0; i < ncompute + ncopy; i++) {
		struct drm_vaccel_engine_info *e = vt_engine(d.engines, i);

		/* The list: every COMPUTE engine by instance, then COPY. */
		VT_ASSERT_EQ(e->engine_class, i < ncompute ? COMPUTE : COPY);
		VT_ASSERT_EQ(e->instance, i < ncompute ? i : i - ncompute);
		h[i] = vt_ctx_create(d.fd, e->engine_class, e->instance);
	}
	/* All alive at once, each on its own engine. */
	for (i = 0; i < ncompute + ncopy; i++)
		VT_ASSERT_EQ(engine_of(d.fd, h[i]), i);
	for (i = 0; i < ncompute + ncopy; i++)
		vt_ctx_destroy(d.fd, h[i]);
}

/* ANY takes the engine of the class with the fewest contexts. */
VTEST(any_takes_fewest_contexts)
{
	struct vt_dev d = vt_dev_open();
	int e0 = vt_engine_index(&d, COMPUTE, 0), e1 = vt_engine_index(&d, COMPUTE, 1);
	__u32 on0[3], any[4], i;

	VT_REQUIRE_ENGINES(&d, COMPUTE, 2);
	if (d.info.engine_count[COMPUTE] != 2)
		vtest_fail(__FILE__, __LINE__, "written for 2 compute engines");
	for (i = 0; i < 3; i++)
		on0[i] = vt_ctx_create(d.fd, COMPUTE, 0);
	/* Engine 1 has fewer contexts until it has as many. */
	for (i = 0; i < 3; i++) {
		any[i] = vt_ctx_create(d.fd, COMPUTE, ANY);
		VT_ASSERT_EQ(engine_of(d.fd, any[i]), e1);
	}
	/* 3 and 3: either is right; then the other one is the emptier. */
	any[3] = vt_ctx_create(d.fd, COMPUTE, ANY);
	i = vt_ctx_create(d.fd, COMPUTE, ANY);
	VT_ASSERT(engine_of(d.fd, i) != engine_of(d.fd, any[3]));
	vt_ctx_destroy(d.fd, i);
	vt_ctx_destroy(d.fd, any[3]);

	/* Destroyed contexts no longer count. */
	for (i = 0; i < 3; i++)
		vt_ctx_destroy(d.fd, on0[i]);
	for (i = 0; i < 3; i++) {
		on0[i] = vt_ctx_create(d.fd, COMPUTE, ANY);
		VT_ASSERT_EQ(engine_of(d.fd, on0[i]), e0);
	}
}

/* ANY spreads contexts evenly, and counts those of every file. */
VTEST(any_spreads_over_engines)
{
	struct vt_dev d = vt_dev_open(), d2 = vt_dev_open();
	__u32 n = d.info.engine_count[COMPUTE], i, k, count[8] = {};
	int idx;

	VT_REQUIRE_ENGINES(&d, COMPUTE, 2);
	VT_ASSERT(n <= ARRAY_SIZE(count));
	for (k = 0; k < 4 * n; k++) {
		/* Alternate files: the counts are the engine's, not the file's. */
		struct vt_dev *f = k % 2 ? &d2 : &d;
		__u32 h = vt_ctx_create(f->fd, COMPUTE, ANY), lo = ~0u, hi = 0;

		idx = engine_of(f->fd, h);
		VT_ASSERT(idx >= vt_engine_index(&d, COMPUTE, 0) &&
			  idx < vt_engine_index(&d, COMPUTE, 0) + (int)n);
		count[idx - vt_engine_index(&d, COMPUTE, 0)]++;
		for (i = 0; i < n; i++) {
			lo = count[i] < lo ? count[i] : lo;
			hi = count[i] > hi ? count[i] : hi;
		}
		if (hi - lo > 1)
			vtest_fail(__FILE__, __LINE__,
				   "after %u contexts: %u on one engine, %u on another",
				   k + 1, hi, lo);
	}
	for (i = 0; i < n; i++)
		VT_ASSERT_EQ(count[i], 4);
	/* One COPY engine or more: ANY lands on the class. */
	if (d.info.engine_count[COPY]) {
		__u32 h = vt_ctx_create(d.fd, COPY, ANY);

		VT_ASSERT_EQ(vt_engine(d.engines, engine_of(d.fd, h))->engine_class, COPY);
	}
}

/* The PAGING class, unknown classes and instances: EINVAL. */
VTEST(einval_class_instance)
{
	struct vt_dev d = vt_dev_open();
	__u32 ncompute = d.info.engine_count[COMPUTE], ncopy = d.info.engine_count[COPY];
	struct {
		__u32 engine_class, instance;
	} bad[] = {
		{ PAGING, ANY }, { PAGING, 0 },
		{ 3, ANY }, { 3, 0 }, { 4, 0 }, { 0x80000000u, ANY }, { 0xffffffffu, ANY },
		{ COMPUTE, ncompute }, { COMPUTE, ncompute + 1 }, { COMPUTE, 0xfffffffeu },
		{ COMPUTE, 0x10000 },
		{ COPY, ncopy }, { COPY, 0xfffffffeu },
	};
	__u32 i, h;

	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		h = 0;
		errno = 0;
		if (vt_ctx_create_raw(d.fd, bad[i].engine_class, bad[i].instance,
				      DRM_VACCEL_PRIORITY_NORMAL, 0, 0, &h) != -1 ||
		    errno != EINVAL)
			vtest_fail(__FILE__, __LINE__,
				   "class %u instance 0x%x: expected EINVAL, got %s",
				   bad[i].engine_class, bad[i].instance, strerror(errno));
	}
	/* The file is fine and creates valid contexts. */
	h = vt_ctx_create(d.fd, COMPUTE, 0);
	vt_ctx_destroy(d.fd, h);
}

/* Priority past REALTIME, flags, pad: EINVAL, even for root. */
VTEST(einval_priority_flags_pad)
{
	struct vt_dev d = vt_dev_open();
	struct {
		__u32 priority, flags, pad;
	} bad[] = {
		{ DRM_VACCEL_PRIORITY_REALTIME + 1, 0, 0 }, { 0x80000000u, 0, 0 },
		{ 0xffffffffu, 0, 0 },
		{ DRM_VACCEL_PRIORITY_NORMAL, 1, 0 }, { DRM_VACCEL_PRIORITY_NORMAL, 1u << 31, 0 },
		{ DRM_VACCEL_PRIORITY_NORMAL, 0, 1 }, { DRM_VACCEL_PRIORITY_NORMAL, 0, 1u << 31 },
	};
	__u32 i;

	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		errno = 0;
		if (vt_ctx_create_raw(d.fd, COMPUTE, ANY, bad[i].priority, bad[i].flags,
				      bad[i].pad, NULL) != -1 || errno != EINVAL)
			vtest_fail(__FILE__, __LINE__,
				   "priority %u flags 0x%x pad 0x%x: expected EINVAL, got %s",
				   bad[i].priority, bad[i].flags, bad[i].pad, strerror(errno));
	}
}

static void caps_get(struct __user_cap_data_struct data[2])
{
	struct __user_cap_header_struct hdr = { _LINUX_CAPABILITY_VERSION_3, 0 };

	VT_ASSERT_EQ(syscall(SYS_capget, &hdr, data), 0);
}

static void caps_set(struct __user_cap_data_struct data[2])
{
	struct __user_cap_header_struct hdr = { _LINUX_CAPABILITY_VERSION_3, 0 };

	VT_ASSERT_EQ(syscall(SYS_capset, &hdr, data), 0);
}

static bool has_sys_nice(void)
{
	struct __user_cap_data_struct data[2];

	caps_get(data);
	return data[CAP_TO_INDEX(CAP_SYS_NICE)].effective & CAP_TO_MASK(CAP_SYS_NICE);
}

/* With CAP_SYS_NICE every priority is allowed. */
VTEST(every_priority_with_cap_sys_nice)
{
	struct vt_dev d = vt_dev_open();
	__u32 p, h;

	VT_ASSERT(has_sys_nice());
	for (p = DRM_VACCEL_PRIORITY_LOW; p <= DRM_VACCEL_PRIORITY_REALTIME; p++) {
		h = vt_ctx_create_prio(d.fd, COMPUTE, ANY, p);
		expect_fresh(d.fd, h, engine_of(d.fd, h));
		h = vt_ctx_create_prio(d.fd, COPY, ANY, p);
		vt_ctx_destroy(d.fd, h);
	}
}

/*
 * Without CAP_SYS_NICE, HIGH and REALTIME fail with EPERM, LOW and NORMAL
 * work; raising the capability again makes HIGH work.  The case runs in a
 * child of the harness, so dropping the capability affects nothing else.
 */
VTEST(eperm_without_cap_sys_nice)
{
	struct __user_cap_data_struct data[2];
	int i = CAP_TO_INDEX(CAP_SYS_NICE);
	__u32 m = CAP_TO_MASK(CAP_SYS_NICE), h;
	pid_t pid;

	VT_ASSERT(has_sys_nice());
	pid = fork();
	if (pid == 0) {
		struct vt_dev d = vt_dev_open();

		caps_get(data);
		data[i].effective &= ~m;
		caps_set(data);
		VT_ASSERT(!has_sys_nice());
		VT_ASSERT_ERRNO(vt_ctx_create_raw(d.fd, COMPUTE, ANY,
						  DRM_VACCEL_PRIORITY_HIGH, 0, 0, &h), EPERM);
		VT_ASSERT_ERRNO(vt_ctx_create_raw(d.fd, COMPUTE, 0,
						  DRM_VACCEL_PRIORITY_REALTIME, 0, 0, &h), EPERM);
		VT_ASSERT_ERRNO(vt_ctx_create_raw(d.fd, COPY, ANY,
						  DRM_VACCEL_PRIORITY_HIGH, 0, 0, &h), EPERM);
		/* An invalid request stays EINVAL. */
		VT_ASSERT_ERRNO(vt_ctx_create_raw(d.fd, COMPUTE, ANY,
						  DRM_VACCEL_PRIORITY_REALTIME + 1, 0, 0, &h),
				EINVAL);
		vt_ctx_create_prio(d.fd, COMPUTE, ANY, DRM_VACCEL_PRIORITY_LOW);
		vt_ctx_create_prio(d.fd, COMPUTE, ANY, DRM_VACCEL_PRIORITY_NORMAL);

		/* Still permitted: raise it again. */
		data[i].effective |= m;
		caps_set(data);
		VT_ASSERT(has_sys_nice());
		vt_ctx_create_prio(d.fd, COMPUTE, ANY, DRM_VACCEL_PRIORITY_HIGH);

		/* Gone for good from every set. */
		data[i].effective &= ~m;
		data[i].permitted &= ~m;
		data[i].inheritable &= ~m;
		caps_set(data);
		VT_ASSERT_ERRNO(vt_ctx_create_raw(d.fd, COMPUTE, ANY,
						  DRM_VACCEL_PRIORITY_REALTIME, 0, 0, &h), EPERM);
		_exit(0);
	}
	vt_wait_child(pid);
	/* The parent keeps its capability. */
	VT_ASSERT(has_sys_nice());
}

/* 256 contexts per file, then ENOSPC; the limit is per file. */
VTEST(contexts_per_file_limit)
{
	struct vt_dev d = vt_dev_open(), d2;
	static __u32 h[DRM_VACCEL_MAX_CONTEXTS_PER_FILE];
	__u32 i, j, extra;

	for (i = 0; i < DRM_VACCEL_MAX_CONTEXTS_PER_FILE; i++) {
		h[i] = vt_ctx_create(d.fd, i % 2 ? COPY : COMPUTE, ANY);
		for (j = 0; j < i; j++)
			VT_ASSERT(h[j] != h[i]);
	}
	VT_ASSERT_ERRNO(vt_ctx_create_raw(d.fd, COMPUTE, ANY,
					  DRM_VACCEL_PRIORITY_NORMAL, 0, 0, &extra), ENOSPC);
	VT_ASSERT_ERRNO(vt_ctx_create_raw(d.fd, COPY, 0, DRM_VACCEL_PRIORITY_LOW, 0, 0,
					  &extra), ENOSPC);
	/* Each one is alive. */
	for (i = 0; i < DRM_VACCEL_MAX_CONTEXTS_PER_FILE; i++)
		vt_ctx_state(d.fd, h[i]);

	/* Another file is not limited by this one. */
	d2 = vt_dev_open();
	vt_ctx_create(d2.fd, COMPUTE, ANY);
	vt_dev_close(&d2);

	/* A free slot can be used again, once. */
	vt_ctx_destroy(d.fd, h[100]);
	VT_ASSERT_ERRNO(vt_ctx_state_raw(d.fd, h[100], 0,
					 &(struct drm_vaccel_context_state){}), ENOENT);
	h[100] = vt_ctx_create(d.fd, COMPUTE, ANY);
	VT_ASSERT_ERRNO(vt_ctx_create_raw(d.fd, COMPUTE, ANY,
					  DRM_VACCEL_PRIORITY_NORMAL, 0, 0, &extra), ENOSPC);
	for (i = 0; i < DRM_VACCEL_MAX_CONTEXTS_PER_FILE; i++)
		vt_ctx_destroy(d.fd, h[i]);
	vt_ctx_create(d.fd, COMPUTE, ANY);
}

/* DESTROY: unknown handles and a second destroy are ENOENT; pad EINVAL. */
VTEST(destroy_errors)
{
	struct vt_dev d = vt_dev_open();
	__u32 h = vt_ctx_create(d.fd, COMPUTE, ANY);

	VT_ASSERT_ERRNO(vt_ctx_destroy_raw(d.fd, 0, 0), ENOENT);
	VT_ASSERT_ERRNO(vt_ctx_destroy_raw(d.fd, h + 1, 0), ENOENT);
	VT_ASSERT_ERRNO(vt_ctx_destroy_raw(d.fd, 0xffffffffu, 0), ENOENT);
	VT_ASSERT_ERRNO(vt_ctx_destroy_raw(d.fd, h, 1), EINVAL);
	VT_ASSERT_ERRNO(vt_ctx_destroy_raw(d.fd, h, 1u << 31), EINVAL);
	vt_ctx_state(d.fd, h);		/* still there */
	vt_ctx_destroy(d.fd, h);
	VT_ASSERT_ERRNO(vt_ctx_destroy_raw(d.fd, h, 0), ENOENT);
	VT_ASSERT_ERRNO(vt_ctx_destroy_raw(d.fd, h, 0), ENOENT);
}

/* STATE: unknown handles ENOENT, pad EINVAL. */
VTEST(state_errors)
{
	struct vt_dev d = vt_dev_open();
	struct drm_vaccel_context_state s;
	__u32 h = vt_ctx_create(d.fd, COPY, ANY);

	VT_ASSERT_ERRNO(vt_ctx_state_raw(d.fd, 0, 0, &s), ENOENT);
	VT_ASSERT_ERRNO(vt_ctx_state_raw(d.fd, h + 1, 0, &s), ENOENT);
	VT_ASSERT_ERRNO(vt_ctx_state_raw(d.fd, 0xffffffffu, 0, &s), ENOENT);
	VT_ASSERT_ERRNO(vt_ctx_state_raw(d.fd, h, 1, &s), EINVAL);
	VT_ASSERT_ERRNO(vt_ctx_state_raw(d.fd, h, 0x80000000u, &s), EINVAL);
	/* Every output field is written, none left as the caller had it. */
	VT_ASSERT_EQ(vt_ctx_state_raw(d.fd, h, 0, &s), 0);
	VT_ASSERT_EQ(s.handle, h);
	VT_ASSERT_EQ(s.pad, 0);
	VT_ASSERT_EQ(s.flags, 0);
	VT_ASSERT_EQ(s.jobs_submitted, 0);
	VT_ASSERT_EQ(s.jobs_completed, 0);
	VT_ASSERT_EQ(s.fault_va, 0);
	VT_ASSERT_EQ(s.fault_offset, 0);
	VT_ASSERT_EQ(s.fault_reason, 0);
	VT_ASSERT_EQ(s.fault_access, 0);
	VT_ASSERT_EQ(vt_engine(d.engines, s.engine_index)->engine_class, COPY);
	vt_ctx_destroy(d.fd, h);
	VT_ASSERT_ERRNO(vt_ctx_state_raw(d.fd, h, 0, &s), ENOENT);
}

/* A context handle means nothing in another file, even the same number. */
VTEST(handles_are_per_file)
{
	struct vt_dev d = vt_dev_open(), d2 = vt_dev_open();
	struct drm_vaccel_context_state s;
	struct vt_cmd c = vt_cmd_new(&d, VT_PAGE);
	struct vt_bo data = vt_bo_new(&d, VT_PAGE);
	__u32 h = vt_ctx_create(d.fd, COMPUTE, ANY), h2;

	VT_ASSERT_ERRNO(vt_ctx_state_raw(d2.fd, h, 0, &s), ENOENT);
	VT_ASSERT_ERRNO(vt_submit_raw(d2.fd, h, c.bo.va, 8, NULL, 0, NULL, 0), ENOENT);
	VT_ASSERT_ERRNO(vt_ctx_destroy_raw(d2.fd, h, 0), ENOENT);

	/* The other file's own context may have the same number. */
	h2 = vt_ctx_create(d2.fd, COMPUTE, ANY);
	vt_ctx_destroy(d2.fd, h2);
	VT_ASSERT_ERRNO(vt_ctx_destroy_raw(d2.fd, h2, 0), ENOENT);
	VT_ASSERT_ERRNO(vt_ctx_destroy_raw(d2.fd, h, 0), ENOENT);

	/* The first file's context is untouched and works. */
	s = vt_ctx_state(d.fd, h);
	VT_ASSERT_EQ(s.jobs_submitted, 0);
	vt_pkt_write32(&c, data.va, 0x600d);
	vt_run(d.fd, h, &c);
	VT_ASSERT_EQ(VT_U32(&data, 0), 0x600d);
	VT_ASSERT_EQ(vt_ctx_state(d.fd, h).jobs_submitted, 1);
	vt_ctx_destroy(d.fd, h);
}

/*
 * jobs_submitted counts accepted submits only, jobs_completed the buffers
 * that ended, with or without an error.
 */
VTEST(job_counters)
{
	struct vt_dev d = vt_dev_open();
	struct vt_cmd c = vt_cmd_new(&d, 16 * VT_KIB);
	struct vt_bo data = vt_bo_new(&d, VT_PAGE);
	__u32 h = vt_ctx_create(d.fd, COMPUTE, 0), out[6], i;
	struct drm_vaccel_context_state s;

	for (i = 0; i < ARRAY_SIZE(out); i++)
		out[i] = vt_syncobj(d.fd);
	/* A gate, then 4 jobs behind it. */
	vt_pkt_wait_eq32(&c, data.va, 1);
	vt_submit(d.fd, h, &c, 0, out[0]);
	for (i = 1; i <= 4; i++) {
		vt_pkt_write32(&c, data.va + 4 * i, i);
		vt_submit(d.fd, h, &c, 0, out[i]);
	}
	VT_ASSERT_ERRNO(vt_submit_raw(d.fd, h, c.bo.va, 0, NULL, 0, NULL, 0), EINVAL);
	VT_ASSERT_ERRNO(vt_submit_raw(d.fd, h, c.bo.va, 12, NULL, 0, NULL, 0), EINVAL);
	vt_sleep_ms(VT_SETTLE_MS);
	s = vt_ctx_state(d.fd, h);
	VT_ASSERT_EQ(s.jobs_submitted, 5);
	VT_ASSERT_EQ(s.jobs_completed, 0);
	VT_ASSERT(!vt_syncobj_signalled(d.fd, out[4]));

	VT_U32(&data, 0) = 1;
	vt_syncobj_wait(d.fd, out[4]);
	s = vt_ctx_state(d.fd, h);
	VT_ASSERT_EQ(s.jobs_submitted, 5);
	VT_ASSERT_EQ(s.jobs_completed, 5);
	VT_ASSERT_EQ(s.flags, 0);
	for (i = 1; i <= 4; i++)
		VT_ASSERT_EQ(VT_U32(&data, 4 * i), i);

	/* A faulting job completes too, with an error; then ECANCELED. */
	vt_emit(&c, DRM_VACCEL_PKT_HEADER(0x7f, 0, 1));
	vt_submit(d.fd, h, &c, 0, out[5]);
	vt_syncobj_wait(d.fd, out[5]);
	VT_ASSERT_EQ(vt_fence_status(d.fd, out[5]), -EINVAL);
	vt_pkt_nop(&c, 1);
	VT_ASSERT_ERRNO(vt_submit_raw(d.fd, h, vt_cmd_va(&c), 8, NULL, 0, NULL, 0),
			ECANCELED);
	s = vt_ctx_state(d.fd, h);
	VT_ASSERT_EQ(s.jobs_submitted, 6);
	VT_ASSERT_EQ(s.jobs_completed, 6);
	VT_ASSERT_EQ(s.flags, (DRM_VACCEL_CONTEXT_FAULTED | DRM_VACCEL_CONTEXT_BANNED));
}

/*
 * CONTEXT_DESTROY returns without waiting for the buffers it cancels, nor
 * for their dependencies: within a second even under TCG.
 */
static void destroy_promptly(int fd, __u32 h)
{
	VT_EXPECT_WITHIN_MS(1000, "destroy", vt_ctx_destroy(fd, h));
}

/* Destroying a context stops its running DELAY and cancels what follows. */
VTEST(destroy_stops_running_buffer)
{
	struct vt_dev d = vt_dev_open();
	struct vt_cmd c = vt_cmd_new(&d, VT_PAGE);
	struct vt_bo data = vt_bo_new(&d, VT_PAGE);
	__u32 h = vt_ctx_create(d.fd, COMPUTE, 0), h2;
	__u32 o1 = vt_syncobj(d.fd), o2 = vt_syncobj(d.fd);
	int s1, s2;

	vt_pkt_write32(&c, data.va, 1);			/* started */
	vt_pkt_delay(&c, 60000 * VT_MS);		/* a minute */
	vt_pkt_write32(&c, data.va + 4, 1);		/* must not run */
	vt_submit(d.fd, h, &c, 0, o1);
	vt_pkt_write32(&c, data.va + 8, 1);		/* queued, must not run */
	vt_submit(d.fd, h, &c, 0, o2);
	s1 = vt_sync_file_named(d.fd, o1);
	s2 = vt_sync_file_named(d.fd, o2);
	VT_ASSERT(vt_poll_u32(VT_U32P(&data, 0), 1, VT_TIMEOUT_MS));

	destroy_promptly(d.fd, h);
	VT_ASSERT(vt_sync_file_wait(s1, VT_TIMEOUT_MS));
	VT_ASSERT(vt_sync_file_wait(s2, VT_TIMEOUT_MS));
	VT_ASSERT(vt_sync_file_status(s1) < 0);
	VT_ASSERT_EQ(vt_sync_file_status(s2), -ECANCELED);
	VT_ASSERT_EQ(VT_U32(&data, 4), 0);
	VT_ASSERT_EQ(VT_U32(&data, 8), 0);

	/* The engine is free for others. */
	h2 = vt_ctx_create(d.fd, COMPUTE, 0);
	vt_pkt_write32(&c, data.va + 12, 7);
	vt_run(d.fd, h2, &c);
	VT_ASSERT_EQ(VT_U32(&data, 12), 7);
}

/*
 * The device's memory counters come back to @want (what is freed last may
 * be freed just after close returns: poll for a while).
 */
static void expect_dev_mem(int fd, const struct vt_dev_mem *want)
{
	__u64 end = vt_now_ns() + VT_TIMEOUT_MS * VT_MS;
	struct vt_dev_mem now;

	for (;;) {
		vt_dev_mem(fd, &now);
		if (vt_dev_mem_equal(&now, want))
			return;
		if (vt_now_ns() > end)
			vtest_fail(__FILE__, __LINE__,
				   "memory left behind: bo_count %lld/%lld bo_bytes %lld/%lld "
				   "vms %lld/%lld pt_pages %lld/%lld", now.bo_count,
				   want->bo_count, now.bo_bytes, want->bo_bytes, now.vms,
				   want->vms, now.pt_pages, want->pt_pages);
		usleep(1000);
	}
}

/*
 * Closing a file whose contexts have work running and queued on every
 * engine: close returns promptly, every job ends with an error, no memory
 * stays behind, and the engines serve other files.
 */
VTEST(close_with_pending_work)
{
	struct vt_dev d = vt_dev_open(), d2;
	__u32 nengines = d.info.engine_count[COMPUTE] + d.info.engine_count[COPY];
	struct vt_bo data = vt_bo_new(&d, VT_PAGE), gate;
	struct vt_cmd c1 = vt_cmd_new(&d, 16 * VT_KIB), c;
	struct vt_dev_mem before;
	int sf[8 * 3], nsf = 0, i, e;

	VT_REQUIRE_ENGINES(&d, COPY, 1);
	VT_ASSERT(nengines <= 8);
	vt_dev_mem(d.fd, &before);
	d2 = vt_dev_open();
	gate = vt_bo_new(&d2, VT_PAGE);
	c = vt_cmd_new(&d2, 64 * VT_KIB);
	/* Per engine: a WAIT_MEM that never ends, or a long DELAY, and 2 more. */
	for (e = 0; e < (int)nengines; e++) {
		struct drm_vaccel_engine_info *ei = vt_engine(d2.engines, e);
		__u32 h = vt_ctx_create(d2.fd, ei->engine_class, ei->instance);

		for (i = 0; i < 3; i++) {
			__u32 o = vt_syncobj(d2.fd);

			if (i == 0 && e % 2)
				vt_pkt_delay(&c, 60000 * VT_MS);
			else if (i == 0)
				vt_pkt_wait_eq32(&c, gate.va, 1);
			else
				vt_pkt_write32(&c, gate.va + 64 + 8 * e + 4 * i, 1);
			vt_submit(d2.fd, h, &c, 0, o);
			sf[nsf++] = vt_sync_file_named(d2.fd, o);
		}
	}
	vt_bo_cpu_unmap(&gate);
	vt_bo_cpu_unmap(&c.bo);
	vt_sleep_ms(VT_SETTLE_MS);

	VT_EXPECT_WITHIN_MS(2000, "close", vt_dev_close(&d2));
	for (i = 0; i < nsf; i++) {
		VT_ASSERT(vt_sync_file_wait(sf[i], VT_TIMEOUT_MS));
		if (i % 3)
			VT_ASSERT_EQ(vt_sync_file_status(sf[i]), -ECANCELED);
		else
			VT_ASSERT(vt_sync_file_status(sf[i]) < 0);
		close(sf[i]);
	}
	expect_dev_mem(d.fd, &before);

	/* Every engine runs another file's work. */
	for (e = 0; e < (int)nengines; e++) {
		struct drm_vaccel_engine_info *ei = vt_engine(d.engines, e);
		__u32 h = vt_ctx_create(d.fd, ei->engine_class, ei->instance);

		vt_pkt_write32(&c1, data.va + 4 * e, 0x100 + e);
		vt_run(d.fd, h, &c1);
		VT_ASSERT_EQ(VT_U32(&data, 4 * e), 0x100 + e);
	}
}

/* Closing a file with many idle contexts and finished work is clean too. */
VTEST(close_with_idle_contexts)
{
	struct vt_dev d = vt_dev_open(), d2;
	struct vt_dev_mem before;
	struct vt_bo data;
	struct vt_cmd c;
	__u32 i, h;

	vt_dev_mem(d.fd, &before);
	d2 = vt_dev_open();
	data = vt_bo_new(&d2, VT_PAGE);
	c = vt_cmd_new(&d2, VT_PAGE);
	for (i = 0; i < 32; i++) {
		h = vt_ctx_create(d2.fd, i % 3 == 2 ? COPY : COMPUTE, ANY);
		vt_pkt_write32(&c, data.va + 4 * i, i + 1);
		vt_run(d2.fd, h, &c);
		VT_ASSERT_EQ(VT_U32(&data, 4 * i), i + 1);
	}
	vt_bo_cpu_unmap(&data);
	vt_bo_cpu_unmap(&c.bo);
	vt_dev_close(&d2);
	expect_dev_mem(d.fd, &before);
}

/* A SUBMIT run in a thread, its wait array where the test says. */
struct stalled_submit {
	int fd;
	__u32 ctx;
	__u64 va;
	const struct drm_vaccel_sync *waits;
	__u32 out;
	int ret;
	int err;
};

static void *stalled_submit_fn(void *arg)
{
	struct stalled_submit *s = arg;
	struct drm_vaccel_sync sig = { .handle = s->out };

	s->ret = vt_submit_raw(s->fd, s->ctx, s->va, 8, s->waits, 1, &sig, 1);
	s->err = errno;
	return NULL;
}

/*
 * A SUBMIT that holds its context and is still copying its arguments when
 * the context is destroyed: once it goes on, it fails with ENOENT, as for
 * a handle that no longer exists, and pushes nothing (its out-syncobj gets
 * no fence).  userfaultfd holds the copy, so the order is certain.
 */
VTEST(submit_racing_destroy)
{
	struct vt_dev d = vt_dev_open();
	struct vt_cmd c = vt_cmd_new(&d, VT_PAGE);
	__u32 h = vt_ctx_create(d.fd, COMPUTE, 0);
	struct drm_vaccel_sync wait = {
		.handle = vt_syncobj_flags(d.fd, DRM_SYNCOBJ_CREATE_SIGNALED),
	};
	struct stalled_submit s = { .fd = d.fd, .ctx = h, .out = vt_syncobj(d.fd) };
	struct drm_syncobj_wait w = { .handles = (uintptr_t)&s.out, .count_handles = 1 };
	struct vt_uffd u;
	pthread_t t;

	vt_pkt_nop(&c, 1);
	s.va = c.bo.va;
	vt_uffd_init(&u);
	s.waits = u.page;
	VT_ASSERT_EQ(pthread_create(&t, NULL, stalled_submit_fn, &s), 0);
	VT_ASSERT(vt_uffd_wait_fault(&u, VT_TIMEOUT_MS));

	vt_ctx_destroy(d.fd, h);
	vt_uffd_fill(&u, &wait, sizeof(wait));
	VT_ASSERT_EQ(pthread_join(t, NULL), 0);
	VT_ASSERT_EQ(s.ret, -1);
	VT_ASSERT_EQ(s.err, ENOENT);
	/* No fence was installed: a wait without WAIT_FOR_SUBMIT refuses. */
	VT_ASSERT_ERRNO(ioctl(d.fd, DRM_IOCTL_SYNCOBJ_WAIT, &w), EINVAL);
	vt_uffd_fini(&u);
}

/*
 * Destroying a context cancels with ECANCELED every buffer it has not
 * completed, whatever point it reached: the running one, those queued
 * behind it (on the ring, in the HW queue, or not yet taken by drm_sched's
 * run_job), and one waiting for a dependency.  The destroy does not wait
 * for that dependency, and the buffer that waits for it signals only once
 * it has.
 */
VTEST(destroy_cancels_every_stage)
{
	int vgem = vt_vgem_require();
	struct vt_vgem_fence f = vt_vgem_fence_new(vgem);
	struct vt_dev d = vt_dev_open();
	struct vt_cmd c = vt_cmd_new(&d, 64 * VT_KIB);
	struct vt_bo data = vt_bo_new(&d, VT_PAGE);
	__u32 h = vt_ctx_create(d.fd, COMPUTE, 0), in = vt_syncobj(d.fd);
	__u32 out[34];
	int sf[34], i, n = 0;

	vt_vgem_fence_import(&f, d.fd, in);
	vt_pkt_write32(&c, data.va, 1);
	vt_pkt_delay(&c, 60000 * VT_MS);
	out[n] = vt_syncobj(d.fd);
	vt_submit(d.fd, h, &c, 0, out[n]);
	sf[n] = vt_sync_file(d.fd, out[n]);
	n++;
	VT_ASSERT(vt_poll_u32(VT_U32P(&data, 0), 1, VT_TIMEOUT_MS));
	for (i = 0; i < 32; i++, n++) {
		vt_pkt_write32(&c, data.va + 4, 2);
		out[n] = vt_syncobj(d.fd);
		vt_submit(d.fd, h, &c, 0, out[n]);
		sf[n] = vt_sync_file(d.fd, out[n]);
	}
	vt_pkt_write32(&c, data.va + 8, 3);
	out[n] = vt_syncobj(d.fd);
	vt_submit(d.fd, h, &c, in, out[n]);
	sf[n] = vt_sync_file(d.fd, out[n]);
	n++;

	destroy_promptly(d.fd, h);
	for (i = 0; i < n - 1; i++) {
		VT_ASSERT(vt_sync_file_wait(sf[i], VT_TIMEOUT_MS));
		if (vt_sync_file_status(sf[i]) != -ECANCELED)
			vtest_fail(__FILE__, __LINE__, "buffer %d: status %d", i,
				   vt_sync_file_status(sf[i]));
	}
	/* Not before its dependency. */
	VT_ASSERT_EQ(vt_sync_file_status(sf[n - 1]), 0);
	vt_vgem_fence_signal(&f);
	VT_ASSERT(vt_sync_file_wait(sf[n - 1], VT_TIMEOUT_MS));
	VT_ASSERT_EQ(vt_sync_file_status(sf[n - 1]), -ECANCELED);
	VT_ASSERT_EQ(VT_U32(&data, 4), 0);
	VT_ASSERT_EQ(VT_U32(&data, 8), 0);
	for (i = 0; i < n; i++)
		close(sf[i]);
	close(f.sync_file);
	close(vgem);
}

/*
 * Buffers destroyed right after their SUBMIT, before drm_sched's run_job
 * could take most of them, all end with ECANCELED or complete: none with
 * another errno.
 */
VTEST(destroy_right_after_submit)
{
	struct vt_dev d = vt_dev_open();
	struct vt_cmd c = vt_cmd_new(&d, VT_PAGE);
	int sf[64], round, i, st;

	vt_pkt_nop(&c, 1);
	for (round = 0; round < 20; round++) {
		__u32 h = vt_ctx_create(d.fd, COPY, 0);

		for (i = 0; i < 64; i++) {
			__u32 out = vt_syncobj(d.fd);

			VT_ASSERT_OK(vt_submit_raw(d.fd, h, c.bo.va, 8, NULL, 0,
						   &(struct drm_vaccel_sync){ .handle = out }, 1));
			sf[i] = vt_sync_file(d.fd, out);
		}
		vt_ctx_destroy(d.fd, h);
		for (i = 0; i < 64; i++) {
			VT_ASSERT(vt_sync_file_wait(sf[i], VT_TIMEOUT_MS));
			st = vt_sync_file_status(sf[i]);
			if (st != 1 && st != -ECANCELED)
				vtest_fail(__FILE__, __LINE__, "round %d buffer %d: status %d",
					   round, i, st);
			close(sf[i]);
		}
	}
}

VTEST_MAIN()
