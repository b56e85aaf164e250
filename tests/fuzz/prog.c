// SPDX-License-Identifier: GPL-2.0-only
/*
 * prog.c - vaccel-fuzz: programs: how they are generated, mutated, printed
 * and parsed.
 *
 * Generation mixes two things: snippets, the short call sequences a real
 * user makes (a BO filled with a DMA buffer, mapped and submitted on a new
 * context; a kernel and its data mapped and dispatched; a BO shared as a
 * dma-buf and imported again; a syncobj exported as a sync_file), which
 * get the program deep into the driver, and single calls with arguments
 * drawn from valid, boundary and invalid values, which make the snippets'
 * resources meet in ways nobody planned.  Mutation changes an argument,
 * inserts or removes a call, moves a call to the other thread or repeats
 * one.  Every choice comes from a fuzz_rng: the same seed and stream give
 * the same program.
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"

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

static struct fuzz_arg ref_or(const struct fuzz_prog *p, unsigned int at,
			       enum fuzz_res_kind kind, struct fuzz_rng *r, struct fuzz_arg literal)
{
	int i = find_res(p, at, kind, r);

	if (i >= 0 && fuzz_chance(r, 90))
		return REF(i);
	return literal;
}

static uint64_t gen_literal(enum fuzz_arg_kind k, struct fuzz_rng *r)
{
	switch (k) {
	case FA_SLOT:
		if (fuzz_chance(r, 85))
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
	default:
		return 0;
	}
	return 0;
}

static struct fuzz_arg gen_arg(const struct fuzz_prog *p, unsigned int at,
				enum fuzz_arg_kind k, struct fuzz_rng *r)
{
	switch (k) {
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

/*
 * A BO of @size mapped at @slot in the device file's VM, CPU-mapped;
 * returns the index of the mapping call, or -1 when the program is full.
 */
static int snippet_bo(struct fuzz_prog *p, struct fuzz_rng *r, struct fuzz_arg fd,
		      uint64_t slot, uint64_t size, unsigned int thread)
{
	struct fuzz_arg sync = fuzz_chance(r, 20) ? gen_arg(p, p->ncalls, FA_SYNCOBJ, r) : LIT(0);
	int bo, map;

	bo = add(p, CALL("bo_create"), thread, ARGS(fd, LIT(size), LIT(0)));
	if (bo < 0)
		return -1;
	map = add(p, CALL("bo_mmap"), thread, ARGS(fd, REF(bo), LIT(size), LIT(0)));
	if (add(p, CALL("bind_map"), thread,
		ARGS(fd, REF(bo), LIT(slot), LIT(size), LIT(0),
		     LIT(fuzz_chance(r, 10) ? fuzz_below(r, 4) : 0), sync)) < 0)
		return -1;
	return map;
}

/* A DMA buffer written, mapped and submitted on a new or existing context. */
static void snippet_submit(struct fuzz_prog *p, struct fuzz_rng *r, bool dispatch)
{
	struct fuzz_arg fd = FD(fuzz_chance(r, 90) ? 0 : 1), wait, size;
	unsigned int t = fuzz_chance(r, 75) ? 0 : 1;
	int map, ctx, so = -1;

	map = snippet_bo(p, r, fd, 0, 0x4000, t);
	if (map < 0)
		return;
	add(p, CALL("write_buffer"), t, ARGS(REF(map), gen_arg(p, p->ncalls, FA_KIND, r),
					     LIT(fuzz_next(r) & 0xffffffff)));
	if (dispatch) {
		int kmap = snippet_bo(p, r, fd, 1, 0x4000, t);

		if (kmap < 0)
			return;
		add(p, CALL("write_kernel"), t, ARGS(REF(kmap), gen_arg(p, p->ncalls, FA_KIND, r),
						     LIT(fuzz_next(r) & 0xffffffff)));
	}
	/* Mostly a data BO; without one, the buffer's data accesses fault. */
	if (fuzz_chance(r, 70))
		snippet_bo(p, r, fd, 2, 0x10000, t);
	ctx = find_res(p, p->ncalls, FR_CTX, r);
	if (ctx < 0 || fuzz_chance(r, 50))
		ctx = add(p, CALL("ctx_create"), t,
			  ARGS(fd, LIT(dispatch || fuzz_chance(r, 70) ? 0 : 1), LIT(7),
			       LIT(fuzz_chance(r, 90) ? fuzz_below(r, 2) : fuzz_below(r, 4)),
			       LIT(0)));
	if (ctx < 0)
		return;
	if (fuzz_chance(r, 60))
		so = add(p, CALL("syncobj_create"), t, ARGS(fd, LIT(0)));
	size = fuzz_chance(r, 80) ? LIT(8 * (1 + fuzz_below(r, 64))) : gen_arg(p, 0, FA_SIZE, r);
	wait = fuzz_chance(r, 20) ? gen_arg(p, p->ncalls, FA_SYNCOBJ, r) : LIT(0);
	add(p, CALL("submit"), t,
	    ARGS(fd, REF(ctx), LIT(0), size, wait, so >= 0 ? REF(so) : LIT(0),
		 LIT(fuzz_chance(r, 80) ? 0 : 1 + fuzz_below(r, 4))));
	if (so >= 0 && fuzz_chance(r, 70))
		add(p, CALL("syncobj_wait"), fuzz_chance(r, 80) ? t : !t,
		    ARGS(fd, REF(so), LIT(fuzz_chance(r, 50) ? 1 : 0), LIT(50000000)));
}

/* A BO shared: exported, passed over the socket, imported, mapped. */
static void snippet_share(struct fuzz_prog *p, struct fuzz_rng *r)
{
	struct fuzz_arg fd_ref;
	int bo, dmabuf, got;

	bo = add(p, CALL("bo_create"), 0, ARGS(FD(0), LIT(0x2000), LIT(0)));
	if (bo < 0)
		return;
	dmabuf = add(p, CALL("prime_export"), 0, ARGS(FD(0), REF(bo), LIT(1)));
	if (dmabuf < 0)
		return;
	fd_ref = REF(dmabuf);
	if (fuzz_chance(r, 40)) {
		add(p, CALL("send_fd"), 0, ARGS(REF(dmabuf)));
		got = add(p, CALL("recv_fd"), fuzz_below(r, 2), ARGS(LIT(0)));
		if (got < 0)
			return;
		fd_ref = REF(got);
	}
	add(p, CALL("prime_import"), fuzz_below(r, 2), ARGS(FD(fuzz_below(r, 2)), fd_ref));
	if (fuzz_chance(r, 50))
		add(p, CALL("dmabuf_mmap"), 0, ARGS(fd_ref, LIT(0x2000), LIT(0)));
	if (fuzz_chance(r, 50))
		add(p, CALL("gem_close"), fuzz_below(r, 2), ARGS(FD(0), REF(bo)));
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

void fuzz_generate(struct fuzz_prog *p, struct fuzz_rng *r)
{
	unsigned int target = 4 + fuzz_below(r, 32);

	memset(p, 0, sizeof(*p));
	while (p->ncalls < target) {
		unsigned int before = p->ncalls;

		switch (fuzz_below(r, 10)) {
		case 0: case 1: case 2:
			snippet_submit(p, r, false);
			break;
		case 3: case 4:
			snippet_submit(p, r, true);
			break;
		case 5:
			snippet_share(p, r);
			break;
		case 6:
			snippet_syncfile(p, r);
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
