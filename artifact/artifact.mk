# The container, shared by polc and polexec.
POLC_OBJS += $(B)/artifact/polbin_read.o $(B)/artifact/polbin_write.o \
             $(B)/artifact/sha256.o
