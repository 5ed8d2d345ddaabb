# SPDX-License-Identifier: GPL-2.0-only
# flashbench - identify characteristics of flash media
#
#   make                      build flashbench and erase
#   make check                build and run every test
#   make CROSS_COMPILE=aarch64-linux-gnu-
#   make WERROR=1 | SANITIZE=1 | STATIC=1
#   make install PREFIX=/usr DESTDIR=/tmp/pkg

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

LIB_OBJS := dev.o sim.o format.o vm.o bench.o progs.o json.o sysfs.o \
	    analyze.o auto.o fault.o preserve.o plot.o progress.o
TEST_OBJS := tests/check_main.o tests/test_format.o tests/test_sim.o \
	     tests/test_bench.o tests/test_vm.o tests/test_writes.o \
	     tests/test_cli.o tests/test_loop.o tests/test_analyze.o \
	     tests/test_auto.o tests/test_modes.o tests/test_safe.o \
	     tests/test_docs.o tests/util.o

all: flashbench erase

flashbench: flashbench.o libflashbench.a
	$(CC) $(FB_LDFLAGS) $(LDFLAGS) -o $@ $^ $(FB_LIBS)

erase: erase.o libflashbench.a
	$(CC) $(FB_LDFLAGS) $(LDFLAGS) -o $@ $^ $(FB_LIBS)

libflashbench.a: $(LIB_OBJS)
	$(AR) rcs $@ $^

%.o: %.c
	$(CC) $(FB_CFLAGS) $(CFLAGS) $(CPPFLAGS) -c -o $@ $<

# The tests call the front end in-process, so it is built once more
# without main().
tests/cli.o: flashbench.c
	$(CC) $(FB_CFLAGS) $(CFLAGS) $(CPPFLAGS) -DFLASHBENCH_NO_MAIN -c -o $@ $<

tests/%.o: tests/%.c
	$(CC) $(FB_CFLAGS) $(CFLAGS) $(CPPFLAGS) $(CHECK_CFLAGS) -I. -c -o $@ $<

tests/check_flashbench: $(TEST_OBJS) tests/cli.o libflashbench.a
	$(CC) $(FB_LDFLAGS) $(LDFLAGS) -o $@ $^ $(CHECK_LIBS) $(FB_LIBS)

check: all tests/check_flashbench
	FLASHBENCH_BIN=$(CURDIR)/flashbench ERASE_BIN=$(CURDIR)/erase \
		tests/check_flashbench tests/bench_auto

# Device time of --auto against the classic manual procedure (virtual
# clock of the simulated card): see tests/bench_auto.c.
tests/bench_auto: tests/bench_auto.o tests/util.o tests/cli.o libflashbench.a
	$(CC) $(FB_LDFLAGS) $(LDFLAGS) -o $@ $^ $(CHECK_LIBS) $(FB_LIBS)

bench: tests/bench_auto
	tests/bench_auto

install: all
	install -d $(DESTDIR)$(BINDIR)
	install -m 755 flashbench erase $(DESTDIR)$(BINDIR)
	install -d $(DESTDIR)$(MANDIR)/man1
	install -m 644 flashbench.1 erase.1 $(DESTDIR)$(MANDIR)/man1
	install -d $(DESTDIR)$(BASHCOMPDIR)
	install -m 644 completion/flashbench.bash \
		$(DESTDIR)$(BASHCOMPDIR)/flashbench

clean:
	rm -f flashbench erase libflashbench.a *.o *.d tests/*.o tests/*.d \
		tests/check_flashbench

.PHONY: all check bench install clean

-include $(wildcard *.d tests/*.d)
