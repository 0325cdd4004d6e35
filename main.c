void hot_loop(unsigned long n);
__attribute__((noinline)) static int local_work(int n) { int s = 0; for (int i = 0; i < n; i++) s += i; return s; }
int main(void)
{
	hot_loop(1000);
	return local_work(10) == 45 ? 0 : 1;
}
