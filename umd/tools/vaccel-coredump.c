// SPDX-License-Identifier: MIT
/*
 * Copyright 2026 The vaccel authors
 *
 * vaccel-coredump.c - decode a vaccel device coredump into text.
 *
 *	vaccel-coredump FILE		the dump in FILE ("-": standard input)
 *	vaccel-coredump			every pending dump of a vaccel device
 *	vaccel-coredump -d N		the pending dump of device N (vaccel.N)
 *	vaccel-coredump -c [-d N]	the same, then clear it (frees it)
 *	vaccel-coredump -s OUT [-d N]	the same, and save the raw dump
 *
 * Pending dumps are found under /sys/class/devcoredump (or
 * $VACCEL_DEVCOREDUMP_DIR): each devcdM directory whose failing_device
 * link names vaccel.N.
 *
 * The dump is data from outside, and it is read as hostile: every size,
 * count and offset is checked against the bytes read before anything is
 * used, every value that indexes a table is checked against the table, and
 * a dump that does not hold together is refused with a message saying why.
 * The format is uapi/drm/vaccel_coredump.h's; entries shorter than this
 * program's structures read as zero-extended, longer ones as truncated,
 * and unknown section types are skipped, so that newer dumps still decode.
 *
 * Exits 0 when every dump asked for was decoded, 1 otherwise (none
 * pending, unreadable, refused), 2 on a usage error.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <inttypes.h>
#include <limits.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <drm/vaccel_accel.h>
#include <drm/vaccel_coredump.h>

#define PROG		"vaccel-coredump"
#define DEVCD_DIR	"/sys/class/devcoredump"
/* Far above any dump vaccel writes (some 30 KiB): a bound on what is read. */
#define MAX_DUMP	(16u << 20)
/* How long a cleared dump may take to leave sysfs. */
#define CLEAR_WAIT_MS	5000

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

static void usage(FILE *f)
{
	fprintf(f,
		"usage: " PROG " [-h] [-c] [-d N] [-s OUT] [FILE]\n"
		"Decode a vaccel device coredump into text.\n"
		"\n"
		"  FILE       the dump to decode ('-' for standard input); without it,\n"
		"             the pending dumps of vaccel devices (" DEVCD_DIR ")\n"
		"  -d N       only the pending dump of device N (vaccel.N)\n"
		"  -c         clear the pending dump once read, which frees it\n"
		"  -s OUT     also save the raw dump to OUT\n"
		"  -h         this help\n"
		"\n"
		"Exits 0 when every dump was decoded, 1 when none was pending or one\n"
		"could not be read or was refused (truncated, corrupt), 2 on a usage\n"
		"error.\n");
}

/* --- the dump, checked --- */

/* A section, its entries within the dump. */
struct section {
	uint32_t type;
	uint32_t count;
	uint32_t entry_size;
	size_t offset;		/* of the first entry */
};

struct dump {
	const uint8_t *data;
	size_t len;
	struct drm_vaccel_coredump_header h;
	struct section *sec;
	uint32_t nsec;
};

/* Why a dump was refused; the first error wins. */
static char refusal[256];

__attribute__((format(printf, 1, 2)))
static int refuse(const char *fmt, ...)
{
	va_list ap;

	if (refusal[0])
		return -1;
	va_start(ap, fmt);
	vsnprintf(refusal, sizeof(refusal), fmt, ap);
	va_end(ap);
	return -1;
}

/* Copies entry @i of @s into @dst of @size bytes: zero-extended or cut. */
static void entry(const struct dump *d, const struct section *s, uint32_t i,
		  void *dst, size_t size)
{
	size_t n = s->entry_size < size ? s->entry_size : size;

	memset(dst, 0, size);
	memcpy(dst, d->data + s->offset + (size_t)i * s->entry_size, n);
}

static const struct section *find(const struct dump *d, uint32_t type)
{
	uint32_t i;

	for (i = 0; i < d->nsec; i++)
		if (d->sec[i].type == type)
			return &d->sec[i];
	return NULL;
}

/* Section types that hold exactly one entry. */
static bool single_entry(uint32_t type)
{
	switch (type) {
	case DRM_VACCEL_COREDUMP_SECTION_DEVICE:
	case DRM_VACCEL_COREDUMP_SECTION_CONTEXT:
	case DRM_VACCEL_COREDUMP_SECTION_BUFFER:
	case DRM_VACCEL_COREDUMP_SECTION_DISPATCH:
	case DRM_VACCEL_COREDUMP_SECTION_PAGE_WALK:
		return true;
	}
	return false;
}

static int parse(struct dump *d, const uint8_t *data, size_t len)
{
	const size_t hsize = sizeof(struct drm_vaccel_coredump_header);
	struct drm_vaccel_coredump_section sh;
	uint64_t magic;
	size_t off;
	uint32_t i, j;

	memset(d, 0, sizeof(*d));
	d->data = data;
	d->len = len;
	if (len < sizeof(magic))
		return refuse("truncated: %zu bytes, not even a magic number", len);
	memcpy(&magic, data, sizeof(magic));
	if (magic == __builtin_bswap64(DRM_VACCEL_COREDUMP_MAGIC))
		return refuse("a vaccel coredump of the other byte order, which this "
			      "program does not read");
	if (magic != DRM_VACCEL_COREDUMP_MAGIC)
		return refuse("not a vaccel coredump (magic 0x%016" PRIx64 ")", magic);
	if (len < hsize)
		return refuse("truncated: %zu bytes, the header alone takes %zu", len, hsize);
	memcpy(&d->h, data, hsize);
	if (d->h.version != DRM_VACCEL_COREDUMP_VERSION)
		return refuse("format version %u, this program reads version %u",
			      d->h.version, DRM_VACCEL_COREDUMP_VERSION);
	if (d->h.total_size > len)
		return refuse("truncated: the header says %" PRIu64 " bytes, there are %zu",
			      (uint64_t)d->h.total_size, len);
	if (d->h.total_size < len)
		return refuse("corrupt: %zu bytes after the %" PRIu64 " of the dump",
			      len - (size_t)d->h.total_size, (uint64_t)d->h.total_size);
	if (d->h.header_size < hsize || d->h.header_size % 8 || d->h.header_size > len)
		return refuse("corrupt: a header size of %u bytes", d->h.header_size);
	if (d->h.num_sections > (len - d->h.header_size) / sizeof(sh))
		return refuse("corrupt: %u sections cannot fit in %zu bytes",
			      d->h.num_sections, len - d->h.header_size);

	d->nsec = d->h.num_sections;
	d->sec = calloc(d->nsec ? d->nsec : 1, sizeof(*d->sec));
	if (!d->sec)
		return refuse("out of memory");
	off = d->h.header_size;
	for (i = 0; i < d->nsec; i++) {
		uint64_t want;

		if (len - off < sizeof(sh))
			return refuse("truncated: section %u of %u starts at byte %zu, "
				      "past the end", i, d->nsec, off);
		memcpy(&sh, data + off, sizeof(sh));
		if (sh.count && (!sh.entry_size || sh.entry_size % 8))
			return refuse("corrupt: section %u has entries of %u bytes",
				      i, sh.entry_size);
		want = sizeof(sh) + (uint64_t)sh.count * sh.entry_size;
		if (sh.size != want)
			return refuse("corrupt: section %u is %u bytes, its %u entries of "
				      "%u bytes need %" PRIu64, i, sh.size, sh.count,
				      sh.entry_size, want);
		if (sh.size > len - off)
			return refuse("truncated: section %u (%u bytes at byte %zu) runs "
				      "past the end", i, sh.size, off);
		if (single_entry(sh.type) && sh.count != 1)
			return refuse("corrupt: section %u (type %u) has %u entries, not 1",
				      i, sh.type, sh.count);
		for (j = 0; j < i; j++)
			if (single_entry(sh.type) && d->sec[j].type == sh.type)
				return refuse("corrupt: section %u repeats type %u", i, sh.type);
		d->sec[i].type = sh.type;
		d->sec[i].count = sh.count;
		d->sec[i].entry_size = sh.entry_size;
		d->sec[i].offset = off + sizeof(sh);
		off += sh.size;
	}
	if (off != len)
		return refuse("corrupt: %zu bytes after the last section", len - off);
	if (!find(d, DRM_VACCEL_COREDUMP_SECTION_DEVICE))
		return refuse("corrupt: no device section");
	return 0;
}

/* --- names --- */

/* The name of @v in @names, or a number in @buf. */
static const char *name_of(const char *const *names, size_t n, uint64_t v,
			   char *buf, size_t len)
{
	if (v < n && names[v])
		return names[v];
	snprintf(buf, len, "#%" PRIu64, v);
	return buf;
}

#define NAME(table, v, buf)	name_of(table, ARRAY_SIZE(table), v, buf, sizeof(buf))

static const char *const kind_names[] = {
	[DRM_VACCEL_COREDUMP_HANG] = "hang",
	[DRM_VACCEL_COREDUMP_ENGINE_RESET] = "engine reset",
	[DRM_VACCEL_COREDUMP_DEVICE_RESET] = "device reset",
	[DRM_VACCEL_COREDUMP_FAULT] = "fault",
	[DRM_VACCEL_COREDUMP_TIME_LIMIT] = "time limit",
};

static const char *const class_names[] = {
	[DRM_VACCEL_ENGINE_CLASS_COMPUTE] = "compute",
	[DRM_VACCEL_ENGINE_CLASS_COPY] = "copy",
	[DRM_VACCEL_ENGINE_CLASS_PAGING] = "paging",
};

static const char *const granularity_names[] = {
	[DRM_VACCEL_PREEMPT_DMA_BUFFER] = "dma-buffer",
	[DRM_VACCEL_PREEMPT_PACKET] = "packet",
	[DRM_VACCEL_PREEMPT_WORKGROUP] = "workgroup",
	[DRM_VACCEL_PREEMPT_INSTRUCTION] = "instruction",
};

static const char *const priority_names[] = {
	[DRM_VACCEL_PRIORITY_LOW] = "low",
	[DRM_VACCEL_PRIORITY_NORMAL] = "normal",
	[DRM_VACCEL_PRIORITY_HIGH] = "high",
	[DRM_VACCEL_PRIORITY_REALTIME] = "realtime",
};

static const char *const ban_names[] = {
	[DRM_VACCEL_BAN_NONE] = "none",
	[DRM_VACCEL_BAN_FAULT] = "fault",
	[DRM_VACCEL_BAN_HANG] = "hang",
	[DRM_VACCEL_BAN_TIME_LIMIT] = "time limit",
};

static const char *const reason_names[] = {
	[DRM_VACCEL_FAULT_NONE] = "none",
	[DRM_VACCEL_FAULT_UNMAPPED] = "unmapped",
	[DRM_VACCEL_FAULT_OUT_OF_RANGE] = "out of range",
	[DRM_VACCEL_FAULT_PERMISSION] = "permission",
	[DRM_VACCEL_FAULT_MALFORMED] = "malformed packet",
	[DRM_VACCEL_FAULT_ILLEGAL_INSTRUCTION] = "illegal instruction",
	[DRM_VACCEL_FAULT_COMPRESSED] = "compressed instruction",
	[DRM_VACCEL_FAULT_MISALIGNED] = "misaligned",
	[DRM_VACCEL_FAULT_CSR] = "csr",
	[DRM_VACCEL_FAULT_TRAP] = "trap",
};

static const char *const access_names[] = {
	[DRM_VACCEL_ACCESS_READ] = "read",
	[DRM_VACCEL_ACCESS_WRITE] = "write",
	[DRM_VACCEL_ACCESS_EXEC] = "exec",
};

static const char *const preempt_names[] = {
	[DRM_VACCEL_COREDUMP_PREEMPT_PRIORITY] = "priority",
	[DRM_VACCEL_COREDUMP_PREEMPT_SLICE] = "slice",
	[DRM_VACCEL_COREDUMP_PREEMPT_STARVATION] = "starvation",
	[DRM_VACCEL_COREDUMP_PREEMPT_FORCED] = "forced",
	[DRM_VACCEL_COREDUMP_PREEMPT_RESET] = "reset",
};

static const char *const state_names[] = {
	[DRM_VACCEL_COREDUMP_WORKITEM_RUNNING] = "running",
	[DRM_VACCEL_COREDUMP_WORKITEM_READY] = "ready",
	[DRM_VACCEL_COREDUMP_WORKITEM_BARRIER] = "at the barrier",
};

static const char *const packet_names[] = {
	[DRM_VACCEL_PKT_NOP] = "NOP",
	[DRM_VACCEL_PKT_WRITE_IMM] = "WRITE_IMM",
	[DRM_VACCEL_PKT_COPY] = "COPY",
	[DRM_VACCEL_PKT_FILL] = "FILL",
	[DRM_VACCEL_PKT_TIMESTAMP] = "TIMESTAMP",
	[DRM_VACCEL_PKT_WAIT_MEM] = "WAIT_MEM",
	[DRM_VACCEL_PKT_DELAY] = "DELAY",
	[DRM_VACCEL_PKT_DISPATCH] = "DISPATCH",
};

/* The operands of each packet, header excluded. */
static const char *const *const packet_operands[] = {
	[DRM_VACCEL_PKT_WRITE_IMM] = (const char *const[]){ "va", "value", NULL },
	[DRM_VACCEL_PKT_COPY] = (const char *const[]){ "src", "dst", "size", NULL },
	[DRM_VACCEL_PKT_FILL] = (const char *const[]){ "dst", "size", "value", NULL },
	[DRM_VACCEL_PKT_TIMESTAMP] = (const char *const[]){ "va", NULL },
	[DRM_VACCEL_PKT_WAIT_MEM] = (const char *const[]){ "va", "reference", "mask", NULL },
	[DRM_VACCEL_PKT_DELAY] = (const char *const[]){ "ns", NULL },
	[DRM_VACCEL_PKT_DISPATCH] = (const char *const[]){
		"entry", "args", "grid x", "grid y", "grid z", "wg x", "wg y", "wg z",
		"local size", "stack size", NULL },
};

static const char *const wait_names[] = {
	[DRM_VACCEL_WAIT_EQ] = "==",
	[DRM_VACCEL_WAIT_NE] = "!=",
	[DRM_VACCEL_WAIT_GT] = ">",
	[DRM_VACCEL_WAIT_GE] = ">=",
	[DRM_VACCEL_WAIT_LT] = "<",
	[DRM_VACCEL_WAIT_LE] = "<=",
};

static const char *const xreg_names[32] = {
	"zero", "ra", "sp", "gp", "tp", "t0", "t1", "t2", "s0", "s1", "a0", "a1",
	"a2", "a3", "a4", "a5", "a6", "a7", "s2", "s3", "s4", "s5", "s6", "s7",
	"s8", "s9", "s10", "s11", "t3", "t4", "t5", "t6",
};

static const char *const freg_names[32] = {
	"ft0", "ft1", "ft2", "ft3", "ft4", "ft5", "ft6", "ft7", "fs0", "fs1",
	"fa0", "fa1", "fa2", "fa3", "fa4", "fa5", "fa6", "fa7", "fs2", "fs3",
	"fs4", "fs5", "fs6", "fs7", "fs8", "fs9", "fs10", "fs11", "ft8", "ft9",
	"ft10", "ft11",
};

static const char *const frm_names[8] = {
	"rne", "rtz", "rdn", "rup", "rmm", "#5", "#6", "dyn",
};

/* A fixed char array that may lack its NUL, with anything unprintable as '?'. */
static void print_chars(const char *s, size_t n)
{
	size_t i;

	for (i = 0; i < n && s[i]; i++)
		putchar(s[i] >= 0x20 && s[i] < 0x7f ? s[i] : '?');
}

static void print_ns(const char *label, uint64_t ns)
{
	printf("%s%" PRIu64 ".%09" PRIu64 " s", label, ns / 1000000000u, ns % 1000000000u);
}

/* --- sections --- */

static void print_header(const struct dump *d)
{
	const struct drm_vaccel_coredump_header *h = &d->h;
	time_t t = (time_t)(h->time_ns / 1000000000u);
	char buf[32], when[64];
	struct tm tm;

	printf("vaccel coredump, format %u, %zu bytes, %u sections\n", h->version,
	       d->len, h->num_sections);
	printf("kind:        %s\n", NAME(kind_names, h->kind, buf));
	printf("device:      %u\n", h->device_index);
	if (h->engine_index == DRM_VACCEL_COREDUMP_NO_ENGINE)
		printf("engine:      none (the whole device)\n");
	else
		printf("engine:      %u\n", h->engine_index);
	if (gmtime_r(&t, &tm) && strftime(when, sizeof(when), "%Y-%m-%d %H:%M:%S", &tm))
		printf("time:        %s.%09" PRIu64 " UTC\n", when,
		       (uint64_t)(h->time_ns % 1000000000u));
	else
		printf("time:        %" PRIu64 " ns\n", (uint64_t)h->time_ns);
	print_ns("monotonic:   ", h->monotonic_ns);
	printf("\nsequence:    %" PRIu64 " (%" PRIu64 " events not dumped before it)\n",
	       (uint64_t)h->sequence, (uint64_t)h->dropped);
}

static void print_device(const struct dump *d)
{
	const struct section *s = find(d, DRM_VACCEL_COREDUMP_SECTION_DEVICE);
	struct drm_vaccel_coredump_device dev;

	entry(d, s, 0, &dev, sizeof(dev));
	printf("\n== device %u ==\n", dev.device_index);
	printf("  uapi:        %u.%u\n", dev.uapi_major, dev.uapi_minor);
	printf("  engines:     %u (compute %u, copy %u, paging %u)\n", dev.num_engines,
	       dev.engine_count[DRM_VACCEL_ENGINE_CLASS_COMPUTE],
	       dev.engine_count[DRM_VACCEL_ENGINE_CLASS_COPY],
	       dev.engine_count[DRM_VACCEL_ENGINE_CLASS_PAGING]);
	printf("  va:          %u bits, mappable 0x%016" PRIx64 " - 0x%016" PRIx64 "%s\n",
	       dev.va_bits, (uint64_t)dev.va_start, (uint64_t)dev.va_end,
	       dev.flags & DRM_VACCEL_DEVICE_SINGLE_USE ? ", single use" : "");
	printf("  limits:      hang after %" PRIu64 " ms without progress, "
	       "stopped after %" PRIu64 " ms\n",
	       (uint64_t)dev.timeout_ns / 1000000, (uint64_t)dev.time_limit_ns / 1000000);
	printf("  scheduling:  time slice %" PRIu64 " ms, dispatch slice %u instructions\n",
	       (uint64_t)dev.timeslice_ns / 1000000, dev.dispatch_slice);
	printf("  resets:      %" PRIu64 " device resets before\n",
	       (uint64_t)dev.device_resets);
	printf("  kernel:      ");
	print_chars(dev.kernel_release, sizeof(dev.kernel_release));
	putchar('\n');
}

static void print_slot(unsigned int i, const struct drm_vaccel_coredump_slot *sl)
{
	char buf[32];

	printf("  slot %u:      context %u (client %" PRIu64 ", %s) buffer 0x%016" PRIx64
	       " size %" PRIu64 " offset 0x%" PRIx64 " progress %" PRIu64 "%s\n",
	       i, sl->context, (uint64_t)sl->client_id,
	       NAME(priority_names, sl->priority, buf), (uint64_t)sl->buffer_va,
	       (uint64_t)sl->buffer_size, (uint64_t)sl->offset, (uint64_t)sl->progress,
	       sl->flags & DRM_VACCEL_COREDUMP_SLOT_STARTED ? " started" : "");
}

static void print_engine(const struct drm_vaccel_coredump_engine *e)
{
	char buf[32], buf2[32];
	unsigned int i;

	printf("\n== engine %u (%s%u) ==\n", e->index,
	       NAME(class_names, e->engine_class, buf), e->instance);
	printf("  granularity: %s\n", NAME(granularity_names, e->preempt_granularity, buf2));
	printf("  hw queue:    %u of %u slots used, %u contexts bound%s%s%s\n",
	       e->slots_used, e->hw_queue_depth, e->num_contexts,
	       e->flags & DRM_VACCEL_COREDUMP_ENGINE_RUNNING ? ", running" : ", not running",
	       e->flags & DRM_VACCEL_COREDUMP_ENGINE_RESET_PENDING ? ", reset pending" : "",
	       e->flags & DRM_VACCEL_COREDUMP_ENGINE_RESET_UNPROVEN ?
	       ", not recovered from its last reset" : "");
	if (e->flags & DRM_VACCEL_COREDUMP_ENGINE_RUNNING)
		printf("  running for: %" PRIu64 " ns\n", (uint64_t)e->running_ns);
	printf("  counters:    resets %" PRIu64 ", hangs %" PRIu64 ", instructions %" PRIu64 "\n",
	       (uint64_t)e->resets, (uint64_t)e->hangs, (uint64_t)e->instructions);
	printf("  limits:      timeout %" PRIu64 " ns, time limit %" PRIu64
	       " ns, time slice %" PRIu64 " ns\n", (uint64_t)e->timeout_ns,
	       (uint64_t)e->time_limit_ns, (uint64_t)e->slice_ns);
	for (i = 0; i < DRM_VACCEL_COREDUMP_SLOTS && i < e->slots_used; i++)
		print_slot(i, &e->slot[i]);
	if (e->slots_used > DRM_VACCEL_COREDUMP_SLOTS)
		printf("  (invalid: %u slots used, the HW queue has %u)\n", e->slots_used,
		       DRM_VACCEL_COREDUMP_SLOTS);
	for (i = DRM_VACCEL_COREDUMP_BANDS; i-- > 0;)
		printf("  band %-9s busy %" PRIu64 " ns, %u contexts ready\n",
		       priority_names[i], (uint64_t)e->band_ns[i], e->band_ready[i]);
	if (e->flags & DRM_VACCEL_COREDUMP_ENGINE_BOOSTED)
		printf("  boosted:     context %u (starvation guard)\n", e->boosted_context);
	printf("  preemptions:");
	for (i = 1; i < DRM_VACCEL_COREDUMP_PREEMPT_REASONS; i++)
		if (i < ARRAY_SIZE(preempt_names) || e->preemptions[i])
			printf(" %s %" PRIu64, NAME(preempt_names, i, buf),
			       (uint64_t)e->preemptions[i]);
	putchar('\n');
}

static void print_engines(const struct dump *d)
{
	struct drm_vaccel_coredump_engine e;
	uint32_t i, j;

	for (i = 0; i < d->nsec; i++) {
		const struct section *s = &d->sec[i];

		if (s->type != DRM_VACCEL_COREDUMP_SECTION_ENGINE)
			continue;
		for (j = 0; j < s->count; j++) {
			entry(d, s, j, &e, sizeof(e));
			print_engine(&e);
		}
	}
}

static void print_errno(int32_t err)
{
	if (!err) {
		printf("0 (runs)");
		return;
	}
	/* A negative errno from the kernel; anything else is printed as is. */
	if (err < 0 && err > -4096)
		printf("%d (%s)", err, strerror(-err));
	else
		printf("%d", err);
}

static void print_context(const struct dump *d)
{
	const struct section *s = find(d, DRM_VACCEL_COREDUMP_SECTION_CONTEXT);
	struct drm_vaccel_coredump_context c;
	char buf[32], buf2[32];

	if (!s)
		return;
	entry(d, s, 0, &c, sizeof(c));
	printf("\n== context %u ==\n", c.handle);
	printf("  flags:      %s%s%s%s%s\n",
	       c.flags & DRM_VACCEL_COREDUMP_CONTEXT_GUILTY ? " guilty" : " innocent",
	       c.flags & DRM_VACCEL_COREDUMP_CONTEXT_FAULTED ? " faulted" : "",
	       c.flags & DRM_VACCEL_COREDUMP_CONTEXT_BANNED ? " banned" : "",
	       c.flags & DRM_VACCEL_COREDUMP_CONTEXT_DESTROYED ? " destroyed" : "",
	       c.flags & ~0xfu ? " (unknown flags)" : "");
	printf("  creator:     pid %u (", c.pid);
	print_chars(c.comm, sizeof(c.comm));
	printf(")\n");
	printf("  client:      %" PRIu64 "\n", (uint64_t)c.client_id);
	printf("  engine:      %u\n", c.engine_index);
	printf("  priority:    %s\n", NAME(priority_names, c.priority, buf));
	printf("  ban reason:  %s\n", NAME(ban_names, c.ban_reason, buf));
	printf("  error:       ");
	print_errno(c.error);
	putchar('\n');
	printf("  resets:      guilty %u, innocent %u\n", c.guilty_resets, c.innocent_resets);
	printf("  buffers:     submitted %" PRIu64 ", completed %" PRIu64 "\n",
	       (uint64_t)c.jobs_submitted, (uint64_t)c.jobs_completed);
	printf("  engine time: %" PRIu64 " ns, preempted %" PRIu64 " times\n",
	       (uint64_t)c.engine_ns, (uint64_t)c.preemptions);
	if (c.flags & DRM_VACCEL_COREDUMP_CONTEXT_FAULTED) {
		printf("  fault:       %s %s at 0x%016" PRIx64 ", packet at offset 0x%" PRIx64 "\n",
		       NAME(reason_names, c.fault_reason, buf),
		       NAME(access_names, c.fault_access, buf2), (uint64_t)c.fault_va,
		       (uint64_t)c.fault_offset);
		if (c.fault_pc)
			printf("  fault pc:    0x%016" PRIx64 "\n", (uint64_t)c.fault_pc);
	}
}

static bool excerpt_valid(const struct drm_vaccel_coredump_buffer *b, uint64_t i,
			  uint64_t n)
{
	for (; n--; i++)
		if (i >= DRM_VACCEL_COREDUMP_EXCERPT || i >= b->excerpt_size ||
		    !(b->excerpt_valid[i / 64] & (1ull << (i % 64))))
			return false;
	return true;
}

/* The 8-byte word at offset @off of the buffer, if the excerpt has it. */
static bool excerpt_word(const struct drm_vaccel_coredump_buffer *b, uint64_t off,
			 uint64_t *w)
{
	uint64_t i;

	if (off < b->excerpt_offset)
		return false;
	i = off - b->excerpt_offset;
	if (!excerpt_valid(b, i, 8))
		return false;
	memcpy(w, &b->excerpt[i], 8);
	return true;
}

static void print_packet(const struct drm_vaccel_coredump_buffer *b)
{
	const char *const *ops;
	uint64_t hdr, w, words, i;
	uint32_t op, flags;
	char buf[32];

	if (!excerpt_word(b, b->offset, &hdr)) {
		printf("  packet:      not in the excerpt (unmapped, or past the end)\n");
		return;
	}
	op = hdr & 0xff;
	flags = (hdr >> 8) & 0xff;
	words = (hdr >> 16) & 0xffff;
	printf("  packet:      %s, %" PRIu64 " words, flags 0x%02x (header 0x%016" PRIx64 ")",
	       NAME(packet_names, op, buf), words, flags, hdr);
	if (hdr >> 32)
		printf(", reserved bits set");
	if (op == DRM_VACCEL_PKT_WAIT_MEM)
		printf(", %s, %s", NAME(wait_names, flags >> 1, buf),
		       flags & DRM_VACCEL_PKT_F_64BIT ? "64-bit" : "32-bit");
	else if (op == DRM_VACCEL_PKT_WRITE_IMM)
		printf(", %s", flags & DRM_VACCEL_PKT_F_64BIT ? "64-bit" : "32-bit");
	putchar('\n');
	ops = op < ARRAY_SIZE(packet_operands) ? packet_operands[op] : NULL;
	for (i = 1; ops && i < words && ops[i - 1]; i++) {
		if (!excerpt_word(b, b->offset + 8 * i, &w)) {
			printf("    %-11s (not in the excerpt)\n", ops[i - 1]);
			break;
		}
		printf("    %-11s 0x%016" PRIx64 " (%" PRIu64 ")\n", ops[i - 1], w, w);
	}
}

static void print_excerpt(const struct drm_vaccel_coredump_buffer *b)
{
	uint64_t size = b->excerpt_size, i, j;

	if (size > DRM_VACCEL_COREDUMP_EXCERPT) {
		printf("  (invalid excerpt size %" PRIu64 ", at most %u)\n", size,
		       DRM_VACCEL_COREDUMP_EXCERPT);
		size = DRM_VACCEL_COREDUMP_EXCERPT;
	}
	printf("  excerpt:     bytes 0x%" PRIx64 " - 0x%" PRIx64 " of the buffer\n",
	       (uint64_t)b->excerpt_offset, (uint64_t)b->excerpt_offset + size);
	for (i = 0; i < size; i += 8) {
		uint64_t off = b->excerpt_offset + i;

		printf("  %s0x%06" PRIx64 ":", off == b->offset ? "=>" : "  ", off);
		for (j = i; j < i + 8 && j < size; j++) {
			if (excerpt_valid(b, j, 1))
				printf(" %02x", b->excerpt[j]);
			else
				printf(" ??");
		}
		putchar('\n');
	}
}

static void print_buffer(const struct dump *d)
{
	const struct section *s = find(d, DRM_VACCEL_COREDUMP_SECTION_BUFFER);
	struct drm_vaccel_coredump_buffer b;

	if (!s)
		return;
	entry(d, s, 0, &b, sizeof(b));
	printf("\n== buffer ==\n");
	printf("  context:     %u\n", b.context);
	printf("  buffer:      0x%016" PRIx64 " size %" PRIu64 "\n", (uint64_t)b.buffer_va,
	       (uint64_t)b.buffer_size);
	printf("  stopped at:  offset 0x%" PRIx64 " (va 0x%016" PRIx64 "), progress %" PRIu64 "\n",
	       (uint64_t)b.offset, (uint64_t)(b.buffer_va + b.offset), (uint64_t)b.progress);
	printf("  engine time: %" PRIu64 " ns without progress, %" PRIu64 " ns in all\n",
	       (uint64_t)b.stall_ns, (uint64_t)b.run_ns);
	print_packet(&b);
	print_excerpt(&b);
}

static void print_dispatch(const struct dump *d)
{
	const struct section *s = find(d, DRM_VACCEL_COREDUMP_SECTION_DISPATCH);
	struct drm_vaccel_coredump_dispatch x;

	if (!s)
		return;
	entry(d, s, 0, &x, sizeof(x));
	printf("\n== dispatch ==\n");
	printf("  kernel:      entry 0x%016" PRIx64 ", args 0x%016" PRIx64 "\n",
	       (uint64_t)x.entry, (uint64_t)x.args);
	printf("  grid:        %u x %u x %u in workgroups of %u x %u x %u (%u x %u x %u groups)\n",
	       x.grid[0], x.grid[1], x.grid[2], x.wg[0], x.wg[1], x.wg[2],
	       x.num_groups[0], x.num_groups[1], x.num_groups[2]);
	printf("  memory:      %u bytes local, %u bytes of stack per work-item\n",
	       x.local_size, x.stack_size);
	printf("  workgroup:   %" PRIu64 " of %" PRIu64 " (%u, %u, %u), %u work-items live, "
	       "%u at the barrier\n", (uint64_t)x.group, (uint64_t)x.total_groups,
	       x.group_id[0], x.group_id[1], x.group_id[2], x.live, x.waiting);
	if (x.current_item == DRM_VACCEL_COREDUMP_NO_WORKITEM)
		printf("  current:     none\n");
	else
		printf("  current:     work-item %u\n", x.current_item);
}

static void print_workitem(const struct drm_vaccel_coredump_workitem *w)
{
	unsigned int r, frm = (w->fcsr >> 5) & 7;
	char buf[32];

	printf("\n== work-item %u ==\n", w->flat_id);
	printf("  state:       %s\n", NAME(state_names, w->state, buf));
	printf("  local id:    (%u, %u, %u)\n", w->local_id[0], w->local_id[1], w->local_id[2]);
	printf("  global id:   (%" PRIu64 ", %" PRIu64 ", %" PRIu64 ")\n",
	       (uint64_t)w->global_id[0], (uint64_t)w->global_id[1], (uint64_t)w->global_id[2]);
	printf("  pc:          0x%016" PRIx64 "\n", (uint64_t)w->pc);
	printf("  fcsr:        0x%02x (frm %s, fflags%s%s%s%s%s%s)\n", w->fcsr, frm_names[frm],
	       w->fcsr & 0x10 ? " NV" : "", w->fcsr & 0x08 ? " DZ" : "",
	       w->fcsr & 0x04 ? " OF" : "", w->fcsr & 0x02 ? " UF" : "",
	       w->fcsr & 0x01 ? " NX" : "", w->fcsr & 0x1f ? "" : " none");
	printf("  instret:     %" PRIu64 "\n", (uint64_t)w->instret);
	for (r = 0; r < 32; r++)
		printf("%s x%-2u %-4s 0x%016" PRIx64 "%s", r % 4 ? "" : " ", r, xreg_names[r],
		       (uint64_t)w->x[r], r % 4 == 3 ? "\n" : "");
	for (r = 0; r < 32; r++)
		printf("%s f%-2u %-4s 0x%016" PRIx64 "%s", r % 4 ? "" : " ", r, freg_names[r],
		       (uint64_t)w->f[r], r % 4 == 3 ? "\n" : "");
}

static void print_workitems(const struct dump *d)
{
	struct drm_vaccel_coredump_workitem w;
	uint32_t i, j;

	for (i = 0; i < d->nsec; i++) {
		const struct section *s = &d->sec[i];

		if (s->type != DRM_VACCEL_COREDUMP_SECTION_WORKITEM)
			continue;
		for (j = 0; j < s->count; j++) {
			entry(d, s, j, &w, sizeof(w));
			print_workitem(&w);
		}
	}
}

static void print_walk(const struct dump *d)
{
	const struct section *s = find(d, DRM_VACCEL_COREDUMP_SECTION_PAGE_WALK);
	struct drm_vaccel_coredump_page_walk w;
	unsigned int i, level = DRM_VACCEL_COREDUMP_WALK_LEVELS;

	if (!s)
		return;
	entry(d, s, 0, &w, sizeof(w));
	printf("\n== page walk ==\n");
	printf("  address:     0x%016" PRIx64 " (%s 0x%016" PRIx64 " - 0x%016" PRIx64 ")\n",
	       (uint64_t)w.va, w.flags & DRM_VACCEL_COREDUMP_WALK_IN_RANGE ?
	       "in the mappable range" : "outside the mappable range",
	       (uint64_t)w.va_start, (uint64_t)w.va_end);
	if (w.levels > DRM_VACCEL_COREDUMP_WALK_LEVELS) {
		printf("  (invalid: %u levels walked, the tables have %u)\n", w.levels,
		       DRM_VACCEL_COREDUMP_WALK_LEVELS);
		return;
	}
	if (!w.levels) {
		printf("  not walked: beyond the 48 bits the page tables translate\n");
		return;
	}
	for (i = 0; i < w.levels; i++) {
		uint64_t e;

		level = DRM_VACCEL_COREDUMP_WALK_LEVELS - 1 - i;
		e = w.entry[level];
		printf("  level %u [%3u]: 0x%016" PRIx64, level,
		       (unsigned int)((w.va >> (12 + 9 * level)) & 511), e);
		if (!(e & DRM_VACCEL_PTE_VALID))
			printf(" not present\n");
		else if (level)
			printf(" valid, table %016" PRIx64 "\n",
			       (uint64_t)(e & DRM_VACCEL_PTE_ADDR_MASK));
		else
			printf(" valid, page %016" PRIx64 ", r%c%c\n",
			       (uint64_t)(e & DRM_VACCEL_PTE_ADDR_MASK),
			       e & DRM_VACCEL_PTE_WRITE ? 'w' : '-',
			       e & DRM_VACCEL_PTE_EXEC ? 'x' : '-');
	}
	if (!(w.entry[level] & DRM_VACCEL_PTE_VALID))
		printf("  result:      not mapped (no valid entry at level %u)\n", level);
	else if (!level)
		printf("  result:      mapped, r%c%c\n",
		       w.entry[0] & DRM_VACCEL_PTE_WRITE ? 'w' : '-',
		       w.entry[0] & DRM_VACCEL_PTE_EXEC ? 'x' : '-');
	else
		printf("  result:      walk cut short at level %u\n", level);
}

static void print_unknown(const struct dump *d)
{
	uint32_t i;

	for (i = 0; i < d->nsec; i++)
		if (d->sec[i].type < DRM_VACCEL_COREDUMP_SECTION_DEVICE ||
		    d->sec[i].type > DRM_VACCEL_COREDUMP_SECTION_PAGE_WALK)
			printf("\n(section %u of unknown type %u, %u entries: skipped)\n",
			       i, d->sec[i].type, d->sec[i].count);
}

/* Prints @data of @len bytes; -1 if refused, with @refusal saying why. */
static int print_dump(const uint8_t *data, size_t len)
{
	struct dump d;
	int ret;

	refusal[0] = 0;
	ret = parse(&d, data, len);
	if (!ret) {
		print_header(&d);
		print_device(&d);
		print_engines(&d);
		print_context(&d);
		print_buffer(&d);
		print_dispatch(&d);
		print_workitems(&d);
		print_walk(&d);
		print_unknown(&d);
	}
	free(d.sec);
	return ret;
}

/* Decodes @data of @len bytes; on refusal, says why after "@what: ". */
static int decode(const char *what, const uint8_t *data, size_t len)
{
	int ret = print_dump(data, len);

	if (ret) {
		fflush(stdout);
		fprintf(stderr, PROG ": %s: %s\n", what, refusal);
	}
	return ret;
}

/* --- input --- */

/* Reads all of @fd, at most MAX_DUMP bytes; returns 0 or -errno (-EFBIG). */
static int read_all(int fd, uint8_t **out, size_t *len)
{
	size_t cap = 65536, n = 0;
	uint8_t *buf = malloc(cap), *tmp;
	ssize_t r;

	if (!buf)
		return -ENOMEM;
	for (;;) {
		if (n == cap) {
			if (cap >= MAX_DUMP) {
				free(buf);
				return -EFBIG;
			}
			cap *= 2;
			tmp = realloc(buf, cap);
			if (!tmp) {
				free(buf);
				return -ENOMEM;
			}
			buf = tmp;
		}
		r = read(fd, buf + n, cap - n);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			r = -errno;
			free(buf);
			return r;
		}
		if (!r)
			break;
		n += r;
	}
	*out = buf;
	*len = n;
	return 0;
}

static int read_path(const char *path, uint8_t **out, size_t *len)
{
	int fd, ret;

	if (!strcmp(path, "-"))
		return read_all(STDIN_FILENO, out, len);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	ret = read_all(fd, out, len);
	close(fd);
	return ret;
}

static int save(const char *path, const uint8_t *data, size_t len)
{
	FILE *f = fopen(path, "wb");
	int ok;

	if (!f) {
		fprintf(stderr, PROG ": %s: %s\n", path, strerror(errno));
		return -1;
	}
	ok = fwrite(data, 1, len, f) == len;
	ok &= !fclose(f);
	if (!ok) {
		fprintf(stderr, PROG ": %s: cannot write the dump\n", path);
		return -1;
	}
	return 0;
}

static int decode_path(const char *path, const char *save_to)
{
	uint8_t *data;
	size_t len;
	int ret;

	ret = read_path(path, &data, &len);
	if (ret) {
		fprintf(stderr, PROG ": %s: %s\n", path,
			ret == -EFBIG ? "larger than any vaccel coredump" : strerror(-ret));
		return 1;
	}
	ret = decode(path, data, len) ? 1 : 0;
	if (save_to && save(save_to, data, len))
		ret = 1;
	free(data);
	return ret;
}

/* --- pending dumps in sysfs --- */

struct pending {
	unsigned int devcd;	/* devcdN */
	unsigned int device;	/* vaccel.N */
};

static int cmp_pending(const void *a, const void *b)
{
	const struct pending *x = a, *y = b;

	return x->devcd < y->devcd ? -1 : x->devcd > y->devcd;
}

/* The vaccel device index a devcd's failing_device names, or -1. */
static long vaccel_index_of(const char *dir, const char *name)
{
	char link[PATH_MAX], target[PATH_MAX], *base, *end;
	unsigned long idx;
	ssize_t n;

	if (snprintf(link, sizeof(link), "%s/%s/failing_device", dir, name) >=
	    (int)sizeof(link))
		return -1;
	n = readlink(link, target, sizeof(target) - 1);
	if (n < 0)
		return -1;
	target[n] = 0;
	base = strrchr(target, '/');
	base = base ? base + 1 : target;
	if (strncmp(base, "vaccel.", 7) || !base[7])
		return -1;
	errno = 0;
	idx = strtoul(base + 7, &end, 10);
	if (*end || errno || idx > INT_MAX)
		return -1;
	return (long)idx;
}

/* The pending vaccel dumps, in devcd order; -1 if @dir cannot be read. */
static int find_pending(const char *dir, long device, struct pending **out,
			size_t *count)
{
	struct pending *list = NULL, *tmp;
	size_t n = 0, cap = 0;
	struct dirent *de;
	DIR *d = opendir(dir);

	*out = NULL;
	*count = 0;
	if (!d)
		return errno == ENOENT ? 0 : -1;
	while ((de = readdir(d))) {
		unsigned int devcd;
		char tail;
		long idx;

		if (sscanf(de->d_name, "devcd%u%c", &devcd, &tail) != 1)
			continue;
		idx = vaccel_index_of(dir, de->d_name);
		if (idx < 0 || (device >= 0 && idx != device))
			continue;
		if (n == cap) {
			cap = cap ? cap * 2 : 8;
			tmp = realloc(list, cap * sizeof(*list));
			if (!tmp) {
				free(list);
				closedir(d);
				errno = ENOMEM;
				return -1;
			}
			list = tmp;
		}
		list[n].devcd = devcd;
		list[n].device = (unsigned int)idx;
		n++;
	}
	closedir(d);
	qsort(list, n, sizeof(*list), cmp_pending);
	*out = list;
	*count = n;
	return 0;
}

/* @a/@b into @buf; -1 if it does not fit. */
static int join(char *buf, size_t len, const char *a, const char *b)
{
	int n = snprintf(buf, len, "%s/%s", a, b);

	return n < 0 || (size_t)n >= len ? -1 : 0;
}

static void sleep_ms(unsigned int ms)
{
	struct timespec ts = { ms / 1000, (long)(ms % 1000) * 1000000 };

	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}

/*
 * Clears a pending dump: writing to its data frees it, a little later, on
 * a workqueue; waits until it has left sysfs, so that the device's next
 * dump is not refused as one too many.
 */
static int clear(const char *devcd)
{
	char path[PATH_MAX];
	unsigned int waited;
	int fd;

	if (join(path, sizeof(path), devcd, "data")) {
		fprintf(stderr, PROG ": %s: path too long\n", devcd);
		return -1;
	}
	fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0 || write(fd, "1", 1) != 1) {
		fprintf(stderr, PROG ": %s: cannot clear: %s\n", path, strerror(errno));
		if (fd >= 0)
			close(fd);
		return -1;
	}
	close(fd);
	for (waited = 0; waited < CLEAR_WAIT_MS; waited += 10) {
		if (access(devcd, F_OK) && errno == ENOENT)
			return 0;
		sleep_ms(10);
	}
	fprintf(stderr, PROG ": %s: still there %u ms after it was cleared\n", devcd,
		CLEAR_WAIT_MS);
	return -1;
}

static int decode_pending(long device, bool do_clear, const char *save_to)
{
	const char *dir = getenv("VACCEL_DEVCOREDUMP_DIR");
	struct pending *list;
	size_t n, i;
	int ret = 0;

	if (!dir || !*dir)
		dir = DEVCD_DIR;
	if (find_pending(dir, device, &list, &n)) {
		fprintf(stderr, PROG ": %s: %s\n", dir, strerror(errno));
		return 1;
	}
	if (!n) {
		if (device >= 0)
			fprintf(stderr, PROG ": no pending coredump of vaccel.%ld\n", device);
		else
			fprintf(stderr, PROG ": no pending vaccel coredump\n");
		return 1;
	}
	if (save_to && n > 1) {
		fprintf(stderr, PROG ": %zu dumps pending: choose one with -d to save it\n", n);
		free(list);
		return 2;
	}
	for (i = 0; i < n; i++) {
		char name[32], devcd[PATH_MAX], data[PATH_MAX];

		snprintf(name, sizeof(name), "devcd%u", list[i].devcd);
		if (join(devcd, sizeof(devcd), dir, name) ||
		    join(data, sizeof(data), devcd, "data")) {
			fprintf(stderr, PROG ": %s: path too long\n", dir);
			ret = 1;
			continue;
		}
		if (i)
			putchar('\n');
		printf("dump:        %s (vaccel.%u)\n", data, list[i].device);
		if (decode_path(data, save_to))
			ret = 1;
		if (do_clear && clear(devcd))
			ret = 1;
	}
	free(list);
	return ret;
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "device", required_argument, NULL, 'd' },
		{ "clear", no_argument, NULL, 'c' },
		{ "save", required_argument, NULL, 's' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *save_to = NULL;
	bool do_clear = false;
	long device = -1;
	char *end;
	int c;

	while ((c = getopt_long(argc, argv, "cd:hs:", opts, NULL)) != -1) {
		switch (c) {
		case 'c':
			do_clear = true;
			break;
		case 'd':
			errno = 0;
			device = strtol(optarg, &end, 10);
			if (!*optarg || *end || errno || device < 0 || device > INT_MAX) {
				fprintf(stderr, PROG ": -d: not a device index: %s\n", optarg);
				return 2;
			}
			break;
		case 's':
			save_to = optarg;
			break;
		case 'h':
			usage(stdout);
			return 0;
		default:
			usage(stderr);
			return 2;
		}
	}
	if (argc - optind > 1) {
		usage(stderr);
		return 2;
	}
	if (optind < argc) {
		if (do_clear || device >= 0) {
			fprintf(stderr, PROG ": -c and -d are for pending dumps, not a FILE\n");
			return 2;
		}
		return decode_path(argv[optind], save_to);
	}
	return decode_pending(device, do_clear, save_to);
}
