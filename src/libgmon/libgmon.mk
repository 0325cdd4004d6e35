# SPDX-License-Identifier: GPL-3.0-or-later
# libgmon.mk - builds and installs the libgmon profiling runtime; included
# by the top-level Makefile before its `all` rule.  It sets LIBGMON_TARGETS
# (what `all` builds) and LIBGMON_INSTALL (commands `make install` runs,
# which also write the pkg-config files libgmon.pc and libgmon-musl.pc).
#
# Up to three builds of the same sources, each a static archive:
#   src/libgmon/libgmon.a        native C library (glibc), $(CC)
#   src/libgmon/musl/libgmon.a   musl, $(MUSL_GCC), plus musl/gcrt1.o
#   src/libgmon/32/libgmon.a     i386, $(CC) -m32, when that can link
# Objects go under src/libgmon/build/<variant>/.

LGM := src/libgmon
LGM_BUILD := $(LGM)/build
LGM_VERSION := $(shell sed -n '/^AC_INIT/{s/[^,]*, *\[//;s/\].*//;p;}' configure.ac 2>/dev/null)
# The generic objects; each architecture adds its own (LGM_ARCH_NAMES_*).
LGM_NAMES := control.o sampler.o tables.o write.o record.o
LGM_DEPS := $(wildcard $(LGM)/*.h $(LGM)/*.S) include/gmon_format.h $(LGM)/libgmon.mk

# Per architecture (the names arch.h's ports use): its objects, and the
# flags that keep the C recorder off the floating-point/vector registers
# (see LGM_HOT_CFLAGS).  A port adds one line to each and to lgm_arch.
LGM_ARCH_NAMES_riscv64 := stubs-riscv64.o arch-riscv64.o
LGM_ARCH_NAMES_ppc64le := stubs-ppc64le.o
LGM_ARCH_NAMES_s390x := stubs-s390x.o arch-s390x.o
LGM_ARCH_HOT_s390x := -msoft-float -mno-vx
LGM_ARCH_NAMES_x86_64 := stubs-x86_64.o arch-x86.o
LGM_ARCH_NAMES_i386 := stubs-i386.o arch-x86.o
LGM_ARCH_HOT_x86_64 := -mgeneral-regs-only
LGM_ARCH_HOT_i386 := -mgeneral-regs-only

# $(call lgm_arch,compiler command): the architecture that command builds
# for, read from its predefined macros, so that `gcc -m32` counts as i386.
# Empty for an unknown one, whose build then stops at arch.h's #error.
lgm_arch = $(shell $(1) -dM -E -x c /dev/null 2>/dev/null | sed -n \
	-e 's/^.define __riscv_xlen 64$$/riscv64/p' \
	-e 's/^.define _CALL_ELF 2$$/ppc64le/p' \
	-e 's/^.define __s390x__ 1$$/s390x/p' \
	-e 's/^.define __x86_64__ 1$$/x86_64/p' \
	-e 's/^.define __i386__ 1$$/i386/p')

# The runtime must not itself be instrumented or sanitized, and stays out
# of LTO so the archive works with any linker.
LGM_USER_CFLAGS := $(filter-out -pg -flto% -fsanitize% -finstrument-functions% \
                   -fprofile% --coverage -fomit-frame-pointer,$(CFLAGS))
# Landing pads and the CET property note, so that linking libgmon keeps a
# -fcf-protection program CET-enabled.
LGM_CET := $(shell $(CC) -fcf-protection=full -E -x c /dev/null >/dev/null 2>&1 \
             && echo -fcf-protection=full)
LGM_CFLAGS = -std=gnu11 -Wall -Wextra $(LGM_USER_CFLAGS) -O2 -fPIC \
             -ftls-model=initial-exec -fvisibility=hidden -fno-stack-protector \
             -fno-omit-frame-pointer $(LGM_CET) -Iinclude -I$(LGM) $(CPPFLAGS)
# The recorder runs with the profiled function's vector arguments live:
# no vector registers (the architecture's flag, LGM_ARCH_HOT_*), and no
# loops turned into memset/memcpy calls (gcc needs the first flag below
# for that; for clang -fno-builtin is enough).
LGM_NO_PATTERNS := $(shell $(CC) -fno-tree-loop-distribute-patterns -E -x c /dev/null \
                     >/dev/null 2>&1 && echo -fno-tree-loop-distribute-patterns)
LGM_HOT_CFLAGS = $(LGM_NO_PATTERNS) -fno-builtin

LGM_M32 := $(shell printf 'int main(void){return 0;}\n' | \
             $(CC) -m32 -x c -o /dev/null - >/dev/null 2>&1 && echo yes)

musllibdir ?= $(libdir)/musl
libdir32 ?= $(exec_prefix)/lib32

# $(call LGM_VARIANT,name,compiler command,archive)
define LGM_VARIANT
$(1)_LGM_ARCH := $$(call lgm_arch,$(2))
$(1)_LGM_OBJS := $$(addprefix $$(LGM_BUILD)/$(1)/,$$(LGM_NAMES) \
	$$(LGM_ARCH_NAMES_$$($(1)_LGM_ARCH)))

$$(LGM_BUILD)/$(1)/record.o: $$(LGM)/record.c $$(LGM_DEPS)
	@mkdir -p $$(@D)
	$(2) $$(LGM_CFLAGS) $$(LGM_ARCH_HOT_$$($(1)_LGM_ARCH)) $$(LGM_HOT_CFLAGS) -c -o $$@ $$<

$$(LGM_BUILD)/$(1)/%.o: $$(LGM)/%.c $$(LGM_DEPS)
	@mkdir -p $$(@D)
	$(2) $$(LGM_CFLAGS) -c -o $$@ $$<

$$(LGM_BUILD)/$(1)/%.o: $$(LGM)/%.S $$(LGM_DEPS)
	@mkdir -p $$(@D)
	$(2) $$(LGM_CFLAGS) -c -o $$@ $$<

$(3): $$($(1)_LGM_OBJS)
	@mkdir -p $$(@D)
	rm -f $$@
	$$(AR) rcs $$@ $$($(1)_LGM_OBJS)
endef

# $(call LGM_PC,libdir,suffix,libc name): the shell command that writes a
# pkg-config file to stdout.  It runs at install time, so the file names
# the folders the archives really go to, even when they are overridden on
# the `make install` command line.
LGM_PC = sed -e 's|@prefix@|$(prefix)|' -e 's|@exec_prefix@|$(exec_prefix)|' \
	-e 's|@libdir@|$(1)|' -e 's|@SUFFIX@|$(2)|' -e 's|@LIBC@|$(3)|' \
	-e 's|@VERSION@|$(LGM_VERSION)|' $(LGM)/libgmon.pc.in

$(eval $(call LGM_VARIANT,native,$(CC),$(LGM)/libgmon.a))
LIBGMON_TARGETS := $(LGM)/libgmon.a
LIBGMON_INSTALL = $(INSTALL) -d $(DESTDIR)$(libdir)/pkgconfig && \
	$(INSTALL) -m 644 $(LGM)/libgmon.a $(DESTDIR)$(libdir)/libgmon.a && \
	$(call LGM_PC,$(libdir),,native C library) \
		> $(DESTDIR)$(libdir)/pkgconfig/libgmon.pc

ifneq ($(strip $(MUSL_GCC)),)
$(eval $(call LGM_VARIANT,musl,$(MUSL_GCC),$(LGM)/musl/libgmon.a))
$(LGM)/musl/gcrt1.o: $(LGM)/gcrt1.c $(LGM_DEPS)
	@mkdir -p $(@D)
	$(MUSL_GCC) $(LGM_CFLAGS) -c -o $@ $<
LIBGMON_TARGETS += $(LGM)/musl/libgmon.a $(LGM)/musl/gcrt1.o
LIBGMON_INSTALL += && $(INSTALL) -d $(DESTDIR)$(musllibdir) && \
	$(INSTALL) -m 644 $(LGM)/musl/libgmon.a $(DESTDIR)$(musllibdir)/libgmon.a && \
	$(INSTALL) -m 644 $(LGM)/musl/gcrt1.o $(DESTDIR)$(musllibdir)/gcrt1.o && \
	$(call LGM_PC,$(musllibdir),-musl,musl) \
		> $(DESTDIR)$(libdir)/pkgconfig/libgmon-musl.pc
endif

ifeq ($(LGM_M32),yes)
$(eval $(call LGM_VARIANT,m32,$(CC) -m32,$(LGM)/32/libgmon.a))
LIBGMON_TARGETS += $(LGM)/32/libgmon.a
LIBGMON_INSTALL += && $(INSTALL) -d $(DESTDIR)$(libdir32) && \
	$(INSTALL) -m 644 $(LGM)/32/libgmon.a $(DESTDIR)$(libdir32)/libgmon.a
endif

libgmon: $(LIBGMON_TARGETS)

libgmon-clean:
	rm -rf $(LGM_BUILD) $(LGM)/musl $(LGM)/32 $(LGM)/libgmon.a

.PHONY: libgmon libgmon-clean
