// SPDX-License-Identifier: MIT
/*
 * Copyright 2026 The vaccel authors
 *
 * share.c - two processes share a buffer through a dma-buf, order their
 * work on it with sync_files, and compete for the engines at different
 * priorities: the urgent work of one overtakes the long background job of
 * the other.  This is what a compositor, a media pipeline or an inference
 * server does with a GPU: one process produces, another consumes, and the
 * latency-sensitive side runs at a higher priority.
 *
 *	example-share [-h] [-d INDEX]
 *
 * Process A (the parent) allocates the buffer, writes its first half on
 * the CPU and FILLs its second half on the device, then exports the buffer
 * as a dma-buf and the FILL's completion as a sync_file, and passes both
 * descriptors to process B (a child) over a UNIX socket (SCM_RIGHTS).
 * B imports the buffer into its own address space and creates a HIGH
 * priority queue (HIGH needs CAP_SYS_NICE: without it B uses NORMAL,
 * which still outranks LOW).  A then starts a LOW priority job, a second of
 * DELAY packets on every compute engine, and once it runs tells B to go.
 * B's copy of the first half over the second, between two engine
 * timestamps, waits on the device for the FILL's sync_file (imported into
 * an event), and B sends the copy's sync_file back.
 * A waits for that sync_file and checks the copy on the CPU: had B's copy
 * run before A's FILL, the second half would hold the FILL's value.  The
 * engine timestamps and A's preemption count show that B's work ran
 * inside A's job and finished long before it: the engine preempted the
 * LOW job for it.
 *
 * libvaccel puts a queue on the engine of its class with the fewest
 * contexts, so A gives each compute engine one LOW queue: whichever engine
 * B's queue lands on is busy with A's job.
 *
 * Exit status: 0 when B's work overtook A's job and A read B's copy, 1
 * otherwise, 2 on a usage error.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <poll.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <unistd.h>

#include <linux/sync_file.h>

#include <vaccel.h>

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

/*
 * The shared buffer: a header page, where B's engine writes its
 * timestamps and a marker, then the data, two halves.
 */
#define HDR_SIZE	4096u
#define HALF		(512u * 1024)
#define SHARED_SIZE	(HDR_SIZE + 2 * HALF)
#define HDR_B_BEGIN	0	/* engine clock when B's work began, 64 bits */
#define HDR_B_END	8	/* and when it ended */
#define HDR_B_MARK	16	/* B's pid, written by B's engine, 32 bits */
#define DATA_FIRST	HDR_SIZE
#define DATA_SECOND	(HDR_SIZE + HALF)

#define FILL_VALUE	0xf111f111u

/* A's job on each compute engine: DELAYS delays of DELAY_NS. */
#define DELAYS		10
#define DELAY_NS	(100ull * 1000 * 1000)

/* The longest either process waits for the other or for the device. */
#define WAIT_S		60

/* What the processes tell each other; the descriptors ride along. */
enum msg_kind {
	MSG_BUFFER = 1,	/* A to B: the dma-buf and the FILL's sync_file */
	MSG_READY,	/* B to A: imported, queue created */
	MSG_GO,		/* A to B: the LOW job runs */
	MSG_DONE,	/* B to A: the copy's sync_file */
};

struct msg {
	uint32_t kind;
	uint32_t priority;	/* MSG_READY: the priority B got */
	uint64_t value;		/* MSG_BUFFER: the size; MSG_READY: B's VA */
};

static const char *who = "A";

static int fail(const char *what, int err)
{
	fprintf(stderr, "example-share: %s: %s: %s\n", who, what, strerror(-err));
	return -1;
}

static const char *priority_name(unsigned int p)
{
	static const char *const names[] = { "LOW", "NORMAL", "HIGH", "REALTIME" };

	return p < 4 ? names[p] : "unknown";
}

/* --- descriptors over a UNIX socket --- */

/*
 * Sends @m with @nfds descriptors (SCM_RIGHTS): the receiver gets new
 * descriptors of the same open files, the way a dma-buf or a sync_file
 * crosses into another process.
 */
static int send_msg(int sock, const struct msg *m, const int *fds, unsigned int nfds)
{
	char control[CMSG_SPACE(2 * sizeof(int))] = { 0 };
	struct iovec iov = { .iov_base = (void *)m, .iov_len = sizeof(*m) };
	struct msghdr mh = { .msg_iov = &iov, .msg_iovlen = 1 };
	struct cmsghdr *c;

	if (nfds) {
		mh.msg_control = control;
		mh.msg_controllen = CMSG_SPACE(nfds * sizeof(int));
		c = CMSG_FIRSTHDR(&mh);
		c->cmsg_level = SOL_SOCKET;
		c->cmsg_type = SCM_RIGHTS;
		c->cmsg_len = CMSG_LEN(nfds * sizeof(int));
		memcpy(CMSG_DATA(c), fds, nfds * sizeof(int));
	}
	if (sendmsg(sock, &mh, MSG_NOSIGNAL) != (ssize_t)sizeof(*m))
		return fail("sending to the other process", -errno);
	return 0;
}

/*
 * Receives a message of @kind and exactly @nfds descriptors.  Return: 0,
 * or -1 with a message (the other process ended, timed out, or sent
 * something else).
 */
static int recv_msg(int sock, enum msg_kind kind, struct msg *m, int *fds,
		    unsigned int nfds)
{
	char control[CMSG_SPACE(2 * sizeof(int))];
	struct iovec iov = { .iov_base = m, .iov_len = sizeof(*m) };
	struct msghdr mh = {
		.msg_iov = &iov, .msg_iovlen = 1,
		.msg_control = control, .msg_controllen = sizeof(control),
	};
	unsigned int got = 0, i;
	int received[2];
	struct cmsghdr *c;
	ssize_t n;

	n = recvmsg(sock, &mh, MSG_CMSG_CLOEXEC);
	if (n < 0)
		return fail("receiving from the other process",
			    errno == EAGAIN ? -ETIMEDOUT : -errno);
	/* Take the descriptors first, so that none leaks on an error. */
	for (c = CMSG_FIRSTHDR(&mh); c; c = CMSG_NXTHDR(&mh, c)) {
		if (c->cmsg_level == SOL_SOCKET && c->cmsg_type == SCM_RIGHTS && !got) {
			got = (c->cmsg_len - CMSG_LEN(0)) / sizeof(int);
			if (got > 2)
				got = 2;
			memcpy(received, CMSG_DATA(c), got * sizeof(int));
		}
	}
	if (got == nfds) {
		memcpy(fds, received, got * sizeof(int));
	} else {
		for (i = 0; i < got; i++)
			close(received[i]);
	}
	if (n == 0) {
		fprintf(stderr, "example-share: %s: the other process ended early\n", who);
		return -1;
	}
	if (n != sizeof(*m) || m->kind != kind || got != nfds ||
	    (mh.msg_flags & MSG_CTRUNC)) {
		fprintf(stderr, "example-share: %s: unexpected message (kind %u, %u descriptors)\n",
			who, n == sizeof(*m) ? m->kind : 0, got);
		return -1;
	}
	return 0;
}

/*
 * Waits on the CPU for a sync_file: poll() reports it readable once its
 * fence has signalled.  The fence's status then says whether the work
 * succeeded (1) or failed (a negative errno).
 */
static int wait_sync_file(int fd, const char *what)
{
	struct sync_file_info info = { .num_fences = 0 };
	struct pollfd p = { .fd = fd, .events = POLLIN };
	char msg[96];
	int n;

	do
		n = poll(&p, 1, WAIT_S * 1000);
	while (n < 0 && errno == EINTR);
	snprintf(msg, sizeof(msg), "waiting for %s", what);
	if (n < 0)
		return fail(msg, -errno);
	if (n == 0)
		return fail(msg, -ETIMEDOUT);
	if (ioctl(fd, SYNC_IOC_FILE_INFO, &info))
		return fail(msg, -errno);
	if (info.status != 1) {
		snprintf(msg, sizeof(msg), "%s failed", what);
		return fail(msg, info.status < 0 ? info.status : -EIO);
	}
	return 0;
}

static double ms(uint64_t ns)
{
	return ns / 1e6;
}

/* --- process B: the urgent consumer --- */

static int run_b(int sock, unsigned long index)
{
	struct vaccel_device *dev = NULL;
	struct vaccel_queue *q = NULL;
	struct vaccel_event *done = NULL, *filled = NULL;
	struct vaccel_event_point after_fill;
	struct vaccel_command_sync sync = { .waits = &after_fill, .wait_count = 1 };
	struct vaccel_bo *bo = NULL;
	enum vaccel_priority prio = VACCEL_PRIORITY_HIGH;
	int fds[2] = { -1, -1 }, done_fd = -1;
	struct msg m;
	uint64_t va;
	int ret, status = 1;

	who = "B";
	if (recv_msg(sock, MSG_BUFFER, &m, fds, 2))
		goto out;
	ret = vaccel_device_open(index, &dev);
	if (ret) {
		fail("opening the device", ret);
		goto out;
	}

	/*
	 * The dma-buf becomes a BO of B's own file, mapped at an address of
	 * B's own address space: the pages are A's, the VA is B's.  B closes
	 * its descriptor once imported; the BO keeps the memory.
	 */
	ret = vaccel_bo_import(dev, fds[0], &bo);
	if (ret) {
		fail("importing the dma-buf", ret);
		goto out;
	}
	close(fds[0]);
	fds[0] = -1;
	if (vaccel_bo_size(bo) < m.value) {
		fprintf(stderr, "example-share: B: the imported buffer has %" PRIu64
			" bytes, A sent %" PRIu64 "\n", vaccel_bo_size(bo), m.value);
		goto out;
	}
	va = vaccel_bo_va(bo);

	ret = vaccel_queue_create(dev, VACCEL_ENGINE_CLASS_COMPUTE, prio, &q);
	if (ret == -EPERM) {
		printf("B: HIGH priority needs CAP_SYS_NICE; using NORMAL, which still outranks LOW\n");
		prio = VACCEL_PRIORITY_NORMAL;
		ret = vaccel_queue_create(dev, VACCEL_ENGINE_CLASS_COMPUTE, prio, &q);
	}
	if (ret) {
		fail("creating a compute queue", ret);
		goto out;
	}
	ret = vaccel_event_create(dev, &done);
	if (ret) {
		fail("creating an event", ret);
		goto out;
	}
	printf("B: imported the dma-buf, %" PRIu64 " KiB, at GPU VA 0x%" PRIx64
	       " of its own address space; its queue has %s priority\n",
	       vaccel_bo_size(bo) >> 10, va, priority_name(prio));
	fflush(stdout);

	m = (struct msg){ .kind = MSG_READY, .priority = prio, .value = va };
	if (send_msg(sock, &m, NULL, 0) || recv_msg(sock, MSG_GO, &m, NULL, 0))
		goto out;

	/*
	 * A's FILL of the second half must be done before B's copy lands
	 * there.  Its fence arrives from another process as a sync_file:
	 * imported into an event of B's device, it is waited for by the
	 * device, not the CPU.  The first command recorded after the wait
	 * (the timestamp) and everything after it wait.
	 */
	ret = vaccel_event_create(dev, &filled);
	if (!ret)
		ret = vaccel_event_import_sync_file(filled, 0, fds[1]);
	after_fill = (struct vaccel_event_point){ .event = filled };
	if (!ret)
		ret = vaccel_queue_set_command_sync(q, &sync);
	if (ret) {
		fail("importing the FILL's sync_file as an event to wait for", ret);
		goto out;
	}

	if ((ret = vaccel_queue_timestamp(q, va + HDR_B_BEGIN)) ||
	    (ret = vaccel_queue_copy(q, va + DATA_SECOND, va + DATA_FIRST, HALF)) ||
	    (ret = vaccel_queue_write(q, va + HDR_B_MARK, (uint32_t)getpid(), 32)) ||
	    (ret = vaccel_queue_timestamp(q, va + HDR_B_END)) ||
	    (ret = vaccel_queue_signal(q, done))) {
		fail("recording the copy", ret);
		goto out;
	}
	/* The event's fence, as a descriptor another process can wait for. */
	ret = vaccel_event_export_sync_file(done, &done_fd);
	if (ret) {
		fail("exporting the copy's sync_file", ret);
		goto out;
	}
	printf("B: submitted a copy of %u KiB that waits for the FILL's sync_file on the device,\n"
	       "   sent the copy's sync_file to A\n", HALF >> 10);
	fflush(stdout);
	m = (struct msg){ .kind = MSG_DONE };
	if (send_msg(sock, &m, &done_fd, 1))
		goto out;

	ret = vaccel_queue_finish(q);
	if (ret) {
		fail("the copy", ret);
		goto out;
	}
	status = 0;
out:
	if (done_fd >= 0)
		close(done_fd);
	vaccel_event_destroy(done);
	vaccel_event_destroy(filled);
	vaccel_queue_destroy(q);
	vaccel_bo_free(bo);
	vaccel_device_close(dev);
	if (fds[0] >= 0)
		close(fds[0]);
	if (fds[1] >= 0)
		close(fds[1]);
	return status;
}

/* --- process A: the producer with a background job --- */

struct proc_a {
	struct vaccel_device *dev;
	struct vaccel_bo *shared;	/* the buffer B gets */
	struct vaccel_bo *ts;		/* A's timestamps: per queue, begin and end */
	uint8_t *cpu;
	volatile uint64_t *ts_cpu;
	struct vaccel_queue *low[64];
	unsigned int nlow;
	struct vaccel_event *filled;
};

/*
 * The buffer, its first half written by the CPU and its second half
 * FILLed by the device on the first LOW queue, with an event that signals
 * when the FILL is done.
 */
static int a_produce(struct proc_a *a)
{
	void *cpu;
	uint32_t *words;
	unsigned int i;
	int ret;

	ret = vaccel_bo_alloc(a->dev, SHARED_SIZE, VACCEL_BO_GPU_NO_EXEC, &a->shared);
	if (ret)
		return fail("allocating the shared buffer", ret);
	ret = vaccel_bo_map(a->shared, &cpu);
	if (ret)
		return fail("mapping the shared buffer", ret);
	a->cpu = cpu;
	words = (uint32_t *)(a->cpu + DATA_FIRST);
	for (i = 0; i < HALF / 4; i++)
		words[i] = i * 2654435761u ^ 0x3c6ef372u;

	ret = vaccel_event_create(a->dev, &a->filled);
	if (ret)
		return fail("creating an event", ret);
	ret = vaccel_queue_fill(a->low[0], vaccel_bo_va(a->shared) + DATA_SECOND, HALF,
				FILL_VALUE);
	if (!ret)
		ret = vaccel_queue_signal(a->low[0], a->filled);
	if (ret)
		return fail("recording the FILL", ret);
	return 0;
}

/* A LOW queue per compute engine, and a buffer for their timestamps. */
static int a_open(struct proc_a *a, unsigned long index)
{
	struct vaccel_device_info info;
	void *cpu;
	unsigned int i;
	int ret;

	ret = vaccel_device_open(index, &a->dev);
	if (ret == -ENODEV) {
		fprintf(stderr, "example-share: no vaccel device of index %lu: is the module loaded? (insmod vaccel.ko)\n",
			index);
		return -1;
	}
	if (ret)
		return fail("opening the device", ret);
	ret = vaccel_device_get_info(a->dev, &info);
	if (ret)
		return fail("device info", ret);
	a->nlow = info.engine_count[VACCEL_ENGINE_CLASS_COMPUTE];
	if (a->nlow > ARRAY_SIZE(a->low))
		a->nlow = ARRAY_SIZE(a->low);
	for (i = 0; i < a->nlow; i++) {
		ret = vaccel_queue_create(a->dev, VACCEL_ENGINE_CLASS_COMPUTE,
					  VACCEL_PRIORITY_LOW, &a->low[i]);
		if (ret)
			return fail("creating a LOW compute queue", ret);
	}
	ret = vaccel_bo_alloc(a->dev, 16 * a->nlow, VACCEL_BO_GPU_NO_EXEC, &a->ts);
	if (!ret)
		ret = vaccel_bo_map(a->ts, &cpu);
	if (ret)
		return fail("the timestamp buffer", ret);
	a->ts_cpu = cpu;
	return 0;
}

/* The LOW job: on every queue, a timestamp, the delays, a timestamp. */
static int a_start_job(struct proc_a *a)
{
	uint64_t ts_va = vaccel_bo_va(a->ts);
	unsigned int i, d;
	int ret = 0;

	for (i = 0; i < a->nlow && !ret; i++) {
		ret = vaccel_queue_timestamp(a->low[i], ts_va + 16 * i);
		for (d = 0; d < DELAYS && !ret; d++)
			ret = vaccel_queue_delay(a->low[i], DELAY_NS);
		if (!ret)
			ret = vaccel_queue_timestamp(a->low[i], ts_va + 16 * i + 8);
		if (!ret)
			ret = vaccel_queue_flush(a->low[i]);
	}
	if (ret)
		return fail("submitting the LOW job", ret);
	return 0;
}

/* Until the engines have written every begin timestamp of the job. */
static int a_wait_job_running(struct proc_a *a)
{
	unsigned int i, waited_ms = 0;

	for (i = 0; i < a->nlow; i++) {
		while (!a->ts_cpu[2 * i]) {
			if (waited_ms++ >= WAIT_S * 1000)
				return fail("waiting for the LOW job to start", -ETIMEDOUT);
			usleep(1000);
		}
	}
	return 0;
}

/*
 * What A learns once B's sync_file has signalled: B's copy on the CPU, the
 * engine timestamps, and, once the LOW job is done, its preemptions.
 */
static int a_report(struct proc_a *a, pid_t b, unsigned int b_prio)
{
	const uint32_t *first = (const uint32_t *)(a->cpu + DATA_FIRST);
	const uint32_t *second = (const uint32_t *)(a->cpu + DATA_SECOND);
	const volatile uint64_t *hdr = (const volatile uint64_t *)a->cpu;
	uint64_t t0 = UINT64_MAX, low_end = UINT64_MAX, low_last = 0, preemptions = 0;
	uint64_t b_begin = hdr[HDR_B_BEGIN / 8], b_end = hdr[HDR_B_END / 8];
	uint32_t mark = *(const volatile uint32_t *)(a->cpu + HDR_B_MARK);
	struct vaccel_queue_stats st;
	unsigned int i, bad = 0;
	char label[64];
	bool ok = true;
	int ret;

	for (i = 0; i < HALF / 4; i++)
		bad += second[i] != first[i];
	printf("A: B's sync_file signalled: the second half %s\n",
	       bad ? "is NOT the copy of the first" : "is the copy of the first, made after A's FILL");
	if (bad) {
		printf("   %u of %u words differ (0x%08x where the FILL wrote 0x%08x)\n",
		       bad, HALF / 4, second[0], FILL_VALUE);
		ok = false;
	}
	if (mark != (uint32_t)b) {
		printf("   B's marker is %u, want B's pid %d\n", mark, (int)b);
		ok = false;
	}

	for (i = 0; i < a->nlow; i++) {
		ret = vaccel_queue_finish(a->low[i]);
		if (ret)
			return fail("the LOW job", ret);
		ret = vaccel_queue_get_stats(a->low[i], &st);
		if (ret)
			return fail("the LOW queue's statistics", ret);
		preemptions += st.preemptions;
		if (a->ts_cpu[2 * i] < t0)
			t0 = a->ts_cpu[2 * i];
		if (a->ts_cpu[2 * i + 1] < low_end)
			low_end = a->ts_cpu[2 * i + 1];
		if (a->ts_cpu[2 * i + 1] > low_last)
			low_last = a->ts_cpu[2 * i + 1];
	}
	if (!b_begin || b_end < b_begin || b_begin < t0) {
		printf("   B's timestamps %" PRIu64 " and %" PRIu64 " are not after the job's start %" PRIu64 "\n",
		       b_begin, b_end, t0);
		return -1;
	}
	snprintf(label, sizeof(label), "A's LOW job on %u compute engine%s:", a->nlow,
		 a->nlow == 1 ? "" : "s");
	printf("  engine clock, from the start of A's job:\n");
	printf("    %-36s %+10.3f ms .. %+10.3f ms\n", label, 0.0, ms(low_last - t0));
	snprintf(label, sizeof(label), "B's copy, at %s priority:", priority_name(b_prio));
	printf("    %-36s %+10.3f ms .. %+10.3f ms\n", label, ms(b_begin - t0), ms(b_end - t0));
	printf("A: its LOW queues were preempted %" PRIu64 " time%s", preemptions,
	       preemptions == 1 ? "" : "s");
	if (b_end < low_end)
		printf("; B's work ended %.3f ms before A's job\n", ms(low_end - b_end));
	else
		printf("; B's work did NOT end before A's job\n");
	ok = ok && b_end < low_end && preemptions >= 1;
	return ok ? 0 : -1;
}

static int run_a(int sock, pid_t b, unsigned long index)
{
	struct proc_a a = { 0 };
	int fds[2] = { -1, -1 }, done_fd = -1;
	unsigned int i, b_prio;
	struct msg m;
	int ret, status = 1;

	if (a_open(&a, index) || a_produce(&a))
		goto out;

	/* The buffer and the FILL's completion, as descriptors for B. */
	ret = vaccel_bo_export(a.shared, &fds[0]);
	if (ret) {
		fail("exporting the buffer as a dma-buf", ret);
		goto out;
	}
	ret = vaccel_event_export_sync_file(a.filled, &fds[1]);
	if (ret) {
		fail("exporting the FILL's sync_file", ret);
		goto out;
	}
	printf("share: process A (pid %d) and process B (pid %d), a buffer of %u KiB\n",
	       (int)getpid(), (int)b, SHARED_SIZE >> 10);
	printf("A: wrote the first half on the CPU, FILLed the second on the device; sent the\n"
	       "   dma-buf of the buffer at GPU VA 0x%" PRIx64 " and the FILL's sync_file to B\n",
	       vaccel_bo_va(a.shared));
	fflush(stdout);
	m = (struct msg){ .kind = MSG_BUFFER, .value = SHARED_SIZE };
	if (send_msg(sock, &m, fds, 2))
		goto out;
	if (recv_msg(sock, MSG_READY, &m, NULL, 0))
		goto out;
	b_prio = m.priority;

	if (a_start_job(&a) || a_wait_job_running(&a))
		goto out;
	printf("A: a LOW job runs on %u compute engine%s: %d DELAY packets of %llu ms each\n",
	       a.nlow, a.nlow == 1 ? "" : "s", DELAYS, DELAY_NS / 1000000);
	fflush(stdout);
	m = (struct msg){ .kind = MSG_GO };
	if (send_msg(sock, &m, NULL, 0) || recv_msg(sock, MSG_DONE, &m, &done_fd, 1))
		goto out;
	if (wait_sync_file(done_fd, "B's copy"))
		goto out;
	if (a_report(&a, b, b_prio))
		goto out;
	status = 0;
out:
	if (done_fd >= 0)
		close(done_fd);
	for (i = 0; i < 2; i++)
		if (fds[i] >= 0)
			close(fds[i]);
	vaccel_event_destroy(a.filled);
	for (i = 0; i < a.nlow; i++)
		vaccel_queue_destroy(a.low[i]);
	vaccel_bo_free(a.ts);
	vaccel_bo_free(a.shared);
	vaccel_device_close(a.dev);
	return status;
}

static void usage(FILE *f)
{
	fprintf(f,
		"usage: example-share [-h] [-d INDEX]\n"
		"Two processes share a buffer as a dma-buf and order their work with\n"
		"sync_files; B's HIGH priority work overtakes A's LOW priority job.\n"
		"\n"
		"  -d INDEX   the device of this index (default 0, the first)\n"
		"  -h         this help\n");
}

int main(int argc, char **argv)
{
	struct timeval timeout = { .tv_sec = WAIT_S };
	unsigned long index = 0;
	int sv[2], opt, status, wstatus;
	char *end;
	pid_t b;

	while ((opt = getopt(argc, argv, "hd:")) != -1) {
		switch (opt) {
		case 'h':
			usage(stdout);
			return 0;
		case 'd':
			errno = 0;
			index = strtoul(optarg, &end, 0);
			if (errno || *end || !*optarg || optarg[0] == '-' || index > UINT_MAX) {
				fprintf(stderr, "example-share: bad value '%s' for -d\n", optarg);
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

	/*
	 * A datagram socket keeps the messages apart; the timeout keeps
	 * either process from waiting for ever on the other.
	 */
	if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sv)) {
		perror("example-share: socketpair");
		return 1;
	}
	if (setsockopt(sv[0], SOL_SOCKET, SO_RCVTIMEO, &timeout, sizeof(timeout)) ||
	    setsockopt(sv[1], SOL_SOCKET, SO_RCVTIMEO, &timeout, sizeof(timeout))) {
		perror("example-share: SO_RCVTIMEO");
		return 1;
	}
	/* Each process opens the device itself, after the fork. */
	fflush(stdout);
	b = fork();
	if (b < 0) {
		perror("example-share: fork");
		return 1;
	}
	if (b == 0) {
		close(sv[0]);
		status = run_b(sv[1], index);
		close(sv[1]);
		_exit(status);
	}
	close(sv[1]);
	status = run_a(sv[0], b, index);
	/* B sees the socket close if A gave up, and ends. */
	close(sv[0]);
	if (waitpid(b, &wstatus, 0) != b) {
		perror("example-share: waitpid");
		status = 1;
	} else if (!WIFEXITED(wstatus) || WEXITSTATUS(wstatus)) {
		fprintf(stderr, "example-share: process B failed\n");
		status = 1;
	}
	printf("result: %s\n", status ? "FAILED" :
	       "OK, B's work overtook A's LOW job, and A read B's copy after B's sync_file");
	return status;
}
