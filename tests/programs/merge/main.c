/* SPDX-License-Identifier: GPL-3.0-or-later */
/* "merge" test program: run once as `prog crunch` and once as `prog digest`
   to get two profiles with different hot spots, which the tests merge. */
#include <stdio.h>
#include <string.h>
#include "merge.h"

static unsigned char buffer[8192];

static __attribute__((noinline)) void setup(void)
{
	for (int i = 0; i < (int)sizeof buffer; i++)
		buffer[i] = (unsigned char)(i * 37 + 11);
}

int main(int argc, char **argv)
{
	const char *mode = argc > 1 ? argv[1] : "crunch";
	unsigned long r = 0;

	setup();
	if (strcmp(mode, "digest") == 0) {
		for (int i = 0; i < 300; i++)
			r += digest(buffer, (int)sizeof buffer);
	} else {
		for (int i = 0; i < 200; i++)
			r += crunch((unsigned long)i, 1000000);
	}
	r = polish(r);
	printf("%s %lu\n", mode, r & 0xffff);
	return 0;
}
