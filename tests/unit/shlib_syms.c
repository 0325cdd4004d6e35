/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * shlib_syms.c - unit tests of how shared libraries' symbols sit in the
 * symbol table (src/shlibs.c puts them there): appended above the
 * executable's by symtab_finish_from(), which leaves the executable's
 * symbols as they were; sym_lookup_exe() never answers with a library's;
 * histogram bins credit the executable's symbols only, and the total
 * time starts from the side files' ticks.
 */
#include <stdint.h>

#include "unit.h"

/* The executable: f, g, h of 16 bytes, text ending at 0x1030; a library
   at 0x100000: lib_a of 0x20 bytes, lib_b of 0x10, then a gap. */
static void make(struct gprof *g)
{
	model_init(g);
	model_func(g, 0x1000, "f");
	model_func(g, 0x1010, "g");
	model_func(g, 0x1020, "h");
	model_syms_done(g, 0x1030);
	size_t first = g->syms.len;
	static const struct { vma_t addr, end; const char *name; } lib[] = {
		{ 0x100020, 0x10002f, "lib_b" },
		{ 0x100000, 0x10001f, "lib_a" },
	};
	for (int i = 0; i < 2; i++) {
		struct sym *s = symtab_add(&g->syms);
		s->addr = lib[i].addr;
		s->end_addr = lib[i].end;
		s->name = lib[i].name;
		s->is_func = true;
	}
	symtab_finish_from(g, &g->syms, first);
	g->shlib_first = first;
	g->shlib_base = 0x100000;
}

static void test_table(void)
{
	struct gprof g;
	make(&g);
	struct sym *h = model_sym(&g, "h");
	bool ok = unit_expect(g.syms.len == 5, "five symbols");
	ok &= unit_expect(g.syms.base[3].addr == 0x100000 &&
	                  g.syms.base[4].addr == 0x100020, "library sorted");
	ok &= unit_expect(h->end_addr == 0x102f, "h keeps its end");
	ok &= unit_expect(sym_lookup_exe(&g, 0x1025) == h, "h found");
	ok &= unit_expect(sym_lookup_exe(&g, 0x1030) == NULL, "after h");
	ok &= unit_expect(sym_lookup_exe(&g, 0x100008) == NULL, "no library");
	ok &= unit_expect(sym_lookup(&g.syms, 0x100024) == &g.syms.base[4],
	                  "lib_b by sym_lookup");
	ok &= unit_expect(exe_syms_len(&g) == 3, "exe_syms_len");
	ok &= unit_expect(sym_in_shlib(&g, &g.syms.base[3]) &&
	                  !sym_in_shlib(&g, h), "sym_in_shlib");
	unit_check(ok, "shlib_syms_table");
	model_free(&g);
}

/* A histogram reaching past h: its last bins stay uncredited, as they
   would be without the library; lib_a's own ticks come first. */
static void test_hist(void)
{
	struct gprof g;
	make(&g);
	g.syms.base[3].hist_time = 6;
	g.shlib_ticks = 9;           /* 6 for lib_a, 3 for no symbol */
	struct histogram *hg = model_hist(&g, 0x1000, 0x1040, 16);
	hist_add(hg, 5, 2);          /* g: [0x1014, 0x1018) */
	hist_add(hg, 13, 4);         /* [0x1034, 0x1038): after h */
	hist_assign_samples(&g);
	bool ok = unit_near(model_sym(&g, "g")->hist_time, 2, "g");
	ok &= unit_near(model_sym(&g, "h")->hist_time, 0, "h");
	ok &= unit_near(g.syms.base[3].hist_time, 6, "lib_a");
	ok &= unit_near(g.syms.base[4].hist_time, 0, "lib_b");
	ok &= unit_near(g.total_time, 15, "total_time");
	unit_check(ok, "shlib_syms_hist");
	model_free(&g);
}

void unit_shlib_syms(void)
{
	test_table();
	test_hist();
}
