#!/bin/sh
# SPDX-License-Identifier: MIT
#
# The schemas in docs/schema are not vacuous. Real outputs pass: run
# records polexec writes here (exited, non-zero exit, killed by a signal,
# refused, with Landlock rules and limits) and `polc check --json` both
# ways; then each is broken on purpose, one way at a time (a tier that is
# not one, a missing layer, an unknown property, fields that contradict the
# outcome, a malformed digest or destination, a duplicate key, NaN, ...),
# and every broken document must be refused, for that reason: the message
# must name the place that was broken. The suites (leak, net, prover)
# validate every record and --json output they produce with the same
# schemas; this suite checks that the schemas can say no.
#
# Ends with "schema: N passed, N failed"; exits non-zero when any failed.
set -u

HERE=$(cd "$(dirname "$0")" && pwd)
. "$HERE/../lib.sh" # expect, suite_paths, schema_check
suite_paths
POLC=$B/polc
POLEXEC=$B/polexec

passed=0
failed=0
ok() { passed=$((passed + 1)); }
bad() {
	say "  FAIL  $*"
	failed=$((failed + 1))
}

for f in "$POLC" "$POLEXEC"; do
	[ -x "$f" ] || { say "schema: $f is missing: run make first"; exit 2; }
done
T=$(mktemp -d /tmp/polc-schema.XXXXXX) || exit 2
trap '[ -n "${SCHEMA_KEEP:-}" ] || rm -rf "$T"' EXIT
mkdir "$T/good" "$T/bad" "$T/ws"

# --- real outputs -------------------------------------------------------------

# run NAME POLICY-TEXT [POLEXEC OPTIONS...] -- CMD...: the record of one
# run into $T/good/run-record.NAME.json.
run() {
	name=$1
	printf '%s\n' "$2" >"$T/$name.pol"
	shift 2
	"$POLC" build "$T/$name.pol" -o "$T/$name.polbin" 2>"$T/$name.log" ||
		{ bad "$name: polc build: $(cat "$T/$name.log")"; return; }
	"$POLEXEC" --record "$T/good/run-record.$name.json" "$@" >/dev/null \
		2>>"$T/$name.log"
}

HELLO=$(cat "$ROOT/examples/hello.pol")
run exited "$HELLO" "$T/exited.polbin" -- /bin/true
run status "policy \"st\" {
  syscalls default allow { errno(EPERM) ptrace }
}" "$T/status.polbin" -- /bin/sh -c 'exit 3'
run signaled 'policy "sig" {
  syscalls default allow { kill exit_group }
}' "$T/signaled.polbin" -- /bin/true
run landlock 'policy "ll" {
  landlock abi >= 1 best_effort
  fs {
    rx /usr
    ro /etc
    rw ${WS}
  }
  limits { nofile 64  cpu 10s  memory 256MiB  pids 64  wall 1m }
}' --var WS="$T/ws" "$T/landlock.polbin" -- /usr/bin/true
# denials and side effects (docs/OBSERVE.md): an errno rule the box hits,
# and destructive calls in and out of the workspace
run observed 'policy "obs" {
  fs {
    rx /usr
    rw ${WS}
    observe destructive workspace ${WS}
  }
  syscalls default allow { errno(EACCES) mkdir }
}' --var WS="$T/ws" "$T/observed.polbin" -- /bin/sh -c \
	"echo x >$T/ws/f; mv $T/ws/f $T/ws/g; rm $T/ws/g; mkdir $T/ws/d"
# the command line: cut, redacted by the policy, started by the shim
LONG=$(printf '%0300d' 0)
run argv "$HELLO" --started-by polexec-sh "$T/argv.polbin" -- /bin/true \
	one "$LONG"
run redacted 'policy "red" {
  fs {
    rx /usr
    observe argv redacted
  }
}' "$T/redacted.polbin" -- /usr/bin/true secret-word
# net host's TCP ports (Landlock, ABI 4): "tcp ports by landlock"
run tcpports 'policy "tcp" {
  net host { bind 0 }
}' "$T/tcpports.polbin" -- /bin/true
"$POLEXEC" --record "$T/good/run-record.refused.json" "$T/missing.polbin" \
	-- /bin/true 2>/dev/null
# --require-enforced with a degraded layer: refused after the layers were
# decided (as uid 0 without cgroups: pids is degraded; elsewhere it may
# run, and either record must be valid)
"$POLEXEC" --require-enforced --var WS="$T/ws" \
	--record "$T/good/run-record.require.json" "$T/landlock.polbin" \
	-- /usr/bin/true >/dev/null 2>&1

"$POLC" check --json --boundary "$ROOT/examples/hello.pol" \
	"$ROOT/examples/shell.pol" >"$T/good/check.exceeds.json" 2>/dev/null
"$POLC" check --json --boundary "$ROOT/examples/shell.pol" \
	"$ROOT/examples/hello.pol" >"$T/good/check.within.json" 2>/dev/null
# a note: both deny, with different errno values
printf 'policy "a" {\n  syscalls default errno(EPERM) { allow read }\n}\n' \
	>"$T/a.pol"
printf 'policy "b" {\n  syscalls default errno(EACCES) { allow read }\n}\n' \
	>"$T/b.pol"
"$POLC" check --json --boundary "$T/a.pol" "$T/b.pol" \
	>"$T/good/check.note.json" 2>/dev/null

# The outputs we break below must be what we think they are.
jqt() { jq -r "$2" "$T/good/$1.json" 2>/dev/null; }
expect "exited" "$(jqt run-record.exited .outcome)" exited && ok || bad exited
expect "status" "$(jqt run-record.status .exit_status)" 3 && ok || bad status
expect "signaled" "$(jqt run-record.signaled .signal_name)" SIGKILL && ok ||
	bad signaled
expect "landlock rules" "$(jqt run-record.landlock '.layers.landlock.rules | length')" 3 &&
	expect "limits" "$(jqt run-record.landlock '.limits.nofile.max')" 64 && ok ||
	bad landlock
expect "tcp ports" "$(jqt run-record.tcpports '.layers.net | [.egress, (.tcp_connect | length), .tcp_bind[0]] | join(" ")')" \
	"tcp ports by landlock 0 0-0" && ok || bad "tcp ports"
expect "refused" "$(jqt run-record.refused .outcome)" refused && ok ||
	bad refused
expect "argv" "$(jqt run-record.exited '.argv | join(" ")')/$(jqt run-record.exited .started_by)" \
	"/bin/true/null" && ok || bad argv
expect "argv cut" "$(jqt run-record.argv '[.argv[0], .argv[1], (.argv[2] | length), .argv_cut, .started_by] | join(" ")')" \
	"/bin/true one 256 true polexec-sh" && ok || bad "argv cut"
expect "argv redacted" "$(jqt run-record.redacted .argv)" redacted &&
	expect "no word of it" "$(grep -c secret-word "$T/good/run-record.redacted.json")" 0 &&
	expect "polc dump says so" "$("$POLC" dump "$T/redacted.polbin" | grep -c 'observe argv redacted\|record argv: redacted')" 2 &&
	ok || bad "argv redacted"
expect "refused: no argv" "$(jqt run-record.refused .argv)" null && ok ||
	bad "refused argv"
expect "observed denial" "$(jqt run-record.observed '.denials[0].syscall')" \
	mkdir &&
	expect "observed side effects" \
		"$(jqt run-record.observed '[.side_effects[].syscall] | join(" ")')" \
		"openat renameat2 unlinkat" && ok || bad observed
expect "exceeds" "$(jqt check.exceeds .verdict)" exceeds && ok || bad exceeds
expect "within" "$(jqt check.within .verdict)" within && ok || bad within
expect "notes" "$(jqt check.note '.notes | length > 0')" true && ok ||
	bad note

# A net filtered layer as polexec writes it (net.c: net_record), on the
# exited record; the real ones are validated by tests/net.
jq -c '.layers.net = {"tier":"enforced","mode":"filtered",
	"egress":"nft+pasta","loopback":["8080-8080"],
	"pinned":[{"entry":"svc.test","addresses":["10.77.1.2","fd77:1::2"]}],
	"blocked":["10.77.2.2:8080/tcp","[fd77:2::2]:80/tcp","10.77.1.2:53/udp"],
	"blocked_read":true,"blocked_complete":true}' \
	"$T/good/run-record.exited.json" >"$T/good/run-record.filtered.json"
jq -c '.layers.net = {"tier":"enforced","mode":"none","egress":"none",
	"loopback":[]} | .secrets = ["API_KEY"]' \
	"$T/good/run-record.exited.json" >"$T/good/run-record.none.json"

# --- broken on purpose ----------------------------------------------------------

# broken NAME BASE FILTER WHERE: BASE (good/SCHEMA.X) changed by the jq
# FILTER into bad/SCHEMA.NAME.json; it must be refused, the message naming
# WHERE ("at /layers/env", a fixed string).
nbroken=0
broken() {
	schema=${2%%.*}
	jq -c "$3" "$T/good/$2.json" >"$T/bad/$schema.$1.json" ||
		{ bad "$1: jq $3"; return; }
	printf '%s\t%s\n' "$schema.$1" "$4" >>"$T/expect"
	nbroken=$((nbroken + 1))
}

# broken_text NAME SCHEMA TEXT WHY: a document that is not one JSON
# document as our writers make them.
broken_text() {
	printf '%s' "$3" >"$T/bad/$2.$1.json"
	printf '%s\t%s\n' "$2.$1" "$4" >>"$T/expect"
	nbroken=$((nbroken + 1))
}

O=run-record.observed
broken mode-unknown $O '.mode = "learning"' 'at /mode'
broken denial-layer-unknown $O '.denials[0].layer = "view"' 'at /denials/0/layer'
broken denial-no-rule $O 'del(.denials[0].rule)' "'rule' is a required property"
broken denial-args-short $O '.denials[0].args |= .[1:]' 'at /denials/0/args'
broken denial-count-zero $O '.denials[0].count = 0' 'at /denials/0/count'
broken side-path-in-clear $O '.side_effects[0].path = "/etc/passwd"' 'at /side_effects/0/path'
broken side-no-time $O 'del(.side_effects[0].ms)' "'ms' is a required property"
broken observation-seccomp $O '.observation.seccomp = "on"' 'at /observation/seccomp'
R=run-record.exited
broken tier-unknown $R '.layers.seccomp.tier = "partial"' 'at /layers/seccomp/tier'
broken tier-degraded-no-reason $R '.layers.limits.tier = "degraded()"' 'at /layers/limits/tier'
broken tier-not-string $R '.layers.env.tier = true' 'at /layers/env/tier'
broken layer-missing $R 'del(.layers.env)' "'env' is a required property"
broken layer-unknown $R '.layers.sandbox = {"tier":"enforced"}' "'sandbox' was unexpected"
broken view-incomplete $R '.layers.view = {"tier":"enforced"}' "'user' is a required property"
broken view-host-with-pidns $R '.layers.view = {"tier":"off","user":"caller","root":"host","pid_namespace":true}' 'at /layers/view'
broken view-own-degraded $R '.layers.view = {"tier":"degraded(x)","user":"caller","root":"own"}' 'at /layers/view/tier'
broken view-memfd-word $R '.layers.view = {"tier":"enforced","user":"caller","root":"own","entries":1,"pid_namespace":true,"memfd_noexec":"maybe"}' 'at /layers/view/memfd_noexec'
broken host-tcp-ports-not-contained $R '.layers.net.tcp_connect = []' 'at /layers/net'
P=run-record.tcpports
broken tcp-ports-no-bind $P 'del(.layers.net.tcp_bind)' 'at /layers/net'
broken tcp-ports-word $P '.layers.net.tcp_connect = "all"' 'at /layers/net/tcp_connect'
broken tcp-ports-under-none $P '.layers.net.mode = "none" | .layers.net.loopback = []' 'at /layers/net'
broken property-unknown $R '.certified = true' "'certified' was unexpected"
broken policy-unknown $R '.policy.signed = true' "'signed' was unexpected"
broken version-2 $R '.schema_version = 2' 'at /schema_version'
broken version-string $R '.schema_version = "1"' 'at /schema_version'
broken outcome-unknown $R '.outcome = "timeout"' 'at /outcome'
broken exited-with-signal $R '.signal = 9 | .signal_name = "SIGKILL"' 'at /signal'
broken exited-status-string $R '.exit_status = "0"' 'at /exit_status'
broken exited-with-reason $R '.reason = "why"' 'must not match {"required":["reason"]}'
broken duration-negative $R '.duration_ms = -1' 'at /duration_ms'
broken digest-bad $R '.policy.artifact_sha256 = "XYZ"' 'at /policy/artifact_sha256'
broken command-missing $R 'del(.command)' "'command' is a required property"
broken argv-missing $R 'del(.argv)' "'argv' is a required property"
broken argv-long $R '.argv = ["'"$LONG"'"]' 'at /argv'
broken argv-word $R '.argv = "hidden"' 'at /argv'
broken started-by-path $R '.started_by = "/usr/bin/x"' 'at /started_by'
broken limit-tier-unknown $R '.limits.core.tier = "cgroup"' 'at /limits/core/tier'
broken limit-negative $R '.limits.core.max = -1' 'at /limits/core/max'
broken grace-with-hit $R '.limits.grace.hit = false' 'at /limits/grace'
broken limit-status $R '.limits.core.status = "mostly"' 'at /limits/core/status'
broken limit-unknown $R '.limits.disk = {"max":1,"tier":"rlimit","status":"enforced"}' "'disk' was unexpected"
broken secrets-value $R '.secrets = ["API_KEY=hunter2"]' 'at /secrets/0'
broken net-host-enforced $R '.layers.net.tier = "enforced"' 'at /layers/net/tier'
broken net-mode-unknown $R '.layers.net.mode = "proxy"' 'at /layers/net/mode'
S=run-record.signaled
broken signaled-status $S '.exit_status = 0' 'at /exit_status'
broken signaled-name $S '.signal_name = "sys"' 'at /signal_name'
broken signaled-exit-code $S '.exit_code = 0' 'at /exit_code'
F=run-record.refused
broken refused-no-reason $F 'del(.reason)' "'reason' is a required property"
broken refused-enforced $F '.layers.seccomp.tier = "enforced"' 'at /layers/seccomp/tier'
broken refused-exit-code $F '.exit_code = 1' 'at /exit_code'
broken refused-limits $F '.limits = {"mode":"default"}' '"required":["limits"]'
L=run-record.landlock
broken ll-right-unknown $L '.layers.landlock.rules[0].rights += ["fly"]' 'at /layers/landlock/rules/0/rights/'
broken ll-rule-both $L '.layers.landlock.rules[0].skipped = "missing"' 'at /layers/landlock/rules/0'
broken ll-rule-neither $L 'del(.layers.landlock.rules[0].rights)' 'at /layers/landlock/rules/0'
broken ll-no-rules $L 'del(.layers.landlock.rules)' "'rules' is a required property"
broken ll-off-with-rules $L '.layers.landlock.tier = "off"' 'at /layers/landlock'
broken ll-mode $L '.layers.landlock.requires.mode = "strict"' 'at /layers/landlock/requires/mode'
broken ll-port $L '.layers.landlock.ports = [{"access":"connect_tcp","lo":1,"hi":70000}]' 'at /layers/landlock/ports/0/hi'
broken limit-kills-on-cpu $L '.limits.cpu.oom_kills = 0' 'at /limits/cpu'
N=run-record.filtered
broken blocked-form $N '.layers.net.blocked += ["10.77.2.2/8080"]' 'at /layers/net/blocked/'
broken blocked-unread $N 'del(.layers.net.blocked_read)' 'blocked_read'
broken filtered-egress $N '.layers.net.egress = "none"' 'at /layers/net/egress'
broken pinned-no-addresses $N 'del(.layers.net.pinned[0].addresses)' "'addresses' is a required property"
broken none-with-blocked run-record.none '.layers.net.blocked = [] | .layers.net.blocked_read = true | .layers.net.blocked_complete = true | .layers.net.pinned = []' 'at /layers/net'
C=check.exceeds
broken verdict-unknown $C '.verdict = "undecided"' 'at /verdict'
broken exceeds-no-findings $C '.findings = []' 'at /findings'
broken dimension-unknown $C '.findings[0].dimension = "time"' 'at /findings/0/dimension'
broken finding-no-witness $C 'del(.findings[0].witness)' "'witness' is a required property"
broken finding-empty $C '.findings[0].new = ""' 'at /findings/0/new'
broken check-unknown $C '.undecided = false' "'undecided' was unexpected"
broken check-no-notes $C 'del(.notes)' "'notes' is a required property"
broken within-with-finding check.within '.findings = [{"dimension":"fs","witness":"/x","new":"write_file","boundary":"none"}]' 'at /findings'
broken note-no-note check.note 'del(.notes[0].note)' "'note' is a required property"
broken check-version check.within '.schema_version = 0' 'at /schema_version'
broken_text empty run-record '' 'empty'
broken_text not-json run-record '{"schema_version":1,' 'not JSON'
broken_text two-documents check "$(cat "$T/good/check.within.json")$(cat "$T/good/check.within.json")" 'text after the JSON document'
broken_text duplicate-key check '{"schema_version":1,"verdict":"within","verdict":"exceeds","findings":[],"notes":[]}' "duplicate key 'verdict'"
broken_text nan run-record "$(jq -c . "$T/good/$R.json" | sed 's/"duration_ms":[0-9.]*/"duration_ms":NaN/')" 'NaN is not JSON'

# --- validate: the good ones pass, each broken one fails for its reason --------

for schema in run-record check; do
	schema_check "$schema" "$T/good/$schema".*.json
	case $? in
	0) ok ;;
	2) bad "the validator could not run: $SC_INVALID" ;;
	*) bad "real $schema outputs refused:"
	   printf '%s\n' "$SC_INVALID" | sed 's/^/    /' ;;
	esac
	validated=0
	schema_check "$schema" "$T/bad/$schema".*.json
	if [ $? -eq 2 ]; then
		bad "the validator could not run: $SC_INVALID"
		continue
	fi
	printf '%s\n' "$SC_INVALID" >"$T/out.$schema"
	[ "$validated" -eq 0 ] ||
		bad "$validated broken $schema documents were accepted"
done
n=0
while IFS="$(printf '\t')" read -r name why; do
	n=$((n + 1))
	line=$(grep -F "$T/bad/$name.json: " "$T/out.${name%%.*}")
	if [ -z "$line" ]; then
		bad "$name: accepted; it must be refused ($why)"
	elif printf '%s\n' "$line" | grep -Fq -- "$why"; then
		ok
	else
		bad "$name: refused, but not for [$why]: ${line#"$T/bad/"}"
	fi
done <"$T/expect"
# A schema that is not one: the validator says so (exit 2), it never
# judges documents with it.
mkdir "$T/unusable" && printf '{"type": 12}\n' >"$T/unusable/check.schema.json"
(SCHEMA_DIR=$T/unusable schema_check check "$T/good/check.within.json")
[ $? -eq 2 ] && ok || bad "an unusable schema was used"
[ "$n" -eq "$nbroken" ] && [ "$n" -ge 50 ] ||
	bad "only $n of $nbroken broken documents checked"
say "schema: $nbroken broken documents refused for their reason, real ones accepted"
say "schema: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
