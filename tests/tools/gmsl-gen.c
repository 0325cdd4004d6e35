/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * gmsl-gen.c - owns the tests' GMON_SHLIBS side files: writes one from a
 * line-per-record description on stdin (include/gmon_shlibs.h layout),
 * so tests need not wait for the runtime to write them.
 *
 *   header RATE CLOCK [VERSION [MAGIC]]
 *   object ID BIAS LO HI PATH BUILD-ID-HEX|-
 *   samples ID ADDR COUNT [ADDR COUNT]...
 *   arcs FROM-ID FROM-ADDR TO-ID TO-ADDR COUNT [FROM-ID ...]...
 *   thread ID TID NAME|-
 *   stacks THREAD COUNT FLAGS FRAMES [COUNT FLAGS FRAMES]...
 *          FRAMES: OBJ:ADDR[,OBJ:ADDR]... leaf first, outermost last
 *   tsamples THREAD OBJ ADDR COUNT [ADDR COUNT]...
 *   tarcs THREAD FROM-ID FROM-ADDR TO-ID TO-ADDR COUNT [FROM-ID ...]...
 *   sloss TRUNCATED LOST DEPTH-LIMIT
 *   ptimes USER-NS SYSTEM-NS WALL-NS
 *   ttimes THREAD FLAGS USER-NS SYSTEM-NS WALL-NS
 *   raw TAG LENGTH|auto [HEX-BYTES]        any record, lengths as given
 *
 * Numbers are C literals (0x.. for hex).  Usage: gmsl-gen OUT < DESC
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static FILE *out;

static void put(uint64_t v, int n)
{
	for (int i = 0; i < n; i++)
		fputc((int)(v >> (8 * i)) & 0xff, out);
}

static uint64_t num(const char *s)
{
	if (!s) {
		fputs("gmsl-gen: missing number\n", stderr);
		exit(2);
	}
	return strtoull(s, NULL, 0);
}

static size_t unhex(const char *s, unsigned char *b, size_t max)
{
	size_t n = 0;
	if (!s || strcmp(s, "-") == 0)
		return 0;
	while (s[0] && s[1] && n < max) {
		unsigned v;
		sscanf(s, "%2x", &v);
		b[n++] = (unsigned char)v;
		s += 2;
	}
	return n;
}

static void header(char **w)
{
	const char *magic = w[3] && w[4] ? w[4] : "gmsl";
	fwrite(magic, 1, 4, out);
	put(w[3] ? num(w[3]) : 1, 4);
	put(num(w[1]), 4);
	put(num(w[2]), 4);
}

static void object(char **w)
{
	unsigned char bid[256];
	size_t blen = unhex(w[6], bid, sizeof bid);
	size_t plen = w[5] ? strlen(w[5]) : 0;
	put(1, 1);
	put(4 + 8 + 8 + 8 + 2 + plen + 2 + blen, 4);
	put(num(w[1]), 4);
	put(num(w[2]), 8);
	put(num(w[3]), 8);
	put(num(w[4]), 8);
	put(plen, 2);
	fwrite(w[5], 1, plen, out);
	put(blen, 2);
	fwrite(bid, 1, blen, out);
}

static void samples(char **w, int nw)
{
	int n = (nw - 2) / 2;
	put(2, 1);
	put(8 + (uint64_t)n * 12, 4);
	put(num(w[1]), 4);
	put((uint64_t)n, 4);
	for (int i = 0; i < n; i++) {
		put(num(w[2 + 2 * i]), 8);
		put(num(w[3 + 2 * i]), 4);
	}
}

static void arcs(char **w, int nw)
{
	int n = (nw - 1) / 5;
	put(3, 1);
	put(4 + (uint64_t)n * 32, 4);
	put((uint64_t)n, 4);
	for (int i = 0; i < n; i++) {
		char **a = w + 1 + 5 * i;
		put(num(a[0]), 4);
		put(num(a[1]), 8);
		put(num(a[2]), 4);
		put(num(a[3]), 8);
		put(num(a[4]), 8);
	}
}

static void thread(char **w)
{
	const char *name = w[3] && strcmp(w[3], "-") != 0 ? w[3] : "";
	size_t n = strlen(name);
	put(4, 1);
	put(10 + n, 4);
	put(num(w[1]), 4);
	put(num(w[2]), 4);
	put(n, 2);
	fwrite(name, 1, n, out);
}

/* The frames "OBJ:ADDR,OBJ:ADDR" into obj[] and addr[]; how many. */
static int frames(const char *s, uint64_t *obj, uint64_t *addr, int max)
{
	int n = 0;
	while (s && *s && n < max) {
		char *end;
		obj[n] = strtoull(s, &end, 0);
		if (*end != ':') {
			fprintf(stderr, "gmsl-gen: bad frame: %s\n", s);
			exit(2);
		}
		addr[n++] = strtoull(end + 1, &end, 0);
		s = *end == ',' ? end + 1 : NULL;
	}
	return n;
}

static void stacks(char **w, int nw)
{
	static uint64_t obj[2048], addr[2048];
	int n = (nw - 2) / 3;
	uint64_t len = 8;
	for (int i = 0; i < n; i++)
		len += 12 + 12 * (uint64_t)frames(w[4 + 3 * i], obj, addr, 2048);
	put(5, 1);
	put(len, 4);
	put(num(w[1]), 4);
	put((uint64_t)n, 4);
	for (int i = 0; i < n; i++) {
		int d = frames(w[4 + 3 * i], obj, addr, 2048);
		put(num(w[2 + 3 * i]), 8);
		put((uint64_t)d, 2);
		put(num(w[3 + 3 * i]), 2);
		for (int k = 0; k < d; k++) {
			put(obj[k], 4);
			put(addr[k], 8);
		}
	}
}

static void tsamples(char **w, int nw)
{
	int n = (nw - 3) / 2;
	put(6, 1);
	put(12 + (uint64_t)n * 12, 4);
	put(num(w[1]), 4);
	put(num(w[2]), 4);
	put((uint64_t)n, 4);
	for (int i = 0; i < n; i++) {
		put(num(w[3 + 2 * i]), 8);
		put(num(w[4 + 2 * i]), 4);
	}
}

static void tarcs(char **w, int nw)
{
	int n = (nw - 2) / 5;
	put(7, 1);
	put(8 + (uint64_t)n * 32, 4);
	put(num(w[1]), 4);
	put((uint64_t)n, 4);
	for (int i = 0; i < n; i++) {
		char **a = w + 2 + 5 * i;
		put(num(a[0]), 4);
		put(num(a[1]), 8);
		put(num(a[2]), 4);
		put(num(a[3]), 8);
		put(num(a[4]), 8);
	}
}

static void sloss(char **w)
{
	put(8, 1);
	put(20, 4);
	put(num(w[1]), 8);
	put(num(w[2]), 8);
	put(num(w[3]), 4);
}

/* PTIMES (tag 9) and TTIMES (tag 10): fixed lengths, all numbers given. */
static void times(char **w, int ttimes)
{
	put(ttimes ? 10 : 9, 1);
	put(ttimes ? 32 : 24, 4);
	if (ttimes) {
		put(num(w[1]), 4);
		put(num(w[2]), 4);
		w += 2;
	}
	put(num(w[1]), 8);
	put(num(w[2]), 8);
	put(num(w[3]), 8);
}

static void raw(char **w)
{
	static unsigned char b[65536];
	size_t n = unhex(w[3], b, sizeof b);
	put(num(w[1]), 1);
	put(strcmp(w[2], "auto") == 0 ? n : num(w[2]), 4);
	fwrite(b, 1, n, out);
}

int main(int argc, char **argv)
{
	static char line[1 << 16];
	if (argc != 2 || !(out = fopen(argv[1], "wb"))) {
		fputs("usage: gmsl-gen OUT < DESCRIPTION\n", stderr);
		return 2;
	}
	while (fgets(line, sizeof line, stdin)) {
		char *w[2048] = { 0 };
		int nw = 0;
		for (char *t = strtok(line, " \t\n"); t && nw < 2047;
		     t = strtok(NULL, " \t\n"))
			w[nw++] = t;
		if (nw == 0 || w[0][0] == '#')
			continue;
		if (strcmp(w[0], "header") == 0)
			header(w);
		else if (strcmp(w[0], "object") == 0)
			object(w);
		else if (strcmp(w[0], "samples") == 0)
			samples(w, nw);
		else if (strcmp(w[0], "arcs") == 0)
			arcs(w, nw);
		else if (strcmp(w[0], "thread") == 0)
			thread(w);
		else if (strcmp(w[0], "stacks") == 0)
			stacks(w, nw);
		else if (strcmp(w[0], "tsamples") == 0)
			tsamples(w, nw);
		else if (strcmp(w[0], "tarcs") == 0)
			tarcs(w, nw);
		else if (strcmp(w[0], "sloss") == 0)
			sloss(w);
		else if (strcmp(w[0], "ptimes") == 0 || strcmp(w[0], "ttimes") == 0)
			times(w, w[0][0] == 't');
		else if (strcmp(w[0], "raw") == 0 && nw >= 3)
			raw(w);
		else {
			fprintf(stderr, "gmsl-gen: bad line: %s\n", w[0]);
			return 2;
		}
	}
	return fclose(out) == 0 ? 0 : 1;
}
