/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * env.c - the GMON_* settings: reading a variable, the value parsers for
 * numbers and two-word choices, and gmon_say, the one-line messages a
 * bad value gets.
 *
 * These are kept apart from the rest of the runtime (they need nothing
 * of it) so that tests/fuzz/fuzz_env.c can link them without starting a
 * profiler.  signals.c keeps its own signal-list parser; the harness
 * includes that file.
 */
#define _GNU_SOURCE
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <unistd.h>

#include "gmon_shlibs.h"
#include "gmon_rt.h"
#include "preload.h"

void gmon_say(const char *fmt, ...)
{
	char buf[512];
	int n = snprintf(buf, sizeof buf, "libgmon: ");
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(buf + n, sizeof buf - (size_t)n - 1, fmt, ap);
	va_end(ap);
	/* A value from the environment may hold a newline or a terminal
	   control sequence: shown as '?', as ls shows such names, so that a
	   message stays one line and cannot rewrite the ones before it. */
	size_t len = 0;
	for (; buf[len] != '\0'; len++)
		if (((unsigned char)buf[len] < 0x20 && buf[len] != '\t') ||
		    buf[len] == 0x7f)
			buf[len] = '?';
	buf[len++] = '\n';
	ssize_t w = write(2, buf, len); /* one write: one line, even with threads */
	(void)w;
}

#ifdef GMON_PRELOAD
/* The GMON_* variables as they were at start, NUL-separated "NAME=value"
   strings (libgmon-preload.so: a program may clear its environment). */
static char kept[8192];
static size_t kept_len;
static int kept_on;

void gmon_env_keep(char **envp)
{
	extern char **environ;
	for (char **e = envp != NULL ? envp : environ; e != NULL && *e != NULL; e++) {
		size_t n = strlen(*e) + 1;
		if (strncmp(*e, "GMON_", 5) == 0 && n <= sizeof kept - kept_len) {
			memcpy(kept + kept_len, *e, n);
			kept_len += n;
		}
	}
	kept_on = 1;
}

static const char *kept_value(const char *name)
{
	size_t len = strlen(name);
	for (size_t i = 0; i < kept_len; i += strlen(kept + i) + 1)
		if (strncmp(kept + i, name, len) == 0 && kept[i + len] == '=')
			return kept + i + len + 1;
	return NULL;
}
#endif

/* Environment settings are ignored in set-user-ID and similar programs,
   where they could make a privileged process write files for a user. */
const char *gmon_env(const char *name)
{
	if (getauxval(AT_SECURE))
		return NULL;
#ifdef GMON_PRELOAD
	if (kept_on)
		return kept_value(name);
#endif
	return getenv(name);
}

/* The numeric settings and their limits, in one place so that the
   runtime and the fuzz harness cannot disagree about them. */
static const struct {
	const char *name;
	long lo, hi;
	const char *unit; /* after the limits in the message */
} numbers[] = {
	[GMON_NUM_RATE] = { "GMON_RATE", 1, GMON_MAX_RATE, " samples per second" },
	[GMON_NUM_STACK_DEPTH] = { "GMON_STACK_DEPTH", 1, GMSL_MAX_DEPTH, "" },
	[GMON_NUM_STACK_TABLE] = { "GMON_STACK_TABLE", 1, GMON_MAX_STACKS, "" },
	[GMON_NUM_MAXARCS] = { "GMON_MAXARCS", 16, GMON_MAXARCS_MAX, "" },
};

long gmon_env_number(enum gmon_num which)
{
	const char *name = numbers[which].name;
	const char *s = gmon_env(name);
	if (s == NULL)
		return 0;
	char *end;
	long v = strtol(s, &end, 10);
	if (*s != '\0' && *end == '\0' && v >= numbers[which].lo &&
	    v <= numbers[which].hi)
		return v;
	gmon_say("ignoring %s=%s (expected %ld to %ld%s)", name, s,
	         numbers[which].lo, numbers[which].hi, numbers[which].unit);
	return 0;
}

int gmon_env_word(const char *name, const char *first, const char *second)
{
	const char *s = gmon_env(name);
	if (s == NULL)
		return -1;
	if (strcmp(s, first) == 0)
		return 0;
	if (strcmp(s, second) == 0)
		return 1;
	gmon_say("ignoring %s=%s (expected %s or %s)", name, s, first, second);
	return 0;
}
