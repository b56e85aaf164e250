// SPDX-License-Identifier: MIT
/*
 * host_bench.c - a stand-in benchmark for the host test of `make bench`'s
 * JSON (tests/host/run.sh, bench_json): reports, through bench_report() of
 * tests/bench/bench.h, one figure of each kind: with each target
 * operator, without a target, out of a range, broken, not a number.
 * Installed as bench_fake; as bench_fake_dies it reports one figure, then
 * gives up with bench_die() and a message that JSON must escape.
 */
#include <math.h>
#include <string.h>

#include "bench.h"

int main(int argc, char **argv)
{
	(void)argc;
	bench_name = "fake";
	if (strstr(argv[0], "dies")) {
		bench_report(&(struct bench_metric){ "before_dying", 2.5, 1, "us" });
		bench_die("the \"device\"\tis gone \\ %d", 7);
	}
	printf("a table\n");
	bench_report(&(struct bench_metric){ "le_ratio", 1.25, 3, "ratio", "<=", 2.0 });
	bench_report(&(struct bench_metric){ "lt_us", 999.9, 1, "us", "<", 1000.0 });
	bench_report(&(struct bench_metric){ "ge_index", 0.9901, 4, "index", ">=", 0.99 });
	bench_report(&(struct bench_metric){ "gt_ratio", 1.0, 2, "ratio", ">", 1.0 });
	bench_report(&(struct bench_metric){ "in_pct", 1.5, 2, "pct", "in", 0.5, 2.0 });
	bench_report(&(struct bench_metric){ "out_pct", 2.5, 2, "pct", "in", 0.5, 2.0 });
	bench_report(&(struct bench_metric){ "broken_ratio", 0.5, 4, "ratio", "<=", 1.0,
		.broken = 1 });
	bench_report(&(struct bench_metric){ "plain_mips", 123.456, 2, "mips" });
	bench_report(&(struct bench_metric){ "nan_ratio", NAN, 3, "ratio", "<=", 2.0 });
	bench_report(&(struct bench_metric){ "inf_ratio", INFINITY, 3, "ratio" });
	return 0;
}
