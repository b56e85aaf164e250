// SPDX-License-Identifier: MIT
/*
 * test_soak.c - mixed load for a long time, and processes killed at random.
 *
 * soak: for VT_SOAK_S seconds (the plan passes SOAK_S; 60 by default),
 * three worker processes submit a random mix on COMPUTE and COPY contexts
 * of every priority: writes and copies whose results are checked, long
 * delays that high-priority work preempts, buffers that fault and buffers
 * that hang (their contexts banned and created again), synchronous and
 * asynchronous binds.  Every job and bind signals a syncobj of its own,
 * whose fence status says how it ended: completed, faulted (EFAULT), hung
 * (ETIMEDOUT) or cancelled (ECANCELED).  A fence that does not signal in
 * time is a lost job; a checked job with a wrong result or an unexpected
 * status is a failure.  Meanwhile a fourth process forks victims that
 * submit, bind, wait and map, and kills each with SIGKILL at a random
 * moment.  At the end every job is accounted for, the device still works
 * and its memory counters (BOs, bytes, VMs, page-table pages) are back to
 * what they were before; every 10 s a line shows them, with the kernel's
 * unreclaimable slab.
 *
 * abrupt_exit: 200 processes killed with SIGKILL at random points while
 * they submit, bind, wait and map; then a job completes and the memory
 * counters come back.
 *
 * Needs root (debugfs, CAP_SYS_NICE); the plan loads timeout_ms=300 so
 * that hangs are detected quickly.
 */
#define _GNU_SOURCE
#include <signal.h>
#include <sys/mman.h>

#include "vtest.h"
#include "vt_exec.h"
#include "vt_mem.h"

#define WORKERS		3
#define OUTSTANDING	16
#define SLOTS		4096		/* checked results, 8 bytes each */

enum kind { K_WRITE, K_DELAY, K_FAULT, K_HANG, K_BIND_ASYNC, K_KINDS };

struct tally {
	long long submitted, completed, faulted, hung, cancelled, lost, wrong;
	long long binds, kills;
};

static struct tally *shared_tally(void)
{
	struct tally *t = mmap(NULL, sizeof(*t) * (WORKERS + 1), PROT_READ | PROT_WRITE,
			       MAP_SHARED | MAP_ANONYMOUS, -1, 0);

	VT_ASSERT(t != MAP_FAILED);
	memset(t, 0, sizeof(*t) * (WORKERS + 1));
	return t;
}

struct job {
	__u32 so;
	enum kind kind;
	__u32 slot;
	__u64 value;
};

struct worker {
	struct vt_dev d;
	struct vt_cmd cmd;
	struct vt_bo data, scratch;
	__u64 scratch_va;
	__u32 ctx[3];		/* COMPUTE low, COMPUTE high, COPY normal */
	__u32 bad;		/* for faults and hangs, created again when banned */
	struct job jobs[OUTSTANDING];
	unsigned int njobs;
	__u64 next_value;
	struct tally *t;
	unsigned int seed;
};

static unsigned int rnd(struct worker *w, unsigned int n)
{
	return (unsigned int)(rand_r(&w->seed) % n);
}

/* Waits for every outstanding job and accounts for it. */
static void reap(struct worker *w)
{
	/* A hang takes the timeout (300 ms) on the engine, behind others. */
	unsigned int wait_ms = 60000;

	for (unsigned int i = 0; i < w->njobs; i++) {
		struct job *j = &w->jobs[i];
		int st;

		if (vt_syncobj_wait_ms(w->d.fd, j->so, wait_ms)) {
			w->t->lost++;
			fprintf(stderr, "# soak: job kind %d lost\n", j->kind);
			continue;
		}
		{
			int sfd = vt_sync_file(w->d.fd, j->so);

			st = vt_sync_file_status(sfd);
			close(sfd);
		}
		if (st == 1)
			w->t->completed++;
		else if (st == -EFAULT)
			w->t->faulted++;
		else if (st == -ETIMEDOUT)
			w->t->hung++;
		else if (st == -ECANCELED)
			w->t->cancelled++;
		if ((j->kind == K_WRITE || j->kind == K_DELAY || j->kind == K_BIND_ASYNC) && st != 1) {
			w->t->wrong++;
			fprintf(stderr, "# soak: job kind %d ended with %d\n", j->kind, st);
		}
		if ((j->kind == K_FAULT || j->kind == K_HANG) &&
		    st != -EFAULT && st != -ETIMEDOUT && st != -ECANCELED) {
			w->t->wrong++;
			fprintf(stderr, "# soak: a bad job ended with %d\n", st);
		}
		if (j->kind == K_WRITE && *VT_U64P(&w->data, j->slot * 8) != j->value) {
			w->t->wrong++;
			fprintf(stderr, "# soak: slot %u holds %llx, not %llx\n", j->slot,
				(unsigned long long)*VT_U64P(&w->data, j->slot * 8),
				(unsigned long long)j->value);
		}
		drmSyncobjDestroy(w->d.fd, j->so);
	}
	w->njobs = 0;
	/* Every buffer is done: the command BO starts over. */
	w->cmd.start = w->cmd.pos = 0;
	if (w->scratch_va) {
		vt_unmap(w->d.fd, w->scratch_va, w->scratch.size);
		w->scratch_va = 0;
	}
	{
		struct drm_vaccel_context_state s = vt_ctx_state(w->d.fd, w->bad);

		if (s.flags & DRM_VACCEL_CONTEXT_BANNED) {
			vt_ctx_destroy(w->d.fd, w->bad);
			w->bad = vt_ctx_create(w->d.fd, DRM_VACCEL_ENGINE_CLASS_COMPUTE,
					       DRM_VACCEL_ENGINE_ANY);
		}
	}
}

static void submit(struct worker *w, __u32 ctx, struct job *j)
{
	struct drm_vaccel_sync out = { .handle = j->so };
	int ret = vt_submit_raw(w->d.fd, ctx, vt_cmd_va(&w->cmd), vt_cmd_size(&w->cmd),
				NULL, 0, &out, 1);

	/* The bad context is banned by its last fault or hang: a new one. */
	if (ret && errno == ECANCELED && ctx == w->bad) {
		vt_ctx_destroy(w->d.fd, w->bad);
		w->bad = vt_ctx_create(w->d.fd, DRM_VACCEL_ENGINE_CLASS_COMPUTE,
				       DRM_VACCEL_ENGINE_ANY);
		ret = vt_submit_raw(w->d.fd, w->bad, vt_cmd_va(&w->cmd), vt_cmd_size(&w->cmd),
				    NULL, 0, &out, 1);
	}
	if (ret)
		vtest_fail(__FILE__, __LINE__, "SUBMIT of a kind %d job: %s", j->kind,
			   strerror(errno));
	vt_cmd_next(&w->cmd);
	w->t->submitted++;
	w->njobs++;
}

static void one(struct worker *w)
{
	struct job *j = &w->jobs[w->njobs];
	unsigned int k = rnd(w, 100);

	memset(j, 0, sizeof(*j));
	j->so = vt_syncobj(w->d.fd);
	if (k < 55) {
		j->kind = K_WRITE;
		j->slot = w->njobs * 8 + rnd(w, 8);
		j->value = ++w->next_value | ((__u64)getpid() << 40);
		if (rnd(w, 2)) {
			vt_pkt_write64(&w->cmd, w->data.va + j->slot * 8, j->value);
			submit(w, w->ctx[rnd(w, 2)], j);
		} else {
			/* Through a copy on the COPY engine. */
			vt_pkt_write64(&w->cmd, w->data.va + (SLOTS + j->slot) * 8, j->value);
			vt_pkt_copy(&w->cmd, w->data.va + (SLOTS + j->slot) * 8,
				    w->data.va + j->slot * 8, 8);
			submit(w, w->ctx[2], j);
		}
	} else if (k < 70) {
		j->kind = K_DELAY;
		vt_pkt_delay(&w->cmd, 2 * 1000 * 1000);
		submit(w, w->ctx[0], j);
	} else if (k < 80) {
		j->kind = K_FAULT;
		vt_pkt_write32(&w->cmd, w->d.info.va_start + VT_PAGE, 1);
		submit(w, w->bad, j);
	} else if (k < 83) {
		j->kind = K_HANG;
		vt_pkt_wait(&w->cmd, w->data.va + 2 * SLOTS * 8, 1, ~0ull, DRM_VACCEL_WAIT_EQ, false);
		submit(w, w->bad, j);
	} else if (!w->scratch_va) {
		struct drm_vaccel_vm_bind_op op;
		struct drm_vaccel_sync s = { .handle = j->so };
		struct drm_vaccel_vm_bind b = {
			.ops = DRM_VACCEL_OBJ_ARRAY(1, &op),
			.signals = DRM_VACCEL_OBJ_ARRAY(1, &s),
		};

		j->kind = K_BIND_ASYNC;
		w->scratch_va = w->d.info.va_end - 64 * VT_MIB;
		op = vt_op_map(w->scratch.handle, 0, w->scratch_va, w->scratch.size, 0);
		VT_ASSERT_OK(ioctl(w->d.fd, DRM_IOCTL_VACCEL_VM_BIND, &b));
		w->t->binds++;
		w->njobs++;
	} else {
		drmSyncobjDestroy(w->d.fd, j->so);
	}
	if (w->njobs == OUTSTANDING || w->cmd.pos + 256 > w->cmd.bo.size)
		reap(w);
}

static void worker_main(struct tally *t, unsigned int id, __u64 deadline)
{
	struct worker w = { .t = t, .seed = id * 7919 + 1 };

	w.d = vt_dev_open();
	w.cmd = vt_cmd_new(&w.d, 256 * VT_KIB);
	w.data = vt_bo_new(&w.d, 3 * SLOTS * 8);
	w.scratch.handle = vt_bo_create(w.d.fd, 2 * VT_MIB, 0);
	w.scratch.size = 2 * VT_MIB;
	w.ctx[0] = vt_ctx_create_prio(w.d.fd, DRM_VACCEL_ENGINE_CLASS_COMPUTE,
				      DRM_VACCEL_ENGINE_ANY, DRM_VACCEL_PRIORITY_LOW);
	w.ctx[1] = vt_ctx_create_prio(w.d.fd, DRM_VACCEL_ENGINE_CLASS_COMPUTE,
				      DRM_VACCEL_ENGINE_ANY, DRM_VACCEL_PRIORITY_HIGH);
	w.ctx[2] = vt_ctx_create(w.d.fd, DRM_VACCEL_ENGINE_CLASS_COPY, DRM_VACCEL_ENGINE_ANY);
	w.bad = vt_ctx_create(w.d.fd, DRM_VACCEL_ENGINE_CLASS_COMPUTE, DRM_VACCEL_ENGINE_ANY);
	while (vt_now_ns() < deadline)
		one(&w);
	reap(&w);
}

/* A victim: submits, binds, waits and maps until it is killed. */
static void victim(unsigned int seed)
{
	struct vt_dev d = vt_dev_open();
	struct vt_cmd cmd = vt_cmd_new(&d, 64 * VT_KIB);
	__u32 ctx = vt_ctx_create(d.fd, DRM_VACCEL_ENGINE_CLASS_COMPUTE, DRM_VACCEL_ENGINE_ANY);

	for (;;) {
		__u32 so = vt_syncobj(d.fd), h = vt_bo_create(d.fd, 64 * VT_KIB, 0);
		void *p = vt_bo_mmap(d.fd, h, 64 * VT_KIB);
		__u64 va = vt_va_alloc(&d, 64 * VT_KIB);

		memset(p, (int)seed, 4096);
		vt_map(d.fd, h, 0, va, 64 * VT_KIB, 0);
		vt_pkt_copy(&cmd, va, va + 4096, 4096);
		vt_pkt_delay(&cmd, 500 * 1000);
		vt_submit(d.fd, ctx, &cmd, 0, so);
		vt_syncobj_wait_ms(d.fd, so, 50);
		if (cmd.pos + 256 > cmd.bo.size) {
			vt_syncobj_wait(d.fd, so);
			cmd.start = cmd.pos = 0;
		}
	}
}

static void kill_one(unsigned int *seed)
{
	pid_t pid = fork();

	VT_ASSERT(pid >= 0);
	if (pid == 0) {
		victim(*seed);
		_exit(0);
	}
	vt_sleep_ms(rand_r(seed) % 40);
	kill(pid, SIGKILL);
	VT_ASSERT_EQ(waitpid(pid, NULL, 0), pid);
}

/* The device still completes a job, and its memory is back to @before. */
static void expect_device_clean(const struct vt_dev_mem *before)
{
	struct vt_dev d = vt_dev_open();
	struct vt_cmd cmd = vt_cmd_new(&d, 64 * VT_KIB);
	struct vt_bo out = vt_bo_new(&d, VT_PAGE);
	__u32 ctx = vt_ctx_create(d.fd, DRM_VACCEL_ENGINE_CLASS_COMPUTE, DRM_VACCEL_ENGINE_ANY);
	__u32 so = vt_syncobj(d.fd);
	struct vt_dev_mem now;

	vt_pkt_write64(&cmd, out.va, 0x600d);
	vt_submit(d.fd, ctx, &cmd, 0, so);
	vt_syncobj_wait(d.fd, so);
	VT_ASSERT_EQ(*VT_U64P(&out, 0), 0x600d);
	vt_bo_cpu_unmap(&out);
	munmap(cmd.bo.cpu, cmd.bo.size);
	vt_dev_close(&d);
	/* Teardown finishes on a workqueue: give it a moment. */
	for (int i = 0; i < 200; i++) {
		vt_dev_mem_dir(getenv("VT_SOAK_DEBUGFS"), &now);
		if (vt_dev_mem_equal(before, &now))
			return;
		vt_sleep_ms(50);
	}
	vtest_fail(__FILE__, __LINE__,
		   "memory not back: bo_count %lld/%lld, bo_bytes %lld/%lld, vms %lld/%lld, pt_pages %lld/%lld",
		   now.bo_count, before->bo_count, now.bo_bytes, before->bo_bytes, now.vms,
		   before->vms, now.pt_pages, before->pt_pages);
}

static void baseline(struct vt_dev_mem *m)
{
	static char dir[VT_DIR_MAX];

	vt_debugfs_mount();
	vt_debugfs_dir_index(0, dir, sizeof(dir));
	setenv("VT_SOAK_DEBUGFS", dir, 1);
	vt_dev_mem_dir(dir, m);
}

VTEST(abrupt_exit)
{
	struct vt_dev_mem before;
	unsigned int seed = 12345;

	baseline(&before);
	for (int i = 0; i < 200; i++)
		kill_one(&seed);
	expect_device_clean(&before);
}

VTEST(soak)
{
	long long seconds = vt_env_num("VT_SOAK_S", 60);
	__u64 start = vt_now_ns(), deadline = start + seconds * 1000 * VT_MS;
	struct tally *t = shared_tally(), sum = { 0 };
	struct vt_dev_mem before, now;
	pid_t pids[WORKERS + 1];
	__u64 next_line = start;

	baseline(&before);
	for (unsigned int i = 0; i <= WORKERS; i++) {
		pids[i] = fork();
		VT_ASSERT(pids[i] >= 0);
		if (pids[i])
			continue;
		if (i < WORKERS) {
			worker_main(&t[i], i, deadline);
		} else {
			unsigned int seed = 777;

			while (vt_now_ns() < deadline) {
				kill_one(&seed);
				t[i].kills++;
			}
		}
		_exit(0);
	}
	while (vt_now_ns() < deadline) {
		if (vt_now_ns() >= next_line) {
			vt_dev_mem_dir(getenv("VT_SOAK_DEBUGFS"), &now);
			printf("# soak: %3llu s  bo_count %lld  bo_bytes %lld  vms %lld  pt_pages %lld  SUnreclaim %lld kB\n",
			       (unsigned long long)((vt_now_ns() - start) / (1000 * VT_MS)),
			       now.bo_count, now.bo_bytes, now.vms, now.pt_pages,
			       vt_meminfo_kb("SUnreclaim"));
			fflush(stdout);
			next_line += 10000 * VT_MS;
		}
		vt_sleep_ms(200);
	}
	for (unsigned int i = 0; i <= WORKERS; i++)
		vt_wait_child(pids[i]);
	for (unsigned int i = 0; i <= WORKERS; i++) {
		sum.submitted += t[i].submitted;
		sum.completed += t[i].completed;
		sum.faulted += t[i].faulted;
		sum.hung += t[i].hung;
		sum.cancelled += t[i].cancelled;
		sum.lost += t[i].lost;
		sum.wrong += t[i].wrong;
		sum.binds += t[i].binds;
		sum.kills += t[i].kills;
	}
	printf("# soak: %lld s, %lld jobs and %lld binds: %lld completed, %lld faulted, %lld hung, %lld cancelled, %lld lost; %lld processes killed\n",
	       seconds, sum.submitted, sum.binds, sum.completed, sum.faulted, sum.hung,
	       sum.cancelled, sum.lost, sum.kills);
	VT_ASSERT_EQ(sum.lost, 0);
	VT_ASSERT_EQ(sum.wrong, 0);
	VT_ASSERT_EQ(sum.completed + sum.faulted + sum.hung + sum.cancelled,
		     sum.submitted + sum.binds);
	VT_ASSERT(sum.submitted > 0 && sum.kills > 0);
	expect_device_clean(&before);
}

VTEST_MAIN()
