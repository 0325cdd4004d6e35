/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * unwalk.c - the walk of a SIGPROF tick's stack (GMON_STACKS): from the
 * signal context, frame after frame, by the call-frame information of
 * the object holding each PC (unwind.c), through the kernel's signal
 * frames (the sigreturn trampoline is recognised by its instructions and
 * the registers are read back from the ucontext the kernel saved on the
 * stack), and by the frame-pointer chain where an object has no entry
 * for the PC (code without CFI, or in no known object).  Then the hook's
 * own frames are folded: a tick inside libgmon's recorder is recorded as
 * the PC where it landed followed by the profiled function that called
 * the hook, so the hook's time is charged to no other function.
 *
 * Runs in the SIGPROF handler: reads only the thread's stack between
 * the interrupted SP and the stack's base, the objects' tables and text;
 * each frame must lie at or above the one before (outward), and the
 * walk stops at the depth limit.
 */
#define _GNU_SOURCE
#include <stddef.h>
#include <stdint.h>
#include <ucontext.h>

#include "unwind.h"

#ifdef GMON_UW_CFI

#define WORD sizeof(uintptr_t)
#define BIT(i) ((uint64_t)1 << (i))

#include "arch-unwalk.h"

/* Do the bytes at a, inside [lo, hi), match p? */
static int code_is(uintptr_t a, uintptr_t lo, uintptr_t hi,
                   const unsigned char *p, size_t n)
{
	if (a < lo || a >= hi || hi - a < n)
		return 0;
	const volatile unsigned char *b = (const volatile unsigned char *)a;
	for (size_t i = 0; i < n; i++)
		if (b[i] != p[i])
			return 0;
	return 1;
}

int gmon_uw_is_sigreturn(uintptr_t pc, uintptr_t lo, uintptr_t hi)
{
	return code_is(pc, lo, hi, tramp, sizeof tramp) ? 1
	     : code_is(pc, lo, hi, tramp2, sizeof tramp2) ? 2 : 0;
}

/* Is pc the sigreturn trampoline, in an object's text or (old kernels)
   on the stack?  1 for it, 2 for the old one (i386), 0 if not. */
static int at_trampoline(uintptr_t pc, const struct gmon_uw_obj *o,
                         const struct gmon_uw_mem *m)
{
	uintptr_t lo = o != NULL ? o->text_lo : m->stack_lo;
	uintptr_t hi = o != NULL ? o->text_hi : m->stack_hi;
	return gmon_uw_is_sigreturn(pc, lo, hi);
}

/* The object whose text holds a; the newest when several did. */
static const struct gmon_uw_obj *object_of(const struct gmon_uw_obj *objs,
                                           uint32_t n, uintptr_t a)
{
	for (uint32_t i = n; i-- > 0;)
		if (a - objs[i].text_lo < objs[i].text_hi - objs[i].text_lo &&
		    !__atomic_load_n(&objs[i].dead, __ATOMIC_RELAXED))
			return &objs[i];
	return NULL;
}

/* One frame along the frame-pointer chain (code without CFI). */
static int fp_step(struct gmon_uw_regs *r, const struct gmon_uw_mem *m)
{
	uintptr_t fp = r->r[GMON_UW_FP], next, ret;
	if (!(r->valid & BIT(GMON_UW_FP)) || (fp & (WORD - 1)) ||
	    fp < r->r[GMON_UW_SP] || !gmon_uw_read(m, fp, &next) ||
	    !gmon_uw_read(m, fp + WORD, &ret) || ret == 0)
		return 0;
	r->r[GMON_UW_FP] = next;
	r->r[GMON_UW_SP] = fp + 2 * WORD;
	r->r[GMON_UW_RA] = ret;
	r->pc = ret;
	r->exact = 0;
	return 1;
}

/* From one frame to its caller's; 0 at the end.  *missed is set when
   the PC lies in no known object. */
static int step(struct gmon_uw_regs *r, const struct gmon_uw_obj *objs,
                uint32_t n, const struct gmon_uw_mem *m,
                struct gmon_uw_cache *cache, unsigned *flags)
{
	/* (frame 0 at the trampoline; later ones are passed by the walk) */
	int t = at_trampoline(r->pc, object_of(objs, n, r->pc), m);
	if (t != 0)
		return from_saved(r, m, t == 2);
	const struct gmon_uw_obj *o = object_of(objs, n, r->exact ? r->pc : r->pc - 1);
	if (o == NULL)
		*flags |= GMON_UW_MISSED;
	enum gmon_uw_result rc = o != NULL && o->count > 0 ? gmon_uw_step(o, m, r, cache)
	                                                    : GMON_UW_NOFDE;
	if (rc == GMON_UW_NOFDE)
		return fp_step(r, m);
	return rc == GMON_UW_OK;
}

/* Hook frames: a return into the hooks' code among the first frames
   means frames 1 up to it are the recorder's; fold them away. */
extern const uintptr_t __start_gmon_hook_text[] __attribute__((weak, visibility("hidden")));
extern const uintptr_t __stop_gmon_hook_text[] __attribute__((weak, visibility("hidden")));
#define FOLD_WITHIN 8

static int in_hooks(uintptr_t ret)
{
	for (const uintptr_t *h = __start_gmon_hook_text; h && h + 1 < __stop_gmon_hook_text;
	     h += 2)
		if (ret - 1 - h[0] < h[1] - h[0])
			return 1;
	return 0;
}

/* exact: bit k set when frame k is a PC a signal frame saved, not a
   return address; no fold reaches past one (a handler's tick that
   interrupted the hook keeps the hook's frame). */
static uint32_t fold_hook(uintptr_t *f, uint32_t d, uint32_t exact)
{
	for (uint32_t k = 1; k < d && k <= FOLD_WITHIN; k++) {
		if (exact >> k & 1)
			break;
		if (!in_hooks(f[k]))
			continue;
		for (uint32_t i = k + 1; i < d; i++)
			f[i - k] = f[i];
		return d - k;
	}
	return d;
}


/* The caller's frame is known and not below the callee's. */
static int outward(const struct gmon_uw_regs *r, uintptr_t sp, uintptr_t base)
{
	return (r->valid & BIT(GMON_UW_SP)) && r->r[GMON_UW_SP] >= sp &&
	       r->r[GMON_UW_SP] <= base;
}

uint32_t gmon_uw_walk(const void *uc, uintptr_t stack_lo, uintptr_t stack_base,
                      const struct gmon_uw_obj *objs, uint32_t n,
                      struct gmon_uw_cache *cache,
                      uintptr_t *f, uint32_t limit, unsigned *flags)
{
	struct gmon_uw_regs r;
	gmon_uw_from_context(uc, &r);
	uint32_t d = 0, exact = 0;
	f[d++] = r.pc;
	*flags = 0;
	struct gmon_uw_mem m = { r.r[GMON_UW_SP], stack_base };
	if (m.stack_lo < stack_lo || m.stack_lo >= stack_base)
		return d; /* not on the thread's own stack: frame 0 alone */
	while (1) {
		uintptr_t sp = r.r[GMON_UW_SP];
		if (!step(&r, objs, n, &m, cache, flags) || !outward(&r, sp, stack_base))
			break;
		r.pc = strip_ra(r.pc);
		/* A return into the sigreturn trampoline: the frame above is
		   the code the signal interrupted, from the saved context; the
		   trampoline itself is no caller and is not recorded. */
		sp = r.r[GMON_UW_SP];
		int t = at_trampoline(r.pc, object_of(objs, n, r.pc), &m);
		if (t != 0 && (!from_saved(&r, &m, t == 2) || !outward(&r, sp, stack_base)))
			break;
		if (r.pc == 0)
			break;
		if (d == limit) {
			*flags |= GMON_UW_CUT;
			break;
		}
		if (r.exact && d < 32)
			exact |= (uint32_t)1 << d;
		f[d++] = r.pc;
	}
	return fold_hook(f, d, exact);
}

#endif
