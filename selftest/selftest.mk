# polc selftest's probes (selftest/polc-probe.c): one static musl program
# that polc runs in a box under the user's own artifact. The build tree's
# polc finds it beside itself ($(B)/polc-probe), an installed one in
# $(PREFIX)/lib/polc (compiler/cli/selftest.c).
$(B)/polc-probe: selftest/polc-probe.c $(MUSL_INC)/.stamp
	@mkdir -p $(dir $@)
	$(MUSLCC) -std=c11 -D_GNU_SOURCE $(WARN) -Os -static -s \
	    -isystem $(MUSL_INC) $< -o $@
