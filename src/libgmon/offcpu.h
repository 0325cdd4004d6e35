/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * offcpu.h - the wall clock's private interfaces: what offcpu.c's
 * sampler thread keeps about each profiled thread, and offstk.c's entry
 * points for the stacks of threads blocked in the kernel (GMON_CLOCK=wall
 * with GMON_STACKS=1), which stacks.c writes beside each thread's own
 * STACKS record.  Kept out of gmon_rt.h, which is at its size limit.
 */
#ifndef GMON_OFFCPU_H
#define GMON_OFFCPU_H

#include <stdint.h>
#include <sys/types.h>

struct gmon_table;
struct gmon_out;

/* Per thread, written by the sampler thread alone (t->ocs, mapped by it
   at its first look at the thread). */
struct gmon_offcpu_slot {
	int tid;            /* the thread fd describes; 0: none open */
	int fd;             /* its /proc/self/task/TID/syscall */
	uint64_t ino;       /* that file's inode, to know it is still ours */
	uint64_t key;       /* hash of the line last read from fd ... */
	uintptr_t at;       /* ... where that wait is credited ... */
	uint32_t ref;       /* ... and its stack (offstk.c), 0: none */
	int blocked;        /* the last look found the thread blocked at `at` */
	int64_t cpu;        /* the thread's CPU time then, ns */
};

/* offwalk.c, on the sampler thread: where a thread blocked at pc (stack
   at sp) waits (*slot: where the return address into the program lies,
   0 if none); its stack into f[] (at most max frames, *cut if more):
   frame 0 the site, then return addresses.  A CFI unwinder starting
   from (sp, pc) can take gmon_offwalk_stack's place. */
GMON_HIDDEN void gmon_offwalk_pid(pid_t pid);
GMON_HIDDEN uintptr_t gmon_offwalk_site(uintptr_t sp, uintptr_t pc, uintptr_t *slot);
GMON_HIDDEN uint32_t gmon_offwalk_stack(uintptr_t pc, uintptr_t site, uintptr_t slot,
                                        uintptr_t *f, uint32_t max, int *cut);

/* offstk.c, on the sampler thread: count w ticks for stack f[0..d)
   (frame 0 the wait site, then return addresses) of t's thread; the
   entry's reference for gmon_offstk_add, 0 if the table is full (the
   ticks are then lost). */
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
