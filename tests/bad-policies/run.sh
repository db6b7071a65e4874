#!/bin/sh
# SPDX-License-Identifier: MIT
#
# Runs polc over every malformed policy in this folder and checks that it
# refuses each one the way a careful user expects:
#
#   - exit status exactly 2 (not 0, not 1, not a signal, not a hang);
#   - a line "FILE:LINE:COL: error: ...MESSAGE..." for the expected place;
#   - right after it, the quoted source line and a caret under COL;
#   - every expected note, with its own quote and caret;
#   - no artifact written, and no sanitizer report.
#
# Each test's first line says what to expect:
#
#   # expect: LINE:COL: MESSAGE-SUBSTRING
#   # expect-note: LINE:COL: SUBSTRING        (optional, second line on)
#
# LINE:COL is in the test file itself. When the place is in a fragment,
# it is prefixed with the fragment's path relative to this folder, as in
# "frag/typo.pol:4:16: ...". A note's SUBSTRING may be empty: any note at
# that place will do. Fragments live in frag/ and are found with -I.
#
# POLC names the compiler (default: build/polc of this tree).
# BAD_POLICIES_VERBOSE=1 prints polc's stderr for every failure.
# Prints one line per failure and a summary; exits 1 if anything failed.

set -u

dir=$(dirname "$0")
root=$(cd "$dir/../.." && pwd)
POLC=${POLC:-$root/build/polc}
TIMEOUT_S=${BAD_POLICIES_TIMEOUT:-30}

if [ ! -x "$POLC" ]; then
	echo "bad-policies: no polc at $POLC (set POLC)" >&2
	exit 2
fi

tmp=$(mktemp -d "${TMPDIR:-/tmp}/bad-policies.XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT
trap 'exit 2' HUP INT TERM

run_timeout=
if command -v timeout >/dev/null 2>&1; then
	run_timeout="timeout $TIMEOUT_S"
fi

# check_diag KIND PATH LINE COL SUBSTRING ERRFILE
# True when ERRFILE has "PATH:LINE:COL: KIND: " followed on the same line by
# SUBSTRING, then the quoted source line, then a caret under COL. The values
# travel through the environment: awk -v would interpret backslashes.
check_diag() {
	CD_PREFIX="$2:$3:$4: $1: "
	CD_SUB=$5
	CD_COL=$4
	# The source line as diag_print quotes it: control characters as '?',
	# and past ASCII, C1 controls and bytes that are not UTF-8 too.
	CD_QUOTE="    $(sed -n "$3{p;q;}" "$2" 2>/dev/null |
		tr '\000-\010\013-\037\177' '[?*]')"
	if printf '%s' "$CD_QUOTE" | LC_ALL=C grep -q '[^[:print:][:space:]]'; then
		CD_QUOTE="    $(sed -n "$3{p;q;}" "$2" | python3 -c '
import re, sys
b = sys.stdin.buffer.read().rstrip(b"\n")
out = []
i = 0
while i < len(b):
    for n in (4, 3, 2, 1):
        try:
            ch = b[i:i + n].decode("utf-8")
        except UnicodeDecodeError:
            continue
        if len(ch) == 1:
            break
    else:
        ch = None
    if ch is None or (0x80 <= ord(ch) <= 0x9f) or (
            ord(ch) < 0x20 and ch != "\t") or ch == "\x7f":
        out.append(b"?")
        i += 1
    else:
        out.append(ch.encode("utf-8"))
        i += len(ch.encode("utf-8"))
sys.stdout.buffer.write(b"".join(out))
')"
	fi
	export CD_PREFIX CD_SUB CD_COL CD_QUOTE
	LC_ALL=C awk '
		BEGIN {
			prefix = ENVIRON["CD_PREFIX"]
			sub_ = ENVIRON["CD_SUB"]
			col = ENVIRON["CD_COL"] + 0
			quote = ENVIRON["CD_QUOTE"]
			want = col - 1
			if (want > length(quote) - 4)
				want = length(quote) - 4
			state = 0
			ok = 0
			why = "no line starting \"" prefix "\" with \"" sub_ "\""
		}
		ok { next }
		state == 2 {
			if ($0 ~ /^    [ \t]*\^$/ && length($0) == 4 + want + 1)
				ok = 1
			else
				why = "caret line wrong: \"" $0 "\""
			state = 0
			next
		}
		state == 1 {
			if ($0 == quote) {
				state = 2
			} else {
				why = "source line not quoted after the message"
				state = 0
			}
			next
		}
		index($0, prefix) == 1 &&
		    index(substr($0, length(prefix) + 1), sub_) > 0 {
			state = 1
		}
		END {
			if (!ok)
				print why
			exit !ok
		}
	' "$6"
}

# split_place TEXT: sets P_PATH, P_LINE, P_COL, P_MSG from
# "[PATH:]LINE:COL: MSG" (PATH relative to this folder). False if malformed.
split_place() {
	P_PATH=$cur
	case $1 in
	[0-9]*) rest=$1 ;;
	*:*)
		P_PATH=$dir/${1%%:*}
		rest=${1#*:}
		;;
	*) return 1 ;;
	esac
	P_LINE=${rest%%:*}
	rest=${rest#*:}
	P_COL=${rest%%:*}
	case $P_LINE$P_COL in
	"" | *[!0-9]*) return 1 ;;
	esac
	case $rest in
	*:*) P_MSG=${rest#*:} ;;
	*) return 1 ;;
	esac
	P_MSG=${P_MSG# }
	return 0
}

fail() { reasons="${reasons:+$reasons; }$1"; }

passed=0
failed=0
for cur in "$dir"/*.pol; do
	[ -f "$cur" ] || continue
	name=$(basename "$cur" .pol)
	reasons=

	first=$(sed -n '1{p;q;}' "$cur")
	case $first in
	"# expect: "*) expect=${first#"# expect: "} ;;
	*) expect= ;;
	esac

	out="$tmp/out"
	rm -rf "$out"
	mkdir "$out"
	# shellcheck disable=SC2086 # run_timeout is a command prefix
	$run_timeout "$POLC" build -I "$dir/frag" "$cur" -o "$out/a.polbin" \
		>"$tmp/stdout" 2>"$tmp/stderr" </dev/null
	rc=$?

	if [ -z "$expect" ] || ! split_place "$expect"; then
		fail "first line is not '# expect: LINE:COL: MESSAGE'"
	elif [ "$rc" -eq 124 ] && [ -n "$run_timeout" ]; then
		fail "no answer within ${TIMEOUT_S}s (hang?)"
	elif [ "$rc" -gt 128 ]; then
		fail "crashed (signal $((rc - 128)))"
	else
		[ "$rc" -eq 2 ] || fail "exit status $rc, want 2"
		if grep -q -e Sanitizer -e 'runtime error:' "$tmp/stderr"; then
			fail "sanitizer report"
		fi
		if why=$(check_diag error "$P_PATH" "$P_LINE" "$P_COL" \
			"$P_MSG" "$tmp/stderr"); then
			:
		else
			fail "$why"
		fi
		# Notes: every "# expect-note:" line among the first few.
		sed -n '2,9p' "$cur" | grep '^# expect-note: ' >"$tmp/notes"
		while IFS= read -r note; do
			note=${note#"# expect-note: "}
			if ! split_place "$note"; then
				fail "malformed expect-note '$note'"
			elif why=$(check_diag note "$P_PATH" "$P_LINE" \
				"$P_COL" "$P_MSG" "$tmp/stderr"); then
				:
			else
				fail "note $P_LINE:$P_COL: $why"
			fi
		done <"$tmp/notes"
		# shellcheck disable=SC2012 # names we chose, listed for a human
		if [ -n "$(ls -A "$out")" ]; then
			fail "wrote output: $(ls -A "$out" | tr '\n' ' ')"
		fi
	fi

	if [ -z "$reasons" ]; then
		passed=$((passed + 1))
	else
		failed=$((failed + 1))
		echo "FAIL $name: $reasons"
		if [ "${BAD_POLICIES_VERBOSE:-0}" = 1 ]; then
			sed 's/^/    | /' "$tmp/stderr"
		fi
	fi
done

echo "bad-policies: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
