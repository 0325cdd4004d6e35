/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * gmon-gen - writes GNU-format profile files from a text description, for
 * tests that need records current compilers no longer emit (basic-block
 * counts) or exact counts.  Usage: gmon-gen [-4] [-B] OUT < SPEC
 *   -4  32-bit addresses (default 64)     -B  big-endian (default little)
 * SPEC, one record per line ('#' starts a comment):
 *   version N                      header version (default 1; first line)
 *   hist LOW HIGH NBINS RATE DIM A [BIN=COUNT ...]   histogram record
 *   arc FROM SELF COUNT            call-graph arc
 *   bb ADDR COUNT [ADDR COUNT ...] one basic-block record
 *   tag N                          a bare tag byte (for damaged files)
 * Numbers may be decimal or 0x-prefixed hexadecimal.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int asize = 8, big;
static FILE *out;

static void put(uint64_t v, int n)
{
	for (int i = 0; i < n; i++) {
		int shift = big ? 8 * (n - 1 - i) : 8 * i;
		putc((int)((v >> shift) & 0xff), out);
	}
}

static uint64_t num(char **save)
{
	char *t = strtok_r(NULL, " \t\n", save);
	if (!t) {
		fprintf(stderr, "gmon-gen: missing number\n");
		exit(2);
	}
	return strtoull(t, NULL, 0);
}

static void hist(char **save)
{
	uint64_t lo = num(save), hi = num(save), n = num(save), rate = num(save);
	char *dim = strtok_r(NULL, " \t\n", save), *ab = strtok_r(NULL, " \t\n", save);
	char dbuf[15] = { 0 };
	uint16_t *bins = calloc(n ? n : 1, sizeof *bins);
	char *t;

	if (!dim || !ab || !bins)
		exit(2);
	memcpy(dbuf, dim, strlen(dim) < sizeof dbuf ? strlen(dim) : sizeof dbuf);
	while ((t = strtok_r(NULL, " \t\n", save)) != NULL) {
		char *eq = strchr(t, '=');
		uint64_t i = strtoull(t, NULL, 0);
		if (eq && i < n)
			bins[i] = (uint16_t)strtoull(eq + 1, NULL, 0);
	}
	put(0, 1);
	put(lo, asize);
	put(hi, asize);
	put(n, 4);
	put(rate, 4);
	fwrite(dbuf, 1, sizeof dbuf, out);
	put((unsigned char)ab[0], 1);
	for (uint64_t i = 0; i < n; i++)
		put(bins[i], 2);
	free(bins);
}

static void bb(char **save)
{
	uint64_t v[2048];
	int n = 0;
	char *t;
	while (n < 2048 && (t = strtok_r(NULL, " \t\n", save)) != NULL)
		v[n++] = strtoull(t, NULL, 0);
	put(2, 1);
	put((uint64_t)n / 2, 4);
	for (int i = 0; i + 1 < n; i += 2) {
		put(v[i], asize);
		put(v[i + 1], asize);
	}
}

int main(int argc, char **argv)
{
	char line[65536];
	int i = 1;
	uint64_t version = 1;
	long hdr_at = -1;

	for (; i < argc && argv[i][0] == '-'; i++) {
		if (strcmp(argv[i], "-4") == 0)
			asize = 4;
		else if (strcmp(argv[i], "-B") == 0)
			big = 1;
	}
	if (i >= argc || !(out = fopen(argv[i], "wb"))) {
		fprintf(stderr, "usage: gmon-gen [-4] [-B] OUT < SPEC\n");
		return 2;
	}
	while (fgets(line, sizeof line, stdin)) {
		char *save = NULL, *kw = strtok_r(line, " \t\n", &save);
		if (!kw || kw[0] == '#')
			continue;
		if (hdr_at < 0) {
			if (strcmp(kw, "version") == 0) {
				version = num(&save);
				kw = NULL;
			}
			fwrite("gmon", 1, 4, out);
			put(version, 4);
			put(0, 4), put(0, 4), put(0, 4);
			hdr_at = 0;
			if (!kw)
				continue;
		}
		if (strcmp(kw, "hist") == 0)
			hist(&save);
		else if (strcmp(kw, "arc") == 0) {
			uint64_t f = num(&save), s = num(&save), c = num(&save);
			put(1, 1), put(f, asize), put(s, asize), put(c, 4);
		} else if (strcmp(kw, "bb") == 0)
			bb(&save);
		else if (strcmp(kw, "tag") == 0)
			put(num(&save), 1);
		else {
			fprintf(stderr, "gmon-gen: unknown record `%s'\n", kw);
			return 2;
		}
	}
	if (hdr_at < 0) {
		fwrite("gmon", 1, 4, out);
		put(version, 4);
		put(0, 4), put(0, 4), put(0, 4);
	}
	return fclose(out) != 0;
}
