/* SPDX-License-Identifier: GPL-3.0-or-later */
/* totals-lib.c - the -pg shared library of totals-prog.c: some time
   spent in a library function (tests/formats/totals.sh). */
static volatile unsigned long lib_sink;

unsigned long lib_spin(unsigned long n)
{
	for (unsigned long i = 0; i < n; i++)
		lib_sink += i ^ (lib_sink >> 5);
	return lib_sink;
}
