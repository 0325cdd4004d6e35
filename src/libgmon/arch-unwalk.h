/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * arch-unwalk.h - what the stack walk (unwalk.c, its only includer)
 * knows of each unwinding port's signal context: where the ucontext
 * keeps each register (DWARF order), the sigreturn trampolines'
 * instructions, where the kernel's signal frame keeps the interrupted
 * registers, and the return-address signature to strip.  Needs
 * unwind.h, <ucontext.h>, and unwalk.c's WORD and BIT.
 */
#ifndef GMON_ARCH_UNWALK_H
#define GMON_ARCH_UNWALK_H

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

static uintptr_t strip_ra(uintptr_t v)
{
#if defined(__aarch64__)
	return v & (((uintptr_t)1 << 48) - 1); /* a pac-ret signature */
#else
	return v;
#endif
}

#endif
