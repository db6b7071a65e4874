#!/bin/sh
# SPDX-License-Identifier: MIT
#
# The leak suite: escape vectors run as real programs under the real
# build/polexec, with artifacts that build/polc compiled from the .pol files
# beside this script. Each test asserts what the kernel did (errno, exit
# status, file contents), and every denial has a positive twin showing the
# same probe succeeds where the policy allows it, so a test can fail.
#
# Run as root, the suite runs twice: as root, then again as uid 65534
# (setpriv, no groups) over a copy of the binaries and artifacts in a temp
# dir that uid can read. Canaries live only in temp dirs the suite made.
#
# Ends with "leak: N passed, N failed"; exits non-zero when any failed.
# B=DIR picks the build folder (default: build); LEAK_ONLY="t_a t_b" runs
# only those tests.
set -u

HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
B=${B:-build}
case $B in /*) ;; *) B=$ROOT/$B ;; esac

passed=0
failed=0
failures=
WHO_RUNS="uid $(id -u)"

# --- helpers ---------------------------------------------------------------

# say, expect, expect_match, expect_nomatch, expect_absent, in_scratch (each
# test in a subshell with a fresh scratch dir $T, its run records kept for
# records_check): tests/lib.sh, beside this script's folder (copied there
# for the uid 65534 pass too).
. "$HERE/../lib.sh"

# polexec with the output and status captured: OUT, ERR, RC.
box() {
	OUT=$("$POLEXEC" "$@" 2>"$T/stderr")
	RC=$?
	ERR=$(cat "$T/stderr")
}

# --- setup: binaries and artifacts, shared by both passes ------------------

setup_shared() {
	SHARED=$(mktemp -d /tmp/polc-leak.XXXXXX) || exit 2
	trap 'rm -rf "$SHARED"' EXIT
	chmod 755 "$SHARED"
	mkdir -p "$SHARED/bin" "$SHARED/art"
	for f in polexec polc tests/leak/syscall_errno tests/leak/sockets \
		tests/leak/badarch tests/leak/boxprobe tests/leak/mkpolbin \
		tests/leak/llprobe tests/leak/hog; do
		if [ ! -x "$B/$f" ]; then
			say "leak: $B/$f is missing: run make first"
			exit 2
		fi
		cp "$B/$f" "$SHARED/bin/" || exit 2
	done
	cp "$HERE/run.sh" "$SHARED/bin/run.sh" || exit 2
	support_copy "$SHARED" || exit 2
	if [ ! -x "$B/polc" ]; then
		say "leak: $B/polc is missing: run make first"
		exit 2
	fi
	for pol in "$HERE"/*.pol "$ROOT"/examples/hello.pol \
		"$ROOT"/examples/shell.pol; do
		name=$(basename "$pol" .pol)
		if ! "$B/polc" build "$pol" -o "$SHARED/art/$name.polbin" \
			>"$SHARED/art/$name.log" 2>&1; then
			say "leak: polc build $pol failed:"
			cat "$SHARED/art/$name.log"
		fi
	done
	"$B/polc" build --emit-bpf "$SHARED/art/basic.bpf" "$HERE/basic.pol" \
		-o "$SHARED/art/basic-bpf.polbin" >"$SHARED/art/bpf.log" 2>&1 ||
		say "leak: polc build --emit-bpf failed: $(cat "$SHARED/art/bpf.log")"
	chmod -R a+rX "$SHARED"
}

use_shared() {
	BIN=$SHARED/bin
	ART=$SHARED/art
	POLEXEC=$BIN/polexec
	SCRATCH=$(mktemp -d /tmp/polc-leak-run.XXXXXX) || exit 2
	support_use "$SHARED"
}

# --- the tests ---------------------------------------------------------------
#
# basic.pol allows the test programs' own syscalls, answers chdir with
# EXDEV, kills on ptrace, allows socket(AF_UNIX|AF_INET) and answers
# socket(AF_PACKET) with EACCES, and builds the env from LEAK_PASSED and
# GREETING=hello-${WHO}.

export WHO=leak

t_allowed_calls_work() {
	box "$ART/basic.polbin" -- "$BIN/syscall_errno" getpid
	expect "getpid under the policy" "$OUT" "getpid: ok" &&
		expect "exit status" "$RC" 0
}

t_denied_call_returns_declared_errno() {
	box "$ART/basic.polbin" -- "$BIN/syscall_errno" chdir
	expect "chdir under the policy" "$OUT" \
		"chdir: errno=18 (Invalid cross-device link)" &&
		expect "exit status" "$RC" 0 || return 1
	# twin: the same call outside the box succeeds
	expect "chdir outside" "$("$BIN/syscall_errno" chdir)" "chdir: ok"
}

t_default_action_is_declared_errno() {
	box "$ART/basic.polbin" -- "$BIN/syscall_errno" unshare
	expect "unshare (unlisted) under the policy" "$OUT" \
		"unshare: errno=1 (Operation not permitted)" || return 1
	# twin: outside, this process may make a user namespace
	expect "unshare outside" "$("$BIN/syscall_errno" unshare)" "unshare: ok"
}

# kill_process goes through polexec's supervisor, which records it and
# kills the caller with SIGKILL (docs/OBSERVE.md): a notification cannot
# raise the kernel's SIGSYS. Without the supervisor the kernel kills it
# with SIGSYS (t_kill_without_supervisor, in tests/observe/).
t_kill_rule_kills() {
	box --record "$T/rec.json" "$ART/basic.polbin" -- \
		"$BIN/syscall_errno" ptrace
	expect "exit status (128+SIGKILL)" "$RC" 137 &&
		expect "nothing printed after the call" "$OUT" "" || return 1
	expect_match "record names SIGKILL" "$(cat "$T/rec.json")" \
		'"signal":9,"signal_name":"SIGKILL"' &&
		expect_match "record names the denial" \
			"$(cat "$T/rec.json")" \
			'"syscall":"ptrace",.*"action":"kill_process"' || return 1
	# twin: the same call outside the box is allowed
	expect "ptrace outside" "$("$BIN/syscall_errno" ptrace)" "ptrace: ok"
}

t_socket_unix_allowed() {
	box "$ART/basic.polbin" -- "$BIN/sockets" unix
	expect "socket(AF_UNIX)" "$OUT" "socket(unix): ok"
}

t_socket_packet_denied_by_argument_rule() {
	box "$ART/basic.polbin" -- "$BIN/sockets" packet
	expect "socket(AF_PACKET)" "$OUT" \
		"socket(packet): errno=13 (Permission denied)" || return 1
	# twin: outside, the kernel's own answer is not EACCES
	expect_nomatch "socket(AF_PACKET) outside" "$("$BIN/sockets" packet)" \
		"errno=13"
}

t_socket_packet_high_bits_still_denied() {
	# AF_PACKET | 1<<32: the kernel reads an int and sees AF_PACKET.
	box "$ART/basic.polbin" -- "$BIN/sockets" packet-hi
	expect "socket(AF_PACKET | 1<<32)" "$OUT" \
		"socket(packet-hi): errno=13 (Permission denied)"
}

# The egress companions (docs/LANGUAGE.md): in every policy and net mode,
# packet sockets, raw IPv4/IPv6 sockets (SOCK_CLOEXEC or SOCK_NONBLOCK in
# the type change nothing), netlink but NETLINK_ROUTE, and io_uring answer
# EACCES. basic.pol allows socket(AF_INET), which the raw companion
# overrides; nosyscalls.pol has no syscalls block; net_none.pol and
# egress_host.pol are net none and net host.
EGRESS_POLICIES="basic nosyscalls net_none egress_host"

t_egress_companions_refuse() {
	for pol in $EGRESS_POLICIES; do
		for k in packet-raw raw4 raw6 netlink-nf; do
			box "$ART/$pol.polbin" -- "$BIN/sockets" $k
			expect "$pol: socket($k)" "$OUT" \
				"socket($k): errno=13 (Permission denied)" ||
				return 1
		done
		box "$ART/$pol.polbin" -- "$BIN/sockets" io_uring
		expect "$pol: io_uring_setup" "$OUT" \
			"io_uring_setup: errno=13 (Permission denied)" ||
			return 1
	done
	# twin: outside, the kernel's own answers are not EACCES
	for k in packet-raw raw4 raw6 netlink-nf; do
		expect_nomatch "socket($k) outside" \
			"$("$BIN/sockets" $k)" "errno=13" || return 1
	done
	expect_nomatch "io_uring_setup outside" "$("$BIN/sockets" io_uring)" \
		"errno=13"
}

# twins in the boxes: a TCP socket, and netlink's NETLINK_ROUTE (libc's
# address lookups) where the policy allows netlink at all.
t_egress_companions_spare_the_rest() {
	for pol in $EGRESS_POLICIES; do
		box "$ART/$pol.polbin" -- "$BIN/sockets" stream
		expect "$pol: socket(stream)" "$OUT" "socket(stream): ok" ||
			return 1
		[ "$pol" = basic ] && continue # basic allows unix and inet only
		box "$ART/$pol.polbin" -- "$BIN/sockets" netlink-route
		expect "$pol: socket(netlink-route)" "$OUT" \
			"socket(netlink-route): ok" || return 1
	done
}

t_x32_syscall_killed() {
	box "$ART/basic.polbin" -- "$BIN/badarch" x32
	expect "x32 getpid: exit status (128+SIGKILL)" "$RC" 137 &&
		expect "x32 getpid printed nothing" "$OUT" "" || return 1
	# twin: the native call works in the box; outside, x32 is not killed
	box "$ART/basic.polbin" -- "$BIN/badarch" native
	expect_match "native getpid in the box" "$OUT" '^native: ret=[0-9]+$' &&
		expect "native exit status" "$RC" 0 || return 1
	expect_match "x32 outside (not killed)" "$("$BIN/badarch" x32)" \
		'^x32: ret='
}

t_int80_syscall_refused() {
	box "$ART/basic.polbin" -- "$BIN/badarch" int80
	expect "int 0x80 printed nothing" "$OUT" "" || return 1
	"$BIN/badarch" int80 >"$T/out" 2>/dev/null
	outside=$?
	if [ "$outside" -eq 0 ]; then
		# The kernel has an IA-32 entry: the filter must kill.
		expect "int 0x80: exit status (128+SIGKILL)" "$RC" 137
	else
		# No IA-32 entry (IA-32 emulation off): the kernel itself
		# refuses int 0x80 before seccomp sees it; the filter's i386
		# branch cannot be reached live on this kernel.
		say "    note: int 0x80 is refused by this kernel itself" \
			"(exit $outside outside the box); filter branch" \
			"not reachable live"
		expect "int 0x80 in the box ends as outside" "$RC" "$outside"
	fi
}

t_host_variable_absent_in_box() {
	LEAK_SECRET=hunter2 LEAK_PASSED=visible \
		box "$ART/basic.polbin" -- "$BIN/boxprobe" environ
	expect_nomatch "LEAK_SECRET in the box" "$OUT" "LEAK_SECRET|hunter2" ||
		return 1
	# the box's environment is exactly what the policy builds
	expect "the box's environment" "$OUT" \
		"$(printf 'GREETING=hello-leak\nLEAK_PASSED=visible\ncount=2')" ||
		return 1
	# twin: the probe sees the variable when it is there
	expect "LEAK_SECRET outside" \
		"$(LEAK_SECRET=hunter2 "$BIN/boxprobe" env LEAK_SECRET)" \
		"LEAK_SECRET=hunter2"
}

t_passed_variable_present_in_box() {
	LEAK_PASSED=yes box "$ART/basic.polbin" -- "$BIN/boxprobe" env \
		LEAK_PASSED
	expect "pass LEAK_PASSED" "$OUT" "LEAK_PASSED=yes" || return 1
	# unset in the caller: absent in the box, not empty
	(unset LEAK_PASSED && box "$ART/basic.polbin" -- "$BIN/boxprobe" env \
		LEAK_PASSED && expect "pass of an unset variable" "$OUT" \
		"LEAK_PASSED unset")
}

t_variables_bound_or_refused() {
	box --var WHO=option "$ART/basic.polbin" -- "$BIN/boxprobe" env GREETING
	expect "--var binds" "$OUT" "GREETING=hello-option" || return 1
	WHO=caller box "$ART/basic.polbin" -- "$BIN/boxprobe" env GREETING
	expect "the caller's env binds" "$OUT" "GREETING=hello-caller" ||
		return 1
	(unset WHO && box "$ART/basic.polbin" -- "$BIN/boxprobe" canary \
		"$T/canary" && expect "unbound: exit" "$RC" 125 &&
		expect_match "unbound: names it" "$ERR" 'variable \$\{WHO\}' &&
		expect_absent "unbound: command never ran" "$T/canary")
}

t_inherited_fd_closed_in_box() {
	exec 5<"$BIN/run.sh"
	box "$ART/basic.polbin" -- "$BIN/boxprobe" fd 5
	expect "fd 5 in the box" "$OUT" "fd 5 closed" || return 1
	# twin: the probe sees fd 5 when it is inherited
	expect "fd 5 outside" "$("$BIN/boxprobe" fd 5)" "fd 5 open"
}

t_std_fds_open_in_box() {
	for fd in 0 1 2; do
		box "$ART/basic.polbin" -- "$BIN/boxprobe" fd $fd </dev/null
		expect "fd $fd in the box" "$OUT" "fd $fd open" || return 1
	done
}

# polexec is not dumpable: its /proc/PID/environ and mem are refused to
# its box, by the kernel's ptrace access check (not by seccomp: the policy
# here has no syscalls block). As root too: the box holds no capability,
# so it lacks the CAP_SYS_PTRACE a non-dumpable target demands.
t_parent_environ_unreachable() {
	box "$ART/basic.polbin" -- "$BIN/boxprobe" read /proc/self/environ
	# twin: the box reads its own environ (the probe works)
	expect_match "own environ" "$OUT" '^read: [0-9]+ bytes$' || return 1
	POLEXEC_SECRET=hunter2 box "$ART/nosyscalls.polbin" -- \
		"$BIN/boxprobe" parent-environ
	expect_match "polexec's environ from its box" "$OUT" \
		'^read: errno=13 ' || return 1
	box "$ART/nosyscalls.polbin" -- "$BIN/boxprobe" parent-mem
	expect_match "polexec's memory from its box" "$OUT" \
		'^read: errno=13 ' || return 1
	# twin: the same probe reads a dumpable parent's memory (this shell)
	expect "parent-mem outside" "$("$BIN/boxprobe" parent-mem)" \
		"read: 4096 bytes" || return 1
	if [ "$(id -u)" = 0 ]; then
		# twin: root with its capabilities reads polexec's environ
		start_sleeper || return 1
		n=$(wc -c </proc/"$BOXPID"/environ)
		kill -TERM "$BOXPID"
		wait "$BOXPID"
		[ "$n" -gt 0 ] ||
			{ say "    FAIL: root could not read polexec's environ"; return 1; }
	fi
}

t_box_in_new_session() {
	mysid=$("$BIN/boxprobe" sid | sed 's/.*sid=//')
	box "$ART/basic.polbin" -- "$BIN/boxprobe" sid
	pid=$(printf '%s' "$OUT" | sed 's/pid=\([0-9]*\).*/\1/')
	sid=$(printf '%s' "$OUT" | sed 's/.*sid=//')
	expect_match "probe output" "$OUT" '^pid=[0-9]+ sid=[0-9]+$' &&
		expect "the box leads its own session" "$sid" "$pid" || return 1
	if [ "$sid" = "$mysid" ]; then
		say "    FAIL: the box shares the caller's session $mysid"
		return 1
	fi
	# twin: outside, the probe reports the caller's session
	expect "outside: the caller's session" \
		"$(sh -c 'cut -d" " -f6 /proc/$$/stat')" "$mysid"
}

t_signals_reset_in_box() {
	# The caller ignores SIGUSR2; the box must start with defaults.
	(
		trap '' USR2
		box "$ART/basic.polbin" -- "$BIN/boxprobe" sigs
		expect "dispositions in the box" "$OUT" \
			"$(printf 'ignored:\nblocked:')" || exit 1
		# twin: outside, the probe sees the ignored signal
		expect_match "outside" "$("$BIN/boxprobe" sigs)" \
			'^ignored:.* 12( |$)'
	)
}

# Starts a sleeping box in the background; sets BOXPID (polexec) and
# CHILD (the box's pid, read from its "pid=N ready" line).
start_sleeper() {
	"$POLEXEC" "$ART/basic.polbin" -- "$BIN/boxprobe" sleep 10000 \
		>"$T/out" 2>"$T/err" &
	BOXPID=$!
	i=0
	while [ $i -lt 100 ] && ! grep -q ready "$T/out" 2>/dev/null; do
		sleep 0.05
		i=$((i + 1))
	done
	CHILD=$(sed -n 's/^pid=\([0-9]*\) ready$/\1/p' "$T/out")
	[ -n "$CHILD" ] || { say "    FAIL: the sleeper never started"; return 1; }
}

t_sigterm_forwarded() {
	start_sleeper || return 1
	kill -TERM "$BOXPID"
	wait "$BOXPID"
	expect "exit status (128+SIGTERM)" "$?" 143 || return 1
	if kill -0 "$CHILD" 2>/dev/null; then
		say "    FAIL: the box ($CHILD) outlived the signal"
		kill -KILL "$CHILD"
		return 1
	fi
}

t_sigusr1_forwarded() {
	start_sleeper || return 1
	kill -USR1 "$BOXPID"
	wait "$BOXPID"
	expect "exit status (128+SIGUSR1)" "$?" 138
}

t_sleeper_twin_exits_normally() {
	box "$ART/basic.polbin" -- "$BIN/boxprobe" sleep 50
	expect "a box nobody signals exits 0" "$RC" 0
}

t_exit_status_propagated() {
	box "$ART/basic.polbin" -- "$BIN/boxprobe" exit 7
	expect "exit 7" "$RC" 7 || return 1
	box "$ART/basic.polbin" -- "$BIN/boxprobe" exit 0
	expect "exit 0" "$RC" 0
}

t_intact_artifact_runs_canary() {
	box "$ART/basic.polbin" -- "$BIN/boxprobe" canary "$T/canary"
	expect "exit" "$RC" 0 && expect "canary" "$(cat "$T/canary")" "ran"
}

# refused DESC ARTIFACT PATTERN: exit 125, message, canary never created.
refused() {
	box "$2" -- "$BIN/boxprobe" canary "$T/canary"
	expect "$1: exit" "$RC" 125 &&
		expect_match "$1: message" "$ERR" "$3" &&
		expect_absent "$1: canary" "$T/canary"
}

t_corrupt_artifact_never_runs() {
	a=$ART/basic.polbin
	size=$(wc -c <"$a")
	head -c $((size - 1)) "$a" >"$T/trunc1"
	head -c 100 "$a" >"$T/trunc100"
	head -c 10 "$a" >"$T/trunc10"
	: >"$T/empty"
	"$BIN/mkpolbin" flip "$a" "$T/flip-end" -1
	"$BIN/mkpolbin" flip "$a" "$T/flip-table" 70
	"$BIN/mkpolbin" flip "$a" "$T/flip-magic" 1
	"$BIN/mkpolbin" flip "$a" "$T/flip-digest" 40
	"$BIN/mkpolbin" flip "$a" "$T/flip-size" 24
	refused "truncated by 1" "$T/trunc1" 'truncated|size field' &&
		refused "truncated to 100" "$T/trunc100" 'truncated|size field' &&
		refused "truncated to 10" "$T/trunc10" truncated &&
		refused "empty" "$T/empty" truncated &&
		refused "flipped last byte" "$T/flip-end" digest &&
		refused "flipped table byte" "$T/flip-table" digest &&
		refused "flipped magic" "$T/flip-magic" magic &&
		refused "flipped digest" "$T/flip-digest" digest &&
		refused "flipped size" "$T/flip-size" 'size field' &&
		refused "missing file" "$T/nonexistent" 'No such file' &&
		refused "a directory" "$T" 'not a regular file'
}

t_unknown_critical_section_refused() {
	"$BIN/mkpolbin" add "$ART/basic.polbin" "$T/crit" 77 1
	refused "unknown critical section" "$T/crit" \
		'critical section type 77' || return 1
	# twin: the same section, not critical, is skipped and the box runs
	"$BIN/mkpolbin" add "$ART/basic.polbin" "$T/noncrit" 77 0
	box "$T/noncrit" -- "$BIN/boxprobe" canary "$T/canary"
	expect "non-critical unknown section: exit" "$RC" 0 &&
		expect "non-critical: canary" "$(cat "$T/canary")" "ran"
}

t_unimplemented_layers_refused() {
	# a landlock section is decoded now, so a one-byte one is refused as
	# malformed, not as unknown; so is an nft table without its NET
	# section
	"$BIN/mkpolbin" add "$ART/basic.polbin" "$T/ll" 4 1 00
	refused "landlock section" "$T/ll" 'landlock: truncated header' ||
		return 1
	"$BIN/mkpolbin" add "$ART/basic.polbin" "$T/nft" 5 1 00
	refused "nft section" "$T/nft" 'NFT section without NET'
}


# Crafted NET and NFT sections: each is refused before anything runs, with
# a message naming the defect; the last has sound framing, so it reaches
# the kernel, which refuses the table, and the refusal names the message.
# (A uid that may not open /dev/net/tun is refused before that, naming
# the device.) The positive twins are the egress suite's (tests/net),
# which runs sound artifacts in a throwaway network namespace.
t_hostile_net_sections_refused() {
	m=$BIN/mkpolbin
	le() { python3 -c "import struct,sys; print(struct.pack(sys.argv[1], *map(int, sys.argv[2:])).hex())" "$@"; }
	filt=$(le '<6I' 2 1 0 0 0 0)
	none_lo=$(le '<6I2H' 2 0 1 0 0 0 0 80)
	lo_unsorted=$(le '<6I4H' 2 0 2 0 0 0 90 90 80 80)
	rt_bad=$(le '<6I' 2 1 0 1 0 0)$(le '<BBHHH' 1 6 443 443 4)414243ff
	short=$(le '<IHHII' 12 2560 1025 0 0)
	nfttype=$(le '<IHHII' 20 2561 1025 0 0)01000000
	newtable=$(le '<IHHII' 20 2560 1025 0 0)01000000
	$m build "$T/f-nonft" --raw 8:1:$filt &&
		$m build "$T/n-port0" --raw 8:1:$none_lo &&
		$m build "$T/n-unsorted" --raw 8:1:$lo_unsorted &&
		$m build "$T/f-rtbad" --raw 8:1:$rt_bad --raw 5:1:$newtable &&
		$m build "$T/f-short" --raw 8:1:$filt --raw 5:1:$short &&
		$m build "$T/f-type" --raw 8:1:$filt --raw 5:1:$nfttype &&
		$m build "$T/f-kernel" --raw 8:1:$filt --raw 5:1:$newtable ||
		return 1
	refused "filtered without nft" "$T/f-nonft" \
		'mode filtered without its NFT section' &&
		refused "loopback port 0" "$T/n-port0" 'loopback ports not sorted' &&
		refused "loopback unsorted" "$T/n-unsorted" \
			'loopback ports not sorted' &&
		refused "runtime name" "$T/f-rtbad" 'runtime entry 0: bad name' &&
		refused "short message" "$T/f-short" 'nft: message 0' &&
		refused "not a nf_tables message" "$T/f-type" \
			'nft: message 0 \(\?\): flags|nft: message 0: type' &&
		if [ "$(id -u)" != 0 ] && ! [ -r /dev/net/tun -a -w /dev/net/tun ]; then
			refused "no tun" "$T/f-kernel" 'needs /dev/net/tun'
		else
			refused "kernel refuses" "$T/f-kernel" \
				'the kernel refused message 1 \(NEWTABLE\)'
		fi
}

# A META name written by hand with a C1 CSI, an ESC and a byte that is not
# UTF-8: the run record stays valid JSON and holds '?' for each of those
# bytes; the name's plain UTF-8 (an e with an accent) survives. Twin: the
# same artifact's other fields are read as usual (the command ran).
t_record_survives_hostile_meta_name() {
	name=$(printf 'a\302\233[31m\033b\377\303\251' | od -An -tx1 | tr -d ' \n')
	len=$(printf '%04x' $(( ${#name} / 2 )))
	meta=0100${len#??}${len%??}$name
	"$BIN/mkpolbin" build "$T/meta" --no-meta --raw 2:0:$meta || return 1
	box --record "$T/rec.json" "$T/meta" -- "$BIN/boxprobe" exit 3
	expect "exit" "$RC" 3 &&
		expect "record is JSON" "$(jq -e . "$T/rec.json" >/dev/null 2>&1; echo $?)" 0 &&
		expect "name cleaned" "$(jq -r .policy.name "$T/rec.json")" \
			"a??[31m?b?é"
}

t_hostile_sections_refused() {
	m=$BIN/mkpolbin
	big=$(printf '0600000000000000%.0s' $(seq 4097))
	$m build "$T/sc-9" --raw 3:1:060000000000000000 &&
		$m build "$T/sc-0" --raw 3:1: &&
		$m build "$T/sc-4097" --raw "3:1:$big" &&
		$m build "$T/sc-noncrit" --raw 3:0:0600000000000000 &&
		$m build "$T/env-name" --env 'set:1X=a' &&
		$m build "$T/env-dup" --env pass:A --env set:A=b &&
		$m build "$T/env-ref" --env 'set:A=${B' &&
		$m build "$T/env-dollar" --env 'set:A=$B' &&
		$m build "$T/env-kind" --raw 7:1:01000000070001000000000041 &&
		$m build "$T/env-trail" --raw 7:1:0000000000 &&
		$m build "$T/env-count" --raw 7:1:ffffffff &&
		$m build "$T/env-len" --raw 7:1:0100000001000900000000004142 &&
		$m build "$T/meta-len" --no-meta --raw 2:0:0100ff0041 || return 1
	refused "seccomp 9 bytes" "$T/sc-9" 'whole number' &&
		refused "seccomp empty" "$T/sc-0" '0 instructions' &&
		refused "seccomp 4097 insns" "$T/sc-4097" '4097 instructions' &&
		refused "seccomp not critical" "$T/sc-noncrit" 'not marked' &&
		refused "env bad name" "$T/env-name" 'valid identifier' &&
		refused "env duplicate" "$T/env-dup" 'twice' &&
		refused "env bad reference" "$T/env-ref" 'malformed' &&
		refused "env bare dollar" "$T/env-dollar" 'malformed' &&
		refused "env unknown kind" "$T/env-kind" 'unknown kind' &&
		refused "env trailing bytes" "$T/env-trail" 'trailing' &&
		refused "env count" "$T/env-count" 'entries, the limit' &&
		refused "env lengths" "$T/env-len" 'run past' &&
		refused "meta lengths" "$T/meta-len" 'runs past' || return 1
	# twin: a well-formed crafted artifact runs
	$m build "$T/good" --sc-default allow --env 'set:A=${WHO}' || return 1
	box "$T/good" -- "$BIN/boxprobe" env A
	expect "crafted good artifact" "$OUT" "A=leak"
}

# A step the child fails after clone (here the kernel refuses a program
# that does not end in a return) is a refusal: the command never ran.
t_child_failure_recorded_as_refusal() {
	"$BIN/mkpolbin" build "$T/badprog" --raw 3:1:2000000000000000 ||
		return 1
	box --record "$T/rec.json" "$T/badprog" -- "$BIN/boxprobe" \
		canary "$T/canary"
	expect "exit" "$RC" 125 && expect_absent "canary" "$T/canary" &&
		expect_match "record" "$(cat "$T/rec.json")" \
			'"outcome":"refused".*"reason":"child: seccomp' ||
		return 1
	# twin: a program the kernel takes runs, and the record says so
	box --record "$T/rec2.json" "$ART/basic.polbin" -- "$BIN/boxprobe" \
		canary "$T/canary"
	expect "twin exit" "$RC" 0 &&
		expect_match "twin record" "$(cat "$T/rec2.json")" \
			'"outcome":"exited"'
}

# net none: the host's loopback is another namespace's. A server the test
# runs on the host's 127.0.0.1 is refused from the box (nothing listens on
# the box's own loopback), reached from outside; the box's loopback is up
# and its own server is reached; no interface but lo, no route.
t_net_none_private_loopback() {
	start_server serve-tcp 39121 5000 || return 1
	s1=$SERVER
	box --record "$T/rec.json" "$ART/net_none.polbin" -- \
		"$BIN/llprobe" connect 39121
	r1=$OUT
	r2=$("$BIN/llprobe" connect 39121)
	box "$ART/net_none.polbin" -- /bin/sh -c \
		"'$BIN/llprobe' serve-tcp 39122 2000 & sleep 0.3;
		 '$BIN/llprobe' connect 39122; wait"
	r3=$OUT
	box "$ART/net_none.polbin" -- /bin/sh -c \
		'tail -n +3 /proc/net/dev | cut -d: -f1 | tr -d " ";
		 tail -n +2 /proc/net/route | wc -l'
	r4=$OUT
	stop_servers $s1
	expect "host loopback from the box" "$r1" \
		"connect: errno=111 (Connection refused)" &&
		expect "host loopback from outside" "$r2" "connect: ok" &&
		expect_match "the box's own loopback" "$r3" "connect: ok" &&
		expect "interfaces and routes in the box" "$r4" \
			"$(printf 'lo\n0')" &&
		expect_match "record" "$(cat "$T/rec.json")" \
			'"net":\{"tier":"enforced","mode":"none","egress":"none","rung":"namespace","loopback":\[\]\}'
}

# net none's second rung (docs/CONTAINERS.md): where no network namespace
# can be made (root without capabilities inside an outer box may not map
# itself in a user namespace), seccomp refuses every socket family but
# AF_UNIX (the NONET program) and Landlock every TCP bind and connect;
# the record says degraded and which rung. Root only, as in
# t_view_degraded_replacements.
t_net_none_without_namespace() {
	is_root || { say "  (root only: uid 65534 gets the namespace)"; return 0; }
	start_server serve-tcp 39123 5000 || return 1
	s1=$SERVER
	nested() {
		box "$ART/nosyscalls.polbin" -- "$BIN/polexec" "$@"
	}
	nested --record "$T/rec.json" "$ART/net_none.polbin" -- \
		"$BIN/llprobe" connect 39123
	r1=$OUT
	e1=$ERR
	r2=$("$BIN/llprobe" connect 39123)
	nested "$ART/net_none.polbin" -- "$BIN/sockets" inet
	r3=$OUT
	nested "$ART/net_none.polbin" -- "$BIN/sockets" unix
	r4=$OUT
	nested "$ART/net_none.polbin" -- "$BIN/sockets" netlink-route
	r5=$OUT
	nested "$ART/net_none.polbin" -- "$BIN/sockets" io_uring
	r6=$OUT
	nested --require-enforced "$ART/net_none.polbin" -- "$BIN/llprobe" say ran
	r7=$OUT
	rc7=$RC
	e7=$ERR
	stop_servers $s1
	expect_match "TCP to the host's listener" "$r1" \
		"connect: .*errno=13 \(Permission denied\)" &&
		expect "twin: from outside" "$r2" "connect: ok" &&
		expect "UDP socket" "$r3" \
			"socket(inet): errno=13 (Permission denied)" &&
		expect "unix socket" "$r4" "socket(unix): ok" &&
		expect "netlink socket" "$r5" \
			"socket(netlink-route): errno=13 (Permission denied)" &&
		expect_match "io_uring (the companions' EACCES or NONET's EPERM)" \
			"$r6" "^io_uring_setup: errno=(1|13) " &&
		expect_match "says so" "$e1" \
			"net: none: no network namespace can be made here" ||
		return 1
	n=$(jq -c .layers.net "$T/rec.json")
	expect_match "record: degraded" "$n" '"tier":"degraded\(no network namespace' &&
		expect_match "record: the rung" "$n" '"rung":"seccomp\+landlock"' &&
		expect "--require-enforced: exit" "$rc7" 125 &&
		expect "--require-enforced: never ran" "$r7" "" &&
		expect_match "--require-enforced: why" "$e7" \
			'net would be degraded'
}

# No syscalls block: the egress companions' layer is still a filter.
t_no_syscalls_block_records_seccomp_enforced() {
	box --record "$T/rec.json" "$ART/nosyscalls.polbin" -- \
		"$BIN/boxprobe" exit 3
	expect "exit" "$RC" 3 || return 1
	rec=$(cat "$T/rec.json")
	expect_match "seccomp enforced" "$rec" \
		'"seccomp":\{"tier":"enforced"\}' &&
		expect_match "name" "$rec" '"name":"leak-nosyscalls"'
}

t_run_record() {
	box --record "$T/rec.json" "$ART/basic.polbin" -- "$BIN/boxprobe" exit 7
	rec=$(cat "$T/rec.json")
	expect_match "schema" "$rec" '"schema_version":1' &&
		expect_match "name" "$rec" '"name":"leak-basic"' &&
		expect_match "source digest" "$rec" \
			'"source_sha256":"[0-9a-f]{64}"' &&
		expect_match "seccomp enforced" "$rec" \
			'"seccomp":\{"tier":"enforced"\}' &&
		expect_match "landlock off" "$rec" \
			'"landlock":\{"tier":"off"\}' &&
		expect_match "net off" "$rec" \
			'"net":\{"tier":"off","mode":"host","egress":"not contained"\}' &&
		expect_match "limits off" "$rec" '"limits":\{"tier":"off"\}' &&
		expect_match "status" "$rec" '"exit_status":7' &&
		expect_match "duration" "$rec" '"duration_ms":[0-9]+\.[0-9]{3}' ||
		return 1
	# jq (installed by make deps) parses it as JSON, or it is not
	jq -e '.schema_version' "$T/rec.json" >/dev/null ||
		{ say "    FAIL: not JSON with a schema_version"; return 1; }
	# a refusal leaves a record too
	(unset WHO && box --record "$T/rec2.json" "$ART/basic.polbin" -- \
		/bin/true && expect_match "refusal record" \
		"$(cat "$T/rec2.json")" '"outcome":"refused".*"exit_code":125')
}

t_example_hello() {
	box "$ART/hello.polbin" -- /bin/echo hello
	expect "hello" "$OUT" "hello" && expect "exit" "$RC" 0
}

t_example_shell_runs_ls_and_cat() {
	mkdir "$T/ws" && printf 'the content of f\n' >"$T/ws/f" || return 1
	(cd "$T/ws" && box --var WORKSPACE="$T/ws" "$ART/shell.polbin" -- \
		sh -c 'ls; cat f' &&
		expect "sh -c 'ls; cat f'" "$OUT" \
			"$(printf 'f\nthe content of f')" &&
		expect "exit" "$RC" 0)
}

t_example_shell_denies_unshare() {
	box --var WORKSPACE="$T" "$ART/shell.polbin" -- unshare -U true
	if [ "$RC" -eq 0 ]; then
		say "    FAIL: unshare -U true succeeded in the box"
		return 1
	fi
	expect_match "unshare's complaint" "$ERR" 'Operation not permitted' ||
		return 1
	# twin: outside, the same command works
	unshare -U true || { say "    FAIL: unshare -U true outside"; return 1; }
}

t_example_shell_denies_mount() {
	box --var WORKSPACE="$T" "$ART/shell.polbin" -- \
		"$BIN/syscall_errno" mount "$T"
	expect "mount in the box" "$OUT" \
		"mount: errno=1 (Operation not permitted)" || return 1
	# twin (root only): outside, the kernel looks at the path (ENOENT)
	if [ "$(id -u)" = 0 ]; then
		expect "mount outside" "$("$BIN/syscall_errno" mount "$T")" \
			"mount: errno=2 (No such file or directory)"
	fi
}

t_example_shell_kills_ptrace() {
	box --var WORKSPACE="$T" "$ART/shell.polbin" -- \
		"$BIN/syscall_errno" ptrace
	expect "ptrace: exit status (128+SIGKILL)" "$RC" 137 || return 1
	# twin: getpid is fine under the same policy
	box --var WORKSPACE="$T" "$ART/shell.polbin" -- \
		"$BIN/syscall_errno" getpid
	expect "getpid in the shell box" "$OUT" "getpid: ok"
}

# The box holds no capability, even when its caller is root.
t_capabilities_dropped() {
	mine=$(grep '^CapEff:' /proc/self/status)
	box --var WORKSPACE="$T" "$ART/shell.polbin" -- /bin/sh -c \
		'grep "^Cap" /proc/self/status'
	expect "exit status" "$RC" 0 || return 1
	sets="CapInh CapPrm CapEff CapAmb"
	# Only a caller with CAP_SETPCAP can empty the bounding set; without
	# it there is nothing to regain, as no_new_privs blocks file caps.
	[ "$(id -u)" = 0 ] && sets="$sets CapBnd"
	for set in $sets; do
		expect_match "$set in the box" "$OUT" \
			"^$set:[[:space:]]+0000000000000000\$" || return 1
	done
	if [ "$(id -u)" = 0 ]; then
		# twin: the same probe outside the box sees root's capabilities
		expect_nomatch "CapEff outside the box" "$mine" \
			'0000000000000000$'
	fi
}

# A namespace-creating clone is refused by the shell example's clone rule.
t_example_shell_denies_clone_newuser() {
	box --var WORKSPACE="$T" "$ART/shell.polbin" -- \
		"$BIN/syscall_errno" clone-newuser
	expect "clone(CLONE_NEWUSER) under shell" "$OUT" \
		"clone-newuser: errno=1 (Operation not permitted)" || return 1
	# twin: a plain fork-style clone works under the same policy
	box --var WORKSPACE="$T" "$ART/shell.polbin" -- \
		"$BIN/syscall_errno" clone-plain
	expect "plain clone under shell" "$OUT" "clone-plain: ok"
}

t_bwrap_loads_our_program() {
	if [ ! -s "$ART/basic.bpf" ]; then
		say "    FAIL: polc build --emit-bpf wrote nothing"
		return 1
	fi
	OUT=$(bwrap --ro-bind / / --dev /dev --seccomp 9 \
		"$BIN/syscall_errno" chdir 9<"$ART/basic.bpf" 2>"$T/err")
	expect "chdir under bwrap --seccomp" "$OUT" \
		"chdir: errno=18 (Invalid cross-device link)" || {
		cat "$T/err"
		return 1
	}
	# twin: the same bwrap without our program
	expect "chdir under bwrap alone" "$(bwrap --ro-bind / / --dev /dev \
		"$BIN/syscall_errno" chdir 2>&1)" "chdir: ok"
}

# --- Landlock (issue 4) and the view (issue 11) --------------------------------
#
# ll_fs.pol grants, under the test's own $T: ro/ (read only), ws/ and ws2/
# (rw), rwx/, norefer/ (writable, no refer); secret/ is granted nowhere.
# /etc and /proc are readable, BIN is rx. The canary in secret/ is the
# target of every read escape; each denial has a twin that does the same
# operation where the policy grants it, and must succeed.
#
# With an fs section the box has a view of its own (docs/VIEW.md): what
# no rule grants is not there at all (ENOENT), and a read-only grant is a
# read-only mount (EROFS), so those are the kernel's first answers here.
# Landlock stays behind the view; t_ll_behind_view_* reach the canary
# through a folder fd the box inherited, where only Landlock stands.

ll_setup() {
	mkdir "$T/ro" "$T/ws" "$T/ws2" "$T/rwx" "$T/norefer" "$T/secret" &&
		printf 'canary-secret\n' >"$T/secret/canary" &&
		printf 'read-only\n' >"$T/ro/f" &&
		printf 'workspace\n' >"$T/ws/file"
}

# llbox POLEXEC-ARGS...: box with the LL_* folders and BIN bound
llbox() {
	box --var BIN="$BIN" --var LL_RO="$T/ro" --var LL_WS="$T/ws" \
		--var LL_WS2="$T/ws2" --var LL_RWX="$T/rwx" \
		--var LL_NOREFER="$T/norefer" "$@"
}

# llp OP ARGS...: llprobe under ll_fs.pol
llp() {
	llbox "$ART/ll_fs.polbin" -- "$BIN/llprobe" "$@"
}

EACCES_RE='errno=13 \(Permission denied\)'

t_ll_write_into_ro_folder_denied() {
	ll_setup || return 1
	llp create "$T/ro/new"
	expect "create in ro/" "$OUT" "create: errno=30 (Read-only file system)" &&
		expect_absent "ro/new" "$T/ro/new" || return 1
	# twin: the same create in the rw workspace
	llp create "$T/ws/new"
	expect "create in ws/" "$OUT" "create: ok" &&
		expect "ws/new" "$(cat "$T/ws/new")" "x"
}

t_ll_system_file_wronly_denied() {
	ll_setup || return 1
	f=/etc/hostname
	[ -f $f ] || f=/etc/passwd
	# O_WRONLY without O_TRUNC, closed without writing
	llp open-wronly $f
	# root passes the file's permission check and meets the read-only
	# mount; any other uid is refused by the permission check first
	if [ "$(id -u)" = 0 ]; then
		expect "open-wronly $f in the box" "$OUT" \
			"open-wronly: errno=30 (Read-only file system)"
	else
		expect "open-wronly $f in the box" "$OUT" \
			"open-wronly: errno=13 (Permission denied)"
	fi || return 1
	# twin: the box reads the same file (/etc is granted ro)
	llp read $f
	expect_match "read $f in the box" "$OUT" '^read: [0-9]+ bytes$' ||
		return 1
	if [ "$(id -u)" = 0 ]; then
		# twin: outside, root opens it for writing (and writes nothing)
		expect "open-wronly $f outside" \
			"$("$BIN/llprobe" open-wronly $f)" "open-wronly: ok"
	fi
	# twin: the same open on a file of the rw workspace
	llp open-wronly "$T/ws/file"
	expect "open-wronly ws/file" "$OUT" "open-wronly: ok"
}

t_ll_secret_outside_grants_denied() {
	ll_setup || return 1
	llp read "$T/secret/canary"
	expect "read secret/canary" "$OUT" \
		"read: errno=2 (No such file or directory)" || return 1
	# twins: a granted file in the box, and the canary outside it
	llp read "$T/ro/f"
	expect "read ro/f" "$OUT" "read: 10 bytes" &&
		expect "canary outside" \
			"$("$BIN/llprobe" read "$T/secret/canary")" \
			"read: 14 bytes"
}

t_ll_secret_via_proc_self_root_denied() {
	ll_setup || return 1
	llp read "/proc/self/root$T/secret/canary"
	expect "/proc/self/root/.../canary" "$OUT" \
		"read: errno=2 (No such file or directory)" || return 1
	# twin: the same way to a granted file
	llp read "/proc/self/root$T/ro/f"
	expect "/proc/self/root/.../ro/f" "$OUT" "read: 10 bytes"
}

t_ll_secret_via_proc_1_root_denied() {
	ll_setup || return 1
	sleep 30 &
	sp=$!
	llp read "/proc/1/root$T/secret/canary"
	r1=$OUT
	# the root link of any process outside the box is closed to it, even
	# towards a file it may read otherwise
	llp read "/proc/$sp/root$T/ro/f"
	r2=$OUT
	# twin: outside, the same link of the test's own sleeper works
	r3=$("$BIN/llprobe" read "/proc/$sp/root$T/ro/f")
	kill "$sp"
	wait "$sp" 2>/dev/null
	expect "/proc/1/root/.../canary" "$r1" \
		"read: errno=13 (Permission denied)" &&
		expect "/proc/SLEEPER/root/.../ro/f in the box" "$r2" \
			"read: errno=13 (Permission denied)" &&
		expect "/proc/SLEEPER/root/.../ro/f outside" "$r3" \
			"read: 10 bytes" || return 1
	# twin in the box: its own root link leads to the granted file
	llp read "/proc/self/root$T/ro/f"
	expect "/proc/self/root/.../ro/f" "$OUT" "read: 10 bytes"
}

t_ll_secret_via_planted_symlink_denied() {
	ll_setup || return 1
	ln -s "$T/secret/canary" "$T/ws/planted" &&
		ln -s "$T/ws/file" "$T/ws/inside" || return 1
	llp read "$T/ws/planted"
	expect "read ws/planted -> secret/canary" "$OUT" \
		"read: errno=2 (No such file or directory)" || return 1
	# a link the box makes itself leads nowhere either
	llp symlink "$T/secret/canary" "$T/ws/mine"
	expect "symlink in ws/" "$OUT" "symlink: ok" || return 1
	llp read "$T/ws/mine"
	expect "read ws/mine -> secret/canary" "$OUT" \
		"read: errno=2 (No such file or directory)" || return 1
	# twin: a symlink to a granted file
	llp read "$T/ws/inside"
	expect "read ws/inside -> ws/file" "$OUT" "read: 10 bytes"
}

t_ll_secret_via_dotdot_denied() {
	ll_setup || return 1
	llp read "$T/ws/../secret/canary"
	expect "read ws/../secret/canary" "$OUT" \
		"read: errno=2 (No such file or directory)" || return 1
	llp read "$T/ws/../ro/f"
	expect "read ws/../ro/f" "$OUT" "read: 10 bytes"
}

# Landlock checks the path a file is opened by, so what a hard link the
# caller made would expose is the caller's doing; what is asserted is that
# the box cannot make one: the canary is not in its view, and behind the
# view Landlock refuses link() into the workspace (t_ll_behind_view_link).
t_ll_hard_link_denied() {
	ll_setup || return 1
	llp link "$T/secret/canary" "$T/ws/hl"
	expect "link secret/canary ws/hl" "$OUT" \
		"link: errno=2 (No such file or directory)" &&
		expect_absent "ws/hl" "$T/ws/hl" || return 1
	llp read "$T/ws/hl"
	expect "read ws/hl" "$OUT" "read: errno=2 (No such file or directory)" ||
		return 1
	# twin: a hard link inside the workspace
	llp link "$T/ws/file" "$T/ws/file2"
	expect "link ws/file ws/file2" "$OUT" "link: ok" || return 1
	llp read "$T/ws/file2"
	expect "read ws/file2" "$OUT" "read: 10 bytes"
}

# Two grants are two mounts of the view: nothing is renamed or linked from
# one to the other (EXDEV), whatever Landlock says. Inside one grant,
# Landlock decides: without refer, nothing moves to another folder.
t_ll_rename_across_folders_refer() {
	ll_setup || return 1
	printf a >"$T/ws/a" && printf b >"$T/ws/b" && mkdir "$T/ws/sub" &&
		mkdir "$T/norefer/sub" && printf c >"$T/norefer/c" || return 1
	llp rename "$T/ws/a" "$T/norefer/a"
	expect "rename ws/a norefer/a" "$OUT" \
		"rename: errno=18 (Invalid cross-device link)" &&
		expect "ws/a stays" "$(cat "$T/ws/a")" a || return 1
	llp rename "$T/ws/a" "$T/ws2/a"
	expect "rename ws/a ws2/a (two grants)" "$OUT" \
		"rename: errno=18 (Invalid cross-device link)" || return 1
	# the canary moved into the workspace: not in the view
	llp rename "$T/secret/canary" "$T/ws/moved"
	expect "rename secret/canary ws/moved" "$OUT" \
		"rename: errno=2 (No such file or directory)" &&
		expect "canary stays" "$(cat "$T/secret/canary")" \
			canary-secret || return 1
	llp link "$T/ws/b" "$T/norefer/b"
	expect "link ws/b norefer/b" "$OUT" \
		"link: errno=18 (Invalid cross-device link)" || return 1
	# inside norefer/, one mount: Landlock, without refer
	llp rename "$T/norefer/c" "$T/norefer/sub/c"
	expect "rename norefer/c norefer/sub/c" "$OUT" \
		"rename: errno=18 (Invalid cross-device link)" &&
		expect "norefer/c stays" "$(cat "$T/norefer/c")" c || return 1
	# twin: inside ws/, which has refer
	llp rename "$T/ws/b" "$T/ws/sub/b"
	expect "rename ws/b ws/sub/b" "$OUT" "rename: ok" &&
		expect "ws/sub/b" "$(cat "$T/ws/sub/b")" b
}

t_ll_truncate_ro_file_denied() {
	ll_setup || return 1
	llp truncate "$T/ro/f"
	expect "truncate ro/f" "$OUT" \
		"truncate: errno=30 (Read-only file system)" || return 1
	llp open-trunc "$T/ro/f"
	expect "open(O_TRUNC) ro/f" "$OUT" \
		"open-trunc: errno=30 (Read-only file system)" &&
		expect "ro/f intact" "$(cat "$T/ro/f")" read-only || return 1
	# twin: the workspace's file
	llp truncate "$T/ws/file"
	expect "truncate ws/file" "$OUT" "truncate: ok" &&
		expect "ws/file emptied" "$(wc -c <"$T/ws/file")" 0
}

t_ll_exec_from_rw_not_x_denied() {
	ll_setup || return 1
	cp "$BIN/llprobe" "$T/ws/" && cp "$BIN/llprobe" "$T/rwx/" || return 1
	llp exec "$T/ws/llprobe"
	expect "exec ws/llprobe" "$OUT" "exec: errno=13 (Permission denied)" ||
		return 1
	# twin: the same binary from the rwx folder
	llp exec "$T/rwx/llprobe"
	expect "exec rwx/llprobe" "$OUT" "exec: ok"
}

# Starts llprobe serve-* in the background; sets SERVER (its pid).
start_server() {
	sv_log=$T/server.$(printf '%s.%s' "$1" "$2" | tr -c 'A-Za-z0-9.' _)
	"$BIN/llprobe" "$@" >"$sv_log" 2>&1 &
	SERVER=$!
	i=0
	while [ $i -lt 100 ] && ! grep -q ready "$sv_log"; do
		sleep 0.02
		i=$((i + 1))
	done
	grep -q ready "$sv_log" || {
		say "    FAIL: server $*: $(cat "$sv_log")"
		return 1
	}
}

stop_servers() {
	for pid in "$@"; do
		kill "$pid" 2>/dev/null
		wait "$pid" 2>/dev/null
	done
	return 0
}

t_ll_tcp_unlisted_port_denied() {
	start_server serve-tcp 39101 5000 || return 1
	s1=$SERVER
	start_server serve-tcp 39102 5000 || { stop_servers $s1; return 1; }
	s2=$SERVER
	box "$ART/ll_net.polbin" -- "$BIN/llprobe" connect 39102
	r1=$OUT
	box "$ART/ll_net.polbin" -- "$BIN/llprobe" connect 39101
	r2=$OUT
	r3=$("$BIN/llprobe" connect 39102)
	box "$ART/ll_net.polbin" -- "$BIN/llprobe" bind 39104
	r4=$OUT
	box "$ART/ll_net.polbin" -- "$BIN/llprobe" bind 39103
	r5=$OUT
	stop_servers $s1 $s2
	expect "connect 127.0.0.1:39102 (unlisted)" "$r1" \
		"connect: errno=13 (Permission denied)" &&
		expect "connect 127.0.0.1:39101 (listed)" "$r2" "connect: ok" &&
		expect "connect 39102 outside" "$r3" "connect: ok" &&
		expect "bind 39104 (unlisted)" "$r4" \
			"bind: errno=13 (Permission denied)" &&
		expect "bind 39103 (listed)" "$r5" "bind: ok"
}

t_ll_signal_outside_denied() {
	sleep 30 &
	sp=$!
	box "$ART/ll_scope.polbin" -- "$BIN/llprobe" kill "$sp"
	r1=$OUT
	r2=$("$BIN/llprobe" kill "$sp")
	kill "$sp"
	wait "$sp" 2>/dev/null
	expect "kill(outside sleeper) in the box" "$r1" \
		"kill: errno=1 (Operation not permitted)" &&
		expect "kill(sleeper) outside" "$r2" "kill: ok" || return 1
	# twin: a process of the box signals its own child
	box "$ART/ll_scope.polbin" -- "$BIN/llprobe" kill-child
	expect "kill-child in the box" "$OUT" "kill-child: ok"
}

t_ll_abstract_socket_outside_denied() {
	name=polc-leak-$$-$(id -u)
	start_server serve-abstract "$name" 5000 || return 1
	s1=$SERVER
	box "$ART/ll_scope.polbin" -- "$BIN/llprobe" abstract-connect "$name"
	r1=$OUT
	r2=$("$BIN/llprobe" abstract-connect "$name")
	box "$ART/ll_scope.polbin" -- "$BIN/llprobe" abstract-self "$name-in"
	r3=$OUT
	stop_servers $s1
	expect "connect @$name in the box" "$r1" \
		"abstract-connect: errno=1 (Operation not permitted)" &&
		expect "connect @$name outside" "$r2" "abstract-connect: ok" &&
		expect "a socket of the box's own" "$r3" "abstract-self: ok"
}

t_ll_with_seccomp() {
	ll_setup || return 1
	llbox --record "$T/rec.json" "$ART/ll_seccomp.polbin" -- \
		"$BIN/llprobe" read "$T/secret/canary"
	expect "canary under seccomp+landlock" "$OUT" \
		"read: errno=2 (No such file or directory)" || return 1
	rec=$(cat "$T/rec.json")
	expect_match "seccomp enforced" "$rec" \
		'"seccomp":\{"tier":"enforced"\}' &&
		expect_match "landlock enforced" "$rec" \
			'"landlock":\{"tier":"enforced"' || return 1
	llbox "$ART/ll_seccomp.polbin" -- "$BIN/llprobe" read \
		"$T/ro/f"
	expect "ro/f under seccomp+landlock" "$OUT" "read: 10 bytes"
}

t_ll_record_lists_rules() {
	ll_setup || return 1
	llbox --record "$T/rec.json" "$ART/ll_fs.polbin" -- \
		"$BIN/llprobe" read "$T/ro/f"
	expect "exit" "$RC" 0 || return 1
	l=$(jq -c '.layers.landlock' "$T/rec.json") || return 1
	expect_match "tier" "$l" '"tier":"enforced"' &&
		expect_match "abi" "$l" '"abi":[1-9][0-9]*' &&
		expect_match "requires" "$l" \
			'"requires":\{"abi":1,"mode":"require"\}' &&
		expect_match "scoped" "$l" \
			'"scoped":\["abstract_unix_socket","signal"\]' &&
		expect_match "ro rule, bound" "$l" \
			"\"path\":\"\\\$\\{LL_RO\\}\",\"bound\":\"$T/ro\",\"rights\":\\[\"read_file\",\"read_dir\"\\]" &&
		expect_match "nothing dropped" "$l" \
			'"dropped":\{"fs":\[\],"net":\[\],"scoped":\[\]\}' ||
		return 1
	# ports: one kernel rule each
	box --record "$T/rec2.json" "$ART/ll_net.polbin" -- "$BIN/llprobe" \
		say hi
	expect "port rules" "$(jq -c '.layers.landlock.port_rules' \
		"$T/rec2.json")" 2
}

t_ll_missing_path_refused_unless_optional() {
	llbox --var LL_PATH="$T/none" "$ART/ll_path.polbin" -- \
		"$BIN/llprobe" say ran
	expect "missing: exit" "$RC" 125 &&
		expect "missing: never ran" "$OUT" "" &&
		expect_match "missing: names it" "$ERR" \
			"landlock: open $T/none \(\\\$\{LL_PATH\}\): No such file" ||
		return 1
	# twin: optional
	llbox --var LL_PATH="$T/none" --record "$T/rec.json" \
		"$ART/ll_path_optional.polbin" -- "$BIN/llprobe" say ran
	expect "optional: ran" "$OUT" "ran" &&
		expect_match "optional: recorded as skipped" \
			"$(cat "$T/rec.json")" '"skipped":"missing \(optional\)"'
}

t_ll_symlink_in_rule_path_refused_unless_follow() {
	ll_setup || return 1
	ln -s "$T/ro" "$T/lnk" && ln -s "$T/ro/f" "$T/flink" || return 1
	for p in "$T/lnk/f" "$T/flink"; do
		llbox --var LL_PATH="$p" "$ART/ll_path.polbin" -- \
			"$BIN/llprobe" read "$T/ro/f"
		expect "$p: exit" "$RC" 125 &&
			expect "$p: never ran" "$OUT" "" &&
			expect_match "$p: why" "$ERR" 'a symbolic link in the path' ||
			return 1
	done
	# twin: the same rule with follow (the view shows the target at the
	# rule's path, and only there), and the real path without
	llbox --var LL_PATH="$T/lnk/f" \
		"$ART/ll_path_follow.polbin" -- "$BIN/llprobe" read "$T/lnk/f"
	expect "follow: the target is granted" "$OUT" "read: 10 bytes" || return 1
	llbox --var LL_PATH="$T/lnk/f" \
		"$ART/ll_path_follow.polbin" -- "$BIN/llprobe" read "$T/ro/f"
	expect "follow: not at its own path" "$OUT" \
		"read: errno=2 (No such file or directory)" || return 1
	llbox --var LL_PATH="$T/ro/f" "$ART/ll_path.polbin" -- \
		"$BIN/llprobe" read "$T/ro/f"
	expect "the real path" "$OUT" "read: 10 bytes"
}

# Without openat2 (ENOSYS under an outer box), polexec walks the path one
# component at a time with O_NOFOLLOW: the same refusal, the same grant.
t_ll_symlink_refused_without_openat2() {
	ll_setup || return 1
	ln -s "$T/ro" "$T/lnk" || return 1
	box "$ART/ll_hide_openat2.polbin" -- "$BIN/polexec" --var BIN="$BIN" \
		--var LL_PATH="$T/lnk/f" "$ART/ll_path.polbin" -- \
		"$BIN/llprobe" read "$T/ro/f"
	expect "walk: exit" "$RC" 125 &&
		expect "walk: never ran" "$OUT" "" &&
		expect_match "walk: why" "$ERR" 'a symbolic link in the path' ||
		return 1
	# twin: the real path, walked, then granted
	box "$ART/ll_hide_openat2.polbin" -- "$BIN/polexec" --var BIN="$BIN" \
		--var LL_PATH="$T/ro/f" "$ART/ll_path.polbin" -- \
		"$BIN/llprobe" read "$T/ro/f"
	expect "walk: the real path" "$OUT" "read: 10 bytes"
}

t_ll_unbound_variable_and_home_refused() {
	box "$ART/ll_path.polbin" -- "$BIN/llprobe" say ran
	expect "unbound: exit" "$RC" 125 &&
		expect "unbound: never ran" "$OUT" "" &&
		expect_match "unbound: names it" "$ERR" \
			'variable \$\{(BIN|LL_PATH)\} is not bound' || return 1
	mkdir "$T/ro" && printf 'home file\n' >"$T/ro/f" || return 1
	(unset HOME && box --var BIN="$BIN" "$ART/ll_home.polbin" -- \
		"$BIN/llprobe" say ran &&
		expect "HOME unset: exit" "$RC" 125 &&
		expect_match "HOME unset: names it" "$ERR" \
			'~ is the caller.s HOME, which is not set') || return 1
	# twin: ~ bound to HOME
	HOME=$T box --var BIN="$BIN" "$ART/ll_home.polbin" -- \
		"$BIN/llprobe" read "$T/ro/f"
	expect "~/ro with HOME=\$T" "$OUT" "read: 10 bytes"
}

t_ll_write_to_home_refused_at_run_time() {
	ll_setup || return 1
	mkdir "$T/home" || return 1
	HOME=$T/home box --var BIN="$BIN" --var LL_RO="$T/ro" \
		--var LL_WS="$T/home" --var LL_WS2="$T/ws2" \
		--var LL_RWX="$T/rwx" --var LL_NOREFER="$T/norefer" \
		"$ART/ll_fs.polbin" -- "$BIN/llprobe" say ran
	expect "LL_WS=HOME: exit" "$RC" 125 &&
		expect_match "LL_WS=HOME: why" "$ERR" \
			"write access to $T/home, which is" || return 1
	box --var BIN="$BIN" --var LL_RO="$T/ro" --var LL_WS=/ \
		--var LL_WS2="$T/ws2" --var LL_RWX="$T/rwx" \
		--var LL_NOREFER="$T/norefer" "$ART/ll_fs.polbin" -- \
		"$BIN/llprobe" say ran
	expect "LL_WS=/: exit" "$RC" 125 &&
		expect_match "LL_WS=/: why" "$ERR" "write access to /, which" ||
		return 1
	# twin: a workspace below HOME is fine
	mkdir "$T/home/proj" || return 1
	HOME=$T/home box --var BIN="$BIN" --var LL_RO="$T/ro" \
		--var LL_WS="$T/home/proj" --var LL_WS2="$T/ws2" \
		--var LL_RWX="$T/rwx" --var LL_NOREFER="$T/norefer" \
		"$ART/ll_fs.polbin" -- "$BIN/llprobe" say ran
	expect "LL_WS below HOME" "$OUT" "ran"
}

t_ll_secret_store_warned_at_start() {
	ll_setup || return 1
	llp say ran
	expect_nomatch "no warning without .ssh" "$ERR" 'warning' || return 1
	mkdir "$T/ro/.ssh" && : >"$T/ro/.netrc" || return 1
	llbox --record "$T/rec.json" "$ART/ll_fs.polbin" -- \
		"$BIN/llprobe" say ran
	expect "still runs" "$OUT" "ran" &&
		expect_match "stderr: .ssh" "$ERR" \
			"warning: landlock: $T/ro/.ssh is inside a folder the box may read" &&
		expect_match "stderr: .netrc" "$ERR" "$T/ro/.netrc is inside" &&
		expect_match "record" "$(jq -c .layers.landlock.warnings \
			"$T/rec.json")" "$T/ro/.ssh is inside"
}

t_ll_require_refuses_older_kernel() {
	box --var BIN="$BIN" "$ART/ll_require_high.polbin" -- \
		"$BIN/llprobe" say ran
	expect "require 60: exit" "$RC" 125 &&
		expect "require 60: never ran" "$OUT" "" &&
		expect_match "require 60: why" "$ERR" \
			'the kernel has Landlock ABI [0-9]+, the policy requires ABI >= 60' ||
		return 1
	# twin: best_effort with the same minimum runs, nothing to drop
	box --var BIN="$BIN" --record "$T/rec.json" \
		"$ART/ll_best_high.polbin" -- "$BIN/llprobe" say ran
	expect "best_effort 60" "$OUT" "ran" &&
		expect "tier" "$(jq -r .layers.landlock.tier "$T/rec.json")" \
			enforced
}

# Landlock hidden by an outer box (landlock_create_ruleset: ENOSYS): what
# a kernel without it looks like to polexec.
t_ll_absent_landlock_negotiated() {
	ll_setup || return 1
	box "$ART/ll_hide_ll.polbin" -- "$BIN/polexec" --record "$T/rec.json" \
		--var BIN="$BIN" --var LL_WS="$T/ws" "$ART/ll_best.polbin" -- \
		"$BIN/llprobe" read "$T/ws/file"
	expect "best_effort: runs" "$OUT" "read: 10 bytes" &&
		expect_match "best_effort: says so" "$ERR" \
			'warning: landlock: Landlock unavailable.*running without Landlock' &&
		expect_match "best_effort: record" \
			"$(jq -r .layers.landlock.tier "$T/rec.json")" \
			'^degraded\(Landlock unavailable' &&
		expect_match "best_effort: dropped listed" \
			"$(jq -c .layers.landlock.dropped "$T/rec.json")" \
			'"fs":\["execute",.*"ioctl_dev"\].*"scoped":\["abstract_unix_socket","signal"\]' ||
		return 1
	box "$ART/ll_hide_ll.polbin" -- "$BIN/polexec" --require-enforced \
		--var BIN="$BIN" --var LL_WS="$T/ws" "$ART/ll_best.polbin" -- \
		"$BIN/llprobe" say ran
	expect "--require-enforced: exit" "$RC" 125 &&
		expect "--require-enforced: never ran" "$OUT" "" &&
		expect_match "--require-enforced: why" "$ERR" \
			'landlock would be degraded' || return 1
	llbox "$ART/ll_hide_ll.polbin" -- "$BIN/polexec" \
		--var BIN="$BIN" --var LL_RO="$T/ro" --var LL_WS="$T/ws" \
		--var LL_WS2="$T/ws2" --var LL_RWX="$T/rwx" \
		--var LL_NOREFER="$T/norefer" "$ART/ll_fs.polbin" -- \
		"$BIN/llprobe" say ran
	expect "require: exit" "$RC" 125 &&
		expect "require: never ran" "$OUT" "" &&
		expect_match "require: why" "$ERR" \
			'Landlock unavailable.*requires Landlock ABI >= 1' ||
		return 1
	# twin: the same best_effort policy where Landlock and the view are
	llbox --record "$T/rec2.json" "$ART/ll_best.polbin" -- \
		"$BIN/llprobe" read "$T/ro/f"
	expect "with Landlock: ro/f not granted" "$OUT" \
		"read: errno=2 (No such file or directory)" &&
		expect "with Landlock: tier" \
			"$(jq -r .layers.landlock.tier "$T/rec2.json")" enforced
}

# polexec inside a box of polexec's (docs/AGENTS.md, recipe C): the outer
# box refuses namespaces, so the inner box is the host's tree (the outer
# view) under Landlock and net none by seccomp; its warnings and record
# name the outer box's policy as the reason, not the user or a container.
t_nested_inner_blames_outer_box() {
	ll_setup || return 1
	llbox --var NEST_INNER="$ART/nest_inner.polbin" \
		"$ART/nest_outer.polbin" -- "$BIN/polexec" --record \
		"$T/ws/rec.json" --var BIN="$BIN" --var LL_WS="$T/ws" \
		"$ART/nest_inner.polbin" -- "$BIN/llprobe" read "$T/ws/file"
	expect "inner: ran" "$OUT" "read: 10 bytes" ||
		{ printf '%s\n' "$ERR" | head -n 5; return 1; }
	expect_match "inner: the view's warning" "$ERR" \
			'warning: view: no user namespace inside the outer polexec box: .*polexec runs inside another polexec box, whose policy refuses' &&
		expect_match "inner: the network's warning" "$ERR" \
			'warning: net: none: no network namespace can be made here \(polexec runs inside another polexec box' &&
		expect_nomatch "inner: nothing blames a container" "$ERR" \
			'container' &&
		expect_match "inner: record's view" \
			"$(jq -r .layers.view.tier "$T/ws/rec.json")" \
			'^degraded\(no user namespace inside the outer polexec box' &&
		expect_match "inner: record's net" \
			"$(jq -r .layers.net.tier "$T/ws/rec.json")" \
			'^degraded\(no network namespace \(inside the outer polexec box'
}

t_ll_polc_lints() {
	ll_setup || return 1
	printf 'policy "w" {\n  fs { rw / }\n}\n' >"$T/w.pol"
	"$BIN/polc" build "$T/w.pol" -o "$T/w.polbin" 2>"$T/err"
	expect "rw /: exit" "$?" 2 &&
		expect_match "rw /: where and why" "$(cat "$T/err")" \
			"w.pol:2:11: error: write access to '/'" &&
		expect_absent "rw /: no artifact" "$T/w.polbin" || return 1
	printf 'policy "w" {\n  fs { rw unsafe / }\n}\n' >"$T/w2.pol"
	"$BIN/polc" build "$T/w2.pol" -o "$T/w2.polbin" 2>"$T/err"
	expect "rw unsafe /: waived" "$?" 0 || return 1
	printf 'policy "h" {\n  fs { rw ~ ${HOME} /home /home/x /root }\n}\n' \
		>"$T/h.pol"
	"$BIN/polc" build "$T/h.pol" -o "$T/h.polbin" 2>"$T/err"
	expect "home folders: every one" \
		"$(grep -c 'error: write access' "$T/err")" 5 || return 1
	mkdir "$T/ro/.aws" || return 1
	printf 'policy "s" {\n  fs { ro %s }\n}\n' "$T/ro" >"$T/s.pol"
	"$BIN/polc" build "$T/s.pol" -o "$T/s.polbin" 2>"$T/err"
	expect "credentials: builds" "$?" 0 &&
		expect_match "credentials: warning" "$(cat "$T/err")" \
			"s.pol:2:11: warning: .* holds $T/ro/.aws" || return 1
	printf 'policy "p" {\n  net host { connect 1-5000 }\n}\n' >"$T/p.pol"
	"$BIN/polc" build "$T/p.pol" -o "$T/p.polbin" 2>"$T/err"
	expect "port range: exit" "$?" 2 &&
		expect_match "port range: where" "$(cat "$T/err")" \
			'p.pol:2:22: error: port range 1-5000 is 5000 Landlock rules' ||
		return 1
	# twin: no credentials, no warning; a modest range builds
	rmdir "$T/ro/.aws"
	printf 'policy "p" {\n  net host { connect 8000-8100 }\n}\n' >"$T/p.pol"
	"$BIN/polc" build "$T/s.pol" -o "$T/s.polbin" 2>"$T/err" &&
		"$BIN/polc" build "$T/p.pol" -o "$T/p.polbin" 2>>"$T/err"
	expect "clean builds" "$?" 0 &&
		expect "no warning" "$(cat "$T/err")" ""
}

t_ll_dump_and_doctor() {
	"$BIN/polc" dump "$ART/ll_fs.polbin" >"$T/dump" || return 1
	d=$(cat "$T/dump")
	expect_match "dump: section" "$d" '^\[landlock\] type 4, critical' &&
		expect_match "dump: requirement" "$d" \
			'requires Landlock ABI >= 1, require' &&
		expect_match "dump: handled" "$d" \
			'handled fs: execute write_file .* ioctl_dev' &&
		expect_match "dump: rule" "$d" \
			'\$\{LL_RO\}: read_file read_dir \[ro\]' &&
		expect_match "dump: scopes" "$d" \
			'scoped: abstract_unix_socket signal' || return 1
	expect_match "dump: ports" "$("$BIN/polc" dump "$ART/ll_net.polbin")" \
		'connect_tcp 39101' || return 1
	expect_match "doctor" "$("$BIN/polc" doctor)" \
		'landlock +found +ABI [0-9]+: fs rights'
}

# le VALUE BYTES: little-endian hex
le() {
	v=$1 n=$2 h=
	while [ "$n" -gt 0 ]; do
		h=$h$(printf '%02x' $((v & 255)))
		v=$((v >> 8))
		n=$((n - 1))
	done
	printf '%s' "$h"
}
# llhdr VERSION ABI MODE RESERVED FS NET SCOPED NFS NPORTS
llhdr() {
	printf '%s' "$(le "$1" 4)$(le "$2" 4)$(le "$3" 4)$(le "$4" 4)"
	printf '%s' "$(le "$5" 8)$(le "$6" 8)$(le "$7" 8)$(le "$8" 4)$(le "$9" 4)"
}
# llrule ACCESS FLAGS PATH
llrule() {
	printf '%s%s%s' "$(le "$1" 8)$(le "$2" 4)" "$(le ${#3} 4)" \
		"$(printf '%s' "$3" | od -An -tx1 | tr -d ' \n')"
}
# llport ACCESS LO HI
llport() { printf '%s' "$(le "$1" 4)$(le "$2" 2)$(le "$3" 2)"; }

t_ll_hostile_sections_refused() {
	m=$BIN/mkpolbin
	good=$(llhdr 1 1 1 0 12 0 3 1 0)$(llrule 12 0 /usr)
	mk() { $m build "$T/$1" --sc-default allow --raw "4:1:$2"; }
	mk short "$(llhdr 1 1 1 0 12 0 3 1 0 | cut -c1-40)" &&
		mk version "$(llhdr 2 1 1 0 12 0 3 0 0)" &&
		mk abi0 "$(llhdr 1 0 1 0 12 0 3 0 0)" &&
		mk mode "$(llhdr 1 1 2 0 12 0 3 0 0)" &&
		mk reserved "$(llhdr 1 1 1 9 12 0 3 0 0)" &&
		mk bits "$(llhdr 1 1 1 0 131072 0 3 0 0)" &&
		mk nothing "$(llhdr 1 1 1 0 0 0 0 0 0)" &&
		mk count "$(llhdr 1 1 1 0 12 0 3 5000 0)" &&
		mk rights "$(llhdr 1 1 1 0 12 0 3 1 0)$(llrule 1 0 /usr)" &&
		mk flags "$(llhdr 1 1 1 0 12 0 3 1 0)$(llrule 4 4 /usr)" &&
		mk len "$(llhdr 1 1 1 0 12 0 3 1 0)$(le 4 8)$(le 0 4)$(le 5000 4)2f" &&
		mk dotdot "$(llhdr 1 1 1 0 12 0 3 1 0)$(llrule 4 0 /usr/../etc)" &&
		mk relative "$(llhdr 1 1 1 0 12 0 3 1 0)$(llrule 4 0 usr)" &&
		mk ctrl "$(llhdr 1 1 1 0 12 0 3 1 0)$(le 4 8)$(le 0 4)$(le 3 4)2f0161" &&
		mk badvar "$(llhdr 1 1 1 0 12 0 3 1 0)$(llrule 4 0 '${1X}/a')" &&
		mk unsorted "$(llhdr 1 1 1 0 12 0 3 2 0)$(llrule 4 0 /usr)$(llrule 4 0 /etc)" &&
		mk dup "$(llhdr 1 1 1 0 12 0 3 2 0)$(llrule 4 0 /usr)$(llrule 4 0 /usr)" &&
		mk port-access "$(llhdr 1 4 1 0 0 3 3 0 1)$(llport 4 80 80)" &&
		mk port-unhandled "$(llhdr 1 4 1 0 0 1 3 0 1)$(llport 2 80 80)" &&
		mk port-order "$(llhdr 1 4 1 0 0 3 3 0 2)$(llport 2 80 90)$(llport 2 85 95)" &&
		mk port-lohi "$(llhdr 1 4 1 0 0 3 3 0 1)$(llport 2 90 80)" &&
		mk port-many "$(llhdr 1 4 1 0 0 3 3 0 1)$(llport 2 1 2000)" &&
		mk trailing "${good}00" &&
		$m build "$T/noncrit" --sc-default allow --raw "4:0:$good" ||
		return 1
	refused "short header" "$T/short" 'landlock: truncated header' &&
		refused "version" "$T/version" 'landlock: format version 2' &&
		refused "abi 0" "$T/abi0" 'requirement out of range' &&
		refused "mode 2" "$T/mode" 'requirement out of range' &&
		refused "reserved" "$T/reserved" 'requirement out of range' &&
		refused "unknown right" "$T/bits" 'unknown handled' &&
		refused "handles nothing" "$T/nothing" 'handles nothing' &&
		refused "rule count" "$T/count" 'the limits are' &&
		refused "rights not handled" "$T/rights" 'are not a part' &&
		refused "rule flags" "$T/flags" 'unknown flags' &&
		refused "path length" "$T/len" 'length 5000' &&
		refused "'..'" "$T/dotdot" 'not a normalized path' &&
		refused "relative" "$T/relative" 'not a normalized path' &&
		refused "control char" "$T/ctrl" "'/\?a' is not a normalized" &&
		refused "bad variable" "$T/badvar" 'not a normalized path' &&
		refused "unsorted" "$T/unsorted" 'not sorted' &&
		refused "duplicate" "$T/dup" 'not sorted' &&
		refused "port access" "$T/port-access" 'out of range' &&
		refused "port not handled" "$T/port-unhandled" 'out of range' &&
		refused "ports overlap" "$T/port-order" 'overlapping' &&
		refused "ports lo > hi" "$T/port-lohi" 'out of range' &&
		refused "too many ports" "$T/port-many" 'more than 1024' &&
		refused "trailing" "$T/trailing" 'trailing bytes' &&
		refused "not critical" "$T/noncrit" 'not marked critical' ||
		return 1
	# twin: a crafted section, scopes only, runs; one with rules too: rx
	# on BIN, ro on $T, in the sorted order polexec requires
	if [ "$(printf '%s\n%s\n' "$BIN" "$T" | LC_ALL=C sort | head -n 1)" = \
		"$BIN" ]; then
		rules=$(llrule 13 0 "$BIN")$(llrule 12 0 "$T")
	else
		rules=$(llrule 12 0 "$T")$(llrule 13 0 "$BIN")
	fi
	mk scopes "$(llhdr 1 1 1 0 0 0 3 0 0)" &&
		mk rule "$(llhdr 1 1 1 0 13 0 3 2 0)$rules" || return 1
	box "$T/scopes" -- "$BIN/boxprobe" canary "$T/canary"
	expect "scopes only: exit" "$RC" 0 &&
		expect "scopes only: canary" "$(cat "$T/canary")" "ran" ||
		return 1
	box "$T/rule" -- "$BIN/boxprobe" read "$T/canary"
	expect "read-only rule: read" "$OUT" "read: 4 bytes"
}

# --- the view (issue 11) -------------------------------------------------------
#
# view.pol: the box's own root holds BIN (rx), ro/ (read only), ws/ (rw),
# one socket (sockdir/s, `socket`), a tmpfs on /tmp, /dev and /proc of its
# own. Everything else of the host, the suite's canaries included, is not
# there. Each denial has a twin that succeeds where the policy grants it.

view_setup() {
	mkdir "$T/ro" "$T/ws" "$T/hidden" "$T/sockdir" &&
		printf 'read-only\n' >"$T/ro/f" &&
		printf 'workspace\n' >"$T/ws/file" &&
		printf 'canary-hidden\n' >"$T/hidden/canary"
}

# vbox POLICY POLEXEC-ARGS...: the V_* folders and BIN bound
vbox() {
	vb_pol=$1
	shift
	box --var BIN="$BIN" --var V_RO="$T/ro" --var V_WS="$T/ws" \
		--var V_SOCK="$T/sockdir/s" "$@" "$ART/$vb_pol.polbin" -- \
		"$BIN/llprobe" $VP
}

# vp OP ARGS...: llprobe under view.pol (needs a listening socket at
# sockdir/s: the socket statement binds it, so it must exist)
vp() {
	VP="$*"
	vbox view
}

start_unix() {
	start_server serve-unix "$1" "${2:-5000}"
}

# view_up: the setup, and the socket view.pol exposes
view_up() {
	view_setup && start_unix "$T/sockdir/s" 10000 && SOCKSRV=$SERVER
}

t_view_metadata_on_ro_grant_erofs() {
	view_up || return 1
	r=0
	for op in chmod chown utime setxattr; do
		vp $op "$T/ro/f"
		expect "$op ro/f" "$OUT" \
			"$op: errno=30 (Read-only file system)" || { r=1; break; }
		# twin: the same change on the workspace's file
		vp $op "$T/ws/file"
		expect "$op ws/file" "$OUT" "$op: ok" || { r=1; break; }
	done
	stop_servers $SOCKSRV
	[ $r = 0 ] && expect "ro/f intact" "$(cat "$T/ro/f")" read-only
}

t_view_memfd_never_runs() {
	view_up || return 1
	r=0
	for how in execveat proc; do
		for fl in plain seal; do
			vp memfd-exec "$BIN/llprobe" $fl $how
			expect_nomatch "memfd $fl by $how: never ran" "$OUT" \
				'^ran$' &&
				expect_match "memfd $fl by $how: refused" \
					"$OUT" 'errno=13 \(Permission denied\)$' ||
				{ r=1; break 2; }
		done
	done
	# how: the sysctl where polexec may set it (root), else the filter
	VP="say x"
	vbox view --record "$T/rec.json" >/dev/null
	m=$(jq -r .layers.view.memfd_noexec "$T/rec.json")
	stop_servers $SOCKSRV
	[ $r = 0 ] || return 1
	if [ "$(id -u)" = 0 ]; then
		expect "memfd_noexec (root)" "$m" sysctl
	else
		expect_match "memfd_noexec (uid $(id -u))" "$m" '^filter \('
	fi || return 1
	# twins: outside the box the same memfd runs; in the box, a program
	# in an rx folder does
	expect "memfd outside" \
		"$("$BIN/llprobe" memfd-exec "$BIN/llprobe" plain execveat)" \
		ran || return 1
	start_unix "$T/sockdir/s" 5000 || return 1
	s=$SERVER
	VP="say ran"
	vbox view
	stop_servers $s
	expect "a program in an rx folder runs" "$OUT" ran
}

t_view_unix_socket_outside_grants_unreachable() {
	view_up || return 1
	start_unix "$T/hidden/s" 10000 || { stop_servers $SOCKSRV; return 1; }
	h=$SERVER
	start_unix "$T/ws/s" 10000 || { stop_servers $SOCKSRV $h; return 1; }
	w=$SERVER
	vp unix-connect "$T/hidden/s"
	r1=$OUT
	vp unix-connect "$T/sockdir/s"
	r2=$OUT
	vp unix-connect "$T/ws/s"
	r3=$OUT
	r4=$("$BIN/llprobe" unix-connect "$T/hidden/s")
	stop_servers $SOCKSRV $h $w
	expect "socket outside the grants" "$r1" \
		"unix-connect: errno=2 (No such file or directory)" &&
		expect "the socket the policy exposes" "$r2" \
			"unix-connect: ok hello" &&
		expect "a socket in the rw workspace" "$r3" \
			"unix-connect: ok hello" &&
		expect "the hidden one, outside the box" "$r4" \
			"unix-connect: ok hello"
}

t_view_host_tmp_not_visible() {
	view_up || return 1
	# the canary is the suite's, in the host's /tmp (the scratch dir)
	vp ls "$T/hidden"
	r1=$OUT
	vp ls "$T"
	r2=$OUT
	box --var BIN="$BIN" --var V_RO="$T/ro" --var V_WS="$T/ws" \
		--var V_SOCK="$T/sockdir/s" "$ART/view.polbin" -- \
		"$BIN/llprobe" create "$T/made-in-box"
	r3=$OUT
	stop_servers $SOCKSRV
	expect "host canary folder" "$r1" \
		"ls: errno=2 (No such file or directory)" &&
		expect "the box's /tmp: only what leads to its grants" "$r2" \
			"ls: ro sockdir ws" &&
		expect "the box's tmpfs is writable" "$r3" "create: ok" &&
		expect_absent "nothing of it on the host" "$T/made-in-box" &&
		expect "canary intact" "$(cat "$T/hidden/canary")" canary-hidden
}

# `rw /tmp`, the host folder where polexec builds the box's root: the
# box's /tmp is the host's, writable (it showed the box's root, and every
# write there was refused). Twin: view.pol's own tmpfs hides it.
t_view_rw_host_tmp() {
	mkdir "$T/seen" && printf 'host-tmp\n' >"$T/seen/canary" || return 1
	box --var BIN="$BIN" "$ART/view-host-tmp.polbin" -- \
		"$BIN/llprobe" ls "$T/seen"
	r1=$OUT
	box --var BIN="$BIN" "$ART/view-host-tmp.polbin" -- \
		"$BIN/llprobe" create "$T/seen/made-in-box"
	r2=$OUT
	expect "the host's /tmp in the box" "$r1" "ls: canary" &&
		expect "written from the box" "$r2" "create: ok" &&
		expect "on the host" "$([ -f "$T/seen/made-in-box" ] &&
			echo there)" there || return 1
	view_up || return 1
	vp ls "$T/seen"
	stop_servers $SOCKSRV
	expect "twin: the box's own tmpfs" "$OUT" \
		"ls: errno=2 (No such file or directory)"
}

# `rx /` (view-root.pol): the box sees the host's tree, read-only, and
# its own /dev on it. The grant of / is a bind on the box's root itself;
# the box saw the empty tmpfs below it (every exec ENOENT). Twin: the
# write the read-only grant refuses, and /dev/null writable.
t_view_root_granted() {
	mkdir "$T/seen" && printf 'host-seen\n' >"$T/seen/canary" || return 1
	box "$ART/view-root.polbin" -- "$BIN/llprobe" ls "$T/seen"
	r1=$OUT
	box "$ART/view-root.polbin" -- "$BIN/llprobe" create "$T/seen/made"
	r2=$OUT
	box "$ART/view-root.polbin" -- "$BIN/llprobe" open-wronly /dev/null
	r3=$OUT
	box "$ART/view-root.polbin" -- "$BIN/llprobe" ls /dev
	r4=$OUT
	expect "the host's tree in the box" "$r1" "ls: canary" &&
		expect_match "read-only" "$r2" '^create: errno=(13|30) ' &&
		expect_absent "nothing written on the host" "$T/seen/made" &&
		expect "twin: /dev/null writable" "$r3" "open-wronly: ok" &&
		expect "the box's own /dev on the host's" "$r4" \
			"ls: fd full null ptmx pts random shm stderr stdin stdout tty urandom zero"
}

t_view_proc_shows_only_the_box() {
	view_up || return 1
	sleep 30 &
	sp=$!
	vp ls /proc
	r1=$OUT
	box --var BIN="$BIN" --var V_RO="$T/ro" --var V_WS="$T/ws" \
		--var V_SOCK="$T/sockdir/s" "$ART/view.polbin" -- \
		"$BIN/llprobe" read /proc/cpuinfo
	r2=$OUT
	kill $sp
	wait $sp 2>/dev/null
	stop_servers $SOCKSRV
	# numeric entries: the box's own processes; pid 1 (polexec's init,
	# not dumpable) hidden: only the probe itself, pid 2
	pids=$(printf '%s\n' "$r1" | tr ' ' '\n' | grep -E '^[0-9]+$' | tr '\n' ' ')
	expect "the box's processes in its /proc" "$pids" "2 " &&
		expect_nomatch "no host process" "$r1" " $sp( |$)" &&
		expect_match "twin: /proc/cpuinfo" "$r2" '^read: [1-9][0-9]* bytes$'
}

t_view_dev_has_only_the_listed_nodes() {
	view_up || return 1
	vp ls /dev
	r1=$OUT
	box --var BIN="$BIN" --var V_RO="$T/ro" --var V_WS="$T/ws" \
		--var V_SOCK="$T/sockdir/s" "$ART/view.polbin" -- \
		"$BIN/llprobe" open-wronly /dev/null
	r2=$OUT
	box --var BIN="$BIN" --var V_RO="$T/ro" --var V_WS="$T/ws" \
		--var V_SOCK="$T/sockdir/s" "$ART/view.polbin" -- \
		"$BIN/llprobe" read /dev/vda
	r3=$OUT
	stop_servers $SOCKSRV
	expect "the box's /dev" "$r1" \
		"ls: fd full null ptmx pts random shm stderr stdin stdout tty urandom zero" &&
		expect "twin: /dev/null writable" "$r2" "open-wronly: ok" &&
		expect "a host device" "$r3" \
			"read: errno=2 (No such file or directory)"
}

t_view_root_caller_user_nobody() {
	view_setup || return 1
	printf 'root-only\n' >"$T/ws/rootonly" && chmod 600 "$T/ws/rootonly" ||
		return 1
	chmod 777 "$T/ws"
	VP="ids"
	vbox view-user
	expect "ids" "$OUT" "ids: uid=65534 gid=65534 groups=0" || return 1
	if [ "$(id -u)" = 0 ]; then
		box --var BIN="$BIN" --var V_WS="$T/ws" "$ART/view-user.polbin" \
			-- "$BIN/llprobe" read "$T/ws/rootonly"
		expect "root's canary, as nobody" "$OUT" \
			"read: errno=13 (Permission denied)" || return 1
		box --var BIN="$BIN" --var V_WS="$T/ws" "$ART/view-user.polbin" \
			-- "$BIN/llprobe" create "$T/ws/by-nobody"
		expect "a file the box makes" "$OUT" "create: ok" &&
			expect "owned by nobody" \
				"$(stat -c %u:%g "$T/ws/by-nobody")" 65534:65534 ||
			return 1
		# twin: without the user statement the root caller's box is
		# root, capabilities dropped, and owns root's files
		start_unix "$T/sockdir/s" 5000 || return 1
		s=$SERVER
		box --var BIN="$BIN" --var V_RO="$T/ro" --var V_WS="$T/ws" \
			--var V_SOCK="$T/sockdir/s" "$ART/view.polbin" -- \
			"$BIN/llprobe" read "$T/ws/rootonly"
		stop_servers $s
		expect "root's canary, as root" "$OUT" "read: 10 bytes"
	else
		# a caller who is not root: uid 1000 in its user namespace,
		# the caller on the host
		VP="ids"
		vbox view-user1000
		expect "ids (user 1000)" "$OUT" \
			"ids: uid=1000 gid=1000 groups=0" || return 1
		box --var BIN="$BIN" --var V_WS="$T/ws" \
			"$ART/view-user1000.polbin" -- "$BIN/llprobe" create \
			"$T/ws/by-1000"
		expect "create" "$OUT" "create: ok" &&
			expect "owned by the caller on the host" \
				"$(stat -c %u "$T/ws/by-1000")" "$(id -u)"
	fi
}

t_view_record_and_require_enforced() {
	view_up || return 1
	VP="say x"
	vbox view --record "$T/rec.json" >/dev/null
	v=$(jq -c .layers.view "$T/rec.json")
	stop_servers $SOCKSRV
	expect_match "view enforced" "$v" '"tier":"enforced"' &&
		expect_match "its root" "$v" '"root":"own"' &&
		expect_match "pid namespace" "$v" '"pid_namespace":true' ||
		return 1
	# inside an outer box root has no capabilities, and may not map
	# itself in a user namespace: the view cannot be had there
	box "$ART/nosyscalls.polbin" -- "$BIN/polexec" --record "$T/rec2.json" \
		--var BIN="$BIN" --var V_WS="$T/ws" "$ART/view-best.polbin" -- \
		"$BIN/llprobe" read "$T/ws/file"
	expect "best_effort: runs" "$OUT" "read: 10 bytes" || return 1
	t=$(jq -r .layers.view.tier "$T/rec2.json")
	if [ "$(id -u)" = 0 ]; then
		expect_match "best_effort nested: degraded" "$t" \
			'^degraded\(no user namespace' &&
			expect_match "and says so" "$ERR" 'warning: view:' ||
			return 1
		box "$ART/nosyscalls.polbin" -- "$BIN/polexec" \
			--require-enforced --var BIN="$BIN" --var V_WS="$T/ws" \
			"$ART/view-best.polbin" -- "$BIN/llprobe" say ran
		expect "--require-enforced: exit" "$RC" 125 &&
			expect "--require-enforced: never ran" "$OUT" "" &&
			expect_match "--require-enforced: why" "$ERR" \
				'view would be degraded' || return 1
		box "$ART/nosyscalls.polbin" -- "$BIN/polexec" \
			--var BIN="$BIN" --var V_RO="$T/ro" --var V_WS="$T/ws" \
			--var V_SOCK="$T/sockdir/s" "$ART/view.polbin" -- \
			"$BIN/llprobe" say ran
		expect "require: exit" "$RC" 125 &&
			expect "require: never ran" "$OUT" "" &&
			expect_match "require: why" "$ERR" \
				"view: the box's own view cannot be had here"
	else
		expect "nested, not root: the view is had" "$t" enforced
	fi
}

# python3, git, gcc, node and curl, each doing what a user would, under
# view-programs.pol. curl fetches from a server the test started.
progbox() {
	box --var V_WS="$T/ws" "$ART/view-programs.polbin" -- "$@"
}

t_view_real_programs() {
	view_setup || return 1
	chmod 777 "$T/ws"
	progbox python3 -c 'import json, os, tempfile
f = tempfile.NamedTemporaryFile(delete=False)
f.write(b"x"); f.close()
print(json.dumps({"tmp": os.path.getsize(f.name), "cwd": os.getcwd() != ""}))'
	expect "python3" "$OUT" '{"tmp": 1, "cwd": true}' || return 1
	progbox sh -c 'cd && git init -q r && cd r && git config user.email a@b.c && git config user.name t && echo hi >f && git add f &&
git commit -qm first && git log --oneline | wc -l'
	expect "git" "$OUT" 1 || return 1
	progbox sh -c 'cd && printf "#include <stdio.h>
int main(void)
{ puts(\"built in the box\"); return 0; }
" >h.c && gcc -O1 -o h h.c && ./h'
	expect "gcc" "$OUT" "built in the box" || return 1
	progbox node -e 'const os = require("os");
console.log(os.cpus().length > 0, os.tmpdir(), require("fs").existsSync("/dev/null"))'
	expect "node" "$OUT" "true /tmp true" || return 1
	printf 'served
' >"$T/ro/page" || return 1
	port=$((39200 + $$ % 500))
	(cd "$T/ro" && exec python3 -m http.server --bind 127.0.0.1 "$port") 		>"$T/http.log" 2>&1 &
	hs=$!
	i=0
	while [ $i -lt 100 ] && ! "$BIN/llprobe" connect "$port" |
		grep -q ok; do
		sleep 0.05
		i=$((i + 1))
	done
	progbox curl -sS "http://127.0.0.1:$port/page"
	r=$OUT
	stop_servers $hs
	expect "curl" "$r" served
}

# A grant that lands in a mount of the box's own keeps its own mount
# restrictions (docs/VIEW.md: "a ro grant inside a tmpfs is a read-only
# mount"), whatever the grant above that mount lets: with `rwx H`,
# `tmpfs H/a`, `ro H/a/w` is noexec and read-only; with `allow ...
# ioctl_dev on D`, `tmpfs D/a`, `ro follow D/a/nul` (a link to /dev/null)
# is nodev. A tmpfs path is literal, so the policies are written with the
# scratch paths and built here. Twins: the same probes under the outer
# grant itself, and with the inner grants given the rights.
nested_pol() { # NAME INNER-GRANT DEV-GRANT
	printf '%s\n' "policy \"$1\" {" "  fs {" "    rx $BIN" "    rwx $T/h" \
		"    tmpfs $T/h/a" "    $2 $T/h/a/w" \
		"    allow read_file read_dir ioctl_dev on $T/d" \
		"    tmpfs $T/d/a" "    $3 follow $T/d/a/nul" "  }" "}" \
		>"$T/$1.pol"
	"$BIN/polc" build "$T/$1.pol" -o "$T/$1.polbin" >"$T/$1.log" 2>&1 ||
		{ say "    polc build $1: $(cat "$T/$1.log")"; return 1; }
}

t_view_grant_in_own_mount_keeps_its_mount() {
	mkdir -p "$T/h/a/w" "$T/d/a" && cp "$BIN/llprobe" "$T/h/a/w/prog" &&
		cp "$BIN/llprobe" "$T/h/prog" && ln -s /dev/null "$T/d/a/nul" &&
		nested_pol nested ro ro &&
		nested_pol twin rwx "allow read_file ioctl_dev on" || return 1
	box "$T/nested.polbin" -- "$BIN/llprobe" exec "$T/h/a/w/prog"
	expect "exec in ro H/a/w" "$OUT" \
		"exec: errno=13 (Permission denied)" || return 1
	box "$T/nested.polbin" -- "$BIN/llprobe" create "$T/h/a/w/new"
	expect "create in ro H/a/w" "$OUT" \
		"create: errno=30 (Read-only file system)" || return 1
	box "$T/nested.polbin" -- "$BIN/llprobe" read "$T/d/a/nul"
	expect "open the device through ro D/a/nul" "$OUT" \
		"read: errno=13 (Permission denied)" || return 1
	expect_absent "nothing made in ro H/a/w" "$T/h/a/w/new" || return 1
	# twins: under the rwx grant itself; the inner grants given execute,
	# writes and the device
	box "$T/nested.polbin" -- "$BIN/llprobe" exec "$T/h/prog"
	expect "exec in rwx H" "$OUT" "exec: ok" || return 1
	box "$T/nested.polbin" -- "$BIN/llprobe" create "$T/h/new"
	expect "create in rwx H" "$OUT" "create: ok" || return 1
	box "$T/twin.polbin" -- "$BIN/llprobe" exec "$T/h/a/w/prog"
	expect "exec in rwx H/a/w" "$OUT" "exec: ok" || return 1
	box "$T/twin.polbin" -- "$BIN/llprobe" create "$T/h/a/w/new"
	expect "create in rwx H/a/w" "$OUT" "create: ok" || return 1
	box "$T/twin.polbin" -- "$BIN/llprobe" read "$T/d/a/nul"
	expect "the device through D/a/nul with ioctl_dev" "$OUT" \
		"read: 0 bytes"
}

# The degraded view (docs/CONTAINERS.md, the view's last rung): where the
# box's own view cannot be had, `fs best_effort` runs on the host's tree
# under Landlock, and what the view gave is replaced: /dev/null and the
# other nodes on the host's own, a private folder for /tmp (TMPDIR,
# removed afterwards), the host's /proc read-only. A shell, mktemp,
# /proc/self, python3 and git work; the host's /tmp beside the folder
# stays out of reach. Root only: inside an outer box root has no
# capability and may not map itself in a user namespace, so the view
# degrades; uid 65534 gets the view there (tests/containers has every
# shape).
t_view_degraded_replacements() {
	[ "$(id -u)" = 0 ] || { say "  (root only: uid 65534 gets the view)"; return 0; }
	view_setup || return 1
	chmod 777 "$T/ws"
	box "$ART/nosyscalls.polbin" -- "$BIN/polexec" --record "$T/rec.json" \
		--var V_WS="$T/ws" "$ART/view-degraded.polbin" -- /bin/sh -c '
echo x >/dev/null 2>/dev/null && echo devnull=ok
f=$(mktemp) && echo mktemp=ok && case $f in "$TMPDIR"/*) echo in-tmpdir ;; esac
echo "$TMPDIR" >"$HOME/tmpdir"
head -c 5 /proc/self/status >/dev/null && echo proc=ok
echo x >/proc/self/comm 2>/dev/null || echo proc-ro
echo x >/tmp/polc-leak-degraded-$$ 2>/dev/null || echo host-tmp-denied
python3 -c "import tempfile; tempfile.NamedTemporaryFile(); print(\"python3=ok\")"
cd && git init -q r && cd r && git config user.email a@b.c &&
	git config user.name t && echo hi >f && git add f &&
	git commit -qm first && echo git=ok'
	expect "degraded box" "$OUT" "devnull=ok
mktemp=ok
in-tmpdir
proc=ok
proc-ro
host-tmp-denied
python3=ok
git=ok" || { say "$ERR"; return 1; }
	d=$(cat "$T/ws/tmpdir")
	expect_match "TMPDIR: the box's folder" "$d" '^/tmp/polexec-box\.' &&
		expect_absent "the folder removed" "$d" || return 1
	v=$(jq -c .layers.view "$T/rec.json")
	expect_match "record: degraded" "$v" '"tier":"degraded\(' &&
		expect_match "record: the rung" "$v" '"rung":"landlock"' &&
		expect_match "record: /tmp replaced" "$v" \
			"\"tmp\":\"$d\"" &&
		expect_match "record: /dev, /proc" "$v" \
			'"dev":"the host.s null.*"proc":"the host.s /proc, read-only"' &&
		expect_match "says so" "$ERR" 'private temporary folder'
}

# Landlock behind the view: a folder fd the box inherited (its stdin)
# reaches the host's tree outside every mount of the view. Only Landlock
# stands there, and it refuses as it would without a view.
t_ll_behind_view() {
	ll_setup || return 1
	llbox "$ART/ll_fs.polbin" -- "$BIN/llprobe" read \
		/proc/self/fd/0/canary <"$T/secret"
	expect "read secret/canary through fd 0" "$OUT" \
		"read: errno=13 (Permission denied)" || return 1
	llbox "$ART/ll_fs.polbin" -- "$BIN/llprobe" create \
		/proc/self/fd/0/new <"$T/ro"
	expect "create in ro/ through fd 0" "$OUT" \
		"create: errno=13 (Permission denied)" &&
		expect_absent "ro/new" "$T/ro/new" || return 1
	# twin: the same way into the workspace, which Landlock grants
	llbox "$ART/ll_fs.polbin" -- "$BIN/llprobe" create \
		/proc/self/fd/0/new <"$T/ws"
	expect "create in ws/ through fd 0" "$OUT" "create: ok" &&
		expect "ws/new" "$(cat "$T/ws/new")" x
}

# --- limits ------------------------------------------------------------------
#
# Each limit against a real program (progs/hog.c) that asks for more than
# the policy gives, and a twin that stays under it. As root the memory and
# pids limits are cgroup v1 here; as uid 65534, rlimits: the record must
# say which, and what the box ran into.

# polexec in the background, so its pid is known: OUT, ERR, RC, PEPID.
box_pid() {
	"$POLEXEC" "$@" >"$T/out" 2>"$T/stderr" &
	PEPID=$!
	wait "$PEPID"
	RC=$?
	OUT=$(cat "$T/out")
	ERR=$(cat "$T/stderr")
}

# box_cgroups PID: the cgroups of polexec PID, in any hierarchy.
box_cgroups() {
	find /sys/fs/cgroup -maxdepth 6 -name "polexec-$1-*" 2>/dev/null
}

# cgroups_until PID there|gone: waits (5 s at most) until the cgroups of
# polexec PID are there, or gone.
cgroups_until() {
	cu_i=0
	while [ $cu_i -lt 50 ]; do
		if [ -n "$(box_cgroups "$1")" ]; then
			[ "$2" = there ] && return 0
		else
			[ "$2" = gone ] && return 0
		fi
		sleep 0.1
		cu_i=$((cu_i + 1))
	done
}

# No cgroup of polexec PID is left in any hierarchy.
no_cgroup_left() {
	left=$(box_cgroups "$1")
	[ -z "$left" ] && return 0
	say "    FAIL: cgroups left behind: $left"
	return 1
}

# record_limit FILE NAME: the record's object for one limit, one line.
record_limit() {
	jq -c ".limits.$2" "$1"
}

is_root() { [ "$(id -u)" = 0 ]; }

# polexec's whole process group SIGKILLed (what a job supervisor does):
# the keeper is in a session of its own, so it still removes the box's
# cgroups, killing what is in them first. The twin: the cgroups are
# there while the box runs, found by the same search.
t_group_sigkill_leaves_no_cgroup() {
	is_root || return 0 # as uid 65534 the limits are rlimits: no cgroup
	before=$(find /sys/fs/cgroup -maxdepth 6 -name 'polexec-*' 2>/dev/null |
		sort)
	setsid "$POLEXEC" "$ART/limits-pids.polbin" -- /bin/sleep 30 \
		>"$T/out" 2>"$T/err" &
	pe=$!
	cgroups_until "$pe" there
	seen=$(box_cgroups "$pe")
	/bin/kill -s KILL -- -"$pe"
	wait "$pe"
	rc=$?
	cgroups_until "$pe" gone
	expect_match "the box's cgroups while it ran" "$seen" "polexec-$pe-" &&
		expect "polexec SIGKILLed with its group" "$rc" 137 &&
		no_cgroup_left "$pe" &&
		expect "no other polexec cgroup appeared" \
			"$(find /sys/fs/cgroup -maxdepth 6 -name 'polexec-*' \
				2>/dev/null | sort)" "$before"
}

# polexec and its keeper both SIGKILLed (as `pkill -9 polexec` does):
# nobody removes the box's cgroups, which stay, empty once the box has
# died of its parent-death signal; the next polexec making cgroups there
# removes them. The twin: a folder of that form whose PID still runs (this
# shell's) is found by the same search and left.
t_killed_keeper_cgroups_swept() {
	is_root || return 0 # as uid 65534 the limits are rlimits: no cgroup
	"$POLEXEC" "$ART/limits-pids.polbin" -- /bin/sleep 30 \
		>"$T/out" 2>"$T/err" &
	pe=$!
	cgroups_until "$pe" there
	seen=$(box_cgroups "$pe")
	# the keeper: polexec's child in a session of its own
	keeper=$(ps -o pid=,sid= --ppid "$pe" | awk '$1 == $2 { print $1 }')
	kill -KILL "$pe" $keeper
	wait "$pe" 2>/dev/null
	# until the box, which dies of its parent-death signal, has left them
	i=0
	while [ $i -lt 50 ] && [ -n "$(cat $(for d in $seen; do
		echo "$d/cgroup.procs"; done) 2>/dev/null)" ]; do
		sleep 0.1
		i=$((i + 1))
	done
	left=$(box_cgroups "$pe")
	for d in $seen; do
		mkdir "$(dirname "$d")/polexec-$$-0badc0de"
	done
	"$POLEXEC" "$ART/limits-pids.polbin" -- /bin/true
	rc=$?
	live=$(box_cgroups $$)
	for d in $live; do rmdir "$d"; done
	expect_match "a keeper was found" "$keeper" '^ *[0-9][0-9]*$' &&
		expect_match "cgroups left by the killed pair" "$left" \
			"polexec-$pe-" &&
		expect "the next polexec: exit" "$rc" 0 &&
		no_cgroup_left "$pe" &&
		expect_match "twin: the live PID's folder kept" "$live" \
			"polexec-$$-0badc0de"
	ok=$?
	for d in $(box_cgroups "$pe"); do rmdir "$d"; done # when it failed
	return $ok
}

t_memory_cap_kills_or_refuses() {
	box_pid --record "$T/rec.json" "$ART/limits-mem.polbin" -- \
		"$BIN/hog" mem 256
	mem=$(record_limit "$T/rec.json" memory)
	if is_root; then
		# cgroup v1: the box is OOM-killed, and the record says so
		expect "exit (128+SIGKILL)" "$RC" 137 &&
			expect_match "tier" "$mem" '"tier":"cgroup-v1"' &&
			expect_match "killed" "$mem" \
				'"on_exceed":"oom_kill","hit":true,"oom_kills":[1-9]' &&
			expect_match "status" "$mem" '"status":"enforced"' ||
			return 1
	else
		# rlimit: the allocation fails inside the box
		expect "exit (hog stopped short)" "$RC" 3 &&
			expect_match "malloc refused" "$OUT" \
				'^mem: failed after [0-9]+ MiB: Cannot allocate memory$' &&
			expect_match "tier" "$mem" '"tier":"rlimit"' &&
			expect_match "refused" "$mem" '"on_exceed":"enomem"' &&
			expect_match "degraded" "$mem" '"status":"degraded\(' &&
			expect_match "warning" "$ERR" 'warning: limits: memory degraded' ||
			return 1
	fi
	no_cgroup_left "$PEPID" || return 1
	# twin: 16 MiB fits under the cap
	box_pid --record "$T/rec2.json" "$ART/limits-mem.polbin" -- \
		"$BIN/hog" mem 16
	expect "16 MiB under the cap" "$OUT" "mem: 16 MiB ok" &&
		expect "twin exit" "$RC" 0 &&
		expect_match "twin not hit" \
			"$(record_limit "$T/rec2.json" memory)" \
			'"hit":(false|null)' && no_cgroup_left "$PEPID"
}

t_pids_cap_stops_fork_loop() {
	box_pid --record "$T/rec.json" "$ART/limits-pids.polbin" -- \
		"$BIN/hog" fork 300
	# 16 tasks: the box's first process and 15 children
	expect "fork loop" "$OUT" \
		"fork: 15 started, then errno=11 (Resource temporarily unavailable)" &&
		expect "exit" "$RC" 3 || return 1
	pids=$(record_limit "$T/rec.json" pids)
	if is_root; then
		expect_match "tier" "$pids" '"tier":"cgroup-v1"' &&
			expect_match "hit" "$pids" '"hit":true,"refused_forks":[1-9]' ||
			return 1
	else
		# the box's own user namespace: RLIMIT_NPROC counts the box
		# only, whatever else uid 65534 runs
		expect_match "tier" "$pids" '"tier":"rlimit-userns"' &&
			expect_match "status" "$pids" '"status":"enforced"' ||
			return 1
	fi
	no_cgroup_left "$PEPID" || return 1
	# threads count too
	box "$ART/limits-pids.polbin" -- "$BIN/hog" threads 300
	expect "thread loop" "$OUT" \
		"threads: 15 started, then errno=11 (Resource temporarily unavailable)" ||
		return 1
	# twin: 8 children fit
	box "$ART/limits-pids.polbin" -- "$BIN/hog" fork 8
	expect "8 children under the cap" "$OUT" "fork: 8 ok" &&
		expect "twin exit" "$RC" 0
}

t_cpu_limit_stops_busy_loop() {
	box --record "$T/rec.json" "$ART/limits-cpu.polbin" -- "$BIN/hog" spin 0
	expect "exit (128+SIGXCPU)" "$RC" 152 &&
		expect_match "record" "$(record_limit "$T/rec.json" cpu)" \
			'"tier":"rlimit".*"hit":true' &&
		expect_match "wall not hit" \
			"$(record_limit "$T/rec.json" wall)" '"hit":false' ||
		return 1
	# a loop that ignores SIGXCPU gets SIGKILL one grace later
	box --record "$T/rec2.json" "$ART/limits-cpu.polbin" -- \
		"$BIN/hog" spin 0 ign
	expect "ignoring SIGXCPU: exit (128+SIGKILL)" "$RC" 137 &&
		expect_match "record" "$(record_limit "$T/rec2.json" cpu)" \
			'"hit":true' || return 1
	# twin: 300 ms of CPU fits
	box --record "$T/rec3.json" "$ART/limits-cpu.polbin" -- \
		"$BIN/hog" spin 300
	expect "twin" "$OUT" "spin: done" && expect "twin exit" "$RC" 0 &&
		expect_match "twin record" "$(record_limit "$T/rec3.json" cpu)" \
			'"hit":false'
}

t_wall_limit_stops_sleep() {
	start=$(date +%s%N)
	box --record "$T/rec.json" "$ART/limits-wall.polbin" -- \
		"$BIN/hog" sleep 10000
	ms=$((($(date +%s%N) - start) / 1000000))
	expect "exit (128+SIGTERM)" "$RC" 143 &&
		expect_match "record" "$(record_limit "$T/rec.json" wall)" \
			'"tier":"parent".*"hit":true' || return 1
	[ "$ms" -lt 3000 ] || { say "    FAIL: took $ms ms"; return 1; }
	# SIGTERM ignored: SIGKILL after the grace
	box --record "$T/rec2.json" "$ART/limits-wall.polbin" -- \
		"$BIN/hog" sleep 10000 ign
	expect "ignoring SIGTERM: exit (128+SIGKILL)" "$RC" 137 &&
		expect_match "record" "$(cat "$T/rec2.json")" \
			'"signal_name":"SIGKILL"' || return 1
	# twin: 100 ms fits
	box --record "$T/rec3.json" "$ART/limits-wall.polbin" -- \
		"$BIN/hog" sleep 100
	expect "twin exit" "$RC" 0 &&
		expect_match "twin record" "$(record_limit "$T/rec3.json" wall)" \
			'"hit":false'
}

t_fsize_limit_stops_write() {
	# SIGXFSZ (default action) ends the writer at the limit
	box --record "$T/rec.json" "$ART/limits-files.polbin" -- \
		"$BIN/hog" write "$T/big" 2097152
	expect "exit (128+SIGXFSZ)" "$RC" 153 &&
		expect "file size" "$(wc -c <"$T/big")" 1048576 &&
		expect_match "record" "$(record_limit "$T/rec.json" fsize)" \
			'"hit":true' || return 1
	# a writer that ignores SIGXFSZ gets EFBIG
	box "$ART/limits-files.polbin" -- "$BIN/hog" write "$T/big2" 2097152 ign
	expect "ignoring SIGXFSZ" "$OUT" \
		"write: errno=27 (File too large) after 1048576 bytes" || return 1
	# twin: 512 KiB fits
	box "$ART/limits-files.polbin" -- "$BIN/hog" write "$T/small" 524288
	expect "twin" "$OUT" "write: 524288 bytes ok" &&
		expect "twin size" "$(wc -c <"$T/small")" 524288
}

t_nofile_and_core_limits() {
	box "$ART/limits-files.polbin" -- "$BIN/hog" nofile 100
	expect "nofile" "$OUT" \
		"nofile: 29 opened, then errno=24 (Too many open files)" ||
		return 1
	box "$ART/limits-files.polbin" -- "$BIN/hog" nofile 20
	expect "twin: 20 fit" "$OUT" "nofile: 20 ok" || return 1
	box "$ART/limits-files.polbin" -- "$BIN/hog" rlimits
	expect_match "core as the policy says" "$OUT" \
		'^core=1048576:1048576 nofile=32:32 fsize=1048576:1048576 ' ||
		return 1
	# no limits block: core dumps are off all the same
	box "$ART/nosyscalls.polbin" -- "$BIN/hog" rlimits
	expect_match "core off by default" "$OUT" '^core=0:0 ' || return 1
	# twin: outside, the caller's own limits
	expect_nomatch "outside" "$("$BIN/hog" rlimits)" '^core=0:0 nofile=32:32'
}

# With a cgroup, the box ends with its command: a process that left the
# box's session is still in its cgroup, and is killed when the command
# ends. (With rlimits only, such a process outlives polexec; not tested.)
t_cgroup_ends_whole_box() {
	if ! is_root; then
		say "    note: no cgroup without root here; checked in the" \
			"root pass"
		return 0
	fi
	box_pid "$ART/limits-pids.polbin" -- /bin/sh -c \
		"/usr/bin/setsid $BIN/hog sleep 4321 >/dev/null & exit 0"
	expect "exit" "$RC" 0 || return 1
	sleep 0.1
	left=$(pgrep -f "hog sleep 4321")
	if [ -n "$left" ]; then
		kill -KILL $left
		say "    FAIL: the escaped process outlived the box: $left"
		return 1
	fi
	no_cgroup_left "$PEPID" || return 1
	# twin: without polexec the same escape survives its shell
	/bin/sh -c "/usr/bin/setsid $BIN/hog sleep 4322 >/dev/null & exit 0"
	sleep 0.1
	left=$(pgrep -f "hog sleep 4322")
	[ -n "$left" ] && kill -KILL $left
	[ -n "$left" ] || { say "    FAIL: twin: no escaped process"; return 1; }
}

t_limits_require_or_refuse() {
	box_pid --record "$T/rec.json" "$ART/limits-require.polbin" -- \
		"$BIN/boxprobe" canary "$T/canary"
	if is_root; then
		expect "cgroup v1 here: it runs" "$RC" 0 &&
			expect_match "memory" \
				"$(record_limit "$T/rec.json" memory)" \
				'"tier":"cgroup-v1","status":"enforced"' &&
			expect_match "layer" "$(cat "$T/rec.json")" \
				'"limits":\{"tier":"enforced"\}' || return 1
	else
		expect "no cgroup: refused" "$RC" 125 &&
			expect_match "why" "$ERR" 'limits require.*memory: RLIMIT_AS' &&
			expect_match "how" "$ERR" 'systemd-run --user --scope' &&
			expect_absent "canary" "$T/canary" &&
			expect_match "record" "$(cat "$T/rec.json")" \
				'"outcome":"refused"' || return 1
	fi
	no_cgroup_left "$PEPID" || return 1
	# --require-enforced turns best_effort's degraded into a refusal
	rm -f "$T/canary"
	box --require-enforced "$ART/limits-mem.polbin" -- \
		"$BIN/boxprobe" canary "$T/canary"
	if is_root; then
		expect "enforced here: runs" "$RC" 0
	else
		expect "degraded: refused" "$RC" 125 &&
			expect_match "why" "$ERR" 'limits would be degraded' &&
			expect_absent "canary" "$T/canary"
	fi
}

t_limits_record_names_tiers() {
	box --record "$T/rec.json" "$ART/limits-files.polbin" -- \
		"$BIN/boxprobe" exit 0
	expect "exit" "$RC" 0 || return 1
	jq -e . "$T/rec.json" >/dev/null || { say "    FAIL: not JSON"; return 1; }
	for l in fsize nofile core; do
		expect_match "$l" "$(record_limit "$T/rec.json" $l)" \
			'"tier":"rlimit","status":"enforced"' || return 1
	done
	expect_match "layer" "$(cat "$T/rec.json")" \
		'"limits":\{"tier":"enforced"\}' || return 1
	# without a limits block, the layer is off (core dumps still off)
	box --record "$T/rec2.json" "$ART/basic.polbin" -- "$BIN/boxprobe" exit 0
	expect_match "off" "$(cat "$T/rec2.json")" '"limits":\{"tier":"off"\}' &&
		expect_match "core" "$(record_limit "$T/rec2.json" core)" \
			'"max":0'
}

t_hostile_limits_refused() {
	m=$BIN/mkpolbin
	z=0000000000000000
	# flags STATED, set core only, value[6] = 0
	good=0100000040000000$z$z$z$z$z$z$z$z
	$m build "$T/short" --raw 6:1:01000000 &&
		$m build "$T/flags" --raw "6:1:0400000040000000$z$z$z$z$z$z$z$z" &&
		$m build "$T/bits" --raw "6:1:0100000000010000$z$z$z$z$z$z$z$z" &&
		$m build "$T/unset" --raw "6:1:01000000000000000100000000000000$z$z$z$z$z$z$z" &&
		$m build "$T/zero" --raw "6:1:0100000001000000$z$z$z$z$z$z$z$z" &&
		$m build "$T/huge" --raw "6:1:0100000001000000ffffffffffffff7f$z$z$z$z$z$z$z" &&
		$m build "$T/noncrit" --raw "6:0:$good" &&
		$m build "$T/good" --raw "6:1:$good" || return 1
	refused "limits short" "$T/short" '4 bytes, expected 72' &&
		refused "limits flags" "$T/flags" 'unknown flag bits' &&
		refused "limits bits" "$T/bits" 'unknown limit bits' &&
		refused "limits unset value" "$T/unset" 'memory is not set but has a value' &&
		refused "limits zero" "$T/zero" 'memory is 0' &&
		refused "limits huge" "$T/huge" 'memory [0-9]+ is above' &&
		refused "limits not critical" "$T/noncrit" 'not marked critical' ||
		return 1
	# twin: the well-formed section runs
	box "$T/good" -- "$BIN/hog" rlimits
	expect "crafted good limits" "$RC" 0 &&
		expect_match "core 0" "$OUT" '^core=0:0 '
}

# --- secrets -----------------------------------------------------------------

SECRET_VALUE=polc-leak-s3cr3t-7f2c9e

make_secrets() {
	mkdir -p "$T/sd" &&
		printf '%s' "$SECRET_VALUE" >"$T/sd/key" &&
		printf 'tok-%s' "$SECRET_VALUE" >"$T/sd/token" &&
		chmod 600 "$T/sd/key" "$T/sd/token"
}

t_secret_reaches_box_as_file() {
	make_secrets || return 1
	had_run_secrets=no
	[ -e /run/secrets ] && had_run_secrets=yes
	export SECRET_DIR=$T/sd
	box "$ART/secret.polbin" -- "$BIN/boxprobe" cat /run/secrets/api
	expect "the box reads API_KEY" "$OUT" "$SECRET_VALUE" &&
		expect "exit" "$RC" 0 || return 1
	box "$ART/secret.polbin" -- "$BIN/boxprobe" cat /run/secrets/TOKEN
	expect "the box reads TOKEN" "$OUT" "tok-$SECRET_VALUE" || return 1
	box "$ART/secret.polbin" -- "$BIN/boxprobe" stat /run/secrets/api
	expect "the file" "$OUT" \
		"type=file mode=0400 uid=$(id -u) size=${#SECRET_VALUE}" ||
		return 1
	box "$ART/secret.polbin" -- "$BIN/boxprobe" stat /run/secrets
	expect_match "its folder" "$OUT" "^type=dir mode=0700 uid=$(id -u) " ||
		return 1
	box "$ART/secret.polbin" -- "$BIN/boxprobe" canary /run/secrets/x
	expect_match "read-only" "$ERR" 'Read-only file system' || return 1
	if [ $had_run_secrets = no ]; then
		# the box's own /run: the host's is hidden from it, untouched
		box "$ART/secret.polbin" -- "$BIN/boxprobe" ls /run
		expect "the box's /run" "$OUT" "secrets" &&
			expect_absent "host /run/secrets" /run/secrets || return 1
	fi
	# a destination in a folder the host has: its own tmpfs there
	if [ -d /srv ] && [ ! -L /srv ]; then
		box "$ART/secret-srv.polbin" -- "$BIN/boxprobe" ls /srv
		expect "the box's /srv" "$OUT" "polc-leak-secret" &&
			expect_absent "host /srv" /srv/polc-leak-secret ||
			return 1
	fi
	# twin: without the policy's secret the path is not there
	expect_match "outside" "$("$BIN/boxprobe" cat /run/secrets/api)" \
		'^cat: errno=2 '
}

# Landlock handles every fs right, and no rule of the policy can name the
# box's own tmpfs: the secret file gets a read rule of its own.
t_secret_readable_under_landlock() {
	make_secrets || return 1
	export SECRET_DIR=$T/sd
	box --var BIN="$BIN" "$ART/secret-ll.polbin" -- \
		"$BIN/boxprobe" cat /run/secrets/api
	expect "the box reads API_KEY under Landlock" "$OUT" \
		"$SECRET_VALUE" && expect "exit" "$RC" 0 || return 1
	# twin: the folder itself is not granted, so it cannot be listed
	box --var BIN="$BIN" "$ART/secret-ll.polbin" -- \
		"$BIN/boxprobe" ls /run/secrets
	expect_match "listing /run/secrets" "$OUT" '^ls: errno=13 '
}

t_secret_value_nowhere_else() {
	make_secrets || return 1
	export SECRET_DIR=$T/sd
	all=
	for probe in environ cmdline; do
		box --record "$T/rec-$probe.json" "$ART/secret.polbin" -- \
			"$BIN/boxprobe" $probe
		expect "$probe: exit" "$RC" 0 || return 1
		all="$all
$OUT
$ERR
$(cat "$T/rec-$probe.json")"
	done
	expect_match "the probe saw the environment" "$all" 'GREETING=hello' ||
		return 1
	dump=$("$BIN/polc" dump "$ART/secret.polbin")
	all="$all
$dump"
	expect_nomatch "the value anywhere" "$all" "$SECRET_VALUE" &&
		expect_nomatch "the source path anywhere" "$all" "$T/sd|SECRET_DIR" ||
		return 1
	# in its own user namespace (not root) the box reads polexec's
	# memory no more than without one
	box "$ART/secret.polbin" -- "$BIN/boxprobe" parent-mem
	expect_match "polexec's memory from a box with secrets" "$OUT" \
		'^read: errno=13 ' || return 1
	# what the record and the dump do say: the names
	expect_match "record names" "$(cat "$T/rec-environ.json")" \
		'"secrets":\["API_KEY","TOKEN"\]' &&
		expect_match "dump names" "$dump" \
			'secret API_KEY to /run/secrets/api' || return 1
	# twin: the grep finds the value where it is
	expect_match "twin" "$(cat "$T/sd/key")" "$SECRET_VALUE"
}

t_secret_sources_checked() {
	make_secrets || return 1
	export SECRET_DIR=$T/bad
	mkdir "$T/bad" && ln -s "$T/sd/key" "$T/bad/key" &&
		cp "$T/sd/token" "$T/bad/token" || return 1
	refused "symlink source" "$ART/secret.polbin" \
		'secret API_KEY: its source file is a symlink' || return 1
	rm "$T/bad/key" && mkdir "$T/bad/key" || return 1
	refused "directory source" "$ART/secret.polbin" \
		'secret API_KEY: its source is not a regular file' || return 1
	rmdir "$T/bad/key" &&
		head -c 1048577 /dev/zero >"$T/bad/key" || return 1
	refused "oversized source" "$ART/secret.polbin" \
		'secret API_KEY: its source file holds 1048577 bytes' || return 1
	rm "$T/bad/key"
	box --record "$T/rec.json" "$ART/secret.polbin" -- \
		"$BIN/boxprobe" canary "$T/canary"
	expect "missing source: exit" "$RC" 125 &&
		expect_match "missing source" "$ERR" \
			'secret API_KEY: cannot open its source file: No such' &&
		expect_nomatch "no path in the record" "$(cat "$T/rec.json")" \
			"$T/bad" || return 1
	export SECRET_DIR=$T/sd
	box_pid "$ART/secret-missing.polbin" -- "$BIN/boxprobe" canary \
		"$T/canary"
	expect "folder missing on the host: exit" "$RC" 125 &&
		expect_match "folder missing on the host" "$ERR" \
			'secret KEY: the folder /var/lib/polc-leak-missing does not exist' &&
		expect_absent "canary" "$T/canary" &&
		no_cgroup_left "$PEPID" || return 1
	m=$BIN/mkpolbin
	$m build "$T/rel" --env "secret:K=$T/sd/key:run/k" &&
		$m build "$T/dots" --env "secret:K=$T/sd/key:/run/../etc/k" &&
		$m build "$T/root" --env "secret:K=$T/sd/key:/k" || return 1
	refused "relative destination" "$T/rel" 'must be an absolute path' &&
		refused "dotdot destination" "$T/dots" 'not in normal form' &&
		refused "destination in /" "$T/root" 'folder other than /' ||
		return 1
	# twin: a good source runs
	box "$ART/secret.polbin" -- "$BIN/boxprobe" cat /run/secrets/api
	expect "twin" "$OUT" "$SECRET_VALUE"
}

t_secret_other_user_cannot_read() {
	if ! is_root; then
		say "    note: switching to another user needs root; checked" \
			"in the root pass"
		return 0
	fi
	make_secrets || return 1
	SECRET_DIR=$T/sd "$POLEXEC" "$ART/secret.polbin" -- \
		"$BIN/boxprobe" sleep 10000 >"$T/out" 2>"$T/err" &
	BOXPID=$!
	i=0
	while [ $i -lt 100 ] && ! grep -q ready "$T/out" 2>/dev/null; do
		sleep 0.05
		i=$((i + 1))
	done
	CHILD=$(sed -n 's/^pid=\([0-9]*\) ready$/\1/p' "$T/out")
	[ -n "$CHILD" ] || { say "    FAIL: the box never started"; return 1; }
	other="setpriv --reuid=65534 --regid=65534 --clear-groups"
	via_proc=$($other cat /proc/"$CHILD"/root/run/secrets/api 2>&1)
	in_ns=$(nsenter -t "$CHILD" -m $other cat /run/secrets/api 2>&1)
	twin=$(nsenter -t "$CHILD" -m cat /run/secrets/api 2>&1)
	kill -TERM "$BOXPID"
	wait "$BOXPID"
	expect_match "uid 65534 via /proc/PID/root" "$via_proc" \
		'Permission denied' &&
		expect_match "uid 65534 in the box's mount namespace" "$in_ns" \
			'Permission denied' &&
		expect "twin: root in that namespace" "$twin" "$SECRET_VALUE"
}

# --- doctor ------------------------------------------------------------------

t_doctor_reports_tiers() {
	# The kernel's features: polc's report (compiler/cli/doctor.c).
	OUT=$("$BIN/polc" doctor 2>&1)
	expect "exit" "$?" 0 || return 1
	for probe in "cgroup v2" "cgroup v1" rlimits "user namespaces" \
		landlock seccomp pasta nftables; do
		expect_match "$probe" "$OUT" "^  $probe +(found|MISSING) " ||
			return 1
	done
	# polexec --doctor without an artifact says where the report went
	OUT=$("$POLEXEC" --doctor 2>&1)
	expect "polexec --doctor alone" "$?" 125 &&
		expect_match "points to polc doctor" "$OUT" 'polc doctor' ||
		return 1
	box_pid --doctor "$ART/limits-require.polbin"
	if is_root; then
		expect "require as root" "$RC" 0 &&
			expect_match "memory" "$OUT" 'limits memory +found +cgroup-v1' &&
			expect_match "summary" "$OUT" 'everything it needs is here' ||
			return 1
	else
		expect "require without a cgroup" "$RC" 1 &&
			expect_match "memory" "$OUT" 'limits memory +MISSING .*systemd-run --user --scope -p Delegate=yes' &&
			expect_match "pids" "$OUT" 'limits pids +found +rlimit-userns' ||
			return 1
	fi
	no_cgroup_left "$PEPID" || return 1
	# best_effort: whatever is here will do
	OUT=$("$POLEXEC" --doctor "$ART/limits-mem.polbin" 2>&1)
	expect "best_effort" "$?" 0 || return 1
	SECRET_DIR=$T OUT=$("$POLEXEC" --doctor "$ART/secret.polbin" 2>&1)
	expect "secrets" "$?" 0 &&
		expect_match "secrets" "$OUT" 'env secrets +found' || return 1
	# Landlock: the ABI a run would refuse below is missing
	OUT=$("$POLEXEC" --doctor "$ART/ll_require_high.polbin" 2>&1)
	expect "landlock require" "$?" 1 &&
		expect_match "landlock" "$OUT" '^  landlock +MISSING +the kernel.s ABI is [0-9]+, below the policy.s 60 \(require\)' ||
		return 1
	OUT=$("$POLEXEC" --doctor "$ART/ll_best_high.polbin" 2>&1)
	expect "landlock best_effort" "$?" 0 &&
		expect_match "landlock" "$OUT" '^  landlock +found .*best_effort' ||
		return 1
	# the view: mount and pid namespaces, root's or a user namespace's
	OUT=$("$POLEXEC" --doctor "$ART/view.polbin" 2>&1)
	expect "view" "$?" 0 &&
		expect_match "view" "$OUT" '^  view +found +a .*mount and pid namespace' ||
		return 1
	# a layer this polexec does not enforce: missing
	"$BIN/mkpolbin" add "$ART/basic.polbin" "$T/unk" 77 1
	OUT=$("$POLEXEC" --doctor "$T/unk" 2>&1)
	expect "unknown section" "$?" 1 &&
		expect_match "named" "$OUT" 'MISSING.*newer polexec'
}

TESTS="
t_allowed_calls_work
t_denied_call_returns_declared_errno
t_default_action_is_declared_errno
t_kill_rule_kills
t_socket_unix_allowed
t_socket_packet_denied_by_argument_rule
t_socket_packet_high_bits_still_denied
t_egress_companions_refuse
t_egress_companions_spare_the_rest
t_x32_syscall_killed
t_int80_syscall_refused
t_host_variable_absent_in_box
t_passed_variable_present_in_box
t_variables_bound_or_refused
t_inherited_fd_closed_in_box
t_std_fds_open_in_box
t_box_in_new_session
t_parent_environ_unreachable
t_signals_reset_in_box
t_sigterm_forwarded
t_sigusr1_forwarded
t_sleeper_twin_exits_normally
t_exit_status_propagated
t_intact_artifact_runs_canary
t_corrupt_artifact_never_runs
t_unknown_critical_section_refused
t_unimplemented_layers_refused
t_hostile_net_sections_refused
t_record_survives_hostile_meta_name
t_hostile_sections_refused
t_no_syscalls_block_records_seccomp_enforced
t_net_none_private_loopback
t_net_none_without_namespace
t_child_failure_recorded_as_refusal
t_run_record
t_example_hello
t_example_shell_runs_ls_and_cat
t_example_shell_denies_unshare
t_example_shell_denies_mount
t_example_shell_kills_ptrace
t_bwrap_loads_our_program
t_capabilities_dropped
t_example_shell_denies_clone_newuser
t_ll_write_into_ro_folder_denied
t_ll_system_file_wronly_denied
t_ll_secret_outside_grants_denied
t_ll_secret_via_proc_self_root_denied
t_ll_secret_via_proc_1_root_denied
t_ll_secret_via_planted_symlink_denied
t_ll_secret_via_dotdot_denied
t_ll_hard_link_denied
t_ll_rename_across_folders_refer
t_ll_truncate_ro_file_denied
t_ll_exec_from_rw_not_x_denied
t_ll_tcp_unlisted_port_denied
t_ll_signal_outside_denied
t_ll_abstract_socket_outside_denied
t_ll_with_seccomp
t_ll_record_lists_rules
t_ll_missing_path_refused_unless_optional
t_ll_symlink_in_rule_path_refused_unless_follow
t_ll_symlink_refused_without_openat2
t_ll_unbound_variable_and_home_refused
t_ll_write_to_home_refused_at_run_time
t_ll_secret_store_warned_at_start
t_ll_require_refuses_older_kernel
t_ll_absent_landlock_negotiated
t_nested_inner_blames_outer_box
t_ll_polc_lints
t_ll_dump_and_doctor
t_ll_hostile_sections_refused
t_ll_behind_view
t_view_metadata_on_ro_grant_erofs
t_view_memfd_never_runs
t_view_unix_socket_outside_grants_unreachable
t_view_host_tmp_not_visible
t_view_rw_host_tmp
t_view_root_granted
t_view_proc_shows_only_the_box
t_view_dev_has_only_the_listed_nodes
t_view_root_caller_user_nobody
t_view_record_and_require_enforced
t_view_real_programs
t_view_grant_in_own_mount_keeps_its_mount
t_view_degraded_replacements
t_group_sigkill_leaves_no_cgroup
t_killed_keeper_cgroups_swept
t_memory_cap_kills_or_refuses
t_pids_cap_stops_fork_loop
t_cpu_limit_stops_busy_loop
t_wall_limit_stops_sleep
t_fsize_limit_stops_write
t_nofile_and_core_limits
t_cgroup_ends_whole_box
t_limits_require_or_refuse
t_limits_record_names_tiers
t_hostile_limits_refused
t_secret_reaches_box_as_file
t_secret_readable_under_landlock
t_secret_value_nowhere_else
t_secret_sources_checked
t_secret_other_user_cannot_read
t_doctor_reports_tiers
"

two_passes leak "${LEAK_INNER:-}" "${LEAK_ONLY:-}"
