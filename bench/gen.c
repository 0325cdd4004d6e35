/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * gen.c - deterministic synthetic inputs for the benchmarks.
 *
 *   gen asm N SEED > prog.s
 *       assembly for a program with N small functions (about one in
 *       sixteen static) plus main; link with `gcc -no-pie`.
 *   gen gmon NMFILE M SEED OUT [COUNT]
 *       a GNU-format profile for that program, from `nm -n -S` output:
 *       one histogram over the functions' text and M call arcs, with
 *       self-recursion and cycles of several sizes.  With COUNT, writes
 *       OUT.0000 ... OUT.<COUNT-1>: runs of one program, i.e. the same
 *       call graph, each file holding a different part of it and
 *       different counts.
 *   gen stacks NMFILE M SEED NSTACKS > DESC
 *       call stacks along that profile's call graph (the same M and
 *       SEED), as a description for tests/tools/gmsl-gen, which writes
 *       the side file (OUT.shlibs) that --output-format=folded reads.
 *   gen csrc DIR NFILES NFUNCS SEED
 *       a C program of NFILES files with NFUNCS functions each (loops,
 *       switches, inlined static helpers, calls across files) and a
 *       main.c that runs for about a second: a "real" -pg -g program.
 *
 * Everything depends only on the arguments: one seed, one output.
 * Profiles are written little-endian with the address size that the nm
 * output shows (8 bytes for 16 hex digits, else 4).
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static uint64_t rng_state;

/* splitmix64: small, fast and good enough for synthetic data. */
static uint64_t rnd(void)
{
	uint64_t z = (rng_state += 0x9e3779b97f4a7c15ull);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

static uint64_t below(uint64_t n)
{
	return n ? rnd() % n : 0;
}

static void seed(uint64_t s)
{
	rng_state = s * 0x2545f4914f6cdd1dull + 12345;
	(void)rnd();
}

static void *xmalloc(size_t n)
{
	void *p = calloc(1, n ? n : 1);
	if (!p) {
		fprintf(stderr, "gen: out of memory\n");
		exit(1);
	}
	return p;
}

static const char *const words[] = {
	"parse", "emit", "scan", "hash", "node", "tree", "list", "alloc",
	"free", "walk", "fold", "check", "lower", "expand", "print", "sort"
};
#define NWORDS (sizeof words / sizeof words[0])

/* ---------------------------------------------------------------- asm */

static void gen_asm(unsigned long n, uint64_t s)
{
	seed(s);
	printf("\t.text\n");
	printf("\t.globl main\n\t.type main, @function\n\t.p2align 4\nmain:\n"
	       "\txorl %%eax, %%eax\n\tret\n\t.size main, .-main\n");
	for (unsigned long i = 0; i < n; i++) {
		const char *w = words[below(NWORDS)];
		int is_static = below(16) == 0;
		unsigned body = 8 + (unsigned)below(48);
		char name[64];
		snprintf(name, sizeof name, "bf_%s%s_%lu", is_static ? "s_" : "",
		         w, i);
		if (!is_static)
			printf("\t.globl %s\n", name);
		printf("\t.type %s, @function\n\t.p2align 4\n%s:\n"
		       "\t.skip %u, 0x90\n\tret\n\t.size %s, .-%s\n",
		       name, name, body, name, name);
	}
	printf("\t.section .note.GNU-stack,\"\",@progbits\n");
}

/* --------------------------------------------------------------- gmon */

struct fn {
	uint64_t addr, size;
};

struct arcdef {
	uint32_t parent, child;
	uint32_t from_off;
};

static struct fn *fns;
static size_t nfns;
static uint64_t text_lo = UINT64_MAX, text_hi;
static int asize = 8;

/* Reads `nm -n -S` lines: ADDR SIZE TYPE NAME.  Every function symbol
   bounds the histogram; the bench's own (bf_*) are arc endpoints. */
static void read_nm(const char *path)
{
	FILE *f = fopen(path, "r");
	char line[4096];
	size_t cap = 0;
	if (!f) {
		fprintf(stderr, "gen: %s: %s\n", path, strerror(errno));
		exit(1);
	}
	while (fgets(line, sizeof line, f)) {
		char a[64], sz[64], t[8], name[4000];
		if (sscanf(line, "%63s %63s %7s %3999s", a, sz, t, name) != 4)
			continue;
		if (t[0] != 'T' && t[0] != 't')
			continue;
		uint64_t addr = strtoull(a, NULL, 16), size = strtoull(sz, NULL, 16);
		asize = strlen(a) > 8 ? 8 : 4;
		if (addr < text_lo)
			text_lo = addr;
		if (addr + size > text_hi)
			text_hi = addr + size;
		if (strncmp(name, "bf_", 3) != 0 || size < 2)
			continue;
		if (nfns == cap) {
			cap = cap ? cap * 2 : 4096;
			fns = realloc(fns, cap * sizeof *fns);
			if (!fns)
				exit(1);
		}
		fns[nfns].addr = addr;
		fns[nfns].size = size;
		nfns++;
	}
	fclose(f);
	if (nfns < 2) {
		fprintf(stderr, "gen: %s: fewer than two bf_ functions\n", path);
		exit(1);
	}
	text_lo &= ~(uint64_t)15;
}

static struct arcdef *arcs;
static size_t narcs, arccap;

static void add_arc(size_t p, size_t c)
{
	if (narcs == arccap) {
		arccap = arccap ? arccap * 2 : 65536;
		arcs = realloc(arcs, arccap * sizeof *arcs);
		if (!arcs)
			exit(1);
	}
	arcs[narcs].parent = (uint32_t)p;
	arcs[narcs].child = (uint32_t)c;
	/* A call site somewhere after the parent's first byte. */
	arcs[narcs].from_off = (uint32_t)(1 + below(fns[p].size - 1));
	narcs++;
}

/*
 * The call graph: self-recursion in about 2% of the functions; a cycle
 * every 150 functions, over a window of consecutive functions (sizes 2 to
 * 60), closed by one back arc; the other arcs go mostly to a near function,
 * some anywhere, some to a few popular "utilities" at the end.  Those go
 * from a lower index to a higher one, except 1% that point back: they
 * join a good part of the program into one big cycle, as mutual recursion
 * does in large real programs (parsers, interpreters, compilers).
 */
static void make_graph(size_t m, uint64_t s)
{
	static const unsigned sizes[] = { 2, 3, 4, 6, 10, 25, 60 };
	size_t n = nfns, util = n / 50 ? n / 50 : 1;
	seed(s);
	for (size_t i = 0; i < n && narcs < m; i++)
		if (below(50) == 0)
			add_arc(i, i);
	for (size_t w = 0, k = 0; w + 150 <= n && narcs < m; w += 150, k++) {
		unsigned len = sizes[k % (sizeof sizes / sizeof sizes[0])];
		size_t start = w + below(150 - len);
		for (unsigned j = 0; j + 1 < len && narcs < m; j++)
			add_arc(start + j, start + j + 1);
		if (narcs < m)
			add_arc(start + len - 1, start);
	}
	while (narcs < m) {
		size_t p = below(n - 1), c, r = below(100);
		if (r < 60) {
			/* geometric-ish distance, mean about 8 */
			size_t d = 1;
			while (below(8) != 0 && d < 200)
				d++;
			c = p + d;
		} else if (r < 85) {
			c = p + 1 + below(n - 1 - p);
		} else {
			c = n - util + below(util);
		}
		if (c >= n || c <= p)
			continue;
		if (below(100) == 0)
			add_arc(c, p);
		else
			add_arc(p, c);
	}
}

static FILE *out;
static unsigned char obuf[1 << 16];
static size_t olen;

static void flush_out(void)
{
	if (olen && fwrite(obuf, 1, olen, out) != olen) {
		perror("gen: write");
		exit(1);
	}
	olen = 0;
}

static void put(uint64_t v, int nbytes)
{
	if (olen + 8 > sizeof obuf)
		flush_out();
	for (int i = 0; i < nbytes; i++)
		obuf[olen++] = (unsigned char)(v >> (8 * i));
}

static uint32_t arc_count(void)
{
	uint64_t r = below(1000);
	if (r == 0)
		return (uint32_t)(100000 + below(5000000));
	if (r < 50)
		return (uint32_t)(1000 + below(100000));
	return (uint32_t)(1 + below(r < 500 ? 10 : 1000));
}

/* One profile: histogram with samples in about a third of the functions
   (a few hot ones, a long tail), then the arcs kept with probability
   keep/100. */
static void write_gmon(const char *path, uint64_t s, unsigned keep)
{
	uint64_t span = text_hi - text_lo;
	size_t nbins = (size_t)(((span / 2 + 1) & ~(uint64_t)1) / 2);
	uint16_t *bins = xmalloc(nbins * sizeof *bins);

	out = fopen(path, "wb");
	if (!out) {
		fprintf(stderr, "gen: %s: %s\n", path, strerror(errno));
		exit(1);
	}
	seed(s);
	for (size_t i = 0; i < nfns; i++) {
		if (below(3) != 0)
			continue;
		uint64_t r = below(1000), cnt = r < 5 ? 2000 + below(20000) :
		             r < 100 ? 50 + below(500) : 1 + below(20);
		/* spread over up to four points of the function */
		unsigned parts = 1 + (unsigned)below(4);
		for (unsigned k = 0; k < parts; k++) {
			uint64_t a = fns[i].addr + below(fns[i].size);
			size_t b = (size_t)((a - text_lo) * nbins / span);
			uint64_t v = cnt / parts + (k == 0 ? cnt % parts : 0);
			if (b < nbins)
				bins[b] = (uint16_t)(bins[b] + v > 65535 ? 65535 :
				                     bins[b] + v);
		}
	}
	put('g', 1), put('m', 1), put('o', 1), put('n', 1);
	put(1, 4), put(0, 4), put(0, 4), put(0, 4);
	put(0, 1);
	put(text_lo, asize);
	put(text_hi, asize);
	put(nbins, 4);
	put(100, 4);
	const char dim[15] = "seconds";
	for (int i = 0; i < 15; i++)
		put((unsigned char)dim[i], 1);
	put('s', 1);
	for (size_t i = 0; i < nbins; i++)
		put(bins[i], 2);
	for (size_t i = 0; i < narcs; i++) {
		if (keep < 100 && below(100) >= keep)
			continue;
		const struct arcdef *a = &arcs[i];
		uint64_t self_off = fns[a->child].size > 4 ? 4 : 1;
		put(1, 1);
		put(fns[a->parent].addr + a->from_off, asize);
		put(fns[a->child].addr + self_off, asize);
		put(arc_count(), 4);
	}
	flush_out();
	if (fclose(out) != 0) {
		perror(path);
		exit(1);
	}
	free(bins);
}

static void gen_gmon(const char *nm, size_t m, uint64_t s, const char *path,
                     long count)
{
	read_nm(nm);
	make_graph(m, s);
	if (count <= 0) {
		write_gmon(path, s + 1, 100);
		return;
	}
	size_t len = strlen(path) + 16;
	char *name = xmalloc(len);
	for (long i = 0; i < count; i++) {
		snprintf(name, len, "%s.%04ld", path, i);
		write_gmon(name, s + 1 + (uint64_t)i, 60);
	}
	free(name);
}

/* ------------------------------------------------------------- stacks */

/* Call stacks of the same program and call graph, as a description for
   tests/tools/gmsl-gen (a GMON_SHLIBS side file, PROFILE.shlibs): NSTACKS
   sampled stacks, each a walk down the graph's arcs (up to 40 deep) from
   one of the first 64 functions, with a count of 1 to 20 samples.  Each
   step takes a function's first callee half the time, its second a
   quarter of the time, and so on, so that stacks share their hot paths
   as a real program's do.  A caller's frame is its call site's return
   address, one byte past the call. */
static void gen_stacks(const char *nm, size_t m, uint64_t s, size_t nstacks)
{
	read_nm(nm);
	make_graph(m, s);
	size_t *first = xmalloc((nfns + 1) * sizeof *first);
	size_t *by_parent = xmalloc((narcs + 1) * sizeof *by_parent);
	size_t frames[40];

	for (size_t i = 0; i < narcs; i++)
		first[arcs[i].parent + 1]++;
	for (size_t i = 1; i <= nfns; i++)
		first[i] += first[i - 1];
	size_t *fill = xmalloc((nfns + 1) * sizeof *fill);  /* zeroed */
	for (size_t i = 0; i < narcs; i++)
		by_parent[first[arcs[i].parent] + fill[arcs[i].parent]++] = i;
	free(fill);
	printf("header 100 0\nobject 0 0 %#llx %#llx prog -\n"
	       "thread 0 100 main\n", (unsigned long long)text_lo,
	       (unsigned long long)text_hi);
	seed(s + 7);
	for (size_t k = 0; k < nstacks; k++) {
		size_t f = below(nfns < 64 ? nfns : 64), depth = 0;
		size_t cap = 1 + below(40);
		while (depth < cap) {
			size_t n = first[f + 1] - first[f], pick = 0;
			if (n == 0)
				break;
			while (pick + 1 < n && below(2))
				pick++;
			frames[depth++] = by_parent[first[f] + pick];
			f = arcs[frames[depth - 1]].child;
		}
		printf("stacks 0 %llu 0 0:%#llx", 1 + (unsigned long long)below(20),
		       (unsigned long long)(fns[f].addr + below(fns[f].size)));
		while (depth-- > 0) {
			const struct arcdef *a = &arcs[frames[depth]];
			printf(",0:%#llx", (unsigned long long)
			       (fns[a->parent].addr + a->from_off + 1));
		}
		putchar('\n');
	}
	free(first);
	free(by_parent);
}

/* --------------------------------------------------------------- csrc */

static FILE *open_out(const char *dir, const char *name)
{
	char path[4096];
	snprintf(path, sizeof path, "%s/%s", dir, name);
	FILE *f = fopen(path, "w");
	if (!f) {
		fprintf(stderr, "gen: %s: %s\n", path, strerror(errno));
		exit(1);
	}
	return f;
}

/* Function j of file i calls only functions of higher files, or later
   functions of its own file, so the program terminates; two static
   inline helpers per file give inlined code in the line tables. */
static void gen_csrc(const char *dir, unsigned nfiles, unsigned nfuncs,
                     uint64_t s)
{
	FILE *h = open_out(dir, "prog.h");
	seed(s);
	fprintf(h, "/* generated by bench/gen csrc */\n");
	for (unsigned i = 0; i < nfiles; i++)
		for (unsigned j = 0; j < nfuncs; j++)
			fprintf(h, "unsigned long m%u_%s_%u(unsigned long x, int d);\n",
			        i, words[(i + j) % NWORDS], j);
	fclose(h);
	for (unsigned i = 0; i < nfiles; i++) {
		char name[64];
		snprintf(name, sizeof name, "mod%03u.c", i);
		FILE *f = open_out(dir, name);
		fprintf(f, "/* generated by bench/gen csrc */\n#include \"prog.h\"\n\n"
		        "static inline unsigned long mix%u(unsigned long x)\n{\n"
		        "\tx ^= x >> 13;\n\tx *= 0x5bd1e995ul;\n\treturn x ^ (x >> 15);\n}\n\n"
		        "static inline unsigned long step%u(unsigned long x, int k)\n{\n"
		        "\tfor (int i = 0; i < k; i++)\n\t\tx = mix%u(x + (unsigned long)i);\n"
		        "\treturn x;\n}\n\n", i, i, i);
		for (unsigned j = 0; j < nfuncs; j++) {
			fprintf(f, "unsigned long m%u_%s_%u(unsigned long x, int d)\n{\n",
			        i, words[(i + j) % NWORDS], j);
			fprintf(f, "\tunsigned long acc = x;\n");
			switch (below(4)) {
			case 0:
				fprintf(f, "\tfor (int i = 0; i < %u; i++)\n"
				        "\t\tacc = mix%u(acc + (unsigned long)i * %uu);\n",
				        (unsigned)(4 + below(20)), i, (unsigned)below(1000));
				break;
			case 1:
				fprintf(f, "\tswitch (acc %% 5) {\n"
				        "\tcase 0: acc += %uu; break;\n"
				        "\tcase 1: acc = step%u(acc, 3); break;\n"
				        "\tcase 2: acc ^= acc << 7; break;\n"
				        "\tcase 3: acc = mix%u(acc); break;\n"
				        "\tdefault: acc -= %uu; break;\n\t}\n",
				        (unsigned)below(100000), i, i,
				        (unsigned)below(100000));
				break;
			case 2:
				fprintf(f, "\tacc = step%u(acc, %u);\n", i,
				        (unsigned)(2 + below(8)));
				break;
			default:
				fprintf(f, "\tif (acc & 1)\n\t\tacc = acc * 3 + 1;\n"
				        "\telse\n\t\tacc /= 2;\n");
				break;
			}
			/* calls, limited by depth */
			unsigned ncalls = (unsigned)below(4);
			fprintf(f, "\tif (d > 0) {\n");
			for (unsigned c = 0; c < ncalls; c++) {
				unsigned ti, tj;
				if (below(3) == 0 && i + 1 < nfiles) {
					ti = i + 1 + (unsigned)below(nfiles - i - 1);
					tj = (unsigned)below(nfuncs);
				} else if (j + 1 < nfuncs) {
					ti = i;
					tj = j + 1 + (unsigned)below(nfuncs - j - 1);
				} else {
					continue;
				}
				fprintf(f, "\t\tif ((acc >> %u) & 1)\n"
				        "\t\t\tacc += m%u_%s_%u(acc, d - 1);\n",
				        c + 1, ti, words[(ti + tj) % NWORDS], tj);
			}
			fprintf(f, "\t}\n\treturn acc;\n}\n\n");
		}
		fclose(f);
	}
	FILE *m = open_out(dir, "main.c");
	fprintf(m, "/* generated by bench/gen csrc */\n#include <stdio.h>\n"
	        "#include <stdlib.h>\n#include \"prog.h\"\n\n"
	        "int main(int argc, char **argv)\n{\n"
	        "\tlong rounds = argc > 1 ? atol(argv[1]) : 200;\n"
	        "\tunsigned long acc = 1;\n"
	        "\tfor (long r = 0; r < rounds; r++) {\n");
	for (unsigned i = 0; i < nfiles; i++)
		fprintf(m, "\t\tacc += m%u_%s_0(acc + (unsigned long)r, 6);\n",
		        i, words[i % NWORDS]);
	fprintf(m, "\t}\n\tprintf(\"%%lu\\n\", acc);\n\treturn 0;\n}\n");
	fclose(m);
}

/* --------------------------------------------------------------- main */

static void usage(void)
{
	fprintf(stderr, "usage: gen asm N SEED\n"
	        "       gen gmon NMFILE M SEED OUT [COUNT]\n"
	        "       gen stacks NMFILE M SEED NSTACKS\n"
	        "       gen csrc DIR NFILES NFUNCS SEED\n");
	exit(2);
}

int main(int argc, char **argv)
{
	if (argc < 2)
		usage();
	if (strcmp(argv[1], "asm") == 0 && argc == 4)
		gen_asm(strtoul(argv[2], NULL, 0), strtoull(argv[3], NULL, 0));
	else if (strcmp(argv[1], "gmon") == 0 && (argc == 6 || argc == 7))
		gen_gmon(argv[2], strtoul(argv[3], NULL, 0),
		         strtoull(argv[4], NULL, 0), argv[5],
		         argc == 7 ? strtol(argv[6], NULL, 0) : 0);
	else if (strcmp(argv[1], "stacks") == 0 && argc == 6)
		gen_stacks(argv[2], strtoul(argv[3], NULL, 0),
		           strtoull(argv[4], NULL, 0), strtoul(argv[5], NULL, 0));
	else if (strcmp(argv[1], "csrc") == 0 && argc == 6)
		gen_csrc(argv[2], (unsigned)strtoul(argv[3], NULL, 0),
		         (unsigned)strtoul(argv[4], NULL, 0),
		         strtoull(argv[5], NULL, 0));
	else
		usage();
	return 0;
}
