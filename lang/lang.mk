# The front end: flex lexer, bison parser, syntax tree, diagnostics, fmt.
$(B)/lang/parser.c $(B)/lang/parser.h &: lang/parser.y
	@mkdir -p $(B)/lang
	bison -Wall -Werror -o $(B)/lang/parser.c --defines=$(B)/lang/parser.h $<

$(B)/lang/lexer.c: lang/lexer.l $(B)/lang/parser.h
	@mkdir -p $(B)/lang
	flex -o $@ $<

# Generated code is not ours to lint; it still builds with -Werror.
GEN_CFLAGS := $(filter-out -Wmissing-prototypes -Wcast-qual -Wundef \
              -Wformat-nonliteral -Wshadow,$(CFLAGS)) -Wno-unused-function \
              -Ilang

$(B)/lang/parser.o: $(B)/lang/parser.c
	$(CC) $(GEN_CFLAGS) -c $< -o $@
$(B)/lang/lexer.o: $(B)/lang/lexer.c
	$(CC) $(GEN_CFLAGS) -c $< -o $@

$(B)/lang/ast.o $(B)/lang/fmt.o: $(B)/lang/parser.h

LANG_OBJS := $(B)/lang/parser.o $(B)/lang/lexer.o $(B)/lang/ast.o \
             $(B)/lang/arena.o $(B)/lang/diag.o $(B)/lang/fmt.o
POLC_OBJS += $(LANG_OBJS)
