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
include compiler/oci/oci.mk
include compiler/cli/cli.mk

# Every compiler object but main(): what the later suites link.
COMPILER_LIB_OBJS := $(TABLES_OBJS) $(SUPPORT_OBJS) $(IR_OBJS) \
                     $(LOGIC_OBJS) $(SEMA_OBJS) $(BACKEND_OBJS) \
                     $(PROVE_OBJS) $(OCI_OBJS) $(CLI_OBJS)
