/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * gmondump.c - a test helper for tests/libgmon.sh: checks that a GNU
 * gmon.out is well formed and prints its contents by function name.
 *
 *   gmondump -w 4|8 [-e little|big] [-s SYMS] FILE MODE
 *
 * -w is the target's address width in bytes and -e its byte order (the
 * runtime writes the file in the machine's own, as GNU gprof expects);
 * little-endian unless told otherwise.
 * SYMS is the output of `nm -n -S --defined-only PROG`, so names come from
 * the link-time addresses the file must hold.  MODE is one of:
 *   arcs   "caller callee count" per caller/callee pair, sorted
 *   hist   "function samples" per function with samples, then
 *          "total N", "rate R" and "records K" lines
 *   check  nothing: only the exit status (0 if well formed)
 * Exit status 2 means the file is malformed (with a reason on stderr).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct sym { uint64_t addr, size; char name[256]; };
static struct sym *syms;
static size_t nsyms;
static int width = 8;
static int big_endian;

static void bad(const char *why)
{
	fprintf(stderr, "gmondump: malformed profile: %s\n", why);
	exit(2);
}

static void load_syms(const char *path)
{
	FILE *f = fopen(path, "r");
	char line[512];
	if (f == NULL) {
		perror(path);
		exit(1);
	}
	while (fgets(line, sizeof line, f)) {
		char a[64], b[64], c[8], name[256];
		struct sym s = { 0 };
		int n = sscanf(line, "%63s %63s %7s %255s", a, b, c, name);
		if (n == 4 && strchr("tTwW", c[0])) {
			s.addr = strtoull(a, 0, 16);
			s.size = strtoull(b, 0, 16);
		} else if (n == 3 && strchr("tTwW", b[0])) {
			s.addr = strtoull(a, 0, 16);
			snprintf(name, sizeof name, "%s", c);
		} else {
			continue;
		}
		snprintf(s.name, sizeof s.name, "%s", name);
		syms = realloc(syms, (nsyms + 1) * sizeof *syms);
		syms[nsyms++] = s;
	}
	fclose(f);
}

/* The symbol containing addr (sized symbols first, else nearest below). */
static const char *name_of(uint64_t addr, char *buf)
{
	const struct sym *best = NULL;
	for (size_t i = 0; i < nsyms; i++) {
		const struct sym *s = &syms[i];
		if (s->addr > addr)
			continue;
		if (s->size && addr < s->addr + s->size)
			return s->name;
		if (!s->size && (!best || s->addr > best->addr))
			best = s;
	}
	if (best)
		return best->name;
	sprintf(buf, "0x%llx", (unsigned long long)addr);
	return buf;
}

static unsigned char *data;
static size_t len, pos;

/* An n-byte field in the file's byte order. */
static uint64_t get(int n)
{
	uint64_t v = 0;
	if (pos + (size_t)n > len)
		bad("truncated record");
	for (int i = 0; i < n; i++) {
		size_t at = big_endian ? (size_t)i : (size_t)(n - 1 - i);
		v = v << 8 | data[pos + at];
	}
	pos += (size_t)n;
	return v;
}

struct pair { char from[128], to[128]; uint64_t count; };
static struct pair *pairs;
static size_t npairs;
struct fsamp { char name[128]; uint64_t n; };
static struct fsamp *fs;
static size_t nfs;
static uint64_t total, rate, records;

static void add_pair(const char *a, const char *b, uint64_t c)
{
	for (size_t i = 0; i < npairs; i++)
		if (!strcmp(pairs[i].from, a) && !strcmp(pairs[i].to, b)) {
			pairs[i].count += c;
			return;
		}
	pairs = realloc(pairs, (npairs + 1) * sizeof *pairs);
	snprintf(pairs[npairs].from, 128, "%s", a);
	snprintf(pairs[npairs].to, 128, "%s", b);
	pairs[npairs++].count = c;
}

static void add_samples(const char *f, uint64_t n)
{
	for (size_t i = 0; i < nfs; i++)
		if (!strcmp(fs[i].name, f)) {
			fs[i].n += n;
			return;
		}
	fs = realloc(fs, (nfs + 1) * sizeof *fs);
	snprintf(fs[nfs].name, 128, "%s", f);
	fs[nfs++].n = n;
}

static void read_hist(void)
{
	uint64_t lo = get(width), hi = get(width);
	uint64_t n = get(4), r = get(4);
	char b1[40];
	if (hi <= lo || n == 0)
		bad("histogram range");
	/* "seconds", or "wall-sec" (GMON_CLOCK=wall), NUL-padded to 15. */
	if (pos + 16 > len || data[pos + 15] != 's' ||
	    (memcmp(data + pos, "seconds\0", 8) != 0 &&
	     memcmp(data + pos, "wall-sec\0", 9) != 0))
		bad("histogram dimension");
	pos += 16;
	if (records && r != rate)
		bad("histogram rates differ");
	rate = r;
	records++;
	double step = (double)(hi - lo) / (double)n;
	for (uint64_t i = 0; i < n; i++) {
		uint64_t v = get(2);
		if (v) {
			total += v;
			add_samples(name_of(lo + (uint64_t)(i * step), b1), v);
		}
	}
}

static void read_arc(void)
{
	uint64_t from = get(width), self = get(width), count = get(4);
	char b1[40], b2[40];
	add_pair(name_of(from, b1), name_of(self, b2), count);
}

static int cmp_pair(const void *a, const void *b)
{
	const struct pair *x = a, *y = b;
	int c = strcmp(x->from, y->from);
	return c ? c : strcmp(x->to, y->to);
}

int main(int argc, char **argv)
{
	const char *symfile = NULL, *order = "little";
	int i = 1;
	for (; i < argc && argv[i][0] == '-'; i++) {
		if (!strcmp(argv[i], "-w") && i + 1 < argc)
			width = atoi(argv[++i]);
		else if (!strcmp(argv[i], "-s") && i + 1 < argc)
			symfile = argv[++i];
		else if (!strcmp(argv[i], "-e") && i + 1 < argc)
			order = argv[++i];
	}
	big_endian = strcmp(order, "big") == 0;
	if (argc - i != 2 || (width != 4 && width != 8) ||
	    (!big_endian && strcmp(order, "little") != 0)) {
		fprintf(stderr, "usage: gmondump -w 4|8 [-e little|big] [-s SYMS] FILE arcs|hist|check\n");
		return 1;
	}
	if (symfile)
		load_syms(symfile);
	FILE *f = fopen(argv[i], "rb");
	if (!f) {
		perror(argv[i]);
		return 1;
	}
	size_t cap = 1 << 16;
	data = malloc(cap);
	size_t got;
	while ((got = fread(data + len, 1, cap - len, f)) > 0) {
		len += got;
		if (len == cap)
			data = realloc(data, cap *= 2);
	}
	fclose(f);
	if (len < 20 || memcmp(data, "gmon", 4) != 0)
		bad("no gmon header");
	pos = 4;
	if (get(4) != 1)
		bad("version is not 1");
	pos = 20;
	while (pos < len) {
		int tag = data[pos++];
		if (tag == 0)
			read_hist();
		else if (tag == 1)
			read_arc();
		else
			bad("unknown tag");
	}
	const char *mode = argv[i + 1];
	if (!strcmp(mode, "arcs")) {
		qsort(pairs, npairs, sizeof *pairs, cmp_pair);
		for (size_t k = 0; k < npairs; k++)
			printf("%s %s %llu\n", pairs[k].from, pairs[k].to,
			       (unsigned long long)pairs[k].count);
	} else if (!strcmp(mode, "hist")) {
		for (size_t k = 0; k < nfs; k++)
			printf("%s %llu\n", fs[k].name, (unsigned long long)fs[k].n);
		printf("total %llu\nrate %llu\nrecords %llu\n", (unsigned long long)total,
		       (unsigned long long)rate, (unsigned long long)records);
	}
	return 0;
}
