// SPDX-License-Identifier: MIT
/*
 * Copyright 2026 The vaccel authors
 */

/**
 * DOC: The kernel compiler
 *
 * clBuildProgram() compiles OpenCL C with vaccel-cc, as a program: the
 * stock clang-14's front end, the IR step (vaccel-cl-lower, which also
 * records each kernel's parameters in the module's ``.vaccel.cl.kernels``
 * section), the device library, code generation and the link.  The
 * compiler runs in a process of its own: a crash of the compiler is a
 * failed build, never a crashed application, and the application does not
 * map libLLVM.  After the first build, those processes are children of
 * servers that loaded the tools once (warm.c).
 *
 * The build log is vaccel-cc's messages, clang's diagnostics with their
 * line numbers, the source being named ``program.cl``.
 *
 * vaccel-cc is the one next to the ICD: ``../bin`` of a build tree or an
 * installation, ``../../bin`` of a multiarch one; else the one of the
 * configured prefix.  ``VACCEL_CL_CC`` names another (not in set-user-ID
 * programs).
 *
 * **The build cache.**  An application builds its programs at every
 * start.  A module is kept in ``$XDG_CACHE_HOME/vaccel/cl`` (by default
 * ``~/.cache/vaccel/cl``), named by a hash of the source, the options, and
 * the compiler's and device library's files (path, size and time).  A
 * source that includes files (``#include``), or options that name
 * directories of them (``-I``), is not cached: a change of those files
 * would go unseen.  ``VACCEL_CL_CACHE=0`` turns the cache off.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <ftw.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "icd.h"
#include "compiler.h"

extern char **environ;

/* Reads a whole file; NULL on failure. */
static void *vcl_read_file(const char *path, size_t *size)
{
	struct stat st;
	void *buf = NULL;
	ssize_t n;
	int fd;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return NULL;
	if (fstat(fd, &st) || st.st_size < 0 || st.st_size > (1 << 30))
		goto out;
	buf = malloc((size_t)st.st_size + 1);
	if (!buf)
		goto out;
	n = read(fd, buf, (size_t)st.st_size);
	if (n != st.st_size) {
		free(buf);
		buf = NULL;
		goto out;
	}
	((char *)buf)[n] = '\0';
	*size = (size_t)n;
out:
	close(fd);
	return buf;
}

static int vcl_write_file(const char *path, const void *data, size_t size)
{
	const char *p = data;
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);

	if (fd < 0)
		return -errno;
	while (size) {
		ssize_t n = write(fd, p, size);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			close(fd);
			return -EIO;
		}
		p += n;
		size -= (size_t)n;
	}
	return close(fd) ? -errno : 0;
}

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/*
 * The files of vaccel-cc's library directory that make a module what it
 * is: each one's identity (size, time, inode) is part of a build's key in
 * the cache, so that a rebuilt or reinstalled toolchain never reuses a
 * module that its predecessor made.  So are the clang and ld.lld that
 * vaccel-cc runs (vaccel-cc --tools): an upgraded compiler replaces them.
 */
static const char *const vcl_lib_files[] = {
	"opencl.bc", "vaccel-cl-lower", "opencl-builtins.h", "libvaccel-rt.a",
	"vaccel-kernel.ld",
};

#define VCL_TOOLS	2	/* clang, ld.lld */

static char vcl_cc[PATH_MAX];
static struct stat vcl_cc_stat, vcl_lib_stat[ARRAY_SIZE(vcl_lib_files) + VCL_TOOLS];
/* vaccel-cc's library directory and the tools it runs, for warm.c. */
static char vcl_lib_dir[PATH_MAX], vcl_tool[VCL_TOOLS][PATH_MAX];

/* Finds vaccel-cc, the device library and the tools it uses, once per process. */
static void vcl_cc_find(void)
{
	const char *env = secure_getenv("VACCEL_CL_CC");
	char lib[PATH_MAX], cmd[2 * PATH_MAX + 64], *slash;
	Dl_info info;
	size_t k;
	FILE *f;

	if (env && *env) {
		snprintf(vcl_cc, sizeof(vcl_cc), "%s", env);
	} else if (dladdr((void *)vcl_cc_find, &info) && info.dli_fname &&
		   strlen(info.dli_fname) < sizeof(lib) - 32) {
		/*
		 * Next to the ICD: a build tree's lib/ and bin/, or an
		 * installation's lib/ or lib/<multiarch>/ and bin/.
		 */
		static const char *const rel[] = { "/../bin/vaccel-cc", "/../../bin/vaccel-cc" };
		unsigned int i;

		for (i = 0; i < 2 && !vcl_cc[0]; i++) {
			strcpy(lib, info.dli_fname);
			slash = strrchr(lib, '/');
			if (!slash)
				break;
			strcpy(slash, rel[i]);
			if (!access(lib, X_OK))
				snprintf(vcl_cc, sizeof(vcl_cc), "%s", lib);
		}
	}
	if (!vcl_cc[0])
		snprintf(vcl_cc, sizeof(vcl_cc), "%s", VCL_INSTALLED_CC);
	if (stat(vcl_cc, &vcl_cc_stat))
		memset(&vcl_cc_stat, 0, sizeof(vcl_cc_stat));
	/* The device library: next to the runtime vaccel-cc prints; then the tools. */
	snprintf(cmd, sizeof(cmd), "'%s' --libs 2>/dev/null; '%s' --tools 2>/dev/null",
		 vcl_cc, vcl_cc);
	memset(vcl_lib_stat, 0, sizeof(vcl_lib_stat));
	if (strchr(vcl_cc, '\''))
		return;
	f = popen(cmd, "re");
	if (!f)
		return;
	if (fgets(lib, sizeof(lib), f)) {
		lib[strcspn(lib, "\n")] = '\0';
		slash = strrchr(lib, '/');
		if (slash)
			snprintf(vcl_lib_dir, sizeof(vcl_lib_dir), "%.*s", (int)(slash - lib), lib);
		for (k = 0; slash && k < ARRAY_SIZE(vcl_lib_files); k++) {
			if ((size_t)(slash - lib) + strlen(vcl_lib_files[k]) + 2 > sizeof(lib))
				break;
			sprintf(slash, "/%s", vcl_lib_files[k]);
			stat(lib, &vcl_lib_stat[k]);
		}
	}
	for (k = ARRAY_SIZE(vcl_lib_files); k < ARRAY_SIZE(vcl_lib_stat); k++) {
		if (!fgets(lib, sizeof(lib), f))
			break;
		lib[strcspn(lib, "\n")] = '\0';
		stat(lib, &vcl_lib_stat[k]);
		snprintf(vcl_tool[k - ARRAY_SIZE(vcl_lib_files)], PATH_MAX, "%s", lib);
	}
	pclose(f);
}

static const char *vcl_cc_path(void)
{
	static pthread_once_t once = PTHREAD_ONCE_INIT;

	pthread_once(&once, vcl_cc_find);
	return vcl_cc;
}

/* Splits @options into words (quotes group, as a shell's do). */
char **vcl_options_split(const char *options, int *count)
{
	size_t len = options ? strlen(options) : 0;
	char **words = calloc(len / 2 + 2, sizeof(*words));
	char *word = malloc(len + 1), *w;
	const char *p = options;
	int n = 0;

	if (!words || !word)
		goto fail;
	while (p && *p) {
		char quote = 0;

		while (*p == ' ' || *p == '\t' || *p == '\n')
			p++;
		if (!*p)
			break;
		w = word;
		while (*p && (quote || (*p != ' ' && *p != '\t' && *p != '\n'))) {
			if (!quote && (*p == '"' || *p == '\''))
				quote = *p;
			else if (quote && *p == quote)
				quote = 0;
			else if (*p == '\\' && p[1] && quote != '\'')
				*w++ = *++p;
			else
				*w++ = *p;
			p++;
		}
		*w = '\0';
		words[n] = strdup(word);
		if (!words[n])
			goto fail;
		n++;
	}
	free(word);
	*count = n;
	return words;
fail:
	while (words && n)
		free(words[--n]);
	free(words);
	free(word);
	return NULL;
}

void vcl_options_free(char **words, int count)
{
	while (words && count)
		free(words[--count]);
	free(words);
}

/*
 * Checks the options of a build (@link false) or a link: the standard
 * ones only.  Return: 0, or -EINVAL for an option the specification does
 * not define, or a -D or -I without its argument.
 */
int vcl_options_check(char **words, int count, bool link)
{
	static const char *const compile_flags[] = {
		"-cl-single-precision-constant", "-cl-denorms-are-zero",
		"-cl-fp32-correctly-rounded-divide-sqrt", "-cl-opt-disable",
		"-cl-mad-enable", "-cl-no-signed-zeros", "-cl-unsafe-math-optimizations",
		"-cl-finite-math-only", "-cl-fast-relaxed-math", "-cl-kernel-arg-info",
		"-cl-uniform-work-group-size", "-cl-no-subgroup-ifp", "-w", "-Werror", "-g",
		NULL,
	};
	static const char *const link_flags[] = {
		"-create-library", "-enable-link-options", "-cl-denorms-are-zero",
		"-cl-no-signed-zeros", "-cl-unsafe-math-optimizations",
		"-cl-finite-math-only", "-cl-fast-relaxed-math", "-cl-no-subgroup-ifp",
		NULL,
	};
	static const char *const stds[] = {
		"-cl-std=CL1.0", "-cl-std=CL1.1", "-cl-std=CL1.2", "-cl-std=CL3.0", NULL,
	};
	const char *const *k;
	int i;

	for (i = 0; i < count; i++) {
		const char *w = words[i];
		bool ok = false;

		for (k = link ? link_flags : compile_flags; *k && !ok; k++)
			ok = !strcmp(w, *k);
		for (k = stds; !link && *k && !ok; k++)
			ok = !strcmp(w, *k);
		if (!ok && !link && (!strncmp(w, "-D", 2) || !strncmp(w, "-I", 2))) {
			if (!w[2] && ++i >= count)
				return -EINVAL;
			ok = true;
		}
		if (!ok)
			return -EINVAL;
	}
	return 0;
}

/* 64-bit FNV-1a, twice with different bases: the cache's names. */
struct vcl_hash {
	uint64_t a, b;
};

static void vcl_hash_add(struct vcl_hash *h, const void *data, size_t size)
{
	const unsigned char *p = data;
	size_t i;

	for (i = 0; i < size; i++) {
		h->a = (h->a ^ p[i]) * 0x100000001b3ull;
		h->b = (h->b ^ p[i]) * 0x100000001b3ull;
		h->b ^= h->b >> 29;
	}
	/* A separator, so that ("ab", "c") and ("a", "bc") differ. */
	h->a = (h->a ^ 0xff) * 0x100000001b3ull;
	h->b = (h->b ^ 0xfe) * 0x100000001b3ull;
}

static void vcl_hash_stat(struct vcl_hash *h, const struct stat *st)
{
	vcl_hash_add(h, &st->st_size, sizeof(st->st_size));
	vcl_hash_add(h, &st->st_mtim, sizeof(st->st_mtim));
	vcl_hash_add(h, &st->st_ino, sizeof(st->st_ino));
}

/* The cache file of a build, in @path; false if it is not to be cached. */
static bool vcl_cache_path(const char *source, const char *options, char *path,
			   size_t size)
{
	const char *env = getenv("VACCEL_CL_CACHE"), *xdg = getenv("XDG_CACHE_HOME");
	const char *home = getenv("HOME");
	struct vcl_hash h = { 0xcbf29ce484222325ull, 0x84222325cbf29ce4ull };
	char dir[PATH_MAX];
	size_t i;
	int n;

	if ((env && !strcmp(env, "0")) || strstr(source, "#include") ||
	    (options && strstr(options, "-I")))
		return false;
	if (xdg && *xdg)
		n = snprintf(dir, sizeof(dir), "%s/vaccel", xdg);
	else if (home && *home)
		n = snprintf(dir, sizeof(dir), "%s/.cache/vaccel", home);
	else
		return false;
	if (n < 0 || (size_t)n >= sizeof(dir) - 8)
		return false;
	/* Made as needed; an existing directory is fine. */
	if (xdg && *xdg)
		mkdir(xdg, 0700);
	else if (home && *home) {
		char cache[PATH_MAX];

		snprintf(cache, sizeof(cache), "%s/.cache", home);
		mkdir(cache, 0700);
	}
	mkdir(dir, 0700);
	strcat(dir, "/cl");
	mkdir(dir, 0700);
	vcl_hash_add(&h, VACCEL_CL_VERSION, sizeof(VACCEL_CL_VERSION));
	vcl_hash_add(&h, vcl_cc_path(), strlen(vcl_cc_path()));
	vcl_hash_stat(&h, &vcl_cc_stat);
	for (i = 0; i < ARRAY_SIZE(vcl_lib_stat); i++)
		vcl_hash_stat(&h, &vcl_lib_stat[i]);
	vcl_hash_add(&h, source, strlen(source));
	vcl_hash_add(&h, options ? options : "", options ? strlen(options) : 0);
	n = snprintf(path, size, "%s/%016llx%016llx.elf", dir, (unsigned long long)h.a,
		     (unsigned long long)h.b);
	return n > 0 && (size_t)n < size;
}

/* Drops every "@dir/" from the log: the source is then "program.cl". */
static void vcl_log_tidy(char *log, const char *dir)
{
	size_t dlen = strlen(dir);
	char *p;

	while ((p = strstr(log, dir)) && p[dlen] == '/')
		memmove(p, p + dlen + 1, strlen(p + dlen + 1) + 1);
}

/* Removes the build's directory and everything in it. */
static int vcl_rm_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	remove(path);
	return 0;
}

static void vcl_rmdir(const char *dir)
{
	nftw(dir, vcl_rm_one, 16, FTW_DEPTH | FTW_PHYS);
}

/* A fresh directory for one run of the compiler. */
static int vcl_mkdir(char *dir, size_t size)
{
	const char *tmp = getenv("TMPDIR");

	snprintf(dir, size, "%s/vaccel-cl.XXXXXX", tmp && *tmp ? tmp : "/tmp");
	return mkdtemp(dir) ? 0 : -errno;
}

/*
 * Runs vaccel-cc in @dir with the user's option @words and then @extra
 * (NULL-terminated); its messages become *@log, with @dir taken out of
 * file names.  Return: 0, -ENOEXEC if it failed, or another -errno.
 */
static int vcl_run_cc(const char *dir, char **words, int count, const char *const *extra,
		      char **log)
{
	const char *const real[VCL_WARM_TOOLS] = { vcl_tool[0], vcl_tool[1], NULL };
	char logpath[PATH_MAX + 8];
	posix_spawn_file_actions_t fa;
	char **argv, **env;
	size_t size;
	pid_t pid;
	int status, i, n = 0, ret;

	for (i = 0; extra[i]; i++)
		;
	argv = calloc((size_t)count + (size_t)i + 2, sizeof(*argv));
	if (!argv)
		return -ENOMEM;
	argv[n++] = (char *)vcl_cc_path();
	for (i = 0; i < count; i++)
		argv[n++] = words[i];
	for (i = 0; extra[i]; i++)
		argv[n++] = (char *)extra[i];
	argv[n] = NULL;
	snprintf(logpath, sizeof(logpath), "%s/log", dir);
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_addopen(&fa, 1, logpath, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	posix_spawn_file_actions_adddup2(&fa, 1, 2);
	posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
	/* The servers start at the first build that the cache did not answer. */
	vcl_warm_start(vcl_lib_dir, real);
	env = vcl_warm_env();
	ret = posix_spawn(&pid, argv[0], &fa, NULL, argv, env ? env : environ);
	posix_spawn_file_actions_destroy(&fa);
	vcl_warm_env_free(env);
	free(argv);
	if (ret) {
		if (asprintf(log, "error: cannot run %s: %s\n", vcl_cc_path(), strerror(ret)) < 0)
			*log = NULL;
		return -ENOEXEC;
	}
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	*log = vcl_read_file(logpath, &size);
	unlink(logpath);
	if (!*log)
		*log = strdup("");
	else
		vcl_log_tidy(*log, dir);
	return WIFEXITED(status) && !WEXITSTATUS(status) ? 0 : -ENOEXEC;
}

int vcl_compile(const char *source, const char *options, char **words, int count,
		void **elf, size_t *elf_size, char **log)
{
	char dir[PATH_MAX - 32], src[PATH_MAX], out[PATH_MAX], cache[PATH_MAX];
	const char *extra[] = { "-cl-kernel-arg-info", "-gline-tables-only", "-o", out, src,
				NULL };
	bool cached;
	int ret;

	*elf = NULL;
	*log = NULL;
	cached = vcl_cache_path(source, options, cache, sizeof(cache));
	if (cached) {
		*elf = vcl_read_file(cache, elf_size);
		if (*elf) {
			*log = strdup("");
			return 0;
		}
	}
	ret = vcl_mkdir(dir, sizeof(dir));
	if (ret)
		return ret;
	snprintf(src, sizeof(src), "%s/program.cl", dir);
	snprintf(out, sizeof(out), "%s/program.elf", dir);
	ret = vcl_write_file(src, source, strlen(source));
	if (!ret)
		ret = vcl_run_cc(dir, words, count, extra, log);
	if (!ret) {
		*elf = vcl_read_file(out, elf_size);
		ret = *elf ? 0 : -EIO;
	}
	if (!ret && cached) {
		/* Written aside, then renamed: a reader never sees half a module. */
		char part[PATH_MAX + 16];

		snprintf(part, sizeof(part), "%s.%d", cache, (int)getpid());
		if (!vcl_write_file(part, *elf, *elf_size))
			rename(part, cache);
		else
			unlink(part);
	}
	vcl_rmdir(dir);
	return ret;
}

/* A header's name is a relative path without "..": it stays in @dir. */
static bool vcl_header_name_ok(const char *name)
{
	const char *p = name;

	if (!*name || *name == '/' || strlen(name) > 200)
		return false;
	while (p) {
		if (!strncmp(p, "..", 2) && (p[2] == '/' || !p[2]))
			return false;
		p = strchr(p, '/');
		if (p)
			p++;
	}
	return true;
}

/* Writes @data at @dir/@name, making the directories of @name. */
static int vcl_write_header(const char *dir, const char *name, const char *data)
{
	char path[PATH_MAX], *slash;
	int n = snprintf(path, sizeof(path), "%s/%s", dir, name);

	if (n < 0 || (size_t)n >= sizeof(path))
		return -ENAMETOOLONG;
	for (slash = strchr(path + strlen(dir) + 1, '/'); slash; slash = strchr(slash + 1, '/')) {
		*slash = '\0';
		mkdir(path, 0700);
		*slash = '/';
	}
	return vcl_write_file(path, data, strlen(data));
}

int vcl_compile_object(const char *source, char **words, int count, unsigned int num_headers,
		       const char *const *headers, const char *const *names, void **bc,
		       size_t *bc_size, char **log)
{
	char dir[PATH_MAX - 32], src[PATH_MAX], out[PATH_MAX], inc[PATH_MAX];
	const char *extra[] = { "-cl-kernel-arg-info", "-gline-tables-only", "-I", inc, "-c",
				"-emit-llvm", "-o", out, src, NULL };
	unsigned int i;
	int ret;

	*bc = NULL;
	*log = NULL;
	for (i = 0; i < num_headers; i++)
		if (!vcl_header_name_ok(names[i]))
			return -EINVAL;
	ret = vcl_mkdir(dir, sizeof(dir));
	if (ret)
		return ret;
	snprintf(src, sizeof(src), "%s/program.cl", dir);
	snprintf(out, sizeof(out), "%s/program.bc", dir);
	snprintf(inc, sizeof(inc), "%s/include", dir);
	mkdir(inc, 0700);
	for (i = 0; i < num_headers && !ret; i++)
		ret = vcl_write_header(inc, names[i], headers[i]);
	if (!ret)
		ret = vcl_write_file(src, source, strlen(source));
	if (!ret)
		ret = vcl_run_cc(dir, words, count, extra, log);
	if (!ret) {
		*bc = vcl_read_file(out, bc_size);
		ret = *bc ? 0 : -EIO;
	}
	vcl_rmdir(dir);
	return ret;
}

int vcl_link(unsigned int n, void *const *bcs, const size_t *sizes, char **words, int count,
	     void **elf, size_t *elf_size, char **log)
{
	char dir[PATH_MAX - 32], out[PATH_MAX], (*paths)[PATH_MAX];
	const char **extra;
	unsigned int i;
	int ret;

	*elf = NULL;
	*log = NULL;
	ret = vcl_mkdir(dir, sizeof(dir));
	if (ret)
		return ret;
	paths = calloc(n, sizeof(*paths));
	extra = calloc(n + 3, sizeof(*extra));
	if (!paths || !extra) {
		ret = -ENOMEM;
		goto out;
	}
	snprintf(out, sizeof(out), "%s/program.elf", dir);
	extra[0] = "-o";
	extra[1] = out;
	for (i = 0; i < n && !ret; i++) {
		snprintf(paths[i], sizeof(paths[i]), "%s/object%u.bc", dir, i);
		extra[2 + i] = paths[i];
		ret = vcl_write_file(paths[i], bcs[i], sizes[i]);
	}
	if (!ret)
		ret = vcl_run_cc(dir, words, count, extra, log);
	if (!ret) {
		*elf = vcl_read_file(out, elf_size);
		ret = *elf ? 0 : -EIO;
	}
out:
	free(paths);
	free(extra);
	vcl_rmdir(dir);
	return ret;
}

/*
 * Where @addr of the module @elf is in the source: "FUNCTION at
 * FILE:LINE:COLUMN", from the module's line table (vaccel-cc builds with
 * -gline-tables-only), by llvm-symbolizer.  Return: 0, or -ENOENT if it
 * cannot say.
 */
int vcl_symbolize(const void *elf, size_t size, uint64_t addr, char *out, size_t out_size)
{
	static const char *const tools[] = { "llvm-symbolizer-14", "llvm-symbolizer", NULL };
	char dir[PATH_MAX - 32], obj[PATH_MAX], res[PATH_MAX], objarg[PATH_MAX + 8];
	char address[32], *text = NULL, *nl, *file;
	posix_spawn_file_actions_t fa;
	size_t len;
	pid_t pid;
	int status, ret, i;

	if (vcl_mkdir(dir, sizeof(dir)))
		return -ENOENT;
	snprintf(obj, sizeof(obj), "%s/module.elf", dir);
	snprintf(res, sizeof(res), "%s/lines", dir);
	snprintf(objarg, sizeof(objarg), "--obj=%s", obj);
	snprintf(address, sizeof(address), "%#llx", (unsigned long long)addr);
	ret = vcl_write_file(obj, elf, size) ? -ENOENT : -ENOEXEC;
	for (i = 0; tools[i] && ret == -ENOEXEC; i++) {
		char *argv[] = { (char *)tools[i], objarg, "--functions=linkage", address, NULL };

		posix_spawn_file_actions_init(&fa);
		posix_spawn_file_actions_addopen(&fa, 1, res, O_WRONLY | O_CREAT | O_TRUNC, 0600);
		posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0);
		if (!posix_spawnp(&pid, tools[i], &fa, NULL, argv, environ)) {
			while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
				;
			if (WIFEXITED(status) && !WEXITSTATUS(status))
				ret = 0;
		}
		posix_spawn_file_actions_destroy(&fa);
	}
	if (!ret)
		text = vcl_read_file(res, &len);
	vcl_rmdir(dir);
	/* Two lines: the function, then FILE:LINE:COLUMN ("??" when unknown). */
	ret = -ENOENT;
	nl = text ? strchr(text, '\n') : NULL;
	if (nl) {
		*nl = '\0';
		file = nl + 1;
		file[strcspn(file, "\n")] = '\0';
		if (strncmp(file, "??", 2)) {
			/* The build's directory is gone: the file's own name. */
			if (strrchr(file, '/'))
				file = strrchr(file, '/') + 1;
			snprintf(out, out_size, "%s at %s", text, file);
			ret = 0;
		}
	}
	free(text);
	return ret;
}
