/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * stubs.S - picks the hook stubs of the architecture being built, so one
 * make rule serves the native, -m32 and musl builds alike.
 */
#if defined(__x86_64__)
#include "stubs-x86_64.S"
#elif defined(__i386__)
#include "stubs-i386.S"
#else
#error "libgmon: no mcount stubs for this architecture"
#endif
