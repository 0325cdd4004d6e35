/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * sigmask.c - keeps SIGPROF deliverable to every thread whatever mask the
 * program sets, without the program seeing a difference: libgmon's own
 * pthread_sigmask, sigprocmask, sigaction, signal and pthread_create,
 * which the executable's calls (and, exported from it, the shared
 * libraries' calls) reach instead of the C library's, the real calls
 * behind them, and the count of threads that still block SIGPROF.
 *
 * Why: the sampler's ticks are SIGPROF signals sent to each thread on its
 * own CPU clock.  Thread pools and servers (liblzma's workers, for one)
 * block every signal in their threads; a blocked tick stays pending and
 * the thread's time is lost.  So a mask the program asks for is applied
 * without SIGPROF, and whether the program "holds" SIGPROF is kept per
 * thread (held) and shown wherever it reads a mask back.  A thread that
 * a holding thread creates starts holding it too (pthread_create passes
 * held on).  A handler the program installs for SIGPROF while libgmon
 * samples is refused (one line on stderr): it is kept as the program's
 * action, read back as set, and installed when sampling stops.
 *
 * What still blocks SIGPROF for real (a raw system call, siglongjmp or
 * swapcontext to a mask saved while it was blocked, a thread attribute's
 * mask) is found when a thread is set up (then turned into held and
 * unblocked), when it exits and at the exit write: each thread found
 * blocking it then is counted and named in the exit line.
 *
 * The real calls: masks by the rt_sigprocmask system call, keeping the C
 * library's own signals as its wrapper does (glibc never lets a program
 * block 32 and 33; musl hides 32 to 34 from the old set); actions and
 * thread creation by the C library's internal names in a static link
 * (reachable there: see pull_create) and by dlsym(RTLD_NEXT) in a dynamic
 * one.  libgmon's own files reach these real calls directly (gmon_rt.h
 * redirects their calls), so its internal masks stay what they were.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <threads.h>
#include <unistd.h>

#define GMON_LIBC_SIGNAL_CALLS
#include "gmon_rt.h"

#define GMON_API __attribute__((visibility("default")))

typedef void (*handler_fn)(int);
typedef int (*create_fn)(pthread_t *, const pthread_attr_t *,
                         void *(*)(void *), void *);
typedef int (*action_fn)(int, const struct sigaction *, struct sigaction *);
typedef handler_fn (*signal_fn)(int, handler_fn);

GMON_API int pthread_sigmask(int how, const sigset_t *set, sigset_t *old);
GMON_API int sigprocmask(int how, const sigset_t *set, sigset_t *old);
GMON_API int sigaction(int sig, const struct sigaction *act, struct sigaction *old);
#ifdef __GLIBC__
GMON_API handler_fn signal(int sig, handler_fn fn);
#else
/* Weak on musl: its signal() shares a member with bsd_signal, and a
   static program calling that brings musl's signal() in, a strong
   definition that must then win without a clash (and the program's
   SIGPROF handler replaces libgmon's: gmon_sigprof_give_back says so). */
GMON_API handler_fn signal(int sig, handler_fn fn) __attribute__((weak));
#endif
GMON_API int pthread_create(pthread_t *th, const pthread_attr_t *attr,
                            void *(*fn)(void *), void *arg);

/* The C libraries' internal names, where a static link finds the real
   calls; in a dynamic one dlsym finds them (weak: absent there). */
extern int __pthread_create(pthread_t *, const pthread_attr_t *,
                            void *(*)(void *), void *) __attribute__((weak));
#ifdef __GLIBC__
/* glibc exports it (libc.so and libc.a alike): a firm reference, which
   also brings its member into a static link. */
extern int __sigaction(int, const struct sigaction *, struct sigaction *);
#else
/* musl's is internal: present in a static link (timer_create, which the
   sampler uses, brings its member in), absent in a dynamic one. */
extern int __sigaction(int, const struct sigaction *, struct sigaction *)
	__attribute__((weak));
#endif
/* Weak too: a static link must not pull the dynamic loader's code in. */
#pragma weak dlsym

/* A static link takes an archive member only for a symbol still missing;
   pthread_create is libgmon's, so the C library's member holding
   __pthread_create would stay out.  thrd_create (public in glibc and musl
   alike) calls __pthread_create, so naming it here brings that member in;
   in a dynamic link it only costs a symbol lookup. */
__attribute__((used)) static int (*const pull_create)(thrd_t *, thrd_start_t,
                                                     void *) = thrd_create;

/* Whether the program holds SIGPROF on this thread (its view). */
static __thread int held __attribute__((tls_model("initial-exec")));

/* Run at the start of each thread created while GMON_SHLIBS is on, so
   that threads running only library code get their timer (lifecycle.c's
   set-up, given at start; NULL before). */
static void (*thread_start_hook)(void);

/* ---- the real calls ---- */

/* A real call: the internal name where linked, else the next definition
   after the executable's.  Looked up once; a race looks it up twice. */
static void *real_call(void *internal, void **cache, const char *name)
{
	void *f = __atomic_load_n(cache, __ATOMIC_RELAXED);
	if (f != NULL)
		return f;
	f = internal;
	if (f == NULL && dlsym != NULL)
		f = dlsym(RTLD_NEXT, name);
	__atomic_store_n(cache, f, __ATOMIC_RELAXED);
	return f;
}

static create_fn real_create(void)
{
	static void *c;
	return (create_fn)real_call((void *)__pthread_create, &c, "pthread_create");
}

static action_fn real_action_fn(void)
{
	static void *c;
	return (action_fn)real_call((void *)__sigaction, &c, "sigaction");
}

/* Clear signal sig in s by its bit (glibc's sigdelset refuses 32, 33). */
static void clear_bit(sigset_t *s, int sig)
{
	unsigned long *w = (unsigned long *)(void *)s;
	unsigned bits = 8 * sizeof(unsigned long);
	w[(sig - 1) / bits] &= ~(1ul << ((sig - 1) % bits));
}

static int test_bit(const sigset_t *s, int sig)
{
	const unsigned long *w = (const unsigned long *)(const void *)s;
	unsigned bits = 8 * sizeof(unsigned long);
	return (w[(sig - 1) / bits] >> ((sig - 1) % bits)) & 1;
}

/* The system call; 0 or an error number, errno untouched. */
static int raw_mask(int how, const sigset_t *set, sigset_t *old)
{
	int saved = errno;
	long r = syscall(SYS_rt_sigprocmask, how, set, old, (long)(_NSIG / 8));
	int err = r == 0 ? 0 : errno;
	errno = saved;
	return err;
}

/* pthread_sigmask as the C library does it, SIGPROF included. */
int gmon_real_sigmask(int how, const sigset_t *set, sigset_t *old)
{
	if (set == NULL)
		return raw_mask(how, NULL, old);
	if (how != SIG_BLOCK && how != SIG_UNBLOCK && how != SIG_SETMASK)
		return EINVAL;
	sigset_t want = *set;
#ifdef __GLIBC__
	/* glibc's cancellation and set*id signals must stay deliverable. */
	if (how != SIG_UNBLOCK) {
		clear_bit(&want, 32);
		clear_bit(&want, 33);
	}
#endif
	return raw_mask(how, &want, old);
}

int gmon_real_sigprocmask(int how, const sigset_t *set, sigset_t *old)
{
	int err = gmon_real_sigmask(how, set, old);
	if (err == 0)
		return 0;
	errno = err;
	return -1;
}

int gmon_real_sigaction(int sig, const struct sigaction *act, struct sigaction *old)
{
	action_fn f = real_action_fn();
	if (f == NULL) {
		errno = ENOSYS;
		return -1;
	}
	return f(sig, act, old);
}

int gmon_real_pthread_create(pthread_t *th, const pthread_attr_t *attr,
                             void *(*fn)(void *), void *arg)
{
	create_fn f = real_create();
	return f != NULL ? f(th, attr, fn, arg) : EAGAIN;
}

/* ---- masks as the program sees them ---- */

/* The program's pthread_sigmask: its mask without SIGPROF for real, its
   SIGPROF kept in held.  Unblocking is passed on whole, so that a
   SIGPROF blocked by other means is freed when the program frees it. */
static int program_mask(int how, const sigset_t *set, sigset_t *old)
{
	sigset_t want, was;
	int next = held;
	if (set != NULL) {
		if (how != SIG_BLOCK && how != SIG_UNBLOCK && how != SIG_SETMASK)
			return EINVAL;
		want = *set;
		int has = test_bit(&want, SIGPROF);
		if (how == SIG_SETMASK)
			next = has;
		else if (has)
			next = how == SIG_BLOCK;
		if (how != SIG_UNBLOCK)
			clear_bit(&want, SIGPROF);
	}
	/* The kernel writes only its 64 bits; the rest of a glibc sigset_t
	   would be left as the caller's stack had it. */
	sigemptyset(&was);
	int err = gmon_real_sigmask(how, set != NULL ? &want : NULL, &was);
	if (err != 0)
		return err;
	/* Blocked for real (in a handler whose sa_mask has it, say) reads
	   as blocked too. */
	if (held)
		sigaddset(&was, SIGPROF);
#ifndef __GLIBC__
	/* musl does not show its own signals in the old set. */
	for (int s = 32; s <= 34; s++)
		clear_bit(&was, s);
#endif
	held = next;
	if (old != NULL)
		*old = was;
	return 0;
}

int pthread_sigmask(int how, const sigset_t *set, sigset_t *old)
{
	return program_mask(how, set, old);
}

int sigprocmask(int how, const sigset_t *set, sigset_t *old)
{
	int err = program_mask(how, set, old);
	if (err == 0)
		return 0;
	errno = err;
	return -1;
}

/* ---- SIGPROF's action ---- */

static struct {
	int taken;                /* libgmon's handler is installed */
	void (*ours)(int, siginfo_t *, void *); /* that handler */
	int lock;
	int told;                 /* the one line was said */
	struct sigaction program; /* the program's action meanwhile */
} act;

/* A short spin lock with every signal held off this thread, so that a
   handler of the program calling sigaction cannot wait on itself. */
static void act_lock(sigset_t *old)
{
	sigset_t all;
	sigfillset(&all);
	raw_mask(SIG_BLOCK, &all, old);
	while (__atomic_exchange_n(&act.lock, 1, __ATOMIC_ACQUIRE))
		GMON_ARCH_RELAX();
}

static void act_unlock(const sigset_t *old)
{
	__atomic_store_n(&act.lock, 0, __ATOMIC_RELEASE);
	raw_mask(SIG_SETMASK, old, NULL);
}

/* Install libgmon's SIGPROF action, keeping the program's (sampler.c). */
int gmon_sigprof_take(const struct sigaction *ours)
{
	sigset_t m;
	act_lock(&m);
	int r = gmon_real_sigaction(SIGPROF, ours, &act.program);
	if (r == 0) {
		act.taken = 1;
		act.ours = ours->sa_sigaction;
	}
	act_unlock(&m);
	return r;
}

/* Put the program's action back.  Through SIG_IGN: a tick still pending
   would otherwise meet the default action, which ends the process. */
void gmon_sigprof_give_back(void)
{
	sigset_t m;
	struct sigaction ign;
	memset(&ign, 0, sizeof ign);
	ign.sa_handler = SIG_IGN;
	struct sigaction was;
	int replaced = 0;
	act_lock(&m);
	if (act.taken) {
		act.taken = 0;
		if (gmon_real_sigaction(SIGPROF, &ign, &was) == 0)
			replaced = !(was.sa_flags & SA_SIGINFO) || was.sa_sigaction != act.ours;
		gmon_real_sigaction(SIGPROF, &act.program, NULL);
	}
	act_unlock(&m);
	/* A way around sigaction() (the system call, a C library function
	   that calls its own): the ticks since went elsewhere. */
	if (replaced)
		gmon_say("the program replaced libgmon's SIGPROF handler by a way "
		         "libgmon cannot see: samples since then are lost");
}

/* While libgmon samples, the program's SIGPROF action is recorded, not
   installed: its handler would take libgmon's ticks, and libgmon's would
   take the program's signals.  It reads back as set. */
static int program_action(const struct sigaction *a, struct sigaction *old)
{
	sigset_t m;
	act_lock(&m);
	if (!act.taken) {
		act_unlock(&m);
		return gmon_real_sigaction(SIGPROF, a, old);
	}
	if (old != NULL)
		*old = act.program;
	int refused = 0;
	if (a != NULL) {
		act.program = *a;
		refused = (a->sa_flags & SA_SIGINFO) || (a->sa_handler != SIG_DFL &&
		                                         a->sa_handler != SIG_IGN);
	}
	act_unlock(&m);
	if (refused && !__atomic_exchange_n(&act.told, 1, __ATOMIC_RELAXED))
		gmon_say("the program's SIGPROF handler is not installed: libgmon "
		         "samples with SIGPROF (it is installed when profiling stops)");
	return 0;
}

int sigaction(int sig, const struct sigaction *a, struct sigaction *old)
{
	if (sig == SIGPROF)
		return program_action(a, old);
	return gmon_real_sigaction(sig, a, old);
}

/* signal() is sigaction with restarting system calls; the C library's
   own is used where it can be found, except for SIGPROF. */
static signal_fn real_signal(void)
{
	static void *c;
	return (signal_fn)real_call(NULL, &c, "signal");
}

handler_fn signal(int sig, handler_fn fn)
{
	signal_fn real = real_signal();
	if (real != NULL && sig != SIGPROF)
		return real(sig, fn);
	struct sigaction a, old;
	memset(&a, 0, sizeof a);
	a.sa_handler = fn;
	a.sa_flags = SA_RESTART;
	sigemptyset(&a.sa_mask);
	if (sigaction(sig, &a, &old) != 0)
		return SIG_ERR;
	return old.sa_handler;
}

/* ---- threads ---- */

struct start_box {
	void *(*fn)(void *);
	void *arg;
	int held;
};

/* A new thread's first code: the creator's held, then its set-up. */
static void *held_start(void *p)
{
	struct start_box b = *(struct start_box *)p;
	free(p);
	held = b.held;
	void (*hook)(void) = __atomic_load_n(&thread_start_hook, __ATOMIC_ACQUIRE);
	if (hook != NULL && gmon_p.shlibs)
		hook();
	return b.fn(b.arg);
}

/* A thread inherits its creator's mask; the part of it libgmon keeps
   (held) goes along through held_start.  Threads of a creator that
   holds nothing start as before, unless GMON_SHLIBS wants them set up. */
int pthread_create(pthread_t *th, const pthread_attr_t *attr,
                   void *(*fn)(void *), void *arg)
{
	int hook = __atomic_load_n(&thread_start_hook, __ATOMIC_ACQUIRE) != NULL &&
	           gmon_p.shlibs;
	if (!held && !hook)
		return gmon_real_pthread_create(th, attr, fn, arg);
	struct start_box *b = malloc(sizeof *b);
	if (b == NULL)
		return EAGAIN;
	b->fn = fn;
	b->arg = arg;
	b->held = held;
	int err = gmon_real_pthread_create(th, attr, held_start, b);
	if (err != 0)
		free(b);
	return err;
}

/* ---- threads that block SIGPROF for real ---- */

#define NAMES_KEPT 4
static struct {
	int lock;
	unsigned long count;
	char names[NAMES_KEPT][16];
} unsampled;

static void note_unsampled(const char *name)
{
	while (__atomic_exchange_n(&unsampled.lock, 1, __ATOMIC_ACQUIRE))
		GMON_ARCH_RELAX();
	if (unsampled.count < NAMES_KEPT) {
		char *d = unsampled.names[unsampled.count];
		strncpy(d, name, 15);
		d[15] = '\0';
	}
	unsampled.count++;
	__atomic_store_n(&unsampled.lock, 0, __ATOMIC_RELEASE);
}

/* At start: the hook, and the real calls looked up now, so that a
   handler calling sigaction later never runs dlsym (the loader's lock
   may be held by the code it interrupted).  Calls made before this (in
   a library's constructor) look them up themselves. */
void gmon_sigmask_init(void (*thread_start)(void))
{
	(void)real_create();
	(void)real_action_fn();
	(void)real_signal();
	__atomic_store_n(&thread_start_hook, thread_start, __ATOMIC_RELEASE);
}

/* A thread is set up (its first profiled call, or libgmon's start): a
   SIGPROF it blocks for real came by a way libgmon did not see (a mask
   inherited across exec, a thread attribute's): keep it as held, which
   the program then reads, and unblock it so that the thread is sampled. */
void gmon_sigmask_thread_begin(void)
{
	sigset_t now, prof;
	sigemptyset(&now);
	if (raw_mask(SIG_BLOCK, NULL, &now) != 0 || !test_bit(&now, SIGPROF))
		return;
	held = 1;
	sigemptyset(&prof);
	sigaddset(&prof, SIGPROF);
	raw_mask(SIG_UNBLOCK, &prof, NULL);
}

/* A profiled thread is exiting: if it blocks SIGPROF for real, its
   ticks since it did are pending and never delivered. */
void gmon_sigmask_thread_end(void)
{
	sigset_t now;
	sigemptyset(&now);
	if (raw_mask(SIG_BLOCK, NULL, &now) != 0 || !test_bit(&now, SIGPROF))
		return;
	char name[16] = "";
	prctl(PR_GET_NAME, name, 0, 0, 0);
	note_unsampled(name);
}

/* Read up to size-1 bytes of /proc/self/task/TID/FILE; -1 if it fails. */
static int read_task_file(int tid, const char *file, char *buf, size_t size)
{
	char path[64];
	snprintf(path, sizeof path, "/proc/self/task/%d/%s", tid, file);
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	ssize_t n = read(fd, buf, size - 1);
	close(fd);
	if (n < 0)
		return -1;
	buf[n] = '\0';
	return (int)n;
}

/* At the exit write, for each profiled thread still alive: counted and
   named if its SigBlk line has SIGPROF. */
void gmon_sigmask_check_thread(int tid)
{
	char status[2048], name[32];
	if (tid <= 0 || read_task_file(tid, "status", status, sizeof status) < 0)
		return;
	const char *line = strstr(status, "\nSigBlk:");
	if (line == NULL)
		return;
	unsigned long long blk = strtoull(line + 8, NULL, 16);
	if (!((blk >> (SIGPROF - 1)) & 1))
		return;
	if (read_task_file(tid, "comm", name, sizeof name) < 0)
		strcpy(name, "?");
	name[strcspn(name, "\n")] = '\0';
	note_unsampled(name);
}

/* How many threads were found blocking SIGPROF, and the first names,
   ", "-separated, in buf. */
unsigned long gmon_sigmask_unsampled(char *buf, size_t size)
{
	unsigned long n = __atomic_load_n(&unsampled.count, __ATOMIC_ACQUIRE);
	size_t len = 0;
	buf[0] = '\0';
	for (unsigned long i = 0; i < n && i < NAMES_KEPT && len + 1 < size; i++) {
		int w = snprintf(buf + len, size - len, "%s%s", i ? ", " : "",
		                 unsampled.names[i]);
		len = w < 0 || (size_t)w >= size - len ? size - 1 : len + (size_t)w;
	}
	if (n > NAMES_KEPT && len + 1 < size)
		snprintf(buf + len, size - len, ", ...");
	return n;
}

/* A fork child has only the forking thread, whose held stays. */
void gmon_sigmask_after_fork(void)
{
	unsampled.count = 0;
	unsampled.lock = 0;
	act.lock = 0;
}
