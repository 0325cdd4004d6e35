#include <stdint.h>
__attribute__((noinline)) uint64_t plug_step(uint64_t x) { return (x ^ (x >> 7)) * 31 + 1; }
uint64_t plug_work(long n) { uint64_t x = 1; for (long i = 0; i < n; i++) x = plug_step(x); return x; }
