/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * unwstep.c - one unwind step: the row of call-frame rules in force at
 * the frame's PC (from the thread's cache, or from unwind.c's
 * interpreter), the DWARF expressions such rules may hold (DW_OP_*, as
 * in PLT entries and signal trampolines), and the rules applied to the
 * registers, which gives the caller's frame.  Reads of the stack are
 * checked against the thread's stack (gmon_uw_read), expressions are
 * bounded in operations and stack; it runs in the SIGPROF handler and
 * calls nothing outside unwind.c.
 */
#include <stddef.h>
#include <stdint.h>

#include "unwind.h"
#include "unwind_read.h"

#ifdef GMON_UW_CFI

#define R_SAME GMON_UW_SAME
#define R_UNDEF GMON_UW_UNDEF
#define R_OFFSET GMON_UW_OFFSET
#define R_VALOFF GMON_UW_VALOFF
#define R_REG GMON_UW_REG
#define R_EXPR GMON_UW_EXPR
#define R_VALEXPR GMON_UW_VALEXPR

int gmon_uw_read(const struct gmon_uw_mem *m, uintptr_t a, uintptr_t *v)
{
	if (a < m->stack_lo || a >= m->stack_hi ||
	    m->stack_hi - a < sizeof(uintptr_t))
		return 0;
	/* Saved registers are aligned, but a damaged table may point
	   anywhere in the stack: an unaligned load is fine on the three
	   targets, done through memcpy to say so. */
	__builtin_memcpy(v, (const void *)a, sizeof *v);
	return 1;
}

/* ---- DWARF expressions ---- */

struct expr {
	uintptr_t st[GMON_UW_EXPR_STACK];
	unsigned n;
	const struct gmon_uw_regs *regs;
	const struct gmon_uw_mem *mem;
};

static int push(struct expr *e, uintptr_t v)
{
	if (e->n == GMON_UW_EXPR_STACK)
		return 0;
	e->st[e->n++] = v;
	return 1;
}

/* A binary operation on the two top entries. */
static int binary(struct expr *e, unsigned op)
{
	if (e->n < 2)
		return 0;
	uintptr_t b = e->st[--e->n], a = e->st[e->n - 1], r;
	switch (op) {
	case 0x1a: r = a & b; break;
	case 0x1c: r = a - b; break;
	case 0x1e: r = a * b; break;
	case 0x21: r = a | b; break;
	case 0x22: r = a + b; break;
	case 0x24: r = b >= 8 * sizeof a ? 0 : a << b; break;
	case 0x25: r = b >= 8 * sizeof a ? 0 : a >> b; break;
	case 0x26: r = b >= 8 * sizeof a ? (uintptr_t)((intptr_t)a < 0 ? -1 : 0)
	                                 : (uintptr_t)((intptr_t)a >> b); break;
	case 0x27: r = a ^ b; break;
	case 0x29: r = a == b; break;
	case 0x2a: r = (intptr_t)a >= (intptr_t)b; break;
	case 0x2b: r = (intptr_t)a > (intptr_t)b; break;
	case 0x2c: r = (intptr_t)a <= (intptr_t)b; break;
	case 0x2d: r = (intptr_t)a < (intptr_t)b; break;
	case 0x2e: r = a != b; break;
	default: return 0;
	}
	e->st[e->n - 1] = r;
	return 1;
}

/* The register r's value plus an offset (DW_OP_breg*). */
static int breg(struct expr *e, uint64_t r, int64_t off)
{
	if (r >= GMON_UW_NREGS || !(e->regs->valid >> r & 1))
		return 0;
	return push(e, e->regs->r[r] + (uintptr_t)off);
}

/* One operation other than a binary one; 0 on an error. */
static int expr_op(struct expr *e, struct cur *c, unsigned op)
{
	uintptr_t v;
	if (op >= 0x30 && op <= 0x4f)
		return push(e, op - 0x30);                    /* lit0-31 */
	if (op >= 0x70 && op <= 0x8f)
		return breg(e, op - 0x70, get_sleb(c));
	switch (op) {
	case 0x08: return push(e, (uintptr_t)get_u(c, 1));
	case 0x09: return push(e, (uintptr_t)(int8_t)get_u(c, 1));
	case 0x0a: return push(e, (uintptr_t)get_u(c, 2));
	case 0x0b: return push(e, (uintptr_t)(int16_t)get_u(c, 2));
	case 0x0c: return push(e, (uintptr_t)get_u(c, 4));
	case 0x0d: return push(e, (uintptr_t)(int32_t)get_u(c, 4));
	case 0x0e: return push(e, (uintptr_t)get_u(c, 8));
	case 0x0f: return push(e, (uintptr_t)get_u(c, 8));
	case 0x10: return push(e, (uintptr_t)get_uleb(c));
	case 0x11: return push(e, (uintptr_t)get_sleb(c));
	case 0x12: return e->n > 0 && push(e, e->st[e->n - 1]);       /* dup */
	case 0x13: return e->n > 0 && (e->n--, 1);                    /* drop */
	case 0x14: return e->n > 1 && push(e, e->st[e->n - 2]);       /* over */
	case 0x15: v = (uintptr_t)get_u(c, 1);                        /* pick */
		return v < e->n && push(e, e->st[e->n - 1 - v]);
	case 0x16: if (e->n < 2) return 0;                            /* swap */
		v = e->st[e->n - 1];
		e->st[e->n - 1] = e->st[e->n - 2];
		e->st[e->n - 2] = v;
		return 1;
	case 0x06: return e->n > 0 &&                                 /* deref */
		gmon_uw_read(e->mem, e->st[e->n - 1], &e->st[e->n - 1]);
	case 0x1f: if (e->n < 1) return 0;                            /* neg */
		e->st[e->n - 1] = -e->st[e->n - 1]; return 1;
	case 0x20: if (e->n < 1) return 0;                            /* not */
		e->st[e->n - 1] = ~e->st[e->n - 1]; return 1;
	case 0x23: if (e->n < 1) return 0;                            /* plus_uconst */
		e->st[e->n - 1] += (uintptr_t)get_uleb(c); return 1;
	case 0x92: v = (uintptr_t)get_uleb(c);                        /* bregx */
		return breg(e, v, get_sleb(c));
	case 0x96: return 1;                                          /* nop */
	default: return binary(e, op);
	}
}

/* Evaluates the expression at a (its length first), with `first` on the
   stack when push_first; the top of the stack in *out. */
static int eval(uintptr_t a, const struct gmon_uw_obj *o, const struct gmon_uw_regs *regs,
                const struct gmon_uw_mem *m, int push_first, uintptr_t first,
                uintptr_t *out)
{
	struct cur c = { a, o->data_hi, a < o->data_lo };
	uint64_t len = get_uleb(&c);
	if (c.bad || len > c.end - c.p)
		return 0;
	c.end = c.p + (uintptr_t)len;
	struct expr e = { .n = 0, .regs = regs, .mem = m };
	if (push_first)
		push(&e, first);
	for (unsigned ops = 0; c.p < c.end; ops++) {
		if (ops == GMON_UW_MAX_EXPR_OPS)
			return 0;
		unsigned op = (unsigned)get_u(&c, 1);
		if (op == 0x2f || op == 0x28) {                      /* skip, bra */
			int16_t off = (int16_t)get_u(&c, 2);
			int take = op == 0x2f || (e.n > 0 && e.st[--e.n] != 0);
			uintptr_t to = c.p + (uintptr_t)(intptr_t)off;
			if (!take)
				continue;
			if (to < a || to > c.end)
				return 0;
			c.p = to;
			continue;
		}
		if (!expr_op(&e, &c, op) || c.bad)
			return 0;
	}
	if (e.n == 0)
		return 0;
	*out = e.st[e.n - 1];
	return 1;
}

/* ---- the step ---- */

/* The caller's value of register i under rule r; 0 when unknown. */
static int apply(const struct gmon_uw_rule *r, unsigned i, uintptr_t cfa,
                 const struct gmon_uw_obj *o, const struct gmon_uw_regs *old,
                 const struct gmon_uw_mem *m, uintptr_t *v)
{
	uintptr_t a;
	switch (r->how) {
	case R_SAME: *v = old->r[i]; return old->valid >> i & 1;
	case R_OFFSET: return gmon_uw_read(m, cfa + r->v, v);
	case R_VALOFF: *v = cfa + r->v; return 1;
	case R_REG: *v = old->r[r->v]; return old->valid >> r->v & 1;
	case R_EXPR: return eval(r->v, o, old, m, 1, cfa, &a) && gmon_uw_read(m, a, v);
	case R_VALEXPR: return eval(r->v, o, old, m, 1, cfa, v);
	default: return 0;
	}
}

/* The row at pc, from the cache or computed (and then kept). */
static enum gmon_uw_result get_row(const struct gmon_uw_obj *o, uintptr_t pc,
                                   struct gmon_uw_cache *cache,
                                   const struct gmon_uw_row **row, struct gmon_uw_row *own)
{
	if (cache == NULL) {
		*row = own;
		return gmon_uw_row(o, pc, own);
	}
	uint64_t h = (uint64_t)pc * 0x9e3779b97f4a7c15ull;
	__typeof__(cache->e[0]) *e = &cache->e[(h >> 32) % GMON_UW_CACHE];
	*row = &e->row;
	if (e->pc == pc && e->o == o)
		return GMON_UW_OK;
	e->o = NULL;  /* not valid while it is rewritten */
	enum gmon_uw_result rc = gmon_uw_row(o, pc, &e->row);
	if (rc == GMON_UW_OK) {
		e->pc = pc;
		e->o = o;
	}
	return rc;
}

enum gmon_uw_result gmon_uw_step(const struct gmon_uw_obj *o,
                                 const struct gmon_uw_mem *m,
                                 struct gmon_uw_regs *regs,
                                 struct gmon_uw_cache *cache)
{
	struct gmon_uw_row own;
	const struct gmon_uw_row *row;
	uintptr_t pc = regs->exact ? regs->pc : regs->pc - 1;
	enum gmon_uw_result rc = get_row(o, pc, cache, &row, &own);
	if (rc != GMON_UW_OK)
		return rc;
	uintptr_t cfa;
	if (row->cfa.how == R_OFFSET) {
		if (row->cfa_reg >= GMON_UW_NREGS || !(regs->valid >> row->cfa_reg & 1))
			return GMON_UW_BAD;
		cfa = regs->r[row->cfa_reg] + row->cfa.v;
	} else if (row->cfa.how != R_EXPR ||
	           !eval(row->cfa.v, o, regs, m, 0, 0, &cfa)) {
		return GMON_UW_BAD;
	}
	if (row->reg[row->ra].how == R_UNDEF)
		return GMON_UW_END;
	struct gmon_uw_regs next;
	uint64_t valid = 0;  /* a local, kept in a register */
	for (unsigned i = 0; i < GMON_UW_NREGS; i++) {
		const struct gmon_uw_rule *r = &row->reg[i];
		if (r->how == R_SAME) {  /* the common case, inline */
			next.r[i] = regs->r[i];
			valid |= regs->valid & (uint64_t)1 << i;
		} else if (apply(r, i, cfa, o, regs, m, &next.r[i])) {
			valid |= (uint64_t)1 << i;
		}
	}
	next.valid = valid;
	if (!(next.valid >> row->ra & 1))
		return GMON_UW_BAD;
	if (row->reg[GMON_UW_SP].how == R_SAME) {
		next.r[GMON_UW_SP] = cfa;  /* the CFA is the caller's SP */
		next.valid |= (uint64_t)1 << GMON_UW_SP;
	}
	next.pc = next.r[row->ra];
	next.exact = 0;
	*regs = next;
	return GMON_UW_OK;
}

#endif
