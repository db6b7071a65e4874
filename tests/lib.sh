# SPDX-License-Identifier: MIT
#
# The assertions the behaviour suites (tests/leak, tests/net) share. Each
# prints "    FAIL: DESC: ..." and returns 1 when it does not hold, so a test
# chains them with && and returns the first failure. Also: the schema
# check every run record and `polc check --json` output goes through.

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

is_root() { [ "$(id -u)" = 0 ]; }

# kind PATH: what PATH is, by stat(1): "character special file 1:3"
# (with the device numbers), "fifo", "regular file", "symbolic link", ...
kind() {
	case $(stat -c %F "$1") in
	"character special file" | "block special file")
		stat -c '%F %t:%T' "$1" ;;
	*) stat -c %F "$1" ;;
	esac
}

# suite_paths: ROOT, the source tree (two folders above $HERE), and B, the
# build folder as an absolute path (B=DIR chooses it, relative to ROOT).
suite_paths() {
	ROOT=$(cd "$HERE/../.." && pwd)
	B=${B:-build}
	case $B in /*) ;; *) B=$ROOT/$B ;; esac
}

# tally TEST STATUS: TEST passed (STATUS 0) or failed: counted in $passed,
# $failed and $failures, and said.
tally() {
	if [ "$2" -eq 0 ]; then
		passed=$((passed + 1))
		say "  ok    $1"
	else
		failed=$((failed + 1))
		failures="$failures $1"
		say "  FAIL  $1"
	fi
}

# in_scratch TEST [ON_FAIL]: runs the function TEST in a subshell in a
# fresh folder $T under $SCRATCH, runs ON_FAIL (with $T) when it failed,
# tallies it, keeps its run records when $RECORDS is set (records_keep),
# and removes $T.
in_scratch() {
	T=$(mktemp -d "$SCRATCH/t.XXXXXX") || exit 2
	(cd "$T" && "$1")
	is_rc=$?
	[ "$is_rc" -eq 0 ] || [ -z "${2:-}" ] || "$2"
	tally "$1" "$is_rc"
	[ -z "${RECORDS:-}" ] || records_keep "$1" "$T"
	rm -rf "$T"
}

# run_suite NAME TEST...: each TEST with in_scratch, in a scratch folder
# of the suite's own, then the failures and "NAME: N passed, N failed";
# returns non-zero when any failed.
run_suite() {
	rs_name=$1
	shift
	passed=0 failed=0 failures=
	SCRATCH=$(mktemp -d "/tmp/polc-$rs_name.XXXXXX") || exit 2
	trap 'rm -rf "$SCRATCH"' EXIT
	for t in "$@"; do
		in_scratch "$t"
	done
	[ -n "$failures" ] && say "failed:$failures"
	say "$rs_name: $passed passed, $failed failed"
	[ "$failed" -eq 0 ]
}

# --- JSON outputs against docs/schema (rules: docs/schema/README.md) -------
#
# The validator is tests/validate-json.py (python3-jsonschema). A suite
# that copies itself for the uid 65534 pass copies the validator and the
# schemas too and points JSON_VALIDATOR and SCHEMA_DIR at the copies.
JSON_VALIDATOR=${JSON_VALIDATOR:-$HERE/../validate-json.py}
SCHEMA_DIR=${SCHEMA_DIR:-$HERE/../../docs/schema}
POLC_PYTHON=${POLC_PYTHON:-/usr/bin/python3}
validated=0

# schema_check SCHEMA FILE...: validates every FILE against
# $SCHEMA_DIR/SCHEMA.schema.json in one run (python starts once). Sets
# SC_INVALID to the lines "FILE: WHY", one per invalid file, and adds the
# valid ones to $validated. Returns 0 all valid, 1 some invalid, 2 the
# validator could not run (SC_INVALID then says why; nothing counted).
schema_check() {
	sc_schema=$SCHEMA_DIR/$1.schema.json
	shift
	SC_INVALID=
	[ $# -gt 0 ] || return 0
	sc_out=$("$POLC_PYTHON" "$JSON_VALIDATOR" "$sc_schema" "$@" 2>&1)
	sc_rc=$?
	sc_bad=$(printf '%s\n' "$sc_out" |
		sed -n 's/^validated [0-9]*, invalid \([0-9]*\)$/\1/p')
	if [ "$sc_rc" -gt 1 ] || [ -z "$sc_bad" ]; then
		SC_INVALID=$sc_out
		return 2
	fi
	SC_INVALID=$(printf '%s\n' "$sc_out" |
		grep -v '^validated [0-9]*, invalid [0-9]*$')
	validated=$((validated + $# - sc_bad))
	return "$sc_rc"
}

# support_copy DIR: this file, the validator and the schemas into DIR, for
# a suite's uid 65534 pass (its run.sh, in DIR/bin, sources DIR/lib.sh).
# support_use DIR then points the validator at those copies and makes
# RECORDS, the folder records_keep fills, in $SCRATCH.
support_copy() {
	mkdir -p "$1/schema" &&
		cp "$HERE/../lib.sh" "$JSON_VALIDATOR" "$1/" &&
		cp "$SCHEMA_DIR"/*.schema.json "$1/schema/"
}

support_use() {
	JSON_VALIDATOR=$1/validate-json.py
	SCHEMA_DIR=$1/schema
	RECORDS=$SCRATCH/records
	mkdir -p "$RECORDS"
}

# records_keep TEST DIR: keeps the run records (DIR/*.json) test TEST
# left, as $RECORDS/TEST.N.json, for records_check.
records_keep() {
	rk_n=0
	for rk_f in "$2"/*.json; do
		[ -e "$rk_f" ] || continue
		rk_n=$((rk_n + 1))
		cp "$rk_f" "$RECORDS/$1.$rk_n.json"
	done
}

# records_check SUITE [ONLY]: every kept record against
# run-record.schema.json, in one run. A test with an invalid record fails
# (it moves from $passed to $failed and joins $failures); a validator that
# cannot run is one more failure, and so is a full pass (ONLY empty: not
# a chosen few tests) that kept no record at all. Says how many records
# were valid.
records_check() {
	rc_suite=$1
	rc_only=${2:-}
	set -- "$RECORDS"/*.json
	if [ ! -e "$1" ] && [ -n "$rc_only" ]; then
		say "$rc_suite: no run records to validate in these tests"
		return
	fi
	if [ ! -e "$1" ]; then
		say "  FAIL  $rc_suite: no run record was kept to validate"
		failed=$((failed + 1))
		failures="$failures records"
		return
	fi
	schema_check run-record "$@"
	if [ $? -eq 2 ]; then
		say "  FAIL  $rc_suite: the schema validator could not run:"
		printf '%s\n' "$SC_INVALID" | sed 's/^/    /'
		failed=$((failed + 1))
		failures="$failures schema-validator"
		return
	fi
	for rc_t in $(printf '%s\n' "$SC_INVALID" |
		sed -n "s|^$RECORDS/\([^/.]*\)\.[0-9]*\.json: .*|\1|p" |
		sort -u); do
		printf '%s\n' "$SC_INVALID" | grep -F "$RECORDS/$rc_t." |
			sed "s|^$RECORDS/|    FAIL: schema: |"
		case " $failures " in
		*" $rc_t "*) ;;
		*)
			passed=$((passed - 1))
			failed=$((failed + 1))
			failures="$failures $rc_t"
			;;
		esac
		say "  FAIL  $rc_t: a run record does not match the schema"
	done
	say "$rc_suite: $validated run records valid against run-record.schema.json ($WHO_RUNS)"
}

# two_passes SUITE INNER ONLY: the main of a suite whose setup_shared
# copies the binaries and artifacts to $SHARED and whose use_shared points
# the tests at them. Runs $TESTS (or ONLY) with in_scratch and checks their
# records; as root it then runs them all again as uid 65534
# (unprivileged_pass, with SUITE_INNER set to $SHARED, and SUITE_ONLY), and
# that pass, seeing INNER (its SUITE_INNER) set, reports its tally instead.
# Exits non-zero when any test failed.
two_passes() {
	tp_suite=$1
	tp_var=$(printf '%s' "$1" | tr '[:lower:]' '[:upper:]')
	if [ -n "$2" ]; then
		SHARED=$2
		use_shared
	else
		setup_shared
		use_shared
	fi
	say "--- $tp_suite suite as $WHO_RUNS"
	for t in ${3:-$TESTS}; do
		in_scratch "$t"
	done
	records_check "$tp_suite" "$3"
	rm -rf "$SCRATCH"
	[ -n "$failures" ] && say "failed ($WHO_RUNS):$failures"
	if [ -n "$2" ]; then
		say "$tp_suite-pass: $passed passed, $failed failed, $validated records valid"
		[ "$failed" -eq 0 ]
		exit
	fi
	if [ "$(id -u)" = 0 ]; then
		unprivileged_pass "$tp_suite" "${tp_var}_INNER=$SHARED" \
			${3:+"${tp_var}_ONLY=$3"}
	fi
	rm -rf "$SHARED"
	say "$tp_suite: $passed passed, $failed failed ($validated run records valid)"
	[ "$failed" -eq 0 ]
	exit
}

# unprivileged_pass SUITE [VAR=VALUE]...: runs $SHARED/bin/run.sh again as
# uid 65534 (no groups) with the given environment, shows its log, and adds
# its "SUITE-pass: N passed, N failed, N records valid" line to $passed,
# $failed and $validated; a pass that ends without that line counts as one
# failure.
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
	validated=$((validated + ${6:-0}))
}
