#!/bin/sh
# polexec's size budget (issue 22, raised for issues 24-26: docs/BENCHMARKS.md):
# at most 172,032 bytes stripped, static, with every layer. Fails when a change crosses it, so the budget is met
# by every commit rather than found missed at the end; `make bench-size`
# shows where the bytes go.
B=${B:-build}
BUDGET=172032
f=$B/polexec
[ -x "$f" ] || { echo "size: $f is missing: run make first"; exit 2; }
size=$(stat -c %s "$f") || exit 2
if LC_ALL=C readelf -lW "$f" | grep -q 'INTERP\|DYNAMIC'; then
	echo "FAIL  size: $f is not static"
	exit 1
fi
if LC_ALL=C readelf -SW "$f" | grep -q '\.symtab'; then
	echo "FAIL  size: $f is not stripped"
	exit 1
fi
if [ "$size" -gt "$BUDGET" ]; then
	echo "FAIL  size: $f is $size bytes, over the budget of $BUDGET"
	exit 1
fi
echo "ok    size: $f is $size bytes, static and stripped (budget $BUDGET)"
