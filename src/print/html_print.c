/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * html_print.c - the --output-format=html report and the HTML page of
 * --compare: one self-contained file each (inline style and script, no
 * network, no other file).
 *
 * The report holds the run's summary, the diagnosis' problems, the flat
 * profile as a table (with the sampling-error column), the call-graph
 * picture (svg_graph.c) and the call graph, one <tbody id="cg-N"> per
 * entry, every name a link to its entry.  Tables are plain HTML, readable
 * without JavaScript; the small inline script only adds sorting (click
 * a column header) and a filter box.  Every number is the text report's,
 * printed as it prints it.
 */
#include <inttypes.h>
#include <math.h>
#include <string.h>

#include "print/print.h"
#include "markup.h"
#include "svg_graph.h"

/* ---- the page around the content, shared by both documents ---- */

static const char page_style[] =
"body{font:14px/1.4 system-ui,sans-serif;margin:1em 2em;color:#222}\n"
"h1{font-size:1.4em}h2{font-size:1.2em;margin-top:1.6em}\n"
"table{border-collapse:collapse}\n"
"th,td{padding:1px 8px;text-align:right;white-space:nowrap}\n"
"th{background:#eee;position:sticky;top:0}\n"
"td.name,th.name{text-align:left;white-space:normal}\n"
"table.data tbody tr:nth-child(even){background:#f6f6f6}\n"
"table.summary th{text-align:left;position:static;background:none}\n"
"table.summary td{text-align:left;white-space:normal}\n"
"th.sort{cursor:pointer}th[aria-sort=ascending]::after{content:' \\25b2'}\n"
"th[aria-sort=descending]::after{content:' \\25bc'}\n"
"tbody.entry{border-top:1px solid #aaa}\n"
"tbody.entry:target{background:#fff4c2}\n"
"tr.me td{font-weight:bold}tr.up td.name,tr.down td.name{padding-left:3em}\n"
"tr.sig{background:#ffe0d0 !important}\n"
".problem{color:#a00}.note{color:#555}\n"
"div.picture{overflow:auto;max-height:80vh;border:1px solid #ccc}\n"
"svg.cg{max-width:100%;height:auto}\n"
".cg text{font:12px monospace;text-anchor:middle;fill:#000}\n"
".cg a:hover rect{stroke-width:3}\n"
"input[type=search]{width:20em}\n";

/* Sorting: the first click on a header sorts numbers descending and
   names ascending, the next reverses.  Cells carry their number in
   data-v ("" for none, which sorts below every number). */
static const char page_script[] =
"(function(){\n"
"function key(c,num){if(!num)return c.textContent;"
"var v=c.getAttribute('data-v');return v===''||v===null?-Infinity:+v;}\n"
"function sortBy(t,th,i){var num=th.hasAttribute('data-num');\n"
"var asc=th.getAttribute('aria-sort')?"
"th.getAttribute('aria-sort')!=='ascending':!num;\n"
"[].forEach.call(th.parentNode.cells,function(h){"
"h.removeAttribute('aria-sort');});\n"
"th.setAttribute('aria-sort',asc?'ascending':'descending');\n"
"var b=t.tBodies[0],rows=[].slice.call(b.rows);\n"
"rows.sort(function(x,y){var a=key(x.cells[i],num),"
"c=key(y.cells[i],num);\n"
"var d=num?(a<c?-1:a>c?1:0):a.localeCompare(c);return asc?d:-d;});\n"
"rows.forEach(function(r){b.appendChild(r);});}\n"
"[].forEach.call(document.querySelectorAll('table.sortable'),"
"function(t){\n"
"[].forEach.call(t.tHead.rows[0].cells,function(th,i){\n"
"th.className+=' sort';th.tabIndex=0;\n"
"th.addEventListener('click',function(){sortBy(t,th,i);});\n"
"th.addEventListener('keydown',function(e){"
"if(e.key==='Enter')sortBy(t,th,i);});});});\n"
"[].forEach.call(document.querySelectorAll('input[data-filter]'),"
"function(f){\n"
"var t=document.getElementById(f.getAttribute('data-filter'));"
"f.hidden=false;\n"
"f.addEventListener('input',function(){var q=f.value.toLowerCase();\n"
"[].forEach.call(t.tBodies[0].rows,function(r){r.hidden=q!==''&&"
"r.getAttribute('data-name').toLowerCase().indexOf(q)<0;});});});\n"
"})();\n";

static void page_head(FILE *out, const char *title)
{
	fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n"
	      "<meta charset=\"utf-8\">\n"
	      "<meta name=\"viewport\" content=\"width=device-width, "
	      "initial-scale=1\">\n<title>", out);
	markup_html(out, title, MARKUP_WHOLE);
	fprintf(out, "</title>\n<style>\n%s</style>\n</head>\n<body>\n",
	        page_style);
}

static void page_tail(FILE *out)
{
	fprintf(out, "<footer class=\"note\"><p>Made by gproftk.</p></footer>\n"
	        "<script>\n%s</script>\n</body>\n</html>\n", page_script);
}

static void filter_box(FILE *out, const char *table)
{
	fprintf(out, "<p><input type=\"search\" data-filter=\"%s\" "
	        "placeholder=\"filter by name\" aria-label=\"filter by name\" "
	        "hidden></p>\n", table);
}

/* A numeric cell: the figure in data-v for sorting, shown as `fmt`
   prints it.  Non-finite figures (no sampling rate) sort lowest. */
static void num_cell(FILE *out, const char *fmt, double v)
{
	if (isfinite(v))
		fprintf(out, "<td data-v=\"%.17g\">", v);
	else
		fputs("<td data-v=\"\">", out);
	fprintf(out, fmt, v);
	fputs("</td>", out);
}

static void blank_cell(FILE *out)
{
	fputs("<td data-v=\"\"></td>", out);
}

static void summary_row(FILE *out, const char *label)
{
	fprintf(out, "<tr><th>%s</th><td>", label);
}

/* ---- the profile report ---- */

/* Is s's call-graph entry on the page (does "#cg-N" exist)?  The page
   keeps the first entries only (PAGE_ENTRIES, graph_view.h). */
static bool has_entry(const struct gprof *g, const struct sym *s)
{
	return g->input_arcs && cg_graph_printed(g) && s->index > 0 &&
	       g->view && s->index <= g->view->page_last_index &&
	       cg_entry_shown(g, s);
}

/* A name as the call graph prints it, a link when its entry is shown:
   NAME <cycle C> [N], or (N) for an entry left out. */
static void print_name(const struct gprof *g, struct report *r,
                       const struct sym *s)
{
	FILE *out = r->out;
	bool link = has_entry(g, s);

	if (link)
		fprintf(out, "<a href=\"#cg-%d\">", s->index);
	if (s->name)
		markup_html(out, display_name(g, r, s), MARKUP_WHOLE);
	else
		fprintf(out, "&lt;cycle %d as a whole&gt;", s->cycle_num);
	if (link)
		fputs("</a>", out);
	if (s->name && s->cycle_num != 0)
		fprintf(out, " &lt;cycle %d&gt;", s->cycle_num);
	if (s->index != 0)
		fprintf(out, link || s->print_flag ? " [%d]" : " (%d)", s->index);
}

/* The name cell of a function's own line (flat row, call-graph entry).
   When shared libraries' functions are in the profile, its tooltip names
   the object the function lives in; without them every function is the
   program's, named at the top. */
static void name_cell(const struct gprof *g, FILE *out, const struct sym *s)
{
	if (g->nobjects <= 1 || !s->name) {
		fputs("<td class=\"name\">", out);
		return;
	}
	fputs("<td class=\"name\" title=\"in ", out);
	markup_html(out, sym_object_path(g, s), MARKUP_WHOLE);
	fputs("\">", out);
}

static void print_rate(const struct gprof *g, FILE *out)
{
	summary_row(out, "Sampling rate");
	if (g->input_hist && g->hz > 0) {
		fprintf(out, "%g samples per ", g->hz);
		markup_html(out, strncmp(g->dimen, "seconds", 7) == 0 ? "second"
		                                                      : g->dimen,
		            MARKUP_WHOLE);
		fprintf(out, " (each sample counts as %g ", 1.0 / g->hz);
		markup_html(out, g->dimen, MARKUP_WHOLE);
		fputs(")", out);
	} else {
		fputs("unknown (no histogram)", out);
	}
	fputs("</td></tr>\n", out);
}

/* What 100% is (totals.c): every sample recorded, and where they fell;
   the flat profile's total (GNU's) is what is left of it. */
static void print_totals(const struct gprof *g, FILE *out)
{
	const struct run_totals *t = &g->totals;

	summary_row(out, "All samples");
	fprintf(out, "%.0f, %.2f s: 100%%</td></tr>\n", t->all, t->all / g->hz);
	summary_row(out, "Total time");
	fprintf(out, "%.2f s (expected error %.2f s): the flat profile's "
	        "total</td></tr>\n", g->total_time / g->hz, g->flat.total_err);
	summary_row(out, "Profiling hook");
	if (t->hook_measured)
		fprintf(out, "%.2f s, %.1f%% of the samples: profiling made the "
		        "run about %.2f times as slow</td></tr>\n", t->hook / g->hz,
		        100 * t->hook_share, t->slowdown);
	else
		fputs("not measured (the C library's mcount, outside the "
		      "sampled text)</td></tr>\n", out);
	summary_row(out, "In no function");
	fprintf(out, "%.2f s</td></tr>\n", t->outside / g->hz);
	if (t->excluded > 0) {
		summary_row(out, "In functions left out");
		fprintf(out, "%.2f s</td></tr>\n", t->excluded / g->hz);
	}
}

static void print_summary(const struct gprof *g, FILE *out)
{
	fputs("<table class=\"summary\">\n", out);
	summary_row(out, "Program");
	fputs("<code>", out);
	markup_html(out, g->opt.image ? g->opt.image : "a.out", MARKUP_WHOLE);
	fputs("</code></td></tr>\n", out);
	summary_row(out, g->opt.nprofiles == 1 ? "Profile file"
	                                       : "Profile files");
	for (size_t i = 0; i < g->opt.nprofiles; i++) {
		fputs(i ? ", <code>" : "<code>", out);
		markup_html(out, g->opt.profiles[i], MARKUP_WHOLE);
		fputs("</code>", out);
	}
	fputs("</td></tr>\n", out);
	print_rate(g, out);
	if (g->input_hist)
		print_totals(g, out);
	if (g->input_arcs) {
		summary_row(out, "Time in the call graph");
		fprintf(out, "%.2f s</td></tr>\n", g->print_time / g->hz);
		summary_row(out, "Call graph times");
		fputs(g->arcs_from_stacks ? "from sampled call stacks; no call "
		      "was counted (not built with -pg): every count is stack "
		      "samples, not calls"
		      : g->stack_times ? "from sampled call stacks (--stacks)"
		                       : "shared out by call counts", out);
		fputs("</td></tr>\n", out);
	}
	fputs("</table>\n", out);
}

static void print_problems(const struct gprof *g, FILE *out)
{
	bool any = false;

	for (int i = 0; i < DIAG_NCHECKS; i++) {
		if (g->diag[i].status != DIAG_PROBLEM)
			continue;
		if (!any)
			fputs("<h2 id=\"problems\">Problems</h2>\n<ul class=\"problem\">"
			      "\n", out);
		any = true;
		fputs("<li><b>", out);
		markup_html(out, diagnose_name((enum diag_id)i), MARKUP_WHOLE);
		fputs("</b>: ", out);
		markup_html(out, g->diag[i].text, MARKUP_WHOLE);
		fputs("</li>\n", out);
	}
	if (any)
		fputs("</ul>\n", out);
}

static void flat_header(const struct gprof *g, FILE *out)
{
	fputs("<table id=\"flat-table\" class=\"data sortable\">\n<thead><tr>"
	      "<th data-num>% time</th><th data-num>cumulative s</th>"
	      "<th data-num>self s</th>"
	      "<th data-num title=\"expected error of self: the square root of "
	      "its samples, in sampling periods\">&#177; error s</th>", out);
	if (g->stack_incl)
		fputs("<th data-num title=\"seconds with the function anywhere on "
		      "the sampled call stack\">inclusive s</th>", out);
	fputs("<th data-num>calls</th>", out);
	fputs("<th data-num>self/call</th><th data-num>total/call</th>"
	      "<th class=\"name\">name</th></tr></thead>\n<tbody>\n", out);
}

/* A per-call time in a unit of its own, three significant digits
   ("1.52 &#181;s"): the text's columns share one unit, chosen by the
   slowest function, and show 0.00 for every function a thousand times
   quicker (all but one of jq's).  data-v keeps the figure unrounded. */
static void per_call_cell(const struct gprof *g, FILE *out, double v)
{
	static const struct { const char *prefix; double scale; } units[] = {
		{ "", 1 }, { "m", 1e3 }, { "&#181;", 1e6 }, { "n", 1e9 },
		{ "p", 1e12 }
	};
	size_t u = 0;

	if (!isfinite(v) || v == 0) {
		num_cell(out, "%.2f", v);
		return;
	}
	while (u + 1 < sizeof units / sizeof units[0] &&
	       fabs(v) * units[u].scale < 1)
		u++;
	double x = v * units[u].scale;
	fprintf(out, "<td data-v=\"%.17g\">%.*f %s%c</td>", v,
	        fabs(x) >= 100 ? 0 : fabs(x) >= 10 ? 1 : 2, x, units[u].prefix,
	        g->dimen_abbrev ? g->dimen_abbrev : 's');
}

static void flat_row(const struct gprof *g, struct report *r, size_t i)
{
	const struct sym *s = g->flat.rows[i];
	FILE *out = r->out;

	fputs("<tr data-name=\"", out);
	markup_html(out, display_name(g, r, s), MARKUP_WHOLE);
	fputs("\">", out);
	num_cell(out, "%.2f", 100.0 * s->hist_time / g->flat.time_base);
	num_cell(out, "%.2f", g->view->flat_cum[i]);
	num_cell(out, "%.2f", s->hist_time / g->hz);
	num_cell(out, "%.2f", g->flat.sample_err[s - g->syms.base]);
	if (g->stack_incl)
		num_cell(out, "%.2f", g->stack_incl[s - g->syms.base] / g->hz);
	if (sym_counted_calls(g, s) != 0) {
		double calls = (double)s->ncalls;
		fprintf(out, "<td data-v=\"%" PRIu64 "\">%" PRIu64 "</td>",
		        s->ncalls, s->ncalls);
		per_call_cell(g, out, s->hist_time / g->hz / calls);
		per_call_cell(g, out, (s->hist_time + s->child_time) / g->hz /
		              calls);
	} else {
		blank_cell(out);
		blank_cell(out);
		blank_cell(out);
	}
	name_cell(g, out, s);
	if (has_entry(g, s))
		fprintf(out, "<a href=\"#cg-%d\">", s->index);
	markup_html(out, display_name(g, r, s), MARKUP_WHOLE);
	fputs(has_entry(g, s) ? "</a></td></tr>\n" : "</td></tr>\n", out);
}

static void print_flat(const struct gprof *g, struct report *r)
{
	FILE *out = r->out;

	fputs("<h2 id=\"flat\">Flat profile</h2>\n", out);
	fputs("<p class=\"note\">Functions by the time spent in their own code. "
	      "The error column is the expected error of that time: a second "
	      "run is likely to differ by about as much.</p>\n", out);
	filter_box(out, "flat-table");
	flat_header(g, out);
	for (size_t i = 0; i < g->view->page_flat_rows; i++)
		flat_row(g, r, i);
	fputs("</tbody></table>\n", out);
	if (g->view->page_flat_rows < g->flat.nrows)
		fprintf(out, "<p class=\"note\" id=\"flat-left-out\">Left out of "
		        "this page: the other %zu functions, %.2f s of self time, "
		        "each less than the last row above. <code>gprof -b -p"
		        "</code> and <code>--output-format=json</code> list them "
		        "all.</p>\n", g->flat.nrows - g->view->page_flat_rows,
		        g->view->page_flat_left_sec);
}

static void print_picture(const struct gprof *g, struct report *r)
{
	const struct graph_view *v = g->view;
	FILE *out = r->out;

	fputs("<h2 id=\"picture\">Call-graph picture</h2>\n", out);
	fputs("<p class=\"note\">A box per function (total and self share of the "
	      "time, self seconds, calls), an arrow per call; redder and thicker "
	      "is more time, dashed is within a cycle. Click a box for its "
	      "entry.", out);
	if (v->pruned)
		fprintf(out, " Not drawn: %zu function%s under %g%% of the time "
		        "(--node-threshold), %zu call%s under %g%% "
		        "(--edge-threshold).", v->hidden_nodes,
		        v->hidden_nodes == 1 ? "" : "s", g->opt.node_thres,
		        v->hidden_edges, v->hidden_edges == 1 ? "" : "s",
		        g->opt.edge_thres);
	fputs("</p>\n", out);
	if (v->nnodes == 0) {
		fputs("<p>No function to draw.</p>\n", out);
		return;
	}
	fputs("<div class=\"picture\">\n", out);
	size_t drawn = svg_graph_print(g, r);
	if (!drawn)
		fputs("<p>Too wide to draw.</p>\n", out);
	fputs("</div>\n", out);
	if (drawn && drawn < v->nnodes)
		fprintf(out, "<p class=\"note\" id=\"picture-left-out\">Drawn: "
		        "the %zu functions with the most time, as many as fit the "
		        "width of a screen; %zu more over the threshold are not "
		        "drawn.</p>\n", drawn, v->nnodes - drawn);
}

/* The "called" cell of an entry's own line: N or N+M. */
static void called_cell(FILE *out, uint64_t calls, uint64_t self_calls,
                        bool blank)
{
	if (blank) {
		fputs("<td></td>", out);
		return;
	}
	fprintf(out, "<td>%" PRIu64, calls);
	if (self_calls)
		fprintf(out, "+%" PRIu64, self_calls);
	fputs("</td>", out);
}

static bool same_cycle(const struct sym *a, const struct sym *b)
{
	return a->cycle_num != 0 && a->cycle_num == b->cycle_num;
}

/* A caller or callee line, as cg_print prints it. */
static void arc_row(const struct gprof *g, struct report *r,
                    const struct arc *a, const struct sym *other,
                    bool count_only, uint64_t total, const char *cls)
{
	FILE *out = r->out;

	fprintf(out, "<tr class=\"%s\"><td></td><td></td>", cls);
	if (count_only)
		fprintf(out, "<td></td><td></td><td>%" PRIu64 "</td>", a->count);
	else
		fprintf(out, "<td>%.2f</td><td>%.2f</td><td>%" PRIu64 "/%" PRIu64
		        "</td>", a->time / g->hz, a->child_time / g->hz, a->count,
		        total);
	fputs("<td class=\"name\">", out);
	print_name(g, r, other);
	fputs("</td></tr>\n", out);
}

static void entry_line(const struct gprof *g, struct report *r,
                       const struct sym *s)
{
	FILE *out = r->out;

	fprintf(out, "<tr class=\"me\"><td>[%d]</td><td>%.1f</td><td>%.2f</td>"
	        "<td>%.2f</td>", s->index,
	        100 * (s->prop_self + s->prop_child) / g->print_time_base,
	        s->prop_self / g->hz, s->prop_child / g->hz);
	called_cell(out, s->ncalls, s->self_calls,
	            s->name && s->ncalls + s->self_calls == 0);
	name_cell(g, out, s);
	print_name(g, r, s);
	fputs("</td></tr>\n", out);
}

static void cycle_entry(const struct gprof *g, struct report *r,
                        const struct sym *cyc)
{
	FILE *out = r->out;

	const struct sym *m;
	size_t k = 0;

	entry_line(g, r, cyc);
	for (m = cyc->cyc_next; m && k < PAGE_MEMBERS; m = m->cyc_next, k++) {
		fprintf(out, "<tr class=\"down\"><td></td><td></td><td>%.2f</td>"
		        "<td>%.2f</td>", m->prop_self / g->hz,
		        m->prop_child / g->hz);
		called_cell(out, m->ncalls, m->self_calls, false);
		fputs("<td class=\"name\">", out);
		print_name(g, r, m);
		fputs("</td></tr>\n", out);
	}
	for (k = 0; m; m = m->cyc_next)
		k++;
	if (k)
		fprintf(out, "<tr class=\"down left-out\"><td></td><td></td>"
		        "<td></td><td></td><td></td><td class=\"name note\">and %zu "
		        "more member%s, each with less time than those above "
		        "(<code>gprof -b -q</code> lists them)</td></tr>\n", k,
		        k == 1 ? "" : "s");
}

/* After an entry's first PAGE_ARCS callers or callees: how many more
   the page leaves out (NULL-ended list from ap). */
static void arcs_left_row(FILE *out, struct arc *const *ap,
                          const char *what, const char *cls)
{
	size_t n = 0;

	while (ap[n])
		n++;
	fprintf(out, "<tr class=\"%s left-out\"><td></td><td></td><td></td>"
	        "<td></td><td></td><td class=\"name note\">and %zu more %s%s, "
	        "each with less time than those above (<code>gprof -b -q"
	        "</code> lists them)</td></tr>\n", cls, n, what,
	        n == 1 ? "" : "s");
}

static void function_entry(const struct gprof *g, struct report *r,
                           const struct sym *s)
{
	struct arc **ap;
	size_t k;

	if (!s->parents)
		fputs("<tr class=\"up\"><td></td><td></td><td></td><td></td>"
		      "<td></td><td class=\"name\">&lt;spontaneous&gt;</td></tr>\n",
		      r->out);
	for (ap = s->by_rank_parents, k = 0; ap && *ap && k < PAGE_ARCS;
	     ap++, k++) {
		const struct sym *p = (*ap)->parent;
		arc_row(g, r, *ap, p, p == s || same_cycle(p, s),
		        s->cyc_head->ncalls, "up");
	}
	if (ap && *ap)
		arcs_left_row(r->out, ap, "caller", "up");
	entry_line(g, r, s);
	for (ap = s->by_rank_children, k = 0; ap && *ap && k < PAGE_ARCS;
	     ap++, k++) {
		const struct sym *c = (*ap)->child;
		arc_row(g, r, *ap, c, c == s || same_cycle(c, s),
		        c->cyc_head->ncalls, "down");
	}
	if (ap && *ap)
		arcs_left_row(r->out, ap, "callee", "down");
}

static void print_call_graph(const struct gprof *g, struct report *r)
{
	FILE *out = r->out;

	fputs("<h2 id=\"callgraph\">Call graph</h2>\n", out);
	fputs("<p class=\"note\">One entry per function, by the time spent in it "
	      "and in what it calls: its callers above it, the functions it calls "
	      "below, each with the share of time charged along that call.</p>\n",
	      out);
	fputs("<table id=\"cg-table\" class=\"data\">\n<thead><tr><th>index</th>"
	      "<th>% time</th><th>self</th><th>children</th><th>called</th>"
	      "<th class=\"name\">name</th></tr></thead>\n", out);
	for (size_t i = 0; i < g->nentries; i++) {
		const struct sym *s = g->entries[i];

		if (s->index > g->view->page_last_index)
			break;
		if (!cg_entry_shown(g, s))
			continue;
		fprintf(out, "<tbody class=\"entry\" id=\"cg-%d\">\n", s->index);
		if (!s->name && s->cycle_num != 0)
			cycle_entry(g, r, s);
		else
			function_entry(g, r, s);
		fputs("</tbody>\n", out);
	}
	fputs("</table>\n", out);
	if (g->view->page_entries_left)
		fprintf(out, "<p class=\"note\" id=\"cg-left-out\">Left out of "
		        "this page: the other %zu entries, each at most %.2g%% of the "
		        "time. <code>gprof -b -q</code> and <code>--output-format="
		        "json</code> have them all.</p>\n",
		        g->view->page_entries_left, g->view->page_left_max_pct);
}

static void print_contents(const struct gprof *g, bool flat, bool graph,
                           FILE *out)
{
	fputs("<nav><p>", out);
	if (flat)
		fputs("<a href=\"#flat\">Flat profile</a> &middot; ", out);
	if (graph)
		fputs("<a href=\"#picture\">Call-graph picture</a> &middot; "
		      "<a href=\"#callgraph\">Call graph</a>", out);
	if (!flat && !graph)
		fputs("No flat profile or call graph to show.", out);
	fputs("</p></nav>\n", out);
}

void html_print(const struct gprof *g, struct report *r)
{
	FILE *out = r->out;
	const char *image = g->opt.image ? g->opt.image : "a.out";
	bool flat = g->input_hist && (g->opt.style & STYLE_FLAT) &&
	            g->flat.sample_err && g->view;
	bool graph = g->input_arcs && cg_graph_printed(g) && g->view;
	char title[512];

	snprintf(title, sizeof title, "Profile of %s", image);
	page_head(out, title);
	fputs("<h1>Profile of <code>", out);
	markup_html(out, image, MARKUP_WHOLE);
	fputs("</code></h1>\n", out);
	print_summary(g, out);
	print_problems(g, out);
	print_contents(g, flat, graph, out);
	if (flat)
		print_flat(g, r);
	if (graph) {
		print_picture(g, r);
		print_call_graph(g, r);
	}
	page_tail(out);
}

/* ---- the --compare page ---- */

static void side_cells(FILE *out, const struct cmp_side *s, bool total)
{
	if (!s->present) {
		fputs("<td data-v=\"\">&#8212;</td>", out);
		return;
	}
	num_cell(out, "%.2f", total ? s->total : s->self);
}

static void calls_cell(FILE *out, const struct cmp_side *s)
{
	if (!s->present) {
		fputs("<td data-v=\"\">&#8212;</td>", out);
		return;
	}
	fprintf(out, "<td data-v=\"%" PRIu64 "\">%" PRIu64 "</td>", s->calls,
	        s->calls);
}

static void compare_row(const struct cmp_row *w, FILE *out)
{
	fprintf(out, "<tr%s data-name=\"", w->significant ? " class=\"sig\"" : "");
	markup_html(out, w->name ? w->name : "", MARKUP_WHOLE);
	fputs("\"><td class=\"name\">", out);
	markup_html(out, w->name ? w->name : "", MARKUP_WHOLE);
	fputs("</td>", out);
	side_cells(out, &w->old, false);
	side_cells(out, &w->new, false);
	num_cell(out, "%+.2f", w->d_self);
	if (w->old.present && w->old.self != 0)
		num_cell(out, "%+.1f%%", w->d_self_pct);
	else
		fputs("<td data-v=\"\">&#8212;</td>", out);
	num_cell(out, "%.2f", w->err);
	fprintf(out, "<td data-v=\"%d\">%s</td>", w->significant ? 1 : 0,
	        w->significant ? "yes" : "no");
	side_cells(out, &w->old, true);
	side_cells(out, &w->new, true);
	num_cell(out, "%+.2f", w->d_total);
	calls_cell(out, &w->old);
	calls_cell(out, &w->new);
	fprintf(out, "<td data-v=\"%" PRId64 "\">%+" PRId64 "</td></tr>\n",
	        w->d_calls, w->d_calls);
}

static void compare_side(FILE *out, const char *label,
                         const struct cmp_input *in)
{
	summary_row(out, label);
	fputs("<code>", out);
	markup_html(out, in->image ? in->image : "", MARKUP_WHOLE);
	fputs("</code>, ", out);
	for (size_t r = 0; r < in->nruns; r++) {
		fputs(r ? ", <code>" : "<code>", out);
		markup_html(out, in->profiles[r] ? in->profiles[r] : "",
		            MARKUP_WHOLE);
		fputs("</code>", out);
	}
	if (in->nruns == 1)
		fprintf(out, ": %.2f s (standard error %.2f s)", in->total,
		        in->total_err);
	else
		fprintf(out, ": %zu runs, %.2f s a run (standard error %.2f s; "
		        "standard deviation between runs %.2f s)", in->nruns,
		        in->total, in->total_err, in->total_spread);
	fprintf(out, " from %.0f samples</td></tr>\n", in->samples);
}

static void compare_summary(const struct comparison *c, FILE *out)
{
	fputs("<table class=\"summary\">\n", out);
	compare_side(out, "Old", &c->old);
	compare_side(out, "New", &c->new);
	summary_row(out, "Change");
	fprintf(out, "%+.2f s (%+.1f%%), %s</td></tr>\n", c->d_total,
	        c->d_total_pct, c->total_significant ? "significant"
	                                             : "within its error");
	summary_row(out, "Functions");
	fprintf(out, "%zu, %zu of them changed significantly</td></tr>\n",
	        c->nrows, c->nsignificant);
	if (c->note) {
		summary_row(out, "Note");
		markup_html(out, c->note, MARKUP_WHOLE);
		fputs("</td></tr>\n", out);
	}
	fputs("</table>\n", out);
}

void compare_print_html(const struct comparison *c, FILE *out)
{
	page_head(out, "Profile comparison");
	fputs("<h1>Profile comparison</h1>\n", out);
	compare_summary(c, out);
	fprintf(out, "<h2 id=\"functions\">Functions</h2>\n<p class=\"note\">"
	        "Seconds of self time in a run (a side's mean), old then new; a "
	        "change is significant (highlighted) when the chance that the "
	        "errors alone give one as large is under %g.</p>\n", c->alpha);
	filter_box(out, "compare-table");
	fputs("<table id=\"compare-table\" class=\"data sortable\">\n<thead><tr>"
	      "<th class=\"name\">name</th><th data-num>old self</th>"
	      "<th data-num>new self</th><th data-num>change</th>"
	      "<th data-num>change %</th><th data-num>&#177; error</th>"
	      "<th data-num>significant</th><th data-num>old total</th>"
	      "<th data-num>new total</th><th data-num>change total</th>"
	      "<th data-num>old calls</th><th data-num>new calls</th>"
	      "<th data-num>change calls</th></tr></thead>\n<tbody>\n", out);
	for (size_t i = 0; i < c->nrows; i++)
		compare_row(&c->rows[i], out);
	fputs("</tbody></table>\n", out);
	page_tail(out);
}
