/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * audit_port.h - the meeting point of libgmon (linked into the program)
 * and libgmon-audit.so (loaded by glibc's dynamic linker through
 * LD_AUDIT, in a namespace of its own), which counts the program's calls
 * through its PLT into shared libraries.
 *
 * The two share no symbol: the auditor finds the port through an ELF
 * note that libgmon puts in the program (name GMON_PORT_NOTE_NAME, type
 * GMON_PORT_NOTE_TYPE, a 4-byte descriptor holding the port's address
 * relative to the descriptor itself, a link-time constant), reading the
 * program headers the kernel passes in the auxiliary vector.  It then
 * sets `arcs` to a table it maps and fills; libgmon only reads it, when
 * it writes the GMON_SHLIBS side file.
 */
#ifndef GMON_AUDIT_PORT_H
#define GMON_AUDIT_PORT_H

#include <stdint.h>

#define GMON_PORT_NOTE_NAME "gproftk"   /* 8 bytes with the NUL */
#define GMON_PORT_NOTE_TYPE 0x67706f72u /* "gpor" */
#define GMON_PORT_VERSION 1

/* One counted call: a free slot has from == 0; self is set before from
   is published, count only grows. */
struct gmon_audit_arc {
	uintptr_t from;  /* the return address of the PLT call */
	uintptr_t self;  /* the function it reached */
	uint64_t count;
};

struct gmon_audit_port {
	uint32_t version;                 /* GMON_PORT_VERSION, set by the auditor */
	uint32_t mask;                    /* slots - 1 */
	struct gmon_audit_arc *arcs;      /* NULL: no auditor */
	uint64_t lost;                    /* calls that found the table full */
	uint32_t quiet;                   /* set by libgmon while it writes:
	                                     its own calls are not the program's */
};

/* In libgmon-audit.so: audit.c's counter, called by arch-audit.c. */
void gmon_audit_call(uintptr_t from, uintptr_t self);

#endif
