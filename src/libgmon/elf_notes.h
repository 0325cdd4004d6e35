/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * elf_notes.h - finding one ELF note in a loaded object's PT_NOTE
 * segments, for the two binaries that need it: libgmon (an object's
 * build-id, shlibs.c) and libgmon-audit.so (libgmon's port in the
 * program, audit.c).  Header-only, as the two share no object file.
 */
#ifndef GMON_ELF_NOTES_H
#define GMON_ELF_NOTES_H

#include <link.h>
#include <stdint.h>
#include <string.h>

/* The descriptor of note (name, type) in one note segment, or NULL;
   *descsz gets its size.  Stops at the first malformed note. */
static inline const char *gmon_note_in(const char *p, size_t size,
                                       const char *name, uint32_t type,
                                       uint32_t *descsz)
{
	size_t namesz = strlen(name) + 1;
	while (size >= sizeof(ElfW(Nhdr))) {
		const ElfW(Nhdr) *n = (const ElfW(Nhdr) *)p;
		size_t nsz = ((size_t)n->n_namesz + 3) & ~(size_t)3;
		size_t dsz = ((size_t)n->n_descsz + 3) & ~(size_t)3;
		if (nsz > size || dsz > size || sizeof *n + nsz + dsz > size)
			return NULL;
		if (n->n_type == type && n->n_namesz == namesz &&
		    memcmp(p + sizeof *n, name, namesz) == 0) {
			*descsz = n->n_descsz;
			return p + sizeof *n + nsz;
		}
		p += sizeof *n + nsz + dsz;
		size -= sizeof *n + nsz + dsz;
	}
	return NULL;
}

/* The same over every PT_NOTE segment of an object loaded at bias. */
static inline const char *gmon_note_find(const ElfW(Phdr) *ph, size_t phnum,
                                         uintptr_t bias, const char *name,
                                         uint32_t type, uint32_t *descsz)
{
	for (size_t i = 0; ph != NULL && i < phnum; i++) {
		if (ph[i].p_type != PT_NOTE)
			continue;
		const char *d = gmon_note_in((const char *)(bias + ph[i].p_vaddr),
		                             ph[i].p_memsz, name, type, descsz);
		if (d != NULL)
			return d;
	}
	return NULL;
}

#endif
