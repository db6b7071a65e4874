# Helpers for every stage: bounded file reading, whole-file writing, error
# messages into buffers.
SUPPORT_OBJS := $(B)/compiler/support/readfile.o $(B)/compiler/support/errbuf.o \
                $(B)/compiler/support/writefile.o
POLC_OBJS += $(SUPPORT_OBJS)
