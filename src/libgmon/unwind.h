/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * unwind.h - the call-frame unwinder's interfaces: the registers an
 * unwind step tracks on each architecture (DWARF numbering of the
 * psABIs), an object's call-frame tables as the SIGPROF handler sees
 * them, the rows of the DWARF call-frame interpreter (unwind.c), one
 * step from a frame to its caller (unwstep.c), the whole walk of a signal context (unwalk.c), and the table of loaded
 * objects prepared outside any handler (ehobjs.c).
 *
 * Everything reached from the handler reads memory only inside ranges
 * it was given: the interrupted thread's stack [stack_lo, stack_hi), an
 * object's readable segment that holds .eh_frame_hdr and .eh_frame, and
 * an object's text (for recognising the sigreturn trampoline).
 */
#ifndef GMON_UNWIND_H
#define GMON_UNWIND_H

#include <stdint.h>

#include "arch-unwind.h"

#ifdef GMON_UW_NREGS
# define GMON_UW_CFI 1
#endif

/* Limits on the work of one step: instructions of the call-frame
   programs (CIE's and FDE's together), operations of one expression,
   its stack, and DW_CFA_remember_state's nesting. */
#define GMON_UW_MAX_INSNS 1024
#define GMON_UW_MAX_EXPR_OPS 64
#define GMON_UW_EXPR_STACK 16
#define GMON_UW_REMEMBER 3

#ifndef GMON_UW_NREGS
# define GMON_UW_NREGS 1
#endif

struct gmon_uw_regs {
	uintptr_t r[GMON_UW_NREGS];
	uint64_t valid;  /* bit i: r[i] is known */
	uintptr_t pc;    /* where the frame is (a return address unless exact) */
	int exact;       /* pc is the interrupted instruction itself (frame 0,
	                    or the PC a signal frame saved): look it up as is,
	                    not at pc - 1 */
};

/* One object's call-frame data, as prepared by gmon_uw_prepare. */
struct gmon_uw_obj {
	uintptr_t text_lo, text_hi;  /* executable and readable span */
	uintptr_t data_lo, data_hi;  /* readable span holding both tables */
	uintptr_t hdr;               /* .eh_frame_hdr (the base of the table's
	                                fields; 0 for a table of our own) */
	uintptr_t table;             /* search table, checked to fit (0: none) */
	uint32_t count;              /* entries in it */
	uint8_t entry;               /* bytes per field: 4 or 8 */
	uint8_t is_signed;           /* the fields are sdata, not udata */
	uint8_t dead;                /* unloaded: never looked at again */
};

/* How a register (or the CFA) is found in the caller's frame. */
enum gmon_uw_how {
	GMON_UW_SAME = 0,  /* unchanged (the default) */
	GMON_UW_UNDEF,     /* lost */
	GMON_UW_OFFSET,    /* saved at CFA + v (the CFA: register + v) */
	GMON_UW_VALOFF,    /* is CFA + v */
	GMON_UW_REG,       /* in register v */
	GMON_UW_EXPR,      /* saved where the expression at v says */
	GMON_UW_VALEXPR,   /* is what the expression at v computes */
};

struct gmon_uw_rule {
	uintptr_t v;  /* offset, register, or the expression's address */
	uint8_t how;
};

/* The rules in force at one PC: what the call-frame programs compute. */
struct gmon_uw_row {
	struct gmon_uw_rule reg[GMON_UW_NREGS];
	struct gmon_uw_rule cfa;
	uint64_t cfa_reg;
	uint64_t ra;       /* the return-address column */
};

/* A thread's cache of rows by PC (the same frames recur tick after
   tick); an entry names its object, so an object unloaded and replaced
   never answers for the new one.  Direct-mapped; the handler of the
   thread that owns it is the only user. */
#define GMON_UW_CACHE 64
struct gmon_uw_cache {
	struct {
		uintptr_t pc;
		const struct gmon_uw_obj *o;
		struct gmon_uw_row row;
	} e[GMON_UW_CACHE];
};

/* The ranges a walk may read besides the objects' tables. */
struct gmon_uw_mem {
	uintptr_t stack_lo, stack_hi;
};

enum gmon_uw_result {
	GMON_UW_OK = 0,      /* stepped: regs hold the caller's frame */
	GMON_UW_END = 1,     /* the outermost frame (return address undefined) */
	GMON_UW_NOFDE = 2,   /* no call-frame entry covers the PC */
	GMON_UW_BAD = 3,     /* damaged tables, or a read out of bounds */
};

/* unwind.c: fill o's search table from o->hdr (0 when unusable). */
int gmon_uw_prepare(struct gmon_uw_obj *o);
/* unwind.c: the row in force at pc in object o (GMON_UW_OK,
   GMON_UW_NOFDE or GMON_UW_BAD). */
enum gmon_uw_result gmon_uw_row(const struct gmon_uw_obj *o, uintptr_t pc,
                                struct gmon_uw_row *row);
/* unwstep.c: one step from regs (in the frame at regs->pc, in object o)
   to its caller; the row from cache when it has it (cache may be NULL). */
enum gmon_uw_result gmon_uw_step(const struct gmon_uw_obj *o,
                                 const struct gmon_uw_mem *m,
                                 struct gmon_uw_regs *regs,
                                 struct gmon_uw_cache *cache);
/* unwind.c: the entry of .eh_frame at a: 1 for an FDE (its first PC
   in *pc_lo), 0 for a CIE or an FDE it cannot read, -1 at the end or
   on damage; *next is the next entry.  (For objects without
   .eh_frame_hdr, whose search table ehobjs.c builds itself.) */
int gmon_uw_entry(const struct gmon_uw_obj *o, uintptr_t a, uintptr_t *next,
                  uintptr_t *pc_lo);
/* unwstep.c: a word of the stack, if all of it lies in m's range. */
int gmon_uw_read(const struct gmon_uw_mem *m, uintptr_t a, uintptr_t *v);

/* unwalk.c: the frames of a signal context (frame 0 its PC, then
   return addresses), at most limit, on the stack [stack_lo, stack_base);
   objs[0..n) are the objects to unwind through.  *flags gets
   GMON_UW_CUT when the limit stopped a walk that could go on, and
   GMON_UW_MISSED when a PC lay in no object. */
#define GMON_UW_CUT 1u
#define GMON_UW_MISSED 2u
uint32_t gmon_uw_walk(const void *uc, uintptr_t stack_lo, uintptr_t stack_base,
                      const struct gmon_uw_obj *objs, uint32_t n,
                      struct gmon_uw_cache *cache,
                      uintptr_t *f, uint32_t limit, unsigned *flags);

/* unwalk.c's own parts, exposed for the fuzz harness. */
void gmon_uw_from_context(const void *uc, struct gmon_uw_regs *regs);
/* Bytes that hold any sigreturn trampoline this walk knows. */
#define GMON_UW_TRAMP_BYTES 16
/* unwalk.c: is the sigreturn trampoline at pc, inside [lo, hi)?  (1;
   2 for i386's old one; 0: no) */
int gmon_uw_is_sigreturn(uintptr_t pc, uintptr_t lo, uintptr_t hi);

/* ehobjs.c: the objects known now (an array only ever appended to);
   prepare (start) and refresh (outside handlers: after a walk found
   code in no known object, and before writes). */
const struct gmon_uw_obj *gmon_ehobjs(uint32_t *n);
void gmon_ehobjs_init(void);
void gmon_ehobjs_refresh(void);
/* ehobjs.c: did a walk meet code outside every object?  (Set in the
   handler, cleared by the refresh.) */
void gmon_ehobjs_missed(void);
int gmon_ehobjs_stale(void);

#endif
