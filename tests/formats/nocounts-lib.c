/* SPDX-License-Identifier: GPL-3.0-or-later */
/* nocounts-lib.c - the shared library of nocounts-prog.c, built without
   -pg: some time in a library function (tests/formats/nocounts.sh). */
static volatile unsigned long lib_sink;

__attribute__((noinline)) unsigned long lib_spin(unsigned long n)
{
	for (unsigned long i = 0; i < n; i++)
		lib_sink += i ^ (lib_sink >> 5);
	return lib_sink;
}
