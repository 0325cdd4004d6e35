/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * json_numbers.c - unit test of the JSON writer's numbers
 * (src/print/json_writer.c), which it formats itself rather than with
 * printf: every double must come out as the first of %.15g, %.16g and
 * %.17g that strtod reads back as the same double (the writer's rule
 * before it formatted numbers itself), byte for byte, and integers as
 * printf prints them.  Doubles of every kind: random bit patterns,
 * sample counts over rates, times per call, values next to powers of ten
 * and of two, integers and their neighbours.
 */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "print/json_writer.h"
#include "unit.h"

static uint64_t state = 0x9e3779b97f4a7c15ull;

static uint64_t rnd(void)
{
	state ^= state << 13;
	state ^= state >> 7;
	state ^= state << 17;
	return state;
}

/* The i-th test value: a mix of the kinds a profile holds. */
static double value(long i)
{
	double v;
	uint64_t bits;

	switch (i % 8) {
	case 0:
		bits = rnd();
		memcpy(&v, &bits, sizeof v);
		return v;
	case 1:
		return (double)(rnd() % 10000000) / 100;
	case 2:
		return (double)(rnd() % 1000000) / (double)(rnd() % 100000 + 1);
	case 3:
		return ldexp((double)(rnd() >> 11), -(int)(rnd() % 120));
	case 4:
		return (double)(rnd() % 1000000) * 1e-9 / (double)(rnd() % 1000 + 1);
	case 5:
		v = pow(10, (int)(rnd() % 36) - 18);
		for (uint64_t k = rnd() % 4; k > 0; k--)
			v = nextafter(v, rnd() % 2 ? 0 : INFINITY);
		return v;
	case 6:
		v = ldexp(1, (int)(rnd() % 120) - 60);
		return rnd() % 2 ? nextafter(v, 0) : v;
	default:
		v = (double)(int64_t)(rnd() >> (rnd() % 64));
		return rnd() % 3 ? v : nextafter(v, INFINITY);
	}
}

/* The writer's output for one value: {"v": X} on one line. */
static bool written(double v, char *buf, size_t size)
{
	char *mem = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&mem, &len);
	struct jw w;

	if (!f)
		return false;
	jw_init(&w, f);
	jw_open(&w, '{', true);
	knum(&w, "v", v);
	jw_close(&w, '}');
	fclose(f);
	bool ok = len > 8 && len - 8 < size;
	if (ok) {
		memcpy(buf, mem + 6, len - 8);      /* between `{"v": ` and `}\n` */
		buf[len - 8] = '\0';
	}
	free(mem);
	return ok;
}

static void wanted(double v, char *buf, size_t size)
{
	if (!isfinite(v)) {
		snprintf(buf, size, "null");
		return;
	}
	for (int prec = 15; prec <= 17; prec++) {
		snprintf(buf, size, "%.*g", prec, v);
		if (strtod(buf, NULL) == v)
			break;
	}
}

void unit_json_numbers(void)
{
	char got[64] = "", want[64];
	bool ok = true;
	int shown = 0;

	for (long i = 0; i < 200000; i++) {
		double v = value(i);
		wanted(v, want, sizeof want);
		if (!written(v, got, sizeof got) || strcmp(got, want) != 0) {
			ok = false;
			if (shown++ < 5)
				printf("    %a: got %s, want %s\n", v, got, want);
		}
	}
	unit_check(ok, "json_numbers");
}
