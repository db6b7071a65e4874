#!/bin/sh
# SPDX-License-Identifier: MIT
#
# polc import oci and polc export oci on the command line: what they write
# (fmt-clean, compilable, every entry accounted for, valid JSON that
# imports again) and what they refuse (every problem at once, exit 2, no
# output). The semantics are test_oci's; the real runtime is runc.sh's.
#
# POLC names the compiler (default: build/polc of this tree).

set -u

HERE=$(cd "$(dirname "$0")" && pwd)
. "$HERE/../lib.sh" # expect..., suite_paths
suite_paths
root=$ROOT
POLC=${POLC:-$B/polc}
AGENT=$root/bench/profiles/agent.json

if [ ! -x "$POLC" ]; then
	echo "oci: no polc at $POLC (set POLC)" >&2
	exit 2
fi
tmp=$(mktemp -d "${TMPDIR:-/tmp}/oci.XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT
passed=0
failed=0

run() {
	name=$1
	shift
	if "$@"; then
		passed=$((passed + 1))
	else
		failed=$((failed + 1))
		echo "FAIL $name"
	fi
}

# import PROFILE ARGS...: stdout to $tmp/out, stderr to $tmp/err, $rc.
import() {
	p=$1
	shift
	"$POLC" import oci "$@" "$p" >"$tmp/out" 2>"$tmp/err"
	rc=$?
}

profile() { cat >"$tmp/$1.json"; }

t_import_agent() {
	import "$AGENT" -o "$tmp/agent.pol" &&
		expect "exit" "$rc" 0 &&
		"$POLC" fmt "$tmp/agent.pol" >"$tmp/fmt" &&
		expect "polc fmt changes nothing" \
			"$(cmp -s "$tmp/fmt" "$tmp/agent.pol" && echo same)" same &&
		"$POLC" build "$tmp/agent.pol" -o "$tmp/agent.polbin" \
			2>/dev/null &&
		n=$(jq '.syscalls | length' "$AGENT") &&
		i=0 && while [ "$i" -lt "$n" ]; do
			grep -q "# syscalls\[$i\]" "$tmp/agent.pol" ||
				{ say "    FAIL: entry $i not in the output"; return 1; }
			i=$((i + 1))
		done &&
		expect_match "the hole is named" "$(cat "$tmp/err")" \
			'syscalls\[11\] \(ioctl\): its 64-bit comparison on an int'
}

t_import_stdout_and_caps() {
	import "$AGENT" --cap CAP_SYS_ADMIN &&
		expect "exit" "$rc" 0 &&
		expect_match "mount with CAP_SYS_ADMIN" "$(cat "$tmp/out")" \
			'^    allow .*\bmount\b' &&
		import "$AGENT" &&
		expect_nomatch "no mount without" "$(grep -v '^ *#' "$tmp/out")" \
			'\bmount\b'
}

# Every problem of the profile at once, and nothing written.
t_import_every_error() {
	profile bad <<'EOF'
{"defaultAction": "SCMP_ACT_ERRNO", "defaultErrnoRet": 1,
 "architectures": ["SCMP_ARCH_X86_64"], "flagz": [],
 "syscalls": [
  {"names": ["read", "opnat", "wirte", "nosuchcall"], "action": "SCMP_ACT_ALLOW"},
  {"names": ["ptrace"], "action": "SCMP_ACT_TRACE"},
  {"names": ["socket"], "action": "SCMP_ACT_ALLOW",
   "args": [{"index": 0, "value": 1, "op": "SCMP_CMP_EQUAL"}]},
  {"names": ["close"], "action": "SCMP_ACT_ALOW"},
  {"names": ["dup"], "action": "SCMP_ACT_ERRNO", "errnoRet": 0},
  {"names": ["socket"], "action": "SCMP_ACT_ALLOW",
   "args": [{"index": 3, "value": 1, "op": "SCMP_CMP_EQ"}]},
  {"names": ["read"], "action": "SCMP_ACT_ALLOW", "includes": {"caps": ["CAP_SYS_ADMN"]}}
 ]}
EOF
	import "$tmp/bad.json" -o "$tmp/bad.pol"
	e=$(cat "$tmp/err")
	expect "exit" "$rc" 2 &&
		expect_absent "no output" "$tmp/bad.pol" &&
		expect_match "unknown key" "$e" "unknown key 'flagz'; did you mean 'flags'" &&
		expect_match "name 1" "$e" "syscalls\[0\] \(read opnat wirte ...\): unknown syscall 'opnat'; did you mean 'openat'" &&
		expect_match "name 2" "$e" "unknown syscall 'wirte'; did you mean 'write'" &&
		expect_match "name 3" "$e" "unknown syscall 'nosuchcall' \(no table of Linux" &&
		expect_match "trace" "$e" "syscalls\[1\] \(ptrace\): SCMP_ACT_TRACE hands the call to a tracer" &&
		expect_match "op" "$e" "syscalls\[2\].args\[0\] \(socket\): unknown op 'SCMP_CMP_EQUAL'" &&
		expect_match "action" "$e" "unknown action 'SCMP_ACT_ALOW'; did you mean 'SCMP_ACT_ALLOW'" &&
		expect_match "errno 0" "$e" "syscalls\[4\] \(dup\): errno 0" &&
		expect_match "argument" "$e" "syscalls\[5\] \(socket\): socket takes no argument 3" &&
		expect_match "capability" "$e" "unknown capability 'CAP_SYS_ADMN'; did you mean 'CAP_SYS_ADMIN'" &&
		expect "ten errors" "$(grep -c ': error: ' "$tmp/err")" 10
}

# What libseccomp decides otherwise than "the strictest wins" is refused.
t_import_libseccomp_conflicts() {
	profile conflict <<'EOF'
{"defaultAction": "SCMP_ACT_ERRNO",
 "syscalls": [
  {"names": ["read"], "action": "SCMP_ACT_ALLOW"},
  {"names": ["read"], "action": "SCMP_ACT_KILL_PROCESS"},
  {"names": ["write"], "action": "SCMP_ACT_ALLOW"},
  {"names": ["write"], "action": "SCMP_ACT_KILL_PROCESS",
   "args": [{"index": 0, "value": 2, "op": "SCMP_CMP_EQ"}]},
  {"names": ["socket"], "action": "SCMP_ACT_ALLOW",
   "args": [{"index": 0, "value": 10, "op": "SCMP_CMP_LT"}]},
  {"names": ["socket"], "action": "SCMP_ACT_TRAP",
   "args": [{"index": 0, "value": 2, "op": "SCMP_CMP_EQ"}]},
  {"names": ["dup"], "action": "SCMP_ACT_ALLOW",
   "args": [{"index": 0, "value": 10, "op": "SCMP_CMP_LT"}]},
  {"names": ["dup"], "action": "SCMP_ACT_TRAP",
   "args": [{"index": 0, "value": 10, "op": "SCMP_CMP_GE"}]}
 ]}
EOF
	import "$tmp/conflict.json"
	e=$(cat "$tmp/err")
	expect "exit" "$rc" 2 &&
		expect_match "two unconditional" "$e" \
			"syscalls\[0\] and syscalls\[1\]: read gets allow and then kill_process unconditionally" &&
		expect_match "conditional under unconditional" "$e" \
			"syscalls\[3\]: its kill_process rule for write is ignored by libseccomp" &&
		expect_match "overlap" "$e" \
			"syscalls\[4\] and syscalls\[5\]: socket gets allow and trap where both hold" &&
		expect_nomatch "disjoint is fine" "$e" "dup"
}

# The same profile minus its conflicts: disjoint rules of different
# actions, a redundant conditional rule, a repeated index (ORed).
t_import_resolved() {
	profile fine <<'EOF'
{"defaultAction": "SCMP_ACT_KILL",
 "syscalls": [
  {"names": ["read", "read"], "action": "SCMP_ACT_ALLOW"},
  {"names": ["read"], "action": "SCMP_ACT_ALLOW",
   "args": [{"index": 0, "value": 0, "op": "SCMP_CMP_EQ"}]},
  {"names": ["dup"], "action": "SCMP_ACT_ALLOW",
   "args": [{"index": 0, "value": 10, "op": "SCMP_CMP_LT"}]},
  {"names": ["dup"], "action": "SCMP_ACT_TRAP",
   "args": [{"index": 0, "value": 10, "op": "SCMP_CMP_GE"}]},
  {"names": ["close"], "action": "SCMP_ACT_ALLOW",
   "args": [{"index": 0, "value": 5, "op": "SCMP_CMP_GT"},
            {"index": 0, "value": 100, "op": "SCMP_CMP_LT"}]},
  {"names": ["write"], "action": "SCMP_ACT_KILL"},
  {"names": ["lseek"], "action": "SCMP_ACT_ALLOW",
   "args": [{"index": 1, "value": 18446744073709551615, "op": "SCMP_CMP_EQ"}]}
 ]}
EOF
	import "$tmp/fine.json" -o "$tmp/fine.pol"
	o=$(cat "$tmp/fine.pol" 2>/dev/null)
	expect "exit" "$rc" 0 &&
		expect_match "kill is kill_thread" "$o" "syscalls default kill_thread" &&
		expect_match "redundant" "$o" "read: already given by syscalls\[0\]" &&
		expect_match "ORed" "$o" "joined by OR" &&
		expect_match "default skipped" "$o" "The default action, which runc skips: write" &&
		expect_match "uint64" "$o" "allow lseek if offset == 0xffffffffffffffff" &&
		"$POLC" build "$tmp/fine.pol" -o "$tmp/fine.polbin" 2>/dev/null
}

t_import_json_errors() {
	printf '{"defaultAction": "SCMP_ACT_ERRNO",\n "syscalls": [\n  {"names": ["read"] "action": 1}\n ]}\n' \
		>"$tmp/syntax.json"
	import "$tmp/syntax.json"
	expect "exit" "$rc" 2 &&
		expect_match "place" "$(cat "$tmp/err")" \
			"syntax.json:3:30: error: not a JSON profile: '}' expected" &&
		printf '{"defaultAction": "SCMP_ACT_ERRNO", "defaultAction": "SCMP_ACT_ALLOW"}' \
			>"$tmp/dup.json" &&
		import "$tmp/dup.json" &&
		expect "duplicate key" "$rc" 2 &&
		expect_match "dup message" "$(cat "$tmp/err")" "duplicate object key" &&
		printf '{"defaultAction": "SCMP_ACT_ERRNO", "defaultErrnoRet": -1}' \
			>"$tmp/neg.json" &&
		import "$tmp/neg.json" &&
		expect "negative" "$rc" 2 &&
		expect_match "neg message" "$(cat "$tmp/err")" "negative number"
}

t_import_max_errors() {
	{
		printf '{"defaultAction": "SCMP_ACT_ERRNO", "syscalls": [{"action": "SCMP_ACT_ALLOW", "names": ["read"'
		i=0
		while [ $i -lt 1200 ]; do printf ', "nosuch%d"' $i; i=$((i + 1)); done
		printf ']}]}\n'
	} >"$tmp/many.json"
	import "$tmp/many.json"
	expect "default cap" "$(grep -c ': error: ' "$tmp/err")" 1000 &&
		expect_match "the rest counted" "$(cat "$tmp/err")" \
			"200 more errors not shown" &&
		import "$tmp/many.json" --max-errors 0 &&
		expect "all" "$(grep -c ': error: ' "$tmp/err")" 1200
}

t_import_options() {
	import "$AGENT" --arch aarch64
	expect "arch" "$rc" 2 &&
		expect_match "arch named" "$(cat "$tmp/err")" "x86_64 only for now" &&
		import "$AGENT" --cap CAP_NOPE &&
		expect "cap" "$rc" 2 &&
		import "$AGENT" --kernel 4.4 &&
		expect "old kernel" "$rc" 0 &&
		expect_match "minKernel decided" "$(cat "$tmp/out")" \
			"needs kernel 5.13 \(cachestat"
}

# export: valid JSON, imported again to the same syscalls layer: the
# prover finds the two equal but for badarch, which a profile cannot say
# (libseccomp kills the thread of an i386 call; shell.pol the process).
t_export_round_trip() {
	"$POLC" export oci "$root/examples/shell.pol" -o "$tmp/shell.json" \
		2>"$tmp/err" &&
		jq -e '.defaultAction and (.syscalls | length > 0)' \
			"$tmp/shell.json" >/dev/null &&
		import "$tmp/shell.json" -o "$tmp/shell-again.pol" &&
		expect "re-import" "$rc" 0 &&
		"$POLC" build "$tmp/shell-again.pol" -o "$tmp/again.polbin" \
			2>/dev/null &&
		"$POLC" build "$root/examples/shell.pol" -I "$root/stdlib-policies" \
			-o "$tmp/shell.polbin" 2>/dev/null &&
		{ "$POLC" check --boundary "$tmp/shell.polbin" "$tmp/again.polbin" \
			>"$tmp/check" 2>&1; rc=$?; } ;
	expect "only badarch differs" "$rc" 1 &&
		expect "one finding" "$(grep -c '^syscalls: ' "$tmp/check")" 1 &&
		expect_match "it is badarch" "$(cat "$tmp/check")" \
			'^syscalls: i386 .*new kill_thread, boundary kill_process' &&
		{ "$POLC" check --boundary "$tmp/again.polbin" "$tmp/shell.polbin" \
			>"$tmp/check" 2>&1; } ;
	# (the other way, shell.pol's fs and env are more than nothing)
	expect "no syscall beyond the original" \
		"$(grep -c '^syscalls: ' "$tmp/check")" 0
}

t_export_refusals() {
	printf 'policy "p" {\n  syscalls default allow {\n    errno(EPERM) 470\n  }\n}\n' \
		>"$tmp/num.pol"
	"$POLC" export oci "$tmp/num.pol" -o "$tmp/num.json" 2>"$tmp/err"
	rc=$?
	expect "number" "$rc" 2 &&
		expect_absent "nothing written" "$tmp/num.json" &&
		expect_match "why" "$(cat "$tmp/err")" "syscall 470: a profile names syscalls" &&
		printf 'policy "p" {\n  syscalls default allow {\n    errno(EPERM) mseal\n  }\n}\n' \
			>"$tmp/mseal.pol" &&
		{ "$POLC" export oci "$tmp/mseal.pol" >/dev/null 2>"$tmp/err"; rc=$?; } ;
	expect "widening" "$rc" 2 &&
		expect_match "runc drops" "$(cat "$tmp/err")" "mseal: libseccomp .* runc drops such a name" &&
		printf 'policy "p" {\n  syscalls default errno(EPERM) {\n    allow mseal read\n  }\n}\n' \
			>"$tmp/mseal2.pol" &&
		{ "$POLC" export oci "$tmp/mseal2.pol" >/dev/null 2>"$tmp/err"; rc=$?; } ;
	expect "narrowing" "$rc" 0 &&
		expect_match "a warning" "$(cat "$tmp/err")" "warning: mseal: libseccomp .* runc drops"
}

# dump names the numbers the dispatch compares, and keeps a syscall no
# table names as its number.
t_dump_names() {
	printf 'policy "p" {\n  syscalls default errno(EPERM) {\n    allow read 470 462\n    allow socket if family == AF_UNIX\n  }\n}\n' \
		>"$tmp/n.pol" &&
		"$POLC" build "$tmp/n.pol" -o "$tmp/n.polbin" 2>/dev/null &&
		d=$("$POLC" dump "$tmp/n.polbin") &&
		expect_match "a number kept" "$d" '^    allow 470 mseal read$' &&
		expect_match "the tree names" "$d" 'jeq  0x29 .*; nr == socket$'
}

run import_agent t_import_agent
run import_stdout_and_caps t_import_stdout_and_caps
run import_every_error t_import_every_error
run import_libseccomp_conflicts t_import_libseccomp_conflicts
run import_resolved t_import_resolved
run import_json_errors t_import_json_errors
run import_max_errors t_import_max_errors
run import_options t_import_options
run export_round_trip t_export_round_trip
run export_refusals t_export_refusals
run dump_names t_dump_names

echo "oci: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
