/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * sigmask.h - what sigmask.c offers the rest of libgmon (included by
 * gmon_rt.h): the real mask, action and thread calls, SIGPROF's action
 * taken and given back, and the thread hooks.
 *
 * sigmask.c defines pthread_sigmask, sigprocmask, sigaction, signal and
 * pthread_create for the program, hiding SIGPROF from the masks it sets.
 * libgmon's own files must not go through them (stacks.c blocks SIGPROF
 * for real while a table grows; offcpu.c's thread blocks everything), so
 * below, every call of theirs is sent to the real one.  Function-like
 * macros: `struct sigaction` is untouched.
 */
#ifndef GMON_SIGMASK_H
#define GMON_SIGMASK_H

#include <pthread.h>
#include <signal.h>
#include <stddef.h>

GMON_HIDDEN int gmon_real_sigmask(int how, const sigset_t *set, sigset_t *old);
GMON_HIDDEN int gmon_real_sigprocmask(int how, const sigset_t *set, sigset_t *old);
GMON_HIDDEN int gmon_real_sigaction(int sig, const struct sigaction *act,
                                    struct sigaction *old);
GMON_HIDDEN int gmon_real_pthread_create(pthread_t *th, const pthread_attr_t *attr,
                                         void *(*fn)(void *), void *arg);

/* sampler.c: install libgmon's SIGPROF action (0, or -1 with errno),
   and put the program's back when sampling stops. */
GMON_HIDDEN int gmon_sigprof_take(const struct sigaction *ours);
GMON_HIDDEN void gmon_sigprof_give_back(void);

/* lifecycle.c: at start (the set-up of threads that run library code
   only, for GMON_SHLIBS), a thread's set-up and exit, fork, and at the
   exit write each live profiled thread; then the count and names. */
GMON_HIDDEN void gmon_sigmask_init(void (*thread_start)(void));
GMON_HIDDEN void gmon_sigmask_thread_begin(void);
GMON_HIDDEN void gmon_sigmask_thread_end(void);
GMON_HIDDEN void gmon_sigmask_after_fork(void);
GMON_HIDDEN void gmon_sigmask_check_thread(int tid);
GMON_HIDDEN unsigned long gmon_sigmask_unsampled(char *buf, size_t size);

/* Defined by a file that calls the C library's own: sigmask.c, and the
   fuzz harness that includes signals.c without the rest of libgmon. */
#ifndef GMON_LIBC_SIGNAL_CALLS
#define pthread_sigmask(how, set, old) gmon_real_sigmask(how, set, old)
#define sigprocmask(how, set, old) gmon_real_sigprocmask(how, set, old)
#define sigaction(sig, act, old) gmon_real_sigaction(sig, act, old)
#define pthread_create(th, attr, fn, arg) gmon_real_pthread_create(th, attr, fn, arg)
#endif

#endif
