/* SPDX-License-Identifier: GPL-3.0-or-later */
/* stk_nofp.c - built without -pg and with -fomit-frame-pointer for
   tests/libgmon/stacks.sh: code whose frame-pointer register holds
   anything at all while it runs (here, on x86-64, on purpose: garbage,
   a pointer into a stack array of garbage, a frame pointing at itself),
   and which calls back into profiled code. */
#include <stdint.h>

void nofp_spin(uintptr_t fp, long n)
{
#if defined(__x86_64__)
	__asm__ volatile("push %%rbp\n\t"
	                 "mov %1, %%rbp\n"
	                 "1:\tdec %0\n\t"
	                 "jnz 1b\n\t"
	                 "pop %%rbp"
	                 : "+r"(n) : "r"(fp) : "cc", "memory");
#else
	volatile long k = n;
	(void)fp;
	while (k-- > 0)
		;
#endif
}

void nofp_call(void (*cb)(void), int times)
{
	volatile uintptr_t junk[64];
	for (int i = 0; i < 64; i++)
		junk[i] = (uintptr_t)0x9e3779b97f4a7c15ull * (uintptr_t)(i + 1) + (uintptr_t)i;
	junk[10] = (uintptr_t)&junk[10]; /* a frame whose next is itself */
	junk[20] = (uintptr_t)&junk[30];
	for (int i = 0; i < times; i++) {
		nofp_spin((uintptr_t)0xdeadbeef0, 200000);
		nofp_spin((uintptr_t)&junk[i % 60], 200000);
		nofp_spin((uintptr_t)&junk[10], 200000);
		nofp_spin((uintptr_t)&junk[20], 200000);
		nofp_spin((uintptr_t)&junk[1] + 3, 200000);
		cb();
	}
}
