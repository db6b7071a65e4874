# The semantic pass: the syntax tree to a canonical IR, the only reader of
# the tree; the egress companions every policy carries.
SEMA_OBJS := $(B)/compiler/sema/sema.o $(B)/compiler/sema/sema_values.o \
             $(B)/compiler/sema/sema_syscalls.o $(B)/compiler/sema/sema_fs.o \
             $(B)/compiler/sema/sema_net.o \
             $(B)/compiler/sema/sema_env_limits.o \
             $(B)/compiler/sema/sema_compose.o \
             $(B)/compiler/sema/companions.o
POLC_OBJS += $(SEMA_OBJS)
