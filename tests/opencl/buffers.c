// SPDX-License-Identifier: MIT
/*
 * Copyright 2026 The vaccel authors
 *
 * DOC: buffers - the buffer commands
 *
 * Write, read and copy at odd offsets; fill with every pattern size
 * (1, 2, 4, 8, 16, 32, 64 and 128 bytes) over a range that is not a
 * multiple of the largest; rectangular write, read and copy with row and
 * slice pitches; map for reading and for writing (and with
 * CL_MAP_WRITE_INVALIDATE_REGION) then unmap; sub-buffers at the device's
 * base address alignment, written through the parent and read through
 * the child and used as a kernel argument; a CL_MEM_USE_HOST_PTR buffer
 * written by a kernel and seen through a map.  Prints checksums and the
 * bytes around each edge: they must be identical.
 */
#include "clt.h"

#define SZ 4096

static unsigned char host[SZ], back[SZ];

static void dump(const char *what, const unsigned char *b, size_t n)
{
	unsigned int sum = 0;
	size_t i;

	for (i = 0; i < n; i++)
		sum = sum * 31 + b[i];
	printf("%s: %zu bytes, sum %08x, head", what, n, sum);
	for (i = 0; i < 12 && i < n; i++)
		printf(" %02x", b[i]);
	printf("\n");
}

static void readall(struct clt *t, cl_mem m, const char *what)
{
	CHECK(clEnqueueReadBuffer(t->queue, m, CL_TRUE, 0, SZ, back, 0, NULL, NULL));
	dump(what, back, SZ);
}

static const char *src =
	"__kernel void twice(__global int *p) { p[get_global_id(0)] *= 2; }\n";

int main(void)
{
	struct clt t;
	unsigned char pat[128];
	size_t i, ps;
	cl_int err;
	char name[32];

	for (i = 0; i < SZ; i++)
		host[i] = (unsigned char)(i * 13 + (i >> 8));
	for (i = 0; i < sizeof(pat); i++)
		pat[i] = (unsigned char)(0xa0 + i);
	clt_init(&t);
	cl_mem a = clt_buffer(&t, CL_MEM_READ_WRITE, SZ, NULL);
	cl_mem b = clt_buffer(&t, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, SZ, host);

	/* write, read, copy */
	memset(back, 0x5a, SZ);
	CHECK(clEnqueueWriteBuffer(t.queue, a, CL_FALSE, 0, SZ, back, 0, NULL, NULL));
	CHECK(clEnqueueWriteBuffer(t.queue, a, CL_TRUE, 3, 1001, host + 17, 0, NULL, NULL));
	readall(&t, a, "write");
	CHECK(clEnqueueCopyBuffer(t.queue, b, a, 5, 2047, 999, 0, NULL, NULL));
	readall(&t, a, "copy");
	CHECK(clEnqueueReadBuffer(t.queue, a, CL_TRUE, 2040, 77, back, 0, NULL, NULL));
	dump("read", back, 77);

	/* fill with each pattern size */
	for (ps = 1; ps <= 128; ps *= 2) {
		CHECK(clEnqueueFillBuffer(t.queue, a, pat + 3, 1, 0, SZ, 0, NULL, NULL));
		CHECK(clEnqueueFillBuffer(t.queue, a, pat, ps, ps * 3, ps * 11, 0, NULL, NULL));
		snprintf(name, sizeof(name), "fill %zu", ps);
		readall(&t, a, name);
	}

	/* rectangles: a 3D box of 5 x 4 x 3 bytes */
	{
		size_t bo[3] = { 7, 2, 1 }, ho[3] = { 1, 3, 0 }, r[3] = { 5, 4, 3 };

		CHECK(clEnqueueFillBuffer(t.queue, a, pat, 1, 0, SZ, 0, NULL, NULL));
		CHECK(clEnqueueWriteBufferRect(t.queue, a, CL_TRUE, bo, ho, r, 32, 256, 20, 200,
					       host, 0, NULL, NULL));
		readall(&t, a, "write rect");
		memset(back, 0, SZ);
		CHECK(clEnqueueReadBufferRect(t.queue, b, CL_TRUE, ho, bo, r, 40, 400, 16, 128,
					      back, 0, NULL, NULL));
		dump("read rect", back, SZ);
		CHECK(clEnqueueCopyBufferRect(t.queue, b, a, bo, ho, r, 64, 1024, 16, 256,
					      0, NULL, NULL));
		readall(&t, a, "copy rect");
	}

	/* map, unmap */
	{
		unsigned char *m;

		m = clEnqueueMapBuffer(t.queue, b, CL_TRUE, CL_MAP_READ, 100, 200, 0, NULL, NULL, &err);
		CHECK(err);
		dump("map read", m, 200);
		CHECK(clEnqueueUnmapMemObject(t.queue, b, m, 0, NULL, NULL));
		m = clEnqueueMapBuffer(t.queue, b, CL_TRUE, CL_MAP_WRITE, 1000, 300, 0, NULL, NULL, &err);
		CHECK(err);
		for (i = 0; i < 300; i++)
			m[i] ^= 0xff;
		CHECK(clEnqueueUnmapMemObject(t.queue, b, m, 0, NULL, NULL));
		m = clEnqueueMapBuffer(t.queue, b, CL_TRUE, CL_MAP_WRITE_INVALIDATE_REGION, 2000, 50,
				       0, NULL, NULL, &err);
		CHECK(err);
		memset(m, 0x11, 50);
		CHECK(clEnqueueUnmapMemObject(t.queue, b, m, 0, NULL, NULL));
		readall(&t, b, "map write");
	}

	/* sub-buffers */
	{
		cl_uint align_bits;
		cl_buffer_region reg;
		cl_program p = clt_build(&t, src, NULL);
		cl_kernel k = clt_kernel(p, "twice");
		size_t n;

		CHECK(clGetDeviceInfo(t.device, CL_DEVICE_MEM_BASE_ADDR_ALIGN, sizeof(align_bits),
				      &align_bits, NULL));
		static unsigned char big[65536];

		for (i = 0; i < sizeof(big); i++)
			big[i] = (unsigned char)(i * 7 + (i >> 9));
		cl_mem c = clt_buffer(&t, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sizeof(big), big);
		/* 4096, or the alignment's next multiple: the same on every device */
		reg.origin = (4096 + align_bits / 8 - 1) / (align_bits / 8) * (align_bits / 8);
		EXPECT(reg.origin + 320 <= sizeof(big));
		reg.size = 256;
		cl_mem s = clCreateSubBuffer(c, CL_MEM_READ_WRITE, CL_BUFFER_CREATE_TYPE_REGION,
					     &reg, &err);
		CHECK(err);
		CHECK(clEnqueueWriteBuffer(t.queue, c, CL_TRUE, reg.origin, 256, host + 500, 0,
					   NULL, NULL));
		CHECK(clEnqueueReadBuffer(t.queue, s, CL_TRUE, 0, 256, back, 0, NULL, NULL));
		dump("sub read", back, 256);
		ARG(k, 0, s);
		n = 256 / 4;
		CHECK(clEnqueueNDRangeKernel(t.queue, k, 1, NULL, &n, NULL, 0, NULL, NULL));
		CHECK(clEnqueueReadBuffer(t.queue, c, CL_TRUE, reg.origin, 256, back, 0, NULL, NULL));
		dump("sub kernel", back, 256);
		CHECK(clEnqueueReadBuffer(t.queue, c, CL_TRUE, reg.origin + 256, 64, back, 0, NULL, NULL));
		dump("after sub", back, 64);
		clReleaseMemObject(s);
		clReleaseMemObject(c);

		/* USE_HOST_PTR */
		static cl_int uh[1024];

		for (i = 0; i < 1024; i++)
			uh[i] = (cl_int)(i * 3 - 700);
		cl_mem u = clt_buffer(&t, CL_MEM_READ_WRITE | CL_MEM_USE_HOST_PTR, sizeof(uh), uh);
		ARG(k, 0, u);
		n = 1024;
		CHECK(clEnqueueNDRangeKernel(t.queue, k, 1, NULL, &n, NULL, 0, NULL, NULL));
		cl_int *m = clEnqueueMapBuffer(t.queue, u, CL_TRUE, CL_MAP_READ, 0, sizeof(uh),
					       0, NULL, NULL, &err);
		CHECK(err);
		dump("use host ptr", (unsigned char *)m, sizeof(uh));
		EXPECT(m == uh);	/* the mapping of a USE_HOST_PTR buffer is its host pointer */
		CHECK(clEnqueueUnmapMemObject(t.queue, u, m, 0, NULL, NULL));
		CHECK(clFinish(t.queue));
		clReleaseMemObject(u);
		clReleaseKernel(k);
		clReleaseProgram(p);
	}
	clReleaseMemObject(a);
	clReleaseMemObject(b);
	clt_fini(&t);
	return 0;
}
