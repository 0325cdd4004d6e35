/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * symbols/symbols.h - the way into the symbols folder: the executable
 * through BFD (core.c), the symbol table (symtab.c), line symbols
 * (line_syms.c, with line_bounds.c's DWARF line bounds), the interned
 * file and line names (files.c), the symspec tables (sym_ids.c) and
 * the object files symbols live in (objects.c) and the compiler clones
 * (clones.c).
 * Uses the utilities and the model only.
 */
#ifndef SYMBOLS_SYMBOLS_H
#define SYMBOLS_SYMBOLS_H

#include "model/model.h"
#include "util/util.h"

/* ---- symtab.c ---- */
struct sym *symtab_add(struct symtab *tab);
void symtab_reserve(struct symtab *tab, size_t n);
void symtab_finish(struct gprof *g, struct symtab *tab, vma_t text_end);
void symtab_finish_from(struct gprof *g, struct symtab *tab, size_t from);
struct sym *sym_lookup(const struct symtab *tab, vma_t addr);
void sym_lookup_prefetch(const struct symtab *tab, vma_t addr);
struct sym *sym_lookup_exe(const struct gprof *g, vma_t addr);

/* ---- core.c ---- */
void core_open(struct gprof *g);
/* Reads the executable's symbol table through BFD (before the -R map is
   read: a failure here is reported first), then makes the function
   symbols of g->syms from it, named by the map when one was read. */
void core_read_syms(struct gprof *g);
void core_build_syms(struct gprof *g);
void core_read_ext_symtab(struct gprof *g, const char *file);
vma_t core_text_end(struct gprof *g);
void core_intern_files(struct gprof *g);
void core_free_find_window(struct gprof *g);
/* Closes what core_open(), core_build_syms() and core_intern_files() made
   in a context of its own (line_syms.c's second look at the executable). */
void core_close(struct gprof *g);
bool core_find_line(const struct gprof *g, vma_t addr, const char **file,
                    const char **func, unsigned *line);
bool core_sym_line(const struct gprof *g, const struct sym *s,
                   const char **file, int *line);
void sym_lookup_file(struct gprof *g, struct sym *s);
char *core_demangle(const struct gprof *g, const char *name);
/* Has the BFD `abfd` debug sections (or a link to a debug file)? */
bool core_has_line_info(void *abfd);

/* ---- objects.c: the executable and the libraries symbols live in ---- */
void objects_add_exe(struct gprof *g);
/* Enters a library placed at [lo, hi] (model addresses) = link-time +
   delta; keeps abfd for line lookups (true) when it has debug info. */
bool objects_add_lib(struct gprof *g, const char *path,
                     const unsigned char *build_id, size_t build_id_len,
                     vma_t lo, vma_t hi, vma_t delta, void *abfd);
bool object_find_line(const struct object_info *o, vma_t addr,
                      const char **file, const char **func, unsigned *line);
/* -l: line symbols of library objects[k], whose function symbols are
   g->syms.base[from ..], in the functions holding one of the sorted
   link-time addresses addrs[0 .. n). */
void objects_line_syms(struct gprof *g, size_t k, size_t from,
                       const vma_t *addrs, size_t n);
void objects_free(struct gprof *g);
/* The debug file of build-id id[0 .. n) under $GPROF_DEBUG_DIR (else
   /usr/lib/debug)/.build-id/, malloc'd; NULL without a build-id. */
char *objects_debug_path(const unsigned char *id, size_t n);
/* A stripped executable: its build-id debug file (a bfd *), or NULL;
   once its symbols are used, objects_keep_exe_debug_file() owns it. */
void *objects_exe_debug_file(const struct gprof *g);
void objects_keep_exe_debug_file(struct gprof *g, void *abfd);

/* ---- clones.c: GCC's compiler clones (foo.part.0, foo.cold...) ---- */
size_t clone_base_len(const char *name);
bool clone_is_split_of(const char *part, const char *whole);
/* core_build_syms() hands over its classification ('x': a clone GNU's
   rule drops), which this may clear, then has the ranges finished. */
void clones_note_dropped(struct gprof *g, void **bfd_syms, char *cls, long n);
void clones_finish_ranges(struct gprof *g, vma_t text_end);
void clones_map(struct gprof *g);

/* ---- map_syms.c: the -R map's object names (map_file_read() in the
   reading folder fills g->map_entries) ---- */
const char *map_file_object(const struct gprof *g, const char *func);

/* ---- line_syms.c ---- */
void core_build_line_syms(struct gprof *g);

/* ---- files.c ---- */
struct source_file *source_file_intern(struct gprof *g, const char *path);
const char *str_intern(struct gprof *g, const char *s);

/* ---- sym_ids.c ---- */
void sym_ids_add(struct gprof *g, enum spec_table t, const char *text);
void sym_ids_add_defaults(struct gprof *g);
/* Matches the symspecs against the symbols (sym_ids_resolve), then, once
   the FROM/TO arcs have been made from g->spec_list and g->tables
   (cg_add_spec_arcs, in the analysis), puts the tables in their final
   form for lookups (sym_ids_finish). */
void sym_ids_resolve(struct gprof *g);
void sym_ids_finish(struct gprof *g);
bool sym_in(const struct gprof *g, const struct sym *s, enum spec_table t);
bool sym_selected(const struct gprof *g, const struct sym *s,
                  enum spec_table incl);
bool arc_selected(const struct gprof *g, const struct sym *parent,
                  const struct sym *child);
/* The profiling hook's functions (sym_ids.c says which): by name, and
   as a symbol of the table. */
bool sym_name_is_hook(const char *name);
bool sym_is_hook(const struct gprof *g, const struct sym *s);
bool sym_hook_elsewhere(const struct gprof *g);

#endif
