// SPDX-License-Identifier: MIT
/*
 * test_syncobj.c - syncobj conformance, with vaccel jobs as the signallers.
 *
 * Written from the semantics of the drm syncobj uapi (drm_syncobj.c's
 * documentation), the behaviour IGT's syncobj_wait and syncobj_timeline
 * check: binary and timeline syncobjs; WAIT_ALL and WAIT_ANY with the index
 * of the first signalled; WAIT_FOR_SUBMIT against a fence that arrives
 * later; WAIT_AVAILABLE; absolute timeouts, past and future; CPU signal
 * and reset; transfer from binary to timeline and back; query of the last
 * signalled and the last submitted point; export and import of a fence as
 * a sync_file and of the syncobj itself as an fd; eventfd notification.
 * A job's error (a fault) reaches the sync_file status, not the wait.
 */
#define _GNU_SOURCE
#include <poll.h>
#include <pthread.h>
#include <sys/eventfd.h>

#include "vtest.h"
#include "vt_exec.h"
#include "vt_mem.h"

/* A device file, a DMA buffer BO, a data BO for gates, a context. */
static struct vt_work sx_open(void)
{
	return vt_work_open(256 * VT_KIB, 64 * VT_KIB, DRM_VACCEL_ENGINE_CLASS_COMPUTE,
			    DRM_VACCEL_ENGINE_ANY);
}

/* A job that waits on the engine until the CPU writes @gate's word. */
static void job_gated(struct vt_work *s, unsigned int gate, struct drm_vaccel_sync *sig)
{
	vt_pkt_wait(&s->c, s->data.va + gate * 8, 1, ~0ull, DRM_VACCEL_WAIT_EQ, false);
	VT_ASSERT_OK(vt_submit_raw(s->d.fd, s->ctx, vt_cmd_va(&s->c), vt_cmd_size(&s->c),
				   NULL, 0, sig, sig ? 1 : 0));
	vt_cmd_next(&s->c);
}

static void open_gate(struct vt_work *s, unsigned int gate)
{
	*VT_U32P(&s->data, gate * 8) = 1;
}

/* A job that completes at once, signalling @sig. */
static void job_now(struct vt_work *s, struct drm_vaccel_sync *sig)
{
	vt_pkt_nop(&s->c, 1);
	VT_ASSERT_OK(vt_submit_raw(s->d.fd, s->ctx, vt_cmd_va(&s->c), vt_cmd_size(&s->c),
				   NULL, 0, sig, 1));
	vt_cmd_next(&s->c);
}

/* libdrm's calls return 0 or -errno. */
static int tl_wait(int fd, __u32 h, __u64 point, int64_t deadline, __u32 flags)
{
	uint64_t p = point;

	return drmSyncobjTimelineWait(fd, &h, &p, 1, deadline, flags, NULL);
}

static __u64 query(int fd, __u32 h, __u32 flags)
{
	uint64_t point = 0;

	VT_ASSERT_OK(drmSyncobjQuery2(fd, &h, &point, 1, flags));
	return point;
}

VTEST(binary_signal_reset)
{
	struct vt_work s = sx_open();
	__u32 h = vt_syncobj(s.d.fd), sig = vt_syncobj_flags(s.d.fd, DRM_SYNCOBJ_CREATE_SIGNALED);
	struct drm_vaccel_sync out = { .handle = h };

	/* No fence: a wait without WAIT_FOR_SUBMIT is -EINVAL, with it -ETIME. */
	VT_ASSERT_EQ(drmSyncobjWait(s.d.fd, &h, 1, 0, 0, NULL), -EINVAL);
	VT_ASSERT_EQ(drmSyncobjWait(s.d.fd, &h, 1, 0, DRM_SYNCOBJ_WAIT_FLAGS_WAIT_FOR_SUBMIT, NULL),
		     -ETIME);
	VT_ASSERT_EQ(drmSyncobjWait(s.d.fd, &sig, 1, 0, 0, NULL), 0);

	job_gated(&s, 0, &out);
	VT_ASSERT_EQ(drmSyncobjWait(s.d.fd, &h, 1, vt_deadline(50), 0, NULL), -ETIME);
	open_gate(&s, 0);
	VT_ASSERT_EQ(drmSyncobjWait(s.d.fd, &h, 1, vt_deadline(VT_TIMEOUT_MS), 0, NULL), 0);

	/* Reset takes the fence away; CPU signal puts a signalled one in. */
	VT_ASSERT_OK(drmSyncobjReset(s.d.fd, &h, 1));
	VT_ASSERT_EQ(drmSyncobjWait(s.d.fd, &h, 1, 0, 0, NULL), -EINVAL);
	VT_ASSERT_OK(drmSyncobjSignal(s.d.fd, &h, 1));
	VT_ASSERT_EQ(drmSyncobjWait(s.d.fd, &h, 1, 0, 0, NULL), 0);
}

VTEST(wait_all_and_any)
{
	struct vt_work s = sx_open();
	__u32 h[2] = { vt_syncobj(s.d.fd), vt_syncobj(s.d.fd) }, first = 99;
	struct drm_vaccel_sync o0 = { .handle = h[0] }, o1 = { .handle = h[1] };
	__u32 ctx2 = vt_ctx_create(s.d.fd, DRM_VACCEL_ENGINE_CLASS_COMPUTE, DRM_VACCEL_ENGINE_ANY);
	__u32 ctx1 = s.ctx;

	/* h[0] behind a gate on one context, h[1] free on another. */
	job_gated(&s, 0, &o0);
	s.ctx = ctx2;
	job_now(&s, &o1);
	s.ctx = ctx1;

	/* Without WAIT_ALL: any one, and the index of the first signalled. */
	VT_ASSERT_EQ(drmSyncobjWait(s.d.fd, h, 2, vt_deadline(VT_TIMEOUT_MS), 0, &first), 0);
	VT_ASSERT_EQ(first, 1);
	VT_ASSERT_EQ(drmSyncobjWait(s.d.fd, h, 2, vt_deadline(50),
				DRM_SYNCOBJ_WAIT_FLAGS_WAIT_ALL, NULL), -ETIME);
	open_gate(&s, 0);
	VT_ASSERT_EQ(drmSyncobjWait(s.d.fd, h, 2, vt_deadline(VT_TIMEOUT_MS),
				DRM_SYNCOBJ_WAIT_FLAGS_WAIT_ALL, NULL), 0);
}

struct late_submit {
	struct vt_work *s;
	__u32 h;
};

static void *submit_later(void *arg)
{
	struct late_submit *l = arg;
	struct drm_vaccel_sync out = { .handle = l->h };

	vt_sleep_ms(100);
	job_now(l->s, &out);
	return NULL;
}

VTEST(wait_for_submit)
{
	struct vt_work s = sx_open();
	struct late_submit l = { .s = &s, .h = vt_syncobj(s.d.fd) };
	pthread_t t;
	__u64 t0;

	VT_ASSERT_EQ(pthread_create(&t, NULL, submit_later, &l), 0);
	t0 = vt_now_ns();
	/* Blocks until the fence arrives (100 ms), then until it signals. */
	VT_ASSERT_EQ(drmSyncobjWait(s.d.fd, &l.h, 1, vt_deadline(VT_TIMEOUT_MS),
				DRM_SYNCOBJ_WAIT_FLAGS_WAIT_FOR_SUBMIT, NULL), 0);
	VT_ASSERT(vt_now_ns() - t0 >= 90 * VT_MS);
	pthread_join(t, NULL);
}

VTEST(timeouts)
{
	struct vt_work s = sx_open();
	__u32 h = vt_syncobj(s.d.fd);
	struct drm_vaccel_sync out = { .handle = h };
	__u64 t0;

	job_gated(&s, 0, &out);
	/* A deadline in the past: at once.  In the future: not before it. */
	t0 = vt_now_ns();
	VT_ASSERT_EQ(drmSyncobjWait(s.d.fd, &h, 1, 1, 0, NULL), -ETIME);
	VT_ASSERT(vt_now_ns() - t0 < 1000 * VT_MS);
	t0 = vt_now_ns();
	VT_ASSERT_EQ(drmSyncobjWait(s.d.fd, &h, 1, vt_deadline(100), 0, NULL), -ETIME);
	VT_ASSERT(vt_now_ns() - t0 >= 95 * VT_MS);
	open_gate(&s, 0);
	VT_ASSERT_EQ(drmSyncobjWait(s.d.fd, &h, 1, vt_deadline(VT_TIMEOUT_MS), 0, NULL), 0);
}

VTEST(timeline_points_and_query)
{
	struct vt_work s = sx_open();
	__u32 h = vt_syncobj(s.d.fd);
	struct drm_vaccel_sync p1 = { .handle = h, .point = 1 };
	struct drm_vaccel_sync p2 = { .handle = h, .point = 2 };

	VT_ASSERT_EQ(query(s.d.fd, h, 0), 0);
	job_gated(&s, 0, &p1);
	job_now(&s, &p2);
	/* Submitted but not signalled: LAST_SUBMITTED says 2, the other 0. */
	VT_ASSERT_EQ(query(s.d.fd, h, DRM_SYNCOBJ_QUERY_FLAGS_LAST_SUBMITTED), 2);
	VT_ASSERT_EQ(query(s.d.fd, h, 0), 0);
	VT_ASSERT_EQ(tl_wait(s.d.fd, h, 2, vt_deadline(50), 0), -ETIME);
	VT_ASSERT_EQ(tl_wait(s.d.fd, h, 2, 0, DRM_SYNCOBJ_WAIT_FLAGS_WAIT_AVAILABLE), 0);
	/* Point 3 has no fence: WAIT_FOR_SUBMIT times out, without it -EINVAL. */
	VT_ASSERT_EQ(tl_wait(s.d.fd, h, 3, vt_deadline(20), DRM_SYNCOBJ_WAIT_FLAGS_WAIT_FOR_SUBMIT),
		     -ETIME);
	VT_ASSERT_EQ(tl_wait(s.d.fd, h, 3, 0, 0), -EINVAL);
	open_gate(&s, 0);
	VT_ASSERT_EQ(tl_wait(s.d.fd, h, 2, vt_deadline(VT_TIMEOUT_MS), 0), 0);
	VT_ASSERT_EQ(query(s.d.fd, h, 0), 2);

	/* A CPU signal of point 5 moves the timeline on. */
	{
		uint64_t point = 5;

		VT_ASSERT_OK(drmSyncobjTimelineSignal(s.d.fd, &h, &point, 1));
	}
	VT_ASSERT_EQ(query(s.d.fd, h, 0), 5);
	VT_ASSERT_EQ(tl_wait(s.d.fd, h, 4, 0, 0), 0);
}

VTEST(transfer_binary_timeline)
{
	struct vt_work s = sx_open();
	__u32 bin = vt_syncobj(s.d.fd), tl = vt_syncobj(s.d.fd), bin2 = vt_syncobj(s.d.fd);
	struct drm_vaccel_sync out = { .handle = bin };

	job_gated(&s, 0, &out);
	/* The binary fence becomes point 7 of the timeline. */
	VT_ASSERT_OK(drmSyncobjTransfer(s.d.fd, tl, 7, bin, 0, 0));
	VT_ASSERT_EQ(query(s.d.fd, tl, DRM_SYNCOBJ_QUERY_FLAGS_LAST_SUBMITTED), 7);
	VT_ASSERT_EQ(tl_wait(s.d.fd, tl, 7, vt_deadline(20), 0), -ETIME);
	/* And back: point 7 into another binary syncobj. */
	VT_ASSERT_OK(drmSyncobjTransfer(s.d.fd, bin2, 0, tl, 7, 0));
	VT_ASSERT_EQ(drmSyncobjWait(s.d.fd, &bin2, 1, vt_deadline(20), 0, NULL), -ETIME);
	open_gate(&s, 0);
	VT_ASSERT_EQ(tl_wait(s.d.fd, tl, 7, vt_deadline(VT_TIMEOUT_MS), 0), 0);
	VT_ASSERT_EQ(drmSyncobjWait(s.d.fd, &bin2, 1, vt_deadline(VT_TIMEOUT_MS), 0, NULL), 0);
	VT_ASSERT_EQ(query(s.d.fd, tl, 0), 7);
}

VTEST(sync_file_export_import)
{
	struct vt_work s = sx_open();
	__u32 h = vt_syncobj(s.d.fd), h2 = vt_syncobj(s.d.fd), empty = vt_syncobj(s.d.fd);
	struct drm_vaccel_sync out = { .handle = h };
	int sfd;

	/* No fence, no sync_file. */
	VT_ASSERT_EQ(vt_sync_file_raw(s.d.fd, empty), -1);
	VT_ASSERT_EQ(errno, EINVAL);

	job_gated(&s, 0, &out);
	sfd = vt_sync_file(s.d.fd, h);
	VT_ASSERT_EQ(vt_sync_file_status(sfd), 0);
	VT_ASSERT(!vt_sync_file_wait(sfd, 20));
	/* Imported into another syncobj: it waits for the same job. */
	VT_ASSERT_OK(drmSyncobjImportSyncFile(s.d.fd, h2, sfd));
	VT_ASSERT_EQ(drmSyncobjWait(s.d.fd, &h2, 1, vt_deadline(20), 0, NULL), -ETIME);
	open_gate(&s, 0);
	VT_ASSERT(vt_sync_file_wait(sfd, VT_TIMEOUT_MS));
	VT_ASSERT_EQ(vt_sync_file_status(sfd), 1);
	VT_ASSERT_EQ(drmSyncobjWait(s.d.fd, &h2, 1, vt_deadline(VT_TIMEOUT_MS), 0, NULL), 0);
	close(sfd);
}

VTEST(syncobj_fd_between_files)
{
	struct vt_work s = sx_open();
	int fd2 = vt_open_first();
	__u32 h = vt_syncobj(s.d.fd), h2 = 0;
	struct drm_vaccel_sync out = { .handle = h };
	int sofd = -1;

	VT_ASSERT_OK(drmSyncobjHandleToFD(s.d.fd, h, &sofd));
	VT_ASSERT_OK(drmSyncobjFDToHandle(fd2, sofd, &h2));
	close(sofd);
	/* The same syncobj: a fence put in through one file shows in the other. */
	job_gated(&s, 0, &out);
	VT_ASSERT_EQ(drmSyncobjWait(fd2, &h2, 1, vt_deadline(20), 0, NULL), -ETIME);
	open_gate(&s, 0);
	VT_ASSERT_EQ(drmSyncobjWait(fd2, &h2, 1, vt_deadline(VT_TIMEOUT_MS), 0, NULL), 0);
	close(fd2);
}

/*
 * DRM_IOCTL_SYNCOBJ_EVENTFD (Linux 6.6) is newer than Debian 12's libdrm
 * headers: its layout, from the kernel's uapi.
 */
struct vt_syncobj_eventfd {
	__u32 handle;
	__u32 flags;
	__u64 point;
	__s32 fd;
	__u32 pad;
};

#define VT_IOCTL_SYNCOBJ_EVENTFD	DRM_IOWR(0xCF, struct vt_syncobj_eventfd)

VTEST(eventfd_on_point)
{
	struct vt_work s = sx_open();
	__u32 h = vt_syncobj(s.d.fd);
	struct drm_vaccel_sync p3 = { .handle = h, .point = 3 };
	int efd = eventfd(0, EFD_CLOEXEC);
	struct vt_syncobj_eventfd e = { .handle = h, .point = 3, .fd = efd };
	struct pollfd pfd = { .fd = efd, .events = POLLIN };

	VT_ASSERT(efd >= 0);
	VT_ASSERT_OK(ioctl(s.d.fd, VT_IOCTL_SYNCOBJ_EVENTFD, &e));
	job_gated(&s, 0, &p3);
	VT_ASSERT_EQ(poll(&pfd, 1, 20), 0);
	open_gate(&s, 0);
	VT_ASSERT_EQ(poll(&pfd, 1, VT_TIMEOUT_MS), 1);
	close(efd);
}

/* A job that faults signals its fence with the error; a wait succeeds. */
VTEST(error_reaches_sync_file_not_wait)
{
	struct vt_work s = sx_open();
	__u32 h = vt_syncobj(s.d.fd);
	struct drm_vaccel_sync out = { .handle = h };
	int sfd, st;

	vt_pkt_write32(&s.c, vt_va_hole(&s.d), 1);
	VT_ASSERT_OK(vt_submit_raw(s.d.fd, s.ctx, vt_cmd_va(&s.c), vt_cmd_size(&s.c),
				   NULL, 0, &out, 1));
	VT_ASSERT_EQ(drmSyncobjWait(s.d.fd, &h, 1, vt_deadline(VT_TIMEOUT_MS), 0, NULL), 0);
	sfd = vt_sync_file(s.d.fd, h);
	st = vt_sync_file_status(sfd);
	VT_ASSERT_EQ(st, -EFAULT);
	close(sfd);
}

VTEST(bad_arguments)
{
	struct vt_work s = sx_open();
	__u32 h = vt_syncobj(s.d.fd), bogus = 0xdead;

	VT_ASSERT_EQ(drmSyncobjWait(s.d.fd, &h, 1, 0, 1u << 31, NULL), -EINVAL);
	/* An empty wait has nothing to wait for: it succeeds at once. */
	VT_ASSERT_EQ(drmSyncobjWait(s.d.fd, &h, 0, 0, 0, NULL), 0);
	VT_ASSERT_EQ(drmSyncobjWait(s.d.fd, &bogus, 1, 0, 0, NULL), -ENOENT);
	{
		struct drm_vaccel_sync in = { .handle = bogus };

		vt_pkt_nop(&s.c, 1);
		VT_ASSERT_ERRNO(vt_submit_raw(s.d.fd, s.ctx, vt_cmd_va(&s.c),
					      vt_cmd_size(&s.c), &in, 1, NULL, 0), ENOENT);
	}
}

VTEST_MAIN()
