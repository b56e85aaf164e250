/* SPDX-License-Identifier: MIT */
/*
 * Copyright 2026 The vaccel authors
 *
 * math/tables.h - written by gen_tables.py from exact integer arithmetic;
 * do not edit.  vcl_two_over_pi[i] holds bits 32i + 1 to 32i + 32 of 2/pi
 * after the binary point, the first one most significant.
 */
#ifndef VACCEL_CL_MATH_TABLES_H
#define VACCEL_CL_MATH_TABLES_H

#define VCL_PIO2_1         0x1.921fb54400000p+0	/* pi / 2, its first 33 bits */
#define VCL_PIO2_2         0x1.0b4611a600000p-34	/* the next 33 bits */
#define VCL_PIO2_3         0x1.3198a2e000000p-69	/* the next 33 bits */
#define VCL_PIO2_4         0x1.b839a252049c1p-104	/* the rest, rounded */
#define VCL_PIO2F_1        0x1.921fb54000000p+0	/* pi / 2, its first 28 bits */
#define VCL_PIO2F_2        0x1.10b4610000000p-30	/* the next 28 bits */
#define VCL_PIO2F_3        0x1.a62633145c06ep-58	/* the rest, rounded */
#define VCL_PIO2_HI        0x1.921fb54442d18p+0	/* pi / 2 as a double-double */
#define VCL_PIO2_LO        0x1.1a62633145c07p-54
#define VCL_TWO_OVER_PI    0x1.45f306dc9c883p-1	/* 2 / pi */
#define VCL_ATAN_HALF_HI   0x1.dac670561bb4fp-2	/* atan(1/2) as a double-double */
#define VCL_ATAN_HALF_LO   0x1.a2b7f222f65e2p-56
#define VCL_ATAN_3HALF_HI  0x1.f730bd281f69bp-1	/* atan(3/2) as a double-double */
#define VCL_ATAN_3HALF_LO  0x1.007887af0cbbdp-56

#define VCL_TWO_OVER_PI_WORDS 40

VCL_TABLE unsigned int vcl_two_over_pi[VCL_TWO_OVER_PI_WORDS] = {
	0xa2f9836e, 0x4e441529, 0xfc2757d1, 0xf534ddc0,
	0xdb629599, 0x3c439041, 0xfe5163ab, 0xdebbc561,
	0xb7246e3a, 0x424dd2e0, 0x06492eea, 0x09d1921c,
	0xfe1deb1c, 0xb129a73e, 0xe88235f5, 0x2ebb4484,
	0xe99c7026, 0xb45f7e41, 0x3991d639, 0x835339f4,
	0x9c845f8b, 0xbdf9283b, 0x1ff897ff, 0xde05980f,
	0xef2f118b, 0x5a0a6d1f, 0x6d367ecf, 0x27cb09b7,
	0x4f463f66, 0x9e5fea2d, 0x7527bac7, 0xebe5f17b,
	0x3d0739f7, 0x8a5292ea, 0x6bfb5fb1, 0x1f8d5d08,
	0x56033046, 0xfc7b6bab, 0xf0cfbc20, 0x9af4361d,
};

#endif /* VACCEL_CL_MATH_TABLES_H */
