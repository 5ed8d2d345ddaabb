# SPDX-License-Identifier: GPL-2.0-only
# flashbench - identify characteristics of flash media
#
#   make                      build flashbench and erase
#   make check                build and run every test
#   make CROSS_COMPILE=aarch64-linux-gnu-
#   make WERROR=1 | SANITIZE=1 | STATIC=1
#   make install PREFIX=/usr DESTDIR=/tmp/pkg   (and make uninstall)
#   make fuzz [FUZZ_SECONDS=600] [FUZZ_TARGETS="cli vm"]
#   make fuzz-replay          run the fuzz harnesses over their corpus

VERSION := 2.0.0

# make predefines CC, so "CC ?=" would never take effect: only replace it
# when it still has make's built-in value.
ifeq ($(origin CC),default)
CC := $(CROSS_COMPILE)gcc
endif
ifeq ($(origin AR),default)
AR := $(CROSS_COMPILE)ar
endif
# Cross builds want the target's Check: <triplet>-pkg-config (Debian's
# pkgconf:<arch> installs it), else pkg-config restricted to the target's
# multiarch directory.
ifeq ($(origin PKG_CONFIG),undefined)
ifeq ($(CROSS_COMPILE),)
PKG_CONFIG := pkg-config
else
CROSS_TRIPLET := $(notdir $(CROSS_COMPILE:%-=%))
PKG_CONFIG := $(shell command -v $(CROSS_COMPILE)pkg-config >/dev/null 2>&1 \
	&& echo $(CROSS_COMPILE)pkg-config || echo \
	PKG_CONFIG_LIBDIR=/usr/lib/$(CROSS_TRIPLET)/pkgconfig pkg-config)
endif
endif

CFLAGS ?= -O2 -g
PREFIX ?= /usr/local
BINDIR ?= $(PREFIX)/bin
MANDIR ?= $(PREFIX)/share/man
BASHCOMPDIR ?= $(PREFIX)/share/bash-completion/completions
# the record's JSON Schema, beside the man pages (share/flashbench, not
# share/doc: packagers compress what is there)
DATADIR ?= $(PREFIX)/share/flashbench

FB_CFLAGS := -std=gnu11 -Wall -Wextra -D_GNU_SOURCE -D_FILE_OFFSET_BITS=64 \
	     -ffp-contract=off \
	     -DFLASHBENCH_VERSION='"$(VERSION)"' -MMD -MP
FB_LDFLAGS :=
FB_LIBS := -lm

ifeq ($(WERROR),1)
FB_CFLAGS += -Werror
endif
ifeq ($(SANITIZE),1)
FB_CFLAGS += -fsanitize=address,undefined -fno-omit-frame-pointer \
	     -fno-sanitize-recover=undefined
FB_LDFLAGS += -fsanitize=address,undefined
endif
ifeq ($(STATIC),1)
FB_LDFLAGS += -static
PKG_STATIC := --static
endif

CHECK_CFLAGS = $(shell $(PKG_CONFIG) --cflags check)
CHECK_LIBS = $(shell $(PKG_CONFIG) $(PKG_STATIC) --libs check)

# Where each concern lives (see the README); every folder is on the
# include path, so a header is included by its name alone.
SRC_DIRS := base device vm record modes verdict probes output safety front
FB_CFLAGS += -I. $(SRC_DIRS:%=-I%)

# Objects, the library and the test programs go to build/, mirroring the
# source tree; the two programs stay at the top, where the classic tool
# had them (sudo ./flashbench ...).
B := build
# The library: the engine, and every file of the layers' folders but the
# front end's (so a new mode is a new file in modes/, no list to edit).
LIB_SRCS := dev.c vm.c front/quiet.c \
	    $(sort $(wildcard base/*.c device/*.c vm/*.c record/*.c \
			      modes/*.c verdict/*.c probes/*.c output/*.c \
			      safety/*.c))
LIB_OBJS := $(LIB_SRCS:%.c=$(B)/%.o)
# The front end's files beside flashbench.c (not in the library: they
# share its state, and the fuzz harness renames their system calls too).
FRONT_SRCS := $(filter-out front/quiet.c,$(sort $(wildcard front/*.c)))
FRONT_OBJS := $(FRONT_SRCS:%.c=$(B)/%.o)
# Each tests/test_NAME.c holds one suite, NAME_suite(), for one module;
# the runner learns the list from the file names (build/tests/suites.h),
# so a new suite is one new file.
TEST_SRCS := $(sort $(wildcard tests/test_*.c))
# schema last: it validates the JSON documents of the suites before it
SUITES := $(filter-out schema,$(TEST_SRCS:tests/test_%.c=%)) schema
TEST_NAMES := check_main $(SUITES:%=test_%) recdev util wtable tfiles hardcard \
	docread loopdev frontrun sweepscore
TEST_OBJS := $(TEST_NAMES:%=$(B)/tests/%.o)
CHECK_BIN := $(B)/tests/check_flashbench
BENCH_BIN := $(B)/tests/bench_auto

all: flashbench erase

flashbench: $(B)/flashbench.o $(FRONT_OBJS) $(B)/libflashbench.a
	$(CC) $(FB_LDFLAGS) $(LDFLAGS) -o $@ $^ $(FB_LIBS)

erase: $(B)/erase.o $(B)/libflashbench.a
	$(CC) $(FB_LDFLAGS) $(LDFLAGS) -o $@ $^ $(FB_LIBS)

# Made anew each time: "ar r" keeps members whose source is gone, and a
# file renamed would then define its functions twice.
$(B)/libflashbench.a: $(LIB_OBJS)
	rm -f $@
	$(AR) rcs $@ $^

$(B)/%.o: %.c
	@mkdir -p $(@D)
	$(CC) $(FB_CFLAGS) $(CFLAGS) $(CPPFLAGS) -c -o $@ $<

# The tests call the front end in-process, so it is built once more
# without main().
$(B)/tests/cli.o: flashbench.c
	@mkdir -p $(@D)
	$(CC) $(FB_CFLAGS) $(CFLAGS) $(CPPFLAGS) -DFLASHBENCH_NO_MAIN -c -o $@ $<

$(B)/tests/%.o: tests/%.c
	@mkdir -p $(@D)
	$(CC) $(FB_CFLAGS) $(CFLAGS) $(CPPFLAGS) $(CHECK_CFLAGS) -Itests \
		-I$(B)/tests -c -o $@ $<

# Written anew only when the list of suites changes.
$(B)/tests/suites.h: FORCE
	@mkdir -p $(@D)
	@printf 'SUITE(%s)\n' $(SUITES) > $@.tmp
	@cmp -s $@.tmp $@ && rm -f $@.tmp || mv $@.tmp $@

$(B)/tests/check_main.o: $(B)/tests/suites.h

$(CHECK_BIN): $(TEST_OBJS) $(B)/tests/cli.o $(FRONT_OBJS) \
	      $(B)/libflashbench.a
	$(CC) $(FB_LDFLAGS) $(LDFLAGS) -o $@ $^ $(CHECK_LIBS) $(FB_LIBS)

# The FUSE helper of tests/peers, built where libfuse3-dev is installed
# (defined before check: a prerequisite list is expanded as it is read).
FUSE_CFLAGS = $(shell $(PKG_CONFIG) --cflags fuse3 2>/dev/null)
FUSE_LIBS = $(shell $(PKG_CONFIG) --libs fuse3 2>/dev/null)
FUSECARD_BIN := $(B)/tests/peers/fusecard
HAVE_FUSE3 := $(shell $(PKG_CONFIG) --exists fuse3 2>/dev/null && echo 1)

# verdict/ judges records and does no I/O: none of its objects may call
# the device layer, a clock or an I/O system call (nor print, but for the
# file named in the script).
VERDICT_OBJS := $(filter $(B)/verdict/%,$(LIB_OBJS))
verdict-noio: $(VERDICT_OBJS)
	NM=$(CROSS_COMPILE)nm tests/verdict-noio.sh $(VERDICT_OBJS)

# The house's plan (tests/layers.py): no file includes a header from a
# floor above its own or calls into one, and no files call each other in
# a circle; tests/layers.allow lists what is tolerated until issue 25 is
# done.  The self-test shows the check can fail.
layers: all
	NM=$(CROSS_COMPILE)nm python3 tests/layers.py --allow tests/layers.allow
	CC="$(CC)" NM=$(CROSS_COMPILE)nm tests/layers-selftest.sh

# Every test; the benchmark is only built, so that it keeps compiling.
# Three runners side by side: the costliest suites (CHECK_APART) in one,
# the suites on loop devices (CHECK_LOOP: they mostly wait for the
# host's block layer, so they cost the other two little) in another,
# every other suite in the third; the first two's outputs follow the
# third's.  All keep their --json documents in one directory, which the
# schema suite validates when they are done.  Seconds of the suites
# alone (a busy host): capacity 122, auto 81 and preserve 31 against
# sweep 112 (today's sweep in it), classic 27 and the other forty-odd 90.
CHECK_APART = capacity auto preserve
CHECK_LOOP = blockdev holders erase loop_modes loop_preserve
CHECK_ENV = FLASHBENCH_BIN=$(CURDIR)/flashbench ERASE_BIN=$(CURDIR)/erase \
	$(if $(HAVE_FUSE3),FUSECARD_BIN=$(CURDIR)/$(FUSECARD_BIN))

check: all verdict-noio layers $(CHECK_BIN) $(BENCH_BIN) \
	$(if $(HAVE_FUSE3),$(FUSECARD_BIN))
	@loga=$$(mktemp); logl=$$(mktemp); ra=0; rl=0; rb=0; rs=0; \
	export FB_JSON_DIR=$$(mktemp -d /tmp/flashbench-json.XXXXXX); \
	$(CHECK_ENV) FB_SUITES="$(CHECK_APART)" $(CHECK_BIN) >$$loga 2>&1 & \
	pa=$$!; \
	$(CHECK_ENV) FB_SUITES="$(CHECK_LOOP)" $(CHECK_BIN) >$$logl 2>&1 & \
	pl=$$!; \
	$(CHECK_ENV) FB_SKIP_SUITES="$(CHECK_APART) $(CHECK_LOOP) schema" \
		$(CHECK_BIN) || rb=$$?; \
	wait $$pa || ra=$$?; \
	wait $$pl || rl=$$?; \
	cat $$loga $$logl; rm -f $$loga $$logl; \
	$(CHECK_ENV) FB_SUITES=schema $(CHECK_BIN) || rs=$$?; \
	rm -rf "$$FB_JSON_DIR"; \
	echo "check: runner of $(CHECK_APART): $$([ $$ra = 0 ] && echo passed || echo FAILED); of $(CHECK_LOOP): $$([ $$rl = 0 ] && echo passed || echo FAILED); of the other suites: $$([ $$rb = 0 ] && echo passed || echo FAILED); schema: $$([ $$rs = 0 ] && echo passed || echo FAILED)"; \
	[ $$ra = 0 ] && [ $$rl = 0 ] && [ $$rb = 0 ] && [ $$rs = 0 ]

# Device time of --auto against the classic manual procedure (virtual
# clock of the simulated card): see tests/bench_auto.c.
$(BENCH_BIN): $(B)/tests/bench_auto.o $(B)/tests/util.o $(B)/tests/cli.o \
	      $(B)/tests/hardcard.o $(B)/tests/sweepscore.o \
	      $(FRONT_OBJS) $(B)/libflashbench.a
	$(CC) $(FB_LDFLAGS) $(LDFLAGS) -o $@ $^ $(CHECK_LIBS) $(FB_LIBS)

bench: $(BENCH_BIN)
	$(BENCH_BIN)

# The hard sweep with today's mechanics drawn, 3 noise draws x 2 hosts,
# scored per behaviour, mechanic and field (tests/bench_auto.c): a
# report until the verdict knows today's cards.
bench-today: $(BENCH_BIN)
	$(BENCH_BIN) today

# The simulated card as a block device for other tools (tests/peers):
# built only where libfuse3-dev is installed; make check runs its test
# then, and skips it (outside CI) otherwise.

$(FUSECARD_BIN): tests/peers/fusecard.c $(B)/libflashbench.a
	@mkdir -p $(@D)
	$(CC) $(FB_CFLAGS) $(CFLAGS) $(CPPFLAGS) $(FUSE_CFLAGS) \
		$(FB_LDFLAGS) $(LDFLAGS) -o $@ $< $(B)/libflashbench.a \
		$(FUSE_LIBS) $(FB_LIBS)

# Classic flashbench, f3probe and flashbench --auto on a few simulated
# cards through the kernel (root, /dev/fuse, apt-get install flashbench
# f3): outputs and wall times in PEERS_OUT.
PEERS_OUT ?= $(B)/peers
peers: all $(FUSECARD_BIN)
	FUSECARD_BIN=$(CURDIR)/$(FUSECARD_BIN) \
		tests/peers/bench-peers $(PEERS_OUT)

# flashbench --capacity against f3probe on the same simulated cards
# through the kernel, in the card's device time, with and without
# restoring what they wrote (root, /dev/fuse, apt-get install f3).
CAP_OUT ?= $(B)/bench-capacity
bench-capacity: all $(FUSECARD_BIN)
	FUSECARD_BIN=$(CURDIR)/$(FUSECARD_BIN) \
		tests/peers/bench-capacity $(CAP_OUT)

# The same on every card of the hard sweep with a read signature, in two
# halves side by side (long: about half an hour).
bench-hard: $(BENCH_BIN)
	$(BENCH_BIN) hard 0/2 & p=$$!; $(BENCH_BIN) hard 1/2; r=$$?; \
	wait $$p && exit $$r

# cppcheck over every C file of the project, in the configuration the
# build uses; false positives are suppressed inline, with the reason; the
# one global suppression: unusedStructMember in tests/test_*.c, whose
# tables are read through Check's loop index _i inside START_TEST, a
# macro cppcheck cannot expand without <check.h>.
cppcheck:
	cppcheck --enable=warning,style,performance,portability \
		--error-exitcode=1 --inline-suppr -q -j2 \
		-D_GNU_SOURCE -D_FILE_OFFSET_BITS=64 \
		-DFLASHBENCH_VERSION='"ci"' -I. $(SRC_DIRS:%=-I%) -Itests \
		--suppress='unusedStructMember:tests/test_*.c' \
		--template='{file}:{line}: {severity}: {message} [{id}]' \
		$(wildcard *.c $(SRC_DIRS:%=%/*.c) tests/*.c tests/fuzz/*.c \
			tests/peers/*.c)

# Write the golden outputs (tests/golden) anew, after a change that is
# meant to change what flashbench prints; review with git diff.
golden: all $(CHECK_BIN)
	GOLDEN_UPDATE=1 CK_RUN_SUITE=golden FLASHBENCH_BIN=$(CURDIR)/flashbench \
		ERASE_BIN=$(CURDIR)/erase $(CHECK_BIN)
	GOLDEN_UPDATE=1 CK_RUN_SUITE=survey CK_RUN_CASE=records $(CHECK_BIN)

# The discard tool is installed as flashbench-erase, as Debian's classic
# package has it: a bare "erase" in the system's path is too generic a
# name.  Its man page follows the name (every whole word "erase" in it is
# the command: "Erase" starts a sentence), and so do flashbench(1)'s
# references to it.
ERASE_NAME := flashbench-erase

install: all
	install -d $(DESTDIR)$(BINDIR)
	install -m 755 flashbench $(DESTDIR)$(BINDIR)
	install -m 755 erase $(DESTDIR)$(BINDIR)/$(ERASE_NAME)
	install -d $(DESTDIR)$(MANDIR)/man1
	sed 's/^\.BR erase (1)/.BR flashbench\\-erase (1)/' flashbench.1 \
		>$(DESTDIR)$(MANDIR)/man1/flashbench.1
	sed -e 's/^\.TH ERASE /.TH FLASHBENCH\\-ERASE /' \
	    -e 's/\<erase\>/flashbench\\-erase/g' erase.1 \
		>$(DESTDIR)$(MANDIR)/man1/$(ERASE_NAME).1
	chmod 644 $(DESTDIR)$(MANDIR)/man1/flashbench.1 \
		$(DESTDIR)$(MANDIR)/man1/$(ERASE_NAME).1
	install -d $(DESTDIR)$(DATADIR)
	install -m 644 doc/flashbench.schema.json $(DESTDIR)$(DATADIR)
	install -d $(DESTDIR)$(BASHCOMPDIR)
	install -m 644 completion/flashbench.bash \
		$(DESTDIR)$(BASHCOMPDIR)/flashbench
	# bash-completion loads a script by the command's name: the erase
	# tool's too
	ln -sf flashbench $(DESTDIR)$(BASHCOMPDIR)/$(ERASE_NAME)

uninstall:
	rm -f $(DESTDIR)$(BINDIR)/flashbench \
		$(DESTDIR)$(BINDIR)/$(ERASE_NAME) \
		$(DESTDIR)$(MANDIR)/man1/flashbench.1 \
		$(DESTDIR)$(MANDIR)/man1/$(ERASE_NAME).1 \
		$(DESTDIR)$(BASHCOMPDIR)/flashbench \
		$(DESTDIR)$(BASHCOMPDIR)/$(ERASE_NAME) \
		$(DESTDIR)$(DATADIR)/flashbench.schema.json
	-rmdir $(DESTDIR)$(DATADIR) 2>/dev/null

clean:
	rm -rf flashbench erase $(B)/*.a $(B)/*.o $(B)/*.d $(SRC_DIRS:%=$(B)/%) \
		$(B)/tests

# ---- fuzzing: clang libFuzzer harnesses in tests/fuzz ----
#
# Built apart from everything above (own compiler, flags and objects in
# tests/fuzz/build), so a fuzz build never disturbs the normal objects.
# "make fuzz" runs each harness for FUZZ_SECONDS, keeping what it finds
# in tests/fuzz/build/corpus-NAME and crashes as tests/fuzz/build/
# crash-NAME-*; "make fuzz-replay" (CI) runs each over the committed
# corpus only.  "make fuzz-corpus" folds what a campaign found into the
# committed corpus, small (see below).

FUZZ_CC ?= clang
FUZZ_SECONDS ?= 600
FUZZ_TARGETS ?= cli spec vm analyze jsonread
FUZZ_FLAGS ?=
FUZZ_DIR := tests/fuzz
FUZZ_BUILD := $(FUZZ_DIR)/build
FUZZ_SAN := -fsanitize=address,undefined -fno-sanitize-recover=undefined \
	    -fno-omit-frame-pointer
FUZZ_CFLAGS := -std=gnu11 -g -O1 -Wall -Wextra -D_GNU_SOURCE \
	       -D_FILE_OFFSET_BITS=64 -DFLASHBENCH_VERSION='"$(VERSION)"' \
	       -MMD -MP $(FUZZ_SAN) -fsanitize=fuzzer-no-link \
	       -I. $(SRC_DIRS:%=-I%)
FUZZ_LIB_OBJS := $(LIB_SRCS:%.c=$(FUZZ_BUILD)/%.o) $(FUZZ_BUILD)/fuzz_util.o
FUZZ_BINS := $(FUZZ_TARGETS:%=$(FUZZ_BUILD)/fuzz_%)
# what the command-line harness replaces in its copies of flashbench.o
# and of safety/'s objects (whose stand-ins are named fuzz_preserve_*)
FUZZ_CLI_STUBS := dev_open quiet_system fopen fopen64 open open64 \
		  stat stat64 realpath unlink opendir
FUZZ_PRESERVE_STUBS := open open64 link rename unlink access stat stat64 \
		       lstat lstat64 fopen fopen64

$(FUZZ_BUILD)/%.o: %.c
	@mkdir -p $(@D)
	$(FUZZ_CC) $(FUZZ_CFLAGS) -c -o $@ $<

$(FUZZ_BUILD)/fuzz_%.o: $(FUZZ_DIR)/fuzz_%.c
	@mkdir -p $(@D)
	$(FUZZ_CC) $(FUZZ_CFLAGS) -I. -c -o $@ $<

# flashbench.c without main(), and the front end's other files, their
# system calls renamed to stand-ins
FUZZ_FRONT_OBJS := $(FRONT_SRCS:%.c=$(FUZZ_BUILD)/%-cli.o)
$(FUZZ_BUILD)/cli.o: flashbench.c
	@mkdir -p $(@D)
	$(FUZZ_CC) $(FUZZ_CFLAGS) -DFLASHBENCH_NO_MAIN -MT $@ \
		-MF $(@:.o=.d) -c -o $@.tmp $<
	objcopy $(foreach s,$(FUZZ_CLI_STUBS),--redefine-sym $(s)=fuzz_$(s)) \
		$@.tmp $@
	@rm -f $@.tmp

$(FUZZ_BUILD)/front/%-cli.o: front/%.c
	@mkdir -p $(@D)
	$(FUZZ_CC) $(FUZZ_CFLAGS) -MT $@ -MF $(@:.o=.d) -c -o $@.tmp $<
	objcopy $(foreach s,$(FUZZ_CLI_STUBS),--redefine-sym $(s)=fuzz_$(s)) \
		$@.tmp $@
	@rm -f $@.tmp

# safety/'s files (preserve.c and the files split from it) with their
# file calls renamed to stand-ins
FUZZ_PRESERVE_OBJS := $(patsubst %.c,$(FUZZ_BUILD)/%-cli.o, \
			$(filter safety/%,$(LIB_SRCS)))
$(FUZZ_PRESERVE_OBJS): $(FUZZ_BUILD)/%-cli.o: $(FUZZ_BUILD)/%.o
	objcopy $(foreach s,$(FUZZ_PRESERVE_STUBS), \
		--redefine-sym $(s)=fuzz_preserve_$(s)) $< $@

$(FUZZ_BUILD)/fuzz_cli: $(FUZZ_BUILD)/fuzz_cli.o $(FUZZ_BUILD)/cli.o \
			$(FUZZ_FRONT_OBJS) \
			$(FUZZ_PRESERVE_OBJS) \
			$(filter-out $(FUZZ_BUILD)/safety/%,$(FUZZ_LIB_OBJS))
	$(FUZZ_CC) $(FUZZ_SAN) -fsanitize=fuzzer -o $@ $^ -lm

$(FUZZ_BUILD)/fuzz_%: $(FUZZ_BUILD)/fuzz_%.o $(FUZZ_LIB_OBJS)
	$(FUZZ_CC) $(FUZZ_SAN) -fsanitize=fuzzer -o $@ $^ -lm

fuzz-build: $(FUZZ_BINS)

.SECONDARY: $(FUZZ_TARGETS:%=$(FUZZ_BUILD)/fuzz_%.o)

# One campaign per harness, in turn; the summary lines of each at the end.
fuzz: $(FUZZ_BINS)
	@set -e; for t in $(FUZZ_TARGETS); do \
		mkdir -p $(FUZZ_BUILD)/corpus-$$t; \
		dict=; [ -f $(FUZZ_DIR)/$$t.dict ] && \
			dict=-dict=$(FUZZ_DIR)/$$t.dict; \
		echo "fuzz $$t: $(FUZZ_SECONDS)s, log in $(FUZZ_BUILD)/fuzz-$$t.log"; \
		$(FUZZ_BUILD)/fuzz_$$t -max_total_time=$(FUZZ_SECONDS) \
			-timeout=30 -rss_limit_mb=2048 -print_final_stats=1 \
			-artifact_prefix=$(FUZZ_BUILD)/crash-$$t- $$dict \
			$(FUZZ_FLAGS) $(FUZZ_BUILD)/corpus-$$t \
			$(FUZZ_DIR)/corpus/$$t \
			>$(FUZZ_BUILD)/fuzz-$$t.log 2>&1 || \
			{ tail -n 60 $(FUZZ_BUILD)/fuzz-$$t.log; exit 1; }; \
		grep -E '^#[0-9]+[[:space:]]+DONE|^stat::number_of_executed_units' \
			$(FUZZ_BUILD)/fuzz-$$t.log; \
	done

# The committed corpus through each harness once; no fuzzing.
fuzz-replay: $(FUZZ_BINS)
	@set -e; for t in $(FUZZ_TARGETS); do \
		n=$$(ls $(FUZZ_DIR)/corpus/$$t | wc -l); \
		echo "fuzz-replay $$t: $$n inputs"; \
		$(FUZZ_BUILD)/fuzz_$$t -timeout=30 -rss_limit_mb=2048 \
			$(FUZZ_DIR)/corpus/$$t/* \
			>$(FUZZ_BUILD)/replay-$$t.log 2>&1 || \
			{ tail -n 60 $(FUZZ_BUILD)/replay-$$t.log; exit 1; }; \
	done

# Fold a campaign's finds into the committed corpus: libFuzzer records
# each input's coverage edges, setcover.py keeps the named seeds and then
# the inputs that cover the most edges, at most FUZZ_CORPUS_MAX of them.
FUZZ_CORPUS_MAX ?= 60
fuzz-corpus: $(FUZZ_BINS)
	@set -e; b=$(FUZZ_BUILD); for t in $(FUZZ_TARGETS); do \
		rm -rf $$b/merged-$$t $$b/picked-$$t $$b/merge-$$t.ctl; \
		mkdir -p $$b/merged-$$t $$b/corpus-$$t; \
		$$b/fuzz_$$t -merge=1 -use_counters=0 -timeout=30 \
			-merge_control_file=$$b/merge-$$t.ctl \
			$$b/merged-$$t $(FUZZ_DIR)/corpus/$$t $$b/corpus-$$t \
			>$$b/merge-$$t.log 2>&1; \
		printf 'corpus %s: ' $$t; \
		python3 $(FUZZ_DIR)/setcover.py $$b/merge-$$t.ctl \
			$$b/picked-$$t $(FUZZ_CORPUS_MAX); \
		rm -rf $(FUZZ_DIR)/corpus/$$t; \
		mv $$b/picked-$$t $(FUZZ_DIR)/corpus/$$t; \
	done

fuzz-clean:
	rm -rf $(FUZZ_BUILD)

.PHONY: FORCE all check verdict-noio layers bench bench-hard bench-today peers bench-capacity golden install uninstall clean fuzz fuzz-build \
	fuzz-replay fuzz-corpus fuzz-clean

-include $(shell find $(B) $(FUZZ_BUILD) -name '*.d' 2>/dev/null)
