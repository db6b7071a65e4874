# Benchmarks: never part of `make check`; run `make bench`.
$(B)/bench/gen_policy: bench/gen_policy.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $< -lseccomp -o $@

bench-build: $(B)/polc $(B)/bench/gen_policy
	bench/polc_build.sh

bench: bench-build
.PHONY: bench bench-build

# The network layer's start-up against unshare, bwrap and pasta alone
# (issue 5), in a throwaway network namespace; needs root.
bench-net: $(B)/polc $(B)/polexec $(B)/bench/resolve_time
	B=$(B) bench/net_startup.sh

# polexec's resolver alone, built as polexec is (musl, static).
$(B)/bench/resolve_time: bench/resolve_time.c stub/net/resolve.c \
		stub/net/resolve.h artifact/polbin.h $(MUSL_INC)/.stamp
	@mkdir -p $(dir $@)
	$(MUSLCC) -std=c11 -D_GNU_SOURCE $(WARN) -O2 -static -Istub/net \
	    -Iartifact -isystem $(MUSL_INC) bench/resolve_time.c \
	    stub/net/resolve.c -o $@
.PHONY: bench-net

# The cgroup eBPF egress backend against the namespace backend and bare
# (issue 25): start, peak RSS, curl a connection per request, 1 GiB.
bench-ebpf: $(B)/polc $(B)/polexec
	B=$(B) bench/ebpf.sh
.PHONY: bench-ebpf

# The notify broker against the namespace backend and bare (issue 26):
# connect latency, curl a connection per request, 1 GiB; and the broker
# suite's sibling-thread race at 100,000 connects.
bench-broker: $(B)/polc $(B)/polexec $(B)/tests/broker/brokerprobe $(B)/tests/net/netserve
	B=$(B) bench/broker.sh
bench-broker-soak: all tests
	BROKER_RACE_N=100000 BROKER_ONLY=t_broker_race_sockaddr \
	    tests/broker/run.sh
.PHONY: bench-broker bench-broker-soak

# Codegen on a real profile (issue 14): an OCI profile imported, its
# program's instructions per syscall against libseccomp's for the same
# profile. PROFILE defaults to our own Docker-sized one.
PROFILE ?= bench/profiles/agent.json
$(B)/bench/oci_insns.o: CFLAGS += -Itests/oci
$(B)/bench/oci_insns: $(B)/bench/oci_insns.o $(B)/tests/oci/runc_model.o \
		$(B)/tests/oci/grid.o \
		$(filter-out $(POLC_MAIN),$(POLC_OBJS))
	$(CC) $(CFLAGS) $^ $(LDLIBS) -o $@

bench-oci: $(B)/bench/oci_insns
	$(B)/bench/oci_insns $(PROFILE)
.PHONY: bench-oci

# Observing denials (issue 12): a denied call answered by the supervisor
# against the kernel alone, an allowed one, a workload, and git checkout
# under `observe destructive`.
bench-observe: $(B)/polc $(B)/polexec tests
	B=$(B) bench/observe.sh
.PHONY: bench-observe

# Real workloads (issue 13): tests/real's, larger, bare, under polexec
# with their presets and under bwrap with the same view; needs root (a
# network namespace of its own for the loopback web servers).
bench-real: $(B)/polc $(B)/polexec
	B=$(B) bench/real.sh
.PHONY: bench-real
