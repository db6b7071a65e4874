# The prover: polc check --boundary and polc diff (issue 6).
PROVE_OBJS := $(B)/compiler/prove/prove.o $(B)/compiler/prove/prove_load.o \
              $(B)/compiler/prove/prove_eval.o $(B)/compiler/prove/prove_sys.o \
              $(B)/compiler/prove/prove_fs.o $(B)/compiler/prove/prove_net.o \
              $(B)/compiler/prove/prove_misc.o $(B)/compiler/prove/prove_z3.o
POLC_OBJS += $(PROVE_OBJS)

# Two 400-syscall policies with argument rules, checked RUNS times.
bench-prove: $(B)/polc $(B)/bench/gen_policy
	bench/prove_bench.sh

.PHONY: bench-prove
bench: bench-prove

# The prover's suites: unit cases, the random property test, the corpus.
# They link every stage up to the prover (POLC_OBJS so far).
PROVE_TEST_OBJS := $(POLC_OBJS)
PROVE_TEST_LINK = $(CC) $(CFLAGS) $^ -lcmocka $(LDLIBS) -o $@
$(B)/tests/prover/test_prove.o $(B)/tests/prover/test_prove_random.o: \
	$(B)/lang/parser.h
$(B)/tests/prover/test_prove: $(B)/tests/prover/test_prove.o \
		$(PROVE_TEST_OBJS)
	$(PROVE_TEST_LINK)
$(B)/tests/prover/test_prove_random: $(B)/tests/prover/test_prove_random.o \
		$(PROVE_TEST_OBJS)
	$(PROVE_TEST_LINK)

# The differential test: verdicts against the compiled artifacts, through
# a model of its own (tests/prover/diff_*.c); make check runs 400 pairs
# of seed 1, `make prove-fuzz SEED=N COUNT=M` as many as asked.
PROVE_DIFF_OBJS := $(B)/tests/prover/test_prove_diff.o \
                   $(B)/tests/prover/diff_gen.o $(B)/tests/prover/diff_model.o
$(B)/tests/prover/test_prove_diff.o: $(B)/lang/parser.h
$(B)/tests/prover/test_prove_diff: $(PROVE_DIFF_OBJS) $(PROVE_TEST_OBJS)
	$(PROVE_TEST_LINK)

PROVE_TESTS := $(B)/tests/prover/test_prove $(B)/tests/prover/test_prove_random \
               $(B)/tests/prover/test_prove_diff
TEST_BINS += $(PROVE_TESTS)
CHECKS    += $(PROVE_TESTS) tests/prover/run.sh
tests: $(PROVE_TESTS)

SEED  ?= $(shell date +%s)
COUNT ?= 20000
prove-fuzz: $(B)/tests/prover/test_prove_diff
	$(B)/tests/prover/test_prove_diff $(SEED) $(COUNT)

.PHONY: prove-fuzz
