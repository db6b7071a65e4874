#!/bin/sh
# Runs each check given as an argument (an executable), shows its output,
# and ends with one summary line: "checks: N passed, N failed".
# Exits non-zero when any check failed.
passed=0
failed=0
failures=""
for t in "$@"; do
	echo "=== $t"
	if "$t"; then
		passed=$((passed + 1))
	else
		failed=$((failed + 1))
		failures="$failures $t"
	fi
done
[ -n "$failures" ] && echo "failed:$failures"
echo "checks: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
