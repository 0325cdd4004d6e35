/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * ehobjs.c - the table of loaded objects the stack walk unwinds through
 * (GMON_STACKS): for each readable executable segment of each object,
 * its span, the readable segment holding its .eh_frame_hdr and
 * .eh_frame, and the header's search table (unwind.c prepares it).
 *
 * The table is built outside any signal handler, with dl_iterate_phdr
 * (which takes the loader's lock): at start, and again from a thread's
 * next profiled call after a walk met code in no known object (a module
 * just dlopen'ed), at most every REFRESH_NS.  The vDSO is added from
 * the auxiliary vector, where the C library's list lacks it (musl
 * static).  The handler reads it without a lock: entries are only ever
 * appended, each complete before the count that covers it is published
 * (release), and an object gone from the loader's list is marked dead,
 * never rewritten; a new object at the same place is a new entry, and
 * the walk takes the newest.  An object unloaded between a dlclose and
 * the next refresh can still be looked up, but only for a PC inside its
 * old text, which no live frame holds.
 */
#define _GNU_SOURCE
#include <elf.h>
#include <link.h>
#include <stdint.h>
#include <sys/auxv.h>
#include <time.h>

#include "unwind.h"

#define MAX_OBJS 1024
#define REFRESH_NS 100000000LL /* 0.1 s */

static struct gmon_uw_obj objs[MAX_OBJS];
static uint8_t seen[MAX_OBJS];   /* in the walk being made (refresh only) */
static uint32_t nobjs;           /* published, release */
static int missed;               /* a walk met code in no object */
static int busy;                 /* a refresh is running */
static long long last_ns;

const struct gmon_uw_obj *gmon_ehobjs(uint32_t *n)
{
	*n = __atomic_load_n(&nobjs, __ATOMIC_ACQUIRE);
	return objs;
}

void gmon_ehobjs_missed(void)
{
	__atomic_store_n(&missed, 1, __ATOMIC_RELAXED);
}

/* Worth a refresh now?  Code was missed, and none was made lately. */
int gmon_ehobjs_stale(void)
{
	if (!__atomic_load_n(&missed, __ATOMIC_RELAXED))
		return 0;
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	long long now = ts.tv_sec * 1000000000LL + ts.tv_nsec;
	return now - __atomic_load_n(&last_ns, __ATOMIC_RELAXED) >= REFRESH_NS;
}

/* The readable loaded segment holding a, its file-backed part. */
static int data_span(uintptr_t bias, const ElfW(Phdr) *ph, int n, uintptr_t a,
                     uintptr_t *lo, uintptr_t *hi)
{
	for (int i = 0; i < n; i++) {
		const ElfW(Phdr) *p = &ph[i];
		uintptr_t s = bias + p->p_vaddr;
		if (p->p_type == PT_LOAD && (p->p_flags & PF_R) && a - s < p->p_filesz) {
			*lo = s;
			*hi = s + p->p_filesz;
			return 1;
		}
	}
	return 0;
}

/* Entry for one executable segment; an existing live one is kept. */
static void add_segment(const struct gmon_uw_obj *o)
{
	uint32_t n = nobjs;
	for (uint32_t i = 0; i < n; i++)
		if (!objs[i].dead && objs[i].text_lo == o->text_lo &&
		    objs[i].text_hi == o->text_hi && objs[i].hdr == o->hdr) {
			seen[i] = 1;
			return;
		}
	if (n == MAX_OBJS)
		return;
	objs[n] = *o;
	gmon_uw_prepare(&objs[n]);
	seen[n] = 1;
	__atomic_store_n(&nobjs, n + 1, __ATOMIC_RELEASE);
}

static void add_object(uintptr_t bias, const ElfW(Phdr) *ph, int n)
{
	struct gmon_uw_obj o = { 0 };
	for (int i = 0; i < n; i++)
		if (ph[i].p_type == PT_GNU_EH_FRAME)
			o.hdr = bias + ph[i].p_vaddr;
	if (o.hdr != 0 && !data_span(bias, ph, n, o.hdr, &o.data_lo, &o.data_hi))
		o.hdr = 0;
	for (int i = 0; i < n; i++) {
		const ElfW(Phdr) *p = &ph[i];
		if (p->p_type != PT_LOAD || (p->p_flags & (PF_X | PF_R)) != (PF_X | PF_R) ||
		    p->p_filesz == 0)
			continue;
		o.text_lo = bias + p->p_vaddr;
		o.text_hi = o.text_lo + p->p_filesz;
		add_segment(&o);
	}
}

static int walk_cb(struct dl_phdr_info *info, size_t size, void *data)
{
	(void)size, (void)data;
	add_object(info->dlpi_addr, info->dlpi_phdr, info->dlpi_phnum);
	return 0;
}

/* The vDSO, from its ELF header in memory. */
static void add_vdso(void)
{
	uintptr_t base = (uintptr_t)getauxval(AT_SYSINFO_EHDR);
	if (base == 0)
		return;
	const ElfW(Ehdr) *eh = (const ElfW(Ehdr) *)base;
	const ElfW(Phdr) *ph = (const ElfW(Phdr) *)(base + eh->e_phoff);
	for (int i = 0; i < eh->e_phnum; i++)
		if (ph[i].p_type == PT_LOAD && ph[i].p_offset == 0) {
			add_object(base - ph[i].p_vaddr, ph, eh->e_phnum);
			return;
		}
}

void gmon_ehobjs_refresh(void)
{
	if (__atomic_exchange_n(&busy, 1, __ATOMIC_ACQUIRE))
		return;
	__atomic_store_n(&missed, 0, __ATOMIC_RELAXED);
	uint32_t before = nobjs;
	for (uint32_t i = 0; i < before; i++)
		seen[i] = 0;
	dl_iterate_phdr(walk_cb, NULL);
	add_vdso();
	for (uint32_t i = 0; i < before; i++)
		if (!seen[i])
			__atomic_store_n(&objs[i].dead, 1, __ATOMIC_RELAXED);
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	__atomic_store_n(&last_ns, ts.tv_sec * 1000000000LL + ts.tv_nsec,
	                 __ATOMIC_RELAXED);
	__atomic_store_n(&busy, 0, __ATOMIC_RELEASE);
}

void gmon_ehobjs_init(void)
{
	gmon_ehobjs_refresh();
}
