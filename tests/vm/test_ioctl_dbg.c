// SPDX-License-Identifier: MIT
/*
 * Copyright 2026 The vaccel authors
 *
 * test_ioctl_dbg.c - every refusal of an ioctl says why under drm.debug
 * (VACCEL_IOCTL_DBG() of vaccel_drv.h): with the DRIVER category on
 * (/sys/module/drm/parameters/debug bit 0x2), a bad argument to each vaccel
 * ioctl leaves one kernel log line that names the function and the
 * condition that refused it; with drm.debug off, the log stays quiet.  The
 * cases restore drm.debug to its value before them, whatever happens.
 *
 * Needs root (the drm.debug parameter, /dev/kmsg).
 */
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/wait.h>

#include "vt_exec.h"
#include "vt_mem.h"

#define DRM_DEBUG_PARAM	"/sys/module/drm/parameters/debug"
#define DRM_UT_DRIVER	0x2

static void debug_write(const char *text)
{
	int fd = open(DRM_DEBUG_PARAM, O_WRONLY);

	if (fd < 0)
		vtest_fail(__FILE__, __LINE__, "%s: %s", DRM_DEBUG_PARAM, strerror(errno));
	if (write(fd, text, strlen(text)) != (ssize_t)strlen(text))
		vtest_fail(__FILE__, __LINE__, "write %s: %s", DRM_DEBUG_PARAM,
			   strerror(errno));
	close(fd);
}

/* Sets drm.debug to @mask, remembering what it was in @saved. */
static void debug_set(unsigned long mask, char *saved, size_t size)
{
	char buf[32];
	int fd = open(DRM_DEBUG_PARAM, O_RDONLY);
	ssize_t n;

	if (fd < 0)
		vtest_fail(__FILE__, __LINE__, "%s: %s", DRM_DEBUG_PARAM, strerror(errno));
	n = read(fd, saved, size - 1);
	close(fd);
	VT_ASSERT(n > 0);
	saved[n] = '\0';
	saved[strcspn(saved, "\n")] = '\0';
	snprintf(buf, sizeof(buf), "0x%lx", mask);
	debug_write(buf);
}

/*
 * Runs @fn in a child process with drm.debug at @mask, then gives drm.debug
 * its value back, however the child ended (a failed assertion ends it with
 * _exit()).
 */
static void with_drm_debug(unsigned long mask, void (*fn)(void))
{
	char saved[32];
	pid_t pid;
	int st;

	debug_set(mask, saved, sizeof(saved));
	fflush(NULL);
	pid = fork();
	if (!pid) {
		fn();
		fflush(NULL);
		_exit(0);
	}
	VT_ASSERT(pid > 0 && waitpid(pid, &st, 0) == pid);
	debug_write(saved);
	if (!WIFEXITED(st) || WEXITSTATUS(st))
		vtest_fail(__FILE__, __LINE__, "failed with drm.debug 0x%lx (above)", mask);
}

/* /dev/kmsg, positioned after every record logged so far. */
static int kmsg_open(void)
{
	int fd = open("/dev/kmsg", O_RDONLY | O_NONBLOCK | O_CLOEXEC);

	if (fd < 0)
		vtest_fail(__FILE__, __LINE__, "/dev/kmsg: %s", strerror(errno));
	VT_ASSERT(lseek(fd, 0, SEEK_END) >= 0);
	return fd;
}

/*
 * The records logged since the last call, their messages joined by
 * newlines into @buf.
 */
static void kmsg_read(int fd, char *buf, size_t size)
{
	char rec[8192];
	size_t used = 0;
	ssize_t n;

	buf[0] = '\0';
	for (;;) {
		const char *msg;
		size_t len;

		n = read(fd, rec, sizeof(rec) - 1);
		if (n < 0 && errno == EPIPE)	/* overwritten: go on */
			continue;
		if (n <= 0)
			break;
		rec[n] = '\0';
		msg = strchr(rec, ';');
		msg = msg ? msg + 1 : rec;
		len = strcspn(msg, "\n");
		if (used + len + 2 > size)
			break;
		memcpy(buf + used, msg, len);
		used += len;
		buf[used++] = '\n';
		buf[used] = '\0';
	}
}

/*
 * One refusal: @call fails with @err, and the log then holds a line of
 * vaccel's naming @func and containing @cond, the text of the check.
 */
struct refusal {
	const char *what;
	int err;
	const char *func;
	const char *cond;
};

/* Set in the child that runs with drm.debug off: no message expected. */
static bool expect_quiet;

static int expect_refusal(int kmsg, int ret, const struct refusal *r,
			  char *why, size_t why_size)
{
	static char log[1 << 16];
	int err = errno;	/* the call's, before reading the log */
	char want[256];
	const char *line;

	kmsg_read(kmsg, log, sizeof(log));
	if (ret != -1 || err != r->err) {
		snprintf(why, why_size, "%s: returned %d/%s, expected %s", r->what, ret,
			 strerror(err), strerror(r->err));
		return 1;
	}
	if (expect_quiet) {
		if (!strstr(log, "ioctl check failed"))
			return 0;
		snprintf(why, why_size, "%s: a message with drm.debug off:\n%s", r->what, log);
		return 1;
	}
	snprintf(want, sizeof(want), " %s(): ioctl check failed: ", r->func);
	for (line = log; (line = strstr(line, want)); line++) {
		const char *end = strchr(line, '\n');
		const char *c = strstr(line, r->cond);

		if (c && (!end || c < end))
			return 0;
	}
	snprintf(why, why_size, "%s: no line with \"%s%s\" in the log:\n%s", r->what,
		 want, r->cond, log);
	return 1;
}

/* A fresh file with a context, a BO and a syncobj to misuse. */
struct bad {
	struct vt_dev d;
	__u32 ctx;
	struct vt_bo bo;
	__u32 no_mmap;
};

static struct bad bad_open(void)
{
	struct bad b;

	b.d = vt_dev_open();
	b.ctx = vt_ctx_create(b.d.fd, DRM_VACCEL_ENGINE_CLASS_COMPUTE, DRM_VACCEL_ENGINE_ANY);
	b.bo = vt_bo_new(&b.d, VT_PAGE);
	b.no_mmap = vt_bo_create(b.d.fd, VT_PAGE, DRM_VACCEL_BO_NO_MMAP);
	return b;
}

/* Runs every refusal below; returns how many failed, the first in @why. */
static int refusals(struct bad *b, int kmsg, char *why, size_t why_size)
{
	struct drm_vaccel_device_info info;
	struct drm_vaccel_sync syncs[DRM_VACCEL_MAX_SYNCS + 1] = {};
	struct drm_vaccel_sync ghost = { .handle = 0x7fff0000 };
	struct drm_vaccel_bo_info bi = { .handle = b->bo.handle, .pad = 1 };
	struct drm_vaccel_context_state st;
	struct drm_vaccel_vm_bind_op op;
	char tmp[4096];
	int fd = b->d.fd, failed = 0, ret;
	__u32 size, h;

#define REFUSE(call, e, fn, c)						\
	do {								\
		const struct refusal _r = { #call, e, fn, c };		\
		errno = 0;						\
		ret = (call);						\
		if (expect_refusal(kmsg, ret, &_r, failed ? tmp : why,	\
				   failed ? sizeof(tmp) : why_size))	\
			failed++;					\
	} while (0)

	/* QUERY */
	size = sizeof(info);
	REFUSE(vt_query_raw(fd, DRM_VACCEL_QUERY_DEVICE, &info, &size, 1, 0), EINVAL,
	       "vaccel_ioctl_query", "q->flags");
	size = sizeof(info);
	REFUSE(vt_query_raw(fd, 77, &info, &size, 0, 0), EINVAL,
	       "vaccel_ioctl_query", "q->type >= ARRAY_SIZE(vaccel_queries)");
	size = 8;
	REFUSE(vt_query_raw(fd, DRM_VACCEL_QUERY_DEVICE, &info, &size, 0, 0), EINVAL,
	       "vaccel_query_copy_out", "q->size < min_size");

	/* BO_CREATE, BO_MMAP_OFFSET, BO_INFO, mmap */
	REFUSE(vt_bo_create_raw(fd, 0, 0, &h, NULL), EINVAL,
	       "vaccel_ioctl_bo_create", "!args->size");
	REFUSE(vt_bo_create_raw(fd, VT_PAGE, 0x80, &h, NULL), EINVAL,
	       "vaccel_ioctl_bo_create", "args->flags & ~VACCEL_BO_CREATE_FLAGS");
	REFUSE(vt_bo_create_raw(fd, b->d.info.max_bo_size + 1, 0, &h, NULL), E2BIG,
	       "vaccel_ioctl_bo_create", "args->size > VACCEL_MAX_BO_SIZE");
	REFUSE(vt_bo_mmap_offset_raw(fd, 0x7fff0000, NULL), ENOENT,
	       "vaccel_ioctl_bo_mmap_offset", "!obj");
	REFUSE(vt_bo_mmap_offset_raw(fd, b->no_mmap, NULL), EPERM,
	       "vaccel_ioctl_bo_mmap_offset", "DRM_VACCEL_BO_NO_MMAP");
	REFUSE(ioctl(fd, DRM_IOCTL_VACCEL_BO_INFO, &bi), EINVAL,
	       "vaccel_ioctl_bo_info", "args->pad");

	/* VM_BIND */
	REFUSE(vt_vm_bind_full(fd, NULL, sizeof(op), 0, 1, 0), EINVAL,
	       "vaccel_ioctl_vm_bind", "args->flags");
	op = vt_op_map(b->bo.handle, 0, b->bo.va + 100, VT_PAGE, 0);
	REFUSE(vt_vm_bind_raw(fd, &op, 1), EINVAL,
	       "vaccel_bind_check_op", "!PAGE_ALIGNED(a->va)");
	op = vt_op_map(b->bo.handle, VT_PAGE, vt_va_hole(&b->d), VT_PAGE, 0);
	REFUSE(vt_vm_bind_raw(fd, &op, 1), EINVAL,
	       "vaccel_bind_check_op", "a->size > obj->size - a->bo_offset");
	op = vt_op_map(0x7fff0000, 0, vt_va_hole(&b->d), VT_PAGE, 0);
	REFUSE(vt_vm_bind_raw(fd, &op, 1), ENOENT, "vaccel_bind_check_op", "!obj");
	op = vt_op_map(b->bo.handle, 0, b->bo.va, VT_PAGE, 0);
	REFUSE(vt_vm_bind_raw(fd, &op, 1), EEXIST,
	       "vaccel_bind_check_free", "!vaccel_effects_free(");
	op = vt_op_unmap(b->bo.va, VT_PAGE);
	op.op = 9;
	REFUSE(vt_vm_bind_raw(fd, &op, 1), EINVAL,
	       "vaccel_bind_check_op", "a->op != DRM_VACCEL_VM_BIND_OP_MAP");
	REFUSE(vt_vm_bind_full(fd, &op, 4, 1, 0, 0), EINVAL,
	       "vaccel_bind_copy_ops", "arr->stride < sizeof(ops->args)");

	/* CONTEXT_CREATE, CONTEXT_DESTROY, CONTEXT_STATE */
	REFUSE(vt_ctx_create_raw(fd, DRM_VACCEL_ENGINE_CLASS_PAGING, DRM_VACCEL_ENGINE_ANY,
				 DRM_VACCEL_PRIORITY_NORMAL, 0, 0, &h), EINVAL,
	       "vaccel_ioctl_context_create",
	       "args->engine_class != DRM_VACCEL_ENGINE_CLASS_COMPUTE");
	REFUSE(vt_ctx_create_raw(fd, DRM_VACCEL_ENGINE_CLASS_COMPUTE, 99,
				 DRM_VACCEL_PRIORITY_NORMAL, 0, 0, &h), EINVAL,
	       "vaccel_ioctl_context_create", "!engine");
	REFUSE(vt_ctx_create_raw(fd, DRM_VACCEL_ENGINE_CLASS_COMPUTE, DRM_VACCEL_ENGINE_ANY,
				 DRM_VACCEL_PRIORITY_REALTIME + 1, 0, 0, &h), EINVAL,
	       "vaccel_ioctl_context_create", "args->priority > DRM_VACCEL_PRIORITY_REALTIME");
	REFUSE(vt_ctx_destroy_raw(fd, 0x7fff0000, 0), ENOENT,
	       "vaccel_ioctl_context_destroy", "!ctx");
	REFUSE(vt_ctx_state_raw(fd, b->ctx, 1, &st), EINVAL,
	       "vaccel_ioctl_context_state", "args->pad");

	/* SUBMIT and its syncobj arrays */
	REFUSE(vt_submit_raw(fd, b->ctx, b->bo.va + 4, 8, NULL, 0, NULL, 0), EINVAL,
	       "vaccel_ioctl_submit", "args->buffer_va % 8");
	REFUSE(vt_submit_raw(fd, b->ctx, b->bo.va, 0, NULL, 0, NULL, 0), EINVAL,
	       "vaccel_ioctl_submit", "!args->buffer_size");
	REFUSE(vt_submit_raw(fd, 0x7fff0000, b->bo.va, 8, NULL, 0, NULL, 0), ENOENT,
	       "vaccel_ioctl_submit", "!ctx");
	REFUSE(vt_submit_raw(fd, b->ctx, b->bo.va, 8, syncs, DRM_VACCEL_MAX_SYNCS + 1,
			     NULL, 0), E2BIG,
	       "vaccel_submit_copy_syncs", "arr->count > DRM_VACCEL_MAX_SYNCS");
	REFUSE(vt_submit_raw(fd, b->ctx, b->bo.va, 8, &ghost, 1, NULL, 0), ENOENT,
	       "vaccel_submit_begin", "ret");
	REFUSE(vt_submit_raw(fd, b->ctx, b->bo.va, 8, NULL, 0, &ghost, 1), ENOENT,
	       "vaccel_submit_prepare_signals", "!signals[i].syncobj");
	ghost.flags = 1;
	REFUSE(vt_submit_raw(fd, b->ctx, b->bo.va, 8, NULL, 0, &ghost, 1), EINVAL,
	       "vaccel_submit_copy_syncs", "syncs[i].flags");
#undef REFUSE
	return failed;
}

/* Every ioctl's refusals are explained under drm.debug's DRIVER category. */
static void refusals_explained_fn(void)
{
	struct bad b = bad_open();
	static char why[1 << 16];
	int kmsg = kmsg_open(), failed;

	failed = refusals(&b, kmsg, why, sizeof(why));
	if (failed)
		vtest_fail(__FILE__, __LINE__, "%d refusals not explained; first: %s",
			   failed, why);
	close(kmsg);
	vt_ctx_destroy(b.d.fd, b.ctx);
	vt_dev_close(&b.d);
}

VTEST(refusals_explained)
{
	with_drm_debug(DRM_UT_DRIVER, refusals_explained_fn);
}

/*
 * A banned context's SUBMIT says why; so does the mmap of a BO that the
 * CPU may not map (mmap(2) of the device file, not an ioctl).
 */
static void banned_and_no_mmap_fn(void)
{
	struct bad b = bad_open();
	struct vt_cmd c = vt_cmd_new(&b.d, VT_PAGE);
	const struct refusal r = { "SUBMIT to a banned context", ECANCELED,
				   "vaccel_ioctl_submit", "READ_ONCE(ctx->cancelled)" };
	static char why[1 << 16];
	__u32 o = vt_syncobj(b.d.fd);
	int kmsg = kmsg_open(), ret;
	void *p;

	/* A write to an unmapped address faults the context, which is banned. */
	vt_pkt_write32(&c, vt_va_hole(&b.d), 1);
	vt_submit(b.d.fd, b.ctx, &c, 0, o);
	VT_ASSERT_OK(vt_syncobj_wait_ms(b.d.fd, o, 30000));
	VT_ASSERT_EQ(vt_fence_status(b.d.fd, o), -EFAULT);
	kmsg_read(kmsg, why, sizeof(why));
	errno = 0;
	ret = vt_submit_raw(b.d.fd, b.ctx, c.bo.va, 8, NULL, 0, NULL, 0);
	if (expect_refusal(kmsg, ret, &r, why, sizeof(why)))
		vtest_fail(__FILE__, __LINE__, "%s", why);

	/*
	 * mmap(2) of a dma-buf exported from a NO_MMAP BO is refused by
	 * the GEM mmap hook.
	 */
	ret = vt_prime_export(b.d.fd, b.no_mmap);
	VT_ASSERT(ret >= 0);
	p = mmap(NULL, VT_PAGE, PROT_READ, MAP_SHARED, ret, 0);
	VT_ASSERT(p == MAP_FAILED && errno == EPERM);
	close(ret);
	kmsg_read(kmsg, why, sizeof(why));
	if (!strstr(why, " vaccel_gem_mmap(): ioctl check failed: bo->flags & DRM_VACCEL_BO_NO_MMAP"))
		vtest_fail(__FILE__, __LINE__, "no message for the mmap:\n%s", why);
	close(kmsg);
	drmSyncobjDestroy(b.d.fd, o);
	vt_ctx_destroy(b.d.fd, b.ctx);
	vt_dev_close(&b.d);
}

VTEST(banned_and_no_mmap_explained)
{
	with_drm_debug(DRM_UT_DRIVER, banned_and_no_mmap_fn);
}

/* With drm.debug off, the default, refusals leave the log quiet. */
static void quiet_fn(void)
{
	struct bad b = bad_open();
	static char why[1 << 16];
	int kmsg = kmsg_open(), failed;

	expect_quiet = true;
	failed = refusals(&b, kmsg, why, sizeof(why));
	if (failed)
		vtest_fail(__FILE__, __LINE__, "%d refusals wrong; first: %s", failed, why);
	close(kmsg);
	vt_ctx_destroy(b.d.fd, b.ctx);
	vt_dev_close(&b.d);
}

VTEST(quiet_without_drm_debug)
{
	with_drm_debug(0, quiet_fn);
}

VTEST_MAIN()
