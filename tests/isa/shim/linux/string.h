/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Copyright 2026 The vaccel authors
 *
 * The kernel's <linux/string.h>, in user space.
 */
#ifndef __VACCEL_SHIM_LINUX_STRING_H__
#define __VACCEL_SHIM_LINUX_STRING_H__

#include <string.h>

#endif /* __VACCEL_SHIM_LINUX_STRING_H__ */
