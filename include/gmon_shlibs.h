/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * gmon_shlibs.h - the layout of the shared-library side file that libgmon
 * writes beside gmon.out under GMON_SHLIBS=1, and that gprof reads with it.
 * Shared by the runtime (writer) and the tool (reader); doc/shlibs.md
 * describes the format in prose.
 *
 * gmon.out itself stays exactly what GNU gprof reads: the executable's
 * histogram and the arcs between its own functions.  Everything that
 * involves another object (a shared library, a dlopen'ed module, the
 * vDSO) goes to the side file, named after the profile with
 * GMSL_SUFFIX appended ("gmon.out" -> "gmon.out.shlibs").
 *
 * Every integer is little-endian, whatever the target, so one reader
 * serves every architecture.  Addresses are link-time addresses of their
 * object (runtime address minus the object's load bias), 64-bit even on
 * 32-bit targets, so that profiles of runs with different load addresses
 * (ASLR) can be summed.
 *
 * File:
 *   header   GMSL_HDR_SIZE bytes: magic "gmsl", u32 version (1),
 *            u32 samples per second, u32 clock (enum gmsl_clock)
 *   records  until end of file, each: u8 tag, u32 payload length,
 *            payload; a reader skips a tag it does not know
 *
 * Records (payloads):
 *   OBJECT   u32 id, u64 bias, u64 lo, u64 hi, u16 path length, path
 *            bytes (no NUL), u16 build-id length, build-id bytes.
 *            [lo, hi) spans the object's executable segments (link-time).
 *            Id 0 is the main executable; ids are unique within a file
 *            and defined before any record uses them.
 *   SAMPLES  u32 object id, u32 n, then n x (u64 address, u32 count):
 *            histogram samples at those addresses of that object, in
 *            units of 1/rate of the file's clock.
 *   ARCS     u32 n, then n x (u32 caller object, u64 caller address,
 *            u32 callee object, u64 callee address, u64 count): calls
 *            where at least one end is outside the main executable.
 *
 * Call stacks and threads (GMON_STACKS=1; the records below may appear in
 * a side file without any of the three above but OBJECT id 0):
 *   THREAD   u32 thread id (0, 1, ... in order of the thread's first
 *            sample or call; unique within a file), u32 the system's
 *            thread id (gettid), u16 name length, name bytes (no NUL;
 *            pthread_getname_np's, may be empty).  Defined before any
 *            record names the thread.
 *   STACKS   u32 thread id, u32 n, then n x (u64 count, u16 depth, u16
 *            flags, depth x (u32 object, u64 address)): distinct call
 *            stacks sampled in that thread, each with how many ticks
 *            found it.  Frame 0 is the interrupted program counter, the
 *            next ones return addresses, outermost last.  flags bit 0:
 *            the walk stopped at the depth limit (the stack is deeper).
 *   TSAMPLES u32 thread id, u32 object id, u32 n, then n x (u64 address,
 *            u32 count): that thread's own histogram samples.
 *   TARCS    u32 thread id, u32 n, then n x the 32 bytes of an ARCS
 *            entry: that thread's own calls, exact counts.
 *   SLOSS    u64 ticks whose stack was truncated at the depth limit,
 *            u64 ticks whose stack was not recorded (pool full), u32
 *            depth limit.
 *
 * CPU and wall time (in every side file; TTIMES with GMON_STACKS=1):
 *   PTIMES   u64 user ns, u64 system ns, u64 wall ns: the process's CPU
 *            time (getrusage RUSAGE_SELF: every thread, ended ones too)
 *            and the wall time, from the runtime's start (or gmon_reset)
 *            to the write.  Several add up (a sum of runs).
 *   TTIMES   u32 thread id, u32 flags, u64 user ns, u64 system ns, u64
 *            wall ns: one THREAD's CPU time and the wall time from its
 *            set-up to its end or to the write.  flags bit 0: the thread
 *            had ended when the file was written; bit 1: the user/system
 *            split is from clock ticks (their sum is exact).  Several for
 *            one thread add up.
 */
#ifndef GMON_SHLIBS_H
#define GMON_SHLIBS_H

#define GMSL_MAGIC      "gmsl"
#define GMSL_MAGIC_LEN  4
#define GMSL_VERSION    1
#define GMSL_HDR_SIZE   16
#define GMSL_SUFFIX     ".shlibs"

enum gmsl_clock {
	GMSL_CLOCK_CPU = 0,   /* CPU time of the sampled threads */
	GMSL_CLOCK_WALL = 1,  /* wall-clock time, waiting threads included */
};

enum gmsl_tag {
	GMSL_TAG_OBJECT = 1,
	GMSL_TAG_SAMPLES = 2,
	GMSL_TAG_ARCS = 3,
	GMSL_TAG_THREAD = 4,
	GMSL_TAG_STACKS = 5,
	GMSL_TAG_TSAMPLES = 6,
	GMSL_TAG_TARCS = 7,
	GMSL_TAG_SLOSS = 8,
	GMSL_TAG_PTIMES = 9,
	GMSL_TAG_TTIMES = 10,
};

#define GMSL_PTIMES_SIZE    24  /* u64 user, system, wall ns */
#define GMSL_TTIMES_SIZE    32  /* u32 thread, u32 flags, 3 x u64 ns */
#define GMSL_TTIMES_ENDED    1  /* TTIMES flags bit 0 */
#define GMSL_TTIMES_TICKS    2  /* TTIMES flags bit 1 */

#define GMSL_STACK_TRUNCATED 1  /* STACKS flags bit 0 */
#define GMSL_STACK_OFFCPU    2  /* bit 1: taken while the thread was blocked
                                   (GMON_CLOCK=wall); readers may ignore it */
#define GMSL_FRAME_SIZE     12  /* u32 object, u64 address */
#define GMSL_MAX_DEPTH      1024 /* a reader's limit on depth */

/* Bytes of each record's fixed part, and of one array entry. */
#define GMSL_REC_HEAD       5   /* u8 tag, u32 payload length */
#define GMSL_OBJECT_FIXED   (4 + 8 + 8 + 8 + 2)   /* before the path */
#define GMSL_SAMPLE_SIZE    12  /* u64 address, u32 count */
#define GMSL_ARC_SIZE       32  /* u32, u64, u32, u64, u64 */

/* Limits a reader enforces (a writer stays within them). */
#define GMSL_MAX_PATH       4096
#define GMSL_MAX_BUILD_ID   64
#define GMSL_MAX_OBJECTS    65536

#endif
