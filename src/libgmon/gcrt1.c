/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * gcrt1.c - a gcrt1.o start file for musl toolchains.  A compiler driver
 * given -pg at link time asks for gcrt1.o instead of crt1.o/Scrt1.o, and
 * musl ships none (clang for a musl target stops with "cannot find
 * gcrt1.o").  This one is an ordinary program entry for musl: _start
 * hands the initial stack to __libc_start_main.  Profiling itself needs
 * nothing from here, since libgmon starts from its own constructor, but
 * the file refers to __monstartup so that a link without -lgmon fails
 * loudly instead of producing a program that writes no profile.
 *
 * It is built position-independent, so it serves both PIE and fixed-
 * address links.  Only _start's few instructions depend on the
 * architecture; they come from its header (GMON_ARCH_START_ASM).
 */
#include "arch.h"

int main(int, char **, char **);
int __libc_start_main(int (*)(int, char **, char **), int, char **,
                      void (*)(void), void (*)(void), void (*)(void));
void _init(void) __attribute__((weak));
void _fini(void) __attribute__((weak));
void __monstartup(unsigned long, unsigned long);

void __gmon_start_c(long *sp) __attribute__((visibility("hidden"), used));
void *const __gmon_crt_anchor __attribute__((visibility("hidden"), used)) =
	(void *)&__monstartup;

/* The kernel leaves argc, then argv[], at the initial stack pointer. */
void __gmon_start_c(long *sp)
{
	int argc = (int)sp[0];
	char **argv = (char **)(sp + 1);
	__libc_start_main(main, argc, argv, _init, _fini, 0);
}

/*
 * _start, the program's entry: the architecture's code clears the frame
 * pointer (this is the outermost frame), passes the initial stack pointer
 * to __gmon_start_c, with the stack aligned as its ABI requires at a
 * call, and never returns.  ("%function" is the symbol-type spelling
 * every ELF assembler accepts; "@" starts a comment on ARM.)
 */
__asm__(
	".text\n"
	".global _start\n"
	".type _start, %function\n"
	"_start:\n"
	GMON_ARCH_START_ASM
	".size _start, . - _start\n");
