/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * fuzz_common.c - helpers shared by the fuzz harnesses (see fuzz_common.h).
 * Compiled into every harness, for libFuzzer (clang) and for the replay
 * driver (gcc) alike.
 */
#define _GNU_SOURCE
#include "config.h"

#include <dirent.h>
#include <getopt.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <bfd.h>

#include "fuzz_common.h"
#include "print/print.h"
#include "symbols/symbols.h"

#ifndef FUZZ_PROG
#define FUZZ_PROG "tests/fuzz/prog"
#endif

#define NSLOTS 8

static int slot_fd[NSLOTS] = { -1, -1, -1, -1, -1, -1, -1, -1 };
static char slot_path[NSLOTS][64];
static char workdir[256];
static struct gprof tmpl;
static int tmpl_loaded;

const char *fuzz_prog_path(void)
{
	const char *p = getenv("FUZZ_PROG");
	return p && *p ? p : FUZZ_PROG;
}

const char *fuzz_prog_gmon(void)
{
	static char path[4096];
	if (!path[0]) {
		const char *prog = fuzz_prog_path();
		const char *slash = strrchr(prog, '/');
		int dir = slash ? (int)(slash - prog + 1) : 0;
		snprintf(path, sizeof path, "%.*sgmon.out", dir, prog);
	}
	return path;
}

/* The scratch directory holds only plain files (gmon.sum, -y output). */
static void remove_workdir(void)
{
	DIR *d = opendir(workdir);
	if (d) {
		struct dirent *e;
		char path[600];
		while ((e = readdir(d)) != NULL) {
			if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
				continue;
			snprintf(path, sizeof path, "%s/%s", workdir, e->d_name);
			unlink(path);
		}
		closedir(d);
	}
	rmdir(workdir);
}

void fuzz_init(void)
{
	static int done;
	if (done)
		return;
	done = 1;
	if (!freopen("/dev/null", "w", stdout))
		abort();
	const char *base = access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp";
	snprintf(workdir, sizeof workdir, "%s/gprof-fuzz.XXXXXX", base);
	if (!mkdtemp(workdir)) {
		perror("mkdtemp");
		abort();
	}
	atexit(remove_workdir);
}

const char *fuzz_workdir(void)
{
	fuzz_init();
	return workdir;
}

const char *fuzz_file(int slot, const uint8_t *data, size_t len)
{
	if (slot < 0 || slot >= NSLOTS)
		abort();
	if (slot_fd[slot] < 0) {
		slot_fd[slot] = memfd_create("fuzz-input", 0);
		if (slot_fd[slot] < 0) {
			/* No memfd: a plain file in the scratch directory. */
			snprintf(slot_path[slot], sizeof slot_path[slot],
			         "%.40s/in%d", fuzz_workdir(), slot);
			slot_fd[slot] = open(slot_path[slot],
			                     O_RDWR | O_CREAT | O_TRUNC, 0600);
			if (slot_fd[slot] < 0)
				abort();
		} else {
			snprintf(slot_path[slot], sizeof slot_path[slot],
			         "/proc/self/fd/%d", slot_fd[slot]);
		}
	}
	int fd = slot_fd[slot];
	if (ftruncate(fd, 0) != 0)
		abort();
	size_t off = 0;
	while (off < len) {
		ssize_t n = pwrite(fd, data + off, len - off, (off_t)off);
		if (n <= 0)
			abort();
		off += (size_t)n;
	}
	return slot_path[slot];
}

const char *fuzz_file_path(int slot)
{
	return slot >= 0 && slot < NSLOTS ? slot_path[slot] : "";
}

size_t fuzz_split(const uint8_t *data, size_t len, const uint8_t **piece,
                  size_t *plen, size_t max)
{
	size_t n = 0, start = 0;
	for (size_t i = 0; i + 4 <= len && n + 1 < max; i++) {
		if (memcmp(data + i, "FZSP", 4) == 0) {
			piece[n] = data + start;
			plen[n++] = i - start;
			start = i + 4;
			i += 3;
		}
	}
	piece[n] = data + start;
	plen[n++] = len - start;
	return n;
}

/* Files the tool opens are tracked (the harnesses link with
   -Wl,--wrap=fopen,--wrap=fopen64,--wrap=fclose), so that fuzz_end() can
   close those an exit through gprof_exit() left open, buffers and all. */
FILE *__real_fopen(const char *path, const char *mode);
FILE *__real_fopen64(const char *path, const char *mode);
int __real_fclose(FILE *f);

#define MAX_TRACKED 256
static FILE *tracked[MAX_TRACKED];

static FILE *track(FILE *f)
{
	for (int i = 0; f && i < MAX_TRACKED; i++)
		if (!tracked[i]) {
			tracked[i] = f;
			break;
		}
	return f;
}

FILE *__wrap_fopen(const char *path, const char *mode)
{
	return track(__real_fopen(path, mode));
}

FILE *__wrap_fopen64(const char *path, const char *mode)
{
	return track(__real_fopen64(path, mode));
}

int __wrap_fclose(FILE *f)
{
	for (int i = 0; i < MAX_TRACKED; i++)
		if (tracked[i] == f)
			tracked[i] = NULL;
	return __real_fclose(f);
}

#define MAX_FDS 4096
static unsigned char fd_open_before[MAX_FDS];

static void list_fds(unsigned char *open_fds)
{
	memset(open_fds, 0, MAX_FDS);
	DIR *d = opendir("/proc/self/fd");
	if (!d)
		return;
	int self = dirfd(d);
	struct dirent *e;
	while ((e = readdir(d)) != NULL) {
		int fd = atoi(e->d_name);
		if (e->d_name[0] != '.' && fd != self && fd >= 0 && fd < MAX_FDS)
			open_fds[fd] = 1;
	}
	closedir(d);
}

/* For the replay driver: the template loaded before it forks. */
void fuzz_warm_up(void)
{
	fuzz_init();
	fuzz_template();
}

void fuzz_begin(void)
{
	fuzz_init();
	fuzz_template();
	list_fds(fd_open_before);
}

void fuzz_end(void)
{
	for (int i = 0; i < MAX_TRACKED; i++)
		if (tracked[i]) {
			__real_fclose(tracked[i]);
			tracked[i] = NULL;
		}
	unsigned char now[MAX_FDS];
	list_fds(now);
	for (int fd = 3; fd < MAX_FDS; fd++) {
		if (!now[fd] || fd_open_before[fd])
			continue;
		int slot = 0;
		for (int i = 0; i < NSLOTS; i++)
			slot |= slot_fd[i] == fd;
		if (!slot)
			close(fd);
	}
}

const struct gprof *fuzz_template(void)
{
	if (tmpl_loaded)
		return &tmpl;
	fuzz_init();
	static char *argv[] = { "gprof", NULL, NULL };
	argv[1] = (char *)fuzz_prog_path();
	tmpl.whoami = "gprof";
	tmpl.opt.image = argv[1];
	tmpl.opt.demangle = true;
	int st;
	FUZZ_TRY(st) {
		core_open(&tmpl);
		core_build_syms(&tmpl);
		core_intern_files(&tmpl);
	} FUZZ_END;
	if (st != 0) {
		fprintf(stderr, "fuzz: cannot load %s\n", argv[1]);
		abort();
	}
	for (size_t i = 0; i < tmpl.syms.len; i++)
		tmpl.syms.base[i].file_known = true;
	tmpl_loaded = 1;
	return &tmpl;
}

void fuzz_context_from_template(struct gprof *g)
{
	const struct gprof *t = fuzz_template();
	memset(g, 0, sizeof *g);
	g->whoami = "gprof";
	g->first_output = true;
	g->arc_sink = arc_take;      /* as gprof_load_inputs() sets it */
	g->opt.demangle = true;
	g->opt.width = 80;
	g->abfd = t->abfd;
	g->bfd_syms = t->bfd_syms;
	g->nbfd_syms = t->nbfd_syms;
	g->text_sec = t->text_sec;
	g->addr_size = t->addr_size;
	g->big_endian = t->big_endian;
	g->sign_extend_vma = t->sign_extend_vma;
	g->leading_char = t->leading_char;
	g->syms.len = g->syms.cap = t->syms.len;
	g->syms.base = xmalloc(t->syms.len * sizeof *g->syms.base);
	memcpy(g->syms.base, t->syms.base, t->syms.len * sizeof *g->syms.base);
	g->syms.addrs = NULL;
	g->syms.bucket = NULL;
	for (size_t i = 0; i < g->syms.len; i++) {
		g->syms.base[i].bb = NULL;
		g->syms.base[i].nbb = 0;
	}
	/* Finished again (a no-op on a finished table) for the lookup index. */
	symtab_finish(g, &g->syms, core_text_end(g));
}

static int cmp_ptr(const void *a, const void *b)
{
	uintptr_t x = (uintptr_t)*(void *const *)a, y = (uintptr_t)*(void *const *)b;
	return x < y ? -1 : x > y;
}

/* Arcs, and the symbol copies that FROM/TO symspecs make for -r/-R,
   which only arcs point to. */
static void free_arcs(struct gprof *g)
{
	const struct sym *lo = g->syms.base;
	const struct sym *hi = lo ? lo + g->syms.len : NULL;
	void **copies = NULL;
	size_t ncopies = 0, cap = 0;
	arc_bulk_flush(g);      /* records read before a failure, as arcs */
	arc_lookup(g, NULL, NULL);  /* and every arc in the hash table */
	/* The table is open-addressed: one arc per used slot. */
	for (size_t i = 0; i < g->arc_hash_size; i++) {
		const struct arc *a = g->arc_hash[i];
		if (!a)
			continue;
		struct sym *ends[2] = { a->parent, a->child };
		for (int k = 0; k < 2; k++) {
			if (!ends[k] || (ends[k] >= lo && ends[k] < hi))
				continue;
			if (ncopies == cap) {
				cap = cap ? cap * 2 : 16;
				copies = xrealloc(copies, cap * sizeof *copies);
			}
			copies[ncopies++] = ends[k];
		}
	}
	cg_free_arc_blocks(g);
	if (ncopies)
		qsort(copies, ncopies, sizeof *copies, cmp_ptr);
	for (size_t i = 0; i < ncopies; i++)
		if (i == 0 || copies[i] != copies[i - 1])
			free(copies[i]);
	free(copies);
	free(g->arc_hash);
	free(g->arcs);
}

/* The parsed symspecs (sym_ids.c). */
static void free_specs(struct gprof *g)
{
	for (size_t k = 0; k < g->nspec_list; k++) {
		struct parsed_spec *ps = &g->spec_list[k];
		free(ps->left.file);
		free(ps->left.func);
		free(ps->right.file);
		free(ps->right.func);
		free(ps->rights);
	}
	free(g->spec_list);
	for (int t = 0; t < NUM_TABLES; t++)
		free(g->tables[t].v);
}

void fuzz_free_context(struct gprof *g, int own_bfd)
{
	struct options *o = &g->opt;
	/* --per-thread's contexts (threads.c), each with a BFD of its own;
	   their options are copies of this context's, which own the lists. */
	for (size_t i = 0; g->thread_ctx && i < g->nthreads; i++) {
		struct gprof *x = g->thread_ctx[i];
		if (!x)
			continue;
		x->opt.specs = NULL;
		x->opt.nspecs = 0;
		x->opt.search_dirs = NULL;
		x->opt.nsearch_dirs = 0;
		fuzz_free_context(x, 1);
		free(x);
	}
	free(g->thread_ctx);
	free(g->threads);
	for (size_t i = 0; i < o->nspecs; i++)
		free(o->specs[i].text);
	free(o->specs);
	for (size_t i = 0; i < o->nsearch_dirs; i++)
		free(o->search_dirs[i]);
	free(o->search_dirs);

	/* Arcs first: records still waiting for their lookups are resolved
	   when the arcs are built, through the symspecs. */
	free_arcs(g);
	free_specs(g);

	free(g->cycles);
	free(g->cyc_members);
	cg_adj_free(&g->adj);
	free(g->cyc_member_start);
	free(g->entries);
	free(g->flat.rows);
	free(g->flat.sample_err);
	free(g->stack_incl);
	free(g->stack_nodes);        /* --stacks' tree (stacks.c) */
	graph_view_free(g);
	free(g->rank_pool);
	free(g->rank_callees);
	for (size_t i = 0; i < g->nhists; i++) {
		free(g->hists[i].bins);
		free(g->hists[i].wide);
	}
	free(g->hists);
	free(g->arc_probe);          /* the diagnosis's sample of raw arcs
	                                (arc_record.c) */

	for (size_t i = 0; i < g->syms.len; i++) {
		free(g->syms.base[i].bb);
	}
	free(g->syms.base);
	free(g->name_pool);          /* -S's names (core_read_ext_symtab) */
	free(g->syms.addrs);
	free(g->syms.bucket);

	for (size_t i = 0; i < g->nmap_entries; i++) {
		free(g->map_entries[i].file);
		free(g->map_entries[i].func);
	}
	free(g->map_entries);
	free(g->map_files);

	core_free_find_window(g);
	shlibs_free(g);
	/* Interned line-symbol names: entries live only in the table. */
	for (size_t i = 0; i < g->name_table.size; i++)
		if (g->name_table.slot[i]) {
			free(g->name_table.slot[i]->name);
			free(g->name_table.slot[i]);
		}
	free(g->name_table.slot);

	if (own_bfd) {
		struct source_file *f, *next;
		for (f = g->files; f; f = next) {
			next = f->next;
			free(f->name);
			free(f->line);
			free(f);
		}
		free(g->file_table.slot);
		if (g->bfd_syms) {
			asymbol **s = (asymbol **)g->bfd_syms;
			/* The synthetic symbols are one array BFD malloc'ed;
			   the first of them starts it. */
			for (long i = 0; i < g->nbfd_syms; i++)
				if (s[i]->flags & BSF_SYNTHETIC) {
					free(s[i]);
					break;
				}
			free(g->bfd_syms);
		}
		/* The object files (objects.c), after the symbols, as
		   core_close() does: a stripped executable's symbols are its
		   debug file's, which this closes. */
		objects_free(g);
		if (g->abfd)
			bfd_close((bfd *)g->abfd);
	} else {
		objects_free(g);     /* libraries this context loaded */
		/* Files interned by this context (not the template's). */
		const struct gprof *t = fuzz_template();
		struct source_file *f, *next;
		for (f = g->files; f && f != t->files; f = next) {
			next = f->next;
			free(f->name);
			free(f->line);
			free(f);
		}
		free(g->file_table.slot);
	}
	memset(g, 0, sizeof *g);
}

void fuzz_run_gprof(int argc, char **argv)
{
	int here = open(".", O_RDONLY | O_DIRECTORY);
	if (here < 0 || chdir(fuzz_workdir()) != 0)
		abort();
	static struct gprof g;
	memset(&g, 0, sizeof g);
	optind = 0;
	int st;
	FUZZ_TRY(st) {
		gprof_run(&g, argc, argv);
	} FUZZ_END;
	(void)st;
	fflush(stdout);
	if (fchdir(here) != 0)
		abort();
	close(here);
	fuzz_free_context(&g, 1);
}
