/* SPDX-License-Identifier: GPL-3.0-or-later */
/* stk_sig.c - GMON_STACKS under a program's own signal handler, which
   does profiled work and sometimes leaves with siglongjmp, and through
   code without frame pointers (stk_nofp.c) (tests/libgmon/stacks.sh).
   It must just run to the end and say "done". */
#include <setjmp.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/time.h>

void nofp_call(void (*cb)(void), int times);

volatile unsigned long sink;
static sigjmp_buf back;
static volatile sig_atomic_t armed, hits;

__attribute__((noinline)) void inhandler(void)
{
	for (int i = 0; i < 200000; i++)
		sink += (unsigned long)i;
}

static void on_alarm(int sig)
{
	(void)sig;
	inhandler();
	if (armed && ++hits % 3 == 0)
		siglongjmp(back, 1);
}

__attribute__((noinline)) void body(void)
{
	for (int i = 0; i < 300000; i++)
		sink += (unsigned long)i;
}

__attribute__((noinline)) void callback(void) { body(); }

int main(void)
{
	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_alarm;
	sigaction(SIGALRM, &sa, NULL);
	struct itimerval it = { { 0, 2000 }, { 0, 2000 } };
	setitimer(ITIMER_REAL, &it, NULL);
	int jumps = 0;
	if (sigsetjmp(back, 1))
		jumps++;
	armed = 1;
	while (jumps < 20 && hits < 200)
		body();
	armed = 0;
	memset(&it, 0, sizeof it);
	setitimer(ITIMER_REAL, &it, NULL);
	/* 600 calls, some 0.3 s of CPU and 80 ticks: the test wants at least
	   one of them in body through nofp_call, and e^-80 is no risk. */
	nofp_call(callback, 600);
	printf("done\n");
	return 0;
}
