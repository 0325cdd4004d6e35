/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * sig_view.c - the masks and the SIGPROF action a program sets read back
 * as it set them, although libgmon keeps SIGPROF deliverable
 * (tests/libgmon/sigmask.sh).  Deterministic: no check here depends on
 * where a tick lands.
 *
 *   sig_view masks     sigprocmask and pthread_sigmask old sets after
 *                      BLOCK, UNBLOCK and SETMASK; the mask a new thread
 *                      inherits (SIGPROF held or not); a bad `how`; a
 *                      fork child; and, each time, that the thread's real
 *                      mask (/proc's SigBlk) leaves SIGPROF unblocked
 *   sig_view handler   a SIGPROF handler installed with sigaction and
 *                      with signal() reads back, is never run by
 *                      libgmon's ticks while profiling (which go on:
 *                      spin() is sampled), and is installed once
 *                      moncontrol(0) stops sampling
 *
 * Prints "ok N checks", or one "FAIL: ..." line per failed check (exit
 * status 1).
 */
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "testfns.h"

void moncontrol(int mode);

static int checks, failed;

NOPROF static void check(int ok, const char *what)
{
	checks++;
	if (!ok) {
		failed++;
		printf("FAIL: %s\n", what);
	}
}

/* Signals 1..62 but the C libraries' own (32..34), which no program
   sets through their calls, and SIGKILL and SIGSTOP, which the kernel
   never blocks (qemu-user keeps 63 and 64 for itself: the same). */
NOPROF static int same(const sigset_t *a, const sigset_t *b)
{
	for (int s = 1; s <= 62; s++)
		if ((s < 32 || s > 34) && s != SIGKILL && s != SIGSTOP)
			if (sigismember(a, s) != sigismember(b, s))
				return 0;
	return 1;
}

NOPROF static sigset_t set_of(int a, int b)
{
	sigset_t s;
	sigemptyset(&s);
	if (a)
		sigaddset(&s, a);
	if (b)
		sigaddset(&s, b);
	return s;
}

NOPROF static sigset_t current(void)
{
	sigset_t s;
	sigemptyset(&s);
	pthread_sigmask(SIG_BLOCK, NULL, &s);
	return s;
}

/* The kernel's mask of this thread blocks SIGPROF. */
NOPROF static int really_blocked(void)
{
	char line[256];
	int r = -1;
	FILE *f = fopen("/proc/thread-self/status", "r");
	if (f == NULL)
		return -1;
	while (fgets(line, sizeof line, f))
		if (strncmp(line, "SigBlk:", 7) == 0)
			r = (int)((strtoull(line + 7, NULL, 16) >> (SIGPROF - 1)) & 1);
	fclose(f);
	return r;
}

static sigset_t thread_saw;

NOPROF static void *reader(void *p)
{
	thread_saw = current();
	check(really_blocked() == 0, "a new thread's SIGPROF is deliverable");
	return p;
}

NOPROF static sigset_t new_thread_mask(void)
{
	pthread_t t;
	sigemptyset(&thread_saw);
	if (pthread_create(&t, NULL, reader, NULL) != 0 || pthread_join(t, NULL) != 0)
		check(0, "pthread_create");
	return thread_saw;
}

NOPROF static void masks_set(void)
{
	sigset_t none, old, want, all;
	sigemptyset(&none);
	sigfillset(&all);
	sigset_t prof_usr1 = set_of(SIGPROF, SIGUSR1);
	check(sigprocmask(SIG_SETMASK, &none, NULL) == 0, "sigprocmask SETMASK empty");
	check(sigprocmask(SIG_BLOCK, &prof_usr1, &old) == 0 && same(&old, &none),
	      "sigprocmask BLOCK: old set empty");
	want = current();
	check(same(&want, &prof_usr1), "SIGPROF and SIGUSR1 read back blocked");
	check(really_blocked() == 0, "SIGPROF deliverable while held");
	sigset_t t = new_thread_mask();
	check(same(&t, &prof_usr1), "a thread created meanwhile inherits SIGPROF and SIGUSR1");
	sigset_t prof = set_of(SIGPROF, 0), usr1 = set_of(SIGUSR1, 0);
	check(pthread_sigmask(SIG_UNBLOCK, &prof, &old) == 0 && same(&old, &prof_usr1),
	      "pthread_sigmask UNBLOCK: old set has both");
	want = current();
	check(same(&want, &usr1), "SIGPROF reads unblocked, SIGUSR1 blocked");
	t = new_thread_mask();
	check(same(&t, &usr1), "a thread created then inherits SIGUSR1 only");
	check(pthread_sigmask(SIG_SETMASK, &all, &old) == 0 && same(&old, &usr1),
	      "pthread_sigmask SETMASK full: old set SIGUSR1");
	want = current();
	check(same(&want, &all), "a full mask reads back full");
	check(really_blocked() == 0, "SIGPROF deliverable under a full mask");
	t = new_thread_mask();
	check(same(&t, &all), "a thread created under a full mask reads it full");
}

NOPROF static void masks_edges(void)
{
	sigset_t before = current(), prof = set_of(SIGPROF, 0), after;
	errno = 0;
	check(sigprocmask(12345, &prof, NULL) == -1 && errno == EINVAL,
	      "sigprocmask with a bad how: EINVAL");
	check(pthread_sigmask(12345, &prof, NULL) == EINVAL,
	      "pthread_sigmask with a bad how: EINVAL");
	after = current();
	check(same(&before, &after), "a bad how changes nothing");
	pid_t pid = fork();
	if (pid == 0) {
		sigset_t c = current();
		_exit(same(&c, &before) && really_blocked() == 0 ? 0 : 1);
	}
	int st = 0;
	check(pid > 0 && waitpid(pid, &st, 0) == pid && WIFEXITED(st) &&
	      WEXITSTATUS(st) == 0, "a fork child reads its parent's mask");
	sigset_t none;
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
}

static volatile sig_atomic_t handled;

NOPROF static void on_prof(int sig)
{
	(void)sig;
	handled++;
}

volatile unsigned long sink;

KEEP void spin(double secs)
{
	struct timespec a, b;
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &a);
	do {
		for (int i = 0; i < 100000; i++)
			sink += (unsigned long)i;
		clock_gettime(CLOCK_THREAD_CPUTIME_ID, &b);
	} while ((b.tv_sec - a.tv_sec) + (b.tv_nsec - a.tv_nsec) / 1e9 < secs);
}

NOPROF static void handler(void)
{
	struct sigaction sa, old;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_prof;
	sigemptyset(&sa.sa_mask);
	sigaddset(&sa.sa_mask, SIGUSR2);
	check(sigaction(SIGPROF, &sa, &old) == 0, "sigaction(SIGPROF) returns 0");
	check(old.sa_handler == SIG_DFL, "the action before reads as the default");
	check(sigaction(SIGPROF, NULL, &old) == 0 && old.sa_handler == on_prof &&
	      sigismember(&old.sa_mask, SIGUSR2) == 1, "the handler reads back as set");
	check(signal(SIGPROF, on_prof) == on_prof, "signal(SIGPROF) returns it too");
	spin(0.3);
	check(handled == 0, "libgmon's ticks never reach the program's handler");
	moncontrol(0);
	raise(SIGPROF);
	check(handled == 1, "after moncontrol(0) the program's handler runs");
}

int main(int argc, char **argv)
{
	if (argc > 1 && strcmp(argv[1], "handler") == 0) {
		handler();
	} else {
		masks_set();
		masks_edges();
	}
	if (failed == 0)
		printf("ok %d checks\n", checks);
	return failed != 0;
}
