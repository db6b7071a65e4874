# polexec: the static exec stub, built with musl, plus the leak suite's
# programs.
#
# musl-gcc does not see the kernel headers, so it gets an include folder of
# its own holding links to them; the stub uses only the uapi headers there.

# By room (stub/polexec.c's head comment draws them): the phases, in the
# order polexec runs them; then each layer's mechanism, the observation,
# the helpers; the kernel ABI polc shares (abi/); the artifact's format.
POLEXEC_PHASES := stub/polexec.c stub/args.c stub/record.c stub/artifact.c \
                  stub/decide.c stub/env.c stub/secrets.c stub/run.c \
                  stub/child.c stub/doctor.c
POLEXEC_ROOMS  := box landlock limits net observe lib
POLEXEC_SRCS += $(POLEXEC_PHASES) \
                $(foreach r,$(POLEXEC_ROOMS),$(sort $(wildcard stub/$(r)/*.c))) \
                abi/userns.c artifact/polbin_read.c artifact/sha256.c
POLEXEC_HDRS := $(wildcard stub/*.h stub/*/*.h abi/*.h) artifact/polbin.h \
                artifact/sections.h artifact/sha256.h

MUSL_INC := $(B)/musl-include
# -z norelro: a static musl program never makes its RELRO part read-only
# (only the dynamic loader does; the page stays rw-p), so the page the
# linker pads to for it is bytes for nothing (docs/BENCHMARKS.md).
# -fno-pie: polexec is linked static and not position-independent, and
# Debian's gcc compiles PIE by default, which costs RIP-relative code and
# pointer tables relocated at start (2.8 KB of text, 1.1 KB of them); -Oz:
# the stub's size is its budget (bench/polexec_size.sh).
POLEXEC_CFLAGS := -std=c11 -D_GNU_SOURCE $(WARN) -Oz -fno-pie -no-pie \
                  -static -s \
                  -ffunction-sections -fdata-sections -Wl,--gc-sections \
                  -Wl,-z,norelro \
                  -fno-asynchronous-unwind-tables -DPOLEXEC_OWN_LIBC \
                  -DPOLC_VERSION='"$(VERSION)"' -Istub -I. -Iartifact \
                  -isystem $(MUSL_INC)

$(MUSL_INC)/.stamp:
	@mkdir -p $(MUSL_INC)
	ln -sfn /usr/include/linux $(MUSL_INC)/linux
	ln -sfn /usr/include/asm-generic $(MUSL_INC)/asm-generic
	ln -sfn /usr/include/x86_64-linux-gnu/asm $(MUSL_INC)/asm
	@touch $@

# One compiler run over all sources: small, and kept apart from the gcc
# objects that polc links.
$(B)/polexec: $(POLEXEC_SRCS) $(POLEXEC_HDRS) $(MUSL_INC)/.stamp
	@mkdir -p $(dir $@)
	$(MUSLCC) $(POLEXEC_CFLAGS) $(POLEXEC_SRCS) -o $@

# Leak-suite programs: static glibc, so their policies stay small.
LEAK_PROGS := syscall_errno sockets badarch boxprobe llprobe hog
LEAK_BINS := $(addprefix $(B)/tests/leak/,$(LEAK_PROGS)) $(B)/tests/leak/mkpolbin
TEST_BINS += $(LEAK_BINS)
tests: $(LEAK_BINS)

$(B)/tests/leak/%: tests/leak/progs/%.c
	@mkdir -p $(dir $@)
	$(CC) -std=c11 -D_GNU_SOURCE $(WARN) -O2 -static -pthread $< -o $@

$(B)/tests/leak/mkpolbin: tests/leak/progs/mkpolbin.c artifact/polbin_write.c \
                          artifact/polbin_read.c artifact/sha256.c \
                          artifact/polbin.h artifact/sections.h
	@mkdir -p $(dir $@)
	$(CC) -std=c11 -D_GNU_SOURCE $(WARN) -O2 -Iartifact \
	    tests/leak/progs/mkpolbin.c artifact/polbin_write.c \
	    artifact/polbin_read.c artifact/sha256.c -o $@

CHECKS += tests/leak/run.sh tests/size/run.sh tests/rooms/run.sh

# Where polexec's bytes go: per object and per symbol (issue 15).
bench-size: export POLEXEC_SRCS := $(POLEXEC_SRCS)
bench-size: export POLEXEC_CFLAGS := $(POLEXEC_CFLAGS)
bench-size: $(MUSL_INC)/.stamp
	B=$(B) MUSLCC=$(MUSLCC) bench/polexec_size.sh

bench-polexec: $(B)/polc $(B)/polexec
	B=$(B) bench/polexec_startup.sh

# polexec's start-up with 50 Landlock rules against seccomp only (issue 4).
bench-landlock: $(B)/polc $(B)/polexec
	B=$(B) bench/landlock_startup.sh

# The box's own view against bubblewrap making the same one (issue 11).
bench-view: $(B)/polc $(B)/polexec
	B=$(B) bench/view_startup.sh

.PHONY: bench-polexec bench-landlock bench-size bench-view
