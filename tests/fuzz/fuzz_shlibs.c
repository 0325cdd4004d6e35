/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * fuzz_shlibs.c - libFuzzer harness for the GMON_SHLIBS side-file reader
 * (src/reading/shlibs_io.c): reading and checking; merging, summing and
 * writing (src/reading/shlibs_sum.c).
 *
 * Input: the side file.  Whatever the reader accepts must survive the
 * -s round trip: merged into an empty sum, combined, written and read
 * back, it must come back entry for entry, with the same sample and arc
 * totals as were read; merged with itself, every total must double.
 *
 * When the header's clock field has bit 1 set (the reader takes any
 * clock), the file is also given to the whole tool (shlibs.c), as
 * gmon.out.shlibs beside tests/fuzz/prog's gmon.out in a scratch folder
 * that also holds a link "prog" to the executable: objects named "prog"
 * load its symbols as a library's.  Bits 2 and up choose the options.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fuzz_common.h"
#include "reading/shlibs_io.h"

typedef unsigned __int128 u128;

static void totals(const struct gmsl_file *f, u128 *samples, u128 *arcs)
{
	*samples = *arcs = 0;
	for (size_t i = 0; i < f->nsamples; i++)
		*samples += f->samples[i].count;
	for (size_t i = 0; i < f->narcs; i++)
		*arcs += f->arcs[i].count;
}

static void same_objects(const struct gmsl_file *a, const struct gmsl_file *b)
{
	if (a->nobjs != b->nobjs || a->rate != b->rate || a->clock != b->clock)
		abort();
	for (size_t k = 0; k < a->nobjs; k++) {
		const struct gmsl_object *x = &a->objs[k], *y = &b->objs[k];
		if (y->id != k || strcmp(x->path, y->path) != 0 ||
		    x->build_id_len != y->build_id_len ||
		    memcmp(x->build_id, y->build_id, x->build_id_len) != 0 ||
		    x->bias != y->bias || x->lo != y->lo || x->hi != y->hi)
			abort();
	}
}

static void same_data(const struct gmsl_file *a, const struct gmsl_file *b)
{
	if (a->nsamples != b->nsamples || a->narcs != b->narcs)
		abort();
	for (size_t i = 0; i < a->nsamples; i++)
		if (memcmp(&a->samples[i], &b->samples[i], sizeof *a->samples))
			abort();
	for (size_t i = 0; i < a->narcs; i++)
		if (memcmp(&a->arcs[i], &b->arcs[i], sizeof *a->arcs))
			abort();
}

static bool same_times(const struct gmsl_times *a, const struct gmsl_times *b)
{
	return a->have == b->have && a->flags == b->flags &&
	       a->user_ns == b->user_ns && a->sys_ns == b->sys_ns &&
	       a->wall_ns == b->wall_ns;
}

/* PTIMES and each thread's TTIMES survive the write (threads keep their
   order and ids through gmsl_write and gmsl_parse). */
static void same_times_all(const struct gmsl_file *a, const struct gmsl_file *b)
{
	if (!same_times(&a->ptimes, &b->ptimes) || a->nthreads != b->nthreads)
		abort();
	for (size_t k = 0; k < a->nthreads; k++)
		if (!same_times(&a->threads[k].times, &b->threads[k].times))
			abort();
}

/* The sum of f as -s writes it, read back. */
static void round_trip(const struct gprof *g, const struct gmsl_file *f)
{
	struct gmsl_file sum = { 0 }, back;
	u128 s0, a0, s1, a1;
	gmsl_merge(&sum, f);
	gmsl_combine(&sum);
	totals(f, &s0, &a0);
	totals(&sum, &s1, &a1);
	if (s0 != s1 || a0 != a1)
		abort();

	char *buf = NULL;
	size_t len = 0;
	FILE *mem = open_memstream(&buf, &len);
	if (!mem || !gmsl_write(&sum, mem) || fclose(mem) != 0)
		abort();
	gmsl_parse(g, &back, "sum", (const unsigned char *)buf, len);
	same_objects(&sum, &back);
	same_data(&sum, &back);
	same_times_all(&sum, &back);

	gmsl_merge(&sum, f);         /* twice the data, same objects */
	gmsl_combine(&sum);
	totals(&sum, &s1, &a1);
	if (s1 != 2 * s0 || a1 != 2 * a0 || sum.nobjs != back.nobjs)
		abort();
	gmsl_free(&back);
	gmsl_free(&sum);
	free(buf);
}

static const char *const sets[][5] = {
	{ "-b" },
	{ "-b", "-s" },
	{ "-b", "-z", "-c" },
	{ "-b", "-l" },
	{ "-i", "-b", "-ptop", "-Qeven" },
	{ "-b", "-T", "-a", "-Eleaf" },
	{ "-b", "--no-shlibs" },
	{ "-r" },
	/* the call stacks' and threads' records, as the reports use them */
	{ "--output-format=folded" },
	{ "--output-format=flame" },
	{ "-b", "--stacks" },
	{ "-b", "--stacks", "--output-format=json" },
	{ "-b", "--per-thread" },
	{ "-b", "--per-thread=1", "--stacks" },
	{ "--output-format=pprof" },
	/* the side file described (shlibs_info.c), the diagnosis, clones */
	{ "-i" },
	{ "--diagnose" },
	{ "-b", "--clones=merge" },
	{ "--clones=separate", "--diagnose" },
};
#define NSETS (sizeof sets / sizeof sets[0])

static void write_file(const char *name, const uint8_t *data, size_t len)
{
	char path[4096];
	snprintf(path, sizeof path, "%s/%s", fuzz_workdir(), name);
	FILE *f = fopen(path, "wb");
	if (!f || (len && fwrite(data, 1, len, f) != len) || fclose(f) != 0)
		abort();
}

/* The scratch folder's gmon.out and prog, made once. */
static void set_up_folder(void)
{
	static int done;
	if (done)
		return;
	done = 1;
	FILE *in = fopen(fuzz_prog_gmon(), "rb");
	static uint8_t buf[1 << 16];
	size_t n = in ? fread(buf, 1, sizeof buf, in) : 0;
	if (!in || n == 0)
		abort();
	fclose(in);
	write_file("gmon.out", buf, n);
	char link[4096];
	snprintf(link, sizeof link, "%s/prog", fuzz_workdir());
	unlink(link);
	if (symlink(fuzz_prog_path(), link) != 0)
		abort();
}

static void run_tool(const uint8_t *data, size_t size, uint32_t clock)
{
	const char *const *set = sets[(clock >> 2) % NSETS];
	char *argv[10];
	int argc = 0;
	argv[argc++] = "gprof";
	for (int i = 0; i < 5 && set[i]; i++)
		argv[argc++] = (char *)set[i];
	argv[argc++] = "prog";
	argv[argc++] = "gmon.out";
	argv[argc] = NULL;
	set_up_folder();
	write_file("gmon.out.shlibs", data, size);
	fuzz_run_gprof(argc, argv);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	fuzz_begin();
	static struct gprof g;
	struct gmsl_file f = { 0 };
	int st;
	g.whoami = "gprof";
	FUZZ_TRY(st) {
		gmsl_parse(&g, &f, "in.shlibs", data, size);
	} FUZZ_END;
	if (st == 0)
		round_trip(&g, &f);
	if (st == 0 && (f.clock & 2))
		run_tool(data, size, f.clock);
	gmsl_free(&f);
	fuzz_end();
	return 0;
}
