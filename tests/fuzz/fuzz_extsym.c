/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * fuzz_extsym.c - libFuzzer harness for the -S external symbol table
 * reader (core_read_ext_symtab in core.c): nm-style "ADDR TYPE NAME" lines
 * of which t/T symbols are kept.
 *
 * Input: the symbol file.  The table it yields must be sorted with sane
 * end addresses; then prog's gmon.out is read against it and the flat
 * profile and call graph printed, as `gprof -S FILE prog gmon.out` would.
 */
#include <stdlib.h>
#include <string.h>

#include "fuzz_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	fuzz_begin();
	const char *path = fuzz_file(0, data, size);
	static struct gprof g;
	fuzz_context_from_template(&g);
	g.syms.len = 0;             /* -S replaces the executable's symbols */
	g.opt.ignore_zeros = true;
	g.opt.min_count = 1;
	g.opt.table_length = 10;
	g.opt.ext_symtab = path;
	int st;
	FUZZ_TRY(st) {
		core_read_ext_symtab(&g, path);
		for (size_t i = 0; i < g.syms.len; i++) {
			const struct sym *s = &g.syms.base[i];
			if (i > 0 && s->addr <= g.syms.base[i - 1].addr)
				abort();
			if (sym_lookup(&g.syms, s->addr) != s &&
			    s->end_addr >= s->addr)
				abort();
		}
		sym_ids_add_defaults(&g);
		sym_ids_resolve(&g);
		cg_add_spec_arcs(&g);
		sym_ids_finish(&g);
		gmon_read(&g, fuzz_prog_gmon());
		g.opt.style |= STYLE_FLAT | STYLE_CALL_GRAPH;
		gprof_analyse(&g);
		gprof_print(&g, stdout);
	} FUZZ_END;
	(void)st;
	fuzz_free_context(&g, 0);  /* the names too (g.name_pool) */
	fuzz_end();
	return 0;
}
