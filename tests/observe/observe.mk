# The observation suite (tests/observe/run.sh): denials, learn mode,
# destructive calls, the supervisor failing closed. Its probes are static
# (glibc) so that strict policies stay small; polexec-hooks is polexec
# with the test hooks of stub/observe/supervise.c (POLEXEC_TEST_HOOKS: a
# supervisor that receives and never answers, or none at all), built for
# this suite only and never installed.

OBS_PROGS := obsprobe auditctl
OBS_BINS  := $(addprefix $(B)/tests/observe/,$(OBS_PROGS)) \
             $(B)/tests/observe/polexec-hooks
TEST_BINS += $(OBS_BINS)
tests: $(OBS_BINS)

$(B)/tests/observe/%: tests/observe/progs/%.c
	@mkdir -p $(dir $@)
	$(CC) -std=c11 -D_GNU_SOURCE $(WARN) -O2 -static $< -o $@

$(B)/tests/observe/polexec-hooks: $(POLEXEC_SRCS) $(POLEXEC_HDRS) \
		$(MUSL_INC)/.stamp
	@mkdir -p $(dir $@)
	$(MUSLCC) $(POLEXEC_CFLAGS) -DPOLEXEC_TEST_HOOKS $(POLEXEC_SRCS) -o $@

CHECKS += tests/observe/run.sh
