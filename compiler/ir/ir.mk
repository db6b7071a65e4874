# The IR, the spine: the model and its rules, the codec, the printer.
IR_OBJS := $(B)/compiler/ir/ir.o $(B)/compiler/ir/ir_codec.o \
           $(B)/compiler/ir/ir_print.o
POLC_OBJS += $(IR_OBJS)
