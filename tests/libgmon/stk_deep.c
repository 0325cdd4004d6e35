/* SPDX-License-Identifier: GPL-3.0-or-later */
/* stk_deep.c - GMON_STACKS depth limit (tests/libgmon/stacks.sh): all
   the time is spent 300 calls deep, beyond the default limit of 128, so
   every stack is truncated and says so. */
volatile unsigned long sink;

__attribute__((noinline)) void spin(void)
{
	for (int i = 0; i < 100000; i++)
		sink += (unsigned long)i;
}

__attribute__((noinline)) void rec(int n)
{
	if (n == 0) {
		for (int r = 0; r < 2000; r++)
			spin();
		return;
	}
	rec(n - 1);
	sink++; /* not a tail call */
}

int main(void)
{
	rec(300);
	return 0;
}
