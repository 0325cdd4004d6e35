/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * preload.c - the preloaded runtime's view of the program it was loaded
 * into (libgmon-preload.so only; see doc/libgmon.md, "Profiling without
 * rebuilding"): where the executable's text lies, since the linker
 * symbols __executable_start and etext name the shared object's own text
 * there, and whether the executable already carries a libgmon of its own
 * (linked with -lgmon), in which case this one stays out of the way so
 * that nothing is counted twice.
 *
 *
 * And the watcher: a program without -pg makes no profiled call, which
 * is where libgmon otherwise looks at the loader's list again after a
 * dlopen.  So a thread of the runtime's own (all signals blocked, no
 * table, never sampled) looks every WATCH_MS: when objects were loaded
 * or unloaded it walks the list again for the side file (shlibs.c) and,
 * with GMON_STACKS, for the stack walk (ehobjs.c).  A fork child starts
 * its own, unless GMON_WATCH_FORKS=0 (gprof-run sets it under qemu-user,
 * whose 7.2 release kills a fork child that starts a thread while the
 * parent had more than one: the child's objects are then named when it
 * writes its profile).
 */
#define _GNU_SOURCE
#include <link.h>
#include <pthread.h>
#include <signal.h>
#include <stddef.h>
#include <string.h>
#include <sys/auxv.h>
#include <time.h>

#include "elf_notes.h"
#include "gmon_rt.h"
#include "preload.h"
#include "unwind.h"

#define WATCH_MS 20

int gmon_preload_text(uintptr_t *lo, uintptr_t *hi)
{
	uintptr_t entry = (uintptr_t)getauxval(AT_ENTRY);
	*lo = *hi = 0;
	if (entry != 0)
		gmon_find_text(entry, lo, hi);
	return *hi > *lo;
}

/* The executable's program headers and load bias, from the auxiliary
   vector: its PT_PHDR entry gives the bias. */
static const ElfW(Phdr) *exe_phdrs(size_t *n, uintptr_t *bias)
{
	const ElfW(Phdr) *ph = (const ElfW(Phdr) *)getauxval(AT_PHDR);
	*n = (size_t)getauxval(AT_PHNUM);
	*bias = 0;
	if (ph == NULL)
		return NULL;
	for (size_t i = 0; i < *n; i++)
		if (ph[i].p_type == PT_PHDR) {
			*bias = (uintptr_t)ph - ph[i].p_vaddr;
			return ph;
		}
	/* No PT_PHDR: the segment that maps the headers tells. */
	uintptr_t lo, hi;
	gmon_find_text((uintptr_t)ph, &lo, &hi);
	*bias = hi > lo ? gmon_find_bias((uintptr_t)ph) : 0;
	return ph;
}

int gmon_preload_stand_aside(void)
{
	size_t n;
	uintptr_t bias;
	const ElfW(Phdr) *ph = exe_phdrs(&n, &bias);
	uint32_t size;
	if (gmon_note_find(ph, n, bias, GMON_RUNTIME_NOTE_NAME,
	                   GMON_RUNTIME_NOTE_TYPE, &size) == NULL)
		return 0;
	gmon_say("the program has its own libgmon (linked with -lgmon): "
	         "it writes the profile, the preloaded one stays out");
	return 1;
}

/* ---- the watcher ---- */

static int counters_cb(struct dl_phdr_info *info, size_t size, void *data)
{
	unsigned long long *c = data;
	if (size >= offsetof(struct dl_phdr_info, dlpi_subs) + sizeof info->dlpi_subs) {
		c[0] = info->dlpi_adds;
		c[1] = info->dlpi_subs;
	}
	return 1;
}

static void *watch(void *arg)
{
	(void)arg;
	unsigned long long seen[2] = { 0, 0 };
	dl_iterate_phdr(counters_cb, seen);
	struct timespec nap = { 0, WATCH_MS * 1000000L };
	while (__atomic_load_n(&gmon_p.phase, __ATOMIC_ACQUIRE) == GMON_RUNNING) {
		nanosleep(&nap, NULL);
		unsigned long long now[2] = { 0, 0 };
		dl_iterate_phdr(counters_cb, now);
		if (now[0] == seen[0] && now[1] == seen[1])
			continue;
		seen[0] = now[0];
		seen[1] = now[1];
		if (__atomic_load_n(&gmon_p.phase, __ATOMIC_ACQUIRE) != GMON_RUNNING)
			break;
		gmon_shlibs_walk();
#ifdef GMON_UW_CFI
		if (gmon_set.stacks)
			gmon_ehobjs_refresh();
#endif
	}
	return NULL;
}

static void start_watcher(void)
{
	sigset_t all, old;
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old); /* inherited: never sampled */
	pthread_attr_t a;
	pthread_t th;
	if (pthread_attr_init(&a) == 0) {
		pthread_attr_setdetachstate(&a, PTHREAD_CREATE_DETACHED);
		pthread_attr_setstacksize(&a, 64 * 1024);
		if (gmon_real_pthread_create(&th, &a, watch, NULL) != 0)
			gmon_say("cannot start the watcher thread: objects dlopen'ed "
			         "later are named only when the profile is written");
		pthread_attr_destroy(&a);
	}
	pthread_sigmask(SIG_SETMASK, &old, NULL);
}

static int watch_forks = 1;

static void start_child_watcher(void)
{
	if (watch_forks)
		start_watcher();
}

void gmon_preload_watch(void)
{
	const char *s = gmon_env("GMON_WATCH_FORKS");
	if (s != NULL && strcmp(s, "0") == 0)
		watch_forks = 0;
	else if (s != NULL && strcmp(s, "1") != 0)
		gmon_say("ignoring GMON_WATCH_FORKS=%s (expected 0 or 1)", s);
	start_watcher();
	pthread_atfork(NULL, NULL, start_child_watcher);
}
