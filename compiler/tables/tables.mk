# The kernel's tables: named constants, syscall argument names and widths,
# syscall names and numbers (syscalls_gen.c, made by gen_syscalls.py).
TABLES_OBJS := $(B)/compiler/tables/constants.o \
               $(B)/compiler/tables/syscall_args.o \
               $(B)/compiler/tables/syscalls.o \
               $(B)/compiler/tables/syscalls_gen.o
POLC_OBJS += $(TABLES_OBJS)

# The syscall table is generated from a kernel tree's own tables and
# committed: `make syscall-table KERNEL=/path/to/linux` regenerates it
# (docs/SECCOMP.md, "The syscall table").
syscall-table:
	@test -n "$(KERNEL)" || { \
	    echo "usage: make syscall-table KERNEL=/path/to/linux" >&2; exit 2; }
	compiler/tables/gen_syscalls.py $(KERNEL) \
	    > compiler/tables/syscalls_gen.c.tmp
	mv compiler/tables/syscalls_gen.c.tmp compiler/tables/syscalls_gen.c

.PHONY: syscall-table
