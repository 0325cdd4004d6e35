/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * shlibs_grow.h - owns how a struct gmsl_file's arrays grow, for its
 * reader (shlibs_io.c) and its merger (shlibs_sum.c); not for other
 * folders (they see only shlibs_io.h).
 */
#ifndef SHLIBS_GROW_H
#define SHLIBS_GROW_H

#include <stddef.h>

#include "util/util.h"

/* Room for element n of v (doubling, from 16); cap is kept beside it. */
static inline void *gmsl_grow(void *v, size_t *cap, size_t n, size_t size)
{
	if (n < *cap)
		return v;
	*cap = *cap ? *cap * 2 : 16;
	return xrealloc(v, *cap * size);
}

/* A new last element of f's array `name` (with its count `n` ## name and
   capacity name ## `_cap`, as struct gmsl_file spells them), uninitialised. */
#define GMSL_PUSH(f, name) \
	((f)->name = gmsl_grow((f)->name, &(f)->name##_cap, (f)->n##name, \
	                       sizeof *(f)->name), \
	 &(f)->name[(f)->n##name++])

#endif
