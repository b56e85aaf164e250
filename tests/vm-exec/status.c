// SPDX-License-Identifier: GPL-2.0-only
/*
 * status.c - a plain program for `vm.sh exec`: prints its arguments on
 * stdout and a line on stderr, writes a file in the current directory (the
 * share), and exits with the status its first argument names.
 *
 * usage: status STATUS FILE [WORDS...]
 */
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
	FILE *f;
	int i;

	if (argc < 3) {
		fprintf(stderr, "usage: status STATUS FILE [WORDS...]\n");
		return 2;
	}
	for (i = 3; i < argc; i++)
		printf("word %d: [%s]\n", i - 2, argv[i]);
	fprintf(stderr, "status: exiting with %s\n", argv[1]);
	f = fopen(argv[2], "w");
	if (!f) {
		perror(argv[2]);
		return 2;
	}
	fprintf(f, "written in the VM\n");
	if (fclose(f)) {
		perror(argv[2]);
		return 2;
	}
	return atoi(argv[1]);
}
