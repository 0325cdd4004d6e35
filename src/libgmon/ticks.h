/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * ticks.h - the interface of ticks.c, which owns the sources of each
 * thread's SIGPROF ticks: a perf task-clock event, a POSIX CPU timer, or
 * the process's ITIMER_PROF.  Apart from gmon_rt.h so that the table's
 * slot and the hooks stay in one place.
 */
#ifndef GMON_TICKS_H
#define GMON_TICKS_H

#include <signal.h>
#include <stdint.h>
#include <time.h>

/* A thread's tick source (in its arc table); kind 0: none. */
struct gmon_ticker {
	int kind;        /* GMON_TICK_* of this thread's source */
	int fd;          /* GMON_TICK_PERF: the event's descriptor */
	uint64_t id;     /* ... its kernel id, to know it is still ours */
	uint64_t done;   /* ... the thread's CPU ns already credited */
	int rebase;      /* ... armed since: the next tick sets `done` */
	int helper;      /* ... blind to the kernel: the timer brings that */
	int has_timer;   /* a POSIX CPU timer exists (beside the event, too) */
	timer_t timer;
};

enum { GMON_TICK_NONE, GMON_TICK_PERF, GMON_TICK_TIMER, GMON_TICK_ITIMER };

struct gmon_table;

#define GMON_TICKS_API __attribute__((visibility("hidden")))
/* Choose the source (GMON_TIMER=perf|posix|itimer forces one); the
   kind chosen, GMON_TICK_ITIMER when nothing per-thread works. */
GMON_TICKS_API int gmon_ticks_init(void);
/* The calling thread, owner of t, gets its source, ticking every ns of
   its CPU time once armed (now, if `armed`). */
GMON_TICKS_API void gmon_ticks_thread_begin(struct gmon_table *t, long ns, int armed);
GMON_TICKS_API void gmon_ticks_thread_end(struct gmon_table *t);
/* Arm (ns > 0) or disarm every thread's source. */
GMON_TICKS_API void gmon_ticks_set_all(long ns);
/* In the SIGPROF handler: the samples this signal stands for, 0 if it
   is none of libgmon's ticks (a signal the program sent, say). */
GMON_TICKS_API uint32_t gmon_ticks_weight(const siginfo_t *si, long ns);
/* In a fork child, run by the forking thread (owner of mine). */
GMON_TICKS_API void gmon_ticks_after_fork(struct gmon_table *mine, long ns, int armed);

#endif
