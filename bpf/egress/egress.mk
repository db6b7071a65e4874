# The cgroup eBPF egress programs (bpf/egress/, docs/EGRESS.md): compiled
# with clang -target bpf at polc's build (-g: the maps are BTF-defined, and
# libbpf reads them from the BTF), then put into polc as bytes, which
# compiler/backend/ebpf.c reads with libbpf when it writes an EBPF section.
BPF_CLANG  ?= clang
EGRESS_OBJ := $(B)/bpf/egress/egress.bpf.o

$(EGRESS_OBJ): bpf/egress/egress.bpf.c artifact/sections.h
	@mkdir -p $(dir $@)
	$(BPF_CLANG) -target bpf -O2 -g -Wall -Werror -Iartifact \
	    -I/usr/include/$(shell $(CC) -dumpmachine) -c $< -o $@

$(B)/bpf/egress/egress_obj.c: $(EGRESS_OBJ)
	cd $(dir $<) && xxd -i -n polc_egress_obj $(notdir $<) >$(notdir $@).tmp
	mv $@.tmp $@

$(B)/bpf/egress/egress_obj.o: $(B)/bpf/egress/egress_obj.c
	$(CC) -O2 -c $< -o $@

EGRESS_OBJS := $(B)/bpf/egress/egress_obj.o
