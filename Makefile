# SPDX-License-Identifier: GPL-2.0-only
#
# vaccel: the virtual compute accelerator.
#
#   make           build the module, libvaccel and the tools
#   make run       install what is missing, build, boot the dev VM, run the sample
#                  (then, in a second VM, the OpenCL platform: clinfo, examples)
#   make check     install what is missing, build, run every check and test
#   make kunit     the KUnit suites (UML, lockdep)
#   make vmtest    the end-to-end tests in the dev VM, on the debug kernel
#                  (VACCEL_KERNEL=stock: on the stock Debian kernel)
#   make fuzz      vaccel-fuzz in the dev VM on the debug kernel, FUZZ_S s
#   make kcsan     the whole VM plan on the debug kernel's KCSAN variant
#                  (KCSAN, the data-race detector, instead of KASAN): builds
#                  that kernel (once per machine, cached) and vaccel.ko
#                  against it ($(O)/kcsan/vaccel.ko), then the tests
#   make shell     an interactive dev VM with the module loaded, in the work
#                  tree shared over 9p (VACCEL_SHARE=DIR shares another;
#                  scripts/vm.sh exec CMD runs one program of the host)
#   make bench     the benchmarks in the dev VM (and the interpreter's on
#                  the host), as ratios to references
#   make cts       the Khronos OpenCL-CTS (CTS_SRC=its checkout, fetched
#                  outside the tree) on vaccel in the dev VM and on PoCL;
#                  CTS="api buffers:buffer_fill_int,..." picks binaries
#   make math-exhaustive  every float through the math library's cores
#                  on the host, against MPFR (hours; MATH_FUNCTIONS="exp ...")
#   make docs      the HTML documentation and the man pages
#   make man       the man pages only
#   make install   libvaccel, its headers, tools, man pages, the udev rule
#                  and examples of modprobe.d and modules-load.d files
#                  (PREFIX, DESTDIR)
#   make uninstall remove what make install installed (same variables)
#   make dkms      register the module with DKMS, build and install it for
#                  the running kernel (DKMS_KERNEL= another one)
#   make dkms-remove  remove it from DKMS and /usr/src
#   make abi-check libvaccel.so's ABI against its baseline (abidiff)
#   make abi-baseline  store the ABI of this build as the baseline: once
#                  per release of libvaccel
#   make clean     remove the build outputs
#
# The steps the targets above run, which also run alone:
#   make deps      install what is missing (scripts/install-deps.sh)
#   make module    the module only, make umd libvaccel, the tools and examples
#   make vmtests   the VM test programs, make fuzzer vaccel-fuzz,
#   make benches   the benchmark programs
#   make sparse    sparse over every module source
#   make debug-kernel  the debug kernel (KASAN, KCOV, lockdep), once, cached
#   make module-debug  the module against it, make module-kcsan against
#                  the KCSAN variant
#   make dkms-source   the DKMS source tree (DKMS_SOURCE_TREE=)
#
# Build outputs live in the cache, outside the work tree: $(O), by default
# $(VACCEL_CACHE)/build.  KDIR= builds the module against another tree.
# O is ours, not Kbuild's: the kernel's make gets an empty O=.

ROOT := $(CURDIR)
VACCEL_CACHE ?= $(if $(filter 0,$(shell id -u)),/var/cache/vaccel,$(or $(XDG_CACHE_HOME),$(HOME)/.cache)/vaccel)
export VACCEL_CACHE
O ?= $(VACCEL_CACHE)/build
export VACCEL_BUILD := $(O)
PREFIX ?= /usr/local

# The kernel chosen by scripts/install-deps.sh, else any installed 6.12.
KDIR ?= $(or $(shell . $(VACCEL_CACHE)/kernel.env 2>/dev/null && echo $$VACCEL_KDIR),\
	     $(firstword $(wildcard /lib/modules/6.12.*-amd64/build)))

MODULE_SRC := Kbuild $(shell find drivers uapi -type f)

# Dependency files name the sources by absolute path: outputs left in the
# cache by another checkout would point make at files that do not exist, so
# a cache last used from elsewhere starts afresh.
$(shell mkdir -p $(O) && if [ "$$(cat $(O)/.root 2>/dev/null)" != "$(ROOT)" ]; then \
	rm -rf $(O)/module $(O)/umd $(O)/tests $(O)/host $(O)/docs; \
	echo "$(ROOT)" > $(O)/.root; fi)

.PHONY: all module umd vmtests benches deps run check kunit vmtest shell abi-check abi-baseline \
	bench docs man install uninstall clean sparse debug-kernel module-debug \
	fuzz fuzzer dkms dkms-source dkms-remove kcsan module-kcsan cts math-exhaustive

all: module umd

# Kbuild of 6.12 writes objects next to the sources, so the module is built
# from a copy in $(O).  Kbuild is always entered: it rebuilds what changed,
# including on a change of flags such as W=1.
module:
	@test -n "$(KDIR)" -a -d "$(KDIR)" || \
		{ echo "no kernel tree: run scripts/install-deps.sh or set KDIR=" >&2; exit 1; }
	@mkdir -p $(O)/module
	@cp -a --parents $(MODULE_SRC) $(O)/module/
	$(MAKE) -C $(KDIR) O= M=$(O)/module CONFIG_DRM_ACCEL_VACCEL=m $(if $(W),W=$(W)) modules
	@cp $(O)/module/drivers/accel/vaccel/vaccel.ko $(O)/vaccel.ko
	@echo "  MODULE  $(O)/vaccel.ko"

# The same sources against the debug kernel's tree, built in a directory
# of their own so that the two builds never mix objects.
debug-kernel: deps
	@scripts/debug-kernel/build.sh

module-debug:
	@env=$$(scripts/debug-kernel/build.sh --print-env) || \
		{ echo "no debug kernel for the current inputs: make debug-kernel" >&2; exit 1; }; \
	. $$env; mkdir -p $(O)/module-debug $(O)/debug; \
	cp -a --parents $(MODULE_SRC) $(O)/module-debug/; \
	$(MAKE) -C $$VACCEL_DEBUG_KDIR O= M=$(O)/module-debug CONFIG_DRM_ACCEL_VACCEL=m $(if $(W),W=$(W)) modules && \
	cp $(O)/module-debug/drivers/accel/vaccel/vaccel.ko $(O)/debug/vaccel.ko && \
	echo "  MODULE  $(O)/debug/vaccel.ko (debug kernel)"

# The same against the KCSAN variant of the debug kernel (build.sh
# --variant kcsan: KCSAN and KASAN exclude each other), in a copy of its own.
module-kcsan:
	@env=$$(scripts/debug-kernel/build.sh --variant kcsan --print-env) || \
		{ echo "no KCSAN kernel for the current inputs: make kcsan" >&2; exit 1; }; \
	. $$env; mkdir -p $(O)/module-kcsan $(O)/kcsan; \
	cp -a --parents $(MODULE_SRC) $(O)/module-kcsan/; \
	$(MAKE) -C $$VACCEL_DEBUG_KDIR O= M=$(O)/module-kcsan CONFIG_DRM_ACCEL_VACCEL=m $(if $(W),W=$(W)) modules && \
	cp $(O)/module-kcsan/drivers/accel/vaccel/vaccel.ko $(O)/kcsan/vaccel.ko && \
	echo "  MODULE  $(O)/kcsan/vaccel.ko (KCSAN kernel)"

# sparse over every module source, whether it changed or not.
sparse:
	@mkdir -p $(O)/module
	@cp -a --parents $(MODULE_SRC) $(O)/module/
	$(MAKE) -C $(KDIR) O= M=$(O)/module CONFIG_DRM_ACCEL_VACCEL=m C=2 modules

umd:
	$(MAKE) -C umd O=$(O)/umd ROOT=$(ROOT) PREFIX=$(PREFIX)

vmtests: umd fuzzer
	$(MAKE) -C tests/vm O=$(O)/tests/vm UMD_O=$(O)/umd ROOT=$(ROOT)

fuzzer:
	$(MAKE) -C tests/fuzz O=$(O)/tests/fuzz ROOT=$(ROOT)

benches: umd
	$(MAKE) -C tests/bench O=$(O)/tests/bench UMD_O=$(O)/umd ROOT=$(ROOT)

deps:
	@scripts/install-deps.sh

# The targets a newcomer runs first install what is missing, then re-enter
# make so that KDIR is read from the freshly written kernel.env.
# The OpenCL part runs in a second VM, through vm.sh exec: clBuildProgram
# needs the host's clang, which the sample's initramfs has not.
CL_RUN := $(VACCEL_CACHE)/run-opencl
run: deps
	@$(MAKE) --no-print-directory all
	@scripts/vm.sh run
	@rm -rf $(CL_RUN) && mkdir -p $(CL_RUN)/home
	@cd $(CL_RUN) && $(ROOT)/scripts/vm.sh exec /usr/bin/env \
		OCL_ICD_VENDORS=$(O)/umd/share/OpenCL/vendors HOME=$(CL_RUN)/home \
		sh $(ROOT)/scripts/guest/sample.sh opencl $(O)/umd

check: deps
	@scripts/check.sh

kunit: deps
	@scripts/kunit.sh

# The debug kernel and vaccel.ko against it, when the VM is to boot it:
# $(1) is the kernel the mode boots by default.
debug_if_needed = if [ "$${VACCEL_KERNEL:-$(1)}" = debug ]; then \
		scripts/debug-kernel/build.sh && $(MAKE) --no-print-directory module-debug; fi

vmtest: deps
	@$(MAKE) --no-print-directory all vmtests
	@$(call debug_if_needed,debug)
	@scripts/vm.sh test

# The whole plan on the KCSAN kernel: a KCSAN report fails
# vm.kernel_log_clean like any other.
kcsan: deps
	@scripts/debug-kernel/build.sh --variant kcsan
	@$(MAKE) --no-print-directory module-kcsan
	@$(MAKE) --no-print-directory vmtests
	@VACCEL_KERNEL=kcsan scripts/vm.sh test

FUZZ_S ?= 300
fuzz: deps
	@$(MAKE) --no-print-directory all vmtests
	@$(call debug_if_needed,debug)
	@FUZZ_S=$(FUZZ_S) scripts/vm.sh fuzz

shell: deps
	@$(MAKE) --no-print-directory all vmtests
	@$(call debug_if_needed,stock)
	@scripts/vm.sh shell

bench: deps
	@$(MAKE) --no-print-directory all benches
	@scripts/bench-host.sh
	@scripts/vm.sh bench
	@scripts/bench-opencl.sh || true
	@scripts/bench-host.sh merge $(VACCEL_CACHE)/bench/results.json
	@scripts/bench-opencl.sh merge $(VACCEL_CACHE)/bench/results.json

cts: deps
	@$(MAKE) --no-print-directory all
	@scripts/cts.sh $(CTS)

# Each function on a CPU of its own; a line per function, as math_cores
# prints them, and the status of the worst.
MATH_FUNCTIONS ?= exp exp2 exp10 expm1 log log2 log10 log1p rsqrt cbrt
math-exhaustive: deps
	@mkdir -p $(O)/host/bin
	$(CC) -std=gnu11 -O2 -ffp-contract=off -I$(ROOT)/umd/opencl -o $(O)/host/bin/math_cores \
		tests/host/math_cores.c -lmpfr -lgmp -lm
	@echo $(MATH_FUNCTIONS) | tr ' ' '\n' | xargs -P $$(nproc) -I{} $(O)/host/bin/math_cores 1 {}

docs: deps
	@scripts/docs.sh

man:
	@scripts/docs.sh man

abi-check: umd
	@scripts/abi.sh check

abi-baseline: umd
	@scripts/abi.sh baseline

# Installation.  libvaccel and the tools go where umd/Makefile says (LIBDIR
# is Debian's multiarch directory); the man pages to $(MANDIR)/manN.  The
# udev rule is live only under /usr/lib/udev/rules.d, so it goes there when
# PREFIX=/usr and is otherwise installed as an example, like the modprobe.d
# and modules-load.d files, which change how the system boots and are
# never installed live: copy them to /etc to use them.  UDEVRULESDIR=
# chooses another place.  uninstall removes the files of the same lists.
DATADIR ?= $(PREFIX)/share
MANDIR ?= $(DATADIR)/man
DOCDIR ?= $(DATADIR)/doc/vaccel
EXAMPLEDIR := $(DOCDIR)/examples
UDEVRULESDIR ?= $(if $(filter /usr,$(PREFIX)),/usr/lib/udev/rules.d,$(EXAMPLEDIR))
INSTALL ?= install

MAN_PAGES := vaccel-info.1 vaccel-sample.1 vaccel-top.1 vaccel-trace.1 \
	vaccel-coredump.1 vaccel-cc.1 libvaccel.3 vaccel.4 vaccel-opencl.7
INSTALLED_MAN := $(foreach p,$(MAN_PAGES),$(MANDIR)/man$(subst .,,$(suffix $(p)))/$(p))
INSTALLED_SYSTEM := $(UDEVRULESDIR)/70-vaccel.rules \
	$(EXAMPLEDIR)/modprobe.d/vaccel.conf $(EXAMPLEDIR)/modules-load.d/vaccel.conf
# Directories of vaccel's own, deepest first.
INSTALLED_DIRS := $(EXAMPLEDIR)/modprobe.d $(EXAMPLEDIR)/modules-load.d \
	$(EXAMPLEDIR) $(DOCDIR)

# A live rule is read by udevd at its next reload; devices that exist
# already get it from `udevadm trigger --subsystem-match=accel`.
udev_reload = if [ -z "$(DESTDIR)" ] && [ "$(UDEVRULESDIR)" = /usr/lib/udev/rules.d ]; then \
		udevadm control --reload 2>/dev/null || true; fi

install: umd man
	$(MAKE) -C umd O=$(O)/umd ROOT=$(ROOT) PREFIX=$(PREFIX) install
	$(INSTALL) -d $(sort $(addprefix $(DESTDIR),$(dir $(INSTALLED_MAN) $(INSTALLED_SYSTEM))))
	$(foreach p,$(MAN_PAGES),$(INSTALL) -m 0644 $(O)/docs/man/$(p) \
		$(DESTDIR)$(filter %/$(p),$(INSTALLED_MAN)) &&) true
	$(INSTALL) -m 0644 scripts/install/70-vaccel.rules $(DESTDIR)$(UDEVRULESDIR)/
	$(INSTALL) -m 0644 scripts/install/modprobe-vaccel.conf \
		$(DESTDIR)$(EXAMPLEDIR)/modprobe.d/vaccel.conf
	$(INSTALL) -m 0644 scripts/install/modules-load-vaccel.conf \
		$(DESTDIR)$(EXAMPLEDIR)/modules-load.d/vaccel.conf
	@$(udev_reload)

uninstall:
	$(MAKE) -C umd O=$(O)/umd ROOT=$(ROOT) PREFIX=$(PREFIX) uninstall
	rm -f $(addprefix $(DESTDIR),$(INSTALLED_MAN) $(INSTALLED_SYSTEM))
	for d in $(addprefix $(DESTDIR),$(INSTALLED_DIRS)); do \
		if [ -d "$$d" ]; then rmdir --ignore-fail-on-non-empty "$$d"; fi; \
	done
	@$(udev_reload)

# DKMS.  The version is dkms.conf's, which must be the uapi's
# MAJOR.MINOR.0, the DRM driver version the module reports.
DKMS_VERSION = $(shell sed -n 's/^PACKAGE_VERSION="\(.*\)"$$/\1/p' dkms.conf)
UAPI_VERSION = $(shell sed -n 's/^\#define[[:space:]]*DRM_VACCEL_UAPI_MAJOR[[:space:]]*\([0-9]*\).*/\1/p' \
	uapi/drm/vaccel_accel.h).$(shell sed -n \
	's/^\#define[[:space:]]*DRM_VACCEL_UAPI_MINOR[[:space:]]*\([0-9]*\).*/\1/p' \
	uapi/drm/vaccel_accel.h).0
DKMS_SOURCE_TREE ?= /usr/src
DKMS_SRC = $(DKMS_SOURCE_TREE)/vaccel-$(DKMS_VERSION)
DKMS_KERNEL ?= $(shell uname -r)
DKMS_SOURCES := Kbuild dkms.conf $(shell find drivers uapi -type f)

# The DKMS source tree: the module's sources, dkms.conf, and a Makefile for
# DKMS's build.  DKMS_SOURCE_TREE= stages it elsewhere (make check does).
dkms-source:
	@test "$(DKMS_VERSION)" = "$(UAPI_VERSION)" || \
		{ echo "dkms.conf: PACKAGE_VERSION is $(DKMS_VERSION), the uapi is $(UAPI_VERSION)" >&2; exit 1; }
	rm -rf $(DKMS_SRC)
	mkdir -p $(DKMS_SRC)
	cp -a --parents $(DKMS_SOURCES) $(DKMS_SRC)/
	cp scripts/install/dkms.mk $(DKMS_SRC)/Makefile

dkms: dkms-source
	@command -v dkms >/dev/null || \
		{ echo "no dkms: apt-get install dkms (or scripts/install-deps.sh)" >&2; exit 1; }
	@if dkms status -m vaccel -v $(DKMS_VERSION) | grep -q .; then \
		dkms remove -m vaccel -v $(DKMS_VERSION) --all; fi
	dkms add -m vaccel -v $(DKMS_VERSION)
	dkms build -m vaccel -v $(DKMS_VERSION) -k $(DKMS_KERNEL)
	dkms install -m vaccel -v $(DKMS_VERSION) -k $(DKMS_KERNEL)

dkms-remove:
	@command -v dkms >/dev/null || \
		{ echo "no dkms: apt-get install dkms (or scripts/install-deps.sh)" >&2; exit 1; }
	@if dkms status -m vaccel -v $(DKMS_VERSION) | grep -q .; then \
		dkms remove -m vaccel -v $(DKMS_VERSION) --all; \
	else echo "vaccel $(DKMS_VERSION) is not registered with DKMS"; fi
	rm -rf $(DKMS_SRC)

clean:
	rm -rf $(O)
