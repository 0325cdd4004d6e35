/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * unwind.c - the rules of the DWARF call-frame information of
 * .eh_frame, found through .eh_frame_hdr's binary-search table: the
 * parser of the tables (pointer encodings, CIE, FDE) and the
 * interpreter of the call-frame programs (DW_CFA_*), which gives the
 * row of rules in force at a PC (applied to the registers by
 * unwstep.c).  Written from the DWARF 4 standard (section 6.4) and the
 * LSB's description of .eh_frame and .eh_frame_hdr.
 *
 * It runs in the SIGPROF handler: no allocation, no call out of this
 * file, every read checked against a range the caller vouched for (the
 * object's readable segment for the tables, the thread's stack for the
 * saved registers), and every loop bounded (GMON_UW_MAX_*), so that a
 * damaged table costs a wrong or short stack, never a fault or a hang.
 * tests/fuzz/fuzz_cfi.c feeds it damaged tables.
 */
#include <stddef.h>
#include <stdint.h>

#include "unwind.h"
#include "unwind_read.h"

#ifdef GMON_UW_CFI

/* DW_EH_PE_* */
#define PE_OMIT 0xff
#define PE_INDIRECT 0x80

/* An encoded pointer; pcrel from the field, datarel from `data`.
   Indirect pointers are read as their address (only the personality,
   which is skipped, may be one). */
static uintptr_t get_enc(struct cur *c, unsigned enc, uintptr_t data)
{
	uintptr_t at = c->p;
	uint64_t v;
	switch (enc & 0x0f) {
	case 0x00: v = get_u(c, sizeof(uintptr_t)); break;
	case 0x01: v = get_uleb(c); break;
	case 0x02: v = get_u(c, 2); break;
	case 0x03: v = get_u(c, 4); break;
	case 0x04: v = get_u(c, 8); break;
	case 0x09: v = (uint64_t)get_sleb(c); break;
	case 0x0a: v = (uint64_t)(int64_t)(int16_t)get_u(c, 2); break;
	case 0x0b: v = (uint64_t)(int64_t)(int32_t)get_u(c, 4); break;
	case 0x0c: v = get_u(c, 8); break;
	default: c->bad = 1; return 0;
	}
	switch (enc & 0x70) {
	case 0x00: break;
	case 0x10: v += at; break;
	case 0x30: v += data; break;
	default: c->bad = 1; return 0;
	}
	return (uintptr_t)v;
}


/* ---- .eh_frame_hdr ---- */

/* Version 1, a usable eh_frame_ptr, and a table of datarel [su]data4 or
   [su]data8 pairs that fits in the object's readable span. */
int gmon_uw_prepare(struct gmon_uw_obj *o)
{
	o->count = 0;
	struct cur c = { o->hdr, o->data_hi, o->hdr < o->data_lo };
	unsigned version = (unsigned)get_u(&c, 1);
	unsigned ptr_enc = (unsigned)get_u(&c, 1);
	unsigned cnt_enc = (unsigned)get_u(&c, 1);
	unsigned tab_enc = (unsigned)get_u(&c, 1);
	if (c.bad || version != 1 || ptr_enc == PE_OMIT || cnt_enc == PE_OMIT ||
	    (ptr_enc | cnt_enc) & PE_INDIRECT)
		return 0;
	(void)get_enc(&c, ptr_enc, o->hdr);
	uint64_t n = get_enc(&c, cnt_enc, o->hdr);
	unsigned size;
	switch (tab_enc) {
	case 0x33: case 0x3b: size = 4; break;
	case 0x34: case 0x3c: size = 8; break;
	default: return 0;
	}
	if (c.bad || n == 0 || n > (o->data_hi - c.p) / (2 * size))
		return 0;
	o->table = c.p;
	o->entry = (uint8_t)size;
	o->is_signed = (tab_enc & 0x08) != 0;
	o->count = (uint32_t)(n > UINT32_MAX ? UINT32_MAX : n);
	return 1;
}

/* Field i of the search table, relative to the header. */
static uintptr_t table_field(const struct gmon_uw_obj *o, uint64_t i)
{
	struct cur c = { o->table + i * o->entry,
	                 o->table + 2 * (uint64_t)o->count * o->entry, 0 };
	uint64_t v = get_u(&c, o->entry);
	if (o->is_signed && o->entry == 4)
		v = (uint64_t)(int64_t)(int32_t)v;
	return o->hdr + (uintptr_t)v;
}

/* The FDE whose initial location is the last one <= pc (0: none). */
static uintptr_t find_fde(const struct gmon_uw_obj *o, uintptr_t pc)
{
	uint32_t lo = 0, hi = o->count;
	if (hi == 0 || pc < table_field(o, 0))
		return 0;
	while (hi - lo > 1) { /* at most 32 rounds */
		uint32_t mid = lo + (hi - lo) / 2;
		if (table_field(o, 2 * (uint64_t)mid) <= pc)
			lo = mid;
		else
			hi = mid;
	}
	return table_field(o, 2 * (uint64_t)lo + 1);
}

/* ---- CIE and FDE ---- */

struct cie {
	uintptr_t insns, end;
	uint64_t code_align;
	int64_t data_align;
	uint64_t ra;
	unsigned fde_enc;
	int has_z;
};

struct fde {
	uintptr_t pc_lo, pc_hi;
	uintptr_t insns, end;
};

/* The length and id of the entry at a: *body is where the id starts,
   *end the end of the entry, *id the id's address (0 on error). */
static uint64_t entry_head(const struct gmon_uw_obj *o, uintptr_t a,
                           uintptr_t *id_at, uintptr_t *end, struct cur *c)
{
	*c = (struct cur){ a, o->data_hi, a < o->data_lo };
	uint64_t len = get_u(c, 4);
	int wide = len == 0xffffffffu;
	if (wide)
		len = get_u(c, 8);
	if (c->bad || len == 0 || len > o->data_hi - c->p) {
		c->bad = 1;
		return 0;
	}
	*end = c->p + (uintptr_t)len;
	*id_at = c->p;
	c->end = *end;
	return get_u(c, wide ? 8 : 4);
}

/* The augmentation data of a "z" CIE: the encodings it sets. */
static void cie_augment(struct cur *c, const char *aug, unsigned naug,
                        struct cie *cie, uintptr_t data)
{
	uint64_t len = get_uleb(c);
	if (c->bad || len > c->end - c->p) {
		c->bad = 1;
		return;
	}
	uintptr_t after = c->p + (uintptr_t)len;
	struct cur a = { c->p, after, 0 };
	for (unsigned i = 1; i < naug && !a.bad; i++) {
		if (aug[i] == 'R') {
			cie->fde_enc = (unsigned)get_u(&a, 1);
		} else if (aug[i] == 'L') {
			(void)get_u(&a, 1);
		} else if (aug[i] == 'P') {
			unsigned enc = (unsigned)get_u(&a, 1);
			(void)get_enc(&a, enc & 0x7f, data);
		} else if (aug[i] != 'S' && aug[i] != 'B' && aug[i] != 'G') {
			break; /* unknown: the rest is skipped by its length */
		}
	}
	if (a.bad)
		c->bad = 1;
	c->p = after;
}

static int parse_cie(const struct gmon_uw_obj *o, uintptr_t a, struct cie *cie)
{
	struct cur c;
	uintptr_t id_at, end;
	if (entry_head(o, a, &id_at, &end, &c) != 0 || c.bad)
		return 0;
	unsigned version = (unsigned)get_u(&c, 1);
	if (version != 1 && version != 3)
		return 0;
	char aug[8];
	unsigned naug = 0;
	for (;;) {
		unsigned ch = (unsigned)get_u(&c, 1);
		if (c.bad || ch == 0)
			break;
		if (naug == sizeof aug)
			return 0;
		aug[naug++] = (char)ch;
	}
	cie->code_align = get_uleb(&c);
	cie->data_align = get_sleb(&c);
	cie->ra = version == 1 ? get_u(&c, 1) : get_uleb(&c);
	cie->fde_enc = 0;
	cie->has_z = naug > 0 && aug[0] == 'z';
	if (cie->has_z)
		cie_augment(&c, aug, naug, cie, o->hdr);
	else if (naug > 0)
		return 0; /* no length to skip what it means */
	cie->insns = c.p;
	cie->end = end;
	return !c.bad && cie->ra < GMON_UW_NREGS;
}

/* The FDE at a, and its CIE. */
static int parse_fde(const struct gmon_uw_obj *o, uintptr_t a, struct fde *f,
                     struct cie *cie)
{
	struct cur c;
	uintptr_t id_at, end;
	uint64_t id = entry_head(o, a, &id_at, &end, &c);
	if (c.bad || id == 0 || id > id_at || !parse_cie(o, id_at - (uintptr_t)id, cie))
		return 0;
	if ((cie->fde_enc & 0x70) == 0x30 || (cie->fde_enc & PE_INDIRECT))
		return 0;
	f->pc_lo = get_enc(&c, cie->fde_enc, 0);
	uintptr_t range = get_enc(&c, cie->fde_enc & 0x0f, 0);
	if (cie->has_z) {
		uint64_t len = get_uleb(&c);
		if (len > c.end - c.p)
			return 0;
		c.p += (uintptr_t)len;
	}
	f->pc_hi = f->pc_lo + range;
	f->insns = c.p;
	f->end = end;
	return !c.bad;
}

int gmon_uw_entry(const struct gmon_uw_obj *o, uintptr_t a, uintptr_t *next,
                  uintptr_t *pc_lo)
{
	struct cur c;
	uintptr_t id_at, end;
	uint64_t id = entry_head(o, a, &id_at, &end, &c);
	if (c.bad)
		return -1;
	*next = end;
	struct fde f;
	struct cie cie;
	if (id == 0 || !parse_fde(o, a, &f, &cie))
		return 0;
	*pc_lo = f.pc_lo;
	return 1;
}

/* ---- the interpreter ---- */

#define R_SAME GMON_UW_SAME
#define R_UNDEF GMON_UW_UNDEF
#define R_OFFSET GMON_UW_OFFSET
#define R_VALOFF GMON_UW_VALOFF
#define R_REG GMON_UW_REG
#define R_EXPR GMON_UW_EXPR
#define R_VALEXPR GMON_UW_VALEXPR

struct state {
	struct gmon_uw_row cur, init;
	struct gmon_uw_row saved[GMON_UW_REMEMBER];
	unsigned nsaved;
	unsigned budget;  /* instructions left */
	const struct cie *cie;
	uintptr_t loc, target;
};

/* v times the data alignment, wrapping as the address arithmetic does
   (damaged tables may overflow a signed product). */
static uintptr_t scaled(uint64_t v, int64_t da)
{
	return (uintptr_t)(v * (uint64_t)da);
}

/* A rule set for register r, if it is one we track. */
static void set_rule(struct state *s, uint64_t r, unsigned how, uintptr_t v)
{
	if (r < GMON_UW_NREGS) {
		s->cur.reg[r].how = (uint8_t)how;
		s->cur.reg[r].v = v;
	}
}

/* A block operand: its address in v, the cursor past it. */
static uintptr_t skip_block(struct cur *c)
{
	uintptr_t at = c->p;  /* the expression is found again by its length */
	uint64_t len = get_uleb(c);
	if (c->bad || len > c->end - c->p)
		c->bad = 1;
	else
		c->p += (uintptr_t)len;
	return at;
}

/* Operations that change the location; 1 when it passed the target. */
static int advance(struct state *s, uint64_t delta)
{
	uint64_t d = delta * s->cie->code_align;
	if (s->cie->code_align != 0 && d / s->cie->code_align != delta)
		return 1;
	s->loc += (uintptr_t)d;
	return s->loc > s->target || s->loc < (uintptr_t)d;
}

static void restore(struct state *s, uint64_t r)
{
	if (r < GMON_UW_NREGS)
		s->cur.reg[r] = s->init.reg[r];
}

/* The extended operations (0x00-0x3f without the primary ones); 1 when
   the row for the target is complete, -1 on an error. */
static int extended(struct state *s, struct cur *c, unsigned op)
{
	int64_t da = s->cie->data_align;
	uint64_t r, o;
	switch (op) {
	case 0x00: return 0;                                  /* nop */
	case 0x01: {                                          /* set_loc */
		uintptr_t to = get_enc(c, s->cie->fde_enc, 0);
		if (to < s->loc)
			return -1;
		s->loc = to;
		return s->loc > s->target;
	}
	case 0x02: return advance(s, get_u(c, 1));
	case 0x03: return advance(s, get_u(c, 2));
	case 0x04: return advance(s, get_u(c, 4));
	case 0x05: r = get_uleb(c); o = get_uleb(c);          /* offset_extended */
		set_rule(s, r, R_OFFSET, scaled(o, da)); return 0;
	case 0x06: restore(s, get_uleb(c)); return 0;
	case 0x07: set_rule(s, get_uleb(c), R_UNDEF, 0); return 0;
	case 0x08: set_rule(s, get_uleb(c), R_SAME, 0); return 0;
	case 0x09: r = get_uleb(c); o = get_uleb(c);          /* register */
		if (o >= GMON_UW_NREGS)
			set_rule(s, r, R_UNDEF, 0);
		else
			set_rule(s, r, R_REG, (uintptr_t)o);
		return 0;
	case 0x0a:                                            /* remember_state */
		if (s->nsaved == GMON_UW_REMEMBER)
			return -1;
		s->saved[s->nsaved++] = s->cur;
		return 0;
	case 0x0b:                                            /* restore_state */
		if (s->nsaved == 0)
			return -1;
		s->cur = s->saved[--s->nsaved];
		return 0;
	case 0x0c: s->cur.cfa_reg = get_uleb(c);              /* def_cfa */
		s->cur.cfa = (struct gmon_uw_rule){ (uintptr_t)get_uleb(c), R_OFFSET }; return 0;
	case 0x0d: s->cur.cfa_reg = get_uleb(c);              /* def_cfa_register */
		s->cur.cfa.how = R_OFFSET; return 0;
	case 0x0e: s->cur.cfa = (struct gmon_uw_rule){ (uintptr_t)get_uleb(c), R_OFFSET };
		return 0;
	case 0x0f: s->cur.cfa = (struct gmon_uw_rule){ skip_block(c), R_EXPR }; return 0;
	case 0x10: r = get_uleb(c);                           /* expression */
		set_rule(s, r, R_EXPR, skip_block(c)); return 0;
	case 0x11: r = get_uleb(c);                           /* offset_extended_sf */
		set_rule(s, r, R_OFFSET, scaled((uint64_t)get_sleb(c), da)); return 0;
	case 0x12: s->cur.cfa_reg = get_uleb(c);              /* def_cfa_sf */
		s->cur.cfa = (struct gmon_uw_rule){ scaled((uint64_t)get_sleb(c), da), R_OFFSET };
		return 0;
	case 0x13: s->cur.cfa = (struct gmon_uw_rule){ scaled((uint64_t)get_sleb(c), da), R_OFFSET };
		return 0;
	case 0x14: r = get_uleb(c); o = get_uleb(c);          /* val_offset */
		set_rule(s, r, R_VALOFF, scaled(o, da)); return 0;
	case 0x15: r = get_uleb(c);                           /* val_offset_sf */
		set_rule(s, r, R_VALOFF, scaled((uint64_t)get_sleb(c), da)); return 0;
	case 0x16: r = get_uleb(c);                           /* val_expression */
		set_rule(s, r, R_VALEXPR, skip_block(c)); return 0;
	case 0x2d: return 0;  /* aarch64 negate_ra_state: PAC bits are stripped */
	case 0x2e: (void)get_uleb(c); return 0;               /* GNU_args_size */
	case 0x2f: r = get_uleb(c);                /* GNU_negative_offset_extended */
		set_rule(s, r, R_OFFSET, scaled(-get_uleb(c), da)); return 0;
	default: return -1;
	}
}

/* Runs the program [p, end) until the row for s->target is complete;
   0 on success. */
static int run(struct state *s, uintptr_t p, uintptr_t end)
{
	struct cur c = { p, end, 0 };
	while (c.p < c.end) {
		if (s->budget-- == 0)
			return -1;
		unsigned op = (unsigned)get_u(&c, 1);
		int done = 0;
		switch (op >> 6) {
		case 1: done = advance(s, op & 0x3f); break;
		case 2: set_rule(s, op & 0x3f, R_OFFSET,
		                 scaled(get_uleb(&c), s->cie->data_align));
			break;
		case 3: restore(s, op & 0x3f); break;
		default: done = extended(s, &c, op); break;
		}
		if (done < 0 || c.bad)
			return -1;
		if (done)
			return 0;
	}
	return 0;
}

/* The row in force at pc, from the CIE's and the FDE's programs. */
static int find_row(const struct gmon_uw_obj *o, uintptr_t pc, struct state *s,
                    struct cie *cie)
{
	struct fde f;
	uintptr_t a = find_fde(o, pc);
	if (a == 0 || !parse_fde(o, a, &f, cie) || pc < f.pc_lo || pc >= f.pc_hi)
		return GMON_UW_NOFDE;
	s->cie = cie;
	s->budget = GMON_UW_MAX_INSNS;
	s->nsaved = 0;
	s->loc = f.pc_lo;
	s->target = UINTPTR_MAX;
	for (unsigned i = 0; i < GMON_UW_NREGS; i++)
		s->cur.reg[i] = (struct gmon_uw_rule){ 0, R_SAME };
	s->cur.cfa = (struct gmon_uw_rule){ 0, R_UNDEF };
	s->cur.cfa_reg = 0;
	if (run(s, cie->insns, cie->end) != 0)
		return GMON_UW_BAD;
	s->init = s->cur;
	s->nsaved = 0;
	s->target = pc;
	return run(s, f.insns, f.end) != 0 ? GMON_UW_BAD : GMON_UW_OK;
}

enum gmon_uw_result gmon_uw_row(const struct gmon_uw_obj *o, uintptr_t pc,
                                struct gmon_uw_row *row)
{
	struct state s;
	struct cie cie;
	int rc = find_row(o, pc, &s, &cie);
	if (rc == GMON_UW_OK) {
		*row = s.cur;
		row->ra = cie.ra;
	}
	return (enum gmon_uw_result)rc;
}

#endif
