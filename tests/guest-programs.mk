# SPDX-License-Identifier: MIT
#
# tests/guest-programs.mk - builds the programs that run in the dev VM.
#
# Included by tests/vm/Makefile and tests/bench/Makefile, which set
#   PROG_DIR   the directory of the sources (absolute)
#   PROG_GLOB  which sources are programs, such as test_*.c
#   PROG_LIBS  extra libraries (optional)
#   CFLAGS_<name>     extra compiler flags of one program or object (optional)
#   EXTRA_<program>   further objects linked into one program (optional):
#                     $(O)/obj/NAME.o is built from $(PROG_DIR)/NAME.c
# and are called as `make -C DIR O=/abs/out UMD_O=/abs/out/umd [CC=clang]`.
#
# libvaccel is linked statically ($(UMD_O)/lib/libvaccel.a, built through
# umd/Makefile if needed), libdrm and libc dynamically: the guest needs
# libdrm.so.2 but no libvaccel.so.

ROOT ?= $(abspath $(PROG_DIR)/../..)
O ?= $(ROOT)/.build/$(notdir $(PROG_DIR))
UMD_O ?= $(ROOT)/.build/umd

PKG_CONFIG ?= pkg-config
DRM_CFLAGS := $(shell $(PKG_CONFIG) --cflags libdrm)
DRM_LIBS := $(shell $(PKG_CONFIG) --libs libdrm)
ifeq ($(DRM_LIBS),)
$(error libdrm not found by $(PKG_CONFIG): install libdrm-dev)
endif

CFLAGS ?= -O2 -g
ALL_CFLAGS := -std=gnu11 -Wall -Wextra -Werror -Wno-unused-parameter \
	      -Wno-missing-field-initializers -pthread \
	      -I$(PROG_DIR) -I$(ROOT)/tests/vm -I$(ROOT)/umd/include \
	      -I$(ROOT)/uapi $(DRM_CFLAGS) $(CPPFLAGS) $(CFLAGS)

SRCS := $(sort $(notdir $(wildcard $(PROG_DIR)/$(PROG_GLOB))))
BINS := $(addprefix $(O)/bin/,$(SRCS:.c=))
LIBVACCEL := $(UMD_O)/lib/libvaccel.a

.PHONY: all clean FORCE
.DELETE_ON_ERROR:
.SECONDEXPANSION:

all: $(BINS)

# Let umd/Makefile decide whether the library is up to date.
$(LIBVACCEL): FORCE
	$(MAKE) -C $(ROOT)/umd O=$(UMD_O) ROOT=$(ROOT) lib

$(BINS): $(O)/bin/%: $(PROG_DIR)/%.c $(LIBVACCEL) $$(EXTRA_$$*)
	@mkdir -p $(@D)
	@mkdir -p $(O)/obj
	$(CC) $(ALL_CFLAGS) $(CFLAGS_$*) -MMD -MP -MF $(O)/obj/$*.d -MT $@ $(LDFLAGS) \
		-o $@ $< $(EXTRA_$*) $(LIBVACCEL) $(DRM_LIBS) $(PROG_LIBS) -pthread

$(O)/obj/%.o: $(PROG_DIR)/%.c
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) $(CFLAGS_$*) -MMD -MP -c -o $@ $<

clean:
	rm -rf $(O)/bin $(O)/obj

-include $(wildcard $(O)/obj/*.d)
