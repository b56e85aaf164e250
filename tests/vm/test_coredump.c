// SPDX-License-Identifier: MIT
/*
 * Copyright 2026 The vaccel authors
 *
 * test_coredump.c - device coredumps: every kind of event is dumped, the
 * dump holds what happened, and vaccel-coredump decodes it.
 *
 * Each case causes one event on device 0 (a kernel's store to an unmapped
 * address, a malformed packet, a WAIT_MEM that hangs, a kernel that loops
 * for ever, an engine reset of a busy and of an idle engine, a device
 * reset, a buffer stopped at its time limit), waits for the dump to appear
 * under /sys/class/devcoredump, and checks it twice: field by field with
 * the structures of <drm/vaccel_coredump.h>, and in the text of
 * /vaccel/bin/vaccel-coredump run on a copy of it.  Then it clears the dump
 * as vaccel-coredump -c does, and the dump must be gone.
 *
 * The bounds: with a dump pending, further events are dropped and counted
 * in debugfs coredump, the next dump after clearing says how many; the
 * module parameter coredump=0 turns capture off.  Robustness: the decoder
 * refuses every truncation of a real dump, and a dump with corrupt sizes,
 * with a message and exit status 1.  Lifetimes (named cases, each on a load
 * of its own): unbinding the device, and unloading the module, with a dump
 * pending, leave nothing behind (KASAN and kmemleak watch on the debug
 * kernel).
 *
 * The plan runs the unnamed cases with timeout_ms=300, time_limit_dumped
 * with time_limit_ms=1000, and unbind_with_dump_pending and
 * unload_with_dump_pending on the default load.  Needs root (debugfs,
 * sysfs), two COMPUTE engines and a COPY engine.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <fcntl.h>
#include <limits.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include <drm/vaccel_coredump.h>

#include "vt_exec.h"
#include "vt_module.h"

#define COMPUTE		DRM_VACCEL_ENGINE_CLASS_COMPUTE
#define COPY		DRM_VACCEL_ENGINE_CLASS_COPY

#define DEVCD		"/sys/class/devcoredump"
#define DECODER		"/vaccel/bin/vaccel-coredump"
#define PARAM		"/sys/module/vaccel/parameters/coredump"
/* A devcdN directory's path. */
#define DIR_LEN		64
/* A dump appears once a worker has formatted it: allow for a slow VM. */
#define DUMP_WAIT_MS	10000

/* --- a few RV64 instructions --- */

enum { ZERO, RA, SP, GP, TP, T0, T1, T2, S0, S1, A0, A1 };

#define rv_i(op, rd, f3, rs1, imm) \
	((((__u32)(imm) & 0xfff) << 20) | ((rs1) << 15) | ((f3) << 12) | ((rd) << 7) | (op))
#define rv_s(op, f3, rs1, rs2, imm) \
	(((((__u32)(imm) >> 5) & 0x7f) << 25) | ((rs2) << 20) | ((rs1) << 15) | \
	 ((f3) << 12) | (((__u32)(imm) & 0x1f) << 7) | (op))
#define ADDI(rd, rs, imm)	rv_i(0x13, rd, 0, rs, imm)
#define LD(rd, rs, imm)		rv_i(0x03, rd, 3, rs, imm)
#define SW(rs2, rs1, imm)	rv_s(0x23, 2, rs1, rs2, imm)
#define RET			rv_i(0x67, 0, 0, RA, 0)
#define J_SELF			0x0000006fu	/* jal zero, 0 */

/* --- the fixture --- */

struct fx {
	struct vt_dev d;
	struct vt_cmd c;
	struct vt_bo code;
	struct vt_bo args;
	struct vt_bo data;
	unsigned int device;
};

static struct fx fx_open(void)
{
	struct fx f;

	f.d = vt_dev_open();
	VT_REQUIRE_ENGINES(&f.d, COMPUTE, 2);
	VT_REQUIRE_ENGINES(&f.d, COPY, 1);
	f.c = vt_cmd_new(&f.d, 64 * VT_KIB);
	f.code = vt_bo_new(&f.d, 4 * VT_KIB);
	f.args = vt_bo_new(&f.d, 4 * VT_KIB);
	f.data = vt_bo_new(&f.d, 64 * VT_KIB);
	f.device = f.d.info.device_index;
	return f;
}

/* Closes the file, its BOs' CPU mappings included, which keep it open. */
static void fx_close(struct fx *f)
{
	vt_bo_cpu_unmap(&f->c.bo);
	vt_bo_cpu_unmap(&f->code);
	vt_bo_cpu_unmap(&f->args);
	vt_bo_cpu_unmap(&f->data);
	vt_dev_close(&f->d);
}

static __u32 submit_out(struct fx *f, __u32 ctx)
{
	__u32 o = vt_syncobj(f->d.fd);

	vt_submit(f->d.fd, ctx, &f->c, 0, o);
	return o;
}

/* Runs a small buffer on @ctx's engine: after a hang, the engine recovered. */
static void engine_proven(struct fx *f, __u32 engine_class, __u32 instance)
{
	__u32 ctx = vt_ctx_create(f->d.fd, engine_class, instance);

	vt_pkt_write32(&f->c, f->data.va + 0x800, 0x600d);
	vt_run(f->d.fd, ctx, &f->c);
	vt_ctx_destroy(f->d.fd, ctx);
}

/* --- pending dumps in sysfs --- */

/* The devcdN directory of device @device's pending dump, or -ENOENT. */
static int dump_dir(unsigned int device, char *dir, size_t len)
{
	char name[64];
	int ret = vt_class_entry_of(DEVCD, "devcd", "failing_device", (int)device,
				    name, sizeof(name));

	if (!ret && snprintf(dir, len, DEVCD "/%s", name) >= (int)len)
		ret = -ENOENT;
	return ret;
}

/* Clears the pending dump in @dir and waits until it has left sysfs. */
static void clear_dir(const char *dir)
{
	char path[PATH_MAX];
	unsigned int ms;

	snprintf(path, sizeof(path), "%s/data", dir);
	VT_ASSERT_OK(vt_write_str(path, "1"));
	for (ms = 0; ms < DUMP_WAIT_MS; ms += 5) {
		if (access(dir, F_OK))
			return;
		vt_sleep_ms(5);
	}
	vtest_fail(__FILE__, __LINE__, "%s still there %u ms after clearing", dir,
		   DUMP_WAIT_MS);
}

/* No dump of the device is pending (one left by an earlier test is cleared). */
static void clear_pending(unsigned int device)
{
	char dir[DIR_LEN];

	while (!dump_dir(device, dir, sizeof(dir)))
		clear_dir(dir);
}

/* A dump, read from sysfs. */
struct dump {
	unsigned char *data;
	size_t len;
	char dir[DIR_LEN];
	struct drm_vaccel_coredump_header h;
};

/* Waits for the device's dump and reads it. */
static struct dump wait_dump(unsigned int device)
{
	char path[PATH_MAX];
	struct dump d;
	unsigned int ms;

	memset(&d, 0, sizeof(d));
	for (ms = 0; dump_dir(device, d.dir, sizeof(d.dir)); ms += 5) {
		if (ms >= DUMP_WAIT_MS)
			vtest_fail(__FILE__, __LINE__, "no dump of vaccel.%u after %u ms",
				   device, DUMP_WAIT_MS);
		vt_sleep_ms(5);
	}
	snprintf(path, sizeof(path), "%s/data", d.dir);
	d.data = (unsigned char *)vt_read_file_try(path, &d.len);
	if (!d.data)
		vtest_fail(__FILE__, __LINE__, "read %s: %s", path, strerror(errno));
	VT_ASSERT(d.len >= sizeof(d.h));
	memcpy(&d.h, d.data, sizeof(d.h));
	VT_ASSERT_EQ(d.h.magic, DRM_VACCEL_COREDUMP_MAGIC);
	VT_ASSERT_EQ(d.h.version, DRM_VACCEL_COREDUMP_VERSION);
	VT_ASSERT_EQ(d.h.header_size, sizeof(d.h));
	VT_ASSERT_EQ(d.h.total_size, d.len);
	VT_ASSERT_EQ(d.h.device_index, device);
	return d;
}

/* No dump of the device appears within @ms. */
static void expect_no_dump(unsigned int device, unsigned int ms)
{
	char dir[DIR_LEN];

	vt_sleep_ms(ms);
	if (!dump_dir(device, dir, sizeof(dir)))
		vtest_fail(__FILE__, __LINE__, "unexpected dump %s", dir);
}

static void dump_free(struct dump *d)
{
	free(d->data);
	d->data = NULL;
}

/*
 * The @i-th entry of the section of @type, which must hold @count entries
 * of @size bytes (count -1: any, returned in *@n); NULL if there is no
 * such section and @count is 0.  The sections must tile the dump exactly.
 */
static const void *section(const struct dump *d, __u32 type, long long count,
			   size_t size, __u32 *n)
{
	const unsigned char *found = NULL;
	size_t off = d->h.header_size;
	__u32 i, got = 0;

	for (i = 0; i < d->h.num_sections; i++) {
		struct drm_vaccel_coredump_section s;

		VT_ASSERT(off + sizeof(s) <= d->len);
		memcpy(&s, d->data + off, sizeof(s));
		VT_ASSERT_EQ(s.size, sizeof(s) + (__u64)s.count * s.entry_size);
		VT_ASSERT(off + s.size <= d->len);
		if (s.type == type) {
			if (found)
				vtest_fail(__FILE__, __LINE__, "two sections of type %u", type);
			VT_ASSERT_EQ(s.entry_size, size);
			found = d->data + off + sizeof(s);
			got = s.count;
		}
		off += s.size;
	}
	VT_ASSERT_EQ(off, d->len);
	if (count >= 0 && got != count)
		vtest_fail(__FILE__, __LINE__, "%u entries in the section of type %u, not %lld",
			   got, type, count);
	if (n)
		*n = got;
	return found;
}

#define SECTION(d, type, T, count)	((const T *)section(d, type, count, sizeof(T), NULL))

/* --- the decoder --- */

/*
 * Runs vaccel-coredump with @a1 and @a2 (NULL: none); returns its exit
 * status, its standard output and error in *@out (malloc'ed).
 */
static int decoder(const char *a1, const char *a2, char **out)
{
	char tmpl[] = "/tmp/coredump-out.XXXXXX";
	int fd = mkstemp(tmpl), status;
	pid_t pid;

	VT_ASSERT(fd >= 0);
	pid = fork();
	VT_ASSERT(pid >= 0);
	if (!pid) {
		dup2(fd, 1);
		dup2(fd, 2);
		execl(DECODER, DECODER, a1, a2, (char *)NULL);
		_exit(127);
	}
	VT_ASSERT_EQ(waitpid(pid, &status, 0), pid);
	close(fd);
	*out = vt_read_file(tmpl);
	unlink(tmpl);
	VT_ASSERT(WIFEXITED(status));
	return WEXITSTATUS(status);
}

/* Saves the dump to a file and decodes it: exit 0; the text, malloc'ed. */
static char *decode(const struct dump *d)
{
	char tmpl[] = "/tmp/coredump.XXXXXX", *out;
	int fd = mkstemp(tmpl), st;

	VT_ASSERT(fd >= 0);
	VT_ASSERT_EQ(write(fd, d->data, d->len), (ssize_t)d->len);
	close(fd);
	st = decoder(tmpl, NULL, &out);
	unlink(tmpl);
	if (st)
		vtest_fail(__FILE__, __LINE__, "vaccel-coredump exited %d:\n%s", st, out);
	return out;
}

/* The decoded text has a line holding @want. */
#define EXPECT_TEXT(text, ...)						\
	do {								\
		char _want[512];					\
		snprintf(_want, sizeof(_want), __VA_ARGS__);		\
		if (!strstr(text, _want))				\
			vtest_fail(__FILE__, __LINE__, "no '%s' in:\n%s", _want, text); \
	} while (0)

/* --- what every dump of an event on one engine holds --- */

static void expect_device(const struct dump *d, struct fx *f)
{
	const struct drm_vaccel_coredump_device *dev =
		SECTION(d, DRM_VACCEL_COREDUMP_SECTION_DEVICE,
			struct drm_vaccel_coredump_device, 1);
	unsigned int i;

	VT_ASSERT_EQ(dev->device_index, f->device);
	VT_ASSERT_EQ(dev->uapi_major, DRM_VACCEL_UAPI_MAJOR);
	VT_ASSERT_EQ(dev->uapi_minor, DRM_VACCEL_UAPI_MINOR);
	VT_ASSERT_EQ(dev->num_engines, f->d.info.engines_total);
	for (i = 0; i < DRM_VACCEL_ENGINE_CLASS_COUNT; i++)
		VT_ASSERT_EQ(dev->engine_count[i], f->d.info.engine_count[i]);
	VT_ASSERT_EQ(dev->va_bits, f->d.info.va_bits);
	VT_ASSERT_EQ(dev->va_start, f->d.info.va_start);
	VT_ASSERT_EQ(dev->va_end, f->d.info.va_end);
	VT_ASSERT_EQ(dev->timeout_ns, f->d.info.hang_timeout_ns);
	VT_ASSERT_EQ(dev->time_limit_ns, f->d.info.time_limit_ns);
	VT_ASSERT(dev->kernel_release[0]);
}

/* The engine section: engine @e only; slot 0 ran @ctx's buffer at @va. */
static const struct drm_vaccel_coredump_engine *
expect_engine(const struct dump *d, unsigned int e, __u32 ctx, __u64 va, __u64 size)
{
	const struct drm_vaccel_coredump_engine *eng =
		SECTION(d, DRM_VACCEL_COREDUMP_SECTION_ENGINE,
			struct drm_vaccel_coredump_engine, 1);

	VT_ASSERT_EQ(d->h.engine_index, e);
	VT_ASSERT_EQ(eng->index, e);
	VT_ASSERT_EQ(eng->hw_queue_depth, 2);
	VT_ASSERT(eng->slots_used >= 1);
	VT_ASSERT(eng->flags & DRM_VACCEL_COREDUMP_ENGINE_RUNNING);
	VT_ASSERT_EQ(eng->slot[0].context, ctx);
	VT_ASSERT_EQ(eng->slot[0].buffer_va, va);
	VT_ASSERT_EQ(eng->slot[0].buffer_size, size);
	VT_ASSERT_EQ(eng->slot[0].priority, DRM_VACCEL_PRIORITY_NORMAL);
	return eng;
}

/* The context section: @ctx, created by this process, with @flags. */
static const struct drm_vaccel_coredump_context *
expect_context(const struct dump *d, struct fx *f, __u32 ctx, __u32 flags, __u32 ban)
{
	const struct drm_vaccel_coredump_context *c =
		SECTION(d, DRM_VACCEL_COREDUMP_SECTION_CONTEXT,
			struct drm_vaccel_coredump_context, 1);
	struct drm_vaccel_context_state s = vt_ctx_state(f->d.fd, ctx);

	VT_ASSERT_EQ(c->handle, ctx);
	if (c->flags != flags)
		vtest_fail(__FILE__, __LINE__, "context flags 0x%x, expected 0x%x", c->flags,
			   flags);
	VT_ASSERT_EQ(c->pid, getpid());
	VT_ASSERT(!strncmp(c->comm, "test_coredump", sizeof(c->comm)));
	VT_ASSERT_EQ(c->client_id, vt_client_id(f->d.fd));
	VT_ASSERT_EQ(c->engine_index, s.engine_index);
	VT_ASSERT_EQ(c->priority, DRM_VACCEL_PRIORITY_NORMAL);
	VT_ASSERT_EQ(c->ban_reason, ban);
	VT_ASSERT_EQ(c->error, ban ? -ECANCELED : 0);
	VT_ASSERT_EQ(c->jobs_submitted, s.jobs_submitted);
	return c;
}

/*
 * The buffer section: the buffer at @va of @size bytes stopped at @offset;
 * its excerpt is what the command BO holds there (@cpu: the buffer's
 * first byte in the BO).
 */
static const struct drm_vaccel_coredump_buffer *
expect_buffer(const struct dump *d, __u32 ctx, __u64 va, __u64 size, __u64 offset,
	      const unsigned char *cpu)
{
	const struct drm_vaccel_coredump_buffer *b =
		SECTION(d, DRM_VACCEL_COREDUMP_SECTION_BUFFER,
			struct drm_vaccel_coredump_buffer, 1);
	__u64 start = offset > 128 ? offset - 128 : 0;
	__u64 end = size < start + 256 ? size : start + 256, i;

	VT_ASSERT_EQ(b->context, ctx);
	VT_ASSERT_EQ(b->buffer_va, va);
	VT_ASSERT_EQ(b->buffer_size, size);
	VT_ASSERT_EQ(b->offset, offset);
	VT_ASSERT_EQ(b->excerpt_offset, start);
	VT_ASSERT_EQ(b->excerpt_size, end - start);
	for (i = 0; i < b->excerpt_size; i++)
		VT_ASSERT(b->excerpt_valid[i / 64] & (1ull << (i % 64)));
	VT_ASSERT(!memcmp(b->excerpt, cpu + start, end - start));
	VT_ASSERT(b->run_ns >= b->stall_ns);
	return b;
}

/* --- faults --- */

/*
 * A kernel's store to an unmapped address (the allocator's guard after the
 * data BO): a FAULT dump of compute engine 0 with the guilty context (its
 * fault record, its creator), the DISPATCH packet at its offset in the
 * excerpt, the dispatch and its one work-item (pc on the store, a1 the
 * address), and the page walk of the address ending on an entry that is
 * not present.  vaccel-coredump says the same.  Clearing it removes it.
 */
VTEST(fault_unmapped_store_dumped)
{
	static const __u32 k[] = { LD(A1, A0, 8), ADDI(T0, ZERO, 7), SW(T0, A1, 0), RET };
	struct fx f = fx_open();
	__u32 ctx = vt_ctx_create(f.d.fd, COMPUTE, 0), one[3] = { 1, 1, 1 }, o;
	__u64 entry = f.code.va, bad = f.data.va + f.data.size, off, va, size;
	const struct drm_vaccel_coredump_context *c;
	const struct drm_vaccel_coredump_buffer *b;
	const struct drm_vaccel_coredump_dispatch *x;
	const struct drm_vaccel_coredump_workitem *w;
	const struct drm_vaccel_coredump_page_walk *pw;
	const unsigned char *cpu;
	unsigned int e = vt_ctx_state(f.d.fd, ctx).engine_index, lvl;
	struct dump d;
	char *text;

	clear_pending(f.device);
	memcpy(f.code.cpu, k, sizeof(k));
	VT_U64(&f.args, 0) = 0;
	VT_U64(&f.args, 8) = bad;
	/* Packets before it, so that the excerpt starts inside the buffer. */
	vt_pkt_nop(&f.c, 20);
	vt_pkt_write32(&f.c, f.data.va, 1);
	off = vt_cmd_offset(&f.c);
	vt_pkt_dispatch(&f.c, entry, f.args.va, one, one, 0, 64);
	vt_pkt_write32(&f.c, f.data.va + 4, 1);
	va = vt_cmd_va(&f.c);
	size = vt_cmd_size(&f.c);
	cpu = f.c.bo.cpu + f.c.start;
	o = submit_out(&f, ctx);
	VT_ASSERT_EQ(vt_wait_status(f.d.fd, o), -EFAULT);

	d = wait_dump(f.device);
	VT_ASSERT_EQ(d.h.kind, DRM_VACCEL_COREDUMP_FAULT);
	VT_ASSERT(d.h.sequence >= 1);
	expect_device(&d, &f);
	expect_engine(&d, e, ctx, va, size);
	c = expect_context(&d, &f, ctx, DRM_VACCEL_COREDUMP_CONTEXT_GUILTY |
			   DRM_VACCEL_COREDUMP_CONTEXT_FAULTED |
			   DRM_VACCEL_COREDUMP_CONTEXT_BANNED, DRM_VACCEL_BAN_FAULT);
	VT_ASSERT_EQ(c->fault_va, bad);
	VT_ASSERT_EQ(c->fault_pc, entry + 8);
	VT_ASSERT_EQ(c->fault_offset, off);
	VT_ASSERT_EQ(c->fault_reason, DRM_VACCEL_FAULT_UNMAPPED);
	VT_ASSERT_EQ(c->fault_access, DRM_VACCEL_ACCESS_WRITE);
	b = expect_buffer(&d, ctx, va, size, off, cpu);
	VT_ASSERT(b->excerpt_offset > 0);

	x = SECTION(&d, DRM_VACCEL_COREDUMP_SECTION_DISPATCH,
		    struct drm_vaccel_coredump_dispatch, 1);
	VT_ASSERT_EQ(x->entry, entry);
	VT_ASSERT_EQ(x->args, f.args.va);
	VT_ASSERT_EQ(x->grid[0], 1);
	VT_ASSERT_EQ(x->wg[0], 1);
	VT_ASSERT_EQ(x->stack_size, 64);
	VT_ASSERT_EQ(x->total_groups, 1);
	VT_ASSERT_EQ(x->group, 0);
	VT_ASSERT_EQ(x->live, 1);
	VT_ASSERT_EQ(x->current_item, 0);
	w = SECTION(&d, DRM_VACCEL_COREDUMP_SECTION_WORKITEM,
		    struct drm_vaccel_coredump_workitem, 1);
	VT_ASSERT_EQ(w->flat_id, 0);
	VT_ASSERT_EQ(w->state, DRM_VACCEL_COREDUMP_WORKITEM_RUNNING);
	VT_ASSERT_EQ(w->pc, entry + 8);
	VT_ASSERT_EQ(w->x[0], 0);
	VT_ASSERT_EQ(w->x[A0], f.args.va);
	VT_ASSERT_EQ(w->x[A1], bad);
	VT_ASSERT_EQ(w->x[T0], 7);
	VT_ASSERT_EQ(w->instret, 2);

	pw = SECTION(&d, DRM_VACCEL_COREDUMP_SECTION_PAGE_WALK,
		     struct drm_vaccel_coredump_page_walk, 1);
	VT_ASSERT_EQ(pw->va, bad);
	VT_ASSERT(pw->flags & DRM_VACCEL_COREDUMP_WALK_IN_RANGE);
	VT_ASSERT(pw->levels >= 1 && pw->levels <= 4);
	lvl = 4 - pw->levels;
	VT_ASSERT(!(pw->entry[lvl] & DRM_VACCEL_PTE_VALID));
	for (lvl++; lvl < 4; lvl++)
		VT_ASSERT(pw->entry[lvl] & DRM_VACCEL_PTE_VALID);

	text = decode(&d);
	EXPECT_TEXT(text, "kind:        fault\n");
	EXPECT_TEXT(text, "engine:      %u\n", e);
	EXPECT_TEXT(text, "== context %u ==", ctx);
	EXPECT_TEXT(text, "flags:       guilty faulted banned\n");
	EXPECT_TEXT(text, "creator:     pid %d (test_coredump)", getpid());
	EXPECT_TEXT(text, "fault:       unmapped write at 0x%016llx, packet at offset 0x%llx",
		    (unsigned long long)bad, (unsigned long long)off);
	EXPECT_TEXT(text, "stopped at:  offset 0x%llx", (unsigned long long)off);
	EXPECT_TEXT(text, "packet:      DISPATCH, 11 words");
	EXPECT_TEXT(text, "=>0x%06llx:", (unsigned long long)off);
	EXPECT_TEXT(text, "state:       running\n");
	EXPECT_TEXT(text, "pc:          0x%016llx\n", (unsigned long long)(entry + 8));
	EXPECT_TEXT(text, "x11 a1   0x%016llx", (unsigned long long)bad);
	EXPECT_TEXT(text, "address:     0x%016llx (in the mappable range", (unsigned long long)bad);
	EXPECT_TEXT(text, "not present\n");
	EXPECT_TEXT(text, "result:      not mapped");
	free(text);

	clear_dir(d.dir);
	VT_ASSERT_EQ(dump_dir(f.device, d.dir, sizeof(d.dir)), -ENOENT);
	dump_free(&d);
	fx_close(&f);
}

/*
 * An unknown opcode: a FAULT dump whose fault is MALFORMED at the packet's
 * own address, the packet decoded as unknown, and the page walk of that
 * address, which is mapped: four valid levels, a writable executable page.
 * No dispatch section.
 */
VTEST(malformed_packet_dumped)
{
	struct fx f = fx_open();
	__u32 ctx = vt_ctx_create(f.d.fd, COPY, 0), o;
	const struct drm_vaccel_coredump_page_walk *pw;
	const struct drm_vaccel_coredump_context *c;
	unsigned int e = vt_ctx_state(f.d.fd, ctx).engine_index, lvl;
	__u64 off, va, size;
	struct dump d;
	char *text;

	clear_pending(f.device);
	vt_pkt_write32(&f.c, f.data.va, 1);
	off = vt_cmd_offset(&f.c);
	vt_emit(&f.c, DRM_VACCEL_PKT_HEADER(0x7f, 0, 2));
	vt_emit(&f.c, 0x1234);
	va = vt_cmd_va(&f.c);
	size = vt_cmd_size(&f.c);
	o = submit_out(&f, ctx);
	VT_ASSERT_EQ(vt_wait_status(f.d.fd, o), -EINVAL);

	d = wait_dump(f.device);
	VT_ASSERT_EQ(d.h.kind, DRM_VACCEL_COREDUMP_FAULT);
	expect_engine(&d, e, ctx, va, size);
	c = expect_context(&d, &f, ctx, DRM_VACCEL_COREDUMP_CONTEXT_GUILTY |
			   DRM_VACCEL_COREDUMP_CONTEXT_FAULTED |
			   DRM_VACCEL_COREDUMP_CONTEXT_BANNED, DRM_VACCEL_BAN_FAULT);
	VT_ASSERT_EQ(c->fault_reason, DRM_VACCEL_FAULT_MALFORMED);
	VT_ASSERT_EQ(c->fault_va, va + off);
	VT_ASSERT_EQ(c->fault_pc, 0);
	expect_buffer(&d, ctx, va, size, off, f.c.bo.cpu + (va - f.c.bo.va));
	VT_ASSERT(!section(&d, DRM_VACCEL_COREDUMP_SECTION_DISPATCH, 0, 0, NULL));
	VT_ASSERT(!section(&d, DRM_VACCEL_COREDUMP_SECTION_WORKITEM, 0, 0, NULL));
	pw = SECTION(&d, DRM_VACCEL_COREDUMP_SECTION_PAGE_WALK,
		     struct drm_vaccel_coredump_page_walk, 1);
	VT_ASSERT_EQ(pw->va, va + off);
	VT_ASSERT_EQ(pw->levels, 4);
	for (lvl = 0; lvl < 4; lvl++)
		VT_ASSERT(pw->entry[lvl] & DRM_VACCEL_PTE_VALID);
	VT_ASSERT(pw->entry[0] & DRM_VACCEL_PTE_WRITE);

	text = decode(&d);
	EXPECT_TEXT(text, "fault:       malformed packet read at 0x%016llx",
		    (unsigned long long)(va + off));
	EXPECT_TEXT(text, "packet:      #127, 2 words");
	EXPECT_TEXT(text, "result:      mapped, rw");
	free(text);
	clear_dir(d.dir);
	dump_free(&d);
	fx_close(&f);
}

/* --- hangs --- */

/*
 * A WAIT_MEM that is never satisfied, with the short hang timeout: a HANG
 * dump with the guilty context banned for the hang (one guilty reset), the
 * WAIT_MEM at the stop offset, and at least the timeout of engine time
 * without progress.  No page walk, no dispatch.
 */
VTEST(hang_dumped)
{
	struct fx f = fx_open();
	__u32 ctx = vt_ctx_create(f.d.fd, COMPUTE, 1), o;
	const struct drm_vaccel_coredump_context *c;
	const struct drm_vaccel_coredump_buffer *b;
	const struct drm_vaccel_coredump_engine *eng;
	unsigned int e = vt_ctx_state(f.d.fd, ctx).engine_index;
	__u64 off, va, size, timeout_ns = f.d.info.hang_timeout_ns;
	struct dump d;
	char *text;

	VT_ASSERT(timeout_ns <= 1000 * VT_MS);
	clear_pending(f.device);
	vt_pkt_write32(&f.c, f.data.va, 1);
	off = vt_cmd_offset(&f.c);
	vt_pkt_wait_eq32(&f.c, f.data.va + 4, 0xdead);
	vt_pkt_write32(&f.c, f.data.va + 8, 1);
	va = vt_cmd_va(&f.c);
	size = vt_cmd_size(&f.c);
	o = submit_out(&f, ctx);
	VT_ASSERT_EQ(vt_wait_status(f.d.fd, o), -ETIMEDOUT);

	d = wait_dump(f.device);
	VT_ASSERT_EQ(d.h.kind, DRM_VACCEL_COREDUMP_HANG);
	eng = expect_engine(&d, e, ctx, va, size);
	VT_ASSERT_EQ(eng->slot[0].offset, off);
	c = expect_context(&d, &f, ctx, DRM_VACCEL_COREDUMP_CONTEXT_GUILTY |
			   DRM_VACCEL_COREDUMP_CONTEXT_BANNED, DRM_VACCEL_BAN_HANG);
	VT_ASSERT_EQ(c->guilty_resets, 1);
	b = expect_buffer(&d, ctx, va, size, off, f.c.bo.cpu + (va - f.c.bo.va));
	VT_ASSERT(b->stall_ns >= timeout_ns);
	VT_ASSERT(!section(&d, DRM_VACCEL_COREDUMP_SECTION_PAGE_WALK, 0, 0, NULL));
	VT_ASSERT(!section(&d, DRM_VACCEL_COREDUMP_SECTION_DISPATCH, 0, 0, NULL));

	text = decode(&d);
	EXPECT_TEXT(text, "kind:        hang\n");
	EXPECT_TEXT(text, "ban reason:  hang\n");
	EXPECT_TEXT(text, "resets:      guilty 1, innocent 0\n");
	EXPECT_TEXT(text, "packet:      WAIT_MEM, 4 words, flags 0x00");
	EXPECT_TEXT(text, "reference   0x000000000000dead");
	free(text);
	clear_dir(d.dir);
	dump_free(&d);
	engine_proven(&f, COMPUTE, 1);
	fx_close(&f);
}

/*
 * A kernel that loops for ever, in a workgroup of two: a HANG dump with
 * the dispatch in flight and both work-items, the one that runs first,
 * its pc on the loop, then the other ready at the entry, with the
 * registers the ABI gives it (a0 the arguments, sp its stack, ra the exit).
 */
VTEST(hang_in_kernel_dumped)
{
	struct fx f = fx_open();
	__u32 ctx = vt_ctx_create(f.d.fd, COMPUTE, 0), o;
	__u32 grid[3] = { 2, 1, 1 }, wg[3] = { 2, 1, 1 }, n;
	const struct drm_vaccel_coredump_workitem *w;
	const struct drm_vaccel_coredump_dispatch *x;
	__u64 entry = f.code.va + 64;
	struct dump d;
	char *text;

	clear_pending(f.device);
	VT_U32(&f.code, 64) = J_SELF;
	vt_pkt_dispatch(&f.c, entry, f.args.va, grid, wg, 0, 256);
	o = submit_out(&f, ctx);
	VT_ASSERT_EQ(vt_wait_status(f.d.fd, o), -ETIMEDOUT);

	d = wait_dump(f.device);
	VT_ASSERT_EQ(d.h.kind, DRM_VACCEL_COREDUMP_HANG);
	x = SECTION(&d, DRM_VACCEL_COREDUMP_SECTION_DISPATCH,
		    struct drm_vaccel_coredump_dispatch, 1);
	VT_ASSERT_EQ(x->entry, entry);
	VT_ASSERT_EQ(x->live, 2);
	VT_ASSERT_EQ(x->current_item, 0);
	w = section(&d, DRM_VACCEL_COREDUMP_SECTION_WORKITEM, 2, sizeof(*w), &n);
	VT_ASSERT_EQ(w[0].flat_id, 0);
	VT_ASSERT_EQ(w[0].state, DRM_VACCEL_COREDUMP_WORKITEM_RUNNING);
	VT_ASSERT_EQ(w[0].pc, entry);
	VT_ASSERT(w[0].instret > 0);
	VT_ASSERT_EQ(w[1].flat_id, 1);
	VT_ASSERT_EQ(w[1].local_id[0], 1);
	VT_ASSERT_EQ(w[1].global_id[0], 1);
	VT_ASSERT_EQ(w[1].state, DRM_VACCEL_COREDUMP_WORKITEM_READY);
	VT_ASSERT_EQ(w[1].pc, entry);
	VT_ASSERT_EQ(w[1].instret, 0);
	VT_ASSERT_EQ(w[1].x[A0], f.args.va);
	VT_ASSERT_EQ(w[1].x[SP], w[0].x[SP] + 256);
	VT_ASSERT_EQ(w[1].x[RA], w[0].x[RA]);

	text = decode(&d);
	EXPECT_TEXT(text, "== work-item 1 ==\n  state:       ready\n");
	EXPECT_TEXT(text, "workgroup:   0 of 1 (0, 0, 0), 2 work-items live");
	free(text);
	clear_dir(d.dir);
	dump_free(&d);
	engine_proven(&f, COMPUTE, 0);
	fx_close(&f);
}

/* --- resets --- */

/*
 * Compute engine 0 reset through debugfs while a buffer of DELAY packets
 * runs on it: an ENGINE_RESET dump with that context, innocent (one
 * innocent reset, not banned), its buffer stopped at a DELAY; the buffer
 * then completes.  An idle engine reset dumps the engine alone.
 */
VTEST(engine_reset_dumped)
{
	struct fx f = fx_open();
	__u32 ctx = vt_ctx_create(f.d.fd, COMPUTE, 0), o;
	const struct drm_vaccel_coredump_context *c;
	const struct drm_vaccel_coredump_buffer *b;
	const struct drm_vaccel_coredump_engine *eng;
	unsigned int e = vt_ctx_state(f.d.fd, ctx).engine_index, i, idle;
	__u64 va, size, w;
	char index[16];
	struct dump d;
	char *text;

	clear_pending(f.device);
	vt_pkt_write32(&f.c, f.data.va, 1);
	/* Short delays: each one is progress, the hang timeout is short. */
	for (i = 0; i < 40; i++)
		vt_pkt_delay(&f.c, 50 * VT_MS);
	vt_pkt_write32(&f.c, f.data.va, 2);
	va = vt_cmd_va(&f.c);
	size = vt_cmd_size(&f.c);
	o = submit_out(&f, ctx);
	VT_ASSERT(vt_poll_u32(VT_U32P(&f.data, 0), 1, VT_TIMEOUT_MS));
	snprintf(index, sizeof(index), "%u\n", e);
	VT_ASSERT_OK(vt_debugfs_write(f.d.fd, "force_reset", index));

	d = wait_dump(f.device);
	VT_ASSERT_EQ(d.h.kind, DRM_VACCEL_COREDUMP_ENGINE_RESET);
	eng = expect_engine(&d, e, ctx, va, size);
	VT_ASSERT(eng->flags & DRM_VACCEL_COREDUMP_ENGINE_RESET_PENDING);
	c = expect_context(&d, &f, ctx, 0, DRM_VACCEL_BAN_NONE);
	VT_ASSERT_EQ(c->innocent_resets, 1);
	b = SECTION(&d, DRM_VACCEL_COREDUMP_SECTION_BUFFER,
		    struct drm_vaccel_coredump_buffer, 1);
	VT_ASSERT(b->offset >= 16 && b->offset < size - 16 && b->offset % 16 == 8);
	memcpy(&w, f.c.bo.cpu + (va - f.c.bo.va) + b->offset, 8);
	VT_ASSERT_EQ(w, DRM_VACCEL_PKT_HEADER(DRM_VACCEL_PKT_DELAY, 0, 2));
	expect_buffer(&d, ctx, va, size, b->offset, f.c.bo.cpu + (va - f.c.bo.va));

	text = decode(&d);
	EXPECT_TEXT(text, "kind:        engine reset\n");
	EXPECT_TEXT(text, "flags:       innocent\n");
	EXPECT_TEXT(text, "packet:      DELAY, 2 words");
	free(text);
	clear_dir(d.dir);
	dump_free(&d);
	VT_ASSERT_EQ(vt_wait_status(f.d.fd, o), 1);
	VT_ASSERT_EQ(VT_U32(&f.data, 0), 2);

	/* The copy engine, idle: the engine alone. */
	idle = vt_engine_index(&f.d, COPY, 0);
	snprintf(index, sizeof(index), "%u\n", idle);
	VT_ASSERT_OK(vt_debugfs_write(f.d.fd, "force_reset", index));
	d = wait_dump(f.device);
	VT_ASSERT_EQ(d.h.kind, DRM_VACCEL_COREDUMP_ENGINE_RESET);
	VT_ASSERT_EQ(d.h.engine_index, idle);
	eng = SECTION(&d, DRM_VACCEL_COREDUMP_SECTION_ENGINE,
		      struct drm_vaccel_coredump_engine, 1);
	VT_ASSERT_EQ(eng->index, idle);
	VT_ASSERT_EQ(eng->engine_class, COPY);
	VT_ASSERT_EQ(eng->slots_used, 0);
	VT_ASSERT(!section(&d, DRM_VACCEL_COREDUMP_SECTION_CONTEXT, 0, 0, NULL));
	VT_ASSERT(!section(&d, DRM_VACCEL_COREDUMP_SECTION_BUFFER, 0, 0, NULL));
	clear_dir(d.dir);
	dump_free(&d);
	fx_close(&f);
}

/*
 * A device reset through debugfs while compute engine 1 runs a buffer:
 * a DEVICE_RESET dump of no engine in particular, with every engine in
 * order, engine 1's slot 0 holding the buffer; no context.
 */
VTEST(device_reset_dumped)
{
	struct fx f = fx_open();
	__u32 ctx = vt_ctx_create(f.d.fd, COMPUTE, 1), o, n, i;
	const struct drm_vaccel_coredump_engine *eng;
	unsigned int e = vt_ctx_state(f.d.fd, ctx).engine_index;
	__u64 va;
	struct dump d;
	char *text;

	clear_pending(f.device);
	vt_pkt_write32(&f.c, f.data.va, 1);
	for (i = 0; i < 40; i++)
		vt_pkt_delay(&f.c, 50 * VT_MS);
	va = vt_cmd_va(&f.c);
	o = submit_out(&f, ctx);
	VT_ASSERT(vt_poll_u32(VT_U32P(&f.data, 0), 1, VT_TIMEOUT_MS));
	VT_ASSERT_OK(vt_debugfs_write(f.d.fd, "force_reset", "device\n"));

	d = wait_dump(f.device);
	VT_ASSERT_EQ(d.h.kind, DRM_VACCEL_COREDUMP_DEVICE_RESET);
	VT_ASSERT_EQ(d.h.engine_index, DRM_VACCEL_COREDUMP_NO_ENGINE);
	expect_device(&d, &f);
	eng = section(&d, DRM_VACCEL_COREDUMP_SECTION_ENGINE, f.d.info.engines_total,
		      sizeof(*eng), &n);
	for (i = 0; i < n; i++)
		VT_ASSERT_EQ(eng[i].index, i);
	VT_ASSERT(eng[e].slots_used >= 1);
	VT_ASSERT_EQ(eng[e].slot[0].context, ctx);
	VT_ASSERT_EQ(eng[e].slot[0].buffer_va, va);
	VT_ASSERT(!section(&d, DRM_VACCEL_COREDUMP_SECTION_CONTEXT, 0, 0, NULL));

	text = decode(&d);
	EXPECT_TEXT(text, "kind:        device reset\n");
	EXPECT_TEXT(text, "engine:      none (the whole device)\n");
	EXPECT_TEXT(text, "== engine %u (compute1) ==", e);
	EXPECT_TEXT(text, "slot 0:      context %u", ctx);
	free(text);
	clear_dir(d.dir);
	dump_free(&d);
	VT_ASSERT_EQ(vt_wait_status(f.d.fd, o), 1);
	fx_close(&f);
}

/*
 * A buffer of short DELAYs, three times the time limit in all (load with
 * time_limit_ms=1000): each DELAY is progress, so it never hangs, but it
 * is stopped at the limit.  A TIME_LIMIT dump, its context banned for it,
 * the buffer stopped at one of its DELAYs with at least the limit of
 * engine time.
 */
VTEST_NAMED(time_limit_dumped)
{
	struct fx f = fx_open();
	__u32 ctx = vt_ctx_create(f.d.fd, COMPUTE, 0), o, i;
	__u64 limit = f.d.info.time_limit_ns, va, size, w;
	const struct drm_vaccel_coredump_buffer *b;
	const unsigned char *cpu;
	struct dump d;
	char *text;

	VT_ASSERT(limit <= 1000 * VT_MS && limit / 10 < f.d.info.hang_timeout_ns);
	clear_pending(f.device);
	for (i = 0; i < 30; i++)
		vt_pkt_delay(&f.c, limit / 10);
	va = vt_cmd_va(&f.c);
	size = vt_cmd_size(&f.c);
	cpu = f.c.bo.cpu + f.c.start;
	o = submit_out(&f, ctx);
	VT_ASSERT_EQ(vt_wait_status(f.d.fd, o), -ETIMEDOUT);

	d = wait_dump(f.device);
	VT_ASSERT_EQ(d.h.kind, DRM_VACCEL_COREDUMP_TIME_LIMIT);
	expect_context(&d, &f, ctx, DRM_VACCEL_COREDUMP_CONTEXT_GUILTY |
		       DRM_VACCEL_COREDUMP_CONTEXT_BANNED, DRM_VACCEL_BAN_TIME_LIMIT);
	b = SECTION(&d, DRM_VACCEL_COREDUMP_SECTION_BUFFER,
		    struct drm_vaccel_coredump_buffer, 1);
	VT_ASSERT(b->offset < size && b->offset % 16 == 0);
	memcpy(&w, cpu + b->offset, 8);
	VT_ASSERT_EQ(w, DRM_VACCEL_PKT_HEADER(DRM_VACCEL_PKT_DELAY, 0, 2));
	expect_buffer(&d, ctx, va, size, b->offset, cpu);
	VT_ASSERT(b->run_ns >= limit);
	text = decode(&d);
	EXPECT_TEXT(text, "kind:        time limit\n");
	EXPECT_TEXT(text, "ban reason:  time limit\n");
	EXPECT_TEXT(text, "packet:      DELAY, 2 words");
	free(text);
	clear_dir(d.dir);
	dump_free(&d);
	fx_close(&f);
}

/* --- bounds --- */

/* The debugfs coredump counter @key. */
static long long counter(struct fx *f, const char *key)
{
	char *text = vt_debugfs_read(f->d.fd, "coredump");
	long long v = vt_kv(text, key);

	free(text);
	return v;
}

/* A malformed buffer on a new context of the copy engine; waits for its end. */
static __u32 fault_once(struct fx *f)
{
	__u32 ctx = vt_ctx_create(f->d.fd, COPY, 0), o;

	vt_emit(&f->c, DRM_VACCEL_PKT_HEADER(0x7e, 0, 1));
	o = submit_out(f, ctx);
	VT_ASSERT_EQ(vt_wait_status(f->d.fd, o), -EINVAL);
	drmSyncobjDestroy(f->d.fd, o);
	return ctx;
}

/*
 * With a dump pending, three more faults are dropped, counted in debugfs
 * (dropped_busy; captured unchanged), and the pending dump stays the first
 * one.  Once it is cleared, the next fault is dumped, and its header says
 * three events were dropped before it, its sequence four after the first.
 */
VTEST(pending_dump_drops_others)
{
	struct fx f = fx_open();
	long long captured, busy, pending;
	const struct drm_vaccel_coredump_context *c;
	__u32 first, last, i;
	struct dump d, d2;

	clear_pending(f.device);
	captured = counter(&f, "captured") + 1;
	busy = counter(&f, "dropped_busy");
	first = fault_once(&f);
	d = wait_dump(f.device);
	/* The worker counts the dump just after devcoredump shows it. */
	for (i = 0; counter(&f, "captured") < captured && i < DUMP_WAIT_MS / 5; i++)
		vt_sleep_ms(5);
	VT_ASSERT_EQ(counter(&f, "captured"), captured);
	pending = counter(&f, "pending");
	VT_ASSERT_EQ(pending, 1);
	for (i = 0; i < 3; i++)
		fault_once(&f);
	/* Wait for the worker that drops the last one. */
	for (i = 0; counter(&f, "dropped_busy") < busy + 3 && i < DUMP_WAIT_MS / 5; i++)
		vt_sleep_ms(5);
	VT_ASSERT_EQ(counter(&f, "dropped_busy"), busy + 3);
	VT_ASSERT_EQ(counter(&f, "captured"), captured);
	dump_free(&d);
	d = wait_dump(f.device);
	c = SECTION(&d, DRM_VACCEL_COREDUMP_SECTION_CONTEXT,
		    struct drm_vaccel_coredump_context, 1);
	VT_ASSERT_EQ(c->handle, first);

	clear_dir(d.dir);
	/* devcoredump frees the dump, and calls back, after the write returns. */
	for (i = 0; counter(&f, "pending") && i < DUMP_WAIT_MS / 5; i++)
		vt_sleep_ms(5);
	VT_ASSERT_EQ(counter(&f, "pending"), 0);
	last = fault_once(&f);
	d2 = wait_dump(f.device);
	c = SECTION(&d2, DRM_VACCEL_COREDUMP_SECTION_CONTEXT,
		    struct drm_vaccel_coredump_context, 1);
	VT_ASSERT_EQ(c->handle, last);
	VT_ASSERT_EQ(d2.h.sequence, d.h.sequence + 4);
	VT_ASSERT_EQ(d2.h.dropped, d.h.dropped + 3);
	for (i = 0; counter(&f, "captured") < captured + 1 && i < DUMP_WAIT_MS / 5; i++)
		vt_sleep_ms(5);
	VT_ASSERT_EQ(counter(&f, "captured"), captured + 1);
	clear_dir(d2.dir);
	dump_free(&d);
	dump_free(&d2);
	fx_close(&f);
}

/* coredump=0: a fault leaves no dump and counts as dropped_disabled. */
VTEST(disabled_by_parameter)
{
	struct fx f = fx_open();
	long long disabled, events;
	char *old = vt_read_file(PARAM);

	clear_pending(f.device);
	disabled = counter(&f, "dropped_disabled");
	events = counter(&f, "events");
	VT_ASSERT_OK(vt_write_str(PARAM, "0"));
	fault_once(&f);
	expect_no_dump(f.device, 500);
	VT_ASSERT_OK(vt_write_str(PARAM, old));
	VT_ASSERT_EQ(counter(&f, "dropped_disabled"), disabled + 1);
	VT_ASSERT_EQ(counter(&f, "events"), events + 1);
	VT_ASSERT_EQ(counter(&f, "enabled"), 1);
	free(old);
	fx_close(&f);
}

/* --- the decoder on bad input --- */

/* Decodes @len bytes of @data from a file: the exit status and the text. */
static int decode_bytes(const void *data, size_t len, char **out)
{
	char tmpl[] = "/tmp/coredump-bad.XXXXXX";
	int fd = mkstemp(tmpl), st;

	VT_ASSERT(fd >= 0);
	VT_ASSERT_EQ(write(fd, data, len), (ssize_t)len);
	close(fd);
	st = decoder(tmpl, NULL, out);
	unlink(tmpl);
	return st;
}

/*
 * vaccel-coredump refuses, with exit 1 and a message, every truncation of
 * a real dump (a fault's), a dump with bytes after its end, a section
 * size that does not match its entries, a bad magic and a newer version;
 * and -d finds the pending dump in sysfs and -c clears it.
 */
VTEST(decoder_refuses_bad_dumps)
{
	struct fx f = fx_open();
	struct drm_vaccel_coredump_section s;
	unsigned char *bad;
	struct dump d;
	char *out, dev[16];
	size_t len;

	clear_pending(f.device);
	fault_once(&f);
	d = wait_dump(f.device);
	for (len = 0; len < d.len; len += len < 128 ? 1 : 97) {
		VT_ASSERT_EQ(decode_bytes(d.data, len, &out), 1);
		if (!strstr(out, "vaccel-coredump: ") || !strstr(out, "truncated"))
			vtest_fail(__FILE__, __LINE__, "%zu bytes: '%s'", len, out);
		free(out);
	}

	bad = malloc(d.len + 8);
	VT_ASSERT(bad);
	memcpy(bad, d.data, d.len);
	memset(bad + d.len, 0, 8);
	VT_ASSERT_EQ(decode_bytes(bad, d.len + 8, &out), 1);
	VT_ASSERT(strstr(out, "corrupt: 8 bytes after"));
	free(out);

	memcpy(&s, bad + sizeof(d.h), sizeof(s));
	s.size += 8;
	memcpy(bad + sizeof(d.h), &s, sizeof(s));
	VT_ASSERT_EQ(decode_bytes(bad, d.len, &out), 1);
	VT_ASSERT(strstr(out, "corrupt: section 0"));
	free(out);

	memcpy(bad, d.data, d.len);
	bad[0] ^= 0xff;
	VT_ASSERT_EQ(decode_bytes(bad, d.len, &out), 1);
	VT_ASSERT(strstr(out, "not a vaccel coredump"));
	free(out);

	memcpy(bad, d.data, d.len);
	bad[offsetof(struct drm_vaccel_coredump_header, version)]++;
	VT_ASSERT_EQ(decode_bytes(bad, d.len, &out), 1);
	VT_ASSERT(strstr(out, "format version 2"));
	free(out);
	free(bad);

	/* The pending dump, found and cleared by the decoder itself. */
	snprintf(dev, sizeof(dev), "%u", f.device);
	VT_ASSERT_EQ(decoder("-cd", dev, &out), 0);
	EXPECT_TEXT(out, "dump:        %s/data (vaccel.%u)", d.dir, f.device);
	EXPECT_TEXT(out, "kind:        fault\n");
	free(out);
	VT_ASSERT(access(d.dir, F_OK));
	VT_ASSERT_EQ(decoder("-d", dev, &out), 1);
	EXPECT_TEXT(out, "no pending coredump of vaccel.%u", f.device);
	free(out);
	dump_free(&d);
	fx_close(&f);
}

/* --- lifetimes --- */

/* Leaves a fault's dump pending on the first device, its file closed. */
static unsigned int leave_dump_pending(void)
{
	struct fx f = fx_open();
	unsigned int device = f.device;
	struct dump d;

	clear_pending(device);
	fault_once(&f);
	d = wait_dump(device);
	dump_free(&d);
	fx_close(&f);
	return device;
}

/*
 * Unbinding the device with a dump pending removes the dump; the device
 * binds again and dumps again.
 */
VTEST_NAMED(unbind_with_dump_pending)
{
	unsigned int device = leave_dump_pending();
	char path[DIR_LEN];
	struct dump d;
	struct fx f;

	VT_ASSERT_OK(vt_unbind(device));
	VT_ASSERT_EQ(dump_dir(device, path, sizeof(path)), -ENOENT);
	VT_ASSERT_OK(vt_bind(device));

	f = fx_open();
	fault_once(&f);
	d = wait_dump(device);
	clear_dir(d.dir);
	dump_free(&d);
	fx_close(&f);
}

/*
 * Unloading the module with a dump pending succeeds, and takes the dump
 * with it; the module loads again with the defaults.
 */
VTEST_NAMED(unload_with_dump_pending)
{
	unsigned int device = leave_dump_pending();
	char path[DIR_LEN];

	VT_ASSERT_OK(vt_module_unload_within(5000));
	VT_ASSERT_EQ(dump_dir(device, path, sizeof(path)), -ENOENT);
	VT_ASSERT_OK(vt_module_load(""));
}

VTEST_MAIN()
