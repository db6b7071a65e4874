#!/bin/sh
# SPDX-License-Identifier: MIT
#
# contrib/polexec-sh, the shell a harness is pointed at so that each of its
# commands runs under polexec (docs/AGENTS.md). Each test calls the shim as
# a harness does (`sh -c CMD`, Claude Code's `bash -c -l CMD`, Codex's
# `bash -lc CMD`) and asserts what the box did: the exit status and the
# words arrive unchanged, fds 0-2 are the caller's, the environment is the
# policy's and not the harness's, a syscall the policy refuses is refused
# inside (twin: the same command outside succeeds), and every way of
# calling it wrongly runs nothing (a canary file stays absent).
#
# The policies are the .pol files beside this script, self-contained (no
# `use`), so a change to a stdlib preset cannot change what they test. No
# network, no root needed. Ends with "shim: N passed, N failed".
#
# The command strings are single-quoted on purpose: the box's shell expands
# them, not this one.
# shellcheck disable=SC2016
# shellcheck source-path=SCRIPTDIR
set -u

HERE=$(cd "$(dirname "$0")" && pwd)
. "$HERE/../lib.sh" # expect..., suite_paths, tally, schema_check
suite_paths

passed=0
failed=0
failures=

S=$(mktemp -d /tmp/polc-shim.XXXXXX) || exit 2
trap 'rm -rf "$S"' EXIT
chmod 755 "$S"
# The shim finds the polexec beside it, as after make install.
mkdir "$S/bin" &&
	cp "$B/polexec" "$ROOT/contrib/polexec-sh" "$S/bin/" &&
	ln -s polexec-sh "$S/bin/polexec-bash" || exit 2
for pol in "$HERE"/*.pol; do
	n=${pol##*/}
	"$B/polc" build "$pol" -o "$S/${n%.pol}.polbin" >"$S/build.log" 2>&1 ||
		{ say "shim: polc build $pol failed:"; cat "$S/build.log"; exit 2; }
done
SH=$S/bin/polexec-sh
BASHSHIM=$S/bin/polexec-bash
export POLEXEC_ARTIFACT="$S/shim.polbin"
unset POLEXEC POLEXEC_SHELL POLEXEC_RECORD_DIR POLEXEC_REQUIRE_ENFORCED \
	POLEXEC_EXPLAIN POLEXEC_QUIET

# run SHIM ARGS...: OUT, ERR, RC of the shim, stdin from $T/stdin if any.
run() {
	[ -f "$T/stdin" ] || : >"$T/stdin"
	"$@" <"$T/stdin" >"$T/stdout" 2>"$T/stderr"
	RC=$?
	OUT=$(cat "$T/stdout")
	ERR=$(cat "$T/stderr")
}

t_exit_status_kept() {
	run "$SH" -c 'exit 7'
	expect "exit 7" "$RC" 7 || return 1
	run "$SH" -c 'true'
	expect "exit 0" "$RC" 0 || return 1
	# killed by a signal: 128+N, as a shell reports it
	run "$SH" -c 'kill -TERM $$'
	expect "SIGTERM" "$RC" 143 || return 1
	# not found inside the box: the shell's 127
	run "$SH" -c '/nonexistent/cmd'
	expect "not found" "$RC" 127
}

# The command string and the positional words arrive byte for byte.
t_words_unchanged() {
	cmd=$(
		cat <<'EOF'
printf '[%s]\n' "$0" "$@"; printf '<%s>\n' "it's" "$HOME"
EOF
	)
	run "$SH" -c "$cmd" 'name with space' 'a  b' '$x' '*' '' "$(printf 'l1\nl2')"
	want=$(printf '[%s]\n' 'name with space' 'a  b' '$x' '*' '' "$(printf 'l1\nl2')"
		printf '<%s>\n' "it's" "$SHIM_HOME")
	expect "exit" "$RC" 0 && expect "words" "$OUT" "$want"
}

t_stdio_untouched() {
	printf 'line one\nline two\n' >"$T/stdin"
	run "$SH" -c 'read a; read b; echo "out:$b"; echo "err:$a" >&2; ls /proc/self/fd'
	expect "stdout" "$(printf '%s\n' "$OUT" | head -n 1)" "out:line two" &&
		expect "stderr" "$ERR" "err:line one" &&
		expect "fds in the box" "$(printf '%s\n' "$OUT" | sed 1d | sort -n | tr '\n' ' ')" "0 1 2 3 "
}

# Claude Code calls its shell as `SHELL -c -l SCRIPT` (without -l once it
# has a snapshot), and only takes a path holding "bash"; Codex as
# `SHELL -lc SCRIPT` or `SHELL -c SCRIPT`.
t_harness_calls() {
	run "$BASHSHIM" -c -l 'echo "$BASH_VERSION"; shopt -q login_shell && echo login'
	expect "bash -c -l: exit" "$RC" 0 &&
		expect_match "bash -c -l: bash" "$OUT" '^[0-9]+\.[0-9]+' &&
		expect_match "bash -c -l: login shell" "$OUT" 'login$' || return 1
	run "$BASHSHIM" -c 'shopt -q login_shell || echo "not login"'
	expect "bash -c: not a login shell" "$OUT" "not login" || return 1
	run "$BASHSHIM" -lc 'shopt -q login_shell && echo login'
	expect "bash -lc" "$OUT" login || return 1
	# Claude Code's command shape: a snapshot sourced, eval, the cwd saved
	printf 'snap_fn() { echo from-snapshot; }\n' >"$T/snap.sh"
	run "$BASHSHIM" -c "source '$T/snap.sh' 2>/dev/null || true && eval 'snap_fn; cd /usr' && pwd -P >| '$T/cwd'"
	expect "claude-shaped: exit" "$RC" 0 &&
		expect "claude-shaped: output" "$OUT" from-snapshot &&
		expect "claude-shaped: cwd file" "$(cat "$T/cwd" 2>/dev/null)" /usr || return 1
	# plain sh: dash, no BASH_VERSION
	run "$SH" -c 'echo "[${BASH_VERSION-}]"'
	expect "sh is not bash" "$OUT" "[]" &&
		expect "POLEXEC_SHELL" \
			"$(POLEXEC_SHELL=/bin/bash "$SH" -c 'echo ${BASH_VERSION:+bash}')" bash
}

# The box's environment is the policy's: the harness's own variables (its
# API key among them) do not reach the command.
t_environment_is_the_policys() {
	HARNESS_API_KEY=sk-test-not-a-key run "$SH" -c 'env'
	expect "exit" "$RC" 0 &&
		expect_nomatch "the harness's key" "$OUT" 'HARNESS_API_KEY' &&
		expect_nomatch "the shim's own settings" "$OUT" 'POLEXEC_' &&
		expect_match "the policy's HOME" "$OUT" "^HOME=$S/home\$"
}

# The cwd is the caller's.
t_cwd_kept() {
	mkdir "$T/work" && cd "$T/work" || return 1
	run "$SH" -c 'pwd'
	expect "cwd" "$OUT" "$T/work"
}

# A syscall the policy refuses is refused through the shim; twin: the same
# command outside any box works, and under the same shim with a policy
# that allows it.
t_denied_syscall_still_denied() {
	run "$SH" -c "mkdir '$T/d' && echo made"
	expect "mkdir in the box: exit" "$RC" 1 &&
		expect_match "mkdir in the box: EACCES" "$ERR" 'Permission denied' &&
		expect_absent "no folder made" "$T/d" || return 1
	/bin/sh -c "mkdir '$T/d'" &&
		expect "outside: made" "$([ -d "$T/d" ] && echo yes)" yes || return 1
	rmdir "$T/d"
	POLEXEC_ARTIFACT=$S/open.polbin run "$SH" -c "mkdir '$T/d' && echo made"
	expect "open policy: made" "$OUT" made
}

# A command that meets a denial says so: its stderr ends with one line
# per distinct denial, naming the call, the layer and the rule, after the
# command's own output (a model reading the tool result sees "blocked by
# the box", not a bare EACCES). Twice the same denial is one line.
# POLEXEC_EXPLAIN=0 turns it off; twin: a command with no denial gets no
# line.
t_denial_told() {
	run "$SH" -c "mkdir '$T/d'; mkdir '$T/d'; echo own-line >&2"
	want="polexec: denied: mkdir(\"$T/d\", 0777): errno(EACCES) (seccomp rule: errno(EACCES) mkdir)"
	expect "exit" "$RC" 0 &&
		expect "last line" "$(printf '%s\n' "$ERR" | tail -n 1)" "$want" &&
		expect "one line for the two" \
			"$(printf '%s\n' "$ERR" | grep -c '^polexec: denied')" 1 &&
		expect "after the command's own" \
			"$(printf '%s\n' "$ERR" | grep -n own-line | cut -d: -f1)" 3 ||
		return 1
	POLEXEC_EXPLAIN=0 run "$SH" -c "mkdir '$T/d'; echo own-line >&2"
	expect_nomatch "POLEXEC_EXPLAIN=0: no line" "$ERR" '^polexec: ' ||
		return 1
	run "$SH" -c 'echo fine'
	expect "no denial: stderr empty" "$ERR" ""
}

# POLEXEC_QUIET=1 passes --quiet (polexec then writes no warning; the
# userns suite shows that on a degraded box); twin: without it, not.
t_quiet_passed() {
	printf '#!/bin/sh\nprintf "%%s\\n" "$@" >"$ARGS_OUT"\n' >"$T/fake" &&
		chmod +x "$T/fake" || return 1
	ARGS_OUT=$T/args POLEXEC=$T/fake POLEXEC_QUIET=1 run "$SH" -c true
	expect "POLEXEC_QUIET=1: --quiet" "$(grep -c '^--quiet$' "$T/args")" 1 ||
		return 1
	ARGS_OUT=$T/args POLEXEC=$T/fake run "$SH" -c true
	expect "twin: without it, no --quiet" \
		"$(grep -c '^--quiet$' "$T/args")" 0
}

t_record_per_command() {
	mkdir "$T/rec" || return 1
	POLEXEC_RECORD_DIR=$T/rec run "$SH" -c 'exit 3'
	POLEXEC_RECORD_DIR=$T/rec run "$SH" -c 'true'
	set -- "$T"/rec/polexec-sh.*.json
	expect "two records" "$#" 2 || return 1
	schema_check run-record "$@" ||
		{ say "    FAIL: records: $SC_INVALID"; return 1; }
	expect "a record's exit" \
		"$(jq -r .exit_code "$@" | sort | tr '\n' ' ')" \
		"0 3 " || return 1
	# each names its command line, and the shim that started it
	expect "the command lines" \
		"$(jq -r '.argv | join(" ")' "$@" | sort | tr '\n' '|')" \
		"/bin/sh -c exit 3|/bin/sh -c true|" &&
		expect "started by" "$(jq -r .started_by "$@" | sort -u)" polexec-sh
}

# Each misuse: a clear message, its status, and nothing ran.
misuse() { # DESC STATUS PATTERN SHIM-ARGS... (with $canary in the command)
	desc=$1 want=$2 pat=$3
	shift 3
	run "$@"
	expect "$desc: exit" "$RC" "$want" &&
		expect_match "$desc: says why" "$ERR" "$pat" &&
		expect_absent "$desc: nothing ran" "$T/canary"
}

t_misconfigured_runs_nothing() {
	c="echo ran >'$T/canary'"
	(unset POLEXEC_ARTIFACT && misuse "no artifact" 125 \
		'POLEXEC_ARTIFACT is not set' "$SH" -c "$c") &&
		POLEXEC_ARTIFACT=shim.polbin misuse "relative artifact" 125 \
			'absolute path' "$SH" -c "$c" &&
		POLEXEC_ARTIFACT=$T/none.polbin misuse "missing artifact" 125 \
			'not a readable file' "$SH" -c "$c" &&
		POLEXEC=$T/nopolexec misuse "no polexec" 125 'no polexec at' \
			"$SH" -c "$c" &&
		POLEXEC_SHELL=bash misuse "relative shell" 125 'absolute path' \
			"$SH" -c "$c" &&
		POLEXEC_REQUIRE_ENFORCED=yes misuse "bad flag" 125 '0 or 1' \
			"$SH" -c "$c" &&
		POLEXEC_EXPLAIN=on misuse "bad explain" 125 '0 or 1' \
			"$SH" -c "$c" &&
		POLEXEC_QUIET=yes misuse "bad quiet" 125 '0 or 1' \
			"$SH" -c "$c" &&
		POLEXEC_RECORD_DIR=$T/nodir misuse "no record folder" 125 \
			'not a folder' "$SH" -c "$c" &&
		misuse "interactive" 2 "unsupported option '-i'" "$SH" -i -c "$c" &&
		misuse "no -c" 2 'no -c given' "$SH" "$T/script" &&
		misuse "-c without a command" 2 'command string is missing' "$SH" -c || return 1
	# a corrupt artifact: polexec refuses it, the shim passes that on
	printf 'not an artifact' >"$T/bad.polbin"
	POLEXEC_ARTIFACT=$T/bad.polbin misuse "corrupt artifact" 125 'polexec' \
		"$SH" -c "$c" || return 1
	# twin: configured, the same command runs
	run "$SH" -c "$c"
	expect "configured: ran" "$(cat "$T/canary" 2>/dev/null)" ran
}

t_help_and_version() {
	run "$SH" --help
	expect "--help: exit" "$RC" 0 &&
		expect_match "--help: usage" "$OUT" '^usage: polexec-sh ' || return 1
	run "$SH" --version
	expect "--version" "$OUT" "polexec-sh: runs $("$B/polexec" --version)"
}

# contrib/ holds the link Claude Code is pointed at (a path holding
# "bash"), as make install makes it: a build tree runs it as it is, with
# POLEXEC naming the polexec, and gets bash in the box.
t_contrib_bash_link() {
	expect "contrib/polexec-bash" \
		"$(readlink "$ROOT/contrib/polexec-bash" 2>/dev/null)" polexec-sh ||
		return 1
	POLEXEC=$S/bin/polexec run "$ROOT/contrib/polexec-bash" -c \
		'echo "${BASH_VERSION:+bash}"'
	expect "through it: exit" "$RC" 0 && expect "bash" "$OUT" bash
}

mkdir -p "$S/home" "$S/scratch"
export SHIM_HOME="$S/home"
SCRATCH=$S/scratch
for t in ${SHIM_ONLY:-t_exit_status_kept t_words_unchanged t_stdio_untouched \
	t_harness_calls t_environment_is_the_policys t_cwd_kept \
	t_denied_syscall_still_denied t_denial_told t_quiet_passed t_record_per_command \
	t_misconfigured_runs_nothing t_help_and_version t_contrib_bash_link}; do
	in_scratch "$t"
done
[ -n "$failures" ] && say "failed:$failures"
say "shim: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
