# The notify broker's suite (tests/broker/run.sh, needs root): its probe
# of the ways around the broker, linked dynamically like netprobe (the
# boxes' policies have no fs section).

BROKER_BINS := $(B)/tests/broker/brokerprobe
TEST_BINS += $(BROKER_BINS)
tests: $(BROKER_BINS)

$(B)/tests/broker/%: tests/broker/progs/%.c
	@mkdir -p $(dir $@)
	$(CC) -std=c11 -D_GNU_SOURCE $(WARN) -O2 -pthread $< -o $@

CHECKS += tests/broker/run.sh
