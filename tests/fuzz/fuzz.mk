# libFuzzer harnesses for the policy front end (fuzz_policy), the
# artifact readers of polc (fuzz_polbin), polexec's artifact decoder
# (fuzz_stub) and resolver (fuzz_dns), polc import oci (fuzz_oci) and polc
# suggest's run-record reader (fuzz_record). Included from tests/tests.mk; uses B, VERSION and $(B)/polc
# from the top Makefile.
#
#   make fuzz-build    build the harnesses (clang, ASan + UBSan + libFuzzer)
#   make fuzz-replay   run each harness once over its seeds, the broken
#                      policies and the saved crashes; no exploration, a few
#                      seconds. `make check`'s ASan/UBSan gate.
#   make fuzz          explore, FUZZ_SECONDS (default 60) per harness,
#                      FUZZ_JOBS (default 1) processes each; new inputs go
#                      to $(B)/fuzz/work-*, findings to $(B)/fuzz/findings/
#                      and the run goes on after each. To skip known bugs:
#                      FUZZ_KNOWN="POLC_FUZZ_FMT=valid POLC_FUZZ_CONTROL=ignore"
#                      (see tests/fuzz/crashes/README.md).
#
# The sources are rebuilt with clang under the sanitizers into $(B)/fuzz/;
# the gcc objects of the normal build are not reused. libFuzzer's runtime
# comes with Debian's libclang-rt-14-dev.

FUZZ_CC      ?= clang
FUZZ_SECONDS ?= 60
FUZZ_JOBS    ?= 1
FUZZ_KNOWN   ?=
FUZZ_SAN     := -fsanitize=address,undefined -fno-sanitize-recover=all \
                -fno-omit-frame-pointer
FUZZ_CFLAGS  := -std=c11 -D_GNU_SOURCE -g -O1 -Wall -Wextra \
                -Wno-unused-function -Wno-sign-compare \
                -DPOLC_VERSION='"$(VERSION)"' \
                -Iartifact -Ilang -Icompiler -Ibpf -I$(B)/lang $(FUZZ_SAN)
FUZZ_LDLIBS  := -lseccomp -lnftnl -lmnl -ljansson
FUZZ_ENV     := ASAN_OPTIONS=abort_on_error=1:detect_leaks=1:allocator_may_return_null=1 \
                UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
                POLC_FUZZ_PATH=tests/bad-policies/frag
FUZZ_OPTS    := -max_len=65536 -timeout=10 -rss_limit_mb=2048

# What the harnesses link: the front end, sema, IR, dump and the readers.
FUZZ_LIB_SRCS := $(wildcard lang/*.c) \
	$(wildcard compiler/tables/*.c compiler/ir/*.c compiler/sema/*.c) \
	$(addprefix compiler/,cli/dump.c backend/nft.c backend/nft_print.c \
	  backend/ebpf_print.c backend/sections.c) \
	artifact/polbin_read.c artifact/sha256.c bpf/bpf_disasm.c bpf/wordsat.c
FUZZ_GEN_SRCS := $(B)/lang/parser.c $(B)/lang/lexer.c
FUZZ_LIB_OBJS := $(patsubst %.c,$(B)/fuzz/%.o,$(FUZZ_LIB_SRCS)) \
	$(patsubst $(B)/%.c,$(B)/fuzz/gen/%.o,$(FUZZ_GEN_SRCS))
# fuzz_stub: polexec's decoder, from the stub's own sources (glibc, not
# musl), without util.c's die() and polexec.c's main(): the harness brings
# a die() that returns to it. calloc and free are wrapped so that the
# harness frees what a refusal leaves allocated (see fuzz_stub.c).
FUZZ_STUB_SRCS := $(filter-out stub/lib/util.c stub/polexec.c,\
	$(wildcard stub/*.c stub/*/*.c)) abi/userns.c
FUZZ_STUB_OBJS := $(patsubst %.c,$(B)/fuzz/%.o,$(FUZZ_STUB_SRCS)) \
	$(B)/fuzz/artifact/polbin_read.o $(B)/fuzz/artifact/sha256.o
# fuzz_oci: the importer (compiler/oci/ but the export), and the word
# logic it decides overlapping rules with.
FUZZ_OCI_SRCS := $(filter-out compiler/oci/oci_export.c,\
	  $(wildcard compiler/oci/*.c)) compiler/logic/ir_words.c
FUZZ_OCI_OBJS := $(patsubst %.c,$(B)/fuzz/%.o,$(FUZZ_OCI_SRCS))
# fuzz_record: polc suggest, from the record reader to the policy text,
# with what it compiles the suggestion with.
FUZZ_REC_SRCS := compiler/cli/suggest.c compiler/cli/record_read.c \
	compiler/cli/output.c compiler/support/readfile.c \
	compiler/support/errbuf.c $(wildcard compiler/backend/seccomp*.c) \
	compiler/backend/observe.c compiler/logic/ir_words.c \
	compiler/logic/ir_z3.c $(filter-out bpf/bpf_disasm.c bpf/wordsat.c, \
	  $(wildcard bpf/*.c))
FUZZ_REC_OBJS := $(patsubst %.c,$(B)/fuzz/%.o,$(FUZZ_REC_SRCS))
FUZZ_BINS     := $(B)/fuzz/fuzz_policy $(B)/fuzz/fuzz_polbin \
	$(B)/fuzz/fuzz_stub $(B)/fuzz/fuzz_oci $(B)/fuzz/fuzz_record \
	$(B)/fuzz/fuzz_dns

$(B)/fuzz/%.o: %.c $(B)/lang/parser.h
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(FUZZ_CFLAGS) -fsanitize=fuzzer-no-link -MMD -MP -c $< -o $@

$(B)/fuzz/gen/%.o: $(B)/%.c $(B)/lang/parser.h
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(FUZZ_CFLAGS) -fsanitize=fuzzer-no-link -Wno-unused \
	    -MMD -MP -c $< -o $@

# Explicit rules, so make keeps the objects (no intermediate files).
$(B)/fuzz/fuzz_policy: $(B)/fuzz/tests/fuzz/fuzz_policy.o $(FUZZ_LIB_OBJS)
	$(FUZZ_CC) $(FUZZ_SAN) -fsanitize=fuzzer $^ $(FUZZ_LDLIBS) -o $@
$(B)/fuzz/fuzz_polbin: $(B)/fuzz/tests/fuzz/fuzz_polbin.o $(FUZZ_LIB_OBJS)
	$(FUZZ_CC) $(FUZZ_SAN) -fsanitize=fuzzer $^ $(FUZZ_LDLIBS) -o $@
$(B)/fuzz/fuzz_oci: $(B)/fuzz/tests/fuzz/fuzz_oci.o $(FUZZ_OCI_OBJS) \
		$(FUZZ_LIB_OBJS)
	$(FUZZ_CC) $(FUZZ_SAN) -fsanitize=fuzzer $^ $(FUZZ_LDLIBS) -o $@
$(B)/fuzz/fuzz_record: $(B)/fuzz/tests/fuzz/fuzz_record.o $(FUZZ_REC_OBJS) \
		$(FUZZ_LIB_OBJS)
	$(FUZZ_CC) $(FUZZ_SAN) -fsanitize=fuzzer $^ $(FUZZ_LDLIBS) -ldl -o $@
# fuzz_dns: polexec's resolver, its answer, resolv.conf and hosts readers.
$(B)/fuzz/tests/fuzz/fuzz_dns.o: FUZZ_CFLAGS += -Istub/net
$(B)/fuzz/fuzz_dns: $(B)/fuzz/tests/fuzz/fuzz_dns.o $(B)/fuzz/stub/net/resolve.o
	$(FUZZ_CC) $(FUZZ_SAN) -fsanitize=fuzzer $^ -o $@
$(B)/fuzz/tests/fuzz/fuzz_stub.o $(FUZZ_STUB_OBJS): FUZZ_CFLAGS += -Istub -I.
$(B)/fuzz/fuzz_stub: $(B)/fuzz/tests/fuzz/fuzz_stub.o $(FUZZ_STUB_OBJS)
	$(FUZZ_CC) $(FUZZ_SAN) -fsanitize=fuzzer \
	    -Wl,--wrap=calloc,--wrap=free $^ -o $@

# Seed artifacts: the seed policies compiled by the polc of this tree, when
# it is built (`make check` builds it first). Generated on every run, never
# committed: tests/fuzz/corpus-polbin/ only holds them between runs.
FUZZ_SEED_POLICIES := $(wildcard tests/fuzz/corpus-policy/*.pol)
FUZZ_SEEDS_CMD = mkdir -p tests/fuzz/corpus-polbin; \
	if [ -x $(B)/polc ]; then \
	    for p in $(FUZZ_SEED_POLICIES); do \
	        $(B)/polc build -I tests/bad-policies/frag $$p \
	            -o tests/fuzz/corpus-polbin/$$(basename $$p .pol).polbin \
	            >/dev/null 2>&1 || echo "fuzz: polc refused seed $$p"; \
	    done; \
	else echo "fuzz: no $(B)/polc, polbin seeds not refreshed"; fi

# fuzz_stub's seeds: every policy polc compiles for the suites, and the
# net none/filtered ones of tests/fuzz/corpus-stub-policy/. Generated the
# same way into tests/fuzz/corpus-stub/ (*.polbin, not committed); the
# minimized corpus kept there (files named by their SHA-1) is.
FUZZ_STUB_SEED_POLICIES := $(wildcard examples/*.pol tests/leak/*.pol tests/observe/*.pol \
	tests/fuzz/corpus-stub-policy/*.pol) $(FUZZ_SEED_POLICIES)
FUZZ_STUB_SEEDS_CMD = mkdir -p tests/fuzz/corpus-stub; \
	if [ -x $(B)/polc ]; then \
	    for p in $(FUZZ_STUB_SEED_POLICIES); do \
	        d=$$(basename $$(dirname $$p)); \
	        $(B)/polc build -I tests/bad-policies/frag $$p \
	            -o tests/fuzz/corpus-stub/$$d-$$(basename $$p .pol).polbin \
	            >/dev/null 2>&1 || echo "fuzz: polc refused seed $$p"; \
	    done; \
	else echo "fuzz: no $(B)/polc, stub seeds not refreshed"; fi

# A dictionary of the language's words, so mutations speak it.
FUZZ_DICT_WORDS := policy fragment use landlock abi require best_effort fs \
	ro rx rw rwx optional follow allow on net none filtered host deny \
	loopback connect bind tcp udp syscalls default log trap kill \
	kill_process kill_thread errno badarch if in limits memory pids \
	nofile cpu wall fsize core grace env pass set secret from file to \
	GiB MiB ms AF_INET AF_UNIX CLONE_NEWUSER NAMESPACE_FLAGS O_RDONLY \
	EPERM socket clone openat domain flags arg0 read write 0x \
	127.0.0.1 ::1 10.0.0.0/8 example.com:443 /usr ~/ 8000-8100 \
	tmpfs dev proc exec socket connect_unix user nobody 65534:65534
$(B)/fuzz/policy.dict: tests/fuzz/fuzz.mk
	@mkdir -p $(dir $@)
	@{ for w in $(FUZZ_DICT_WORDS); do printf '"%s"\n' "$$w"; done; \
	   for w in '{' '}' '(' ')' '==' '!=' '<=' '>=' '&&' '&' '|' ',' \
	            '=' ';' '$${' '[' ']' '*' '#' '\x0a' '\x09' '\"' '\\'; do \
	       printf '"%s"\n' "$$w"; done; } > $@

fuzz-build: $(FUZZ_BINS)

# Every file once, each harness over its own inputs: the seeds, the broken
# policies, and the saved findings
# (tests/fuzz/crashes/{policy,polbin,stub,oci,record,dns}-*). fuzz_oci's seeds
# are tests/fuzz/corpus-oci/ (small profiles, and what fuzzing kept) and
# bench/profiles/; fuzz_record's, tests/fuzz/corpus-record/ (records of
# the observe suite, and hostile hand-made ones).
# libFuzzer stops at the first failing input, so the run restarts after it
# until every input ran; each failure is one line, then a summary.
FUZZ_REPLAY_FN = replay() { \
	bin=$$1; log=$$2; shift 2; n=$$\#; bad=0; \
	while [ $$\# -gt 0 ]; do \
	    if env $(FUZZ_ENV) $$bin $(FUZZ_OPTS) "$$@" >$$log 2>&1; then \
	        break; fi; \
	    cur=$$(sed -n 's/^Running: //p' $$log | tail -n 1); \
	    why=$$(grep -m 1 -E '^fuzz_[a-z]*: |ERROR: |runtime error|SUMMARY' \
	        $$log); \
	    echo "FAIL $${cur:-?}: $$why"; bad=$$((bad + 1)); \
	    [ -n "$$cur" ] || break; \
	    while [ $$\# -gt 0 ]; do \
	        x=$$1; shift; [ "$$x" = "$$cur" ] && break; done; \
	done; \
	echo "fuzz-replay: $$(basename $$bin): $$n inputs, $$bad failed"; \
	[ $$bad -eq 0 ]; }

fuzz-replay: $(FUZZ_BINS)
	@$(FUZZ_SEEDS_CMD)
	@$(FUZZ_STUB_SEEDS_CMD)
	@$(FUZZ_REPLAY_FN); rc=0; \
	replay $(B)/fuzz/fuzz_policy $(B)/fuzz/replay-policy.log \
	    $$(find tests/fuzz/corpus-policy tests/bad-policies tests/fuzz/crashes \
	        -type f \( -name '*.pol' -o -name 'policy-*' \) | sort) || rc=1; \
	replay $(B)/fuzz/fuzz_polbin $(B)/fuzz/replay-polbin.log \
	    $$(find tests/fuzz/corpus-polbin tests/bad-artifacts tests/fuzz/crashes \
	        -type f \( -name '*.polbin' -o -name 'polbin-*' \) 2>/dev/null | \
	        sort) || rc=1; \
	replay $(B)/fuzz/fuzz_stub $(B)/fuzz/replay-stub.log \
	    $$(find tests/fuzz/corpus-stub tests/bad-artifacts tests/fuzz/crashes \
	        -type f \( -path '*/corpus-stub/*' -o -name '*.polbin' \
	        -o -name 'stub-*' \) 2>/dev/null | sort) || rc=1; \
	replay $(B)/fuzz/fuzz_oci $(B)/fuzz/replay-oci.log \
	    $$(find tests/fuzz/corpus-oci bench/profiles tests/fuzz/crashes \
	        -type f \( -path '*/corpus-oci/*' -o -name '*.json' \
	        -o -name 'oci-*' \) 2>/dev/null | sort) || rc=1; \
	replay $(B)/fuzz/fuzz_dns $(B)/fuzz/replay-dns.log \
	    $$(find tests/fuzz/corpus-dns tests/fuzz/crashes -type f \
	        \( -path '*/corpus-dns/*' -o -name 'dns-*' \) \
	        2>/dev/null | sort) || rc=1; \
	replay $(B)/fuzz/fuzz_record $(B)/fuzz/replay-record.log \
	    $$(find tests/fuzz/corpus-record tests/fuzz/crashes -type f \
	        \( -path '*/corpus-record/*' -o -name 'record-*' \) \
	        2>/dev/null | sort) || rc=1; \
	exit $$rc

FUZZ_EXPLORE := -fork=$(FUZZ_JOBS) -ignore_crashes=1 -ignore_timeouts=1 \
                -ignore_ooms=1 -max_total_time=$(FUZZ_SECONDS)

fuzz: $(FUZZ_BINS) $(B)/fuzz/policy.dict
	@$(FUZZ_SEEDS_CMD)
	@$(FUZZ_STUB_SEEDS_CMD)
	@mkdir -p $(B)/fuzz/work-policy $(B)/fuzz/work-polbin \
	    $(B)/fuzz/work-stub $(B)/fuzz/work-oci $(B)/fuzz/work-record \
	    $(B)/fuzz/work-dns \
	    $(B)/fuzz/findings
	env $(FUZZ_ENV) $(FUZZ_KNOWN) $(B)/fuzz/fuzz_policy $(FUZZ_OPTS) \
	    $(FUZZ_EXPLORE) -dict=$(B)/fuzz/policy.dict \
	    -artifact_prefix=$(B)/fuzz/findings/policy- \
	    $(B)/fuzz/work-policy tests/fuzz/corpus-policy tests/bad-policies \
	    >$(B)/fuzz/fuzz-policy.log 2>&1
	env $(FUZZ_ENV) $(FUZZ_KNOWN) $(B)/fuzz/fuzz_polbin $(FUZZ_OPTS) \
	    $(FUZZ_EXPLORE) -artifact_prefix=$(B)/fuzz/findings/polbin- \
	    $(B)/fuzz/work-polbin tests/fuzz/corpus-polbin \
	    >$(B)/fuzz/fuzz-polbin.log 2>&1
	env $(FUZZ_ENV) $(FUZZ_KNOWN) $(B)/fuzz/fuzz_stub $(FUZZ_OPTS) \
	    $(FUZZ_EXPLORE) -dict=tests/fuzz/stub.dict \
	    -artifact_prefix=$(B)/fuzz/findings/stub- \
	    $(B)/fuzz/work-stub tests/fuzz/corpus-stub \
	    >$(B)/fuzz/fuzz-stub.log 2>&1
	env $(FUZZ_ENV) $(FUZZ_KNOWN) $(B)/fuzz/fuzz_oci $(FUZZ_OPTS) \
	    $(FUZZ_EXPLORE) -dict=tests/fuzz/oci.dict \
	    -artifact_prefix=$(B)/fuzz/findings/oci- \
	    $(B)/fuzz/work-oci tests/fuzz/corpus-oci bench/profiles \
	    >$(B)/fuzz/fuzz-oci.log 2>&1
	env $(FUZZ_ENV) $(FUZZ_KNOWN) $(B)/fuzz/fuzz_record $(FUZZ_OPTS) \
	    $(FUZZ_EXPLORE) -dict=tests/fuzz/record.dict \
	    -artifact_prefix=$(B)/fuzz/findings/record- \
	    $(B)/fuzz/work-record tests/fuzz/corpus-record \
	    >$(B)/fuzz/fuzz-record.log 2>&1
	env $(FUZZ_ENV) $(FUZZ_KNOWN) $(B)/fuzz/fuzz_dns $(FUZZ_OPTS) \
	    $(FUZZ_EXPLORE) -dict=tests/fuzz/dns.dict \
	    -artifact_prefix=$(B)/fuzz/findings/dns- \
	    $(B)/fuzz/work-dns tests/fuzz/corpus-dns \
	    >$(B)/fuzz/fuzz-dns.log 2>&1
	@tail -n 1 $(B)/fuzz/fuzz-policy.log $(B)/fuzz/fuzz-polbin.log \
	    $(B)/fuzz/fuzz-stub.log $(B)/fuzz/fuzz-oci.log
	@n=$$(ls $(B)/fuzz/findings | wc -l); \
	echo "fuzz: $$n findings in $(B)/fuzz/findings/ (replay one by" \
	    "running its harness on it)"; [ "$$n" -eq 0 ]

.PHONY: fuzz fuzz-build fuzz-replay
