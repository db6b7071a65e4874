# The backends, one file per section, and the driver that runs them all;
# the seccomp backend's suites and its instruction-count bench.
BACKEND_OBJS := $(B)/compiler/backend/backends.o \
                $(B)/compiler/backend/seccomp.o \
                $(B)/compiler/backend/seccomp_validate.o \
                $(B)/compiler/backend/seccomp_observe.o \
                $(B)/compiler/backend/observe.o \
                $(B)/compiler/backend/seccomp_oci.o \
                $(B)/compiler/backend/landlock.o \
                $(B)/compiler/backend/view.o \
                $(B)/compiler/backend/nonet.o \
                $(B)/compiler/backend/broker.o \
                $(B)/compiler/backend/nft.o \
                $(B)/compiler/backend/nft_print.o \
                $(B)/compiler/backend/ebpf.o $(B)/compiler/backend/ebpf_print.o \
                $(EGRESS_OBJS) \
                $(B)/compiler/backend/limits.o $(B)/compiler/backend/env.o \
                $(B)/compiler/backend/sections.o
POLC_OBJS += $(BACKEND_OBJS)

# The egress backend builds nfnetlink messages with libnftnl.
LDLIBS += -lnftnl -lmnl
# The cgroup eBPF backend reads the programs' object with libbpf and its
# relocations with libelf.
LDLIBS += -lbpf -lelf
# The Landlock backend's constants come from abi/landlock_compat.h,
# shared with polexec.
$(B)/compiler/backend/landlock.o: CFLAGS += -I.

# What the seccomp suites take: the backend and its validator, the IR as
# logic, the BPF model, the IR itself, and their shared fixtures.
SECCOMP_OBJS := $(B)/compiler/backend/seccomp.o \
                $(B)/compiler/backend/seccomp_validate.o \
                $(B)/compiler/backend/seccomp_observe.o $(LOGIC_OBJS)
SECCOMP_IR_OBJS := $(B)/compiler/ir/ir.o $(B)/compiler/tables/constants.o \
                   $(B)/compiler/tables/syscalls.o \
                   $(B)/compiler/tables/syscalls_gen.o
SECCOMP_FX_OBJS := $(B)/tests/unit/seccomp_fixtures.o
SECCOMP_LIBS := -lcmocka $(LDLIBS)
SECCOMP_DEPS := $(SECCOMP_FX_OBJS) $(SECCOMP_OBJS) $(BPF_OBJS) \
                $(SECCOMP_IR_OBJS)

$(B)/tests/unit/test_seccomp: $(B)/tests/unit/test_seccomp.o $(SECCOMP_DEPS)
	$(CC) $(CFLAGS) $^ $(SECCOMP_LIBS) -o $@
# The oracle also compiles examples/ and the standard library: the whole
# front end, every stage up to this one (POLC_OBJS so far).
ORACLE_DEPS := $(sort $(SECCOMP_DEPS) $(POLC_OBJS))
$(B)/tests/unit/test_seccomp_oracle.o: $(B)/lang/parser.h
$(B)/tests/unit/test_seccomp_oracle: $(B)/tests/unit/test_seccomp_oracle.o \
		$(ORACLE_DEPS)
	$(CC) $(CFLAGS) $^ $(SECCOMP_LIBS) -o $@

SECCOMP_TESTS := $(B)/tests/unit/test_seccomp \
                 $(B)/tests/unit/test_seccomp_oracle
TEST_BINS += $(SECCOMP_TESTS)
CHECKS    += $(SECCOMP_TESTS)
tests: $(SECCOMP_TESTS)

# Instructions executed per syscall number: ours against libseccomp's.
$(B)/bench/bpf_insns.o: CFLAGS += -Itests/unit
$(B)/bench/bpf_insns: $(B)/bench/bpf_insns.o $(SECCOMP_DEPS)
	$(CC) $(CFLAGS) $^ $(LDLIBS) -o $@

bench-insns: $(B)/bench/bpf_insns
	$(B)/bench/bpf_insns

.PHONY: bench-insns
