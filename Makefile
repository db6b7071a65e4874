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
# The standard library the build tree's polc searches for `use` fragments
# after -I and POLC_PATH; the installed polc's is in the install section.
STDLIB_DIR ?= $(CURDIR)/stdlib-policies

POLC_OBJS    :=
POLEXEC_SRCS :=
TEST_BINS    :=
CHECKS       :=

all: $(B)/polc $(B)/polexec $(B)/install/polc $(B)/polc-probe

include lang/lang.mk
include artifact/artifact.mk
include bpf/bpf.mk
include compiler/compiler.mk
include stub/stub.mk
include selftest/selftest.mk
include tests/tests.mk
include bench/bench.mk

$(B)/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -MMD -MP -c $< -o $@

$(B)/polc: $(POLC_OBJS)
	$(CC) $(CFLAGS) $^ $(LDLIBS) -o $@

# --- make install, make uninstall (docs/INSTALL.md) ----------------------
#
# PREFIX (default /usr/local) is where the tree goes, DESTDIR a staging
# folder in front of it (packages, tests/install). The installed polc is
# the build tree's but for main(): it finds its standard library relative
# to its own binary, $(BINDIR)/$(STDLIB_REL), so the tree works wherever
# it is put, under DESTDIR too; the build tree's polc keeps $(STDLIB_DIR).
PREFIX      ?= /usr/local
BINDIR      := $(PREFIX)/bin
DATADIR     := $(PREFIX)/share
POLC_DATA   := $(DATADIR)/polc
MAN1DIR     := $(DATADIR)/man/man1
BASHCOMPDIR := $(DATADIR)/bash-completion/completions
STDLIB_REL  := ../share/polc/stdlib-policies
# polc selftest's probes, found relative to polc as the stdlib is.
LIBDIR      := $(PREFIX)/lib/polc

STDLIB_FILES := $(sort $(patsubst stdlib-policies/%,%,\
                  $(shell find stdlib-policies -name '*.pol')))
MAN1_PAGES   := polc.1 polc-build.1 polc-check.1 polc-selftest.1 polexec.1 \
                polexec-sh.1
SCHEMA_FILES := run-record.schema.json check.schema.json
COMPLETIONS  := polc polexec polexec-sh

# Every file install puts, one list, so uninstall removes exactly these.
INSTALLED := $(BINDIR)/polc $(BINDIR)/polexec $(LIBDIR)/polc-probe \
             $(BINDIR)/polexec-sh $(BINDIR)/polexec-bash \
             $(BASHCOMPDIR)/polexec-bash \
             $(addprefix $(POLC_DATA)/stdlib-policies/,$(STDLIB_FILES)) \
             $(addprefix $(POLC_DATA)/schema/,$(SCHEMA_FILES)) \
             $(addprefix $(MAN1DIR)/,$(MAN1_PAGES)) \
             $(addprefix $(BASHCOMPDIR)/,$(COMPLETIONS))
POLC_OWN := $(addprefix $(POLC_DATA)/stdlib-policies/,$(STDLIB_FILES)) \
            $(addprefix $(POLC_DATA)/schema/,$(SCHEMA_FILES))

$(B)/install/polc.o: compiler/cli/polc.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -DPOLC_STDLIB_DIR='"$(STDLIB_REL)"' -MMD -MP -c $< -o $@
$(B)/install/polc: $(filter-out $(POLC_MAIN),$(POLC_OBJS)) \
                   $(B)/install/polc.o
	$(CC) $(CFLAGS) $^ $(filter-out -lz3,$(LDLIBS)) -o $@

install: $(B)/install/polc $(B)/polexec $(B)/polc-probe
	install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(MAN1DIR) $(DESTDIR)$(BASHCOMPDIR)
	install -m 0755 $(B)/install/polc $(B)/polexec $(DESTDIR)$(BINDIR)/
	install -D -m 0755 $(B)/polc-probe $(DESTDIR)$(LIBDIR)/polc-probe
	install -m 0755 contrib/polexec-sh $(DESTDIR)$(BINDIR)/
	ln -sfn polexec-sh $(DESTDIR)$(BINDIR)/polexec-bash
	for f in $(STDLIB_FILES); do \
	    install -D -m 0644 stdlib-policies/$$f \
	        $(DESTDIR)$(POLC_DATA)/stdlib-policies/$$f || exit 1; \
	done
	install -D -m 0644 -t $(DESTDIR)$(POLC_DATA)/schema \
	    $(addprefix docs/schema/,$(SCHEMA_FILES))
	install -m 0644 $(addprefix docs/,$(MAN1_PAGES)) $(DESTDIR)$(MAN1DIR)/
	install -m 0644 $(addprefix contrib/bash-completion/,$(COMPLETIONS)) \
	    $(DESTDIR)$(BASHCOMPDIR)/
	ln -sfn polexec-sh $(DESTDIR)$(BASHCOMPDIR)/polexec-bash

# The files, then the folders of $(POLC_DATA) they were in, deepest first,
# each only when empty (what else is there is not ours to remove).
uninstall:
	rm -f $(addprefix $(DESTDIR),$(INSTALLED))
	@for f in $(addprefix $(DESTDIR),$(POLC_OWN)); do \
	    d=$${f%/*}; \
	    while [ "$$d" != "$(DESTDIR)$(POLC_DATA)" ]; do \
	        echo "$$d"; d=$${d%/*}; \
	    done; \
	done | sort -ru | while read -r d; do \
	    [ ! -d "$$d" ] || rmdir --ignore-fail-on-non-empty "$$d"; \
	done
	[ ! -d $(DESTDIR)$(POLC_DATA) ] || \
	    rmdir --ignore-fail-on-non-empty $(DESTDIR)$(POLC_DATA)
	[ ! -d $(DESTDIR)$(LIBDIR) ] || \
	    rmdir --ignore-fail-on-non-empty $(DESTDIR)$(LIBDIR)

# --- make install-apparmor, make uninstall-apparmor (docs/INSTALL.md) ----
#
# Only when asked: the AppArmor profile that lets polexec make its user
# namespaces where AppArmor restricts them (Ubuntu 23.10 and later), its
# attachment set to where `make install` puts polexec. Loading it is the
# administrator's step: apparmor_parser -r FILE.
APPARMOR_DIR := /etc/apparmor.d

$(B)/apparmor/polexec: contrib/apparmor/polexec FORCE
	@mkdir -p $(dir $@)
	sed 's|^@{polexec} = .*|@{polexec} = $(BINDIR)/polexec|' $< >$@.tmp
	mv $@.tmp $@

install-apparmor: $(B)/apparmor/polexec
	install -D -m 0644 $< $(DESTDIR)$(APPARMOR_DIR)/polexec
	@echo "load it: apparmor_parser -r $(DESTDIR)$(APPARMOR_DIR)/polexec"

uninstall-apparmor:
	rm -f $(DESTDIR)$(APPARMOR_DIR)/polexec
	@echo "a loaded profile stays loaded until a reboot, or until" \
	    "'apparmor_parser -R FILE' with a copy of the file"

# --- make deb (docs/INSTALL.md) -----------------------------------------
#
# A Debian package from the tree as it is (committed or not): the files
# git knows are copied to $(B)/deb/polc-$(VERSION), dpkg-buildpackage
# builds there (debian/), and the .deb lands in $(B)/deb, then lintian
# reads it. The packaging tools are installed here, only for this target.
DEB_DEPS := debhelper dpkg-dev fakeroot lintian
DEB_DIR  := $(B)/deb

deb:
	@missing=$$(for p in $(DEB_DEPS) $(DEPS); do \
	    dpkg-query -W -f='$${Status}\n' $$p 2>/dev/null | \
	    grep -q 'install ok installed' || echo $$p; done); \
	if [ -n "$$missing" ]; then \
	    echo "installing: $$missing"; \
	    if [ "$$(id -u)" != 0 ]; then SUDO=sudo; fi; \
	    $$SUDO apt-get update -qq && \
	    DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq $$missing; \
	fi
	rm -rf $(DEB_DIR)
	mkdir -p $(DEB_DIR)/polc-$(VERSION)
	git ls-files -z | tar --null -T - -cf - | \
	    tar -xf - -C $(DEB_DIR)/polc-$(VERSION)
	cd $(DEB_DIR)/polc-$(VERSION) && \
	    env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL \
	    dpkg-buildpackage -b -us -uc -j2 >../build.log 2>&1 || \
	    { tail -n 40 ../build.log; exit 1; }
	lintian --info $(DEB_DIR)/polc_$(VERSION)_*.deb
	@ls -l $(DEB_DIR)/*.deb

# The package in a clean Debian 12 root (debootstrap, once): every
# example builds, its selftest is green, man polc (tests/deb/run.sh).
deb-check: deb
	@dpkg-query -W -f='$${Status}\n' debootstrap 2>/dev/null | \
	    grep -q 'install ok installed' || \
	    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq debootstrap
	B=$(B) tests/deb/run.sh

# Debian packages the build and the suites need; installed only if missing.
# dnsmasq-base is the egress suite's DNS server (the binary alone: the
# dnsmasq package would also start a resolver of the machine's own);
# socat is bench/real.sh's bridge for bwrap's curl box.
DEPS := gcc make flex bison pkg-config libseccomp-dev libcmocka-dev \
        libz3-dev libnftnl-dev libmnl-dev musl-tools bubblewrap passt \
        nftables iproute2 util-linux clang libclang-rt-14-dev jq \
        hyperfine time python3 python3-jsonschema man-db groff-base \
        libjansson-dev runc busybox-static apparmor nodejs git curl \
        python3-venv dnsmasq-base socat libbpf-dev \
        libelf-dev xxd
# npm: Debian's package where the machine has no npm command (a nodejs
# from elsewhere, such as NodeSource's, carries its own and conflicts
# with Debian's npm package).
deps:
	@missing=$$(for p in $(DEPS); do \
	    dpkg-query -W -f='$${Status}\n' $$p 2>/dev/null | \
	    grep -q 'install ok installed' || echo $$p; done); \
	command -v npm >/dev/null || missing="$$missing npm"; \
	if [ -n "$$missing" ]; then \
	    echo "installing: $$missing"; \
	    if [ "$$(id -u)" != 0 ]; then SUDO=sudo; fi; \
	    $$SUDO apt-get update -qq && \
	    DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq $$missing; \
	fi

check: deps
	$(MAKE) all tests
	@tests/run-checks.sh $(CHECKS)

check-containers: deps
	$(MAKE) all
	CONTAINERS_ALL=1 tests/containers/run.sh

# The agent harnesses under their presets (tests/harness/run.sh): not part
# of `make check`, which needs Debian packages only. npm installs the
# versions pinned in tests/harness/package-lock.json into build/harness,
# as `npm ci` does, without running their install scripts (the native
# binaries are run where the platform packages put them); again only
# when the lock file changed. npm: `make deps`.
HARNESS_DIR := $(B)/harness
$(HARNESS_DIR)/.installed: tests/harness/package.json \
		tests/harness/package-lock.json
	@mkdir -p $(HARNESS_DIR)
	cp tests/harness/package.json tests/harness/package-lock.json \
	    $(HARNESS_DIR)/
	cd $(HARNESS_DIR) && npm ci --ignore-scripts --no-audit --no-fund \
	    --loglevel=error
	@touch $@

check-harness: deps
	$(MAKE) all $(B)/tests/net/netserve
	$(MAKE) $(HARNESS_DIR)/.installed
	tests/harness/run.sh

# The real box (contrib/demo.sh): examples/agent-local.pol (its own view,
# net none with one loopback port, limits, a secret file) compiled and
# shown, a script run in it against a model server of the demo's own on
# 127.0.0.1:8088, the layers and the denial its run record names, the
# finding polc check makes of a wider candidate, and polc selftest.
# Everything it writes is in $(B)/demo.
demo: deps
	$(MAKE) -j2 $(B)/polc $(B)/polexec $(B)/polc-probe
	B=$(B) contrib/demo.sh

format:
	clang-format -i $$(git ls-files '*.c' '*.h')

clean:
	rm -rf $(B)

FORCE:

.PHONY: all deps check check-containers check-harness demo deb deb-check format clean tests install \
        uninstall install-apparmor uninstall-apparmor FORCE
# (not in the package's trees: $(B)/deb's build, $(B)/debroot's root)
-include $(shell find $(B) \( -path $(B)/deb -o -path $(B)/debroot \) \
            -prune -o -name '*.d' -type f -print 2>/dev/null)
