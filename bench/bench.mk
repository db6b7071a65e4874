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
bench-net: $(B)/polc $(B)/polexec
	B=$(B) bench/net_startup.sh
.PHONY: bench-net
