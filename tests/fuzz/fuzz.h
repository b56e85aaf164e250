/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * fuzz.h - vaccel-fuzz: the shared types of the structured uapi fuzzer.
 *
 * A program is a short sequence of calls.  Each call names an operation
 * of the uapi (an ioctl, an mmap, a write of a DMA buffer or a kernel into
 * a mapping, a fork, the passing of an fd) and gives it arguments.  An
 * argument is either a literal value or a reference to the result of an
 * earlier call of the program: the BO a bo_create made, the context a
 * ctx_create made.  Calls run on one of two threads, so that calls of one
 * program race each other.
 *
 * Programs are text, one call per line:
 *
 *	r0 = bo_create fd0 0x4000 0x0
 *	ctx_destroy fd0 r2
 *	@1 submit fd0 r2 0x3 0x1000 0 0
 *
 * "@1" runs the call on thread 1; "rN" is the result of call N; "fdN" is
 * the device file N the executor opened (fd0 on accel0, fd1 on accel1 when
 * there is one).  Every run is reproducible from the program text; every
 * generated program is reproducible from the campaign's seed and its
 * number (see prog.c).
 */
#ifndef VACCEL_FUZZ_H
#define VACCEL_FUZZ_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define FUZZ_MAX_CALLS		48
#define FUZZ_MAX_ARGS		7
#define FUZZ_THREADS		2
#define FUZZ_DEVICE_FILES	2

/* An argument: a literal, the result of call n, or device file n. */
enum fuzz_arg_type {
	FT_LIT,
	FT_REF,
	FT_FD,
};

struct fuzz_arg {
	uint64_t v;
	uint8_t t;	/* enum fuzz_arg_type */
};

#define LIT(x)	((struct fuzz_arg){ (uint64_t)(x), FT_LIT })
#define REF(n)	((struct fuzz_arg){ (uint64_t)(n), FT_REF })
#define FD(n)	((struct fuzz_arg){ (uint64_t)(n), FT_FD })

/* What an argument is, so that generation and mutation pick sensible values. */
enum fuzz_arg_kind {
	FA_FD,		/* a device file */
	FA_BO,		/* a GEM handle */
	FA_CTX,		/* a context handle */
	FA_SYNCOBJ,	/* a syncobj handle */
	FA_DMABUF,	/* a dma-buf fd */
	FA_SYNCFILE,	/* a sync_file fd */
	FA_ANYFD,	/* any fd a call made: dma-buf, sync_file, device */
	FA_MAP,		/* a CPU mapping a call made */
	FA_SLOT,	/* a GPU VA: slot number, or a wild address */
	FA_SIZE,	/* a size in bytes */
	FA_FLAGS,	/* a flags word, mostly zero */
	FA_SMALL,	/* a small number: count, class, instance, priority */
	FA_POINT,	/* a timeline point */
	FA_TIMEOUT,	/* a relative timeout in ns, made absolute at run time */
	FA_KIND,	/* what a write_* call writes */
	FA_SEED,	/* a 32-bit seed for a write_* call's contents */
	FA_BOFLAGS,	/* BO creation flags: placement, mostly valid */
	FA_REGION,	/* a memory region of BO_MIGRATE, mostly valid */
};

/* What a call's result is, so that later calls can consume it. */
enum fuzz_res_kind {
	FR_NONE,
	FR_FD,		/* a device file opened by the program */
	FR_BO,
	FR_CTX,
	FR_SYNCOBJ,
	FR_DMABUF,
	FR_SYNCFILE,
	FR_MAP,
	FR_VA,		/* the GPU VA a bind mapped */
	FR_VALUE,	/* a number, not a resource */
};

struct fuzz_call_desc {
	const char *name;
	enum fuzz_res_kind res;
	unsigned int nargs;
	enum fuzz_arg_kind args[FUZZ_MAX_ARGS];
	/* Relative weight when generating. */
	unsigned int weight;
};

struct fuzz_call {
	uint8_t id;
	uint8_t thread;
	struct fuzz_arg arg[FUZZ_MAX_ARGS];
};

struct fuzz_prog {
	unsigned int ncalls;
	struct fuzz_call call[FUZZ_MAX_CALLS];
};

/* The xorshift64* generator every random choice comes from. */
struct fuzz_rng {
	uint64_t s;
};

static inline uint64_t fuzz_next(struct fuzz_rng *r)
{
	r->s ^= r->s >> 12;
	r->s ^= r->s << 25;
	r->s ^= r->s >> 27;
	return r->s * 0x2545f4914f6cdd1dull;
}

static inline uint64_t fuzz_below(struct fuzz_rng *r, uint64_t n)
{
	return n ? fuzz_next(r) % n : 0;
}

static inline bool fuzz_chance(struct fuzz_rng *r, unsigned int percent)
{
	return fuzz_below(r, 100) < percent;
}

void fuzz_seed(struct fuzz_rng *r, uint64_t seed, uint64_t stream);

/* calls.c: the table of calls, and how each runs. */
extern const struct fuzz_call_desc fuzz_calls[];
extern const unsigned int fuzz_ncalls;
int fuzz_call_by_name(const char *name);

/* The device the executor works with, learned once by the manager. */
struct fuzz_device {
	unsigned int files;		/* device files to open, 1 or 2 */
	char path[FUZZ_DEVICE_FILES][64];
	uint64_t va_start, va_end;
	uint32_t compute_engines, copy_engines;
};

/* A CPU mapping a call made. */
struct fuzz_map {
	void *ptr;
	size_t len;
};

/* The state of one run: what the calls made, shared by the threads. */
struct fuzz_state {
	const struct fuzz_device *dev;
	const struct fuzz_prog *prog;
	int devfd[FUZZ_DEVICE_FILES];
	uint64_t res[FUZZ_MAX_CALLS];		/* each call's result */
	struct fuzz_map map[FUZZ_MAX_CALLS];	/* for FR_MAP results */
	int res_fd[FUZZ_MAX_CALLS];		/* the device file of FR_SYNCOBJ results */
	int gate[FUZZ_MAX_CALLS];		/* the sw_sync timeline of a gate, + 1 */
	int sock[2];				/* fd passing, to itself and children */
};

int fuzz_run_call(struct fuzz_state *st, unsigned int index, unsigned int thread);
unsigned int fuzz_export_fences(struct fuzz_state *st, int *fds, unsigned int max);
void fuzz_open_gates(struct fuzz_state *st);

/* What one run of a program returns to the manager. */
struct fuzz_result {
	uint32_t nedges;
	uint32_t calls_done;
	uint32_t calls_ok;
	uint32_t edges[];	/* hashes of the edges covered, deduplicated */
};

#define FUZZ_RESULT_EDGES	(1u << 16)
#define FUZZ_RESULT_BYTES	(sizeof(struct fuzz_result) + FUZZ_RESULT_EDGES * 4)

/*
 * exec.c: runs a program in the calling process (a child of the manager);
 * the fences of the program's syncobjs go to @fence_sock as sync_files.
 */
void fuzz_exec(const struct fuzz_prog *p, const struct fuzz_device *dev,
	       struct fuzz_result *out, bool coverage, int fence_sock);
bool fuzz_kcov_available(void);
/* Print each call's outcome on stderr (replay --trace). */
extern bool fuzz_trace;

/* prog.c: generation, mutation, text. */
void fuzz_generate(struct fuzz_prog *p, struct fuzz_rng *r);
void fuzz_mutate(struct fuzz_prog *p, struct fuzz_rng *r);
void fuzz_print(FILE *f, const struct fuzz_prog *p);
int fuzz_parse(const char *text, struct fuzz_prog *p, char *err, size_t errlen);
void fuzz_remove_call(struct fuzz_prog *p, unsigned int i);

/* content.c: DMA buffers and RV64 kernels, valid and malformed. */
enum fuzz_write_kind {
	FW_VALID,	/* well-formed packets or a well-formed kernel */
	FW_BITFLIP,	/* the valid one with bits flipped */
	FW_RANDOM,	/* random words */
	FW_WILD,	/* valid shapes, wild addresses, sizes, branches */
	FW_LONG,	/* a buffer that keeps its engine busy, to be preempted */
	FW_KINDS,
};

/* Where the packets of a buffer find their kernel and their data. */
struct fuzz_layout {
	uint64_t kernel_va;
	uint64_t data_va;
};

size_t fuzz_write_buffer(void *dst, size_t len, unsigned int kind, uint32_t seed,
			 const struct fuzz_device *dev, const struct fuzz_layout *l);
size_t fuzz_write_kernel(void *dst, size_t len, unsigned int kind,
			 uint32_t seed, const struct fuzz_device *dev);
uint64_t fuzz_slot_va(const struct fuzz_device *dev, uint64_t slot);
uint64_t fuzz_call_va(const struct fuzz_device *dev, unsigned int index);

#define FUZZ_SLOTS		16
#define FUZZ_SLOT_BYTES		(1ull << 20)
/*
 * A VA argument of this value is the call's own range: call i's binds map
 * at fuzz_call_va(i), which no other call uses, so a program's buffers do
 * not collide.
 */
#define FUZZ_SLOT_CALL		0x40
#define FUZZ_CALL_VA_BYTES	(64ull << 20)

#endif /* VACCEL_FUZZ_H */
