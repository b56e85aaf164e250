// SPDX-License-Identifier: MIT
/*
 * Copyright 2026 The vaccel authors
 *
 * test_teardown.c - the lifetime of what outlives a file: contexts whose
 * jobs still wait for a dependency, fences in sync_files, a device unbound
 * through sysfs with jobs in flight.  Each case ends by unloading the
 * module, which must be refused (EWOULDBLOCK) for as long as anything of
 * it is still alive and succeed once nothing is, then loads it again with
 * the default parameters.
 *
 * Dependencies that signal when the test says come from vgem fences.
 * Needs root, vgem, the default topology, and nothing else using the
 * module while it runs.
 */
#include "vt_exec.h"
#include "vt_module.h"
#include "vt_vgem.h"

#define COMPUTE	DRM_VACCEL_ENGINE_CLASS_COMPUTE
#define COPY	DRM_VACCEL_ENGINE_CLASS_COPY

/* The module goes once nothing holds it, then comes back for the next case. */
static void unload_and_reload(void)
{
	VT_ASSERT_OK(vt_module_unload_within(5000));
	VT_ASSERT_EQ(access("/sys/module/vaccel", F_OK), -1);
	VT_ASSERT_OK(vt_module_load(""));
}

/* The timeline name SYNC_IOC_FILE_INFO reads through the fence's scheduler. */
/* The fence's timeline name begins with @want. */
static void expect_timeline_name(int sync_file, const char *want)
{
	struct sync_fence_info fi;
	struct sync_file_info info;

	memset(&info, 0, sizeof(info));
	memset(&fi, 0, sizeof(fi));
	info.num_fences = 1;
	info.sync_fence_info = (uintptr_t)&fi;
	VT_ASSERT_OK(ioctl(sync_file, SYNC_IOC_FILE_INFO, &info));
	if (strncmp(fi.obj_name, want, strlen(want)))
		vtest_fail(__FILE__, __LINE__, "timeline '%s', expected '%s...'",
			   fi.obj_name, want);
	VT_ASSERT_EQ(fi.status, 1);
}

/*
 * A file with a context on an engine of @engine_class, a command buffer, a
 * data page, and a syncobj @in holding a vgem fence that the test signals:
 * the dependency that keeps jobs waiting.
 */
struct gated {
	int vgem;
	struct vt_vgem_fence f;
	struct vt_dev d;
	struct vt_cmd c;
	struct vt_bo data;
	__u32 ctx;
	__u32 in;
};

static void gated_open(struct gated *g, __u32 engine_class)
{
	g->vgem = vt_vgem_require();
	g->f = vt_vgem_fence_new(g->vgem);
	g->d = vt_dev_open();
	g->c = vt_cmd_new(&g->d, VT_PAGE);
	g->data = vt_bo_new(&g->d, VT_PAGE);
	g->ctx = vt_ctx_create(g->d.fd, engine_class, 0);
	g->in = vt_syncobj(g->d.fd);
	vt_vgem_fence_import(&g->f, g->d.fd, g->in);
}

/* Closes the file, its CPU mappings first; the vgem fence stays. */
static void gated_close_file(struct gated *g)
{
	vt_bo_cpu_unmap(&g->c.bo);
	vt_bo_cpu_unmap(&g->data);
	vt_dev_close(&g->d);
}

/* Lets go of the vgem fence, signalled by now, and of vgem. */
static void gated_done(struct gated *g)
{
	close(g->f.sync_file);
	close(g->vgem);
}

/*
 * The job behind @sf waits at the gate, its file closed: the module stays
 * for it.  Once the gate opens, the job is cancelled (it never ran), and
 * nothing of the file is left.
 */
static void expect_cancelled_at_gate(struct gated *g, int sf)
{
	VT_ASSERT_EQ(vt_module_unload(), -EWOULDBLOCK);
	vt_vgem_fence_signal(&g->f);
	VT_ASSERT(vt_sync_file_wait(sf, VT_TIMEOUT_MS));
	VT_ASSERT_EQ(vt_sync_file_status(sf), -ECANCELED);
	close(sf);
	gated_done(g);
}

/*
 * A fence of a finished job, kept in a sync_file after its file is closed
 * and its context torn down, still names its timeline (its context's
 * name, vaccel<dev>-<engine>-c<id>), and keeps the
 * module: its code is what the fence calls when it goes.  Once the
 * sync_file is closed, the module can go.
 */
VTEST(sync_file_outlives_its_context)
{
	struct vt_dev d = vt_dev_open();
	struct vt_cmd c = vt_cmd_new(&d, VT_PAGE);
	__u32 h = vt_ctx_create(d.fd, COMPUTE, 0), out = vt_syncobj(d.fd);
	int sf;

	vt_pkt_nop(&c, 1);
	vt_submit(d.fd, h, &c, 0, out);
	VT_ASSERT_OK(vt_syncobj_wait_ms(d.fd, out, VT_TIMEOUT_MS));
	sf = vt_sync_file(d.fd, out);
	vt_bo_cpu_unmap(&c.bo);
	vt_dev_close(&d);

	/* The contexts' teardown runs soon after the close; not the fence's. */
	VT_ASSERT_EQ(vt_module_unload_within(500), -EWOULDBLOCK);
	expect_timeline_name(sf, "vaccel0-compute0-c");
	close(sf);
	unload_and_reload();
}

/*
 * Closing a file whose context has a job waiting for a dependency does not
 * wait for it; the context keeps the module until the dependency signals,
 * then its job is cancelled and everything goes.
 */
VTEST(close_with_job_waiting_for_a_dependency)
{
	struct gated g;
	__u32 out;
	int sf;

	gated_open(&g, COMPUTE);
	out = vt_syncobj(g.d.fd);
	vt_pkt_write32(&g.c, g.data.va, 1);
	vt_submit(g.d.fd, g.ctx, &g.c, g.in, out);
	sf = vt_sync_file(g.d.fd, out);

	VT_EXPECT_WITHIN_MS(1000, "close", gated_close_file(&g));
	VT_ASSERT_EQ(vt_sync_file_status(sf), 0);
	expect_cancelled_at_gate(&g, sf);
	unload_and_reload();
}

/*
 * Unbinding the device while its engines run a buffer, with more queued
 * and one waiting for a dependency: the file's ioctls fail with ENODEV,
 * the jobs already submitted still run and their fences signal, and once
 * the file is closed the device is released and the module can go.
 */
VTEST(unbind_with_jobs_in_flight)
{
	struct gated g;
	char path[PATH_MAX];
	__u32 out[3];
	int sf[3], i;

	gated_open(&g, COMPUTE);
	for (i = 0; i < 3; i++)
		out[i] = vt_syncobj(g.d.fd);
	vt_pkt_write32(&g.c, g.data.va, 1);
	vt_pkt_delay(&g.c, 300 * VT_MS);
	vt_submit(g.d.fd, g.ctx, &g.c, 0, out[0]);
	vt_pkt_write32(&g.c, g.data.va + 4, 2);
	vt_submit(g.d.fd, g.ctx, &g.c, 0, out[1]);
	vt_pkt_write32(&g.c, g.data.va + 8, 3);
	vt_submit(g.d.fd, g.ctx, &g.c, g.in, out[2]);
	for (i = 0; i < 3; i++)
		sf[i] = vt_sync_file(g.d.fd, out[i]);
	VT_ASSERT(vt_poll_u32(VT_U32P(&g.data, 0), 1, VT_TIMEOUT_MS));

	VT_ASSERT_OK(vt_unbind(0));
	VT_ASSERT_EQ(vt_node_of(0, path, sizeof(path)), -ENOENT);
	VT_ASSERT_ERRNO(vt_submit_raw(g.d.fd, g.ctx, g.c.bo.va, 8, NULL, 0, NULL, 0),
			ENODEV);

	/* What was submitted before the unplug still runs. */
	VT_ASSERT(vt_sync_file_wait(sf[1], VT_TIMEOUT_MS));
	VT_ASSERT_EQ(vt_sync_file_status(sf[0]), 1);
	VT_ASSERT_EQ(vt_sync_file_status(sf[1]), 1);
	VT_ASSERT_EQ(VT_U32(&g.data, 4), 2);
	vt_vgem_fence_signal(&g.f);
	VT_ASSERT(vt_sync_file_wait(sf[2], VT_TIMEOUT_MS));
	VT_ASSERT_EQ(vt_sync_file_status(sf[2]), 1);
	VT_ASSERT_EQ(VT_U32(&g.data, 8), 3);

	gated_close_file(&g);
	for (i = 0; i < 3; i++)
		close(sf[i]);
	gated_done(&g);
	VT_ASSERT_OK(vt_bind(0));
	VT_ASSERT_OK(vt_node_of(0, path, sizeof(path)));
	unload_and_reload();
}

/*
 * Unbinding the device with jobs waiting for a dependency, then closing
 * the file before the dependency signals: the jobs are cancelled when it
 * does, and the module goes after them.
 */
VTEST(unbind_close_then_dependency_signals)
{
	struct gated g;
	__u32 out;
	int sf;

	gated_open(&g, COPY);
	out = vt_syncobj(g.d.fd);
	vt_pkt_nop(&g.c, 1);
	vt_submit(g.d.fd, g.ctx, &g.c, g.in, out);
	sf = vt_sync_file(g.d.fd, out);
	VT_ASSERT_OK(vt_unbind(0));
	gated_close_file(&g);
	expect_cancelled_at_gate(&g, sf);
	VT_ASSERT_OK(vt_bind(0));
	unload_and_reload();
}

/* Plain teardowns: an idle file, a destroyed busy context, an async bind. */
VTEST(unload_after_each_kind_of_close)
{
	struct vt_dev d = vt_dev_open();
	struct vt_cmd c = vt_cmd_new(&d, VT_PAGE);
	struct vt_bo data = vt_bo_new(&d, VT_PAGE);
	__u32 h = vt_ctx_create(d.fd, COMPUTE, 0), out = vt_syncobj(d.fd);
	__u32 bo = vt_bo_create(d.fd, VT_PAGE, 0);
	struct drm_vaccel_vm_bind_op op = vt_op_map(bo, 0, vt_va_hole(&d), VT_PAGE, 0);
	struct drm_vaccel_sync sig = { .handle = out };
	struct drm_vaccel_vm_bind bind = {
		.ops = DRM_VACCEL_OBJ_ARRAY(1, &op),
		.signals = DRM_VACCEL_OBJ_ARRAY(1, &sig),
	};

	vt_pkt_write32(&c, data.va, 1);
	vt_pkt_delay(&c, 60000 * VT_MS);
	vt_submit(d.fd, h, &c, 0, 0);
	VT_ASSERT(vt_poll_u32(VT_U32P(&data, 0), 1, VT_TIMEOUT_MS));
	vt_ctx_destroy(d.fd, h);
	/* An asynchronous bind, its paging context left to the close. */
	VT_ASSERT_OK(ioctl(d.fd, DRM_IOCTL_VACCEL_VM_BIND, &bind));
	VT_ASSERT_OK(vt_syncobj_wait_ms(d.fd, out, VT_TIMEOUT_MS));
	vt_bo_cpu_unmap(&c.bo);
	vt_bo_cpu_unmap(&data);
	vt_dev_close(&d);
	unload_and_reload();
}

VTEST_MAIN()
