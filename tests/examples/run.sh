#!/bin/sh
# Every example builds without a warning and dumps, every stdlib fragment
# builds, and both survive `polc fmt`:
# formatting is idempotent and compiles to the same IR as the original.
# Ends with "examples: N passed, N failed".
POLC=${POLC:-build/polc}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pass=0
fail=0
ok() { pass=$((pass + 1)); }
bad() { echo "FAIL: $*"; fail=$((fail + 1)); }

ir_of() { # POLICY -> the IR digest of its artifact
	"$POLC" build -I stdlib-policies "$1" -o "$tmp/ir.polbin" 2>"$tmp/err" &&
		"$POLC" dump "$tmp/ir.polbin" |
		sed -n 's/^  canonical IR, .* sha256 //p'
}

check_fmt() { # POLICY-TO-BUILD FILE-TO-FORMAT
	"$POLC" fmt "$2" >"$tmp/f1.pol" || { bad "fmt $2"; return; }
	"$POLC" fmt "$tmp/f1.pol" >"$tmp/f2.pol" || { bad "fmt twice $2"; return; }
	cmp -s "$tmp/f1.pol" "$tmp/f2.pol" || { bad "fmt not idempotent: $2"; return; }
	ok
}

for pol in examples/*.pol; do
	if "$POLC" build "$pol" -o "$tmp/x.polbin" 2>"$tmp/err" &&
		"$POLC" dump "$tmp/x.polbin" >"$tmp/dump" &&
		grep -q '^\[seccomp\]' "$tmp/dump"; then
		ok
	else
		bad "$pol does not build and dump: $(cat "$tmp/err")"
	fi
	# cleanly: notes (what a policy decided over a fragment) are allowed
	if grep -Eq ': (warning|error): ' "$tmp/err"; then
		bad "$pol builds with warnings: $(cat "$tmp/err")"
	else
		ok
	fi
	check_fmt "$pol" "$pol"
	a=$(ir_of "$pol")
	cp "$tmp/f1.pol" "$tmp/formatted.pol"
	b=$(ir_of "$tmp/formatted.pol")
	if [ -n "$a" ] && [ "$a" = "$b" ]; then ok; else
		bad "fmt changed the meaning of $pol"
	fi
done
for frag in stdlib-policies/std/*.pol; do
	name=${frag#stdlib-policies/}
	name=${name%.pol}
	printf 'policy "t" {\n  use %s\n}\n' "$name" >"$tmp/use.pol"
	if "$POLC" build -I stdlib-policies "$tmp/use.pol" -o "$tmp/u.polbin" \
		2>"$tmp/err"; then ok; else
		bad "std fragment $name does not build: $(cat "$tmp/err")"
	fi
	check_fmt "$tmp/use.pol" "$frag"
done
n=$(ls examples/*.pol | wc -l)
[ "$n" -ge 2 ] || bad "fewer than two examples ($n)"
echo "examples: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
