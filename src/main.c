/* SPDX-License-Identifier: GPL-3.0-or-later */
/* main.c - the gprof command: one run of the pipeline (pipeline.c). */
#include "pipeline.h"

int main(int argc, char **argv)
{
	static struct gprof prof;
	return gprof_run(&prof, argc, argv);
}
