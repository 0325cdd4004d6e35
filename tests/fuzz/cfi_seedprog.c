/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * cfi_seedprog.c - writes seeds for the `cfi` harness (fuzz_cfi.c):
 * real signal contexts of itself.  It recurses through functions with
 * and without frame pointers, some with variable-size frames, and on
 * each SIGPROF tick (up to 40) its handler writes one input: the
 * interrupted registers, 2 KiB of stack above the interrupted SP and
 * its own image from the ELF header to the end of the segment holding
 * .eh_frame, values pointing into either tagged as fuzz_cfi.c reads
 * them.  Run by make-cfi-seeds.sh with the output folder as argument.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <link.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/time.h>
#include <ucontext.h>
#include <unistd.h>

static const char *dir;
static uintptr_t img_lo, img_hi, text_lo, text_hi, hdr, data_lo, data_hi;
static volatile int seeds;
volatile unsigned long sink;

static int phdr_cb(struct dl_phdr_info *info, size_t size, void *p)
{
	(void)size, (void)p;
	if (info->dlpi_name[0] != '\0')
		return 0;
	for (int i = 0; i < info->dlpi_phnum; i++)
		if (info->dlpi_phdr[i].p_type == PT_GNU_EH_FRAME)
			hdr = info->dlpi_addr + info->dlpi_phdr[i].p_vaddr;
	img_lo = info->dlpi_addr;
	for (int i = 0; i < info->dlpi_phnum; i++) {
		const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
		uintptr_t a = info->dlpi_addr + ph->p_vaddr;
		if (ph->p_type != PT_LOAD)
			continue;
		if (ph->p_flags & PF_X) {
			text_lo = a;
			text_hi = a + ph->p_filesz;
		}
		if (hdr - a < ph->p_filesz) {
			data_lo = a;
			data_hi = img_hi = a + ph->p_filesz;
		}
	}
	return 1;
}

static void put(unsigned char *b, size_t *n, uint64_t v, unsigned len)
{
	for (unsigned i = 0; i < len; i++)
		b[(*n)++] = (unsigned char)(v >> (8 * i));
}

static uint64_t tag(uintptr_t v, uintptr_t sp)
{
	if (v - img_lo < img_hi - img_lo)
		return (1ull << 63) | (v - img_lo);
	if (v - sp < 2048)
		return (1ull << 62) | (v - sp);
	return v;
}

static unsigned char out[16 + 17 * 8 + 2048];

static void on_prof(int sig, siginfo_t *si, void *ctx)
{
	(void)sig, (void)si;
	if (seeds >= 40)
		return;
	const greg_t *g = ((ucontext_t *)ctx)->uc_mcontext.gregs;
	static const int idx[17] = { REG_RAX, REG_RDX, REG_RCX, REG_RBX, REG_RSI, REG_RDI,
	                             REG_RBP, REG_RSP, REG_R8, REG_R9, REG_R10, REG_R11,
	                             REG_R12, REG_R13, REG_R14, REG_R15, REG_RIP };
	uintptr_t sp = (uintptr_t)g[REG_RSP];
	size_t n = 0;
	put(out, &n, 63, 1);
	put(out, &n, 0, 1);
	put(out, &n, text_lo - img_lo, 2);
	put(out, &n, text_hi - text_lo, 2);
	put(out, &n, hdr - img_lo, 2);
	put(out, &n, data_lo - img_lo, 2);
	put(out, &n, data_hi - data_lo, 2);
	put(out, &n, 2048, 2);
	put(out, &n, 0, 2);
	for (int i = 0; i < 17; i++)
		put(out, &n, tag((uintptr_t)g[idx[i]], sp), 8);
	for (int i = 0; i < 256; i++)
		put(out, &n, tag(((const uintptr_t *)sp)[i], sp), 8);
	char path[512];
	snprintf(path, sizeof path, "%s/seed-ctx-%02d", dir, seeds);
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (fd >= 0) {
		(void)!write(fd, out, n);
		(void)!write(fd, (const void *)img_lo, img_hi - img_lo);
		close(fd);
	}
	seeds++;
}

__attribute__((noinline, optimize("omit-frame-pointer"))) static void leaf(long n)
{
	for (long i = 0; i < n; i++)
		sink += (unsigned long)i * 3u;
}

__attribute__((noinline)) static void vla(int depth, long n);

__attribute__((noinline, optimize("omit-frame-pointer"))) static void nofp(int depth, long n)
{
	if (depth > 0)
		vla(depth - 1, n);
	else
		leaf(n);
	sink++;
}

__attribute__((noinline)) static void vla(int depth, long n)
{
	volatile char buf[16 + (depth & 7) * 16];
	buf[0] = 1;
	if (depth % 3 == 0)
		leaf(n / 4);
	nofp(depth, n);
	sink += buf[0];
}

int main(int argc, char **argv)
{
	dir = argc > 1 ? argv[1] : ".";
	dl_iterate_phdr(phdr_cb, NULL);
	if (hdr == 0 || img_hi - img_lo > 60000)
		return 1;
	struct sigaction sa = { .sa_sigaction = on_prof, .sa_flags = SA_SIGINFO | SA_RESTART };
	sigaction(SIGPROF, &sa, NULL);
	struct itimerval it = { { 0, 7000 }, { 0, 7000 } };
	setitimer(ITIMER_PROF, &it, NULL);
	while (seeds < 40)
		vla(9, 300000);
	return 0;
}
