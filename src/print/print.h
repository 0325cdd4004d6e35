/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * print/print.h - the way into the printing folder: every report and
 * document (GNU's and BSD's text, dot, html/svg, json, callgrind, pprof,
 * folded stacks, flame graphs, the comparison and the diagnosis), each a
 * printer over the const model that computes no figure of its own.  The
 * state printers share in one run is report.h's.  Uses every folder
 * below it: utilities, model, symbols, reading, analysis.
 */
#ifndef PRINT_PRINT_H
#define PRINT_PRINT_H

#include <stdio.h>

#include "analysis/analysis.h"
#include "model/model.h"
#include "print/report.h"

/* ---- compare_print.c, json_print.c, html_print.c: --compare ---- */
void compare_print_text(const struct comparison *c, FILE *out);
void compare_print_json(const struct comparison *c, FILE *out);
void compare_print_html(const struct comparison *c, FILE *out);

/* ---- diagnose_print.c ---- */
/* One line on stderr: the most important problem (none with
   --diagnose, which prints them all). */
void diagnose_warn(const struct gprof *g);
/* --diagnose: every check and its status. */
void diagnose_print(const struct gprof *g, FILE *out);

#endif
