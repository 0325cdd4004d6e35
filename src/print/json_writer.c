/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * json_writer.c - owns the small JSON writer of the JSON printers
 * (json_print.c): indented JSON, small objects on one line, strings
 * escaped as RFC 8259 asks, numbers in the shortest form that reads back
 * the same, addresses as strings (json_writer.h).
 *
 * Everything goes through one block buffer, and numbers are formatted
 * here rather than by printf: a document of a million arcs holds some
 * ten million numbers, and printf with strtod to check each one's
 * shortest form took three quarters of the run (bench/docs.sh).
 */
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "print/print.h"
#include "json_writer.h"

void jw_init(struct jw *w, FILE *out)
{
	memset(w, 0, sizeof *w);
	ob_init(&w->ob, out);
	w->first[0] = true;
	w->inline_from = JW_MAX_DEPTH;
}

void jw_flush(struct jw *w)
{
	ob_flush(&w->ob);
}

static inline void put(struct jw *w, const char *s, size_t n)
{
	ob_write(&w->ob, s, n);
}

static inline void putch(struct jw *w, char c)
{
	ob_putc(&w->ob, c);
}

#define PUTS(w, lit) put((w), (lit), sizeof(lit) - 1)

static void jw_newline(struct jw *w, int depth)
{
	static const char spaces[2 * JW_MAX_DEPTH + 1] =
		"\n                                ";

	put(w, spaces, 1 + 2 * (size_t)depth);
}

/* What goes before a value or a key: the comma after the previous one,
   then a new line or, in a one-line container, a space. */
static void jw_sep(struct jw *w)
{
	if (w->after_key) {
		w->after_key = false;
		return;
	}
	if (w->depth == 0)
		return;
	if (!w->first[w->depth])
		putch(w, ',');
	if (w->depth < w->inline_from)
		jw_newline(w, w->depth);
	else if (!w->first[w->depth])
		putch(w, ' ');
	w->first[w->depth] = false;
}

/* A string's bytes, escaped as RFC 8259 asks.  Names are bytes, not
   always UTF-8: a byte that does not start a well-formed UTF-8 sequence
   becomes U+FFFD, so the document is always valid UTF-8. */
static size_t utf8_seq(const unsigned char *p)
{
	unsigned c = p[0];
	size_t n;
	unsigned lo = 0x80, hi = 0xbf;

	if (c >= 0xc2 && c <= 0xdf)
		n = 2;
	else if (c >= 0xe0 && c <= 0xef)
		n = 3;
	else if (c >= 0xf0 && c <= 0xf4)
		n = 4;
	else
		return 0;
	/* Overlong forms, surrogates and code points past U+10FFFF are
	   ruled out by the second byte's range. */
	if (c == 0xe0)
		lo = 0xa0;
	else if (c == 0xed)
		hi = 0x9f;
	else if (c == 0xf0)
		lo = 0x90;
	else if (c == 0xf4)
		hi = 0x8f;
	if (p[1] < lo || p[1] > hi)
		return 0;
	for (size_t i = 2; i < n; i++)
		if (p[i] < 0x80 || p[i] > 0xbf)
			return 0;
	return n;
}

/* A byte a string holds as it is: printable ASCII but quote and
   backslash. */
static inline bool plain_byte(unsigned c)
{
	return c >= 0x20 && c < 0x80 && c != '"' && c != '\\';
}

/* The escape of one byte that is not plain; p moves past what it used. */
static void jw_escape_one(struct jw *w, const unsigned char **pp)
{
	const unsigned char *p = *pp;
	unsigned c = *p;
	static const char hex[] = "0123456789abcdef";

	*pp = p + 1;
	if (c == '"' || c == '\\') {
		char e[2] = { '\\', (char)c };
		put(w, e, 2);
	} else if (c == '\n') {
		PUTS(w, "\\n");
	} else if (c == '\t') {
		PUTS(w, "\\t");
	} else if (c < 0x20) {
		char e[6] = { '\\', 'u', '0', '0', hex[c >> 4], hex[c & 15] };
		put(w, e, 6);
	} else {
		size_t n = utf8_seq(p);
		if (n == 0) {
			PUTS(w, "\\ufffd");
			return;
		}
		put(w, (const char *)p, n);
		*pp = p + n;
	}
}

/* Runs of plain bytes (every byte of most names) are copied whole. */
static void jw_escaped(struct jw *w, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;

	putch(w, '"');
	while (*p) {
		const unsigned char *run = p;
		while (plain_byte(*p))
			p++;
		put(w, (const char *)run, (size_t)(p - run));
		if (*p)
			jw_escape_one(w, &p);
	}
	putch(w, '"');
}

void jw_open(struct jw *w, char c, bool one_line)
{
	jw_sep(w);
	putch(w, c);
	if (w->depth + 1 >= JW_MAX_DEPTH)
		abort();                /* the documents nest 6 deep at most */
	w->depth++;
	w->first[w->depth] = true;
	if (one_line && w->depth < w->inline_from)
		w->inline_from = w->depth;
}

/* Closing the outermost container ends the document: the buffer goes to
   the FILE and is freed.  The final newline goes through stdio's own
   buffer: a write that failed (a full disk) then still has a byte
   pending when the output is closed, whose flush fails again and says
   why (output.c reads errno there; a failed fwrite of the whole block
   leaves nothing pending, and the cause was lost). */
void jw_close(struct jw *w, char c)
{
	bool empty = w->first[w->depth];

	if (!empty && w->depth < w->inline_from)
		jw_newline(w, w->depth - 1);
	if (w->inline_from == w->depth)
		w->inline_from = JW_MAX_DEPTH;
	w->depth--;
	putch(w, c);
	if (w->depth == 0) {
		ob_flush(&w->ob);
		fputc('\n', w->ob.f);
		ob_free(&w->ob);
	}
}

/* Keys are the printers' own identifiers, never in need of an escape:
   copied as they are. */
void jw_key(struct jw *w, const char *key)
{
	size_t n = strlen(key);

	jw_sep(w);
	if (n + 4 > OB_ROOM_MAX) {
		jw_escaped(w, key);
		PUTS(w, ": ");
	} else {
		char *p = ob_room(&w->ob, n + 4);
		p[0] = '"';
		memcpy(p + 1, key, n);
		memcpy(p + 1 + n, "\": ", 3);
		w->ob.len += n + 4;
	}
	w->after_key = true;
}

void jw_str(struct jw *w, const char *s)
{
	jw_sep(w);
	if (s)
		jw_escaped(w, s);
	else
		PUTS(w, "null");
}

void jw_null(struct jw *w)
{
	jw_sep(w);
	PUTS(w, "null");
}

/* ---- numbers ---- */

/* v's decimal digits, at most 20, written backwards from end; returns
   where they start. */
static char *digits_back(char *end, uint64_t v)
{
	do {
		*--end = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	return end;
}

static size_t dec_uint(char *buf, uint64_t v)
{
	char tmp[24];
	char *p = digits_back(tmp + sizeof tmp, v);
	size_t n = (size_t)(tmp + sizeof tmp - p);

	memcpy(buf, p, n);
	return n;
}

/* The old way, kept for the doubles the exact path below does not
   take: the first of %.15g, %.16g, %.17g that reads back as v. */
static size_t fmt_double_printf(char *buf, size_t size, double v)
{
	for (int prec = 15; prec <= 17; prec++) {
		snprintf(buf, size, "%.*g", prec, v);
		if (strtod(buf, NULL) == v)
			break;
	}
	return strlen(buf);
}

#ifdef __SIZEOF_INT128__
typedef unsigned __int128 u128;

static const uint64_t pow10_u64[] = {
	1ull, 10ull, 100ull, 1000ull, 10000ull, 100000ull, 1000000ull,
	10000000ull, 100000000ull, 1000000000ull, 10000000000ull,
	100000000000ull, 1000000000000ull, 10000000000000ull,
	100000000000000ull, 1000000000000000ull, 10000000000000000ull,
	100000000000000000ull, 1000000000000000000ull
};

#define POW5_MAX 27             /* 5^27 < 2^63 */

static const uint64_t pow5_u64[POW5_MAX + 1] = {
	1ull, 5ull, 25ull, 125ull, 625ull, 3125ull, 15625ull, 78125ull,
	390625ull, 1953125ull, 9765625ull, 48828125ull, 244140625ull,
	1220703125ull, 6103515625ull, 30517578125ull, 152587890625ull,
	762939453125ull, 3814697265625ull, 19073486328125ull,
	95367431640625ull, 476837158203125ull, 2384185791015625ull,
	11920928955078125ull, 59604644775390625ull, 298023223876953125ull,
	1490116119384765625ull, 7450580596923828125ull
};

static inline uint64_t pow5(int s)
{
	return pow5_u64[s];
}

/* A positive normal double as f * 2^e, f of 53 bits. */
struct binary {
	uint64_t f;
	int e;
};

/* v * 10^s, exactly (v * 10^s = f * 5^s * 2^(e+s)): its integer part,
   and rounded to the nearest integer (ties to even, as glibc's printf
   rounds).  *away is how far the rounded value lies from the exact one,
   in units of 2^(e+s) (0 when exact), *up whether it lies above.  false
   when out of reach. */
struct scaled {
	uint64_t ip, x;
	u128 away;
	bool up;
};

static bool scale_round(struct binary b, int s, struct scaled *r)
{
	u128 q = (u128)b.f * pow5(s);
	int t = b.e + s;

	r->away = 0;
	r->up = false;
	if (t >= 0) {
		if (t > 10 || (q << t) >> 63)
			return false;
		r->ip = r->x = (uint64_t)(q << t);
		return true;
	}
	int sh = -t;
	if (sh >= 120)
		return false;
	u128 one = (u128)1 << sh;
	u128 rem = q & (one - 1);
	u128 half = one >> 1;
	u128 ip = q >> sh;
	if (ip >> 62)
		return false;
	r->ip = r->x = (uint64_t)ip;
	if (rem > half || (rem == half && (r->x & 1))) {
		r->x++;
		r->away = one - rem;
		r->up = true;
	} else {
		r->away = rem;
	}
	return true;
}

/* v rounded to n significant digits: digits * 10^(k + 1 - n), with
   10^(n-1) <= digits <= 10^n (10^n when the rounding carried), k the
   decimal exponent of v itself.  *roundtrip: does that decimal read back
   as v (strtod rounds to nearest, ties to even)?  false when out of
   reach. */
static bool round_digits(struct binary b, double v, int n, uint64_t *digits,
                         int *k, bool *roundtrip)
{
	int kk = (int)floor(log10(v));

	for (int tries = 0; tries < 3; tries++) {
		int s = n - 1 - kk;
		struct scaled r;
		if (s < 0 || s > POW5_MAX || !scale_round(b, s, &r))
			return false;
		/* the estimate of the exponent may be one off either way */
		if (r.ip < pow10_u64[n - 1]) {
			kk--;
			continue;
		}
		if (r.ip >= pow10_u64[n]) {
			kk++;
			continue;
		}
		/* v's neighbours lie 2^e away (half that below a power of
		   two): the decimal reads back as v when it lies within half
		   of that, which is 5^s / 2 (or 5^s / 4) in the units of
		   r.away.  5^s is odd, so there is never a tie. */
		u128 p5 = pow5(s);
		if (!r.up && r.away != 0 && b.f == (1ull << 52))
			*roundtrip = 4 * r.away < p5;
		else
			*roundtrip = 2 * r.away < p5;
		*digits = r.x;
		*k = kk;
		return true;
	}
	return false;
}

/* %.{n}g of the decimal digits * 10^(k + 1 - n) (n digits, or 10^n when
   the rounding carried into the next power of ten): the shortest of
   fixed and exponent notation as %g chooses, trailing zeros dropped. */
static size_t fmt_g(char *buf, uint64_t digits, int k, int n)
{
	char ds[24];
	size_t nd = (size_t)n, len = 0;

	if (digits == pow10_u64[n]) {
		digits = pow10_u64[n - 1];
		k++;
	}
	while (nd > 1 && digits % 10 == 0) {
		digits /= 10;
		nd--;
	}
	memcpy(ds, digits_back(ds + nd, digits), nd);
	if (k >= -4 && k < n) {
		if (k < 0) {
			buf[len++] = '0';
			buf[len++] = '.';
			for (int i = -1; i > k; i--)
				buf[len++] = '0';
			memcpy(buf + len, ds, nd);
			return len + nd;
		}
		size_t ip = (size_t)k + 1;
		for (size_t i = 0; i < ip; i++)
			buf[len++] = i < nd ? ds[i] : '0';
		if (nd > ip) {
			buf[len++] = '.';
			memcpy(buf + len, ds + ip, nd - ip);
			len += nd - ip;
		}
		return len;
	}
	buf[len++] = ds[0];
	if (nd > 1) {
		buf[len++] = '.';
		memcpy(buf + len, ds + 1, nd - 1);
		len += nd - 1;
	}
	buf[len++] = 'e';
	buf[len++] = k < 0 ? '-' : '+';
	unsigned ak = (unsigned)(k < 0 ? -k : k);
	if (ak < 10)
		buf[len++] = '0';
	return len + dec_uint(buf + len, ak);
}

/* The exact path: v positive, normal, between about 1e-11 and 1e15. */
static bool fmt_double_exact(char *buf, double v, size_t *len)
{
	uint64_t bits;
	memcpy(&bits, &v, sizeof bits);
	int be = (int)(bits >> 52) & 0x7ff;

	if (be == 0)
		return false;           /* subnormal: printf's business */
	struct binary b = {
		(bits & ((1ull << 52) - 1)) | (1ull << 52), be - 1075
	};
	for (int n = 15; n <= 17; n++) {
		uint64_t digits;
		int k;
		bool rt;
		if (!round_digits(b, v, n, &digits, &k, &rt))
			return false;
		if (rt) {
			*len = fmt_g(buf, digits, k, n);
			return true;
		}
	}
	return false;                   /* 17 digits always read back */
}
#endif

/* The first of %.15g, %.16g and %.17g that reads back as v: what the
   printf-and-strtod loop of fmt_double_printf() gives, byte for byte,
   without either call for the numbers of a profile (integers, and
   doubles of 1e-11 to 1e15, made exactly in 128-bit integers).  buf has
   room for 32 bytes. */
static size_t fmt_double(char *buf, double v)
{
	size_t len = 0;

	if (signbit(v)) {
		buf[len++] = '-';
		v = -v;
	}
	if (v < 1e15 && v == (double)(uint64_t)v)
		return len + dec_uint(buf + len, (uint64_t)v);
#ifdef __SIZEOF_INT128__
	size_t n;
	if (fmt_double_exact(buf + len, v, &n))
		return len + n;
#endif
	return len + fmt_double_printf(buf + len, 32 - len, v);
}

/* The shortest form that reads back as the same double; null for inf
   and nan, which JSON has no spelling for. */
static void jw_num(struct jw *w, double v)
{
	jw_sep(w);
	if (!isfinite(v)) {
		PUTS(w, "null");
		return;
	}
	char *p = ob_room(&w->ob, 40);
	w->ob.len += fmt_double(p, v);
}

static void jw_uint(struct jw *w, uint64_t v)
{
	jw_sep(w);
	char *p = ob_room(&w->ob, 24);
	w->ob.len += dec_uint(p, v);
}

void jw_int(struct jw *w, int64_t v)
{
	jw_sep(w);
	char *p = ob_room(&w->ob, 24);
	size_t n = 0;
	if (v < 0)
		p[n++] = '-';
	/* (the magnitude of INT64_MIN does not fit an int64_t) */
	uint64_t m = v < 0 ? (uint64_t)0 - (uint64_t)v : (uint64_t)v;
	w->ob.len += n + dec_uint(p + n, m);
}

static void jw_bool(struct jw *w, bool v)
{
	jw_sep(w);
	if (v)
		PUTS(w, "true");
	else
		PUTS(w, "false");
}

void jw_addr(struct jw *w, vma_t a)
{
	static const char hex[] = "0123456789abcdef";
	char tmp[24];
	char *end = tmp + sizeof tmp, *p = end;
	uint64_t v = (uint64_t)a;

	jw_sep(w);
	*--p = '"';
	do {
		*--p = hex[v & 15];
		v >>= 4;
	} while (v);
	*--p = 'x';
	*--p = '0';
	*--p = '"';
	put(w, p, (size_t)(end - p));
}

/* key: value shorthands */
void kstr(struct jw *w, const char *k, const char *s)
{
	jw_key(w, k);
	jw_str(w, s);
}

void knum(struct jw *w, const char *k, double v)
{
	jw_key(w, k);
	jw_num(w, v);
}

void kuint(struct jw *w, const char *k, uint64_t v)
{
	jw_key(w, k);
	jw_uint(w, v);
}

void kint(struct jw *w, const char *k, int64_t v)
{
	jw_key(w, k);
	jw_int(w, v);
}

void kbool(struct jw *w, const char *k, bool v)
{
	jw_key(w, k);
	jw_bool(w, v);
}

void knull(struct jw *w, const char *k)
{
	jw_key(w, k);
	jw_null(w);
}
