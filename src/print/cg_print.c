/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * cg_print.c - the call-graph report (FSF and BSD layouts, with their
 * explanations), printed from the order cg_order.c computed; the index
 * by function name that follows it is cg_index.c's.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "print/print.h"

/* ---- explanations (printed unless -b) ---- */

static const char *const fsf_blurb[] = {
	"",
	" How to read the call graph above",
	"",
	" The graph has one entry per function, separated by rows of dashes.",
	" Within an entry, the line that starts with [N] is the function the",
	" entry is about.  The lines above it are its callers, the lines",
	" below it are the functions it calls.  Entries are sorted by the",
	" time spent in the function together with everything it calls.",
	"",
	" On the function's own line:",
	"     index     the entry's number; every mention of the function",
	"               elsewhere in the graph carries it too.",
	"     % time    share of the total run time spent in the function",
	"               and its callees.  Callers count their callees' time",
	"               again, so the column does not sum to 100.",
	"     self      seconds spent in the function's own code.",
	"     children  seconds spent in its callees on its behalf.",
	"     called    calls from other functions; a `+N' adds the calls",
	"               the function made to itself.",
	"     name      the function, with `<cycle N>' when it belongs to a",
	"               cycle of mutual recursion, then its index.",
	"",
	" On a caller's line:",
	"     self      the part of the function's own time charged to",
	"               this caller.",
	"     children  the part of the function's callee time charged to",
	"               this caller.",
	"     called    calls from this caller `/' all calls to the",
	"               function (not counting calls to itself).  Time is",
	"               split between callers in that proportion.",
	"     name      the caller and its index.",
	" A function whose callers are unknown (for example a signal",
	" handler, or one called from code built without -pg) shows",
	" `<spontaneous>' instead of callers.",
	"",
	" On a callee's line:",
	"     self      the part of the callee's own time charged to this",
	"               function.",
	"     children  the part of the callee's own callees' time charged",
	"               to this function.",
	"     called    calls made by this function `/' all calls to the",
	"               callee (not counting calls to itself).",
	"     name      the callee and its index.",
	"",
	" Functions that call each other in a loop form a cycle.  Time cannot",
	" be split inside a loop, so the cycle also gets an entry of its own,",
	" `<cycle N as a whole>': its callers are the calls into the cycle",
	" from outside, and it lists each member with its time and with the",
	" calls it received from other members.  Lines between two members",
	" of the same cycle (and a function's calls to itself) show only a",
	" call count.",
	"",
	" The index after the graph lists every function by name.  A number",
	" in parentheses instead of brackets marks a function whose entry",
	" was left out of the graph.",
	"",
	NULL
};

static const char *const bsd_blurb[] = {
	"",
	"",
	"",
	"call graph profile:",
	"          One entry per function, sorted by the time spent in the",
	"          function and in everything it calls.",
	"",
	"          the function's own line:",
	"",
	"index     the entry's number, repeated after each mention",
	"          of the function in the listing.",
	"%time     share of the total time spent in the function",
	"          and its descendants.",
	"self      seconds spent in the function itself.",
	"descendants",
	"          seconds spent in its descendants on its behalf.",
	"called    calls received, not counting recursive ones.",
	"self      calls the function made to itself.",
	"name      the function, its cycle if any, and its index.",
	"",
	"          lines above it, one per caller (parent):",
	"",
	"self      the part of the function's own time due to this",
	"          caller.",
	"descendants",
	"          the part of the function's descendant time due to",
	"          this caller.",
	"called    calls from this caller, over the total calls to",
	"          the function: the fraction that divides its time.",
	"parents   the caller, its cycle if any, and its index.",
	"",
	"          lines below it, one per callee (child):",
	"",
	"self      the part of the callee's own time due to this",
	"          function.",
	"descendants",
	"          the part of the callee's descendant time due to",
	"          this function.",
	"called    calls to this callee, over all calls it received.",
	"children  the callee, its cycle if any, and its index.",
	"",
	"          Callers and callees in the same cycle as the function",
	"          show only a call count; for a callee inside a cycle the",
	"          times are those of the whole cycle.  Calls found only by",
	"          reading the program's code (-c) have a count of 0.",
	"",
	"          cycle entries: a cycle of mutually recursive functions",
	"          is also listed as a whole, with the same fields as a",
	"          function, followed by its members and their shares.",
	"",
	NULL
};

/* --stacks: what the times mean when they come from the call stacks. */
static const char *const stacks_blurb[] = {
	" With --stacks, every time above is counted from the call stacks",
	" sampled with GMON_STACKS=1, not shared out by call counts:",
	"     self      on a function's own line, the samples whose stack",
	"               ends in the function (or in its own recursion).",
	"     children  the other samples with the function on the stack:",
	"               self + children is its inclusive time, each sample",
	"               counted once however deep the recursion.",
	"     caller    self and children of the samples whose stack has",
	"     lines     that caller calling the function, so a caller of",
	"               costly calls gets their cost, not an equal share.",
	"     callee    the same for the samples with this function calling",
	"     lines     the callee.",
	NULL
};

static const char *const counts_blurb[] = {
	" The call counts are still the exact counts of gmon.out.",
	"",
	NULL
};

/* --stacks of a program not built with -pg: no call was counted, and
   the counts are the stacks' (g->arcs_from_stacks). */
static const char *const samples_blurb[] = {
	" No call was counted (the program was not built with -pg): each",
	" \"called\" figure is stack samples, not calls.  On a caller or",
	" callee line, the samples whose stack has that call, over those",
	" with any call of the function; on a function's own line, the",
	" samples with a call of it.  Rebuild with -pg for call counts.",
	"",
	NULL
};

static void print_blurb(struct outbuf *ob, const char *const *lines)
{
	for (; *lines; lines++) {
		ob_puts(ob, *lines);
		ob_putc(ob, '\n');
	}
}

/* ---- the graph ---- */

/* Blank fields: the children column is 11 wide in the BSD layout. */
static int child_width(const struct gprof *g)
{
	return g->opt.bsd_style ? 11 : 7;
}

static void print_header(const struct gprof *g, struct report *r)
{
	struct outbuf *out = &r->ob;
	int cw = child_width(g);

	if (!g->opt.brief && g->opt.bsd_style)
		print_blurb(out, bsd_blurb);
	report_section(r);
	if (!g->opt.bsd_style)
		ob_puts(out, g->opt.brief ? "\t\t\tCall graph\n\n"
		             : "\t\t     Call graph (explanation follows)\n\n");
	/* --stacks: the one line that differs, so that nobody takes these
	   times for gprof's call-count estimates (the layout is GNU's). */
	if (g->arcs_from_stacks)
		ob_puts(out, "\ntimes and counts from sampled call stacks "
		             "(\"called\" is stack samples, not calls)");
	else if (g->stack_times)
		ob_puts(out, "\ntimes from sampled call stacks (each stack "
		             "counted once per function and call)");
	else
		ob_printf(out, "\ngranularity: each sample hit covers "
		          "%ld byte(s)", hist_granularity_bytes(g));
	if (g->print_time > 0.0) {
		ob_printf(out, " for %.2f%% of %.2f seconds\n\n",
		          100.0 / g->print_time_base, g->print_time / g->hz);
	} else {
		/* Every numerator is 0 then, and print_time_base is 1. */
		ob_puts(out, " no time propagated\n\n");
	}
	if (!g->opt.bsd_style) {
		ob_puts(out, "index % time    self  children    called     name\n");
		return;
	}
	ob_printf(out, "%6.6s %5.5s %7.7s %*.*s %7.7s/%-7.7s     %-8.8s\n",
	          "", "", "", cw, cw, "", "called", "total", "parents");
	ob_printf(out, "%-6.6s %5.5s %7.7s %11.11s %7.7s+%-7.7s %-8.8s\t%5.5s\n",
	          "index", "%time", "self", "descendants", "called", "self",
	          "name", "index");
	ob_printf(out, "%6.6s %5.5s %7.7s %*.*s %7.7s/%-7.7s     %-8.8s\n",
	          "", "", "", cw, cw, "", "called", "total", "children");
	ob_putc(out, '\n');
}

/* The "+M" of an "N+M" calls column, as "+%-7" PRIu64 prints it, or
   the 8 blanks of " %7.7s" without calls to itself. */
static int fmt_self_calls(char *buf, uint64_t self_calls)
{
	if (self_calls == 0) {
		memset(buf, ' ', 8);
		return 8;
	}
	buf[0] = '+';
	return 1 + fmt_uint(buf + 1, self_calls, 7, true);
}

/* A line's label and newline, after the n bytes at buf: the end of r->ob,
   where ob_room() gave room for LABEL_INLINE + 1 bytes more.  An inline
   label is copied whole, all LABEL_INLINE bytes at once (a few stores,
   not a call), and what lies past its end is written over later. */
static void end_line(struct report *r, char *buf, int n,
                     const struct sym_label *l)
{
	if (l->len > LABEL_INLINE) {
		r->ob.len += (size_t)n;
		ob_write(&r->ob, l->u.heap, l->len);
		ob_putc(&r->ob, '\n');
		return;
	}
	memcpy(buf + n, l->u.text, LABEL_INLINE);
	buf[n + (int)l->len] = '\n';
	r->ob.len += (size_t)n + l->len + 1;
}

/* An entry's index column, "[N]" as "%-6.6s" prints it: cut to 6
   characters, then padded to 6. */
static int fmt_index_col(char *buf, int index)
{
	char idx[40];
	int n;

	if (index >= 0) {
		idx[0] = '[';
		n = 1 + fmt_uint(idx + 1, (uint64_t)index, 0, false);
		idx[n++] = ']';
	} else {
		n = snprintf(idx, sizeof idx, "[%d]", index);
	}
	if (n > 6)
		n = 6;
	memcpy(buf, idx, (size_t)n);
	memset(buf + n, ' ', (size_t)(6 - n));
	return 6;
}

/* The columns every entry's own line starts with, as
   "%-6.6s %5.1f %7.2f %*.2f" prints them (buf: 4 * FMT_BUF). */
static int fmt_entry_times(const struct gprof *g, char *buf,
                           const struct sym *s)
{
	int n = fmt_index_col(buf, s->index);

	buf[n++] = ' ';
	n += fmt_fixed(buf + n, 100 * (s->prop_self + s->prop_child) /
	               g->print_time_base, 5, 1);
	buf[n++] = ' ';
	n += fmt_fixed(buf + n, s->prop_self / g->hz, 7, 2);
	buf[n++] = ' ';
	n += fmt_fixed(buf + n, s->prop_child / g->hz, child_width(g), 2);
	return n;
}

static void print_cycle_line(const struct gprof *g, struct outbuf *out,
                             const struct sym *cyc)
{
	char *buf = ob_room(out, 5 * FMT_BUF);
	int n = fmt_entry_times(g, buf, cyc);

	buf[n++] = ' ';
	n += fmt_uint(buf + n, cyc->ncalls, 7, false);
	n += fmt_self_calls(buf + n, cyc->self_calls);
	out->len += (size_t)n;
	ob_printf(out, " <cycle %d as a whole> [%d]\n", cyc->cycle_num,
	          cyc->index);
}

/* A big cycle's members lie all over memory, one after the other in a
   list: while a member's line is made, the next one's memory comes. */
static void prefetch_member(const struct gprof *g, const struct report *r,
                            const struct sym *m)
{
	if (!m)
		return;
	__builtin_prefetch(&m->ncalls);
	__builtin_prefetch(&m->prop_self);
	__builtin_prefetch(&m->cyc_next);
	report_prefetch_name(g, r, m);
}

static void print_members(const struct gprof *g, struct report *r,
                          const struct sym *cyc)
{
	for (const struct sym *m = cyc->cyc_next; m; m = m->cyc_next) {
		prefetch_member(g, r, m->cyc_next);
		/* by hand, as "%6.6s %5.5s %7.2f %*.2f %7" PRIu64 would */
		char *buf = ob_room(&r->ob, 4 * FMT_BUF);
		int n = 13;

		memset(buf, ' ', 13);
		n += fmt_fixed(buf + n, m->prop_self / g->hz, 7, 2);
		buf[n++] = ' ';
		n += fmt_fixed(buf + n, m->prop_child / g->hz, child_width(g), 2);
		buf[n++] = ' ';
		n += fmt_uint(buf + n, m->ncalls, 7, false);
		n += fmt_self_calls(buf + n, m->self_calls);
		memset(buf + n, ' ', 5);
		end_line(r, buf, n + 5, report_label(g, r, m));
	}
}

/* One caller or callee line.  `other` is the label of the symbol named
   on the line, `total` the calls that `count` is a share of. */
static void print_arc_line(const struct gprof *g, struct report *r,
                           const struct arc *a, const struct sym_label *other,
                           bool count_only, uint64_t total)
{
	int cw = child_width(g);

	/* Formatted by hand, as the fprintf formats
	   "%6.6s %5.5s %7.7s %*.*s %7" PRIu64 " %7.7s     " (count only) and
	   "%6.6s %5.5s %7.2f %*.2f %7" PRIu64 "/%-7" PRIu64 "     " would:
	   printf is most of the time of a big call graph. */
	char *buf = ob_room(&r->ob, 4 * FMT_BUF);
	int n = 13;

	memset(buf, ' ', 13);
	if (count_only) {
		memset(buf + n, ' ', 9 + (size_t)cw);
		n += 9 + cw;
		n += fmt_uint(buf + n, a->count, 7, false);
		memset(buf + n, ' ', 13);
		n += 13;
	} else {
		n += fmt_fixed(buf + n, a->time / g->hz, 7, 2);
		buf[n++] = ' ';
		n += fmt_fixed(buf + n, a->child_time / g->hz, cw, 2);
		buf[n++] = ' ';
		n += fmt_uint(buf + n, a->count, 7, false);
		buf[n++] = '/';
		n += fmt_uint(buf + n, total, 7, true);
		memset(buf + n, ' ', 5);
		n += 5;
	}
	end_line(r, buf, n, other);
}

/* The arcs of a ranked list lie all over memory, and so do the labels
   of the symbols they name: waiting for them was most of the printing's
   time.  Each line asks for the arc 8 lines ahead, and for the label
   of the symbol 4 lines ahead (whose arc is in cache by then). */
#define AHEAD 8

static size_t list_len(struct arc *const *ap)
{
	size_t n = 0;

	while (ap[n])
		n++;
	return n;
}

static const struct sym *other_end(const struct arc *a, bool parents)
{
	return parents ? a->parent : a->child;
}

static void prefetch_ahead(const struct gprof *g, const struct report *r,
                           struct arc *const *ap, size_t i, size_t n,
                           bool parents)
{
	if (i + AHEAD < n)
		__builtin_prefetch(ap[i + AHEAD]);
	if (i + AHEAD / 2 < n)
		report_prefetch_name(g, r, other_end(ap[i + AHEAD / 2], parents));
}

/* Lists are short (ten lines or so), too short for prefetching within
   one to get ahead: the entries to come are prepared in stages instead,
   one entry apart (an entry takes long enough for its memory to come).
   Stage 3: the entry's symbol; 2: its two ranked lists; 1: their arcs;
   0: the labels of the symbols the arcs name.  At most PREP_MAX lines
   per list. */
#define PREP_MAX 32

static void prepare_list(const struct gprof *g, const struct report *r,
                         struct arc *const *ap, bool parents, int stage)
{
	if (!ap)
		return;              /* a cycle's entry */
	if (stage == 2) {
		__builtin_prefetch(ap);
		__builtin_prefetch(ap + 8);
		return;
	}
	for (size_t k = 0; k < PREP_MAX && ap[k]; k++) {
		if (stage == 1)
			__builtin_prefetch(ap[k]);
		else
			report_prefetch_name(g, r, other_end(ap[k], parents));
	}
}

static void prepare_entry(const struct gprof *g, const struct report *r,
                          size_t i, int stage)
{
	if (i >= g->nentries)
		return;
	const struct sym *s = g->entries[i];

	if (stage == 3) {
		/* the entry's own line reads it from end to end */
		for (size_t at = 0; at < sizeof *s; at += 64)
			__builtin_prefetch((const char *)s + at);
		__builtin_prefetch((const char *)s + sizeof *s - 1);
		return;
	}
	prepare_list(g, r, s->by_rank_parents, true, stage);
	prepare_list(g, r, s->by_rank_children, false, stage);
}

/* The caller lines (parents) or callee lines of `s`.  A line's count is
   a share of the calls into the callee's cycle as a whole, if any. */
static void print_ranked(const struct gprof *g, struct report *r,
                         const struct sym *s, bool parents)
{
	struct arc *const *ap = parents ? s->by_rank_parents
	                                : s->by_rank_children;
	size_t n = list_len(ap);

	for (size_t i = 0; i < n; i++) {
		prefetch_ahead(g, r, ap, i, n, parents);
		const struct sym *o = other_end(ap[i], parents);
		const struct sym_label *l = report_label(g, r, o);
		bool same_cycle = l->cycle_num != 0 &&
		                  l->cycle_num == s->cycle_num;

		print_arc_line(g, r, ap[i], l, o == s || same_cycle,
		               parents ? s->cyc_head->ncalls : l->cycle_calls);
	}
}

static void print_parents(const struct gprof *g, struct report *r,
                          const struct sym *child)
{
	if (!child->parents) {
		int cw = child_width(g);

		ob_printf(&r->ob, "%6.6s %5.5s %7.7s %*.*s %7.7s %7.7s     "
		          "<spontaneous>\n", "", "", "", cw, cw, "", "", "");
		return;
	}
	print_ranked(g, r, child, true);
}

static void print_primary(const struct gprof *g, struct report *r,
                          const struct sym *s)
{
	/* by hand, as "%-6.6s %5.1f %7.2f %*.2f" then " %7" PRIu64 and
	   "+%-7" PRIu64 " " or " %7.7s " would */
	char *buf = ob_room(&r->ob, 5 * FMT_BUF);
	int n = fmt_entry_times(g, buf, s);

	if (s->ncalls + s->self_calls != 0) {
		buf[n++] = ' ';
		n += fmt_uint(buf + n, s->ncalls, 7, false);
		n += fmt_self_calls(buf + n, s->self_calls);
		buf[n++] = ' ';
	} else {
		memset(buf + n, ' ', 17);
		n += 17;
	}
	end_line(r, buf, n, report_label(g, r, s));
}

void cg_print(const struct gprof *g, struct report *r)
{
	struct outbuf *out = &r->ob;

	print_header(g, r);
	for (size_t i = 0; i < g->nentries; i++) {
		const struct sym *s = g->entries[i];

		for (int stage = 3; stage >= 0; stage--)
			prepare_entry(g, r, i + 1 + (size_t)stage, stage);
		if (!cg_entry_shown(g, s))
			continue;
		if (!s->name && s->cycle_num != 0) {
			print_cycle_line(g, out, s);
			print_members(g, r, s);
		} else {
			print_parents(g, r, s);
			print_primary(g, r, s);
			print_ranked(g, r, s, false);
		}
		if (g->opt.bsd_style)
			ob_putc(out, '\n');
		ob_puts(out, "-----------------------------------------------\n");
		if (g->opt.bsd_style)
			ob_putc(out, '\n');
	}
	if (!g->opt.brief && !g->opt.bsd_style)
		print_blurb(out, fsf_blurb);
	if (!g->opt.brief && g->stack_times)
	{
		print_blurb(out, stacks_blurb);
		print_blurb(out, g->arcs_from_stacks ? samples_blurb
		                                     : counts_blurb);
	}
	ob_flush(out);
}
