/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * bbconv.c - gprof-bbconv: turns a human-readable basic-block listing
 * (the "bb.out" that old `gcc -a` programs wrote) into a GNU-format
 * profile file that gprof reads with -l -C / -l -A.
 *
 * Input: header lines "File NAME, N basic blocks" each followed by N lines
 * "Block #K: executed C time(s) address= 0xADDR ...".  Each header starts
 * one basic-block record of N entries.  A record whose block lines do not
 * match its count is reported ("miscount") and fixed up, so the output is
 * always a well-formed file.
 *
 * Usage: gprof-bbconv [-4|-8] [-B] [-o OUT] [BB.OUT]
 *   -4 / -8  address size of the target (default: this host's)
 *   -B       big-endian target (default: this host's byte order)
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "gmon_format.h"
#include "util/util.h"


struct block { uint64_t addr, count; };

struct conv {
	int asize;
	bool big;
	FILE *out;
	struct block *blk;
	size_t nblk, cap, expect;
	bool open;                   /* a record has been started */
	long lineno;
	const char *name;
};

static void put(struct conv *c, uint64_t v, int n)
{
	for (int i = 0; i < n; i++) {
		int shift = c->big ? 8 * (n - 1 - i) : 8 * i;
		putc((int)((v >> shift) & 0xff), c->out);
	}
}

/* Writes the blocks gathered for the current header as one record. */
static void flush_record(struct conv *c)
{
	if (!c->open)
		return;
	if (c->nblk != c->expect)
		fprintf(stderr, "gprof-bbconv: %s: miscount: %zu basic blocks "
		        "listed, header said %zu\n", c->name, c->nblk, c->expect);
	put(c, GMON_TAG_BB_COUNT, 1);
	put(c, c->nblk, 4);
	for (size_t i = 0; i < c->nblk; i++) {
		put(c, c->blk[i].addr, c->asize);
		put(c, c->blk[i].count, c->asize);
	}
	c->nblk = 0;
	c->open = false;
}

static bool parse_header(const char *line, size_t *n)
{
	const char *comma;
	if (strncmp(line, "File ", 5) != 0 || !(comma = strrchr(line, ',')))
		return false;
	char *end;
	unsigned long long v = strtoull(comma + 1, &end, 10);
	if (end == comma + 1 || strncmp(end, " basic blocks", 13) != 0)
		return false;
	*n = (size_t)v;
	return true;
}

static bool parse_block(const char *line, struct block *b)
{
	const char *ex = strstr(line, "executed");
	const char *ad = strstr(line, "address=");
	if (!strstr(line, "Block") || !ex || !ad)
		return false;
	char *end;
	b->count = strtoull(ex + 8, &end, 10);
	if (end == ex + 8 || strncmp(end, " time", 5) != 0)
		return false;
	b->addr = strtoull(ad + 8, &end, 16);
	return end != ad + 8;
}

static void add_block(struct conv *c, const struct block *b)
{
	if (!c->open) {
		fprintf(stderr, "gprof-bbconv: %s:%ld: block outside any file "
		        "header, ignored\n", c->name, c->lineno);
		return;
	}
	if (c->nblk == c->cap) {
		c->cap = c->cap ? c->cap * 2 : 64;
		c->blk = realloc(c->blk, c->cap * sizeof *c->blk);
		if (!c->blk) {
			fputs("gprof-bbconv: out of memory\n", stderr);
			exit(1);
		}
	}
	c->blk[c->nblk++] = *b;
}

static void convert(struct conv *c, FILE *in)
{
	char *line = NULL;
	size_t cap = 0;
	size_t n;
	struct block b;

	fwrite(GMON_MAGIC, 1, GMON_MAGIC_LEN, c->out);
	put(c, GMON_VERSION, 4);
	for (int i = 0; i < GMON_HDR_SPARE; i++)
		putc(0, c->out);
	while (getline(&line, &cap, in) > 0) {
		c->lineno++;
		if (parse_header(line, &n)) {
			flush_record(c);
			c->open = true;
			c->expect = n;
		} else if (parse_block(line, &b)) {
			add_block(c, &b);
		}
	}
	flush_record(c);
	free(line);
	free(c->blk);
}

int main(int argc, char **argv)
{
	uint16_t probe = 1;
	struct conv c = { (int)sizeof(void *), *(uint8_t *)&probe == 0, stdout,
	                  NULL, 0, 0, 0, false, 0, "<stdin>" };
	const char *outname = NULL;
	int opt;

	while ((opt = getopt(argc, argv, "48Bo:")) != -1) {
		switch (opt) {
		case '4': c.asize = 4; break;
		case '8': c.asize = 8; break;
		case 'B': c.big = true; break;
		case 'o': outname = optarg; break;
		default:
			fputs("usage: gprof-bbconv [-4|-8] [-B] [-o OUT] [BB.OUT]\n",
			      stderr);
			return 2;
		}
	}
	FILE *in = stdin;
	if (optind < argc) {
		c.name = argv[optind];
		if (!(in = fopen(c.name, "r"))) {
			perror(c.name);
			return 1;
		}
	}
	/* -o writes a temporary file renamed into place at the end. */
	struct safe_file sf;
	if (outname) {
		if (!safe_open(&sf, outname)) {
			perror(outname);
			return 1;
		}
		c.out = sf.f;
	}
	convert(&c, in);
	bool ok = outname ? safe_commit(&sf)
	                  : !ferror(c.out) && fclose(c.out) == 0;
	if (!ok) {
		perror(outname ? outname : "<stdout>");
		return 1;
	}
	return 0;
}
