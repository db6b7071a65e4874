#!/bin/sh
# The prover's corpus: each NN-name/ holds old.pol, new.pol and expect:
#
#   verdict: within | exceeds | error     (exit 0 | 1 | 2, checked exactly)
#   witness: DIM [TEXT]    a finding line "DIM: ..." containing TEXT
#   note: DIM [TEXT]       a note line "note: DIM: ..." containing TEXT
#   args: OPTION...        options for polc check (--nested)
#
# Every expected finding dimension must appear, and no other: each
# finding line's dimension must be named by some witness line. Each pair
# is also checked with --json (valid JSON, same verdict and findings) and
# through both artifacts (.polbin), which must give the same verdict.
#
# Every --json output must also match docs/schema/check.schema.json: all
# of them are validated at the end, in one run of the validator, and a
# pair whose output does not match fails.
#
# Then every example and standard-library fragment is within itself, and
# each with one extra allow added exceeds it, with that allow the witness.
# Ends with "prover: N passed, N failed".
POLC=${POLC:-build/polc}
dir=$(dirname "$0")
HERE=$(cd "$dir" && pwd)
. "$HERE/../lib.sh" # schema_check
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir "$tmp/jsons"
pass=0
fail=0
ok() { pass=$((pass + 1)); }
bad() { echo "FAIL: $*"; fail=$((fail + 1)); }

code_of() {
	case $1 in
	within) echo 0 ;; exceeds) echo 1 ;; error) echo 2 ;; *) echo x ;;
	esac
}

check_pair() { # CASE-DIR
	c=$1
	name=$(basename "$c")
	want=$(sed -n 's/^verdict: //p' "$c/expect")
	code=$(code_of "$want")
	args=$(sed -n 's/^args: //p' "$c/expect")
	# shellcheck disable=SC2086 # options, one word each
	"$POLC" check $args --boundary "$c/old.pol" "$c/new.pol" >"$tmp/out" \
		2>"$tmp/err"
	rc=$?
	if [ "$rc" != "$code" ]; then
		bad "$name: exit $rc, expected $code ($want)"
		cat "$tmp/out" "$tmp/err"
		return
	fi
	if [ "$want" = error ]; then
		[ -s "$tmp/err" ] && [ ! -s "$tmp/out" ] && ok ||
			bad "$name: an error must say why on stderr only"
		return
	fi
	tail -n 1 "$tmp/out" | grep -q "^verdict: $want" ||
		{ bad "$name: last line is not the verdict"; return; }
	errs=0
	while IFS= read -r line; do
		case $line in
		"witness: "* | "note: "*)
			kind=${line%%: *}
			rest=${line#*: }
			dim=${rest%% *}
			text=${rest#"$dim"}
			text=${text# }
			if [ "$kind" = witness ]; then
				pre="$dim: "
			else
				pre="note: $dim: "
			fi
			if ! grep -F -- "$pre" "$tmp/out" | grep -q -F -- "$text"; then
				bad "$name: no $kind line '$pre$text'"
				errs=1
			fi
			;;
		esac
	done <"$c/expect"
	# No finding of a dimension the expectation does not name.
	for d in $(grep -v '^note: \|^verdict: ' "$tmp/out" | sed 's/:.*//' |
		sort -u); do
		grep -q "^witness: $d\b" "$c/expect" ||
			{ bad "$name: unexpected $d finding"; errs=1; }
	done
	[ $errs -eq 0 ] || { cat "$tmp/out"; return; }
	# JSON: valid, the same verdict, one object per finding line.
	# shellcheck disable=SC2086
	"$POLC" check $args --json --boundary "$c/old.pol" "$c/new.pol" \
		>"$tmp/json" 2>/dev/null
	n_text=$(grep -c -v '^note: \|^verdict: ' "$tmp/out")
	v=$(jq -r '.schema_version, .verdict, (.findings | length)' \
		"$tmp/json" 2>/dev/null | tr '\n' ' ')
	[ "$v" = "1 $want $n_text " ] ||
		{ bad "$name: --json says '$v', text '1 $want $n_text'"; return; }
	# The same through the artifacts.
	if "$POLC" build "$c/old.pol" -o "$tmp/old.polbin" 2>/dev/null &&
		"$POLC" build "$c/new.pol" -o "$tmp/new.polbin" 2>/dev/null; then
		# shellcheck disable=SC2086
		"$POLC" check $args --boundary "$tmp/old.polbin" "$tmp/new.polbin" \
			>"$tmp/out2" 2>&1
		rc=$?
		[ "$rc" = "$code" ] && cmp -s "$tmp/out" "$tmp/out2" ||
			{ bad "$name: artifacts give exit $rc"; cat "$tmp/out2"; return; }
	else
		bad "$name: does not build"
		return
	fi
	cp "$tmp/json" "$tmp/jsons/$name.json" # for the schema, at the end
	ok
}

for c in "$dir"/[0-9]*-*/; do
	check_pair "${c%/}"
done
n=$(ls -d "$dir"/[0-9]*-*/ | wc -l)
[ "$n" -ge 40 ] || bad "fewer than 40 pairs ($n)"

# Each passing pair's --json output against the schema: a pair passes
# only if its output matches.
njson=$(ls "$tmp/jsons" | wc -l)
[ "$njson" -ge 40 ] || bad "fewer than 40 --json outputs to validate ($njson)"
schema_check check "$tmp/jsons"/*.json
case $? in
2) bad "the schema validator could not run: $SC_INVALID" ;;
1)
	printf '%s\n' "$SC_INVALID" | while IFS= read -r line; do
		echo "FAIL: ${line#"$tmp/jsons/"}"
	done
	nbad=$(printf '%s\n' "$SC_INVALID" | grep -c .)
	pass=$((pass - nbad))
	fail=$((fail + nbad))
	;;
esac
echo "prover: $validated --json outputs valid against check.schema.json"

# What build refuses after the semantic pass, check refuses, with build's
# message: a filter over the kernel's 4,096 instructions (40 sets of 64
# ioctl numbers), as either side, from sources.
awk 'BEGIN { print "policy \"big\" {\n  syscalls {"
	for (s = 0; s < 40; s++) {
		printf "    allow ioctl if cmd in {"
		for (i = 0; i < 64; i++) printf "%s%d", i ? ", " : "", s * 64 + i
		print "}"
	}
	print "  }\n}" }' >"$tmp/big.pol"
"$POLC" build "$tmp/big.pol" -o "$tmp/big.polbin" 2>"$tmp/build.err"
rc=$?
msg=$(sed -n 's/^polc: //p' "$tmp/build.err")
case $msg in
*"instructions, above the limit of 4096"*) ok ;;
*) bad "build of a 4096+ instruction filter: exit $rc, '$msg'" ;;
esac
for side in old new; do
	if [ $side = old ]; then set -- "$tmp/big.pol" "$dir/01-sys-identical/new.pol"
	else set -- "$dir/01-sys-identical/old.pol" "$tmp/big.pol"; fi
	"$POLC" check --boundary "$1" "$2" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	if [ $rc -eq 2 ] && [ ! -s "$tmp/out" ] && [ -n "$msg" ] &&
		[ "$(cat "$tmp/err")" = "polc: $tmp/big.pol: $msg" ]; then ok; else
		bad "check with the big filter as $side: exit $rc, expected 2 and" \
			"build's message"; cat "$tmp/out" "$tmp/err"
	fi
done

# A policy: within itself; one extra allow (a syscall it does not name)
# exceeds it, with that syscall as the witness, and not the other way. A
# policy whose syscalls default is allow (std/certs: no syscalls block,
# the companions alone) allows every other call: its extra is a path its
# view does not have. The findings are on stdout; the build's notes
# (what a policy decides over a preset) on stderr.
self_and_extra() { # POLICY LABEL
	"$POLC" check -I stdlib-policies --boundary "$1" "$1" >"$tmp/out" 2>&1
	[ $? -eq 0 ] && ok || { bad "$2 is not within itself"; cat "$tmp/out"; }
	"$POLC" build -I stdlib-policies "$1" -o "$tmp/self.polbin" 2>/dev/null
	"$POLC" check --boundary "$tmp/self.polbin" "$tmp/self.polbin" \
		>/dev/null 2>&1
	[ $? -eq 0 ] && ok || bad "$2's artifact is not within itself"
	"$POLC" dump "$tmp/self.polbin" >"$tmp/dump"
	if ! grep -q '^  syscalls default allow {' "$tmp/dump"; then
		extra=
		for s in acct swapon kexec_load init_module syslog vhangup; do
			grep -q "[ ]$s\b" "$tmp/dump" || { extra=$s; break; }
		done
		[ -n "$extra" ] || { bad "$2: no syscall left to add"; return; }
		block="  syscalls {\n    allow $extra\n  }"
		want="^syscalls: $extra(.*: new allow"
		extra="allow $extra"
	elif grep -q '^\[view\]' "$tmp/dump"; then
		block="  fs {\n    ro /usr/share/doc\n  }"
		want="^fs: .* on /usr/share/doc: new grants"
		extra="ro /usr/share/doc"
	else
		bad "$2: neither a syscalls default to widen nor a view"
		return
	fi
	# The extra rule goes in a block of its own: blocks merge.
	awk -v b="$block" '{ print } /^policy / && !done {
		print b; done = 1 }' "$1" >"$tmp/extra.pol"
	"$POLC" check -I stdlib-policies --boundary "$1" "$tmp/extra.pol" \
		>"$tmp/out" 2>"$tmp/err"
	rc=$?
	if [ $rc -eq 1 ] && grep -q "$want" "$tmp/out" &&
		[ "$(grep -c -v '^note: \|^verdict: ' "$tmp/out")" -eq 1 ]; then
		ok
	else
		bad "$2 + $extra: exit $rc, expected exactly that finding"
		cat "$tmp/out" "$tmp/err"
	fi
	"$POLC" check -I stdlib-policies --boundary "$tmp/extra.pol" "$1" \
		>/dev/null 2>&1
	[ $? -eq 0 ] && ok || bad "$2 is not within $2 + $extra"
}

for pol in examples/*.pol; do
	cp "$pol" "$tmp/example.pol"
	self_and_extra "$tmp/example.pol" "$pol"
done
for frag in stdlib-policies/std/*.pol; do
	name=${frag#stdlib-policies/}
	name=${name%.pol}
	printf 'policy "t" {\n  use %s\n}\n' "$name" >"$tmp/use.pol"
	self_and_extra "$tmp/use.pol" "std fragment $name"
done

echo "prover: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
