/* SPDX-License-Identifier: GPL-3.0-or-later */
/* stk_threads.c - GMON_STACKS per thread (tests/libgmon/stacks.sh): three
   named threads, each with its own function calling leaf a known number
   of times, so their stacks and their exact TARCS tell them apart. */
#define _GNU_SOURCE
#include <pthread.h>

volatile unsigned long sink;

__attribute__((noinline)) void leaf(void)
{
	for (int i = 0; i < 20000; i++)
		sink += (unsigned long)i;
}

__attribute__((noinline)) void fa(void) { for (int i = 0; i < 3000; i++) leaf(); }
__attribute__((noinline)) void fb(void) { for (int i = 0; i < 5000; i++) leaf(); }
__attribute__((noinline)) void fc(void) { for (int i = 0; i < 7000; i++) leaf(); }

static void *start(void *arg)
{
	void (*f)(void) = (void (*)(void))arg;
	pthread_setname_np(pthread_self(),
	                   f == fa ? "wA" : f == fb ? "wB" : "wC");
	f();
	return NULL;
}

int main(void)
{
	pthread_t t[3];
	void (*fs[3])(void) = { fa, fb, fc };
	for (int i = 0; i < 3; i++)
		pthread_create(&t[i], NULL, start, (void *)fs[i]);
	for (int i = 0; i < 3; i++)
		pthread_join(t[i], NULL);
	return 0;
}
