/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * demangle.c - unit test of core_demangle() (src/core.c), which answers
 * "not mangled" itself for names that no default style could demangle:
 * for every demangling style, with and without a target's leading
 * character, it must answer exactly as libbfd's bfd_demangle() does.
 */
#include <stdlib.h>
#include <string.h>

#include <bfd.h>
#include <libiberty/demangle.h>

#include "unit.h"

static const char *const names[] = {
	"", "_", "__", ".", "$", "@", "main", "foo@GLIBC_2.2.5", "pkg__sub",
	"Pkg__X", "foo__2", "_ada_main", "_Z3foov", "__Z3foov", "___Z3foov",
	"_Z3foov@plt", ".foo", "._Z3foov", "$_Z3foov", ".$_Z3foov", "._.Z3foov",
	"_GLOBAL__sub_I_main", "_ZZ4mainE1x", "_Z1fIiEvT_", "_D3foo3barFZv",
	"_RNvC6_123foo3bar", "_ZN3foo17h0123456789abcdefE", "java.lang.Object",
	"_ZN4java4lang6ObjectE", "@_Z3foov", "_Z3foov@@V1", "Z3foov",
};

static const char *const styles[] = {
	"auto", "gnu-v3", "rust", "gnat", "dlang", "java", "none",
};

/* Same answer from both for every name; says which differs. */
static bool same_answers(struct gprof *g, const char *style)
{
	bool ok = true;

	for (size_t i = 0; i < sizeof names / sizeof *names; i++) {
		char *want = bfd_demangle(g->abfd, names[i],
		                          DMGL_ANSI | DMGL_PARAMS);
		char *got = core_demangle(g, names[i]);
		bool same = want && got ? strcmp(want, got) == 0 : want == got;
		if (!same) {
			printf("    style %s, leading '%c', \"%s\": got %s, "
			       "want %s\n", style, g->leading_char ?
			       g->leading_char : '0', names[i],
			       got ? got : "(none)", want ? want : "(none)");
			ok = false;
		}
		free(want);
		free(got);
	}
	return ok;
}

/* An object of the named target, opened for writing and never written:
   enough for its leading character. */
static bfd *target_bfd(const char *target)
{
	bfd *abfd = bfd_openw("/dev/null", target);
	if (abfd && !bfd_set_format(abfd, bfd_object)) {
		bfd_close_all_done(abfd);
		abfd = NULL;
	}
	return abfd;
}

static void test_styles(const char *target, const char *what)
{
	struct gprof g;
	bool ok = true;
	bfd *abfd = target_bfd(target);

	model_init(&g);
	g.abfd = abfd;
	g.leading_char = abfd ? bfd_get_symbol_leading_char(abfd) : 0;
	ok = unit_expect(abfd != NULL, "the target opens");
	for (size_t s = 0; ok && s < sizeof styles / sizeof *styles; s++) {
		cplus_demangle_set_style(cplus_demangle_name_to_style(styles[s]));
		ok = same_answers(&g, styles[s]) && ok;
	}
	cplus_demangle_set_style(auto_demangling);
	if (abfd)
		bfd_close_all_done(abfd);
	unit_check(ok, what);
}

void unit_demangle(void)
{
	bfd_init();
	test_styles("elf64-x86-64", "demangle_as_bfd");
	test_styles("pe-i386", "demangle_as_bfd_leading_underscore");
}
