/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * preload.h - what the preloaded runtime (libgmon-preload.so, the same
 * sources built with GMON_PRELOAD) adds to libgmon: finding the main
 * executable from a shared object, the marker by which it sees a libgmon
 * already linked into the program, and the copy of the GMON_* settings
 * taken at start.  preload.c owns the first two, env.c the third.
 */
#ifndef GMON_PRELOAD_H
#define GMON_PRELOAD_H

#include <stdint.h>

/* The ELF note every static libgmon (libgmon.a, any C library) puts in
   the program it is linked into: name "gproftk", this type, a 4-byte
   descriptor (0).  The preloaded runtime finds it in the executable's
   program headers and then leaves the profiling to that runtime. */
#define GMON_RUNTIME_NOTE_NAME "gproftk"
#define GMON_RUNTIME_NOTE_TYPE 0x6772746du /* "grtm" */

/* preload.c: the executable's text, from the entry point the kernel
   passed (AT_ENTRY); 0 and both bounds 0 if it cannot be found. */
__attribute__((visibility("hidden"))) int gmon_preload_text(uintptr_t *lo, uintptr_t *hi);
/* preload.c: 1 (after one line on stderr) if the preloaded runtime must
   not start: the executable carries its own libgmon. */
__attribute__((visibility("hidden"))) int gmon_preload_stand_aside(void);
/* preload.c: start the thread that notices dlopen and dlclose (and
   again in each fork child); call once the runtime runs. */
__attribute__((visibility("hidden"))) void gmon_preload_watch(void);
/* env.c: copy the GMON_* variables now; gmon_env reads the copy from
   then on, so that a program that clears or rewrites its environment
   keeps the settings gprof-run gave it.  envp: the environment the
   constructor was passed, or NULL for environ. */
__attribute__((visibility("hidden"))) void gmon_env_keep(char **envp);

#endif
