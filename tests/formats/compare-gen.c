/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * compare-gen.c - writes a run of a program with chosen samples, for
 * tests/formats/compare.sh: a copy of a real gmon.out of that program
 * (the template: its histogram's range and rate, its arcs) whose
 * histogram bins are all zero but those named, so that the sides of a
 * --compare hold exactly the per-run times the test asks for, nothing
 * depending on timing.
 *
 *     compare-gen [-r RATE] TEMPLATE OUT [ADDR=COUNT ...]
 *
 * ADDR (hex or decimal) is an address of the program; its bin gets COUNT
 * samples (at most 65535).  -r writes another sampling rate.  The
 * template must be a GNU-format file of this machine's byte order with
 * 8-byte addresses (what libgmon writes here).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct want {
	uint64_t addr;
	unsigned count;
};

static unsigned char *slurp(const char *name, size_t *len)
{
	FILE *f = fopen(name, "rb");
	if (!f)
		return NULL;
	size_t cap = 1 << 16, n = 0;
	unsigned char *b = malloc(cap);
	size_t got;
	while (b && (got = fread(b + n, 1, cap - n, f)) > 0) {
		n += got;
		if (n == cap)
			b = realloc(b, cap *= 2);
	}
	fclose(f);
	*len = n;
	return b;
}

static uint64_t get(const unsigned char *p, int n)
{
	uint64_t v = 0;
	memcpy(&v, p, (size_t)n);   /* little-endian host, as the template */
	return v;
}

/* Zeroes the bins of the histogram record at p (after its tag) and sets
   the wanted ones; returns the record's length or 0 when cut short. */
static size_t hist(unsigned char *p, size_t left, const struct want *w,
                   int nw, long rate)
{
	if (left < 40)
		return 0;
	uint64_t lo = get(p, 8), hi = get(p + 8, 8), nbins = get(p + 16, 4);
	if (left < 40 + 2 * nbins || hi <= lo)
		return 0;
	if (rate >= 0) {
		uint32_t r = (uint32_t)rate;
		memcpy(p + 20, &r, 4);
	}
	unsigned char *bins = p + 40;
	memset(bins, 0, 2 * nbins);
	for (int i = 0; i < nw; i++) {
		if (w[i].addr < lo || w[i].addr >= hi)
			continue;
		uint64_t b = (w[i].addr - lo) * nbins / (hi - lo);
		uint16_t c = (uint16_t)w[i].count;
		memcpy(bins + 2 * b, &c, 2);
	}
	return 40 + 2 * nbins;
}

int main(int argc, char **argv)
{
	long rate = -1;
	int a = 1;
	if (argc > 2 && !strcmp(argv[1], "-r")) {
		rate = strtol(argv[2], NULL, 0);
		a = 3;
	}
	if (argc - a < 2) {
		fprintf(stderr, "usage: compare-gen [-r RATE] TEMPLATE OUT "
		        "[ADDR=COUNT ...]\n");
		return 2;
	}
	int nw = argc - a - 2;
	struct want *w = calloc((size_t)nw + 1, sizeof *w);
	for (int i = 0; i < nw; i++) {
		char *eq;
		w[i].addr = strtoull(argv[a + 2 + i], &eq, 0);
		w[i].count = *eq == '=' ? (unsigned)strtoul(eq + 1, NULL, 0) : 0;
		if (*eq != '=' || w[i].count > 0xffff) {
			fprintf(stderr, "compare-gen: bad ADDR=COUNT %s\n",
			        argv[a + 2 + i]);
			return 2;
		}
	}
	size_t len;
	unsigned char *b = slurp(argv[a], &len);
	if (!b || len < 20 || memcmp(b, "gmon", 4)) {
		fprintf(stderr, "compare-gen: %s: not a GNU gmon file\n", argv[a]);
		return 2;
	}
	/* Records: histograms (tag 0) rewritten, arcs (1: 8 + 8 + 4 bytes)
	   and basic-block counts (2: a count, then 16 bytes each) kept. */
	for (size_t at = 20; at < len;) {
		unsigned char tag = b[at++];
		size_t n = 0;
		if (tag == 0)
			n = hist(b + at, len - at, w, nw, rate);
		else if (tag == 1)
			n = 20;
		else if (tag == 2 && len - at >= 4)
			n = 4 + 16 * (size_t)get(b + at, 4);
		if (n == 0 || n > len - at) {
			fprintf(stderr, "compare-gen: %s: record %u at %zu not "
			        "understood\n", argv[a], tag, at - 1);
			return 2;
		}
		at += n;
	}
	FILE *out = fopen(argv[a + 1], "wb");
	if (!out || fwrite(b, 1, len, out) != len || fclose(out)) {
		fprintf(stderr, "compare-gen: cannot write %s\n", argv[a + 1]);
		return 2;
	}
	free(b);
	free(w);
	return 0;
}
