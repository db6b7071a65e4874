#!/bin/sh
# SPDX-License-Identifier: MIT
#
# Composition as the user sees it (docs/LANGUAGE.md, "Composition: the
# using file decides", "Egress companions"), through polc itself and the
# real standard library:
#
#   - a policy narrowing std/base or widening std/shell builds, with one
#     note at its statement and one at the fragment's, each with its
#     source line and caret, and no error or warning;
#   - `polc dump` shows the result, not the fragment's rule;
#   - the example policy of docs/LANGUAGE.md builds without a warning;
#   - `polc check` and `polc diff` print every diagnostic once, also when
#     both sides are one file or use one fragment.
#   - the view's keys (a tmpfs path, dev, proc, user) compose the same way.
#
# Ends with "compose: N passed, N failed"; exits non-zero when any failed.
set -u

HERE=$(cd "$(dirname "$0")" && pwd)
. "$HERE/../lib.sh" # expect..., suite_paths, run_suite
suite_paths
POLC=$B/polc
BASE=$ROOT/stdlib-policies/std/base.pol
SHELL_POL=$ROOT/stdlib-policies/std/shell.pol

# polc with its status and output captured: RC, OUT, ERR.
polc() {
	"$POLC" "$@" >"$T/stdout" 2>"$T/stderr"
	RC=$?
	OUT=$(cat "$T/stdout")
	ERR=$(cat "$T/stderr")
}

# The diagnostic lines of $ERR ("FILE:LINE:COL: LEVEL: ..."), and how many
# of them match a pattern (grep -E).
diags() { printf '%s\n' "$ERR" | grep -E '^[^ ].*: (error|warning|note): '; }
ndiags() { diags | grep -Ec -- "$1"; }

# expect_diag FILE:LINE:COL LEVEL TEXT SOURCE-LINE: exactly one such line,
# then the source line quoted, then a caret under the column.
expect_diag() {
	ed_col=${1##*:}
	ed_line=$(printf '%s\n' "$ERR" |
		grep -Fn -- "$1: $2: $3" | cut -d: -f1)
	expect "'$1: $2: $3' lines" "$(printf '%s\n' "$ed_line" | grep -c .)" 1 ||
		return 1
	expect "quoted after $1" \
		"$(printf '%s\n' "$ERR" | sed -n "$((ed_line + 1))p")" "    $4" &&
		expect "caret under $1" \
			"$(printf '%s\n' "$ERR" | sed -n "$((ed_line + 2))p")" \
			"    $(printf "%$((ed_col - 1))s")^"
}

# check_and_diff OLD NEW CHECK: polc check, then polc diff, of OLD and NEW
# (fragments from frag/), each followed by CHECK with the command's name.
check_and_diff() {
	polc check -I "$HERE/frag" --boundary "$1" "$2"
	"$3" check || return 1
	polc diff -I "$HERE/frag" "$1" "$2"
	"$3" diff
}

# No diagnostic line printed twice.
expect_no_repeats() {
	expect "diagnostics printed twice" \
		"$(diags | sort | uniq -d | tr '\n' '|')" ""
}

t_policy_narrows_std_base() {
	printf 'policy "p" {\n  use std/base\n  syscalls default errno(EPERM) {\n    kill execve\n  }\n}\n' >p.pol
	polc build p.pol -o p.polbin
	expect "exit" "$RC" 0 &&
		expect "errors and warnings" "$(ndiags ': (error|warning): ')" 0 &&
		expect "notes" "$(ndiags ': note: ')" 2 &&
		expect_diag p.pol:4:10 note \
			"'execve' is decided by this file, not by the fragments it uses" \
			"    kill execve" &&
		expect_diag "$BASE:13:11" note "this rule no longer applies" \
			"    allow execve exit exit_group" || return 1
	# The effective policy: execve killed, std/base's other rules kept.
	polc dump p.polbin
	expect "dump" "$RC" 0 &&
		expect_match "dump: execve killed" "$OUT" '^    kill_process execve$' &&
		expect_nomatch "dump: execve allowed" "$OUT" '^    allow .*\bexecve\b' &&
		expect_match "dump: std/base kept" "$OUT" '^    allow .*\bexit_group\b'
}

t_policy_widens_std_shell() {
	printf 'policy "p" {\n  use std/shell\n  syscalls {\n    allow clone\n  }\n}\n' >p.pol
	polc build p.pol -o p.polbin
	expect "exit" "$RC" 0 &&
		expect "errors and warnings" "$(ndiags ': (error|warning): ')" 0 &&
		expect_diag p.pol:4:11 note "'clone' is decided by this file" \
			"    allow clone" &&
		expect_diag "$SHELL_POL:9:11" note "this rule no longer applies" \
			"    allow clone if flags & NAMESPACE_FLAGS == 0" || return 1
	polc dump p.polbin
	expect_match "dump: every clone" "$OUT" '^    allow .*\bclone\b' &&
		expect_nomatch "dump: the fragment's condition" "$OUT" \
			'clone if'
}

# The socket rule the docs recommend, in the docs' own example policy.
t_documented_example_builds_quietly() {
	awk '/^```$/ { if (p) exit } p { print }
		/^policy "agent" \{/ { p = 1; print }' \
		"$ROOT/docs/LANGUAGE.md" >agent.pol
	expect_match "the example has the socket rule" "$(cat agent.pol)" \
		'allow socket if domain in \{AF_UNIX, AF_INET, AF_INET6\}' ||
		return 1
	polc build agent.pol -o agent.polbin
	expect "exit" "$RC" 0 && expect "stderr" "$ERR" ""
}

# One file as both sides, with a note and a warning of its own and a
# fragment's warning: each printed once by check and by diff.
t_check_and_diff_print_once() {
	printf 'policy "p" {\n  use std/base\n  use raw\n  syscalls {\n    kill execve\n    allow io_uring_setup\n  }\n}\n' >p.pol
	check_and_diff p.pol p.pol each_once
}

each_once() {
	expect "$1: exit" "$RC" 0 &&
		expect "$1: warnings" "$(ndiags ': warning: ')" 2 &&
		expect "$1: notes" "$(ndiags ': note: ')" 2 &&
		expect_no_repeats
}

# Two policies using one fragment that warns: its warning once.
t_shared_fragment_warns_once() {
	printf 'policy "old" {\n  use raw\n}\n' >old.pol
	printf 'policy "new" {\n  use raw\n  syscalls {\n    allow read\n  }\n}\n' >new.pol
	check_and_diff old.pol new.pol fragment_warning_once
}

fragment_warning_once() {
	expect "$1: warnings" "$(ndiags ': warning: ')" 1 &&
		expect_match "$1: the fragment's" "$(diags)" \
			"frag/raw.pol:4:20: warning: "
}

# The view's keys (docs/VIEW.md): a path of the box's own mounts, dev,
# proc and user compose as grants and settings do.
t_view_keys_compose() {
	printf 'policy "p" {\n  use view-a\n  use view-b\n  net none\n}\n' >p.pol
	polc build -I "$HERE/frag" p.pol -o p.polbin
	expect "fragments disagree on /tmp: exit" "$RC" 2 &&
		expect "one error" "$(ndiags ': error: ')" 1 &&
		expect_match "naming /tmp" "$(diags)" \
			"error: '/tmp' is granted other rights elsewhere" || return 1
	printf 'policy "p" {\n  use view-a\n  use view-b\n  net none\n  fs {\n    tmpfs /tmp 32MiB\n    dev /xdev\n  }\n  user 1000\n}\n' >p.pol
	polc build -I "$HERE/frag" p.pol -o p.polbin
	expect "the policy decides: exit" "$RC" 0 &&
		expect "errors and warnings" "$(ndiags ': (error|warning): ')" 0 &&
		expect_diag p.pol:6:11 note \
			"'/tmp' is decided by this file, not by the fragments it uses" \
			"    tmpfs /tmp 32MiB" || return 1
	polc dump p.polbin
	expect_match "dump: the policy's tmpfs" "$OUT" '^    tmpfs /tmp 32MiB$' &&
		expect_match "dump: the policy's dev" "$OUT" '^    dev /xdev$' &&
		expect_nomatch "dump: no fragment's dev" "$OUT" '^    dev /dev$' &&
		expect_match "dump: proc merged" "$OUT" '^    proc /proc$' &&
		expect_match "dump: the policy's user" "$OUT" '^  user 1000:1000$'
}

TESTS="
t_policy_narrows_std_base
t_policy_widens_std_shell
t_documented_example_builds_quietly
t_check_and_diff_print_once
t_shared_fragment_warns_once
t_view_keys_compose
"

if [ ! -x "$POLC" ]; then
	say "compose: $POLC is missing: run make first"
	exit 2
fi
# shellcheck disable=SC2086 # one test name a word
run_suite compose ${COMPOSE_ONLY:-$TESTS}
