// SPDX-License-Identifier: MIT
/*
 * Copyright 2026 The vaccel authors
 *
 * test_libvaccel_fault.c - libvaccel's fault records against the real
 * module: kernels of tests/vm/kernels/faults.c (embedded) that load from
 * an unmapped address, store to read-only memory, execute an illegal
 * instruction, make a misaligned atomic access or trap; a faulting COPY;
 * a raw DISPATCH; and, on loads of their own, a hung kernel, a hung
 * WAIT_MEM and a kernel stopped by the time limit.  For each,
 * vaccel_queue_get_fault() must give the failure, the reason, the access,
 * the address, the submission and packet, the command's recording
 * function and number, the kernel, and for a faulting pc the function of
 * the module it is in and its address in the ELF file (checked against
 * the ELF's own symbol table); vaccel_fault_info_format() must say it.
 *
 * hang_in_kernel and hang_in_wait_mem run on a load with timeout_ms=300,
 * time_limit_in_kernel on one with time_limit_ms=1000.  The example
 * programs and vaccel-sample print the record of a failed queue: they are
 * run from $VT_BIN if set, else found in $PATH.
 */
#include <elf.h>
#include <sys/wait.h>

#include <vaccel.h>

#include "vt_exec.h"
#include "kernels/faults.h"

VT_INCBIN(tf_module, VT_KERNELS "/faults.elf");

/* A device, the module, a compute queue and buffers to work on. */
struct fx {
	struct vaccel_device *dev;
	struct vaccel_module *mod;
	struct vaccel_queue *q;
	struct vaccel_bo *data, *ro;
	uint32_t *cpu;
	uint64_t hole;
};

static struct fx fx_open(enum vaccel_engine_class engine_class)
{
	char msg[VACCEL_MODULE_MSG_SIZE];
	struct fx f;
	void *cpu;
	int ret;

	VT_ASSERT_OK(vaccel_device_open(0, &f.dev));
	ret = vaccel_module_load(f.dev, VT_MODULE(tf_module), &f.mod, msg, sizeof(msg));
	if (ret)
		vtest_fail(__FILE__, __LINE__, "load: %s: %s", strerror(-ret), msg);
	VT_ASSERT_OK(vaccel_queue_create(f.dev, engine_class, VACCEL_PRIORITY_NORMAL, &f.q));
	VT_ASSERT_OK(vaccel_bo_alloc(f.dev, 4096, 0, &f.data));
	VT_ASSERT_OK(vaccel_bo_map(f.data, &cpu));
	f.cpu = cpu;
	VT_ASSERT_OK(vaccel_bo_alloc(f.dev, 4096, VACCEL_BO_GPU_READ_ONLY, &f.ro));
	/* Addresses reserved and never mapped. */
	VT_ASSERT_OK(vaccel_va_alloc(f.dev, 65536, 0, &f.hole));
	return f;
}

static void fx_close(struct fx *f)
{
	vaccel_queue_destroy(f->q);
	if (f->mod)
		vaccel_module_destroy(f->mod);
	vaccel_bo_free(f->ro);
	vaccel_bo_free(f->data);
	VT_ASSERT_OK(vaccel_va_free(f->dev, f->hole, 65536));
	vaccel_device_close(f->dev);
}

static struct vaccel_kernel *kernel(struct fx *f, const char *name)
{
	struct vaccel_kernel *k;

	VT_ASSERT_OK(vaccel_kernel_get(f->mod, name, &k));
	return k;
}

/* Records a launch of kernel @name over @n work-items, on address @p. */
static void launch(struct fx *f, const char *name, uint64_t p, uint32_t n)
{
	const uint32_t grid[3] = { n, 1, 1 }, wg[3] = { 1, 1, 1 };
	struct tf_args a = { .p = p };

	VT_ASSERT_OK(vaccel_launch(f->q, kernel(f, name), grid, wg, &a, sizeof(a)));
}

/* Value and size of symbol @name of the embedded module's ELF file. */
static void elf_symbol(const char *name, uint64_t *value, uint64_t *size)
{
	const unsigned char *img = tf_module;
	const Elf64_Ehdr *eh = (const Elf64_Ehdr *)img;
	const Elf64_Shdr *sh = (const Elf64_Shdr *)(img + eh->e_shoff);
	unsigned int i;
	size_t k;

	for (i = 0; i < eh->e_shnum; i++) {
		const Elf64_Sym *syms = (const Elf64_Sym *)(img + sh[i].sh_offset);
		const char *str = (const char *)img + sh[sh[i].sh_link].sh_offset;

		if (sh[i].sh_type != SHT_SYMTAB)
			continue;
		for (k = 0; k < sh[i].sh_size / sizeof(*syms); k++) {
			if (!strcmp(str + syms[k].st_name, name)) {
				*value = syms[k].st_value;
				*size = syms[k].st_size;
				return;
			}
		}
	}
	vtest_fail(__FILE__, __LINE__, "no symbol %s in faults.elf", name);
}

/* The line of @f contains @want. */
static void expect_line(const struct vaccel_fault_info *f, const char *want)
{
	char line[VACCEL_FAULT_MSG_SIZE];
	int n = vaccel_fault_info_format(f, line, sizeof(line));

	VT_ASSERT(n > 0 && (size_t)n < sizeof(line));
	if (!strstr(line, want))
		vtest_fail(__FILE__, __LINE__, "\"%s\" lacks \"%s\"", line, want);
	printf("# %s\n", line);
}

/*
 * The queue's record of a kernel's fault: third command of its only
 * submission, after a COPY and a good launch; the faulting pc in
 * function @fn of the module, which the ELF file places where the record
 * says.
 */
static void expect_kernel_fault(struct fx *f, const char *name, const char *fn,
				unsigned int reason, int access, uint64_t va)
{
	struct vaccel_module_info mi;
	struct vaccel_queue_stats st;
	struct vaccel_fault_info r;
	uint64_t value, size;
	char want[256];

	VT_ASSERT_OK(vaccel_module_get_info(f->mod, &mi));
	memset(&r, 0xa5, sizeof(r));
	VT_ASSERT_OK(vaccel_queue_get_fault(f->q, &r));
	VT_ASSERT_EQ(r.failure, VACCEL_FAILURE_FAULT);
	VT_ASSERT_EQ(r.error, -EFAULT);
	VT_ASSERT_EQ(r.reason, reason);
	if (access >= 0)
		VT_ASSERT_EQ(r.access, access);
	if (r.va != va)
		vtest_fail(__FILE__, __LINE__, "va 0x%llx, expected 0x%llx",
			   (unsigned long long)r.va, (unsigned long long)va);
	VT_ASSERT(r.pc >= mi.va && r.pc < mi.va + mi.size);
	VT_ASSERT_EQ(r.submission, 1);
	VT_ASSERT(r.buffer_va && r.packet_offset && !(r.packet_offset % 8));
	VT_ASSERT_EQ(r.command, VACCEL_COMMAND_LAUNCH);
	VT_ASSERT_EQ(r.command_index, 3);
	VT_ASSERT(r.kernel && !strcmp(r.kernel, name));
	if (!r.function || strcmp(r.function, fn))
		vtest_fail(__FILE__, __LINE__, "function %s, expected %s",
			   r.function ? r.function : "(none)", fn);
	elf_symbol(fn, &value, &size);
	VT_ASSERT(r.function_offset < size && !(r.function_offset % 4));
	VT_ASSERT(r.elf_pc == value + r.function_offset);
	VT_ASSERT(r.pc - mi.va == r.elf_pc);	/* the module links at 0 */
	VT_ASSERT(!r.reserved[0] && !r.reserved[7]);

	snprintf(want, sizeof(want), " by launch #3 (kernel %s, pc 0x%llx %s+0x%llx, elf 0x%llx), "
		 "submission 1, packet +0x%llx of DMA buffer 0x%llx", name,
		 (unsigned long long)r.pc, fn, (unsigned long long)r.function_offset,
		 (unsigned long long)r.elf_pc, (unsigned long long)r.packet_offset,
		 (unsigned long long)r.buffer_va);
	expect_line(&r, want);
	expect_line(&r, "fault: ");

	VT_ASSERT_OK(vaccel_queue_get_stats(f->q, &st));
	VT_ASSERT_EQ(st.error, -EFAULT);
	VT_ASSERT_EQ(st.reserved[0], 0);
}

/* A COPY and a good launch, then the launch of @name on @p, which faults. */
static void run_kernel_fault(struct fx *f, const char *name, uint64_t p)
{
	VT_ASSERT_OK(vaccel_queue_copy(f->q, vaccel_bo_va(f->data) + 64,
				       vaccel_bo_va(f->data), 64));
	launch(f, "tf_nop", 0, 4);
	launch(f, name, p, 1);
	VT_ASSERT_EQ(vaccel_queue_finish(f->q), -EFAULT);
}

/* A load from an unmapped address, in a function the kernel calls. */
VTEST(kernel_load_unmapped)
{
	struct fx f = fx_open(VACCEL_ENGINE_CLASS_COMPUTE);

	run_kernel_fault(&f, "tf_load", f.hole + 0x40);
	expect_kernel_fault(&f, "tf_load", "tf_deref", VACCEL_FAULT_UNMAPPED,
			    VACCEL_ACCESS_READ, f.hole + 0x40);
	expect_line(&(struct vaccel_fault_info){ 0 }, "no failure");
	fx_close(&f);
}

/* A store to memory mapped read-only for the device. */
VTEST(kernel_store_read_only)
{
	struct fx f = fx_open(VACCEL_ENGINE_CLASS_COMPUTE);
	uint64_t ro = vaccel_bo_va(f.ro) + 8;
	struct vaccel_fault_info r;

	run_kernel_fault(&f, "tf_store", ro);
	expect_kernel_fault(&f, "tf_store", "tf_store", VACCEL_FAULT_PERMISSION,
			    VACCEL_ACCESS_WRITE, ro);
	VT_ASSERT_OK(vaccel_queue_get_fault(f.q, &r));
	expect_line(&r, "fault: write of address");
	expect_line(&r, " not permitted (read-only) by launch #3");
	fx_close(&f);
}

/* An instruction no engine implements: the record holds its word. */
VTEST(kernel_illegal_instruction)
{
	struct fx f = fx_open(VACCEL_ENGINE_CLASS_COMPUTE);
	struct vaccel_fault_info r;

	run_kernel_fault(&f, "tf_illegal", 0);
	expect_kernel_fault(&f, "tf_illegal", "tf_illegal",
			    VACCEL_FAULT_ILLEGAL_INSTRUCTION, -1, 0xffffffffull);
	VT_ASSERT_OK(vaccel_queue_get_fault(f.q, &r));
	expect_line(&r, "fault: illegal instruction 0xffffffff by launch #3");
	fx_close(&f);
}

/* A misaligned atomic: the record holds its address. */
VTEST(kernel_misaligned_atomic)
{
	struct fx f = fx_open(VACCEL_ENGINE_CLASS_COMPUTE);
	uint64_t p = vaccel_bo_va(f.data) + 256;

	run_kernel_fault(&f, "tf_misaligned", p);
	expect_kernel_fault(&f, "tf_misaligned", "tf_misaligned", VACCEL_FAULT_MISALIGNED,
			    VACCEL_ACCESS_WRITE, p + 2);
	VT_ASSERT_EQ(f.cpu[64], 0);
	fx_close(&f);
}

/* ECALL traps; the record's address is the pc. */
VTEST(kernel_ecall)
{
	struct fx f = fx_open(VACCEL_ENGINE_CLASS_COMPUTE);
	struct vaccel_fault_info r;

	run_kernel_fault(&f, "tf_ecall", 0);
	VT_ASSERT_OK(vaccel_queue_get_fault(f.q, &r));
	expect_kernel_fault(&f, "tf_ecall", "tf_ecall", VACCEL_FAULT_TRAP, -1, r.pc);
	expect_line(&r, "fault: ecall or ebreak by launch #3 (kernel tf_ecall");
	fx_close(&f);
}

/*
 * A COPY from an unmapped address, in the third submission, after other
 * commands: the record names the COPY and its number; no kernel, no pc.
 */
VTEST(copy_fault_attributed)
{
	enum vaccel_engine_class classes[] = {
		VACCEL_ENGINE_CLASS_COMPUTE, VACCEL_ENGINE_CLASS_COPY,
	};
	unsigned int k;

	for (k = 0; k < 2; k++) {
		struct fx f = fx_open(classes[k]);
		uint64_t d = vaccel_bo_va(f.data);
		struct vaccel_fault_info r;
		char want[256];

		VT_ASSERT_OK(vaccel_queue_write(f.q, d, 1, 32));
		VT_ASSERT_OK(vaccel_queue_write(f.q, d + 4, 2, 32));
		VT_ASSERT_OK(vaccel_queue_flush(f.q));
		VT_ASSERT_OK(vaccel_queue_timestamp(f.q, d + 8));
		VT_ASSERT_OK(vaccel_queue_flush(f.q));
		VT_ASSERT_OK(vaccel_queue_fill(f.q, d + 64, 64, 7));
		VT_ASSERT_OK(vaccel_queue_copy(f.q, d + 128, f.hole + 0x1000, 64));
		VT_ASSERT_OK(vaccel_queue_write(f.q, d + 16, 3, 32));
		VT_ASSERT_EQ(vaccel_queue_finish(f.q), -EFAULT);
		VT_ASSERT_EQ(f.cpu[0], 1);
		VT_ASSERT_EQ(f.cpu[4], 0);

		VT_ASSERT_OK(vaccel_queue_get_fault(f.q, &r));
		VT_ASSERT_EQ(r.failure, VACCEL_FAILURE_FAULT);
		VT_ASSERT_EQ(r.reason, VACCEL_FAULT_UNMAPPED);
		VT_ASSERT_EQ(r.access, VACCEL_ACCESS_READ);
		VT_ASSERT(r.va == f.hole + 0x1000);
		VT_ASSERT_EQ(r.pc, 0);
		VT_ASSERT_EQ(r.submission, 3);
		VT_ASSERT_EQ(r.packet_offset, 32);
		VT_ASSERT_EQ(r.command, VACCEL_COMMAND_COPY);
		VT_ASSERT_EQ(r.command_index, 5);
		VT_ASSERT(!r.kernel && !r.function && !r.elf_pc);
		snprintf(want, sizeof(want), "fault: read of unmapped address 0x%llx by copy #5, "
			 "submission 3, packet +0x20 of DMA buffer 0x%llx",
			 (unsigned long long)f.hole + 0x1000, (unsigned long long)r.buffer_va);
		expect_line(&r, want);
		fx_close(&f);
	}
}

/* A raw DISPATCH of a kernel's entry: the record finds the kernel's name. */
VTEST(raw_dispatch_names_kernel)
{
	struct fx f = fx_open(VACCEL_ENGINE_CLASS_COMPUTE);
	const uint32_t one[3] = { 1, 1, 1 };
	struct vaccel_kernel_info ki;
	struct vaccel_fault_info r;
	uint64_t ro = vaccel_bo_va(f.ro) + 16;

	VT_ASSERT_OK(vaccel_kernel_get_info(kernel(&f, "tf_store"), &ki));
	/* The argument block, a tf_args, at the start of the data buffer. */
	memcpy(f.cpu, &ro, sizeof(ro));
	VT_ASSERT_OK(vaccel_queue_dispatch(f.q, ki.entry_va, vaccel_bo_va(f.data), one,
					   one, ki.local_size, ki.stack_size));
	VT_ASSERT_EQ(vaccel_queue_finish(f.q), -EFAULT);
	VT_ASSERT_OK(vaccel_queue_get_fault(f.q, &r));
	VT_ASSERT_EQ(r.reason, VACCEL_FAULT_PERMISSION);
	VT_ASSERT(r.va == ro);
	VT_ASSERT_EQ(r.command, VACCEL_COMMAND_DISPATCH);
	VT_ASSERT_EQ(r.command_index, 1);
	VT_ASSERT_EQ(r.packet_offset, 0);
	VT_ASSERT(r.kernel && !strcmp(r.kernel, "tf_store"));
	VT_ASSERT(r.function && !strcmp(r.function, "tf_store"));
	expect_line(&r, " by dispatch #1 (kernel tf_store, pc ");
	fx_close(&f);
}

/*
 * The record is taken when vaccel_queue_finish() sees the failure: the
 * names stay after the module is destroyed, and the record never changes.
 */
VTEST(record_outlives_module)
{
	struct fx f = fx_open(VACCEL_ENGINE_CLASS_COMPUTE);
	struct vaccel_fault_info a, b;

	run_kernel_fault(&f, "tf_load", f.hole);
	VT_ASSERT_OK(vaccel_queue_get_fault(f.q, &a));
	vaccel_module_destroy(f.mod);
	f.mod = NULL;
	VT_ASSERT_OK(vaccel_queue_get_fault(f.q, &b));
	VT_ASSERT(b.kernel && !strcmp(b.kernel, "tf_load"));
	VT_ASSERT(b.function && !strcmp(b.function, "tf_deref"));
	VT_ASSERT(a.pc == b.pc && a.elf_pc == b.elf_pc && a.command_index == b.command_index);
	VT_ASSERT_EQ(vaccel_queue_finish(f.q), -ECANCELED);
	VT_ASSERT_EQ(vaccel_queue_flush(f.q), -ECANCELED);
	VT_ASSERT_OK(vaccel_queue_get_fault(f.q, &b));
	VT_ASSERT_EQ(b.error, -EFAULT);
	VT_ASSERT_EQ(b.command_index, 3);
	fx_close(&f);
}

/* A queue that works has no record; bad arguments are refused. */
VTEST(no_failure)
{
	struct fx f = fx_open(VACCEL_ENGINE_CLASS_COMPUTE);
	struct vaccel_fault_info r;

	launch(&f, "tf_nop", 0, 8);
	VT_ASSERT_OK(vaccel_queue_finish(f.q));
	memset(&r, 0xa5, sizeof(r));
	VT_ASSERT_OK(vaccel_queue_get_fault(f.q, &r));
	VT_ASSERT_EQ(r.failure, VACCEL_FAILURE_NONE);
	VT_ASSERT(!r.error && !r.command && !r.command_index && !r.kernel && !r.pc);
	VT_ASSERT_EQ(vaccel_queue_get_fault(f.q, NULL), -EINVAL);
	VT_ASSERT_EQ(vaccel_queue_get_fault(NULL, &r), -EINVAL);
	fx_close(&f);
}

/*
 * A kernel that never ends: a hang, -ETIMEDOUT, the launch and its
 * kernel named, no fault.  Load with timeout_ms=300.
 */
VTEST_NAMED(hang_in_kernel)
{
	struct fx f = fx_open(VACCEL_ENGINE_CLASS_COMPUTE);
	struct vaccel_queue_stats st;
	struct vaccel_fault_info r;

	launch(&f, "tf_nop", 0, 1);
	launch(&f, "tf_spin", vaccel_bo_va(f.data), 1);
	VT_ASSERT_OK(vaccel_queue_flush(f.q));
	/* Behind it, cancelled: finish still reports the hang. */
	VT_ASSERT_OK(vaccel_queue_write(f.q, vaccel_bo_va(f.data) + 4, 1, 32));
	VT_ASSERT_EQ(vaccel_queue_finish(f.q), -ETIMEDOUT);
	VT_ASSERT_OK(vaccel_queue_get_fault(f.q, &r));
	VT_ASSERT_EQ(r.failure, VACCEL_FAILURE_HANG);
	VT_ASSERT_EQ(r.error, -ETIMEDOUT);
	VT_ASSERT_EQ(r.reason, VACCEL_FAULT_NONE);
	VT_ASSERT(!r.pc && !r.function && !r.va);
	VT_ASSERT_EQ(r.submission, 1);
	VT_ASSERT_EQ(r.command, VACCEL_COMMAND_LAUNCH);
	VT_ASSERT_EQ(r.command_index, 2);
	VT_ASSERT(r.kernel && !strcmp(r.kernel, "tf_spin"));
	expect_line(&r, "hang: no progress for the hang timeout in launch #2 (kernel tf_spin), "
		    "submission 1, packet +0x");
	VT_ASSERT_OK(vaccel_queue_get_stats(f.q, &st));
	VT_ASSERT_EQ(st.error, -ETIMEDOUT);
	VT_ASSERT_EQ(st.guilty_resets, 1);
	VT_ASSERT_EQ(f.cpu[1], 0);
	fx_close(&f);
}

/* A WAIT_MEM that is never met, on a copy queue: a hang of that command. */
VTEST_NAMED(hang_in_wait_mem)
{
	struct fx f = fx_open(VACCEL_ENGINE_CLASS_COPY);
	uint64_t d = vaccel_bo_va(f.data);
	struct vaccel_fault_info r;

	VT_ASSERT_OK(vaccel_queue_write(f.q, d, 5, 32));
	VT_ASSERT_OK(vaccel_queue_wait_mem(f.q, d, 6, ~0ull, VACCEL_COMPARE_EQ, 32));
	VT_ASSERT_EQ(vaccel_queue_finish(f.q), -ETIMEDOUT);
	VT_ASSERT_OK(vaccel_queue_get_fault(f.q, &r));
	VT_ASSERT_EQ(r.failure, VACCEL_FAILURE_HANG);
	VT_ASSERT_EQ(r.command, VACCEL_COMMAND_WAIT_MEM);
	VT_ASSERT_EQ(r.command_index, 2);
	VT_ASSERT_EQ(r.packet_offset, 24);
	VT_ASSERT(!r.kernel);
	expect_line(&r, "hang: no progress for the hang timeout in wait-mem #2, submission 1, "
		    "packet +0x18 of DMA buffer 0x");
	fx_close(&f);
}

/*
 * A launch over 2^32 work-items progresses but never ends: the time limit
 * stops it, and finish reports -ETIMEDOUT even with work behind it.
 * Load with time_limit_ms=1000.
 */
VTEST_NAMED(time_limit_in_kernel)
{
	struct fx f = fx_open(VACCEL_ENGINE_CLASS_COMPUTE);
	const uint32_t grid[3] = { 65536, 65536, 1 }, one[3] = { 1, 1, 1 };
	struct tf_args a = { 0 };
	struct vaccel_queue_stats st;
	struct vaccel_fault_info r;

	VT_ASSERT_OK(vaccel_launch(f.q, kernel(&f, "tf_nop"), grid, one, &a, sizeof(a)));
	VT_ASSERT_OK(vaccel_queue_flush(f.q));
	VT_ASSERT_OK(vaccel_queue_write(f.q, vaccel_bo_va(f.data), 1, 32));
	VT_ASSERT_EQ(vaccel_queue_finish(f.q), -ETIMEDOUT);
	VT_ASSERT_OK(vaccel_queue_get_fault(f.q, &r));
	VT_ASSERT_EQ(r.failure, VACCEL_FAILURE_TIME_LIMIT);
	VT_ASSERT_EQ(r.error, -ETIMEDOUT);
	VT_ASSERT_EQ(r.command, VACCEL_COMMAND_LAUNCH);
	VT_ASSERT_EQ(r.command_index, 1);
	VT_ASSERT_EQ(r.submission, 1);
	VT_ASSERT(r.kernel && !strcmp(r.kernel, "tf_nop"));
	expect_line(&r, "time limit: engine time used up in launch #1 (kernel tf_nop), "
		    "submission 1, packet +0x");
	VT_ASSERT_OK(vaccel_queue_get_stats(f.q, &st));
	VT_ASSERT_EQ(st.error, -ETIMEDOUT);
	VT_ASSERT_EQ(st.guilty_resets, 0);
	VT_ASSERT_EQ(f.cpu[0], 0);
	fx_close(&f);
}

/*
 * Runs the shell command @cmd with the programs' directory ($VT_BIN) first
 * in PATH; its output, stdout and stderr, into @out.  Return: its exit
 * status, or -1.
 */
static int run(const char *cmd, char *out, size_t size)
{
	const char *bin = getenv("VT_BIN");
	char full[1024];
	size_t len = 0, n;
	FILE *p;
	int st;

	snprintf(full, sizeof(full), "PATH=%s:$PATH %s 2>&1", bin && *bin ? bin : ".", cmd);
	p = popen(full, "r");
	VT_ASSERT(p);
	while (len < size - 1 && (n = fread(out + len, 1, size - 1 - len, p)) > 0)
		len += n;
	out[len] = '\0';
	st = pclose(p);
	printf("# %s:\n%s", cmd, out);
	return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

/*
 * An example whose kernel faults says which launch faulted, where, and
 * why: example-vadd given this test's module, whose "vadd" loads from
 * address 0x10.  vaccel-sample -f does the same for a faulting COPY.
 */
VTEST(programs_print_fault)
{
	char out[8192];
	FILE *f = fopen("/tmp/tf_faults.elf", "w");

	VT_ASSERT(f);
	VT_ASSERT_EQ(fwrite(tf_module, 1, tf_module_end - tf_module, f),
		     (size_t)(tf_module_end - tf_module));
	VT_ASSERT_EQ(fclose(f), 0);
	VT_ASSERT_EQ(run("example-vadd -k /tmp/tf_faults.elf -n 1024", out, sizeof(out)), 1);
	if (!strstr(out, "example-vadd: vadd: Bad address\n") ||
	    !strstr(out, "example-vadd: fault: read of address 0x10 outside the address "
		    "space by launch #2 (kernel vadd, pc 0x") ||
	    !strstr(out, " tf_deref+0x"))
		vtest_fail(__FILE__, __LINE__, "example-vadd did not explain its fault");
	unlink("/tmp/tf_faults.elf");

	VT_ASSERT_EQ(run("vaccel-sample -f -s 1", out, sizeof(out)), 1);
	if (!strstr(out, "vaccel-sample: copy queue: the work failed: Bad address\n") ||
	    !strstr(out, "vaccel-sample: fault: read of unmapped address 0x") ||
	    !strstr(out, " by copy #5, submission 2, packet +0x10 of DMA buffer 0x"))
		vtest_fail(__FILE__, __LINE__, "vaccel-sample -f did not explain its fault");
}

VTEST_MAIN()
