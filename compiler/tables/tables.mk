# The kernel's tables: named constants, syscall argument names and widths.
TABLES_OBJS := $(B)/compiler/tables/constants.o \
               $(B)/compiler/tables/syscall_args.o
POLC_OBJS += $(TABLES_OBJS)
