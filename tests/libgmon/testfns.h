/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * testfns.h - what the libgmon test programs share: a "keep this call"
 * attribute for gcc and clang, so that optimisation never inlines, clones,
 * hoists or merges the calls whose counts the tests check.
 */
#ifndef TESTFNS_H
#define TESTFNS_H

#if defined(__clang__)
#define KEEP __attribute__((noinline))
#else
#define KEEP __attribute__((noinline, noipa))
#endif
#define NOPROF __attribute__((no_instrument_function))

#endif
