// SPDX-License-Identifier: MIT
/*
 * Copyright 2026 The vaccel authors
 *
 * vaccel-sample.c - a small workload on a vaccel device, the sample of
 * `make run`: two queues, one on a copy engine and one on a compute
 * engine, fill and copy buffers, ordered by events, and the CPU checks the
 * result.  Each step is timed by TIMESTAMP packets that the engine writes
 * around it.
 *
 *	copy queue:	fill A
 *	compute queue:	fill B				signal "B filled"
 *	copy queue:	wait "B filled", copy the first half of A into B,
 *			signal "B copied"
 *	compute queue:	wait "B copied", copy B into C
 *
 * Then A must hold A's pattern, B and C A's pattern in their first half and
 * B's in the second: had the copy into B not waited for B's fill, the fill
 * would have overwritten it.
 *
 * A queue that fails is described by its fault record, in the line of
 * vaccel_fault_info_format(); -f makes the copy into B read an address
 * that is not mapped, to show one.
 *
 *	vaccel-sample [-f] [-d INDEX] [-s MIB]
 *
 * Exits 0 when the results are right, 1 otherwise (no device, an error, a
 * failed queue, a wrong result), 2 on a usage error.
 */
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <vaccel.h>

#define PROG		"vaccel-sample"
#define MIB		(1024ull * 1024)
#define PATTERN_A	0xa5a5a5a5u
#define PATTERN_B	0x5a5a5a5au
#define POISON		0xdeadbeefu

/* Slots of the timestamp buffer: a start and an end per step. */
enum { TS_FILL_A, TS_FILL_B = 2, TS_COPY_AB = 4, TS_COPY_BC = 6, TS_COUNT = 8 };

struct buffer {
	struct vaccel_bo *bo;
	uint32_t *cpu;
	uint64_t va;
};

static void usage(FILE *f)
{
	fprintf(f,
		"usage: " PROG " [-h] [-f] [-d INDEX] [-s MIB]\n"
		"Fill and copy buffers on a copy and a compute engine of a vaccel\n"
		"device, ordered by events; check the result and print the timings.\n"
		"\n"
		"  -d INDEX  the device of this index (default 0, the first)\n"
		"  -s MIB    size of each buffer in MiB (default 4, 1 to 256)\n"
		"  -f        fault on purpose: the copy into B reads an unmapped\n"
		"            address; show what the failed queue reports\n"
		"  -h        this help\n");
}

static int fail(const char *what, int err)
{
	fprintf(stderr, PROG ": %s: %s\n", what, strerror(-err));
	return 1;
}

/* A queue's work failed with @err: say so, and why, from its fault record. */
static int queue_fail(struct vaccel_queue *q, const char *what, int err)
{
	char line[VACCEL_FAULT_MSG_SIZE];
	struct vaccel_fault_info f;

	fail(what, err);
	if (!vaccel_queue_get_fault(q, &f) && f.failure != VACCEL_FAILURE_NONE) {
		vaccel_fault_info_format(&f, line, sizeof(line));
		fprintf(stderr, PROG ": %s\n", line);
	}
	return 1;
}

static int buffer_alloc(struct vaccel_device *dev, uint64_t size, struct buffer *b)
{
	void *cpu;
	int ret;

	ret = vaccel_bo_alloc(dev, size, 0, &b->bo);
	if (ret)
		return ret;
	ret = vaccel_bo_map(b->bo, &cpu);
	if (ret) {
		vaccel_bo_free(b->bo);
		b->bo = NULL;
		return ret;
	}
	b->cpu = cpu;
	b->va = vaccel_bo_va(b->bo);
	return 0;
}

/* Records a timestamp into slot @slot of @ts. */
static int stamp(struct vaccel_queue *q, const struct buffer *ts, unsigned int slot)
{
	return vaccel_queue_timestamp(q, ts->va + slot * 8);
}

/* @src: where the copy into B reads, A or an address not mapped (-f). */
static int record(struct vaccel_queue *copy, struct vaccel_queue *compute,
		  struct vaccel_event *b_filled, struct vaccel_event *b_copied,
		  const struct buffer *a, const struct buffer *b,
		  const struct buffer *c, const struct buffer *ts, uint64_t size,
		  uint64_t src)
{
	int ret;

	/* Both fills at once, on two engines. */
	if ((ret = stamp(copy, ts, TS_FILL_A)) ||
	    (ret = vaccel_queue_fill(copy, a->va, size, PATTERN_A)) ||
	    (ret = stamp(copy, ts, TS_FILL_A + 1)) ||
	    (ret = vaccel_queue_flush(copy)))
		return fail("copy queue: fill", ret);
	if ((ret = stamp(compute, ts, TS_FILL_B)) ||
	    (ret = vaccel_queue_fill(compute, b->va, size, PATTERN_B)) ||
	    (ret = stamp(compute, ts, TS_FILL_B + 1)) ||
	    (ret = vaccel_queue_signal(compute, b_filled)))
		return fail("compute queue: fill", ret);

	/* Then the copy into B, once B is filled. */
	if ((ret = vaccel_queue_wait_event(copy, b_filled)) ||
	    (ret = stamp(copy, ts, TS_COPY_AB)) ||
	    (ret = vaccel_queue_copy(copy, b->va, src, size / 2)) ||
	    (ret = stamp(copy, ts, TS_COPY_AB + 1)) ||
	    (ret = vaccel_queue_signal(copy, b_copied)))
		return fail("copy queue: copy", ret);

	/* Then the copy of B, once the copy into it is done. */
	if ((ret = vaccel_queue_wait_event(compute, b_copied)) ||
	    (ret = stamp(compute, ts, TS_COPY_BC)) ||
	    (ret = vaccel_queue_copy(compute, c->va, b->va, size)) ||
	    (ret = stamp(compute, ts, TS_COPY_BC + 1)))
		return fail("compute queue: copy", ret);

	ret = vaccel_queue_finish(compute);
	if (ret)
		return queue_fail(compute, "compute queue: the work failed", ret);
	ret = vaccel_queue_finish(copy);
	if (ret)
		return queue_fail(copy, "copy queue: the work failed", ret);
	return 0;
}

static void print_step(const char *what, uint64_t bytes, const char *engine,
		       const uint64_t *ts, unsigned int step, const char *note)
{
	uint64_t ns = ts[step + 1] - ts[step];
	char label[96];

	if (bytes % MIB)
		snprintf(label, sizeof(label), "%s %" PRIu64 " KiB on %s engine:", what,
			 (uint64_t)(bytes / 1024), engine);
	else
		snprintf(label, sizeof(label), "%s %" PRIu64 " MiB on %s engine:", what,
			 (uint64_t)(bytes / MIB), engine);
	if (ts[step + 1] < ts[step] || !ns)
		printf("  %-36s %8s\n", label, "n/a");
	else
		printf("  %-36s %8.3f ms (%.2f GB/s)%s\n", label, ns / 1e6,
		       (double)bytes / ns, note);
}

/* Checks that @b holds @first in [0, @half) words and @second after. */
static bool check(const char *name, const uint32_t *b, size_t words, size_t half,
		  uint32_t first, uint32_t second)
{
	size_t i;

	for (i = 0; i < words; i++) {
		uint32_t want = i < half ? first : second;

		if (b[i] != want) {
			printf("  buffer %s: byte %zu holds 0x%08x, not 0x%08x\n", name,
			       i * 4, b[i], want);
			return false;
		}
	}
	return true;
}

static int run(struct vaccel_device *dev, uint64_t size, bool fault)
{
	struct buffer a = { 0 }, b = { 0 }, c = { 0 }, ts = { 0 };
	struct vaccel_queue *copy = NULL, *compute = NULL;
	struct vaccel_event *b_filled = NULL, *b_copied = NULL;
	struct vaccel_device_info info;
	const char *copy_engine = "copy";
	size_t words = size / 4;
	uint64_t t[TS_COUNT], hole = 0;
	bool ok;
	int ret, status = 1;

	ret = vaccel_device_get_info(dev, &info);
	if (ret)
		return fail("device info", ret);
	printf("%s: vaccel uapi %u.%u, %u compute and %u copy engines\n",
	       vaccel_device_path(dev), info.uapi_major, info.uapi_minor,
	       info.engine_count[VACCEL_ENGINE_CLASS_COMPUTE],
	       info.engine_count[VACCEL_ENGINE_CLASS_COPY]);

	if ((ret = buffer_alloc(dev, size, &a)) || (ret = buffer_alloc(dev, size, &b)) ||
	    (ret = buffer_alloc(dev, size, &c)) ||
	    (ret = buffer_alloc(dev, TS_COUNT * 8, &ts))) {
		fail("buffer", ret);
		goto out;
	}
	memset(ts.cpu, 0, TS_COUNT * 8);
	for (size_t i = 0; i < words; i++)
		a.cpu[i] = b.cpu[i] = c.cpu[i] = POISON;

	ret = vaccel_queue_create(dev, VACCEL_ENGINE_CLASS_COPY,
				  VACCEL_PRIORITY_NORMAL, &copy);
	if (ret == -ENODEV) {
		printf("  (no copy engine: the copy queue runs on a compute engine)\n");
		copy_engine = "compute";
		ret = vaccel_queue_create(dev, VACCEL_ENGINE_CLASS_COMPUTE,
					  VACCEL_PRIORITY_NORMAL, &copy);
	}
	if (ret) {
		fail("copy queue", ret);
		goto out;
	}
	ret = vaccel_queue_create(dev, VACCEL_ENGINE_CLASS_COMPUTE,
				  VACCEL_PRIORITY_NORMAL, &compute);
	if (ret) {
		fail("compute queue", ret);
		goto out;
	}
	if ((ret = vaccel_event_create(dev, &b_filled)) ||
	    (ret = vaccel_event_create(dev, &b_copied))) {
		fail("event", ret);
		goto out;
	}

	/* -f: addresses reserved, never mapped. */
	if (fault && (ret = vaccel_va_alloc(dev, size, 0, &hole))) {
		fail("addresses", ret);
		goto out;
	}
	if (record(copy, compute, b_filled, b_copied, &a, &b, &c, &ts, size,
		   fault ? hole : a.va))
		goto out;

	memcpy(t, ts.cpu, sizeof(t));
	print_step("fill", size, copy_engine, t, TS_FILL_A, "");
	print_step("fill", size, "compute", t, TS_FILL_B, "");
	print_step("copy", size / 2, copy_engine, t, TS_COPY_AB,
		   ", after the compute fill");
	print_step("copy", size, "compute", t, TS_COPY_BC, ", after that copy");
	if (t[TS_COPY_AB] < t[TS_FILL_B + 1] || t[TS_COPY_BC] < t[TS_COPY_AB + 1]) {
		printf("  the events did not order the engines\n");
		goto out;
	}

	ok = check("A", a.cpu, words, words, PATTERN_A, PATTERN_A);
	ok = check("B", b.cpu, words, words / 2, PATTERN_A, PATTERN_B) && ok;
	ok = check("C", c.cpu, words, words / 2, PATTERN_A, PATTERN_B) && ok;
	printf("result: %s\n", ok ? "OK, the CPU sees what the engines wrote" :
	       "WRONG");
	status = ok ? 0 : 1;
out:
	if (hole)
		vaccel_va_free(dev, hole, size);
	vaccel_queue_destroy(compute);
	vaccel_queue_destroy(copy);
	vaccel_event_destroy(b_copied);
	vaccel_event_destroy(b_filled);
	vaccel_bo_free(ts.bo);
	vaccel_bo_free(c.bo);
	vaccel_bo_free(b.bo);
	vaccel_bo_free(a.bo);
	return status;
}

int main(int argc, char **argv)
{
	unsigned long index = 0, mib = 4;
	struct vaccel_device *dev;
	int opt, ret, status;
	bool fault = false;
	char *end;

	while ((opt = getopt(argc, argv, "hfd:s:")) != -1) {
		switch (opt) {
		case 'h':
			usage(stdout);
			return 0;
		case 'f':
			fault = true;
			break;
		case 'd':
		case 's':
			errno = 0;
			if (opt == 'd')
				index = strtoul(optarg, &end, 0);
			else
				mib = strtoul(optarg, &end, 0);
			if (errno || *end || !*optarg || optarg[0] == '-' ||
			    index > UINT_MAX || !mib || mib > 256) {
				fprintf(stderr, PROG ": bad value '%s' for -%c\n", optarg, opt);
				return 2;
			}
			break;
		default:
			usage(stderr);
			return 2;
		}
	}
	if (optind < argc) {
		usage(stderr);
		return 2;
	}

	ret = vaccel_device_open(index, &dev);
	if (ret == -ENODEV && !index) {
		fprintf(stderr,
			"no vaccel device found: is the module loaded? (insmod vaccel.ko)\n");
		return 1;
	}
	if (ret == -ENODEV) {
		fprintf(stderr, PROG ": no vaccel device of index %lu\n", index);
		return 1;
	}
	if (ret) {
		fprintf(stderr, PROG ": device %lu: %s\n", index, strerror(-ret));
		return 1;
	}
	status = run(dev, mib * MIB, fault);
	vaccel_device_close(dev);
	return status;
}
