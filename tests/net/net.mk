# The net suite's probes (tests/net/run.sh): built with the host cc and
# linked dynamically; they run inside boxes whose policies have no fs
# section, so the box sees /usr and /lib. glibc's getaddrinfo goes through
# nsswitch, as the box's ordinary programs do.

NET_PROGS := netserve netprobe bpffail
NET_BINS  := $(addprefix $(B)/tests/net/,$(NET_PROGS))
TEST_BINS += $(NET_BINS)
tests: $(NET_BINS)

$(B)/tests/net/%: tests/net/progs/%.c
	@mkdir -p $(dir $@)
	$(CC) -std=c11 -D_GNU_SOURCE $(WARN) -O2 $< -o $@

CHECKS += tests/net/run.sh
