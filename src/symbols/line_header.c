/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * line_header.c - owns checking a unit's DWARF line-table header the way
 * BFD reads it, for line_bounds.c (with libdw only).
 *
 * Line-table headers, read here as well as by libdw.  BFD (like readelf)
 * reads a unit's line program right after its directory and file tables;
 * libdw starts where the header's header_length field points.  Where the
 * two differ, libdw reads other rows than BFD does (found by the lines
 * fuzz harness), so such a file, or a header we cannot follow to the end
 * of its tables, is one for the byte scan.  Only the fields needed to
 * find where the tables end are read.
 */
#include "config.h"

#ifdef HAVE_LIBDW

#include <string.h>

#include <dwarf.h>

#include "line_bounds.h"

/* A cursor over one line table; `bad' once a read runs past its end. */
struct rd {
	const unsigned char *p, *end;
	bool big, bad;
};

static uint64_t rd_uint(struct rd *r, size_t n)
{
	uint64_t v = 0;
	if (r->bad || (size_t)(r->end - r->p) < n) {
		r->bad = true;
		return 0;
	}
	for (size_t i = 0; i < n; i++) {
		unsigned shift = 8 * (unsigned)(r->big ? n - 1 - i : i);
		v |= (uint64_t)r->p[i] << shift;
	}
	r->p += n;
	return v;
}

/* Bits past the 64th are dropped: the value only counts entries, and an
   entry takes at least a byte, so a huge count just runs off the end. */
static uint64_t rd_uleb(struct rd *r)
{
	uint64_t v = 0;
	for (unsigned shift = 0; !r->bad; shift += 7) {
		unsigned b = (unsigned)rd_uint(r, 1);
		if (shift < 64)
			v |= (uint64_t)(b & 0x7f) << shift;
		if (!(b & 0x80))
			break;
	}
	return v;
}

static void rd_skip(struct rd *r, uint64_t n)
{
	if (r->bad || (uint64_t)(r->end - r->p) < n)
		r->bad = true;
	else
		r->p += n;
}

/* Skips a NUL-terminated string; true if it was empty. */
static bool rd_string(struct rd *r)
{
	const unsigned char *nul;
	if (r->bad || !(nul = memchr(r->p, 0, (size_t)(r->end - r->p)))) {
		r->bad = true;
		return false;
	}
	bool empty = nul == r->p;
	r->p = nul + 1;
	return empty;
}

/* Skips one value of a DWARF 5 entry; false for a form we cannot size
   (or one BFD may read otherwise), which makes the file the byte scan's. */
static bool rd_form(struct rd *r, uint64_t form, size_t offsize)
{
	switch (form) {
	case DW_FORM_string: rd_string(r); return true;
	case DW_FORM_strp:
	case DW_FORM_line_strp: rd_skip(r, offsize); return true;
	case DW_FORM_udata: rd_uleb(r); return true;
	case DW_FORM_data1: rd_skip(r, 1); return true;
	case DW_FORM_data2: rd_skip(r, 2); return true;
	case DW_FORM_data4: rd_skip(r, 4); return true;
	case DW_FORM_data8: rd_skip(r, 8); return true;
	case DW_FORM_data16: rd_skip(r, 16); return true;
	case DW_FORM_block: rd_skip(r, rd_uleb(r)); return true;
	default: return false;
	}
}

enum { MAX_FORMATS = 64 };

/* A DWARF 5 directory or file name table: its entry format, then the
   entries.  With no format, entries would take no bytes: damaged. */
static bool rd_v5_table(struct rd *r, size_t offsize)
{
	uint64_t forms[MAX_FORMATS];
	unsigned nfmt = (unsigned)rd_uint(r, 1);
	if (nfmt > MAX_FORMATS)
		return false;
	for (unsigned i = 0; i < nfmt; i++) {
		rd_uleb(r);                      /* content type: size not needed */
		forms[i] = rd_uleb(r);
	}
	uint64_t count = rd_uleb(r);
	if (nfmt == 0 && count != 0)
		return false;
	for (uint64_t e = 0; e < count && !r->bad; e++)
		for (unsigned i = 0; i < nfmt; i++)
			if (!rd_form(r, forms[i], offsize))
				return false;
	return !r->bad;
}

/* DWARF 2-4: directory names up to an empty one, then file entries
   (a name and three ULEB128s) up to an empty name. */
static bool rd_v4_tables(struct rd *r)
{
	while (!r->bad && !rd_string(r))
		;
	while (!r->bad && !rd_string(r)) {
		rd_uleb(r);
		rd_uleb(r);
		rd_uleb(r);
	}
	return !r->bad;
}

/* Does the line table at `off' end its tables exactly where its header
   length says its program begins, within the unit and the section? */
bool line_header_ok(const unsigned char *sec, size_t size, bool big,
                    uint64_t off)
{
	if (off >= size)
		return false;
	struct rd r = { sec + off, sec + size, big, false };
	size_t offsize = 4;
	uint64_t len = rd_uint(&r, 4);
	if (len == 0xffffffff) {
		offsize = 8;
		len = rd_uint(&r, 8);
	} else if (len >= 0xfffffff0) {
		return false;                /* reserved lengths */
	}
	if (r.bad || len > (uint64_t)(r.end - r.p))
		return false;
	r.end = r.p + len;
	unsigned version = (unsigned)rd_uint(&r, 2);
	if (version < 2 || version > 5)
		return false;
	if (version >= 5)
		rd_skip(&r, 2);              /* address and segment selector sizes */
	uint64_t hlen = rd_uint(&r, offsize);
	if (r.bad || hlen > (uint64_t)(r.end - r.p))
		return false;
	const unsigned char *program = r.p + hlen;
	/* minimum instruction length, [maximum operations,] default_is_stmt,
	   line base, line range, opcode base */
	rd_skip(&r, version >= 4 ? 4 : 3);
	unsigned line_range = (unsigned)rd_uint(&r, 1);
	unsigned opcode_base = (unsigned)rd_uint(&r, 1);
	if (r.bad || line_range == 0 || opcode_base == 0)
		return false;
	rd_skip(&r, opcode_base - 1);        /* standard opcode lengths */
	bool ok = version >= 5 ? rd_v5_table(&r, offsize) &&
	                         rd_v5_table(&r, offsize)
	                       : rd_v4_tables(&r);
	return ok && !r.bad && r.p == program;
}

#endif
