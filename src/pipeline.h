/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * pipeline.h - the top of the tool: the options (options.c), the one
 * pipeline a run goes through (pipeline.c, run.c), and the two that run
 * it more than once, --per-thread (threads.c) and --compare
 * (compare_run.c).  Uses every folder.
 */
#ifndef PIPELINE_H
#define PIPELINE_H

#include <stdio.h>

#include "model/model.h"

/* ---- pipeline.c ---- */
int gprof_run(struct gprof *g, int argc, char **argv);
void gprof_parse(struct gprof *g, int argc, char **argv);
void gprof_load_inputs(struct gprof *g);
void gprof_load(struct gprof *g, int argc, char **argv);
void gprof_analyse(struct gprof *g);
void gprof_print(const struct gprof *g, FILE *out);

/* ---- options.c ---- */
void options_parse(struct gprof *g, int argc, char **argv);

/* ---- threads.c: --per-thread ---- */
int threads_run(struct gprof *g);

/* ---- compare_run.c: --compare: loads both profiles, compares them and
   prints the result in the --output-format asked (text, json or html) */
int compare_run(struct gprof *g);

#endif
