/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * line_bounds.h - the addresses of an ELF file's text where the answer
 * of a line lookup (file, line, function) can change, read from its
 * DWARF and symbol tables (line_bounds.c, line_header.c).
 */
#ifndef GPROFTK_LINE_BOUNDS_H
#define GPROFTK_LINE_BOUNDS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* What starts or ends at a boundary.  A line-table row changes only the
   line; the rest may change which function BFD finds, and the first
   lookup inside a function can answer differently from later ones. */
enum {
	LB_ROW = 1,                  /* a row of a line table */
	LB_FUNC = 2,                 /* a debug-info range, symbol or section */
	LB_AMBIG = 4,                /* rows of several lines at one address */
};

/* For each boundary, what the line table says is there: the row BFD
   reads (the last one at that address, as BFD keeps only the last),
   with its file as a number (one per file entry of each unit), or file
   -1 when the table alone cannot say (no row, rows of several units, an
   end of sequence only).  A boundary that is not a row has the row
   before it. */
struct line_bounds {
	uint64_t *addr;              /* sorted, each once */
	unsigned char *kind;         /* LB_* bits of each address */
	int *file;
	unsigned *line;
	int *func;                   /* the function DIE whose range piece
	                                holding the address is shortest, as a
	                                number; -1: none, or a tie */
	size_t n, nfiles, nfuncs;
};

/* The boundaries inside [lo, hi) of the ELF file at `path`, lo always
   among them.  False when the file's debug information is not one this
   reader can vouch for (no DWARF line table, stabs, separate debug
   files, split units, relocatable objects, errors, no libdw): the caller
   then asks about every address. */
bool line_bounds_read(const char *path, uint64_t lo, uint64_t hi,
                      struct line_bounds *out);
void line_bounds_free(struct line_bounds *lb);

/* Does the line table at `off' of the .debug_line section `sec' (`size'
   bytes, big-endian if `big') end its tables exactly where its header
   length says its program begins, within the unit and the section?
   (line_header.c, built with libdw only.) */
bool line_header_ok(const unsigned char *sec, size_t size, bool big,
                    uint64_t off);

#endif
