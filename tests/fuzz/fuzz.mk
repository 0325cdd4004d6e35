# SPDX-License-Identifier: GPL-3.0-or-later
# fuzz.mk - fuzz harness rules, included by the top-level Makefile.
#
#   make fuzz          builds the libFuzzer harnesses (clang, -fsanitize=
#                      fuzzer,address,undefined) into build-fuzz/ and runs each
#                      for FUZZ_SECONDS (default 180) on its corpus; new
#                      corpus entries go to build-fuzz/corpus/HARNESS, crashes
#                      to tests/fuzz/crashes/HARNESS/ (commit them with the fix)
#   make fuzz-replay   builds every harness with the normal compiler, ASan and
#                      UBSan, and a plain main() instead of libFuzzer, then
#                      replays the committed corpora and crash inputs through
#                      it; one PASS:/FAIL: line per harness (run by make check)
#   make fuzz-merge    merges build-fuzz/corpus/HARNESS into the committed seed
#                      corpus, keeping only inputs that add coverage (-merge=1)
#
# FUZZ_HARNESSES limits either target to some harnesses; FUZZ_FLAGS adds
# libFuzzer options (e.g. FUZZ_FLAGS=-jobs=2).
# Harnesses link with $(LIBS) from config.mk, which has -ldw -lelf when
# configure found libdw (the DWARF reader `lines` fuzzes; without it, both
# of that harness's scans are byte scans).

FUZZ_HARNESSES ?= gmon symspec mapfile extsym bbconv pipeline decoders shlibs \
	lines env cfi
FUZZ_SECONDS ?= 180
FUZZ_CLANG ?= clang
FUZZ_FLAGS ?=
FUZZ_D = tests/fuzz
FUZZ_B = build-fuzz

# The tool's sources minus main.c, which harnesses use through gprof_run()
# from a copy compiled with its main() renamed.
FUZZ_LIB_SRCS = $(filter-out src/main.c,$(SRCS))
FUZZ_CPPFLAGS = -Iinclude -I. -Isrc -I$(FUZZ_D) \
	-DFUZZ_PROG='"$(CURDIR)/$(FUZZ_D)/prog"'
FUZZ_COMMON = $(FUZZ_D)/fuzz_common.c $(FUZZ_D)/fuzz_common.h
FUZZ_WRAP = -Wl,--wrap=fopen,--wrap=fopen64,--wrap=fclose
# The runtime files fuzz_env.c includes.
FUZZ_ENV_DEPS = src/libgmon/env.c src/libgmon/signals.c src/libgmon/state.c \
	src/libgmon/gmon_rt.h src/libgmon/arch.h
# The unwinder's files fuzz_cfi.c includes.
FUZZ_CFI_DEPS = src/libgmon/unwind.c src/libgmon/unwstep.c src/libgmon/unwalk.c \
	src/libgmon/unwind.h src/libgmon/unwind_read.h

# ---- replay build: $(CC) + ASan/UBSan, objects shared with `make san` ----
FUZZ_RB = $(FUZZ_B)/replay
FUZZ_REPLAY_LIB = $(filter-out build-san/main.o,$(SAN_OBJS)) \
	$(FUZZ_RB)/main_run.o $(FUZZ_RB)/fuzz_common.o $(FUZZ_RB)/replay.o
FUZZ_REPLAY_CFLAGS = -std=gnu11 -O1 -g $(SAN_FLAGS) $(FUZZ_CPPFLAGS) $(CPPFLAGS)

$(FUZZ_RB)/main_run.o: src/main.c $(TOOL_HDRS) config.mk
	@mkdir -p $(FUZZ_RB)
	$(CC) $(FUZZ_REPLAY_CFLAGS) -Dmain=gprof_cli_main -c -o $@ src/main.c

$(FUZZ_RB)/%.o: $(FUZZ_D)/%.c $(FUZZ_D)/*.h $(TOOL_HDRS) config.mk
	@mkdir -p $(FUZZ_RB)
	$(CC) $(FUZZ_REPLAY_CFLAGS) -c -o $@ $<

$(FUZZ_RB)/fuzz_bbconv.o: src/reading/bbconv.c
$(FUZZ_RB)/fuzz_decoders.o: src/libgmon/arch-riscv64.c
$(FUZZ_RB)/fuzz_env.o: $(FUZZ_ENV_DEPS)
$(FUZZ_RB)/fuzz_cfi.o: $(FUZZ_CFI_DEPS)

$(FUZZ_RB)/replay-%: $(FUZZ_RB)/fuzz_%.o $(FUZZ_REPLAY_LIB)
	$(CC) $(SAN_FLAGS) $(FUZZ_WRAP) $(LDFLAGS) -o $@ $< $(FUZZ_REPLAY_LIB) $(LIBS)

# Replays tests/fuzz/corpus/H and tests/fuzz/crashes/H (and, for the reader
# harnesses, tests/fuzz/gnu-crashes/H) through each harness.
fuzz-replay: $(patsubst %,$(FUZZ_RB)/replay-%,$(FUZZ_HARNESSES))
	@status=0; \
	for h in $(FUZZ_HARNESSES); do \
		dirs=; \
		for d in corpus crashes gnu-crashes; do \
			[ -d $(FUZZ_D)/$$d/$$h ] && dirs="$$dirs $(FUZZ_D)/$$d/$$h"; \
		done; \
		log=$(FUZZ_RB)/replay-$$h.log; \
		if [ -z "$$dirs" ]; then echo "SKIP: fuzz-replay:$$h (no inputs)"; continue; fi; \
		if ASAN_OPTIONS=detect_leaks=0:abort_on_error=0 \
		   UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
		   $(FUZZ_RB)/replay-$$h $$dirs > $$log.out 2> $$log; then \
			n=$$(grep -c '^replay: [^ ]*/' $$log.out); \
			echo "PASS: fuzz-replay:$$h ($$n inputs)"; \
		else \
			bad=$$(grep '^replay: FAILED ' $$log.out | cut -c16- | tr '\n' ' '); \
			echo "FAIL: fuzz-replay:$$h ($${bad:-$$(tail -n 1 $$log.out)})"; \
			grep -B2 -A8 'ERROR\|runtime error' $$log | head -n 40 | sed 's/^/    /'; \
			status=1; \
		fi; \
	done; \
	exit $$status

# ---- libFuzzer build: clang ----
FUZZ_LB = $(FUZZ_B)/lf
FUZZ_LF_SAN = -fsanitize=address,undefined -fno-sanitize-recover=undefined \
	-fno-omit-frame-pointer
FUZZ_LF_CFLAGS = -std=gnu11 -O1 -g $(FUZZ_LF_SAN) $(FUZZ_CPPFLAGS) $(CPPFLAGS)
FUZZ_LF_OBJS = $(patsubst src/%.c,$(FUZZ_LB)/%.o,$(FUZZ_LIB_SRCS)) \
	$(FUZZ_LB)/main_run.o $(FUZZ_LB)/h_fuzz_common.o

$(FUZZ_LB)/%.o: src/%.c $(TOOL_HDRS) config.mk
	@mkdir -p $(@D)
	$(FUZZ_CLANG) $(FUZZ_LF_CFLAGS) -fsanitize=fuzzer-no-link -c -o $@ $<

$(FUZZ_LB)/main_run.o: src/main.c $(TOOL_HDRS) config.mk
	@mkdir -p $(FUZZ_LB)
	$(FUZZ_CLANG) $(FUZZ_LF_CFLAGS) -fsanitize=fuzzer-no-link \
		-Dmain=gprof_cli_main -c -o $@ src/main.c

$(FUZZ_LB)/h_%.o: $(FUZZ_D)/%.c $(FUZZ_D)/*.h $(TOOL_HDRS) config.mk
	@mkdir -p $(FUZZ_LB)
	$(FUZZ_CLANG) $(FUZZ_LF_CFLAGS) -fsanitize=fuzzer-no-link -c -o $@ $<

$(FUZZ_LB)/h_fuzz_bbconv.o: src/reading/bbconv.c
$(FUZZ_LB)/h_fuzz_decoders.o: src/libgmon/arch-riscv64.c
$(FUZZ_LB)/h_fuzz_env.o: $(FUZZ_ENV_DEPS)
$(FUZZ_LB)/h_fuzz_cfi.o: $(FUZZ_CFI_DEPS)

$(FUZZ_LB)/fuzz-%: $(FUZZ_LB)/h_fuzz_%.o $(FUZZ_LF_OBJS)
	$(FUZZ_CLANG) $(FUZZ_LF_SAN) -fsanitize=fuzzer $(FUZZ_WRAP) $(LDFLAGS) -o $@ $< \
		$(FUZZ_LF_OBJS) $(LIBS)

fuzz-build: fuzz-clang-check $(patsubst %,$(FUZZ_LB)/fuzz-%,$(FUZZ_HARNESSES))

fuzz-clang-check:
	@command -v $(FUZZ_CLANG) > /dev/null || { echo "fuzz: $(FUZZ_CLANG) not found" \
		"(Debian: apt-get install clang libclang-rt-14-dev)"; exit 1; }

fuzz: fuzz-build
	@status=0; \
	for h in $(FUZZ_HARNESSES); do \
		mkdir -p $(FUZZ_B)/corpus/$$h $(FUZZ_D)/crashes/$$h; \
		dict=; [ -f $(FUZZ_D)/$$h.dict ] && dict=-dict=$(FUZZ_D)/$$h.dict; \
		echo "fuzz: $$h for $(FUZZ_SECONDS) s"; \
		if ASAN_OPTIONS=detect_leaks=0 \
		   $(FUZZ_LB)/fuzz-$$h -max_total_time=$(FUZZ_SECONDS) \
			-close_fd_mask=3 -timeout=20 -rss_limit_mb=4096 \
			-max_len=65536 $$dict \
			-artifact_prefix=$(CURDIR)/$(FUZZ_D)/crashes/$$h/ $(FUZZ_FLAGS) \
			$(FUZZ_B)/corpus/$$h $(FUZZ_D)/corpus/$$h \
			> $(FUZZ_B)/fuzz-$$h.log 2>&1; then \
			echo "PASS: fuzz:$$h ($$(grep -o 'Done [0-9]* runs in [0-9]* second' $(FUZZ_B)/fuzz-$$h.log | tail -1))"; \
		else \
			echo "FAIL: fuzz:$$h (see $(FUZZ_B)/fuzz-$$h.log; inputs in $(FUZZ_D)/crashes/$$h/)"; \
			grep -A 12 'ERROR\|runtime error\|deadly signal' $(FUZZ_B)/fuzz-$$h.log | head -n 30 | sed 's/^/    /'; \
			status=1; \
		fi; \
	done; \
	exit $$status

fuzz-merge: fuzz-build
	@for h in $(FUZZ_HARNESSES); do \
		[ -d $(FUZZ_B)/corpus/$$h ] || continue; \
		mkdir -p $(FUZZ_D)/corpus/$$h; \
		ASAN_OPTIONS=detect_leaks=0 $(FUZZ_LB)/fuzz-$$h -merge=1 \
			-close_fd_mask=3 -max_len=65536 \
			$(FUZZ_D)/corpus/$$h $(FUZZ_B)/corpus/$$h \
			> $(FUZZ_B)/merge-$$h.log 2>&1 || \
			{ echo "fuzz-merge: $$h failed (see $(FUZZ_B)/merge-$$h.log)"; exit 1; }; \
		echo "fuzz-merge: $$h: $$(ls $(FUZZ_D)/corpus/$$h | wc -l) inputs"; \
	done

fuzz-clean:
	rm -rf $(FUZZ_B)

clean: fuzz-clean

# Keep the objects between runs.
.SECONDARY: $(FUZZ_RB)/replay.o $(FUZZ_RB)/fuzz_common.o $(FUZZ_RB)/main_run.o \
	$(patsubst %,$(FUZZ_RB)/fuzz_%.o,$(FUZZ_HARNESSES)) \
	$(patsubst %,$(FUZZ_LB)/h_fuzz_%.o,$(FUZZ_HARNESSES)) $(FUZZ_LF_OBJS)

.PHONY: fuzz fuzz-build fuzz-clang-check fuzz-replay fuzz-merge fuzz-clean
