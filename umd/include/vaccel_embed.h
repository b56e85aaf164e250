/* SPDX-License-Identifier: MIT */
/*
 * Copyright 2026 The vaccel authors
 *
 * vaccel_embed.h - kernel modules built into the host program, as HIP's
 * --genco or CUDA's fat binaries do: no .elf file to ship and find.
 *
 *	$ vaccel-cc --embed=scale -o scale_kernel.o scale_kernel.c
 *	$ cc -o scale scale.c scale_kernel.o $(pkg-config --cflags --libs libvaccel)
 *
 *	#include <vaccel.h>
 *	#include <vaccel_embed.h>
 *
 *	VACCEL_EMBED_DECLARE(scale);
 *
 *	vaccel_module_load(dev, VACCEL_EMBED(scale), &mod, msg, sizeof(msg));
 *
 * vaccel-cc --embed=NAME compiles and links the module as usual, then
 * wraps it into an object for the host (assembled by the host's cc) that
 * defines two read-only symbols: the module's bytes, 64-byte aligned, and
 * their count.  The object's data is not executable (it has a
 * .note.GNU-stack section).  Only this header is needed, not libvaccel.
 */
#ifndef VACCEL_EMBED_H
#define VACCEL_EMBED_H

#include <stddef.h>

#if defined(__cplusplus)
#define __VACCEL_EMBED_LINKAGE	extern "C"
#else
#define __VACCEL_EMBED_LINKAGE	extern
#endif

/*
 * VACCEL_EMBED_DECLARE() - declare the module that vaccel-cc --embed=@name built
 * @name: the name given to --embed, a C identifier
 *
 * Declares, at file scope:
 *
 *	extern const unsigned char vaccel_embed_@name[];	the module
 *	extern const size_t vaccel_embed_@name_size;		its size in bytes
 */
#define VACCEL_EMBED_DECLARE(name)					\
	__VACCEL_EMBED_LINKAGE const unsigned char vaccel_embed_##name[];	\
	__VACCEL_EMBED_LINKAGE const size_t vaccel_embed_##name##_size

/*
 * VACCEL_EMBED() - the image and size arguments of vaccel_module_load()
 * @name: a module declared with VACCEL_EMBED_DECLARE()
 */
#define VACCEL_EMBED(name)	(const void *)vaccel_embed_##name, vaccel_embed_##name##_size

#endif /* VACCEL_EMBED_H */
