# The compiler: semantic pass, IR, backends, validation, artifact, CLI.
# One fragment per stage folder, in pipeline order.
include compiler/tables/tables.mk
include compiler/support/support.mk
include compiler/ir/ir.mk
include compiler/logic/logic.mk
include compiler/sema/sema.mk

COMPILER_LIB_OBJS := $(IR_OBJS) $(SEMA_OBJS) \
             $(TABLES_OBJS) \
             $(B)/compiler/dump.o $(B)/compiler/build.o \
             $(B)/compiler/backends.o $(SUPPORT_OBJS) \
             $(B)/compiler/nft_backend.o \
             $(B)/compiler/nft_print.o
POLC_OBJS += $(COMPILER_LIB_OBJS) $(B)/compiler/polc.o

$(B)/compiler/polc.o: CFLAGS += -DPOLC_STDLIB_DIR='"$(STDLIB_DIR)"'

# The egress backend builds nfnetlink messages with libnftnl.
LDLIBS += -lnftnl -lmnl
