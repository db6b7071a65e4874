# The compiler: semantic pass, IR, backends, validation, artifact, CLI.
# One fragment per stage folder, in pipeline order.
include compiler/tables/tables.mk
include compiler/support/support.mk
include compiler/ir/ir.mk
include compiler/logic/logic.mk

COMPILER_LIB_OBJS := $(IR_OBJS) $(B)/compiler/sema.o \
             $(B)/compiler/sema_values.o $(B)/compiler/sema_syscalls.o \
             $(B)/compiler/sema_fs.o $(B)/compiler/sema_net.o \
             $(B)/compiler/sema_env_limits.o $(B)/compiler/companions.o \
             $(TABLES_OBJS) \
             $(B)/compiler/dump.o $(B)/compiler/build.o \
             $(B)/compiler/backends.o $(SUPPORT_OBJS) \
             $(B)/compiler/nft_backend.o \
             $(B)/compiler/nft_print.o
POLC_OBJS += $(COMPILER_LIB_OBJS) $(B)/compiler/polc.o

$(B)/compiler/polc.o: CFLAGS += -DPOLC_STDLIB_DIR='"$(STDLIB_DIR)"'

# The egress backend builds nfnetlink messages with libnftnl.
LDLIBS += -lnftnl -lmnl
