#!/bin/sh
# SPDX-License-Identifier: MIT
#
# Every fs block of the documentation (docs/*.md, README.md) works when
# copied here (Debian 12, a merged /usr): built alone in a policy, polc
# prints no error and no warning about a symbolic link, and polexec starts
# the box without refusing (exit 125); where the block grants /usr, the
# box runs /usr/bin/true and exits 0. Variables and ~ are bound to folders
# the test made, a socket variable to a socket it made. As root, the same
# again as uid 65534. The recipes of docs/AGENTS.md are files quoted
# verbatim there (docs/recipes), and recipe B runs a command through the
# shim. Ends with "docs: N passed, N failed".
set -u
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
B=${B:-build}
case $B in /*) ;; *) B=$ROOT/$B ;; esac
POLC=$B/polc
POLEXEC=$B/polexec
tmp=$(mktemp -d /tmp/polc-docs.XXXXXX) || exit 2
# ~ is outside /tmp (and the tree, which may be under it): a block that
# grants rw /tmp would otherwise grant an ancestor of HOME, which polexec
# refuses.
home=$(mktemp -d /var/tmp/polc-docs-home.XXXXXX) || exit 2
trap 'rm -rf "$tmp" "$home"' EXIT
chmod 755 "$tmp" "$home"
pass=0
fail=0

# The fs blocks, one file each: blocks/N.pol (a policy around the block)
# and blocks/N.from (where it came from).
mkdir "$tmp/blocks"
python3 - "$tmp/blocks" "$ROOT"/README.md "$ROOT"/docs/*.md <<'PY'
import re, sys
out, files = sys.argv[1], sys.argv[2:]
n = 0
for f in files:
    text = open(f).read()
    for m in re.finditer(r'^```[a-z]*\n(.*?)^```', text, re.S | re.M):
        block = m.group(1)
        for fm in re.finditer(r'^([ \t]*)fs( best_effort| require)? \{', block, re.M):
            # a grammar summary, not an example
            body_start = fm.start()
            depth, i = 0, fm.end() - 1
            while i < len(block):
                depth += {'{': 1, '}': -1}.get(block[i], 0)
                if depth == 0:
                    break
                i += 1
            fs = block[body_start:i + 1]
            if re.search(r'PATH|RIGHT|\.\.\.|\[|\|', fs):
                continue
            n += 1
            line = text[:m.start()].count('\n') + 1
            open('%s/%d.pol' % (out, n), 'w').write(
                'policy "doc" {\n%s\n}\n' % fs)
            open('%s/%d.from' % (out, n), 'w').write('%s:%d' % (f, line))
PY
ls "$tmp/blocks"/*.pol >/dev/null 2>&1 || { echo "docs: no fs block found"; exit 1; }

ok() { pass=$((pass + 1)); }
bad() { echo "FAIL: $*"; fail=$((fail + 1)); }

# Binds each ${VAR} of $1 to a folder under $2 (a socket for one named
# *SOCK*) and ~ to a folder under $home named after $2, with the folders
# the block names under ~; prints the polexec options.
bind_vars() {
	for v in $(grep -o '\${[A-Za-z_][A-Za-z0-9_]*}' "$1" | sort -u |
		tr -d '${}'); do
		case $v in
		*SOCK*)
			python3 -c 'import socket,sys; socket.socket(socket.AF_UNIX).bind(sys.argv[1])' \
				"$2/$v.sock" 2>/dev/null
			printf ' --var %s=%s' "$v" "$2/$v.sock"
			;;
		*)
			mkdir -p "$2/$v"
			printf ' --var %s=%s' "$v" "$2/$v"
			;;
		esac
	done
	h=$home/$(basename "$2")
	mkdir -p "$h"
	for p in $(grep -o '~/[^ ]*' "$1" | sort -u); do
		mkdir -p "$h/${p#\~/}"
	done
	chmod -R a+rwX "$h"
	printf ' --var HOME=%s' "$h"
}

run_blocks() { # WHO
	for pol in "$tmp"/blocks/*.pol; do
		n=$(basename "$pol" .pol)
		from=$(cat "$tmp/blocks/$n.from")
		art=$tmp/out/$n.polbin
		if ! "$POLC" build "$pol" -o "$art" >"$tmp/out/$n.log" 2>&1; then
			bad "$from: polc build: $(cat "$tmp/out/$n.log")"
			continue
		fi
		if grep -q 'symbolic link' "$tmp/out/$n.log"; then
			bad "$from: $(grep 'symbolic link' "$tmp/out/$n.log")"
			continue
		fi
		w=$tmp/w/$1-$n
		mkdir -p "$w" && chmod 777 "$w"
		# shellcheck disable=SC2046
		set -- "$1" $(bind_vars "$pol" "$w")
		who=$1
		shift
		if [ "$who" = root ]; then
			"$POLEXEC" "$@" "$art" -- /usr/bin/true \
				>"$tmp/out/$n.run" 2>&1
		else
			chmod -R a+rwX "$w"
			setpriv --reuid=65534 --regid=65534 --clear-groups \
				"$POLEXEC" "$@" "$art" -- /usr/bin/true \
				>"$tmp/out/$n.run" 2>&1
		fi
		rc=$?
		set -- "$who"
		if [ "$rc" = 125 ]; then
			bad "$from ($who): polexec refused: $(cat "$tmp/out/$n.run")"
		elif grep -Eq '^[[:space:]]*r[wx]+x? .*/usr( |$)' "$pol" &&
			[ "$rc" != 0 ]; then
			bad "$from ($who): /usr/bin/true exited $rc: $(cat "$tmp/out/$n.run")"
		else
			ok
		fi
	done
}

# The recipes of docs/AGENTS.md are files (docs/recipes/*.pol), each
# quoted there verbatim, so the page cannot drift from what the tests run
# (make check-harness runs recipe A's files; recipe B runs below). Each
# builds without an error or a warning.
recipes() {
	for r in "$ROOT"/docs/recipes/*.pol; do
		if ! python3 - "$r" "$ROOT/docs/AGENTS.md" <<'PY'; then
import sys
r, page = open(sys.argv[1]).read(), open(sys.argv[2]).read()
sys.exit(0 if "```\n" + r + "```\n" in page else 1)
PY
			bad "${r##*/}: not quoted verbatim in docs/AGENTS.md"
			continue
		fi
		if ! "$POLC" build "$r" -o "$tmp/recipe.polbin" \
			>"$tmp/recipe.log" 2>&1 ||
			grep -Eq ': (warning|error): ' "$tmp/recipe.log"; then
			bad "${r##*/}: polc build: $(cat "$tmp/recipe.log")"
			continue
		fi
		ok
	done
}

# Recipe B as written: WORKSPACE exported, the harness's shell
# polexec-bash, a command shaped as Claude Code's (the snapshot sourced,
# the command, its cwd written to the host's /tmp, which Claude Code reads
# back after the box is gone).
recipe_b() {
	rb=$tmp/recipe-b
	rh=$home/recipe-b # HOME outside /tmp, which the recipe grants
	mkdir -p "$rb/bin" "$rh/.claude/shell-snapshots" "$rb/ws/sub" &&
		cp "$POLEXEC" "$ROOT/contrib/polexec-sh" "$rb/bin/" &&
		ln -s polexec-sh "$rb/bin/polexec-bash" &&
		"$POLC" build "$ROOT/docs/recipes/commands.pol" \
			-o "$rb/commands.polbin" >/dev/null 2>&1 ||
		{ bad "recipe B: setup"; return; }
	echo 'snap() { echo from-snapshot; }' \
		>"$rh/.claude/shell-snapshots/snapshot-bash-1.sh"
	cwdf=$(mktemp /tmp/claude-XXXXXX-cwd) && rm -f "$cwdf"
	out=$(cd "$rb/ws" && HOME=$rh WORKSPACE=$rb/ws \
		POLEXEC_ARTIFACT=$rb/commands.polbin CLAUDECODE=1 \
		"$rb/bin/polexec-bash" -c -l "source $rh/.claude/shell-snapshots/snapshot-bash-1.sh 2>/dev/null || true && eval 'snap; cd sub' && pwd -P >| $cwdf" 2>&1)
	rc=$?
	if [ "$rc" != 0 ] || [ "$out" != from-snapshot ] ||
		[ "$(cat "$cwdf" 2>/dev/null)" != "$rb/ws/sub" ]; then
		bad "recipe B: exit $rc, output [$out], cwd file [$(cat "$cwdf" 2>/dev/null)]"
	else
		ok
	fi
	rm -f "$cwdf"
}

recipes
recipe_b
mkdir "$tmp/out" "$tmp/w"
chmod 755 "$tmp/out" "$tmp/w"
run_blocks root
[ "$(id -u)" = 0 ] && chmod -R a+rX "$tmp/out" "$tmp/blocks" && run_blocks nobody
echo "docs: $pass passed, $fail failed ($(ls "$tmp"/blocks/*.pol | wc -l) fs blocks)"
[ "$fail" -eq 0 ]
