#!/usr/bin/python3
# SPDX-License-Identifier: MIT
# Copyright 2026 The vaccel authors
#
# cl_vadd.py - example-vadd through pyopencl (Debian's python3-pyopencl):
# c = a + b on n floats on the vaccel OpenCL platform, with vadd.cl's
# kernel, checked bit for bit against numpy.
#
#     cl_vadd.py [-n FLOATS]
#
# pyopencl keeps a cache of built programs: it needs a writable
# $XDG_CACHE_HOME, $HOME/.cache or $PYOPENCL_CACHE_DIR.  Exit status: 0 when
# the device computed what numpy computes, 1 otherwise, 2 on a usage error.

import argparse
import sys

import numpy as np
import pyopencl as cl

SOURCE = """
kernel void vadd(global const float *a, global const float *b, global float *c, uint n)
{
	uint i = get_global_id(0);

	if (i < n)
		c[i] = a[i] + b[i];
}
"""
WG = 256


def vaccel_platform():
    """The vaccel platform, by name; exits with a message if there is none."""
    try:
        platforms = cl.get_platforms()
    except cl.Error as e:
        platforms = []
        why = str(e)
    else:
        why = ", ".join('"%s"' % p.name for p in platforms) or "none"
    for p in platforms:
        if "vaccel" in p.name:
            return p
    sys.exit("cl_vadd.py: no vaccel OpenCL platform (found: %s); install vaccel's ICD "
             "or point OCL_ICD_VENDORS at <build>/share/OpenCL/vendors" % why)


def main():
    ap = argparse.ArgumentParser(description="Add two vectors of floats through "
                                 "pyopencl on vaccel; check with numpy.")
    ap.add_argument("-n", type=int, default=1 << 18, help="floats (default 262144)")
    n = ap.parse_args().n
    if not 0 < n <= 1 << 24:
        ap.error("bad value %d for -n" % n)

    platform = vaccel_platform()
    devices = platform.get_devices()
    if not devices:
        sys.exit("cl_vadd.py: the vaccel platform has no device: is the module loaded?")
    ctx = cl.Context(devices[:1])
    queue = cl.CommandQueue(ctx)
    prog = cl.Program(ctx, SOURCE).build()

    rng = np.random.default_rng(1)
    a = (rng.integers(-4096, 4096, n) / 4096.0 * 1000.0).astype(np.float32)
    b = (rng.integers(-4096, 4096, n) / 4096.0 / 3.0).astype(np.float32)
    c = np.empty_like(a)
    mf = cl.mem_flags
    da = cl.Buffer(ctx, mf.READ_ONLY | mf.COPY_HOST_PTR, hostbuf=a)
    db = cl.Buffer(ctx, mf.READ_ONLY | mf.COPY_HOST_PTR, hostbuf=b)
    dc = cl.Buffer(ctx, mf.WRITE_ONLY, c.nbytes)
    grid = (n + WG - 1) // WG * WG
    prog.vadd(queue, (grid,), (WG,), da, db, dc, np.uint32(n))
    cl.enqueue_copy(queue, c, dc)

    want = a + b
    bad = np.count_nonzero(c.view(np.uint32) != want.view(np.uint32))
    print("cl_vadd.py: c = a + b through pyopencl on %s (%s), %d floats"
          % (devices[0].name, platform.name, n))
    print("  c[0] = %g + %g = %g, c[%d] = %g" % (a[0], b[0], c[0], n - 1, c[n - 1]))
    if bad:
        print("  %d of %d elements differ" % (bad, n))
        print("result: WRONG")
        return 1
    print("result: OK, bit for bit what numpy computes")
    return 0


if __name__ == "__main__":
    sys.exit(main())
