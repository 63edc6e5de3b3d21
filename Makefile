# hremu: one non-recursive Makefile. `make run`, `make check`, `make bench`, `make install`.
# Variants: `make check SAN=address,undefined`, `make check SAN=thread` build into build-$(SAN)/.

SAN      ?=
PREFIX   ?= /usr/local
CC       ?= cc
comma    := ,
ifeq ($(SAN),)
BUILD    := build
else
BUILD    := build-$(subst $(comma),-,$(SAN))
endif

PKGS     := liburcu check inih fftw3
WARN     := -Wall -Wextra -Werror -Wshadow -Wstrict-prototypes -Wmissing-prototypes \
            -Wwrite-strings -Wundef -Wpointer-arith -Wvla
OPT      ?= -O2 -g
CFLAGS   += -std=c11 -D_GNU_SOURCE $(OPT) $(WARN) -pthread -Iinclude -Isrc -MMD -MP
LDLIBS   += -pthread -lm
ifneq ($(SAN),)
CFLAGS   += -fsanitize=$(SAN) -fno-omit-frame-pointer
LDFLAGS  += -fsanitize=$(SAN)
endif
# `make fuzz` builds everything again with FUZZ=1: clang, libFuzzer's coverage, ASan and UBSan,
# into build-fuzz/.
ifeq ($(FUZZ),1)
BUILD    := build-fuzz
CC       := clang
OPT      := -O1 -g
CFLAGS   += -fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=undefined \
            -fno-omit-frame-pointer
LDFLAGS  += -fsanitize=address,undefined
endif
# GCC on x86-64 clears a small struct (a 128-byte message record: p2p.c) with `rep stos`, slow
# to start on this box; unrolled stores up to 256 bytes and the library's memset above made
# xchg.pex at p = 256 on fibers 10 % faster (interleaved medians). Only where the compiler
# takes the option (not clang, not other machines).
MEMSET_STRATEGY := -mmemset-strategy=unrolled_loop:256:noalign,libcall:-1:noalign
ifneq ($(shell $(CC) $(MEMSET_STRATEGY) -c -x c /dev/null -o /dev/null 2>/dev/null && echo yes),yes)
MEMSET_STRATEGY :=
endif
CFLAGS   += $(MEMSET_STRATEGY)
# Link-time optimization of the command: one message runs code of api/p2p.c, core/p2p.c,
# wait.c, mailbox.c and the engine's file, and inlining across them took 5 to 8 % off xchg.pex
# at p = 256 on fibers (interleaved medians, docs/architecture.md). Only build/hremu is linked
# so, from LIB_LTO: the library's objects and main.o carry GCC's intermediate code beside their
# plain code (fat), and every other archive has it stripped (STRIP_LTO), since GCC's linker
# plugin would otherwise optimize any link that sees it. The tests, the benches, the MPI
# engine and a user's program link plain code: a link optimized across files under -Wall
# -Werror can fail on a warning the compile never gave (GCC's "may be used uninitialized",
# wrongly, after inlining). Not under sanitizers or fuzzing, nor where the compiler does not
# take the options.
ifeq ($(SAN)$(FUZZ),)
LTO      ?= -flto=auto -ffat-lto-objects
ifneq ($(shell $(CC) $(LTO) -Werror -c -x c /dev/null -o /dev/null 2>/dev/null && echo yes),yes)
LTO      :=
endif
endif
STRIP_LTO = $(if $(LTO),objcopy -R '.gnu.lto_*' -R '.gnu.debuglto_*' $@)
PKG_CFLAGS = $(shell pkg-config --cflags $(PKGS) 2>/dev/null)
PKG_LIBS   = $(shell pkg-config --libs $(PKGS) 2>/dev/null)

LIB_SRC  := $(filter-out src/cli/main.c src/mpi/%,$(wildcard src/*/*.c))
LIB_OBJ  := $(LIB_SRC:%.c=$(BUILD)/%.o) $(BUILD)/gen/player.o
TEST_SRC := $(wildcard tests/*.c)
TEST_OBJ := $(TEST_SRC:%.c=$(BUILD)/%.o)
EX_SRC   := $(wildcard examples/ring_sum/*.c)
EX_OBJ   := $(EX_SRC:%.c=$(BUILD)/%.o)
# Fuzzing: each tests/fuzz/fuzz_NAME.c is a libFuzzer harness (LLVMFuzzerTestOneInput) with its
# seed corpus in tests/fuzz/corpus/NAME/. `make check` replays every corpus through its harness
# linked with tests/fuzz/replay.c's main (any compiler, any SAN); `make fuzz` links each with
# libFuzzer (FUZZ=1) and runs it for FUZZ_SECONDS (scripts/fuzz.sh).
FUZZ_SRC := $(wildcard tests/fuzz/fuzz_*.c)
FUZZ_NAMES := $(FUZZ_SRC:tests/fuzz/fuzz_%.c=%)
REPLAYS  := $(FUZZ_NAMES:%=$(BUILD)/fuzz/replay_%)
FUZZERS  := $(FUZZ_NAMES:%=$(BUILD)/fuzz/fuzz_%)
DEPS     := $(LIB_OBJ:.o=.d) $(TEST_OBJ:.o=.d) $(EX_OBJ:.o=.d) $(BUILD)/src/cli/main.d \
            $(FUZZ_SRC:%.c=$(BUILD)/%.d) $(BUILD)/tests/fuzz/replay.d

LIB      := $(BUILD)/libhremu.a
LIB_LTO  := $(BUILD)/lto/libhremu.a
BIN      := $(BUILD)/hremu
TESTS    := $(BUILD)/tests/check_hremu
EXAMPLE  := $(BUILD)/examples/check_example

.PHONY: all deps run check check-tests check-browser stress bench install uninstall fuzz fuzzers \
        clean mpi check-mpi bench-mpi
all: $(BIN) hremu

deps:
	@scripts/deps.sh

$(BUILD)/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(OBJ_LTO) $(PKG_CFLAGS) -c $< -o $@

# Examples are users' code: they see include/ only, not src/.
$(BUILD)/examples/%.o: examples/%.c
	@mkdir -p $(dir $@)
	$(CC) $(filter-out -Isrc,$(CFLAGS)) $(PKG_CFLAGS) -c $< -o $@

# The --html page's script, src/cli/player.js, goes into the library as a C array of its bytes
# (hr__player_js, declared in src/cli/html.h), generated here with od and sed: both POSIX, so
# nothing to install. xxd -i comes with vim, not everywhere; `ld -r -b binary` is GNU ld's alone
# and names its symbols after the file's path; a generator program of our own would be one more
# thing to build first in every build directory. The script must not say "</script" (the page
# would end there), so the rule refuses it.
$(BUILD)/gen/player.c: src/cli/player.js
	@mkdir -p $(dir $@)
	@if grep -i '</script' $< >/dev/null; then echo "$<: it must not contain </script" >&2; exit 1; fi
	{ echo '/* Generated from src/cli/player.js by the Makefile: do not edit. */'; \
	  echo '#include "cli/html.h"'; \
	  echo 'const unsigned char hr__player_js[] = {'; \
	  od -An -v -tx1 $< | sed 's/ *\([0-9a-f][0-9a-f]\)/0x\1,/g'; \
	  echo '0 };'; \
	  echo 'const size_t hr__player_js_len = sizeof hr__player_js - 1;'; } >$@.tmp && mv $@.tmp $@

$(BUILD)/gen/player.o: $(BUILD)/gen/player.c
	$(CC) $(CFLAGS) $(OBJ_LTO) $(PKG_CFLAGS) -c $< -o $@

$(LIB_OBJ) $(BUILD)/src/cli/main.o: OBJ_LTO := $(LTO)

$(LIB): $(LIB_OBJ)
	@rm -f $@
	ar rcs $@ $^
	$(STRIP_LTO)

$(LIB_LTO): $(LIB_OBJ)
	@mkdir -p $(dir $@)
	@rm -f $@
	ar rcs $@ $^

$(BIN): $(BUILD)/src/cli/main.o $(if $(LTO),$(LIB_LTO),$(LIB))
	$(CC) $(LDFLAGS) $(LTO) -o $@ $^ $(PKG_LIBS) $(LDLIBS)

# ./hremu at the top, as the README promises: a link to the plain build.
hremu: $(BUILD)/hremu
	ln -sf $(BUILD)/hremu hremu

$(TESTS): $(TEST_OBJ) $(LIB)
	$(CC) $(LDFLAGS) -o $@ $^ $(PKG_LIBS) $(LDLIBS)

# The example is a user's algorithm: it sees only include/ and links libhremu.a.
$(EXAMPLE): $(EX_OBJ) $(LIB)
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS) -o $@ $^ $(PKG_LIBS) $(LDLIBS)

# ---- the MPI engine (docs/architecture.md, "The MPI engine") -------------------------------
# libhremu-mpi.a holds the API above the seam, net/, util/ and the rest as the plain library
# does, the ranks' engine (src/mpi/engine.c) under the public names, and the model rank's
# (src/mpi/model.c) with the thread engine inside it: core/'s objects linked into one and every
# symbol they define renamed hrm_NAME (objcopy), so that both engines live in one program.
# model.c is compiled with rename.h, which says the same renaming to the compiler.
# MPICH instead of Open MPI: `make mpi MPICC=mpicc.mpich MPIRUN=mpirun.mpich` (docs/mpi.md).
MPICC     ?= mpicc
MPI_BUILD := $(BUILD)/mpi
MPI_LIB   := $(MPI_BUILD)/libhremu-mpi.a
MPI_BIN   := $(BUILD)/hremu-mpi
CORE_OBJ  := $(filter $(BUILD)/src/core/%,$(LIB_OBJ))
MPI_OBJ   := $(MPI_BUILD)/model_core.o $(MPI_BUILD)/model.o $(MPI_BUILD)/engine.o \
             $(MPI_BUILD)/direct.o $(MPI_BUILD)/world.o $(MPI_BUILD)/calibrate.o \
             $(filter-out $(CORE_OBJ),$(LIB_OBJ))

$(MPI_BUILD)/core.syms: $(CORE_OBJ)
	@mkdir -p $(dir $@)
	ld -r -o $(MPI_BUILD)/core_all.o $^
	nm -g --defined-only $(MPI_BUILD)/core_all.o | awk 'NF == 3 { print $$3 " hrm_" $$3 }' >$@

$(MPI_BUILD)/model_core.o: $(MPI_BUILD)/core.syms
	objcopy --redefine-syms=$< $(MPI_BUILD)/core_all.o $@

$(MPI_BUILD)/rename.h: $(MPI_BUILD)/core.syms
	{ echo '/* Generated by the Makefile from core/'"'"'s symbols: do not edit. */'; \
	  awk '{ print "#define " $$1 " " $$2 }' $<; } >$@

$(MPI_BUILD)/model.o: src/mpi/model.c $(MPI_BUILD)/rename.h
	$(MPICC) $(CFLAGS) $(PKG_CFLAGS) -include $(MPI_BUILD)/rename.h -c $< -o $@

$(MPI_BUILD)/engine.o $(MPI_BUILD)/direct.o $(MPI_BUILD)/world.o $(MPI_BUILD)/calibrate.o: \
    $(MPI_BUILD)/%.o: src/mpi/%.c
	@mkdir -p $(dir $@)
	$(MPICC) $(CFLAGS) $(PKG_CFLAGS) -c $< -o $@

$(MPI_LIB): $(MPI_OBJ)
	@rm -f $@
	ar rcs $@ $^
	$(STRIP_LTO)

$(MPI_BIN): $(BUILD)/src/cli/main.o $(MPI_LIB)
	$(MPICC) $(LDFLAGS) -o $@ $^ $(PKG_LIBS) $(LDLIBS)

# hremu-mpi.pc: as hremu.pc, for a program that links libhremu-mpi.a with mpicc.
$(MPI_BUILD)/hremu-mpi.pc: scripts/hremu.pc.in
	@mkdir -p $(dir $@)
	v=$$(sed -n 's/^#define HREMU_VERSION *"\(.*\)".*/\1/p' src/cli/cli.c); \
	sed -e 's|@PREFIX@|$(PREFIX)|' -e "s|@VERSION@|$$v|" -e 's|^Name: hremu|Name: hremu-mpi|' \
	    -e 's|^Description: |Description: (on MPI: link with mpicc) |' \
	    -e 's|-lhremu|-lhremu-mpi|' $< >$@

# tests/mpi/ring.c, one file linked with each engine: its figures must agree. (The programs
# are compiled and linked at once: -MMD's .d names their headers as prerequisites, which the
# link line leaves out.)
$(MPI_BUILD)/ring-threads: tests/mpi/ring.c examples/ring_sum/ring_sum.c $(LIB)
	$(CC) $(filter-out -Isrc,$(CFLAGS)) -Iexamples/ring_sum $(PKG_CFLAGS) -o $@ $(filter %.c %.a,$^) $(PKG_LIBS) $(LDLIBS)

$(MPI_BUILD)/ring-mpi: tests/mpi/ring.c examples/ring_sum/ring_sum.c $(MPI_LIB)
	$(MPICC) $(filter-out -Isrc,$(CFLAGS)) -Iexamples/ring_sum $(PKG_CFLAGS) -o $@ $(filter %.c %.a,$^) $(PKG_LIBS) $(LDLIBS)

# examples/own_command, a user's program with the whole command, linked with each engine.
OWN_SRC := examples/own_command/main.c examples/own_command/prefix.c
$(MPI_BUILD)/own-threads: $(OWN_SRC) $(LIB)
	$(CC) $(filter-out -Isrc,$(CFLAGS)) $(PKG_CFLAGS) -o $@ $(filter %.c %.a,$^) $(PKG_LIBS) $(LDLIBS)

$(MPI_BUILD)/own-mpi: $(OWN_SRC) $(MPI_LIB)
	$(MPICC) $(filter-out -Isrc,$(CFLAGS)) $(PKG_CFLAGS) -o $@ $(filter %.c %.a,$^) $(PKG_LIBS) $(LDLIBS)

mpi: $(MPI_BIN) $(MPI_LIB) $(MPI_BUILD)/hremu-mpi.pc $(MPI_BUILD)/ring-threads $(MPI_BUILD)/ring-mpi \
     $(MPI_BUILD)/own-threads $(MPI_BUILD)/own-mpi

# The plain MPI reference of `make bench-mpi`.
$(BUILD)/bench/ref_alltoallv_mpi: bench/ref_alltoallv_mpi.c bench/bench_common.h
	@mkdir -p $(dir $@)
	$(MPICC) -std=c11 -D_GNU_SOURCE -O2 -g $(WARN) -pthread -o $@ $< $(LDLIBS)

bench-mpi: deps
	@$(MAKE) --no-print-directory mpi $(BUILD)/bench/ref_alltoallv_mpi
	scripts/bench_mpi.sh $(BUILD)

# Then the same with MPICH (docs/mpi.md's switch), built apart in $(BUILD)-mpich.
check-mpi: deps
	@$(MAKE) --no-print-directory all mpi
	@$(MAKE) --no-print-directory mpi MPICC=mpicc.mpich BUILD=$(BUILD)-mpich
	MPICH_BUILD=$(BUILD)-mpich tests/mpi/check.sh $(MPI_BUILD)

run: deps
	@$(MAKE) --no-print-directory all
	./hremu configs/default.ini

TSAN_ENV := $(if $(findstring thread,$(SAN)),TSAN_OPTIONS="suppressions=$(CURDIR)/tests/tsan.supp halt_on_error=1 second_deadlock_stack=1" CK_TIMEOUT_MULTIPLIER=10,)
ASAN_ENV := $(if $(findstring address,$(SAN)),ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 CK_TIMEOUT_MULTIPLIER=4,)

check: deps
	@$(MAKE) --no-print-directory check-tests

check-tests: $(TESTS) $(EXAMPLE) $(BIN) $(REPLAYS)
	$(TSAN_ENV) $(ASAN_ENV) HREMU_BIN=$(CURDIR)/$(BIN) $(TESTS)
	$(TSAN_ENV) $(ASAN_ENV) $(EXAMPLE)
	@for n in $(FUZZ_NAMES); do \
	    echo "$(BUILD)/fuzz/replay_$$n tests/fuzz/corpus/$$n"; \
	    $(TSAN_ENV) $(ASAN_ENV) $(BUILD)/fuzz/replay_$$n tests/fuzz/corpus/$$n || exit 1; \
	done
	$(TSAN_ENV) $(ASAN_ENV) HREMU_BIN=$(CURDIR)/$(BIN) tests/cli/run.sh
	$(TSAN_ENV) $(ASAN_ENV) HREMU_BIN=$(CURDIR)/$(BIN) tests/cli/commands.sh
	$(TSAN_ENV) $(ASAN_ENV) HREMU_BIN=$(CURDIR)/$(BIN) tests/cli/recipes.sh
	$(TSAN_ENV) $(ASAN_ENV) HREMU_BIN=$(CURDIR)/$(BIN) SAN="$(SAN)" tests/cli/determinism.sh
	$(TSAN_ENV) $(ASAN_ENV) HREMU_BIN=$(CURDIR)/$(BIN) tests/cli/engines.sh
	$(TSAN_ENV) $(ASAN_ENV) HREMU_BIN=$(CURDIR)/$(BIN) tests/plots.sh
	$(TSAN_ENV) $(ASAN_ENV) HREMU_BIN=$(CURDIR)/$(BIN) tests/browser.sh
	$(TSAN_ENV) $(ASAN_ENV) SAN="$(SAN)" CC="$(CC)" CFLAGS="$(if $(SAN),-fsanitize=$(SAN) -fno-omit-frame-pointer)" \
	    LDFLAGS="$(if $(SAN),-fsanitize=$(SAN))" tests/install.sh $(BUILD)

# The --html page in a real browser alone (make check runs it too; scripts/deps.sh installs
# Debian's Chromium for both).
check-browser: deps
	@scripts/deps.sh chromium
	@$(MAKE) --no-print-directory $(BIN)
	HREMU_BIN=$(CURDIR)/$(BIN) tests/browser.sh

# Long jitter and stress loops: not part of `make check`.
stress: deps
	@$(MAKE) --no-print-directory $(TESTS)
	HREMU_STRESS=1 CK_RUN_CASE=stress $(TESTS)

bench: deps
	@$(MAKE) --no-print-directory all $(BUILD)/bench/ref_alltoall $(BUILD)/bench/ref_two_phase $(BUILD)/bench/seq_route \
	    $(BUILD)/bench/seq_radix $(BUILD)/bench/ref_radix \
	    $(BUILD)/bench/barrier $(BUILD)/bench/seq_rounds $(BUILD)/bench/ref_fft2d \
	    $(BUILD)/bench/round_floor
	scripts/bench.sh $(BUILD)

# The fiber engine's floor links the library: it runs hremu's rounds with nothing in them.
$(BUILD)/bench/round_floor: bench/round_floor.c bench/bench_common.h $(LIB)
	@mkdir -p $(dir $@)
	$(CC) $(filter-out -Isrc,$(CFLAGS)) $(PKG_CFLAGS) -o $@ $< $(LIB) $(PKG_LIBS) $(LDLIBS)

$(BUILD)/bench/%: bench/%.c bench/bench_common.h bench/plain_route.h
	@mkdir -p $(dir $@)
	$(CC) -std=c11 -D_GNU_SOURCE -O2 -g $(WARN) -pthread -o $@ $< $(LDLIBS)

# FFTW's own 2D DFT on one thread, beside app.fft2d.
$(BUILD)/bench/ref_fft2d: bench/ref_fft2d.c bench/bench_common.h
	@mkdir -p $(dir $@)
	$(CC) -std=c11 -D_GNU_SOURCE -O2 -g $(WARN) -pthread $(shell pkg-config --cflags fftw3) -o $@ $< \
	    $(shell pkg-config --libs fftw3) $(LDLIBS)

# A harness with the replay main (make check), or with libFuzzer's (FUZZ=1: make fuzz).
$(BUILD)/fuzz/replay_%: $(BUILD)/tests/fuzz/fuzz_%.o $(BUILD)/tests/fuzz/replay.o $(LIB)
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS) -o $@ $^ $(PKG_LIBS) $(LDLIBS)

$(BUILD)/fuzz/fuzz_%: $(BUILD)/tests/fuzz/fuzz_%.o $(LIB)
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS) -fsanitize=fuzzer -o $@ $^ $(PKG_LIBS) $(LDLIBS)

fuzzers: $(FUZZERS)

# The harnesses' objects are kept between builds, not removed as intermediate files.
.SECONDARY: $(FUZZ_SRC:%.c=$(BUILD)/%.o) $(BUILD)/tests/fuzz/replay.o

# Every harness under libFuzzer for FUZZ_SECONDS (default 60) each; clang and its runtimes
# (libclang-rt-14-dev) are installed if missing.
fuzz: deps
	@scripts/deps.sh clang libclang-rt-14-dev
	@$(MAKE) --no-print-directory FUZZ=1 fuzzers
	scripts/fuzz.sh build-fuzz/fuzz $(FUZZ_NAMES)

# Installs the library of this build (SAN=... installs the sanitized one, which then needs the same
# -fsanitize at link time), the hremu command and its man page, the public headers and hremu.pc,
# and the configs and docs (with README.md) in PREFIX/share/hremu, where the command finds
# configs/default.ini; builds the library first if needed, with this build's flags. PREFIX must be
# absolute: hremu.pc records it (DESTDIR does not go there).
install: $(LIB) $(BIN)
	@case '$(PREFIX)' in /*) ;; *) echo "make install: PREFIX must be an absolute path (it is '$(PREFIX)')" >&2; exit 2;; esac
	install -d '$(DESTDIR)$(PREFIX)/lib/pkgconfig' '$(DESTDIR)$(PREFIX)/include/hremu'
	install -m 644 $(LIB) '$(DESTDIR)$(PREFIX)/lib/libhremu.a'
	install -m 644 include/hremu/*.h '$(DESTDIR)$(PREFIX)/include/hremu/'
	install -d '$(DESTDIR)$(PREFIX)/bin' '$(DESTDIR)$(PREFIX)/share/man/man1'
	install -m 755 $(BIN) '$(DESTDIR)$(PREFIX)/bin/hremu'
	install -m 644 docs/hremu.1 '$(DESTDIR)$(PREFIX)/share/man/man1/hremu.1'
	rm -rf '$(DESTDIR)$(PREFIX)/share/hremu'
	install -d '$(DESTDIR)$(PREFIX)/share/hremu'
	cp -R configs docs '$(DESTDIR)$(PREFIX)/share/hremu/'
	install -m 644 README.md '$(DESTDIR)$(PREFIX)/share/hremu/README.md'
	@v=$$(sed -n 's/^#define HREMU_VERSION *"\(.*\)".*/\1/p' src/cli/cli.c); \
	    [ -n "$$v" ] || { echo "make install: no HREMU_VERSION in src/cli/cli.c" >&2; exit 1; }; \
	    echo "write $(DESTDIR)$(PREFIX)/lib/pkgconfig/hremu.pc (version $$v)"; \
	    sed -e 's|@PREFIX@|$(PREFIX)|' -e "s|@VERSION@|$$v|" scripts/hremu.pc.in \
	        >'$(DESTDIR)$(PREFIX)/lib/pkgconfig/hremu.pc'

uninstall:
	rm -rf $(DESTDIR)$(PREFIX)/include/hremu $(DESTDIR)$(PREFIX)/lib/libhremu.a $(DESTDIR)$(PREFIX)/lib/pkgconfig/hremu.pc \
	    $(DESTDIR)$(PREFIX)/bin/hremu $(DESTDIR)$(PREFIX)/share/man/man1/hremu.1 \
	    $(DESTDIR)$(PREFIX)/share/hremu

clean:
	rm -rf build build-* hremu

-include $(DEPS) $(wildcard $(MPI_BUILD)/*.d)
