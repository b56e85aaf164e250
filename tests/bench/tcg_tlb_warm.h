/* SPDX-License-Identifier: MIT */
/*
 * Copyright 2026 The vaccel authors
 */

/*
 * tcg_tlb_warm - gives every vCPU of the dev VM the same, large, software
 * TLB before a benchmark.
 *
 * Under TCG, each vCPU translates guest addresses through a TLB of its own
 * that QEMU resizes only when the guest flushes it whole (on x86, a CR3
 * write: a switch between processes).  At each full flush QEMU looks at
 * how many entries the vCPU used since the last one: it doubles the TLB
 * when most were used and shrinks it when few were.  Between full flushes
 * the size stays, and a benchmark's engine threads are kernel threads,
 * which never write CR3: a vCPU keeps, through a whole run, whatever size
 * the last process switch left it.  That size is luck; measured in the dev
 * VM, a walk over 4 MiB ran 2x slower on one vCPU than on the other for a
 * whole boot, and 3 to 5x slower than after this warm-up.  A figure that
 * compares work spread over both vCPUs (the out-of-order queue) with work
 * on one (the in-order queue) then measures the luck, not vaccel.
 *
 * So, on every online CPU at once, two processes pinned there take turns
 * (sched_yield(): a CR3 write, a full flush at each turn), each touching
 * 4096 pages before it yields: at each flush nearly every entry was used,
 * and QEMU doubles the TLB until 4096 entries fill less than 70% of it.  All
 * CPUs at once, so that no vCPU sits through a flush of an idle period
 * after its turn (QEMU would shrink its TLB again).  On real hardware, or
 * under KVM, this costs its run time and changes nothing.
 *
 * tcg_tlb_warm() does it; the program tcg_tlb_warm runs it before each
 * benchmark, and a benchmark may run it again just before it measures,
 * after whatever process switches its setup made (a compiler's).
 */
#ifndef VACCEL_BENCH_TCG_TLB_WARM_H
#define VACCEL_BENCH_TCG_TLB_WARM_H

#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define TCG_TLB_WARM_PAGES	4096

static inline long tcg_tlb_warm_now_ms(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec * 1000 + t.tv_nsec / 1000000;
}

/* One of the two processes of @cpu: touches and yields for @ms; exit status. */
static inline int tcg_tlb_warm_cpu(int cpu, long ms)
{
	long page = sysconf(_SC_PAGESIZE), end;
	volatile char *buf;
	cpu_set_t set;
	int i;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set))
		return 1;
	buf = mmap(NULL, TCG_TLB_WARM_PAGES * page, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0);
	if (buf == MAP_FAILED)
		return 1;
	end = tcg_tlb_warm_now_ms() + ms;
	do {
		for (i = 0; i < TCG_TLB_WARM_PAGES; i++)
			buf[(size_t)i * page]++;
		sched_yield();
	} while (tcg_tlb_warm_now_ms() < end);
	return 0;
}

/**
 * tcg_tlb_warm() - size every vCPU's TCG TLB alike
 * @ms: how long, in milliseconds (300 is plenty)
 *
 * Two processes on each CPU this process may run on, for @ms, all at once.
 * The children only make system calls, so a multithreaded caller may use
 * it.
 *
 * Return: 0, or -1 with a message on stderr if a process could not be
 * made, pinned or given its pages.
 */
static inline int tcg_tlb_warm(long ms)
{
	int cpu, twin, status, n = 0, i, ret = 0;
	cpu_set_t cpus;
	pid_t *pids;

	if (sched_getaffinity(0, sizeof(cpus), &cpus)) {
		fprintf(stderr, "tcg_tlb_warm: sched_getaffinity: %s\n", strerror(errno));
		return -1;
	}
	/* Its own children only: the caller may have others. */
	pids = calloc(2 * CPU_COUNT(&cpus), sizeof(*pids));
	if (!pids) {
		fprintf(stderr, "tcg_tlb_warm: out of memory\n");
		return -1;
	}
	for (cpu = 0; cpu < CPU_SETSIZE && !ret; cpu++) {
		if (!CPU_ISSET(cpu, &cpus))
			continue;
		for (twin = 0; twin < 2; twin++) {
			pid_t pid = fork();

			if (pid < 0) {
				fprintf(stderr, "tcg_tlb_warm: fork: %s\n", strerror(errno));
				ret = -1;
				break;
			}
			if (!pid)
				_exit(tcg_tlb_warm_cpu(cpu, ms));
			pids[n++] = pid;
		}
	}
	for (i = 0; i < n; i++) {
		if (waitpid(pids[i], &status, 0) < 0 || !WIFEXITED(status) ||
		    WEXITSTATUS(status)) {
			if (!ret)
				fprintf(stderr, "tcg_tlb_warm: a process could not pin itself or map its %d pages\n",
					TCG_TLB_WARM_PAGES);
			ret = -1;
		}
	}
	free(pids);
	return ret;
}

#endif
