# SPDX-License-Identifier: MIT
#
# The egress suites' laboratory (sourced by tests/net/run.sh,
# tests/real/run.sh and tests/soak/run.sh): a throwaway outer namespace set whose "internet" is
# three test hosts, so that nothing a box does reaches the host's network
# even when the code under test is wrong.
#
# netlab_enter SUITE ARGS... re-executes the calling script (as root) in
# new network, mount and pid namespaces (unshare --net --mount --pid
# --fork --mount-proc) and exits with its status; in the re-executed
# script it returns, with cleanup_outer on EXIT. setup_outer then builds
# the test hosts h1..h3: network namespaces held by a sleeping process
# each (no `ip netns` names, nothing under /run/netns), joined to the outer
# one by veth pairs in 10.77.0.0/16 and fd77::/16 (ULA). The outer
# namespace's default routes (v4 and v6) point at h1, which does not
# forward. /etc/hosts and /etc/resolv.conf are bind-mounted over in the
# outer mount namespace only. Servers (netserve, from $SHARED/bin) exit by
# themselves after SERVER_SECS (NET_SERVER_SECS, default 300) and are
# killed at the end; the suite is pid 1 of its own pid namespace, so when
# it ends the kernel kills whatever it started.
#
# Uses say (tests/lib.sh), SHARED (a folder every uid can read, holding
# bin/netprobe, bin/netserve and bin/bpffail: netlab_shared makes it) and
# SCRATCH.

SERVER_SECS=${NET_SERVER_SECS:-300}

# The test hosts. hN is 10.77.N.2 and fd77:N::2; the outer namespace's end
# of each veth is 10.77.N.1 and fd77:N::1.
H1=10.77.1.2
H2=10.77.2.2
H3=10.77.3.2
H1_6=fd77:1::2
H2_6=fd77:2::2
H3_6=fd77:3::2
# Host loopback ports (servers on the outer namespace's 127.0.0.1).
LO_OK=39201
LO_NO=39202
LO_ECHO=39203 # an echo server, on the outer namespace's 127.0.0.1 and ::1

# fatal MESSAGE: the harness could not be built; the suite fails.
fatal() {
	say "$NETLAB_SUITE: FATAL: $*"
	say "$NETLAB_SUITE: 0 passed, 1 failed"
	exit 1
}

# wait_ready FILE: a server printed "ready" into FILE (bounded: 5 s).
wait_ready() {
	i=0
	while [ $i -lt 50 ]; do
		grep -q '^ready$' "$1" 2>/dev/null && return 0
		sleep 0.1
		i=$((i + 1))
	done
	return 1
}

HOLDERS=
SERVERS=

cleanup_outer() {
	for p in $SERVERS $HOLDERS; do
		kill -KILL "$p" 2>/dev/null
	done
	if [ -n "${SHARED:-}" ] && [ -e "$SHARED/dev" ]; then
		umount /dev/net/tun 2>/dev/null
		umount "$SHARED/dev" 2>/dev/null
	fi
	[ -n "${SHARED:-}" ] && rm -rf "$SHARED"
	[ -n "${SCRATCH:-}" ] && rm -rf "$SCRATCH"
}

# In the outer namespaces, as root: lo, three test hosts, the default
# routes to h1, the hosts and resolv.conf files, the servers.
setup_outer() {
	ip link set lo up || return 1
	# pasta opens /dev/net/tun as the caller. Where the node is 0600 (no
	# udev), give this mount namespace alone a 0666 one, as udev would, so
	# the uid 65534 pass runs the tests instead of only the refusal
	# (t_unprivileged_needs_tun checks that refusal on a 0600 node).
	if [ "$(stat -c %a /dev/net/tun 2>/dev/null)" != 666 ]; then
		mkdir -p "$SHARED/dev" &&
			mount -t tmpfs -o mode=755,size=4k polc-tun "$SHARED/dev" &&
			mknod -m 666 "$SHARED/dev/tun" c 10 200 &&
			mount --bind "$SHARED/dev/tun" /dev/net/tun || return 1
	fi
	for n in 1 2 3; do
		unshare --net /bin/sleep $((SERVER_SECS + 60)) &
		h=$!
		HOLDERS="$HOLDERS $h"
		# the holder has made its namespace once it runs sleep
		i=0
		while [ $i -lt 50 ] && [ "$(readlink /proc/$h/ns/net)" = \
			"$(readlink /proc/self/ns/net)" ]; do
			sleep 0.05
			i=$((i + 1))
		done
		[ "$(readlink /proc/$h/ns/net)" != "$(readlink /proc/self/ns/net)" ] ||
			{ say "$NETLAB_SUITE: test host h$n has no namespace"; return 1; }
		ip link add nv$n type veth peer name eth0 netns "$h" &&
			ip addr add 10.77.$n.1/24 dev nv$n &&
			ip -6 addr add fd77:$n::1/64 dev nv$n nodad &&
			ip link set nv$n up &&
			nsenter -t "$h" -n sh -c "ip link set lo up &&
				ip addr add 10.77.$n.2/24 dev eth0 &&
				ip -6 addr add fd77:$n::2/64 dev eth0 nodad &&
				ip link set eth0 up" || return 1
		eval "HOLDER_$n=$h"
	done
	ip route add default via $H1 dev nv1 &&
		ip -6 route add default via $H1_6 dev nv1 || return 1
	# routes as expected, or nothing runs: every address not ours is h1's
	ip -4 route get 192.0.2.1 | grep -q "via $H1 dev nv1 " &&
		ip -6 route get 2001:db8::1 | grep -q "via $H1_6 dev nv1 " ||
		{ say "$NETLAB_SUITE: the outer namespace's routes are not the suite's"; return 1; }

	# Names: the suite's own hosts file and a resolv.conf naming h1 (a
	# suite that asks DNS starts its servers and rewrites the file: the
	# egress suite's setup_dns), over the real ones, in this mount
	# namespace only.
	{
		echo "127.0.0.1 localhost"
		echo "::1 localhost"
		echo "$H1 svc.test"
		echo "$H1_6 svc6.test"
		echo "$H2 other.test"
	} >"$SHARED/hosts"
	printf 'nameserver %s\noptions timeout:1 attempts:1\n' "$H1" \
		>"$SHARED/resolv.conf"
	chmod 644 "$SHARED/hosts" "$SHARED/resolv.conf"
	mount --bind "$SHARED/hosts" /etc/hosts &&
		mount --bind "$SHARED/resolv.conf" /etc/resolv.conf || return 1

	start_server "$HOLDER_1" :: h1 tcp:8080 tcp:80 tcp:443 udp:5353 \
		udp:5354 &&
		start_server "$HOLDER_2" :: h2 tcp:8080 tcp:80 udp:5353 &&
		start_server "$HOLDER_3" :: h3 tcp:8080 tcp:80 &&
		start_server "" 127.0.0.1 lo tcp:$LO_OK tcp:$LO_NO &&
		start_server "" :: echo echo:$LO_ECHO || return 1
	# The first IPv6 exchange after the links came up can take over a
	# probe's 1.5 s (neighbour discovery on fresh links): wait, bounded,
	# until h1 answers on both families from here, so no test gets the
	# cold start.
	for dst in $H1 $H1_6; do
		i=0
		until "$SHARED/bin/netprobe" tcp $dst 8080 >/dev/null 2>&1; do
			i=$((i + 1))
			[ $i -lt 20 ] ||
				{ say "$NETLAB_SUITE: h1 ($dst) does not answer"; return 1; }
			sleep 0.25
		done
	done
}

# start_server HOLDER|"" ADDR NAME SPEC...: netserve in a test host's
# namespace (or here), bounded by SERVER_SECS.
start_server() {
	h=$1
	addr=$2
	shift 2
	log=$SHARED/server-$1.log
	if [ -n "$h" ]; then
		nsenter -t "$h" -n "$SHARED/bin/netserve" "$addr" \
			"$SERVER_SECS" "$@" >"$log" 2>&1 &
	else
		"$SHARED/bin/netserve" "$addr" "$SERVER_SECS" "$@" \
			>"$log" 2>&1 &
	fi
	SERVERS="$SERVERS $!"
	wait_ready "$log" ||
		{ say "$NETLAB_SUITE: server $1 did not start: $(cat "$log")"; return 1; }
}

# netlab_shared SUITE: SHARED, a new folder every uid can read, holding
# polexec, polc, the probes and the calling suite's run.sh in bin/, this
# file in net/ (a suite in tests/X sources ../net/netlab.sh, in the source
# tree and in the copy alike), tests/lib.sh, the validator and the schemas
# (support_copy), and an empty art/ for the suite's artifacts. Uses ROOT,
# B and HERE (suite_paths).
netlab_shared() {
	SHARED=$(mktemp -d "/tmp/polc-$1.XXXXXX") || return 1
	chmod 755 "$SHARED"
	mkdir -p "$SHARED/bin" "$SHARED/art" "$SHARED/net" || return 1
	for f in polexec polc tests/net/netprobe tests/net/netserve \
		tests/net/bpffail; do
		if [ ! -x "$B/$f" ]; then
			say "$1: $B/$f is missing: run make first"
			return 1
		fi
		cp "$B/$f" "$SHARED/bin/" || return 1
	done
	cp "$HERE/run.sh" "$SHARED/bin/" &&
		cp "$ROOT/tests/net/netlab.sh" "$SHARED/net/" &&
		support_copy "$SHARED"
}

# netlab_use SUITE: BIN, ART and POLEXEC in SHARED, and SCRATCH, this
# pass's own folder for the tests' scratch folders, every uid can enter.
netlab_use() {
	BIN=$SHARED/bin
	ART=$SHARED/art
	POLEXEC=$BIN/polexec
	SCRATCH=$(mktemp -d "/tmp/polc-$1-run.XXXXXX") || exit 2
	chmod 755 "$SCRATCH"
	support_use "$SHARED"
}

# box_stderr: a failed test shows the last box's stderr ($T/stderr; the
# suites run each test in a subshell with a fresh scratch dir $T, see
# in_scratch in tests/lib.sh).
box_stderr() {
	if [ -s "$T/stderr" ]; then
		say "    the last box's stderr:"
		head -n 20 "$T/stderr" | sed 's/^/      /'
	fi
}

# --- boxes and probes (tests/net, tests/broker; box_ran, rec: tests/real) ---
# They use BIN, POLEXEC, T (the test's scratch folder) and BOX_SECS. PEXEC
# (default $POLEXEC) is the polexec to run, WRAP a command to run it under
# (both may be set for one call: PEXEC=... boxsh ...); box_opts prints
# polexec options every box gets (none here: a suite may redefine it).

box_opts() { :; }

# boxsh [POLEXEC OPTIONS...] ARTIFACT -- CMD...: runs CMD in a box, with a
# run record in $T/rec.json: OUT, ERR, RC. Returns 1 (and says so) when
# polexec refused (exit 125): the probes never ran, which is not the same
# as a probe that failed; or when it did not end within BOX_SECS, after
# which timeout(1) kills it.
boxsh() {
	# into files, not a pipe: a process left behind holding the box's
	# stdout must not hang the suite
	# shellcheck disable=SC2046,SC2086
	timeout -k 5 "$BOX_SECS" ${WRAP:-} "${PEXEC:-$POLEXEC}" $(box_opts) \
		--record "$T/rec.json" "$@" >"$T/stdout" 2>"$T/stderr" </dev/null
	box_ran $?
}

# box_ran STATUS: a box run under timeout(1) ended with STATUS, its
# output in $T/stdout and $T/stderr: RC, OUT, ERR; returns 1 (and says
# so) when polexec was killed or refused, as boxsh.
box_ran() {
	RC=$1
	OUT=$(cat "$T/stdout")
	ERR=$(cat "$T/stderr")
	if [ "$RC" -eq 124 ] || [ "$RC" -eq 137 ]; then
		say "    FAIL: polexec did not end within $BOX_SECS s (killed)"
		return 1
	fi
	if [ "$RC" -eq 125 ]; then
		say "    FAIL: polexec refused (exit 125), the probes never ran:"
		printf '%s\n' "$ERR" | sed 's/^/      /'
		return 1
	fi
	return 0
}

# boxp [POLEXEC OPTIONS...] ARTIFACT -- PROBE...: each PROBE is a string
# of netprobe arguments ("tcp 10.77.1.2 8080"), or of brokerprobe's after
# "b " ("b race ..."; "n ..." is netprobe's too); all run in one box, one
# after another. Each prints "PROBE: RESULT" (PROBE without the "b "/"n ");
# read them with res.
boxp() {
	nopt=0
	for a in "$@"; do
		[ "$a" = -- ] && break
		nopt=$((nopt + 1))
	done
	script=
	i=0
	for a in "$@"; do
		i=$((i + 1))
		[ $i -gt $((nopt + 1)) ] || continue
		case $a in
		"b "*) script="$script '$BIN/brokerprobe' ${a#b };" ;;
		"n "*) script="$script '$BIN/netprobe' ${a#n };" ;;
		*) script="$script '$BIN/netprobe' $a;" ;;
		esac
	done
	# keep the options and the artifact: append them, drop the originals
	i=0
	for a in "$@"; do
		[ $i -lt $nopt ] && set -- "$@" "$a"
		i=$((i + 1))
	done
	shift $i
	boxsh "$@" -- /bin/sh -c "$script"
}

# res PROBE [TEXT]: the result of PROBE in TEXT (default $OUT), the text
# after "PROBE: "; empty when the probe printed nothing.
res() {
	printf '%s\n' "${2-$OUT}" |
		awk -v l="$1: " 'index($0, l) == 1 { print substr($0, length(l) + 1); exit }'
}

# outside PROBE: netprobe's result run here, outside any box.
outside() {
	res "$*" "$("$BIN/netprobe" "$@")"
}

# reached DESC PROBE TOKEN: PROBE printed the server's TOKEN.
reached() {
	expect "$1 ($2)" "$(res "$2")" "$3"
}

# blocked DESC PROBE: PROBE failed with an errno (a refused or dropped
# connection, a timeout), and printed no server token: its result
# matches BLOCKED_ERE (default: also "resolve failed").
blocked() {
	expect_match "$1 ($2)" "$(res "$2")" \
		"${BLOCKED_ERE:-^(errno=E[A-Z0-9]+|timeout|resolve failed)}"
}

# rec FILTER: jq -r FILTER over the run record.
rec() {
	jq -r "$1" "$T/rec.json" 2>/dev/null
}

# record_blocked: the record's blocked destinations, one a line, sorted.
record_blocked() {
	rec '.layers.net.blocked[]?' | sort
}

# expect_in_blocked DEST...: each DEST ("ADDR:PORT/PROTO") is in the list.
expect_in_blocked() {
	list=$(record_blocked)
	for d in "$@"; do
		printf '%s\n' "$list" | grep -Fxq -- "$d" || {
			say "    FAIL: record: $d is not among the blocked:" \
				"[$(printf '%s' "$list" | tr '\n' ' ')]"
			return 1
		}
	done
}

# start_dns HOLDER ADDR ADDR6 RECORD...: a DNS server (dnsmasq, Debian
# package dnsmasq-base) in a test host's namespace, on ADDR:53 and
# [ADDR6]:53, answering from its command line alone: no configuration
# file, no hosts file, no upstream server; each RECORD is one of its
# options (--host-record=NAME,ADDR..., --cname=ALIAS,NAME); other names
# under .test and .corp are NXDOMAIN. Its queries, with their source
# ports, are logged to $SHARED/dnsmasq.log (readable by every uid). It
# stops by itself after SERVER_SECS and is killed at the end.
start_dns() {
	h=$1
	a4=$2
	a6=$3
	shift 3
	command -v dnsmasq >/dev/null ||
		{ say "$NETLAB_SUITE: dnsmasq is missing (make deps installs it)"; return 1; }
	nsenter -t "$h" -n timeout -s KILL "$SERVER_SECS" dnsmasq \
		--keep-in-foreground --conf-file=/dev/null --no-resolv \
		--no-hosts --port 53 --listen-address "$a4" \
		--listen-address "$a6" --bind-interfaces \
		--pid-file="$SHARED/dnsmasq.pid" --local=/test/ --local=/corp/ \
		--log-queries=extra --log-facility="$SHARED/dnsmasq.log" "$@" \
		>"$SHARED/dnsmasq.out" 2>&1 &
	SERVERS="$SERVERS $!"
	i=0
	until grep -q 'started, version' "$SHARED/dnsmasq.log" 2>/dev/null &&
		[ -s "$SHARED/dnsmasq.pid" ]; do
		i=$((i + 1))
		[ $i -lt 50 ] || {
			say "$NETLAB_SUITE: dnsmasq did not start:" \
				"$(cat "$SHARED/dnsmasq.out" "$SHARED/dnsmasq.log" 2>/dev/null)"
			return 1
		}
		sleep 0.1
	done
	SERVERS="$SERVERS $(cat "$SHARED/dnsmasq.pid")"
	chmod 644 "$SHARED/dnsmasq.log"
}

# netlab_enter SUITE ARGS...: see the top of this file.
netlab_enter() {
	NETLAB_SUITE=$1
	shift
	if [ -z "${NET_OUTER:-}" ]; then
		if [ "$(id -u)" != 0 ]; then
			say "$NETLAB_SUITE: this suite needs root (it builds a" \
				"throwaway network namespace with test hosts;" \
				"CI runs make check as root)"
			say "$NETLAB_SUITE: 0 passed, 1 failed"
			exit 1
		fi
		for tool in unshare nsenter ip setpriv jq mount; do
			command -v $tool >/dev/null ||
				fatal "$tool is missing (make deps installs it)"
		done
		mark=$(mktemp /tmp/polc-$NETLAB_SUITE-mark.XXXXXX) || fatal "mktemp"
		rm -f "$mark"
		trap 'rm -f "$mark"' EXIT
		NET_OUTER=$mark unshare --net --mount --propagation private --pid \
			--fork --mount-proc sh "$0" "$@"
		rc=$?
		if [ ! -e "$mark" ]; then
			rm -f "$mark"
			fatal "cannot make the outer namespaces" \
				"(unshare --net --mount --pid exited $rc)"
		fi
		rm -f "$mark"
		exit $rc
	fi

	: >"$NET_OUTER"
	trap cleanup_outer EXIT
	trap 'exit 130' INT TERM
	[ "$(cat /proc/sys/net/ipv4/ip_forward)" = 0 ] ||
		fatal "the fresh network namespace forwards packets"
	[ "$(ip -o link | grep -cv ' lo:')" = 0 ] ||
		fatal "the outer network namespace is not a fresh one"
}
