# The soak suite (tests/soak/run.sh, needs root): its tool, a static glibc
# program so that the boxes' policies need grant nothing but its folder.
# `make check` runs the bounded form; `make soak` the full figures.

SOAK_BINS := $(B)/tests/soak/soaktool
TEST_BINS += $(SOAK_BINS)
tests: $(SOAK_BINS)

$(B)/tests/soak/%: tests/soak/progs/%.c
	@mkdir -p $(dir $@)
	$(CC) -std=c11 -D_GNU_SOURCE $(WARN) -O2 -static $< -o $@

CHECKS += tests/soak/run.sh

soak: all tests
	SOAK_SERIAL=1000 SOAK_PARALLEL=32 SOAK_WAVES=10 SOAK_KILLS=500 \
	    tests/soak/run.sh

.PHONY: soak
