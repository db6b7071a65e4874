#!/bin/sh
# SPDX-License-Identifier: MIT
#
# User namespaces that cannot be made (issue 11, item 7): polexec's
# refusal, `polexec --doctor` and `polc doctor` name the likely cause and
# the fix, and the AppArmor profile polexec ships compiles.
#
# The causes are made for real where this machine can: inside a user
# namespace of the suite's own, user.max_user_namespaces is set to 0 (the
# setting is per namespace, so the host's is untouched), then polexec runs
# there as its root and as uid 65534. AppArmor's restriction and Debian's
# kernel.unprivileged_userns_clone cannot be set on this kernel: those
# causes are fed to abi/userns.c by tests/unit/test_userns.c.
#
# The profile (contrib/apparmor/polexec) is compiled with apparmor_parser
# -Q -K (nothing loaded into a kernel, nothing cached): as it is where the
# parser knows AppArmor 4's rules, else (Debian 12's parser is 3.0) with
# exactly its AppArmor-4-only lines (abi 4.0; userns, mqueue, io_uring)
# turned into 3.0's. `make install-apparmor` is run into a DESTDIR.
# Every network probe runs in a namespace made with unshare -n.
#
# Needs root (namespaces with maps of its choosing). Ends with "userns: N
# passed, N failed"; exits non-zero when any failed.
set -u

HERE=$(cd "$(dirname "$0")" && pwd)
. "$HERE/../lib.sh" # expect..., suite_paths, tally, in_scratch
suite_paths

passed=0
failed=0
failures=

if [ "$(id -u)" != 0 ]; then
	say "userns: this suite needs root (namespaces with uid maps)"
	say "userns: 0 passed, 1 failed"
	exit 1
fi
SHARED=$(mktemp -d /tmp/polc-userns.XXXXXX) || exit 2
trap 'rm -rf "$SHARED"' EXIT
chmod 755 "$SHARED"
cp "$B/polexec" "$B/polc" "$SHARED/" || exit 2
for pol in net_none filtered loopback; do
	"$B/polc" build "$ROOT/tests/net/$pol.pol" -o "$SHARED/$pol.polbin" ||
		exit 2
done
chmod -R a+rX "$SHARED"
SCRATCH=$SHARED

CAUSE='user\.max_user_namespaces is 0: no user namespace may be created; allow them with `sysctl -w user\.max_user_namespaces=15000`'

# in_userns SCRIPT: SCRIPT (sh) as root of a new user and network
# namespace where uids and gids 0-65535 map to themselves and
# max_user_namespaces is 0; its output in $T/out.
in_userns() {
	mkfifo "$T/go" || return 1
	# sh execs sh again once mapped: a process exec'd while its uid is
	# unmapped loses its capabilities in the namespace
	unshare --user --net sh -c 'read x <"$1" && exec sh -c "$2"' sh \
		"$T/go" "echo 0 >/proc/sys/user/max_user_namespaces && $1" \
		>"$T/out" 2>&1 &
	iu_pid=$!
	iu_i=0
	while [ "$(readlink /proc/$iu_pid/ns/user)" = \
		"$(readlink /proc/self/ns/user)" ] && [ $iu_i -lt 100 ]; do
		sleep 0.02
		iu_i=$((iu_i + 1))
	done
	echo '0 0 65536' >/proc/$iu_pid/uid_map &&
		echo '0 0 65536' >/proc/$iu_pid/gid_map &&
		echo go >"$T/go"
	wait $iu_pid
}

# As root of the namespace, net filtered's namespace backend still makes
# a user namespace (polexec always pairs pasta's with one): forced, it is
# refused, naming the setting. In auto, the ladder goes on to the notify
# broker (docs/EGRESS.md) and says why it left the namespace.
t_refusal_names_max_user_namespaces() {
	in_userns "'$SHARED/polexec' --net-backend namespace \
		--record '$T/rec.json' \
		'$SHARED/filtered.polbin' -- /bin/sh -c 'echo ran >$T/canary'
		echo rc=\$?
		'$SHARED/polexec' --record '$T/rec-auto.json' \
		'$SHARED/filtered.polbin' -- /bin/true; echo rc-auto=\$?"
	expect_match "exit" "$(cat "$T/out")" 'rc=125' &&
		expect_match "names the cause and the fix" "$(cat "$T/out")" \
			"^polexec: net: the box's own network namespace needs a user namespace, which this user may not create: $CAUSE" &&
		expect_match "the record says so" \
			"$(jq -r .reason "$T/rec.json")" "$CAUSE" &&
		expect_absent "the command never ran" "$T/canary" &&
		expect_match "auto: runs" "$(cat "$T/out")" 'rc-auto=0' &&
		expect "auto: under the notify broker" \
			"$(jq -r .layers.net.egress "$T/rec-auto.json")" \
			"notify broker" &&
		expect_match "auto: says why" \
			"$(jq -r .layers.net.backend_fallback "$T/rec-auto.json")" \
			"$CAUSE" || return 1
	# twin: the same namespace without the setting runs past the check
	# (and then stops at pasta: no default route in a fresh namespace)
	unshare --user --map-root-user --net "$SHARED/polexec" \
		"$SHARED/filtered.polbin" -- /bin/true >"$T/out2" 2>&1
	expect_nomatch "twin: no user namespace refusal" "$(cat "$T/out2")" \
		'may not create'
}

# Loopback ports too: their listeners are in the pair, a user
# namespace's whoever the caller (relay.c, net.c).
t_loopback_refusal_names_it() {
	in_userns "'$SHARED/polexec' --net-backend namespace \
		'$SHARED/loopback.polbin' -- \
		/bin/sh -c 'echo ran >$T/canary'; echo rc=\$?"
	expect_match "exit" "$(cat "$T/out")" 'rc=125' &&
		expect_match "names the cause" "$(cat "$T/out")" "$CAUSE" &&
		expect_absent "the command never ran" "$T/canary" || return 1
	# twin: where namespaces may be made (and no pasta is needed), it runs
	unshare --user --map-root-user --net "$SHARED/polexec" \
		"$SHARED/loopback.polbin" -- /bin/echo ran >"$T/out2" 2>&1
	expect "twin" "$(cat "$T/out2")" ran
}

# uid 65534: `net none` needs a user namespace of its own for its first
# rung; without one it takes the second (docs/CONTAINERS.md: seccomp
# refusing every socket but AF_UNIX, Landlock's TCP rules), degraded, the
# warning naming the cause, and --require-enforced refuses it.
t_unprivileged_net_none_second_rung() {
	# a folder uid 65534 may write its record in ($T is root's, 0700)
	Q=$SHARED/quiet
	mkdir -p "$Q" && chmod 1777 "$Q" || return 1
	in_userns "setpriv --reuid=65534 --regid=65534 --clear-groups \
		'$SHARED/polexec' '$SHARED/net_none.polbin' -- \
		/bin/echo ran; echo rc=\$?
		setpriv --reuid=65534 --regid=65534 --clear-groups \
		'$SHARED/polexec' --require-enforced '$SHARED/net_none.polbin' \
		-- /bin/echo ran-anyway; echo rc2=\$?
		setpriv --reuid=65534 --regid=65534 --clear-groups \
		'$SHARED/polexec' --quiet --record '$Q/rec-quiet.json' \
		'$SHARED/net_none.polbin' -- /bin/echo ran-quiet \
		2>'$T/out-quiet'"
	expect_match "exit" "$(cat "$T/out")" 'rc=0' &&
		expect_match "ran" "$(cat "$T/out")" '^ran$' &&
		expect_match "the rung, and the cause" "$(cat "$T/out")" \
			"net: none: no network namespace can be made here \($CAUSE" &&
		expect_match "--require-enforced: refused" "$(cat "$T/out")" \
			'rc2=125' &&
		expect_match "--quiet: ran" "$(cat "$T/out")" '^ran-quiet$' &&
		expect_match "--quiet: no warning, the record says degraded" \
			"$(grep -c 'ran-quiet\|polexec: warning' "$T/out-quiet") $(jq -r .layers.net.tier "$Q/rec-quiet.json")" \
			'^0 degraded' &&
		expect_nomatch "--require-enforced: never ran" \
			"$(cat "$T/out")" 'ran-anyway' || return 1
	# twin: the same uid where namespaces may be made gets the namespace
	unshare --net setpriv --reuid=65534 --regid=65534 --clear-groups \
		"$SHARED/polexec" "$SHARED/net_none.polbin" -- /bin/echo ran \
		>"$T/out2" 2>&1
	expect "twin" "$(cat "$T/out2")" ran
}

t_doctors_name_it() {
	in_userns "'$SHARED/polexec' --net-backend namespace \
		--doctor '$SHARED/filtered.polbin'
		echo rc=\$?; '$SHARED/polc' doctor
		'$SHARED/polexec' --net-backend namespace \
		--doctor '$SHARED/loopback.polbin'"
	expect_match "polexec --doctor: missing" "$(cat "$T/out")" \
		"^  net filtered +MISSING .*$CAUSE" &&
		expect_match "polexec --doctor, loopback ports: missing" \
			"$(cat "$T/out")" "^  net loopback +MISSING .*$CAUSE" &&
		expect_match "polexec --doctor: exit" "$(cat "$T/out")" 'rc=1' &&
		expect_match "polc doctor" "$(cat "$T/out")" \
			"^  user namespaces +MISSING +not available to this user: $CAUSE" ||
		return 1
	# twins: where they may be made, both say found
	out=$(unshare --net "$SHARED/polexec" --doctor \
		"$SHARED/filtered.polbin"; "$SHARED/polc" doctor)
	expect_match "twin: polexec --doctor" "$out" '^  net filtered +found' &&
		expect_match "twin: polc doctor" "$out" \
			'^  user namespaces +found +available to this user .*apparmor_restrict_unprivileged_userns='
}

# apparmor_parser's version: "4" and later parse the profile as it is.
parser_major() {
	apparmor_parser --version 2>/dev/null |
		sed -n 's/^AppArmor parser version \([0-9]*\).*/\1/p'
}

# for_parser FILE OUT: FILE as this parser reads it (see the top); the
# number of lines changed into $CHANGED.
for_parser() {
	if [ "$(parser_major)" -ge 4 ]; then
		cp "$1" "$2"
		CHANGED=0
		return
	fi
	sed -e 's|^abi <abi/4\.0>,$|abi <abi/3.0>,|' \
		-e '/^  allow \(userns\|mqueue\|io_uring\),$/d' "$1" >"$2"
	CHANGED=$(diff "$1" "$2" | grep -c '^<')
}

t_apparmor_profile_compiles() {
	command -v apparmor_parser >/dev/null ||
		{ say "    FAIL: apparmor_parser is missing (make deps: apparmor)"; return 1; }
	for_parser "$ROOT/contrib/apparmor/polexec" "$T/polexec"
	if [ "$(parser_major)" -lt 4 ]; then
		# abi, then userns mqueue io_uring in each of the two profiles
		expect "AppArmor 4 lines set aside" "$CHANGED" 7 || return 1
	fi
	apparmor_parser -Q -K "$T/polexec" >"$T/log" 2>&1
	expect "apparmor_parser -Q -K" "$? $(grep -iv 'cache' "$T/log")" "0 " &&
		expect "profiles" \
			"$(apparmor_parser -Q -K -N "$T/polexec" 2>/dev/null | sort | tr '\n' ' ')" \
			"polexec polexec_box " || return 1
	# twin: the parser refuses a profile that is wrong (a conflicting
	# exec rule for pasta), so its silence above means something
	sed 's|^  allow /usr/bin/passt ix,|&\n  allow /usr/bin/passt ux,|' \
		"$T/polexec" >"$T/bad"
	apparmor_parser -Q -K "$T/bad" >"$T/log" 2>&1
	expect_match "a broken copy is refused" "$? $(cat "$T/log")" \
		'^[1-9][0-9]* ' &&
		expect_match "for the conflict" "$(cat "$T/log")" \
			'passt with conflicting x modifiers'
}

t_install_apparmor_into_destdir() {
	make -s -C "$ROOT" B="$B" install-apparmor DESTDIR="$T/stage" \
		PREFIX=/opt/polc >"$T/log" 2>&1 ||
		{ say "    FAIL: make install-apparmor: $(cat "$T/log")"; return 1; }
	f=$T/stage/etc/apparmor.d/polexec
	expect "installed, mode" "$(stat -c %a "$f" 2>&1)" 644 &&
		expect "attachment: the installed polexec" \
			"$(grep '^@{polexec}' "$f")" "@{polexec} = /opt/polc/bin/polexec" &&
		expect "says how to load it" "$(cat "$T/log")" \
			"load it: apparmor_parser -r $f" || return 1
	for_parser "$f" "$T/installed"
	apparmor_parser -Q -K "$T/installed" >/dev/null 2>&1
	expect "the installed profile compiles" "$?" 0 || return 1
	make -s -C "$ROOT" B="$B" uninstall-apparmor DESTDIR="$T/stage" \
		PREFIX=/opt/polc >/dev/null 2>&1
	expect_absent "uninstalled" "$f" &&
		expect "nothing else was installed" \
			"$(find "$T/stage" -type f | wc -l)" 0
}

for t in t_refusal_names_max_user_namespaces t_loopback_refusal_names_it \
	t_unprivileged_net_none_second_rung \
	t_doctors_name_it t_apparmor_profile_compiles \
	t_install_apparmor_into_destdir; do
	in_scratch "$t"
done
[ -n "$failures" ] && say "failed:$failures"
say "userns: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
