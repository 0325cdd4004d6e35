/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * options.c - the command line: GNU getopt conventions (optional arguments
 * attached to short options, long-option abbreviations, permutation, `--`,
 * @FILE response files), parsed once into g->opt.
 */
#include "config.h"

#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include <libiberty/demangle.h>
#include <libiberty/libiberty.h>

#include "pipeline.h"
#include "symbols/symbols.h"

enum { OPT_DEMANGLE = 256, OPT_NO_DEMANGLE, OPT_INLINE_FILE_NAMES };

/* The order of this table decides the order of the candidates getopt lists
   for an ambiguous abbreviation; it is arranged to list them as GNU does. */
static const struct option long_opts[] = {
	{ "line", no_argument, NULL, 'l' },
	{ "no-static", no_argument, NULL, 'a' },
	{ "annotated-source", optional_argument, NULL, 'A' },
	{ "no-annotated-source", optional_argument, NULL, 'J' },
	{ "flat-profile", optional_argument, NULL, 'p' },
	{ "no-flat-profile", optional_argument, NULL, 'P' },
	{ "graph", optional_argument, NULL, 'q' },
	{ "no-graph", optional_argument, NULL, 'Q' },
	{ "external-symbol-table", required_argument, NULL, 'S' },
	{ "exec-counts", optional_argument, NULL, 'C' },
	{ "no-exec-counts", optional_argument, NULL, 'Z' },
	{ "function-ordering", no_argument, NULL, 'r' },
	{ "file-ordering", required_argument, NULL, 'R' },
	{ "file-info", no_argument, NULL, 'i' },
	{ "sum", no_argument, NULL, 's' },
	{ "all-lines", no_argument, NULL, 'x' },
	{ "demangle", optional_argument, NULL, OPT_DEMANGLE },
	{ "no-demangle", no_argument, NULL, OPT_NO_DEMANGLE },
	{ "directory-path", required_argument, NULL, 'I' },
	{ "display-unused-functions", no_argument, NULL, 'z' },
	{ "ignore-non-functions", no_argument, NULL, 'D' },
	{ "inline-file-names", no_argument, NULL, OPT_INLINE_FILE_NAMES },
	{ "min-count", required_argument, NULL, 'm' },
	{ "print-path", no_argument, NULL, 'L' },
	{ "separate-files", no_argument, NULL, 'y' },
	{ "static-call-graph", no_argument, NULL, 'c' },
	{ "table-length", required_argument, NULL, 't' },
	{ "time", required_argument, NULL, 'n' },
	{ "no-time", required_argument, NULL, 'N' },
	{ "traditional", no_argument, NULL, 'T' },
	{ "version", no_argument, NULL, 'v' },
	{ "width", required_argument, NULL, 'w' },
	{ "brief", no_argument, NULL, 'b' },
	{ "debug", optional_argument, NULL, 'd' },
	{ "help", no_argument, NULL, 'h' },
	{ "file-format", required_argument, NULL, 'O' },
	/* GNU has unnamed entries for these; `--=X` therefore means -e X. */
	{ "", required_argument, NULL, 'e' },
	{ "", required_argument, NULL, 'E' },
	{ "", required_argument, NULL, 'f' },
	{ "", required_argument, NULL, 'F' },
	{ "", required_argument, NULL, 'k' },
	{ NULL, 0, NULL, 0 }
};

static const char short_opts[] =
	"aA::bBcC::d::De:E:f:F:hiI:J::k:lLm:n:N:O:p::P::q::Q::rR:sS:t:Tvw:xyzZ::";

static const char help_text[] =
"Analyse a program built with -pg and the profile data it wrote.\n"
"IMAGE-FILE defaults to a.out and PROFILE-FILE to gmon.out; several profile\n"
"files are summed.  SYMSPEC selects symbols: func, file.c, file.c:func,\n"
"file.c:LINE or :func.with.dots; FROM/TO selects call arcs.\n"
"\n"
"Reports:\n"
"  -p, --flat-profile[=SYMSPEC]     flat profile (of SYMSPEC only)\n"
"  -P, --no-flat-profile[=SYMSPEC]  no flat profile (or one without SYMSPEC)\n"
"  -q, --graph[=SYMSPEC]            call graph (of SYMSPEC only)\n"
"  -Q, --no-graph[=SYMSPEC]         no call graph (or one without SYMSPEC)\n"
"  -B                               call graph, as -q without a symspec\n"
"  -C, --exec-counts[=SYMSPEC]      execution counts\n"
"  -Z, --no-exec-counts[=SYMSPEC]   no execution counts\n"
"  -A, --annotated-source[=SYMSPEC] annotated source listing\n"
"  -J, --no-annotated-source[=SYMSPEC]  no annotated source\n"
"  -r, --function-ordering          suggest a function link order\n"
"  -R, --file-ordering=MAPFILE      suggest an object-file link order\n"
"  -i, --file-info                  describe the records of each profile\n"
"  -s, --sum                        write the sum of all profiles to gmon.sum\n"
"\n"
"Selection and layout:\n"
"  -e SYMSPEC / -E SYMSPEC          hide from the call graph (-E: and its time)\n"
"  -f SYMSPEC / -F SYMSPEC          show only these in the call graph (-F: time)\n"
"  -k FROM/TO                       delete call arcs\n"
"  -n, --time=SYMSPEC / -N, --no-time=SYMSPEC  propagate time only / not\n"
"  -a, --no-static                  ignore static functions\n"
"  -D, --ignore-non-functions       ignore symbols that are not functions\n"
"  -S, --external-symbol-table=FILE read symbols from an nm-style file\n"
"  -b, --brief                      omit the explanations\n"
"  -z, --display-unused-functions   also list what was never called\n"
"  -c, --static-call-graph          add calls found in the machine code\n"
"  -l, --line                       profile source lines, not functions\n"
"  -L, --print-path                 print full source paths\n"
"      --inline-file-names          show file:line after every name\n"
"  -T, --traditional                BSD layout\n"
"  -w, --width=N                    width of the call-graph index\n"
"  -x, --all-lines                  annotate every line\n"
"  -y, --separate-files             annotate into FILE-ann files\n"
"  -I, --directory-path=DIRS        where to look for sources\n"
"  -m, --min-count=N                mark lines run fewer than N times\n"
"  -t, --table-length=N             lines in the top-lines table\n"
"  -O, --file-format=auto|bsd|4.4bsd|magic|prof  profile format\n"
"      --demangle[=STYLE], --no-demangle        C++ names\n"
"      --no-shlibs                  ignore PROFILE-FILE.shlibs side files\n"
"\n"
"Other outputs (extensions; the default output is GNU's text):\n"
"      --output-format=FORMAT       text, dot, html, json, callgrind, pprof,\n"
"                                   folded (call stacks, one line each) or\n"
"                                   flame (an SVG flame graph of them)\n"
"      --output=FILE                write to FILE (replaced whole) not stdout\n"
"      --sampling-error             add each time's expected error to the\n"
"                                   text flat profile\n"
"      --node-threshold=PCT         dot, html: hide functions under PCT% of\n"
"                                   the total time (default 0.5)\n"
"      --edge-threshold=PCT         dot, html: hide calls under PCT% (0.1)\n"
"      --compare IMAGE OLD NEW      compare two profiles of one program, or\n"
"      --compare OLD-IMAGE OLD NEW-IMAGE NEW  of two builds of it\n"
"                                   (OLD, NEW: a profile, or the profiles of\n"
"                                   several runs separated by commas)\n"
"      --diagnose                   check the profile and say what is wrong\n"
"      --stacks                     call graph times from the sampled call\n"
"                                   stacks (GMON_STACKS=1), not call counts;\n"
"                                   inclusive seconds in the flat profile\n"
"      --per-thread[=ID-OR-NAME]    flat profile and call graph of each thread\n"
"                                   (recorded under GMON_STACKS=1), or of one\n"
"      --clones=gnu|merge|separate  compiler clones (foo.part.0, foo.cold):\n"
"                                   GNU's rule (most count as the function\n"
"                                   before them: the text's default), credited\n"
"                                   to foo (the other outputs' default), or\n"
"                                   functions of their own\n"
"  -d, --debug[=NUM]                trace the analysis\n"
"  -v, --version                    show the version\n"
"  -h, --help                       show this help\n"
"  @FILE                            read options from FILE\n";

static void usage(struct gprof *g, FILE *out, int status)
{
	fprintf(out, "Usage: %s [OPTION]... [IMAGE-FILE [PROFILE-FILE]...]\n",
	        g->whoami);
	if (status == 0)
		fputs(help_text, out);
	else
		fprintf(out, "Try '%s --help' for more information.\n", g->whoami);
	gprof_exit(status);
}

static void version(void)
{
	puts("GNU-compatible gprof (gproftk) " PACKAGE_VERSION);
	puts("A clean-room reimplementation of the gprof call-graph profiler;");
	puts("free software under the GPL, version 3 or later, with no warranty.");
	gprof_exit(0);
}

static void add_search_dirs(struct options *o, const char *list)
{
	char *copy = xstrdup(list), *save = NULL;
	for (char *d = strtok_r(copy, ":", &save); d; d = strtok_r(NULL, ":", &save)) {
		o->search_dirs = xrealloc(o->search_dirs,
		                          (o->nsearch_dirs + 1) * sizeof(char *));
		o->search_dirs[o->nsearch_dirs++] = xstrdup(d);
	}
	free(copy);
}

/* A spec given to -q/-Q names an arc when it contains a slash. */
static enum spec_table graph_table(const char *spec, bool excl)
{
	if (strchr(spec, '/'))
		return excl ? EXCL_ARCS : INCL_ARCS;
	return excl ? EXCL_GRAPH : INCL_GRAPH;
}

/* -P, -Q, -J and -Z turn a report off, unless given a spec: then they turn
   it on and exclude the spec from it. */
static void style_off_or_excl(struct gprof *g, unsigned style,
                              enum spec_table t, const char *arg)
{
	if (arg) {
		sym_ids_add(g, t, arg);
		g->opt.style |= style;
	} else {
		g->opt.style &= ~style;
	}
	g->opt.user_styles |= style;
}

static void set_style(struct gprof *g, unsigned style)
{
	g->opt.style |= style;
	g->opt.user_styles |= style;
}

/* -p, -q, -A and -C turn a report on, restricted to the spec if given. */
static void style_on(struct gprof *g, unsigned style, enum spec_table t,
                     const char *arg)
{
	if (arg)
		sym_ids_add(g, t, arg);
	set_style(g, style);
}

static void set_debug(struct gprof *g, const char *arg)
{
	if (!arg)
		g->opt.debug = ~0u;
	else
		g->opt.debug |= (unsigned)atoi(arg) | DBG_ANY;
	printf("[main] debug-level=0x%x\n", g->opt.debug);
}

static void set_format(struct gprof *g, const char *arg)
{
	switch (arg[0]) {
	case 'a': g->opt.file_format = FF_AUTO; break;
	case 'm': g->opt.file_format = FF_MAGIC; break;
	case 'b': g->opt.file_format = FF_BSD; break;
	case '4': g->opt.file_format = FF_BSD44; break;
	case 'p': g->opt.file_format = FF_PROF; break;
	default:
		/* GNU prints the two names the other way round; so do we. */
		die_plain("%s: unknown file format %s", arg, g->whoami);
	}
}

static void set_demangle(struct gprof *g, const char *style)
{
	g->opt.demangle = true;
	if (!style)
		return;
	enum demangling_styles st = cplus_demangle_name_to_style(style);
	if (st == unknown_demangling)
		die(g, "unknown demangling style `%s'", style);
	cplus_demangle_set_style(st);
}

static void handle_opt(struct gprof *g, int c, const char *arg)
{
	struct options *o = &g->opt;
	switch (c) {
	case 'a': o->no_static = true; break;
	case 'A': style_on(g, STYLE_ANNOTATED, INCL_ANNO, arg); break;
	case 'b': o->brief = true; break;
	case 'B': set_style(g, STYLE_CALL_GRAPH); break;
	case 'c': o->static_call_graph = true; break;
	case 'C': style_on(g, STYLE_EXEC_COUNTS, INCL_EXEC, arg); break;
	case 'd': set_debug(g, arg); break;
	case 'D': o->ignore_non_func = true; break;
	case 'e': sym_ids_add(g, EXCL_GRAPH, arg); break;
	case 'E': sym_ids_add(g, EXCL_GRAPH, arg);
	          sym_ids_add(g, EXCL_TIME, arg); break;
	case 'f': sym_ids_add(g, INCL_GRAPH, arg); break;
	case 'F': sym_ids_add(g, INCL_GRAPH, arg);
	          sym_ids_add(g, INCL_TIME, arg); break;
	case 'h': usage(g, stdout, 0); break;
	case 'i': set_style(g, STYLE_GMON_INFO); break;
	case 'I': add_search_dirs(o, arg); break;
	case 'J': style_off_or_excl(g, STYLE_ANNOTATED, EXCL_ANNO, arg); break;
	case 'k': sym_ids_add(g, EXCL_ARCS, arg); break;
	case 'l': o->line_gran = true; break;
	case 'L': o->print_path = true; break;
	case 'm': o->min_count = strtoul(arg, NULL, 0); break;
	case 'n': sym_ids_add(g, INCL_TIME, arg); break;
	case 'N': sym_ids_add(g, EXCL_TIME, arg); break;
	case 'O': set_format(g, arg); break;
	case 'p': style_on(g, STYLE_FLAT, INCL_FLAT, arg); break;
	case 'P': style_off_or_excl(g, STYLE_FLAT, EXCL_FLAT, arg); break;
	case 'q': style_on(g, STYLE_CALL_GRAPH,
	                   arg ? graph_table(arg, false) : INCL_GRAPH, arg); break;
	case 'Q': style_off_or_excl(g, STYLE_CALL_GRAPH,
	                            arg ? graph_table(arg, true) : EXCL_GRAPH, arg);
	          break;
	case 'r': set_style(g, STYLE_FUNC_ORDER); break;
	case 'R': o->map_file = arg;
	          set_style(g, STYLE_FILE_ORDER); break;
	case 's': set_style(g, STYLE_SUMMARY); break;
	case 'S': o->ext_symtab = arg; break;
	case 't': o->table_length = atoi(arg);
	          if (o->table_length < 0)
		          o->table_length = 0;
	          break;
	case 'T': o->bsd_style = true; break;
	case 'v': version(); break;
	case 'w': o->width = atoi(arg);
	          if (o->width < 1)
		          o->width = 1;
	          break;
	case 'x': o->all_lines = true; break;
	case 'y': o->separate_files = true; break;
	case 'z': o->ignore_zeros = false; break;
	case 'Z': style_off_or_excl(g, STYLE_EXEC_COUNTS, EXCL_EXEC, arg); break;
	case OPT_DEMANGLE: set_demangle(g, arg); break;
	case OPT_NO_DEMANGLE: o->demangle = false; break;
	case OPT_INLINE_FILE_NAMES: o->inline_file_names = true; break;
	default: usage(g, stderr, 1);
	}
}

/* This project's options are long options only, taken when spelled out
   in full (before any "--") and kept out of getopt's table, so that every
   GNU command line means what it meant (--no-s is still --no-static, --s
   is still ambiguous) and GNU's ambiguity messages list the same
   options.  Those with an argument take it as --name=ARG or --name ARG;
   those whose argument is optional only as --name=ARG (a following word
   stays a file name, as with getopt's optional arguments). */
enum ext_id {
	EXT_NO_SHLIBS, EXT_OUTPUT_FORMAT, EXT_OUTPUT, EXT_SAMPLING_ERROR,
	EXT_COMPARE, EXT_DIAGNOSE, EXT_NODE_THRES, EXT_EDGE_THRES,
	EXT_STACKS, EXT_PER_THREAD, EXT_CLONES
};

enum ext_arg { ARG_NONE, ARG_REQUIRED, ARG_OPTIONAL };

static const struct ext_opt {
	const char *name;
	enum ext_arg has_arg;
	enum ext_id id;
} ext_opts[] = {
	{ "no-shlibs", ARG_NONE, EXT_NO_SHLIBS },
	{ "output-format", ARG_REQUIRED, EXT_OUTPUT_FORMAT },
	{ "output", ARG_REQUIRED, EXT_OUTPUT },
	{ "sampling-error", ARG_NONE, EXT_SAMPLING_ERROR },
	{ "compare", ARG_NONE, EXT_COMPARE },
	{ "diagnose", ARG_NONE, EXT_DIAGNOSE },
	{ "node-threshold", ARG_REQUIRED, EXT_NODE_THRES },
	{ "edge-threshold", ARG_REQUIRED, EXT_EDGE_THRES },
	{ "stacks", ARG_NONE, EXT_STACKS },
	{ "per-thread", ARG_OPTIONAL, EXT_PER_THREAD },
	{ "clones", ARG_REQUIRED, EXT_CLONES },
};

static const char *const format_names[] = {
	[OUT_TEXT] = "text", [OUT_DOT] = "dot", [OUT_HTML] = "html",
	[OUT_JSON] = "json", [OUT_CALLGRIND] = "callgrind", [OUT_PPROF] = "pprof",
	[OUT_FOLDED] = "folded", [OUT_FLAME] = "flame"
};

static void set_out_format(struct gprof *g, const char *arg)
{
	for (size_t i = 0; i < sizeof format_names / sizeof *format_names; i++) {
		if (strcmp(arg, format_names[i]) == 0) {
			g->opt.out_format = (enum out_format)i;
			return;
		}
	}
	die(g, "--output-format: unknown format `%s' (text, dot, html, json, "
	    "callgrind, pprof, folded or flame)", arg);
}

static void set_clones(struct gprof *g, const char *arg)
{
	static const char *const names[] = {
		[CLONES_GNU] = "gnu", [CLONES_MERGE] = "merge",
		[CLONES_SEPARATE] = "separate"
	};
	for (int i = CLONES_GNU; i <= CLONES_SEPARATE; i++) {
		if (strcmp(arg, names[i]) == 0) {
			g->opt.clones = (enum clones_mode)i;
			return;
		}
	}
	die(g, "--clones: unknown way `%s' (gnu, merge or separate)", arg);
}

/* GNU's text keeps GNU's rule for clones; every extension's output
   credits them to their origin.  With -l (and -s, which implies it)
   the table holds lines, which a clone's name does not merge. */
static void choose_clones(struct gprof *g)
{
	struct options *o = &g->opt;
	if (o->clones == CLONES_MERGE && o->line_gran)
		die(g, "--clones=merge: not with -l or -s (use separate)");
	if (o->clones != CLONES_DEFAULT)
		return;
	if (o->line_gran)
		o->clones = CLONES_GNU;
	else if (o->out_format != OUT_TEXT || o->stacks || o->per_thread ||
	         o->compare)
		o->clones = CLONES_MERGE;
	else
		o->clones = CLONES_GNU;
}

/* A percentage from 0 to 100, for the thresholds. */
static double percent_arg(struct gprof *g, const char *name, const char *arg)
{
	char *end;
	double v = strtod(arg, &end);
	if (end == arg || *end != '\0' || !(v >= 0 && v <= 100))
		die(g, "--%s: `%s' is not a percentage from 0 to 100", name, arg);
	return v;
}

static void handle_ext(struct gprof *g, const struct ext_opt *e,
                       const char *arg)
{
	struct options *o = &g->opt;
	switch (e->id) {
	case EXT_NO_SHLIBS: o->no_shlibs = true; break;
	case EXT_OUTPUT_FORMAT: set_out_format(g, arg); break;
	case EXT_OUTPUT:
		if (!*arg)
			die(g, "--output: empty file name");
		o->output = arg;
		break;
	case EXT_SAMPLING_ERROR: o->sampling_error = true; break;
	case EXT_COMPARE: o->compare = true; break;
	case EXT_DIAGNOSE: o->diagnose = true; break;
	case EXT_NODE_THRES: o->node_thres = percent_arg(g, e->name, arg); break;
	case EXT_EDGE_THRES: o->edge_thres = percent_arg(g, e->name, arg); break;
	case EXT_STACKS: o->stacks = true; break;
	case EXT_PER_THREAD:
		if (arg && !*arg)
			die(g, "--per-thread=: empty thread id or name");
		o->per_thread = true;
		o->thread_sel = arg;
		break;
	case EXT_CLONES: set_clones(g, arg); break;
	}
}

/* The extension argv[i] names, or NULL; *arg points at "=ARG" or "". */
static const struct ext_opt *ext_match(const char *a, const char **arg)
{
	if (a[0] != '-' || a[1] != '-')
		return NULL;
	for (size_t k = 0; k < sizeof ext_opts / sizeof *ext_opts; k++) {
		size_t n = strlen(ext_opts[k].name);
		if (strncmp(a + 2, ext_opts[k].name, n) != 0)
			continue;
		*arg = a + 2 + n;
		if (**arg == '\0' ||
		    (**arg == '=' && ext_opts[k].has_arg != ARG_NONE))
			return &ext_opts[k];
	}
	return NULL;
}

/* Takes this project's options out of argv, before getopt sees it. */
static void take_extensions(struct gprof *g, int *argc, char **argv)
{
	int n = 0, i = 0;
	for (; i < *argc && strcmp(argv[i], "--") != 0; i++) {
		const char *arg;
		const struct ext_opt *e = i > 0 ? ext_match(argv[i], &arg) : NULL;
		if (!e) {
			argv[n++] = argv[i];
			continue;
		}
		if (e->has_arg != ARG_NONE && *arg == '=') {
			arg++;
		} else if (e->has_arg == ARG_OPTIONAL) {
			arg = NULL;          /* given without its argument */
		} else if (e->has_arg == ARG_REQUIRED) {
			if (i + 1 >= *argc)
				die(g, "option `--%s' requires an argument", e->name);
			arg = argv[++i];
		}
		handle_ext(g, e, arg);
	}
	for (; i < *argc; i++)
		argv[n++] = argv[i];
	argv[n] = NULL;
	*argc = n;
}

static void set_defaults(struct options *o)
{
	memset(o, 0, sizeof *o);
	o->demangle = true;
	o->ignore_zeros = true;
	o->width = 80;
	o->table_length = 10;
	o->min_count = 1;
	o->file_format = FF_AUTO;
	o->node_thres = 0.5;
	o->edge_thres = 0.1;
}

void options_parse(struct gprof *g, int argc, char **argv)
{
	struct options *o = &g->opt;
	int c;

	set_defaults(o);
	expandargv(&argc, &argv);
	take_extensions(g, &argc, argv);
	while ((c = getopt_long(argc, argv, short_opts, long_opts, NULL)) != -1)
		handle_opt(g, c, optarg);

	o->image = optind < argc ? argv[optind++] : "a.out";
	if (optind < argc) {
		o->nprofiles = (size_t)(argc - optind);
		o->profiles = (const char **)&argv[optind];
	} else {
		static const char *def[] = { "gmon.out" };
		o->profiles = def;
		o->nprofiles = 1;
	}

	if ((o->style & STYLE_FUNC_ORDER) && (o->style & STYLE_FILE_ORDER))
		die(g, "Only one of --function-ordering and --file-ordering may be specified.");
	/* -i prints text while the files are read: on standard output it
	   would come before a document and spoil it. */
	if ((o->style & STYLE_GMON_INFO) && o->out_format != OUT_TEXT &&
	    !o->output)
		die(g, "-i prints text on standard output: write the %s document "
		    "elsewhere with --output=FILE", format_names[o->out_format]);
	/* The summary file records arcs by the line that makes the call. */
	if (o->style & STYLE_SUMMARY)
		o->line_gran = true;
	choose_clones(g);

	const char *path = getenv("GPROF_PATH");
	if (path)
		add_search_dirs(o, path);
}
