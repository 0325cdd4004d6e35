/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * utils.c - allocation, messages and fast number formatting for the
 * reports (the interning of names is symbols/files.c's).
 */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "util/util.h"

/* Fuzz harnesses set this to regain control instead of exiting. */
jmp_buf *gprof_exit_jmp;

void gprof_exit(int status)
{
	fflush(stdout);
	if (gprof_exit_jmp)
		longjmp(*gprof_exit_jmp, status ? status : 256);
	exit(status);
}

/* Big arrays are visited at random (the symbols, the arcs, the callee
   arrays), so with 4 KiB pages most of those visits also miss the TLB;
   asking for huge pages where the system grants them on request (THP in
   "madvise" mode, Debian's default) cuts that cost.  Only the
   2 MiB-aligned interior of a block is advised, so no memory outside it
   is touched; a refusal changes nothing. */
#define HUGE_PAGE ((uintptr_t)2 << 20)

static void *advise_huge(void *p, size_t n)
{
#ifdef MADV_HUGEPAGE
	uintptr_t lo = ((uintptr_t)p + HUGE_PAGE - 1) & ~(HUGE_PAGE - 1);
	uintptr_t hi = ((uintptr_t)p + n) & ~(HUGE_PAGE - 1);
	if (n >= 2 * HUGE_PAGE && hi > lo)
		(void)madvise((void *)lo, hi - lo, MADV_HUGEPAGE);
#else
	(void)n;
#endif
	return p;
}

void *xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);
	if (!p) {
		fputs("gprof: out of memory\n", stderr);
		gprof_exit(1);
	}
	return advise_huge(p, n);
}

void *xcalloc(size_t n, size_t size)
{
	void *p = calloc(n ? n : 1, size ? size : 1);
	if (!p) {
		fputs("gprof: out of memory\n", stderr);
		gprof_exit(1);
	}
	return advise_huge(p, n * size);
}

void *xrealloc(void *p, size_t n)
{
	p = realloc(p, n ? n : 1);
	if (!p) {
		fputs("gprof: out of memory\n", stderr);
		gprof_exit(1);
	}
	return advise_huge(p, n);
}

char *xstrdup(const char *s)
{
	size_t n = strlen(s) + 1;
	return memcpy(xmalloc(n), s, n);
}

/* One message line on stderr, after whatever the report has printed;
   `who` (argv[0], as in GNU's messages) may be NULL for the few messages
   GNU prints without a program name. */
static void vmessage(const char *who, const char *fmt, va_list ap)
{
	fflush(stdout);
	if (who)
		fprintf(stderr, "%s: ", who);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
}

void die_as(const char *who, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vmessage(who, fmt, ap);
	va_end(ap);
	gprof_exit(1);
}

void warn_as(const char *who, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vmessage(who, fmt, ap);
	va_end(ap);
}

/* Debug traces go to stdout, interleaved with the report, as GNU's do
   (util.h's debug_printf asks whether the area is on). */
void debug_out(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
}

/* ---- fast number formatting for the reports ---- */

/* A big report formats millions of numbers: digits go two at a time,
   straight to their place, and blanks are written in blocks of a fixed
   size (which compile to a few stores, not a call). */
static const char digit_pairs[] =
	"0001020304050607080910111213141516171819"
	"2021222324252627282930313233343536373839"
	"4041424344454647484950515253545556575859"
	"6061626364656667686970717273747576777879"
	"8081828384858687888990919293949596979899";

/* The number of decimal digits of v. */
static int ndigits(uint64_t v)
{
	uint64_t p = 10;
	int n = 1;

	for (; n < 20 && v >= p; n++)
		p *= 10;
	return n;
}

/* The low `count` digits of v, with leading zeros, ending just before
   `end`. */
static inline void digits_before(char *end, uint64_t v, int count)
{
	for (; count >= 2; count -= 2) {
		end -= 2;
		memcpy(end, digit_pairs + 2 * (v % 100), 2);
		v /= 100;
	}
	if (count)
		end[-1] = (char)('0' + v % 10);
}

/* Writes v as printf("%*.*f", width, prec, v) does into buf (FMT_BUF
   bytes) and returns the length.  printf rounds the exact binary value;
   so does this, because it is used only when the scaled value is clearly
   away from a rounding tie: ties, near-ties, huge and non-finite values go
   to snprintf. */
int fmt_fixed(char *buf, double v, int width, int prec)
{
	static const double p10[] = { 1, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6 };
	static const uint64_t u10[] = { 1, 10, 100, 1000, 10000, 100000,
	                                1000000 };
	double mag = v < 0 ? -v : v;
	if (prec < 0 || prec > 6 || width > 40 || !(mag < 1e15 / p10[prec]))
		return snprintf(buf, FMT_BUF, "%*.*f", width, prec, v);
	/* a is |v| * 10^prec within half an ulp, so its fraction is within
	   a * 2^-53 of the exact one: well clear of .5, both round alike */
	double a = mag * p10[prec];
	uint64_t n = (uint64_t)a;
	double frac = a - (double)n, off = frac > 0.5 ? frac - 0.5 : 0.5 - frac;
	if (off <= a * 0x1p-50 + 0x1p-60)
		return snprintf(buf, FMT_BUF, "%*.*f", width, prec, v);
	n += frac > 0.5;
	/* n < 10^15 here: at most 16 digits, a point and a sign */
	uint64_t whole = n / u10[prec];
	int nwhole = ndigits(whole), neg = signbit(v) != 0;
	int len = neg + nwhole + (prec > 0 ? 1 + prec : 0);
	int pad = width > len ? width - len : 0;
	char *end = buf + pad + len;
	memset(buf, ' ', 40);
	if (prec > 0) {
		digits_before(end, n % u10[prec], prec);
		end -= prec + 1;
		*end = '.';
	}
	digits_before(end, whole, nwhole);
	if (neg)
		buf[pad] = '-';
	buf[pad + len] = '\0';
	return pad + len;
}

/* v as printf("%*" PRIu64) (left-aligned if `left`) into buf (32 bytes at
   least); returns the length. */
int fmt_uint(char *buf, uint64_t v, int width, bool left)
{
	int len = ndigits(v);
	if (width > 31)
		width = 31;
	int pad = width > len ? width - len : 0;
	memset(buf, ' ', 31);
	digits_before(buf + (left ? 0 : pad) + len, v, len);
	buf[len + pad] = '\0';
	return len + pad;
}
