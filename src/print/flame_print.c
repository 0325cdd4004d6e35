/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * flame_print.c - owns --output-format=flame: a self-contained SVG flame
 * graph of the call stacks, drawn from analysis' prefix tree.  The root
 * ("all") is the bottom row; each node is a box above its caller's, as
 * wide as its share of the samples and starting where analysis laid it
 * out (node->start), so the printer only converts samples to pixels.
 *
 * The SVG carries its own script (no external resources, so that it
 * works opened straight from disk): a click on a box zooms to it (its
 * callers stay as full-width bars below, dimmed; a click on the root or
 * "Reset zoom" goes back), and the search box highlights every box whose
 * name contains the text and shows their share of the samples (each
 * sample counted once, however many matching frames its stack has).
 * Without a script the picture is still complete: every box has a
 * <title> tooltip with its name, samples and percent, and the object
 * (executable or shared library) its function lives in.
 *
 * Frames under a tenth of a pixel (analysis marks them narrow) are not
 * drawn one by one: on a big profile they are nearly all of them (a
 * 600 MB document no browser opens).  Each drawn frame's narrow callees
 * are one grey box after its other callees, "[N narrow frames]", or a
 * blank span when even that is under a tenth of a pixel; a line under
 * the title says how many frames were merged.
 */
#include <string.h>

#include "markup.h"
#include "print/print.h"

#define WIDTH      1200.0         /* the drawing's width in pixels */
#define ROW        17             /* pixels per stack level */
#define TOP        56             /* header: title, search box, status */
#define NOTE       16             /* and the line on narrow frames */
#define BOTTOM     8
#define CHAR_W     7.0            /* pixels of one character at 12px */

static const char *frame_name(const struct gprof *g, struct report *r,
                              const struct stack_node *nd)
{
	return nd->sym ? display_name(g, r, nd->sym) : nd->label;
}

/* A warm colour from the name (FNV-1a hash), the same in every graph;
   frames with no function are grey. */
static void colour(const struct stack_node *nd, const char *name, int rgb[3])
{
	if (nd->label == STACK_HOOK_LABEL) {   /* the profiler's own time */
		rgb[0] = 110;
		rgb[1] = 150;
		rgb[2] = 225;
		return;
	}
	if (!nd->sym) {
		rgb[0] = rgb[1] = rgb[2] = 190;
		return;
	}
	uint32_t h = 2166136261u;
	for (const unsigned char *p = (const unsigned char *)name; *p; p++)
		h = (h ^ *p) * 16777619u;
	rgb[0] = 205 + (int)(h % 50);
	rgb[1] = 80 + (int)((h >> 8) % 150);
	rgb[2] = 30 + (int)((h >> 16) % 50);
}

static const char SCRIPT[] =
"(function () {\n"
"  'use strict';\n"
"  var svg = document.documentElement, W = +svg.getAttribute('data-w');\n"
"  var frames = Array.prototype.slice.call(document.querySelectorAll('g.f'));\n"
"  var status = document.getElementById('status');\n"
"  var total = +frames[0].getAttribute('data-t');\n"
"  function num(g, k) { return +g.getAttribute('data-' + k); }\n"
"  function name(g) { return g.getAttribute('data-n'); }\n"
"  function fit(g, w) {\n"
"    var t = g.querySelector('text'), n = name(g), max = Math.floor((w - 6) / 7);\n"
"    t.textContent = max < 3 ? '' : n.length <= max ? n : n.slice(0, max - 2) + '..';\n"
"  }\n"
"  function place(g, x, w, shown, dim) {\n"
"    var r = g.querySelector('rect');\n"
"    g.style.display = shown ? '' : 'none';\n"
"    if (!shown) return;\n"
"    r.setAttribute('x', x.toFixed(2)); r.setAttribute('width', Math.max(w, 0.1).toFixed(2));\n"
"    g.querySelector('text').setAttribute('x', (x + 3).toFixed(2));\n"
"    g.style.opacity = dim ? 0.55 : 1;\n"
"    fit(g, w);\n"
"  }\n"
"  function zoom(z) {\n"
"    var zs = num(z, 's'), zt = num(z, 't'), zd = num(z, 'd');\n"
"    frames.forEach(function (g) {\n"
"      var s = num(g, 's'), t = num(g, 't'), d = num(g, 'd');\n"
"      if (d < zd) place(g, 0, W, s <= zs && s + t >= zs + zt, true);\n"
"      else place(g, (s - zs) / zt * W, t / zt * W,\n"
"                 s >= zs && s + t <= zs + zt && t / zt * W >= 0.1, false);\n"
"    });\n"
"    svg.setAttribute('data-zoom', z.getAttribute('id'));\n"
"  }\n"
"  function search(text) {\n"
"    var hit = [], n = 0;\n"
"    frames.forEach(function (g) {\n"
"      var on = text !== '' && name(g).indexOf(text) >= 0;\n"
"      g.classList.toggle('hit', on);\n"
"      if (on) hit.push([num(g, 's'), num(g, 's') + num(g, 't')]);\n"
"    });\n"
"    /* nested matches are one stack's samples: count the union */\n"
"    hit.sort(function (a, b) { return a[0] - b[0] || b[1] - a[1]; });\n"
"    var end = -1;\n"
"    hit.forEach(function (h) {\n"
"      if (h[0] >= end) { n += h[1] - h[0]; end = h[1]; }\n"
"      else if (h[1] > end) { n += h[1] - end; end = h[1]; }\n"
"    });\n"
"    status.textContent = text === '' ? '' : 'Matched: ' + n + ' samples, ' +\n"
"      (total ? (100 * n / total).toFixed(2) : '0.00') + '%';\n"
"    svg.setAttribute('data-matched', String(n));\n"
"  }\n"
"  frames.forEach(function (g) {\n"
"    g.addEventListener('click', function () { zoom(g); });\n"
"  });\n"
"  document.getElementById('reset').addEventListener('click', function () {\n"
"    zoom(frames[0]);\n"
"  });\n"
"  var box = document.getElementById('search');\n"
"  box.addEventListener('input', function () { search(box.value); });\n"
"  zoom(frames[0]);\n"
"})();\n";

/* The profiling hook's share of the stacks (its frames are "[profiling
   hook]"), and the slow-down it implies; or that it was not measured. */
static void print_hook(const struct gprof *g, FILE *out)
{
	const struct run_totals *t = &g->totals;

	if (!t->hook_measured)
		fputs("; the profiling hook not measured", out);
	else
		fprintf(out, "; %.1f%% in the profiling hook (the run about "
		        "%.2f times as slow)", 100 * t->stack_hook_share,
		        t->stack_slowdown);
}

/* What the graph left out, under the title. */
static void narrow_note(const struct gprof *g, FILE *out)
{
	fprintf(out, "<text id=\"narrow\" x=\"%.0f\" y=\"%d\" "
	        "text-anchor=\"middle\">%zu of %zu frames are under 1/%d "
	        "of the samples (a tenth of a pixel): merged into %zu "
	        "\"[N narrow frames]\" box%s", WIDTH / 2, TOP + NOTE - 10,
	        g->stack_narrow_frames, g->nstack_nodes - 1,
	        STACK_MIN_SHARE_DIV, g->stack_narrow_boxes,
	        g->stack_narrow_boxes == 1 ? "" : "es");
	if (g->stack_narrow_hidden)
		fprintf(out, ", %zu in spans too narrow even so, left blank",
		        g->stack_narrow_hidden);
	fputs("</text>\n", out);
}

static void header(const struct gprof *g, struct report *r, double height)
{
	FILE *out = r->out;
	fprintf(out, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
	        "<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" "
	        "width=\"%.0f\" height=\"%.0f\" viewBox=\"0 0 %.0f %.0f\" "
	        "data-w=\"%.0f\">\n", WIDTH, height, WIDTH, height, WIDTH);
	fputs("<title>Flame graph</title>\n<style>\n"
	      "text { font: 12px monospace; fill: #000; pointer-events: none; }\n"
	      "g.f { cursor: pointer; }\n"
	      "g.f:hover rect { stroke: #000; stroke-width: 0.5; }\n"
	      "g.f.hit rect { fill: #e040e0; }\n"
	      "#reset { cursor: pointer; fill: #06c; }\n"
	      "</style>\n", out);
	fprintf(out, "<rect x=\"0\" y=\"0\" width=\"%.0f\" height=\"%.0f\" "
	        "fill=\"#f8f8f0\"/>\n", WIDTH, height);
	fprintf(out, "<text x=\"%.0f\" y=\"18\" text-anchor=\"middle\" "
	        "style=\"font-size: 15px\">Flame graph: %llu samples",
	        WIDTH / 2, (unsigned long long)g->stack_nodes[0].total);
	if (g->stack_truncated || g->stack_lost)
		fprintf(out, " (%llu truncated, %llu without a stack)",
		        (unsigned long long)g->stack_truncated,
		        (unsigned long long)g->stack_lost);
	print_hook(g, out);
	fputs("</text>\n", out);
	fputs("<text id=\"reset\" x=\"8\" y=\"40\" style=\"pointer-events: "
	      "auto\">Reset zoom</text>\n", out);
	/* An HTML input inside the SVG: browsers show it when the SVG is
	   opened on its own; other viewers just skip the foreignObject. */
	fprintf(out, "<foreignObject x=\"%.0f\" y=\"26\" width=\"220\" "
	        "height=\"22\"><input xmlns=\"http://www.w3.org/1999/xhtml\" "
	        "id=\"search\" type=\"search\" placeholder=\"Search\" "
	        "style=\"width: 200px; font: 12px monospace\"/></foreignObject>\n",
	        WIDTH - 230);
	fprintf(out, "<text id=\"status\" x=\"%.0f\" y=\"40\" "
	        "text-anchor=\"end\"></text>\n", WIDTH - 240);
	if (g->stack_narrow_frames)
		narrow_note(g, out);
}

static void frame(const struct gprof *g, struct report *r, size_t k,
                  double per_sample, double height)
{
	FILE *out = r->out;
	const struct stack_node *nd = &g->stack_nodes[k];
	const char *name = frame_name(g, r, nd);
	double x = (double)nd->start * per_sample;
	double w = (double)nd->total * per_sample;
	double y = height - BOTTOM - (double)(nd->depth + 1) * ROW;
	int rgb[3];
	colour(nd, name, rgb);
	fprintf(out, "<g class=\"f\" id=\"f%zu\" data-s=\"%llu\" data-t=\"%llu\" "
	        "data-d=\"%u\" data-n=\"", k, (unsigned long long)nd->start,
	        (unsigned long long)nd->total, nd->depth);
	markup_html(out, name, MARKUP_WHOLE);
	fputs("\"><title>", out);
	markup_html(out, name, MARKUP_WHOLE);
	fprintf(out, " (%llu sample%s, %.2f%%)",
	        (unsigned long long)nd->total, nd->total == 1 ? "" : "s",
	        nd->percent);
	if (nd->sym) {               /* the object the function lives in */
		fputs(" in ", out);
		markup_html(out, sym_object_path(g, nd->sym), MARKUP_WHOLE);
	}
	fputs("</title>", out);
	fprintf(out, "<rect x=\"%.2f\" y=\"%.0f\" width=\"%.2f\" height=\"%d\" "
	        "rx=\"2\" fill=\"rgb(%d,%d,%d)\"/>", x, y, w > 0.1 ? w : 0.1,
	        ROW - 1, rgb[0], rgb[1], rgb[2]);
	fprintf(out, "<text x=\"%.2f\" y=\"%.0f\">", x + 3, y + ROW - 5);
	/* Without the script, the text is cut to the box's width here. */
	size_t fits = w > 6 + 3 * CHAR_W ? (size_t)((w - 6) / CHAR_W) : 0;
	if (fits)
		markup_html(out, name, fits);
	fputs("</text></g>\n", out);
}

/* The narrow callees of a drawn frame, as one box above it. */
static void narrow_box(const struct gprof *g, struct report *r, size_t i,
                       double per_sample, double height)
{
	FILE *out = r->out;
	const struct stack_narrow *b = &g->stack_narrow[i];
	unsigned depth = g->stack_nodes[b->parent].depth + 1;
	double x = (double)b->start * per_sample;
	double w = (double)b->total * per_sample;
	double y = height - BOTTOM - (double)(depth + 1) * ROW;
	char name[64];
	snprintf(name, sizeof name, "[%zu narrow frame%s]", b->frames,
	         b->frames == 1 ? "" : "s");
	fprintf(out, "<g class=\"f\" id=\"n%zu\" data-s=\"%llu\" "
	        "data-t=\"%llu\" data-d=\"%u\" data-n=\"%s\"><title>%s "
	        "(%llu sample%s, %.2f%%): %zu callee%s under 1/%d of the "
	        "samples each, and what they called</title>", i,
	        (unsigned long long)b->start, (unsigned long long)b->total,
	        depth, name, name, (unsigned long long)b->total,
	        b->total == 1 ? "" : "s", b->percent, b->callees,
	        b->callees == 1 ? "" : "s", STACK_MIN_SHARE_DIV);
	fprintf(out, "<rect x=\"%.2f\" y=\"%.0f\" width=\"%.2f\" "
	        "height=\"%d\" rx=\"2\" fill=\"rgb(215,215,215)\"/>", x, y,
	        w > 0.1 ? w : 0.1, ROW - 1);
	fprintf(out, "<text x=\"%.2f\" y=\"%.0f\">", x + 3, y + ROW - 5);
	size_t fits = w > 6 + 3 * CHAR_W ? (size_t)((w - 6) / CHAR_W) : 0;
	if (fits)
		markup_html(out, name, fits);
	fputs("</text></g>\n", out);
}

void flame_print(const struct gprof *g, struct report *r)
{
	double height = TOP + (g->stack_narrow_frames ? NOTE : 0) + BOTTOM +
	                (double)(g->stack_depth + 1) * ROW;
	double root = g->stack_nodes[0].total ? (double)g->stack_nodes[0].total : 1;
	header(g, r, height);
	/* Node 0 first: the script takes it as the whole graph. */
	for (size_t k = 0; k < g->nstack_nodes; k++)
		if (!g->stack_nodes[k].narrow)
			frame(g, r, k, WIDTH / root, height);
	for (size_t i = 0; i < g->nstack_narrow; i++)
		if (g->stack_narrow[i].drawn)
			narrow_box(g, r, i, WIDTH / root, height);
	fputs("<script type=\"text/ecmascript\"><![CDATA[\n", r->out);
	fputs(SCRIPT, r->out);
	fputs("]]></script>\n</svg>\n", r->out);
}
