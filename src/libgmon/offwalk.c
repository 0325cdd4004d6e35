/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * offwalk.c - where a thread blocked in the kernel waits, and its call
 * stack, for offcpu.c's sampler thread (GMON_CLOCK=wall).  All it knows
 * of the thread is its stack pointer and PC (/proc/self/task/TID/syscall);
 * it reads the thread's stack with process_vm_readv, which fails instead
 * of faulting, so that a bad guess costs a short read, never a crash.
 *
 * The wait site: the blocked PC if it is the program's (or shared
 * libraries are profiled), else the first return address into the
 * program's text above the stack pointer, minus one (the call, not the
 * next instruction, which may be the next function's).  The stack: that
 * site, then the frame-pointer chain of the program's -pg code from the
 * first frame record above that return address (the C library's
 * wrappers keep no frame pointer).  gmon_offwalk_stack is the one place
 * to plug a CFI unwinder that starts from (sp, pc).
 */
#define _GNU_SOURCE
#include <string.h>
#include <sys/types.h>
#include <sys/uio.h>
#include <unistd.h>

#include "gmon_rt.h"
#include "offcpu.h"

#define SCAN_BYTES (64 * 1024) /* how far up the stack a caller is sought */
#define CHUNK 4096             /* stack read per system call */

static pid_t pid;                 /* this process's */
static unsigned char buf[CHUNK];  /* the sampler thread's stack reads */

/* This process's id (at start, and in a fork child). */
void gmon_offwalk_pid(pid_t p)
{
	pid = p;
}

/* Read our own memory at addr; a short count at an unmapped page. */
static ssize_t read_self(uintptr_t addr, void *to, size_t len)
{
	struct iovec local = { to, len };
	struct iovec remote = { (void *)addr, len };
	return process_vm_readv(pid, &local, 1, &remote, 1, 0);
}

/* ---- the function a thread waits in ---- */

static int in_text(uintptr_t a)
{
	return a - gmon_p.lowpc < gmon_p.textsize;
}

/* Does a call instruction end at ra?  Where the architecture can tell
   (x86: GMON_ARCH_IS_CALL), the code before ra is read and checked; else
   only the alignment is. */
static int after_call(uintptr_t ra)
{
	if (ra & (GMON_ARCH_RA_ALIGN - 1))
		return 0;
#ifdef GMON_ARCH_CALL_BYTES
	unsigned char c[GMON_ARCH_CALL_BYTES];
	if (ra - gmon_p.lowpc < sizeof c ||
	    read_self(ra - sizeof c, c, sizeof c) != (ssize_t)sizeof c)
		return 0;
	return GMON_ARCH_IS_CALL(c);
#else
	return 1;
#endif
}

/* If word v is a return address into the program, the address to credit
   (inside the call), else 0. */
static uintptr_t as_return(uintptr_t v)
{
	v = GMON_ARCH_RA_STRIP(v);
	if (!in_text(v) || !after_call(v))
		return 0;
	return v - 1;
}

/* The first return address into the program's text at or above sp, read
   a chunk at a time so that the search ends at an unmapped page; *slot
   gets the address of the word that holds it. */
static uintptr_t caller_in_text(uintptr_t sp, uintptr_t *slot)
{
	const size_t word = sizeof(uintptr_t);
	uintptr_t a = (sp + word - 1) & ~(uintptr_t)(word - 1), end = a + SCAN_BYTES;
	while (a < end) {
		uintptr_t stop = (a | (CHUNK - 1)) + 1;
		ssize_t n = read_self(a, buf, stop - a);
		if (n <= 0)
			return 0;
		for (size_t i = 0; i + word <= (size_t)n; i += word) {
			uintptr_t v, r;
			memcpy(&v, buf + i, word);
			if ((r = as_return(v)) != 0) {
				*slot = a + i;
				return r;
			}
		}
		if ((size_t)n < stop - a)
			return 0;
		a = stop;
	}
	return 0;
}

/* Where a thread blocked at pc (stack at sp) waits: pc itself if it is
   the program's or shared libraries are profiled, else its caller in
   the program if one is found (*slot: where that return address lies,
   0 if none). */
uintptr_t gmon_offwalk_site(uintptr_t sp, uintptr_t pc, uintptr_t *slot)
{
	*slot = 0;
	uintptr_t ra = caller_in_text(sp, slot);
	if (in_text(pc) || gmon_shlibs_enabled())
		return pc;
	return ra != 0 ? ra : pc;
}

/* ---- the blocked thread's stack ---- */

#define FRAME_SEARCH 4096   /* how far above a return address its caller's
                               frame record is sought */
#define FRAME_MAX (1u << 20) /* the most one frame may span */

/* A frame record (saved frame pointer, return address) of the blocked
   thread at fp (*ret 0 if unreadable): 1 if it leads to a caller's
   record above it. */
static int read_record(uintptr_t fp, uintptr_t *next, uintptr_t *ret)
{
	uintptr_t rec[2];
	*ret = 0;
	if ((fp & (sizeof(uintptr_t) - 1)) != 0 ||
	    read_self(fp, rec, sizeof rec) != (ssize_t)sizeof rec)
		return 0;
	*next = rec[0];
	*ret = GMON_ARCH_RA_STRIP(rec[1]);
	return *ret != 0 && *next > fp && *next - fp <= FRAME_MAX;
}

/* The frame record of the function that holds the return-address word
   at slot: the first pair above it whose return address follows a call
   into the program and whose saved frame pointer leads further up. */
static uintptr_t find_record(uintptr_t slot)
{
	for (uintptr_t b = slot + sizeof(uintptr_t); b < slot + FRAME_SEARCH;
	     b += sizeof(uintptr_t)) {
		uintptr_t next, ret;
		if (read_record(b, &next, &ret) && as_return(ret) != 0)
			return b;
	}
	return 0;
}

/*
 * The blocked thread's stack into f[] (at most max frames): frame 0 the
 * wait site; the return address found by the scan if frame 0 is the
 * blocked PC itself; then the frame-pointer chain from the caller's
 * record.  The C library's wrappers keep no frame pointer but the
 * program's -pg code does (on x86; aarch64's frame records too), so the
 * chain starts at the first record above the return address into the
 * program.  A CFI unwinder that starts from (sp, pc) can replace this
 * function whole: its contract is f[0] = the site, then return addresses.
 */
uint32_t gmon_offwalk_stack(uintptr_t pc, uintptr_t site, uintptr_t slot,
                            uintptr_t *f, uint32_t max, int *cut)
{
	uint32_t d = 0;
	*cut = 0;
	f[d++] = site;
	if (slot == 0 || max < 2)
		return d;
	uintptr_t ra = 0;
	if (site == pc && read_self(slot, &ra, sizeof ra) == (ssize_t)sizeof ra)
		f[d++] = GMON_ARCH_RA_STRIP(ra);
	/* As stacks.c's walk: a record's return address counts even when its
	   saved frame pointer ends the chain (the outermost frame's). */
	uintptr_t fp = find_record(slot), next, ret;
	int more = fp != 0;
	while (more) {
		more = read_record(fp, &next, &ret);
		if (ret == 0)
			break;
		if (d == max) {
			*cut = 1;
			break;
		}
		f[d++] = ret;
		fp = next;
	}
	return d;
}

