/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * gprof-run.c - the gprof-run command: runs a program, unmodified and
 * not rebuilt, under the preloaded runtime libgmon-preload.so, so that it
 * writes gmon.out (a flat profile of the executable) and gmon.out.shlibs
 * (every loaded object; stacks with --stacks).  It picks the build of
 * the library that fits the program (x86-64 or the native target, musl,
 * i386, or a cross build for a glibc program of another architecture)
 * by reading the program's ELF headers, appends it to LD_PRELOAD, sets
 * the GMON_* variables its options name, and replaces itself with the
 * program.  A program of another architecture runs under qemu-user: the
 * emulator binfmt_misc has registered for it, else --qemu's or
 * qemu-ARCH from PATH; the library reaches the guest's loader through
 * QEMU_SET_ENV (LD_PRELOAD itself would be the emulator's).  Where
 * preloading cannot work (a static executable, a set-user-ID one, no
 * build of the library for the program) it says so in one line and runs
 * the program unchanged.  Manual: doc/gprof-run.1.
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
/* Where `make install CROSS=TRIPLE-` puts a cross build:
   GPROF_RUN_CROSSROOT/TRIPLE/lib/gproftk (crosslibdir/gproftk). */
#ifndef GPROF_RUN_CROSSROOT
#define GPROF_RUN_CROSSROOT "/usr/local"
#endif
#ifndef GPROF_RUN_VERSION
#define GPROF_RUN_VERSION "unknown"
#endif
#define LIBNAME "libgmon-preload.so"

static const char *me = "gprof-run";

static void usage(FILE *f)
{
	fprintf(f, "usage: %s [-o FILE] [--stacks] [--wall] [--rate N] [--qemu EMULATOR] [--] PROGRAM [ARGS...]\n", me);
}

/* What the program is, as far as preloading goes.  K_CROSS: a glibc
   program of another architecture that has a cross build (foreign). */
enum kind { K_SCRIPT, K_NATIVE, K_MUSL, K_I386, K_STATIC, K_FOREIGN, K_CROSS };

/* A foreign architecture the cross builds cover (LGM_CROSS_TRIPLES in
   libgmon.mk): its ELF identity, gcc triple and qemu-user program. */
static const struct target {
	unsigned machine, elfclass, data;
	unsigned flags_mask, flags; /* of e_flags */
	const char *triple, *qemu;
} targets[] = {
	{ EM_AARCH64, ELFCLASS64, ELFDATA2LSB, 0, 0, "aarch64-linux-gnu", "qemu-aarch64" },
	{ EM_ARM, ELFCLASS32, ELFDATA2LSB, EF_ARM_ABI_FLOAT_HARD, EF_ARM_ABI_FLOAT_HARD,
	  "arm-linux-gnueabihf", "qemu-arm" },
	{ EM_RISCV, ELFCLASS64, ELFDATA2LSB, 0, 0, "riscv64-linux-gnu", "qemu-riscv64" },
	{ EM_PPC64, ELFCLASS64, ELFDATA2LSB, 0, 0, "powerpc64le-linux-gnu", "qemu-ppc64le" },
	{ EM_S390, ELFCLASS64, ELFDATA2MSB, 0, 0, "s390x-linux-gnu", "qemu-s390x" },
};
#define NTARGETS (sizeof targets / sizeof targets[0])

/* The target of the last program classified as K_CROSS. */
static const struct target *cross;

static unsigned elf16(const unsigned char *p, int msb)
{
	return msb ? (unsigned)p[0] << 8 | p[1] : (unsigned)p[1] << 8 | p[0];
}

static uint32_t elf32(const unsigned char *p, int msb)
{
	return msb ? (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3]
	           : (uint32_t)p[3] << 24 | (uint32_t)p[2] << 16 | (uint32_t)p[1] << 8 | p[0];
}

static uint64_t elf64(const unsigned char *p, int msb)
{
	return msb ? (uint64_t)elf32(p, 1) << 32 | elf32(p + 4, 1)
	           : (uint64_t)elf32(p + 4, 0) << 32 | elf32(p, 0);
}


/* The machine this command was built for, read from its own ELF header
   rather than from the compiler's architecture macros (libgmon keeps
   those to its arch files): a program of that machine is native.  0
   when it cannot be read, and then every program counts as native. */
static unsigned own_machine(void)
{
	static unsigned machine = ~0u;
	if (machine != ~0u)
		return machine;
	machine = 0;
	unsigned char eh[20];
	int fd = open("/proc/self/exe", O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return machine;
	if (pread(fd, eh, sizeof eh, 0) == (ssize_t)sizeof eh &&
	    memcmp(eh, ELFMAG, SELFMAG) == 0)
		machine = elf16(eh + 18, eh[EI_DATA] == ELFDATA2MSB);
	close(fd);
	return machine;
}

/* Read the ELF headers of path: its kind.  Anything that is not ELF
   (a script) runs under the native build: its interpreter is profiled.
   The headers are read in the file's own byte order (s390x is
   big-endian). */
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
	int is64 = id[EI_CLASS] == ELFCLASS64, msb = id[EI_DATA] == ELFDATA2MSB;
	/* e_machine at 18, e_flags at 48 (64-bit) or 36; e_phoff at 32 or
	   28; e_phentsize and e_phnum at 54/56 or 42/44. */
	unsigned char eh[64];
	if (pread(fd, eh, sizeof eh, 0) < (is64 ? 64 : 52))
		goto out;
	unsigned machine = elf16(eh + 18, msb);
	uint32_t flags = elf32(eh + (is64 ? 48 : 36), msb);
	uint64_t phoff = is64 ? elf64(eh + 32, msb) : elf32(eh + 28, msb);
	unsigned phentsize = elf16(eh + (is64 ? 54 : 42), msb);
	unsigned phnum = elf16(eh + (is64 ? 56 : 44), msb);
	char interp[256] = "";
	int has_interp = 0;
	for (unsigned i = 0; i < phnum && i < 512; i++) {
		unsigned char ph[56];
		size_t want = is64 ? 56 : 32;
		if (pread(fd, ph, want, (off_t)(phoff + (uint64_t)i * phentsize)) != (ssize_t)want)
			break;
		uint32_t type = elf32(ph, msb);
		uint64_t off = is64 ? elf64(ph + 8, msb) : elf32(ph + 4, msb);
		uint64_t size = is64 ? elf64(ph + 32, msb) : elf32(ph + 16, msb);
		if (type == PT_INTERP) {
			has_interp = 1;
			if (size >= sizeof interp)
				size = sizeof interp - 1;
			ssize_t got = pread(fd, interp, (size_t)size, (off_t)off);
			interp[got > 0 ? got : 0] = '\0';
		}
	}
	unsigned own = own_machine();
	int native = own == 0 || machine == own;
	if (!has_interp)
		k = K_STATIC;
	else if (strstr(interp, "ld-musl") != NULL)
		k = K_MUSL;
	else if (machine == EM_386 && sizeof(void *) == 8)
		k = K_I386;
	else if (!native) {
		k = K_FOREIGN;
		for (size_t t = 0; t < NTARGETS; t++)
			if (targets[t].machine == machine && targets[t].elfclass == id[EI_CLASS] &&
			    targets[t].data == id[EI_DATA] &&
			    (flags & targets[t].flags_mask) == targets[t].flags) {
				cross = &targets[t];
				k = K_CROSS;
			}
	} else
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
   src/libgmon/, musl/, 32/, cross/TRIPLE/), then in the folder it was
   installed to (a cross build's: its crosslibdir's gproftk/). */
static int find_library(enum kind k, char *out, size_t size)
{
	char sub[128];
	snprintf(sub, sizeof sub, "%s%s%s", k == K_MUSL ? "musl/" : k == K_I386 ? "32/" : "",
	         k == K_CROSS ? "cross/" : "", k == K_CROSS ? cross->triple : "");
	if (k == K_CROSS)
		strcat(sub, "/");
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
	if (k == K_CROSS) {
		if (snprintf(out, size, "%s/%s/lib/gproftk/%s", GPROF_RUN_CROSSROOT, cross->triple,
		             LIBNAME) < (int)size && access(out, R_OK) == 0)
			return 0;
		return -1;
	}
	if (snprintf(out, size, "%s/%s%s", GPROF_RUN_LIBDIR, sub, LIBNAME) < (int)size &&
	    access(out, R_OK) == 0)
		return 0;
	return -1;
}

/* Whether binfmt_misc has an enabled qemu entry whose magic and mask
   match the program's first bytes (the kernel then runs the emulator
   when the program is executed).  Entries that are not qemu's do not
   count: they would not read QEMU_SET_ENV. */
static int binfmt_runs(const char *path)
{
	char buf[4096];
	int fd = open("/proc/sys/fs/binfmt_misc/status", O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return 0;
	ssize_t n = read(fd, buf, sizeof buf - 1);
	close(fd);
	if (n <= 0 || strncmp(buf, "enabled", 7) != 0)
		return 0;
	unsigned char head[128];
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return 0;
	ssize_t have = pread(fd, head, sizeof head, 0);
	close(fd);
	for (size_t t = 0; t < 2; t++) {
		/* Debian and qemu's own script name entries qemu-ARCH. */
		char entry[64];
		snprintf(entry, sizeof entry, "/proc/sys/fs/binfmt_misc/%s%s",
		         cross->qemu, t ? "-static" : "");
		fd = open(entry, O_RDONLY | O_CLOEXEC);
		if (fd < 0)
			continue;
		n = read(fd, buf, sizeof buf - 1);
		close(fd);
		if (n <= 0)
			continue;
		buf[n] = '\0';
		char *interp = strstr(buf, "interpreter "), *mg = strstr(buf, "magic "),
		     *mk = strstr(buf, "mask "), *of = strstr(buf, "offset ");
		if (strncmp(buf, "enabled", 7) != 0 || interp == NULL || mg == NULL)
			continue;
		char *eol = strchr(interp, '\n');
		if (eol == NULL || memmem(interp, (size_t)(eol - interp), "qemu", 4) == NULL)
			continue;
		long at = of != NULL ? strtol(of + 7, NULL, 10) : 0;
		int match = 1;
		mg += 6;
		if (mk != NULL)
			mk += 5;
		for (long i = 0; match && mg[0] != '\n' && mg[0] != '\0'; i++, mg += 2) {
			unsigned m, want, mask = 0xff;
			if (sscanf(mg, "%2x", &want) != 1)
				break;
			if (mk != NULL && mk[0] != '\n' && sscanf(mk, "%2x", &m) == 1) {
				mask = m;
				mk += 2;
			}
			if (at + i >= have || ((head[at + i] ^ want) & mask) != 0)
				match = 0;
		}
		if (match)
			return 1;
	}
	return 0;
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
	if (errno == ENOEXEC && cross != NULL) {
		fprintf(stderr, "%s: cannot run %s: it is for %s, and no qemu-user emulator "
		        "is registered for it or named with --qemu\n", me, argv[0], cross->triple);
		exit(126);
	}
	int e = errno;
	fprintf(stderr, "%s: cannot run %s: %s\n", me, argv[0], strerror(e));
	exit(e == ENOENT ? 127 : 126);
}

/* Run the cross program under the emulator emu: `emu PATH ARGS...`, the
   guest's libraries found in /usr/TRIPLE (Debian's cross folder) unless
   QEMU_LD_PREFIX says where. */
static void run_emulated(const char *emu, char **argv, const char *path)
{
	char prefix[PATH_MAX], libdir[PATH_MAX + 8];
	snprintf(prefix, sizeof prefix, "/usr/%s", cross->triple);
	snprintf(libdir, sizeof libdir, "%s/lib", prefix);
	if (getenv("QEMU_LD_PREFIX") == NULL && access(libdir, F_OK) == 0)
		setenv("QEMU_LD_PREFIX", prefix, 1);
	size_t n = 0;
	while (argv[n] != NULL)
		n++;
	char **v = calloc(n + 2, sizeof *v);
	if (v == NULL) {
		fprintf(stderr, "%s: out of memory\n", me);
		exit(125);
	}
	v[0] = (char *)emu;
	v[1] = (char *)path;
	for (size_t i = 1; i < n; i++)
		v[i + 1] = argv[i];
	execv(emu, v);
	int e = errno;
	fprintf(stderr, "%s: cannot run %s: %s\n", me, emu, strerror(e));
	exit(e == ENOENT ? 127 : 126);
}

/* LD_PRELOAD for the guest: qemu-user passes its own environment on,
   but a host LD_PRELOAD naming a foreign library would be the emulator's
   to load; QEMU_SET_ENV (comma-separated NAME=VALUE) sets the guest's
   alone.  The library is appended to an LD_PRELOAD already there. */
static int set_guest_preload(const char *lib)
{
	const char *old = getenv("QEMU_SET_ENV");
	if (old == NULL)
		old = "";
	size_t n = strlen(old) + strlen(lib) + 16;
	char *v = malloc(n);
	if (v == NULL)
		return -1;
	const char *at = NULL;
	for (const char *p = old; (p = strstr(p, "LD_PRELOAD=")) != NULL; p++)
		if (p == old || p[-1] == ',')
			at = p; /* the last one is the one qemu applies */
	if (at != NULL) {
		const char *end = strchr(at, ',');
		size_t upto = end != NULL ? (size_t)(end - old) : strlen(old);
		snprintf(v, n, "%.*s:%s%s", (int)upto, old, lib, old + upto);
	} else {
		snprintf(v, n, "%s%sLD_PRELOAD=%s", old, *old ? "," : "", lib);
	}
	setenv("QEMU_SET_ENV", v, 1);
	return 0;
}

/* The command line: options, then the program and its arguments. */
struct args {
	const char *out, *rate, *qemu;
	int stacks, wall;
	char **prog;
};

/* An option's value, given as the next word or after '='; NULL when
   `a` is not that option. */
static const char *value_of(const char *a, const char *opt, char **next,
                            int *took)
{
	size_t n = strlen(opt);
	if (strcmp(a, opt) == 0) {
		*took = 1;
		return *next;
	}
	if (strncmp(a, opt, n) == 0 && a[n] == '=' && opt[1] == '-')
		return a + n + 1;
	if (strcmp(opt, "-o") == 0 && strncmp(a, "-o", 2) == 0 && a[2] != '\0')
		return a + 2;
	return NULL;
}

/* Options into `g`; the exit status to stop with, or -1 to go on. */
static int parse_args(int argc, char **argv, struct args *g)
{
	static const char *const valued[] = { "-o", "--output", "--rate", "--qemu" };
	int i;
	for (i = 1; i < argc && strcmp(argv[i], "--") != 0 && argv[i][0] == '-'; i++) {
		const char *a = argv[i], *v = NULL;
		size_t k;
		int took = 0;
		for (k = 0; k < 4 && v == NULL; k++)
			v = value_of(a, valued[k], argv + i + 1, &took);
		if (took && i + 1 >= argc) {
			fprintf(stderr, "%s: %s needs a value\n", me, a);
			return 125;
		}
		i += took;
		if (v != NULL)
			*(k <= 2 ? &g->out : k == 3 ? &g->rate : &g->qemu) = v;
		else if (strcmp(a, "--stacks") == 0)
			g->stacks = 1;
		else if (strcmp(a, "--wall") == 0)
			g->wall = 1;
		else if (strcmp(a, "--help") == 0)
			return usage(stdout), 0;
		else if (strcmp(a, "--version") == 0)
			return printf("gprof-run (gproftk) %s\n", GPROF_RUN_VERSION), 0;
		else {
			fprintf(stderr, "%s: unknown option %s (see %s --help)\n", me, a, me);
			return 125;
		}
	}
	i += i < argc && strcmp(argv[i], "--") == 0;
	if (i >= argc)
		return usage(stderr), 125;
	g->prog = argv + i;
	return -1;
}

/* The option values that are wrong whatever the program; -1 when none. */
static int check_args(const struct args *g)
{
	if (g->rate != NULL) {
		char *end;
		long v = strtol(g->rate, &end, 10);
		if (*g->rate == '\0' || *end != '\0' || v < 1 || v > 1000000) {
			fprintf(stderr, "%s: bad --rate %s (expected 1 to 1000000 samples per second)\n", me, g->rate);
			return 125;
		}
	}
	if (g->out != NULL && *g->out == '\0') {
		fprintf(stderr, "%s: -o needs a file name\n", me);
		return 125;
	}
	if (g->qemu != NULL && *g->qemu == '\0') {
		fprintf(stderr, "%s: --qemu needs an emulator\n", me);
		return 125;
	}
	return -1;
}

/* A cross program runs under an emulator: --qemu's, binfmt_misc's (*emu
   stays NULL: the kernel starts it), or qemu-ARCH from PATH.  The exit
   status to stop with, or -1. */
static int choose_emulator(const struct args *g, const char *path, char **emu)
{
	*emu = NULL;
	if (g->qemu != NULL) {
		*emu = find_program(g->qemu);
		if (*emu == NULL) {
			fprintf(stderr, "%s: %s: command not found\n", me, g->qemu);
			return 127;
		}
	} else if (!binfmt_runs(path)) {
		*emu = find_program(cross->qemu);
		if (*emu == NULL) {
			fprintf(stderr, "%s: %s is for %s, and no %s is on PATH nor registered "
			        "with binfmt_misc to run it (apt-get install qemu-user)\n",
			        me, g->prog[0], cross->triple, cross->qemu);
			return 126;
		}
	}
	return -1;
}

/* Why the program cannot be profiled, or NULL; lib gets the library to
   preload.  buf holds a message made for a cross program. */
static const char *why_not(enum kind k, const char *path, char *lib,
                           size_t size, char *buf, size_t bufsize)
{
	if (k == K_CROSS)
		snprintf(buf, bufsize, "has no build of " LIBNAME " for %s installed "
		         "(make libgmon CROSS=%s- builds one)", cross->triple, cross->triple);
	if (k == K_STATIC)
		return "is statically linked: LD_PRELOAD cannot reach it (build it with -pg -lgmon to profile it)";
	if (k == K_FOREIGN)
		return "is for another architecture: no build of " LIBNAME " fits it";
	if (gains_privilege(path))
		return "is set-user-ID or set-group-ID: the loader ignores LD_PRELOAD for it";
	if (find_library(k, lib, size) != 0)
		return k == K_MUSL ? "uses musl and no musl build of " LIBNAME " is installed" :
		       k == K_I386 ? "is an i386 program and no i386 build of " LIBNAME " is installed" :
		       k == K_CROSS ? buf :
		                     "cannot be profiled: " LIBNAME " is not installed";
	if (strpbrk(lib, k == K_CROSS ? " :," : " :") != NULL)
		return k == K_CROSS ? "cannot be profiled: the path of " LIBNAME " holds a space, a colon or a comma"
		                    : "cannot be profiled: the path of " LIBNAME " holds a space or a colon";
	return NULL;
}

/* LD_PRELOAD (QEMU_SET_ENV's for a cross program) and the GMON_*
   variables the options stand for; 0, or -1 out of memory. */
static int set_environment(const struct args *g, enum kind k, const char *lib)
{
	if (k == K_CROSS) {
		if (set_guest_preload(lib) != 0)
			return -1;
		/* qemu-user 7.2 kills a fork child that starts a thread while
		   its parent had several (the watcher, preload.c). */
		setenv("GMON_WATCH_FORKS", "0", 0);
	} else {
		const char *old = getenv("LD_PRELOAD");
		if (old != NULL && *old != '\0') {
			size_t n = strlen(old) + strlen(lib) + 2;
			char *v = malloc(n);
			if (v == NULL)
				return -1;
			snprintf(v, n, "%s:%s", old, lib);
			setenv("LD_PRELOAD", v, 1);
		} else {
			setenv("LD_PRELOAD", lib, 1);
		}
	}
	if (g->out != NULL)
		setenv("GMON_OUT", g->out, 1);
	if (g->stacks)
		setenv("GMON_STACKS", "1", 1);
	if (g->wall)
		setenv("GMON_CLOCK", "wall", 1);
	if (g->rate != NULL)
		setenv("GMON_RATE", g->rate, 1);
	return 0;
}

int main(int argc, char **argv)
{
	struct args g = { 0 };
	int st = parse_args(argc, argv, &g);
	if (st < 0)
		st = check_args(&g);
	if (st >= 0)
		return st;
	char *path = find_program(g.prog[0]);
	if (path == NULL) {
		fprintf(stderr, "%s: %s: command not found\n", me, g.prog[0]);
		return 127;
	}
	enum kind k = classify(path);
	char *emu = NULL;
	if (k == K_CROSS && (st = choose_emulator(&g, path, &emu)) >= 0)
		return st;
	char lib[PATH_MAX], cross_why[256] = "";
	const char *why = why_not(k, path, lib, sizeof lib, cross_why, sizeof cross_why);
	if (why != NULL) {
		fprintf(stderr, "%s: %s %s; it runs unprofiled\n", me, g.prog[0], why);
		if (emu != NULL)
			run_emulated(emu, g.prog, path);
		run(g.prog, path);
	}
	if (set_environment(&g, k, lib) != 0) {
		fprintf(stderr, "%s: out of memory\n", me);
		return 125;
	}
	if (emu != NULL)
		run_emulated(emu, g.prog, path);
	run(g.prog, path);
	return 126;
}
