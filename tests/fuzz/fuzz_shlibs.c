/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * fuzz_shlibs.c - libFuzzer harness for the GMON_SHLIBS side-file reader
 * (src/shlibs_io.c): reading and checking, merging, summing, writing.
 *
 * Input: the side file.  Whatever the reader accepts must survive the
 * -s round trip: merged into an empty sum, combined, written and read
 * back, it must come back entry for entry, with the same sample and arc
 * totals as were read; merged with itself, every total must double.
 */
#include <stdlib.h>
#include <string.h>

#include "fuzz_common.h"
#include "shlibs_io.h"

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

	gmsl_merge(&sum, f);         /* twice the data, same objects */
	gmsl_combine(&sum);
	totals(&sum, &s1, &a1);
	if (s1 != 2 * s0 || a1 != 2 * a0 || sum.nobjs != back.nobjs)
		abort();
	gmsl_free(&back);
	gmsl_free(&sum);
	free(buf);
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
	gmsl_free(&f);
	fuzz_end();
	return 0;
}
