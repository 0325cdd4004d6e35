/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * rvsites.c - a host-side check of the riscv64 port's call-site reader
 * (src/libgmon/arch-riscv64.c), which decides for each call of _mcount
 * whether the caller is in a0 (gcc) or at -8(s0) (clang, gcc -O0):
 *
 *   riscv64-linux-gnu-objdump -d PROG | rvsites PROG [a0|frame]
 *
 * PROG is a riscv64 ELF executable; the disassembly on stdin names its
 * calls of _mcount.  For each, the runtime's own code (included below,
 * not copied) reads the call site from PROG's bytes as loaded into this
 * process, and one line "a0 ADDR", "frame ADDR" or "unknown ADDR" is
 * printed (ADDR: the call's return address).  With an expected answer,
 * the exit status is 1 if any site got another.
 */
#include <elf.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* What arch-riscv64.c needs from the runtime, in place of gmon_rt.h. */
#define GMON_RT_H
static struct { uintptr_t lowpc, textsize; } gmon_p;
static const char *answer;
#define FAKE_A0 ((uintptr_t)0xa0a0a0a0)
#define FAKE_FRAME ((uintptr_t)0xf4f4f4f4)

static void __mcount_internal(uintptr_t frompc, uintptr_t selfpc)
{
	(void)selfpc;
	answer = frompc == FAKE_A0 ? "a0" : frompc == FAKE_FRAME ? "frame" : "?";
}

static void __gmon_no_caller(const char *why, uintptr_t selfpc)
{
	(void)why;
	(void)selfpc;
	answer = "unknown";
}

void __gmon_riscv64_mcount(uintptr_t a0, uintptr_t selfpc, uintptr_t s0,
                         uintptr_t sp);
#include "../../src/libgmon/arch-riscv64.c"

static unsigned char *image;
static uint64_t text_vaddr;

/* Read PROG and point the fake text range at its executable segment. */
static void load(const char *path)
{
	FILE *f = fopen(path, "rb");
	if (f == NULL) {
		perror(path);
		exit(2);
	}
	size_t cap = 1 << 20, len = 0, got;
	image = malloc(cap);
	while (image && (got = fread(image + len, 1, cap - len, f)) > 0)
		if ((len += got) == cap)
			image = realloc(image, cap *= 2);
	fclose(f);
	const Elf64_Ehdr *eh = (const Elf64_Ehdr *)image;
	if (image == NULL || len < sizeof *eh || memcmp(eh->e_ident, ELFMAG, SELFMAG) ||
	    eh->e_machine != EM_RISCV || eh->e_phoff + eh->e_phnum * sizeof(Elf64_Phdr) > len) {
		fprintf(stderr, "rvsites: %s is not a riscv64 ELF file\n", path);
		exit(2);
	}
	const Elf64_Phdr *ph = (const Elf64_Phdr *)(image + eh->e_phoff);
	for (int i = 0; i < eh->e_phnum; i++)
		if (ph[i].p_type == PT_LOAD && (ph[i].p_flags & PF_X) &&
		    ph[i].p_offset + ph[i].p_filesz <= len) {
			text_vaddr = ph[i].p_vaddr;
			gmon_p.lowpc = (uintptr_t)(image + ph[i].p_offset);
			gmon_p.textsize = ph[i].p_filesz;
			return;
		}
	fprintf(stderr, "rvsites: %s has no executable segment\n", path);
	exit(2);
}

/* The return address of an objdump line "ADDR: HEX jal(r) ... <_mcount>",
   or 0 if the line is no such call. */
static uint64_t call_return(const char *line)
{
	unsigned long long addr;
	char hex[32], op[16];
	if (strstr(line, "<_mcount>") == NULL ||
	    sscanf(line, " %llx: %31s %15s", &addr, hex, op) != 3 ||
	    (strcmp(op, "jal") != 0 && strcmp(op, "jalr") != 0))
		return 0;
	return addr + strlen(hex) / 2;
}

int main(int argc, char **argv)
{
	if (argc < 2 || argc > 3) {
		fprintf(stderr, "usage: objdump -d PROG | rvsites PROG [a0|frame]\n");
		return 2;
	}
	load(argv[1]);
	/* A frame whose return-address slot holds FAKE_FRAME, s0 above it. */
	uintptr_t stack[4] = { 0, FAKE_FRAME, 0, 0 };
	char line[512];
	int wrong = 0, sites = 0;
	while (fgets(line, sizeof line, stdin)) {
		uint64_t ret = call_return(line);
		if (ret == 0)
			continue;
		uintptr_t self = gmon_p.lowpc + (uintptr_t)(ret - text_vaddr);
		__gmon_riscv64_mcount(FAKE_A0, self, (uintptr_t)&stack[2],
		                    (uintptr_t)&stack[0]);
		printf("%s %llx\n", answer, (unsigned long long)ret);
		sites++;
		wrong += argc == 3 && strcmp(answer, argv[2]) != 0;
	}
	if (sites == 0)
		fprintf(stderr, "rvsites: no call of _mcount in the disassembly\n");
	return wrong || sites == 0 ? 1 : 0;
}
