# OCI / Docker seccomp profiles: the import (a profile to policy text,
# which it compiles once as a check) and the export (a policy's syscalls
# layer to a profile, from backend/seccomp_oci.c's regions). The names
# both use, the import's stages in the order oci_import.c runs them, the
# export.
OCI_OBJS  := $(addprefix $(B)/compiler/oci/,oci_names.o oci_import.o \
               oci_json.o oci_profile.o oci_entry.o oci_filter.o \
               oci_translate.o oci_meet.o oci_emit.o oci_export.o)
POLC_OBJS += $(OCI_OBJS)

# OCI profiles are JSON, read with jansson (polc only, never polexec).
LDLIBS += -ljansson
