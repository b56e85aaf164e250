// SPDX-License-Identifier: MIT
/*
 * Copyright 2026 The vaccel authors
 */

/**
 * DOC: Programs
 *
 * A program is its source, or the binaries it was made from, and for each
 * device of its context the result of the last build: status, options,
 * log, and the module, loaded by vaccel_module_load().  Every device runs
 * the same code, so a program is compiled once and loaded on each.
 *
 * The program binary (CL_PROGRAM_BINARIES) is the module, an ELF file as
 * vaccel-cc links it; clCreateProgramWithBinary() loads it again, and
 * libvaccel's loader checks it as it checks any module.  The kernels'
 * parameters come from the module's ``.vaccel.cl.kernels`` section
 * (vaccel_module_get_section(); its format is in lower.h), which the
 * ICD checks as untrusted input, as it does the binary.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "icd.h"
#include "compiler.h"
#include "cl_abi.h"

bool vcl_program_valid(cl_program p)
{
	return VCL_VALID(p, VCL_MAGIC_PROGRAM);
}

struct vaccel_module *vcl_program_module(cl_program p, cl_device_id d)
{
	int i = vcl_context_device_index(p->ctx, d);

	return i < 0 ? NULL : p->per_device[i].module;
}

/* Where @elf_pc of @p's module on @d is in the source (compiler.c). */
int vcl_program_symbolize(cl_program p, cl_device_id d, uint64_t elf_pc, char *out,
			  size_t out_size)
{
	int i = vcl_context_device_index(p->ctx, d), ret = -ENOENT;

	pthread_mutex_lock(&p->lock);
	if (i >= 0 && p->per_device[i].binary_type == CL_PROGRAM_BINARY_TYPE_EXECUTABLE)
		ret = vcl_symbolize(p->per_device[i].binary, p->per_device[i].binary_size,
				    elf_pc, out, out_size);
	pthread_mutex_unlock(&p->lock);
	return ret;
}

static void vcl_kernels_free(struct vcl_kernel_info *k, cl_uint n)
{
	cl_uint i, j;

	for (i = 0; k && i < n; i++) {
		for (j = 0; k[i].args && j < k[i].num_args; j++) {
			free(k[i].args[j].type_name);
			free(k[i].args[j].name);
		}
		free(k[i].args);
		free(k[i].name);
		free(k[i].vec_type_hint);
		free(k[i].attributes);
	}
	free(k);
}

static void vcl_build_clear(struct vcl_program_device *pd)
{
	vaccel_module_destroy(pd->module);
	free(pd->binary);
	free(pd->log);
	free(pd->options);
	memset(pd, 0, sizeof(*pd));
	pd->status = CL_BUILD_NONE;
}

static cl_program vcl_program_new(cl_context ctx)
{
	cl_program p = calloc(1, sizeof(*p));
	cl_uint i;

	if (!p)
		return NULL;
	p->per_device = calloc(ctx->num_devices, sizeof(*p->per_device));
	if (!p->per_device) {
		free(p);
		return NULL;
	}
	for (i = 0; i < ctx->num_devices; i++)
		p->per_device[i].status = CL_BUILD_NONE;
	p->dispatch = &vcl_dispatch;
	p->magic = VCL_MAGIC_PROGRAM;
	vcl_ref_init(&p->ref);
	pthread_mutex_init(&p->lock, NULL);
	p->ctx = ctx;
	clRetainContext(ctx);
	return p;
}

static void vcl_program_free(cl_program p)
{
	cl_uint i;

	p->magic = 0;
	for (i = 0; i < p->ctx->num_devices; i++)
		vcl_build_clear(&p->per_device[i]);
	vcl_kernels_free(p->kernels, p->num_kernels);
	free(p->per_device);
	free(p->source);
	pthread_mutex_destroy(&p->lock);
	clReleaseContext(p->ctx);
	free(p);
}

CL_API_ENTRY cl_program CL_API_CALL
clCreateProgramWithSource(cl_context ctx, cl_uint count, const char **strings,
			  const size_t *lengths, cl_int *errcode_ret)
{
	cl_program p = NULL;
	cl_int err = CL_SUCCESS;
	size_t total = 0, len, at = 0;
	cl_uint i;

	if (!vcl_context_valid(ctx)) {
		err = CL_INVALID_CONTEXT;
		goto out;
	}
	if (!count || !strings) {
		err = CL_INVALID_VALUE;
		goto out;
	}
	for (i = 0; i < count; i++) {
		if (!strings[i]) {
			err = CL_INVALID_VALUE;
			goto out;
		}
		total += lengths && lengths[i] ? strnlen(strings[i], lengths[i]) :
			strlen(strings[i]);
	}
	p = vcl_program_new(ctx);
	if (!p || !(p->source = malloc(total + 1))) {
		err = CL_OUT_OF_HOST_MEMORY;
		goto out;
	}
	for (i = 0; i < count; i++) {
		len = lengths && lengths[i] ? strnlen(strings[i], lengths[i]) : strlen(strings[i]);
		memcpy(p->source + at, strings[i], len);
		at += len;
	}
	p->source[at] = '\0';
out:
	if (err && p) {
		vcl_program_free(p);
		p = NULL;
	}
	if (errcode_ret)
		*errcode_ret = err;
	return p;
}

/* The next tab-separated field of @line, NUL-terminated in place. */
static char *vcl_field(char **line)
{
	char *f = *line, *tab;

	if (!f)
		return NULL;
	tab = strchr(f, '\t');
	if (tab) {
		*tab = '\0';
		*line = tab + 1;
	} else {
		*line = NULL;
	}
	return f;
}

static bool vcl_number(const char *s, unsigned long long max, unsigned long long *v)
{
	char *end;

	if (!s || !*s || *s == '-')
		return false;
	errno = 0;
	*v = strtoull(s, &end, 10);
	return !*end && !errno && *v <= max;
}

static bool vcl_arg_kind(const char *s, enum vcl_arg_kind *kind)
{
	static const char *const names[] = {
		[VCL_ARG_VALUE] = "value", [VCL_ARG_GLOBAL] = "global",
		[VCL_ARG_CONSTANT] = "constant", [VCL_ARG_LOCAL] = "local",
		[VCL_ARG_BYVAL] = "byval",
	};
	unsigned int i;

	for (i = 0; s && i < sizeof(names) / sizeof(names[0]); i++)
		if (!strcmp(s, names[i])) {
			*kind = i;
			return true;
		}
	return false;
}

static cl_kernel_arg_access_qualifier vcl_access(const char *s)
{
	if (!strcmp(s, "read_only"))
		return CL_KERNEL_ARG_ACCESS_READ_ONLY;
	if (!strcmp(s, "write_only"))
		return CL_KERNEL_ARG_ACCESS_WRITE_ONLY;
	if (!strcmp(s, "read_write"))
		return CL_KERNEL_ARG_ACCESS_READ_WRITE;
	return CL_KERNEL_ARG_ACCESS_NONE;
}

static cl_kernel_arg_type_qualifier vcl_type_qual(const char *s, enum vcl_arg_kind kind)
{
	cl_kernel_arg_type_qualifier q = 0;

	if (strstr(s, "const"))
		q |= CL_KERNEL_ARG_TYPE_CONST;
	if (strstr(s, "restrict"))
		q |= CL_KERNEL_ARG_TYPE_RESTRICT;
	if (strstr(s, "volatile"))
		q |= CL_KERNEL_ARG_TYPE_VOLATILE;
	if (kind == VCL_ARG_CONSTANT)
		q |= CL_KERNEL_ARG_TYPE_CONST;
	return q;
}

/* CL_KERNEL_ATTRIBUTES, as the source would say them. */
static char *vcl_attributes(const struct vcl_kernel_info *k)
{
	char buf[256];
	int n = 0;

	buf[0] = '\0';
	if (k->reqd_wg[0])
		n += snprintf(buf + n, sizeof(buf) - (size_t)n,
			      "reqd_work_group_size(%zu,%zu,%zu)", k->reqd_wg[0],
			      k->reqd_wg[1], k->reqd_wg[2]);
	if (k->wg_hint[0])
		n += snprintf(buf + n, sizeof(buf) - (size_t)n, "%swork_group_size_hint(%zu,%zu,%zu)",
			      n ? " " : "", k->wg_hint[0], k->wg_hint[1], k->wg_hint[2]);
	if (k->vec_type_hint[0])
		snprintf(buf + n, sizeof(buf) - (size_t)n, "%svec_type_hint(%s)", n ? " " : "",
			 k->vec_type_hint);
	return strdup(buf);
}

/*
 * Parses the kernels' metadata of a module (lower.h): untrusted, every
 * field checked.  Return: 0, or -EBADMSG.
 */
static int vcl_parse_kernels(const char *data, size_t size, struct vcl_kernel_info **out,
			     cl_uint *count, bool *prints)
{
	struct vcl_kernel_info *k = NULL, *cur = NULL;
	char *text, *line, *next, *f[12];	/* a record's fields */
	cl_uint n = 0, args_seen = 0;
	unsigned long long v[10];
	int ret = -EBADMSG, i;

	if (!size || memchr(data, '\0', size))
		return -EBADMSG;
	text = strndup(data, size);
	if (!text)
		return -ENOMEM;
	line = text;
	next = strchr(line, '\n');
	if (!next)
		goto out;
	*next = '\0';
	if (strcmp(line, VACCEL_CL_META_MAGIC))
		goto out;
	line = next + 1;
	next = strchr(line, '\n');
	if (!next)
		goto out;
	*next = '\0';
	if (!strcmp(line, "program\t1"))
		*prints = true;
	else if (strcmp(line, "program\t0"))
		goto out;
	for (line = next + 1; *line; line = next + 1) {
		char *rest = line;

		next = strchr(line, '\n');
		if (!next)
			goto out;
		*next = '\0';
		for (i = 0; i < 12; i++)
			f[i] = vcl_field(&rest);
		if (f[0] && !strcmp(f[0], "kernel")) {
			struct vcl_kernel_info *bigger;

			if (cur && args_seen != cur->num_args)
				goto out;
			if (n >= 1024 || !f[1] || !*f[1] || !f[10] || f[11] || rest)
				goto out;
			for (i = 0; i < 8; i++)
				if (!vcl_number(f[2 + i], i == 0 ? 1024 : i == 1 ?
						VACCEL_LAUNCH_MAX_ARGS : UINT32_MAX, &v[i]))
					goto out;
			bigger = realloc(k, (n + 1) * sizeof(*k));
			if (!bigger)
				goto out;
			k = bigger;
			cur = &k[n++];
			memset(cur, 0, sizeof(*cur));
			cur->name = strdup(f[1]);
			cur->num_args = (cl_uint)v[0];
			cur->block_size = (uint32_t)v[1];
			if (cur->block_size < VACCEL_CL_HEADER_SIZE)
				goto out;
			for (i = 0; i < 3; i++) {
				cur->reqd_wg[i] = v[2 + i];
				cur->wg_hint[i] = v[5 + i];
			}
			cur->vec_type_hint = strdup(f[10]);
			cur->args = calloc(cur->num_args + 1, sizeof(*cur->args));
			if (!cur->name || !cur->vec_type_hint || !cur->args)
				goto out;
			cur->attributes = vcl_attributes(cur);
			if (!cur->attributes)
				goto out;
			args_seen = 0;
		} else if (f[0] && !strcmp(f[0], "arg")) {
			struct vcl_arg_info *a;

			if (!cur || args_seen >= cur->num_args || !f[7] || f[8])
				goto out;
			a = &cur->args[args_seen];
			if (!vcl_arg_kind(f[1], &a->kind) ||
			    !vcl_number(f[4], cur->block_size, &v[0]) ||
			    !vcl_number(f[5], cur->block_size, &v[1]) ||
			    v[0] + v[1] > cur->block_size || v[0] < 64)
				goto out;
			a->access = vcl_access(f[2]);
			a->type_qual = vcl_type_qual(f[3], a->kind);
			a->offset = (uint32_t)v[0];
			a->size = (uint32_t)v[1];
			if ((a->kind == VCL_ARG_GLOBAL || a->kind == VCL_ARG_CONSTANT ||
			     a->kind == VCL_ARG_LOCAL) && a->size != 8)
				goto out;
			a->type_name = strdup(f[6]);
			a->name = strdup(f[7]);
			if (!a->type_name || !a->name)
				goto out;
			args_seen++;
		} else {
			goto out;
		}
	}
	if (!cur || args_seen != cur->num_args)
		goto out;
	ret = 0;
out:
	free(text);
	if (ret) {
		vcl_kernels_free(k, n);
		return ret;
	}
	*out = k;
	*count = n;
	return 0;
}

/*
 * Loads @binary on device @i of @p's context; on the first device, also
 * reads the kernels' metadata.  Return: 0, or the reason in the log.
 */
static int vcl_program_load(cl_program p, cl_uint i, char **log)
{
	struct vcl_program_device *pd = &p->per_device[i];
	char msg[VACCEL_MODULE_MSG_SIZE];
	struct vcl_kernel_info *kernels;
	const void *meta;
	size_t meta_size;
	cl_uint count, k;
	bool prints = false;
	int ret;

	ret = vaccel_module_load(p->ctx->devices[i]->dev, pd->binary, pd->binary_size,
				 &pd->module, msg, sizeof(msg));
	if (ret) {
		if (asprintf(log, "error: the module does not load: %s\n",
			     msg[0] ? msg : strerror(-ret)) < 0)
			*log = NULL;
		return ret;
	}
	ret = vaccel_module_get_section(pd->module, VACCEL_CL_META_SECTION, &meta, &meta_size);
	if (!ret)
		ret = vcl_parse_kernels(meta, meta_size, &kernels, &count, &prints);
	if (ret) {
		if (asprintf(log, "error: the module has no valid OpenCL kernel metadata\n") < 0)
			*log = NULL;
		goto err;
	}
	/* Every kernel of the metadata must be one of the module's. */
	for (k = 0; k < count; k++) {
		struct vaccel_kernel *vk;

		if (vaccel_kernel_get(pd->module, kernels[k].name, &vk)) {
			vcl_kernels_free(kernels, count);
			if (asprintf(log, "error: the module lacks kernel %s\n",
				     kernels[k].name) < 0)
				*log = NULL;
			ret = -EBADMSG;
			goto err;
		}
	}
	if (!p->kernels) {
		p->kernels = kernels;
		p->num_kernels = count;
		p->prints = prints;
	} else {
		vcl_kernels_free(kernels, count);
	}
	return 0;
err:
	vaccel_module_destroy(pd->module);
	pd->module = NULL;
	return ret;
}

/*
 * Program binaries: a module (ELF) is an executable; LLVM bitcode is a
 * compiled object; a library is several objects in a container of ours:
 * VCL_LIBRARY_MAGIC, a 32-bit count, then each object's 64-bit size and
 * bytes.
 */
#define VCL_LIBRARY_MAGIC	"VCLLIB1"

static cl_program_binary_type vcl_binary_type(const unsigned char *b, size_t size)
{
	if (size >= 4 && !memcmp(b, "\177ELF", 4))
		return CL_PROGRAM_BINARY_TYPE_EXECUTABLE;
	if (size >= 4 && !memcmp(b, "BC\xc0\xde", 4))
		return CL_PROGRAM_BINARY_TYPE_COMPILED_OBJECT;
	if (size >= sizeof(VCL_LIBRARY_MAGIC) + 4 &&
	    !memcmp(b, VCL_LIBRARY_MAGIC, sizeof(VCL_LIBRARY_MAGIC)))
		return CL_PROGRAM_BINARY_TYPE_LIBRARY;
	return CL_PROGRAM_BINARY_TYPE_NONE;
}

/* The objects to link, in @objs/@sizes (pointers into the binaries). */
struct vcl_objects {
	unsigned int n, cap;
	void **objs;
	size_t *sizes;
};

static int vcl_objects_add(struct vcl_objects *o, void *obj, size_t size)
{
	if (o->n == o->cap) {
		unsigned int cap = o->cap ? o->cap * 2 : 8;
		void **objs = realloc(o->objs, cap * sizeof(*objs));
		size_t *sizes;

		if (!objs)
			return -ENOMEM;
		o->objs = objs;
		sizes = realloc(o->sizes, cap * sizeof(*sizes));
		if (!sizes)
			return -ENOMEM;
		o->sizes = sizes;
		o->cap = cap;
	}
	o->objs[o->n] = obj;
	o->sizes[o->n++] = size;
	return 0;
}

/* Adds a compiled object or a library's objects; -EBADMSG if malformed. */
static int vcl_objects_add_binary(struct vcl_objects *o, unsigned char *b, size_t size)
{
	size_t at = sizeof(VCL_LIBRARY_MAGIC) + 4;
	uint32_t count, i;
	uint64_t len;
	int ret;

	switch (vcl_binary_type(b, size)) {
	case CL_PROGRAM_BINARY_TYPE_COMPILED_OBJECT:
		return vcl_objects_add(o, b, size);
	case CL_PROGRAM_BINARY_TYPE_LIBRARY:
		memcpy(&count, b + sizeof(VCL_LIBRARY_MAGIC), 4);
		for (i = 0; i < count; i++) {
			if (size - at < 8)
				return -EBADMSG;
			memcpy(&len, b + at, 8);
			at += 8;
			if (len > size - at ||
			    vcl_binary_type(b + at, len) != CL_PROGRAM_BINARY_TYPE_COMPILED_OBJECT)
				return -EBADMSG;
			ret = vcl_objects_add(o, b + at, len);
			if (ret)
				return ret;
			at += len;
		}
		return at == size ? 0 : -EBADMSG;
	default:
		return -EBADMSG;
	}
}

/* A library of the objects: the container above, malloc'd. */
static void *vcl_library_make(const struct vcl_objects *o, size_t *size)
{
	size_t total = sizeof(VCL_LIBRARY_MAGIC) + 4, at;
	uint32_t count = o->n;
	uint64_t len;
	unsigned char *b;
	unsigned int i;

	for (i = 0; i < o->n; i++)
		total += 8 + o->sizes[i];
	b = malloc(total);
	if (!b)
		return NULL;
	memcpy(b, VCL_LIBRARY_MAGIC, sizeof(VCL_LIBRARY_MAGIC));
	memcpy(b + sizeof(VCL_LIBRARY_MAGIC), &count, 4);
	at = sizeof(VCL_LIBRARY_MAGIC) + 4;
	for (i = 0; i < o->n; i++) {
		len = o->sizes[i];
		memcpy(b + at, &len, 8);
		memcpy(b + at + 8, o->objs[i], o->sizes[i]);
		at += 8 + o->sizes[i];
	}
	*size = total;
	return b;
}

CL_API_ENTRY cl_program CL_API_CALL
clCreateProgramWithBinary(cl_context ctx, cl_uint num_devices, const cl_device_id *devices,
			  const size_t *lengths, const unsigned char **binaries,
			  cl_int *binary_status, cl_int *errcode_ret)
{
	cl_program p = NULL;
	cl_int err = CL_SUCCESS;
	cl_uint i;
	int idx;

	if (!vcl_context_valid(ctx)) {
		err = CL_INVALID_CONTEXT;
		goto out;
	}
	if (!num_devices || !devices || !lengths || !binaries) {
		err = CL_INVALID_VALUE;
		goto out;
	}
	for (i = 0; i < num_devices; i++) {
		if (!vcl_device_valid(devices[i]) ||
		    vcl_context_device_index(ctx, devices[i]) < 0) {
			err = CL_INVALID_DEVICE;
			goto out;
		}
		if (!lengths[i] || !binaries[i]) {
			err = CL_INVALID_VALUE;
			goto out;
		}
	}
	p = vcl_program_new(ctx);
	if (!p) {
		err = CL_OUT_OF_HOST_MEMORY;
		goto out;
	}
	for (i = 0; i < num_devices; i++) {
		struct vcl_program_device *pd;
		char *log = NULL;

		idx = vcl_context_device_index(ctx, devices[i]);
		pd = &p->per_device[idx];
		pd->binary = malloc(lengths[i]);
		if (!pd->binary) {
			err = CL_OUT_OF_HOST_MEMORY;
			goto out;
		}
		memcpy(pd->binary, binaries[i], lengths[i]);
		pd->binary_size = lengths[i];
		pd->binary_type = vcl_binary_type(pd->binary, pd->binary_size);
		if (pd->binary_type != CL_PROGRAM_BINARY_TYPE_NONE &&
		    pd->binary_type != CL_PROGRAM_BINARY_TYPE_EXECUTABLE) {
			/* Bitcode: checked by the link that takes it. */
			if (binary_status)
				binary_status[i] = CL_SUCCESS;
			continue;
		}
		if (pd->binary_type == CL_PROGRAM_BINARY_TYPE_NONE ||
		    vcl_program_load(p, (cl_uint)idx, &log)) {
			free(log);
			free(pd->binary);
			pd->binary = NULL;
			pd->binary_size = 0;
			pd->binary_type = CL_PROGRAM_BINARY_TYPE_NONE;
			if (binary_status)
				binary_status[i] = CL_INVALID_BINARY;
			err = CL_INVALID_BINARY;
			continue;
		}
		free(log);
		if (binary_status)
			binary_status[i] = CL_SUCCESS;
	}
out:
	if (err && p) {
		vcl_program_free(p);
		p = NULL;
	}
	if (errcode_ret)
		*errcode_ret = err;
	return p;
}

CL_API_ENTRY cl_program CL_API_CALL
clCreateProgramWithBuiltInKernels(cl_context ctx, cl_uint num_devices,
				  const cl_device_id *devices, const char *kernel_names,
				  cl_int *errcode_ret)
{
	cl_int err = vcl_context_valid(ctx) ? CL_INVALID_VALUE : CL_INVALID_CONTEXT;

	/* No device has built-in kernels (CL_DEVICE_BUILT_IN_KERNELS is ""). */
	if (errcode_ret)
		*errcode_ret = err;
	return NULL;
}

CL_API_ENTRY cl_program CL_API_CALL
clCreateProgramWithIL(cl_context ctx, const void *il, size_t length, cl_int *errcode_ret)
{
	/* No device takes an intermediate language (CL_DEVICE_IL_VERSION is ""). */
	if (errcode_ret)
		*errcode_ret = vcl_context_valid(ctx) ? CL_INVALID_OPERATION : CL_INVALID_CONTEXT;
	return NULL;
}

/* The devices a build is for: those given, else all of the context's. */
static cl_int vcl_build_devices(cl_program p, cl_uint num_devices,
				const cl_device_id *devices, bool *which)
{
	cl_uint i;
	int idx;

	if (!num_devices != !devices)
		return CL_INVALID_VALUE;
	for (i = 0; i < p->ctx->num_devices; i++)
		which[i] = !devices;
	for (i = 0; i < num_devices; i++) {
		idx = vcl_device_valid(devices[i]) ?
			vcl_context_device_index(p->ctx, devices[i]) : -1;
		if (idx < 0)
			return CL_INVALID_DEVICE;
		which[idx] = true;
	}
	return CL_SUCCESS;
}

/*
 * Stores the result of a build, compile or link on device @i of @p: the
 * options and the log, and on success (@ret 0) the binary of type @type,
 * loaded when it is an executable.  Return: CL_SUCCESS, or @failure (the
 * entry point's own failure code), or CL_OUT_OF_HOST_MEMORY.
 */
static cl_int vcl_build_store(cl_program p, cl_uint i, const char *options, const char *log,
			      int ret, const void *bin, size_t size,
			      cl_program_binary_type type, cl_int failure)
{
	struct vcl_program_device *pd = &p->per_device[i];
	char *load_log = NULL;

	vcl_build_clear(pd);
	pd->options = strdup(options ? options : "");
	pd->log = strdup(log ? log : "");
	pd->status = CL_BUILD_ERROR;
	if (ret)
		return ret == -ENOMEM ? CL_OUT_OF_HOST_MEMORY : failure;
	pd->binary = malloc(size);
	if (!pd->binary)
		return CL_OUT_OF_HOST_MEMORY;
	memcpy(pd->binary, bin, size);
	pd->binary_size = size;
	pd->binary_type = type;
	if (type == CL_PROGRAM_BINARY_TYPE_EXECUTABLE && vcl_program_load(p, i, &load_log)) {
		free(pd->log);
		pd->log = load_log;
		free(pd->binary);
		pd->binary = NULL;
		pd->binary_size = 0;
		pd->binary_type = CL_PROGRAM_BINARY_TYPE_NONE;
		return failure;
	}
	free(load_log);
	pd->status = CL_BUILD_SUCCESS;
	return CL_SUCCESS;
}

CL_API_ENTRY cl_int CL_API_CALL
clBuildProgram(cl_program p, cl_uint num_devices, const cl_device_id *devices,
	       const char *options, void (CL_CALLBACK *notify)(cl_program, void *),
	       void *user_data)
{
	bool which[16];
	void *elf = NULL;
	size_t elf_size = 0;
	char *log = NULL, **words;
	cl_int err;
	cl_uint i;
	int count, ret;

	if (!vcl_program_valid(p))
		return CL_INVALID_PROGRAM;
	if (!notify && user_data)
		return CL_INVALID_VALUE;
	if (p->ctx->num_devices > 16)
		return CL_OUT_OF_RESOURCES;
	err = vcl_build_devices(p, num_devices, devices, which);
	if (err)
		return err;
	words = vcl_options_split(options, &count);
	if (!words)
		return CL_OUT_OF_HOST_MEMORY;
	if (vcl_options_check(words, count, false)) {
		vcl_options_free(words, count);
		return CL_INVALID_BUILD_OPTIONS;
	}
	pthread_mutex_lock(&p->lock);
	if (p->kernels_attached) {
		err = CL_INVALID_OPERATION;
		goto out;
	}
	if (!p->source) {
		/* From binaries: each device given must have one, loaded. */
		for (i = 0; i < p->ctx->num_devices; i++) {
			if (!which[i])
				continue;
			if (!p->per_device[i].module) {
				err = CL_INVALID_BINARY;
				goto out;
			}
			p->per_device[i].status = CL_BUILD_SUCCESS;
			free(p->per_device[i].options);
			p->per_device[i].options = strdup(options ? options : "");
		}
		goto out;
	}
	ret = vcl_compile(p->source, options, words, count, &elf, &elf_size, &log);
	vcl_kernels_free(p->kernels, p->num_kernels);
	p->kernels = NULL;
	p->num_kernels = 0;
	p->prints = false;
	for (i = 0; i < p->ctx->num_devices; i++) {
		cl_int e;

		if (!which[i])
			continue;
		e = vcl_build_store(p, i, options, log, ret, elf, elf_size,
				    CL_PROGRAM_BINARY_TYPE_EXECUTABLE, CL_BUILD_PROGRAM_FAILURE);
		if (e)
			err = e;
	}
out:
	pthread_mutex_unlock(&p->lock);
	vcl_options_free(words, count);
	free(elf);
	free(log);
	if (notify)
		notify(p, user_data);
	return err;
}

CL_API_ENTRY cl_int CL_API_CALL
clRetainProgram(cl_program p)
{
	if (!vcl_program_valid(p))
		return CL_INVALID_PROGRAM;
	vcl_ref_get(&p->ref);
	return CL_SUCCESS;
}

CL_API_ENTRY cl_int CL_API_CALL
clReleaseProgram(cl_program p)
{
	if (!vcl_program_valid(p))
		return CL_INVALID_PROGRAM;
	if (vcl_ref_put(&p->ref))
		vcl_program_free(p);
	return CL_SUCCESS;
}

/* True once some device has an executable. */
static bool vcl_program_built(cl_program p)
{
	cl_uint i;

	for (i = 0; i < p->ctx->num_devices; i++)
		if (p->per_device[i].module)
			return true;
	return false;
}

static cl_int vcl_kernel_names(cl_program p, size_t param_value_size, void *param_value,
			       size_t *param_value_size_ret)
{
	size_t len = 1;
	cl_uint i;
	char *names;
	cl_int err;

	for (i = 0; i < p->num_kernels; i++)
		len += strlen(p->kernels[i].name) + 1;
	names = calloc(1, len);
	if (!names)
		return CL_OUT_OF_HOST_MEMORY;
	for (i = 0; i < p->num_kernels; i++) {
		if (i)
			strcat(names, ";");
		strcat(names, p->kernels[i].name);
	}
	err = vcl_info_string(names, param_value_size, param_value, param_value_size_ret);
	free(names);
	return err;
}

CL_API_ENTRY cl_int CL_API_CALL
clGetProgramInfo(cl_program p, cl_program_info param_name, size_t param_value_size,
		 void *param_value, size_t *param_value_size_ret)
{
	size_t sizes[16], n;
	cl_bool b = CL_FALSE;
	cl_uint i, u;
	cl_int err = CL_SUCCESS;

	if (!vcl_program_valid(p))
		return CL_INVALID_PROGRAM;
	n = p->ctx->num_devices < 16 ? p->ctx->num_devices : 16;
	pthread_mutex_lock(&p->lock);
	switch (param_name) {
	case CL_PROGRAM_REFERENCE_COUNT:
		u = atomic_load(&p->ref.count);
		err = VCL_INFO(u);
		break;
	case CL_PROGRAM_CONTEXT:
		err = VCL_INFO(p->ctx);
		break;
	case CL_PROGRAM_NUM_DEVICES:
		err = VCL_INFO(p->ctx->num_devices);
		break;
	case CL_PROGRAM_DEVICES:
		err = vcl_info(p->ctx->devices, p->ctx->num_devices * sizeof(cl_device_id),
			       param_value_size, param_value, param_value_size_ret);
		break;
	case CL_PROGRAM_SOURCE:
		err = VCL_INFO_STR(p->source ? p->source : "");
		break;
	case CL_PROGRAM_IL:
		err = vcl_info(NULL, 0, param_value_size, param_value, param_value_size_ret);
		break;
	case CL_PROGRAM_BINARY_SIZES:
		for (i = 0; i < n; i++)
			sizes[i] = p->per_device[i].binary_size;
		err = vcl_info(sizes, n * sizeof(size_t), param_value_size, param_value,
			       param_value_size_ret);
		break;
	case CL_PROGRAM_BINARIES:
		if (param_value) {
			unsigned char **bins = param_value;

			if (param_value_size < n * sizeof(*bins)) {
				err = CL_INVALID_VALUE;
				break;
			}
			/* A NULL entry: that device's binary is not wanted. */
			for (i = 0; i < n; i++)
				if (bins[i] && p->per_device[i].binary_size)
					memcpy(bins[i], p->per_device[i].binary,
					       p->per_device[i].binary_size);
		}
		if (param_value_size_ret)
			*param_value_size_ret = n * sizeof(unsigned char *);
		break;
	case CL_PROGRAM_NUM_KERNELS:
		if (!vcl_program_built(p)) {
			err = CL_INVALID_PROGRAM_EXECUTABLE;
			break;
		}
		n = p->num_kernels;
		err = VCL_INFO(n);
		break;
	case CL_PROGRAM_KERNEL_NAMES:
		if (!vcl_program_built(p)) {
			err = CL_INVALID_PROGRAM_EXECUTABLE;
			break;
		}
		err = vcl_kernel_names(p, param_value_size, param_value, param_value_size_ret);
		break;
	case CL_PROGRAM_SCOPE_GLOBAL_CTORS_PRESENT:
	case CL_PROGRAM_SCOPE_GLOBAL_DTORS_PRESENT:
		err = VCL_INFO(b);
		break;
	default:
		err = CL_INVALID_VALUE;
		break;
	}
	pthread_mutex_unlock(&p->lock);
	return err;
}

CL_API_ENTRY cl_int CL_API_CALL
clGetProgramBuildInfo(cl_program p, cl_device_id d, cl_program_build_info param_name,
		      size_t param_value_size, void *param_value,
		      size_t *param_value_size_ret)
{
	struct vcl_program_device *pd;
	size_t zero = 0;
	cl_int err;
	int i;

	if (!vcl_program_valid(p))
		return CL_INVALID_PROGRAM;
	i = vcl_device_valid(d) ? vcl_context_device_index(p->ctx, d) : -1;
	if (i < 0)
		return CL_INVALID_DEVICE;
	pthread_mutex_lock(&p->lock);
	pd = &p->per_device[i];
	switch (param_name) {
	case CL_PROGRAM_BUILD_STATUS:
		err = VCL_INFO(pd->status);
		break;
	case CL_PROGRAM_BUILD_OPTIONS:
		err = VCL_INFO_STR(pd->options ? pd->options : "");
		break;
	case CL_PROGRAM_BUILD_LOG:
		err = VCL_INFO_STR(pd->log ? pd->log : "");
		break;
	case CL_PROGRAM_BINARY_TYPE:
		err = VCL_INFO(pd->binary_type);
		break;
	case CL_PROGRAM_BUILD_GLOBAL_VARIABLE_TOTAL_SIZE:
		err = VCL_INFO(zero);
		break;
	default:
		err = CL_INVALID_VALUE;
		break;
	}
	pthread_mutex_unlock(&p->lock);
	return err;
}

CL_API_ENTRY cl_int CL_API_CALL
clSetProgramReleaseCallback(cl_program p, void (CL_CALLBACK *fn)(cl_program, void *),
			    void *user_data)
{
	/* No program has global destructors: the specification's answer. */
	return vcl_program_valid(p) ? CL_INVALID_OPERATION : CL_INVALID_PROGRAM;
}

CL_API_ENTRY cl_int CL_API_CALL
clSetProgramSpecializationConstant(cl_program p, cl_uint spec_id, size_t spec_size,
				   const void *spec_value)
{
	/*
	 * Only programs made from IL have them, and no device here takes
	 * IL: the specification's answer is CL_INVALID_OPERATION.
	 */
	return vcl_program_valid(p) ? CL_INVALID_OPERATION : CL_INVALID_PROGRAM;
}

CL_API_ENTRY cl_int CL_API_CALL
clCompileProgram(cl_program p, cl_uint num_devices, const cl_device_id *devices,
		 const char *options, cl_uint num_headers, const cl_program *headers,
		 const char **header_names, void (CL_CALLBACK *notify)(cl_program, void *),
		 void *user_data)
{
	const char **texts = NULL;
	bool which[16];
	void *bc = NULL;
	size_t bc_size = 0;
	char *log = NULL, **words;
	cl_int err;
	cl_uint i;
	int count, ret;

	if (!vcl_program_valid(p))
		return CL_INVALID_PROGRAM;
	if ((!notify && user_data) || (!num_headers != !headers) ||
	    (!num_headers != !header_names))
		return CL_INVALID_VALUE;
	if (p->ctx->num_devices > 16)
		return CL_OUT_OF_RESOURCES;
	err = vcl_build_devices(p, num_devices, devices, which);
	if (err)
		return err;
	if (!p->source)
		return CL_INVALID_OPERATION;
	texts = calloc(num_headers + 1, sizeof(*texts));
	if (!texts)
		return CL_OUT_OF_HOST_MEMORY;
	for (i = 0; i < num_headers; i++) {
		if (!vcl_program_valid(headers[i]) || !headers[i]->source || !header_names[i]) {
			free(texts);
			return CL_INVALID_VALUE;
		}
		texts[i] = headers[i]->source;
	}
	words = vcl_options_split(options, &count);
	if (!words) {
		free(texts);
		return CL_OUT_OF_HOST_MEMORY;
	}
	if (vcl_options_check(words, count, false)) {
		vcl_options_free(words, count);
		free(texts);
		return CL_INVALID_COMPILER_OPTIONS;
	}
	pthread_mutex_lock(&p->lock);
	if (p->kernels_attached) {
		err = CL_INVALID_OPERATION;
		goto out;
	}
	ret = vcl_compile_object(p->source, words, count, num_headers, texts,
				 (const char *const *)header_names, &bc, &bc_size, &log);
	if (ret == -EINVAL) {
		err = CL_INVALID_VALUE;
		goto out;
	}
	for (i = 0; i < p->ctx->num_devices; i++) {
		cl_int e;

		if (!which[i])
			continue;
		e = vcl_build_store(p, i, options, log, ret, bc, bc_size,
				    CL_PROGRAM_BINARY_TYPE_COMPILED_OBJECT,
				    CL_COMPILE_PROGRAM_FAILURE);
		if (e)
			err = e;
	}
out:
	pthread_mutex_unlock(&p->lock);
	vcl_options_free(words, count);
	free(texts);
	free(bc);
	free(log);
	if (notify)
		notify(p, user_data);
	return err;
}

CL_API_ENTRY cl_program CL_API_CALL
clLinkProgram(cl_context ctx, cl_uint num_devices, const cl_device_id *devices,
	      const char *options, cl_uint num_programs, const cl_program *programs,
	      void (CL_CALLBACK *notify)(cl_program, void *), void *user_data,
	      cl_int *errcode_ret)
{
	struct vcl_objects objs = { 0 };
	bool which[16], library = false;
	cl_program p = NULL;
	void *out = NULL;
	size_t out_size = 0;
	char *log = NULL, **words = NULL;
	cl_int err = CL_SUCCESS;
	cl_uint i, j;
	int count = 0, ret;

	if (!vcl_context_valid(ctx)) {
		err = CL_INVALID_CONTEXT;
		goto out;
	}
	if ((!notify && user_data) || !num_programs || !programs ||
	    ctx->num_devices > 16) {
		err = CL_INVALID_VALUE;
		goto out;
	}
	for (i = 0; i < num_programs; i++)
		if (!vcl_program_valid(programs[i]) || programs[i]->ctx != ctx) {
			err = CL_INVALID_PROGRAM;
			goto out;
		}
	words = vcl_options_split(options, &count);
	if (!words) {
		err = CL_OUT_OF_HOST_MEMORY;
		goto out;
	}
	if (vcl_options_check(words, count, true)) {
		err = CL_INVALID_LINKER_OPTIONS;
		goto out;
	}
	for (i = 0; i < (cl_uint)count; i++)
		if (!strcmp(words[i], "-create-library"))
			library = true;
	p = vcl_program_new(ctx);
	if (!p) {
		err = CL_OUT_OF_HOST_MEMORY;
		goto out;
	}
	err = vcl_build_devices(p, num_devices, devices, which);
	if (err)
		goto out;
	/* Every device runs the same code: the first device's objects. */
	for (i = 0; i < ctx->num_devices && !objs.n; i++) {
		if (!which[i])
			continue;
		for (j = 0; j < num_programs; j++) {
			struct vcl_program_device *pd = &programs[j]->per_device[i];

			if (pd->binary_type != CL_PROGRAM_BINARY_TYPE_COMPILED_OBJECT &&
			    pd->binary_type != CL_PROGRAM_BINARY_TYPE_LIBRARY) {
				err = CL_INVALID_OPERATION;
				goto out;
			}
			ret = vcl_objects_add_binary(&objs, pd->binary, pd->binary_size);
			if (ret) {
				err = ret == -ENOMEM ? CL_OUT_OF_HOST_MEMORY : CL_INVALID_PROGRAM;
				goto out;
			}
		}
	}
	if (!objs.n) {
		err = CL_INVALID_OPERATION;
		goto out;
	}
	if (library) {
		out = vcl_library_make(&objs, &out_size);
		ret = out ? 0 : -ENOMEM;
		log = strdup("");
	} else {
		ret = vcl_link(objs.n, objs.objs, objs.sizes, words, count, &out, &out_size, &log);
	}
	for (i = 0; i < ctx->num_devices; i++) {
		cl_int e;

		if (!which[i])
			continue;
		e = vcl_build_store(p, i, options, log, ret, out, out_size,
				    library ? CL_PROGRAM_BINARY_TYPE_LIBRARY :
				    CL_PROGRAM_BINARY_TYPE_EXECUTABLE, CL_LINK_PROGRAM_FAILURE);
		if (e)
			err = e;
	}
out:
	free(objs.objs);
	free(objs.sizes);
	free(out);
	free(log);
	vcl_options_free(words, count);
	/* A failed link still gives a program, for its log. */
	if (p && err && err != CL_LINK_PROGRAM_FAILURE) {
		vcl_program_free(p);
		p = NULL;
	}
	if (p && notify)
		notify(p, user_data);
	if (errcode_ret)
		*errcode_ret = err;
	return p;
}
