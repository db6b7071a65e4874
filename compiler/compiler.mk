# The compiler, one fragment per stage folder, in pipeline order. Each adds
# its objects to POLC_OBJS and its own suites, so that a suite links the
# stages up to its own. docs/ARCHITECTURE.md draws the stages.
include compiler/tables/tables.mk
include compiler/support/support.mk
include compiler/ir/ir.mk
include compiler/logic/logic.mk
include compiler/sema/sema.mk
include compiler/backend/backend.mk
include compiler/prove/prove.mk

POLC_OBJS += $(B)/compiler/dump.o $(B)/compiler/build.o

# Every compiler object but main(): what the suites link.
COMPILER_LIB_OBJS := $(TABLES_OBJS) $(SUPPORT_OBJS) $(IR_OBJS) \
                     $(LOGIC_OBJS) $(SEMA_OBJS) $(BACKEND_OBJS) $(PROVE_OBJS) \
                     $(B)/compiler/dump.o $(B)/compiler/build.o
POLC_OBJS += $(B)/compiler/polc.o

$(B)/compiler/polc.o: CFLAGS += -DPOLC_STDLIB_DIR='"$(STDLIB_DIR)"'
# polc loads Z3 with dlopen() when validation first needs it
# (bpf/z3_lazy.h): linked, libz3 and libstdc++ would be mapped on every
# start.
$(B)/polc: LDLIBS := $(filter-out -lz3,$(LDLIBS))
