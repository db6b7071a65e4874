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
