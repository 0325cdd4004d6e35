/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * fuzz_symspec.c - libFuzzer harness for symspecs (sym_ids.c): the
 * arguments of -p/-P/-q/-Q/-A/-J/-C/-Z/-n/-N/-e/-E/-f/-F/-k, including
 * FROM/TO arc specs, matched against tests/fuzz/prog's symbols (which have
 * files and lines from its debug information).
 *
 * Input: one option byte, then lines; each line's first byte picks the
 * table (modulo the number of tables), the rest is the spec text.  Option
 * byte: bit 0 also read prog's gmon.out and print the flat profile and the
 * call graph under these specs (as the options would), bit 1 -l, bit 2 -T.
 */
#include <stdlib.h>
#include <string.h>

#include "fuzz_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size < 1 || size > 4096)
		return 0;
	fuzz_begin();
	unsigned opt = data[0];
	static struct gprof g;
	fuzz_context_from_template(&g);
	g.opt.ignore_zeros = true;
	g.opt.min_count = 1;
	g.opt.table_length = 10;
	g.opt.line_gran = (opt & 2) != 0;
	g.opt.bsd_style = (opt & 4) != 0;

	/* The spec lines, NUL-terminated copies. */
	char *text = malloc(size);
	memcpy(text, data + 1, size - 1);
	text[size - 1] = '\0';
	int st;
	FUZZ_TRY(st) {
		char *save = NULL;
		for (char *line = strtok_r(text, "\n", &save); line;
		     line = strtok_r(NULL, "\n", &save)) {
			enum spec_table t = (enum spec_table)
				((unsigned char)line[0] % NUM_TABLES);
			sym_ids_add(&g, t, line + 1);
		}
		sym_ids_add_defaults(&g);
		sym_ids_resolve(&g);
		cg_add_spec_arcs(&g);
		sym_ids_finish(&g);
		volatile unsigned long n = 0;
		for (size_t i = 0; i < g.syms.len; i++) {
			const struct sym *s = &g.syms.base[i];
			for (int t = INCL_GRAPH; t < NUM_TABLES; t += 2)
				n += sym_selected(&g, s, (enum spec_table)t);
			for (size_t j = 0; j < g.syms.len; j++)
				n += arc_selected(&g, s, &g.syms.base[j]);
		}
		if (opt & 1) {
			gmon_read(&g, fuzz_prog_gmon());
			g.opt.style |= STYLE_FLAT | STYLE_CALL_GRAPH;
			gprof_analyse(&g);
			gprof_print(&g, stdout);
		}
	} FUZZ_END;
	(void)st;
	free(text);
	fuzz_free_context(&g, 0);
	fuzz_end();
	return 0;
}
