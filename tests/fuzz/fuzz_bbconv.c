/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * fuzz_bbconv.c - libFuzzer harness for the bb.out converter
 * (src/bbconv.c, included here with its main() renamed so its static
 * convert() can be called directly).
 *
 * Input: one option byte (bit 0: 4-byte addresses, bit 1: big-endian),
 * then the bb.out text.  Whatever the text, the converter must write a
 * profile file that gprof's reader accepts without an error (abort
 * otherwise); the file is read with -l, so its counts reach the symbols.
 */
#define main bbconv_main
#include "../../src/reading/bbconv.c"
#undef main

#include "fuzz_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size < 1)
		return 0;
	fuzz_begin();
	unsigned opt = data[0];
	const char *inpath = fuzz_file(0, data + 1, size - 1);
	static char outpath[300];
	snprintf(outpath, sizeof outpath, "%s/bb.gmon", fuzz_workdir());

	FILE *in = fopen(inpath, "r");
	FILE *out = fopen(outpath, "wb");
	if (!in || !out)
		abort();
	struct conv c = { (opt & 1) ? 4 : 8, (opt & 2) != 0, out, NULL, 0, 0,
	                  0, false, 0, "<fuzz>" };
	convert(&c, in);
	fclose(in);
	if (ferror(out) || fclose(out) != 0)
		abort();

	static struct gprof g;
	fuzz_context_from_template(&g);
	g.addr_size = c.asize;
	g.big_endian = c.big;
	g.opt.line_gran = true;
	int st;
	FUZZ_TRY(st) {
		gmon_read(&g, outpath);
	} FUZZ_END;
	if (st != 0)
		abort();        /* the converter wrote a file gprof rejects */
	FUZZ_TRY(st) {
		g.opt.style = STYLE_EXEC_COUNTS;
		gprof_analyse(&g);
		gprof_print(&g, stdout);
	} FUZZ_END;
	fuzz_free_context(&g, 0);
	remove(outpath);
	fuzz_end();
	return 0;
}
