# The Landlock backend, compiler side (issue 4). Its Landlock constants come
# from stub/landlock_compat.h, shared with polexec.
POLC_OBJS += $(B)/compiler/landlock_backend.o
$(B)/compiler/landlock_backend.o: CFLAGS += -Istub
