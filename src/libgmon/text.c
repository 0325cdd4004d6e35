/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * text.c - where the executable lies in memory: the loaded segment that
 * holds an address and its object's load bias, the object's whole mapped
 * span, and the text range widened to every executable segment.
 *
 * Read from the loader's list (dl_iterate_phdr) and from nothing else of
 * the runtime, so that start-up (lifecycle.c) and the histogram
 * (sampler.c) can both ask it without depending on the writer.
 */
#define _GNU_SOURCE
#include <link.h>

#include "gmon_rt.h"

/* ---- the executable's place in memory ---- */

struct phdr_query {
	uintptr_t addr;   /* in: a runtime address inside the executable */
	uintptr_t bias;   /* out: load bias of the object holding addr */
	uintptr_t lo, hi; /* out: runtime bounds of the segment holding addr */
	int found;
};

static int bias_cb(struct dl_phdr_info *info, size_t size, void *data)
{
	struct phdr_query *q = data;
	(void)size;
	for (int i = 0; i < info->dlpi_phnum; i++) {
		const ElfW(Phdr) *p = &info->dlpi_phdr[i];
		uintptr_t start = info->dlpi_addr + p->p_vaddr;
		if (p->p_type == PT_LOAD && q->addr - start < p->p_memsz) {
			q->bias = info->dlpi_addr;
			q->lo = start;
			q->hi = start + p->p_memsz;
			q->found = 1;
			return 1;
		}
	}
	return 0;
}

/* The load bias of the object that contains lowpc (0 when not PIE).  The
   search does not assume the main program is listed first or has an
   empty name: musl names it, glibc does not. */
uintptr_t gmon_find_bias(uintptr_t lowpc)
{
	struct phdr_query q = { .addr = lowpc };
	dl_iterate_phdr(bias_cb, &q);
	return q.found ? q.bias : 0;
}

/* The bounds of the loaded segment that holds addr (both 0 if none). */
void gmon_find_text(uintptr_t addr, uintptr_t *lo, uintptr_t *hi)
{
	struct phdr_query q = { .addr = addr };
	dl_iterate_phdr(bias_cb, &q);
	*lo = q.found ? q.lo : 0;
	*hi = q.found ? q.hi : 0;
}

/* ---- every executable segment of the program ---- */

struct span_query {
	uintptr_t addr;    /* in: an address inside the object */
	int exec_only;     /* in: only segments with PF_X */
	uintptr_t lo, hi;  /* out: union of the object's matching segments */
	uintptr_t sum;     /* out: their total size */
};

/* Does this object hold q->addr in one of its loaded segments? */
static int holds(const struct dl_phdr_info *info, uintptr_t addr)
{
	for (int i = 0; i < info->dlpi_phnum; i++) {
		const ElfW(Phdr) *p = &info->dlpi_phdr[i];
		uintptr_t start = info->dlpi_addr + p->p_vaddr;
		if (p->p_type == PT_LOAD && addr - start < p->p_memsz)
			return 1;
	}
	return 0;
}

static int span_cb(struct dl_phdr_info *info, size_t size, void *data)
{
	struct span_query *q = data;
	(void)size;
	if (!holds(info, q->addr))
		return 0;
	for (int i = 0; i < info->dlpi_phnum; i++) {
		const ElfW(Phdr) *p = &info->dlpi_phdr[i];
		if (p->p_type != PT_LOAD || p->p_memsz == 0 ||
		    (q->exec_only && !(p->p_flags & PF_X)))
			continue;
		uintptr_t start = info->dlpi_addr + p->p_vaddr;
		if (q->sum == 0 || start < q->lo)
			q->lo = start;
		if (q->sum == 0 || start + p->p_memsz > q->hi)
			q->hi = start + p->p_memsz;
		q->sum += p->p_memsz;
	}
	return 1;
}

/* The whole mapped span of the object holding addr (both 0 if none). */
void gmon_object_span(uintptr_t addr, uintptr_t *lo, uintptr_t *hi)
{
	struct span_query q = { .addr = addr };
	dl_iterate_phdr(span_cb, &q);
	*lo = q.sum ? q.lo : 0;
	*hi = q.sum ? q.hi : 0;
}

/*
 * Widen [*lo, *hi), the range the start-up code gave (normally
 * __executable_start to etext), to cover every executable segment of the
 * program too: a linker that puts .init, .plt, .text.hot, .text.unlikely,
 * .text.startup or .fini outside that range must not hide their calls
 * and samples.  One range keeps one histogram record, which every gprof
 * reads.  Should the segments lie so far apart that one range would be
 * mostly gap (more than twice what it covers, plus 1 MiB), the range is
 * left alone and the samples outside it are counted as lost instead.
 */
void gmon_widen_text(uintptr_t *lo, uintptr_t *hi)
{
	struct span_query q = { .addr = *lo, .exec_only = 1 };
	dl_iterate_phdr(span_cb, &q);
	if (q.sum == 0)
		return;
	uintptr_t nlo = q.lo < *lo ? q.lo : *lo;
	uintptr_t nhi = q.hi > *hi ? q.hi : *hi;
	uintptr_t covered = q.sum + (*hi - *lo);
	if (nhi - nlo > 2 * covered + ((uintptr_t)1 << 20))
		return;
	*lo = nlo;
	*hi = nhi;
}

