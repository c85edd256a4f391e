# pouch — a play-by-mail Diplomacy judge.
#
# Non-recursive build. Each folder describes its sources in module.mk:
#   POUCH_SRCS   sources of libpouch.a (everything but main())
#   TESTS        cmocka test programs: tests/unit/NAME.c -> $(BUILD)/tests/unit/NAME
#   BENCHES      benchmark programs:   tests/bench/NAME.c -> $(BUILD)/tests/bench/NAME
#   FUZZERS      libFuzzer targets:    tests/fuzz/NAME.c -> build/fuzz/NAME
#
# Targets:
#   make              build $(BUILD)/pouch
#   make check        every test (unit, sanitizers, DATC, game records, parser,
#                     fuzzing, mail servers, browser); see tests/README.md
#   make bench        benchmarks (print their figures)
#   make bench-load   10,000 order mails in one run, 100 runs back to back (root)
#   make fuzz         libFuzzer targets in build/fuzz/ (clang, ASan + UBSan);
#                     tests/check.sh runs them
#   make install      PREFIX=/usr/local
#
# Variables: WERROR=1 turns warnings into errors (CI does), SAN=1 builds with
# AddressSanitizer + UndefinedBehaviorSanitizer (use another BUILD dir),
# FUZZ_CC names the clang that builds the fuzz targets (default clang).

BUILD ?= build
CC ?= cc
PREFIX ?= /usr/local
CFLAGS ?= -O2 -g
WERROR ?= 0
SAN ?= 0

PKGS := libetpan libcurl libxml-2.0 gnutls
PKG_CFLAGS := $(shell pkg-config --cflags $(PKGS))
# libxml2 and libcurl are not linked but loaded on first use (lib/lazylib.h),
# by the sonames of the libraries the compiler would have linked.
# libetpan's .pc adds -specs=...no-pie-link.specs, which silently makes the
# binary non-PIE: drop it.
PKG_LIBS := $(filter-out -specs=%,$(shell pkg-config --libs libetpan gnutls)) -lcrypt -lm
soname = $(shell objdump -p "$$($(CC) -print-file-name=$(1))" 2>/dev/null | sed -n 's/^ *SONAME *//p')
XML2_SONAME := $(call soname,libxml2.so)
CURL_SONAME := $(call soname,libcurl.so)
ifeq ($(XML2_SONAME),)
$(error cannot find libxml2's soname (objdump -p of $(CC) -print-file-name=libxml2.so); install libxml2-dev and binutils)
endif
ifeq ($(CURL_SONAME),)
$(error cannot find libcurl's soname (objdump -p of $(CC) -print-file-name=libcurl.so); install libcurl4-gnutls-dev and binutils)
endif
CMOCKA_LIBS := $(shell pkg-config --libs cmocka)

WARNINGS := \
	-Wall \
	-Wextra \
	-Wpedantic \
	-Wshadow \
	-Wstrict-prototypes \
	-Wmissing-prototypes \
	-Wold-style-definition \
	-Wpointer-arith \
	-Wcast-qual \
	-Wwrite-strings \
	-Wformat=2 \
	-Wundef \
	-Wvla \
	-Wimplicit-fallthrough \
	-Wmissing-declarations \
	-Wredundant-decls \
	-Wnull-dereference \
	-Wdouble-promotion \
	-Wno-unused-parameter
ifeq ($(WERROR),1)
WARNINGS += -Werror
endif

MAPS_DIR ?= $(CURDIR)/maps
ALL_CFLAGS := -std=c11 -D_POSIX_C_SOURCE=200809L $(WARNINGS) $(CFLAGS) $(PKG_CFLAGS) \
	-DPOUCH_MAPS_DIR='"$(MAPS_DIR)"' -DPOUCH_XML2_SONAME='"$(XML2_SONAME)"' \
	-DPOUCH_CURL_SONAME='"$(CURL_SONAME)"' -MMD -MP -pthread
# -pthread: a run checks passwords ahead on threads of its own (judge/shell/verify.c)
# and draws the map pages on one while it sends (judge/shell/run.c)
ALL_LDFLAGS := $(LDFLAGS) -pthread
ifeq ($(SAN),1)
ALL_CFLAGS += -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all
ALL_LDFLAGS += -fsanitize=address,undefined
endif
# FUZZ=1 (set by `make fuzz`): every object carries libFuzzer's coverage
# hooks and the sanitizers; the targets link libFuzzer itself.
ifeq ($(FUZZ),1)
ALL_CFLAGS += -fsanitize=fuzzer-no-link,address,undefined -fno-omit-frame-pointer \
	-fno-sanitize-recover=all
ALL_LDFLAGS += -fsanitize=address,undefined
endif

POUCH_SRCS :=
TESTSUPPORT_SRCS :=
TESTS :=
BENCHES :=
BENCH_HELPERS :=
FUZZERS :=
include lib/module.mk
include judge/module.mk
include maps/module.mk
-include parser/module.mk
-include mailer/module.mk
-include spool/module.mk
include tests/module.mk

POUCH_OBJS := $(POUCH_SRCS:%.c=$(BUILD)/obj/%.o)
LIBPOUCH := $(BUILD)/libpouch.a
TESTSUPPORT_OBJS := $(TESTSUPPORT_SRCS:%.c=$(BUILD)/obj/%.o)
LIBTESTSUPPORT := $(BUILD)/libtestsupport.a

FUZZ_BUILD := build/fuzz
FUZZ_CC ?= clang

.PHONY: all clean check bench bench-load fuzz fuzz-targets install league tests
all: $(BUILD)/pouch

ifeq ($(V),1)
Q :=
else
Q := @
endif

$(BUILD)/obj/%.o: %.c
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  CC      $<")
	$(Q)$(CC) $(ALL_CFLAGS) -c -o $@ $<

$(LIBPOUCH): $(POUCH_OBJS)
	@rm -f $@
	$(Q)$(AR) rcs $@ $^

$(LIBTESTSUPPORT): $(TESTSUPPORT_OBJS)
	@rm -f $@
	$(Q)$(AR) rcs $@ $^

$(BUILD)/pouch: $(BUILD)/obj/judge/cli/main.o $(LIBPOUCH)
	@$(if $(Q),echo "  LD      $@")
	$(Q)$(CC) $(ALL_LDFLAGS) -o $@ $^ $(PKG_LIBS)

$(BUILD)/tests/%: $(BUILD)/obj/tests/%.o $(LIBTESTSUPPORT) $(LIBPOUCH)
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  LD      $@")
	$(Q)$(CC) $(ALL_LDFLAGS) -o $@ $^ $(PKG_LIBS) $(CMOCKA_LIBS)

tests: $(TESTS:%=$(BUILD)/tests/%) $(BENCHES:%=$(BUILD)/tests/%) \
	$(BENCH_HELPERS:%=$(BUILD)/tests/%) $(BUILD)/pouch

check:
	tests/check.sh

bench: $(BENCHES:%=$(BUILD)/tests/%) $(BENCH_HELPERS:%=$(BUILD)/tests/%) $(BUILD)/pouch \
	$(BUILD)/tests/e2e/mail/mailit
	tests/bench/bench.sh $(BUILD)

# 10,000 order mails for 500 games in one run, then 100 runs back to back
# while mail arrives over SMTP (root, the mail stack; minutes, not in check)
bench-load: $(BENCH_HELPERS:%=$(BUILD)/tests/%) $(BUILD)/pouch $(BUILD)/tests/e2e/mail/mailit
	LOAD=$(or $(LOAD),10000) RUNS=$(or $(RUNS),100) tests/bench/bench_run.sh $(BUILD)

# A long simulated league (tests/league): make league GAMES=5000 SEED=7 JOBS=2
# (LEAGUE_DIR=/dev/shm/league: the data directories in memory, no disk waits)
league: $(BUILD)/pouch
	nice python3 tests/league/league.py --seed $(or $(SEED),1) --games $(or $(GAMES),500) \
		--jobs $(or $(JOBS),1) --bin $(BUILD)/pouch --keep $(or $(LEAGUE_DIR),$(BUILD)/league-long) \
		$(if $(KNOWN),--known $(KNOWN))

fuzz:
	$(MAKE) BUILD=$(FUZZ_BUILD) CC=$(FUZZ_CC) FUZZ=1 SAN=0 fuzz-targets

fuzz-targets: $(FUZZERS:%=$(BUILD)/%)

$(BUILD)/fuzz_%: $(BUILD)/obj/tests/fuzz/fuzz_%.o $(LIBPOUCH)
	@$(if $(Q),echo "  LD      $@")
	$(Q)$(CC) $(ALL_LDFLAGS) -fsanitize=fuzzer -o $@ $^ $(PKG_LIBS)

# The installed program looks for its variants where they are installed.
install:
	$(MAKE) BUILD=build/install MAPS_DIR=$(PREFIX)/share/pouch/maps build/install/pouch
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/share/man/man1 \
		$(DESTDIR)$(PREFIX)/share/man/man5 $(DESTDIR)$(PREFIX)/share/pouch
	install -m 755 build/install/pouch $(DESTDIR)$(PREFIX)/bin/pouch
	cp -R maps $(DESTDIR)$(PREFIX)/share/pouch/
	install -m 644 judge/cli/pouch.1 $(DESTDIR)$(PREFIX)/share/man/man1/
	install -m 644 judge/shell/pouch.conf.5 $(DESTDIR)$(PREFIX)/share/man/man5/

clean:
	rm -rf build

-include $(shell find $(BUILD)/obj -name '*.d' 2>/dev/null)
