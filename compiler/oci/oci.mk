# OCI / Docker seccomp profiles: the import (a profile to policy text,
# which it compiles once as a check) and the export (a policy's syscalls
# layer to a profile, from backend/seccomp_oci.c's regions).
OCI_OBJS  := $(B)/compiler/oci/oci_names.o $(B)/compiler/oci/oci_import.o \
             $(B)/compiler/oci/oci_export.o
POLC_OBJS += $(OCI_OBJS)

# OCI profiles are JSON, read with jansson (polc only, never polexec).
LDLIBS += -ljansson
