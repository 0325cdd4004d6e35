/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * fuzz_common.h - shared helpers of the fuzz harnesses: running a piece of
 * the pipeline under gprof_exit_jmp, input bytes as named files (memfd),
 * the template context loaded once from tests/fuzz/prog, and freeing a
 * context after each input.
 */
#ifndef FUZZ_COMMON_H
#define FUZZ_COMMON_H

#include <setjmp.h>
#include <stddef.h>
#include <stdint.h>

#include "pipeline.h"
#include "print/print.h"

extern jmp_buf *gprof_exit_jmp;

/* The executable every harness uses (FUZZ_PROG in the environment
   overrides the path compiled in). */
const char *fuzz_prog_path(void);
/* The profile prog wrote (gmon.out beside it). */
const char *fuzz_prog_gmon(void);

/* One-time setup: stdout to /dev/null, a scratch directory. */
void fuzz_init(void);
/* The scratch directory (on tmpfs when there is one). */
const char *fuzz_workdir(void);

/* Input slot `slot` (0..7) as a file: returns a path that opens the bytes. */
const char *fuzz_file(int slot, const uint8_t *data, size_t len);
/* The path of slot `slot` (as fuzz_file() returned it), or "". */
const char *fuzz_file_path(int slot);

/* The template: prog's function symbols with their source files looked up
   (so copies never call into BFD for them). */
const struct gprof *fuzz_template(void);
/* A fresh context sharing the template's executable and a private copy of
   its symbol table. */
void fuzz_context_from_template(struct gprof *g);

/* Frees what a context owns (best effort; the executable is closed only if
   `own_bfd`). */
void fuzz_free_context(struct gprof *g, int own_bfd);

/* Around each input: the tool leaves files open when it exits through
   gprof_exit() (as a process may); fuzz_end() closes every descriptor
   opened since fuzz_begin() that is still open. */
void fuzz_begin(void);
void fuzz_warm_up(void);
void fuzz_end(void);

/* gprof_run() with argv on a fresh context, in the scratch directory
   (where -s and -y write), then the context freed. */
void fuzz_run_gprof(int argc, char **argv);

/* Splits data at the 4-byte marker "FZSP" into at most `max` pieces. */
size_t fuzz_split(const uint8_t *data, size_t len, const uint8_t **piece,
                  size_t *plen, size_t max);

/* Runs the body with gprof_exit_jmp armed; yields the exit status (0 when
   the body returned normally).  Usage:
       int st; FUZZ_TRY(st) { ...body... } FUZZ_END;                      */
#define FUZZ_TRY(st) do { \
	jmp_buf fz_jb_; jmp_buf *fz_prev_ = gprof_exit_jmp; \
	gprof_exit_jmp = &fz_jb_; \
	int fz_rc_ = setjmp(fz_jb_); \
	(st) = fz_rc_; \
	if (fz_rc_ == 0) {
#define FUZZ_END } gprof_exit_jmp = fz_prev_; } while (0)

#endif
