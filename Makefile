# polc and polexec. `make` builds, `make check` installs what is missing,
# builds and runs every suite, `make demo` compiles an example and dumps it.
# Each folder adds its own objects and checks in its *.mk fragment.

CC       ?= gcc
MUSLCC   ?= musl-gcc
B        := build
VERSION  := 0.1.0
WARN     := -Wall -Wextra -Werror -Wshadow -Wmissing-prototypes \
            -Wstrict-prototypes -Wformat=2 -Wformat-nonliteral -Wvla \
            -Wpointer-arith -Wcast-qual -Wundef
CFLAGS   ?= -O2 -g
CFLAGS   += -std=c11 -D_GNU_SOURCE $(WARN) -DPOLC_VERSION='"$(VERSION)"' \
            -Iartifact -Ilang -Icompiler -Ibpf -I$(B)/lang
LDLIBS   := -lseccomp -lz3
# The paths polc searches for `use` fragments after -I and POLC_PATH.
PREFIX   ?= /usr/local
STDLIB_DIR ?= $(CURDIR)/stdlib-policies

POLC_OBJS    :=
POLEXEC_SRCS :=
TEST_BINS    :=
CHECKS       :=

all: $(B)/polc $(B)/polexec

include lang/lang.mk
include artifact/artifact.mk
include bpf/bpf.mk
include compiler/compiler.mk
include stub/stub.mk
include tests/tests.mk
include bench/bench.mk

$(B)/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -MMD -MP -c $< -o $@

$(B)/polc: $(POLC_OBJS)
	$(CC) $(CFLAGS) $^ $(LDLIBS) -o $@

# Debian packages the build and the suites need; installed only if missing.
DEPS := gcc make flex bison pkg-config libseccomp-dev libcmocka-dev \
        libz3-dev libnftnl-dev libmnl-dev musl-tools bubblewrap passt \
        nftables iproute2 util-linux clang libclang-rt-14-dev jq \
        hyperfine time python3 libjansson-dev runc busybox-static
deps:
	@missing=$$(for p in $(DEPS); do \
	    dpkg-query -W -f='$${Status}\n' $$p 2>/dev/null | \
	    grep -q 'install ok installed' || echo $$p; done); \
	if [ -n "$$missing" ]; then \
	    echo "installing: $$missing"; \
	    if [ "$$(id -u)" != 0 ]; then SUDO=sudo; fi; \
	    $$SUDO apt-get update -qq && \
	    DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq $$missing; \
	fi

check: deps
	$(MAKE) all tests
	@tests/run-checks.sh $(CHECKS)

# Compile the shell example, show it, run a shell under it, and ask the
# prover whether it stays within the hello-world policy (it does not: exit 1
# is the expected answer, with the witnesses).
demo: deps
	$(MAKE) all
	$(B)/polc build examples/shell.pol -o $(B)/shell.polbin
	$(B)/polc dump $(B)/shell.polbin
	@mkdir -p $(B)/demo-ws && echo 'hello from the box' > $(B)/demo-ws/f
	cd $(B)/demo-ws && ../polexec --var WORKSPACE=$$PWD \
	    --record ../demo-run.json ../shell.polbin -- sh -c 'ls; cat f'
	@echo "run record: $(B)/demo-run.json"; cat $(B)/demo-run.json; echo
	$(B)/polc check --boundary examples/hello.pol examples/shell.pol | \
	    tail -n 5 || true

format:
	clang-format -i $$(git ls-files '*.c' '*.h')

clean:
	rm -rf $(B)

.PHONY: all deps check demo format clean tests
-include $(shell find $(B) -name '*.d' 2>/dev/null)
