/* SPDX-License-Identifier: GPL-3.0-or-later */
/* "lines" test program: the application part (src/app/). */
#ifndef APP_H
#define APP_H

unsigned long app_step(int i);
unsigned long app_util(unsigned long v);

#endif
