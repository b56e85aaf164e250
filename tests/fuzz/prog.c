// SPDX-License-Identifier: GPL-2.0-only
/*
 * prog.c - vaccel-fuzz: programs: how they are generated, mutated, printed
 * and parsed.
 *
 * Generation mixes two things: snippets, the short call sequences a real
 * user makes (a BO filled with a DMA buffer, mapped and submitted on a new
 * context; a kernel and its data mapped and dispatched; a BO shared as a
 * dma-buf, imported by the other device, bound and used there; a syncobj
 * exported as a sync_file; BOs placed in device memory, filling it, and
 * moved between regions; contexts of several priorities on one engine,
 * preempting each other; work queued behind a gate that the program opens
 * later), which get the program deep into the driver, and single calls with arguments
 * drawn from valid, boundary and invalid values, which make the snippets'
 * resources meet in ways nobody planned.  Mutation changes an argument,
 * inserts or removes a call, moves a call to the other thread or repeats
 * one.  Every choice comes from a fuzz_rng: the same seed and stream give
 * the same program.
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include <drm/vaccel_accel.h>

#include "fuzz.h"

/* Seeds @r for stream @stream of @seed (splitmix64 of both). */
void fuzz_seed(struct fuzz_rng *r, uint64_t seed, uint64_t stream)
{
	uint64_t z = seed * 0x9e3779b97f4a7c15ull + stream * 0xbf58476d1ce4e5b9ull + 1;

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	r->s = (z ^ (z >> 31)) | 1;
}

/* Sizes that sit on the limits the uapi documents, and around them. */
static const uint64_t sizes[] = {
	0, 1, 8, 64, 0x100, 0x1000 - 8, 0x1000, 0x1008, 0x2000, 0x4000, 0x10000,
	0x100000, 0x200000, 1u << 24, (1u << 24) + 8, 1ull << 32, 1ull << 40,
	(1ull << 47) - 0x1000, ~0ull, ~0ull - 0xfff,
};

static const uint64_t points[] = { 0, 1, 2, 3, 8, 100, 1ull << 63, ~0ull };

/* Relative timeouts; the largest is for ever (the executor's limit kills it). */
static const uint64_t timeouts[] = {
	0, 1000, 1000000, 10000000, 50000000, 1ull << 62,
};

/* A random earlier call (before @before) whose result is of @kind, or -1. */
static int find_res(const struct fuzz_prog *p, unsigned int before,
		    enum fuzz_res_kind kind, struct fuzz_rng *r)
{
	int found[FUZZ_MAX_CALLS];
	unsigned int i, n = 0;

	for (i = 0; i < before && i < p->ncalls; i++)
		if (fuzz_calls[p->call[i].id].res == kind)
			found[n++] = i;
	return n ? found[fuzz_below(r, n)] : -1;
}

/* Mostly a reference to an earlier result of @kind, else @literal. */
static struct fuzz_arg ref_or(const struct fuzz_prog *p, unsigned int at,
			       enum fuzz_res_kind kind, struct fuzz_rng *r, struct fuzz_arg literal)
{
	int i = find_res(p, at, kind, r);

	if (i >= 0 && fuzz_chance(r, 90))
		return REF(i);
	return literal;
}

/* BO creation flags: a quarter of BOs in (or preferring) device memory. */
static uint64_t gen_bo_flags(struct fuzz_rng *r)
{
	if (fuzz_chance(r, 75))
		return 0;
	if (fuzz_chance(r, 90))
		return fuzz_chance(r, 50) ? DRM_VACCEL_BO_DEVICE : DRM_VACCEL_BO_DEVICE_PREFERRED;
	return fuzz_chance(r, 50) ? DRM_VACCEL_BO_NO_MMAP | DRM_VACCEL_BO_DEVICE :
				    1ull << fuzz_below(r, 32);
}

/* A literal of kind @k, from valid, boundary and invalid values. */
static uint64_t gen_literal(enum fuzz_arg_kind k, struct fuzz_rng *r)
{
	switch (k) {
	case FA_SLOT:
		if (fuzz_chance(r, 40))
			return FUZZ_SLOT_CALL;
		if (fuzz_chance(r, 75))
			return fuzz_below(r, 4);
		if (fuzz_chance(r, 60))
			return 16 + fuzz_below(r, 22);
		return fuzz_next(r) & ~(fuzz_chance(r, 70) ? 0xfffull : 0);
	case FA_SIZE:
		if (fuzz_chance(r, 10))
			return fuzz_next(r) >> fuzz_below(r, 64);
		return sizes[fuzz_below(r, sizeof(sizes) / sizeof(sizes[0]))];
	case FA_FLAGS:
		if (fuzz_chance(r, 85))
			return 0;
		if (fuzz_chance(r, 70))
			return 1ull << fuzz_below(r, 32);
		return fuzz_next(r) & 0xffffffff;
	case FA_SMALL:
		if (fuzz_chance(r, 90))
			return fuzz_below(r, 8);
		return fuzz_chance(r, 50) ? 0xffffffff : fuzz_next(r) & 0xffff;
	case FA_POINT:
		return points[fuzz_below(r, sizeof(points) / sizeof(points[0]))];
	case FA_TIMEOUT:
		if (fuzz_chance(r, 3))
			return timeouts[5];
		return timeouts[fuzz_below(r, 5)];
	case FA_KIND:
		return fuzz_chance(r, 50) ? FW_VALID : fuzz_below(r, FW_KINDS);
	case FA_SEED:
		return fuzz_next(r) & 0xffffffff;
	case FA_BOFLAGS:
		return gen_bo_flags(r);
	case FA_REGION:
		/* System, the two devices' segments, or one that does not exist. */
		if (fuzz_chance(r, 90))
			return fuzz_below(r, 3);
		return fuzz_chance(r, 50) ? DRM_VACCEL_REGION_DEVICE(2 + fuzz_below(r, 8)) :
					    fuzz_next(r) & 0xffffffff;
	default:
		return 0;
	}
	return 0;
}

/* An argument of kind @k for a call at @at: a reference or a literal. */
static struct fuzz_arg gen_arg(const struct fuzz_prog *p, unsigned int at,
				enum fuzz_arg_kind k, struct fuzz_rng *r)
{
	switch (k) {
	case FA_SLOT:
		if (fuzz_chance(r, 30))
			return ref_or(p, at, FR_VA, r, LIT(gen_literal(k, r)));
		return LIT(gen_literal(k, r));
	case FA_FD:
		if (fuzz_chance(r, 5))
			return ref_or(p, at, FR_FD, r, FD(0));
		if (fuzz_chance(r, 2))
			return LIT(fuzz_chance(r, 50) ? (uint64_t)-1 : 1000);
		return FD(fuzz_chance(r, 85) ? 0 : 1);
	case FA_BO:
		return ref_or(p, at, FR_BO, r,
			      LIT(fuzz_below(r, 4) ? fuzz_below(r, 4) : 0xffffffff));
	case FA_CTX:
		return ref_or(p, at, FR_CTX, r, LIT(fuzz_below(r, 4)));
	case FA_SYNCOBJ:
		if (fuzz_chance(r, 40))
			return LIT(0);
		return ref_or(p, at, FR_SYNCOBJ, r, LIT(fuzz_below(r, 8)));
	case FA_DMABUF:
		return ref_or(p, at, fuzz_chance(r, 80) ? FR_DMABUF : FR_SYNCFILE, r, LIT(1000));
	case FA_SYNCFILE:
		return ref_or(p, at, fuzz_chance(r, 80) ? FR_SYNCFILE : FR_DMABUF, r, LIT(1000));
	case FA_ANYFD: {
		static const enum fuzz_res_kind fds[] = { FR_DMABUF, FR_SYNCFILE, FR_FD };

		if (fuzz_chance(r, 5))
			return FD(fuzz_below(r, 2));
		return ref_or(p, at, fds[fuzz_below(r, 3)], r, LIT(1000));
	}
	case FA_MAP:
		return ref_or(p, at, FR_MAP, r, LIT(0));
	default:
		return LIT(gen_literal(k, r));
	}
}

/* Appends a call; returns its index, or -1 when the program is full. */
static int add(struct fuzz_prog *p, int id, unsigned int thread, const struct fuzz_arg *args)
{
	struct fuzz_call *c;

	if (p->ncalls >= FUZZ_MAX_CALLS)
		return -1;
	c = &p->call[p->ncalls];
	memset(c, 0, sizeof(*c));
	c->id = id;
	c->thread = thread;
	memcpy(c->arg, args, sizeof(c->arg));
	return p->ncalls++;
}

/* Appends one call of the table, chosen by weight, with generated arguments. */
static void add_random_call(struct fuzz_prog *p, struct fuzz_rng *r)
{
	struct fuzz_arg args[FUZZ_MAX_ARGS] = { 0 };
	unsigned int total = 0, pick, i;
	const struct fuzz_call_desc *d;

	for (i = 0; i < fuzz_ncalls; i++)
		total += fuzz_calls[i].weight;
	pick = fuzz_below(r, total);
	for (i = 0; i < fuzz_ncalls; i++) {
		if (pick < fuzz_calls[i].weight)
			break;
		pick -= fuzz_calls[i].weight;
	}
	d = &fuzz_calls[i];
	for (unsigned int a = 0; a < d->nargs; a++)
		args[a] = gen_arg(p, p->ncalls, d->args[a], r);
	add(p, i, fuzz_chance(r, 80) ? 0 : 1, args);
}

#define CALL(name)	fuzz_call_by_name(name)
#define ARGS(...)	((struct fuzz_arg[FUZZ_MAX_ARGS]){ __VA_ARGS__ })

/* Where a snippet's buffer, kernel and data are mapped: the binds' results. */
struct work {
	struct fuzz_arg fd;
	unsigned int thread;
	int buf_map, kernel_map;	/* CPU mappings, -1 for none */
	struct fuzz_arg buf_va, kernel_va, data_va;
};

/* A syncobj to wait for: mostly none, else one of the program's (a gate, often). */
static struct fuzz_arg gen_wait(const struct fuzz_prog *p, struct fuzz_rng *r)
{
	return fuzz_chance(r, 75) ? LIT(0) : gen_arg(p, p->ncalls, FA_SYNCOBJ, r);
}

/*
 * A BO of @size with placement @flags, CPU-mapped, bound at its bind
 * call's own range (or at fixed slot @slot, now and then, as programs
 * did before); sets *@map to the mapping call and returns the bind call,
 * or -1 when the program is full.
 */
static int snippet_bo(struct fuzz_prog *p, struct fuzz_rng *r, struct fuzz_arg fd,
		      uint64_t slot, uint64_t size, uint64_t flags, unsigned int thread, int *map)
{
	struct fuzz_arg sync = fuzz_chance(r, 20) ? gen_arg(p, p->ncalls, FA_SYNCOBJ, r) : LIT(0);
	int bo;

	bo = add(p, CALL("bo_create"), thread, ARGS(fd, LIT(size), LIT(flags)));
	if (bo < 0)
		return -1;
	*map = add(p, CALL("bo_mmap"), thread, ARGS(fd, REF(bo), LIT(size), LIT(0)));
	/* Bit 8 of the flags: wait for the syncobj (a gate, say) rather than signal it. */
	return add(p, CALL("bind_map"), thread,
		   ARGS(fd, REF(bo), LIT(fuzz_chance(r, 90) ? FUZZ_SLOT_CALL : slot), LIT(size),
			LIT(0), LIT(fuzz_chance(r, 10) ? fuzz_below(r, 4) :
				    fuzz_chance(r, 15) ? 1u << 8 : 0), sync));
}

/*
 * The BOs of a submission: a DMA buffer, a kernel if @dispatch, and
 * mostly data (without it, the buffer's data accesses fault), each at its
 * own VA; the buffer written.  Returns false when the program is full.
 */
static bool snippet_work(struct fuzz_prog *p, struct fuzz_rng *r, struct work *w, bool dispatch,
			 unsigned int kind)
{
	int bind, map;

	w->kernel_map = -1;
	w->kernel_va = LIT(1);
	w->data_va = LIT(2);
	bind = snippet_bo(p, r, w->fd, 0, 0x4000, gen_bo_flags(r), w->thread, &w->buf_map);
	if (bind < 0)
		return false;
	w->buf_va = REF(bind);
	if (dispatch) {
		bind = snippet_bo(p, r, w->fd, 1, 0x4000, gen_bo_flags(r), w->thread,
				  &w->kernel_map);
		if (bind < 0)
			return false;
		w->kernel_va = REF(bind);
		add(p, CALL("write_kernel"), w->thread,
		    ARGS(REF(w->kernel_map), LIT(kind), LIT(fuzz_next(r) & 0xffffffff)));
	}
	if (fuzz_chance(r, 70)) {
		bind = snippet_bo(p, r, w->fd, 2, 0x10000, gen_bo_flags(r), w->thread, &map);
		if (bind < 0)
			return false;
		w->data_va = REF(bind);
	}
	return add(p, CALL("write_buffer"), w->thread,
		   ARGS(REF(w->buf_map), LIT(kind), LIT(fuzz_next(r) & 0xffffffff), w->kernel_va,
			w->data_va)) >= 0;
}

/*
 * A context of @fd: compute or copy, on any engine or on instance 0, at a
 * priority of @max_prio or below.  Returns the call, -1 when the program
 * is full.
 */
static int snippet_ctx(struct fuzz_prog *p, struct fuzz_rng *r, struct fuzz_arg fd,
		       unsigned int thread, bool compute, bool any_engine, unsigned int prio)
{
	return add(p, CALL("ctx_create"), thread,
		   ARGS(fd, LIT(compute ? 0 : 1), LIT(any_engine ? 7 : 0), LIT(prio), LIT(0)));
}

/* Submits @w's buffer on @ctx, waiting for @wait, signalling a new syncobj or not. */
static void snippet_submit_on(struct fuzz_prog *p, struct fuzz_rng *r, const struct work *w,
			      int ctx, struct fuzz_arg wait)
{
	struct fuzz_arg size;
	int so = -1;

	if (fuzz_chance(r, 60))
		so = add(p, CALL("syncobj_create"), w->thread, ARGS(w->fd, LIT(0)));
	size = fuzz_chance(r, 80) ? LIT(8 * (1 + fuzz_below(r, 64))) : gen_arg(p, 0, FA_SIZE, r);
	add(p, CALL("submit"), w->thread,
	    ARGS(w->fd, REF(ctx), w->buf_va, size, wait, so >= 0 ? REF(so) : LIT(0),
		 LIT(fuzz_chance(r, 80) ? 0 : 1 + fuzz_below(r, 4))));
	if (so >= 0 && fuzz_chance(r, 70))
		add(p, CALL("syncobj_wait"), fuzz_chance(r, 80) ? w->thread : !w->thread,
		    ARGS(w->fd, REF(so), LIT(fuzz_chance(r, 50) ? 1 : 0), LIT(50000000)));
}

/* A DMA buffer written, mapped and submitted on a new or existing context. */
static void snippet_submit(struct fuzz_prog *p, struct fuzz_rng *r, bool dispatch)
{
	struct work w = {
		.fd = FD(fuzz_chance(r, 90) ? 0 : 1), .thread = fuzz_chance(r, 75) ? 0 : 1,
	};
	int ctx;

	if (!snippet_work(p, r, &w, dispatch, gen_literal(FA_KIND, r)))
		return;
	ctx = find_res(p, p->ncalls, FR_CTX, r);
	if (ctx < 0 || fuzz_chance(r, 50))
		ctx = snippet_ctx(p, r, w.fd, w.thread, dispatch || fuzz_chance(r, 70), true,
				  fuzz_chance(r, 90) ? fuzz_below(r, 2) : fuzz_below(r, 4));
	if (ctx < 0)
		return;
	snippet_submit_on(p, r, &w, ctx, gen_wait(p, r));
}

/*
 * A BO shared: exported, maybe passed over the socket, imported, mapped;
 * mostly imported by the other device and bound there as the data of a
 * buffer that runs on it, while the exporter still uses or moves it.
 */
static void snippet_share(struct fuzz_prog *p, struct fuzz_rng *r)
{
	unsigned int dev = fuzz_below(r, 2);
	struct fuzz_arg fd_ref;
	int bo, dmabuf, got, imp, bind, ctx;
	struct work w = { .fd = FD(!dev), .thread = fuzz_below(r, 2) };
	unsigned int t;

	/* On the importer's thread, mostly: an import before the export fails. */
	t = fuzz_chance(r, 85) ? w.thread : !w.thread;

	bo = add(p, CALL("bo_create"), t, ARGS(FD(dev), LIT(fuzz_chance(r, 70) ? 0x10000 : 0x2000),
					       LIT(gen_bo_flags(r))));
	if (bo < 0)
		return;
	dmabuf = add(p, CALL("prime_export"), t, ARGS(FD(dev), REF(bo), LIT(1)));
	if (dmabuf < 0)
		return;
	fd_ref = REF(dmabuf);
	if (fuzz_chance(r, 30)) {
		add(p, CALL("send_fd"), t, ARGS(REF(dmabuf)));
		got = add(p, CALL("recv_fd"), w.thread, ARGS(LIT(0)));
		if (got < 0)
			return;
		fd_ref = REF(got);
	}
	imp = add(p, CALL("prime_import"), w.thread,
		  ARGS(fuzz_chance(r, 80) ? w.fd : FD(dev), fd_ref));
	if (imp < 0)
		return;
	if (fuzz_chance(r, 30))
		add(p, CALL("dmabuf_mmap"), t, ARGS(fd_ref, LIT(0x2000), LIT(0)));
	if (fuzz_chance(r, 25)) {
		add(p, CALL("gem_close"), fuzz_below(r, 2), ARGS(FD(dev), REF(bo)));
		return;
	}
	/* The importer's work reads and writes the BO through its own mapping. */
	bind = add(p, CALL("bind_map"), w.thread,
		   ARGS(w.fd, REF(imp), LIT(FUZZ_SLOT_CALL), LIT(0x2000), LIT(0), LIT(0), LIT(0)));
	if (bind < 0 || !snippet_work(p, r, &w, fuzz_chance(r, 40), gen_literal(FA_KIND, r)))
		return;
	w.data_va = REF(bind);
	p->call[p->ncalls - 1].arg[4] = w.data_va;	/* the write_buffer's data */
	ctx = snippet_ctx(p, r, w.fd, w.thread, true, true, 1);
	if (ctx < 0)
		return;
	if (fuzz_chance(r, 40))
		add(p, CALL("bo_migrate"), !w.thread,
		    ARGS(FD(dev), REF(bo), LIT(fuzz_below(r, 3)), LIT(0), LIT(0), LIT(0)));
	snippet_submit_on(p, r, &w, ctx, gen_wait(p, r));
}

/*
 * BOs of 1 to 3 MiB placed in device memory, about what its 8 MiB hold
 * (make fuzz loads the module so): creation, binding and submission evict
 * each other; then moves between the regions, waiting for and signalling
 * the program's syncobjs, while work that maps them runs.
 */
static void snippet_placement(struct fuzz_prog *p, struct fuzz_rng *r)
{
	struct work w = { .fd = FD(fuzz_chance(r, 80) ? 0 : 1), .thread = fuzz_below(r, 2) };
	unsigned int n = 2 + fuzz_below(r, 3), i;
	int bos[4], ctx, map;

	for (i = 0; i < n; i++) {
		uint64_t flags = fuzz_chance(r, 70) ? DRM_VACCEL_BO_DEVICE :
						      DRM_VACCEL_BO_DEVICE_PREFERRED;
		int bind = snippet_bo(p, r, w.fd, 3 + i, (1 + fuzz_below(r, 3)) << 20, flags,
				      w.thread, &map);

		if (bind < 0)
			return;
		bos[i] = bind - 2;	/* the bo_create of snippet_bo() */
		if (fuzz_chance(r, 50))
			add(p, CALL("write_buffer"), w.thread,
			    ARGS(REF(map), LIT(FW_RANDOM), LIT(fuzz_next(r) & 0xffffffff), LIT(1),
				 LIT(2)));
	}
	if (!snippet_work(p, r, &w, fuzz_chance(r, 30), gen_literal(FA_KIND, r)))
		return;
	/* The work's data is one of the big BOs, when it has a mapping. */
	if (fuzz_chance(r, 60))
		p->call[p->ncalls - 1].arg[4] = REF(bos[fuzz_below(r, n)] + 2);
	ctx = snippet_ctx(p, r, w.fd, w.thread, true, true, 1);
	if (ctx < 0)
		return;
	snippet_submit_on(p, r, &w, ctx, gen_wait(p, r));
	for (i = 0; i < 1 + fuzz_below(r, 3); i++) {
		struct fuzz_arg sig = LIT(0);
		int so = fuzz_chance(r, 40) ?
			 add(p, CALL("syncobj_create"), w.thread, ARGS(w.fd, LIT(0))) : -1;

		if (so >= 0)
			sig = REF(so);
		add(p, CALL("bo_migrate"), fuzz_chance(r, 70) ? w.thread : !w.thread,
		    ARGS(w.fd, REF(bos[fuzz_below(r, n)]), LIT(gen_literal(FA_REGION, r)),
			 LIT(fuzz_chance(r, 95) ? 0 : 1), gen_wait(p, r), sig));
	}
	if (fuzz_chance(r, 50))
		add(p, CALL("bo_info"), w.thread, ARGS(w.fd, REF(bos[0]), LIT(0)));
}

/*
 * Contexts of several priorities on one compute engine: a long buffer on
 * the lowest, short ones above it, so that the program's own contexts
 * preempt each other (HIGH and REALTIME need CAP_SYS_NICE, which the
 * executor has).
 */
static void snippet_preempt(struct fuzz_prog *p, struct fuzz_rng *r)
{
	struct work w = { .fd = FD(fuzz_chance(r, 90) ? 0 : 1), .thread = fuzz_below(r, 2) };
	unsigned int n = 2 + fuzz_below(r, 2), lo = fuzz_below(r, 2), i;
	int ctx[3];

	for (i = 0; i < n; i++) {
		ctx[i] = snippet_ctx(p, r, w.fd, w.thread, true, false, i ? lo + i : lo);
		if (ctx[i] < 0)
			return;
	}
	if (!snippet_work(p, r, &w, fuzz_chance(r, 50), FW_LONG))
		return;
	snippet_submit_on(p, r, &w, ctx[0], gen_wait(p, r));
	for (i = 1; i < n; i++) {
		struct work v = w;

		v.thread = fuzz_below(r, 2);
		if (fuzz_chance(r, 50) && !snippet_work(p, r, &v, fuzz_chance(r, 30), FW_VALID))
			return;
		snippet_submit_on(p, r, &v, ctx[i], LIT(0));
	}
	if (fuzz_chance(r, 20))
		add(p, CALL("ctx_state"), w.thread, ARGS(w.fd, REF(ctx[0])));
}

/*
 * A gate: work of every kind (a submit, an asynchronous bind, a move)
 * queued behind a fence that the program opens later, or never (then the
 * executor's exit does).
 */
static void snippet_gate(struct fuzz_prog *p, struct fuzz_rng *r)
{
	unsigned int t = fuzz_below(r, 2);
	struct fuzz_arg fd = FD(fuzz_chance(r, 85) ? 0 : 1);
	int gate;

	gate = add(p, CALL("gate_create"), t, ARGS(fd));
	if (gate < 0)
		return;
	switch (fuzz_below(r, 3)) {
	case 0: {
		struct work w = { .fd = fd, .thread = t };
		int ctx;

		if (!snippet_work(p, r, &w, fuzz_chance(r, 40), gen_literal(FA_KIND, r)))
			return;
		ctx = snippet_ctx(p, r, fd, t, true, fuzz_chance(r, 50), fuzz_below(r, 2));
		if (ctx < 0)
			return;
		snippet_submit_on(p, r, &w, ctx, REF(gate));
		break;
	}
	case 1: {
		int bo = add(p, CALL("bo_create"), t, ARGS(fd, LIT(0x10000), LIT(gen_bo_flags(r))));

		if (bo < 0)
			return;
		add(p, CALL("bind_map"), t, ARGS(fd, REF(bo), LIT(FUZZ_SLOT_CALL), LIT(0x10000),
						 LIT(0), LIT(1u << 8), REF(gate)));
		break;
	}
	default: {
		int bo = add(p, CALL("bo_create"), t, ARGS(fd, LIT(0x100000), LIT(gen_bo_flags(r))));

		if (bo < 0)
			return;
		add(p, CALL("bo_migrate"), t, ARGS(fd, REF(bo), LIT(gen_literal(FA_REGION, r)),
						   LIT(0), REF(gate), LIT(0)));
		break;
	}
	}
	if (fuzz_chance(r, 70))
		add(p, CALL("gate_open"), fuzz_below(r, 2), ARGS(REF(gate)));
}

/* A syncobj signalled by a job, exported as a sync_file, imported again. */
static void snippet_syncfile(struct fuzz_prog *p, struct fuzz_rng *r)
{
	int so, sf;

	so = add(p, CALL("syncobj_create"), 0, ARGS(FD(0), LIT(fuzz_chance(r, 30))));
	if (so < 0)
		return;
	snippet_submit(p, r, false);
	/* 1: DRM_SYNCOBJ_HANDLE_TO_FD_FLAGS_EXPORT_SYNC_FILE */
	sf = add(p, CALL("syncobj_export"), 0,
		 ARGS(FD(0), REF(so), LIT(fuzz_chance(r, 80) ? 1 : 0)));
	if (sf < 0)
		return;
	add(p, CALL("syncfile_poll"), 1, ARGS(REF(sf), LIT(10000000)));
	add(p, CALL("syncobj_import"), 0,
	    ARGS(FD(0), REF(sf), REF(so), LIT(fuzz_chance(r, 80) ? 1 : 0)));
}

/* A new program: snippets and single calls, 4 to 35 calls or so. */
void fuzz_generate(struct fuzz_prog *p, struct fuzz_rng *r)
{
	unsigned int target = 4 + fuzz_below(r, 32);

	memset(p, 0, sizeof(*p));
	while (p->ncalls < target) {
		unsigned int before = p->ncalls;

		switch (fuzz_below(r, 14)) {
		case 0: case 1:
			snippet_submit(p, r, false);
			break;
		case 2: case 3:
			snippet_submit(p, r, true);
			break;
		case 4:
			snippet_share(p, r);
			break;
		case 5:
			snippet_syncfile(p, r);
			break;
		case 6: case 7:
			snippet_placement(p, r);
			break;
		case 8:
			snippet_preempt(p, r);
			break;
		case 9:
			snippet_gate(p, r);
			break;
		default:
			add_random_call(p, r);
			break;
		}
		if (p->ncalls == before)
			break;
	}
	if (fuzz_chance(r, 10) && p->ncalls > 2 && p->ncalls < FUZZ_MAX_CALLS) {
		/* A fork in the middle: the child runs a few calls and exits. */
		unsigned int at = 1 + fuzz_below(r, p->ncalls - 1);
		struct fuzz_call fork_call = { .id = CALL("fork"), .thread = 0,
					       .arg = { LIT(1 + fuzz_below(r, 4)) } };

		memmove(&p->call[at + 1], &p->call[at], (p->ncalls - at) * sizeof(p->call[0]));
		p->ncalls++;
		p->call[at] = fork_call;
		for (unsigned int i = at + 1; i < p->ncalls; i++)
			for (unsigned int a = 0; a < FUZZ_MAX_ARGS; a++)
				if (p->call[i].arg[a].t == FT_REF && p->call[i].arg[a].v >= at)
					p->call[i].arg[a].v++;
	}
}

/* Removes call @i; references to it read literal 0, later ones shift. */
void fuzz_remove_call(struct fuzz_prog *p, unsigned int i)
{
	if (i >= p->ncalls)
		return;
	memmove(&p->call[i], &p->call[i + 1], (p->ncalls - i - 1) * sizeof(p->call[0]));
	p->ncalls--;
	for (unsigned int j = i; j < p->ncalls; j++) {
		for (unsigned int a = 0; a < FUZZ_MAX_ARGS; a++) {
			struct fuzz_arg *v = &p->call[j].arg[a];

			if (v->t != FT_REF)
				continue;
			if (v->v == i)
				*v = LIT(0);
			else if (v->v > i)
				v->v--;
		}
	}
}

/* One to three changes: an argument, a call added, removed, moved or repeated. */
void fuzz_mutate(struct fuzz_prog *p, struct fuzz_rng *r)
{
	unsigned int n = 1 + fuzz_below(r, 3);

	while (n--) {
		unsigned int i = fuzz_below(r, p->ncalls ? p->ncalls : 1);
		struct fuzz_call *c = &p->call[i];
		const struct fuzz_call_desc *d = &fuzz_calls[c->id];

		switch (fuzz_below(r, 6)) {
		case 0:
		case 1:
			if (p->ncalls && d->nargs) {
				unsigned int a = fuzz_below(r, d->nargs);

				c->arg[a] = gen_arg(p, i, d->args[a], r);
			}
			break;
		case 2:
			if (p->ncalls < FUZZ_MAX_CALLS) {
				/* A new call at the end, drawing on what is there. */
				add_random_call(p, r);
			}
			break;
		case 3:
			if (p->ncalls > 1)
				fuzz_remove_call(p, i);
			break;
		case 4:
			if (p->ncalls)
				c->thread ^= 1;
			break;
		case 5:
			if (p->ncalls && p->ncalls < FUZZ_MAX_CALLS && c->id != CALL("fork")) {
				p->call[p->ncalls] = *c;
				p->call[p->ncalls].thread = fuzz_below(r, 2);
				p->ncalls++;
			}
			break;
		}
	}
}

/* Prints @p as text, one call per line, as fuzz_parse() reads it. */
void fuzz_print(FILE *f, const struct fuzz_prog *p)
{
	for (unsigned int i = 0; i < p->ncalls; i++) {
		const struct fuzz_call *c = &p->call[i];
		const struct fuzz_call_desc *d = &fuzz_calls[c->id];

		if (c->thread)
			fprintf(f, "@%u ", c->thread);
		fprintf(f, "%s", d->name);
		for (unsigned int a = 0; a < d->nargs; a++) {
			struct fuzz_arg v = c->arg[a];

			if (v.t == FT_REF)
				fprintf(f, " r%llu", (unsigned long long)v.v);
			else if (v.t == FT_FD)
				fprintf(f, " fd%llu", (unsigned long long)v.v);
			else
				fprintf(f, " 0x%llx", (unsigned long long)v.v);
		}
		fprintf(f, "\n");
	}
}

/* Parses the text fuzz_print() writes; '#' starts a comment. */
int fuzz_parse(const char *text, struct fuzz_prog *p, char *err, size_t errlen)
{
	const char *line = text;
	unsigned int lineno = 0;

	memset(p, 0, sizeof(*p));
	while (line && *line) {
		const char *end = strchr(line, '\n');
		size_t len = end ? (size_t)(end - line) : strlen(line);
		char buf[512], *tok, *save;
		struct fuzz_call c = { 0 };
		unsigned int a = 0;
		int id = -1;

		lineno++;
		if (len >= sizeof(buf))
			len = sizeof(buf) - 1;
		memcpy(buf, line, len);
		buf[len] = '\0';
		line = end ? end + 1 : NULL;
		if (strchr(buf, '#'))
			*strchr(buf, '#') = '\0';
		tok = strtok_r(buf, " \t\r", &save);
		if (!tok)
			continue;
		if (tok[0] == '@') {
			c.thread = atoi(tok + 1) & 1;
			tok = strtok_r(NULL, " \t\r", &save);
			if (!tok)
				goto bad;
		}
		id = fuzz_call_by_name(tok);
		if (id < 0) {
			snprintf(err, errlen, "line %u: unknown call '%s'", lineno, tok);
			return -1;
		}
		c.id = id;
		while ((tok = strtok_r(NULL, " \t\r", &save))) {
			struct fuzz_arg v;

			if (a >= fuzz_calls[id].nargs)
				goto bad;
			if (tok[0] == 'r' && isdigit((unsigned char)tok[1]))
				v = REF(strtoull(tok + 1, NULL, 10));
			else if (!strncmp(tok, "fd", 2) && isdigit((unsigned char)tok[2]))
				v = FD(strtoull(tok + 2, NULL, 10));
			else
				v = LIT(strtoull(tok, NULL, 0));
			if (v.t == FT_REF && v.v >= p->ncalls) {
				snprintf(err, errlen, "line %u: r%llu is not an earlier call", lineno,
					 (unsigned long long)v.v);
				return -1;
			}
			if (v.t == FT_FD && v.v >= FUZZ_DEVICE_FILES) {
				snprintf(err, errlen, "line %u: fd%llu: there are %d device files",
					 lineno, (unsigned long long)v.v, FUZZ_DEVICE_FILES);
				return -1;
			}
			c.arg[a++] = v;
		}
		if (a != fuzz_calls[id].nargs)
			goto bad;
		if (p->ncalls >= FUZZ_MAX_CALLS) {
			snprintf(err, errlen, "more than %d calls", FUZZ_MAX_CALLS);
			return -1;
		}
		p->call[p->ncalls++] = c;
		continue;
bad:
		snprintf(err, errlen, "line %u: '%s' takes %u arguments", lineno,
			 fuzz_calls[id >= 0 ? id : 0].name, fuzz_calls[id >= 0 ? id : 0].nargs);
		return -1;
	}
	return 0;
}
