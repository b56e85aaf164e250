// SPDX-License-Identifier: MIT
/*
 * Copyright 2026 The vaccel authors
 */

/**
 * DOC: vaccel-top's model
 *
 * A sample is one pass over what the kernel shows:
 *
 * - ``<sys>/class/accel/accel*``: the accel nodes whose device is bound to
 *   the vaccel driver, so that idle devices show too;
 * - ``<proc>/<pid>/fd/<n>``: every open file that is a character device, and
 *   its ``<proc>/<pid>/fdinfo/<fd>``; a file whose ``drm-driver`` is
 *   ``vaccel`` is a client of the device of its minor.  The same file seen
 *   again (a dup(), a child that inherited it) has the same
 *   ``drm-client-id`` and is counted once, for the first process found.
 *   Processes that go away during the scan, and files closed under it,
 *   are skipped; processes whose files cannot be listed (those of other
 *   users, unless root) are counted, so that the screen can say so;
 * - ``<debugfs>/accel/<device>/{engines,contexts,arbiter,memory}``: the
 *   state of each engine, its HW queue, the contexts with their queues,
 *   the device's memory; root only.
 *
 * Two samples make a view: engine utilisation is the growth of
 * ``drm-engine-<class>`` between the two reads of a file, over the time
 * between them and the class's ``drm-engine-capacity-<class>``, as
 * Documentation/gpu/drm-usage-stats.rst defines; a value lower than the
 * previous one is replaced by the previous one, as the same document asks.
 * A device's class utilisation comes from debugfs's per-engine busy time
 * when it can be read, which counts every client, and otherwise from the
 * sum of the clients the scan could see.
 *
 * A view renders as plain lines, which the batch mode prints as they are
 * and the interactive mode fits to the terminal.
 */
#define _GNU_SOURCE
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <time.h>
#include <unistd.h>

#include "top_model.h"

/* Larger files are cut there: debugfs contexts of a busy device. */
#define VTOP_FILE_MAX	(16u << 20)

uint64_t vtop_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* --- fdinfo --- */

static const char *skip_blank(const char *s)
{
	while (*s == ' ' || *s == '\t')
		s++;
	return s;
}

/* "<uint>[ <unit>]": the number, and the unit (possibly ""). */
static bool parse_uint(const char *s, uint64_t *v, const char **unit)
{
	char *end;

	s = skip_blank(s);
	if (!isdigit((unsigned char)*s))
		return false;
	errno = 0;
	*v = strtoull(s, &end, 10);
	if (errno)
		return false;
	*unit = skip_blank(end);
	return true;
}

static struct vtop_engine_key *engine_key(struct vtop_fdinfo *info,
					  const char *name)
{
	struct vtop_engine_key *e;
	unsigned int i;

	if (!*name || strlen(name) >= VTOP_NAME_MAX)
		return NULL;
	for (i = 0; i < info->nengines; i++)
		if (!strcmp(info->engine[i].name, name))
			return &info->engine[i];
	if (info->nengines == VTOP_MAX_CLASSES)
		return NULL;
	e = &info->engine[info->nengines++];
	memset(e, 0, sizeof(*e));
	strcpy(e->name, name);
	e->capacity = 1;
	return e;
}

static const char *const mem_kinds[VTOP_MEM_KINDS] = {
	[VTOP_MEM_TOTAL] = "total",
	[VTOP_MEM_SHARED] = "shared",
	[VTOP_MEM_RESIDENT] = "resident",
	[VTOP_MEM_ACTIVE] = "active",
	[VTOP_MEM_PURGEABLE] = "purgeable",
};

/* drm-<kind>-<region>: <uint> [KiB|MiB|GiB] */
static void parse_memory_key(struct vtop_fdinfo *info, const char *key,
			     const char *value)
{
	unsigned int k;

	for (k = 0; k < VTOP_MEM_KINDS; k++) {
		size_t n = strlen(mem_kinds[k]);
		const char *unit;
		uint64_t v, mult;

		if (strncmp(key, mem_kinds[k], n) || key[n] != '-' || !key[n + 1])
			continue;
		/* drm-total-cycles-<engine> is a clock, not a region. */
		if (k == VTOP_MEM_TOTAL && !strncmp(key + n + 1, "cycles-", 7))
			return;
		if (!parse_uint(value, &v, &unit))
			return;
		if (!*unit)
			mult = 1;
		else if (!strcmp(unit, "KiB"))
			mult = 1ull << 10;
		else if (!strcmp(unit, "MiB"))
			mult = 1ull << 20;
		else if (!strcmp(unit, "GiB"))
			mult = 1ull << 30;
		else
			return;
		info->mem[k] += v * mult;
		info->mem_has |= 1u << k;
		return;
	}
}

static void parse_fdinfo_line(struct vtop_fdinfo *info, char *line)
{
	char *colon = strchr(line, ':'), *key = line, *p;
	const char *value, *unit;
	uint64_t v;

	if (!colon)
		return;
	*colon = '\0';
	value = colon + 1;
	for (p = key; *p; p++)
		if (isspace((unsigned char)*p))
			return;
	if (strncmp(key, "drm-", 4))
		return;
	key += 4;

	if (!strcmp(key, "driver")) {
		value = skip_blank(value);
		snprintf(info->driver, sizeof(info->driver), "%s", value);
	} else if (!strcmp(key, "client-id")) {
		if (parse_uint(value, &v, &unit)) {
			info->client_id = v;
			info->has_client_id = true;
		}
	} else if (!strncmp(key, "engine-capacity-", 16)) {
		struct vtop_engine_key *e = engine_key(info, key + 16);

		/* Zero capacity is not allowed: keep the default of one. */
		if (e && parse_uint(value, &v, &unit) && v && v <= UINT32_MAX)
			e->capacity = (unsigned int)v;
	} else if (!strncmp(key, "engine-", 7)) {
		struct vtop_engine_key *e;

		if (!parse_uint(value, &v, &unit) || (*unit && strcmp(unit, "ns")))
			return;
		e = engine_key(info, key + 7);
		if (e) {
			e->busy_ns = v;
			e->has_busy = true;
		}
	} else {
		parse_memory_key(info, key, value);
	}
}

/**
 * vtop_fdinfo_parse() - the drm-usage-stats keys of one fdinfo file
 * @text: the file's text
 * @out: filled; keys it does not know are ignored
 *
 * Return: 0, or -ENODATA if the file has no drm-driver key (not a DRM
 * file).
 */
int vtop_fdinfo_parse(const char *text, struct vtop_fdinfo *out)
{
	const char *s = text;

	memset(out, 0, sizeof(*out));
	while (*s) {
		const char *nl = strchr(s, '\n');
		size_t n = nl ? (size_t)(nl - s) : strlen(s);
		char line[256];

		/* No key of interest is that long: skip the line. */
		if (n < sizeof(line)) {
			memcpy(line, s, n);
			line[n] = '\0';
			parse_fdinfo_line(out, line);
		}
		s += n;
		if (*s)
			s++;
	}
	return out->driver[0] ? 0 : -ENODATA;
}

/**
 * vtop_util() - utilisation of an engine class between two samples
 * @busy_prev: drm-engine-<class> at the first sample, ns
 * @busy_cur: the same at the second, already raised to @busy_prev if it
 *	was lower
 * @t_prev: time of the first sample, ns
 * @t_cur: time of the second
 * @capacity: drm-engine-capacity-<class>, 0 taken as 1
 *
 * Return: percent of the class's capacity, 0 to 100 (the two reads of a
 * file are not quite when the times say, so the ratio is clamped), or -1
 * when the times do not advance.
 */
double vtop_util(uint64_t busy_prev, uint64_t busy_cur, uint64_t t_prev,
		 uint64_t t_cur, unsigned int capacity)
{
	double u;

	if (t_cur <= t_prev)
		return -1;
	if (busy_cur <= busy_prev)
		return 0;
	if (!capacity)
		capacity = 1;
	u = 100.0 * (double)(busy_cur - busy_prev) /
	    ((double)(t_cur - t_prev) * capacity);
	return u > 100.0 ? 100.0 : u;
}

/* --- debugfs --- */

/* "compute0" -> "compute" */
static void class_of(const char *engine, char *cls, size_t len)
{
	size_t n = strlen(engine);

	while (n && isdigit((unsigned char)engine[n - 1]))
		n--;
	if (n >= len)
		n = len - 1;
	memcpy(cls, engine, n);
	cls[n] = '\0';
}

/* Each line of @text, which it modifies. */
#define for_each_line(line, text, save)					\
	for (line = strtok_r(text, "\n", &save); line;			\
	     line = strtok_r(NULL, "\n", &save))

/**
 * vtop_parse_engines() - debugfs engines
 * @text: the file's text
 * @dev: its engines are set
 *
 * Lines ``engine N: <name> busy|idle busy_ns B contexts C``, each followed
 * by a ``  slot S: ...`` line per buffer in the engine's HW queue.
 *
 * Return: 0, or -EPROTO if no engine line was understood.
 */
int vtop_parse_engines(const char *text, struct vtop_device *dev)
{
	char *copy = strdup(text), *line, *save = NULL;
	struct vtop_engine_state *cur = NULL;

	if (!copy)
		return -ENOMEM;
	dev->nengines = 0;
	for_each_line(line, copy, save) {
		char name[VTOP_NAME_MAX], state[8];
		unsigned long long busy;
		unsigned int idx, ctxs, slot;

		if (sscanf(line, "engine %u: %31s %7s busy_ns %llu contexts %u",
			   &idx, name, state, &busy, &ctxs) == 5) {
			if (idx >= VTOP_MAX_ENGINES) {
				cur = NULL;
				continue;
			}
			cur = &dev->engine[idx];
			memset(cur, 0, sizeof(*cur));
			snprintf(cur->name, sizeof(cur->name), "%s", name);
			class_of(name, cur->cls, sizeof(cur->cls));
			cur->busy = !strcmp(state, "busy");
			cur->busy_ns = busy;
			cur->contexts = ctxs;
			if (idx + 1 > dev->nengines)
				dev->nengines = idx + 1;
		} else if (cur && sscanf(line, " slot %u:", &slot) == 1) {
			cur->slots++;
		}
	}
	free(copy);
	return dev->nengines ? 0 : -EPROTO;
}

/**
 * vtop_parse_contexts() - debugfs contexts
 * @text: the file's text
 * @dev: its contexts are set, and its engines' ring counts (after
 *	vtop_parse_engines())
 *
 * Lines ``context H client C engine E priority P <state> submitted S
 * completed D ring R ...``.
 *
 * Return: 0 or -ENOMEM.
 */
int vtop_parse_contexts(const char *text, struct vtop_device *dev)
{
	char *copy = strdup(text), *line, *save = NULL;
	size_t cap = 0;

	if (!copy)
		return -ENOMEM;
	free(dev->contexts);
	dev->contexts = NULL;
	dev->ncontexts = 0;
	for_each_line(line, copy, save) {
		struct vtop_context_state *c;
		unsigned long long client;
		long long sub, done;
		unsigned int handle, engine, ring;
		char prio[16], state[16];

		if (sscanf(line, "context %u client %llu engine %u priority %15s %15s submitted %lld completed %lld ring %u",
			   &handle, &client, &engine, prio, state, &sub, &done,
			   &ring) != 8)
			continue;
		if (dev->ncontexts == cap) {
			size_t ncap = cap ? 2 * cap : 16;
			void *p = realloc(dev->contexts, ncap * sizeof(*c));

			if (!p) {
				free(copy);
				return -ENOMEM;
			}
			dev->contexts = p;
			cap = ncap;
		}
		c = &dev->contexts[dev->ncontexts++];
		c->handle = handle;
		c->client = client;
		c->engine = engine;
		c->active = !strcmp(state, "active");
		c->in_flight = sub > done ? sub - done : 0;
		c->ring = ring;
		if (engine < dev->nengines)
			dev->engine[engine].ring += ring;
	}
	free(copy);
	return 0;
}

/**
 * vtop_parse_arbiter() - resets and hangs from debugfs arbiter
 * @text: the file's text
 * @dev: its engines (after vtop_parse_engines()) get their counts
 */
void vtop_parse_arbiter(const char *text, struct vtop_device *dev)
{
	char *copy = strdup(text), *line, *save = NULL;

	if (!copy)
		return;
	for_each_line(line, copy, save) {
		unsigned long long slice, timeout, resets, hangs;
		unsigned int idx, gran;

		if (sscanf(line, "engine %u: granularity %u slice_ns %llu timeout_ns %llu resets %llu hangs %llu",
			   &idx, &gran, &slice, &timeout, &resets, &hangs) == 6) {
			if (idx < dev->nengines) {
				dev->engine[idx].resets = resets;
				dev->engine[idx].hangs = hangs;
			}
		} else if (sscanf(line, "device_resets %llu", &resets) == 1) {
			dev->device_resets = resets;
			dev->has_resets = true;
		}
	}
	free(copy);
}

/**
 * vtop_parse_memory() - debugfs memory
 * @text: the file's text, ``key value`` lines
 * @dev: its memory counters are set
 */
void vtop_parse_memory(const char *text, struct vtop_device *dev)
{
	char *copy = strdup(text), *line, *save = NULL;
	unsigned int seen = 0;

	if (!copy)
		return;
	for_each_line(line, copy, save) {
		unsigned long long v;

		if (sscanf(line, "bo_count %llu", &v) == 1) {
			dev->bo_count = v;
			seen |= 1;
		} else if (sscanf(line, "bo_bytes %llu", &v) == 1) {
			dev->bo_bytes = v;
			seen |= 2;
		} else if (sscanf(line, "pt_pages %llu", &v) == 1) {
			dev->pt_pages = v;
			seen |= 4;
		}
	}
	free(copy);
	dev->has_memory = seen == 7;
}

/* --- the scan --- */

/*
 * The whole of a file at @dirfd/@name (AT_FDCWD: a path), NUL-terminated,
 * malloc'ed; NULL and errno on failure.
 */
static char *read_text(int dirfd, const char *name)
{
	size_t len = 0, cap = 4096;
	char *buf = malloc(cap);
	int fd, err;

	if (!buf)
		return NULL;
	fd = openat(dirfd, name, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		goto err_free;
	for (;;) {
		ssize_t n;

		if (len + 1 == cap) {
			char *p;

			if (cap >= VTOP_FILE_MAX)
				break;
			p = realloc(buf, cap * 2);
			if (!p)
				goto err_close;
			buf = p;
			cap *= 2;
		}
		n = read(fd, buf + len, cap - 1 - len);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			goto err_close;
		}
		if (!n)
			break;
		len += (size_t)n;
	}
	close(fd);
	buf[len] = '\0';
	return buf;

err_close:
	err = errno;
	close(fd);
	errno = err;
err_free:
	err = errno;
	free(buf);
	errno = err;
	return NULL;
}

static struct vtop_device *find_device(struct vtop_sample *s, unsigned int minor)
{
	size_t i;

	for (i = 0; i < s->ndevices; i++)
		if (s->devices[i].minor == minor)
			return &s->devices[i];
	return NULL;
}

static struct vtop_device *add_device(struct vtop_sample *s, unsigned int minor,
				      const char *name)
{
	struct vtop_device *d;

	if (s->ndevices == s->devices_cap) {
		size_t ncap = s->devices_cap ? 2 * s->devices_cap : 4;
		void *p = realloc(s->devices, ncap * sizeof(*d));

		if (!p)
			return NULL;
		s->devices = p;
		s->devices_cap = ncap;
	}
	d = &s->devices[s->ndevices++];
	memset(d, 0, sizeof(*d));
	d->minor = minor;
	snprintf(d->name, sizeof(d->name), "%s", name);
	d->debugfs_err = ENOENT;
	return d;
}

/* snprintf() that says whether everything fitted. */
__attribute__((format(printf, 3, 4)))
static bool fmt(char *buf, size_t len, const char *f, ...)
{
	va_list ap;
	int n;

	va_start(ap, f);
	n = vsnprintf(buf, len, f, ap);
	va_end(ap);
	return n >= 0 && (size_t)n < len;
}

/* Basename of the target of symbolic link @path, into @buf. */
static bool link_base(const char *path, char *buf, size_t len)
{
	char target[PATH_MAX];
	const char *base;
	ssize_t n = readlink(path, target, sizeof(target) - 1);

	if (n <= 0)
		return false;
	target[n] = '\0';
	base = strrchr(target, '/');
	return fmt(buf, len, "%s", base ? base + 1 : target);
}

static int device_cmp(const void *a, const void *b)
{
	const struct vtop_device *x = a, *y = b;

	return (x->minor > y->minor) - (x->minor < y->minor);
}

/* The accel nodes of the vaccel driver, from sysfs. */
static int scan_devices(const struct vtop_paths *paths, struct vtop_sample *s)
{
	char dir[PATH_MAX], path[PATH_MAX], name[64];
	struct dirent *de;
	DIR *d;

	if (!fmt(dir, sizeof(dir), "%s/class/accel", paths->sys))
		return 0;
	d = opendir(dir);
	if (!d)
		return 0;
	while ((de = readdir(d))) {
		unsigned int minor;
		char *end;

		if (strncmp(de->d_name, "accel", 5) || !isdigit((unsigned char)de->d_name[5]))
			continue;
		minor = (unsigned int)strtoul(de->d_name + 5, &end, 10);
		if (*end)
			continue;
		if (!fmt(path, sizeof(path), "%s/%s/device/driver", dir, de->d_name) ||
		    !link_base(path, name, sizeof(name)) || strcmp(name, VTOP_DRIVER))
			continue;
		if (!fmt(path, sizeof(path), "%s/%s/device", dir, de->d_name) ||
		    !link_base(path, name, sizeof(name)))
			fmt(name, sizeof(name), "accel%u", minor);
		if (!find_device(s, minor) && !add_device(s, minor, name)) {
			closedir(d);
			return -ENOMEM;
		}
	}
	closedir(d);
	return 0;
}

static const struct vtop_client *find_client(const struct vtop_sample *s,
					     unsigned int minor, uint64_t id)
{
	size_t i;

	for (i = 0; i < s->nclients; i++)
		if (s->clients[i].minor == minor &&
		    s->clients[i].info.has_client_id &&
		    s->clients[i].info.client_id == id)
			return &s->clients[i];
	return NULL;
}

static int add_client(struct vtop_sample *s, const struct vtop_client *c)
{
	if (s->nclients == s->clients_cap) {
		size_t ncap = s->clients_cap ? 2 * s->clients_cap : 16;
		void *p = realloc(s->clients, ncap * sizeof(*c));

		if (!p)
			return -ENOMEM;
		s->clients = p;
		s->clients_cap = ncap;
	}
	s->clients[s->nclients++] = *c;
	return 0;
}

static void read_comm(int pid_dir, char *buf, size_t len)
{
	char *text = read_text(pid_dir, "comm"), *nl;

	if (!text) {
		snprintf(buf, len, "?");
		return;
	}
	nl = strchr(text, '\n');
	if (nl)
		*nl = '\0';
	snprintf(buf, len, "%s", text);
	free(text);
}

/* The vaccel files that process @pid_dir holds. */
static int scan_process(struct vtop_sample *s, int proc_fd, const char *pid_name)
{
	int pid_dir, fd_dir, fdinfo_dir, ret = 0;
	char comm[VTOP_COMM_MAX] = "";
	struct dirent *de;
	bool hidden = false;
	DIR *fds;

	pid_dir = openat(proc_fd, pid_name, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (pid_dir < 0)
		return 0;	/* gone */
	fd_dir = openat(pid_dir, "fd", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd_dir < 0) {
		if (errno == EACCES || errno == EPERM)
			s->hidden_pids++;
		close(pid_dir);
		return 0;
	}
	fds = fdopendir(fd_dir);
	if (!fds) {
		close(fd_dir);
		close(pid_dir);
		return 0;
	}
	fdinfo_dir = openat(pid_dir, "fdinfo", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fdinfo_dir < 0) {
		if (errno == EACCES || errno == EPERM)
			s->hidden_pids++;
		goto out;
	}

	while ((de = readdir(fds))) {
		struct vtop_client c;
		struct stat st;
		char *text;

		if (!isdigit((unsigned char)de->d_name[0]))
			continue;
		/* Follows the link: the device node, if it is one. */
		if (fstatat(fd_dir, de->d_name, &st, 0) || !S_ISCHR(st.st_mode))
			continue;
		text = read_text(fdinfo_dir, de->d_name);
		if (!text) {
			if (errno == EACCES || errno == EPERM)
				hidden = true;
			continue;	/* closed meanwhile, or not ours to read */
		}
		memset(&c, 0, sizeof(c));
		if (vtop_fdinfo_parse(text, &c.info) || strcmp(c.info.driver, VTOP_DRIVER)) {
			free(text);
			continue;
		}
		free(text);
		c.t_ns = vtop_now_ns();
		c.minor = minor(st.st_rdev);
		c.pid = atoi(pid_name);
		if (c.info.has_client_id && find_client(s, c.minor, c.info.client_id))
			continue;	/* the same file through another fd */
		if (!comm[0])
			read_comm(pid_dir, comm, sizeof(comm));
		memcpy(c.comm, comm, sizeof(c.comm));
		if (!find_device(s, c.minor)) {
			char name[32];

			snprintf(name, sizeof(name), "accel%u", c.minor);
			if (!add_device(s, c.minor, name)) {
				ret = -ENOMEM;
				break;
			}
		}
		ret = add_client(s, &c);
		if (ret)
			break;
	}
	if (hidden)
		s->hidden_pids++;
	close(fdinfo_dir);
out:
	closedir(fds);
	close(pid_dir);
	return ret;
}

/* The device's debugfs directory: by its name, else by its minor. */
static int open_debugfs(const struct vtop_paths *paths, const struct vtop_device *d)
{
	char path[PATH_MAX];
	int fd;

	if (!fmt(path, sizeof(path), "%s/accel/%s", paths->debugfs, d->name)) {
		errno = ENAMETOOLONG;
		return -1;
	}
	fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd >= 0 || errno != ENOENT)
		return fd;
	if (!fmt(path, sizeof(path), "%s/accel/%u", paths->debugfs, d->minor)) {
		errno = ENAMETOOLONG;
		return -1;
	}
	return open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
}

static void scan_debugfs(const struct vtop_paths *paths, struct vtop_device *d)
{
	char *engines, *text;
	int dir;

	dir = open_debugfs(paths, d);
	if (dir < 0) {
		d->debugfs_err = errno;
		return;
	}
	engines = read_text(dir, "engines");
	d->t_ns = vtop_now_ns();
	if (!engines) {
		d->debugfs_err = errno;
		close(dir);
		return;
	}
	if (vtop_parse_engines(engines, d)) {
		d->debugfs_err = EPROTO;
		free(engines);
		close(dir);
		return;
	}
	free(engines);
	d->debugfs_err = 0;
	text = read_text(dir, "contexts");
	if (text) {
		if (vtop_parse_contexts(text, d))
			d->debugfs_err = ENOMEM;
		free(text);
	}
	text = read_text(dir, "arbiter");
	if (text) {
		vtop_parse_arbiter(text, d);
		free(text);
	}
	text = read_text(dir, "memory");
	if (text) {
		vtop_parse_memory(text, d);
		free(text);
	}
	close(dir);
}

/**
 * vtop_scan() - one sample
 * @paths: where /proc, /sys and debugfs are
 * @s: filled; vtop_sample_free() it, whatever the result
 *
 * Return: 0, -ENOENT if @paths->proc cannot be read, or -ENOMEM.
 */
int vtop_scan(const struct vtop_paths *paths, struct vtop_sample *s)
{
	struct dirent *de;
	size_t i;
	DIR *proc;
	int ret;

	memset(s, 0, sizeof(*s));
	s->t_ns = vtop_now_ns();
	ret = scan_devices(paths, s);
	if (ret)
		return ret;
	proc = opendir(paths->proc);
	if (!proc)
		return -ENOENT;
	while ((de = readdir(proc))) {
		if (!isdigit((unsigned char)de->d_name[0]))
			continue;
		ret = scan_process(s, dirfd(proc), de->d_name);
		if (ret)
			break;
	}
	closedir(proc);
	if (ret)
		return ret;
	qsort(s->devices, s->ndevices, sizeof(*s->devices), device_cmp);
	for (i = 0; i < s->ndevices; i++)
		scan_debugfs(paths, &s->devices[i]);
	return 0;
}

/**
 * vtop_sample_free() - free what a sample holds
 * @s: the sample, emptied
 */
void vtop_sample_free(struct vtop_sample *s)
{
	size_t i;

	for (i = 0; i < s->ndevices; i++)
		free(s->devices[i].contexts);
	free(s->devices);
	free(s->clients);
	memset(s, 0, sizeof(*s));
}

/* --- the view --- */

static int class_index(struct vtop_view *v, const char *name, bool add)
{
	unsigned int i;

	for (i = 0; i < v->nclasses; i++)
		if (!strcmp(v->classes[i], name))
			return (int)i;
	if (!add || v->nclasses == VTOP_MAX_CLASSES || !*name)
		return -1;
	snprintf(v->classes[v->nclasses], VTOP_NAME_MAX, "%s", name);
	return (int)v->nclasses++;
}

static const struct vtop_device *prev_device(const struct vtop_sample *prev,
					     unsigned int minor)
{
	size_t i;

	if (!prev)
		return NULL;
	for (i = 0; i < prev->ndevices; i++)
		if (prev->devices[i].minor == minor)
			return &prev->devices[i];
	return NULL;
}

static const struct vtop_engine_key *find_key(const struct vtop_fdinfo *info,
					      const char *name)
{
	unsigned int i;

	for (i = 0; i < info->nengines; i++)
		if (!strcmp(info->engine[i].name, name))
			return &info->engine[i];
	return NULL;
}

/* Counters that went backwards stay at the larger value they had. */
static void carry_monotonic(const struct vtop_sample *prev, struct vtop_sample *cur)
{
	size_t i, k;

	if (!prev)
		return;
	for (i = 0; i < cur->nclients; i++) {
		struct vtop_client *c = &cur->clients[i];
		const struct vtop_client *p;

		if (!c->info.has_client_id)
			continue;
		p = find_client(prev, c->minor, c->info.client_id);
		if (!p)
			continue;
		for (k = 0; k < c->info.nengines; k++) {
			struct vtop_engine_key *e = &c->info.engine[k];
			const struct vtop_engine_key *pe = find_key(&p->info, e->name);

			if (pe && pe->has_busy && e->has_busy && e->busy_ns < pe->busy_ns)
				e->busy_ns = pe->busy_ns;
		}
	}
	for (i = 0; i < cur->ndevices; i++) {
		struct vtop_device *d = &cur->devices[i];
		const struct vtop_device *p = prev_device(prev, d->minor);

		if (!p || p->debugfs_err || d->debugfs_err || p->nengines != d->nengines)
			continue;
		for (k = 0; k < d->nengines; k++)
			if (d->engine[k].busy_ns < p->engine[k].busy_ns)
				d->engine[k].busy_ns = p->engine[k].busy_ns;
	}
}

static bool pid_wanted(int pid, const int *pids, size_t npids)
{
	size_t i;

	if (!npids)
		return true;
	for (i = 0; i < npids; i++)
		if (pids[i] == pid)
			return true;
	return false;
}

static struct vtop_row *row_for(struct vtop_view *v, size_t *cap,
				const struct vtop_client *c)
{
	struct vtop_row *r;
	size_t i;

	for (i = 0; i < v->nrows; i++)
		if (v->rows[i].pid == c->pid && v->rows[i].minor == c->minor)
			return &v->rows[i];
	if (v->nrows == *cap) {
		size_t ncap = *cap ? 2 * *cap : 16;
		void *p = realloc(v->rows, ncap * sizeof(*r));

		if (!p)
			return NULL;
		v->rows = p;
		*cap = ncap;
	}
	r = &v->rows[v->nrows++];
	memset(r, 0, sizeof(*r));
	r->pid = c->pid;
	r->minor = c->minor;
	memcpy(r->comm, c->comm, sizeof(r->comm));
	for (i = 0; i < VTOP_MAX_CLASSES; i++)
		r->util[i] = -1;
	r->contexts = r->in_flight = r->ring = r->bad_contexts = -1;
	return r;
}

static void add_known(double *sum, double v)
{
	if (v < 0)
		return;
	*sum = *sum < 0 ? v : *sum + v;
}

/* What debugfs says of a client's contexts and queues. */
static void row_add_contexts(struct vtop_row *r, const struct vtop_device *d,
			     const struct vtop_client *c)
{
	size_t i;

	if (!d || d->debugfs_err || !c->info.has_client_id)
		return;
	if (r->contexts < 0)
		r->contexts = r->in_flight = r->ring = r->bad_contexts = 0;
	for (i = 0; i < d->ncontexts; i++) {
		const struct vtop_context_state *x = &d->contexts[i];

		if (x->client != c->info.client_id)
			continue;
		/* Handle 0: the paging context the kernel made for binds. */
		if (x->handle)
			r->contexts++;
		r->in_flight += x->in_flight;
		r->ring += x->ring;
		if (!x->active)
			r->bad_contexts++;
	}
}

static void row_add_client(struct vtop_view *v, struct vtop_row *r,
			   const struct vtop_sample *prev,
			   const struct vtop_client *c, const struct vtop_device *d)
{
	const struct vtop_client *p = NULL;
	unsigned int k;

	r->files++;
	if (prev && c->info.has_client_id)
		p = find_client(prev, c->minor, c->info.client_id);
	for (k = 0; k < c->info.nengines; k++) {
		const struct vtop_engine_key *e = &c->info.engine[k];
		const struct vtop_engine_key *pe = p ? find_key(&p->info, e->name) : NULL;
		int col = class_index(v, e->name, false);

		if (col < 0 || !e->has_busy || !pe || !pe->has_busy)
			continue;
		add_known(&r->util[col], vtop_util(pe->busy_ns, e->busy_ns,
						   p->t_ns, c->t_ns, e->capacity));
	}
	if (c->info.mem_has & (1u << VTOP_MEM_TOTAL)) {
		r->mem_total += c->info.mem[VTOP_MEM_TOTAL];
		r->has_total = true;
	}
	if (c->info.mem_has & (1u << VTOP_MEM_RESIDENT)) {
		r->mem_resident += c->info.mem[VTOP_MEM_RESIDENT];
		r->has_resident = true;
	}
	row_add_contexts(r, d, c);
}

static int row_cmp(const void *a, const void *b)
{
	const struct vtop_row *x = a, *y = b;

	if (x->util_sum != y->util_sum)
		return x->util_sum < y->util_sum ? 1 : -1;
	if (x->mem_total != y->mem_total)
		return x->mem_total < y->mem_total ? 1 : -1;
	if (x->pid != y->pid)
		return x->pid < y->pid ? -1 : 1;
	return (x->minor > y->minor) - (x->minor < y->minor);
}

/* A device's line: classes from debugfs's engines, else from its clients. */
static void build_device(struct vtop_view *v, struct vtop_device_view *dv,
			 const struct vtop_sample *prev)
{
	const struct vtop_device *d = dv->dev, *p = prev_device(prev, d->minor);
	unsigned int k, n[VTOP_MAX_CLASSES] = { 0 };
	size_t i;

	for (k = 0; k < VTOP_MAX_ENGINES; k++)
		dv->engine_util[k] = -1;
	for (k = 0; k < VTOP_MAX_CLASSES; k++)
		dv->class_util[k] = -1;

	if (!d->debugfs_err) {
		bool timed = p && !p->debugfs_err && p->nengines == d->nengines;

		for (k = 0; k < d->nengines; k++) {
			int col = class_index(v, d->engine[k].cls, false);

			if (timed)
				dv->engine_util[k] = vtop_util(p->engine[k].busy_ns,
							       d->engine[k].busy_ns,
							       p->t_ns, d->t_ns, 1);
			if (col < 0)
				continue;
			dv->class_capacity[col]++;
			if (dv->engine_util[k] >= 0) {
				add_known(&dv->class_util[col], dv->engine_util[k]);
				n[col]++;
			}
		}
		for (k = 0; k < v->nclasses; k++)
			if (n[k])
				dv->class_util[k] /= n[k];
		dv->class_from_debugfs = true;
	}

	for (i = 0; i < v->nrows; i++) {
		const struct vtop_row *r = &v->rows[i];

		if (r->minor != d->minor)
			continue;
		if (!dv->class_from_debugfs)
			for (k = 0; k < v->nclasses; k++)
				add_known(&dv->class_util[k], r->util[k]);
	}
}

/**
 * vtop_view_build() - what a frame shows
 * @prev: the previous sample, or NULL for the first
 * @cur: the new sample; counters that went backwards since @prev are raised
 *	to their previous value, as drm-usage-stats.rst asks
 * @pids: only these processes (@npids 0: all)
 * @npids: how many
 * @v: filled; vtop_view_free() it
 *
 * Return: 0 or -ENOMEM.
 */
int vtop_view_build(const struct vtop_sample *prev, struct vtop_sample *cur,
		    const int *pids, size_t npids, struct vtop_view *v)
{
	size_t i, rows_cap = 0;
	unsigned int k;

	memset(v, 0, sizeof(*v));
	carry_monotonic(prev, cur);
	v->interval_s = prev ? (double)(cur->t_ns - prev->t_ns) / 1e9 : 0;
	v->hidden_pids = cur->hidden_pids;
	v->not_root = geteuid() != 0;

	/* Columns: the classes files report, then those only debugfs knows. */
	for (i = 0; i < cur->nclients; i++)
		for (k = 0; k < cur->clients[i].info.nengines; k++)
			class_index(v, cur->clients[i].info.engine[k].name, true);
	for (i = 0; i < cur->ndevices; i++)
		if (!cur->devices[i].debugfs_err)
			for (k = 0; k < cur->devices[i].nengines; k++)
				class_index(v, cur->devices[i].engine[k].cls, true);

	for (i = 0; i < cur->nclients; i++) {
		const struct vtop_client *c = &cur->clients[i];
		struct vtop_row *r;

		if (!pid_wanted(c->pid, pids, npids))
			continue;
		r = row_for(v, &rows_cap, c);
		if (!r)
			goto err;
		row_add_client(v, r, prev, c, find_device(cur, c->minor));
	}
	for (i = 0; i < v->nrows; i++) {
		struct vtop_row *r = &v->rows[i];

		r->util_sum = 0;
		for (k = 0; k < v->nclasses; k++)
			if (r->util[k] > 0)
				r->util_sum += r->util[k];
	}
	qsort(v->rows, v->nrows, sizeof(*v->rows), row_cmp);

	v->devices = calloc(cur->ndevices ? cur->ndevices : 1, sizeof(*v->devices));
	if (!v->devices)
		goto err;
	v->ndevices = cur->ndevices;
	for (i = 0; i < cur->ndevices; i++) {
		struct vtop_device_view *dv = &v->devices[i];
		size_t j;

		dv->dev = &cur->devices[i];
		for (j = 0; j < cur->nclients; j++) {
			const struct vtop_client *c = &cur->clients[j];

			if (c->minor != dv->dev->minor)
				continue;
			dv->clients++;
			/* Without debugfs, capacities come from the files. */
			if (dv->dev->debugfs_err)
				for (k = 0; k < c->info.nengines; k++) {
					int col = class_index(v, c->info.engine[k].name, false);

					if (col >= 0 && c->info.engine[k].capacity >
					    dv->class_capacity[col])
						dv->class_capacity[col] = c->info.engine[k].capacity;
				}
		}
		build_device(v, dv, prev);
	}
	return 0;

err:
	vtop_view_free(v);
	return -ENOMEM;
}

/**
 * vtop_view_free() - free a view
 * @v: the view, emptied
 */
void vtop_view_free(struct vtop_view *v)
{
	free(v->rows);
	free(v->devices);
	memset(v, 0, sizeof(*v));
}

/* --- rendering --- */

/**
 * vtop_format_bytes() - a size as people read it
 * @bytes: the size
 * @buf: "0 B", "512 B", "4.0 KiB", "1.5 MiB", "2.0 GiB"
 * @len: size of @buf
 */
void vtop_format_bytes(uint64_t bytes, char *buf, size_t len)
{
	static const char *const units[] = { "KiB", "MiB", "GiB", "TiB" };
	double v = (double)bytes;
	unsigned int u = 0;

	if (bytes < 1024) {
		snprintf(buf, len, "%" PRIu64 " B", bytes);
		return;
	}
	v /= 1024;
	while (v >= 1024 && u + 1 < sizeof(units) / sizeof(units[0])) {
		v /= 1024;
		u++;
	}
	snprintf(buf, len, "%.1f %s", v, units[u]);
}

__attribute__((format(printf, 2, 3)))
static int frame_add(struct vtop_frame *f, const char *fmt, ...)
{
	va_list ap;
	char *line;
	int n;

	if (f->nlines == f->cap) {
		size_t ncap = f->cap ? 2 * f->cap : 32;
		void *p = realloc(f->lines, ncap * sizeof(*f->lines));

		if (!p)
			return -ENOMEM;
		f->lines = p;
		f->cap = ncap;
	}
	va_start(ap, fmt);
	n = vasprintf(&line, fmt, ap);
	va_end(ap);
	if (n < 0)
		return -ENOMEM;
	f->lines[f->nlines++] = line;
	return 0;
}

static void format_util(double u, char *buf, size_t len)
{
	if (u < 0)
		snprintf(buf, len, "%7s", "-");
	else
		snprintf(buf, len, "%6.1f%%", u);
}

static void format_count(long long v, char *buf, size_t len, int width)
{
	if (v < 0)
		snprintf(buf, len, "%*s", width, "-");
	else
		snprintf(buf, len, "%*lld", width, v);
}

static const char *debugfs_why(int err)
{
	switch (err) {
	case EACCES:
	case EPERM:
		return "not readable (needs root)";
	case ENOENT:
		return "not found (mount debugfs on /sys/kernel/debug)";
	case EPROTO:
		return "not understood (another version of vaccel?)";
	default:
		return strerror(err);
	}
}

static int render_device(const struct vtop_view *v,
			 const struct vtop_device_view *dv, struct vtop_frame *f)
{
	const struct vtop_device *d = dv->dev;
	char line[512], util[16];
	size_t pos;
	unsigned int k;
	int ret;

	pos = (size_t)snprintf(line, sizeof(line), "accel%u %s, %u file%s:",
			       d->minor, d->name, dv->clients,
			       dv->clients == 1 ? "" : "s");
	for (k = 0; k < v->nclasses && pos < sizeof(line); k++) {
		if (!dv->class_capacity[k])
			continue;
		format_util(dv->class_util[k], util, sizeof(util));
		pos += (size_t)snprintf(line + pos, sizeof(line) - pos,
					"  %s %s of %u", v->classes[k], util,
					dv->class_capacity[k]);
	}
	if (pos < sizeof(line) && !dv->class_from_debugfs && dv->clients)
		snprintf(line + pos, sizeof(line) - pos, "  (visible files only)");
	ret = frame_add(f, "%s", line);
	if (ret)
		return ret;

	if (d->debugfs_err)
		return frame_add(f, "  debugfs %s: no per-engine state, contexts or queues",
				 debugfs_why(d->debugfs_err));

	if (d->has_memory) {
		char bytes[32];

		vtop_format_bytes(d->bo_bytes, bytes, sizeof(bytes));
		ret = frame_add(f, "  memory: %" PRIu64 " BOs, %s; %" PRIu64
				" page-table pages; device resets %" PRIu64,
				d->bo_count, bytes, d->pt_pages, d->device_resets);
		if (ret)
			return ret;
	}
	ret = frame_add(f, "  %-10s %-5s %7s %4s %5s %5s %6s %6s", "ENGINE", "STATE",
			"UTIL", "HWQ", "RING", "CTXS", "RESETS", "HANGS");
	for (k = 0; !ret && k < d->nengines; k++) {
		const struct vtop_engine_state *e = &d->engine[k];

		format_util(dv->engine_util[k], util, sizeof(util));
		ret = frame_add(f, "  %-10s %-5s %7s %4u %5u %5u %6" PRIu64 " %6" PRIu64,
				e->name, e->busy ? "busy" : "idle", util, e->slots,
				e->ring, e->contexts, e->resets, e->hangs);
	}
	return ret;
}

static int render_rows(const struct vtop_view *v, struct vtop_frame *f)
{
	char line[512], cell[32];
	unsigned int k;
	size_t i, pos;
	int ret;

	pos = (size_t)snprintf(line, sizeof(line), "%7s %-7s %5s", "PID", "DEV", "FILES");
	for (k = 0; k < v->nclasses && pos < sizeof(line); k++) {
		char name[8];
		unsigned int j;

		snprintf(name, sizeof(name), "%s", v->classes[k]);
		for (j = 0; name[j]; j++)
			name[j] = (char)toupper((unsigned char)name[j]);
		pos += (size_t)snprintf(line + pos, sizeof(line) - pos, " %7s", name);
	}
	if (pos < sizeof(line))
		snprintf(line + pos, sizeof(line) - pos, " %9s %9s %4s %4s %4s %s",
			 "MEMORY", "RESIDENT", "CTXS", "INFL", "RING", "COMMAND");
	f->header_line = (long)f->nlines;
	ret = frame_add(f, "%s", line);

	for (i = 0; !ret && i < v->nrows; i++) {
		const struct vtop_row *r = &v->rows[i];
		char dev[16];

		snprintf(dev, sizeof(dev), "accel%u", r->minor);
		pos = (size_t)snprintf(line, sizeof(line), "%7d %-7s %5u", r->pid,
				       dev, r->files);
		for (k = 0; k < v->nclasses && pos < sizeof(line); k++) {
			format_util(r->util[k], cell, sizeof(cell));
			pos += (size_t)snprintf(line + pos, sizeof(line) - pos, " %s", cell);
		}
		if (r->has_total)
			vtop_format_bytes(r->mem_total, cell, sizeof(cell));
		else
			snprintf(cell, sizeof(cell), "-");
		if (pos < sizeof(line))
			pos += (size_t)snprintf(line + pos, sizeof(line) - pos, " %9s", cell);
		if (r->has_resident)
			vtop_format_bytes(r->mem_resident, cell, sizeof(cell));
		else
			snprintf(cell, sizeof(cell), "-");
		if (pos < sizeof(line))
			pos += (size_t)snprintf(line + pos, sizeof(line) - pos, " %9s", cell);
		format_count(r->contexts, cell, sizeof(cell), 4);
		if (pos < sizeof(line))
			pos += (size_t)snprintf(line + pos, sizeof(line) - pos, " %s", cell);
		format_count(r->in_flight, cell, sizeof(cell), 4);
		if (pos < sizeof(line))
			pos += (size_t)snprintf(line + pos, sizeof(line) - pos, " %s", cell);
		format_count(r->ring, cell, sizeof(cell), 4);
		if (pos < sizeof(line))
			pos += (size_t)snprintf(line + pos, sizeof(line) - pos, " %s", cell);
		if (pos < sizeof(line))
			snprintf(line + pos, sizeof(line) - pos, " %s%s", r->comm,
				 r->bad_contexts > 0 ? " [faulted/hung]" : "");
		ret = frame_add(f, "%s", line);
	}
	if (!ret && !v->nrows)
		ret = frame_add(f, "%7s (no process has a vaccel device open)", "");
	return ret;
}

/**
 * vtop_render() - a view as lines of text
 * @v: the view
 * @f: filled with the lines; vtop_frame_free() it, whatever the result
 *
 * Return: 0 or -ENOMEM.
 */
int vtop_render(const struct vtop_view *v, struct vtop_frame *f)
{
	unsigned int files = 0, procs = 0;
	size_t i, j;
	int ret;

	memset(f, 0, sizeof(*f));
	f->header_line = -1;
	/* A row per process and device: count each process once. */
	for (i = 0; i < v->nrows; i++) {
		files += v->rows[i].files;
		for (j = 0; j < i && v->rows[j].pid != v->rows[i].pid; j++)
			;
		if (j == i)
			procs++;
	}
	ret = frame_add(f, "vaccel-top: %zu device%s, %u process%s, %u file%s; interval %.2f s",
			v->ndevices, v->ndevices == 1 ? "" : "s",
			procs, procs == 1 ? "" : "es", files,
			files == 1 ? "" : "s", v->interval_s);
	if (!ret && v->hidden_pids && v->not_root)
		ret = frame_add(f, "  %u processes of other users not shown (needs root)",
				v->hidden_pids);
	if (!ret && !v->ndevices)
		ret = frame_add(f, "  no vaccel device: is the module loaded? (insmod vaccel.ko)");
	for (i = 0; !ret && i < v->ndevices; i++)
		ret = render_device(v, &v->devices[i], f);
	if (!ret)
		ret = frame_add(f, "%s", "");
	if (!ret)
		ret = render_rows(v, f);
	return ret;
}

/**
 * vtop_frame_free() - free a frame's lines
 * @f: the frame, emptied
 */
void vtop_frame_free(struct vtop_frame *f)
{
	size_t i;

	for (i = 0; i < f->nlines; i++)
		free(f->lines[i]);
	free(f->lines);
	memset(f, 0, sizeof(*f));
	f->header_line = -1;
}
