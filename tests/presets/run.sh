#!/bin/sh
# SPDX-License-Identifier: MIT
#
# The provider and harness presets (stdlib-policies/std/net, std/agent):
# each builds under the mode a policy states and allows exactly the
# destinations it lists (read back from `polc dump`, not from the source);
# two presets in one policy give the union; a preset restated by the policy
# merges; `polc check` says a policy with std/net/npm exceeds one without
# it and names the host; and a preset under a mode its rules do not fit,
# or with no mode, is refused; the harness presets build as their recipes
# use them. Nothing here runs a box or touches a network (make
# check-harness runs the harnesses: tests/harness).
#
# Ends with "presets: N passed, N failed".
# shellcheck source-path=SCRIPTDIR
set -u

HERE=$(cd "$(dirname "$0")" && pwd)
. "$HERE/../lib.sh" # expect..., suite_paths, in_scratch
suite_paths
POLC=$B/polc
STD=$ROOT/stdlib-policies

passed=0
failed=0
failures=

SCRATCH=$(mktemp -d /tmp/polc-presets.XXXXXX) || exit 2
trap 'rm -rf "$SCRATCH"' EXIT

# policy NAME LINE...: a policy file $T/NAME.pol holding the lines.
policy() {
	pn=$1
	shift
	{
		printf 'policy "%s" {\n' "$pn"
		printf '  %s\n' "$@"
		printf '}\n'
	} >"$T/$pn.pol"
}

# build NAME: RC, ERR; the artifact $T/NAME.polbin. No -I: the presets are
# found where an installed polc finds them, in its standard library.
build() {
	env -u POLC_PATH "$POLC" build "$T/$1.pol" -o "$T/$1.polbin" \
		>"$T/out" 2>"$T/err"
	RC=$?
	ERR=$(cat "$T/err")
}

# allows NAME: the net allows of the artifact's IR (its net block),
# "HOST:PORT/PROTO" one a line, sorted.
allows() {
	"$POLC" dump "$T/$1.polbin" |
		sed -n '/^  net /,/^  }/s/^    allow \([^ ]*\) \([a-z]*\)$/\1\/\2/p' |
		sort
}

# want_allows PRESET ENTRY...: `use PRESET` under net filtered builds and
# allows exactly ENTRY....
want_allows() {
	wp=$1
	shift
	policy one "use $wp" "net filtered"
	build one
	expect "$wp: build" "$RC" 0 || { say "    $ERR"; return 1; }
	expect "$wp: allows" "$(allows one | tr '\n' ' ')" \
		"$(printf '%s\n' "$@" | sort | tr '\n' ' ')"
}

t_each_provider_preset() {
	want_allows std/net/anthropic api.anthropic.com:443/tcp &&
		want_allows std/net/openai api.openai.com:443/tcp &&
		want_allows std/net/openrouter openrouter.ai:443/tcp &&
		want_allows std/net/pypi pypi.org:443/tcp \
			files.pythonhosted.org:443/tcp &&
		want_allows std/net/npm registry.npmjs.org:443/tcp &&
		want_allows std/net/github github.com:443/tcp github.com:22/tcp \
			ssh.github.com:443/tcp api.github.com:443/tcp \
			codeload.github.com:443/tcp raw.githubusercontent.com:443/tcp \
			objects.githubusercontent.com:443/tcp \
			release-assets.githubusercontent.com:443/tcp || return 1
	# every preset in the folder is one of those above
	expect "the presets" "$(cd "$STD/std/net" && printf '%s ' *.pol)" \
		"anthropic.pol github.pol npm.pol openai.pol openrouter.pol pypi.pol "
}

# Provider presets hold net allows only: no mode, no other section.
t_provider_presets_are_allows_only() {
	for f in "$STD"/std/net/*.pol; do
		other=$(sed 's/#.*//' "$f" | grep -Ev '^[[:space:]]*$' |
			grep -Ev '^[[:space:]]*(fragment "[a-z/]*" \{|net \{|allow [a-z0-9.:* -]*|\})[[:space:]]*$')
		expect "${f##*/}: only net allows" "$other" "" || return 1
	done
}

t_two_presets_union() {
	policy two "use std/net/npm" "use std/net/pypi" "net filtered"
	build two
	expect "build" "$RC" 0 &&
		expect "union" "$(allows two | tr '\n' ' ')" \
			"files.pythonhosted.org:443/tcp pypi.org:443/tcp registry.npmjs.org:443/tcp " || return 1
	# and the table polexec installs pins the three names
	"$POLC" dump "$T/two.polbin" >"$T/dump"
	for h in registry.npmjs.org pypi.org files.pythonhosted.org; do
		expect_match "the nft section names $h" "$(cat "$T/dump")" \
			"$h" || return 1
	done
}

# The policy may restate a preset's entry, and add its own; in the same
# file a repeated entry is still a duplicate.
t_restated_entry_merges() {
	policy re "use std/net/npm" \
		"net filtered { allow registry.npmjs.org:443; allow 10.1.2.3:8080 }"
	build re
	expect "build" "$RC" 0 &&
		expect "allows" "$(allows re | tr '\n' ' ')" \
			"10.1.2.3:8080/tcp registry.npmjs.org:443/tcp " || return 1
	policy dup "net filtered { allow a.example:443; allow a.example:443 }"
	build dup
	expect "duplicate in one file: exit" "$RC" 2 &&
		expect_match "says so" "$ERR" 'duplicate net entry'
}

t_check_npm_exceeds() {
	policy base "use std/net/pypi" "net filtered"
	policy more "use std/net/pypi" "use std/net/npm" "net filtered"
	"$POLC" check --boundary "$T/base.pol" "$T/more.pol" >"$T/out" 2>&1
	rc=$?
	expect "with npm: exit" "$rc" 1 &&
		expect_match "the witness host" "$(cat "$T/out")" \
			'^net: registry\.npmjs\.org:443/tcp' &&
		expect_match "verdict" "$(cat "$T/out")" '^verdict: exceeds' || return 1
	# twin: the other way round is within
	"$POLC" check --boundary "$T/more.pol" "$T/base.pol" >"$T/out" 2>&1
	expect "without npm: within" "$?" 0
}

# The mode is the policy's: a preset under `net none`, or with no mode at
# all, is refused with the preset's line; under filtered it builds.
t_mode_is_the_policys() {
	policy none "use std/net/openai" "net none"
	build none
	expect "under net none: exit" "$RC" 2 &&
		expect_match "names the preset's rule" "$ERR" \
			"std/net/openai.pol:[0-9]+:[0-9]+: error: 'allow' does not apply to 'net none'" &&
		expect_match "and the policy's mode" "$ERR" \
			"none.pol:3:3: note: the policy's net mode is set here" || return 1
	policy nomode "use std/net/openai"
	build nomode
	expect "no mode: exit" "$RC" 2 &&
		expect_match "says to state it" "$ERR" "write 'net filtered' in the policy" &&
		expect_absent "no artifact" "$T/nomode.polbin"
}

# The harness presets build as their recipe uses them (docs/AGENTS.md),
# with their provider's preset beside them, and give the box its own
# /tmp, /dev and /proc (the view's), never the host's.
t_agent_presets() {
	for a in claude-code:anthropic:api.anthropic.com \
		codex:openai:api.openai.com; do
		n=${a%%:*}
		pv=${a#*:}
		pv=${pv%%:*}
		# shellcheck disable=SC2016
		policy "$n" "use std/agent/$n" "use std/net/$pv" "net filtered" \
			"syscalls default errno(EPERM) {}" 'fs { rw ${WORKSPACE} }'
		build "$n"
		expect "std/agent/$n: build" "$RC" 0 || { say "    $ERR"; return 1; }
		expect "std/agent/$n: allows" "$(allows "$n")" "${a##*:}:443/tcp" ||
			return 1
		"$POLC" dump "$T/$n.polbin" >"$T/dump"
		for want in '^    rw ~/.claude$|^    rw ~/.codex$' \
			'^    tmpfs /tmp 256MiB$' '^    dev /dev$' '^    proc /proc$' \
			'^  env '; do
			expect_match "std/agent/$n: dump" "$(cat "$T/dump")" "$want" ||
				return 1
		done
		# no grant of the host's /tmp, /dev or /proc, or of anything in them
		expect_nomatch "std/agent/$n: no host /tmp, /dev, /proc" \
			"$(cat "$T/dump")" \
			'^    (ro|rx|rw|rwx|allow [a-z_ ]+ on)( optional)?( follow)? /(tmp|dev|proc)(/|$)' ||
			return 1
		expect "$n.pol: no TODO(view) left" \
			"$(grep -c 'TODO(view)' "$STD/std/agent/$n.pol")" 0 || return 1
	done
}

# Offline, or the model behind a local gateway: a harness preset holds no
# provider allow, so `net none` with a loopback port builds (the provider
# preset inside it was a build error there), `net filtered` with a
# loopback port and no provider allows nothing to resolve at start, and
# the preset passes the harness's base-URL variable. Claude Code's
# config lives in the granted ~/.claude (CLAUDE_CONFIG_DIR), where the
# rename that saves it works; it waits on pidfds (pidfd_open).
t_agent_presets_local_gateway() {
	for a in claude-code:ANTHROPIC_BASE_URL codex:OPENAI_BASE_URL; do
		n=${a%%:*}
		for mode in none filtered; do
			# shellcheck disable=SC2016
			policy "$n-$mode" "use std/agent/$n" \
				"net $mode { loopback 8080 }" \
				"syscalls default errno(EPERM) {}" \
				'fs { rw ${WORKSPACE} }'
			build "$n-$mode"
			expect "std/agent/$n, net $mode + loopback: build" "$RC" 0 ||
				{ say "    $ERR"; return 1; }
			expect "std/agent/$n, net $mode: no allow" \
				"$(allows "$n-$mode")" "" || return 1
		done
		"$POLC" dump "$T/$n-none.polbin" >"$T/dump"
		expect_match "std/agent/$n passes ${a#*:}" "$(cat "$T/dump")" \
			"^    pass ${a#*:}\$" || return 1
	done
	d=$("$POLC" dump "$T/claude-code-none.polbin")
	# shellcheck disable=SC2016
	expect_match "claude-code: its config in ~/.claude" "$d" \
		'^    set CLAUDE_CONFIG_DIR=\$\{HOME\}/\.claude$' &&
		expect_nomatch "claude-code: no grant of ~/.claude.json" "$d" \
			'~/\.claude\.json' &&
		expect_match "claude-code: pidfd_open" "$d" \
			'rule [0-9]+: allow pidfd_open$'
}

# Every preset survives `polc fmt`: formatting is idempotent.
t_presets_format() {
	for f in "$STD"/std/net/*.pol "$STD"/std/agent/*.pol; do
		if ! "$POLC" fmt "$f" >"$T/f1.pol" 2>"$T/err" ||
			! "$POLC" fmt "$T/f1.pol" >"$T/f2.pol" 2>>"$T/err"; then
			say "    FAIL: fmt ${f##*/}: $(cat "$T/err")"
			return 1
		fi
		expect "fmt ${f##*/} twice" "$(cmp -s "$T/f1.pol" "$T/f2.pol" &&
			echo same)" same || return 1
	done
}

for t in ${PRESETS_ONLY:-t_each_provider_preset \
	t_provider_presets_are_allows_only t_two_presets_union \
	t_restated_entry_merges t_check_npm_exceeds t_mode_is_the_policys \
	t_agent_presets t_agent_presets_local_gateway t_presets_format}; do
	in_scratch "$t"
done
[ -n "$failures" ] && say "failed:$failures"
say "presets: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
