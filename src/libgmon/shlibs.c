/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * shlibs.c - GMON_SHLIBS: the objects a program has loaded (shared
 * libraries, dlopen'ed modules, the vDSO), the samples that fall in them,
 * the per-thread tables of calls made from them, and the side file that
 * carries all of it beside gmon.out (layout: include/gmon_shlibs.h).
 *
 * Samples arrive in the SIGPROF handler, where nothing may lock or
 * allocate: they go into one open-addressed table of (PC, count) keyed by
 * PC and filled with compare-and-swap, and are matched with objects only
 * when the file is written.  Objects are learned by walking the loader's
 * list (dl_iterate_phdr): at start, whenever a thread records a call from
 * outside the executable that it had not seen before (a module that was
 * just loaded calls out at once), and before each write; an object that
 * is unloaded and replaced at the same address between two walks keeps
 * its samples under the newer one.
 */
#define _GNU_SOURCE
#include <elf.h>
#include <link.h>
#include <stddef.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/mman.h>
#include <unistd.h>

#include "audit_port.h"
#include "elf_notes.h"
#include "gmon_shlibs.h"
#include "gmon_rt.h"

/* Where libgmon-audit.so (LD_AUDIT, glibc) leaves its table of the
   program's PLT calls, and the note by which it finds this port. */
GMON_HIDDEN struct gmon_audit_port gmon_audit_port;
#ifdef __GLIBC__
__asm__(".pushsection .note.gproftk.port,\"a\",%note\n"
        "	.balign 4\n"
        "	.long 8, 4, 0x67706f72\n"
        "	.asciz \"gproftk\"\n"
        "1:	.long gmon_audit_port - 1b\n"
        "	.popsection\n");
#endif

/* Samples outside the executable: 2^17 distinct PCs (2 MiB of address
   space, touched as filled); probing stops after MAX_PROBE slots. */
#define SAMPLE_SLOTS (1u << 17)
#define MAX_PROBE 64
/* Calls from outside the executable, per thread. */
#define XARC_SLOTS_64 (1u << 18)
#define XARC_SLOTS_32 (1u << 15)
#define MAX_OBJECTS 1024
#define NAMES_BYTES (256u * 1024)

struct sample_slot {
	uintptr_t pc;     /* 0: free */
	uint32_t count;
	uint32_t obj;     /* the writer's: object id, or NO_OBJECT */
};

#define NO_OBJECT UINT32_MAX

struct object {
	uintptr_t lo, hi;     /* runtime span of the executable segments */
	uintptr_t bias;
	uint32_t path_off;    /* in names[] */
	uint16_t path_len;
	uint16_t bid_len;
	unsigned char bid[GMSL_MAX_BUILD_ID];
};

static struct {
	int on;                       /* GMON_SHLIBS */
	int objects;                  /* objects known (GMON_SHLIBS or GMON_STACKS) */
	struct sample_slot *samples;
	unsigned long lost_samples;   /* table full, or PC 0 */
	unsigned long unplaced;       /* in no known object when written */
	struct object *objs;          /* objs[0] is the executable */
	uint32_t nobjs;
	char *names;
	uint32_t names_used;
	unsigned long long adds, subs; /* the loader's counters at the last walk */
	int walk_lock;
} s;

int gmon_shlibs_enabled(void)
{
	return s.on;
}

static void *map_zeroed(size_t bytes)
{
	void *m = mmap(NULL, bytes, PROT_READ | PROT_WRITE,
	               MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	return m == MAP_FAILED ? NULL : m;
}

/* ---- samples (signal handlers) ---- */

static uint32_t hash_word(uintptr_t v)
{
	uint64_t x = (uint64_t)v * 0x9e3779b97f4a7c15ull;
	return (uint32_t)(x >> 32);
}

void gmon_shlibs_sample(uintptr_t pc, uint32_t w)
{
	if (!s.on)
		return;
	pc &= ~(uintptr_t)((1u << GMON_BIN_SHIFT) - 1);
	uint32_t i = hash_word(pc);
	for (int probe = 0; pc != 0 && probe < MAX_PROBE; probe++, i++) {
		struct sample_slot *e = &s.samples[i & (SAMPLE_SLOTS - 1)];
		uintptr_t have = __atomic_load_n(&e->pc, __ATOMIC_ACQUIRE);
		if (have == 0 &&
		    __atomic_compare_exchange_n(&e->pc, &have, pc, 0,
		                                __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE))
			have = pc;
		if (have == pc) {
			__atomic_fetch_add(&e->count, w, __ATOMIC_RELAXED);
			return;
		}
	}
	__atomic_fetch_add(&s.lost_samples, w, __ATOMIC_RELAXED);
}

/* ---- per-thread tables of calls from outside the executable ---- */

/* The recorder's GMON_SLOW_XMAP: give table t its foreign-call table. */
void gmon_shlibs_map_arcs(struct gmon_table *t)
{
	uint32_t n = sizeof(void *) == 8 ? XARC_SLOTS_64 : XARC_SLOTS_32;
	struct gmon_arc *m = map_zeroed((size_t)n * sizeof *m);
	if (m == NULL)
		return;
	t->xmask = n - 1;
	__atomic_store_n(&t->xarcs, m, __ATOMIC_RELEASE);
}

/* ---- the objects ---- */

/* The executable segments' span, and the build-id note if it is mapped. */
static int exec_span(const struct dl_phdr_info *info, uintptr_t *lo, uintptr_t *hi)
{
	int found = 0;
	for (int i = 0; i < info->dlpi_phnum; i++) {
		const ElfW(Phdr) *p = &info->dlpi_phdr[i];
		if (p->p_type != PT_LOAD || !(p->p_flags & PF_X) || p->p_memsz == 0)
			continue;
		uintptr_t a = info->dlpi_addr + p->p_vaddr;
		if (!found || a < *lo)
			*lo = a;
		if (!found || a + p->p_memsz > *hi)
			*hi = a + p->p_memsz;
		found = 1;
	}
	return found;
}

/* The object's NT_GNU_BUILD_ID note, when it is in a loaded segment. */
static void find_build_id(struct object *o, const struct dl_phdr_info *info)
{
	uint32_t len;
	const char *id = gmon_note_find(info->dlpi_phdr, info->dlpi_phnum,
	                                info->dlpi_addr, "GNU", NT_GNU_BUILD_ID, &len);
	if (id != NULL && len <= GMSL_MAX_BUILD_ID) {
		memcpy(o->bid, id, len);
		o->bid_len = (uint16_t)len;
	}
}

static int same_name(const struct object *o, const char *name, size_t len)
{
	return o->path_len == len && memcmp(s.names + o->path_off, name, len) == 0;
}

static void set_name(struct object *o, const char *name, size_t len)
{
	if (len > GMSL_MAX_PATH || s.names_used + len > NAMES_BYTES)
		len = 0;
	memcpy(s.names + s.names_used, name, len);
	o->path_off = s.names_used;
	o->path_len = (uint16_t)len;
	s.names_used += (uint32_t)len;
}

/* The name the loader gives, or for the executable (glibc names it "")
   the target of /proc/self/exe. */
static size_t object_name(const struct dl_phdr_info *info, int is_main,
                          char *buf, size_t size)
{
	const char *n = info->dlpi_name ? info->dlpi_name : "";
	if (is_main || n[0] == '\0') {
		ssize_t r = readlink("/proc/self/exe", buf, size);
		return r > 0 && (size_t)r < size ? (size_t)r : 0;
	}
	/* A module dlopen'ed by a relative name: made absolute, so that gprof
	   finds it from anywhere (the folder is today's, not the one at
	   dlopen time, should the program have changed it since). */
	size_t dir = 0;
	if (n[0] != '/' && strchr(n, '/') != NULL && getcwd(buf, size) != NULL) {
		dir = strlen(buf);
		if (dir + 1 < size)
			buf[dir++] = '/';
	}
	size_t len = strlen(n);
	if (dir + len > size)
		return 0;
	memcpy(buf + dir, n, len);
	return dir + len;
}

static void add_object(const struct dl_phdr_info *info, uintptr_t lo,
                       uintptr_t hi, const char *name, size_t len)
{
	for (uint32_t i = 0; i < s.nobjs; i++) {
		struct object *o = &s.objs[i];
		if (o->bias == info->dlpi_addr && o->lo == lo && o->hi == hi &&
		    same_name(o, name, len))
			return;
	}
	if (s.nobjs == MAX_OBJECTS)
		return;
	struct object *o = &s.objs[s.nobjs];
	memset(o, 0, sizeof *o);
	o->lo = lo;
	o->hi = hi;
	o->bias = info->dlpi_addr;
	set_name(o, name, len);
	find_build_id(o, info);
	__atomic_store_n(&s.nobjs, s.nobjs + 1, __ATOMIC_RELEASE);
}

/* Is this the executable?  Its loaded segments hold the profiled text
   (which may start below the executable segments, at the ELF header). */
static int holds_lowpc(const struct dl_phdr_info *info)
{
	for (int i = 0; i < info->dlpi_phnum; i++) {
		const ElfW(Phdr) *p = &info->dlpi_phdr[i];
		uintptr_t a = info->dlpi_addr + p->p_vaddr;
		if (p->p_type == PT_LOAD && gmon_p.lowpc - a < p->p_memsz)
			return 1;
	}
	return 0;
}

static int walk_cb(struct dl_phdr_info *info, size_t size, void *data)
{
	(void)size;
	uintptr_t lo = 0, hi = 0;
	if (!exec_span(info, &lo, &hi))
		return 0;
	int is_main = holds_lowpc(info);
	if (is_main != (data != NULL))
		return 0; /* the first pass takes the executable, later ones the rest */
	static char name[GMSL_MAX_PATH];
	size_t len = object_name(info, is_main, name, sizeof name);
	add_object(info, lo, hi, name, len);
	return 0;
}

/* Object 0, the executable, as the loader lists it; should it not be
   listed (no loader at all), the profiled text stands in for it. */
static void add_main(void)
{
	dl_iterate_phdr(walk_cb, (void *)1);
	if (s.nobjs > 0)
		return;
	struct object *o = &s.objs[0];
	memset(o, 0, sizeof *o);
	o->lo = gmon_p.lowpc;
	o->hi = gmon_p.lowpc + gmon_p.textsize;
	o->bias = gmon_p.bias;
	s.nobjs = 1;
}

/* The vDSO, from the auxiliary vector, where the loader's list lacks it
   (musl, statically linked): the stack walk goes through it (a clock
   read interrupted by a signal), so its frames must be placeable. */
static void add_vdso(void)
{
	uintptr_t base = (uintptr_t)getauxval(AT_SYSINFO_EHDR);
	if (base == 0)
		return;
	const ElfW(Ehdr) *eh = (const ElfW(Ehdr) *)base;
	struct dl_phdr_info info = { .dlpi_name = "linux-vdso.so.1",
	                             .dlpi_phdr = (const ElfW(Phdr) *)(base + eh->e_phoff),
	                             .dlpi_phnum = eh->e_phnum };
	int found = 0;
	for (int i = 0; i < info.dlpi_phnum && !found; i++)
		if (info.dlpi_phdr[i].p_type == PT_LOAD && info.dlpi_phdr[i].p_offset == 0) {
			info.dlpi_addr = base - info.dlpi_phdr[i].p_vaddr;
			found = 1;
		}
	uintptr_t lo = 0, hi = 0;
	if (!found || !exec_span(&info, &lo, &hi))
		return;
	for (uint32_t i = 0; i < s.nobjs; i++)
		if (lo - s.objs[i].lo < s.objs[i].hi - s.objs[i].lo)
			return; /* listed by the loader */
	add_object(&info, lo, hi, info.dlpi_name, strlen(info.dlpi_name));
}

/* The loader's load and unload counters (both 0 where it has none). */
static int counters_cb(struct dl_phdr_info *info, size_t size, void *data)
{
	unsigned long long *c = data;
	if (size >= offsetof(struct dl_phdr_info, dlpi_subs) + sizeof info->dlpi_subs) {
		c[0] = info->dlpi_adds;
		c[1] = info->dlpi_subs;
	}
	return 1;
}

/*
 * Learn the objects loaded since the last walk.  One walker at a time;
 * a thread that finds another walking leaves it to that one.  Not from a
 * signal handler (dl_iterate_phdr takes the loader's lock).
 */
void gmon_shlibs_walk(void)
{
	if (!s.objects || __atomic_exchange_n(&s.walk_lock, 1, __ATOMIC_ACQUIRE))
		return;
	unsigned long long c[2] = { 0, 0 };
	dl_iterate_phdr(counters_cb, c);
	if (s.nobjs == 0 || c[0] != s.adds || c[1] != s.subs || c[0] == 0) {
		if (s.nobjs == 0) /* the executable first: it is id 0 */
			add_main();
		dl_iterate_phdr(walk_cb, NULL);
		add_vdso();
		s.adds = c[0];
		s.subs = c[1];
	}
	__atomic_store_n(&s.walk_lock, 0, __ATOMIC_RELEASE);
}

/* GMON_STACKS without GMON_SHLIBS: only the objects, which its stacks'
   frames are placed in. */
static void objects_only(void)
{
	s.objs = map_zeroed(MAX_OBJECTS * sizeof *s.objs);
	s.names = map_zeroed(NAMES_BYTES);
	if (s.objs == NULL || s.names == NULL) {
		gmon_say("cannot map the table of objects; GMON_STACKS is off");
		gmon_set.stacks = 0;
		return;
	}
	s.objects = 1;
	gmon_shlibs_walk();
}

/* GMON_SHLIBS=1 switches it on, 0 or unset leaves it off. */
void gmon_shlibs_init(void)
{
	int on = gmon_env_word("GMON_SHLIBS", "0", "1");
	if (on < 0) /* LD_AUDIT=libgmon-audit.so alone asks for it */
		on = gmon_audit_port.arcs != NULL;
#ifdef GMON_PRELOAD
	if (gmon_env("GMON_SHLIBS") == NULL)
		on = 1; /* the preloaded runtime samples every object by default */
#endif
	if (on != 1) {
		if (gmon_set.stacks)
			objects_only();
		return;
	}
	s.samples = map_zeroed(SAMPLE_SLOTS * sizeof *s.samples);
	s.objs = map_zeroed(MAX_OBJECTS * sizeof *s.objs);
	s.names = map_zeroed(NAMES_BYTES);
	if (s.samples == NULL || s.objs == NULL || s.names == NULL) {
		gmon_say("cannot map the shared-library tables; GMON_SHLIBS is off");
		return;
	}
	s.on = 1;
	s.objects = 1;
	gmon_p.shlibs = 1;
	gmon_shlibs_walk();
}

/* A fork child starts from nothing, like the histogram. */
void gmon_shlibs_after_fork(void)
{
	if (!s.on)
		return;
	if (madvise(s.samples, SAMPLE_SLOTS * sizeof *s.samples, MADV_DONTNEED) != 0)
		memset(s.samples, 0, SAMPLE_SLOTS * sizeof *s.samples);
	s.lost_samples = s.unplaced = 0;
	s.walk_lock = 0;
	for (struct gmon_table *t = gmon_tables_head(); t; t = t->next) {
		size_t bytes = ((size_t)t->xmask + 1) * sizeof(struct gmon_arc);
		if (t->xarcs != NULL && madvise(t->xarcs, bytes, MADV_DONTNEED) != 0)
			memset(t->xarcs, 0, bytes);
	}
}

/* Zero every count (gmon_reset); the objects stay known. */
void gmon_shlibs_reset(void)
{
	if (!s.on)
		return;
	for (uint32_t i = 0; i < SAMPLE_SLOTS; i++)
		__atomic_store_n(&s.samples[i].count, 0, __ATOMIC_RELAXED);
	for (struct gmon_table *t = gmon_tables_head(); t; t = t->next) {
		struct gmon_arc *x = __atomic_load_n(&t->xarcs, __ATOMIC_ACQUIRE);
		for (uint32_t i = 0; x != NULL && i <= t->xmask; i++)
			__atomic_store_n(&x[i].count, 0, __ATOMIC_RELAXED);
	}
}

/* Samples and calls not recorded, for the summary at exit. */
void gmon_shlibs_losses(uint64_t *samples, uint64_t *calls)
{
	*samples = s.lost_samples + s.unplaced;
	*calls = 0;
	for (struct gmon_table *t = gmon_tables_head(); t; t = t->next)
		*calls += t->lost_xfull;
}

/* ---- the side file ---- */

/* The object holding runtime address a: the newest one that spans it. */
static int object_of(uintptr_t a, uint32_t *id)
{
	for (uint32_t i = s.nobjs; i-- > 0;) {
		if (a - s.objs[i].lo < s.objs[i].hi - s.objs[i].lo) {
			*id = i;
			return 1;
		}
	}
	return 0;
}

int gmon_shlibs_place(uintptr_t a, uint32_t *id, uint64_t *link)
{
	if (!s.objects || !object_of(a, id))
		return 0;
	*link = (uint64_t)(a - s.objs[*id].bias);
	return 1;
}

static void put_record_head(struct gmon_out *o, unsigned tag, uint64_t len)
{
	gmon_out_le(o, tag, 1);
	gmon_out_le(o, len, 4);
}

static void put_object(struct gmon_out *o, uint32_t id)
{
	const struct object *ob = &s.objs[id];
	put_record_head(o, GMSL_TAG_OBJECT,
	                GMSL_OBJECT_FIXED + ob->path_len + 2 + ob->bid_len);
	gmon_out_le(o, id, 4);
	gmon_out_le(o, ob->bias, 8);
	gmon_out_le(o, ob->lo - ob->bias, 8);
	gmon_out_le(o, ob->hi - ob->bias, 8);
	gmon_out_le(o, ob->path_len, 2);
	gmon_out_put(o, s.names + ob->path_off, ob->path_len);
	gmon_out_le(o, ob->bid_len, 2);
	gmon_out_put(o, ob->bid, ob->bid_len);
}

/*
 * Match every sample with its object once, stamping the slot, and count
 * each object's slots in n[] (samples in no object go to s.unplaced).
 * The stamps, not the live counts, then decide what each record holds,
 * so a sample that arrives meanwhile cannot make a record longer than
 * its header says.
 */
static void place_samples(uint32_t *n)
{
	unsigned long unplaced = 0;
	for (uint32_t i = 0; i < SAMPLE_SLOTS; i++) {
		struct sample_slot *e = &s.samples[i];
		uintptr_t pc = __atomic_load_n(&e->pc, __ATOMIC_ACQUIRE);
		uint32_t c = __atomic_load_n(&e->count, __ATOMIC_RELAXED);
		e->obj = NO_OBJECT;
		if (pc == 0 || c == 0)
			continue;
		if (object_of(pc, &e->obj))
			n[e->obj]++;
		else
			unplaced += c;
	}
	s.unplaced = unplaced;
}

static void put_samples(struct gmon_out *o)
{
	static uint32_t n[MAX_OBJECTS]; /* the writer lock serialises us */
	memset(n, 0, sizeof n);
	place_samples(n);
	for (uint32_t id = 1; id < s.nobjs; id++) {
		if (n[id] == 0)
			continue;
		put_record_head(o, GMSL_TAG_SAMPLES, 8 + (uint64_t)n[id] * GMSL_SAMPLE_SIZE);
		gmon_out_le(o, id, 4);
		gmon_out_le(o, n[id], 4);
		for (uint32_t i = 0; i < SAMPLE_SLOTS; i++) {
			const struct sample_slot *e = &s.samples[i];
			if (e->obj != id)
				continue;
			gmon_out_le(o, e->pc - s.objs[id].bias, 8);
			gmon_out_le(o, __atomic_load_n(&e->count, __ATOMIC_RELAXED), 4);
		}
	}
}

/* One (caller, callee, count) of the side file, when at least one end is
   outside the executable; counts it (o NULL) or writes it. */
static int put_pair(struct gmon_out *o, uintptr_t pc, uintptr_t callee, uint64_t c)
{
	uint32_t from, self;
	if (pc == 0 || c == 0 || !object_of(pc, &from) || !object_of(callee, &self) ||
	    (from == 0 && self == 0))
		return 0;
	if (o != NULL) {
		gmon_out_le(o, from, 4);
		gmon_out_le(o, pc - s.objs[from].bias, 8);
		gmon_out_le(o, self, 4);
		gmon_out_le(o, callee - s.objs[self].bias, 8);
		gmon_out_le(o, c, 8);
	}
	return 1;
}

/* An arc of the side file: one end at least outside the executable. */
static int put_arc(struct gmon_out *o, const struct gmon_arc *a)
{
	uintptr_t pc = __atomic_load_n(&a->from, __ATOMIC_ACQUIRE);
	return put_pair(o, pc, a->self, a->count);
}

/* The same for a call the auditor counted (from 1: a slot being filled). */
static int put_audit_arc(struct gmon_out *o, const struct gmon_audit_arc *a)
{
	uintptr_t pc = __atomic_load_n(&a->from, __ATOMIC_ACQUIRE);
	if (pc <= 1)
		return 0;
	return put_pair(o, pc, a->self, __atomic_load_n(&a->count, __ATOMIC_RELAXED));
}

/* Pass over every table's arcs: the executable's own tables hold the
   calls from it into libraries, the foreign tables the calls from
   libraries.  Counts them all, and writes the first `limit` to o (if
   not NULL); returns the count. */
static uint64_t table_arcs(struct gmon_out *o, uint64_t limit)
{
	uint64_t n = 0;
#define PASS(put, a) (n += (uint64_t)put(n < limit ? o : NULL, a))
	for (struct gmon_table *t = gmon_tables_head(); t; t = t->next) {
		uint32_t used = __atomic_load_n(&t->used, __ATOMIC_ACQUIRE);
		for (uint32_t i = 1; i <= used; i++)
			PASS(put_arc, &t->arcs[i]);
		const struct gmon_arc *x = __atomic_load_n(&t->xarcs, __ATOMIC_ACQUIRE);
		for (uint32_t i = 0; x != NULL && i <= t->xmask; i++)
			PASS(put_arc, &x[i]);
	}
	const struct gmon_audit_arc *p =
		__atomic_load_n(&gmon_audit_port.arcs, __ATOMIC_ACQUIRE);
	for (uint32_t i = 0; p != NULL && i <= gmon_audit_port.mask; i++)
		PASS(put_audit_arc, &p[i]);
#undef PASS
	return n;
}

/*
 * Arcs are counted, then written: the record holds exactly the n the
 * header promises.  Arcs that appear between the passes wait for the
 * next write; should some vanish (a gmon_reset meanwhile), zero-count
 * entries make up the number.
 */
static void put_arcs(struct gmon_out *o)
{
	uint64_t n = table_arcs(NULL, 0);
	if (n == 0 || n > UINT32_MAX / GMSL_ARC_SIZE)
		return;
	put_record_head(o, GMSL_TAG_ARCS, 4 + n * GMSL_ARC_SIZE);
	gmon_out_le(o, n, 4);
	static const unsigned char none[GMSL_ARC_SIZE];
	for (uint64_t w = table_arcs(o, n); w < n; w++)
		gmon_out_put(o, none, sizeof none);
}

/* libgmon-audit.so counts nothing while libgmon writes (its own calls
   are not the program's). */
void gmon_shlibs_quiet(int on)
{
	__atomic_store_n(&gmon_audit_port.quiet, (uint32_t)on, __ATOMIC_RELAXED);
}

/*
 * The side file's header and shlibs.c's records (write.c adds the
 * stacks' records after them).  The objects are walked once more first,
 * except in a signal handler (the loader's lock may be held by the very
 * code the signal interrupted); then the ones already known serve.
 */
void gmon_shlibs_fill(struct gmon_out *o)
{
	if (!gmon_in_handler)
		gmon_shlibs_walk();
	uint32_t nobjs = __atomic_load_n(&s.nobjs, __ATOMIC_ACQUIRE);
	gmon_out_put(o, GMSL_MAGIC, GMSL_MAGIC_LEN);
	gmon_out_le(o, GMSL_VERSION, 4);
	gmon_out_le(o, (uint64_t)gmon_set.rate, 4);
	gmon_out_le(o, gmon_set.clock == GMON_CLOCK_WALL ? GMSL_CLOCK_WALL : GMSL_CLOCK_CPU, 4);
	for (uint32_t id = 0; id < nobjs; id++)
		put_object(o, id);
	if (s.on) {
		put_samples(o);
		put_arcs(o);
	}
}
