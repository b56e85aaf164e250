// SPDX-License-Identifier: GPL-2.0-only
/*
 * Copyright 2026 The vaccel authors
 *
 * KUnit tests of the page tables and the TLB: map, unmap, walk, split,
 * the edges of the VA space, table accounting, invalidation and faults.
 */

#include <kunit/test.h>
#include <linux/delay.h>
#include <linux/io.h>
#include <linux/kthread.h>
#include <linux/mm.h>
#include <linux/sizes.h>

#include <drm/vaccel_accel.h>

#include "../vaccel_mmu.h"
#include "../vaccel_tlb.h"

#define NPAGES		16
#define VA_START	SZ_64K
#define VA_END		BIT_ULL(48)

struct vaccel_mmu_test {
	/* The writers' lock a VM would hold. */
	struct mutex lock;
	struct vaccel_pt pt;
	struct vaccel_tlb tlb;
	struct page *pages[NPAGES];
};

static void vaccel_mmu_test_exit(struct kunit *test)
{
	struct vaccel_mmu_test *t = test->priv;
	int i;

	vaccel_tlb_detach(&t->tlb);
	vaccel_pt_fini(&t->pt);
	for (i = 0; i < NPAGES; i++)
		if (t->pages[i])
			__free_page(t->pages[i]);
}

static int vaccel_mmu_test_init(struct kunit *test)
{
	struct vaccel_mmu_test *t;
	int i;

	t = kunit_kzalloc(test, sizeof(*t), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, t);
	test->priv = t;
	mutex_init(&t->lock);
	KUNIT_ASSERT_EQ(test, vaccel_pt_init(&t->pt, VA_START, VA_END, &t->lock), 0);
	vaccel_tlb_init(&t->tlb);
	for (i = 0; i < NPAGES; i++) {
		t->pages[i] = alloc_page(GFP_KERNEL);
		KUNIT_ASSERT_NOT_NULL(test, t->pages[i]);
		/* Every byte of page i holds i + 1. */
		memset(page_address(t->pages[i]), i + 1, PAGE_SIZE);
	}
	return 0;
}

/* Maps @size bytes of @pages at @va; every step the VM would do. */
static void map_pages(struct kunit *test, u64 va, u64 size, struct page **pages,
		      u64 flags)
{
	struct vaccel_mmu_test *t = test->priv;
	struct vaccel_pt_reserve r;

	vaccel_pt_reserve_init(&r);
	KUNIT_ASSERT_EQ(test, vaccel_pt_reserve_fill(&t->pt, &r,
						     vaccel_pt_tables_for(va, size)), 0);
	mutex_lock(&t->lock);
	vaccel_pt_map(&t->pt, va, size, &(struct vaccel_pt_frames){ .pages = pages },
		      flags, &r);
	mutex_unlock(&t->lock);
	vaccel_pt_reserve_release(&t->pt, &r);
	/* What the reserve did not need went back. */
	KUNIT_EXPECT_EQ(test, atomic_long_read(&t->pt.reserved), 0);
}

/* Maps @n of the test's pages starting at @va. */
static void map(struct kunit *test, u64 va, unsigned int n, u64 flags)
{
	map_pages(test, va, n * PAGE_SIZE, ((struct vaccel_mmu_test *)test->priv)->pages,
		  flags);
}

static void unmap(struct kunit *test, u64 va, u64 size)
{
	struct vaccel_mmu_test *t = test->priv;

	mutex_lock(&t->lock);
	vaccel_pt_unmap(&t->pt, va, size);
	vaccel_pt_prune(&t->pt, va, size);
	mutex_unlock(&t->lock);
	vaccel_pt_invalidate(&t->pt, va, size);
	mutex_lock(&t->lock);
	vaccel_pt_release_zombies(&t->pt);
	mutex_unlock(&t->lock);
}

static u64 pte_phys(u64 pte)
{
	return pte & DRM_VACCEL_PTE_ADDR_MASK;
}

/* A mapped range walks to its pages with its flags; its neighbours do not. */
static void vaccel_test_mmu_map_walk(struct kunit *test)
{
	struct vaccel_mmu_test *t = test->priv;
	u64 va = SZ_1M;
	int i;

	map(test, va, NPAGES, DRM_VACCEL_PTE_WRITE);
	for (i = 0; i < NPAGES; i++) {
		u64 pte = vaccel_pt_walk(&t->pt, va + i * PAGE_SIZE);

		KUNIT_EXPECT_TRUE(test, pte & DRM_VACCEL_PTE_VALID);
		KUNIT_EXPECT_TRUE(test, pte & DRM_VACCEL_PTE_WRITE);
		KUNIT_EXPECT_FALSE(test, pte & DRM_VACCEL_PTE_EXEC);
		KUNIT_EXPECT_EQ(test, pte_phys(pte), (u64)page_to_phys(t->pages[i]));
	}
	KUNIT_EXPECT_EQ(test, vaccel_pt_walk(&t->pt, va - PAGE_SIZE), 0);
	KUNIT_EXPECT_EQ(test, vaccel_pt_walk(&t->pt, va + NPAGES * PAGE_SIZE), 0);
	/* Root, one table per level below it. */
	KUNIT_EXPECT_EQ(test, atomic_long_read(&t->pt.pages), 4);
}

/* Unmapping gives back every table but the root. */
static void vaccel_test_mmu_unmap_frees_tables(struct kunit *test)
{
	struct vaccel_mmu_test *t = test->priv;

	map(test, SZ_1M, NPAGES, 0);
	unmap(test, SZ_1M, NPAGES * PAGE_SIZE);
	KUNIT_EXPECT_EQ(test, vaccel_pt_walk(&t->pt, SZ_1M), 0);
	KUNIT_EXPECT_EQ(test, atomic_long_read(&t->pt.pages), 1);
	KUNIT_EXPECT_TRUE(test, list_empty(&t->pt.zombies));
}

/* Unmapping the middle of a range leaves both ends mapped. */
static void vaccel_test_mmu_split(struct kunit *test)
{
	struct vaccel_mmu_test *t = test->priv;
	u64 va = SZ_2M;
	int i;

	map(test, va, NPAGES, DRM_VACCEL_PTE_WRITE);
	unmap(test, va + 4 * PAGE_SIZE, 4 * PAGE_SIZE);
	for (i = 0; i < NPAGES; i++) {
		u64 pte = vaccel_pt_walk(&t->pt, va + i * PAGE_SIZE);

		if (i >= 4 && i < 8)
			KUNIT_EXPECT_EQ_MSG(test, pte, 0, "page %d", i);
		else
			KUNIT_EXPECT_EQ_MSG(test, pte_phys(pte),
					    (u64)page_to_phys(t->pages[i]), "page %d", i);
	}
	/* The table is still in use: nothing was freed. */
	KUNIT_EXPECT_EQ(test, atomic_long_read(&t->pt.pages), 4);
	/* The hole can be mapped again. */
	map(test, va + 4 * PAGE_SIZE, 4, 0);
	KUNIT_EXPECT_EQ(test, pte_phys(vaccel_pt_walk(&t->pt, va + 5 * PAGE_SIZE)),
			(u64)page_to_phys(t->pages[1]));
}

struct vaccel_mmu_edge {
	const char *name;
	u64 va;
	unsigned int pages;
	unsigned int tables;	/* below the root, after mapping */
};

static const struct vaccel_mmu_edge vaccel_mmu_edges[] = {
	{ "first_page", VA_START, 1, 3 },
	{ "last_page", VA_END - PAGE_SIZE, 1, 3 },
	{ "last_pages", VA_END - NPAGES * PAGE_SIZE, NPAGES, 3 },
	{ "cross_2M", SZ_2M - 8 * PAGE_SIZE, NPAGES, 4 },
	{ "cross_1G", SZ_1G - 8 * PAGE_SIZE, NPAGES, 5 },
	{ "cross_512G", (1ull << 39) - 8 * PAGE_SIZE, NPAGES, 6 },
};

static void vaccel_mmu_edge_desc(const struct vaccel_mmu_edge *e, char *desc)
{
	strscpy(desc, e->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(vaccel_mmu_edge, vaccel_mmu_edges, vaccel_mmu_edge_desc);

/*
 * Ranges at the ends of the VA space and across 2 MiB, 1 GiB and 512 GiB
 * boundaries map to the right pages with the expected number of tables,
 * and unmap back to the root alone.
 */
static void vaccel_test_mmu_edges(struct kunit *test)
{
	const struct vaccel_mmu_edge *e = test->param_value;
	struct vaccel_mmu_test *t = test->priv;
	unsigned int i;

	map(test, e->va, e->pages, 0);
	KUNIT_EXPECT_EQ(test, atomic_long_read(&t->pt.pages), 1 + e->tables);
	for (i = 0; i < e->pages; i++)
		KUNIT_EXPECT_EQ_MSG(test,
				    pte_phys(vaccel_pt_walk(&t->pt, e->va + i * PAGE_SIZE)),
				    (u64)page_to_phys(t->pages[i]), "page %u", i);
	unmap(test, e->va, (u64)e->pages * PAGE_SIZE);
	KUNIT_EXPECT_EQ(test, atomic_long_read(&t->pt.pages), 1);
}

/* An address past 48 bits never walks. */
static void vaccel_test_mmu_walk_out_of_range(struct kunit *test)
{
	struct vaccel_mmu_test *t = test->priv;

	map(test, VA_START, 1, 0);
	/* Bits above 47 must not alias into the table. */
	KUNIT_EXPECT_EQ(test, vaccel_pt_walk(&t->pt, VA_START | (1ull << 48)), 0);
	KUNIT_EXPECT_EQ(test, vaccel_pt_walk(&t->pt, ~0ull), 0);
}

/* Mapping 1 GiB of 4 KiB pages takes 0.2% or less in tables. */
static void vaccel_test_mmu_table_overhead(struct kunit *test)
{
	struct vaccel_mmu_test *t = test->priv;
	unsigned long n = SZ_1G / PAGE_SIZE, i;
	struct page **pages;

	pages = kvmalloc_array(n, sizeof(*pages), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, pages);
	for (i = 0; i < n; i++)
		pages[i] = t->pages[i % NPAGES];

	map_pages(test, SZ_1G, SZ_1G, pages, 0);
	/* Root, a level-2 table, a level-1 table, 512 level-0 tables. */
	KUNIT_EXPECT_EQ(test, atomic_long_read(&t->pt.pages), 3 + 512);
	KUNIT_EXPECT_LE(test, (atomic_long_read(&t->pt.pages) - 1) * PAGE_SIZE * 1000,
			SZ_1G * 2ull);
	unmap(test, SZ_1G, SZ_1G);
	KUNIT_EXPECT_EQ(test, atomic_long_read(&t->pt.pages), 1);
	kvfree(pages);
}

/* Reads and writes go to the mapped pages, across a page boundary too. */
static void vaccel_test_tlb_access(struct kunit *test)
{
	struct vaccel_mmu_test *t = test->priv;
	struct vaccel_fault fault;
	u8 buf[16];
	u64 va = SZ_1M;

	map(test, va, 2, DRM_VACCEL_PTE_WRITE);
	vaccel_tlb_attach(&t->tlb, &t->pt);

	KUNIT_ASSERT_EQ(test, vaccel_tlb_read(&t->tlb, va + PAGE_SIZE - 8, buf,
					      16, VACCEL_ACCESS_READ, &fault), 0);
	KUNIT_EXPECT_EQ(test, buf[0], 1);
	KUNIT_EXPECT_EQ(test, buf[7], 1);
	KUNIT_EXPECT_EQ(test, buf[8], 2);
	KUNIT_EXPECT_EQ(test, buf[15], 2);
	KUNIT_EXPECT_EQ(test, t->tlb.misses, 2);

	memset(buf, 0xee, sizeof(buf));
	KUNIT_ASSERT_EQ(test, vaccel_tlb_write(&t->tlb, va + PAGE_SIZE - 8, buf,
					       16, &fault), 0);
	KUNIT_EXPECT_EQ(test, ((u8 *)page_address(t->pages[0]))[PAGE_SIZE - 1], 0xee);
	KUNIT_EXPECT_EQ(test, ((u8 *)page_address(t->pages[1]))[0], 0xee);
	KUNIT_EXPECT_EQ(test, ((u8 *)page_address(t->pages[1]))[8], 2);
	/* The second access hit both entries. */
	KUNIT_EXPECT_EQ(test, t->tlb.misses, 2);
	KUNIT_EXPECT_EQ(test, t->tlb.hits, 2);
}

struct vaccel_fault_case {
	const char *name;
	u64 va;
	size_t len;
	enum vaccel_access access;
	u64 fault_va;
	enum vaccel_fault_reason reason;
};

#define FVA	SZ_4M	/* two pages: read-only, then read-write no-exec */

static const struct vaccel_fault_case vaccel_fault_cases[] = {
	{ "below_va_start", PAGE_SIZE, 4, VACCEL_ACCESS_READ, PAGE_SIZE,
	  VACCEL_FAULT_OUT_OF_RANGE },
	{ "null", 0, 4, VACCEL_ACCESS_READ, 0, VACCEL_FAULT_OUT_OF_RANGE },
	{ "past_va_end", VA_END, 4, VACCEL_ACCESS_READ, VA_END,
	  VACCEL_FAULT_OUT_OF_RANGE },
	{ "wraps", ~0ull - 1, 4, VACCEL_ACCESS_READ, ~0ull - 1,
	  VACCEL_FAULT_OUT_OF_RANGE },
	{ "unmapped", FVA + 2 * PAGE_SIZE, 4, VACCEL_ACCESS_READ,
	  FVA + 2 * PAGE_SIZE, VACCEL_FAULT_UNMAPPED },
	{ "second_page_unmapped", FVA + 2 * PAGE_SIZE - 2, 4, VACCEL_ACCESS_READ,
	  FVA + 2 * PAGE_SIZE, VACCEL_FAULT_UNMAPPED },
	{ "write_read_only", FVA, 4, VACCEL_ACCESS_WRITE, FVA,
	  VACCEL_FAULT_PERMISSION },
	{ "crossing_from_unmapped", FVA - 2, 4, VACCEL_ACCESS_WRITE, FVA - 2,
	  VACCEL_FAULT_UNMAPPED },
	{ "exec_no_exec", FVA + PAGE_SIZE, 4, VACCEL_ACCESS_EXEC, FVA + PAGE_SIZE,
	  VACCEL_FAULT_PERMISSION },
	{ "read_ok", FVA, 4, VACCEL_ACCESS_READ, FVA, VACCEL_FAULT_NONE },
	{ "exec_ok", FVA, 4, VACCEL_ACCESS_EXEC, FVA, VACCEL_FAULT_NONE },
	{ "write_ok", FVA + PAGE_SIZE, 4, VACCEL_ACCESS_WRITE, FVA + PAGE_SIZE,
	  VACCEL_FAULT_NONE },
};

static void vaccel_fault_case_desc(const struct vaccel_fault_case *c, char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(vaccel_fault, vaccel_fault_cases, vaccel_fault_case_desc);

/*
 * Each access either succeeds or reports the first failing address, the
 * access and the reason, and then leaves the buffer and memory untouched.
 */
static void vaccel_test_tlb_faults(struct kunit *test)
{
	const struct vaccel_fault_case *c = test->param_value;
	struct vaccel_mmu_test *t = test->priv;
	struct vaccel_fault fault = {};
	u8 buf[4] = { 0x5a, 0x5a, 0x5a, 0x5a };
	int ret;

	map_pages(test, FVA, PAGE_SIZE, &t->pages[0], DRM_VACCEL_PTE_EXEC);
	map_pages(test, FVA + PAGE_SIZE, PAGE_SIZE, &t->pages[1],
		  DRM_VACCEL_PTE_WRITE);
	vaccel_tlb_attach(&t->tlb, &t->pt);

	if (c->access == VACCEL_ACCESS_WRITE)
		ret = vaccel_tlb_write(&t->tlb, c->va, buf, c->len, &fault);
	else
		ret = vaccel_tlb_read(&t->tlb, c->va, buf, c->len, c->access, &fault);

	if (c->reason == VACCEL_FAULT_NONE) {
		KUNIT_EXPECT_EQ(test, ret, 0);
		return;
	}
	KUNIT_EXPECT_EQ(test, ret, -EFAULT);
	KUNIT_EXPECT_EQ(test, fault.va, c->fault_va);
	KUNIT_EXPECT_EQ(test, fault.access, c->access);
	KUNIT_EXPECT_EQ(test, fault.reason, c->reason);
	KUNIT_EXPECT_EQ(test, buf[0], 0x5a);
	KUNIT_EXPECT_EQ(test, buf[3], 0x5a);
	KUNIT_EXPECT_EQ(test, ((u8 *)page_address(t->pages[0]))[0], 1);
	KUNIT_EXPECT_EQ(test, ((u8 *)page_address(t->pages[1]))[0], 2);
}

/*
 * A TLB keeps translating an unmapped page until it is invalidated, as
 * hardware does: invalidation is what makes the page unreachable.
 */
static void vaccel_test_tlb_invalidate(struct kunit *test)
{
	struct vaccel_mmu_test *t = test->priv;
	struct vaccel_fault fault;
	u8 b;

	map(test, SZ_1M, 2, 0);
	vaccel_tlb_attach(&t->tlb, &t->pt);
	KUNIT_ASSERT_EQ(test, vaccel_tlb_read(&t->tlb, SZ_1M, &b, 1,
					      VACCEL_ACCESS_READ, &fault), 0);

	mutex_lock(&t->lock);
	vaccel_pt_unmap(&t->pt, SZ_1M, 2 * PAGE_SIZE);
	mutex_unlock(&t->lock);
	KUNIT_EXPECT_EQ(test, vaccel_tlb_read(&t->tlb, SZ_1M, &b, 1,
					      VACCEL_ACCESS_READ, &fault), 0);

	/* Invalidating another range leaves the entry. */
	vaccel_pt_invalidate(&t->pt, SZ_2M, PAGE_SIZE);
	KUNIT_EXPECT_EQ(test, vaccel_tlb_read(&t->tlb, SZ_1M, &b, 1,
					      VACCEL_ACCESS_READ, &fault), 0);

	vaccel_pt_invalidate(&t->pt, SZ_1M, 2 * PAGE_SIZE);
	KUNIT_EXPECT_EQ(test, vaccel_tlb_read(&t->tlb, SZ_1M, &b, 1,
					      VACCEL_ACCESS_READ, &fault), -EFAULT);
	KUNIT_EXPECT_EQ(test, fault.reason, VACCEL_FAULT_UNMAPPED);
	KUNIT_EXPECT_EQ(test, t->tlb.invalidations, 2);

	mutex_lock(&t->lock);
	vaccel_pt_prune(&t->pt, SZ_1M, 2 * PAGE_SIZE);
	mutex_unlock(&t->lock);
	vaccel_pt_invalidate(&t->pt, SZ_1M, 2 * PAGE_SIZE);
	mutex_lock(&t->lock);
	vaccel_pt_release_zombies(&t->pt);
	mutex_unlock(&t->lock);
	KUNIT_EXPECT_EQ(test, atomic_long_read(&t->pt.pages), 1);
}

/* Switching address spaces empties the TLB; detaching stops translation. */
static void vaccel_test_tlb_switch(struct kunit *test)
{
	struct vaccel_mmu_test *t = test->priv;
	struct vaccel_pt other;
	struct vaccel_fault fault;
	u8 b;

	KUNIT_ASSERT_EQ(test, vaccel_pt_init(&other, VA_START, VA_END, &t->lock), 0);
	map(test, SZ_1M, 1, 0);
	vaccel_tlb_attach(&t->tlb, &t->pt);
	KUNIT_EXPECT_EQ(test, vaccel_tlb_read(&t->tlb, SZ_1M, &b, 1,
					      VACCEL_ACCESS_READ, &fault), 0);

	vaccel_tlb_attach(&t->tlb, &other);
	KUNIT_EXPECT_TRUE(test, list_empty(&t->pt.tlbs));
	KUNIT_EXPECT_EQ(test, vaccel_tlb_read(&t->tlb, SZ_1M, &b, 1,
					      VACCEL_ACCESS_READ, &fault), -EFAULT);
	KUNIT_EXPECT_EQ(test, fault.reason, VACCEL_FAULT_UNMAPPED);

	vaccel_tlb_detach(&t->tlb);
	KUNIT_EXPECT_EQ(test, vaccel_tlb_read(&t->tlb, SZ_1M, &b, 1,
					      VACCEL_ACCESS_READ, &fault), -EFAULT);
	KUNIT_EXPECT_EQ(test, fault.reason, VACCEL_FAULT_OUT_OF_RANGE);
	vaccel_pt_fini(&other);
}

struct vaccel_mmu_reader {
	struct vaccel_mmu_test *t;
	u64 va;
	unsigned long reads;
	unsigned long bad;
	bool stop;
};

static int vaccel_mmu_reader_fn(void *data)
{
	struct vaccel_mmu_reader *r = data;
	struct vaccel_fault fault;
	u8 buf[64];

	while (!READ_ONCE(r->stop)) {
		int i = r->reads % NPAGES;

		if (!vaccel_tlb_read(&r->t->tlb, r->va + i * PAGE_SIZE, buf,
				     sizeof(buf), VACCEL_ACCESS_READ, &fault)) {
			/* A translation always leads to its own page. */
			if (buf[0] != i + 1 || buf[63] != i + 1)
				r->bad++;
		} else if (fault.reason != VACCEL_FAULT_UNMAPPED) {
			r->bad++;
		}
		r->reads++;
		cond_resched();
	}
	return 0;
}

/*
 * An engine thread reads through its TLB while the owner maps, unmaps,
 * prunes, invalidates and frees tables: every read sees its own page or an
 * unmapped fault, never another page or freed memory.
 */
static void vaccel_test_tlb_concurrent_unmap(struct kunit *test)
{
	struct vaccel_mmu_test *t = test->priv;
	struct vaccel_mmu_reader r = { .t = t, .va = SZ_1G };
	struct task_struct *task;
	int round;

	vaccel_tlb_attach(&t->tlb, &t->pt);
	task = kthread_run(vaccel_mmu_reader_fn, &r, "vaccel-mmu-test");
	KUNIT_ASSERT_FALSE(test, IS_ERR(task));
	get_task_struct(task);

	/* Sleeping lets the reader run, on one CPU too. */
	for (round = 0; round < 200; round++) {
		map(test, r.va, NPAGES, 0);
		usleep_range(20, 50);
		unmap(test, r.va, NPAGES * PAGE_SIZE);
		usleep_range(20, 50);
	}
	WRITE_ONCE(r.stop, true);
	kthread_stop(task);
	put_task_struct(task);

	/* The reader ran through many rounds. */
	KUNIT_EXPECT_GT(test, r.reads, 200);
	KUNIT_EXPECT_EQ(test, r.bad, 0);
	KUNIT_EXPECT_EQ(test, atomic_long_read(&t->pt.pages), 1);
}

/*
 * A move rewrites the entries that hold its old frames, keeps their
 * permissions, sets the device bit for device addresses and clears it
 * back; entries of other frames and holes stay as they are.
 */
static void vaccel_mmu_test_remap_moves_matching_entries(struct kunit *test)
{
	struct vaccel_mmu_test *t = test->priv;
	const u64 va = SZ_2M - 2 * PAGE_SIZE;
	u64 dev[4], back;
	struct vaccel_pt_frames sys = { .pages = t->pages }, vram = { .addrs = dev };
	unsigned int i;

	for (i = 0; i < 4; i++)
		dev[i] = DRM_VACCEL_DEVICE_MEM_BASE(1) + (7 - i) * PAGE_SIZE;
	/* Pages 0, 1 and 3 of the range mapped (across a table boundary); 2 is a hole. */
	map(test, va, 2, DRM_VACCEL_PTE_WRITE);
	map_pages(test, va + 3 * PAGE_SIZE, PAGE_SIZE, &t->pages[3], DRM_VACCEL_PTE_EXEC);

	mutex_lock(&t->lock);
	KUNIT_EXPECT_EQ(test, vaccel_pt_remap(&t->pt, va, 4 * PAGE_SIZE, &sys, &vram), 3);
	mutex_unlock(&t->lock);
	for (i = 0; i < 4; i++) {
		u64 pte = vaccel_pt_walk(&t->pt, va + i * PAGE_SIZE);

		if (i == 2) {
			KUNIT_EXPECT_EQ(test, pte, 0);
			continue;
		}
		KUNIT_EXPECT_EQ(test, pte_phys(pte), dev[i]);
		KUNIT_EXPECT_TRUE(test, pte & DRM_VACCEL_PTE_DEVICE);
		KUNIT_EXPECT_EQ(test, !!(pte & DRM_VACCEL_PTE_WRITE), i < 2);
		KUNIT_EXPECT_EQ(test, !!(pte & DRM_VACCEL_PTE_EXEC), i == 3);
		/* A device address is shown as it is: it tells nothing of the host. */
		KUNIT_EXPECT_EQ(test, vaccel_pt_entry_identity(pte), pte);
	}

	/* Entries that no longer hold the old frames are left alone. */
	mutex_lock(&t->lock);
	KUNIT_EXPECT_EQ(test, vaccel_pt_remap(&t->pt, va, 4 * PAGE_SIZE, &sys, &vram), 0);
	/* And back to system memory: the device bit goes. */
	KUNIT_EXPECT_EQ(test, vaccel_pt_remap(&t->pt, va, 4 * PAGE_SIZE, &vram, &sys), 3);
	mutex_unlock(&t->lock);
	back = vaccel_pt_walk(&t->pt, va + 3 * PAGE_SIZE);
	KUNIT_EXPECT_EQ(test, pte_phys(back), page_to_phys(t->pages[3]));
	KUNIT_EXPECT_FALSE(test, back & DRM_VACCEL_PTE_DEVICE);
	KUNIT_EXPECT_TRUE(test, back & DRM_VACCEL_PTE_EXEC);
	unmap(test, va, 4 * PAGE_SIZE);
}

static struct kunit_case vaccel_mmu_test_cases[] = {
	KUNIT_CASE(vaccel_mmu_test_remap_moves_matching_entries),
	KUNIT_CASE(vaccel_test_mmu_map_walk),
	KUNIT_CASE(vaccel_test_mmu_unmap_frees_tables),
	KUNIT_CASE(vaccel_test_mmu_split),
	KUNIT_CASE_PARAM(vaccel_test_mmu_edges, vaccel_mmu_edge_gen_params),
	KUNIT_CASE(vaccel_test_mmu_walk_out_of_range),
	KUNIT_CASE_SLOW(vaccel_test_mmu_table_overhead),
	KUNIT_CASE(vaccel_test_tlb_access),
	KUNIT_CASE_PARAM(vaccel_test_tlb_faults, vaccel_fault_gen_params),
	KUNIT_CASE(vaccel_test_tlb_invalidate),
	KUNIT_CASE(vaccel_test_tlb_switch),
	KUNIT_CASE(vaccel_test_tlb_concurrent_unmap),
	{}
};

static struct kunit_suite vaccel_mmu_test_suite = {
	.name = "vaccel_mmu",
	.init = vaccel_mmu_test_init,
	.exit = vaccel_mmu_test_exit,
	.test_cases = vaccel_mmu_test_cases,
};

kunit_test_suite(vaccel_mmu_test_suite);
