# polc's command line: build, dump, doctor, the output writer, import and
# export of OCI profiles, and main() for every command.
CLI_OBJS  := $(B)/compiler/cli/build.o $(B)/compiler/cli/dump.o \
             $(B)/compiler/cli/doctor.o $(B)/compiler/cli/output.o \
             $(B)/compiler/cli/oci.o $(B)/compiler/cli/oci_import.o \
             $(B)/compiler/cli/oci_export.o $(B)/compiler/cli/suggest.o \
             $(B)/compiler/cli/record_read.o
POLC_MAIN := $(B)/compiler/cli/polc.o
POLC_OBJS += $(CLI_OBJS) $(POLC_MAIN)

# OCI profiles are JSON, read and written with jansson (polc only, never
# polexec).
LDLIBS += -ljansson

$(POLC_MAIN): CFLAGS += -DPOLC_STDLIB_DIR='"$(STDLIB_DIR)"'
# polc loads Z3 with dlopen() when validation first needs it
# (bpf/z3_lazy.h): linked, libz3 and libstdc++ would be mapped on every
# start.
$(B)/polc: LDLIBS := $(filter-out -lz3,$(LDLIBS))
