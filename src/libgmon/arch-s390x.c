/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * arch-s390x.c - s390x start-up detection (s390x builds only): whether
 * __gmon_slowcall in stubs-s390x.S must save the vector argument
 * registers, asked of the kernel once through the auxiliary vector.
 */
#include <sys/auxv.h>

#include "gmon_rt.h"

unsigned int gmon_s390x_vx;

/* Bit 11 of AT_HWCAP: the kernel enabled the vector facility.  Without
   it the vector instructions would trap, and no program can have passed
   a vector argument anyway. */
#define S390X_HWCAP_VX (1ul << 11)

void gmon_s390x_init(void)
{
	gmon_s390x_vx = (getauxval(AT_HWCAP) & S390X_HWCAP_VX) != 0;
}
