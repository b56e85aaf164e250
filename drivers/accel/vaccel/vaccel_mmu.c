// SPDX-License-Identifier: GPL-2.0-only
/*
 * Copyright 2026 The vaccel authors
 */

/**
 * DOC: MMU page tables
 *
 * Every GPU address space has a page table in the format of the uapi (see
 * "Page-table format"): four levels of 512 entries, 4 KiB pages, a 48-bit
 * VA.  The tables are real pages of memory, and an entry holds the page
 * frame of what it points to, so that an engine's MMU can walk them as
 * hardware would, from the root pointer alone.
 *
 * Each table page counts its valid entries in its &struct page (the
 * ``private`` field), so a table that becomes empty is taken out of the tree
 * and its parent's entry cleared: page-table memory follows what is mapped.
 * Mapping 1 GiB with 4 KiB pages takes 512 level-0 tables and one level-1
 * table, 0.196% of the bytes mapped.
 *
 * Updates are split so that a batch of them can be all-or-nothing, and so
 * that the step that writes the tables allocates nothing: it may run on
 * the PAGING engine, which signals fences and must not wait for memory.
 *
 * 1. vaccel_pt_reserve_fill() sets aside, for a range to be mapped, as many
 *    zeroed table pages as it could need (vaccel_pt_tables_for(), one per
 *    2 MiB, 1 GiB and 512 GiB region the range touches), charged to the
 *    caller's memory cgroup.  It is the only step that can fail.
 * 2. vaccel_pt_map() and vaccel_pt_unmap() write level-0 entries and cannot
 *    fail; a missing table comes from the reserve.  Tables stay even when
 *    they become empty, so that a later map of the same batch finds the
 *    tables it linked.
 * 3. vaccel_pt_prune() takes the tables of a range that are now empty out
 *    of the tree, onto a zombie list rather than freeing them.
 * 4. vaccel_pt_invalidate() invalidates the range in every TLB attached to
 *    the address space.  Each TLB does it under its lock, so walks and
 *    accesses in flight finish first; after it, no engine can reach an
 *    unmapped page or a zombie table.
 * 5. vaccel_pt_release_zombies() frees the zombie tables, and
 *    vaccel_pt_reserve_release() what the reserve did not need; the owner
 *    then releases the pages that were unmapped.
 *
 * vaccel_pt_footprint() counts the tables of the tree and those set aside,
 * against which the owner keeps its limit.

 * Entries are written with WRITE_ONCE() and read with READ_ONCE(), and a
 * new table is linked into its parent with release semantics after it was
 * cleared, so a lockless walker sees either no table or a cleared one.
 */

#include <linux/gfp.h>
#include <linux/io.h>
#include <linux/mm.h>
#include <linux/once.h>
#include <linux/random.h>
#include <linux/siphash.h>
#include <linux/slab.h>

#include <drm/vaccel_accel.h>

#include "vaccel_inject.h"
#include "vaccel_mmu.h"
#include "vaccel_tlb.h"

#define VACCEL_PT_PAGE_SHIFT	12

/* Table pages: zeroed, charged, and -ENOMEM rather than an OOM kill. */
#define VACCEL_PT_GFP \
	(GFP_KERNEL_ACCOUNT | __GFP_ZERO | __GFP_RETRY_MAYFAIL | __GFP_NOWARN)

static unsigned int vaccel_pt_index(u64 va, unsigned int level)
{
	return (va >> (VACCEL_PT_PAGE_SHIFT + level * VACCEL_PT_SHIFT)) &
	       (VACCEL_PT_ENTRIES - 1);
}

/* Bytes of VA covered by one entry of a table of @level. */
static u64 vaccel_pt_entry_span(unsigned int level)
{
	return 1ull << (VACCEL_PT_PAGE_SHIFT + level * VACCEL_PT_SHIFT);
}

static u64 *vaccel_pt_table_of(u64 entry)
{
	return page_address(pfn_to_page((entry & DRM_VACCEL_PTE_ADDR_MASK) >>
					VACCEL_PT_PAGE_SHIFT));
}

static struct page *vaccel_pt_page(u64 *table)
{
	return virt_to_page(table);
}

static void vaccel_pt_used_add(u64 *table, long delta)
{
	struct page *p = vaccel_pt_page(table);

	set_page_private(p, page_private(p) + delta);
}

static unsigned long vaccel_pt_used(u64 *table)
{
	return page_private(vaccel_pt_page(table));
}

static void vaccel_pt_free_table(struct vaccel_pt *pt, u64 *table)
{
	struct page *p = vaccel_pt_page(table);

	set_page_private(p, 0);
	__free_page(p);
	atomic_long_dec(&pt->pages);
}

/**
 * vaccel_page_alloc() - the pages the driver allocates itself
 * @gfp: the allocation's flags
 * @order: its order
 *
 * Every page of the driver's own, for page tables, device memory and the
 * state of dispatches, comes from here: the fault-injection point
 * ``fail_page`` (see "Fault injection points"), which tests sweep call
 * after call, in every thread, without failing anyone else's pages.
 *
 * Context: As @gfp allows.
 * Return: the pages, or NULL.
 */
struct page *vaccel_page_alloc(gfp_t gfp, unsigned int order)
{
	if (vaccel_should_fail(VACCEL_FAIL_PAGE))
		return NULL;
	return alloc_pages(gfp, order);
}

/**
 * vaccel_pt_tables_for() - the most tables mapping a range may need
 * @va: start of the range
 * @size: size of the range, not zero
 *
 * Context: Any context.
 * Return: one table per 2 MiB, 1 GiB and 512 GiB region the range touches.
 */
unsigned long vaccel_pt_tables_for(u64 va, u64 size)
{
	u64 last = va + size - 1;
	unsigned long n = 0;
	unsigned int level;

	for (level = 1; level < VACCEL_PT_LEVELS; level++) {
		unsigned int shift = VACCEL_PT_PAGE_SHIFT + level * VACCEL_PT_SHIFT;

		n += (last >> shift) - (va >> shift) + 1;
	}
	return n;
}

/**
 * vaccel_pt_reserve_init() - an empty reserve
 * @r: the reserve
 *
 * Context: Any context.
 */
void vaccel_pt_reserve_init(struct vaccel_pt_reserve *r)
{
	INIT_LIST_HEAD(&r->pages);
	r->count = 0;
}

/**
 * vaccel_pt_reserve_fill() - set table pages aside for a page table
 * @pt: the page table they are for
 * @r: the reserve
 * @count: how many more
 *
 * The pages are zeroed and charged to the caller's memory cgroup.  Their
 * number follows what the caller maps, so running out ends in -ENOMEM
 * for the caller, never in the OOM killer (as for the pages of a BO).
 *
 * Context: Process context; allocates.
 * Return: 0 or -ENOMEM, with what was set aside kept in @r.
 */
int vaccel_pt_reserve_fill(struct vaccel_pt *pt, struct vaccel_pt_reserve *r,
			   unsigned long count)
{
	while (count--) {
		struct page *p = vaccel_page_alloc(VACCEL_PT_GFP, 0);

		if (!p)
			return -ENOMEM;
		set_page_private(p, 0);
		list_add(&p->lru, &r->pages);
		r->count++;
		atomic_long_inc(&pt->reserved);
		cond_resched();
	}
	return 0;
}

/**
 * vaccel_pt_reserve_release() - free what a reserve was not needed for
 * @pt: the page table it was for
 * @r: the reserve, empty afterwards
 *
 * Context: Process context; yields between pages.
 */
void vaccel_pt_reserve_release(struct vaccel_pt *pt, struct vaccel_pt_reserve *r)
{
	struct page *p, *tmp;

	list_for_each_entry_safe(p, tmp, &r->pages, lru) {
		list_del(&p->lru);
		__free_page(p);
		cond_resched();
	}
	atomic_long_sub(r->count, &pt->reserved);
	r->count = 0;
}

/**
 * vaccel_pt_footprint() - the table pages a page table holds
 * @pt: the page table
 *
 * Context: Any context.
 * Return: the tables in the tree, those waiting to be freed, and those set
 * aside for updates to come.
 */
unsigned long vaccel_pt_footprint(const struct vaccel_pt *pt)
{
	return atomic_long_read(&pt->pages) + atomic_long_read(&pt->reserved);
}

/* A table from the reserve; the reserve was sized for the worst case. */
static u64 *vaccel_pt_take_table(struct vaccel_pt *pt, struct vaccel_pt_reserve *r)
{
	struct page *p = list_first_entry_or_null(&r->pages, struct page, lru);

	if (WARN_ON_ONCE(!p))
		return NULL;
	list_del(&p->lru);
	r->count--;
	atomic_long_dec(&pt->reserved);
	atomic_long_inc(&pt->pages);
	return page_address(p);
}

/**
 * vaccel_pt_init() - create an empty page table
 * @pt: the page table
 * @va_start: lowest VA that may be mapped
 * @va_end: end (exclusive) of the VAs that may be mapped, at most 2^48
 * @lock: the owner's lock, held by whoever writes the tables
 *
 * Context: Process context.
 * Return: 0 or -ENOMEM.
 */
int vaccel_pt_init(struct vaccel_pt *pt, u64 va_start, u64 va_end,
		   struct mutex *lock)
{
	struct page *root = vaccel_page_alloc(GFP_KERNEL_ACCOUNT | __GFP_ZERO, 0);

	pt->lock = lock;
	atomic_long_set(&pt->pages, 0);
	atomic_long_set(&pt->reserved, 0);
	pt->va_start = va_start;
	pt->va_end = va_end;
	INIT_LIST_HEAD(&pt->zombies);
	spin_lock_init(&pt->tlb_lock);
	INIT_LIST_HEAD(&pt->tlbs);
	init_waitqueue_head(&pt->tlb_wq);
	if (!root)
		return -ENOMEM;
	set_page_private(root, 0);
	atomic_long_inc(&pt->pages);
	pt->root = page_address(root);
	return 0;
}

static void vaccel_pt_free_tree(struct vaccel_pt *pt, u64 *table,
				unsigned int level)
{
	unsigned int i;

	if (level > 0) {
		for (i = 0; i < VACCEL_PT_ENTRIES; i++)
			if (table[i] & DRM_VACCEL_PTE_VALID)
				vaccel_pt_free_tree(pt, vaccel_pt_table_of(table[i]),
						    level - 1);
	}
	vaccel_pt_free_table(pt, table);
}

static bool vaccel_pt_unattached(struct vaccel_pt *pt)
{
	bool empty;

	spin_lock(&pt->tlb_lock);
	empty = list_empty(&pt->tlbs);
	spin_unlock(&pt->tlb_lock);
	return empty;
}

/**
 * vaccel_pt_fini() - free a page table and every table in it
 * @pt: the page table, which no buffer will execute in any more
 *
 * An engine that ran the address space's last buffer detaches its TLB as
 * soon as it has nothing more of it to run; this waits for that, which is
 * a matter of microseconds.
 *
 * Context: Process context; sleeps.
 */
void vaccel_pt_fini(struct vaccel_pt *pt)
{
	wait_event(pt->tlb_wq, vaccel_pt_unattached(pt));
	mutex_lock(pt->lock);
	vaccel_pt_release_zombies(pt);
	if (pt->root)
		vaccel_pt_free_tree(pt, pt->root, VACCEL_PT_LEVELS - 1);
	pt->root = NULL;
	mutex_unlock(pt->lock);
	WARN_ON(atomic_long_read(&pt->pages));
}

/* The table of level @to on the path to @va, or NULL where a table is missing. */
static u64 *vaccel_pt_descend(u64 *table, unsigned int from, unsigned int to,
			      u64 va)
{
	while (from > to) {
		u64 e = READ_ONCE(table[vaccel_pt_index(va, from)]);

		if (!(e & DRM_VACCEL_PTE_VALID))
			return NULL;
		table = vaccel_pt_table_of(e);
		from--;
	}
	return table;
}

/* The level-0 table of @va, linking tables from @r where they are missing. */
static u64 *vaccel_pt_leaf_table(struct vaccel_pt *pt, u64 va,
				 struct vaccel_pt_reserve *r)
{
	u64 *table = pt->root;
	unsigned int level;

	for (level = VACCEL_PT_LEVELS - 1; level > 0; level--) {
		u64 *slot = &table[vaccel_pt_index(va, level)];

		if (!(*slot & DRM_VACCEL_PTE_VALID)) {
			u64 *child = vaccel_pt_take_table(pt, r);

			if (!child)
				return NULL;
			/* The cleared table is visible before the link. */
			smp_store_release(slot, DRM_VACCEL_PTE_VALID |
					  page_to_phys(vaccel_pt_page(child)));
			vaccel_pt_used_add(table, 1);
		}
		table = vaccel_pt_table_of(*slot);
	}
	return table;
}

/* The address field, and the device bit, of an entry for frame @i of @f. */
static u64 vaccel_pt_frame(const struct vaccel_pt_frames *f, unsigned long i)
{
	if (f->pages)
		return page_to_phys(f->pages[i]);
	return f->addrs[i] | DRM_VACCEL_PTE_DEVICE;
}

/**
 * vaccel_pt_map() - point an unmapped range at pages
 * @pt: the page table, its owner's lock held
 * @va: start of the range, page aligned, unmapped
 * @size: size of the range, page aligned
 * @f: the frames, one per 4 KiB of the range
 * @flags: %DRM_VACCEL_PTE_WRITE and %DRM_VACCEL_PTE_EXEC as wanted
 * @r: where missing tables come from, filled for the range by
 *	vaccel_pt_reserve_fill()
 *
 * Allocates nothing and cannot fail.
 *
 * Context: Any context.
 */
void vaccel_pt_map(struct vaccel_pt *pt, u64 va, u64 size,
		   const struct vaccel_pt_frames *f, u64 flags,
		   struct vaccel_pt_reserve *r)
{
	u64 end = va + size;
	u64 *table = NULL;
	unsigned long i = 0;

	lockdep_assert_held(pt->lock);
	for (; va < end; va += PAGE_SIZE, i++) {
		unsigned int idx = vaccel_pt_index(va, 0);
		u64 *slot;

		if (!table || idx == 0)
			table = vaccel_pt_leaf_table(pt, va, r);
		if (!table)
			return;
		slot = &table[idx];
		/* The owner's check makes the range free. */
		if (WARN_ON_ONCE(*slot & DRM_VACCEL_PTE_VALID))
			continue;
		WRITE_ONCE(*slot, DRM_VACCEL_PTE_VALID | flags | vaccel_pt_frame(f, i));
		vaccel_pt_used_add(table, 1);
	}
}

/*
 * Calls @fn on each valid level-0 entry of [va, end) below @table, a table
 * of @level whose first entry maps @base, with the entry's table, index
 * and VA.  Missing tables are skipped whole.  The one walk of a range: the
 * unmap, the move and the dumps go through it.
 */
static void vaccel_pt_range_leaves(u64 *table, unsigned int level, u64 base,
				   u64 va, u64 end,
				   void (*fn)(u64 *table, unsigned int i, u64 va,
					      void *data),
				   void *data)
{
	u64 span = vaccel_pt_entry_span(level);
	unsigned int i;

	for (i = vaccel_pt_index(va, level); i < VACCEL_PT_ENTRIES; i++) {
		u64 lo = base + i * span;
		u64 e = READ_ONCE(table[i]);

		if (lo >= end)
			break;
		if (!(e & DRM_VACCEL_PTE_VALID))
			continue;
		if (level == 0)
			fn(table, i, lo, data);
		else
			vaccel_pt_range_leaves(vaccel_pt_table_of(e), level - 1, lo,
					       max(va, lo), min(end, lo + span),
					       fn, data);
	}
}

static void vaccel_pt_clear_leaf(u64 *table, unsigned int i, u64 va, void *data)
{
	WRITE_ONCE(table[i], 0);
	vaccel_pt_used_add(table, -1);
}

/**
 * struct vaccel_pt_repoint - a move's rewrite of a range
 * @start: VA of frame 0 of @from and @to
 * @from: the frames the entries hold now
 * @to: the frames they get
 * @count: entries rewritten
 */
struct vaccel_pt_repoint {
	u64 start;
	const struct vaccel_pt_frames *from;
	const struct vaccel_pt_frames *to;
	unsigned long count;
};

/* Points an entry that holds its frame of @from at its frame of @to. */
static void vaccel_pt_repoint_leaf(u64 *table, unsigned int i, u64 va, void *data)
{
	const u64 frame_bits = DRM_VACCEL_PTE_ADDR_MASK | DRM_VACCEL_PTE_DEVICE;
	struct vaccel_pt_repoint *r = data;
	unsigned long k = (va - r->start) >> PAGE_SHIFT;
	u64 e = table[i];

	if ((e & frame_bits) != vaccel_pt_frame(r->from, k))
		return;
	WRITE_ONCE(table[i], (e & ~frame_bits) | vaccel_pt_frame(r->to, k));
	r->count++;
}

/**
 * vaccel_pt_remap() - point the entries of a range at other frames
 * @pt: the page table, its owner's lock held
 * @va: start of the range, page aligned
 * @size: size of the range, page aligned
 * @from: the frames the entries of the range point at now, one per 4 KiB
 * @to: the frames they are to point at, one per 4 KiB
 *
 * The move of a BO: every level-0 entry of the range that holds the frame
 * of its page in @from gets the frame of that page in @to and keeps its
 * permissions.  Other entries stay as they are, so a range that was
 * unmapped, or mapped again to something else, since the caller learnt
 * of it is left alone.  Allocates nothing and cannot fail.  The caller
 * invalidates the TLBs with vaccel_pt_invalidate() before @from goes.
 *
 * Context: Any context.
 * Return: the number of entries rewritten.
 */
unsigned long vaccel_pt_remap(struct vaccel_pt *pt, u64 va, u64 size,
			      const struct vaccel_pt_frames *from,
			      const struct vaccel_pt_frames *to)
{
	struct vaccel_pt_repoint r = { .start = va, .from = from, .to = to };

	lockdep_assert_held(pt->lock);
	if (pt->root)
		vaccel_pt_range_leaves(pt->root, VACCEL_PT_LEVELS - 1, 0, va,
				       va + size, vaccel_pt_repoint_leaf, &r);
	return r.count;
}

/**
 * vaccel_pt_unmap() - clear the level-0 entries of a range
 * @pt: the page table, its owner's lock held
 * @va: start of the range, page aligned
 * @size: size of the range, page aligned
 *
 * Pages of the range that are not mapped are skipped.  Tables left empty
 * stay until vaccel_pt_prune(); the caller invalidates the TLBs with
 * vaccel_pt_invalidate() before releasing anything.
 *
 * Context: Any context.
 */
void vaccel_pt_unmap(struct vaccel_pt *pt, u64 va, u64 size)
{
	lockdep_assert_held(pt->lock);
	vaccel_pt_range_leaves(pt->root, VACCEL_PT_LEVELS - 1, 0, va, va + size,
			       vaccel_pt_clear_leaf, NULL);
}

/**
 * vaccel_pt_skip_unmapped() - the next address a level-0 table may map
 * @pt: the page table, its owner's lock held
 * @va: where to look from
 * @end: where to stop looking
 *
 * Skips the regions whose tables are missing, at any level, so that an
 * unmap over a sparse range costs what is mapped, not what is asked.
 *
 * Context: Any context.
 * Return: @va if its level-0 table exists, else the start of the next
 * region that may have one, or @end.
 */
u64 vaccel_pt_skip_unmapped(const struct vaccel_pt *pt, u64 va, u64 end)
{
	lockdep_assert_held(pt->lock);
	while (va < end) {
		u64 *table = pt->root;
		unsigned int level;

		for (level = VACCEL_PT_LEVELS - 1; level > 0; level--) {
			u64 e = table[vaccel_pt_index(va, level)];

			if (!(e & DRM_VACCEL_PTE_VALID))
				break;
			table = vaccel_pt_table_of(e);
		}
		if (!level)
			return va;
		/* The region of the missing entry, then the next. */
		va = ALIGN_DOWN(va, vaccel_pt_entry_span(level)) +
		     vaccel_pt_entry_span(level);
		if (!va)
			break;
	}
	return end;
}

/*
 * Takes the empty tables below @table (of @level >= 1, first entry mapping
 * @base) that cover part of [va, end) out of the tree, bottom up.
 */
static void vaccel_pt_prune_level(struct vaccel_pt *pt, u64 *table,
				  unsigned int level, u64 base, u64 va, u64 end)
{
	u64 span = vaccel_pt_entry_span(level);
	unsigned int i;

	for (i = vaccel_pt_index(va, level); i < VACCEL_PT_ENTRIES; i++) {
		u64 lo = base + i * span;
		u64 e = table[i];
		u64 *child;

		if (lo >= end)
			break;
		if (!(e & DRM_VACCEL_PTE_VALID))
			continue;
		child = vaccel_pt_table_of(e);
		if (level > 1)
			vaccel_pt_prune_level(pt, child, level - 1, lo,
					      max(va, lo), min(end, lo + span));
		else
			cond_resched();
		if (vaccel_pt_used(child))
			continue;
		WRITE_ONCE(table[i], 0);
		vaccel_pt_used_add(table, -1);
		list_add_tail(&vaccel_pt_page(child)->lru, &pt->zombies);
	}
}

/**
 * vaccel_pt_prune() - take the empty tables of a range out of the tree
 * @pt: the page table, its owner's lock held
 * @va: start of the range
 * @size: size of the range
 *
 * Used after unmapping.  The tables go to the zombie list; the root
 * stays.  A range may hold max_pt_bytes of tables: it yields between them.
 *
 * Context: Process context.
 */
void vaccel_pt_prune(struct vaccel_pt *pt, u64 va, u64 size)
{
	lockdep_assert_held(pt->lock);
	vaccel_pt_prune_level(pt, pt->root, VACCEL_PT_LEVELS - 1, 0, va,
			      va + size);
}

/**
 * vaccel_pt_invalidate() - invalidate a range in every attached TLB
 * @pt: the page table
 * @va: start of the range
 * @size: size of the range
 *
 * Returns once no attached TLB holds a translation of the range and no
 * access through one is in flight: it sleeps until a slice of a dispatch
 * that uses one ends.  The TLBs are the engines', which outlive every
 * address space of their device.
 *
 * Context: Process context; takes the TLB locks, sleeps.
 * Return: the number of TLBs that were attached.
 */
unsigned int vaccel_pt_invalidate(struct vaccel_pt *pt, u64 va, u64 size)
{
	struct vaccel_tlb *tlbs[VACCEL_PT_MAX_TLBS], *tlb;
	unsigned int i, n = 0;

	/*
	 * The TLBs attached now, taken one by one without the list's lock:
	 * one attached later has been emptied by its attach and walks the
	 * tables as they are now; one detached since has been emptied too.
	 */
	spin_lock(&pt->tlb_lock);
	list_for_each_entry(tlb, &pt->tlbs, pt_link)
		if (!WARN_ON_ONCE(n == ARRAY_SIZE(tlbs)))
			tlbs[n++] = tlb;
	spin_unlock(&pt->tlb_lock);

	for (i = 0; i < n; i++)
		vaccel_tlb_invalidate_in(tlbs[i], pt, va, size);
	return n;
}

/**
 * vaccel_pt_release_zombies() - free the tables taken out of the tree
 * @pt: the page table, its owner's lock held, the TLBs invalidated
 *
 * Context: Process context.
 */
void vaccel_pt_release_zombies(struct vaccel_pt *pt)
{
	struct page *p, *tmp;

	lockdep_assert_held(pt->lock);
	list_for_each_entry_safe(p, tmp, &pt->zombies, lru) {
		list_del(&p->lru);
		vaccel_pt_free_table(pt, page_address(p));
		cond_resched();
	}
}

/**
 * vaccel_pt_walk() - translate a VA as the MMU does
 * @pt: the page table
 * @va: the address
 *
 * The caller is an attached TLB holding its lock, or the owner holding its
 * lock, so that no table can be freed under the walk.
 *
 * Context: Any context.
 * Return: the level-0 entry of @va, or 0 if no valid entry maps it.
 */
u64 vaccel_pt_walk(const struct vaccel_pt *pt, u64 va)
{
	u64 *table;

	if (va >= (1ull << 48))
		return 0;
	table = vaccel_pt_descend(pt->root, VACCEL_PT_LEVELS - 1, 0, va);
	if (!table)
		return 0;
	return READ_ONCE(table[vaccel_pt_index(va, 0)]);
}

/**
 * vaccel_pt_walk_levels() - the entries a walk of a VA reads, level by level
 * @pt: the page table
 * @va: the address
 * @entries: filled with the entry read at each level, indexed by level
 *
 * The walk of vaccel_pt_walk(), for a dump: it records the entry of every
 * level from the root down, and stops after the first entry that is not
 * valid.  The same callers, under the same locks.
 *
 * Context: Any context.
 * Return: the number of entries read, the root's (at index
 * %VACCEL_PT_LEVELS - 1 of @entries) first; 0 for an address beyond the
 * page table's 48 bits.
 */
unsigned int vaccel_pt_walk_levels(const struct vaccel_pt *pt, u64 va,
				   u64 entries[VACCEL_PT_LEVELS])
{
	const u64 *table = pt->root;
	unsigned int level, n = 0;

	if (va >= (1ull << 48))
		return 0;
	for (level = VACCEL_PT_LEVELS; level-- > 0;) {
		u64 e = READ_ONCE(table[vaccel_pt_index(va, level)]);

		entries[level] = e;
		n++;
		if (!(e & DRM_VACCEL_PTE_VALID) || !level)
			break;
		table = vaccel_pt_table_of(e);
	}
	return n;
}

/* Random at each boot: page identities compare, they do not locate. */
static siphash_key_t vaccel_pt_identity_key;

/**
 * vaccel_pt_entry_identity() - a page-table entry as user space may see it
 * @entry: the entry
 *
 * The page-frame field of a valid entry becomes a keyed hash of the frame,
 * random at each boot, so that two entries of one page show the same value
 * and nothing tells where the page is; the flag bits stay.
 *
 * Context: Any context.
 * Return: the entry with its frame replaced.
 */
u64 vaccel_pt_entry_identity(u64 entry)
{
	u64 id;

	/* A device physical address says nothing about the host. */
	if (!(entry & DRM_VACCEL_PTE_VALID) || (entry & DRM_VACCEL_PTE_DEVICE))
		return entry;
	get_random_once(&vaccel_pt_identity_key, sizeof(vaccel_pt_identity_key));
	id = siphash_1u64(entry & DRM_VACCEL_PTE_ADDR_MASK,
			  &vaccel_pt_identity_key) << VACCEL_PT_PAGE_SHIFT;
	return (entry & ~DRM_VACCEL_PTE_ADDR_MASK) | (id & DRM_VACCEL_PTE_ADDR_MASK);
}

/**
 * struct vaccel_pt_visit - vaccel_pt_visit_leaves()' callback and its data
 * @fn: the callback
 * @data: its data
 */
struct vaccel_pt_visit {
	void (*fn)(u64 va, u64 pte, void *data);
	void *data;
};

static void vaccel_pt_visit_leaf(u64 *table, unsigned int i, u64 va, void *data)
{
	struct vaccel_pt_visit *v = data;

	v->fn(va, READ_ONCE(table[i]), v->data);
}

/**
 * vaccel_pt_visit_leaves() - call @fn on every valid level-0 entry
 * @pt: the page table, its owner's lock held
 * @fn: called with the page's VA, its entry and @data
 * @data: its data
 *
 * Context: Any context; @fn must not sleep if the caller cannot.
 */
void vaccel_pt_visit_leaves(const struct vaccel_pt *pt,
			    void (*fn)(u64 va, u64 pte, void *data),
			    void *data)
{
	struct vaccel_pt_visit v = { .fn = fn, .data = data };

	lockdep_assert_held(pt->lock);
	vaccel_pt_range_leaves(pt->root, VACCEL_PT_LEVELS - 1, 0, 0, U64_MAX,
			       vaccel_pt_visit_leaf, &v);
}
