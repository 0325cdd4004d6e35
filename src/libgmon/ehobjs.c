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
#include <fcntl.h>
#include <link.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include "gmon_rt.h"
#include "unwind.h"

#ifdef GMON_UW_CFI

#define MAX_OBJS 1024
#define REFRESH_NS 10000000LL /* 10 ms */

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

/* Is there a live entry for this segment already?  (Marked seen.)  The
   key is what the loader's list gives before any table is read: the
   segment's span and the header's address (0 for the executable's own
   table). */
static int known(const struct gmon_uw_obj *o)
{
	for (uint32_t i = 0; i < nobjs; i++)
		if (!objs[i].dead && objs[i].text_lo == o->text_lo &&
		    objs[i].text_hi == o->text_hi && objs[i].hdr == o->hdr) {
			seen[i] = 1;
			return 1;
		}
	return 0;
}

static void add_segment(const struct gmon_uw_obj *o)
{
	uint32_t n = nobjs;
	if (n == MAX_OBJS)
		return;
	objs[n] = *o;
	seen[n] = 1;
	__atomic_store_n(&nobjs, n + 1, __ATOMIC_RELEASE);
}

/* The executable's .eh_frame (link-time address and size), from the
   section headers of /proc/self/exe: a static link has no
   .eh_frame_hdr (gcc asks the linker for one only when linking
   dynamically). */
static int exe_eh_frame(uintptr_t *addr, uintptr_t *size)
{
	int fd = open("/proc/self/exe", O_RDONLY | O_CLOEXEC), found = 0;
	ElfW(Ehdr) eh;
	ElfW(Shdr) names, sh;
	if (fd < 0)
		return 0;
	if (pread(fd, &eh, sizeof eh, 0) == (ssize_t)sizeof eh &&
	    eh.e_shentsize == sizeof sh && eh.e_shstrndx < eh.e_shnum &&
	    pread(fd, &names, sizeof names,
	          (off_t)(eh.e_shoff + eh.e_shstrndx * sizeof sh)) == (ssize_t)sizeof names) {
		for (unsigned i = 0; i < eh.e_shnum && !found; i++) {
			char name[10];
			if (pread(fd, &sh, sizeof sh, (off_t)(eh.e_shoff + i * sizeof sh)) ==
			            (ssize_t)sizeof sh &&
			    pread(fd, name, sizeof name, (off_t)(names.sh_offset + sh.sh_name)) ==
			            (ssize_t)sizeof name)
				found = memcmp(name, ".eh_frame", 10) == 0 &&
				        sh.sh_type == SHT_PROGBITS;
		}
	}
	close(fd);
	*addr = found ? (uintptr_t)sh.sh_addr : 0;
	*size = found ? (uintptr_t)sh.sh_size : 0;
	return found;
}

struct pair {
	uintptr_t pc, fde;
};

static int pair_cmp(const void *a, const void *b)
{
	const struct pair *x = a, *y = b;
	return x->pc < y->pc ? -1 : x->pc > y->pc;
}

/* One pass over the entries of [o->data_lo, o->data_hi): the FDEs
   counted, and stored in t (when not NULL, up to max). */
static uint32_t scan(const struct gmon_uw_obj *o, struct pair *t, uint32_t max)
{
	uint32_t k = 0;
	uintptr_t next, pc;
	for (uintptr_t a = o->data_lo; a < o->data_hi && k < max; a = next) {
		int r = gmon_uw_entry(o, a, &next, &pc);
		if (r < 0)
			break;
		if (r == 1 && t != NULL)
			t[k] = (struct pair){ pc, a };
		k += (uint32_t)r;
	}
	return k;
}

/* A search table of our own for that .eh_frame: (first PC, FDE)
   pairs as absolute addresses, sorted. */
static void own_table(struct gmon_uw_obj *o)
{
	uint32_t n = scan(o, NULL, UINT32_MAX / 4);
	if (n == 0)
		return;
	struct pair *t = mmap(NULL, n * sizeof *t, PROT_READ | PROT_WRITE,
	                      MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (t == MAP_FAILED)
		return;
	n = scan(o, t, n);
	gmon_heapsort(t, n, sizeof *t, pair_cmp);
	o->table = (uintptr_t)t;
	o->entry = sizeof(uintptr_t);
	o->is_signed = 0;
	o->count = n;
}

/* The tables of an object: its .eh_frame_hdr, or for the executable
   without one, its .eh_frame and a search table made here. */
static void find_tables(struct gmon_uw_obj *o, uintptr_t bias, const ElfW(Phdr) *ph,
                        int n, int is_exe)
{
	uintptr_t eh, size;
	if (o->hdr != 0) {
		gmon_uw_prepare(o);
		return;
	}
	if (!is_exe || !exe_eh_frame(&eh, &size) || size == 0 ||
	    !data_span(bias, ph, n, bias + eh, &o->data_lo, &o->data_hi) ||
	    o->data_hi - (bias + eh) < size)
		return;
	o->data_lo = bias + eh;
	o->data_hi = bias + eh + size;
	own_table(o);
}

static void add_object(uintptr_t bias, const ElfW(Phdr) *ph, int n, int is_exe)
{
	struct gmon_uw_obj o = { 0 };
	for (int i = 0; i < n; i++)
		if (ph[i].p_type == PT_GNU_EH_FRAME &&
		    data_span(bias, ph, n, bias + ph[i].p_vaddr, &o.data_lo, &o.data_hi))
			o.hdr = bias + ph[i].p_vaddr;
	int ready = 0;
	for (int i = 0; i < n; i++) {
		const ElfW(Phdr) *p = &ph[i];
		if (p->p_type != PT_LOAD || (p->p_flags & (PF_X | PF_R)) != (PF_X | PF_R) ||
		    p->p_filesz == 0)
			continue;
		o.text_lo = bias + p->p_vaddr;
		o.text_hi = o.text_lo + p->p_filesz;
		if (known(&o))
			continue;
		if (!ready) {
			find_tables(&o, bias, ph, n, is_exe);
			ready = 1;
		}
		add_segment(&o);
	}
}

static int walk_cb(struct dl_phdr_info *info, size_t size, void *data)
{
	(void)size, (void)data;
	/* The executable is the object libgmon is linked into (the C
	   libraries name it differently: "", or a path). */
	uintptr_t self = (uintptr_t)&gmon_ehobjs_init;
	int is_exe = 0;
	for (int i = 0; i < info->dlpi_phnum; i++) {
		const ElfW(Phdr) *p = &info->dlpi_phdr[i];
		if (p->p_type == PT_LOAD && self - (info->dlpi_addr + p->p_vaddr) < p->p_memsz)
			is_exe = 1;
	}
	add_object(info->dlpi_addr, info->dlpi_phdr, info->dlpi_phnum, is_exe);
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
			add_object(base - ph[i].p_vaddr, ph, eh->e_phnum, 0);
			return;
		}
}

/*
 * The sigreturn trampoline, when it lies outside every object
 * (qemu-user's page, which has no vDSO): where a handler returns to, so
 * found by taking one signal at start.  Text only, no tables.  Reading
 * qemu's /proc/self/maps for the page proved fragile: qemu leaves out
 * a host mapping whose guest pages differ in protection.  Kept through
 * every refresh, or the first one would mark it dead.
 */
static struct gmon_uw_obj tramp_seg;
static volatile uintptr_t probe_ret;

static void note_return(int sig)
{
	(void)sig;
	probe_ret = (uintptr_t)__builtin_extract_return_addr(__builtin_return_address(0));
}

/* Take one SIGPROF in note_return (at start: libgmon's timers are not
   armed yet), and give the program's action and mask back. */
static uintptr_t handler_return(void)
{
	sigset_t prof, was;
	sigemptyset(&prof);
	sigaddset(&prof, SIGPROF);
	if (pthread_sigmask(SIG_BLOCK, &prof, &was) != 0)
		return 0;
	struct sigaction sa, old;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = note_return;
	sigfillset(&sa.sa_mask);
	probe_ret = 0;
	if (sigaction(SIGPROF, &sa, &old) == 0) {
		if (raise(SIGPROF) == 0) {
			pthread_sigmask(SIG_UNBLOCK, &prof, NULL);
			pthread_sigmask(SIG_BLOCK, &prof, NULL);
		}
		sigaction(SIGPROF, &old, NULL);
	}
	pthread_sigmask(SIG_SETMASK, &was, NULL);
	return probe_ret;
}

static void add_sigtramp(void)
{
	uintptr_t ret = handler_return();
	/* Only the trampoline's own bytes: that much was about to run. */
	if (ret == 0 || !gmon_uw_is_sigreturn(ret, ret, ret + GMON_UW_TRAMP_BYTES))
		return;
	for (uint32_t i = 0; i < nobjs; i++)
		if (ret - objs[i].text_lo < objs[i].text_hi - objs[i].text_lo)
			return; /* in an object (the vDSO, the C library) */
	tramp_seg.text_lo = ret;
	tramp_seg.text_hi = ret + GMON_UW_TRAMP_BYTES;
	add_segment(&tramp_seg);
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
	if (tramp_seg.text_lo != 0 && !known(&tramp_seg))
		add_segment(&tramp_seg);
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
	add_sigtramp();
}

#endif
