/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * folded_print.c - owns --output-format=folded: the call stacks as
 * "outer;...;leaf COUNT" lines, one per distinct stack (the paths to the
 * nodes of analysis' prefix tree that have samples of their own), the
 * input of flame-graph and other stack tools.
 *
 * Lines are sorted bytewise so that a profile always gives the same
 * document, whatever order its stacks were recorded or summed in.
 */
#include <stdlib.h>
#include <string.h>

#include "print/print.h"

struct line {
	char *text;                  /* the frames, without the count */
	uint64_t count;
};

/* A name as one frame of a line: ';' separates frames and a newline ends
   the line, so they cannot appear in one (C++ names may have spaces:
   readers take the count after the last space). */
static void add_frame(struct strbuf *sb, const char *name)
{
	for (const char *p = name; *p; p++) {
		char c = *p == ';' ? ',' : *p == '\n' || *p == '\r' ? ' ' : *p;
		sb_add(sb, &c, 1);
	}
}

/* The frames from the root to node k, outermost first. */
static void path(const struct gprof *g, struct report *r, size_t k,
                 struct strbuf *sb)
{
	const struct stack_node *nd = &g->stack_nodes[k];
	if (nd->parent != 0) {
		path(g, r, nd->parent, sb);
		sb_add(sb, ";", 1);
	}
	add_frame(sb, nd->sym ? display_name(g, r, nd->sym) : nd->label);
}

static int cmp_line(const void *pa, const void *pb)
{
	const struct line *a = pa, *b = pb;
	return strcmp(a->text, b->text);
}

void folded_print(const struct gprof *g, struct report *r)
{
	struct line *v = xmalloc((g->nstack_nodes + 1) * sizeof *v);
	size_t n = 0;
	for (size_t k = 1; k < g->nstack_nodes; k++) {
		if (g->stack_nodes[k].self == 0)
			continue;
		struct strbuf sb = STRBUF_INIT;
		path(g, r, k, &sb);
		v[n].text = sb_detach(&sb);
		v[n++].count = g->stack_nodes[k].self;
	}
	qsort(v, n, sizeof *v, cmp_line);
	/* Two static functions of one name make two nodes of one line: the
	   line shows their sum, as a reader of the text could only do. */
	for (size_t i = 0; i < n;) {
		uint64_t c = 0;
		size_t j = i;
		for (; j < n && strcmp(v[j].text, v[i].text) == 0; j++)
			c = v[j].count > UINT64_MAX - c ? UINT64_MAX : c + v[j].count;
		fprintf(r->out, "%s %llu\n", v[i].text, (unsigned long long)c);
		i = j;
	}
	for (size_t i = 0; i < n; i++)
		free(v[i].text);
	free(v);
}
