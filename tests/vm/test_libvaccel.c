// SPDX-License-Identifier: MIT
/*
 * Copyright 2026 The vaccel authors
 *
 * test_libvaccel.c - libvaccel against the real module: opening by index
 * and by path, the cached information against raw queries, error returns,
 * device ordering by accel minor, and the vaccel-info tool.
 *
 * vaccel-info is run from $VT_BIN if set, else found in $PATH.
 */
#include <poll.h>
#include <pthread.h>

#include <vaccel.h>

#include "vt_util.h"

/* get_info of @dev matches a raw query on its descriptor. */
static void check_info(struct vaccel_device *dev)
{
	struct drm_vaccel_device_info raw;
	struct vaccel_device_info info;
	unsigned int i;

	vt_device_info(vaccel_device_fd(dev), &raw);
	memset(&info, 0xaa, sizeof(info));
	VT_ASSERT_OK(vaccel_device_get_info(dev, &info));
	VT_ASSERT_EQ(info.uapi_major, raw.uapi_major);
	VT_ASSERT_EQ(info.uapi_minor, raw.uapi_minor);
	VT_ASSERT_EQ(info.device_index, raw.device_index);
	VT_ASSERT_EQ(info.flags, raw.flags);
	VT_ASSERT_EQ(info.single_use, !!(raw.flags & DRM_VACCEL_DEVICE_SINGLE_USE));
	for (i = 0; i < VACCEL_MAX_ENGINE_CLASSES; i++)
		VT_ASSERT_EQ(info.engine_count[i], raw.engine_count[i]);
	VT_ASSERT_EQ(info.engines_total, raw.engines_total);
	VT_ASSERT_EQ(info.hw_queue_depth, raw.hw_queue_depth);
	VT_ASSERT_EQ(info.va_bits, raw.va_bits);
	VT_ASSERT_EQ(info.page_size, raw.page_size);
	VT_ASSERT(info.va_start == raw.va_start);
	VT_ASSERT(info.va_end == raw.va_end);
	VT_ASSERT(info.max_bo_size == raw.max_bo_size);
	VT_ASSERT_EQ(info.max_bind_ops, raw.max_bind_ops);
	VT_ASSERT_EQ(info.max_bos_per_file, raw.max_bos_per_file);
	VT_ASSERT(info.driver_name && !strcmp(info.driver_name, "vaccel"));
	VT_ASSERT(info.driver_desc && strlen(info.driver_desc) > 0);
	VT_ASSERT_EQ(info.driver_major, DRM_VACCEL_UAPI_MAJOR);
	VT_ASSERT(info.hang_timeout_ns == raw.hang_timeout_ns);
	VT_ASSERT(info.time_limit_ns == raw.time_limit_ns);
	VT_ASSERT(info.time_limit_ns >= 100000000ull);
}

static unsigned int node_minor(const char *path)
{
	const char *p = strrchr(path, '/');

	VT_ASSERT(p && !strncmp(p + 1, "accel", 5));
	return strtoul(p + 6, NULL, 10);
}

/* Every index opens, in accel minor order, with the right information. */
VTEST(open_index)
{
	long long devices = vt_expect("VT_DEVICES", "devices");
	struct vaccel_device *dev;
	unsigned int prev = 0;
	int i;

	VT_ASSERT_EQ(vaccel_device_count(), devices);
	for (i = 0; i < devices; i++) {
		VT_ASSERT_OK(vaccel_device_open(i, &dev));
		VT_ASSERT(vaccel_device_fd(dev) >= 0);
		VT_ASSERT(vaccel_device_path(dev));
		VT_ASSERT(!i || node_minor(vaccel_device_path(dev)) > prev);
		prev = node_minor(vaccel_device_path(dev));
		check_info(dev);
		vaccel_device_close(dev);
	}
}

/* Opening the path of device 0 gives the same device. */
VTEST(open_path)
{
	struct vaccel_device *a, *b;
	struct vaccel_device_info ia, ib;
	char path[PATH_MAX];

	VT_ASSERT_OK(vaccel_device_open(0, &a));
	snprintf(path, sizeof(path), "%s", vaccel_device_path(a));
	VT_ASSERT_OK(vaccel_device_get_info(a, &ia));
	vaccel_device_close(a);

	VT_ASSERT_OK(vaccel_device_open_path(path, &b));
	VT_ASSERT(!strcmp(vaccel_device_path(b), path));
	VT_ASSERT_OK(vaccel_device_get_info(b, &ib));
	VT_ASSERT_EQ(ia.device_index, ib.device_index);
	check_info(b);
	vaccel_device_close(b);
}

/* Index count and beyond: -ENODEV, and *out is left alone. */
VTEST(open_index_out_of_range)
{
	struct vaccel_device *dev = (struct vaccel_device *)&dev;
	int n = vaccel_device_count();

	VT_ASSERT(n > 0);
	VT_ASSERT_EQ(vaccel_device_open(n, &dev), -ENODEV);
	VT_ASSERT_EQ(vaccel_device_open(UINT32_MAX, &dev), -ENODEV);
	VT_ASSERT(dev == (struct vaccel_device *)&dev);
	VT_ASSERT_EQ(vaccel_device_open(0, NULL), -EINVAL);
}

/* Paths that are not vaccel devices. */
VTEST(open_path_errors)
{
	struct vaccel_device *dev = NULL;

	VT_ASSERT_EQ(vaccel_device_open_path("/dev/null", &dev), -ENODEV);
	VT_ASSERT_EQ(vaccel_device_open_path("/nonexistent", &dev), -ENOENT);
	VT_ASSERT_EQ(vaccel_device_open_path("/", &dev), -EISDIR);
	VT_ASSERT_EQ(vaccel_device_open_path(NULL, &dev), -EINVAL);
	VT_ASSERT_EQ(vaccel_device_open_path("/dev/null", NULL), -EINVAL);
	VT_ASSERT(!dev);
}

/* NULL handles are harmless. */
VTEST(null_handles)
{
	struct vaccel_device_info info;
	struct vaccel_engine_info e;
	uint32_t size = 0;

	vaccel_device_close(NULL);
	VT_ASSERT_EQ(vaccel_device_fd(NULL), -EINVAL);
	VT_ASSERT(!vaccel_device_path(NULL));
	VT_ASSERT_EQ(vaccel_device_get_info(NULL, &info), -EINVAL);
	VT_ASSERT_EQ(vaccel_device_engine_count(NULL), -EINVAL);
	VT_ASSERT_EQ(vaccel_device_get_engine(NULL, 0, &e), -EINVAL);
	VT_ASSERT_EQ(vaccel_device_query(NULL, DRM_VACCEL_QUERY_DEVICE, NULL, &size),
		     -EINVAL);
}

/* The engines match the raw list, with the kernel's stride. */
VTEST(engines)
{
	struct drm_vaccel_engine_list *list;
	struct vaccel_device_info info;
	struct vaccel_engine_info e;
	struct vaccel_device *dev;
	unsigned int i;
	__u32 size;

	VT_ASSERT_OK(vaccel_device_open(0, &dev));
	VT_ASSERT_OK(vaccel_device_get_info(dev, &info));
	list = vt_engine_list(vaccel_device_fd(dev), &size);
	VT_ASSERT_EQ(vaccel_device_engine_count(dev), info.engines_total);
	VT_ASSERT_EQ(vaccel_device_engine_count(dev), list->count);
	for (i = 0; i < list->count; i++) {
		struct drm_vaccel_engine_info *raw = vt_engine(list, i);

		VT_ASSERT_OK(vaccel_device_get_engine(dev, i, &e));
		VT_ASSERT_EQ(e.engine_class, raw->engine_class);
		VT_ASSERT_EQ(e.instance, raw->instance);
		VT_ASSERT_EQ(e.hw_queue_depth, raw->hw_queue_depth);
		VT_ASSERT_EQ(e.preempt_caps, raw->preempt_caps);
		VT_ASSERT_EQ(e.preempt_granularity, raw->preempt_granularity);
		VT_ASSERT_EQ(e.compute_units, raw->compute_units);
		/* Compute engines have 1 to 8 units, the others none. */
		if (e.engine_class == VACCEL_ENGINE_CLASS_COMPUTE)
			VT_ASSERT(e.compute_units >= 1 && e.compute_units <= 8);
		else
			VT_ASSERT_EQ(e.compute_units, 0);
		VT_ASSERT(vaccel_engine_class_name(e.engine_class));
		VT_ASSERT(vaccel_preempt_granularity_name(e.preempt_granularity));
	}
	VT_ASSERT_EQ(vaccel_device_get_engine(dev, list->count, &e), -ENOENT);
	VT_ASSERT_EQ(vaccel_device_get_engine(dev, 0, NULL), -EINVAL);
	vaccel_device_close(dev);
}

/* The raw query negotiates sizes and passes kernel errors through. */
VTEST(query_raw)
{
	struct drm_vaccel_device_info raw, info;
	struct vaccel_device *dev;
	uint32_t size = 0;

	VT_ASSERT_OK(vaccel_device_open(0, &dev));
	VT_ASSERT_OK(vaccel_device_query(dev, DRM_VACCEL_QUERY_DEVICE, NULL, &size));
	VT_ASSERT_EQ(size, sizeof(info));
	VT_ASSERT_OK(vaccel_device_query(dev, DRM_VACCEL_QUERY_DEVICE, &info, &size));
	vt_device_info(vaccel_device_fd(dev), &raw);
	VT_ASSERT(!memcmp(&info, &raw, sizeof(raw)));

	size = 1234;
	VT_ASSERT_EQ(vaccel_device_query(dev, 0xffffffff, &info, &size), -EINVAL);
	VT_ASSERT_EQ(size, 1234);
	size = sizeof(info);
	VT_ASSERT_EQ(vaccel_device_query(dev, DRM_VACCEL_QUERY_DEVICE, NULL, &size),
		     -EFAULT);
	VT_ASSERT_EQ(vaccel_device_query(dev, DRM_VACCEL_QUERY_DEVICE, &info, NULL),
		     -EINVAL);
	vaccel_device_close(dev);
}

/* Names of classes and granularities, NULL beyond. */
VTEST(names)
{
	VT_ASSERT(!strcmp(vaccel_engine_class_name(VACCEL_ENGINE_CLASS_COMPUTE),
			  "compute"));
	VT_ASSERT(!strcmp(vaccel_engine_class_name(VACCEL_ENGINE_CLASS_COPY), "copy"));
	VT_ASSERT(!strcmp(vaccel_engine_class_name(VACCEL_ENGINE_CLASS_PAGING),
			  "paging"));
	VT_ASSERT(!vaccel_engine_class_name(3));
	VT_ASSERT(!vaccel_engine_class_name(~0u));
	VT_ASSERT(!strcmp(vaccel_preempt_granularity_name(VACCEL_PREEMPT_DMA_BUFFER),
			  "dma-buffer"));
	VT_ASSERT(!strcmp(vaccel_preempt_granularity_name(VACCEL_PREEMPT_PACKET),
			  "packet"));
	VT_ASSERT(!strcmp(vaccel_preempt_granularity_name(VACCEL_PREEMPT_WORKGROUP),
			  "workgroup"));
	VT_ASSERT(!strcmp(vaccel_preempt_granularity_name(VACCEL_PREEMPT_INSTRUCTION),
			  "instruction"));
	VT_ASSERT(!vaccel_preempt_granularity_name(4));
	VT_ASSERT(!vaccel_preempt_granularity_name(~0u));
}

static void make_dir(char *dir, size_t len)
{
	const char *tmp = getenv("TMPDIR");

	snprintf(dir, len, "%s/vt-devdir-XXXXXX", tmp && *tmp ? tmp : "/tmp");
	mkdir(tmp && *tmp ? tmp : "/tmp", 01777);
	VT_ASSERT(mkdtemp(dir));
}

static void link_node(const char *dir, const char *name, const char *target)
{
	char path[PATH_MAX + 16];

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	VT_ASSERT_EQ(symlink(target, path), 0);
}

/*
 * Devices are numbered by accel minor, numerically: in a directory with
 * accel10 and accel9 on the same device, accel9 is device 0.  Other names
 * and other drivers are skipped.
 */
VTEST(minor_order)
{
	char dir[PATH_MAX], node[PATH_MAX], want[PATH_MAX + 16];
	struct vaccel_device *dev;

	VT_ASSERT_OK(vaccel_device_open(0, &dev));
	snprintf(node, sizeof(node), "%s", vaccel_device_path(dev));
	vaccel_device_close(dev);

	make_dir(dir, sizeof(dir));
	link_node(dir, "accel10", node);
	link_node(dir, "accel9", node);
	link_node(dir, "accel2", "/dev/null");
	link_node(dir, "accel01", node);
	link_node(dir, "accelx", node);
	link_node(dir, "card0", node);
	VT_ASSERT_EQ(setenv("VACCEL_DEVICE_DIR", dir, 1), 0);

	VT_ASSERT_EQ(vaccel_device_count(), 2);
	VT_ASSERT_OK(vaccel_device_open(0, &dev));
	snprintf(want, sizeof(want), "%s/accel9", dir);
	VT_ASSERT(!strcmp(vaccel_device_path(dev), want));
	vaccel_device_close(dev);
	VT_ASSERT_OK(vaccel_device_open(1, &dev));
	snprintf(want, sizeof(want), "%s/accel10", dir);
	VT_ASSERT(!strcmp(vaccel_device_path(dev), want));
	vaccel_device_close(dev);
	VT_ASSERT_EQ(vaccel_device_open(2, &dev), -ENODEV);

	VT_ASSERT_EQ(setenv("VACCEL_DEVICE_DIR", "/nonexistent", 1), 0);
	VT_ASSERT_EQ(vaccel_device_count(), 0);
	VT_ASSERT_EQ(vaccel_device_open(0, &dev), -ENODEV);
}

#define INFO_THREADS	4

static void *info_thread(void *arg)
{
	struct vaccel_device *dev = arg;
	struct vaccel_device_info a, b;
	struct vaccel_engine_info e;
	long bad = 0;
	int i;

	if (vaccel_device_get_info(dev, &a))
		return (void *)1;
	for (i = 0; i < 1000; i++) {
		if (vaccel_device_get_info(dev, &b) || memcmp(&a, &b, sizeof(a)))
			bad++;
		if (vaccel_device_get_engine(dev, i % a.engines_total, &e))
			bad++;
	}
	return (void *)bad;
}

/* One handle used from several threads at once. */
VTEST(threads_share_handle)
{
	pthread_t t[INFO_THREADS];
	struct vaccel_device *dev;
	void *ret;
	int i;

	VT_ASSERT_OK(vaccel_device_open(0, &dev));
	for (i = 0; i < INFO_THREADS; i++)
		VT_ASSERT_EQ(pthread_create(&t[i], NULL, info_thread, dev), 0);
	for (i = 0; i < INFO_THREADS; i++) {
		VT_ASSERT_EQ(pthread_join(t[i], &ret), 0);
		VT_ASSERT(!ret);
	}
	vaccel_device_close(dev);
}

/*
 * Runs vaccel-info with @args; its stdout goes to @out (NUL-terminated,
 * truncated), stderr to @err.  Returns the exit status, or -1 if it was not
 * a normal exit.
 */
static int run_info(const char *const *args, char *out, size_t out_len,
		    char *err, size_t err_len)
{
	const char *bin = getenv("VT_BIN");
	char prog[PATH_MAX], *argv[8];
	size_t olen = 0, elen = 0;
	int po[2], pe[2], status, i;
	struct pollfd pfd[2];
	pid_t pid;

	if (bin && *bin)
		snprintf(prog, sizeof(prog), "%s/vaccel-info", bin);
	else
		snprintf(prog, sizeof(prog), "vaccel-info");
	argv[0] = prog;
	for (i = 0; args[i] && i < 6; i++)
		argv[i + 1] = (char *)args[i];
	argv[i + 1] = NULL;

	VT_ASSERT_EQ(pipe(po), 0);
	VT_ASSERT_EQ(pipe(pe), 0);
	fflush(NULL);
	pid = fork();
	VT_ASSERT(pid >= 0);
	if (!pid) {
		dup2(po[1], 1);
		dup2(pe[1], 2);
		close(po[0]);
		close(pe[0]);
		execvp(prog, argv);
		fprintf(stderr, "exec %s: %s\n", prog, strerror(errno));
		_exit(127);
	}
	close(po[1]);
	close(pe[1]);

	pfd[0] = (struct pollfd){ .fd = po[0], .events = POLLIN };
	pfd[1] = (struct pollfd){ .fd = pe[0], .events = POLLIN };
	while (pfd[0].fd >= 0 || pfd[1].fd >= 0) {
		char buf[4096];
		ssize_t n;

		if (poll(pfd, 2, 30000) <= 0)
			break;
		for (i = 0; i < 2; i++) {
			char *dst = i ? err : out;
			size_t *len = i ? &elen : &olen;
			size_t cap = i ? err_len : out_len;

			if (pfd[i].fd < 0 || !pfd[i].revents)
				continue;
			n = read(pfd[i].fd, buf, sizeof(buf));
			if (n <= 0) {
				close(pfd[i].fd);
				pfd[i].fd = -1;
				continue;
			}
			if ((size_t)n > cap - 1 - *len)
				n = cap - 1 - *len;
			memcpy(dst + *len, buf, n);
			*len += n;
		}
	}
	out[olen] = '\0';
	err[elen] = '\0';
	VT_ASSERT_EQ(waitpid(pid, &status, 0), pid);
	return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

/* vaccel-info lists every device and its engines, and exits 0. */
VTEST(vaccel_info)
{
	static char out[65536], err[4096];
	static const char *const none[] = { NULL };
	struct vaccel_device *dev;
	int i, n = vaccel_device_count();

	VT_ASSERT(n > 0);
	if (run_info(none, out, sizeof(out), err, sizeof(err)))
		vtest_fail(__FILE__, __LINE__, "vaccel-info failed: %s", err);
	VT_ASSERT(strstr(out, "compute"));
	VT_ASSERT(strstr(out, "paging"));
	/* The memory limits of uapi 1.1, as the module reports them. */
	{
		struct vaccel_device_info info;
		char want[64];

		VT_ASSERT_OK(vaccel_device_open(0, &dev));
		VT_ASSERT_OK(vaccel_device_get_info(dev, &info));
		vaccel_device_close(dev);
		snprintf(want, sizeof(want), "max bo size     %llu ",
			 (unsigned long long)info.max_bo_size);
		VT_ASSERT(strstr(out, want));
		snprintf(want, sizeof(want), "max bind ops    %u\n", info.max_bind_ops);
		VT_ASSERT(strstr(out, want));
		snprintf(want, sizeof(want), "max bos/file    %u\n", info.max_bos_per_file);
		VT_ASSERT(strstr(out, want));
	}
	/* The file limits of uapi 1.5, from the raw query. */
	{
		struct drm_vaccel_device_info raw;
		int fd = vt_open_first();
		char want[128];

		vt_device_info(fd, &raw);
		close(fd);
		snprintf(want, sizeof(want),
			 "file limits     %u jobs in flight, %u mappings, %llu MiB of page tables\n",
			 raw.max_jobs_per_file, raw.max_mappings,
			 (unsigned long long)raw.max_pt_bytes >> 20);
		VT_ASSERT(strstr(out, want));
	}
	for (i = 0; i < n; i++) {
		VT_ASSERT_OK(vaccel_device_open(i, &dev));
		VT_ASSERT(strstr(out, vaccel_device_path(dev)));
		vaccel_device_close(dev);
	}
}

/* vaccel-info -d: a device that exists, then one that does not. */
VTEST(vaccel_info_index)
{
	static char out[65536], err[4096];
	char idx[16];
	const char *args[] = { "-d", idx, NULL };
	int n = vaccel_device_count();

	VT_ASSERT(n > 0);
	snprintf(idx, sizeof(idx), "%d", n - 1);
	VT_ASSERT_EQ(run_info(args, out, sizeof(out), err, sizeof(err)), 0);
	VT_ASSERT(strstr(out, "compute"));
	snprintf(idx, sizeof(idx), "%d", n);
	VT_ASSERT_EQ(run_info(args, out, sizeof(out), err, sizeof(err)), 1);
	VT_ASSERT(err[0]);
}

VTEST_MAIN()
