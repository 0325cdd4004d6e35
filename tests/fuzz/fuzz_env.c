/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * fuzz_env.c - libFuzzer harness for libgmon's GMON_* value parsers: the
 * signal lists of GMON_EXIT_SIGNALS and GMON_DUMP_SIGNAL (signals.c), the
 * numbers GMON_RATE, GMON_STACK_DEPTH, GMON_STACK_TABLE and GMON_MAXARCS,
 * and the two-word choices GMON_CLOCK, GMON_STACKS and GMON_SHLIBS
 * (env.c).  Both files (and state.c) are included below, as tests/libgmon/rvsites.c
 * includes a runtime file, so nothing of the profiler starts.
 *
 * Input: a selector byte (which variable, below), then the value.  The
 * value is put in the environment as an exact-size "NAME=value" string
 * (putenv keeps the caller's string), so a read past its end is an ASan
 * report.  Selector 2 sets both signal variables, the value up to the
 * first NUL being GMON_EXIT_SIGNALS and the rest GMON_DUMP_SIGNAL, as
 * gmon_signals_init reads them.
 *
 * Besides the sanitizers: the real gmon_say writes to a memfd put on fd 2
 * while a parser runs, and a value must either be accepted silently, with
 * a valid result (a signal set whose members are exactly the signals the
 * list names, as glibc's sigabbrev_np names them; a number within the
 * setting's limits equal to the digits given), or be rejected with exactly
 * one line "libgmon: ignoring NAME=..." with no control character in it.
 * Each value is parsed twice with the same answer and the same message,
 * and an accepted one printed back canonically (numbers; the signals as
 * numbers and as SIG names) must parse to the same result.
 */
#define _GNU_SOURCE
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/mman.h>
#include <unistd.h>

/* signals.c reads the shared state (state.c), which calls nothing; the
   handlers' actions come from gmon_signals_init's arguments.  Without
   sigmask.c, its signal calls go to the C library's (sigmask.h). */
#define GMON_LIBC_SIGNAL_CALLS
#include "libgmon/state.c"
#include "libgmon/env.c"
#include "libgmon/signals.c"

/* ---- the variable in the environment, exact size ---- */

static char *env_string;

static void env_set(const char *name, const char *value, size_t len)
{
	size_t n = strlen(name);
	env_string = malloc(n + 1 + len + 1);
	if (env_string == NULL)
		abort();
	memcpy(env_string, name, n);
	env_string[n] = '=';
	memcpy(env_string + n + 1, value, len);
	env_string[n + 1 + len] = '\0';
	if (putenv(env_string) != 0)
		abort();
}

/* unsetenv takes the string out of environ without freeing it. */
static void env_clear(const char *name)
{
	unsetenv(name);
	free(env_string);
	env_string = NULL;
}

/* ---- what gmon_say writes ---- */

static int say_fd = -1;
static char said[2048];
static size_t said_len;

/* Everything written to fd 2 between capture_on and capture_off lands
   in said[].  ASan would report to the memfd too, but a report aborts
   the run, and replay's exit status still shows it. */
static int capture_on(void)
{
	if (say_fd < 0 && (say_fd = memfd_create("fuzz_env_say", 0)) < 0)
		abort();
	if (ftruncate(say_fd, 0) != 0 || lseek(say_fd, 0, SEEK_SET) != 0)
		abort();
	int saved = dup(2);
	if (saved < 0 || dup2(say_fd, 2) < 0)
		abort();
	return saved;
}

static void capture_off(int saved)
{
	if (dup2(saved, 2) < 0)
		abort();
	close(saved);
	off_t end = lseek(say_fd, 0, SEEK_CUR);
	if (end < 0 || (size_t)end >= sizeof said)
		abort(); /* gmon_say writes at most 512 bytes a line */
	said_len = (size_t)pread(say_fd, said, (size_t)end, 0);
	if (said_len != (size_t)end)
		abort();
	said[said_len] = '\0';
}

/* Exactly one line, naming the variable, and nothing in it that could
   end a line on a terminal or rewrite it (a tab is harmless). */
static void check_one_line(const char *name)
{
	char want[64];
	snprintf(want, sizeof want, "libgmon: ignoring %s=", name);
	if (strncmp(said, want, strlen(want)) != 0)
		abort();
	if (said_len == 0 || said[said_len - 1] != '\n')
		abort();
	for (size_t i = 0; i + 1 < said_len; i++) {
		unsigned char c = (unsigned char)said[i];
		if ((c < 0x20 && c != '\t') || c == 0x7f)
			abort();
	}
}

static void check_silent(void)
{
	if (said_len != 0)
		abort();
}

/* ---- an independent reading of a signal list ---- */

/* A name as glibc knows it (any case, SIG optional) or a decimal number
   (with SIG optional); 0 if neither. */
static int oracle_signal(const char *tok, size_t len)
{
	if (len >= 3 && strncasecmp(tok, "SIG", 3) == 0) {
		tok += 3;
		len -= 3;
	}
	if (len > 0 && isdigit((unsigned char)tok[0])) {
		long v = 0;
		for (size_t i = 0; i < len; i++) {
			if (!isdigit((unsigned char)tok[i]))
				return 0;
			v = v * 10 + (tok[i] - '0');
			if (v >= NSIG)
				return 0;
		}
		return (int)v;
	}
	if (len == 2 && strncasecmp(tok, "IO", 2) == 0)
		return SIGIO; /* the runtime's name; glibc's is POLL */
	for (int sig = 1; sig < SIGRTMIN; sig++) {
		const char *abbrev = sigabbrev_np(sig);
		if (abbrev != NULL && strlen(abbrev) == len &&
		    strncasecmp(tok, abbrev, len) == 0)
			return sig;
	}
	return 0;
}

/* An accepted list: set must hold exactly the signals its items name. */
static void check_set(const char *value, const sigset_t *set)
{
	sigset_t want;
	sigemptyset(&want);
	for (const char *p = value; *p != '\0';) {
		size_t len = strcspn(p, ",");
		int sig = oracle_signal(p, len);
		if (sig == 0 || sigaddset(&want, sig) != 0)
			abort(); /* accepted an item that is not a usable signal */
		p += len;
		if (*p == ',')
			p++;
	}
	for (int sig = 1; sig < NSIG; sig++)
		if (sigismember(set, sig) != sigismember(&want, sig))
			abort();
}

static int same_set(const sigset_t *a, const sigset_t *b)
{
	for (int sig = 1; sig < NSIG; sig++)
		if (sigismember(a, sig) != sigismember(b, sig))
			return 0;
	return 1;
}

/* ---- GMON_EXIT_SIGNALS ---- */

static const char EXITS[] = "GMON_EXIT_SIGNALS";

/* parse_list as gmon_signals_init calls it, with what it said. */
static int exit_list(const char *value, sigset_t *set)
{
	int saved = capture_on();
	int r = parse_list(EXITS, value, set);
	capture_off(saved);
	return r;
}

/* The set printed back as numbers, or as names with SIG where glibc has
   one; either must give the same set. */
static void check_reprint(const sigset_t *set, int names)
{
	char buf[1024];
	size_t len = 0;
	for (int sig = 1; sig < NSIG; sig++) {
		if (sigismember(set, sig) != 1)
			continue;
		const char *abbrev = names ? sigabbrev_np(sig) : NULL;
		len += (size_t)(abbrev ? snprintf(buf + len, sizeof buf - len, "%sSIG%s",
		                                  len ? "," : "", abbrev)
		                       : snprintf(buf + len, sizeof buf - len, "%s%d",
		                                  len ? "," : "", sig));
	}
	buf[len] = '\0';
	sigset_t again;
	if (exit_list(buf, &again) != 0 || !same_set(set, &again))
		abort();
	check_silent();
}

static void fuzz_exit_signals(const char *value, size_t len, sigset_t *set)
{
	env_set(EXITS, value, len);
	const char *v = gmon_env(EXITS);
	int r = exit_list(v, set);
	char first[sizeof said];
	memcpy(first, said, said_len + 1);
	sigset_t again;
	if (exit_list(v, &again) != r || strcmp(first, said) != 0 ||
	    (r == 0 && !same_set(set, &again)))
		abort();
	if (r == 0) {
		check_silent();
		check_set(v, set);
		check_reprint(set, 0);
		check_reprint(set, 1);
	} else {
		if (r != -1)
			abort();
		check_one_line(EXITS);
		sigemptyset(set); /* ignored as a whole */
	}
	env_clear(EXITS);
}

/* ---- GMON_DUMP_SIGNAL ---- */

static const char DUMP[] = "GMON_DUMP_SIGNAL";

static int dump_signal(const sigset_t *exits)
{
	int saved = capture_on();
	int r = read_dump_signal(exits);
	capture_off(saved);
	return r;
}

static void fuzz_dump_signal(const char *value, size_t len, const sigset_t *exits)
{
	env_set(DUMP, value, len);
	int r = dump_signal(exits);
	char first[sizeof said];
	memcpy(first, said, said_len + 1);
	if (dump_signal(exits) != r || strcmp(first, said) != 0)
		abort();
	if (r > 0) {
		sigset_t one;
		sigemptyset(&one);
		check_silent();
		if (r >= NSIG || r == SIGKILL || r == SIGSTOP || r == SIGPROF ||
		    sigismember(exits, r) == 1 || sigaddset(&one, r) != 0 ||
		    oracle_signal(value, strlen(value)) != r)
			abort();
	} else {
		if (r != -1)
			abort();
		check_one_line(DUMP);
	}
	env_clear(DUMP);
}

/* ---- numbers ---- */

static const struct {
	enum gmon_num which;
	const char *name;
	long lo, hi;
} nums[] = {
	{ GMON_NUM_RATE, "GMON_RATE", 1, GMON_MAX_RATE },
	{ GMON_NUM_STACK_DEPTH, "GMON_STACK_DEPTH", 1, GMSL_MAX_DEPTH },
	{ GMON_NUM_STACK_TABLE, "GMON_STACK_TABLE", 1, GMON_MAX_STACKS },
	{ GMON_NUM_MAXARCS, "GMON_MAXARCS", 16, (long)GMON_MAXARCS_MAX },
};

/* What the value should read as: optional white space and '+' (strtol's
   leniency, which the runtime has always had), then decimal digits and
   nothing else; -1 if it is not that or exceeds hi. */
static long oracle_number(const char *s, long hi)
{
	while (isspace((unsigned char)*s))
		s++;
	if (*s == '+')
		s++;
	if (!isdigit((unsigned char)*s))
		return -1;
	long v = 0;
	for (; isdigit((unsigned char)*s); s++) {
		v = v * 10 + (*s - '0');
		if (v > hi)
			return -1;
	}
	return *s == '\0' ? v : -1;
}

static long number(int i)
{
	int saved = capture_on();
	long v = gmon_env_number(nums[i].which);
	capture_off(saved);
	return v;
}

static void fuzz_number(int i, const char *value, size_t len)
{
	env_set(nums[i].name, value, len);
	long v = number(i);
	char first[sizeof said];
	memcpy(first, said, said_len + 1);
	if (number(i) != v || strcmp(first, said) != 0)
		abort();
	env_clear(nums[i].name);
	long want = oracle_number(value, nums[i].hi);
	if (want < nums[i].lo)
		want = 0;
	if (v != want)
		abort();
	if (v == 0) {
		check_one_line(nums[i].name);
		return;
	}
	check_silent();
	char buf[32];
	snprintf(buf, sizeof buf, "%ld", v);
	env_set(nums[i].name, buf, strlen(buf));
	if (number(i) != v)
		abort();
	check_silent();
	env_clear(nums[i].name);
}

/* ---- two-word choices ---- */

static const struct {
	const char *name, *first, *second;
} words[] = {
	{ "GMON_CLOCK", "cpu", "wall" },
	{ "GMON_STACKS", "0", "1" },
	{ "GMON_SHLIBS", "0", "1" },
};

static void fuzz_word(int i, const char *value, size_t len)
{
	env_set(words[i].name, value, len);
	int saved = capture_on();
	int r = gmon_env_word(words[i].name, words[i].first, words[i].second);
	capture_off(saved);
	env_clear(words[i].name);
	int want = strcmp(value, words[i].second) == 0;
	if (r != want)
		abort();
	if (want || strcmp(value, words[i].first) == 0)
		check_silent();
	else
		check_one_line(words[i].name);
}

/* ---- input ---- */

/* Selectors: 0 GMON_EXIT_SIGNALS, 1 GMON_DUMP_SIGNAL, 2 both, 3-6 the
   numbers, 7-9 the words. */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size < 1)
		return 0;
	unsigned sel = data[0] % 10;
	const char *value = (const char *)data + 1;
	size_t len = strnlen(value, size - 1);
	/* The value as a C string of exactly its size, for the oracles. */
	char *copy = malloc(len + 1);
	if (copy == NULL)
		abort();
	memcpy(copy, value, len);
	copy[len] = '\0';
	sigset_t exits;
	sigemptyset(&exits);
	if (sel == 0 || sel == 2)
		fuzz_exit_signals(copy, len, &exits);
	if (sel == 1) {
		fuzz_dump_signal(copy, len, &exits);
	} else if (sel == 2) {
		size_t rest = len + 1 < size - 1 ? len + 1 : size - 1;
		size_t len2 = strnlen(value + rest, size - 1 - rest);
		char *dump = strndup(value + rest, len2);
		if (dump == NULL)
			abort();
		fuzz_dump_signal(dump, len2, &exits);
		free(dump);
	} else if (sel >= 3 && sel <= 6) {
		fuzz_number((int)sel - 3, copy, len);
	} else if (sel >= 7) {
		fuzz_word((int)sel - 7, copy, len);
	}
	free(copy);
	return 0;
}
