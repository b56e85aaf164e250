// SPDX-License-Identifier: MIT
/*
 * Copyright 2026 The vaccel authors
 *
 * module.c - kernel modules: the loader, the kernels it finds, and their
 * launch.
 *
 * vaccel_module_load() has elf.c check the file and lay it out, then
 * places the image in a buffer of its own: one GEM object at a GPU
 * address aligned as the segments ask, each segment's pages mapped with
 * its permissions in one VM_BIND (code read-only and executable, read-only
 * data neither writable nor executable, data writable but not
 * executable), the pages between segments not mapped at all.  The image
 * is written through the CPU mapping with its relocations applied for that
 * address; those that point into the local memory segment (the GOT
 * entries of VACCEL_LOCAL objects) get the device's local base instead.
 * The kernel module never sees ELF: it gets entry addresses in DISPATCH
 * packets.
 *
 * A module whose kernels print (it has the runtime's descriptor
 * __vaccel_print) gets a print buffer, writable by the device and never
 * executable, whose address and size the loader stores in the descriptor
 * before the image is used.  vaccel_module_read_print() reads it.
 *
 * vaccel_launch() hands the kernel to queue.c, which copies the argument
 * block into the DMA buffer just before a DISPATCH of the kernel's entry
 * with the module's local memory size and the kernel's stack size.
 *
 * Faults: the device keeps a registry of its loaded modules, each with a
 * number of its own and the functions of its symbol table (name, offset,
 * size), so that a fault's program counter and a failed launch can be
 * told in words: the kernel, the function and the offset in it, and the
 * address in the ELF file (vaccel_module_describe(), for
 * vaccel_queue_get_fault()).  Numbers are never reused: a launch recorded
 * before its module was destroyed names no other module's kernel.
 */
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "vaccel_priv.h"

/* The largest file vaccel_module_load_file() reads: debug information included. */
#define VACCEL_MODULE_MAX_FILE	(1ull << 30)

__attribute__((format(printf, 4, 5)))
static int vaccel_module_fail(char *msg, size_t msg_size, int err,
			      const char *fmt, ...)
{
	va_list ap;

	if (msg && msg_size) {
		va_start(ap, fmt);
		vsnprintf(msg, msg_size, fmt, ap);
		va_end(ap);
	}
	return err;
}

#define FAIL(err, ...)	vaccel_module_fail(msg, msg_size, (err), __VA_ARGS__)

int vaccel_device_init_modules(struct vaccel_device *dev)
{
	dev->modules = NULL;
	dev->next_module_id = 1;
	return -pthread_mutex_init(&dev->modules_lock, NULL);
}

void vaccel_device_fini_modules(struct vaccel_device *dev)
{
	pthread_mutex_destroy(&dev->modules_lock);
}

/* Makes @mod known to fault lookups, with a number of its own. */
static void vaccel_module_register(struct vaccel_module *mod)
{
	struct vaccel_device *dev = mod->dev;

	pthread_mutex_lock(&dev->modules_lock);
	mod->id = dev->next_module_id++;
	mod->next = dev->modules;
	dev->modules = mod;
	pthread_mutex_unlock(&dev->modules_lock);
}

static void vaccel_module_unregister(struct vaccel_module *mod)
{
	struct vaccel_device *dev = mod->dev;
	struct vaccel_module **p;

	pthread_mutex_lock(&dev->modules_lock);
	for (p = &dev->modules; *p; p = &(*p)->next) {
		if (*p == mod) {
			*p = mod->next;
			break;
		}
	}
	pthread_mutex_unlock(&dev->modules_lock);
}

static void vaccel_module_free(struct vaccel_module *mod)
{
	unsigned int i;

	if (mod->id)
		vaccel_module_unregister(mod);
	free(mod->functions);
	free(mod->names);
	free(mod->sections);
	for (i = 0; i < mod->nkernels; i++)
		free(mod->kernels[i].name);
	free(mod->kernels);
	vaccel_bo_free(mod->print);
	vaccel_bo_free(mod->image);
	free(mod);
}

/* The device flags of a segment's pages. */
static uint32_t vaccel_segment_flags(uint32_t pflags)
{
	/* PF_X 1, PF_W 2: elf.c refuses segments with both. */
	if (pflags & 1)
		return VACCEL_BO_GPU_READ_ONLY;
	if (pflags & 2)
		return VACCEL_BO_GPU_NO_EXEC;
	return VACCEL_BO_GPU_READ_ONLY | VACCEL_BO_GPU_NO_EXEC;
}

/* The image's buffer, mapped segment by segment, and its CPU mapping. */
static int vaccel_module_place(struct vaccel_module *mod,
			       const struct vaccel_elf_image *img, void **cpu)
{
	struct vaccel_bo_range ranges[VACCEL_ELF_MAX_SEGMENTS];
	unsigned int i;
	int ret;

	for (i = 0; i < img->nseg; i++) {
		const struct vaccel_elf_segment *s = &img->seg[i];
		uint64_t start = s->vaddr & ~(VACCEL_PAGE_SIZE - 1);
		uint64_t end = (s->vaddr + s->memsz + VACCEL_PAGE_SIZE - 1) &
			       ~(VACCEL_PAGE_SIZE - 1);

		ranges[i].offset = start - img->base;
		ranges[i].size = end - start;
		ranges[i].flags = vaccel_segment_flags(s->flags);
	}
	ret = vaccel_bo_alloc_ranges(mod->dev, img->size, img->align, ranges,
				     img->nseg, &mod->image);
	if (ret)
		return ret;
	return vaccel_bo_map(mod->image, cpu);
}

static int vaccel_module_print_buffer(struct vaccel_module *mod)
{
	void *cpu;
	int ret;

	ret = vaccel_bo_alloc(mod->dev, VACCEL_MODULE_PRINT_SIZE,
			      VACCEL_BO_GPU_NO_EXEC, &mod->print);
	if (ret)
		return ret;
	ret = vaccel_bo_map(mod->print, &cpu);
	if (ret)
		return ret;
	mod->print_cpu = cpu;
	return 0;
}

/*
 * The stack a kernel's launches get: its need, rounded up to 16 bytes (at
 * least 16), when the module tells it (stack.c), else the default.
 */
static void vaccel_kernel_size_stack(struct vaccel_kernel *k,
				     struct vaccel_stack_graph *graph, uint64_t offset)
{
	struct vaccel_stack_need need = { false, 0 };

	if (graph)
		need = vaccel_stack_graph_need(graph, offset);
	if (need.known) {
		k->stack_need = need.bytes;
		k->flags = VACCEL_KERNEL_STACK_KNOWN;
		k->stack_size = need.bytes < 16 ? 16 : (need.bytes + 15) & ~15u;
	} else {
		k->flags = VACCEL_KERNEL_STACK_DYNAMIC;
		k->stack_size = VACCEL_DEFAULT_STACK_SIZE;
	}
}

static int vaccel_module_kernels(struct vaccel_module *mod,
				 const struct vaccel_elf_image *img)
{
	struct vaccel_stack_graph *graph = NULL;
	uint64_t pos = 0, offset;
	const char *name;
	unsigned int n = 0;

	mod->kernels = calloc(img->nkernels, sizeof(*mod->kernels));
	if (!mod->kernels)
		return -ENOMEM;
	/* Without the call graph (short of memory), the default stacks. */
	if (vaccel_stack_graph_build(img, &graph))
		graph = NULL;
	while (n < img->nkernels && vaccel_elf_next_kernel(img, &pos, &name, &offset)) {
		struct vaccel_kernel *k = &mod->kernels[n];

		k->name = strdup(name);
		if (!k->name) {
			vaccel_stack_graph_free(graph);
			return -ENOMEM;
		}
		k->mod = mod;
		k->entry = vaccel_bo_va(mod->image) + offset;
		vaccel_kernel_size_stack(k, graph, offset);
		mod->nkernels = ++n;
	}
	vaccel_stack_graph_free(graph);
	return 0;
}

static int vaccel_function_cmp(const void *a, const void *b)
{
	const struct vaccel_function *x = a, *y = b;

	return x->start < y->start ? -1 : x->start > y->start;
}

/* The functions of the module's symbol table, by address, for faults. */
static int vaccel_module_functions(struct vaccel_module *mod,
				   const struct vaccel_elf_image *img)
{
	uint64_t pos = 0, offset, size;
	size_t n = 0, bytes = 0, used = 0;
	const char *name;

	while (vaccel_elf_next_function(img, &pos, &name, &offset, &size)) {
		n++;
		bytes += strlen(name) + 1;
	}
	if (!n)
		return 0;
	mod->functions = calloc(n, sizeof(*mod->functions));
	mod->names = malloc(bytes);
	if (!mod->functions || !mod->names)
		return -ENOMEM;
	pos = 0;
	while (mod->nfunctions < n &&
	       vaccel_elf_next_function(img, &pos, &name, &offset, &size)) {
		struct vaccel_function *f = &mod->functions[mod->nfunctions++];
		size_t len = strlen(name) + 1;

		f->start = offset;
		f->size = size;
		f->name = used;
		memcpy(mod->names + used, name, len);
		used += len;
	}
	qsort(mod->functions, mod->nfunctions, sizeof(*mod->functions),
	      vaccel_function_cmp);
	return 0;
}

/* Whether @sec is a metadata section the module keeps. */
static bool vaccel_section_kept(const struct vaccel_elf_section *sec)
{
	return !(sec->flags & SHF_ALLOC) && sec->type != SHT_NOBITS &&
	       !strncmp(sec->name, VACCEL_SECTION_PREFIX, strlen(VACCEL_SECTION_PREFIX));
}

#define VACCEL_ALIGN8(n)	(((n) + 7) & ~(uint64_t)7)

/*
 * Copies the non-allocated ".vaccel." sections of @img into @mod: -E2BIG
 * past VACCEL_MODULE_SECTIONS_MAX bytes of them, -EBADMSG for one whose
 * contents are not in the file, -ENOMEM.
 */
static int vaccel_module_sections(struct vaccel_module *mod,
				  const struct vaccel_elf_image *img,
				  char *msg, size_t msg_size)
{
	struct vaccel_elf_section sec;
	uint64_t data = 0, bytes = 0, name_len;
	unsigned int pos = 0;
	unsigned char *p;

	while (vaccel_elf_next_section(img, &pos, &sec)) {
		if (!vaccel_section_kept(&sec))
			continue;
		if (!sec.in_file)
			return FAIL(-EBADMSG, "section %s lies outside the file", sec.name);
		/* Both bounded by the file, which is far below 2^63 bytes. */
		data += sec.size;
		if (data > VACCEL_MODULE_SECTIONS_MAX)
			return FAIL(-E2BIG, "%s sections of more than %u bytes together",
				    VACCEL_SECTION_PREFIX, VACCEL_MODULE_SECTIONS_MAX);
		bytes += VACCEL_ALIGN8(strlen(sec.name) + 1) + 8 + VACCEL_ALIGN8(sec.size);
	}
	if (!bytes)
		return 0;
	mod->sections = malloc(bytes);
	if (!mod->sections)
		return FAIL(-ENOMEM, "out of memory");
	mod->sections_size = bytes;
	p = mod->sections;
	pos = 0;
	while (vaccel_elf_next_section(img, &pos, &sec)) {
		if (!vaccel_section_kept(&sec))
			continue;
		name_len = strlen(sec.name) + 1;
		memset(p, 0, VACCEL_ALIGN8(name_len));
		memcpy(p, sec.name, name_len);
		p += VACCEL_ALIGN8(name_len);
		memcpy(p, &sec.size, 8);
		p += 8;
		memset(p, 0, VACCEL_ALIGN8(sec.size));
		memcpy(p, img->file + sec.offset, sec.size);
		p += VACCEL_ALIGN8(sec.size);
	}
	return 0;
}

VACCEL_EXPORT int vaccel_module_get_section(const struct vaccel_module *mod,
					    const char *name, const void **data,
					    size_t *size)
{
	const unsigned char *p, *end;
	uint64_t len, name_len;

	if (!mod || !name || !data || !size)
		return -EINVAL;
	p = mod->sections;
	end = p + mod->sections_size;
	while (p && p < end) {
		name_len = strlen((const char *)p) + 1;
		memcpy(&len, p + VACCEL_ALIGN8(name_len), 8);
		if (!strcmp((const char *)p, name)) {
			*data = len ? p + VACCEL_ALIGN8(name_len) + 8 : NULL;
			*size = len;
			return 0;
		}
		p += VACCEL_ALIGN8(name_len) + 8 + VACCEL_ALIGN8(len);
	}
	return -ENOENT;
}

VACCEL_EXPORT int vaccel_module_load(struct vaccel_device *dev, const void *image,
				     size_t size, struct vaccel_module **out,
				     char *msg, size_t msg_size)
{
	const struct drm_vaccel_device_info *info;
	struct vaccel_elf_image img;
	struct vaccel_module *mod;
	void *cpu;
	int ret;

	if (msg && msg_size)
		msg[0] = '\0';
	if (!dev || !image || !out)
		return FAIL(-EINVAL, "no device, image or result");
	info = &dev->info;
	if (!info->max_workgroup_items)
		return FAIL(-ENOTSUP, "the device runs no kernels (uapi %u.%u, kernels need 1.4)",
			    info->uapi_major, info->uapi_minor);

	ret = vaccel_elf_parse(image, size, &img, msg, msg_size);
	if (ret)
		return ret;
	if (img.local_size > info->max_local_size)
		return FAIL(-E2BIG, "%" PRIu64 " bytes of local memory, above the device's %u",
			    img.local_size, info->max_local_size);
	if (info->max_bo_size && img.size > info->max_bo_size)
		return FAIL(-E2BIG, "an image of %" PRIu64 " bytes, above the device's largest buffer",
			    img.size);

	mod = calloc(1, sizeof(*mod));
	if (!mod)
		return FAIL(-ENOMEM, "out of memory");
	mod->dev = dev;
	mod->local_size = img.local_size;
	ret = vaccel_module_sections(mod, &img, msg, msg_size);
	if (ret)
		goto err_free;

	ret = vaccel_module_place(mod, &img, &cpu);
	if (ret) {
		FAIL(ret, "cannot place the image (%" PRIu64 " bytes): %s", img.size,
		     strerror(-ret));
		goto err_free;
	}
	vaccel_elf_place(&img, cpu, vaccel_bo_va(mod->image), info->local_base);
	if (img.has_print) {
		ret = vaccel_module_print_buffer(mod);
		if (ret) {
			FAIL(ret, "cannot allocate the print buffer: %s", strerror(-ret));
			goto err_free;
		}
		vaccel_elf_put64(&img, cpu, img.print_vaddr, vaccel_bo_va(mod->print));
		vaccel_elf_put64(&img, cpu, img.print_vaddr + 8,
				 VACCEL_MODULE_PRINT_SIZE - VACCEL_PRINT_HEADER);
	}
	ret = vaccel_module_kernels(mod, &img);
	if (!ret)
		ret = vaccel_module_functions(mod, &img);
	if (ret) {
		FAIL(ret, "out of memory");
		goto err_free;
	}
	mod->link_base = img.base;
	vaccel_module_register(mod);
	*out = mod;
	return 0;

err_free:
	vaccel_module_free(mod);
	return ret;
}

VACCEL_EXPORT int vaccel_module_load_file(struct vaccel_device *dev, const char *path,
					  struct vaccel_module **out, char *msg,
					  size_t msg_size)
{
	size_t size, done = 0;
	unsigned char *buf;
	struct stat st;
	ssize_t n;
	int fd, ret;

	if (msg && msg_size)
		msg[0] = '\0';
	if (!dev || !path || !out)
		return FAIL(-EINVAL, "no device, path or result");
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		ret = -errno;
		return FAIL(ret, "%s: %s", path, strerror(-ret));
	}
	if (fstat(fd, &st)) {
		ret = -errno;
		FAIL(ret, "%s: %s", path, strerror(-ret));
		goto out_close;
	}
	if (!S_ISREG(st.st_mode)) {
		ret = FAIL(-EINVAL, "%s: not a regular file", path);
		goto out_close;
	}
	if ((uint64_t)st.st_size > VACCEL_MODULE_MAX_FILE) {
		ret = FAIL(-EFBIG, "%s: a file of %jd bytes, above 1 GiB", path,
			   (intmax_t)st.st_size);
		goto out_close;
	}
	size = st.st_size;
	buf = malloc(size ? size : 1);
	if (!buf) {
		ret = FAIL(-ENOMEM, "%s: out of memory", path);
		goto out_close;
	}
	while (done < size) {
		n = read(fd, buf + done, size - done);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			ret = -errno;
			FAIL(ret, "%s: %s", path, strerror(-ret));
			goto out_free;
		}
		if (!n)
			break;
		done += n;
	}
	ret = vaccel_module_load(dev, buf, done, out, msg, msg_size);
out_free:
	free(buf);
out_close:
	close(fd);
	return ret;
}

VACCEL_EXPORT void vaccel_module_destroy(struct vaccel_module *mod)
{
	if (mod)
		vaccel_module_free(mod);
}

VACCEL_EXPORT int vaccel_module_get_info(const struct vaccel_module *mod,
					 struct vaccel_module_info *out)
{
	if (!mod || !out)
		return -EINVAL;
	memset(out, 0, sizeof(*out));
	out->va = vaccel_bo_va(mod->image);
	out->size = vaccel_bo_size(mod->image);
	out->local_size = mod->local_size;
	out->kernel_count = mod->nkernels;
	out->prints = mod->print != NULL;
	return 0;
}

/*
 * The print buffer: a header of two 32-bit counters, bytes used and
 * messages dropped, then the text (rt_print.c).  The device only reserves
 * bytes for messages that fit, so [0, used) is all text.
 */
VACCEL_EXPORT int vaccel_module_read_print(struct vaccel_module *mod, char *buf,
					   size_t size)
{
	uint32_t used, dropped, cap = VACCEL_MODULE_PRINT_SIZE - VACCEL_PRINT_HEADER;
	uint32_t *hdr;
	size_t n;

	if (!mod || !buf || !size)
		return -EINVAL;
	buf[0] = '\0';
	if (!mod->print)
		return 0;
	hdr = (uint32_t *)mod->print_cpu;
	used = __atomic_load_n(&hdr[0], __ATOMIC_ACQUIRE);
	dropped = __atomic_load_n(&hdr[1], __ATOMIC_RELAXED);
	if (used > cap)
		used = cap;
	if (mod->print_read > used)
		mod->print_read = used;

	n = used - mod->print_read;
	if (n > size - 1)
		n = size - 1;
	memcpy(buf, mod->print_cpu + VACCEL_PRINT_HEADER + mod->print_read, n);
	mod->print_read += n;
	if (mod->print_read == used) {
		/*
		 * All read: the buffer starts over, and says what it lost.  A
		 * note that does not fit after the text waits for the next
		 * call; one that does not fit an empty @buf is cut short, so
		 * that every call makes progress, however small @buf.
		 */
		if (dropped) {
			char note[96];
			size_t len;

			len = snprintf(note, sizeof(note),
				       "[vaccel_printf: %" PRIu32 " messages dropped, the buffer was full]\n",
				       dropped);
			if (len > size - 1 - n && !n)
				len = size - 1;
			if (len <= size - 1 - n) {
				memcpy(buf + n, note, len);
				n += len;
				dropped = 0;
			}
		}
		if (!dropped) {
			__atomic_store_n(&hdr[1], 0, __ATOMIC_RELAXED);
			__atomic_store_n(&hdr[0], 0, __ATOMIC_RELEASE);
			mod->print_read = 0;
		}
	}
	buf[n] = '\0';
	return n;
}

VACCEL_EXPORT int vaccel_kernel_get(struct vaccel_module *mod, const char *name,
				    struct vaccel_kernel **out)
{
	unsigned int i;

	if (!mod || !name || !out)
		return -EINVAL;
	for (i = 0; i < mod->nkernels; i++) {
		if (!strcmp(mod->kernels[i].name, name)) {
			*out = &mod->kernels[i];
			return 0;
		}
	}
	return -ENOENT;
}

VACCEL_EXPORT int vaccel_module_get_kernel(struct vaccel_module *mod,
					   unsigned int index,
					   struct vaccel_kernel **out)
{
	if (!mod || !out)
		return -EINVAL;
	if (index >= mod->nkernels)
		return -ENOENT;
	*out = &mod->kernels[index];
	return 0;
}

VACCEL_EXPORT int vaccel_kernel_get_info(const struct vaccel_kernel *k,
					 struct vaccel_kernel_info *out)
{
	if (!k || !out)
		return -EINVAL;
	memset(out, 0, sizeof(*out));
	out->name = k->name;
	out->entry_va = k->entry;
	out->local_size = k->mod->local_size;
	out->stack_size = k->stack_size;
	out->stack_need = k->stack_need;
	out->flags = k->flags;
	return 0;
}

VACCEL_EXPORT int vaccel_kernel_set_stack_size(struct vaccel_kernel *k,
					       uint32_t stack_size)
{
	if (!k || !vaccel_stack_size_ok(k->mod->dev, stack_size))
		return -EINVAL;
	k->stack_size = stack_size;
	return 0;
}

/* Bytes of local memory before a launch's dynamic part: 16-byte aligned. */
static uint32_t vaccel_static_local(const struct vaccel_module *mod)
{
	return (mod->local_size + 15) & ~15u;
}

/*
 * The stack and local memory of a launch of @k in workgroups of @wg
 * work-items, in @plan: 0, or -EINVAL or -E2BIG with the reason in
 * vaccel_last_error_message().
 */
static int vaccel_launch_plan(const struct vaccel_queue *q, const struct vaccel_kernel *k,
			      const uint32_t wg[3], const struct vaccel_launch_options *opts,
			      struct vaccel_launch_plan *plan)
{
	const struct drm_vaccel_device_info *info = &q->dev->info;
	uint64_t items = (uint64_t)wg[0] * wg[1] * wg[2], local;
	uint32_t dynamic = opts ? opts->dynamic_local_size : 0;

	plan->stack_size = opts && opts->stack_size ? opts->stack_size : k->stack_size;
	local = k->mod->local_size;
	if (dynamic)
		local = (uint64_t)vaccel_static_local(k->mod) + dynamic;
	if (local > info->max_local_size)
		return vaccel_error(-EINVAL,
				    "kernel %s: %" PRIu64 " bytes of local memory per workgroup (%u of its module, %u dynamic), above the device's %u",
				    k->name, local, k->mod->local_size, dynamic,
				    info->max_local_size);
	plan->local_size = local;
	/* The need known and not overridden: it must fit the device. */
	if (!(opts && opts->stack_size) && k->flags & VACCEL_KERNEL_STACK_KNOWN) {
		if (plan->stack_size > info->max_stack_size)
			return vaccel_error(-E2BIG,
					    "kernel %s needs %u bytes of stack per work-item, above the device's %u",
					    k->name, k->stack_need, info->max_stack_size);
		if (items * plan->stack_size > info->max_private_size)
			return vaccel_error(-E2BIG,
					    "kernel %s needs %u bytes of stack per work-item: %" PRIu64 " work-items need %" PRIu64 " bytes, above the device's %u per workgroup (use workgroups of at most %" PRIu64 " work-items)",
					    k->name, k->stack_need, items,
					    items * plan->stack_size, info->max_private_size,
					    (uint64_t)info->max_private_size / plan->stack_size);
	}
	if (!vaccel_stack_size_ok(q->dev, plan->stack_size))
		return vaccel_error(-EINVAL,
				    "kernel %s: a stack of %u bytes: stacks are multiples of 16 from 16 to %u",
				    k->name, plan->stack_size, info->max_stack_size);
	if (items * plan->stack_size > info->max_private_size)
		return vaccel_error(-EINVAL,
				    "kernel %s: %" PRIu64 " work-items of %u bytes of stack need %" PRIu64 " bytes, above the device's %u per workgroup",
				    k->name, items, plan->stack_size,
				    items * plan->stack_size, info->max_private_size);
	return 0;
}

static int vaccel_launch_record(struct vaccel_queue *q, const struct vaccel_kernel *k,
				const uint32_t grid[3], const uint32_t workgroup[3],
				const void *args, size_t args_size,
				const struct vaccel_launch_plan *plan)
{
	if (q->u)
		return vaccel_uq_launch(q, k, grid, workgroup, args, args_size, plan);
	return vaccel_queue_record_launch(q, k, args, args_size, grid, workgroup, plan);
}

VACCEL_EXPORT int vaccel_launch_ex(struct vaccel_queue *q, const struct vaccel_kernel *k,
				   const uint32_t grid[3], const uint32_t workgroup[3],
				   const void *args, size_t args_size,
				   const struct vaccel_launch_options *opts)
{
	struct vaccel_launch_plan plan = { 0 };
	uint64_t commands;
	unsigned int i;
	int ret;

	if (!q || !k || (!args && args_size) || k->mod->dev != q->dev || !workgroup)
		return -EINVAL;
	vaccel_error_clear();
	if (opts) {
		for (i = 0; i < sizeof(opts->reserved) / sizeof(opts->reserved[0]); i++)
			if (opts->reserved[i])
				return -EINVAL;
		plan.first = opts->first_group;
		plan.count = opts->group_count;
		if (!plan.count && plan.first)
			return -EINVAL;
	}
	ret = vaccel_launch_plan(q, k, workgroup, opts, &plan);
	if (ret)
		return ret;
	vaccel_queue_lock(q);
	ret = vaccel_queue_command_begin(q, &commands);
	if (!ret)
		ret = vaccel_queue_command_end(q, commands,
					       vaccel_launch_record(q, k, grid, workgroup,
								    args, args_size, &plan));
	return vaccel_queue_unlock(q, ret);
}

VACCEL_EXPORT int vaccel_launch(struct vaccel_queue *q, const struct vaccel_kernel *k,
				const uint32_t grid[3], const uint32_t workgroup[3],
				const void *args, size_t args_size)
{
	return vaccel_launch_ex(q, k, grid, workgroup, args, args_size, NULL);
}

/* The loaded module whose image holds @va, or NULL; under the registry lock. */
static struct vaccel_module *vaccel_module_at(struct vaccel_device *dev, uint64_t va)
{
	struct vaccel_module *mod;

	for (mod = dev->modules; mod; mod = mod->next) {
		uint64_t base = vaccel_bo_va(mod->image);

		if (va >= base && va - base < vaccel_bo_size(mod->image))
			return mod;
	}
	return NULL;
}

/* The function of @mod that holds image offset @off, or NULL. */
static const struct vaccel_function *
vaccel_module_function_at(const struct vaccel_module *mod, uint64_t off)
{
	const struct vaccel_function *f = NULL;
	unsigned int lo = 0, hi = mod->nfunctions;

	/* The last function that starts at or below @off. */
	while (lo < hi) {
		unsigned int mid = lo + (hi - lo) / 2;

		if (mod->functions[mid].start <= off) {
			f = &mod->functions[mid];
			lo = mid + 1;
		} else {
			hi = mid;
		}
	}
	/* A symbol without a size holds what lies up to the next one. */
	if (f && f->size && off - f->start >= f->size)
		return NULL;
	return f;
}

static void vaccel_copy_name(char *dst, const char *src, size_t size)
{
	size_t len = strlen(src);

	if (len >= size)
		len = size - 1;
	memcpy(dst, src, len);
	dst[len] = '\0';
}

void vaccel_module_describe(struct vaccel_device *dev, uint32_t module_id,
			    unsigned int kernel, uint64_t entry, uint64_t pc,
			    struct vaccel_fault_info *f, char *kernel_name,
			    char *function_name, size_t name_size)
{
	const struct vaccel_function *fn;
	struct vaccel_module *mod;
	unsigned int i;

	/* A member's queue runs the modules of its unified device. */
	if (dev->parent)
		dev = dev->parent;
	pthread_mutex_lock(&dev->modules_lock);
	if (module_id) {
		for (mod = dev->modules; mod && mod->id != module_id; mod = mod->next)
			;
		if (mod && kernel < mod->nkernels) {
			vaccel_copy_name(kernel_name, mod->kernels[kernel].name, name_size);
			f->kernel = kernel_name;
		}
	} else if (entry && (mod = vaccel_module_at(dev, entry))) {
		for (i = 0; i < mod->nkernels; i++) {
			if (mod->kernels[i].entry == entry) {
				vaccel_copy_name(kernel_name, mod->kernels[i].name,
						 name_size);
				f->kernel = kernel_name;
				break;
			}
		}
	}
	mod = pc ? vaccel_module_at(dev, pc) : NULL;
	if (mod) {
		uint64_t off = pc - vaccel_bo_va(mod->image);

		f->elf_pc = mod->link_base + off;
		fn = vaccel_module_function_at(mod, off);
		if (fn) {
			vaccel_copy_name(function_name, mod->names + fn->name, name_size);
			f->function = function_name;
			f->function_offset = off - fn->start;
		}
	}
	pthread_mutex_unlock(&dev->modules_lock);
}
