/* SPDX-License-Identifier: GPL-3.0-or-later */
/* unw_lib.c - for tests/libgmon/unwind.sh: a library built -O2
   -fomit-frame-pointer and without -pg (a shared object, or an object
   linked in statically), whose function does work of its own and calls
   back into the program.  While it runs, its frame-pointer register
   holds junk, so that only the call-frame information leads from the
   callback and from its own loop to its caller. */
#include <stdint.h>

volatile unsigned long unw_lib_sink;

/* own[i] iterations of its own work, then cb(arg[i]), n times. */
void unw_lib_run(void (*cb)(long), const long *own, const long *arg, int n)
{
	for (int i = 0; i < n; i++) {
		uintptr_t junk = (uintptr_t)0x5a5a5a5a5a5a5a5bull + (uintptr_t)i;
#if defined(__x86_64__)
		__asm__ volatile("mov %0, %%rbp" : : "r"(junk) : "rbp");
#elif defined(__i386__)
		__asm__ volatile("mov %0, %%ebp" : : "r"(junk) : "ebp");
#elif defined(__aarch64__)
		__asm__ volatile("mov x29, %0" : : "r"(junk) : "x29");
#else
		(void)junk;
#endif
		for (long k = 0; k < own[i]; k++)
			unw_lib_sink += (unsigned long)k * 7u;
		cb(arg[i]);
	}
}
