/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * cg_print.c - the call-graph reports.
 *
 * Owns the printed call graph (FSF and BSD layouts, with their
 * explanations), the index by function name, and the two link-order
 * suggestions: -r (functions ordered by their arcs) and -R (object files
 * ordered likewise).  Caller and callee lines are ordered with the same
 * results as GNU gprof's insertion sorts, but by an O(k log k) stable
 * sort: GNU inserts each arc of the newest-first list before the first
 * equal one, so equal arcs end up oldest first, which is exactly a
 * stable sort of the reversed list.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "gprof.h"

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

static void print_blurb(FILE *out, const char *const *lines)
{
	for (; *lines; lines++) {
		fputs(*lines, out);
		fputc('\n', out);
	}
}

/* ---- the graph ---- */

static bool in_same_cycle(const struct sym *a, const struct sym *b)
{
	return a->cycle_num != 0 && a->cycle_num == b->cycle_num;
}

/* Arcs order as GNU ranks them: a self-call lowest, then calls within a
   cycle (by count), then ordinary arcs by propagated time, then count. */
static int arc_rank(const struct arc *a)
{
	if (a->parent == a->child)
		return 0;
	return in_same_cycle(a->parent, a->child) ? 1 : 2;
}

struct arc_key {
	int rank;
	double time;
	uint64_t count;
	struct arc *arc;
};

/* The sort key of an arc, computed once per arc: the comparisons then
   read one array instead of an arc and two symbols each. */
static int cmp_key(const struct arc_key *l, const struct arc_key *r)
{
	if (l->rank != r->rank)
		return l->rank < r->rank ? -1 : 1;
	if (l->rank == 2 && l->time != r->time)
		return l->time < r->time ? -1 : 1;
	if (l->count != r->count)
		return l->count < r->count ? -1 : 1;
	return 0;
}

static int cmp_key_up(const void *pa, const void *pb, void *ctx)
{
	(void)ctx;
	return cmp_key(*(struct arc_key *const *)pa, *(struct arc_key *const *)pb);
}

static int cmp_key_down(const void *pa, const void *pb, void *ctx)
{
	(void)ctx;
	return cmp_key(*(struct arc_key *const *)pb, *(struct arc_key *const *)pa);
}

static void sort_arc_list(struct arc **head, bool parents)
{
	size_t n = 0;

	for (struct arc *a = *head; a; a = parents ? a->next_parent
	                                           : a->next_child)
		n++;
	if (n < 2)
		return;
	struct arc_key *k = xmalloc(n * sizeof *k);
	struct arc_key **v = xmalloc(n * sizeof *v);
	size_t i = n;

	for (struct arc *a = *head; a; a = parents ? a->next_parent
	                                           : a->next_child) {
		--i;
		k[i].rank = arc_rank(a);
		k[i].time = a->time + a->child_time;
		k[i].count = a->count;
		k[i].arc = a;
		v[i] = &k[i];
	}
	stable_sort(v, n, sizeof *v, parents ? cmp_key_up : cmp_key_down,
	            NULL);
	for (i = 0; i < n; i++) {
		struct arc *next = i + 1 < n ? v[i + 1]->arc : NULL;

		if (parents)
			v[i]->arc->next_parent = next;
		else
			v[i]->arc->next_child = next;
	}
	*head = v[0]->arc;
	free(v);
	free(k);
}

/* Blank fields: the children column is 11 wide in the BSD layout. */
static int child_width(const struct gprof *g)
{
	return g->opt.bsd_style ? 11 : 7;
}

static void print_header(struct gprof *g, FILE *out)
{
	int cw = child_width(g);

	if (!g->opt.brief && g->opt.bsd_style)
		print_blurb(out, bsd_blurb);
	section_break(g, out);
	if (!g->opt.bsd_style)
		fputs(g->opt.brief ? "\t\t\tCall graph\n\n"
		                   : "\t\t     Call graph (explanation follows)\n\n",
		      out);
	fprintf(out, "\ngranularity: each sample hit covers %ld byte(s)",
	        hist_granularity_bytes(g));
	if (g->print_time > 0.0) {
		fprintf(out, " for %.2f%% of %.2f seconds\n\n",
		        100.0 / g->print_time, g->print_time / g->hz);
	} else {
		fputs(" no time propagated\n\n", out);
		/* Every numerator is 0 then; this keeps percentages at 0. */
		g->print_time = 1.0;
	}
	if (!g->opt.bsd_style) {
		fputs("index % time    self  children    called     name\n", out);
		return;
	}
	fprintf(out, "%6.6s %5.5s %7.7s %*.*s %7.7s/%-7.7s     %-8.8s\n", "", "",
	        "", cw, cw, "", "called", "total", "parents");
	fprintf(out, "%-6.6s %5.5s %7.7s %11.11s %7.7s+%-7.7s %-8.8s\t%5.5s\n",
	        "index", "%time", "self", "descendants", "called", "self",
	        "name", "index");
	fprintf(out, "%6.6s %5.5s %7.7s %*.*s %7.7s/%-7.7s     %-8.8s\n", "", "",
	        "", cw, cw, "", "called", "total", "children");
	fputc('\n', out);
}

/* The "N" or "N+M" calls column of primary and member lines. */
static void print_self_calls(FILE *out, uint64_t self_calls)
{
	if (self_calls != 0)
		fprintf(out, "+%-7" PRIu64, self_calls);
	else
		fprintf(out, " %7.7s", "");
}

static void print_cycle_line(struct gprof *g, FILE *out, struct sym *cyc)
{
	char idx[32];

	snprintf(idx, sizeof idx, "[%d]", cyc->index);
	fprintf(out, "%-6.6s %5.1f %7.2f %*.2f %7" PRIu64, idx,
	        100 * (cyc->prop_self + cyc->prop_child) / g->print_time,
	        cyc->prop_self / g->hz, child_width(g), cyc->prop_child / g->hz,
	        cyc->ncalls);
	print_self_calls(out, cyc->self_calls);
	fprintf(out, " <cycle %d as a whole> [%d]\n", cyc->cycle_num,
	        cyc->index);
}

static int cmp_member(const void *pa, const void *pb, void *ctx)
{
	const struct sym *a = *(struct sym *const *)pa;
	const struct sym *b = *(struct sym *const *)pb;
	double at = a->prop_self + a->prop_child;
	double bt = b->prop_self + b->prop_child;
	uint64_t ac = a->ncalls + a->self_calls, bc = b->ncalls + b->self_calls;

	(void)ctx;
	if (at != bt)
		return at > bt ? -1 : 1;
	if (ac != bc)
		return ac > bc ? -1 : 1;
	return 0;
}

/* Members by total time, then calls, both descending; ties keep the
   cycle-list order.  The list is relinked in that order. */
static void sort_members(struct sym *cyc)
{
	size_t n = 0;

	for (struct sym *m = cyc->cyc_next; m; m = m->cyc_next)
		n++;
	if (n < 2)
		return;
	struct sym **v = xmalloc(n * sizeof *v);
	size_t i = 0;

	for (struct sym *m = cyc->cyc_next; m; m = m->cyc_next)
		v[i++] = m;
	stable_sort(v, n, sizeof *v, cmp_member, NULL);
	cyc->cyc_next = v[0];
	for (i = 0; i < n; i++)
		v[i]->cyc_next = i + 1 < n ? v[i + 1] : NULL;
	free(v);
}

static void print_members(struct gprof *g, FILE *out, struct sym *cyc)
{
	sort_members(cyc);
	for (struct sym *m = cyc->cyc_next; m; m = m->cyc_next) {
		/* by hand, as "%6.6s %5.5s %7.2f %*.2f %7" PRIu64 would */
		char buf[3 * FMT_BUF];
		int n = 13;

		memset(buf, ' ', 13);
		n += fmt_fixed(buf + n, m->prop_self / g->hz, 7, 2);
		buf[n++] = ' ';
		n += fmt_fixed(buf + n, m->prop_child / g->hz, child_width(g), 2);
		buf[n++] = ' ';
		n += fmt_uint(buf + n, m->ncalls, 7, false);
		fwrite(buf, 1, (size_t)n, out);
		print_self_calls(out, m->self_calls);
		fputs("     ", out);
		print_sym_name(g, out, m);
		fputc('\n', out);
	}
}

/* One caller or callee line.  `other` is the symbol named on the line,
   `total` the calls that `count` is a share of. */
static void print_arc_line(struct gprof *g, FILE *out, const struct arc *a,
                           const struct sym *other, bool count_only,
                           uint64_t total)
{
	int cw = child_width(g);

	/* Formatted by hand, as the fprintf formats
	   "%6.6s %5.5s %7.7s %*.*s %7" PRIu64 " %7.7s     " (count only) and
	   "%6.6s %5.5s %7.2f %*.2f %7" PRIu64 "/%-7" PRIu64 "     " would:
	   printf is most of the time of a big call graph. */
	char buf[3 * FMT_BUF];
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
	fwrite(buf, 1, (size_t)n, out);
	print_sym_name(g, out, other);
	fputc('\n', out);
}

static void print_parents(struct gprof *g, FILE *out, struct sym *child)
{
	if (!child->parents) {
		int cw = child_width(g);

		fprintf(out, "%6.6s %5.5s %7.7s %*.*s %7.7s %7.7s     "
		        "<spontaneous>\n", "", "", "", cw, cw, "", "", "");
		return;
	}
	sort_arc_list(&child->parents, true);
	/* Shares of a cycle member's calls are shares of the whole cycle's. */
	uint64_t total = child->cyc_head->ncalls;

	for (struct arc *a = child->parents; a; a = a->next_parent) {
		struct sym *p = a->parent;

		print_arc_line(g, out, a, p,
		               p == child || in_same_cycle(p, child), total);
	}
}

static void print_children(struct gprof *g, FILE *out, struct sym *parent)
{
	sort_arc_list(&parent->children, false);
	for (struct arc *a = parent->children; a; a = a->next_child) {
		struct sym *c = a->child;

		print_arc_line(g, out, a, c,
		               c == parent || in_same_cycle(c, parent),
		               c->cyc_head->ncalls);
	}
}

static void print_primary(struct gprof *g, FILE *out, struct sym *s)
{
	char idx[32];

	snprintf(idx, sizeof idx, "[%d]", s->index);
	fprintf(out, "%-6.6s %5.1f %7.2f %*.2f", idx,
	        100 * (s->prop_self + s->prop_child) / g->print_time,
	        s->prop_self / g->hz, child_width(g), s->prop_child / g->hz);
	if (s->ncalls + s->self_calls != 0) {
		fprintf(out, " %7" PRIu64, s->ncalls);
		if (s->self_calls != 0)
			fprintf(out, "+%-7" PRIu64 " ", s->self_calls);
		else
			fprintf(out, " %7.7s ", "");
	} else {
		fprintf(out, " %7.7s %7.7s ", "", "");
	}
	print_sym_name(g, out, s);
	fputc('\n', out);
}

/* GNU hides an entry with nothing at all to show (unless -z), entries
   the symspecs leave unprintable, and with -l everything that is not a
   function (cycle-as-a-whole entries included). */
static bool entry_shown(const struct gprof *g, const struct sym *s)
{
	if (g->opt.ignore_zeros && s->ncalls == 0 && s->self_calls == 0 &&
	    s->prop_self == 0 && s->prop_child == 0)
		return false;
	if (!s->print_flag)
		return false;
	return !(g->opt.line_gran && !s->is_func);
}

void cg_print(struct gprof *g, FILE *out, struct sym **order, size_t n)
{
	print_header(g, out);
	for (size_t i = 0; i < n; i++) {
		struct sym *s = order[i];

		if (!entry_shown(g, s))
			continue;
		if (!s->name && s->cycle_num != 0) {
			print_cycle_line(g, out, s);
			print_members(g, out, s);
		} else {
			print_parents(g, out, s);
			print_primary(g, out, s);
			print_children(g, out, s);
		}
		if (g->opt.bsd_style)
			fputc('\n', out);
		fputs("-----------------------------------------------\n", out);
		if (g->opt.bsd_style)
			fputc('\n', out);
	}
	if (!g->opt.brief && !g->opt.bsd_style)
		print_blurb(out, fsf_blurb);
}

/* ---- index by function name ---- */

static int cmp_name(const void *pa, const void *pb, void *ctx)
{
	(void)ctx;
	return strcmp((*(struct sym *const *)pa)->name,
	              (*(struct sym *const *)pb)->name);
}

/* FSF layout: each column starts at a multiple of the column width; the
   bracket is right-aligned to 5 past the column start and names are not
   truncated (a long one pushes the rest of the row right). */
static void index_entry_fsf(struct gprof *g, FILE *out, struct sym *s,
                            const char *idx, int *col, int start)
{
	*col += (int)strlen(idx);
	for (; *col < start + 5; ++*col)
		fputc(' ', out);
	fprintf(out, " %s ", idx);
	if (!s->name) {
		int len = fprintf(out, "<cycle %d>", s->cycle_num);

		*col += len;
		return;
	}
	const char *name = display_name(g, s);

	fputs(name, out);
	*col += (int)strlen(name);
	if (g->opt.line_gran || !s->is_static)
		return;
	sym_lookup_file(g, s);
	if (s->file) {
		const char *f = file_display(g, s->file);

		fprintf(out, " (%s)", f);
		*col += (int)strlen(f) + 3;
	}
}

static void index_entry_bsd(FILE *out, const struct sym *s, const char *idx)
{
	char cyc[32];
	const char *name = s->name;

	if (!name) {
		snprintf(cyc, sizeof cyc, "<cycle %d>", s->cycle_num);
		name = cyc;
	}
	fprintf(out, "%6.6s %-19.19s", idx, name);
}

void cg_print_index(struct gprof *g, FILE *out)
{
	size_t total = g->syms.len + (size_t)g->ncycles, n = 0;
	struct sym **v = xmalloc((total ? total : 1) * sizeof *v);
	int width = (g->opt.width - 1) / 3;

	for (size_t i = 0; i < g->syms.len; i++) {
		struct sym *s = &g->syms.base[i];

		if (g->opt.ignore_zeros && s->ncalls == 0 && s->hist_time == 0)
			continue;
		v[n++] = s;
	}
	stable_sort(v, n, sizeof *v, cmp_name, NULL);
	for (int i = 0; i < g->ncycles; i++)
		v[n++] = &g->cycles[i];

	fputs("\f\nIndex by function name\n\n", out);
	size_t rows = (n + 2) / 3;

	for (size_t r = 0; r < rows; r++) {
		int col = 0, start = 0;

		for (size_t j = r; j < n; j += rows) {
			struct sym *s = v[j];
			char idx[32];

			snprintf(idx, sizeof idx, s->print_flag ? "[%d]" : "(%d)",
			         s->index);
			if (g->opt.bsd_style)
				index_entry_bsd(out, s, idx);
			else
				index_entry_fsf(g, out, s, idx, &col, start);
			start += width;
		}
		fputc('\n', out);
	}
	free(v);
}

/* ---- -r and -R: link orders from the arcs ---- */

/* Functions are strung into chains (prev_ord/next_ord) that only ever
   grow at their ends, one unattached function at a time.  GNU walks a
   chain to find its ends and the distance to them; a chain record with
   positions answers both in O(1). */
struct ord_chain {
	struct sym *first, *last;
	struct ord_chain *all_next;  /* every chain, for freeing */
};

struct arc_vec {
	struct arc **v;
	size_t n, cap;
};

struct ordering {
	struct gprof *g;
	FILE *out;
	struct ord_chain *chains;
	struct arc_vec unplaced, scratch;
};

static void arc_vec_push(struct arc_vec *av, struct arc *a)
{
	if (av->n == av->cap) {
		av->cap = av->cap ? av->cap * 2 : 64;
		av->v = xrealloc(av->v, av->cap * sizeof *av->v);
	}
	av->v[av->n++] = a;
}

static bool attached(const struct sym *s)
{
	return s->prev_ord || s->next_ord;
}

static struct sym *chain_start(struct sym *s)
{
	return attached(s) ? s->ord_chain->first : s;
}

/* Link `before` directly ahead of `after`; one of them (or both) is
   unattached, the other is the matching end of its chain. */
static void ord_link(struct ordering *o, struct sym *before, struct sym *after)
{
	if (!attached(before) && !attached(after)) {
		struct ord_chain *c = xcalloc(1, sizeof *c);

		c->all_next = o->chains;
		o->chains = c;
		c->first = before;
		c->last = after;
		before->ord_chain = after->ord_chain = c;
		before->ord_pos = 0;
		after->ord_pos = 1;
	} else if (!attached(after)) {
		after->ord_chain = before->ord_chain;
		after->ord_pos = before->ord_pos + 1;
		after->ord_chain->last = after;
	} else {
		before->ord_chain = after->ord_chain;
		before->ord_pos = after->ord_pos - 1;
		before->ord_chain->first = before;
	}
	before->next_ord = after;
	after->prev_ord = before;
}

/* The end of `s`'s chain nearer to `s`; a tie goes to `tie_first`'s end. */
static struct sym *nearer_end(struct sym *s, bool tie_first)
{
	if (!attached(s))
		return s;
	long to_first = s->ord_pos - s->ord_chain->first->ord_pos;
	long to_last = s->ord_chain->last->ord_pos - s->ord_pos;

	if (to_first == to_last)
		return tie_first ? s->ord_chain->first : s->ord_chain->last;
	return to_first < to_last ? s->ord_chain->first : s->ord_chain->last;
}

/* The far end reached by walking from `s` the way GNU walks: along next
   links if there are any, else along prev links. */
static struct sym *walk_end(struct sym *s)
{
	if (s->next_ord)
		return s->ord_chain->last;
	if (s->prev_ord)
		return s->ord_chain->first;
	return s;
}

/* Try to join the two ends of arc `a`; false when it cannot be done now. */
static bool place_arc(struct ordering *o, struct arc *a)
{
	struct sym *parent = a->parent, *child = a->child;

	if (parent->next_ord && parent->prev_ord && child->next_ord &&
	    child->prev_ord)
		return false;
	if (!attached(parent)) {
		/* Toward the nearer end of the child's chain; tie: its start. */
		child = nearer_end(child, true);
	} else if (!attached(child)) {
		/* Toward the nearer end of the parent's chain; tie: its end. */
		parent = nearer_end(parent, false);
	} else {
		return false;
	}
	/* Never close a chain into a ring. */
	if (walk_end(parent) == child && walk_end(child) == parent)
		return false;
	if (parent->next_ord) {
		if (child->next_ord)
			return true;
		ord_link(o, child, parent);
	} else if (parent->prev_ord) {
		if (child->prev_ord)
			return true;
		ord_link(o, parent, child);
	} else if (child->prev_ord) {
		ord_link(o, child, parent);
	} else {
		ord_link(o, parent, child);
	}
	a->placed = true;
	return true;
}

static void print_raw(struct ordering *o, struct sym *s)
{
	fprintf(o->out, "%s\n", s->name);
}

/* Print each chain that an arc with both ends unplaced leads to; with
   `all`, then the callers of the arcs still left over. */
static void dump_chains(struct ordering *o, struct arc **arcs, size_t n,
                        bool all)
{
	for (size_t i = 0; i < n; i++) {
		struct sym *s = arcs[i]->parent;

		if (s->placed || arcs[i]->child->placed || !attached(s))
			continue;
		for (s = chain_start(s); s; s = s->next_ord) {
			s->placed = true;
			print_raw(o, s);
		}
	}
	if (!all)
		return;
	for (size_t i = 0; i < n; i++) {
		struct sym *s = arcs[i]->parent;

		if (s->placed || arcs[i]->child->placed)
			continue;
		s->placed = true;
		print_raw(o, s);
	}
}

/* GNU's placement pass over `arcs` (in the given order).  Without `all`
   only the arcs making up the first 99 % of the calls are used.  Arcs not
   used go to o->unplaced (or `spill`). */
static void order_by_arcs(struct ordering *o, struct arc **arcs, size_t n,
                          bool all, struct arc_vec *spill)
{
	unsigned long long total = 0, sum = 0;

	if (!all)
		for (size_t i = 0; i < n; i++)
			total += arcs[i]->count;
	for (size_t i = 0; i < n; i++) {
		struct arc *a = arcs[i];

		sum += a->count;
		if (a->placed)
			continue;
		if ((!all && (double)sum / (double)total > 0.99) ||
		    a->child->placed || a->parent->placed || !place_arc(o, a))
			arc_vec_push(spill, a);
	}
	dump_chains(o, arcs, n, all);
}

static int cmp_arc_count(const void *pa, const void *pb, void *ctx)
{
	const struct arc *a = *(struct arc *const *)pa;
	const struct arc *b = *(struct arc *const *)pb;

	(void)ctx;
	if (a->count != b->count)
		return a->count > b->count ? -1 : 1;
	return 0;
}

static int cmp_nuses(const void *pa, const void *pb, void *ctx)
{
	const struct sym *a = *(struct sym *const *)pa;
	const struct sym *b = *(struct sym *const *)pb;

	(void)ctx;
	if (a->nuses != b->nuses)
		return a->nuses > b->nuses ? -1 : 1;
	return 0;
}

static void ordering_free(struct ordering *o)
{
	while (o->chains) {
		struct ord_chain *next = o->chains->all_next;

		free(o->chains);
		o->chains = next;
	}
	free(o->unplaced.v);
	free(o->scratch.v);
}

/* Count, for each callee, how many of the busiest arcs (those making up
   90 % of all calls) lead to it. */
static void count_uses(struct gprof *g)
{
	unsigned long long total = 0, sum = 0;

	for (size_t i = 0; i < g->narcs_global; i++) {
		total += g->arcs[i]->count;
		g->arcs[i]->placed = false;
	}
	for (size_t i = 0; i < g->narcs_global; i++) {
		sum += g->arcs[i]->count;
		if ((double)sum / (double)total > 0.90)
			break;
		g->arcs[i]->child->nuses++;
	}
}

static void collect_arcs(struct arc_vec *av, struct sym *s)
{
	for (struct arc *a = s->children; a; a = a->next_child) {
		if (a->parent != a->child)
			arc_vec_push(av, a);
		a->placed = true;
	}
	for (struct arc *a = s->parents; a; a = a->next_parent) {
		if (a->parent != a->child)
			arc_vec_push(av, a);
		a->placed = true;
	}
}

/* The functions used by the most busy arcs are emitted first, as a
   group (GNU takes at most 1/80 of the called functions, stopping at one
   used exactly five times, and prints one fewer than it took); the arcs
   between them are placed first.  Returns those arcs. */
static void high_use_group(struct ordering *o, struct sym **used, size_t nused,
                           struct arc_vec *high)
{
	struct sym **by_uses = xmalloc((nused ? nused : 1) * sizeof *by_uses);
	size_t last = 0;

	memcpy(by_uses, used, nused * sizeof *by_uses);
	stable_sort(by_uses, nused, sizeof *by_uses, cmp_nuses, NULL);
	for (size_t i = 0; i < nused / 80; i++) {
		struct sym *s = by_uses[i];

		if (s->nuses == 5)
			break;
		collect_arcs(&o->scratch, s);
		last = i;
		s->placed = true;
	}
	for (size_t i = 0; i < o->scratch.n; i++) {
		struct arc *a = o->scratch.v[i];

		if (a->child->placed && a->parent->placed) {
			arc_vec_push(high, a);
			a->child->placed = false;
			a->parent->placed = false;
		}
	}
	for (size_t i = 0; i < last; i++)
		if (by_uses[i]->placed)
			print_raw(o, by_uses[i]);
	free(by_uses);
}

void cg_print_function_ordering(struct gprof *g, FILE *out)
{
	struct ordering o = { .g = g, .out = out };
	struct symtab *st = &g->syms;
	struct sym **used = xmalloc((st->len ? st->len : 1) * sizeof *used);
	struct sym **unused = xmalloc((st->len ? st->len : 1) * sizeof *unused);
	size_t nused = 0, nunused = 0;
	struct arc_vec high = { 0 };

	for (size_t i = 0; i < st->len; i++) {
		struct sym *s = &st->base[i];

		if (s->ncalls == 0) {
			unused[nunused++] = s;
			s->placed = true;
		} else {
			used[nused++] = s;
			s->placed = false;
			s->next_ord = s->prev_ord = NULL;
			s->nuses = 0;
		}
	}
	stable_sort(g->arcs, g->narcs_global, sizeof *g->arcs, cmp_arc_count,
	            NULL);
	count_uses(g);
	high_use_group(&o, used, nused, &high);

	stable_sort(high.v, high.n, sizeof *high.v, cmp_arc_count, NULL);
	order_by_arcs(&o, high.v, high.n, true, &o.unplaced);
	order_by_arcs(&o, g->arcs, g->narcs_global, false, &o.unplaced);
	order_by_arcs(&o, o.unplaced.v, o.unplaced.n, true, &o.scratch);

	for (size_t i = 0; i < nused; i++)
		if (!used[i]->placed)
			print_raw(&o, used[i]);
	for (size_t i = 0; i < nunused; i++)
		print_raw(&o, unused[i]);
	free(high.v);
	free(used);
	free(unused);
	ordering_free(&o);
}

static int cmp_str(const void *pa, const void *pb, void *ctx)
{
	(void)ctx;
	return strcmp(*(const char *const *)pa, *(const char *const *)pb);
}

static int cmp_str_bs(const void *pa, const void *pb)
{
	return strcmp(*(const char *const *)pa, *(const char *const *)pb);
}

/* Object files named in the map that no symbol stands for (they have no
   text symbols): listed last, by name. */
static void print_textless_objects(struct gprof *g, FILE *out)
{
	size_t nm = g->nmap_files, nsyms = 0;

	if (nm == 0)
		return;
	const char **files = xmalloc(nm * sizeof *files);
	const char **names = xmalloc((g->syms.len ? g->syms.len : 1) *
	                             sizeof *names);

	memcpy(files, g->map_files, nm * sizeof *files);
	stable_sort(files, nm, sizeof *files, cmp_str, NULL);
	for (size_t i = 0; i < g->syms.len; i++)
		if (g->syms.base[i].mapped)
			names[nsyms++] = g->syms.base[i].name;
	stable_sort(names, nsyms, sizeof *names, cmp_str, NULL);
	for (size_t i = 0; i < nm; i++) {
		if (i > 0 && strcmp(files[i - 1], files[i]) == 0)
			continue;
		if (!bsearch(&files[i], names, nsyms, sizeof *names, cmp_str_bs))
			fprintf(out, "%s\n", files[i]);
	}
	free(files);
	free(names);
}

void cg_print_file_ordering(struct gprof *g, FILE *out)
{
	struct ordering o = { .g = g, .out = out };

	for (size_t i = 0; i < g->narcs_global; i++) {
		struct arc *a = g->arcs[i];

		if (!a->parent->mapped || !a->child->mapped)
			a->placed = true;
	}
	order_by_arcs(&o, g->arcs, g->narcs_global, false, &o.scratch);
	for (size_t i = 0; i < g->syms.len; i++) {
		struct sym *s = &g->syms.base[i];

		if (s->mapped && !s->placed)
			print_raw(&o, s);
	}
	print_textless_objects(g, out);
	ordering_free(&o);
}
