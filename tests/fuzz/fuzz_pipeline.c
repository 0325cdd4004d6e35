/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * fuzz_pipeline.c - libFuzzer harness for the whole tool: gprof_run() (the
 * body of main) on tests/fuzz/prog with fuzzed profile data, through to
 * the printed reports (sent to /dev/null), under one of a few option sets,
 * this project's output formats included.
 *
 * Input: one byte choosing the option set, then up to two pieces
 * separated by "FZSP": the profile file, and either a second profile file
 * (summed with the first) or, for the option sets with -R or -S, the map
 * or symbol file.  -s writes its gmon.sum in a scratch directory.
 */
#include <fcntl.h>
#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fuzz_common.h"

/* "P" stands for the executable, "D" for its directory, "X" for the
   auxiliary file; the profile files follow. */
static const char *const sets[][16] = {
	{ "-b", "P" },
	{ "-b", "-l", "P" },
	{ "-s", "-b", "P" },
	{ "-T", "-b", "-z", "P" },
	{ "-r", "P" },
	{ "-R", "X", "P" },
	{ "-S", "X", "-b", "P" },
	{ "-i", "P" },
	{ "-l", "-C", "-x", "P" },
	{ "-A", "-b", "-I", "D", "P" },
	{ "-p", "-q", "-c", "-b", "P" },
	{ "-b", "-espin", "-Eleaf", "-fodd", "-Ftop", "-keven/odd", "-m", "2",
	  "-t", "3", "-w", "50", "P" },
	{ "-b", "-neven", "-Nodd", "-a", "-D", "P" },
	{ "-O", "bsd", "-s", "-b", "P" },
	{ "-O", "4.4bsd", "-b", "-s", "P" },
	{ "-O", "magic", "-b", "-L", "--inline-file-names", "P" },
	{ "-l", "-b", "-s", "P" },
	{ "-Z", "-C", "-b", "--no-demangle", "P" },
	{ "-b", "-T", "-q", "-c", "-z", "P" },
	{ "-l", "-A", "-x", "-b", "-I", "D", "P" },
	{ "-b", "-pmain", "-Pspin", "-qeven", "-Qodd", "-Cleaf", "-Ztop", "P" },
	{ "-b", "-y", "-A", "-I", "D", "P" },
	/* this project's output formats, comparison and diagnosis */
	{ "--output-format=dot", "--node-threshold=0", "--edge-threshold=0", "P" },
	{ "--output-format=dot", "-espin", "-keven/odd", "P" },
	{ "--output-format=html", "--node-threshold=0", "P" },
	{ "--output-format=html", "-z", "-T", "P" },
	{ "--output-format=json", "-z", "P" },
	{ "--output-format=json", "-l", "-Fodd", "P" },
	{ "--output-format=callgrind", "P" },
	{ "--output-format=callgrind", "-l", "-z", "P" },
	{ "--output-format=pprof", "P" },
	{ "--output-format=pprof", "-z", "--no-demangle", "P" },
	{ "--diagnose", "P" },
	{ "--sampling-error", "-z", "-p", "P" },
	/* the flat profile alone, analysed without arcs (arc_bulk.c) */
	{ "-p", "-b", "-espin", "-Eleaf", "-fodd", "-Ftop", "-keven/odd", "P" },
	{ "-p", "-l", "-z", "P" },
	/* compiler clones (--clones; clone names from the -S file, whose
	   lines may name foo.part.0, foo.cold, ...), with the diagnosis */
	{ "--clones=merge", "-b", "P" },
	{ "--clones=separate", "-l", "-b", "P" },
	{ "-S", "X", "--clones=merge", "--diagnose", "P" },
	{ "-S", "X", "--clones=separate", "-b", "P" },
	{ "-S", "X", "--clones=gnu", "-i", "P" },
	/* (--compare is left out: its two contexts, each with its own BFD,
	   are the process's until exit, and would pile up here) */
};
#define NSETS (sizeof sets / sizeof sets[0])

static void write_file(const char *path, const uint8_t *data, size_t len)
{
	FILE *f = fopen(path, "wb");
	if (!f || (len && fwrite(data, 1, len, f) != len) || fclose(f) != 0)
		abort();
}

static void export_input(const char *dir, int argc, char **argv,
                         const uint8_t **piece, const size_t *plen, size_t n)
{
	static const char *const names[3] = { "prof0", "prof1", "aux" };
	char path[4096];
	snprintf(path, sizeof path, "%s/cmd", dir);
	FILE *cmd = fopen(path, "w");
	if (!cmd)
		abort();
	for (int i = 1; i < argc; i++) {
		int slot = -1;
		for (int k = 0; k < 3; k++)
			if (strcmp(argv[i], fuzz_file_path(k)) == 0)
				slot = k;
		if (slot < 0) {
			fprintf(cmd, "%s\n", argv[i]);
			continue;
		}
		/* Slot 0 holds piece 0; slot 1 (second profile) and slot 2 (the
		   -R/-S file) piece 1, if any. */
		size_t p = slot == 0 ? 0 : 1;
		snprintf(path, sizeof path, "%s/%s", dir, names[slot]);
		write_file(path, p < n ? piece[p] : NULL, p < n ? plen[p] : 0);
		fprintf(cmd, "%s\n", path);
	}
	fclose(cmd);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size < 1)
		return 0;
	fuzz_begin();
	const char *const *set = sets[data[0] % NSETS];
	bool uses_aux = false;
	for (int i = 0; i < 16 && set[i]; i++)
		uses_aux |= strcmp(set[i], "X") == 0;
	const uint8_t *piece[2];
	size_t plen[2];
	size_t n = fuzz_split(data + 1, size - 1, piece, plen, 2);
	const char *prof[2], *aux = NULL;
	size_t nprof = n;
	if (uses_aux) {
		aux = fuzz_file(2, n > 1 ? piece[1] : NULL, n > 1 ? plen[1] : 0);
		nprof = 1;
	}
	for (size_t i = 0; i < nprof; i++)
		prof[i] = fuzz_file((int)i, piece[i], plen[i]);

	static char dir[4096];
	if (!dir[0]) {
		const char *p = fuzz_prog_path();
		const char *slash = strrchr(p, '/');
		snprintf(dir, sizeof dir, "%.*s", slash ? (int)(slash - p) : 1,
		         slash ? p : ".");
	}
	char *argv[24];
	int argc = 0;
	argv[argc++] = "gprof";
	for (int i = 0; i < 16 && set[i]; i++) {
		const char *a = set[i];
		if (strcmp(a, "P") == 0)
			a = fuzz_prog_path();
		else if (strcmp(a, "D") == 0)
			a = dir;
		else if (strcmp(a, "X") == 0)
			a = aux;
		argv[argc++] = (char *)a;
	}
	for (size_t i = 0; i < nprof; i++)
		argv[argc++] = (char *)prof[i];
	argv[argc] = NULL;

	/* FUZZ_EXPORT=DIR: only write the files and the command line there
	   (DIR/cmd, one argument a line), for gnu-check.sh. */
	const char *exp = getenv("FUZZ_EXPORT");
	if (exp && *exp) {
		export_input(exp, argc, argv, piece, plen, n);
		fuzz_end();
		return 0;
	}

	fuzz_run_gprof(argc, argv);
	fuzz_end();
	return 0;
}
