# SPDX-License-Identifier: MIT
#
# The sessions of make check-harness (sourced by run.sh, in its outer
# namespaces): each harness driven for real by tests/harness/mockmodel.py,
# a mock of the Anthropic Messages and OpenAI Responses streaming APIs on
# this namespace's 127.0.0.1:8080 (the port docs/recipes/*-local.pol
# name), through the recipes of docs/AGENTS.md, the files in docs/recipes
# as they are:
#
#   A  the harness in a box (claude-code-local.pol, codex-local.pol)
#   B  its commands in a box each, through the shim (commands.pol with
#      CLAUDE_CODE_SHELL=polexec-bash; codex-commands.pol with the shim as
#      the login shell of Codex's user)
#
# each as root and as uid 65534. The mock asks for one shell tool call
# (PROBE below), then ends the turn. Each test asserts: the harness ended
# (exit 0, the mock's final text printed); the command ran (the file it
# wrote in the workspace, read here); a write outside the grants and a
# read of a canary outside them failed (the file is not there, the
# canary's text is in no tool result the harness sent back, and the
# shell's errors are); no false denial in any run record (every record
# valid, no denial in any); and the fake key the test set is in no
# command's environment (the env the command dumped, the tool results).
#
# The soak (t_soak_claude_b): 200 tool calls through the shim in one Claude
# Code session, then nothing of a box left (no process, cgroup or mount
# more than before), and the time per call, boxed and unboxed (the same
# session with /bin/bash as the shell), and of the same commands run
# directly through the shim and bash, printed: median and p95. Timing is
# reported, never asserted.
# shellcheck shell=sh

MOCK_PORT=8080
KEY=sk-polc-fake-key-$$-0123456789
SOAK_CALLS=${HARNESS_SOAK_CALLS:-200}

# session_setup WHO: $T ready for a session as uid WHO (0 or 65534): a
# HOME and workspace of WHO's, a folder outside the grants anyone may
# write ($T/out) and a canary anyone may read ($T/canary/secret); AS, the
# prefix that runs a command as WHO.
session_setup() {
	WHO=$1
	AS=
	[ "$WHO" = 0 ] || AS="setpriv --reuid=$WHO --regid=$WHO --clear-groups"
	CANARY="canary-$$-not-for-boxes"
	chmod 755 "$T" &&
		mkdir -p "$T/home/.claude/shell-snapshots" "$T/home/.codex" \
			"$T/ws" "$T/rec" "$T/mock" "$T/out" "$T/canary" &&
		echo "$CANARY" >"$T/canary/secret" &&
		echo "$KEY" >"$T/key" && chmod 600 "$T/key" &&
		chmod 644 "$T/canary/secret" && chmod 1777 "$T/out" &&
		chown -R "$WHO:$WHO" "$T/home" "$T/ws" "$T/rec" "$T/key"
}

# The one command the mock asks for: it writes a file in the workspace,
# dumps its environment there, writes outside the grants, reads the canary.
probe() {
	echo "echo ran-{n} >ran.txt; env >env.txt; echo x >$T/out/written; cat $T/canary/secret; echo end-{n}"
}

# mock_start CALLS COMMAND: the mock on 127.0.0.1:$MOCK_PORT, its logs in
# $T/mock; MOCK, its pid (mock_stop ends it).
mock_start() {
	/usr/bin/python3 "$HERE/mockmodel.py" "$MOCK_PORT" "$T/mock" "$1" "$2" 600 \
		>"$T/mock/out" 2>&1 &
	MOCK=$!
	ms_i=0
	until grep -q '^ready$' "$T/mock/out" 2>/dev/null; do
		ms_i=$((ms_i + 1))
		[ $ms_i -lt 100 ] || { say "    FAIL: the mock: $(cat "$T/mock/out")"; return 1; }
		sleep 0.05
	done
}

mock_stop() {
	[ -z "${MOCK:-}" ] || kill -KILL "$MOCK" 2>/dev/null
	[ -z "${MOCK:-}" ] || wait "$MOCK" 2>/dev/null
	MOCK=
}

# claude_settings: ~/.claude/settings.json, docs/recipes/
# claude-settings.json as it is (the key from the box's secret file).
claude_settings() {
	cp "$ROOT/docs/recipes/claude-settings.json" \
		"$T/home/.claude/settings.json" &&
		chown "$WHO:$WHO" "$T/home/.claude/settings.json"
}

# codex_config: ~/.codex/config.toml: the mock as the model provider, and
# docs/recipes/codex.toml as it is.
codex_config() {
	{
		echo 'model = "gpt-mock"'
		echo 'model_provider = "mock"'
		echo
		cat "$ROOT/docs/recipes/codex.toml"
		echo
		echo '[model_providers.mock]'
		echo 'name = "mock"'
		echo "base_url = \"http://127.0.0.1:$MOCK_PORT/v1\""
		echo 'env_key = "OPENAI_API_KEY"'
		echo 'wire_api = "responses"'
		echo 'supports_websockets = false'
		echo 'request_max_retries = 0'
		echo 'stream_max_retries = 0'
	} >"$T/home/.codex/config.toml" &&
		chown "$WHO:$WHO" "$T/home/.codex/config.toml"
}

# The harnesses' command lines for one prompt, no terminal.
claude_cmd() { echo "$CLAUDE -p --allowedTools Bash -- run-the-probe"; }
codex_cmd() {
	echo "$CODEX exec -s danger-full-access --skip-git-repo-check run-the-probe"
}

# harness ENV... -- CMD...: CMD (a harness) as WHO in $T/ws, with a clean
# environment: HOME, the key under both providers' names, the mock's URL,
# and ENV; bounded by 180 s. OUT, ERR, RC.
harness() {
	h_env=
	while [ "$1" != -- ]; do
		h_env="$h_env $1"
		shift
	done
	shift
	# shellcheck disable=SC2086
	(cd "$T/ws" && $AS env -i HOME="$T/home" TERM=dumb LANG=C.UTF-8 \
		PATH=/usr/local/bin:/usr/bin:/bin \
		ANTHROPIC_API_KEY="$KEY" OPENAI_API_KEY="$KEY" \
		ANTHROPIC_BASE_URL="http://127.0.0.1:$MOCK_PORT" $h_env \
		timeout -k 5 180 "$@" </dev/null >"$T/stdout" 2>"$T/stderr")
	RC=$?
	OUT=$(cat "$T/stdout")
	# shellcheck disable=SC2034 # ERR: box_stderr shows $T/stderr
	ERR=$(cat "$T/stderr")
}

# recipe_a ART HARNESS...: the harness under polexec (recipe A), its
# record in $T/rec/harness.json.
recipe_a() {
	ra_art=$1
	shift
	harness WORKSPACE="$T/ws" CLAUDE_CODE_DIR="$NM/@anthropic-ai" \
		CODEX_DIR="$NM/@openai" ANTHROPIC_KEY_FILE="$T/key" -- \
		"$B/polexec" --record "$T/rec/harness.json" "$ra_art" -- "$@"
}

# results: what the harness sent back as tool results, one JSON a line.
results() { cat "$T/mock/results.jsonl" 2>/dev/null; }

# session_ok DESC CALLS: the harness ended its turn after CALLS results.
session_ok() {
	expect "$1: harness exit" "$RC" 0 &&
		expect_match "$1: the mock's final text" "$OUT" \
			"MOCK-DONE: $2 results" &&
		expect "$1: tool results sent back" "$(results | wc -l)" "$2" &&
		expect "$1: the key the model got" "$(cat "$T/mock/keys.log")" "$KEY"
}

# probe_ok DESC: the probe ran in the workspace, its write outside the
# grants and its read of the canary failed, the key was in none of its
# environment.
probe_ok() {
	pk_res=$(results | jq -r .text)
	expect "$1: the command ran (ran.txt)" "$(cat "$T/ws/ran.txt" 2>&1)" \
		ran-1 &&
		expect_match "$1: it ran to its end" "$pk_res" 'end-1' &&
		expect_absent "$1: the write outside the grants" "$T/out/written" &&
		expect_match "$1: the write's error in the tool result" "$pk_res" \
			"$T/out/written: (No such file or directory|Read-only file system|Permission denied)" &&
		expect_match "$1: the canary read's error in the tool result" \
			"$pk_res" \
			"$T/canary/secret: (No such file or directory|Permission denied)" &&
		expect_nomatch "$1: the canary in no tool result" "$(results)" \
			"$CANARY" &&
		expect_match "$1: env.txt (the command's environment)" \
			"$(cat "$T/ws/env.txt" 2>&1)" '^PATH=' &&
		expect_nomatch "$1: the key in the command's environment" \
			"$(cat "$T/ws/env.txt")" "$KEY" &&
		expect_nomatch "$1: the key in a tool result" "$(results)" "$KEY"
}

# records_ok DESC MIN [EXPECTED]: at least MIN run records in $T/rec,
# each valid, each with no denial and none dropped (the probe's refusals
# are the view's: a path that is not there, a read-only mount, no layer's
# denial) but those matching the pattern EXPECTED (grep -E, on lines
# "LAYER CALL ACTION").
records_ok() {
	ro_x=${3:-^$}
	ro_n=0
	for ro_r in "$T"/rec/*.json; do
		[ -f "$ro_r" ] || continue
		ro_n=$((ro_n + 1))
		schema_check run-record "$ro_r" ||
			{ say "    FAIL: $1: ${ro_r##*/}: $SC_INVALID"; return 1; }
		expect "$1: ${ro_r##*/}: denials" \
			"$(jq -r '.denials[]? | "\(.layer) \(.call // .destination // .path) \(.action)"' "$ro_r" |
				grep -Ev "$ro_x")" "" &&
			expect "$1: ${ro_r##*/}: denials dropped" \
				"$(jq -r '.denials_dropped // 0' "$ro_r")" 0 || return 1
	done
	[ "$ro_n" -ge "$2" ] ||
		{ say "    FAIL: $1: $ro_n run records, expected $2 or more"; return 1; }
}

# --- recipe A: the harness in a box -------------------------------------

t_session_claude_a() {
	session_setup "$WHO" && claude_settings && mock_start 1 "$(probe)" || return 1
	# shellcheck disable=SC2046
	recipe_a "$S/claude-code-local.polbin" $(claude_cmd)
	mock_stop
	session_ok "claude, recipe A" 1 &&
		probe_ok "claude, recipe A" &&
		records_ok "claude, recipe A" 1 &&
		expect "claude, recipe A: the box's net" \
			"$(jq -r '.layers.net.tier + "/" + .layers.net.mode' "$T/rec/harness.json")" \
			enforced/none
}

t_session_codex_a() {
	session_setup "$WHO" && codex_config && mock_start 1 "$(probe)" ||
		return 1
	# shellcheck disable=SC2046
	recipe_a "$S/codex-local.polbin" $(codex_cmd)
	mock_stop
	session_ok "codex, recipe A" 1 &&
		probe_ok "codex, recipe A" &&
		records_ok "codex, recipe A" 1
}

# --- recipe B: each command in a box, through the shim -----------------

# the shim's settings in the harness's environment (docs/AGENTS.md)
shim_env() {
	echo "POLEXEC=$B/polexec POLEXEC_ARTIFACT=$1 WORKSPACE=$T/ws POLEXEC_RECORD_DIR=$T/rec"
}

t_session_claude_b() {
	session_setup "$WHO" && mock_start 1 "$(probe)" || return 1
	# shellcheck disable=SC2046
	harness $(shim_env "$S/commands.polbin") \
		CLAUDE_CODE_SHELL="$ROOT/contrib/polexec-bash" -- $(claude_cmd)
	mock_stop
	session_ok "claude, recipe B" 1 &&
		probe_ok "claude, recipe B" &&
		records_ok "claude, recipe B" 1 &&
		expect "claude, recipe B: records started by the shim" \
			"$(jq -r .started_by "$T"/rec/*.json | sort -u)" polexec-bash
}

# Codex takes its shell from the passwd database: a copy in which WHO's
# login shell is $S/shim/bash, a link to the shim, bound over /etc/passwd
# in the test's own mount namespace for the session.
t_session_codex_b() {
	session_setup "$WHO" && codex_config || return 1
	mkdir -p "$S/shim" && ln -sf "$ROOT/contrib/polexec-sh" "$S/shim/bash" &&
		awk -F: -v OFS=: -v uid="$WHO" -v sh="$S/shim/bash" \
			'$3 == uid { $7 = sh } { print }' /etc/passwd >"$T/passwd" &&
		chmod 644 "$T/passwd" && mount --bind "$T/passwd" /etc/passwd ||
		return 1
	mock_start 1 "$(probe)" || { umount /etc/passwd; return 1; }
	# shellcheck disable=SC2046
	harness $(shim_env "$S/codex-commands.polbin") -- $(codex_cmd)
	umount /etc/passwd
	mock_stop
	session_ok "codex, recipe B" 1 &&
		probe_ok "codex, recipe B" &&
		records_ok "codex, recipe B" 1 &&
		expect "codex, recipe B: records started by the shim" \
			"$(jq -r .started_by "$T"/rec/*.json | sort -u)" bash
}

# --- the soak -------------------------------------------------------------

# what a box could leave behind: processes (but the ones this function
# runs), the cgroups under ours, the mounts of this namespace
leftovers() {
	lo_cg=/sys/fs/cgroup$(sed -n 's/^0:://p' /proc/self/cgroup)
	{
		# shellcheck disable=SC2009 # every process, by name
		ps -e -o comm= | grep -v -x -e ps -e sh -e grep -e sed -e sort \
			-e cut -e find
		find "$lo_cg" -mindepth 1 -type d 2>/dev/null
		cut -d' ' -f5 /proc/self/mountinfo
	} | sort
}

# per_call_times FILE: the mock's seconds from each call sent to its
# result received (results.jsonl's "dt"), median and p95 in ms
per_call_times() {
	jq -r '.dt' "$1" | sort -n | awk '{ v[NR] = $1 } END {
		if (NR == 0) { print "none"; exit }
		m = v[int((NR + 1) / 2)]; p = v[int(NR * 0.95 + 0.999)]
		printf "median %.1f ms, p95 %.1f ms (%d calls)", m * 1000, p * 1000, NR }'
}

t_soak_claude_b() {
	session_setup "$WHO" || return 1
	sk_before=$(leftovers)
	mock_start "$SOAK_CALLS" 'echo {n} >>soak.txt' || return 1
	# shellcheck disable=SC2046
	harness $(shim_env "$S/commands.polbin") \
		CLAUDE_CODE_SHELL="$ROOT/contrib/polexec-bash" -- $(claude_cmd)
	mock_stop
	cp "$T/mock/results.jsonl" "$T/boxed.jsonl" 2>/dev/null
	session_ok "soak, boxed" "$SOAK_CALLS" &&
		expect "soak: every call ran, in order" \
			"$(tr '\n' ' ' <"$T/ws/soak.txt")" \
			"$(seq 1 "$SOAK_CALLS" | tr '\n' ' ')" &&
		expect "soak: nothing of a box left (processes, cgroups, mounts)" \
			"$(leftovers)" "$sk_before" &&
		records_ok "soak" "$SOAK_CALLS" || return 1
	# the same session unboxed: /bin/bash as Claude Code's shell
	rm -rf "$T/ws/soak.txt" "$T/mock"/*
	mock_start "$SOAK_CALLS" 'echo {n} >>soak.txt' || return 1
	# shellcheck disable=SC2046
	harness CLAUDE_CODE_SHELL=/bin/bash -- $(claude_cmd)
	mock_stop
	session_ok "soak, unboxed" "$SOAK_CALLS" || return 1
	# the same commands without the harness: the shim and bash alone
	rm -f "$T/ws/soak.txt"
	direct_times "$T/direct-boxed" env HOME="$T/home" POLEXEC="$B/polexec" \
		POLEXEC_ARTIFACT="$S/commands.polbin" WORKSPACE="$T/ws" \
		"$ROOT/contrib/polexec-bash" -c &&
		direct_times "$T/direct-bare" env HOME="$T/home" /bin/bash -c || return 1
	say "    soak as uid $WHO, time per tool call (the mock's, call sent to result back):"
	say "      boxed (recipe B, the shim): $(per_call_times "$T/boxed.jsonl")"
	say "      unboxed (/bin/bash):        $(per_call_times "$T/mock/results.jsonl")"
	say "    the same commands run directly, without the harness:"
	say "      the shim: $(per_call_times "$T/direct-boxed")"
	say "      bash:     $(per_call_times "$T/direct-bare")"
}

# direct_times OUT SHELL...: SOAK_CALLS commands 'echo N >>soak.txt' run
# as WHO in $T/ws by SHELL... COMMAND, each timed; OUT, one {"dt": s} a
# line (per_call_times reads it).
direct_times() {
	dt_out=$1
	shift
	: >"$dt_out"
	dt_i=1
	while [ "$dt_i" -le "$SOAK_CALLS" ]; do
		dt_a=$(date +%s%N)
		# shellcheck disable=SC2086
		(cd "$T/ws" && $AS "$@" "echo $dt_i >>soak.txt" </dev/null \
			>/dev/null 2>&1) || { say "    FAIL: $* (call $dt_i)"; return 1; }
		dt_b=$(date +%s%N)
		echo "{\"dt\": $(((dt_b - dt_a) / 1000)).0e-6}" >>"$dt_out"
		dt_i=$((dt_i + 1))
	done
}

# --- recipe C: the harness in a box, each command in a box inside it -----

# What the inner polexec tries, and the outer box refuses as its policy
# says, as the inner expects (the ladder's trials: a user namespace, the
# observer's userfaultfd and seccomp listener, root's netlink probe).
INNER_TRIALS='^seccomp (unshare\(CLONE_NEWUSER\)|userfaultfd\(|seccomp\(1, SECCOMP_FILTER_FLAG_NEW_LISTENER|socket\(AF_NETLINK, )'

# polexec and the shim in a folder the outer box grants (POLEXEC_DIR)
inner_bin() {
	mkdir -p "$S/bin" && cp "$B/polexec" "$ROOT/contrib/polexec-sh" "$S/bin/" &&
		ln -sf polexec-sh "$S/bin/polexec-bash" &&
		ln -sf polexec-sh "$S/bin/bash"
}

# recipe C's probe: recipe A's, then the key's places: the environment
# of the inner polexec ($PPID: the harness's, the key in it) and of each
# process the box shows in /proc, the harness's config, its key file
probe_c() { # CONFIG: the harness's config file
	printf "%s\n" "$(probe | sed 's/; echo end-{n}$//'); cat $1 $T/key; cat /proc/\$PPID/environ; for e in /proc/[0-9]*/environ; do tr '\\0' '\\n' <\$e; done; echo end-{n}"
}

t_session_claude_c() {
	session_setup "$WHO" && inner_bin &&
		mock_start 1 "$(probe_c "$T/home/.claude/settings.json")" || return 1
	echo '{}' >"$T/home/.claude/settings.json"
	mkdir "$T/ws/.records" && chown "$WHO:$WHO" "$T/ws/.records" || return 1
	# shellcheck disable=SC2046
	harness WORKSPACE="$T/ws" CLAUDE_CODE_DIR="$NM/@anthropic-ai" \
		POLEXEC_RECORD_DIR="$T/ws/.records" \
		POLEXEC_DIR="$S/bin" COMMANDS_POLBIN="$S/commands-inner.polbin" -- \
		"$B/polexec" --record "$T/rec/harness.json" \
		"$S/claude-code-outer.polbin" -- $(claude_cmd)
	mock_stop
	cc_res=$(results | jq -r .text)
	session_ok "claude, recipe C" 1 &&
		probe_ok "claude, recipe C" &&
		records_ok "claude, recipe C" 1 "$INNER_TRIALS" &&
		inner_records_ok "claude, recipe C" &&
		expect "claude, recipe C: the outer box refused the inner's namespace" \
			"$(jq -r '.denials[]? | "\(.layer) \(.call) \(.action)"' \
				"$T/rec/harness.json" | grep -c '^seccomp unshare(CLONE_NEWUSER)')" 1 &&
		expect_match "claude, recipe C: the inner box says why" "$cc_res" \
			'^polexec: warning: view: no user namespace inside the outer polexec box: .*polexec runs inside another polexec box, whose policy refuses' &&
		expect_nomatch "claude, recipe C: nothing blames a container" \
			"$cc_res" 'container' &&
		expect_match "claude, recipe C: the harness's config refused" \
			"$cc_res" "settings.json: (Permission denied|No such file)" &&
		expect_match "claude, recipe C: the harness's environ refused" \
			"$cc_res" \
			"^cat: /proc/[0-9]+/environ: (Permission denied|No such file or directory)"
}

# inner_records_ok DESC: the inner boxes' records (the shim's, in
# $T/ws/.records): valid, no denial, and what the box was: the view on the
# outer box's tree under Landlock and net none by seccomp and Landlock,
# each degraded for the outer box's policy, seccomp and Landlock enforced.
inner_records_ok() {
	ir_n=0
	for ir_r in "$T"/ws/.records/*.json; do
		[ -f "$ir_r" ] || continue
		ir_n=$((ir_n + 1))
		schema_check run-record "$ir_r" ||
			{ say "    FAIL: $1: ${ir_r##*/}: $SC_INVALID"; return 1; }
		expect "$1: ${ir_r##*/}: denials" "$(jq -c '.denials // []' "$ir_r")" '[]' &&
			expect "$1: ${ir_r##*/}: seccomp, landlock" \
				"$(jq -r '.layers.seccomp.tier + " " + .layers.landlock.tier' "$ir_r")" \
				"enforced enforced" &&
			expect_match "$1: ${ir_r##*/}: view" \
				"$(jq -r '.layers.view.tier' "$ir_r")" \
				'^degraded\(no user namespace inside the outer polexec box' &&
			expect_match "$1: ${ir_r##*/}: net" \
				"$(jq -r '.layers.net.tier' "$ir_r")" \
				'^degraded\(no network namespace \(inside the outer polexec box' ||
			return 1
	done
	[ "$ir_n" -ge 1 ] || { say "    FAIL: $1: no inner run record"; return 1; }
}

# Codex: its login shell $S/bin/bash (the shim, in the folder the outer
# box grants), in a passwd bound over /etc/passwd for the session, which
# the outer box's view shows.
t_session_codex_c() {
	session_setup "$WHO" && codex_config && inner_bin || return 1
	awk -F: -v OFS=: -v uid="$WHO" -v sh="$S/bin/bash" \
		'$3 == uid { $7 = sh } { print }' /etc/passwd >"$T/passwd" &&
		chmod 644 "$T/passwd" && mount --bind "$T/passwd" /etc/passwd ||
		return 1
	mock_start 1 "$(probe_c "$T/home/.codex/config.toml")" ||
		{ umount /etc/passwd; return 1; }
	mkdir "$T/ws/.records" && chown "$WHO:$WHO" "$T/ws/.records" || return 1
	# shellcheck disable=SC2046
	harness WORKSPACE="$T/ws" CODEX_DIR="$NM/@openai" \
		POLEXEC_RECORD_DIR="$T/ws/.records" \
		POLEXEC_DIR="$S/bin" COMMANDS_POLBIN="$S/commands-inner.polbin" -- \
		"$B/polexec" --record "$T/rec/harness.json" \
		"$S/codex-outer.polbin" -- $(codex_cmd)
	umount /etc/passwd
	mock_stop
	cx_res=$(results | jq -r .text)
	session_ok "codex, recipe C" 1 &&
		probe_ok "codex, recipe C" &&
		records_ok "codex, recipe C" 1 "$INNER_TRIALS" &&
		inner_records_ok "codex, recipe C" &&
		expect "codex, recipe C: the outer box refused the inner's namespace" \
			"$(jq -r '.denials[]? | "\(.layer) \(.call) \(.action)"' \
				"$T/rec/harness.json" | grep -c '^seccomp unshare(CLONE_NEWUSER)')" 1 &&
		expect_match "codex, recipe C: the inner box says why" "$cx_res" \
			'polexec: warning: view: no user namespace inside the outer polexec box: ' &&
		expect_match "codex, recipe C: the harness's config refused" \
			"$cx_res" "config.toml: (Permission denied|No such file)" &&
		expect_match "codex, recipe C: the harness's environ refused" \
			"$cx_res" \
			"cat: /proc/[0-9]+/environ: (Permission denied|No such file or directory)"
}

# The inner box is within the outer one, as polc proves it for a box
# inside another (--nested); side by side it is not (its limits, its
# environment and its best_effort view are the outer box's to decide).
t_recipe_c_boundary() {
	for rc_outer in claude-code-outer codex-outer; do
		"$B/polc" check --nested --boundary \
			"$ROOT/docs/recipes/$rc_outer.pol" \
			"$ROOT/docs/recipes/commands-inner.pol" >"$T/check" 2>/dev/null
		expect "$rc_outer: polc check --nested: exit" "$?" 0 &&
			expect "$rc_outer: polc check --nested: verdict" \
				"$(tail -n 1 "$T/check")" "verdict: within" || return 1
	done
	"$B/polc" check --boundary "$ROOT/docs/recipes/claude-code-outer.pol" \
		"$ROOT/docs/recipes/commands-inner.pol" >"$T/check" 2>/dev/null
	expect "polc check, side by side: exit" "$?" 1 &&
		expect "polc check, side by side: what differs" \
			"$(sed -n 's/^\([a-z]*\):.*/\1/p' "$T/check" | grep -v verdict | sort -u | tr '\n' ' ')" \
			"env fs limits "
}
