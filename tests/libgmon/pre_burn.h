/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * pre_burn.h - the CPU burner that the preload test's program and its
 * two libraries inline into each function they measure (pre_main.c,
 * pre_lib.c, pre_mod.c): it spins until the calling thread has used
 * SECONDS of CPU and returns the CPU time it measured of itself
 * (CLOCK_THREAD_CPUTIME_ID around the spin), so that every sample of the
 * spin falls in the function that inlined it.
 */
#ifndef PRE_BURN_H
#define PRE_BURN_H

#include <time.h>

static inline double pre_now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static volatile unsigned long pre_sink;

/* About a millisecond of work between reads of the clock. */
static inline __attribute__((always_inline)) double pre_burn(double seconds)
{
	double t0 = pre_now(), t = t0;
	while (t - t0 < seconds) {
		for (int i = 0; i < 200000; i++)
			pre_sink += (unsigned long)i ^ (pre_sink >> 3);
		t = pre_now();
	}
	return t - t0;
}

#endif
