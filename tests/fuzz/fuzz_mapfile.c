/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * fuzz_mapfile.c - libFuzzer harness for the -R map-file reader
 * (map_file.c): `nm --extern-only --defined-only -v --print-file-name`
 * style lines "FILE:ADDR TYPE NAME".
 *
 * Input: the map file.  After reading it, every function name of
 * tests/fuzz/prog and every name the file itself defines is looked up; a
 * lookup must give a file the map names, "" or NULL.
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
	int st;
	FUZZ_TRY(st) {
		map_file_read(&g, path);
	} FUZZ_END;
	if (st == 0) {
		for (size_t i = 0; i < g.syms.len; i++)
			map_file_object(&g, g.syms.base[i].name);
		for (size_t i = 0; i < g.nmap_entries; i++) {
			const char *obj = map_file_object(&g, g.map_entries[i].func);
			if (!obj)
				abort();        /* a name the map defines */
			if (*obj) {
				size_t k;
				for (k = 0; k < g.nmap_entries; k++)
					if (strcmp(g.map_entries[k].file, obj) == 0)
						break;
				if (k == g.nmap_entries)
					abort();
			}
		}
		/* Sorted by function name. */
		for (size_t i = 1; i < g.nmap_entries; i++)
			if (strcmp(g.map_entries[i - 1].func,
			           g.map_entries[i].func) > 0)
				abort();
	}
	fuzz_free_context(&g, 0);
	fuzz_end();
	return 0;
}
