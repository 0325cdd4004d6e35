/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * folded_print.c - owns --output-format=folded: the call stacks as
 * "outer;...;leaf COUNT" lines, one per distinct stack (the paths to the
 * nodes of analysis' prefix tree that have samples of their own), the
 * input of flame-graph and other stack tools.
 *
 * Lines are sorted bytewise so that a profile always gives the same
 * document, whatever order its stacks were recorded or summed in.  The
 * lines are not made and sorted as strings (millions of them on a big
 * profile): the tree is walked in the order that sorting them would
 * give, each line written as it comes from a prefix kept in one buffer.
 * That order is not the children's name order.  Below a node whose line
 * is P, its own line is P, and each child C gives P;C (its own line)
 * and lines that start P;C; (those below it).  A child's two parts may
 * sort apart: with children "f1" and "f10", the order is P;f1, P;f10,
 * P;f10;..., P;f1;... (the digit 0 sorts before ';').  So each child is
 * two items to sort, its name ended by the end of the line or by ';',
 * and two nodes of one name (static functions in two files) are one
 * item, their lines summed, as a reader of the text could only do.
 */
#include <stdlib.h>
#include <string.h>

#include "print/print.h"

/* One item of a level: the line of `node` (end '\0') or the lines below
   it (end ';'); `name` is the frame as the lines show it. */
struct item {
	const char *name;
	size_t len;
	size_t node;
	char end;
	bool owned;                  /* name is a copy (escaped) to free */
};

struct walk {
	const struct gprof *g;
	struct report *r;
	struct item *items;          /* a stack: each level's items above
	                                its caller's */
	size_t nitems, cap;
	char *line;                  /* the current prefix */
	size_t line_cap;
};

/* A name as one frame of a line: ';' separates frames and a newline ends
   the line, so they cannot appear in one (C++ names may have spaces:
   readers take the count after the last space).  NULL when the name can
   be used as it is. */
static char *escaped(const char *name, size_t len)
{
	if (!memchr(name, ';', len) && !memchr(name, '\n', len) &&
	    !memchr(name, '\r', len))
		return NULL;
	char *e = xmalloc(len + 1);
	for (size_t i = 0; i < len; i++) {
		char c = name[i];
		e[i] = c == ';' ? ',' : c == '\n' || c == '\r' ? ' ' : c;
	}
	e[len] = '\0';
	return e;
}

static void push(struct walk *w, size_t node, char end)
{
	const struct stack_node *nd = &w->g->stack_nodes[node];
	if (w->nitems == w->cap) {
		w->cap = w->cap ? 2 * w->cap : 256;
		w->items = xrealloc(w->items, w->cap * sizeof *w->items);
	}
	struct item *it = &w->items[w->nitems++];
	size_t len;
	const char *name = nd->sym ? display_name_len(w->g, w->r, nd->sym, &len)
	                           : nd->label;
	if (!nd->sym)
		len = strlen(name);
	char *e = escaped(name, len);
	*it = (struct item){ .name = e ? e : name, .len = len, .node = node,
	                     .end = end, .owned = e != NULL };
}

/* Bytewise order of name + end ('\0' ends the string; names hold no
   ';', so a ';' end decides against any byte of a longer name). */
static int cmp_item(const void *pa, const void *pb)
{
	const struct item *a = pa, *b = pb;
	size_t n = a->len < b->len ? a->len : b->len;
	int c = memcmp(a->name, b->name, n);
	if (c)
		return c;
	unsigned char x = a->len > n ? (unsigned char)a->name[n]
	                             : (unsigned char)a->end;
	unsigned char y = b->len > n ? (unsigned char)b->name[n]
	                             : (unsigned char)b->end;
	if (x != y)
		return x < y ? -1 : 1;
	/* the same key: keep the nodes' order, for a stable document */
	return (a->node > b->node) - (a->node < b->node);
}

static bool same_key(const struct item *a, const struct item *b)
{
	return a->len == b->len && a->end == b->end &&
	       memcmp(a->name, b->name, a->len) == 0;
}

static void line_room(struct walk *w, size_t n)
{
	if (n <= w->line_cap)
		return;
	w->line_cap = 2 * n;
	w->line = xrealloc(w->line, w->line_cap);
}

/* The line prefix + name, with the samples of the group's nodes. */
static void write_line(struct walk *w, size_t plen, size_t first, size_t n)
{
	const struct item *it = &w->items[first];
	uint64_t c = 0;
	for (size_t i = 0; i < n; i++) {
		uint64_t s = w->g->stack_nodes[it[i].node].self;
		c = s > UINT64_MAX - c ? UINT64_MAX : c + s;
	}
	char num[24];
	size_t k = sizeof num;
	do
		num[--k] = (char)('0' + c % 10);
	while (c /= 10);
	num[--k] = ' ';
	struct outbuf *ob = &w->r->ob;
	ob_write(ob, w->line, plen);
	ob_write(ob, it->name, it->len);
	ob_write(ob, num + k, sizeof num - k);
	ob_putc(ob, '\n');
}

/* The lines below the nodes of items[first .. first+n-1] (one name), in
   bytewise order; the line buffer holds their prefix (plen bytes).  It
   recurses as deep as the stacks are (GMSL_MAX_DEPTH frames and a
   "[truncated]" at most). */
static void walk_group(struct walk *w, size_t first, size_t n, size_t plen)
{
	size_t base = w->nitems;
	for (size_t i = 0; i < n; i++) {
		const struct stack_node *v = w->g->stack_nodes;
		for (size_t c = v[w->items[first + i].node].first_child; c;
		     c = v[c].next) {
			if (v[c].self)
				push(w, c, '\0');
			if (v[c].first_child)
				push(w, c, ';');
		}
	}
	size_t top = w->nitems;
	qsort(w->items + base, top - base, sizeof *w->items, cmp_item);
	for (size_t i = base; i < top;) {
		size_t j = i + 1;
		while (j < top && same_key(&w->items[i], &w->items[j]))
			j++;
		const struct item *it = &w->items[i];
		if (it->end == '\0') {
			write_line(w, plen, i, j - i);
		} else {
			line_room(w, plen + it->len + 1);
			memcpy(w->line + plen, it->name, it->len);
			w->line[plen + it->len] = ';';
			walk_group(w, i, j - i, plen + it->len + 1);
		}
		i = j;
	}
	for (size_t i = base; i < top; i++)
		if (w->items[i].owned)
			free((char *)w->items[i].name);
	w->nitems = base;
}

void folded_print(const struct gprof *g, struct report *r)
{
	struct walk w = { .g = g, .r = r };
	push(&w, 0, ';');            /* the root: its frames start the lines */
	line_room(&w, 256);
	walk_group(&w, 0, 1, 0);
	ob_flush(&r->ob);
	if (w.items[0].owned)
		free((char *)w.items[0].name);
	free(w.items);
	free(w.line);
}
