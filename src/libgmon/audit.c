/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * audit.c - libgmon-audit.so, an LD_AUDIT module for glibc that counts
 * the calls a profiled program makes through its PLT into shared
 * libraries (the C library's functions above all, which no -pg build
 * can see), for libgmon's GMON_SHLIBS side file.
 *
 *   LD_AUDIT=/usr/local/lib/libgmon-audit.so ./prog
 *
 * The dynamic linker sends every PLT call of the program (the objects
 * it asks about: the executable only) through its profiling trampoline
 * and calls la_*_gnu_pltenter with the caller's registers; the return
 * address on the stack is the call site.  That costs a few hundred
 * nanoseconds per call; nothing else in the program is slowed.  Objects
 * linked with -z now bind their PLT at start and are not seen (link
 * with -z lazy).  The counts go to a table this module maps and hands to
 * libgmon through the port (audit_port.h); a program without libgmon
 * has no port, and this module then does nothing.
 */
#define _GNU_SOURCE
#include <elf.h>
#include <link.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/mman.h>

#include "audit_port.h"
#include "elf_notes.h"

#define SLOTS (1u << 16)
#define PROBES 64

static struct gmon_audit_port *port;
static struct gmon_audit_arc *table;
static struct link_map *program;

unsigned int la_version(unsigned int version)
{
	return version < LAV_CURRENT ? version : LAV_CURRENT;
}

/* The program's port: the note libgmon put in it, found through the
   program headers the kernel passed (the auxiliary vector). */
static struct gmon_audit_port *find_port(uintptr_t bias)
{
	uint32_t len;
	const char *d = gmon_note_find((const ElfW(Phdr) *)getauxval(AT_PHDR),
	                               getauxval(AT_PHNUM), bias, GMON_PORT_NOTE_NAME,
	                               GMON_PORT_NOTE_TYPE, &len);
	if (d == NULL || len != 4)
		return NULL;
	int32_t off;
	memcpy(&off, d, sizeof off);
	return (struct gmon_audit_port *)(uintptr_t)(d + off);
}

static void attach(struct link_map *map)
{
	port = find_port(map->l_addr);
	if (port == NULL)
		return;
	void *m = mmap(NULL, SLOTS * sizeof *table, PROT_READ | PROT_WRITE,
	               MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (m == MAP_FAILED) {
		port = NULL;
		return;
	}
	table = m;
	port->version = GMON_PORT_VERSION;
	port->mask = SLOTS - 1;
	__atomic_store_n(&port->arcs, table, __ATOMIC_RELEASE);
}

/* The program (the first object of the main namespace) is the one whose
   calls are followed; every object may be called. */
unsigned int la_objopen(struct link_map *map, Lmid_t lmid, uintptr_t *cookie)
{
	(void)cookie;
	if (lmid != LM_ID_BASE)
		return 0;
	if (program == NULL) {
		program = map;
		attach(map);
		return port != NULL ? LA_FLG_BINDFROM | LA_FLG_BINDTO : 0;
	}
	return port != NULL ? LA_FLG_BINDTO : 0;
}

static uint32_t hash(uintptr_t from, uintptr_t self)
{
	uint64_t x = ((uint64_t)from ^ ((uint64_t)self << 1)) * 0x9e3779b97f4a7c15ull;
	return (uint32_t)(x >> 32);
}

/* Count one call; threads share the table, so slots are claimed by
   compare-and-swap and counts added atomically. */
static void count(uintptr_t from, uintptr_t self)
{
	uint32_t i = hash(from, self);
	for (int probe = 0; probe < PROBES; probe++, i++) {
		struct gmon_audit_arc *a = &table[i & (SLOTS - 1)];
		uintptr_t have = __atomic_load_n(&a->from, __ATOMIC_ACQUIRE);
		if (have == 0) {
			uintptr_t none = 0;
			/* Claimed with from = 1 (no call returns there) until
			   self is set, then published. */
			if (__atomic_compare_exchange_n(&a->from, &none, 1, 0,
			                                __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE)) {
				a->self = self;
				__atomic_fetch_add(&a->count, 1, __ATOMIC_RELAXED);
				__atomic_store_n(&a->from, from, __ATOMIC_RELEASE);
				return;
			}
			have = none;
		}
		while (have == 1)
			have = __atomic_load_n(&a->from, __ATOMIC_ACQUIRE);
		if (have == from && a->self == self) {
			__atomic_fetch_add(&a->count, 1, __ATOMIC_RELAXED);
			return;
		}
	}
	__atomic_fetch_add(&port->lost, 1, __ATOMIC_RELAXED);
}

/* The architecture's la_*_gnu_pltenter (arch-audit.c) reports each PLT
   call of the program here: its return address, and the function. */
__attribute__((visibility("hidden")))
void gmon_audit_call(uintptr_t from, uintptr_t self)
{
	if (table != NULL && !port->quiet)
		count(from, self);
}
