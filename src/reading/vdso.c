/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * vdso.c - owns the kernel's vDSO as a side file's object: which names
 * the loader gives it (linux-vdso.so.1, linux-vdso64.so.1,
 * linux-gate.so.1, or "[vdso]"), and the image of the vDSO this process
 * was given by the kernel it runs on, opened through BFD from memory so
 * that a profile taken on the same kernel (the same build-id) gets the
 * vDSO's function names.  The vDSO has no file: its image is the ELF
 * header at getauxval(AT_SYSINFO_EHDR), as long as the farthest of its
 * program headers' segments and its section header table (the kernel
 * maps the whole stripped image, section headers included).
 */
#include "config.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <bfd.h>

#if defined(__linux__) && defined(__has_include)
#if __has_include(<sys/auxv.h>) && __has_include(<elf.h>)
#include <elf.h>
#include <sys/auxv.h>
#include <sys/mman.h>
#define HAVE_OWN_VDSO 1
#endif
#endif

#include "reading/reading.h"

static const char *const vdso_names[] = {
	"linux-vdso.so.1", "linux-vdso64.so.1", "linux-gate.so.1", "[vdso]",
};

/* Whether a side file's object path names the vDSO. */
bool vdso_is_name(const char *path)
{
	for (size_t i = 0; i < sizeof vdso_names / sizeof *vdso_names; i++)
		if (strcmp(path, vdso_names[i]) == 0)
			return true;
	return false;
}

#ifdef HAVE_OWN_VDSO

#if UINTPTR_MAX > 0xffffffffu
typedef Elf64_Ehdr own_ehdr;
typedef Elf64_Phdr own_phdr;
#define OWN_CLASS ELFCLASS64
#else
typedef Elf32_Ehdr own_ehdr;
typedef Elf32_Phdr own_phdr;
#define OWN_CLASS ELFCLASS32
#endif

/* The copy BFD reads: one per process, kept for as long as a BFD may
   read it (the process's life). */
static struct {
	unsigned char *data;
	size_t size;
	bool tried;
} image;

static void *mem_open(struct bfd *abfd, void *closure)
{
	(void)abfd;
	return closure;
}

static file_ptr mem_pread(struct bfd *abfd, void *stream, void *buf,
                          file_ptr nbytes, file_ptr offset)
{
	(void)abfd;
	(void)stream;
	if (offset < 0 || nbytes < 0 || (size_t)offset >= image.size)
		return 0;
	size_t n = image.size - (size_t)offset;
	if ((size_t)nbytes < n)
		n = (size_t)nbytes;
	memcpy(buf, image.data + offset, n);
	return (file_ptr)n;
}

static int mem_close(struct bfd *abfd, void *stream)
{
	(void)abfd;
	(void)stream;
	return 0;
}

static int mem_stat(struct bfd *abfd, void *stream, struct stat *sb)
{
	(void)abfd;
	(void)stream;
	memset(sb, 0, sizeof *sb);
	sb->st_size = (off_t)image.size;
	return 0;
}

/* Whether [p, p + n) is mapped in this process (mincore fails with
   ENOMEM on a page that is not). */
static bool mapped(uintptr_t p, size_t n)
{
	long page = sysconf(_SC_PAGESIZE);
	if (page <= 0)
		return false;
	uintptr_t lo = p & ~((uintptr_t)page - 1);
	size_t len = (size_t)(p + n - lo);
	size_t pages = (len + (size_t)page - 1) / (size_t)page;
	unsigned char *vec = malloc(pages ? pages : 1);
	bool ok = vec && mincore((void *)lo, len, vec) == 0;
	free(vec);
	return ok;
}

/* The image's size from its headers; 0 when they make no sense. */
static size_t image_size(uintptr_t base)
{
	if (!mapped(base, sizeof(own_ehdr)))
		return 0;
	const own_ehdr *eh = (const own_ehdr *)base;
	if (memcmp(eh->e_ident, ELFMAG, SELFMAG) != 0 ||
	    eh->e_ident[EI_CLASS] != OWN_CLASS ||
	    eh->e_phentsize != sizeof(own_phdr) || eh->e_phnum == 0 ||
	    eh->e_phoff > (1u << 20))
		return 0;
	size_t size = (size_t)eh->e_phoff + (size_t)eh->e_phnum * sizeof(own_phdr);
	if (!mapped(base, size))
		return 0;
	const own_phdr *ph = (const own_phdr *)(base + eh->e_phoff);
	for (unsigned i = 0; i < eh->e_phnum; i++) {
		if (ph[i].p_offset > (1u << 24) || ph[i].p_filesz > (1u << 24))
			return 0;
		size_t end = (size_t)ph[i].p_offset + (size_t)ph[i].p_filesz;
		if (end > size)
			size = end;
	}
	if (eh->e_shoff != 0 && eh->e_shoff < (1u << 24)) {
		size_t end = (size_t)eh->e_shoff +
			(size_t)eh->e_shnum * eh->e_shentsize;
		if (end > size)
			size = end;
	}
	return mapped(base, size) ? size : 0;
}

/* Copies this process's vDSO once; false when it has none. */
static bool copy_image(void)
{
	if (image.tried)
		return image.data != NULL;
	image.tried = true;
	uintptr_t base = (uintptr_t)getauxval(AT_SYSINFO_EHDR);
	size_t size = base ? image_size(base) : 0;
	if (size == 0)
		return false;
	image.data = xmalloc(size);
	memcpy(image.data, (const void *)base, size);
	image.size = size;
	return true;
}

/* The vDSO of the kernel this runs on, when its build-id is the one
   recorded (len bytes at id): a BFD reading it from memory, else NULL.
   Without a recorded build-id nothing says it is the same image. */
void *vdso_open_own(const unsigned char *id, size_t len)
{
	if (len == 0 || !copy_image())
		return NULL;
	bfd *abfd = bfd_openr_iovec("[vdso]", NULL, mem_open, &image, mem_pread,
	                            mem_close, mem_stat);
	if (!abfd)
		return NULL;
	const struct bfd_build_id *b = NULL;
	if (bfd_check_format(abfd, bfd_object))
		b = abfd->build_id;
	if (!b || b->size != len || memcmp(b->data, id, len) != 0) {
		bfd_close(abfd);
		return NULL;
	}
	return abfd;
}

#else

void *vdso_open_own(const unsigned char *id, size_t len)
{
	(void)id;
	(void)len;
	return NULL;
}

#endif
