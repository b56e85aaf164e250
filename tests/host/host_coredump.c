// SPDX-License-Identifier: MIT
/*
 * Copyright 2026 The vaccel authors
 *
 * host_coredump.c - vaccel-coredump's decoder, umd/tools/vaccel-coredump.c
 * compiled in, on a dump made here with every section type:
 *
 *	host_coredump write FILE [grown|shrunk]
 *		writes the dump: as the driver writes it; with entries longer
 *		than the decoder knows (a newer format: the tail is ignored)
 *		and a section of an unknown type (skipped); or with entries
 *		shorter (the missing fields read as zero).  run.sh decodes
 *		them with the vaccel-coredump binary and checks its text.
 *
 *	host_coredump fuzz ITERATIONS [SEED]
 *		decodes the dump, then every truncation of it (each must be
 *		refused as truncated), then ITERATIONS random mutations of it
 *		(bits, bytes, fields of the header and of the section headers
 *		set to edge values, cuts and appended bytes), each accepted
 *		or refused but never a crash.  run.sh builds this with
 *		-fsanitize=address,undefined and no recovery, so that any
 *		out-of-bounds access or undefined behaviour kills it.
 *
 * Prints the first failed check on stderr and exits 1, else a summary on
 * stderr and exits 0.
 */
#define main vaccel_coredump_main
#include "../../umd/tools/vaccel-coredump.c"
#undef main

#include "host_check.h"

/* A dump being built. */
struct builder {
	uint8_t *p;
	size_t len;
	uint32_t sections;
};

/* Appends a section of @count entries of @size bytes, each @entry_size long. */
static void add(struct builder *b, uint32_t type, const void *entries,
		uint32_t count, size_t size, uint32_t entry_size)
{
	struct drm_vaccel_coredump_section s = {
		.type = type,
		.size = sizeof(s) + count * entry_size,
		.count = count,
		.entry_size = entry_size,
	};
	uint32_t i;

	b->p = realloc(b->p, b->len + s.size);
	CHECK(b->p);
	memcpy(b->p + b->len, &s, sizeof(s));
	for (i = 0; i < count; i++) {
		uint8_t *e = b->p + b->len + sizeof(s) + (size_t)i * entry_size;

		memset(e, 0, entry_size);
		memcpy(e, (const uint8_t *)entries + i * size,
		       size < entry_size ? size : entry_size);
	}
	b->len += s.size;
	b->sections++;
}

/* The example dump: a kernel's fault, every section; @grow bytes per entry. */
static struct builder make_dump(int grow)
{
	struct drm_vaccel_coredump_header h = {
		.magic = DRM_VACCEL_COREDUMP_MAGIC,
		.version = DRM_VACCEL_COREDUMP_VERSION,
		.header_size = sizeof(h),
		.kind = DRM_VACCEL_COREDUMP_FAULT,
		.time_ns = 1764000000123456789ull,
		.monotonic_ns = 42000000007ull,
		.device_index = 1,
		.engine_index = 0,
		.sequence = 5,
		.dropped = 2,
	};
	struct drm_vaccel_coredump_device dev = {
		.device_index = 1, .uapi_major = 1, .uapi_minor = 5, .num_engines = 2,
		.engine_count = { 1, 0, 1 }, .va_bits = 48, .va_start = 0x10000,
		.va_end = 1ull << 48, .timeout_ns = 2000000000, .time_limit_ns = 30000000000ull,
		.timeslice_ns = 10000000, .dispatch_slice = 8192, .device_resets = 3,
		.kernel_release = "6.12.0-test",
	};
	struct drm_vaccel_coredump_engine eng[2] = {
		{ .index = 0, .engine_class = DRM_VACCEL_ENGINE_CLASS_COMPUTE,
		  .preempt_granularity = DRM_VACCEL_PREEMPT_INSTRUCTION, .hw_queue_depth = 2,
		  .slots_used = 2, .num_contexts = 2, .flags = DRM_VACCEL_COREDUMP_ENGINE_RUNNING,
		  .resets = 1, .hangs = 1, .instructions = 1234, .running_ns = 5000,
		  .band_ns = { 0, 77, 0, 0 }, .band_ready = { 0, 1, 0, 0 },
		  .preemptions = { 0, 0, 3, 0, 0, 1 },
		  .slot = { { .context = 7, .client_id = 9, .buffer_va = 0x1000000,
			      .buffer_size = 0x60, .offset = 0x18, .priority = 1 },
			    { .context = 8, .flags = DRM_VACCEL_COREDUMP_SLOT_STARTED,
			      .client_id = 9, .buffer_va = 0x2000000, .buffer_size = 8,
			      .priority = 1 } } },
		{ .index = 1, .engine_class = DRM_VACCEL_ENGINE_CLASS_PAGING, .hw_queue_depth = 2 },
	};
	struct drm_vaccel_coredump_context ctx = {
		.handle = 7, .flags = DRM_VACCEL_COREDUMP_CONTEXT_GUILTY |
		DRM_VACCEL_COREDUMP_CONTEXT_FAULTED | DRM_VACCEL_COREDUMP_CONTEXT_BANNED,
		.client_id = 9, .pid = 4321, .comm = "a-comm-of-16-ch!", .priority = 1,
		.ban_reason = DRM_VACCEL_BAN_FAULT, .error = -125, .jobs_submitted = 2,
		.jobs_completed = 1, .fault_va = 0x3000000, .fault_pc = 0x4000008,
		.fault_offset = 0x18, .fault_reason = DRM_VACCEL_FAULT_UNMAPPED,
		.fault_access = DRM_VACCEL_ACCESS_WRITE,
	};
	struct drm_vaccel_coredump_buffer buf = {
		.context = 7, .buffer_va = 0x1000000, .buffer_size = 0x60, .offset = 0x18,
		.excerpt_offset = 0, .excerpt_size = 0x60,
		.excerpt_valid = { 0x0000ffffffffffffull },
	};
	struct drm_vaccel_coredump_dispatch x = {
		.entry = 0x4000000, .args = 0x5000000, .grid = { 4, 1, 1 }, .wg = { 2, 1, 1 },
		.num_groups = { 2, 1, 1 }, .stack_size = 64, .group = 1, .total_groups = 2,
		.group_id = { 1, 0, 0 }, .live = 2, .waiting = 1, .current_item = 0,
	};
	struct drm_vaccel_coredump_workitem w[2] = {
		{ .flat_id = 0, .state = DRM_VACCEL_COREDUMP_WORKITEM_RUNNING,
		  .global_id = { 2, 0, 0 }, .fcsr = 0x21, .pc = 0x4000008, .instret = 2,
		  .x = { [10] = 0x5000000, [11] = 0x3000000 } },
		{ .flat_id = 1, .state = DRM_VACCEL_COREDUMP_WORKITEM_BARRIER,
		  .local_id = { 1, 0, 0 }, .global_id = { 3, 0, 0 }, .pc = 0x4000010 },
	};
	struct drm_vaccel_coredump_page_walk pw = {
		.va = 0x3000000, .va_start = 0x10000, .va_end = 1ull << 48, .levels = 4,
		.flags = DRM_VACCEL_COREDUMP_WALK_IN_RANGE,
		.entry = { 0, 0xabc001, 0xdef001, 0x123001 },
	};
	uint64_t hdr = DRM_VACCEL_PKT_HEADER(DRM_VACCEL_PKT_DISPATCH, 0, 11);
	struct builder b = { NULL, 0, 0 };
	uint64_t unknown[2] = { 1, 2 };

	memcpy(&buf.excerpt[0x18], &hdr, 8);
	memcpy(&buf.excerpt[0x20], &x.entry, 8);
	b.len = sizeof(h);
	b.p = calloc(1, b.len);
	CHECK(b.p);
	add(&b, DRM_VACCEL_COREDUMP_SECTION_DEVICE, &dev, 1, sizeof(dev), sizeof(dev) + grow);
	add(&b, DRM_VACCEL_COREDUMP_SECTION_ENGINE, eng, 2, sizeof(eng[0]),
	    sizeof(eng[0]) + grow);
	add(&b, DRM_VACCEL_COREDUMP_SECTION_CONTEXT, &ctx, 1, sizeof(ctx), sizeof(ctx) + grow);
	add(&b, DRM_VACCEL_COREDUMP_SECTION_BUFFER, &buf, 1, sizeof(buf), sizeof(buf) + grow);
	add(&b, DRM_VACCEL_COREDUMP_SECTION_DISPATCH, &x, 1, sizeof(x), sizeof(x) + grow);
	add(&b, DRM_VACCEL_COREDUMP_SECTION_WORKITEM, w, 2, sizeof(w[0]), sizeof(w[0]) + grow);
	add(&b, DRM_VACCEL_COREDUMP_SECTION_PAGE_WALK, &pw, 1, sizeof(pw), sizeof(pw) + grow);
	if (grow > 0)
		add(&b, 99, unknown, 2, 8, 8);
	h.total_size = b.len;
	h.num_sections = b.sections;
	memcpy(b.p, &h, sizeof(h));
	return b;
}

/* A random number, xorshift64*. */
static uint64_t rnd_state = 88172645463325252ull;

static uint64_t rnd(void)
{
	rnd_state ^= rnd_state >> 12;
	rnd_state ^= rnd_state << 25;
	rnd_state ^= rnd_state >> 27;
	return rnd_state * 2685821657736338717ull;
}

/* The offsets of the section headers of a well-formed dump. */
static size_t headers(const struct builder *b, size_t *at, size_t max)
{
	size_t off = sizeof(struct drm_vaccel_coredump_header), n = 0;
	struct drm_vaccel_coredump_section s;

	while (off + sizeof(s) <= b->len && n < max) {
		memcpy(&s, b->p + off, sizeof(s));
		at[n++] = off;
		off += s.size;
	}
	return n;
}

static void put32(uint8_t *p, size_t len, size_t off, uint32_t v)
{
	if (off + 4 <= len)
		memcpy(p + off, &v, 4);
}

static uint32_t edge(void)
{
	static const uint32_t v[] = {
		0, 1, 7, 8, 16, 72, 0x7f, 0x80, 0xff, 0x100, 0xfff, 0x1000, 0x7fffffff,
		0x80000000, 0xfffffff8, 0xffffffff,
	};

	return rnd() % 4 ? v[rnd() % ARRAY_SIZE(v)] : (uint32_t)rnd();
}

/* One random change to @p (@len bytes, room for @cap); returns the new length. */
static size_t mutate(uint8_t *p, size_t len, size_t cap, const size_t *hdr, size_t nhdr)
{
	size_t off;

	switch (rnd() % 8) {
	case 0:		/* a bit */
		off = rnd() % len;
		p[off] ^= 1u << (rnd() % 8);
		break;
	case 1:		/* a byte */
		p[rnd() % len] = (uint8_t)rnd();
		break;
	case 2:		/* a field of the header */
		put32(p, len, 4 * (rnd() % (sizeof(struct drm_vaccel_coredump_header) / 4)),
		      edge());
		break;
	case 3:		/* a field of a section header */
		off = hdr[rnd() % nhdr] + 4 * (rnd() % 4);
		put32(p, len, off, edge());
		break;
	case 4:		/* a word of an entry, often an index or a count */
		if (len >= 4)
			put32(p, len, (rnd() % (len / 4)) * 4, edge());
		break;
	case 5:		/* cut */
		return rnd() % len;
	case 6:		/* bytes after the end */
		if (len == cap)
			break;
		off = len + rnd() % (cap - len);
		memset(p + len, (int)rnd(), off - len);
		return off;
	default:	/* a section header's size kept consistent with a new count */
		off = hdr[rnd() % nhdr];
		put32(p, len, off + 8, edge() % 64);
		{
			struct drm_vaccel_coredump_section s;

			memcpy(&s, p + off, sizeof(s));
			put32(p, len, off + 4, (uint32_t)(sizeof(s) + s.count * s.entry_size));
		}
		break;
	}
	return len;
}

static int fuzz(unsigned long iterations)
{
	struct builder b = make_dump(0);
	size_t hdr[16], nhdr = headers(&b, hdr, 16), cap = b.len + 256, len;
	unsigned long n, accepted = 0, refused = 0;
	uint8_t *p;

	CHECK(nhdr == 7);
	CHECK(freopen("/dev/null", "w", stdout));
	CHECK_EQ(print_dump(b.p, b.len), 0);
	/* Every truncation, refused for what it is. */
	for (len = 0; len < b.len; len++) {
		CHECK_EQ(print_dump(b.p, len), -1);
		if (!strstr(refusal, "truncated")) {
			fprintf(stderr, "%zu bytes: '%s'\n", len, refusal);
			return 1;
		}
	}
	p = malloc(cap);
	CHECK(p);
	for (n = 0; n < iterations; n++) {
		unsigned int k = 1 + rnd() % 4;

		memcpy(p, b.p, b.len);
		len = b.len;
		while (k-- && len)
			len = mutate(p, len, cap, hdr, nhdr);
		/* A copy of exactly @len bytes: ASan sees any read past it. */
		{
			uint8_t *q = malloc(len ? len : 1);

			CHECK(q);
			memcpy(q, p, len);
			if (print_dump(q, len))
				refused++;
			else
				accepted++;
			free(q);
		}
	}
	fprintf(stderr, "host_coredump: %zu truncations refused; %lu mutations: %lu decoded, "
		"%lu refused\n", b.len, iterations, accepted, refused);
	CHECK(accepted > 0 && refused > 0);
	free(p);
	free(b.p);
	return 0;
}

int main(int argc, char **argv)
{
	struct builder b;
	FILE *f;
	int grow = 0;

	if (argc >= 3 && !strcmp(argv[1], "fuzz")) {
		if (argc >= 4)
			rnd_state = strtoull(argv[3], NULL, 0) | 1;
		return fuzz(strtoul(argv[2], NULL, 0));
	}
	if (argc < 3 || strcmp(argv[1], "write")) {
		fprintf(stderr, "usage: host_coredump write FILE [grown|shrunk] | fuzz N [SEED]\n");
		return 2;
	}
	if (argc >= 4)
		grow = !strcmp(argv[3], "grown") ? 16 : !strcmp(argv[3], "shrunk") ? -8 : 0;
	b = make_dump(grow);
	f = fopen(argv[2], "wb");
	CHECK(f);
	CHECK(fwrite(b.p, 1, b.len, f) == b.len);
	CHECK(!fclose(f));
	free(b.p);
	return 0;
}
