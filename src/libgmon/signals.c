/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * signals.c - profiles written on signals.  GMON_EXIT_SIGNALS=INT,TERM
 * writes the profile when one of those signals ends the program, then
 * lets the signal end it as it would have (same exit status, same core
 * dump); GMON_DUMP_SIGNAL=USR2 writes a numbered snapshot of the profile
 * so far and lets the program run on.
 *
 * Handlers are installed once, at start-up, and only over the default
 * action: a signal the program already ignores (nohup's SIGHUP) or
 * handles is left alone.  A handler the program installs later simply
 * replaces libgmon's, so the program's own choice always wins.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "gmon_rt.h"

/* What the handlers run, given by the lifecycle (lifecycle.c) at
   start-up, so that this part does not call back up into it: stop and
   write at most once (_mcleanup), and write snapshot number n. */
static void (*exit_write)(void);
static void (*dump_write)(unsigned long n);

static const struct {
	const char *name;
	int sig;
} known[] = {
	{ "HUP", SIGHUP },   { "INT", SIGINT },       { "QUIT", SIGQUIT },
	{ "ILL", SIGILL },   { "TRAP", SIGTRAP },     { "ABRT", SIGABRT },
	{ "BUS", SIGBUS },   { "FPE", SIGFPE },       { "USR1", SIGUSR1 },
	{ "SEGV", SIGSEGV }, { "USR2", SIGUSR2 },     { "PIPE", SIGPIPE },
	{ "ALRM", SIGALRM }, { "TERM", SIGTERM },     { "CHLD", SIGCHLD },
	{ "CONT", SIGCONT }, { "TSTP", SIGTSTP },     { "TTIN", SIGTTIN },
	{ "TTOU", SIGTTOU }, { "URG", SIGURG },       { "XCPU", SIGXCPU },
	{ "XFSZ", SIGXFSZ }, { "VTALRM", SIGVTALRM }, { "WINCH", SIGWINCH },
	{ "IO", SIGIO },     { "PWR", SIGPWR },       { "SYS", SIGSYS },
	{ "KILL", SIGKILL }, { "STOP", SIGSTOP },     { "PROF", SIGPROF },
	/* glibc's names (sigabbrev_np) for signals known above by number or
	   another name, so that every name it prints is accepted. */
#ifdef SIGPOLL
	{ "POLL", SIGPOLL },
#endif
#ifdef SIGSTKFLT
	{ "STKFLT", SIGSTKFLT },
#endif
};

static sigset_t ours;       /* every signal libgmon handles */
static unsigned long dumps; /* snapshots written by this process */

/* One signal, by name (any case, SIG optional) or number; 0 if neither. */
static int parse_one(const char *s)
{
	if (strncasecmp(s, "SIG", 3) == 0)
		s += 3;
	if (*s >= '0' && *s <= '9') {
		char *end;
		long v = strtol(s, &end, 10);
		return *end == '\0' && v >= 1 && v <= SIGRTMAX ? (int)v : 0;
	}
	for (size_t i = 0; i < sizeof known / sizeof known[0]; i++)
		if (strcasecmp(s, known[i].name) == 0)
			return known[i].sig;
	return 0;
}

/* Why sig cannot be used (exit: it must end the program by default). */
static const char *unusable(int sig, int for_exit)
{
	if (sig == SIGKILL || sig == SIGSTOP)
		return "cannot be caught";
	if (sig == SIGPROF)
		return "libgmon samples with it";
	/* glibc keeps 32 and 33 for its threads: sigaddset and sigaction
	   refuse them, which would leave the setting silently without effect. */
	sigset_t probe;
	sigemptyset(&probe);
	if (sigaddset(&probe, sig) != 0)
		return "reserved by the C library";
	if (for_exit && (sig == SIGCHLD || sig == SIGCONT || sig == SIGURG ||
	                 sig == SIGWINCH || sig == SIGTSTP || sig == SIGTTIN ||
	                 sig == SIGTTOU))
		return "does not end the program";
	return NULL;
}

/* Parse GMON_EXIT_SIGNALS's comma list into set (empty: no signal); 0,
   or -1 after saying why (the whole variable is then ignored). */
static int parse_list(const char *var, const char *value, sigset_t *set)
{
	char buf[256];
	sigemptyset(set);
	if (value[0] == '\0')
		return 0;
	if (strlen(value) >= sizeof buf) {
		gmon_say("ignoring %s=%s (too long for a list of signals)", var, value);
		return -1;
	}
	strcpy(buf, value);
	for (char *tok = buf; tok != NULL;) {
		char *comma = strchr(tok, ',');
		if (comma != NULL)
			*comma = '\0';
		int sig = parse_one(tok);
		const char *why = sig ? unusable(sig, 1) : "not a signal name or number";
		if (why != NULL) {
			gmon_say("ignoring %s=%s (\"%s\": %s)", var, value, tok, why);
			return -1;
		}
		sigaddset(set, sig);
		tok = comma ? comma + 1 : NULL;
	}
	return 0;
}

/* Write the profile, then die of sig as if libgmon were not there.  If
   another thread is writing it at exit, _mcleanup waits until it is whole
   (see the rule in lifecycle.c): dying sooner would leave only the
   temporary file. */
static void on_exit_signal(int sig)
{
	gmon_in_handler = 1;
	exit_write();
	struct sigaction dfl;
	memset(&dfl, 0, sizeof dfl);
	dfl.sa_handler = SIG_DFL;
	sigemptyset(&dfl.sa_mask);
	sigaction(sig, &dfl, NULL);
	sigset_t just;
	sigemptyset(&just);
	sigaddset(&just, sig);
	raise(sig); /* pending while blocked; delivered on unblocking */
	pthread_sigmask(SIG_UNBLOCK, &just, NULL);
}

/* A snapshot: counts since start (or the last gmon_reset), numbered. */
static void on_dump_signal(int sig)
{
	int saved = errno;
	(void)sig;
	gmon_in_handler++;
	if (__atomic_load_n(&gmon_p.phase, __ATOMIC_ACQUIRE) == GMON_RUNNING)
		dump_write(__atomic_add_fetch(&dumps, 1, __ATOMIC_RELAXED));
	gmon_in_handler--;
	errno = saved;
}

/* Handle sig with fn if its action is still the default one.  While
   either handler runs, all of libgmon's signals wait, so an exit signal
   never interrupts a dump halfway (it would find the writer busy). */
static void take_over(int sig, void (*fn)(int))
{
	struct sigaction old, sa;
	if (sigaction(sig, NULL, &old) != 0 || (old.sa_flags & SA_SIGINFO) ||
	    old.sa_handler != SIG_DFL)
		return;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = fn;
	sa.sa_mask = ours;
	sa.sa_flags = SA_RESTART;
	sigaction(sig, &sa, NULL);
}

/* GMON_DUMP_SIGNAL: one signal; 0 if unset, -1 if bad (said why). */
static int read_dump_signal(const sigset_t *exits)
{
	const char *s = gmon_env("GMON_DUMP_SIGNAL");
	if (s == NULL)
		return 0;
	int sig = parse_one(s);
	const char *why = sig == 0 ? "not a signal name or number"
	                  : sigismember(exits, sig) ? "also in GMON_EXIT_SIGNALS"
	                  : unusable(sig, 0);
	if (why == NULL)
		return sig;
	gmon_say("ignoring GMON_DUMP_SIGNAL=%s (%s)", s, why);
	return -1;
}

/* Called once the runtime is running, with what the exit and dump
   handlers are to run. */
void gmon_signals_init(void (*exit_fn)(void), void (*dump_fn)(unsigned long n))
{
	exit_write = exit_fn;
	dump_write = dump_fn;
	sigset_t exits;
	const char *list = gmon_env("GMON_EXIT_SIGNALS");
	if (list == NULL || parse_list("GMON_EXIT_SIGNALS", list, &exits) != 0)
		sigemptyset(&exits);
	int dump = read_dump_signal(&exits);
	ours = exits;
	if (dump > 0)
		sigaddset(&ours, dump);
	for (int sig = 1; sig <= SIGRTMAX; sig++)
		if (sigismember(&exits, sig) == 1)
			take_over(sig, on_exit_signal);
	if (dump > 0)
		take_over(dump, on_dump_signal);
}

/* Hold libgmon's signals off this thread while it writes a profile: a
   handler that interrupted the write on its own thread could neither
   wait for it nor finish it.  The signal stays pending until
   gmon_signals_release, or goes to another thread, which waits for the
   writer.  Both calls are async-signal-safe; errno is left alone. */
void gmon_signals_hold(sigset_t *old)
{
	int saved = errno;
	pthread_sigmask(SIG_BLOCK, &ours, old);
	errno = saved;
}

void gmon_signals_release(const sigset_t *old)
{
	int saved = errno;
	pthread_sigmask(SIG_SETMASK, old, NULL);
	errno = saved;
}

/* A fork child numbers its own snapshots from 1 (its names carry its
   own pid, so they cannot clash with the parent's). */
void gmon_signals_after_fork(void)
{
	dumps = 0;
}
