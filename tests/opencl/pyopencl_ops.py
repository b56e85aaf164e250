#!/usr/bin/python3
# SPDX-License-Identifier: MIT
# Copyright 2026 The vaccel authors
#
# pyopencl_ops.py - pyopencl's arrays, elementwise kernels, reductions and
# scans (pyopencl.array, .elementwise, .reduction, .scan) on
# the platform VT_CL_PLATFORM names, as tests/opencl/run.sh runs its C
# programs: on PoCL on the host and on vaccel in the dev VM, whose outputs
# must be the same.
#
# Each operation prints one line: its name, a digest of its result's bytes
# and whether numpy computes the same.  The data are integers, or floats
# whose sums are exact, so that every correct platform gives the same bits
# whatever its work-group sizes and order of summation; the elementwise
# float operations are single IEEE operations, correctly rounded anywhere.
#
# pyopencl keeps a cache of built programs: it needs a writable
# $XDG_CACHE_HOME, $HOME/.cache or $PYOPENCL_CACHE_DIR.  Exit status: 0 when
# every result is numpy's, 1 otherwise, 2 without the platform.

import hashlib
import os
import sys

import numpy as np
import pyopencl as cl
import pyopencl.array as cla
import pyopencl.clmath
import pyopencl.elementwise
import pyopencl.reduction
import pyopencl.scan

N = 100003  # not a multiple of any work-group size
failed = 0


def platform():
    want = os.environ.get("VT_CL_PLATFORM", "vaccel")
    for p in cl.get_platforms():
        if p.name == want or (want == "vaccel" and "vaccel" in p.name):
            return p
    sys.exit(2)


def report(name, got, want):
    """One line: the digest of @got's bytes, and whether numpy's @want is the same."""
    global failed
    got = np.asarray(got)
    want = np.asarray(want)
    same = got.shape == want.shape and got.dtype == want.dtype and \
        got.tobytes() == want.tobytes()
    if not same:
        failed = 1
    digest = hashlib.sha256(got.tobytes()).hexdigest()[:16]
    print("%-24s %-8s %s %s" % (name, got.dtype, digest, "numpy's" if same else "WRONG"))


def main():
    dev = platform().get_devices()[0]
    ctx = cl.Context([dev])
    q = cl.CommandQueue(ctx)
    rng = np.random.default_rng(7)
    ai = rng.integers(-1000, 1000, N).astype(np.int32)
    bi = rng.integers(1, 1000, N).astype(np.int32)
    af = (rng.integers(-4096, 4096, N) / 64.0).astype(np.float32)
    bf = (rng.integers(1, 4096, N) / 32.0).astype(np.float32)
    da, db = cla.to_device(q, ai), cla.to_device(q, bi)
    fa, fb = cla.to_device(q, af), cla.to_device(q, bf)

    # pyopencl.array: elementwise arithmetic, comparisons, selections.
    report("array.add_int", (da + db).get(), ai + bi)
    report("array.mul_int", (da * db).get(), ai * bi)
    report("array.sub_scalar_int", (da - 3).get(), ai - 3)
    report("array.neg_int", (-da).get(), -ai)
    report("array.add_float", (fa + fb).get(), af + bf)
    report("array.mul_float", (fa * fb).get(), af * bf)
    report("array.div_float", (fa / fb).get(), af / bf)
    report("array.fabs", abs(fa).get(), np.abs(af))
    report("array.sqrt", cl.clmath.sqrt(fb).get(), np.sqrt(bf))
    report("array.maximum", cla.maximum(da, db).get(), np.maximum(ai, bi))
    report("array.minimum", cla.minimum(fa, fb).get(), np.minimum(af, bf))
    report("array.greater", (da > db).get(), (ai > bi).astype(np.int8))
    report("array.if_positive", cla.if_positive(da, da, db).get(), np.where(ai > 0, ai, bi))
    report("array.astype", da.astype(np.float32).get(), ai.astype(np.float32))
    report("array.arange", cla.arange(q, 0, N, 1, dtype=np.int32).get(),
           np.arange(N, dtype=np.int32))
    report("array.slice", da[17:N - 5].copy().get(), ai[17:N - 5])

    # Reductions: integers, and floats whose sums are exact.
    report("array.sum_int", cla.sum(da).get(), np.sum(ai, dtype=np.int32))
    report("array.sum_float", cla.sum(fa).get(), np.float32(np.sum(af, dtype=np.float64)))
    report("array.max_int", cla.max(da).get(), np.max(ai))
    report("array.min_float", cla.min(fa).get(), np.min(af))
    report("array.dot_int", cla.dot(da, db).get(), np.dot(ai, bi))
    dot64 = cl.reduction.ReductionKernel(ctx, np.int64, neutral="0",
                                         reduce_expr="a+b", map_expr="(long)x[i]*y[i]",
                                         arguments="__global const int *x, "
                                                   "__global const int *y")
    report("reduction.dot_long", dot64(da, db).get(),
           np.dot(ai.astype(np.int64), bi.astype(np.int64)))
    maxabs = cl.reduction.ReductionKernel(ctx, np.int32, neutral="0",
                                          reduce_expr="max(a, b)", map_expr="x[i] < 0 ? -x[i] : x[i]",
                                          arguments="__global const int *x")
    report("reduction.max_abs", maxabs(da).get(), np.max(np.abs(ai)))

    # An elementwise kernel of one's own.
    axpy = cl.elementwise.ElementwiseKernel(ctx, "int a, __global const int *x, "
                                            "__global const int *y, __global int *z",
                                            "z[i] = a * x[i] + y[i]", "axpy")
    dz = cla.empty_like(da)
    axpy(np.int32(5), da, db, dz)
    report("elementwise.axpy_int", dz.get(), 5 * ai + bi)

    # Scans: inclusive and exclusive prefix sums, and a generic scan
    # (segmented).  Each scan is a program of its own, which the dev VM
    # takes some 40 s to build: three of them.
    incl = cl.scan.InclusiveScanKernel(ctx, np.int32, "a+b", neutral="0")
    d = da.copy()
    incl(d)
    report("scan.inclusive_sum", d.get(), np.cumsum(ai, dtype=np.int32))
    excl = cl.scan.ExclusiveScanKernel(ctx, np.int32, "a+b", "0")
    d = db.copy()
    excl(d)
    report("scan.exclusive_sum", d.get(),
           np.concatenate(([0], np.cumsum(bi, dtype=np.int32)[:-1])).astype(np.int32))
    seg = cl.scan.GenericScanKernel(
        ctx, np.int32, arguments="__global const int *x, __global int *out",
        input_expr="x[i]", scan_expr="across_seg_boundary ? b : (a+b)", neutral="0",
        is_segment_start_expr="i % 1000 == 0", output_statement="out[i] = item")
    dout = cla.empty_like(da)
    seg(da, dout)
    want = np.concatenate([np.cumsum(ai[s:s + 1000], dtype=np.int32)
                           for s in range(0, N, 1000)])
    report("scan.segmented_sum", dout.get(), want)

    q.finish()
    return failed


if __name__ == "__main__":
    sys.exit(main())
