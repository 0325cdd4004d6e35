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

/* The register numbers' places in the ucontext (DWARF order). */
#if defined(__x86_64__)
static const int uc_index[GMON_UW_NREGS] = {
	REG_RAX, REG_RDX, REG_RCX, REG_RBX, REG_RSI, REG_RDI, REG_RBP, REG_RSP,
	REG_R8, REG_R9, REG_R10, REG_R11, REG_R12, REG_R13, REG_R14, REG_R15, REG_RIP,
};
# define UC_REGS(uc) ((uc)->uc_mcontext.gregs)
# define UC_REGS_OFF offsetof(ucontext_t, uc_mcontext.gregs)
/* __restore_rt: mov $15,%rax (or %eax); syscall.  sp at the ucontext. */
static const unsigned char tramp[] = { 0x48, 0xc7, 0xc0, 0x0f, 0, 0, 0, 0x0f, 0x05 };
static const unsigned char tramp2[] = { 0xb8, 0x0f, 0, 0, 0, 0x0f, 0x05 };
# define UC_ON_STACK 0
#elif defined(__i386__)
static const int uc_index[GMON_UW_NREGS] = {
	REG_EAX, REG_ECX, REG_EDX, REG_EBX, REG_ESP, REG_EBP, REG_ESI, REG_EDI, REG_EIP,
};
# define UC_REGS(uc) ((uc)->uc_mcontext.gregs)
# define UC_REGS_OFF offsetof(ucontext_t, uc_mcontext.gregs)
/* mov $173,%eax; int $0x80.  sp at the signal number, after which come
   the siginfo and ucontext pointers and the 128-byte siginfo. */
static const unsigned char tramp[] = { 0xb8, 0xad, 0, 0, 0, 0xcd, 0x80 };
# define UC_ON_STACK (3 * 4 + 128)
/* The old sigreturn, for handlers without SA_SIGINFO: pop %eax; mov
   $119,%eax; int $0x80.  sp at the signal number, then a sigcontext,
   whose registers are laid out as the ucontext's. */
static const unsigned char tramp2[] = { 0x58, 0xb8, 0x77, 0, 0, 0, 0xcd, 0x80 };
# define SC_ON_STACK 4
#elif defined(__aarch64__)
/* mov x8, #139; svc #0.  sp at the 128-byte siginfo, then the ucontext. */
static const unsigned char tramp[] = { 0x68, 0x11, 0x80, 0xd2, 0x01, 0, 0, 0xd4 };
static const unsigned char tramp2[] = { 0x68, 0x11, 0x80, 0xd2, 0x01, 0, 0, 0xd4 };
# define UC_ON_STACK 128
#endif

void gmon_uw_from_context(const void *ctx, struct gmon_uw_regs *r)
{
	const ucontext_t *uc = ctx;
#if defined(__aarch64__)
	for (unsigned i = 0; i < 31; i++)
		r->r[i] = (uintptr_t)uc->uc_mcontext.regs[i];
	r->r[31] = (uintptr_t)uc->uc_mcontext.sp;
	r->pc = (uintptr_t)uc->uc_mcontext.pc;
#else
	for (unsigned i = 0; i < GMON_UW_NREGS; i++)
		r->r[i] = (uintptr_t)UC_REGS(uc)[uc_index[i]];
	r->pc = r->r[GMON_UW_RA];
#endif
	r->valid = BIT(GMON_UW_NREGS) - 1;
	r->exact = 1;
}

/* The saved registers of the signal frame at sp (the kernel's ucontext,
   or on i386 for the old sigreturn its sigcontext). */
static int from_saved(struct gmon_uw_regs *r, const struct gmon_uw_mem *m, int old)
{
	uintptr_t uc = r->r[GMON_UW_SP] + UC_ON_STACK;
#ifdef SC_ON_STACK
	if (old)
		uc = r->r[GMON_UW_SP] + SC_ON_STACK - UC_REGS_OFF;
#else
	(void)old;
#endif
	struct gmon_uw_regs n = { .valid = BIT(GMON_UW_NREGS) - 1, .exact = 1 };
#if defined(__aarch64__)
	uintptr_t regs = uc + offsetof(ucontext_t, uc_mcontext.regs);
	for (unsigned i = 0; i < 31; i++)
		if (!gmon_uw_read(m, regs + i * WORD, &n.r[i]))
			return 0;
	if (!gmon_uw_read(m, uc + offsetof(ucontext_t, uc_mcontext.sp), &n.r[31]) ||
	    !gmon_uw_read(m, uc + offsetof(ucontext_t, uc_mcontext.pc), &n.pc))
		return 0;
#else
	for (unsigned i = 0; i < GMON_UW_NREGS; i++)
		if (!gmon_uw_read(m, uc + UC_REGS_OFF + (uintptr_t)uc_index[i] * WORD, &n.r[i]))
			return 0;
	n.pc = n.r[GMON_UW_RA];
#endif
	*r = n;
	return 1;
}

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

static uintptr_t strip_ra(uintptr_t v)
{
#if defined(__aarch64__)
	return v & (((uintptr_t)1 << 48) - 1); /* a pac-ret signature */
#else
	return v;
#endif
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
