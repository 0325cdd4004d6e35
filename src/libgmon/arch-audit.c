/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * arch-audit.c - the architecture half of libgmon-audit.so (audit.c):
 * the dynamic linker's per-architecture PLT hook, which finds the call
 * site (the return address, on the stack or in the link register) and
 * passes it on.  An architecture without one here builds a module that
 * counts nothing.
 */
#define _GNU_SOURCE
#include <link.h>
#include <stdint.h>

#include "audit_port.h"

#if defined(__x86_64__)
ElfW(Addr) la_x86_64_gnu_pltenter(ElfW(Sym) *sym, unsigned int ndx,
                                  uintptr_t *refcook, uintptr_t *defcook,
                                  La_x86_64_regs *regs, unsigned int *flags,
                                  const char *symname, long int *framesizep)
{
	(void)ndx; (void)refcook; (void)defcook; (void)flags; (void)symname;
	*framesizep = -1;
	gmon_audit_call(*(const uintptr_t *)regs->lr_rsp, sym->st_value);
	return sym->st_value;
}
#elif defined(__i386__)
ElfW(Addr) la_i86_gnu_pltenter(ElfW(Sym) *sym, unsigned int ndx,
                               uintptr_t *refcook, uintptr_t *defcook,
                               La_i86_regs *regs, unsigned int *flags,
                               const char *symname, long int *framesizep)
{
	(void)ndx; (void)refcook; (void)defcook; (void)flags; (void)symname;
	*framesizep = -1;
	gmon_audit_call(*(const uintptr_t *)regs->lr_esp, sym->st_value);
	return sym->st_value;
}
#elif defined(__aarch64__)
ElfW(Addr) la_aarch64_gnu_pltenter(ElfW(Sym) *sym, unsigned int ndx,
                                   uintptr_t *refcook, uintptr_t *defcook,
                                   La_aarch64_regs *regs, unsigned int *flags,
                                   const char *symname, long int *framesizep)
{
	(void)ndx; (void)refcook; (void)defcook; (void)flags; (void)symname;
	*framesizep = -1;
	gmon_audit_call((uintptr_t)regs->lr_lr, sym->st_value);
	return sym->st_value;
}
#endif
