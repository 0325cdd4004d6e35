# SPDX-License-Identifier: GPL-3.0-or-later
# libgmon.mk - builds and installs the libgmon profiling runtime; included
# by the top-level Makefile before its `all` rule.  It sets LIBGMON_TARGETS
# (what `all` builds), LIBGMON_INSTALL (commands `make install` runs, which
# also write the pkg-config files libgmon.pc, libgmon-musl.pc and
# libgmon-32.pc, and install the header include/libgmon.h; the top-level
# Makefile installs the manual pages) and LIBGMON_UNINSTALL (what `make
# uninstall` runs: it removes every file any variant may have installed,
# built or not, and the folders that are libgmon's own once empty).
#
# Up to three builds of the same sources, each a static archive:
#   src/libgmon/libgmon.a        native C library (glibc), $(CC)
#   src/libgmon/musl/libgmon.a   musl, $(MUSL_GCC), plus musl/gcrt1.o
#   src/libgmon/32/libgmon.a     i386, $(CC) -m32, when that can link
# and beside each archive the same sources as a preloadable shared object,
# libgmon-preload.so (GMON_PRELOAD; see LGM_PRELOAD), with the command
# src/libgmon/gprof-run that runs a program under it.
# Objects go under build/libgmon/<variant>/, out of the source folder.
#
# With CROSS=<triple>- (say CROSS=aarch64-linux-gnu-) there is one build
# only, for that target, with $(CROSS)gcc and $(CROSS)ar (CROSS_CC and
# CROSS_AR override them):
#   src/libgmon/cross/<triple>/libgmon.a, objects in build/libgmon/cross-<triple>/
#   src/libgmon/cross/<triple>/libgmon-preload.so, build/libgmon/cross-<triple>-preload/
# and `make install` puts them in $(exec_prefix)/<triple>/lib (crosslibdir),
# the folder Debian's cross compilers search, with a pkg-config file in
# its pkgconfig/ subfolder and the preloaded runtime in gproftk/ (where
# the native gprof-run looks for it, and runs the program under qemu-user).  `make libgmon-cross` runs that build for
# every target in LGM_CROSS_TRIPLES whose compiler is installed.  A plain
# `make install` also installs each cross archive already built there
# (as it does libc_p.a), in the same place.
#
# Install folders (make variables; configure sets the first two):
#   libdir       libgmon.a, pkgconfig/libgmon*.pc
#   includedir   libgmon.h
#   auditdir     libgmon-audit.so (default $(libdir); Debian's package
#                puts it in a private subfolder); the pkg-config variable
#                auditmodule names it: pkg-config --variable=auditmodule libgmon
#   musllibdir   the musl build (default $(libdir)/musl)
#   libdir32     the i386 build (default $(exec_prefix)/lib32)
#   preloaddir   libgmon-preload.so, and its musl/ and 32/ builds
#                (default $(libdir)/gproftk); bindir gets gprof-run
# LGM_M32=no leaves the i386 build out even where -m32 links.

LGM := src/libgmon
LGM_BUILD := build/libgmon
LGM_VERSION := $(shell sed -n '/^AC_INIT/{s/[^,]*, *\[//;s/\].*//;p;}' configure.ac 2>/dev/null)
# The generic objects; each architecture adds its own (LGM_ARCH_NAMES_*).
LGM_NAMES := lifecycle.o state.o env.o text.o sampler.o ticks.o tables.o write.o record.o signals.o api.o shlibs.o outbuf.o offcpu.o offwalk.o offstk.o stacks.o cputime.o heapsort.o sigmask.o \
	unwind.o unwstep.o unwalk.o ehobjs.o
LGM_DEPS := $(wildcard $(LGM)/*.h $(LGM)/*.S) include/gmon_format.h include/libgmon.h $(LGM)/libgmon.mk

# Per architecture (the names arch.h's ports use): its objects, the
# flags that keep the C recorder off the floating-point/vector registers
# (see LGM_HOT_CFLAGS; only where a hook is an invisible call), and the
# hardening flags its objects get when the compiler accepts them (landing
# pads and the property note, so that linking libgmon keeps a CET or BTI
# program protected).  A port adds a line to each that applies, and one
# to arch-probe.c.
LGM_ARCH_NAMES_x86_64 := stubs-x86_64.o arch-x86.o
LGM_ARCH_NAMES_i386 := stubs-i386.o arch-x86.o
LGM_ARCH_NAMES_aarch64 := stubs-aarch64.o
LGM_ARCH_NAMES_arm := stubs-arm.o
LGM_ARCH_NAMES_riscv64 := stubs-riscv64.o arch-riscv64.o
LGM_ARCH_NAMES_ppc64le := stubs-ppc64le.o
LGM_ARCH_NAMES_s390x := stubs-s390x.o arch-s390x.o
LGM_ARCH_HOT_x86_64 := -mgeneral-regs-only
LGM_ARCH_HOT_i386 := -mgeneral-regs-only
LGM_ARCH_HOT_arm := -mgeneral-regs-only
LGM_ARCH_HOT_s390x := -msoft-float -mno-vx
LGM_ARCH_HARDEN_x86_64 := -fcf-protection=full
LGM_ARCH_HARDEN_i386 := -fcf-protection=full
LGM_ARCH_HARDEN_aarch64 := -mbranch-protection=standard

# $(call lgm_arch,compiler command): the architecture that command builds
# for, read from its predefined macros by preprocessing arch-probe.c, so
# that `gcc -m32` counts as i386.  Empty for an unknown one, whose build
# then stops at arch.h's #error.
lgm_arch = $(shell $(1) -E -P -x c $(LGM)/arch-probe.c 2>/dev/null | \
	sed -n 's/^lgm_arch "\([a-z0-9_]*\)"$$/\1/p')

# $(call lgm_accepted,compiler command,flags): the flags, if the compiler
# takes them, else nothing.
lgm_accepted = $(if $(2),$(shell $(1) $(2) -E -x c /dev/null >/dev/null 2>&1 && echo $(2)))

# The runtime must not itself be instrumented or sanitized, and stays out
# of LTO so the archive works with any linker.
LGM_USER_CFLAGS := $(filter-out -pg -flto% -fsanitize% -finstrument-functions% \
                   -fprofile% --coverage -fomit-frame-pointer,$(CFLAGS))
LGM_CFLAGS = -std=gnu11 -Wall -Wextra $(LGM_USER_CFLAGS) -O2 -fPIC \
             -ftls-model=initial-exec -fvisibility=hidden -fno-stack-protector \
             -fno-omit-frame-pointer -Iinclude -I$(LGM) $(CPPFLAGS)
# The recorder runs with the profiled function's vector arguments live:
# no vector registers (the architecture's flag, LGM_ARCH_HOT_*), and no
# loops turned into memset/memcpy calls (gcc needs the first flag below
# for that, probed per variant; for clang -fno-builtin is enough).
LGM_NO_PATTERNS := -fno-tree-loop-distribute-patterns
LGM_HOT_CFLAGS = -fno-builtin

musllibdir ?= $(libdir)/musl
auditdir ?= $(libdir)
preloaddir ?= $(libdir)/gproftk
# Set by configure; a CROSS build may run without it.  libgmon.h and
# libgmon(3) are installed with the native build only.
includedir ?= $(prefix)/include
libdir32 ?= $(exec_prefix)/lib32

# $(call LGM_VARIANT,name,compiler command,archive[,archiver[,more objects]])
# Also sets <name>_LGM_CFLAGS: LGM_CFLAGS plus the architecture's
# hardening flags that compiler accepts, and <name>_LGM_HOT for record.c.
define LGM_VARIANT
$(1)_LGM_ARCH := $$(call lgm_arch,$(2))
$(1)_LGM_CFLAGS := $$(LGM_CFLAGS) \
	$$(call lgm_accepted,$(2),$$(LGM_ARCH_HARDEN_$$($(1)_LGM_ARCH)))
$(1)_LGM_HOT := $$(LGM_ARCH_HOT_$$($(1)_LGM_ARCH)) $$(LGM_HOT_CFLAGS) \
	$$(call lgm_accepted,$(2),$$(LGM_NO_PATTERNS))
$(1)_LGM_OBJS := $$(addprefix $$(LGM_BUILD)/$(1)/,$$(LGM_NAMES) $(5) \
	$$(LGM_ARCH_NAMES_$$($(1)_LGM_ARCH)))

$$(LGM_BUILD)/$(1)/record.o: $$(LGM)/record.c $$(LGM_DEPS)
	@mkdir -p $$(@D)
	$(2) $$($(1)_LGM_CFLAGS) $$($(1)_LGM_HOT) -c -o $$@ $$<

$$(LGM_BUILD)/$(1)/%.o: $$(LGM)/%.c $$(LGM_DEPS)
	@mkdir -p $$(@D)
	$(2) $$($(1)_LGM_CFLAGS) -c -o $$@ $$<

$$(LGM_BUILD)/$(1)/%.o: $$(LGM)/%.S $$(LGM_DEPS)
	@mkdir -p $$(@D)
	$(2) $$($(1)_LGM_CFLAGS) -c -o $$@ $$<

$(3): $$($(1)_LGM_OBJS)
	@mkdir -p $$(@D)
	rm -f $$@
	$(or $(4),$$(AR)) rcs $$@ $$($(1)_LGM_OBJS)
endef

# $(call LGM_PRELOAD,name,compiler command,shared object): the preloaded
# runtime, libgmon-preload.so: the same sources built with GMON_PRELOAD
# (preload.c added) into build/libgmon/<name>/, linked as a shared object
# that the loader initializes before every other one (-z initfirst, so
# that threads other objects' constructors start are sampled; glibc
# honours it, musl ignores it).  LD_PRELOAD loads it; gprof-run sets that.
define LGM_PRELOAD
$$(eval $$(call LGM_VARIANT,$(1),$(2) -DGMON_PRELOAD,$$(LGM_BUILD)/$(1)/unused.a,,preload.o))
$(3): $$($(1)_LGM_OBJS)
	@mkdir -p $$(@D)
	$(2) -shared -Wl,-z,initfirst -Wl,-z,noexecstack $$(LDFLAGS) -o $$@ \
		$$($(1)_LGM_OBJS) -ldl -pthread
endef

# $(call LGM_PC,libdir,suffix,libc name[,audit module]): the shell
# command that writes a pkg-config file to stdout.  It runs at install
# time, so the file names the folders the archives really go to, even when
# they are overridden on the `make install` command line.  Without an
# audit module the auditmodule line is left out.
LGM_PC = sed -e 's|@prefix@|$(prefix)|' -e 's|@exec_prefix@|$(exec_prefix)|' \
	-e 's|@libdir@|$(1)|' -e 's|@includedir@|$(includedir)|' -e 's|@SUFFIX@|$(2)|' -e 's|@LIBC@|$(3)|' \
	-e 's|@VERSION@|$(LGM_VERSION)|' -e 's|@AUDIT@|$(4)|' -e '/^auditmodule=$$/d' \
	$(LGM)/libgmon.pc.in

# $(call lgm_rmdir,folder): remove the folder if it is empty and exists.
lgm_rmdir = { ! [ -d $(1) ] || rmdir $(1) 2>/dev/null || :; }

# Where a plain `make install` puts the cross archives built in the tree
# (the folder Debian's cross compilers search), and which ones exist.
lgm_crossdir = $(exec_prefix)/$(1)/lib
LGM_CROSS_BUILT = $(patsubst $(LGM)/cross/%/libgmon.a,%,$(wildcard $(LGM)/cross/*/libgmon.a))

ifeq ($(strip $(CROSS)),)

$(eval $(call LGM_VARIANT,native,$(CC),$(LGM)/libgmon.a))
# libgmon-audit.so: the LD_AUDIT module (glibc only) that counts the
# program's PLT calls into shared libraries for GMON_SHLIBS (audit.c).
$(LGM)/libgmon-audit.so: $(LGM)/audit.c $(LGM)/arch-audit.c $(LGM)/audit_port.h $(LGM)/elf_notes.h
	$(CC) -std=gnu11 -Wall -Wextra $(LGM_USER_CFLAGS) -O2 -fPIC -shared \
		-fvisibility=default -I$(LGM) $(LDFLAGS) -o $@ $(LGM)/audit.c $(LGM)/arch-audit.c
# libgmon-preload.so and gprof-run, the command that preloads it (it
# looks beside itself first, then in preloaddir, for the build matching
# the program: native, musl/ or 32/).
$(eval $(call LGM_PRELOAD,preload,$(CC),$(LGM)/libgmon-preload.so))
$(LGM)/gprof-run: $(LGM)/gprof-run.c $(LGM)/libgmon.mk
	$(CC) -std=gnu11 -Wall -Wextra $(LGM_USER_CFLAGS) -O2 \
		-DGPROF_RUN_LIBDIR='"$(preloaddir)"' -DGPROF_RUN_CROSSROOT='"$(exec_prefix)"' \
		-DGPROF_RUN_VERSION='"$(LGM_VERSION)"' \
		$(LDFLAGS) -o $@ $<
LIBGMON_TARGETS := $(LGM)/libgmon.a $(LGM)/libgmon-audit.so $(LGM)/libgmon-preload.so $(LGM)/gprof-run
LIBGMON_INSTALL = $(INSTALL) -d $(DESTDIR)$(libdir)/pkgconfig $(DESTDIR)$(auditdir) && \
	$(INSTALL) -d $(DESTDIR)$(preloaddir) $(DESTDIR)$(bindir) && \
	$(INSTALL) -m 644 $(LGM)/libgmon-preload.so $(DESTDIR)$(preloaddir)/libgmon-preload.so && \
	$(INSTALL) -m 755 $(LGM)/gprof-run $(DESTDIR)$(bindir)/gprof-run && \
	$(INSTALL) -m 644 $(LGM)/libgmon.a $(DESTDIR)$(libdir)/libgmon.a && \
	$(INSTALL) -m 644 $(LGM)/libgmon-audit.so $(DESTDIR)$(auditdir)/libgmon-audit.so && \
	$(INSTALL) -d $(DESTDIR)$(includedir) && \
	$(INSTALL) -m 644 include/libgmon.h $(DESTDIR)$(includedir)/libgmon.h && \
	$(call LGM_PC,$(libdir),,native C library,$(auditdir)/libgmon-audit.so) \
		> $(DESTDIR)$(libdir)/pkgconfig/libgmon.pc
# The cross archives built in this tree (make libgmon-cross), each with
# its pkg-config file, and their libgmon-preload.so in gproftk/ there
# (where gprof-run looks: it is built with this exec_prefix).
LIBGMON_INSTALL += $(foreach t,$(LGM_CROSS_BUILT), && \
	$(INSTALL) -d $(DESTDIR)$(call lgm_crossdir,$(t))/pkgconfig && \
	$(INSTALL) -m 644 $(LGM)/cross/$(t)/libgmon.a $(DESTDIR)$(call lgm_crossdir,$(t))/libgmon.a && \
	$(call LGM_PC,$(call lgm_crossdir,$(t)),,$(t) C library) \
		> $(DESTDIR)$(call lgm_crossdir,$(t))/pkgconfig/libgmon.pc \
	$(if $(wildcard $(LGM)/cross/$(t)/libgmon-preload.so), && \
		$(INSTALL) -d $(DESTDIR)$(call lgm_crossdir,$(t))/gproftk && \
		$(INSTALL) -m 644 $(LGM)/cross/$(t)/libgmon-preload.so \
			$(DESTDIR)$(call lgm_crossdir,$(t))/gproftk/libgmon-preload.so))

# Everything any variant installs, whether built now or not.
LIBGMON_UNINSTALL = rm -f $(DESTDIR)$(libdir)/libgmon.a \
	$(DESTDIR)$(preloaddir)/libgmon-preload.so $(DESTDIR)$(preloaddir)/musl/libgmon-preload.so \
	$(DESTDIR)$(preloaddir)/32/libgmon-preload.so $(DESTDIR)$(bindir)/gprof-run \
	$(DESTDIR)$(auditdir)/libgmon-audit.so $(DESTDIR)$(includedir)/libgmon.h \
	$(DESTDIR)$(libdir)/pkgconfig/libgmon.pc $(DESTDIR)$(libdir)/pkgconfig/libgmon-musl.pc \
	$(DESTDIR)$(libdir)/pkgconfig/libgmon-32.pc \
	$(DESTDIR)$(musllibdir)/libgmon.a $(DESTDIR)$(musllibdir)/gcrt1.o \
	$(DESTDIR)$(musllibdir)/libc_p.a $(DESTDIR)$(libdir32)/libgmon.a \
	$(foreach t,$(sort $(LGM_CROSS_TRIPLES) $(LGM_CROSS_BUILT)), \
		$(DESTDIR)$(call lgm_crossdir,$(t))/libgmon.a \
		$(DESTDIR)$(call lgm_crossdir,$(t))/gproftk/libgmon-preload.so \
		$(DESTDIR)$(call lgm_crossdir,$(t))/pkgconfig/libgmon.pc) && \
	$(call lgm_rmdir,$(DESTDIR)$(musllibdir)) && \
	$(call lgm_rmdir,$(DESTDIR)$(preloaddir)/musl) && $(call lgm_rmdir,$(DESTDIR)$(preloaddir)/32) && \
	$(call lgm_rmdir,$(DESTDIR)$(preloaddir)) && \
	$(if $(filter-out $(libdir),$(auditdir)),$(call lgm_rmdir,$(DESTDIR)$(auditdir)) &&) \
	$(call lgm_rmdir,$(DESTDIR)$(libdir)/pkgconfig) \
	$(foreach t,$(sort $(LGM_CROSS_TRIPLES) $(LGM_CROSS_BUILT)), \
		&& $(call lgm_rmdir,$(DESTDIR)$(call lgm_crossdir,$(t))/gproftk) \
		&& $(call lgm_rmdir,$(DESTDIR)$(call lgm_crossdir,$(t))/pkgconfig))

ifneq ($(strip $(MUSL_GCC)),)
$(eval $(call LGM_VARIANT,musl,$(MUSL_GCC),$(LGM)/musl/libgmon.a))
$(LGM)/musl/gcrt1.o: $(LGM)/gcrt1.c $(LGM_DEPS)
	@mkdir -p $(@D)
	$(MUSL_GCC) $(musl_LGM_CFLAGS) -c -o $@ $<
$(eval $(call LGM_PRELOAD,musl-preload,$(MUSL_GCC),$(LGM)/musl/libgmon-preload.so))
LIBGMON_TARGETS += $(LGM)/musl/libgmon.a $(LGM)/musl/gcrt1.o $(LGM)/musl/libgmon-preload.so
LIBGMON_INSTALL += && $(INSTALL) -d $(DESTDIR)$(musllibdir) $(DESTDIR)$(preloaddir)/musl && \
	$(INSTALL) -m 644 $(LGM)/musl/libgmon-preload.so $(DESTDIR)$(preloaddir)/musl/libgmon-preload.so && \
	$(INSTALL) -m 644 $(LGM)/musl/libgmon.a $(DESTDIR)$(musllibdir)/libgmon.a && \
	$(INSTALL) -m 644 $(LGM)/musl/gcrt1.o $(DESTDIR)$(musllibdir)/gcrt1.o && \
	$(call LGM_PC,$(musllibdir),-musl,musl) \
		> $(DESTDIR)$(libdir)/pkgconfig/libgmon-musl.pc
endif

LGM_M32 ?= $(shell printf 'int main(void){return 0;}\n' | \
             $(CC) -m32 -x c -o /dev/null - >/dev/null 2>&1 && echo yes)
ifeq ($(LGM_M32),yes)
$(eval $(call LGM_VARIANT,m32,$(CC) -m32,$(LGM)/32/libgmon.a))
$(eval $(call LGM_PRELOAD,m32-preload,$(CC) -m32,$(LGM)/32/libgmon-preload.so))
LIBGMON_TARGETS += $(LGM)/32/libgmon.a $(LGM)/32/libgmon-preload.so
LIBGMON_INSTALL += && $(INSTALL) -d $(DESTDIR)$(libdir32) $(DESTDIR)$(preloaddir)/32 && \
	$(INSTALL) -m 644 $(LGM)/32/libgmon-preload.so $(DESTDIR)$(preloaddir)/32/libgmon-preload.so && \
	$(INSTALL) -m 644 $(LGM)/32/libgmon.a $(DESTDIR)$(libdir32)/libgmon.a && \
	$(call LGM_PC,$(libdir32),-32,i386 native C library) \
		> $(DESTDIR)$(libdir)/pkgconfig/libgmon-32.pc
endif

else # CROSS: one build, for that target only

LGM_TRIPLE := $(patsubst %-,%,$(strip $(CROSS)))
CROSS_CC ?= $(CROSS)gcc
CROSS_AR ?= $(CROSS)ar
crosslibdir ?= $(exec_prefix)/$(LGM_TRIPLE)/lib
$(eval $(call LGM_VARIANT,cross-$(LGM_TRIPLE),$(CROSS_CC),$(LGM)/cross/$(LGM_TRIPLE)/libgmon.a,$(CROSS_AR)))
$(eval $(call LGM_PRELOAD,cross-$(LGM_TRIPLE)-preload,$(CROSS_CC),$(LGM)/cross/$(LGM_TRIPLE)/libgmon-preload.so))
LIBGMON_TARGETS := $(LGM)/cross/$(LGM_TRIPLE)/libgmon.a $(LGM)/cross/$(LGM_TRIPLE)/libgmon-preload.so
LIBGMON_INSTALL = $(INSTALL) -d $(DESTDIR)$(crosslibdir)/pkgconfig $(DESTDIR)$(crosslibdir)/gproftk && \
	$(INSTALL) -m 644 $(LGM)/cross/$(LGM_TRIPLE)/libgmon.a \
		$(DESTDIR)$(crosslibdir)/libgmon.a && \
	$(INSTALL) -m 644 $(LGM)/cross/$(LGM_TRIPLE)/libgmon-preload.so \
		$(DESTDIR)$(crosslibdir)/gproftk/libgmon-preload.so && \
	$(call LGM_PC,$(crosslibdir),,$(LGM_TRIPLE) C library) \
		> $(DESTDIR)$(crosslibdir)/pkgconfig/libgmon.pc
LIBGMON_UNINSTALL = rm -f $(DESTDIR)$(crosslibdir)/libgmon.a \
		$(DESTDIR)$(crosslibdir)/gproftk/libgmon-preload.so \
		$(DESTDIR)$(crosslibdir)/pkgconfig/libgmon.pc && \
	$(call lgm_rmdir,$(DESTDIR)$(crosslibdir)/gproftk) && \
	$(call lgm_rmdir,$(DESTDIR)$(crosslibdir)/pkgconfig)

endif

libgmon: $(LIBGMON_TARGETS)

# Every cross target whose compiler is installed and that has a port;
# the others are named and skipped.
LGM_CROSS_TRIPLES := aarch64-linux-gnu arm-linux-gnueabihf riscv64-linux-gnu \
                     powerpc64le-linux-gnu s390x-linux-gnu
libgmon-cross:
	@for t in $(LGM_CROSS_TRIPLES); do \
		if ! command -v $$t-gcc >/dev/null 2>&1; then \
			echo "libgmon-cross: skipping $$t: no $$t-gcc"; \
		elif ! $$t-gcc -E -P -x c $(LGM)/arch-probe.c 2>/dev/null | \
			grep -q '^lgm_arch '; then \
			echo "libgmon-cross: skipping $$t: libgmon has no port to it"; \
		else \
			$(MAKE) --no-print-directory libgmon CROSS=$$t- || exit 1; \
		fi; \
	done

libgmon-clean:
	rm -rf $(LGM_BUILD) $(LGM)/musl $(LGM)/32 $(LGM)/cross $(LGM)/libgmon.a \
	       $(LGM)/libgmon-audit.so $(LGM)/libgmon-preload.so $(LGM)/gprof-run
	@rmdir build 2>/dev/null || :

.PHONY: libgmon libgmon-cross libgmon-clean
