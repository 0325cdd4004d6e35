/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * libgmon.h - the C interface of libgmon, the gproftk profiling runtime
 * (link with -lgmon, compile with -pg).  See libgmon(3).
 *
 * Each function returns 0 on success and -1 with errno set on failure;
 * EINVAL means the profiler is not running (it failed to start, or the
 * program is past its exit-time write).
 */
#ifndef LIBGMON_H
#define LIBGMON_H

#ifdef __cplusplus
extern "C" {
#endif

/* Resume counting calls and sampling, as moncontrol(1). */
int gmon_start(void);

/* Pause counting calls and sampling, as moncontrol(0). */
int gmon_stop(void);

/* Zero every call count and histogram bin; threads keep running. */
int gmon_reset(void);

/* Write the profile so far to path (NULL: the name the profile gets at
   exit), through a temporary file renamed into place.  Profiling goes on. */
int gmon_dump(const char *path);

#ifdef __cplusplus
}
#endif

#endif
