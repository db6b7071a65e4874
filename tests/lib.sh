# SPDX-License-Identifier: MIT
#
# The assertions the behaviour suites (tests/leak, tests/net) share. Each
# prints "    FAIL: DESC: ..." and returns 1 when it does not hold, so a test
# chains them with && and returns the first failure.

say() { printf '%s\n' "$*"; }

# expect DESC ACTUAL EXPECTED
expect() {
	if [ "$2" = "$3" ]; then
		return 0
	fi
	say "    FAIL: $1: got [$2], expected [$3]"
	return 1
}

# expect_match DESC TEXT PATTERN (grep -E)
expect_match() {
	if printf '%s\n' "$2" | grep -Eq -- "$3"; then
		return 0
	fi
	say "    FAIL: $1: [$2] does not match /$3/"
	return 1
}

expect_nomatch() {
	if printf '%s\n' "$2" | grep -Eq -- "$3"; then
		say "    FAIL: $1: [$2] matches /$3/"
		return 1
	fi
	return 0
}

expect_absent() {
	if [ -e "$2" ]; then
		say "    FAIL: $1: $2 exists"
		return 1
	fi
	return 0
}

# unprivileged_pass SUITE [VAR=VALUE]...: runs $SHARED/bin/run.sh again as
# uid 65534 (no groups) with the given environment, shows its log, and adds
# its "SUITE-pass: N passed, N failed" line to $passed and $failed; a pass
# that ends without that line counts as one failure.
unprivileged_pass() {
	up_suite=$1
	shift
	setpriv --reuid=65534 --regid=65534 --clear-groups env "$@" \
		sh "$SHARED/bin/run.sh" >"$SHARED/inner.log" 2>&1
	cat "$SHARED/inner.log"
	up_line=$(grep "^$up_suite-pass: " "$SHARED/inner.log" | tail -n 1)
	if [ -z "$up_line" ]; then
		say "$up_suite: the uid 65534 pass did not finish"
		failed=$((failed + 1))
		return
	fi
	# shellcheck disable=SC2086
	set -- $up_line
	passed=$((passed + $2))
	failed=$((failed + $4))
}
