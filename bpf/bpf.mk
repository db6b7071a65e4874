# The classic-BPF model (bpf/), the seccomp backend and its translation
# validator built on it (compiler/seccomp_*), their unit suites and the
# instruction-count bench.

BPF_OBJS := $(B)/bpf/bpf_builder.o $(B)/bpf/bpf_disasm.o \
            $(B)/bpf/bpf_interp.o $(B)/bpf/bpf_symbolic.o \
            $(B)/bpf/bpf_symbolic_merge.o $(B)/bpf/wordsat.o \
            $(B)/bpf/bpf_paths.o $(B)/bpf/z3_lazy.o
# LOGIC_OBJS, the IR as word clauses and as Z3 terms, serve the validator
# here and the prover (compiler/prover.mk) alike.
SECCOMP_OBJS := $(B)/compiler/seccomp_backend.o \
                $(B)/compiler/seccomp_validate.o $(LOGIC_OBJS)
POLC_OBJS += $(BPF_OBJS) $(SECCOMP_OBJS)
# polc loads Z3 with dlopen() when validation first needs it (z3_lazy.h):
# linked, libz3 and libstdc++ would be mapped on every start.
$(B)/polc: LDLIBS := $(filter-out -lz3,$(LDLIBS))

# What the seccomp suites take from the IR, and their shared fixtures.
SECCOMP_IR_OBJS := $(B)/compiler/ir/ir.o $(B)/compiler/tables/constants.o
SECCOMP_FX_OBJS := $(B)/tests/unit/seccomp_fixtures.o
SECCOMP_LIBS := -lcmocka $(LDLIBS)
SECCOMP_DEPS := $(SECCOMP_FX_OBJS) $(SECCOMP_OBJS) $(BPF_OBJS) \
                $(SECCOMP_IR_OBJS)

$(B)/tests/unit/test_bpf: $(B)/tests/unit/test_bpf.o $(BPF_OBJS)
	$(CC) $(CFLAGS) $^ $(SECCOMP_LIBS) -o $@
$(B)/tests/unit/test_wordsat: $(B)/tests/unit/test_wordsat.o \
		$(B)/bpf/wordsat.o $(B)/bpf/bpf_paths.o $(B)/bpf/bpf_interp.o
	$(CC) $(CFLAGS) $^ -lcmocka -o $@
$(B)/tests/unit/test_seccomp: $(B)/tests/unit/test_seccomp.o $(SECCOMP_DEPS)
	$(CC) $(CFLAGS) $^ $(SECCOMP_LIBS) -o $@
# The oracle also compiles examples/ and the standard library: the whole
# front end (env_backend.o and limits_backend.o come from stub.mk, included
# after this file).
ORACLE_DEPS := $(sort $(SECCOMP_DEPS) \
               $(filter-out $(B)/compiler/polc.o,$(POLC_OBJS)) \
               $(B)/compiler/env_backend.o $(B)/compiler/limits_backend.o)
$(B)/tests/unit/test_seccomp_oracle.o: $(B)/lang/parser.h
$(B)/tests/unit/test_seccomp_oracle: $(B)/tests/unit/test_seccomp_oracle.o \
		$(ORACLE_DEPS)
	$(CC) $(CFLAGS) $^ $(SECCOMP_LIBS) -o $@

SECCOMP_TESTS := $(B)/tests/unit/test_bpf $(B)/tests/unit/test_wordsat \
                 $(B)/tests/unit/test_seccomp \
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
