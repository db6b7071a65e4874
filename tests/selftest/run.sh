#!/bin/sh
# SPDX-License-Identifier: MIT
#
# polc selftest (docs/SELFTEST.md), as a user runs it after installing
# polc: the installed tree (make install into a DESTDIR, bound over
# /usr/local in this suite's own mount namespace, so the probe sits under
# /usr as a package puts it). Every example policy is green as root and as
# uid 65534; and the selftest catches holes: a policy that grants the
# canaries' folder does not claim the read property, a box polexec runs in
# learn mode (nothing certified, what the policy denies allowed) is open
# and never "held", a box that refuses everything fails the twins, a
# policy that passes the canary variable does not claim it, a box that
# cannot reach the loopback port the policy lists fails. Nothing is
# left in TMPDIR or in the host's /tmp.
#
# Safety: the suite re-executes itself in new network, mount and pid
# namespaces (as root). The network one has lo and a veth pair whose peer
# is unconfigured (pasta needs a default route): no packet leaves; the
# names net filtered pins come from a hosts file bound over /etc/hosts
# there (api.anthropic.com is 10.99.0.1, the veth's dead end). Every
# canary, listener and victim is the selftest's own.
#
# Ends with "selftest: N passed, N failed"; SELFTEST_ONLY="t_a t_b" runs
# only those tests.
set -u

HERE=$(cd "$(dirname "$0")" && pwd)
. "$HERE/../lib.sh" # say, expect..., tally, suite_paths
suite_paths

if ! is_root; then
	say "selftest: needs root (namespaces of its own); not run"
	say "selftest: 0 passed, 0 failed"
	exit 0
fi
if [ -z "${SELFTEST_INNER:-}" ]; then
	SELFTEST_INNER=1 exec unshare --net --mount --pid --fork --mount-proc \
		"$0" "$@"
fi

passed=0
failed=0
failures=

T=$(mktemp -d /tmp/polc-selftest-suite.XXXXXX) || exit 2
chmod 755 "$T"
# the namespaces end with the suite; the mounts on $T go first
trap 'umount /usr/local /dev/net/tun "$T/dev" 2>/dev/null; rm -rf "$T"' EXIT

fatal() {
	say "selftest: FATAL: $*"
	say "selftest: 0 passed, 1 failed"
	exit 1
}

mk() {
	env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL \
		make -C "$ROOT" --no-print-directory B="$B" "$@" \
		>"$T/make.log" 2>&1
}

# The laboratory: see the top.
ip link set lo up &&
	ip link add st0 type veth peer name st1 &&
	ip addr add 10.99.0.2/24 dev st0 && ip link set st0 up &&
	ip link set st1 up && ip route add default via 10.99.0.1 ||
	fatal "the network namespace"
printf '127.0.0.1 localhost\n::1 localhost\n10.99.0.1 api.anthropic.com\n' \
	>"$T/hosts" && chmod 644 "$T/hosts" &&
	mount --bind "$T/hosts" /etc/hosts || fatal "the hosts file"
# pasta opens /dev/net/tun as the caller (tests/net/netlab.sh does the same)
if [ "$(stat -c %a /dev/net/tun 2>/dev/null)" != 666 ]; then
	mkdir -p "$T/dev" &&
		mount -t tmpfs -o mode=755,size=4k polc-tun "$T/dev" &&
		mknod -m 666 "$T/dev/tun" c 10 200 &&
		mount --bind "$T/dev/tun" /dev/net/tun || fatal "/dev/net/tun"
fi
mk install DESTDIR="$T/dest" PREFIX=/usr/local ||
	fatal "make install: $(cat "$T/make.log")"
mount --bind "$T/dest/usr/local" /usr/local || fatal "bind /usr/local"
POLC=/usr/local/bin/polc
mkdir -p "$T/art" "$T/tmp" && chmod 1777 "$T/tmp" || fatal "folders"
for pol in "$ROOT"/examples/*.pol; do
	n=${pol##*/}
	"$POLC" build "$pol" -o "$T/art/${n%.pol}.polbin" 2>"$T/build.err" ||
		fatal "build $pol: $(cat "$T/build.err")"
done
chmod -R a+rX "$T/art"

# st [setpriv OPTIONS...] -- SELFTEST ARGS...: polc selftest --json, with
# TMPDIR the suite's; OUT (the JSON), RC, ERR.
st() {
	st_who=
	while [ "$1" != -- ]; do
		st_who="$st_who $1"
		shift
	done
	shift
	# shellcheck disable=SC2086
	OUT=$(cd "$T/tmp" && TMPDIR=${ST_TMPDIR:-$T/tmp} \
		${st_who:+setpriv $st_who} "$POLC" selftest --json "$@" \
		2>"$T/st.err")
	RC=$?
	ERR=$(cat "$T/st.err")
}

verdict_of() { # PROPERTY: its verdict in OUT
	printf '%s' "$OUT" |
		jq -r --arg p "$1" '.properties[] | select(.property == $p) | .verdict'
}

detail_of() { # PROPERTY: its detail in OUT
	printf '%s' "$OUT" |
		jq -r --arg p "$1" '.properties[] | select(.property == $p) | .detail'
}

# The verdicts other than held, degraded and not claimed, one a line.
bad_rows() {
	printf '%s' "$OUT" | jq -r '.properties[] |
		select(.verdict != "held" and .verdict != "degraded" and
		       .verdict != "not claimed") |
		"\(.property) \(.verdict): \(.detail)"'
}

# Limit rows called held although the record says that limit ran
# degraded (best_effort): never allowed.
held_but_degraded() {
	printf '%s' "$OUT" | jq -r '.properties[] |
		select((.property | startswith("limits.")) and .verdict == "held") |
		(.property | ltrimstr("limits.")) as $l |
		select((.record_layers.limits.tier // "") | test("^degraded.*" + $l)) |
		.property'
}

# green WHO...: every example's selftest exits 0, says "held", has no
# row open, failed or in error, no limit held that the record says ran
# degraded, and holds at least 8 properties.
green() {
	for art in "$T"/art/*.polbin; do
		st "$@" -- "$art"
		name=${art##*/}
		expect "$name: exit ($ERR)" "$RC" 0 &&
			expect "$name: verdict" \
				"$(printf '%s' "$OUT" | jq -r .verdict)" held &&
			expect "$name: rows not held" "$(bad_rows)" "" &&
			expect "$name: held, degraded in the record" \
				"$(held_but_degraded)" "" &&
			expect_match "$name: held rows" "$(printf '%s' "$OUT" |
				jq '[.properties[] | select(.verdict == "held")] | length')" \
				'^([89]|[1-9][0-9])$' || return 1
	done
}

t_examples_green_as_root() { green; }

t_examples_green_as_nobody() {
	green --reuid=65534 --regid=65534 --clear-groups
}

# The canaries' folder inside a grant: the file properties are not
# claimed (the box may read it, so the selftest must not say held); the
# same artifact with the canaries elsewhere holds them.
t_granted_folder_not_claimed() {
	mkdir -p "$T/granted" "$T/elsewhere" &&
		chmod 1777 "$T/granted" "$T/elsewhere" || return 1
	cat >"$T/granted.pol" <<EOF
policy "granted" {
  use std/shell
  fs { ro $T/granted }
  syscalls default errno(EPERM) {}
}
EOF
	"$POLC" build "$T/granted.pol" -o "$T/granted.polbin" 2>"$T/b.err" ||
		{ cat "$T/b.err"; return 1; }
	ST_TMPDIR=$T/granted st -- "$T/granted.polbin"
	expect "granted: read" "$(verdict_of fs.read-outside)" "not claimed" &&
		expect_match "granted: why" "$(printf '%s' "$OUT" | jq -r \
			'.properties[] | select(.property == "fs.read-outside") | .detail')" \
			"grants the canaries' folder" &&
		expect "granted: write (ro grant)" \
			"$(verdict_of fs.write-outside)" held || return 1
	ST_TMPDIR=$T/elsewhere st -- "$T/granted.polbin"
	expect "elsewhere: exit ($ERR)" "$RC" 0 &&
		expect "elsewhere: read" "$(verdict_of fs.read-outside)" held
}

# polexec --learn allows what the policy denies and certifies nothing:
# the selftest fails, names the holes, and calls nothing held.
t_learn_box_is_open() {
	printf '#!/bin/sh\nexec /usr/local/bin/polexec --learn "$@"\n' \
		>"$T/learn" && chmod 755 "$T/learn" || return 1
	st -- --polexec "$T/learn" "$T/art/ci.polbin"
	expect "learn: exit ($ERR)" "$RC" 1 &&
		expect "learn: verdict" "$(printf '%s' "$OUT" | jq -r .verdict)" \
			open &&
		expect "learn: unshare" "$(verdict_of kernel.unshare)" open &&
		expect "learn: read" "$(verdict_of fs.read-outside)" open &&
		expect "learn: nothing held" "$(printf '%s' "$OUT" | jq \
			'[.properties[] | select(.verdict == "held")] | length')" 0
}

# swapper ART FILE: FILE, a polexec that runs ART instead of the artifact
# it is given (the word before --), for polc selftest --polexec.
swapper() {
	cat >"$2" <<EOF
#!/bin/bash
a=("\$@")
for i in "\${!a[@]}"; do
	if [ "\${a[i]}" = -- ]; then a[i-1]=$1; break; fi
done
exec /usr/local/bin/polexec "\${a[@]}"
EOF
	chmod 755 "$2"
}

# A box that refuses everything (polexec given a tighter artifact than
# the one judged) fails the twins: refusing is not holding.
t_refusing_box_fails_twins() {
	cat >"$T/tight.pol" <<'EOF'
policy "tight" {
  syscalls default errno(EPERM) {
    allow execve arch_prctl set_tid_address write exit exit_group
  }
}
EOF
	"$POLC" build "$T/tight.pol" -o "$T/tight.polbin" 2>"$T/b.err" ||
		{ cat "$T/b.err"; return 1; }
	swapper "$T/tight.polbin" "$T/swap" || return 1
	st -- --polexec "$T/swap" "$T/art/ci.polbin"
	expect "refusing: exit ($ERR)" "$RC" 1 &&
		expect "refusing: read" "$(verdict_of fs.read-outside)" \
			"twin failed" &&
		expect "refusing: tcp" "$(verdict_of net.tcp-unlisted)" \
			"twin failed"
}

# What the policy lists must work: a box that cannot reach the listed
# loopback port (polexec given the same policy without it) fails, and the
# policy's own box reaches it (in t_examples_green_*: agent-local.pol).
t_unreachable_listed_port_fails() {
	sed 's/net none { loopback 8088 }/net none/' \
		"$ROOT/examples/agent-local.pol" >"$T/nolo.pol" &&
		"$POLC" build "$T/nolo.pol" -o "$T/nolo.polbin" 2>"$T/b.err" ||
		{ cat "$T/b.err"; return 1; }
	swapper "$T/nolo.polbin" "$T/swap-nolo" || return 1
	st -- --polexec "$T/swap-nolo" "$T/art/agent-local.polbin"
	expect "no loopback: exit ($ERR)" "$RC" 1 &&
		expect "no loopback: listed" "$(verdict_of net.loopback-listed)" \
			"twin failed" &&
		st -- "$T/art/agent-local.polbin" &&
		expect "agent-local: listed" "$(verdict_of net.loopback-listed)" held
}

# TCP and UDP to an unlisted non-loopback destination, in the selftest's
# own network namespace: held by each backend of net filtered, as root and
# as 65534; and a box whose egress lets that destination through (polexec
# given the same policy with 198.51.100.1 allowed) is open. The loopback
# probe missed that hole: the box could not reach the host's 127.0.0.1.
t_unlisted_nonloopback() {
	for be in "" " backend cgroup" " backend broker"; do
		printf 'policy "egress" {\n  net filtered%s {\n    allow 10.99.0.1:443\n%s  }\n}\n' \
			"$be" "" >"$T/egress.pol" &&
			printf 'policy "egress" {\n  net filtered%s {\n    allow 10.99.0.1:443\n%s  }\n}\n' \
				"$be" "    allow 198.51.100.1/32
    allow 198.51.100.1/32 udp
" >"$T/hole.pol" &&
			"$POLC" build "$T/egress.pol" -o "$T/egress.polbin" \
				2>"$T/b.err" &&
			"$POLC" build "$T/hole.pol" -o "$T/hole.polbin" \
				2>>"$T/b.err" && chmod a+r "$T"/*.polbin ||
			{ cat "$T/b.err"; return 1; }
		swapper "$T/hole.polbin" "$T/swap-hole" || return 1
		for who in "" "--reuid=65534 --regid=65534 --clear-groups"; do
			w="egress${be:-} ${who:-root}"
			# shellcheck disable=SC2086
			st $who -- "$T/egress.polbin"
			# the cgroup backend needs CAP_BPF: polexec refuses it
			# to 65534; it leaves the box the caller's network, whose
			# abstract sockets Landlock's scope keeps from the box
			# (net_child_scope): held, with no Landlock in the policy
			case $be$who in
			*cgroup*reuid*)
				expect "$w: exit" "$RC" 2 || return 1
				continue
				;;
			*)
				expect "$w: exit ($ERR)" "$RC" 0 &&
					expect "$w: abstract" \
						"$(verdict_of ipc.abstract-socket)" \
						held || return 1
				;;
			esac
			expect "$w: tcp" "$(verdict_of net.tcp-unlisted)" held &&
				expect_match "$w: tcp where" \
					"$(detail_of net.tcp-unlisted)" \
					"to 198\.51\.100\.1:[0-9]*, in a network namespace" ||
				return 1
			expect "$w: udp" "$(verdict_of net.udp-unlisted)" held &&
				expect_match "$w: udp where" \
					"$(detail_of net.udp-unlisted)" \
					"to 198\.51\.100\.1:" || return 1
			# shellcheck disable=SC2086
			st $who -- --polexec "$T/swap-hole" "$T/egress.polbin"
			expect "$w hole: exit ($ERR)" "$RC" 1 &&
				expect "$w hole: tcp" "$(verdict_of net.tcp-unlisted)" \
					open || return 1
			# the broker carries UDP where the policy lists a UDP
			# destination, as hole.pol does
			expect "$w hole: udp ($(detail_of net.udp-unlisted))" \
				"$(verdict_of net.udp-unlisted)" open || return 1
		done
	done
}

# A policy that passes the canary's name into the box claims nothing
# about it; one that does not, holds it.
t_passed_variable_not_claimed() {
	cat >"$T/pass.pol" <<'EOF'
policy "pass" {
  use std/shell
  env { pass POLC_SELFTEST_CANARY }
}
EOF
	"$POLC" build "$T/pass.pol" -o "$T/pass.polbin" 2>"$T/b.err" ||
		{ cat "$T/b.err"; return 1; }
	st -- "$T/pass.polbin"
	expect "pass: env" "$(verdict_of env.host-variable)" "not claimed" &&
		st -- "$T/art/shell.polbin" &&
		expect "shell: env" "$(verdict_of env.host-variable)" held
}

# Everything the runs wrote was in their folders, now removed.
t_nothing_left() {
	expect "left in TMPDIR" \
		"$(find "$T/tmp" "$T/granted" "$T/elsewhere" -mindepth 1)" "" &&
		expect "left in /tmp" \
			"$(ls -d /tmp/polc-selftest-[0-9a-f]* 2>/dev/null)" ""
}

say "--- selftest suite (installed tree over /usr/local, own namespaces)"
for t in ${SELFTEST_ONLY:-t_examples_green_as_root t_examples_green_as_nobody \
	t_granted_folder_not_claimed t_learn_box_is_open \
	t_refusing_box_fails_twins t_unreachable_listed_port_fails \
	t_unlisted_nonloopback t_passed_variable_not_claimed t_nothing_left}; do
	(set +e; "$t")
	tally "$t" $?
done
[ -n "$failures" ] && say "failed:$failures"
say "selftest: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
