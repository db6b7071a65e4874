#!/bin/sh
# Each NN-a.pol / NN-b.pol pair is one policy written two ways; both must
# compile to byte-identical IR (compared through the IR digest that
# `polc dump` computes over the IR section itself).
POLC=${POLC:-build/polc}
dir=$(dirname "$0")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pass=0
fail=0
ir_digest() {
	"$POLC" build -I stdlib-policies "$1" -o "$tmp/x.polbin" 2>"$tmp/err" ||
		{ cat "$tmp/err"; return 1; }
	"$POLC" dump "$tmp/x.polbin" | sed -n 's/^  canonical IR, .* sha256 //p'
}
for a in "$dir"/*-a.pol; do
	b=${a%-a.pol}-b.pol
	da=$(ir_digest "$a") && db=$(ir_digest "$b")
	if [ -n "$da" ] && [ "$da" = "$db" ]; then
		pass=$((pass + 1))
	else
		echo "FAIL: $a and $b differ ($da vs $db)"
		fail=$((fail + 1))
	fi
done
echo "equiv: $pass passed, $fail failed"
[ "$fail" -eq 0 ] && [ "$pass" -gt 0 ]
