// SPDX-License-Identifier: GPL-2.0-only
/*
 * Copyright 2026 The vaccel authors
 */

/**
 * DOC: TLB and the engine access path
 *
 * Every engine reaches memory through its own software TLB: a direct-mapped
 * cache of 64 level-0 entries of the address space it works in.  A miss
 * walks the page table (vaccel_pt_walk()).  Before executing a DMA buffer of
 * another address space, the engine attaches its TLB to that address space,
 * which empties it; this is the switch of the root page-table pointer.
 *
 * Packets touch memory through vaccel_tlb_read() and vaccel_tlb_write().
 * An access of up to a page may cross one page boundary; both pages are
 * translated and checked before a byte moves, so an access that faults
 * touches nothing and reports the first address that failed, the kind of
 * access and the reason.  The interpreter of DISPATCH packets instead
 * holds the TLB locked for a slice of instructions (vaccel_tlb_lock()) and
 * reaches the pages vaccel_tlb_page_locked() translates directly.
 *
 * The TLB lock is held across each access, or each slice.
 * vaccel_pt_invalidate() takes the lock of every attached TLB in turn, so
 * when it returns, no TLB holds a stale translation and no access that
 * used one is still copying: the pages can go.  The lock is a mutex: a
 * slice of a dispatch gives the CPU up whenever the scheduler wants it,
 * and an invalidation sleeps until the slice ends, rather than the engine
 * keeping preemption off for the whole slice and the invalidation
 * spinning for it.
 *
 * **Compute units.**  Each compute unit of a compute engine but the first
 * has a TLB of its own, a child of the engine's (vaccel_tlb_attach_child()),
 * as a GPU's CUs have L1 TLBs behind a shared one: it works in the
 * engine's address space for as long as the unit runs a dispatch, is not
 * on the page table's list, and is invalidated with its parent, under its
 * own lock taken inside the parent's.  The units run their slices under
 * their own locks, never the engine's, so they run in parallel, and an
 * invalidation still waits for every slice in flight.
 *
 * **Counters.**  Each access adds its bytes to the engine's counters of
 * the class of memory it lands in (&enum vaccel_mem_class): the engine's
 * own segment, system memory, or a peer's segment, told apart by the
 * entry's %DRM_VACCEL_PTE_DEVICE bit and its address.  Packets count as
 * they copy, the packets themselves included (a DMA buffer is read from
 * memory); the interpreter counts in its micro-TLB and the engine adds
 * that up after each slice.  Instruction fetches are not counted: the
 * engine's instruction cache serves them.
 */

#include <linux/highmem.h>
#include <linux/mm.h>
#include <linux/string.h>

#include <drm/vaccel_accel.h>

#include "vaccel_devmem.h"
#include "vaccel_mmu.h"
#include "vaccel_tlb.h"

/**
 * vaccel_tlb_init() - an empty TLB attached to nothing
 * @tlb: the TLB
 *
 * Context: Any context.
 */
void vaccel_tlb_init(struct vaccel_tlb *tlb)
{
	memset(tlb, 0, sizeof(*tlb));
	mutex_init(&tlb->lock);
	INIT_LIST_HEAD(&tlb->pt_link);
	INIT_LIST_HEAD(&tlb->children);
	INIT_LIST_HEAD(&tlb->child_link);
	tlb->local_base = U64_MAX;
}

/**
 * vaccel_tlb_mem_class() - the class of memory of a translation
 * @tlb: the engine's TLB
 * @device: @addr is a device physical address (%DRM_VACCEL_PTE_DEVICE)
 * @addr: the address the translation gives
 *
 * Context: Any context.
 * Return: %VACCEL_MEM_SYSTEM, %VACCEL_MEM_LOCAL or %VACCEL_MEM_PEER.
 */
enum vaccel_mem_class vaccel_tlb_mem_class(const struct vaccel_tlb *tlb,
					   bool device, u64 addr)
{
	if (!device)
		return VACCEL_MEM_SYSTEM;
	return addr >> VACCEL_DEVMEM_SPAN_SHIFT ==
	       tlb->local_base >> VACCEL_DEVMEM_SPAN_SHIFT ?
	       VACCEL_MEM_LOCAL : VACCEL_MEM_PEER;
}

/**
 * vaccel_tlb_count() - add to an engine's counters of memory traffic
 * @tlb: the engine's TLB
 * @mem_class: where the bytes were; %VACCEL_MEM_ON_CHIP counts nowhere
 * @write: written, not read
 * @bytes: how many
 *
 * Context: The engine's thread.
 */
void vaccel_tlb_count(struct vaccel_tlb *tlb, enum vaccel_mem_class mem_class,
		      bool write, u64 bytes)
{
	u64 *c;

	if (mem_class >= VACCEL_MEM_CLASSES || !bytes)
		return;
	c = &tlb->traffic.bytes[mem_class][write];
	/* Read without the engine's lock by fdinfo and debugfs. */
	WRITE_ONCE(*c, *c + bytes);
}

/**
 * vaccel_traffic_read() - a snapshot of counters another thread adds to
 * @t: the counters
 * @out: the copy
 *
 * Context: Any context.
 */
void vaccel_traffic_read(const struct vaccel_traffic *t,
			 struct vaccel_traffic *out)
{
	unsigned int c;

	for (c = 0; c < VACCEL_MEM_CLASSES; c++) {
		out->bytes[c][0] = READ_ONCE(t->bytes[c][0]);
		out->bytes[c][1] = READ_ONCE(t->bytes[c][1]);
	}
}

static enum vaccel_mem_class vaccel_pte_mem_class(const struct vaccel_tlb *tlb,
						  u64 pte)
{
	return vaccel_tlb_mem_class(tlb, pte & DRM_VACCEL_PTE_DEVICE,
				    pte & DRM_VACCEL_PTE_ADDR_MASK);
}

static void vaccel_tlb_flush_locked(struct vaccel_tlb *tlb)
{
	lockdep_assert_held(&tlb->lock);
	memset(tlb->entries, 0, sizeof(tlb->entries));
}

/*
 * Lock order: a TLB's mutex, then its children's, then the spinlock of the
 * page table's list of TLBs.  vaccel_pt_invalidate() takes each TLB's
 * mutex with no other lock held.
 */

/* Drops @tlb's translations of the pages @first to @last. */
static void vaccel_tlb_invalidate_locked(struct vaccel_tlb *tlb, u64 first,
					 u64 last)
{
	unsigned int i;

	lockdep_assert_held(&tlb->lock);
	tlb->invalidations++;
	for (i = 0; i < VACCEL_TLB_ENTRIES; i++) {
		u64 tag = tlb->entries[i].tag;

		if (tag && tag - 1 >= first && tag - 1 <= last)
			tlb->entries[i].tag = 0;
	}
}

/**
 * vaccel_tlb_attach_child() - put a TLB behind another
 * @child: a TLB attached to nothing, used by one thread
 * @parent: a TLB attached to an address space, which stays attached until
 *	vaccel_tlb_detach_child()
 *
 * @child then translates in @parent's address space, empty at first, and
 * every invalidation of @parent invalidates it too.
 *
 * Context: Process context; takes both TLBs' locks.
 */
void vaccel_tlb_attach_child(struct vaccel_tlb *child, struct vaccel_tlb *parent)
{
	mutex_lock(&parent->lock);
	mutex_lock_nested(&child->lock, SINGLE_DEPTH_NESTING);
	child->pt = parent->pt;
	vaccel_tlb_flush_locked(child);
	list_add_tail(&child->child_link, &parent->children);
	mutex_unlock(&child->lock);
	mutex_unlock(&parent->lock);
}

/**
 * vaccel_tlb_detach_child() - take a TLB from behind another
 * @child: a TLB that vaccel_tlb_attach_child() put behind @parent
 * @parent: the TLB
 *
 * Context: Process context; takes both TLBs' locks.
 */
void vaccel_tlb_detach_child(struct vaccel_tlb *child, struct vaccel_tlb *parent)
{
	mutex_lock(&parent->lock);
	mutex_lock_nested(&child->lock, SINGLE_DEPTH_NESTING);
	list_del_init(&child->child_link);
	child->pt = NULL;
	vaccel_tlb_flush_locked(child);
	mutex_unlock(&child->lock);
	mutex_unlock(&parent->lock);
}

/**
 * vaccel_tlb_detach() - leave the current address space
 * @tlb: the TLB
 *
 * Context: Process context.
 */
void vaccel_tlb_detach(struct vaccel_tlb *tlb)
{
	struct vaccel_pt *pt;

	mutex_lock(&tlb->lock);
	pt = tlb->pt;
	if (pt) {
		spin_lock(&pt->tlb_lock);
		list_del_init(&tlb->pt_link);
		/* Under the lock: the page table may go as soon as it drops. */
		wake_up_all(&pt->tlb_wq);
		spin_unlock(&pt->tlb_lock);
		tlb->pt = NULL;
		vaccel_tlb_flush_locked(tlb);
	}
	mutex_unlock(&tlb->lock);
}

/**
 * vaccel_tlb_attach() - switch to an address space
 * @tlb: the TLB, used by one engine thread
 * @pt: the address space's page table, which must outlive the attachment
 *
 * Context: Process context.
 */
void vaccel_tlb_attach(struct vaccel_tlb *tlb, struct vaccel_pt *pt)
{
	if (tlb->pt == pt)
		return;
	vaccel_tlb_detach(tlb);
	mutex_lock(&tlb->lock);
	spin_lock(&pt->tlb_lock);
	list_add_tail(&tlb->pt_link, &pt->tlbs);
	spin_unlock(&pt->tlb_lock);
	tlb->pt = pt;
	mutex_unlock(&tlb->lock);
}

/**
 * vaccel_tlb_invalidate_in() - drop a TLB's translations of a range
 * @tlb: the TLB
 * @pt: the address space the range belongs to; nothing is done if the TLB
 *	is no longer attached to it
 * @va: start of the range
 * @size: size of the range
 *
 * Waits for an access in flight to finish.
 *
 * Context: Process context; takes the TLB lock, sleeps.
 */
void vaccel_tlb_invalidate_in(struct vaccel_tlb *tlb, struct vaccel_pt *pt,
			      u64 va, u64 size)
{
	u64 first = va >> PAGE_SHIFT, last = (va + size - 1) >> PAGE_SHIFT;
	struct vaccel_tlb *child;

	mutex_lock(&tlb->lock);
	if (tlb->pt != pt) {
		mutex_unlock(&tlb->lock);
		return;
	}
	vaccel_tlb_invalidate_locked(tlb, first, last);
	/* They work in @pt too: their slices in flight end first. */
	list_for_each_entry(child, &tlb->children, child_link) {
		mutex_lock_nested(&child->lock, SINGLE_DEPTH_NESTING);
		vaccel_tlb_invalidate_locked(child, first, last);
		mutex_unlock(&child->lock);
	}
	mutex_unlock(&tlb->lock);
}

/* Translates one page; fills @fault and returns 0 on failure. */
static u64 vaccel_tlb_translate_locked(struct vaccel_tlb *tlb, u64 va,
				       enum vaccel_access access,
				       struct vaccel_fault *fault)
{
	u64 vpn = va >> PAGE_SHIFT;
	struct vaccel_tlb_entry *e = &tlb->entries[vpn % VACCEL_TLB_ENTRIES];
	u64 pte;

	lockdep_assert_held(&tlb->lock);

	fault->va = va;
	fault->access = access;
	if (!tlb->pt || va < tlb->pt->va_start || va >= tlb->pt->va_end) {
		fault->reason = VACCEL_FAULT_OUT_OF_RANGE;
		return 0;
	}

	if (e->tag == vpn + 1) {
		tlb->hits++;
		pte = e->pte;
	} else {
		tlb->misses++;
		pte = vaccel_pt_walk(tlb->pt, va);
		if (!(pte & DRM_VACCEL_PTE_VALID) ||
		    ((pte & DRM_VACCEL_PTE_DEVICE) &&
		     !vaccel_devmem_page(pte & DRM_VACCEL_PTE_ADDR_MASK))) {
			fault->reason = VACCEL_FAULT_UNMAPPED;
			return 0;
		}
		e->tag = vpn + 1;
		e->pte = pte;
	}

	if ((access == VACCEL_ACCESS_WRITE && !(pte & DRM_VACCEL_PTE_WRITE)) ||
	    (access == VACCEL_ACCESS_EXEC && !(pte & DRM_VACCEL_PTE_EXEC))) {
		fault->reason = VACCEL_FAULT_PERMISSION;
		return 0;
	}
	fault->reason = VACCEL_FAULT_NONE;
	return pte;
}

/*
 * The host page of a valid level-0 entry: a page of system memory, or the
 * page behind a device physical address, in this device's segment or a
 * peer's.  NULL only for an address no segment has memory at, which no
 * entry vaccel writes holds.
 */
static struct page *vaccel_pte_page(u64 pte)
{
	if (pte & DRM_VACCEL_PTE_DEVICE)
		return vaccel_devmem_page(pte & DRM_VACCEL_PTE_ADDR_MASK);
	return pfn_to_page((pte & DRM_VACCEL_PTE_ADDR_MASK) >> PAGE_SHIFT);
}

/**
 * vaccel_tlb_lock() - keep the translations of the TLB valid
 * @tlb: the TLB
 *
 * Until vaccel_tlb_unlock(), the host pages vaccel_tlb_page_locked()
 * returns stay those of the address space: an invalidation waits.  Hold it
 * for a bounded time, a slice of a dispatch; the holder may be preempted,
 * and may allocate without blocking, but must not wait for anything.
 *
 * Context: The engine's thread; sleeps.
 */
void vaccel_tlb_lock(struct vaccel_tlb *tlb)
{
	mutex_lock(&tlb->lock);
}

/**
 * vaccel_tlb_unlock() - let invalidations through again
 * @tlb: the TLB
 *
 * Context: The engine's thread, after vaccel_tlb_lock().
 */
void vaccel_tlb_unlock(struct vaccel_tlb *tlb)
{
	mutex_unlock(&tlb->lock);
}

/**
 * vaccel_tlb_page_locked() - the host page behind a GPU address
 * @tlb: the TLB, locked with vaccel_tlb_lock()
 * @va: the address
 * @access: what the caller will do there
 * @fault: filled when the address space refuses @access at @va
 * @mem_class: set to the class of memory of the page, for the caller's
 *	counting (vaccel_tlb_count())
 *
 * Context: The engine's thread, the TLB locked.
 * Return: the kernel address of the page that holds @va, valid while the
 * lock is held; NULL with @fault filled.
 */
void *vaccel_tlb_page_locked(struct vaccel_tlb *tlb, u64 va,
			     enum vaccel_access access, struct vaccel_fault *fault,
			     enum vaccel_mem_class *mem_class)
{
	u64 pte = vaccel_tlb_translate_locked(tlb, va, access, fault);

	if (!pte)
		return NULL;
	*mem_class = vaccel_pte_mem_class(tlb, pte);
	/* 64-bit only: every page has a permanent kernel address. */
	return page_address(vaccel_pte_page(pte));
}

/*
 * Translates the (at most two) pages of an access, then copies.  @to_mem
 * says the direction.  Return: 0, or -EFAULT with @fault filled.
 */
static int vaccel_tlb_access(struct vaccel_tlb *tlb, u64 va, void *buf,
			     size_t len, enum vaccel_access access, bool to_mem,
			     struct vaccel_fault *fault)
{
	size_t first_len = min_t(size_t, len, PAGE_SIZE - offset_in_page(va));
	u64 pte[2] = {};
	int ret = 0, i, n = first_len < len ? 2 : 1;

	if (WARN_ON(len > PAGE_SIZE || !len))
		return -EINVAL;
	/* The last byte must not wrap around the address space. */
	if (va + len < va) {
		fault->va = va;
		fault->access = access;
		fault->reason = VACCEL_FAULT_OUT_OF_RANGE;
		return -EFAULT;
	}

	mutex_lock(&tlb->lock);
	for (i = 0; i < n; i++) {
		u64 page_va = i ? PAGE_ALIGN(va) : va;

		pte[i] = vaccel_tlb_translate_locked(tlb, page_va, access, fault);
		if (!pte[i]) {
			ret = -EFAULT;
			goto out_unlock;
		}
	}

	for (i = 0; i < n; i++) {
		size_t off = i ? 0 : offset_in_page(va);
		size_t chunk = i ? len - first_len : first_len;
		void *p = kmap_local_page(vaccel_pte_page(pte[i]));

		if (to_mem)
			memcpy(p + off, buf, chunk);
		else
			memcpy(buf, p + off, chunk);
		kunmap_local(p);
		vaccel_tlb_count(tlb, vaccel_pte_mem_class(tlb, pte[i]), to_mem,
				 chunk);
		buf += chunk;
	}
out_unlock:
	mutex_unlock(&tlb->lock);
	return ret;
}

/**
 * vaccel_tlb_read() - load or fetch through the TLB
 * @tlb: the engine's TLB
 * @va: first address
 * @dst: where the bytes go
 * @len: bytes, 1 to PAGE_SIZE
 * @access: %VACCEL_ACCESS_READ or %VACCEL_ACCESS_EXEC
 * @fault: filled on failure
 *
 * Context: Process context; takes the TLB lock.
 * Return: 0, or -EFAULT if a page is out of range, unmapped or not
 * readable in the way asked; @dst is then untouched.
 */
int vaccel_tlb_read(struct vaccel_tlb *tlb, u64 va, void *dst, size_t len,
		    enum vaccel_access access, struct vaccel_fault *fault)
{
	return vaccel_tlb_access(tlb, va, dst, len, access, false, fault);
}

/**
 * vaccel_tlb_write() - store through the TLB
 * @tlb: the engine's TLB
 * @va: first address
 * @src: the bytes
 * @len: bytes, 1 to PAGE_SIZE
 * @fault: filled on failure
 *
 * Context: Process context; takes the TLB lock.
 * Return: 0, or -EFAULT if a page is out of range, unmapped or read-only;
 * memory is then untouched.
 */
int vaccel_tlb_write(struct vaccel_tlb *tlb, u64 va, const void *src,
		     size_t len, struct vaccel_fault *fault)
{
	return vaccel_tlb_access(tlb, va, (void *)src, len,
				 VACCEL_ACCESS_WRITE, true, fault);
}

/**
 * vaccel_tlb_peek() - read an address space's memory for a dump
 * @tlb: the engine's TLB
 * @pt: the address space the caller means
 * @va: first address
 * @dst: where the bytes go
 * @len: bytes, within one page
 *
 * Reads as an engine load would, but leaves the TLB's entries and counters
 * alone, and only while the TLB is attached to @pt: a dump shows the
 * memory of the address space it is about, never another's.
 *
 * Context: The engine's thread; takes the TLB lock.
 * Return: 0, or -EFAULT if the TLB is attached elsewhere or the page is
 * out of range or unmapped; @dst is then untouched.
 */
int vaccel_tlb_peek(struct vaccel_tlb *tlb, const struct vaccel_pt *pt, u64 va,
		    void *dst, size_t len)
{
	int ret = -EFAULT;
	u64 pte;

	if (WARN_ON(!len || offset_in_page(va) + len > PAGE_SIZE))
		return -EINVAL;
	mutex_lock(&tlb->lock);
	if (tlb->pt != pt || va < pt->va_start || va >= pt->va_end)
		goto out_unlock;
	pte = vaccel_pt_walk(pt, va);
	if ((pte & DRM_VACCEL_PTE_VALID) && vaccel_pte_page(pte)) {
		void *p = kmap_local_page(vaccel_pte_page(pte));

		memcpy(dst, p + offset_in_page(va), len);
		kunmap_local(p);
		ret = 0;
	}
out_unlock:
	mutex_unlock(&tlb->lock);
	return ret;
}

/**
 * vaccel_tlb_walk() - walk an address space's page table for a dump
 * @tlb: the engine's TLB
 * @pt: the address space the caller means
 * @va: the address
 * @entries: %VACCEL_PT_LEVELS entries: the entry read at each level, see
 *	vaccel_pt_walk_levels()
 *
 * Context: The engine's thread; takes the TLB lock.
 * Return: the number of entries read; 0 if the TLB is attached elsewhere.
 */
unsigned int vaccel_tlb_walk(struct vaccel_tlb *tlb, const struct vaccel_pt *pt,
			     u64 va, u64 *entries)
{
	unsigned int n = 0;

	mutex_lock(&tlb->lock);
	if (tlb->pt == pt)
		n = vaccel_pt_walk_levels(pt, va, entries);
	mutex_unlock(&tlb->lock);
	return n;
}
