# SPDX-License-Identifier: GPL-2.0-only
#
# The Makefile of the DKMS source tree /usr/src/vaccel-$VERSION (`make dkms`
# copies it there as Makefile): builds vaccel.ko against KDIR, which DKMS
# sets to the build tree of the kernel it builds for.  Objects are written
# next to the sources, in DKMS's own copy of them.
#
#   make KDIR=/lib/modules/$(uname -r)/build
#   make KDIR=... clean

KDIR ?= /lib/modules/$(shell uname -r)/build

.PHONY: all modules clean

all: modules

modules:
	@test -d "$(KDIR)" || \
		{ echo "no kernel build tree at $(KDIR): install its headers" >&2; exit 1; }
	$(MAKE) -C $(KDIR) M=$(CURDIR) CONFIG_DRM_ACCEL_VACCEL=m modules

clean:
	@test -d "$(KDIR)" || \
		{ echo "no kernel build tree at $(KDIR): install its headers" >&2; exit 1; }
	$(MAKE) -C $(KDIR) M=$(CURDIR) clean
