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
#
# Ends with "compose: N passed, N failed"; exits non-zero when any failed.
set -u

HERE=$(cd "$(dirname "$0")" && pwd)
. "$HERE/../lib.sh" # expect..., suite_paths, in_scratch
suite_paths
POLC=$B/polc
BASE=$ROOT/stdlib-policies/std/base.pol
SHELL_POL=$ROOT/stdlib-policies/std/shell.pol

passed=0
failed=0
failures=

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
	for cmd in check diff; do
		# check takes --boundary before the two policies, diff does not
		set -- "$cmd" -I "$HERE/frag"
		[ "$cmd" = diff ] || set -- "$@" --boundary
		polc "$@" p.pol p.pol
		expect "$cmd: exit" "$RC" 0 &&
			expect "$cmd: warnings" "$(ndiags ': warning: ')" 2 &&
			expect "$cmd: notes" "$(ndiags ': note: ')" 2 &&
			expect_no_repeats || return 1
	done
}

# Two policies using one fragment that warns: its warning once.
t_shared_fragment_warns_once() {
	printf 'policy "old" {\n  use raw\n}\n' >old.pol
	printf 'policy "new" {\n  use raw\n  syscalls {\n    allow read\n  }\n}\n' >new.pol
	for cmd in check diff; do
		# check takes --boundary before the two policies, diff does not
		set -- "$cmd" -I "$HERE/frag"
		[ "$cmd" = diff ] || set -- "$@" --boundary
		polc "$@" old.pol new.pol
		expect "$cmd: warnings" "$(ndiags ': warning: ')" 1 &&
			expect_match "$cmd: the fragment's" "$(diags)" \
				"frag/raw.pol:4:20: warning: " || return 1
	done
}

TESTS="
t_policy_narrows_std_base
t_policy_widens_std_shell
t_documented_example_builds_quietly
t_check_and_diff_print_once
t_shared_fragment_warns_once
"

if [ ! -x "$POLC" ]; then
	say "compose: $POLC is missing: run make first"
	exit 2
fi
SCRATCH=$(mktemp -d /tmp/polc-compose.XXXXXX) || exit 2
trap 'rm -rf "$SCRATCH"' EXIT
for t in ${COMPOSE_ONLY:-$TESTS}; do
	in_scratch "$t"
done
[ -n "$failures" ] && say "failed:$failures"
say "compose: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
