# SPDX-License-Identifier: GPL-3.0-or-later
# Top-level build: configures itself on a fresh clone, builds src/gprof (and
# later src/libgmon), runs the test suite, the demo and the benchmarks.

# `make demo` and `make deps` must run before configure can succeed (they
# install what configure looks for), so they do not pull config.mk in;
# nor does cleaning, which must not configure a tree just to clean it,
# nor `make check` alone, which installs the test toolchains first and
# then builds in a make of its own (see check).
ONLY_CHECK := $(if $(filter-out check,$(MAKECMDGOALS)),,$(filter check,$(MAKECMDGOALS)))
ifeq ($(filter demo deps clean distclean,$(MAKECMDGOALS))$(ONLY_CHECK),)
ifeq ($(strip $(CROSS)),)
-include config.mk
else
# A cross build (CROSS=<triple>-) makes only libgmon for that target and
# needs nothing configure looks for: read config.mk if it is there (for
# prefix and INSTALL), but do not run configure to make it.
-include $(wildcard config.mk)
prefix ?= /usr/local
exec_prefix ?= $(prefix)
INSTALL ?= install
endif
endif

# The tool's sources: a folder per stage of the pipeline, in the order
# their dependencies run (doc/gprof.md, "Modules"), and the top files
# that drive them.  Objects go under build/, as the folders are.
TOOL_DIRS = util symbols reading decode analysis print
SRCS = src/main.c src/pipeline.c src/run.c src/options.c src/output.c \
       src/threads.c src/compare_run.c \
       $(filter-out src/reading/bbconv.c,$(wildcard $(TOOL_DIRS:%=src/%/*.c)))
TOOL_HDRS = $(wildcard src/*.h $(TOOL_DIRS:%=src/%/*.h) src/model/*.h) include/*.h
OBJS = $(patsubst src/%.c,build/%.o,$(SRCS))
LIBS += -lm
SAN_OBJS = $(patsubst src/%.c,build-san/%.o,$(SRCS))
WARN = -Wall -Wextra -Wno-unused-parameter
ALL_CFLAGS = -std=gnu11 $(WARN) -Iinclude -I. -Isrc $(CPPFLAGS) $(CFLAGS)
SAN_FLAGS = -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined

# The runtime's own rules (src/libgmon/libgmon.mk) set LIBGMON_TARGETS and
# LIBGMON_INSTALL; they are read first so `all` can name them.
.DEFAULT_GOAL := all
-include src/libgmon/libgmon.mk
# musl's C library built with -pg (`make libc_p`), beside the musl libgmon.
-include src/libgmon/libc_p.mk
# Fuzz harnesses (`make fuzz`) and benchmarks keep their rules apart too.
-include tests/fuzz/fuzz.mk

ifeq ($(strip $(CROSS)),)
all: src/gprof src/gprof-bbconv $(LIBGMON_TARGETS)
else
all: $(LIBGMON_TARGETS)
endif

src/gprof-bbconv: src/reading/bbconv.c src/util/safe_file.c src/util/safe_file.h include/gmon_format.h
	$(CC) $(ALL_CFLAGS) $(LDFLAGS) -o $@ src/reading/bbconv.c src/util/safe_file.c

config.mk: configure.ac config.mk.in
	@if [ ! -x configure ] || [ configure -ot configure.ac ]; then autoreconf -fi; fi
	@# again with the options it had last time, unless CONFIGURE_FLAGS are given
	if [ -x config.status ] && [ -z "$(CONFIGURE_FLAGS)" ]; then \
		./config.status --recheck && ./config.status; \
	else ./configure $(CONFIGURE_FLAGS); fi

# configure records what it found; when musl-gcc or the multi-target libbfd
# has been installed since (tests/deps.sh installs both), run it again, so
# that a `make` before `make deps` does not leave the musl build or the
# foreign-file support out for good.  Once per make run (MAKE_RESTARTS).
ifneq ($(wildcard config.mk),)
ifeq ($(MAKE_RESTARTS),)
LGM_RECONF := $(if $(and $(if $(strip $(MUSL_GCC)),,y),$(shell command -v musl-gcc 2>/dev/null)),musl-gcc)
LGM_RECONF += $(if $(and $(if $(findstring bfd-multiarch,$(LIBS)),,y),\
	$(wildcard /usr/lib/*/libbfd-multiarch.so /usr/lib/libbfd-multiarch.so),\
	$(if $(findstring without-multiarch-bfd,$(CONFIGURE_FLAGS))$(shell grep -l without-multiarch-bfd config.status 2>/dev/null),,y)),libbfd-multiarch)
ifneq ($(strip $(LGM_RECONF)),)
config.mk: reconfigure
reconfigure:
	@echo "make: $(strip $(LGM_RECONF)) installed since configure ran: configuring again"
.PHONY: reconfigure
endif
endif
endif

src/gprof: $(OBJS)
	$(CC) $(LDFLAGS) -o $@ $(OBJS) $(LIBS)

build/%.o: src/%.c $(TOOL_HDRS) config.mk
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) -c -o $@ $<

build-san/gprof: $(SAN_OBJS)
	$(CC) $(SAN_FLAGS) $(LDFLAGS) -o $@ $(SAN_OBJS) $(LIBS)

build-san/%.o: src/%.c $(TOOL_HDRS) config.mk
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) -O1 -g $(SAN_FLAGS) -c -o $@ $<

san: build-san/gprof

# Unit tests link the tool's objects (all but main.o) with a test driver.
UNIT_SRCS = $(wildcard tests/unit/*.c)
tests/unit/run-unit: $(UNIT_SRCS) $(filter-out build/main.o,$(OBJS))
	$(CC) $(ALL_CFLAGS) -o $@ $(UNIT_SRCS) $(filter-out build/main.o,$(OBJS)) $(LIBS)

# Printers-only-read check (tests/reports.sh), on the sanitizer objects.
tests/reports/print_twice: tests/reports/print_twice.c $(filter-out build-san/main.o,$(SAN_OBJS))
	$(CC) $(ALL_CFLAGS) -O1 -g $(SAN_FLAGS) -o $@ $^ $(LIBS)

# make check first installs the test toolchains it uses (cross compilers,
# qemu, musl, clang, the formats' consumers: tests/deps.sh, which prints
# the one command to run when it cannot install), then builds what the
# tests run in a make of its own, so that configure sees a toolchain just
# installed, and runs the suite.
check:
	@sh tests/deps.sh
	@$(MAKE) --no-print-directory check-build
	@sh tests/check.sh

check-build: all san libgmon-cross tests/unit/run-unit tests/reports/print_twice libc_p-check

demo:
	@sh tests/demo.sh

deps:
	@sh tests/deps.sh

bench: all
	@sh bench/run.sh

# make install / make uninstall [prefix=...] [DESTDIR=...] [bindir=...]
# [libdir=...] [includedir=...] [mandir=...]: the tools, every libgmon
# build made in this tree (src/libgmon/libgmon.mk says where each goes),
# libgmon.h, the pkg-config files and the manual pages doc/*.1 and
# doc/*.3.  uninstall removes all of it, built now or not, and the
# folders that are ours alone once they are empty.
MAN1 = $(wildcard doc/*.1)
MAN3 = $(wildcard doc/*.3)
man1dir = $(mandir)/man1
man3dir = $(mandir)/man3

install: all
ifeq ($(strip $(CROSS)),)
	$(INSTALL) -d $(DESTDIR)$(bindir) $(DESTDIR)$(man1dir) $(DESTDIR)$(man3dir)
	$(INSTALL) -m 755 src/gprof $(DESTDIR)$(bindir)/gprof
	$(INSTALL) -m 755 src/gprof-bbconv $(DESTDIR)$(bindir)/gprof-bbconv
	$(if $(MAN1),$(INSTALL) -m 644 $(MAN1) $(DESTDIR)$(man1dir))
	$(if $(MAN3),$(INSTALL) -m 644 $(MAN3) $(DESTDIR)$(man3dir))
endif
	$(LIBGMON_INSTALL)
	$(LIBGMON_INSTALL_LIBC_P)

uninstall:
ifeq ($(strip $(CROSS)),)
	rm -f $(DESTDIR)$(bindir)/gprof $(DESTDIR)$(bindir)/gprof-bbconv \
	      $(addprefix $(DESTDIR)$(man1dir)/,$(notdir $(MAN1))) \
	      $(addprefix $(DESTDIR)$(man3dir)/,$(notdir $(MAN3)))
endif
	$(LIBGMON_UNINSTALL)

# make dist: gproftk-VERSION.tar.gz of the files git tracks, plus the
# generated configure, config.h.in and install-sh, so that building the
# release needs no autoconf.  make distcheck: unpack it in a scratch
# folder, build it, run make check there, install it into a scratch
# DESTDIR, uninstall it and check that no file is left (tests/distcheck.sh).
VERSION = $(LGM_VERSION)
DIST = gproftk-$(VERSION)
DIST_GENERATED = configure config.h.in install-sh

dist: configure
	@git rev-parse --is-inside-work-tree >/dev/null 2>&1 || \
		{ echo "dist: needs the git checkout (it packs the files git tracks)"; exit 1; }
	rm -rf $(DIST) $(DIST).tar.gz
	mkdir $(DIST)
	git ls-files -z | xargs -0 cp --parents -P -p -t $(DIST) --
	cp -p $(DIST_GENERATED) $(DIST)
	tar --owner=0 --group=0 --sort=name -czf $(DIST).tar.gz $(DIST)
	rm -rf $(DIST)
	@echo "dist: wrote $(DIST).tar.gz"

configure: configure.ac
	autoreconf -fi

distcheck: dist
	@sh tests/distcheck.sh $(DIST).tar.gz

clean: libgmon-clean
	rm -f src/gprof src/gprof-bbconv tests/unit/run-unit \
	      tests/reports/print_twice
	rm -rf build build-san tests/tmp

distclean: clean libc_p-distclean
	rm -rf config.mk config.h config.log config.status configure autom4te.cache config.h.in \
	       install-sh

.PHONY: all check check-build demo deps bench install uninstall dist distcheck clean distclean san
