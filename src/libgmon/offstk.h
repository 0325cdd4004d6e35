/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * offstk.h - offstk.c's entry points: the call stacks of threads blocked
 * in the kernel under GMON_CLOCK=wall with GMON_STACKS=1, recorded by
 * offcpu.c's sampler thread and written by stacks.c beside each thread's
 * own STACKS record.  Kept out of gmon_rt.h, which is at its size limit.
 */
#ifndef GMON_OFFSTK_H
#define GMON_OFFSTK_H

#include <stdint.h>

struct gmon_table;
struct gmon_out;

/* The sampler thread: count w ticks for stack f[0..d) (frame 0 the wait
   site, then return addresses) of t's thread; the entry's reference for
   gmon_offstk_add, 0 if the table is full (the ticks are then lost). */
GMON_HIDDEN uint32_t gmon_offstk_record(struct gmon_table *t, const uintptr_t *f,
                                        uint32_t d, int cut, uint32_t w);
GMON_HIDDEN void gmon_offstk_add(struct gmon_table *t, uint32_t ref, uint32_t w);
/* Frames a blocked stack may have (GMON_STACK_DEPTH, default 128). */
GMON_HIDDEN uint32_t gmon_offstk_depth(void);
/* Zero every table's counts (gmon_dump's reset); with forget, drop the
   entries too (a fork child's copies of the parent's threads). */
GMON_HIDDEN void gmon_offstk_reset(int forget);
/* Write t's blocked stacks as a STACKS record of thread seq, each entry
   flagged GMSL_STACK_OFFCPU, and their frame 0 as TSAMPLES; returns the
   ticks lost to a full table. */
GMON_HIDDEN uint64_t gmon_offstk_put(struct gmon_out *o, uint32_t seq,
                                     struct gmon_table *t);

#endif
