#!/bin/sh
# SPDX-License-Identifier: MIT
#
# The observation suite (docs/OBSERVE.md): every denial class in the run
# record with its name (seccomp errno, seccomp kill, Landlock, net in
# tests/net), a flood that stays bounded, --explain, observe destructive,
# learn mode, a supervisor that dies or stops answering never turning a
# denial into an allow, and python3, git and node taken from a strict
# policy through --learn and polc suggest to a run with nothing denied,
# the widening listed by polc check --boundary. Each test asserts what the kernel did (errno,
# exit status, files made or not) as well as what the record says.
#
# Run as root, the suite runs again as uid 65534 over a copy of the
# binaries and artifacts that uid can read. Canaries live only in the
# suite's own temp folders. Ends with "observe: N passed, N failed".
# OBSERVE_ONLY="t_a t_b" runs only those tests; B=DIR the build folder.
set -u

HERE=$(cd "$(dirname "$0")" && pwd)
. "$HERE/../lib.sh"
passed=0
failed=0
failures=
WHO_RUNS="uid $(id -u)"

box() {
	OUT=$("$POLEXEC" "$@" 2>"$T/stderr")
	RC=$?
	ERR=$(cat "$T/stderr")
}

# jrec FILTER: jq over the record of the last run, $T/rec.json.
jrec() {
	jq -r "$1" "$T/rec.json" 2>/dev/null
}

setup_shared() {
	suite_paths
	SHARED=$(mktemp -d /tmp/polc-observe.XXXXXX) || exit 2
	trap 'rm -rf "$SHARED"' EXIT
	chmod 755 "$SHARED"
	mkdir -p "$SHARED/bin" "$SHARED/art"
	for f in polexec polc tests/observe/obsprobe tests/observe/auditctl \
		tests/observe/polexec-hooks; do
		if [ ! -x "$B/$f" ]; then
			say "observe: $B/$f is missing: run make first"
			exit 2
		fi
		cp "$B/$f" "$SHARED/bin/" || exit 2
	done
	cp "$HERE/run.sh" "$SHARED/bin/run.sh" || exit 2
	support_copy "$SHARED" || exit 2
	for pol in "$HERE"/*.pol; do
		name=$(basename "$pol" .pol)
		cp "$pol" "$SHARED/art/" || exit 2
		"$B/polc" build "$pol" -o "$SHARED/art/$name.polbin" \
			>"$SHARED/art/$name.log" 2>&1 ||
			say "observe: polc build $pol failed: $(cat "$SHARED/art/$name.log")"
	done
	chmod -R a+rX "$SHARED"
}

use_shared() {
	BIN=$SHARED/bin
	ART=$SHARED/art
	POLEXEC=$BIN/polexec
	POLC=$BIN/polc
	HOOKS=$BIN/polexec-hooks
	PROBE=$BIN/obsprobe
	SCRATCH=$(mktemp -d /tmp/polc-observe-run.XXXXXX) || exit 2
	support_use "$SHARED"
}

# --- seccomp denials --------------------------------------------------------

t_errno_denial_recorded() {
	box --record "$T/rec.json" "$ART/deny.polbin" -- "$PROBE" socket6
	expect "the box got EACCES, three times" "$OUT" \
		"$(printf 'socket6: errno=13\nsocket6: errno=13\nsocket6: errno=13')" &&
		expect "exit status" "$RC" 0 || return 1
	expect "one entry" "$(jrec '.denials | length')" 1 &&
		expect "layer" "$(jrec '.denials[0].layer')" seccomp &&
		expect "the call in words" "$(jrec '.denials[0].call')" \
			"socket(AF_INET6, SOCK_DGRAM, 0)" &&
		expect "action" "$(jrec '.denials[0].action')" "errno(EACCES)" &&
		expect "decided by" "$(jrec '.denials[0].by')" rule &&
		expect "the rule" "$(jrec '.denials[0].rule')" \
			"errno(EACCES) socket if family == AF_INET6" &&
		expect "count" "$(jrec '.denials[0].count')" 3 &&
		expect "observation" "$(jrec .observation.seccomp)" notified
}

t_default_denial_recorded() {
	box --record "$T/rec.json" "$ART/deny.polbin" -- "$PROBE" getppid 5
	expect "the box got EPERM" "$OUT" \
		"getppid: 5 calls, 5 failed errno=1" || return 1
	expect "syscall" "$(jrec '.denials[0].syscall')" getppid &&
		expect "action" "$(jrec '.denials[0].action')" "errno(EPERM)" &&
		expect "decided by the default" "$(jrec '.denials[0].by')" \
			default &&
		expect "the default's text" "$(jrec '.denials[0].rule')" \
			"default errno(EPERM)" &&
		expect "count" "$(jrec '.denials[0].count')" 5
}

# kill_process: the supervisor kills the caller (SIGKILL), before it can
# print anything after the call, and records it.
t_kill_denial_recorded() {
	box --record "$T/rec.json" "$ART/deny.polbin" -- "$PROBE" ptrace
	expect "killed by SIGKILL" "$RC" 137 &&
		expect "nothing printed after the call" "$OUT" "" || return 1
	expect "syscall" "$(jrec '.denials[0].syscall')" ptrace &&
		expect "action" "$(jrec '.denials[0].action')" kill_process &&
		expect "rule" "$(jrec '.denials[0].rule')" "kill_process ptrace" &&
		expect "record's signal" "$(jrec .signal_name)" SIGKILL
}

# Without the supervisor (a test hook of polexec-hooks), the kernel
# enforces the decision program itself: kill is SIGSYS, and the record
# says no denial was observed. The same decision either way.
t_kill_without_supervisor() {
	OUT=$(POLEXEC_TEST_NO_OBSERVE=1 "$HOOKS" --record "$T/rec.json" \
		"$ART/deny.polbin" -- "$PROBE" ptrace 2>"$T/stderr")
	RC=$?
	expect "killed by SIGSYS" "$RC" 159 &&
		expect "nothing printed" "$OUT" "" &&
		expect "observation off" "$(jrec .observation.seccomp)" off &&
		expect "no denial recorded" "$(jrec '.denials | length')" 0
}

t_explain_lines() {
	box --explain --record "$T/rec.json" "$ART/deny.polbin" -- \
		"$PROBE" socket6
	expect "one line per distinct denial" "$ERR" \
		"polexec: denied: socket(AF_INET6, SOCK_DGRAM, 0): errno(EACCES) (seccomp rule: errno(EACCES) socket if family == AF_INET6)" ||
		return 1
	box --record "$T/rec.json" "$ART/deny.polbin" -- "$PROBE" socket6
	expect "nothing on stderr without --explain" "$ERR" "" &&
		expect "the record has it anyway" "$(jrec '.denials | length')" 1
}

# Allowed calls never leave the kernel: a run that is denied nothing
# answered no notification.
t_allowed_calls_not_notified() {
	echo data >"$T/f" && chmod a+r "$T/f" || return 1
	box --record "$T/rec.json" "$ART/deny.polbin" -- "$PROBE" read "$T/f"
	expect "read works" "$OUT" "read: ok" &&
		expect "no notification" "$(jrec .observation.notifications)" 0
}

# A million denied calls: one entry counting them all, a record of bounded
# size, and every call answered with the compiled errno.
t_flood_bounded() {
	box --record "$T/rec.json" "$ART/deny.polbin" -- "$PROBE" getppid 1000000
	expect "every call denied" "$OUT" \
		"getppid: 1000000 calls, 1000000 failed errno=1" || return 1
	expect "one entry" "$(jrec '.denials | length')" 1 &&
		expect "counted" "$(jrec '.denials[0].count')" 1000000 &&
		expect "answered" "$(jrec .observation.notifications)" 1000000 &&
		expect "nothing dropped" "$(jrec .denials_dropped)" 0 || return 1
	size=$(wc -c <"$T/rec.json")
	if [ "$size" -gt 16384 ]; then
		say "    FAIL: record of $size bytes after a flood"
		return 1
	fi
}

# The box cannot make a seccomp listener of its own (the companion rule),
# which could otherwise answer polexec's denials once polexec is gone.
t_box_cannot_make_listener() {
	box --record "$T/rec.json" "$ART/deny.polbin" -- "$PROBE" listener
	expect "seccomp(NEW_LISTENER) refused" "$OUT" "listener: errno=13" &&
		expect "by the companion" "$(jrec '.denials[0].by')" companion
}

# --- the supervisor fails closed -------------------------------------------

# wait_blocked PIDFILE: the pid in PIDFILE, once its thread waits in
# mkdir (83) for an answer; bounded by 500 looks, not by time.
wait_blocked() {
	i=0
	while [ $i -lt 500 ]; do
		if [ -e "$1.done" ]; then
			WB_PID=$(cat "$1")
			if [ "$(cut -d' ' -f1 "/proc/$WB_PID/syscall" 2>/dev/null)" = 83 ]; then
				return 0
			fi
		fi
		i=$((i + 1))
		sleep 0.02
	done
	say "    FAIL: the grandchild never waited in mkdir"
	return 1
}

# wait_file FILE: bounded, as above.
wait_file() {
	i=0
	while [ $i -lt 500 ] && [ ! -s "$1" ]; do
		i=$((i + 1))
		sleep 0.02
	done
	[ -s "$1" ] || { say "    FAIL: $1 never came"; return 1; }
}

# polexec killed while a call of the box waits for its answer: the kernel
# fails the call (ENOSYS once the listener is closed); the folder is not
# made. A grandchild of the box outlives polexec (no pid namespace here),
# so what it got can be seen.
t_supervisor_killed_denies() {
	POLEXEC_TEST_STALL=1 "$HOOKS" "$ART/deny.polbin" -- "$PROBE" \
		mkdir-later "$T/canary" "$T/pid" "$T/out" >/dev/null 2>&1 &
	px=$!
	wait_blocked "$T/pid" || { kill -9 $px; return 1; }
	kill -9 $px
	wait $px 2>/dev/null
	wait_file "$T/out" || { kill -9 "$WB_PID" 2>/dev/null; return 1; }
	expect "the waiting call failed with ENOSYS" "$(cat "$T/out")" \
		"mkdir: errno=38" &&
		expect_absent "the canary folder" "$T/canary"
}

# A supervisor that stops answering: the call waits, the wall limit ends
# the box, and the call never ran.
t_supervisor_stalls_until_wall() {
	cat >"$T/stall.pol" <<-EOF
	policy "stall" {
	  limits { wall 1s  grace 100ms }
	  syscalls default allow { errno(EPERM) mkdir }
	}
	EOF
	"$BIN/polc" build "$T/stall.pol" -o "$T/stall.polbin" >/dev/null 2>&1 ||
		return 1
	OUT=$(POLEXEC_TEST_STALL=1 "$HOOKS" --record "$T/rec.json" \
		"$T/stall.polbin" -- "$PROBE" mkdir "$T/canary" 2>"$T/stderr")
	RC=$?
	expect_absent "the canary folder" "$T/canary" &&
		expect "the probe never got an answer" "$OUT" "" &&
		expect "killed by the wall limit" "$(jrec .limits.wall.hit)" true &&
		expect "SIGTERM" "$RC" 143
}

# A policy that denies every call the box's last steps could make: the
# hand-over of the listener waits without a syscall (supervise.c), so
# execve is the first call after the notify program goes in, and the box
# is refused or dies as the kernel would end it, never hangs (the wall
# limit ends a hang once the box runs: 143; a hang before, in the
# hand-over, only the guard's SIGKILL ends, and leaves no record). The
# same with the threads spinning (no userfaultfd) and with the kernel
# alone deciding. The command, had it run, would have made the canary
# folder.
deny_everything() { # ACTION WHO RC OUTCOME [ENV=VALUE]
	cat >"$T/all.pol" <<-EOF
	policy "deny-all" {
	  limits { wall 20s  grace 100ms }
	  syscalls default $1 { ${ALLOW:-} }
	}
	EOF
	"$BIN/polc" build "$T/all.pol" -o "$T/all.polbin" >/dev/null 2>&1 ||
		return 1
	rm -f "$T/rec.json"
	OUT=$(env ${5:-POLEXEC_TEST_NONE=1} timeout -s KILL 30 \
		"$2" --record "$T/rec.json" \
		"$T/all.polbin" -- "$PROBE" mkdir "$T/canary" 2>"$T/stderr")
	RC=$?
	ERR=$(cat "$T/stderr")
	expect "$1 ${5:-}: exit status" "$RC" "$3" &&
		expect "$1 ${5:-}: outcome" "$(jrec .outcome)" "$4" &&
		expect "$1 ${5:-}: not the wall limit" \
			"$(jrec ".limits.wall.hit // false")" false &&
		expect_absent "$1 ${5:-}: the canary folder" "$T/canary"
}

t_deny_everything() {
	bad=0
	deny_everything "errno(EPERM)" "$POLEXEC" 125 refused &&
		expect "why, once on stderr" "$ERR" \
			"polexec: exec: $PROBE: Operation not permitted" &&
		expect "why, in the record" "$(jrec .reason)" \
			"exec: $PROBE: Operation not permitted" &&
		expect "execve's denial recorded" \
			"$(jrec '.denials[0].syscall + " " + .denials[0].by')" \
			"execve default" || bad=1
	deny_everything kill_process "$POLEXEC" 137 signaled &&
		expect "execve killed" "$(jrec '.denials[0].syscall')" execve ||
		bad=1
	deny_everything kill_thread "$POLEXEC" 159 signaled &&
		expect "as by the kernel" "$(jrec .signal_name)" SIGSYS || bad=1
	deny_everything trap "$POLEXEC" 159 signaled || bad=1
	for a in "errno(EPERM) 125 refused" "kill_process 137 signaled" \
		"kill_thread 159 signaled" "trap 159 signaled"; do
		set -- $a
		deny_everything "$1" "$HOOKS" "$2" "$3" \
			POLEXEC_TEST_NO_GATE=1 || bad=1
	done
	for a in "errno(EPERM) 125 refused" "kill_process 159 signaled" \
		"kill_thread 159 signaled"; do
		set -- $a
		deny_everything "$1" "$HOOKS" "$2" "$3" \
			POLEXEC_TEST_NO_OBSERVE=1 || bad=1
	done
	# Everything but the hand-over's own sendmsg: the thread that
	# installs sends the listener itself, and then has no syscall to
	# end with either.
	ALLOW="allow sendmsg"
	deny_everything "errno(EPERM)" "$POLEXEC" 125 refused &&
		expect "why, sendmsg allowed" "$(jrec .reason)" \
			"exec: $PROBE: Operation not permitted" || bad=1
	deny_everything kill_thread "$POLEXEC" 159 signaled || bad=1
	ALLOW=
	return $bad
}

# The listener handed over by the thread that installs (the policy allows
# its sendmsg), by a second thread at the gate, and by a second thread
# spinning: the same denials, answered and recorded alike.
t_handover_paths() {
	cat >"$T/allow.pol" <<-EOF
	policy "allow-most" {
	  syscalls default allow {
	    errno(EACCES) socket if domain == AF_INET6
	    errno(EPERM) getppid
	  }
	}
	EOF
	"$BIN/polc" build "$T/allow.pol" -o "$T/allow.polbin" >/dev/null 2>&1 ||
		return 1
	for how in POLEXEC_TEST_NONE POLEXEC_TEST_TWO_THREADS \
		POLEXEC_TEST_NO_GATE; do
		OUT=$(env $how=1 timeout -s KILL 30 "$HOOKS" \
			--record "$T/rec.json" "$T/allow.polbin" -- \
			"$PROBE" getppid 3 2>"$T/stderr")
		expect "$how: the box got EPERM" "$? $OUT" \
			"0 getppid: 3 calls, 3 failed errno=1" &&
			expect "$how: recorded" \
				"$(jrec '.denials[0].syscall + " " + (.denials[0].count | tostring)')" \
				"getppid 3" &&
			expect "$how: notified" "$(jrec .observation.seccomp)" \
				notified || return 1
	done
}

# --- Landlock -----------------------------------------------------------------

# Landlock's own denials reach the record only from the kernel's audit
# log: as root, with audit on (turned on here for this run and back off).
# As uid 65534 the record says they are not observable, and lists none.
t_landlock_denial() {
	mkdir "$T/dir" && echo secret >"$T/dir/canary" && chmod -R a+rX "$T"
	if [ "$(id -u)" = 0 ]; then
		was=$("$BIN/auditctl" get) || return 1
		"$BIN/auditctl" on >/dev/null || return 1
	fi
	box --var BIN="$BIN" --var DIR="$T/dir" --record "$T/rec.json" \
		"$ART/landlock.polbin" \
		-- "$PROBE" read "$T/dir/canary"
	[ "$(id -u)" != 0 ] || [ "$was" = enabled=1 ] ||
		"$BIN/auditctl" off >/dev/null
	expect "the read was denied" "$OUT" "read: errno=13" || return 1
	if [ "$(id -u)" = 0 ]; then
		expect "observation" "$(jrec .observation.landlock)" \
			"recorded from the kernel's audit log" &&
			expect "layer" "$(jrec '.denials[0].layer')" landlock &&
			expect "path" "$(jrec '.denials[0].path')" "$T/dir/canary" &&
			expect "right" "$(jrec '.denials[0].rights | join(",")')" \
				read_file &&
			expect "seen" "$(jrec '.denials[0].seen')" audit
	else
		expect_match "observation" "$(jrec .observation.landlock)" \
			"^not observable: .*non-root" &&
			expect "no Landlock denial claimed" \
				"$(jrec '[.denials[] | select(.layer == "landlock")] | length')" 0
	fi
}

# --- observe destructive ----------------------------------------------------

t_observe_destructive() {
	mkdir "$T/ws" "$T/out" && chmod -R a+rwX "$T"
	box --var BIN="$BIN" --var WS="$T/ws" --var OUT="$T/out" \
		--record "$T/rec.json" \
		"$ART/destructive.polbin" -- "$PROBE" destructive "$T/ws" \
		"$T/out/o"
	expect "the probe ran" "$OUT" "destructive: ok" || return 1
	expect "the calls, in order" \
		"$(jrec '[.side_effects[] | .syscall + " " + .path + (if .to then " " + .to else "" end) + (if .flags then " " + .flags else "" end)] | join("; ")')" \
		"creat ./a; openat ./a O_WRONLY|O_TRUNC; ftruncate ./a; truncate ./a; rename ./a ./b; unlinkat ./d AT_REMOVEDIR; unlink ./b; openat sha256:$(printf '%s' "$T/out/o" | sha256sum | cut -d' ' -f1) O_WRONLY|O_CREAT|O_TRUNC" &&
		expect "no path outside the workspace in clear" \
			"$(jrec .side_effects | grep -c "$T/out")" 0 &&
		expect "nothing denied" "$(jrec '.denials | length')" 0
}

# --- learn mode ------------------------------------------------------------------

t_learn_mode() {
	mkdir "$T/dir" && echo data >"$T/dir/f" && chmod -R a+rX "$T"
	box --var BIN="$BIN" --record "$T/rec.json" "$ART/learn.polbin" -- \
		"$PROBE" read "$T/dir/f"
	expect "enforced, the strict policy stops the read" "$OUT" \
		"read: errno=1" || return 1
	box --var BIN="$BIN" --learn --record "$T/rec.json" \
		"$ART/learn.polbin" -- "$PROBE" read "$T/dir/f"
	expect "learn: the same run succeeds" "$OUT" "read: ok" &&
		expect "mode" "$(jrec .mode)" learn &&
		expect_match "no layer enforced" "$(jrec .layers.seccomp.tier)" \
			'^degraded\(learn mode' &&
		expect_match "landlock not enforced" \
			"$(jrec .layers.landlock.tier)" '^degraded\(learn mode' &&
		expect_match "how the paths were judged" \
			"$(jrec .observation.landlock)" '^learned: no Landlock' ||
		return 1
	expect "the file read is recorded" \
		"$(jrec '[.denials[] | select(.layer == "landlock") | .path + " " + (.rights | join(","))] | map(select(startswith("'"$T"'"))) | join("; ")')" \
		"$T/dir/f read_file" &&
		expect "allowed, and said so" \
			"$(jrec '[.denials[] | select(.layer == "landlock")][0].action')" \
			allowed &&
		expect_match "a syscall the policy would deny" \
			"$(jrec '[.denials[] | select(.layer == "seccomp") | .syscall] | join(" ")')" \
			'(^| )openat( |$)' &&
		expect "learned" \
			"$(jrec '[.denials[] | select(.learned | not)] | length')" 0
}

# Learn mode keeps the egress companions: a packet socket is refused.
t_learn_keeps_companions() {
	box --var BIN="$BIN" --learn --record "$T/rec.json" \
		"$ART/learn.polbin" -- "$PROBE" packet
	expect "packet socket refused" "$OUT" "packet: errno=13" &&
		expect "recorded as enforced" \
			"$(jrec '[.denials[] | select(.syscall == "socket")][0] | .by + " " + (.learned | tostring)')" \
			"companion false"
}

# --- workloads: strict, learn, suggest, build, pass --------------------------

# rules_added OLD NEW: what NEW adds to OLD, one "sys NAME" or "fs PATH" a
# line, sorted; boundary_lists: the same, from polc check's findings.
rules_added() {
	diff "$1" "$2" | sed -n 's/^> *//p' | grep -v '^#' |
		sed -n -e '/^allow .* on "/{s/^allow .* on "\(.*\)"$/fs \1/p;d;}' \
			-e 's/^r[owx]* "\(.*\)"$/fs \1/p' -e 's/^dev$/fs \/dev/p' \
			-e 's/^allow \([a-z0-9_]*\).*/sys \1/p' | sort -u
}
boundary_lists() {
	sed -n -e 's/^syscalls: \([a-z0-9_]*\)(.*/sys \1/p' \
		-e 's/^fs: [a-z_,]* on \(.*\): new grants.*/fs \1/p' \
		-e 's/^fs: dev \(.*\): new a dev .*/fs \1/p' | sort -u
}

# workload NAME CHECK_OUTPUT COMMAND...: in $T/ws, the strict policy stops
# the command and the record names the loader's denied openat; under
# --learn it runs; polc suggest's policy builds, runs it with no denial,
# and polc check --boundary lists exactly the rules suggest added.
workload() {
	name=$1 want=$2
	shift 2
	mkdir "$T/ws" && cp "$ART/strict.pol" "$T/strict.pol" && cd "$T/ws" ||
		return 1
	box --var WORKSPACE="$T/ws" --record "$T/rec.json" \
		"$ART/strict.polbin" -- "$@"
	expect "$name: the strict policy stops it" "$RC" 127 &&
		expect "$name: the record names the loader's denial" \
			"$(jrec '[.denials[] | select(.by == "default") | .call] | index("openat(AT_FDCWD, \"/etc/ld.so.cache\", O_RDONLY|O_CLOEXEC, 0)") != null')" \
			true || return 1
	box --var WORKSPACE="$T/ws" --learn --record "$T/learn.json" \
		"$ART/strict.polbin" -- "$@"
	expect "$name: learn mode runs it" "$RC $OUT" "0 $want" &&
		expect "$name: learn record" \
			"$(jq -r '.mode + " " + (.denials_dropped | tostring)' "$T/learn.json")" \
			"learn 0" || return 1
	"$POLC" suggest --policy "$T/strict.pol" "$T/learn.json" \
		-o "$T/new.pol" 2>"$T/suggest.err"
	expect "$name: polc suggest" "$? $(cat "$T/suggest.err")" "0 " &&
		"$POLC" build "$T/new.pol" -o "$T/new.polbin" >"$T/build.log" 2>&1
	expect "$name: the suggestion builds" "$? $(cat "$T/build.log")" "0 " ||
		return 1
	cd "$T" && rm -rf "$T/ws" && mkdir "$T/ws" && cd "$T/ws" || return 1
	box --var WORKSPACE="$T/ws" --record "$T/rec.json" "$T/new.polbin" \
		-- "$@"
	expect "$name: it passes under the suggestion" "$RC $OUT" "0 $want" &&
		expect "$name: with nothing denied" "$(jrec '.denials | length')" \
			0 || return 1
	"$POLC" check --boundary "$T/strict.pol" "$T/new.pol" >"$T/check.out"
	expect "$name: the check says it widens" "$?" 1 &&
		expect_match "$name: rules were added" \
			"$(rules_added "$T/strict.pol" "$T/new.pol" | wc -l)" \
			'^[1-9][0-9]*$' &&
		expect "$name: the check lists exactly the added rules" \
			"$(boundary_lists <"$T/check.out")" \
			"$(rules_added "$T/strict.pol" "$T/new.pol")"
}

t_workload_python() {
	workload python3 '{"ok": 1}' /usr/bin/python3 -c \
		'import json, socket
socket.socket(socket.AF_UNIX).close()
open("out.txt", "w").write(json.dumps({"ok": 1}))
print(open("out.txt").read())'
}

t_workload_git() {
	workload git one /bin/sh -c 'echo a >a.txt && git init -q . &&
		git add a.txt && git -c user.name=t -c user.email=t@t \
		commit -q -m one && git log --format=%s'
}

t_workload_node() {
	workload node '{"ok":1}' /usr/bin/node -e \
		'const fs = require("fs");
fs.writeFileSync("out.txt", JSON.stringify({ok: 1}));
console.log(fs.readFileSync("out.txt", "utf8"))'
}

TESTS="
t_errno_denial_recorded
t_default_denial_recorded
t_kill_denial_recorded
t_kill_without_supervisor
t_explain_lines
t_allowed_calls_not_notified
t_flood_bounded
t_box_cannot_make_listener
t_supervisor_killed_denies
t_supervisor_stalls_until_wall
t_deny_everything
t_handover_paths
t_landlock_denial
t_observe_destructive
t_learn_mode
t_learn_keeps_companions
t_workload_python
t_workload_git
t_workload_node
"

two_passes observe "${OBSERVE_INNER:-}" "${OBSERVE_ONLY:-}"
