#!/bin/sh
# SPDX-License-Identifier: MIT
#
# make check-harness (not part of make check: it needs the npm registry):
# Claude Code and Codex, installed by `make check-harness` from the pinned
# package-lock.json beside this script into build/harness, each run with
# --version and --help under polexec with its preset (std/agent/
# claude-code, std/agent/codex), as a user would run it: `net filtered`
# with the provider preset, a workspace, HOME a folder of the test's, the
# key a file of the test's (none is needed, none is real).
#
# Each run must print what the harness prints outside any box (checked
# against a run outside, in a namespace with no network), exit 0, write
# no warning on stderr, and leave a run record (valid against the schema)
# whose net layer is enforced and lists no blocked destination. Twins: the
# same run without the harness's grant fails, so the grants are what let
# it run; and an unlisted destination tried from the same box is blocked
# and recorded, so an empty list means something.
#
# Safety: as tests/net/run.sh, the script re-executes itself in a
# throwaway outer namespace set (unshare --net --mount --pid); its only
# "internet" is a test host h1 (10.78.1.2) in a namespace of its own, the
# outer namespace's default route points at it, and its /etc/hosts (bind-
# mounted in the outer mount namespace only) names api.anthropic.com and
# api.openai.com as h1. No packet can reach a real address. Needs root.
#
# Then sessions.sh: each harness driven for real by a mock model
# (mockmodel.py) through the recipes A, B and C of docs/AGENTS.md, as
# root and as uid 65534, and a soak of 200 tool calls through the shim.
#
# Ends with "harness: N passed, N failed". HARNESS_ONLY="t_a t_b" runs only
# those tests (a session as t_NAME_as_0 or t_NAME_as_65534);
# HARNESS_STRACE=FILE traces each box (see box below);
# HARNESS_SOAK_CALLS=N shortens the soak.
# shellcheck source-path=SCRIPTDIR
set -u

HERE=$(cd "$(dirname "$0")" && pwd)
. "$HERE/../lib.sh" # expect..., suite_paths, in_scratch, schema_check
suite_paths
H=$B/harness
NM=$H/node_modules
CLAUDE=$NM/@anthropic-ai/claude-code-linux-x64/claude
CODEX=$NM/@openai/codex-linux-x64/vendor/x86_64-unknown-linux-musl/bin/codex
CLAUDE_VERSION=2.1.332
CODEX_VERSION=0.171.0
H1=10.78.1.2

passed=0
failed=0
failures=

fatal() {
	say "harness: FATAL: $*"
	say "harness: 0 passed, 1 failed"
	exit 1
}

# --- the outer namespaces --------------------------------------------------

if [ -z "${HARNESS_OUTER:-}" ]; then
	[ "$(id -u)" = 0 ] ||
		fatal "needs root (a throwaway network namespace with a test host)"
	for f in "$CLAUDE" "$CODEX" "$B/polexec" "$B/polc" \
		"$B/tests/net/netserve"; do
		[ -x "$f" ] || fatal "$f is missing: run make check-harness"
	done
	HARNESS_OUTER=1 exec unshare --net --mount --propagation private \
		--pid --fork --mount-proc sh "$0" "$@"
fi

HOLDER=
SERVER=
cleanup() {
	[ -z "$SERVER" ] || kill -KILL "$SERVER" 2>/dev/null
	[ -z "$HOLDER" ] || kill -KILL "$HOLDER" 2>/dev/null
	[ -z "${S:-}" ] || rm -rf "$S"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

[ "$(ip -o link | grep -cv ' lo:')" = 0 ] ||
	fatal "the outer network namespace is not a fresh one"
S=$(mktemp -d "$H/run.XXXXXX") || fatal "mktemp"
ip link set lo up || fatal "lo"
unshare --net /bin/sleep 3600 &
HOLDER=$!
i=0
while [ $i -lt 50 ] && [ "$(readlink /proc/$HOLDER/ns/net)" = \
	"$(readlink /proc/self/ns/net)" ]; do
	sleep 0.05
	i=$((i + 1))
done
if ! { ip link add hv1 type veth peer name eth0 netns "$HOLDER" &&
	ip addr add 10.78.1.1/24 dev hv1 && ip link set hv1 up &&
	nsenter -t "$HOLDER" -n sh -c "ip link set lo up &&
		ip addr add $H1/24 dev eth0 && ip link set eth0 up" &&
	ip route add default via $H1 dev hv1; }; then
	fatal "the test host"
fi
ip -4 route get 192.0.2.1 | grep -q "via $H1 dev hv1 " ||
	fatal "the outer namespace's route is not the test's"
# h1 answers on 443 (tests/net's bounded server: it exits by itself)
nsenter -t "$HOLDER" -n "$B/tests/net/netserve" 0.0.0.0 600 h1 tcp:443 \
	>"$S/server.log" 2>&1 &
SERVER=$!
i=0
until grep -q '^ready$' "$S/server.log" 2>/dev/null; do
	i=$((i + 1))
	[ $i -lt 50 ] || fatal "the test server: $(cat "$S/server.log")"
	sleep 0.1
done
{
	echo "127.0.0.1 localhost"
	echo "$H1 api.anthropic.com"
	echo "$H1 api.openai.com"
	echo "$H1 other.test"
} >"$S/hosts"
printf 'nameserver %s\noptions timeout:1 attempts:1\n' "$H1" >"$S/resolv.conf"
mount --bind "$S/hosts" /etc/hosts || fatal "hosts file"
mount --bind "$S/resolv.conf" /etc/resolv.conf || fatal "resolv.conf"

# --- helpers ---------------------------------------------------------------

# The policies: the recipes' files of docs/AGENTS.md as they are
# (docs/recipes: A, the harness under its preset, its provider or a
# loopback port, a workspace, PATH; B, its commands under std/shell), and
# the twin beside this script. $S is readable by uid 65534's sessions.
chmod 755 "$S" || fatal "chmod $S"
# recipe A's key file (claude-code.pol: a secret; no key is real)
echo sk-polc-fake-version-key >"$S/key" || fatal "the key file"
for p in "$ROOT"/docs/recipes/*.pol "$HERE"/*.pol; do
	n=${p##*/}
	"$B/polc" build "$p" -o "$S/${n%.pol}.polbin" >"$S/${n%.pol}.log" 2>&1 ||
		fatal "polc build $p: $(cat "$S/${n%.pol}.log")"
done

# A fresh HOME and workspace per test, as the presets need them.
fresh_home() {
	rm -rf "${S:?}/home" "${S:?}/ws"
	mkdir -p "$S/home/.claude" "$S/home/.codex" "$S/ws" &&
		: >"$S/home/.claude.json"
}

# box ART CMD...: runs CMD under ART in $S/ws, HOME=$S/home, the harness
# folders bound; OUT, ERR, RC; the record in $T/rec.json. With
# HARNESS_STRACE=FILE, polexec and the box run under strace -f -o FILE.N
# (how a denial's cause is found: docs/AGENTS.md).
box() {
	b_art=$1
	shift
	b_trace=
	if [ -n "${HARNESS_STRACE:-}" ]; then
		b_n=$((${b_n:-0} + 1))
		b_trace="strace -f -qq -o $HARNESS_STRACE.$b_n"
	fi
	# The namespace backend whoever runs the suite (root would get the
	# cgroup programs, docs/EGRESS.md, which tests/net checks).
	# shellcheck disable=SC2086
	(cd "$S/ws" && env -i HOME="$S/home" TERM=dumb LANG=C.UTF-8 \
		WORKSPACE="$S/ws" CLAUDE_CODE_DIR="$NM/@anthropic-ai" \
		CODEX_DIR="$NM/@openai" ANTHROPIC_KEY_FILE="$S/key" \
		timeout -k 5 120 $b_trace "$B/polexec" --net-backend=namespace \
		--record "$T/rec.json" "$b_art" -- \
		"$@" </dev/null >"$T/stdout" 2>"$T/stderr")
	RC=$?
	OUT=$(cat "$T/stdout")
	ERR=$(cat "$T/stderr")
}

# outside CMD...: the same command with no box, in a namespace with no
# network at all, the same HOME: OUT_REF, RC_REF.
outside() {
	OUT_REF=$(cd "$S/ws" && env -i HOME="$S/home" TERM=dumb LANG=C.UTF-8 \
		PATH=/usr/bin:/bin unshare --net "$@" </dev/null 2>/dev/null)
	RC_REF=$?
}

rec() { jq -r "$1" "$T/rec.json" 2>/dev/null; }

# expect_clean_run DESC: exit 0, stderr empty, a valid record: every layer
# enforced, net filtered by nft+pasta, nothing blocked.
expect_clean_run() {
	expect "$1: exit" "$RC" 0 &&
		expect "$1: stderr" "$ERR" "" || return 1
	schema_check run-record "$T/rec.json" ||
		{ say "    FAIL: $1: record: $SC_INVALID"; return 1; }
	expect "$1: seccomp" "$(rec .layers.seccomp.tier)" enforced &&
		expect "$1: landlock" "$(rec .layers.landlock.tier)" enforced &&
		expect "$1: net" "$(rec .layers.net.tier)/$(rec .layers.net.mode)/$(rec .layers.net.egress)" \
			enforced/filtered/nft+pasta &&
		expect "$1: blocked" "$(rec '.layers.net.blocked | length')" 0
}

# same_as_outside DESC CMD...: the box printed what CMD prints outside.
same_as_outside() {
	d=$1
	shift
	outside "$@"
	expect "$d: outside exit" "$RC_REF" 0 &&
		expect "$d: output as outside" "$OUT" "$OUT_REF"
}

# --- the tests -------------------------------------------------------------

t_claude_version() {
	fresh_home
	box "$S/claude-code.polbin" "$CLAUDE" --version
	expect_clean_run "claude --version" &&
		expect "version" "$OUT" "$CLAUDE_VERSION (Claude Code)" &&
		same_as_outside "claude --version" "$CLAUDE" --version
}

t_claude_help() {
	fresh_home
	box "$S/claude-code.polbin" "$CLAUDE" --help
	expect_clean_run "claude --help" &&
		expect_match "usage" "$OUT" '^Usage: claude ' &&
		same_as_outside "claude --help" "$CLAUDE" --help
}

t_codex_version() {
	fresh_home
	box "$S/codex.polbin" "$CODEX" --version
	expect_clean_run "codex --version" &&
		expect "version" "$OUT" "codex-cli $CODEX_VERSION" &&
		same_as_outside "codex --version" "$CODEX" --version
}

t_codex_help() {
	fresh_home
	box "$S/codex.polbin" "$CODEX" --help
	expect_clean_run "codex --help" &&
		expect_match "usage" "$OUT" '^Codex CLI' &&
		expect_match "the sandbox flag it documents" "$OUT" \
			'danger-full-access' &&
		same_as_outside "codex --help" "$CODEX" --help || return 1
	# its state folder took the helper links it makes at start
	expect "HOME/.codex/tmp/arg0-linux" \
		"$([ -d "$S/home/.codex/tmp/arg0-linux" ] && echo made)" made
}

# Twins: without the grant of the harness's folder the same run fails
# (the binary is not in the box's view: exit 127, ENOENT), so the
# preset's grants are what let it run.
t_without_the_grant_it_fails() {
	fresh_home
	box "$S/no-harness.polbin" "$CLAUDE" --version
	expect "claude without its grant: exit" "$RC" 127 || return 1
	box "$S/no-harness.polbin" "$CODEX" --version
	expect "codex without its grant: exit" "$RC" 127
}

# Twin of "nothing blocked": from the same box, a destination the preset
# does not list (h1:8443) is refused and recorded; the listed one (the
# address api.anthropic.com was pinned to, h1, where a test server answers
# on 443) is reached and not recorded.
t_unlisted_destination_recorded() {
	fresh_home
	box "$S/claude-code.polbin" /bin/bash -c \
		"exec 3<>/dev/tcp/$H1/8443 || echo blocked; exec 4<>/dev/tcp/$H1/443 && head -n 1 <&4"
	expect "exit" "$RC" 0 &&
		expect "both tried" "$OUT" "$(printf 'blocked\nh1:443/tcp')" &&
		expect "blocked" "$(rec '.layers.net.blocked[]?')" "$H1:8443/tcp"
}

# A failed test shows the last box's stderr.
box_stderr() {
	if [ -s "$T/stderr" ]; then
		say "    the box's stderr:"
		head -n 20 "$T/stderr" | sed 's/^/      /'
	fi
	# a session's: what the mock answered and the tool results it got
	[ -s "$T/mock/requests.log" ] || return 0
	say "    the mock's log and the tool results:"
	head -n 20 "$T/mock/requests.log" | sed 's/^/      /'
	head -c 2000 "$T/mock/results.jsonl" 2>/dev/null | sed 's/^/      /'
}

# The sessions (sessions.sh): each as root and as uid 65534.
# shellcheck source=sessions.sh
. "$HERE/sessions.sh"
SESSIONS="t_session_claude_a t_session_codex_a t_session_claude_b
t_session_codex_b t_soak_claude_b t_session_claude_c t_session_codex_c"
for t in $SESSIONS; do
	for who in 0 65534; do
		eval "${t}_as_$who() { WHO=$who $t; }"
	done
done

SCRATCH=$S
for t in ${HARNESS_ONLY:-t_claude_version t_claude_help t_codex_version \
	t_codex_help t_without_the_grant_it_fails \
	t_unlisted_destination_recorded t_recipe_c_boundary $(for s in $SESSIONS; do
		printf '%s_as_0 %s_as_65534 ' "$s" "$s"
	done)}; do
	in_scratch "$t" box_stderr
done
[ -n "$failures" ] && say "failed:$failures"
say "harness: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
