# polc import oci / export oci against libseccomp's filter built as runc
# builds it (test_oci), the command line's refusals and fmt-clean output
# (run.sh), and a real container runtime (runc.sh, root). Included from
# tests/tests.mk.

OCI_TEST_OBJS := $(B)/tests/oci/test_oci.o $(B)/tests/oci/runc_model.o \
                 $(B)/tests/oci/grid.o
$(B)/tests/oci/test_oci.o $(B)/tests/oci/runc_model.o $(B)/tests/oci/grid.o: \
	CFLAGS += -Itests/oci
$(B)/tests/oci/test_oci.o: $(B)/lang/parser.h
$(B)/tests/oci/test_oci: $(OCI_TEST_OBJS) \
		$(filter-out $(POLC_MAIN),$(POLC_OBJS))
	$(CC) $(CFLAGS) $^ -lcmocka $(LDLIBS) -o $@

# A static probe the runc suite runs inside the container.
$(B)/tests/oci/probe: tests/oci/probe.c
	@mkdir -p $(dir $@)
	$(MUSLCC) -static -O2 -Wall -Wextra -Werror $< -o $@

TEST_BINS += $(B)/tests/oci/test_oci $(B)/tests/oci/probe
CHECKS    += $(B)/tests/oci/test_oci tests/oci/run.sh tests/oci/runc.sh
