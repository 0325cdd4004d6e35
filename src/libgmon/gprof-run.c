/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * gprof-run.c - the gprof-run command: runs a program, unmodified and
 * not rebuilt, under the preloaded runtime libgmon-preload.so, so that it
 * writes gmon.out (a flat profile of the executable) and gmon.out.shlibs
 * (every loaded object; stacks with --stacks).  It picks the build of
 * the library that fits the program (x86-64 or the native target, musl,
 * i386) by reading the program's ELF headers, appends it to LD_PRELOAD,
 * sets the GMON_* variables its options name, and replaces itself with
 * the program.  Where preloading cannot work (a static executable, a
 * set-user-ID one, no build of the library for the program) it says so
 * in one line and runs the program unchanged.  Manual: doc/gprof-run.1.
 */
#define _GNU_SOURCE
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#ifndef GPROF_RUN_LIBDIR
#define GPROF_RUN_LIBDIR "/usr/local/lib/gproftk"
#endif
#ifndef GPROF_RUN_VERSION
#define GPROF_RUN_VERSION "unknown"
#endif
#define LIBNAME "libgmon-preload.so"

static const char *me = "gprof-run";

static void usage(FILE *f)
{
	fprintf(f, "usage: %s [-o FILE] [--stacks] [--wall] [--rate N] [--] PROGRAM [ARGS...]\n", me);
}

/* What the program is, as far as preloading goes. */
enum kind { K_SCRIPT, K_NATIVE, K_MUSL, K_I386, K_STATIC, K_FOREIGN };

/* Read the ELF headers of path: its kind.  Anything that is not ELF
   (a script) runs under the native build: its interpreter is profiled. */
static enum kind classify(const char *path)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return K_SCRIPT;
	unsigned char id[EI_NIDENT];
	enum kind k = K_SCRIPT;
	if (pread(fd, id, sizeof id, 0) != (ssize_t)sizeof id ||
	    memcmp(id, ELFMAG, SELFMAG) != 0)
		goto out;
	int is64 = id[EI_CLASS] == ELFCLASS64;
	Elf64_Ehdr e;
	Elf32_Ehdr e32;
	uint64_t phoff;
	unsigned phnum, phentsize, machine;
	if (is64) {
		if (pread(fd, &e, sizeof e, 0) != (ssize_t)sizeof e)
			goto out;
		phoff = e.e_phoff, phnum = e.e_phnum, phentsize = e.e_phentsize;
		machine = e.e_machine;
	} else {
		if (pread(fd, &e32, sizeof e32, 0) != (ssize_t)sizeof e32)
			goto out;
		phoff = e32.e_phoff, phnum = e32.e_phnum, phentsize = e32.e_phentsize;
		machine = e32.e_machine;
	}
	char interp[256] = "";
	int has_interp = 0;
	for (unsigned i = 0; i < phnum && i < 512; i++) {
		uint32_t type;
		uint64_t off, size;
		if (is64) {
			Elf64_Phdr p;
			if (pread(fd, &p, sizeof p, (off_t)(phoff + (uint64_t)i * phentsize)) != (ssize_t)sizeof p)
				break;
			type = p.p_type, off = p.p_offset, size = p.p_filesz;
		} else {
			Elf32_Phdr p;
			if (pread(fd, &p, sizeof p, (off_t)(phoff + (uint64_t)i * phentsize)) != (ssize_t)sizeof p)
				break;
			type = p.p_type, off = p.p_offset, size = p.p_filesz;
		}
		if (type == PT_INTERP) {
			has_interp = 1;
			if (size >= sizeof interp)
				size = sizeof interp - 1;
			ssize_t got = pread(fd, interp, (size_t)size, (off_t)off);
			interp[got > 0 ? got : 0] = '\0';
		}
	}
	if (!has_interp)
		k = K_STATIC;
	else if (strstr(interp, "ld-musl") != NULL)
		k = K_MUSL;
	else if (machine == EM_386 && sizeof(void *) == 8)
		k = K_I386;
#if defined(__x86_64__)
	else if (machine != EM_X86_64)
		k = K_FOREIGN;
#elif defined(__i386__)
	else if (machine != EM_386)
		k = K_FOREIGN;
#elif defined(__aarch64__)
	else if (machine != EM_AARCH64)
		k = K_FOREIGN;
#endif
	else
		k = K_NATIVE;
out:
	close(fd);
	return k;
}

/* The program as execvp would find it, or NULL. */
static char *find_program(const char *name)
{
	if (strchr(name, '/') != NULL)
		return access(name, F_OK) == 0 ? strdup(name) : NULL;
	const char *path = getenv("PATH");
	if (path == NULL)
		path = "/usr/local/bin:/usr/bin:/bin";
	for (const char *p = path;; p++) {
		const char *colon = strchr(p, ':');
		size_t n = colon ? (size_t)(colon - p) : strlen(p);
		char buf[PATH_MAX];
		if (snprintf(buf, sizeof buf, "%.*s%s%s", (int)n, p, n ? "/" : "", name) < (int)sizeof buf &&
		    access(buf, X_OK) == 0) {
			struct stat st;
			if (stat(buf, &st) == 0 && S_ISREG(st.st_mode))
				return strdup(buf);
		}
		if (colon == NULL)
			return NULL;
		p = colon;
	}
}

/* The library for kind k: beside this command first (the build tree:
   src/libgmon/, musl/, 32/), then in the folder it was installed to. */
static int find_library(enum kind k, char *out, size_t size)
{
	const char *sub = k == K_MUSL ? "musl/" : k == K_I386 ? "32/" : "";
	char self[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
	if (n > 0) {
		self[n] = '\0';
		char *slash = strrchr(self, '/');
		if (slash != NULL) {
			*slash = '\0';
			if (snprintf(out, size, "%s/%s%s", self, sub, LIBNAME) < (int)size &&
			    access(out, R_OK) == 0)
				return 0;
		}
	}
	if (snprintf(out, size, "%s/%s%s", GPROF_RUN_LIBDIR, sub, LIBNAME) < (int)size &&
	    access(out, R_OK) == 0)
		return 0;
	return -1;
}

/* The loader ignores LD_PRELOAD where the program gains privileges. */
static int gains_privilege(const char *path)
{
	struct stat st;
	if (stat(path, &st) != 0)
		return 0;
	return ((st.st_mode & S_ISUID) && st.st_uid != geteuid()) ||
	       ((st.st_mode & S_ISGID) && st.st_gid != getegid());
}

static void run(char **argv, const char *path)
{
	execv(path, argv);
	int e = errno;
	fprintf(stderr, "%s: cannot run %s: %s\n", me, argv[0], strerror(e));
	exit(e == ENOENT ? 127 : 126);
}

int main(int argc, char **argv)
{
	const char *out = NULL, *rate = NULL;
	int stacks = 0, wall = 0, i;
	for (i = 1; i < argc; i++) {
		const char *a = argv[i];
		if (strcmp(a, "--") == 0) {
			i++;
			break;
		}
		if (a[0] != '-')
			break;
		if (strcmp(a, "-o") == 0 || strcmp(a, "--output") == 0 ||
		    strcmp(a, "--rate") == 0) {
			if (i + 1 >= argc) {
				fprintf(stderr, "%s: %s needs a value\n", me, a);
				return 125;
			}
			*(strcmp(a, "--rate") == 0 ? &rate : &out) = argv[++i];
		} else if (strncmp(a, "-o", 2) == 0) {
			out = a + 2;
		} else if (strncmp(a, "--output=", 9) == 0) {
			out = a + 9;
		} else if (strncmp(a, "--rate=", 7) == 0) {
			rate = a + 7;
		} else if (strcmp(a, "--stacks") == 0) {
			stacks = 1;
		} else if (strcmp(a, "--wall") == 0) {
			wall = 1;
		} else if (strcmp(a, "--help") == 0) {
			usage(stdout);
			return 0;
		} else if (strcmp(a, "--version") == 0) {
			printf("gprof-run (gproftk) %s\n", GPROF_RUN_VERSION);
			return 0;
		} else {
			fprintf(stderr, "%s: unknown option %s (see %s --help)\n", me, a, me);
			return 125;
		}
	}
	if (i >= argc) {
		usage(stderr);
		return 125;
	}
	if (rate != NULL) {
		char *end;
		long v = strtol(rate, &end, 10);
		if (*rate == '\0' || *end != '\0' || v < 1 || v > 1000000) {
			fprintf(stderr, "%s: bad --rate %s (expected 1 to 1000000 samples per second)\n", me, rate);
			return 125;
		}
	}
	if (out != NULL && *out == '\0') {
		fprintf(stderr, "%s: -o needs a file name\n", me);
		return 125;
	}
	char **prog = argv + i;
	char *path = find_program(prog[0]);
	if (path == NULL) {
		fprintf(stderr, "%s: %s: command not found\n", me, prog[0]);
		return 127;
	}
	enum kind k = classify(path);
	const char *why = NULL;
	char lib[PATH_MAX];
	if (k == K_STATIC)
		why = "is statically linked: LD_PRELOAD cannot reach it (build it with -pg -lgmon to profile it)";
	else if (k == K_FOREIGN)
		why = "is for another architecture: no build of " LIBNAME " fits it";
	else if (gains_privilege(path))
		why = "is set-user-ID or set-group-ID: the loader ignores LD_PRELOAD for it";
	else if (find_library(k, lib, sizeof lib) != 0)
		why = k == K_MUSL ? "uses musl and no musl build of " LIBNAME " is installed" :
		      k == K_I386 ? "is an i386 program and no i386 build of " LIBNAME " is installed" :
		                    "cannot be profiled: " LIBNAME " is not installed";
	else if (strpbrk(lib, " :") != NULL)
		why = "cannot be profiled: the path of " LIBNAME " holds a space or a colon";
	if (why != NULL) {
		fprintf(stderr, "%s: %s %s; it runs unprofiled\n", me, prog[0], why);
		run(prog, path);
	}
	const char *old = getenv("LD_PRELOAD");
	if (old != NULL && *old != '\0') {
		size_t n = strlen(old) + strlen(lib) + 2;
		char *v = malloc(n);
		if (v == NULL) {
			fprintf(stderr, "%s: out of memory\n", me);
			return 125;
		}
		snprintf(v, n, "%s:%s", old, lib);
		setenv("LD_PRELOAD", v, 1);
	} else {
		setenv("LD_PRELOAD", lib, 1);
	}
	if (out != NULL)
		setenv("GMON_OUT", out, 1);
	if (stacks)
		setenv("GMON_STACKS", "1", 1);
	if (wall)
		setenv("GMON_CLOCK", "wall", 1);
	if (rate != NULL)
		setenv("GMON_RATE", rate, 1);
	run(prog, path);
	return 126;
}
