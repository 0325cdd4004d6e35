/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * sig_libmain.c - runs sig_lib.c's thread pool (SECONDS of CPU per
 * worker, default 0.8) and prints what it measured, in sig_pool.c's
 * format:  WORKER ALPHA-CPU BETA-CPU, and "mask ok WORKER".
 */
#include <stdio.h>
#include <stdlib.h>

int sig_lib_run(double secs, double out[4], int mask_ok[2]);

int main(int argc, char **argv)
{
	double m[4];
	int ok[2];
	if (sig_lib_run(argc > 1 ? atof(argv[1]) : 0.8, m, ok) != 0)
		return 1;
	const char *names[2] = { "self", "inh" };
	for (int i = 0; i < 2; i++) {
		printf("%s %.4f %.4f\n", names[i], m[2 * i], m[2 * i + 1]);
		if (ok[i])
			printf("mask ok %s\n", names[i]);
	}
	return 0;
}
