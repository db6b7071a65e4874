# polc's command line: build, dump, doctor, the output writer, suggest
# (run records read with jansson, like OCI profiles), import and
# export of OCI profiles (the files around compiler/oci/), and main() for
# every command.
CLI_OBJS  := $(B)/compiler/cli/build.o $(B)/compiler/cli/dump.o \
             $(B)/compiler/cli/doctor.o $(B)/compiler/cli/doctor_box.o \
             $(B)/compiler/cli/output.o \
             $(B)/compiler/cli/oci_cmd.o $(B)/compiler/cli/suggest.o \
             $(B)/compiler/cli/record_read.o $(B)/compiler/cli/selftest.o
POLC_MAIN := $(B)/compiler/cli/polc.o
# polc doctor names why a user namespace cannot be made with polexec's
# own words: abi/userns.c, libc only.
CLI_OBJS  += $(B)/abi/userns.o
$(B)/compiler/cli/doctor.o: CFLAGS += -I.
POLC_OBJS += $(CLI_OBJS) $(POLC_MAIN)

$(POLC_MAIN): CFLAGS += -DPOLC_STDLIB_DIR='"$(STDLIB_DIR)"'
# polc loads Z3 with dlopen() when validation first needs it
# (bpf/z3_lazy.h): linked, libz3 and libstdc++ would be mapped on every
# start.
$(B)/polc: LDLIBS := $(filter-out -lz3,$(LDLIBS))
