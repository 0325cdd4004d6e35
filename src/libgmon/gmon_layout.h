/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * gmon_layout.h - the layout of the arc tables as the assembly fast paths
 * see it: slot size, and byte offsets of the fields they read.  tables.c
 * checks each offset against offsetof() at compile time, so the C and
 * assembly views can never drift apart.
 */
#ifndef GMON_LAYOUT_H
#define GMON_LAYOUT_H

/* A table's caller slots start this far into its map, after the header. */
#define GMON_HEADS_AT 4096

/*
 * One caller slot ("head") covers 2^GMON_HEAD_SHIFT bytes of caller PCs.
 * On x86-64 a slot is 2 bytes: no call instruction is shorter, so two
 * return addresses never share a slot and the fast path can match an arc
 * by its callee alone.  i386 saves address space with 4-byte slots, and
 * its fast path compares the caller too; the C recorder compares both
 * addresses and is exact either way.  A slot holds the byte offset, from
 * the table's start, of its first arc (0 for none), so the fast path
 * needs no separate base pointer.
 */
#if defined(__x86_64__)
# define GMON_HEAD_SHIFT 1
#else
# define GMON_HEAD_SHIFT 2
#endif

#if defined(__x86_64__)
# define GMON_P_LOWPC     0   /* struct gmon_params */
# define GMON_P_LIMIT     8
# define GMON_T_BUSY      0   /* struct gmon_table */
# define GMON_ARC_SELF    8   /* struct gmon_arc */
# define GMON_ARC_COUNT   16
#elif defined(__i386__)
# define GMON_T_BUSY      0   /* struct gmon_table */
# define GMON_T_LOWPC     28
# define GMON_T_LIMIT     32
# define GMON_ARC_FROM    0   /* struct gmon_arc */
# define GMON_ARC_SELF    4
# define GMON_ARC_COUNT   8   /* 64 bits: add, then add-with-carry */
#endif

#endif
