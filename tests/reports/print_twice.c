/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * print_twice.c - checks that reports only read the analysed model.
 *
 * usage: print_twice GPROF-ARGUMENTS...
 * Loads and analyses once, as gprof would with those arguments, then
 * prints each requested report on its own, again in reverse order, and
 * the whole set twice, and compares the bytes.  A printer that changed the
 * model (relinked a list, moved a total, kept state in a symbol) shows up
 * as a difference.  Prints one PASS: or FAIL: line; exit status 1 on FAIL.
 */
#include <stdlib.h>
#include <string.h>

#include "pipeline.h"
#include "print/print.h"

struct capture {
	char *buf;
	size_t len;
};

static struct capture print_one(const struct gprof *g, report_fn fn)
{
	struct capture c = { NULL, 0 };
	FILE *f = open_memstream(&c.buf, &c.len);
	struct report r;

	if (!f) {
		perror("open_memstream");
		exit(2);
	}
	report_init(&r, f, false);
	fn(g, &r);
	report_free(&r);
	fclose(f);
	return c;
}

static struct capture print_all(const struct gprof *g)
{
	struct capture c = { NULL, 0 };
	FILE *f = open_memstream(&c.buf, &c.len);

	if (!f) {
		perror("open_memstream");
		exit(2);
	}
	gprof_print(g, f);
	fclose(f);
	return c;
}

static bool same(const struct capture *a, const struct capture *b)
{
	return a->len == b->len && memcmp(a->buf, b->buf, a->len) == 0;
}

static const char *args_text(int argc, char **argv)
{
	static char buf[1024];
	size_t n = 0;

	for (int i = 1; i < argc && n + 2 < sizeof buf; i++)
		n += (size_t)snprintf(buf + n, sizeof buf - n, "%s%s",
		                      i > 1 ? " " : "", argv[i]);
	return buf;
}

int main(int argc, char **argv)
{
	static struct gprof g;
	report_fn fns[GPROF_MAX_REPORTS];
	struct capture first[GPROF_MAX_REPORTS];
	const char *what = NULL;

	gprof_load(&g, argc, argv);
	gprof_analyse(&g);
	size_t n = gprof_reports(&g, fns);
	struct capture whole = print_all(&g);

	for (size_t i = 0; i < n; i++)
		first[i] = print_one(&g, fns[i]);
	for (size_t i = n; i-- > 0 && !what;) {
		struct capture again = print_one(&g, fns[i]);
		if (!same(&again, &first[i]))
			what = "a report printed again, in reverse order, differs";
		free(again.buf);
	}
	struct capture whole2 = print_all(&g);
	if (!what && !same(&whole, &whole2))
		what = "the reports printed a second time differ";
	if (what)
		printf("FAIL: print-twice [%s]: %s\n", args_text(argc, argv), what);
	else
		printf("PASS: print-twice [%s] (%zu reports)\n",
		       args_text(argc, argv), n);
	/* Freed, not left to exit: LeakSanitizer found them or not
	   depending on what stale copies of the pointers the stack held. */
	for (size_t i = 0; i < n; i++)
		free(first[i].buf);
	free(whole.buf);
	free(whole2.buf);
	return what != NULL;
}
