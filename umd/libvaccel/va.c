// SPDX-License-Identifier: MIT
/*
 * Copyright 2026 The vaccel authors
 *
 * va.c - the GPU virtual address allocator of a device handle.
 *
 * In the GpuMmu model the user-mode driver, not the kernel, chooses the GPU
 * virtual addresses: the kernel only validates and maps them (VM_BIND).
 * Each device handle owns one VM, so it owns one allocator over the range
 * the device query reports, [va_start, va_end), in 4 KiB pages.
 *
 * The allocator is first fit over an address-ordered list of free extents
 * (holes), kept in a sorted array.  An allocation takes the lowest address
 * that satisfies its alignment in the first hole big enough, splitting the
 * hole into at most two; a free puts the extent back and merges it with the
 * holes on either side.  Since holes are always coalesced, first fit
 * returns the lowest suitable address of the whole space, freed memory is
 * reused at once, and there are never more holes than allocations plus
 * one, so fragmentation stays bounded by what is allocated.
 *
 * The allocated extents are kept too, sorted, so that a free of something
 * that was not allocated (a double free, a wrong size, an address in the
 * middle of an allocation) is refused with -EINVAL instead of corrupting
 * the allocator.  Both arrays are grown before an allocation changes
 * anything, to hold the worst case after it; a free therefore never needs
 * memory and cannot fail for lack of it.
 *
 * Cost: O(holes) to allocate, O(log n) to find plus a memmove to free.
 * That is the right trade-off for the thousands of live buffers of a
 * compute process; a tree can replace the arrays behind the same functions
 * if it ever is not.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "vaccel_priv.h"

#define VA_PAGE_MASK	(VACCEL_PAGE_SIZE - 1)

static bool va_is_pow2(uint64_t x)
{
	return x && !(x & (x - 1));
}

/* Makes room for @need entries in *@arr.  Return: 0 or -ENOMEM. */
static int va_reserve(struct vaccel_va_extent **arr, size_t *cap, size_t need)
{
	struct vaccel_va_extent *grown;
	size_t n;

	if (need <= *cap)
		return 0;
	n = *cap ? *cap * 2 : 16;
	if (n < need)
		n = need;
	if (n > SIZE_MAX / sizeof(**arr))
		return -ENOMEM;
	grown = realloc(*arr, n * sizeof(**arr));
	if (!grown)
		return -ENOMEM;
	*arr = grown;
	*cap = n;
	return 0;
}

/* Index of the first extent of @arr whose start is above @va. */
static size_t va_upper_bound(const struct vaccel_va_extent *arr, size_t n,
			     uint64_t va)
{
	size_t lo = 0, hi = n, mid;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (arr[mid].start <= va)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

static void va_insert(struct vaccel_va_extent *arr, size_t *n, size_t at,
		      uint64_t start, uint64_t end)
{
	memmove(&arr[at + 1], &arr[at], (*n - at) * sizeof(*arr));
	arr[at].start = start;
	arr[at].end = end;
	(*n)++;
}

static void va_remove(struct vaccel_va_extent *arr, size_t *n, size_t at)
{
	memmove(&arr[at], &arr[at + 1], (*n - at - 1) * sizeof(*arr));
	(*n)--;
}

/**
 * vaccel_va_space_init() - set up an allocator
 * @vs: the allocator
 * @start: lowest address to hand out; rounded up to a page
 * @end: end (exclusive) of the addresses; rounded down to a page
 *
 * An empty range is allowed: every allocation then fails with -ENOSPC.
 *
 * Return: 0, or -ENOMEM.
 */
int vaccel_va_space_init(struct vaccel_va_space *vs, uint64_t start,
			 uint64_t end)
{
	int ret;

	memset(vs, 0, sizeof(*vs));
	vs->start = start > UINT64_MAX - VA_PAGE_MASK ? UINT64_MAX & ~VA_PAGE_MASK :
		    (start + VA_PAGE_MASK) & ~VA_PAGE_MASK;
	vs->end = end & ~VA_PAGE_MASK;
	if (vs->end < vs->start)
		vs->end = vs->start;

	ret = va_reserve(&vs->holes, &vs->holes_cap, 1);
	if (ret)
		return ret;
	if (vs->start < vs->end) {
		vs->holes[0].start = vs->start;
		vs->holes[0].end = vs->end;
		vs->nholes = 1;
	}
	ret = pthread_mutex_init(&vs->lock, NULL);
	if (ret) {
		free(vs->holes);
		return -ret;
	}
	return 0;
}

/**
 * vaccel_va_space_fini() - tear down an allocator
 * @vs: the allocator; whatever is still allocated is forgotten
 */
void vaccel_va_space_fini(struct vaccel_va_space *vs)
{
	pthread_mutex_destroy(&vs->lock);
	free(vs->holes);
	free(vs->allocs);
	memset(vs, 0, sizeof(*vs));
}

/**
 * vaccel_va_space_alloc() - allocate GPU virtual addresses
 * @vs: the allocator
 * @size: bytes, rounded up to whole pages
 * @align: alignment of the address, a power of two of at least the page
 *	size, or 0 for the page size
 * @va: receives the address on success
 *
 * Context: takes @vs->lock.
 * Return: 0, -EINVAL for a bad argument, -ENOSPC when no free range fits,
 * or -ENOMEM.
 */
int vaccel_va_space_alloc(struct vaccel_va_space *vs, uint64_t size,
			  uint64_t align, uint64_t *va)
{
	struct vaccel_va_extent *h = NULL;
	uint64_t a = 0;
	size_t i;
	int ret;

	if (!vs || !va || !size)
		return -EINVAL;
	if (!align)
		align = VACCEL_PAGE_SIZE;
	if (!va_is_pow2(align) || align < VACCEL_PAGE_SIZE)
		return -EINVAL;
	if (size > UINT64_MAX - VA_PAGE_MASK)
		return -ENOSPC;
	size = (size + VA_PAGE_MASK) & ~VA_PAGE_MASK;

	pthread_mutex_lock(&vs->lock);
	ret = va_reserve(&vs->allocs, &vs->allocs_cap, vs->nallocs + 1);
	if (!ret)
		ret = va_reserve(&vs->holes, &vs->holes_cap, vs->nallocs + 2);
	if (ret)
		goto out_unlock;

	ret = -ENOSPC;
	for (i = 0; i < vs->nholes; i++) {
		h = &vs->holes[i];
		if (h->start > UINT64_MAX - (align - 1))
			break;
		a = (h->start + align - 1) & ~(align - 1);
		if (a < h->end && h->end - a >= size) {
			ret = 0;
			break;
		}
	}
	if (ret)
		goto out_unlock;

	if (a > h->start && a + size < h->end) {
		/* Room left on both sides: the hole becomes two. */
		va_insert(vs->holes, &vs->nholes, i + 1, a + size, h->end);
		vs->holes[i].end = a;
	} else if (a > h->start) {
		h->end = a;
	} else if (a + size < h->end) {
		h->start = a + size;
	} else {
		va_remove(vs->holes, &vs->nholes, i);
	}

	va_insert(vs->allocs, &vs->nallocs,
		  va_upper_bound(vs->allocs, vs->nallocs, a), a, a + size);
	vs->allocated += size;
	*va = a;

out_unlock:
	pthread_mutex_unlock(&vs->lock);
	return ret;
}

/**
 * vaccel_va_space_free() - free GPU virtual addresses
 * @vs: the allocator
 * @va: an address returned by vaccel_va_space_alloc()
 * @size: the size given to that allocation (or the same rounded up)
 *
 * Context: takes @vs->lock.
 * Return: 0, or -EINVAL if [@va, @va + @size) is not exactly one live
 * allocation.
 */
int vaccel_va_space_free(struct vaccel_va_space *vs, uint64_t va,
			 uint64_t size)
{
	struct vaccel_va_extent *allocs, *holes;
	bool prev, next;
	uint64_t end;
	size_t i, p;
	int ret = -EINVAL;

	if (!vs || !size || (va & VA_PAGE_MASK) || size > UINT64_MAX - VA_PAGE_MASK)
		return -EINVAL;
	size = (size + VA_PAGE_MASK) & ~VA_PAGE_MASK;

	pthread_mutex_lock(&vs->lock);
	allocs = vs->allocs;
	holes = vs->holes;
	i = va_upper_bound(allocs, vs->nallocs, va);
	if (!i || allocs[i - 1].start != va ||
	    allocs[i - 1].end - allocs[i - 1].start != size)
		goto out_unlock;
	end = allocs[i - 1].end;
	va_remove(allocs, &vs->nallocs, i - 1);

	p = va_upper_bound(holes, vs->nholes, va);
	prev = p > 0 && holes[p - 1].end == va;
	next = p < vs->nholes && holes[p].start == end;
	if (prev && next) {
		holes[p - 1].end = holes[p].end;
		va_remove(holes, &vs->nholes, p);
	} else if (prev) {
		holes[p - 1].end = end;
	} else if (next) {
		holes[p].start = va;
	} else {
		/* holes_cap > nallocs + 1 >= nholes: see vaccel_va_space_alloc(). */
		va_insert(holes, &vs->nholes, p, va, end);
	}
	vs->allocated -= size;
	ret = 0;

out_unlock:
	pthread_mutex_unlock(&vs->lock);
	return ret;
}

/**
 * vaccel_va_space_holes() - number of free extents
 * @vs: the allocator
 *
 * A measure of fragmentation, for tests.
 *
 * Return: the number of holes.
 */
size_t vaccel_va_space_holes(struct vaccel_va_space *vs)
{
	size_t n;

	pthread_mutex_lock(&vs->lock);
	n = vs->nholes;
	pthread_mutex_unlock(&vs->lock);
	return n;
}

VACCEL_EXPORT int vaccel_va_alloc(struct vaccel_device *dev, uint64_t size,
				  uint64_t align, uint64_t *va)
{
	if (!dev)
		return -EINVAL;
	return vaccel_va_space_alloc(vaccel_dev_va(dev), size, align, va);
}

VACCEL_EXPORT int vaccel_va_free(struct vaccel_device *dev, uint64_t va,
				 uint64_t size)
{
	if (!dev)
		return -EINVAL;
	return vaccel_va_space_free(vaccel_dev_va(dev), va, size);
}
