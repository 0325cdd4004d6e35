/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * util/util.h - the way into the utilities: allocation that cannot fail,
 * messages, fast number formatting (utils.c), the stable sorts (sort.c),
 * and through the headers it includes, strbuf, outbuf and safe_file.
 * Nothing here knows the profile model: a message that names the program
 * is given the name (the macros below take it from a `struct gprof`).
 */
#ifndef UTIL_UTIL_H
#define UTIL_UTIL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "util/outbuf.h"
#include "util/safe_file.h"
#include "util/strbuf.h"

/* ---- utils.c: allocation and exit ---- */

/* exit(status) after flushing stdout; a fuzz harness that sets
   gprof_exit_jmp gets control back instead. */
void gprof_exit(int status) __attribute__((noreturn));
void *xmalloc(size_t n);
void *xcalloc(size_t n, size_t size);
void *xrealloc(void *p, size_t n);
char *xstrdup(const char *s);

/* ---- utils.c: messages, one line each on stderr ---- */

/* "WHO: message" (WHO is argv[0], or NULL for no prefix), then exit 1. */
void die_as(const char *who, const char *fmt, ...)
	__attribute__((format(printf, 2, 3), noreturn));
void warn_as(const char *who, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* A debug trace (-d) on stdout, interleaved with the report as GNU's. */
void debug_out(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* The same for a run's context g (anything with a `whoami` and an
   `opt.debug`): the macros read them where they are used, so this
   folder needs no model.  A trace's arguments are not even computed
   unless its area is on: some read a symbol's name, a cache miss per
   symbol of a big graph. */
#define die(g, ...) die_as((g)->whoami, __VA_ARGS__)
#define die_plain(...) die_as(NULL, __VA_ARGS__)
#define warnx_g(g, ...) warn_as((g)->whoami, __VA_ARGS__)
#define debug_printf(g, area, ...)                                        \
	((g)->opt.debug & (area) ? debug_out(__VA_ARGS__) : (void)0)

/* ---- utils.c: number formatting ---- */

#define FMT_BUF 400              /* room for any double printed with %f */
/* printf("%*.*f", width, prec, v) into buf (FMT_BUF bytes); the length. */
int fmt_fixed(char *buf, double v, int width, int prec);
/* printf("%*" PRIu64, ...) (left-aligned if `left`) into buf (32 bytes
   at least); the length. */
int fmt_uint(char *buf, uint64_t v, int width, bool left);

/* ---- sort.c: glibc-msort-compatible stable merge sort ---- */
typedef int (*cmp_fn)(const void *a, const void *b, void *ctx);
void stable_sort(void *base, size_t n, size_t size, cmp_fn cmp, void *ctx);
/* stable_sort() of pointers whose comparison's first tests are: a double,
   descending (first); if `second` is set, an integer, descending; if
   `name` is set too, a string as strcmp() orders it.  cmp, the whole
   comparison, decides the ties of these: the same result, faster.  Keys
   must not contradict cmp, and where cmp ties, the first two keys tie.
   weak_order: cmp is a strict weak order as the merge sees it (it asks
   cmp(left, right) and keeps left on <= 0, so two items that each claim
   to come first tie), which lets the sort take a quicker way to the
   same, only order. */
struct desc_keys {
	double (*first)(const void *);
	uint64_t (*second)(const void *);
	const char *(*name)(const void *);
	bool weak_order;
};
void stable_sort_desc(void **v, size_t n, const struct desc_keys *dk,
                      cmp_fn cmp, void *ctx);
/* Items ordered by key[0], then key[1], ascending; ties keep their
   order.  Sorts r in place.  n must be below 2^32. */
struct radix_item {
	uint64_t key[2];
	uint32_t at;                 /* where the rest of the item is */
};
void radix_sort(struct radix_item *r, size_t n);

#endif
