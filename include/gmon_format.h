/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * gmon_format.h - the on-disk profile formats, shared by the gprof tool and
 * the libgmon runtime.  Only constants and sizes live here: every reader and
 * writer encodes fields one by one in the byte order of the executable, so no
 * struct is ever written to disk as it sits in memory.
 */
#ifndef GMON_FORMAT_H
#define GMON_FORMAT_H

/* GNU ("magic") format: a 20-byte header, then tagged records until EOF. */
#define GMON_MAGIC        "gmon"
#define GMON_MAGIC_LEN    4
#define GMON_VERSION      1
#define GMON_HDR_SIZE     20      /* magic, u32 version, 12 spare bytes */
#define GMON_HDR_SPARE    12

enum gmon_tag {
	GMON_TAG_TIME_HIST = 0,   /* low, high (address size), u32 bins, u32 rate,
	                             15-byte dimension, 1-byte abbreviation, u16 bins */
	GMON_TAG_CG_ARC = 1,      /* from, self (address size), u32 count */
	GMON_TAG_BB_COUNT = 2     /* u32 n, then n x (address, count), address size */
};

#define GMON_DIMEN_LEN    15

/* 4.4BSD format: header with this version word and a profiling rate. */
#define GMON_BSD44_VERSION 0x00051879u
/* Header sizes: lowpc, highpc, ncnt, version, rate, 3 spare u32 words. */
#define GMON_BSD44_HDR_SIZE(asz) (2 * (asz) + 4 * 3 + 12)
/* Old BSD format: lowpc, highpc, ncnt only. */
#define GMON_BSD_HDR_SIZE(asz)   (2 * (asz) + 4)

/* Histogram bins are 16-bit counters; one bin covers at least this many bytes. */
#define GMON_HIST_UNIT     2

#endif
