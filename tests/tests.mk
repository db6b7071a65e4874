# Unit suites (cmocka), the bad-policy corpus, the fuzz replay gate.
# Behaviour suites (tests/leak) add themselves from stub/stub.mk, the
# seccomp suites from bpf/bpf.mk.

UNIT_LIBS := -lcmocka $(LDLIBS)

$(B)/tests/unit/test_lang: $(B)/tests/unit/test_lang.o $(LANG_OBJS)
	$(CC) $(CFLAGS) $^ $(UNIT_LIBS) -o $@
$(B)/tests/unit/test_ir: $(B)/tests/unit/test_ir.o $(LANG_OBJS) \
		$(COMPILER_LIB_OBJS) $(filter-out $(POLC_MAIN),$(POLC_OBJS))
	$(CC) $(CFLAGS) $(sort $^) $(UNIT_LIBS) -o $@
$(B)/tests/unit/test_compose: $(B)/tests/unit/test_compose.o $(LANG_OBJS) \
		$(COMPILER_LIB_OBJS) $(filter-out $(POLC_MAIN),$(POLC_OBJS))
	$(CC) $(CFLAGS) $(sort $^) $(UNIT_LIBS) -o $@
$(B)/tests/unit/test_polbin: $(B)/tests/unit/test_polbin.o \
		$(B)/artifact/polbin_read.o $(B)/artifact/polbin_write.o \
		$(B)/artifact/sha256.o
	$(CC) $(CFLAGS) $^ $(UNIT_LIBS) -o $@
$(B)/tests/unit/test_tables: $(B)/tests/unit/test_tables.o \
		$(TABLES_OBJS)
	$(CC) $(CFLAGS) $^ $(UNIT_LIBS) -o $@
$(B)/tests/unit/test_nft: $(B)/tests/unit/test_nft.o $(LANG_OBJS) \
		$(COMPILER_LIB_OBJS) $(filter-out $(POLC_MAIN),$(POLC_OBJS))
	$(CC) $(CFLAGS) $(sort $^) $(UNIT_LIBS) -o $@

# The cgroup eBPF backend: its validation, and its programs (loaded with
# libbpf, root) against a model of the policy.
$(B)/tests/unit/test_ebpf: $(B)/tests/unit/test_ebpf.o $(LANG_OBJS) \
		$(COMPILER_LIB_OBJS) $(filter-out $(POLC_MAIN),$(POLC_OBJS))
	$(CC) $(CFLAGS) $(sort $^) $(UNIT_LIBS) -o $@

# The notify broker's program (compiler/backend/broker.c).
$(B)/tests/unit/test_broker: $(B)/tests/unit/test_broker.o $(LANG_OBJS) \
		$(COMPILER_LIB_OBJS) $(filter-out $(POLC_MAIN),$(POLC_OBJS))
	$(CC) $(CFLAGS) $(sort $^) $(UNIT_LIBS) -o $@

# abi/userns.c alone: the user namespace diagnosis, fed file contents.
$(B)/tests/unit/test_userns: $(B)/tests/unit/test_userns.o $(B)/abi/userns.o
	$(CC) $(CFLAGS) $^ -lcmocka -o $@
$(B)/tests/unit/test_userns.o: CFLAGS += -I.

# stub/net/resolve.c alone: polexec's resolver without a network.
$(B)/tests/unit/test_resolve: $(B)/tests/unit/test_resolve.o \
		$(B)/stub/net/resolve.o
	$(CC) $(CFLAGS) $^ -lcmocka -o $@
$(B)/tests/unit/test_resolve.o: CFLAGS += -I.

$(B)/tests/unit/test_lang.o $(B)/tests/unit/test_ir.o \
	$(B)/tests/unit/test_nft.o $(B)/tests/unit/test_compose.o \
	$(B)/tests/unit/test_ebpf.o $(B)/tests/unit/test_broker.o: \
	$(B)/lang/parser.h

UNIT_TESTS := $(B)/tests/unit/test_lang $(B)/tests/unit/test_ir \
              $(B)/tests/unit/test_polbin $(B)/tests/unit/test_tables \
              $(B)/tests/unit/test_nft $(B)/tests/unit/test_compose \
              $(B)/tests/unit/test_ebpf $(B)/tests/unit/test_broker \
              $(B)/tests/unit/test_userns $(B)/tests/unit/test_resolve
TEST_BINS += $(UNIT_TESTS)
CHECKS    += $(UNIT_TESTS) tests/bad-policies/run.sh tests/equiv/run.sh \
             tests/examples/run.sh tests/fuzz/replay.sh tests/output/run.sh \
             tests/schema/run.sh tests/install/run.sh tests/compose/run.sh \
             tests/presets/run.sh tests/shim/run.sh tests/record/run.sh \
             tests/userns/run.sh tests/docs/run.sh tests/selftest/run.sh

# The egress suite (tests/net/run.sh, needs root) and its probes.
include tests/net/net.mk
include tests/broker/broker.mk
# The observation suite (tests/observe/run.sh) and its probes.
include tests/observe/observe.mk
# Real programs under the runtime presets (tests/real/run.sh).
include tests/real/real.mk
# The soak suite (tests/soak/run.sh) and its tool; `make soak`.
include tests/soak/soak.mk
# The container matrix (tests/containers/run.sh, docs/CONTAINERS.md):
# polexec in runc containers shaped as Docker, a devcontainer, the pods,
# a root container and --privileged run it, with both doctors and polc
# selftest beside it; `make check-containers` alone adds every example.
CHECKS    += tests/containers/run.sh
# OCI profiles: import, export, and a real runtime.
include tests/oci/oci.mk

tests: $(TEST_BINS)

-include tests/fuzz/fuzz.mk
