# The IR as logic: rules as word clauses and as Z3 terms, for the
# translation validator and the prover alike.
LOGIC_OBJS := $(B)/compiler/logic/ir_words.o $(B)/compiler/logic/ir_z3.o
POLC_OBJS += $(LOGIC_OBJS)
