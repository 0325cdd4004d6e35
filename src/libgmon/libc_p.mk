# SPDX-License-Identifier: GPL-3.0-or-later
# libc_p.mk - `make libc_p`: musl's C library built with -pg, for static
# musl programs profiled with libgmon; included by the top-level Makefile
# after libgmon.mk.  src/libgmon/libc_p.sh does the work:
#   src/libgmon/musl-src/        Debian's musl source (apt-get source musl),
#                                fetched once, removed by `make distclean`
#   build/libgmon/libc_p/        the build (musl's own configure and make)
#   src/libgmon/musl/libc_p.a    the result, beside the musl libgmon.a;
#                                `make install` puts it in $(musllibdir)
# Use: musl-gcc -pg -static prog.c -lgmon -lc_p.  LCP_JOBS=N: make jobs
# for the build (default 2).

ifeq ($(strip $(CROSS)),)

LCP_FETCH := $(LGM)/musl-src
LCP_LIB := $(LGM)/musl/libc_p.a

ifneq ($(strip $(MUSL_GCC)),)
$(LCP_LIB): $(LGM)/libc_p.sh $(LGM)/libc_p.mk
	@mkdir -p $(@D)
	@CC="$(CC)" JOBS="$(or $(LCP_JOBS),2)" sh $(LGM)/libc_p.sh \
		$(LCP_FETCH) $(LGM_BUILD)/libc_p $@
LIBGMON_INSTALL_LIBC_P = if [ -f $(LCP_LIB) ]; then \
	$(INSTALL) -d $(DESTDIR)$(musllibdir) && \
	$(INSTALL) -m 644 $(LCP_LIB) $(DESTDIR)$(musllibdir)/libc_p.a; fi
else
$(LCP_LIB):
	@echo "libc_p: needs musl-gcc, which configure did not find: apt-get install musl-tools, then make again"
	@exit 1
LIBGMON_INSTALL_LIBC_P = :
endif

libc_p: $(LCP_LIB)

# For `make check`: build libc_p.a if it can be, and go on if not; the
# test that needs it (tests/libgmon/libcp.sh) then fails and says why.
libc_p-check:
	@$(MAKE) --no-print-directory libc_p || \
		echo "libc_p: not built; the libcp test will fail"

libc_p-distclean:
	rm -rf $(LCP_FETCH) $(LCP_FETCH).tmp

.PHONY: libc_p libc_p-check libc_p-distclean

endif
