/* SPDX-License-Identifier: MIT */
/*
 * Copyright 2026 The vaccel authors
 *
 * vt_uffd.h - holding an ioctl in the middle of its copy_from_user(), for
 * tests of races that must not depend on timing.
 *
 * A page registered with userfaultfd and not yet populated stalls the
 * kernel at the first access: the ioctl that copies its arguments from
 * there sleeps until the test fills the page.  The test runs the ioctl in
 * a thread, waits for the fault (so the ioctl is known to be inside its
 * copy), does whatever must race with it, then fills the page to let the
 * ioctl go on:
 *
 *	struct vt_uffd u;
 *	vt_uffd_init(&u);
 *	... the ioctl's argument array at u.page, in a thread ...
 *	VT_ASSERT(vt_uffd_wait_fault(&u, VT_TIMEOUT_MS));
 *	... the racing call ...
 *	vt_uffd_fill(&u, contents, len);
 *
 * Needs CAP_SYS_PTRACE (root) to catch faults of the kernel's own
 * accesses.
 */
#ifndef VT_UFFD_H
#define VT_UFFD_H

#include <fcntl.h>
#include <poll.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <linux/userfaultfd.h>

#include "vtest.h"

struct vt_uffd {
	int fd;
	void *page;
	size_t size;
};

/* A page whose first access, by the CPU or the kernel, waits for the test. */
static inline void vt_uffd_init(struct vt_uffd *u)
{
	struct uffdio_api api = { .api = UFFD_API };
	struct uffdio_register reg = {};

	u->size = (size_t)sysconf(_SC_PAGESIZE);
	u->fd = (int)syscall(__NR_userfaultfd, O_CLOEXEC | O_NONBLOCK);
	if (u->fd < 0)
		vtest_fail(__FILE__, __LINE__, "userfaultfd: %s", strerror(errno));
	if (ioctl(u->fd, UFFDIO_API, &api))
		vtest_fail(__FILE__, __LINE__, "UFFDIO_API: %s", strerror(errno));
	u->page = mmap(NULL, u->size, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (u->page == MAP_FAILED)
		vtest_fail(__FILE__, __LINE__, "mmap: %s", strerror(errno));
	reg.range.start = (unsigned long)u->page;
	reg.range.len = u->size;
	reg.mode = UFFDIO_REGISTER_MODE_MISSING;
	if (ioctl(u->fd, UFFDIO_REGISTER, &reg))
		vtest_fail(__FILE__, __LINE__, "UFFDIO_REGISTER: %s", strerror(errno));
}

/* Waits for the first access to the page; true if it came within @ms. */
static inline bool vt_uffd_wait_fault(struct vt_uffd *u, unsigned int ms)
{
	struct pollfd p = { .fd = u->fd, .events = POLLIN };
	struct uffd_msg msg;

	if (poll(&p, 1, (int)ms) != 1)
		return false;
	if (read(u->fd, &msg, sizeof(msg)) != sizeof(msg))
		return false;
	return msg.event == UFFD_EVENT_PAGEFAULT &&
	       (msg.arg.pagefault.address & ~(__u64)(u->size - 1)) ==
	       (unsigned long)u->page;
}

/* Populates the page with @len bytes of @src, the rest zero: the access goes on. */
static inline void vt_uffd_fill(struct vt_uffd *u, const void *src, size_t len)
{
	struct uffdio_copy copy = {};
	void *buf = calloc(1, u->size);

	VT_ASSERT(buf && len <= u->size);
	memcpy(buf, src, len);
	copy.dst = (unsigned long)u->page;
	copy.src = (unsigned long)buf;
	copy.len = u->size;
	if (ioctl(u->fd, UFFDIO_COPY, &copy))
		vtest_fail(__FILE__, __LINE__, "UFFDIO_COPY: %s", strerror(errno));
	free(buf);
}

static inline void vt_uffd_fini(struct vt_uffd *u)
{
	munmap(u->page, u->size);
	close(u->fd);
}

#endif /* VT_UFFD_H */
