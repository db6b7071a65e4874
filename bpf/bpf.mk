# The classic-BPF model (bpf/), its unit suites. The seccomp backend and
# its translation validator built on it have theirs in
# compiler/backend/backend.mk.

BPF_OBJS := $(B)/bpf/bpf_builder.o $(B)/bpf/bpf_disasm.o \
            $(B)/bpf/bpf_interp.o $(B)/bpf/bpf_symbolic.o \
            $(B)/bpf/bpf_symbolic_merge.o $(B)/bpf/wordsat.o \
            $(B)/bpf/bpf_paths.o $(B)/bpf/z3_lazy.o
POLC_OBJS += $(BPF_OBJS)

$(B)/tests/unit/test_bpf: $(B)/tests/unit/test_bpf.o $(BPF_OBJS)
	$(CC) $(CFLAGS) $^ -lcmocka $(LDLIBS) -o $@
$(B)/tests/unit/test_wordsat: $(B)/tests/unit/test_wordsat.o \
		$(B)/bpf/wordsat.o $(B)/bpf/bpf_paths.o $(B)/bpf/bpf_interp.o
	$(CC) $(CFLAGS) $^ -lcmocka -o $@

BPF_TESTS := $(B)/tests/unit/test_bpf $(B)/tests/unit/test_wordsat
TEST_BINS += $(BPF_TESTS)
CHECKS    += $(BPF_TESTS)
tests: $(BPF_TESTS)

include bpf/egress/egress.mk
