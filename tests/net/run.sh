#!/bin/sh
# SPDX-License-Identifier: MIT
#
# The egress suite (issue 5): `net none`, `net filtered` and `loopback`
# run as real programs under the real build/polexec, with artifacts that
# build/polc compiled from the .pol files beside this script. Each test
# asserts what the kernel did (a server's token came back, or the connect
# failed, and the run record names the blocked destination), and every
# denial has a positive twin showing the same probe succeeds where the
# policy (or no policy) allows it.
#
# Safety: nothing here touches the host's network (netlab.sh, shared with
# tests/soak, builds the laboratory). The script re-executes
# itself in a throwaway outer namespace set (unshare --net --mount --pid
# --fork --mount-proc): its "internet" is three test hosts h1..h3, network
# namespaces held by a sleeping process each, joined to the outer one by
# veth pairs in 10.77.0.0/16 and fd77::/16 (ULA). The outer namespace's
# default routes (v4 and v6) point at h1, which does not forward, so no
# packet can reach a real address even when the code under test is wrong.
# No `ip netns` names are made (nothing under /run/netns). /etc/hosts and
# /etc/resolv.conf are bind-mounted over, in the outer mount namespace only.
# Servers (netserve; dnsmasq, h3's DNS server: setup_dns) exit by
# themselves after NET_SERVER_SECS (default 300) and are killed at the
# end; probes time out after 1.5 s (5 s at most per probe). The script
# is pid 1 of its own pid namespace, so when it ends the kernel kills
# whatever it started.
#
# Needs root (CI runs `make check` as root): as another user it says so
# and fails. When namespaces cannot be made, it fails; it never skips.
# As root, the tests run twice: as root, then as uid 65534 (setpriv, no
# groups) over a copy of the binaries and artifacts in a temp dir.
#
# Ends with "net: N passed, N failed"; exits non-zero when any failed.
# B=DIR picks the build folder (default: build); NET_ONLY="t_a t_b" runs
# only those tests.
set -u

HERE=$(cd "$(dirname "$0")" && pwd)
BOX_SECS=${NET_BOX_SECS:-60}

passed=0
failed=0
failures=
WHO_RUNS="uid $(id -u)"

# --- helpers ---------------------------------------------------------------

# say, expect, expect_match, expect_nomatch, expect_absent: tests/lib.sh,
# beside this script's folder (copied there for the uid 65534 pass too);
# the test hosts, the outer namespaces, the copy for the uid 65534 pass
# and box_stderr: netlab.sh, in ../net (this folder; net/ in the copy).
. "$HERE/../lib.sh"
# shellcheck source=netlab.sh
. "$HERE/../net/netlab.sh"
suite_paths

# nb: polexec's option forcing the egress backend of this pass
# (NET_BACKEND: namespace, then cgroup, in the root pass; unset, so auto,
# in the uid 65534 pass, which may not attach programs).
nb() { [ -z "${NET_BACKEND:-}" ] || echo "--net-backend=$NET_BACKEND"; }

# The egress the record names for net filtered in this pass.
filtered_egress() {
	case ${NET_BACKEND:-} in
	cgroup) echo cgroup-ebpf ;;
	broker) echo "notify broker" ;;
	*) echo nft+pasta ;;
	esac
}

# boxsh, boxp, res, outside, reached, blocked, rec, record_blocked,
# expect_in_blocked: netlab.sh; every box gets this pass's backend.
box_opts() { nb; }

# expect_filtered_record: the record says net filtered through nft+pasta
# (cgroup-ebpf in the cgroup pass).
expect_filtered_record() {
	jq -e . "$T/rec.json" >/dev/null 2>&1 ||
		{ say "    FAIL: no run record (JSON) at $T/rec.json"; return 1; }
	expect "record: net tier" "$(rec .layers.net.tier)" enforced &&
		expect "record: net mode" "$(rec .layers.net.mode)" filtered &&
		expect "record: egress" "$(rec .layers.net.egress)" \
			"$(filtered_egress)" &&
		expect "record: blocked is a list" \
			"$(rec '.layers.net.blocked | type')" array
}

expect_not_in_blocked() {
	list=$(record_blocked)
	for d in "$@"; do
		if printf '%s\n' "$list" | grep -Fxq -- "$d"; then
			say "    FAIL: record: $d (allowed) is among the blocked"
			return 1
		fi
	done
}

# refusal [POLEXEC OPTIONS...] ARTIFACT: polexec refuses to start a
# command (exit 125), which never runs: ERR, RC.
refusal() {
	# shellcheck disable=SC2086
	timeout -k 5 "$BOX_SECS" ${WRAP:-} "$POLEXEC" $(nb) --record "$T/rec.json" \
		"$@" -- /bin/sh -c "echo ran >'$T/canary'" \
		>"$T/stdout" 2>"$T/stderr" </dev/null
	RC=$?
	ERR=$(cat "$T/stderr")
	expect "polexec refuses: exit" "$RC" 125 &&
		expect_absent "the command never ran" "$T/canary"
}

# pinned ENTRY: the record's pinned addresses of ENTRY, sorted,
# space-separated.
pinned() {
	rec ".layers.net.pinned[]? | select(.entry == \"$1\") |
		.addresses | sort | join(\" \")"
}

# dns_conf WHO LINE...: from here on in this test, boxsh, boxp and refusal
# run polexec as WHO (0 or 65534) with an /etc/resolv.conf of these
# LINEs, bound over the suite's in a mount namespace of its own (so only
# the root pass can do it). The test's folder becomes WHO's, for the run
# record and the canary.
dns_conf() {
	dc_who=$1
	shift
	# shellcheck disable=SC2016
	printf '%s\n' "$@" >"$T/resolv.conf" &&
		printf '%s\n' '#!/bin/sh' \
			'mount --bind "$1" /etc/resolv.conf || exit 2' \
			'shift' 'exec "$@"' >"$T/withconf" &&
		chmod 644 "$T/resolv.conf" "$T/withconf" &&
		chmod 755 "$T" && chown "$dc_who" "$T" || return 1
	WRAP="unshare --mount --propagation private /bin/sh $T/withconf"
	WRAP="$WRAP $T/resolv.conf"
	[ "$dc_who" = 0 ] ||
		WRAP="$WRAP setpriv --reuid=$dc_who --regid=$dc_who --clear-groups"
}

# dns_log_since N: dnsmasq's log after its first N lines.
dns_log_since() {
	tail -n +$(($1 + 1)) "$SHARED/dnsmasq.log"
}

# alive_pids ERE: processes alive (not zombies) in this pid namespace,
# which holds only what this script started, whose name matches ERE.
alive_pids() {
	for d in /proc/[0-9]*; do
		c=$(cat "$d/comm" 2>/dev/null) || continue
		printf '%s\n' "$c" | grep -Eqx "$1" || continue
		st=$(sed 's/.*) //' "$d/stat" 2>/dev/null | cut -d' ' -f1)
		[ "$st" != Z ] && [ -n "$st" ] && printf '%s\n' "${d#/proc/}"
	done | sort
}

# pasta_pids: pasta and passt processes alive.
pasta_pids() { alive_pids '(pasta|passt).*'; }

# polexec_pids: polexec processes alive: a running polexec, its box's
# pid 1, its relay of loopback ports.
polexec_pids() { alive_pids polexec; }

# no_new_pasta BEFORE: no pasta is alive that was not in BEFORE.
no_new_pasta() {
	new=$(pasta_pids | grep -Fxv -- "$(printf '%s\nnone' "$1")")
	[ -z "$new" ] && return 0
	say "    FAIL: pasta left behind: pid(s) $(printf '%s' "$new" | tr '\n' ' ')"
	for p in $new; do
		say "      $(tr '\0' ' ' <"/proc/$p/cmdline" 2>/dev/null)"
	done
	return 1
}

# --- the tests -----------------------------------------------------------

# A caller who may not open /dev/net/tun (a 0600 node, as on a machine
# without udev) gets a refusal naming the device from the namespace
# backend, and the command never runs; auto takes the notify broker
# instead; twin: root, for whom the same node is usable, runs the box.
t_unprivileged_needs_tun() {
	is_root || return 0 # the root pass checks it for both
	mkdir "$T/dev" "$T/u" && chmod 755 "$T" "$T/dev" && chmod 777 "$T/u" &&
		mknod -m 600 "$T/dev/tun" c 10 200 || return 1
	unshare --mount --propagation private /bin/sh -c "
		mount --bind '$T/dev/tun' /dev/net/tun &&
		setpriv --reuid=65534 --regid=65534 --clear-groups \
			'$POLEXEC' --net-backend namespace '$ART/filtered.polbin' \
			-- /bin/sh -c 'echo ran >$T/canary' 2>'$T/stderr'
		echo \$? >'$T/rc'
		setpriv --reuid=65534 --regid=65534 --clear-groups \
			'$POLEXEC' --record '$T/u/auto.json' '$ART/filtered.polbin' \
			-- '$BIN/netprobe' tcp $H1 8080 >'$T/auto-out' \
			2>'$T/auto-err'
		echo \$? >'$T/rc-auto'
		'$POLEXEC' '$ART/filtered.polbin' -- /bin/true
		echo \$? >'$T/rc-root'" </dev/null >/dev/null 2>&1
	expect "uid 65534 with a 0600 tun, namespace: exit" "$(cat "$T/rc")" \
		125 &&
		expect_match "names the device" "$(cat "$T/stderr")" \
			'/dev/net/tun' &&
		expect_absent "the command never ran" "$T/canary" &&
		expect "root with the same node: exit" "$(cat "$T/rc-root")" 0 ||
		return 1
	# auto goes down the ladder to the notify broker (issue 26), which
	# needs no tun: the listed port reached, the record says why
	expect "uid 65534 with a 0600 tun, auto: exit" "$(cat "$T/rc-auto")" \
		0 &&
		expect "and h1:8080 reached" "$(cat "$T/auto-out")" \
			"tcp $H1 8080: h1:8080/tcp" &&
		expect "record: the broker" \
			"$(jq -r .layers.net.egress "$T/u/auto.json")" \
			"notify broker" &&
		expect_match "record: why" \
			"$(jq -r .layers.net.backend_fallback "$T/u/auto.json")" \
			'/dev/net/tun' || return 1
	# loopback ports need no pasta, so no tun: uid 65534 reaches one
	unshare --mount --propagation private /bin/sh -c "
		mount --bind '$T/dev/tun' /dev/net/tun &&
		setpriv --reuid=65534 --regid=65534 --clear-groups \
			'$POLEXEC' '$ART/loopback.polbin' -- \
			'$BIN/netprobe' tcp 127.0.0.1 $LO_OK >'$T/lo-out' \
			2>'$T/lo-err'
		echo \$? >'$T/lo-rc'" </dev/null >/dev/null 2>&1
	expect "uid 65534 with a 0600 tun, loopback ports: exit" \
		"$(cat "$T/lo-rc")" 0 &&
		expect "and the port reached" "$(cat "$T/lo-out")" \
			"tcp 127.0.0.1 $LO_OK: lo:$LO_OK/tcp"
}

# The harness itself: the test hosts answer, from here, on every port the
# tests use (the positive twin of every "blocked" below), and the only way
# out of the outer namespace leads to h1.
t_harness_test_hosts() {
	expect "h1 tcp 8080" "$(outside tcp $H1 8080)" "h1:8080/tcp" &&
		expect "h1 tcp 80" "$(outside tcp $H1 80)" "h1:80/tcp" &&
		expect "h1 udp 5353" "$(outside udp $H1 5353)" "h1:5353/udp" &&
		expect "h1 udp 5354" "$(outside udp $H1 5354)" "h1:5354/udp" &&
		expect "h2 tcp 8080" "$(outside tcp $H2 8080)" "h2:8080/tcp" &&
		expect "h2 udp 5353" "$(outside udp $H2 5353)" "h2:5353/udp" &&
		expect "h3 tcp 8080" "$(outside tcp $H3 8080)" "h3:8080/tcp" &&
		expect "h1 v6 tcp 8080" "$(outside tcp $H1_6 8080)" "h1:8080/tcp" &&
		expect "h1 v6 tcp 80" "$(outside tcp $H1_6 80)" "h1:80/tcp" &&
		expect "h2 v6 tcp 8080" "$(outside tcp $H2_6 8080)" "h2:8080/tcp" &&
		expect "host loopback $LO_OK" "$(outside tcp 127.0.0.1 $LO_OK)" \
			"lo:$LO_OK/tcp" &&
		expect "host loopback $LO_NO" "$(outside tcp 127.0.0.1 $LO_NO)" \
			"lo:$LO_NO/tcp" &&
		expect "routes here" "$(outside routes)" \
			"default4=yes default6=yes" || return 1
	# a real address goes nowhere but to h1
	expect_match "route to 192.0.2.1" "$(ip -4 route get 192.0.2.1)" \
		"via $H1 dev nv1 " &&
		expect_match "route to 2001:db8::1" \
			"$(ip -6 route get 2001:db8::1)" "via $H1_6 dev nv1 " &&
		expect_match "a real address is not answered" \
			"$(outside tcp 192.0.2.1 80)" '^errno=E'
}

# net none (works before the egress backend): no route, and the host's
# loopback is another namespace's.
t_none_no_route_no_host_loopback() {
	boxp "$ART/net_none.polbin" -- routes "tcp $H1 8080" \
		"tcp 127.0.0.1 $LO_OK" "udp $H1 5353" || return 1
	expect "routes in the box" "$(res routes)" \
		"default4=no default6=no" &&
		expect "h1 from the box" "$(res "tcp $H1 8080")" \
			"errno=ENETUNREACH" &&
		expect "udp h1 from the box" "$(res "udp $H1 5353")" \
			"errno=ENETUNREACH" &&
		expect "host loopback from the box" \
			"$(res "tcp 127.0.0.1 $LO_OK")" "errno=ECONNREFUSED" &&
		expect "record" "$(rec .layers.net.tier)" enforced || return 1
	# twin: the box's own loopback works (a server in the box)
	boxsh "$ART/net_none.polbin" -- /bin/sh -c \
		"'$BIN/netserve' 127.0.0.1 3 box tcp:$LO_OK >/dev/null &
		 sleep 0.3; '$BIN/netprobe' tcp 127.0.0.1 $LO_OK; kill \$!" ||
		return 1
	expect "the box's own loopback" "$OUT" \
		"tcp 127.0.0.1 $LO_OK: box:$LO_OK/tcp"
}

# net none with `loopback 39201 39203`: the listed host loopback port is
# reachable at the box's own 127.0.0.1, another is not, and there is
# still no route. polexec relays the ports itself (relay.c), no pasta:
# 4 MiB through the echo server come back whole and in order over
# 127.0.0.1, 1 MB over ::1 (both ways at once, then the box's half-close
# passed on: the echo server ends only after it).
t_none_loopback_listed_port() {
	before=$(pasta_pids)
	boxp "$ART/loopback.polbin" -- routes "tcp 127.0.0.1 $LO_OK" \
		"tcp 127.0.0.1 $LO_NO" "tcp $H1 8080" \
		"echo 127.0.0.1 $LO_ECHO 4194304" "echo ::1 $LO_ECHO 1000000" \
		"tcp ::1 $LO_OK" || return 1
	# the host's server on 39201 listens on 127.0.0.1 alone: the box's
	# ::1 reaches it there, as a client of `localhost` trying both would
	reached "listed port over ::1, the host's on 127.0.0.1" \
		"tcp ::1 $LO_OK" "lo:$LO_OK/tcp" || return 1
	expect "4 MiB echoed over 127.0.0.1" \
		"$(res "echo 127.0.0.1 $LO_ECHO 4194304")" "4194304 bytes back" &&
		expect "1 MB echoed over ::1" \
			"$(res "echo ::1 $LO_ECHO 1000000")" "1000000 bytes back" &&
		expect "record: egress" "$(rec .layers.net.egress)" \
			"loopback ports via polexec" || return 1
	reached "listed host loopback port" "tcp 127.0.0.1 $LO_OK" \
		"lo:$LO_OK/tcp" &&
		blocked "unlisted host loopback port" "tcp 127.0.0.1 $LO_NO" &&
		expect "routes in the box" "$(res routes)" \
			"default4=no default6=no" &&
		blocked "h1" "tcp $H1 8080" &&
		no_new_pasta "$before"
}

# The main case: an allowed ip:port is reached (h1's token, so not the
# host's loopback through a mapped gateway), the same host on another
# port is blocked, and so is another host. The blocked ones are in the
# record; the allowed one is not.
t_filtered_allowed_reached_others_blocked() {
	boxp "$ART/filtered.polbin" -- routes "tcp $H1 8080" "tcp $H1 80" \
		"tcp $H2 8080" "tcp $H3 8080" || return 1
	reached "allowed h1:8080" "tcp $H1 8080" "h1:8080/tcp" &&
		blocked "h1, another port" "tcp $H1 80" &&
		blocked "another host" "tcp $H2 8080" &&
		blocked "a third host" "tcp $H3 8080" &&
		expect "the box has a default route" "$(res routes)" \
			"default4=yes default6=yes" &&
		expect_filtered_record &&
		expect_in_blocked "$H1:80/tcp" "$H2:8080/tcp" "$H3:8080/tcp" &&
		expect_not_in_blocked "$H1:8080/tcp"
}

t_filtered_udp_blocked_unless_listed() {
	boxp "$ART/filtered.polbin" -- "udp $H1 5353" "udp $H1 5354" \
		"udp $H2 5353" || return 1
	reached "listed h1:5353 udp" "udp $H1 5353" "h1:5353/udp" &&
		blocked "h1:5354 udp" "udp $H1 5354" &&
		blocked "h2:5353 udp" "udp $H2 5353" &&
		expect_filtered_record &&
		expect_in_blocked "$H1:5354/udp" "$H2:5353/udp" &&
		expect_not_in_blocked "$H1:5353/udp" || return 1
	# twin: a TCP allow does not open UDP on the same port
	boxp "$ART/wide.polbin" -- "udp $H1 5353" "tcp $H1 8080" || return 1
	blocked "udp under a tcp-only allow" "udp $H1 5353" &&
		reached "tcp under it" "tcp $H1 8080" "h1:8080/tcp"
}

# A UDP flow admits replies from its destination alone (issue 28). The
# box sends from a fixed port to the allowed h1:5353; h2, unlisted, sends
# a datagram every 100 ms to the caller's address at that port (a
# knocker started by setup_knockers), where pasta's outside socket of the
# flow is bound. Nothing of h2's may reach the box, and nothing the box
# sends may reach h2: the box answers every stranger with a tag, and h2's
# log must not show it. IPv4 and IPv6. Twin, unboxed: the same probe
# here (the caller's namespace) hears h2 and h2 hears its answer, so the
# knocks do arrive where pasta listens.
t_filtered_udp_replies_only_from_dest() {
	ur_rc=0
	for fam in 4 6; do
		if [ $fam = 4 ]; then
			h1=$H1 lport=40000
		else
			h1=$H1_6 lport=40001
		fi
		tag="box$fam-$(id -u)-$$"
		p="udpbind $lport $h1 5353 2 $tag"
		boxp "$ART/udp-reply.polbin" -- "$p" || return 1
		expect "IPv$fam: h1 answers the flow, no stranger does" \
			"$(res "$p")" "reply=h1:5353/udp strangers=0" || ur_rc=1
		expect "IPv$fam: answers from the box h2 heard" \
			"$(grep -c -- "$tag" "$SHARED/server-knock$fam.log")" 0 ||
			ur_rc=1
		tag="out$fam-$(id -u)-$$"
		p="udpbind $lport $h1 5353 2 $tag"
		expect_match "IPv$fam twin: unboxed, h2's knocks arrive" \
			"$(outside $p)" "^reply=h1:5353/udp strangers=[1-9]" &&
			expect_match "IPv$fam twin: and h2 hears the answer" \
				"$(cat "$SHARED/server-knock$fam.log")" "$tag" ||
			ur_rc=1
	done
	return $ur_rc
}

t_filtered_ipv6() {
	boxp "$ART/filtered.polbin" -- "tcp $H1_6 8080" "tcp $H1_6 80" \
		"tcp $H2_6 8080" || return 1
	reached "allowed [h1]:8080" "tcp $H1_6 8080" "h1:8080/tcp" &&
		blocked "[h1]:80" "tcp $H1_6 80" &&
		blocked "[h2]:8080" "tcp $H2_6 8080" &&
		expect_filtered_record &&
		expect_in_blocked "[$H1_6]:80/tcp" "[$H2_6]:8080/tcp" &&
		expect_not_in_blocked "[$H1_6]:8080/tcp"
}

t_filtered_deny_carved_out_of_allow() {
	boxp "$ART/wide.polbin" -- "tcp $H3 8080" "tcp $H1 8080" \
		"tcp $H2 8080" "tcp $H3 80" || return 1
	reached "h3 inside the allow" "tcp $H3 8080" "h3:8080/tcp" &&
		reached "h1 inside the allow" "tcp $H1 8080" "h1:8080/tcp" &&
		blocked "h2 inside the deny" "tcp $H2 8080" &&
		blocked "h3, a port outside the allow" "tcp $H3 80" &&
		expect_filtered_record &&
		expect_in_blocked "$H2:8080/tcp" "$H3:80/tcp" &&
		expect_not_in_blocked "$H3:8080/tcp"
}

# Names: pinned from the hosts file at start; the box's /etc/hosts holds
# only the pinned names, its resolv.conf names no resolver.
t_filtered_pinned_names() {
	boxp "$ART/names.polbin" -- "resolve svc.test" "tcp svc.test 8080" \
		"tcp svc6.test 8080" "resolve other.test" "tcp $H2 8080" \
		"tcp svc.test 80" || return 1
	reached "svc.test:8080" "tcp svc.test 8080" "h1:8080/tcp" &&
		reached "svc6.test:8080 (IPv6)" "tcp svc6.test 8080" \
			"h1:8080/tcp" &&
		expect "svc.test resolves to h1" "$(res "resolve svc.test")" \
			"$H1" &&
		expect_match "other.test does not resolve" \
			"$(res "resolve other.test")" \
			'^(resolve failed|timeout)' &&
		blocked "other.test's address" "tcp $H2 8080" &&
		blocked "svc.test, another port" "tcp svc.test 80" &&
		expect_filtered_record &&
		expect_in_blocked "$H2:8080/tcp" "$H1:80/tcp" || return 1
	# other.test asked of 127.0.0.1:53 (glibc's resolver, none named):
	# the box's own loopback in its namespace, the host's in the cgroup
	# backend, where it is refused and recorded
	dns=
	[ "${NET_BACKEND:-}" = cgroup ] && dns="127.0.0.1:53/udp=-"
	expect "denials name the pinned host" \
		"$(rec '[.denials[] | select(.layer == "net") | .destination + "=" + (.host // "-")] | sort | join(" ")')" \
		"$(printf '%s\n' "$H1:80/tcp=svc.test" "$H2:8080/tcp=-" $dns | sort | tr '\n' ' ' | sed 's/ $//')" ||
		return 1
	boxsh "$ART/names.polbin" -- /bin/sh -c \
		'cat /etc/hosts; echo ---; cat /etc/resolv.conf 2>/dev/null' ||
		return 1
	hosts=$(printf '%s\n' "$OUT" | sed '/^---$/,$d')
	resolv=$(printf '%s\n' "$OUT" | sed '1,/^---$/d')
	expect_match "the box's hosts file" "$hosts" "^${H1}[[:space:]]+svc\.test" &&
		expect_nomatch "other.test in the box's hosts file" "$hosts" \
			'other\.test' &&
		expect_nomatch "a resolver in the box" "$resolv" \
			'^[[:space:]]*nameserver' || return 1
	# twin: outside, the suite's hosts file resolves other.test
	expect "other.test outside" "$(outside resolve other.test)" "$H2"
}

# A name pinned inside a CIDR allow of another port: the address keeps
# the CIDR's port (80) and gains the name's (8080), by name or number;
# what neither lists stays blocked (h1:5353/udp, which h1 serves: the
# twin outside).
t_filtered_pinned_name_in_cidr() {
	boxp "$ART/names-cidr.polbin" -- "tcp svc.test 8080" "tcp $H1 80" \
		"tcp $H1 8080" "udp $H1 5353" || return 1
	reached "the name's port" "tcp svc.test 8080" "h1:8080/tcp" &&
		reached "the same address by number, the name's port" \
			"tcp $H1 8080" "h1:8080/tcp" &&
		reached "the CIDR's port on the pinned address" "tcp $H1 80" \
			"h1:80/tcp" &&
		blocked "neither's: h1:5353/udp" "udp $H1 5353" &&
		expect_filtered_record &&
		expect_in_blocked "$H1:5353/udp" &&
		expect_not_in_blocked "$H1:80/tcp" "$H1:8080/tcp" || return 1
	expect "twin: h1:5353/udp outside" "$(outside udp $H1 5353)" \
		"h1:5353/udp"
}

# The same pinning on top of the box's own view: /etc is the host's,
# bound read-only, and the pinned files are bound over its two files.
t_filtered_pinned_names_in_view() {
	boxp --var BIN="$BIN" "$ART/names-view.polbin" -- "resolve svc.test" \
		"tcp svc.test 8080" "resolve other.test" || return 1
	reached "svc.test:8080 (view)" "tcp svc.test 8080" "h1:8080/tcp" &&
		expect "svc.test resolves to h1 (view)" \
			"$(res "resolve svc.test")" "$H1" &&
		expect_match "other.test does not resolve (view)" \
			"$(res "resolve other.test")" \
			'^(resolve failed|timeout)' &&
		expect_match "the view" \
			"$(jq -r .layers.view.tier "$T/rec.json")" enforced ||
		return 1
	boxsh --var BIN="$BIN" "$ART/names-view.polbin" -- /bin/sh -c \
		'cat /etc/hosts; echo ---; cat /etc/resolv.conf 2>/dev/null' ||
		return 1
	hosts=$(printf '%s\n' "$OUT" | sed '/^---$/,$d')
	expect_match "the box's hosts file (view)" "$hosts" \
		"^${H1}[[:space:]]+svc\.test" &&
		expect_nomatch "a resolver in the box (view)" \
			"$(printf '%s\n' "$OUT" | sed '1,/^---$/d')" \
			'^[[:space:]]*nameserver' || return 1
	expect_nomatch "other.test in the box's hosts file (view)" "$hosts" \
		'other\.test' || return 1
	# twin: the suite's hosts file outside the box is unchanged
	expect_match "the suite's hosts file" "$(cat /etc/hosts)" 'other\.test'
}

# The same with the files granted one by one, not /etc: the box reads the
# pinned files polexec bound over the host's.
t_filtered_pinned_names_in_view_files() {
	boxp --var BIN="$BIN" "$ART/names-view-files.polbin" -- \
		"resolve svc.test" "resolve other.test" || return 1
	expect "svc.test resolves to h1 (file grants)" \
		"$(res "resolve svc.test")" "$H1" &&
		expect_match "other.test does not resolve (file grants)" \
			"$(res "resolve other.test")" \
			'^(resolve failed|timeout)' || return 1
	boxsh --var BIN="$BIN" "$ART/names-view-files.polbin" -- /bin/sh -c \
		'cat /etc/hosts; echo "rc=$?"' || return 1
	expect_match "the box reads its hosts file (file grants)" "$OUT" \
		"^${H1}[[:space:]]+svc\.test" &&
		expect_match "cat succeeded (file grants)" "$OUT" '^rc=0$'
}

# Names pinned from DNS (dnsmasq on h3, which the suite's resolv.conf
# names over IPv4 and IPv6; the hosts file does not know these names):
# A and AAAA both asked, answers of either kind or both pinned alike, a
# name's every address reachable, a CNAME followed; a name the server
# knows but the policy does not list does not resolve in the box, and
# the box cannot ask the server itself. Each name is asked from a socket
# of its own, on a port the kernel chose.
t_filtered_dns_names() {
	log0=$(wc -l <"$SHARED/dnsmasq.log")
	boxp "$ART/dns.polbin" -- "tcp dns.test 8080" "tcp multi.test 80" \
		"tcp $H3 80" "tcp v6only.test 8080" "tcp alias.test 8080" \
		"resolve alias.test" "resolve secret.test" "tcp $H2 80" \
		"udp $H3 53" "tcp $H3 8080" || return 1
	reached "dns.test:8080" "tcp dns.test 8080" "h1:8080/tcp" &&
		reached "multi.test's second address" "tcp $H3 80" \
			"h3:80/tcp" &&
		reached "v6only.test (AAAA)" "tcp v6only.test 8080" \
			"h1:8080/tcp" &&
		reached "alias.test (a CNAME of dual.test)" \
			"tcp alias.test 8080" "h2:8080/tcp" &&
		expect "alias.test in the box" "$(res "resolve alias.test")" \
			"$H2 $H2_6" &&
		expect_match "secret.test does not resolve in the box" \
			"$(res "resolve secret.test")" '^(resolve failed|timeout)' &&
		blocked "h2:80, in no answer" "tcp $H2 80" &&
		blocked "the DNS server from the box" "udp $H3 53" &&
		blocked "h3:8080, multi.test's port is 80" "tcp $H3 8080" &&
		expect "pinned from DNS" \
			"$(rec '[.layers.net.pinned[] | .entry + "=" + (.addresses | sort | join(","))] | join(" ")')" \
			"alias.test=$H2,$H2_6 dns.test=$H1,$H1_6 multi.test=$H1,$H3 v6only.test=$H1_6" ||
		return 1
	log=$(dns_log_since "$log0")
	for q in A AAAA; do
		for n in dns.test multi.test v6only.test alias.test; do
			expect_match "dnsmasq was asked $q $n" "$log" \
				"query\[$q\] $n from " || return 1
		done
	done
	ports=$(printf '%s\n' "$log" |
		sed -n 's|.*/\([0-9]*\) query\[.*|\1|p' | sort -u)
	expect_nomatch "a query from port 53" "$ports" '^53$' &&
		expect_match "more than one source port over four names" \
			"$(printf '%s\n' "$ports" | wc -l)" '^[234]$' || return 1
	# twin: outside the box, the suite's resolver knows secret.test
	expect "secret.test outside" "$(outside resolve secret.test)" "$H2"
}

# resolv.conf's search list with musl's ndots rule: svc (no dot) is
# svc.lab.test; api.corp (one dot) is itself with ndots:1 and
# api.corp.lab.test with ndots:2. As root and as uid 65534.
t_dns_search_ndots() {
	is_root || return 0 # the root pass runs it as both
	for who in 0 65534; do
		dns_conf "$who" "nameserver $H3" "search lab.test" \
			"options ndots:1 timeout:2" || return 1
		boxp "$ART/dns-search.polbin" -- "tcp svc 8080" \
			"tcp api.corp 8080" || return 1
		reached "svc, searched (uid $who)" "tcp svc 8080" \
			"h3:8080/tcp" &&
			reached "api.corp, ndots:1 (uid $who)" \
				"tcp api.corp 8080" "h1:8080/tcp" &&
			expect "pinned svc (uid $who)" "$(pinned svc)" "$H3" &&
			expect "pinned api.corp, ndots:1 (uid $who)" \
				"$(pinned api.corp)" "$H1" || return 1
		dns_conf "$who" "nameserver $H3" "search lab.test" \
			"options ndots:2 timeout:2" || return 1
		boxp "$ART/dns-search.polbin" -- "tcp api.corp 8080" || return 1
		reached "api.corp, ndots:2 (uid $who)" "tcp api.corp 8080" \
			"h2:8080/tcp" &&
			expect "pinned api.corp, ndots:2 (uid $who)" \
				"$(pinned api.corp)" "$H2" || return 1
	done
}

# A name the DNS server does not have (NXDOMAIN), or has without an
# address (a TXT record only): refusals that say which, and the second
# ends the search (musl's rule: empty.test.lab.test is never asked).
t_dns_no_such_name() {
	log0=$(wc -l <"$SHARED/dnsmasq.log")
	refusal --var API=missing.test "$ART/var.polbin" &&
		expect "NXDOMAIN: the refusal" "$ERR" \
			"polexec: net: resolve missing.test: no such name (NXDOMAIN)" &&
		refusal --var API=empty "$ART/var.polbin" &&
		expect "no address: the refusal" "$ERR" \
			"polexec: net: resolve empty: the name has no A or AAAA record" ||
		return 1
	log=$(dns_log_since "$log0")
	expect_match "empty.lab.test asked" "$log" \
		'query\[A\] empty\.lab\.test from ' &&
		expect_nomatch "empty asked alone after it" "$log" \
			'query\[A\] empty from ' || return 1
	# twin: the same artifact bound to a name with an address runs
	boxp --var API=dns.test "$ART/var.polbin" -- "tcp $H1 8080" ||
		return 1
	reached "\${API}=dns.test" "tcp $H1 8080" "h1:8080/tcp" &&
		expect "pinned \${API}" "$(pinned "\${API}")" "$H1 $H1_6"
}

# A host name that reads as an IPv4 address in inet_aton's forms, bound
# to a variable, is refused before any query (polc refuses one in a
# policy: tests/bad-policies/125 and 126); musl's resolver would have
# pinned 127.0.0.1, which polc check never saw.
t_dns_numeric_names() {
	log0=$(wc -l <"$SHARED/dnsmasq.log")
	for v in 127.1 2130706433 0x7f.1 0177.0.0.1; do
		refusal --var API=$v "$ART/var.polbin" &&
			expect "\${API}=$v" "$ERR" \
				"polexec: net: resolve $v: the name reads as the IPv4 address 127.0.0.1 (inet_aton's forms): write that address, not a name" ||
			return 1
	done
	refusal --var API=10.1 "$ART/var.polbin" &&
		expect_match "\${API}=10.1" "$ERR" \
			'resolve 10\.1: the name reads as the IPv4 address 10\.0\.0\.1 ' ||
		return 1
	expect_nomatch "a query for a numeric name" "$(dns_log_since "$log0")" \
		'query\[.*\] (127\.1|2130706433|0x7f|0177|10\.1)' || return 1
	# twin: the address written as one is pinned, IPv4 and IPv6
	boxsh --var API=127.0.0.1 "$ART/var.polbin" -- /bin/true || return 1
	expect "\${API}=127.0.0.1: exit" "$RC" 0 &&
		expect "pinned 127.0.0.1" "$(pinned "\${API}")" 127.0.0.1 &&
		boxp --var API=$H1_6 "$ART/var.polbin" -- "tcp $H1_6 8080" &&
		reached "\${API}=$H1_6" "tcp $H1_6 8080" "h1:8080/tcp"
}

# Name servers that fail: one that never answers (A and AAAA sent
# attempts times each, then a refusal naming the bound), one that
# answers garbage, one whose answers loop, one that says TC, one that
# says SERVFAIL (each refused with what went wrong). Twins: the first
# usable answer wins, whoever else sends garbage, a loop or a SERVFAIL.
# As root and as uid 65534.
t_dns_bad_servers() {
	is_root || return 0 # the root pass runs it as both
	for who in 0 65534; do
		n0=$(grep -c '^mute: ' "$SHARED/server-h1dns.log")
		dns_refused "$who" "silent" "nameserver $H1" \
			"options timeout:1 attempts:3" "no usable answer within 1 s (resolv.conf: timeout:1 attempts:3); last: nothing came back" &&
			expect "silent: datagrams, 2 types x 3 attempts (uid $who)" \
				$(($(grep -c '^mute: ' "$SHARED/server-h1dns.log") - n0)) 6 &&
			dns_refused "$who" "garbage" "nameserver $H2" \
				"options timeout:1 attempts:2" "no usable answer within 1 s (resolv.conf: timeout:1 attempts:2); last: a packet answering no query" &&
			dns_refused "$who" "a pointer loop" "nameserver $H2_6" \
				"options timeout:5 attempts:1" "every name server sent a malformed answer" &&
			dns_refused "$who" "TC" "nameserver $H1_6" \
				"options timeout:5 attempts:1" "a truncated answer (TC); polexec asks over UDP only" &&
			dns_refused "$who" "SERVFAIL" "nameserver 127.0.0.1" \
				"options timeout:5 attempts:1" "every name server sent SERVFAIL" &&
			# twins: the first usable answer wins
			dns_pinned "$who" "garbage, a loop, then dnsmasq" \
				"nameserver $H2" "nameserver $H2_6" "nameserver $H3" &&
			dns_pinned "$who" "SERVFAIL, then dnsmasq" \
				"nameserver 127.0.0.1" "nameserver $H3_6" || return 1
	done
}

# dns_refused WHO DESC NAMESERVER OPTIONS WHY: with that resolv.conf,
# polexec as WHO refuses ${API}=dns.test, saying WHY.
dns_refused() {
	dns_conf "$1" "$3" "$4" &&
		refusal --var API=dns.test "$ART/var.polbin" &&
		expect "$2 (uid $1)" "$ERR" "polexec: net: resolve dns.test: $5"
}

# dns_pinned WHO DESC NAMESERVER...: with those name servers, polexec as
# WHO pins ${API}=dns.test to h1's addresses and the box reaches h1.
dns_pinned() {
	dp_who=$1
	dp_desc=$2
	shift 2
	dns_conf "$dp_who" "$@" "options timeout:2 attempts:1" &&
		boxp --var API=dns.test "$ART/var.polbin" -- "tcp $H1 8080" &&
		reached "$dp_desc (uid $dp_who)" "tcp $H1 8080" "h1:8080/tcp" &&
		expect "pinned, $dp_desc (uid $dp_who)" "$(pinned "\${API}")" \
			"$H1 $H1_6"
}

t_filtered_variable_entry() {
	boxp --var API=$H1 "$ART/var.polbin" -- "tcp $H1 8080" "tcp $H2 8080" ||
		return 1
	reached "\${API}=h1" "tcp $H1 8080" "h1:8080/tcp" &&
		blocked "h2 with API=h1" "tcp $H2 8080" &&
		expect_filtered_record &&
		expect_in_blocked "$H2:8080/tcp" || return 1
	# twin: bound to h2, the same artifact reaches h2 and not h1
	boxp --var API=$H2 "$ART/var.polbin" -- "tcp $H2 8080" "tcp $H1 8080" ||
		return 1
	reached "\${API}=h2" "tcp $H2 8080" "h2:8080/tcp" &&
		blocked "h1 with API=h2" "tcp $H1 8080" || return 1
	# unbound: a refusal, and the command never runs
	(unset API && OUT=$("$POLEXEC" "$ART/var.polbin" -- /bin/sh -c \
		"echo ran >'$T/canary'" 2>"$T/stderr")
	RC=$?
	expect "unbound \${API}: exit" "$RC" 125 &&
		expect_match "unbound: names it" "$(cat "$T/stderr")" 'API' &&
		expect_absent "unbound: the command never ran" "$T/canary")
}

# A caller's ignored signals (issue 28): SIG_IGN survives execve, so
# polexec inherits it. Ignoring SIGPIPE (as Python and Go parents do) made
# pasta refuse to start; ignoring SIGCHLD made the kernel reap the box
# itself, and polexec exited 125 after the command had run (net none), or
# refused the start (net filtered). Both must start, and the exit status
# is the command's. Twin: the wrapper does leave the signal ignored in
# what it runs (SigIgn of /proc/self/status).
t_caller_ignored_signals() {
	cs_rc=0
	for sig in PIPE CHLD; do
		bit=$([ $sig = PIPE ] && echo 13 || echo 17)
		ign=$(env --ignore-signal=$sig grep "^SigIgn:" \
			/proc/self/status | cut -f2)
		expect "twin: env --ignore-signal=$sig leaves it ignored" \
			"$(((0x$ign >> (bit - 1)) & 1))" 1 || return 1
		WRAP="env --ignore-signal=$sig"
		boxp "$ART/filtered.polbin" -- "tcp $H1 8080" "tcp $H1 80" &&
			reached "SIG$sig ignored, net filtered: h1:8080" \
				"tcp $H1 8080" "h1:8080/tcp" &&
			blocked "SIG$sig ignored, net filtered: h1:80" \
				"tcp $H1 80" || cs_rc=1
		boxsh "$ART/filtered.polbin" -- /bin/sh -c 'exit 7'
		expect "SIG$sig ignored, net filtered: exit status" "$RC" 7 ||
			cs_rc=1
		boxsh "$ART/net_none.polbin" -- /bin/sh -c 'exit 7'
		expect "SIG$sig ignored, net none: exit status" "$RC" 7 &&
			expect "SIG$sig ignored, net none: the record's exit" \
				"$(rec .exit_code)" 7 || cs_rc=1
		# the box itself starts with the default disposition
		boxsh "$ART/net_none.polbin" -- /bin/grep "^SigIgn:" \
			/proc/self/status &&
			expect "SIG$sig ignored: the box ignores nothing" "$OUT" \
				"SigIgn:	0000000000000000" || cs_rc=1
		WRAP=
	done
	return $cs_rc
}

# AF_VSOCK reaches the host or VM through no network namespace (issue
# 28): under `net none` and `net filtered` the companions allow-list the
# socket families (AF_UNIX, AF_INET, AF_INET6, AF_NETLINK), so it is
# refused with EACCES, also where the policy's own socket rule names it.
# Twins: outside, and in a box with the host's network, the same probe
# makes one (this machine has vsock); AF_UNIX, AF_INET and NETLINK_ROUTE
# still work in the boxes.
t_vsock_refused() {
	expect "twin: vsock outside" "$(outside vsock)" ok || return 1
	boxp "$ART/host.polbin" -- vsock || return 1
	expect "twin: vsock with the host's network" "$(res vsock)" ok ||
		return 1
	for art in sockets net_none vsock-wide; do
		boxp "$ART/$art.polbin" -- vsock "netlink 0" routes \
			"tcp 127.0.0.1 1" || return 1
		expect "vsock, $art" "$(res vsock)" "errno=EACCES" &&
			expect "NETLINK_ROUTE, $art" "$(res "netlink 0")" ok &&
			expect_match "AF_INET, $art" \
				"$(res "tcp 127.0.0.1 1")" "errno=ECONNREFUSED" &&
			expect_match "routes, $art" "$(res routes)" "^default4" ||
			return 1
	done
	expect_match "polc warned about the wider rule" \
		"$(cat "$ART/vsock-wide.log")" "gives way where the egress companion"
}

# A socket the caller hands over as fd 0, 1 or 2 (issue 28): it lives in
# the caller's network namespace, where the box's table does not look. A
# TCP connection to the allowed h1:8080, dissolved with connect(AF_UNSPEC)
# and connected again to h2, reached h2 from a `net filtered` box. Now
# polexec refuses to start (125, the message and the record name the fd)
# an inet, netlink or vsock socket under `net none` or `net filtered`, and
# under the host's network a socket the box's own filter would not let it
# make. Twins: an AF_UNIX socket and a pipe pass; under the host's
# network a TCP connection and NETLINK_ROUTE pass; unboxed, the same
# dissolve-and-reconnect reaches h2.
# fd_box "FD KIND [HOST PORT] ART" CMD...: polexec ART.polbin -- CMD with a
# socket of KIND (netprobe withfd) as its fd FD: RC, $T/stdout,
# $T/stderr, the record in $T/rec.json; fd, kind and art set.
fd_box() {
	fb_case=$1
	shift
	# shellcheck disable=SC2086
	set -- $fb_case -- "$@"
	fd=$1
	if [ "$2" = tcp ]; then
		kind="tcp $3 $4" art=$5
		shift 6
	else
		kind=$2 art=$3
		shift 4
	fi
	# shellcheck disable=SC2086
	timeout -k 5 "$BOX_SECS" "$BIN/netprobe" withfd $fd $kind \
		"$POLEXEC" --record "$T/rec.json" "$ART/$art.polbin" -- "$@" \
		</dev/null >"$T/stdout" 2>"$T/stderr"
	RC=$?
}

t_std_fd_sockets() {
	sf_rc=0
	expect "twin: unboxed, the handed-over socket reaches h2" \
		"$(res "reuse 0 $H2 8080" "$("$BIN/netprobe" withfd 0 tcp \
			$H1 8080 "$BIN/netprobe" reuse 0 $H2 8080)")" \
		"h2:8080/tcp" || return 1
	for c in "0 tcp $H1 8080 filtered" "0 tcp $H1 8080 net_none" \
		"1 udp filtered" "2 udp net_none" "0 netlink filtered" \
		"2 vsock net_none" "1 nfnetlink host"; do
		fd_box "$c" "$BIN/netprobe" reuse "${c%% *}" $H2 8080
		expect "$kind as fd $fd, $art: exit" "$RC" 125 &&
			expect_nomatch "$kind as fd $fd, $art: never reached h2" \
				"$(cat "$T/stdout" "$T/stderr")" "h2:8080" &&
			expect_match "$kind as fd $fd, $art: the record says why" \
				"$(rec .reason)" "^net: fd $fd is a socket \(family " ||
			sf_rc=1
	done
	expect_match "the refusal on stderr" "$(cat "$T/stderr")" \
		"polexec: net: fd 1 is a socket \(family 16, type 3, protocol 12\) that the box's syscall rules would not let it make" ||
		sf_rc=1
	for c in "0 unix filtered" "0 pipe net_none" "2 unix net_none" \
		"0 tcp $H1 8080 host" "0 netlink host"; do
		fd_box "$c" /bin/sh -c 'exit 7'
		expect "twin: $kind as fd $fd, $art: the command's exit" \
			"$RC" 7 || sf_rc=1
	done
	return $sf_rc
}

# The ways around the table are refused by the policy's seccomp filter;
# ordinary sockets and NETLINK_ROUTE work in the same box.
t_filtered_sockets_refused() {
	boxp "$ART/sockets.polbin" -- raw raw6 packet "netlink 12" iouring \
		"netlink 0" "tcp $H1 8080" "tcp $H1 80" || return 1
	expect "raw socket" "$(res raw)" "errno=EACCES" &&
		expect "raw6 socket" "$(res raw6)" "errno=EACCES" &&
		expect "AF_PACKET" "$(res packet)" "errno=EACCES" &&
		expect "NETLINK_NETFILTER" "$(res "netlink 12")" "errno=EACCES" &&
		expect "io_uring_setup" "$(res iouring)" "errno=EACCES" &&
		expect "NETLINK_ROUTE" "$(res "netlink 0")" "ok" &&
		reached "tcp to the allowed h1:8080" "tcp $H1 8080" \
			"h1:8080/tcp" &&
		blocked "tcp h1:80" "tcp $H1 80" &&
		expect_filtered_record || return 1
	# twins: outside, no EACCES; with the capabilities of a namespace of
	# its own, each socket is made
	for p in raw raw6 packet "netlink 12" iouring; do
		expect_nomatch "$p outside" "$(outside $p)" EACCES || return 1
	done
	for p in raw raw6 packet "netlink 12"; do
		# shellcheck disable=SC2086
		expect "$p in unshare -Urn" \
			"$(res "$p" "$(unshare -Urn "$BIN/netprobe" $p)")" ok ||
			return 1
	done
}

# The box cannot take the table down: nft flush ruleset (run by the box,
# in its own namespace) and a request to delete the table sent by hand
# fail, and afterwards the blocked destination is still blocked, the
# allowed one still reached, the evidence still kept.
t_filtered_tamper_proof() {
	nft=
	[ -x /usr/sbin/nft ] && nft="/usr/sbin/nft flush ruleset </dev/null \
		>/dev/null 2>&1; echo \"nft flush ruleset: exit \$?\";"
	boxsh "$ART/filtered.polbin" -- /bin/sh -c "$nft
		'$BIN/netprobe' nftdel inet polc;
		'$BIN/netprobe' tcp $H1 80;
		'$BIN/netprobe' tcp $H1 8080" || return 1
	if [ -n "$nft" ]; then
		expect_match "nft flush ruleset in the box" \
			"$(res "nft flush ruleset")" '^exit [1-9]' || return 1
	fi
	expect_match "delete table inet polc in the box" \
		"$(res "nftdel inet polc")" '^errno=E' &&
		blocked "h1:80 after the attempts" "tcp $H1 80" &&
		reached "h1:8080 after the attempts" "tcp $H1 8080" \
			"h1:8080/tcp" &&
		expect_filtered_record &&
		expect_in_blocked "$H1:80/tcp" || return 1
	# twin: the same request deletes a table where the caller holds
	# CAP_NET_ADMIN over the namespace (a fresh one of its own)
	[ -x /usr/sbin/nft ] || return 0
	expect "nftdel in unshare -Urn" "$(unshare -Urn /bin/sh -c \
		"/usr/sbin/nft add table inet polc && '$BIN/netprobe' nftdel inet polc")" \
		"nftdel inet polc: ok"
}

# pasta (comm "pasta" or "passt.avx2": prefix "pas") sits in the box's user namespace with sockets in the caller's
# network: a box that could ptrace it would leave the table behind. It
# cannot: pasta keeps capabilities in that namespace that the box has
# dropped. Twin: the same probe attaches to a process of the box's own.
t_filtered_box_cannot_ptrace_pasta() {
	boxsh "$ART/filtered.polbin" -- /bin/sh -c "
		'$BIN/netprobe' ptrace pas
		/bin/sleep 3 & echo \"sleep: \$!\"
		'$BIN/netprobe' ptrace \$!; kill \$!" ||
		return 1
	expect "ptrace pasta from the box" "$(res "ptrace pas")" \
		"errno=EPERM" &&
		expect "ptrace the box's own sleep" \
			"$(res "ptrace $(res sleep)")" ok
}

# The relay of loopback ports has sockets in the caller's network and is
# the box's uid, but it is polexec's fork, so not dumpable, and its user
# namespace is the caller's, where the box has no capability: the box may
# not ptrace it (nor polexec). The box has no pid namespace here, so it
# sees both. Twin: its own sleep.
t_loopback_box_cannot_ptrace_relay() {
	boxsh "$ART/loopback.polbin" -- /bin/sh -c "
		for d in /proc/[0-9]*; do
			[ \"\$(cat \$d/comm 2>/dev/null)\" = polexec ] &&
				'$BIN/netprobe' ptrace \${d#/proc/}
		done | sed 's/^ptrace [0-9]*: /polexec: /'
		/bin/sleep 3 & echo \"sleep: \$!\"
		'$BIN/netprobe' ptrace \$!; kill \$!" ||
		return 1
	expect "ptrace of polexec and its relay from the box" \
		"$(printf '%s\n' "$OUT" | grep '^polexec: ' | sort -u)" \
		"polexec: errno=EPERM" &&
		expect "both seen" \
			"$(printf '%s\n' "$OUT" | grep -c '^polexec: ')" 2 &&
		expect "ptrace the box's own sleep" \
			"$(res "ptrace $(res sleep)")" ok
}

# Filtered with a loopback port: the listed host loopback port and the
# allowed host, nothing else.
t_filtered_loopback_port() {
	boxp "$ART/filtered-lo.polbin" -- "tcp 127.0.0.1 $LO_OK" \
		"tcp 127.0.0.1 $LO_NO" "tcp $H1 8080" "tcp $H1 80" \
		"echo 127.0.0.1 $LO_ECHO 1000000" || return 1
	reached "listed host loopback port" "tcp 127.0.0.1 $LO_OK" \
		"lo:$LO_OK/tcp" &&
		expect "1 MB echoed through the relay" \
			"$(res "echo 127.0.0.1 $LO_ECHO 1000000")" \
			"1000000 bytes back" &&
		blocked "unlisted host loopback port" "tcp 127.0.0.1 $LO_NO" &&
		reached "h1:8080" "tcp $H1 8080" "h1:8080/tcp" &&
		blocked "h1:80" "tcp $H1 80" &&
		expect_filtered_record &&
		expect "the refused loopback port is a denial" \
			"$(rec '[.denials[] | select(.layer == "net" and .action == "refused") | .destination] | join(" ")')" \
			"127.0.0.1:$LO_NO/tcp" &&
		expect "the blocked host too" \
			"$(rec '[.denials[] | select(.layer == "net" and .action == "blocked") | .destination] | join(" ")')" \
			"$H1:80/tcp" || return 1
	# twin: a box's own server on its loopback is not a refusal, nor is
	# the reset that ends a connection it accepted (the probe starts
	# once the server says it listens: a probe before would be refused)
	boxsh "$ART/filtered-lo.polbin" -- /bin/sh -c \
		"'$BIN/netserve' 127.0.0.1 3 box tcp:$LO_NO >ready & i=0
		 while [ \$i -lt 200 ] && ! grep -q ready ready; do
			sleep 0.05; i=\$((i + 1)); done
		 '$BIN/netprobe' tcp 127.0.0.1 $LO_NO; kill \$!" ||
		return 1
	expect "the box's own loopback server" "$OUT" \
		"tcp 127.0.0.1 $LO_NO: box:$LO_NO/tcp" &&
		expect "no refusal recorded" \
			"$(rec '[.denials[] | select(.action == "refused")] | length')" 0
}

# More loopback ports than polexec relays (256): polc built the policy with
# a warning saying so, and polexec refuses to start the box; the twin, 256
# ports in two ranges, builds without it and runs.
t_loopback_too_many_ports() {
	expect_match "polc's warning" "$(cat "$ART/loopback-wide.log")" \
		"warning: the loopback ports reach 301; polexec relays at most 256" &&
		refusal "$ART/loopback-wide.polbin" &&
		expect_match "polexec says why" "$ERR" \
			"lists 301 ports; polexec relays at most 256" &&
		expect_nomatch "twin: no warning" \
			"$(cat "$ART/loopback-256.log")" "relays at most 256 and" &&
		boxsh "$ART/loopback-256.polbin" -- /bin/true &&
		expect "twin: 256 ports, exit of /bin/true" "$RC" 0
}

# More connections at once than the relay takes (64): the rest wait in
# the listen queue and are relayed as slots free; all 100 echoes come
# back whole.
t_relay_more_connections_than_slots() {
	boxsh "$ART/loopback.polbin" -- /bin/sh -c "
		i=0
		while [ \$i -lt 100 ]; do
			'$BIN/netprobe' echo 127.0.0.1 $LO_ECHO 200000 &
			i=\$((i + 1))
		done
		wait" || return 1
	expect "echoes back whole" \
		"$(printf '%s\n' "$OUT" | grep -c ': 200000 bytes back$')" 100
}

# The relay of loopback ports (a polexec process outside the box) ends
# with the box, and with polexec when polexec is SIGKILLed (no cleanup
# runs: its parent-death signal); the twin: while the box runs it relays,
# and is seen by the same check.
t_no_relay_left_behind() {
	boxsh "$ART/loopback.polbin" -- /bin/true || return 1
	expect "exit of /bin/true" "$RC" 0 &&
		expect "no polexec process left" "$(polexec_pids)" "" ||
		return 1
	"$POLEXEC" $(nb) "$ART/loopback.polbin" -- /bin/sh -c \
		"'$BIN/netprobe' tcp 127.0.0.1 $LO_OK; exec /bin/sleep 10" \
		>"$T/out" 2>"$T/err" &
	pe=$!
	i=0
	while [ $i -lt 50 ] && ! grep -q "lo:$LO_OK/tcp" "$T/out"; do
		sleep 0.1
		i=$((i + 1))
	done
	others=$(polexec_pids | grep -vx "$pe")
	kill -KILL $pe
	wait $pe
	expect "relayed while the box ran" "$(res "tcp 127.0.0.1 $LO_OK" \
		"$(cat "$T/out")")" "lo:$LO_OK/tcp" &&
		expect_match "the relay seen while it ran" "$others" '^[0-9]' ||
		return 1
	i=0
	while [ $i -lt 50 ] && [ -n "$(polexec_pids)" ]; do
		sleep 0.1
		i=$((i + 1))
	done
	expect "no polexec process left after SIGKILL" "$(polexec_pids)" ""
}

# polexec leaves no pasta behind: after a box exits, after it fails, and
# after polexec is signalled. The twin: while a box runs, its pasta is
# seen by the same check.
t_no_pasta_left_behind() {
	before=$(pasta_pids)
	boxsh "$ART/filtered.polbin" -- /bin/true || return 1
	expect "exit of /bin/true" "$RC" 0 && no_new_pasta "$before" ||
		return 1
	boxsh "$ART/filtered.polbin" -- /bin/sh -c 'exit 3' || return 1
	expect "exit 3" "$RC" 3 && no_new_pasta "$before" || return 1
	boxsh "$ART/loopback.polbin" -- /bin/true || return 1
	no_new_pasta "$before" || return 1
	"$POLEXEC" $(nb) "$ART/filtered.polbin" -- /bin/sleep 10 \
		>"$T/out" 2>"$T/err" &
	pe=$!
	i=0
	seen=
	while [ $i -lt 50 ]; do
		seen=$(pasta_pids | grep -Fxv -- "$(printf '%s\nnone' "$before")")
		[ -n "$seen" ] && break
		kill -0 $pe 2>/dev/null || break
		sleep 0.1
		i=$((i + 1))
	done
	if [ -z "$seen" ]; then
		kill -KILL $pe 2>/dev/null
		wait $pe
		say "    FAIL: no pasta seen while a filtered box ran" \
			"($(cat "$T/err"))"
		return 1
	fi
	sleep 0.2
	kill -TERM $pe
	i=0
	while [ $i -lt 50 ] && kill -0 $pe 2>/dev/null; do
		sleep 0.1
		i=$((i + 1))
	done
	if kill -0 $pe 2>/dev/null; then
		say "    FAIL: polexec did not end within 5 s of SIGTERM"
		kill -KILL $pe
	fi
	wait $pe
	expect "polexec after SIGTERM" "$?" 143 && no_new_pasta "$before" ||
		return 1
	# polexec itself SIGKILLed (no cleanup runs): pasta's parent-death
	# signal ends it, and the box's ends the box
	"$POLEXEC" $(nb) "$ART/filtered.polbin" -- /bin/sleep 10 \
		>"$T/out" 2>"$T/err" &
	pe=$!
	i=0
	while [ $i -lt 50 ] && [ -z "$(pasta_pids | grep -Fxv -- \
		"$(printf '%s\nnone' "$before")")" ]; do
		sleep 0.1
		i=$((i + 1))
	done
	sleep 0.2
	kill -KILL $pe
	wait $pe
	i=0
	while [ $i -lt 20 ] && [ -n "$(pasta_pids | grep -Fxv -- \
		"$(printf '%s\nnone' "$before")")" ]; do
		sleep 0.1
		i=$((i + 1))
	done
	no_new_pasta "$before" &&
		expect "the box's sleep after polexec's SIGKILL" \
			"$(pgrep -f '^/bin/sleep 10$' | wc -l)" 0
}

# --- the cgroup eBPF backend (docs/EGRESS.md, "The cgroup backend") ------
#
# t_cgroup_* run in the root pass's cgroup pass (NET_BACKEND=cgroup), the
# box in the outer namespace itself, in a cgroup of its own with the
# programs attached; the ways around connect() each tried, with a twin
# where the way leads somewhere.

# IPv4-mapped addresses on an AF_INET6 socket are judged as IPv4; TCP Fast
# Open (sendto with MSG_FASTOPEN, no connect) and unconnected UDP
# (sendto) are judged as connect is; the host's loopback, also as 0.0.0.0
# and ::ffff:127.0.0.1, only on a listed port (none here).
t_cgroup_ways_around_connect() {
	boxp "$ART/filtered.polbin" -- "tcp ::ffff:$H1 8080" \
		"tcp ::ffff:$H1 80" "tfo $H1 8080" "tfo $H1 80" \
		"tfo $H1_6 80" "udpto $H1 5353" "udpto $H1 5354" \
		"udpto $H2 5353" "tcp 127.0.0.1 $LO_OK" "tcp 0.0.0.0 $LO_OK" \
		"tcp ::ffff:127.0.0.1 $LO_OK" "tcp ::1 $LO_ECHO" || return 1
	reached "IPv4-mapped, allowed" "tcp ::ffff:$H1 8080" "h1:8080/tcp" &&
		blocked "IPv4-mapped h1:80" "tcp ::ffff:$H1 80" &&
		reached "TFO to the allowed" "tfo $H1 8080" "h1:8080/tcp" &&
		blocked "TFO to h1:80" "tfo $H1 80" &&
		blocked "TFO to [h1]:80" "tfo $H1_6 80" &&
		reached "unconnected udp, listed" "udpto $H1 5353" \
			"h1:5353/udp" &&
		blocked "unconnected udp h1:5354" "udpto $H1 5354" &&
		blocked "unconnected udp h2:5353" "udpto $H2 5353" &&
		blocked "the host's loopback" "tcp 127.0.0.1 $LO_OK" &&
		blocked "0.0.0.0 (the host's loopback)" "tcp 0.0.0.0 $LO_OK" &&
		blocked "::ffff:127.0.0.1" "tcp ::ffff:127.0.0.1 $LO_OK" &&
		blocked "::1" "tcp ::1 $LO_ECHO" &&
		expect_filtered_record &&
		expect_in_blocked "$H1:80/tcp" "[$H1_6]:80/tcp" \
			"$H1:5354/udp" "$H2:5353/udp" "127.0.0.1:$LO_OK/tcp" \
			"0.0.0.0:$LO_OK/tcp" &&
		expect_not_in_blocked "$H1:8080/tcp" "$H1:5353/udp" || return 1
	# twins: each blocked way leads somewhere from here
	expect "twin: TFO to h1:80 outside" "$(outside tfo $H1 80)" \
		"h1:80/tcp" &&
		expect "twin: udpto h2:5353 outside" \
			"$(outside udpto $H2 5353)" "h2:5353/udp" &&
		expect "twin: IPv4-mapped h1:80 outside" \
			"$(outside tcp "::ffff:$H1" 80)" "h1:80/tcp" &&
		expect "twin: 0.0.0.0 outside" \
			"$(outside tcp 0.0.0.0 $LO_OK)" "lo:$LO_OK/tcp"
}

# TCP Fast Open the other way (TCP_FASTOPEN_CONNECT: connect sends
# nothing, the first write sends the SYN with the data) and MPTCP (whose
# subflows the kernel makes), each to unlisted destinations of h1: refused
# or filtered under either backend. TFO to the listed port is reached.
# The cgroup backend refuses MPTCP at socket() (sock_create), even to a
# listed destination; the namespace backend filters its packets as TCP.
# Twins: the same probes outside reach h1:80.
t_filtered_tfo_connect_mptcp() {
	boxp "$ART/filtered.polbin" -- "tfoc $H1 8080" "tfoc $H1 80" \
		"tfoc $H1_6 80" "mptcp $H1 80" "mptcp $H1_6 80" \
		"mptcp $H1 8080" || return 1
	reached "TFO connect, allowed" "tfoc $H1 8080" "h1:8080/tcp" &&
		blocked "TFO connect to h1:80" "tfoc $H1 80" &&
		blocked "TFO connect to [h1]:80" "tfoc $H1_6 80" &&
		blocked "MPTCP to h1:80" "mptcp $H1 80" &&
		blocked "MPTCP to [h1]:80" "mptcp $H1_6 80" &&
		expect_filtered_record || return 1
	if [ "${NET_BACKEND:-}" = cgroup ]; then
		# connect4 judges the connect of TCP_FASTOPEN_CONNECT (EPERM
		# there; the egress program alone would only drop the SYN)
		expect "TFO connect refused at connect()" \
			"$(res "tfoc $H1 80")" "errno=EPERM" &&
			expect "MPTCP refused at socket()" \
				"$(res "mptcp $H1 80")" "errno=EPERM (socket)" &&
			expect "MPTCP refused at socket(), allowed too" \
				"$(res "mptcp $H1 8080")" "errno=EPERM (socket)" &&
			expect_in_blocked "$H1:80/tcp" "[$H1_6]:80/tcp" || return 1
	else
		reached "MPTCP to the allowed" "mptcp $H1 8080" "h1:8080/tcp" ||
			return 1
	fi
	expect "twin: TFO connect to h1:80 outside" \
		"$(outside tfoc $H1 80)" "h1:80/tcp" &&
		expect "twin: MPTCP to h1:80 outside" \
			"$(outside mptcp $H1 80)" "h1:80/tcp" &&
		expect "twin: MPTCP to [h1]:80 outside" \
			"$(outside mptcp $H1_6 80)" "h1:80/tcp"
}

# A cgroup backend that cannot be installed refuses the box: each bpf()
# command polexec needs (map create 0, update 2, program load 5, attach 8,
# freeze 22) made to fail with EACCES by a seccomp filter around polexec
# (bpffail): exit 125, the command never ran, the refusal names the step,
# and the box's cgroup is gone. No policy falls back to the namespace:
# `auto` never takes the cgroup backend, and a forced one that cannot be
# had is a refusal (docs/EGRESS.md, "Fail closed").
t_cgroup_install_failure_refuses() {
	printf '#!/bin/sh\necho $$ >"%s/pid"\nexec "%s/bpffail" "$FAILCMD" "$@"\n' \
		"$T" "$BIN" >"$T/wrap"
	chmod +x "$T/wrap"
	WRAP=$T/wrap
	for FAILCMD in 0 2 5 8 22; do
		export FAILCMD
		rm -f "$T/pid"
		refusal "$ART/filtered.polbin" || { WRAP=; return 1; }
		case $FAILCMD in
		0) step='create the map' ;;
		2) step='rule 0' ;;
		5) step='load sock_create' ;;
		8) step='attach sock_create' ;;
		22) step='freeze the map' ;;
		esac
		expect_match "bpf cmd $FAILCMD: names the step" "$ERR" \
			"net: cgroup backend: $step.*Permission denied" &&
			expect "bpf cmd $FAILCMD: no cgroup left" \
				"$(ls -d /sys/fs/cgroup/unified/polexec-"$(cat "$T/pid")"-* \
					2>/dev/null)" "" || { WRAP=; return 1; }
	done
	# twin: the same wrapper failing a command polexec never sends
	# (BPF_OBJ_PIN, 6): the box runs
	FAILCMD=6
	boxp "$ART/filtered.polbin" -- "tcp $H1 8080"
	rc=$?
	WRAP=
	unset FAILCMD
	[ $rc -eq 0 ] || return 1
	reached "twin: bpffail 6, the box ran" "tcp $H1 8080" "h1:8080/tcp"
}

# The box's own cgroup: the one whose cgroup.procs lists the box's shell
# (its pid is the same in the box and here: no view, no pid namespace).
box_cgroup_script='for d in /sys/fs/cgroup/unified/polexec-*; do
	case $d in *.self) continue;; esac
	grep -qx "$$" "$d/cgroup.procs" 2>/dev/null && cg=$d
done
echo "cgroup: ${cg:-none}"'

# The box cannot undo its programs: detaching them (BPF_F_ALLOW_MULTI:
# not without their fds), attaching one of its own (no CAP_BPF), leaving
# its cgroup for the root one or its parent (the cgroup2 mount is
# read-only in the box). After the attempts the blocked destination is
# still blocked, the allowed one reached.
t_cgroup_box_cannot_undo() {
	boxsh "$ART/filtered.polbin" -- /bin/sh -c "$box_cgroup_script
		[ -n \"\$cg\" ] || exit 9
		'$BIN/netprobe' bpfdetach \$cg | sed 's/^[^:]*:/bpfdetach:/'
		'$BIN/netprobe' bpfattach \$cg | sed 's/^[^:]*:/bpfattach:/'
		'$BIN/netprobe' cgmove /sys/fs/cgroup/unified |
			sed 's/^[^:]*:/cgmove root:/'
		'$BIN/netprobe' cgmove \$cg/.. | sed 's/^[^:]*:/cgmove parent:/'
		'$BIN/netprobe' tcp $H1 80
		'$BIN/netprobe' tcp $H1 8080" || return 1
	expect_match "the box found its cgroup" "$(res cgroup)" \
		'^/sys/fs/cgroup/unified/polexec-' &&
		expect_match "detach" "$(res bpfdetach)" '^errno=E' &&
		expect_match "attach its own" "$(res bpfattach)" '^errno=E' &&
		expect_match "move to the root cgroup" "$(res "cgmove root")" \
			'^errno=E' &&
		expect_match "move to the parent" "$(res "cgmove parent")" \
			'^errno=E' &&
		blocked "h1:80 after the attempts" "tcp $H1 80" &&
		reached "h1:8080 after the attempts" "tcp $H1 8080" \
			"h1:8080/tcp" &&
		expect_filtered_record && expect_in_blocked "$H1:80/tcp" ||
		return 1
	# twins: root here attaches to, and moves into, a cgroup of the
	# test's own (removed after)
	cg=/sys/fs/cgroup/unified/polc-net-test-$$
	mkdir "$cg" || return 1
	a=$("$BIN/netprobe" bpfattach "$cg")
	m=$("$BIN/netprobe" cgmove "$cg")
	rmdir "$cg"
	expect "twin: attach to a cgroup of ours" "$a" "bpfattach $cg: ok" &&
		expect "twin: move into it" "$m" "cgmove $cg: ok"
}

# `net none` with loopback ports: the listed ports of the host's loopback
# reached directly (no relay), 4 MiB echoed whole, the others refused,
# and h1 too.
t_cgroup_loopback_ports() {
	boxp "$ART/loopback.polbin" -- "tcp 127.0.0.1 $LO_OK" \
		"tcp 127.0.0.1 $LO_NO" "tcp $H1 8080" \
		"echo 127.0.0.1 $LO_ECHO 4194304" "echo ::1 $LO_ECHO 1000000" ||
		return 1
	reached "listed port" "tcp 127.0.0.1 $LO_OK" "lo:$LO_OK/tcp" &&
		blocked "unlisted port" "tcp 127.0.0.1 $LO_NO" &&
		blocked "h1" "tcp $H1 8080" &&
		expect "4 MiB echoed over 127.0.0.1" \
			"$(res "echo 127.0.0.1 $LO_ECHO 4194304")" \
			"4194304 bytes back" &&
		expect "1 MB echoed over ::1" \
			"$(res "echo ::1 $LO_ECHO 1000000")" "1000000 bytes back" &&
		expect "record: egress" "$(rec .layers.net.egress)" cgroup-ebpf
}

# listen() without bind (the kernel picks the port, no bind hook runs)
# serves nobody outside the box: the ingress program drops what comes
# from a destination the policy does not list. A bind to a port of the
# box's choosing is refused. Twin: the same server outside a box.
t_cgroup_listen_serves_nobody() {
	srv="import socket, sys, time
s = socket.socket(); s.listen(4)
print('port', s.getsockname()[1], flush=True)
b = socket.socket()
try:
    b.bind(('0.0.0.0', $LO_NO + 97)); print('bind: ok', flush=True)
except OSError as e:
    print('bind: errno', e.errno, flush=True)
s.settimeout(4)
try:
    c, a = s.accept(); c.send(b'box\n'); time.sleep(0.5)
except OSError:
    pass"
	for where in box outside; do
		if [ $where = box ]; then
			"$POLEXEC" $(nb) "$ART/filtered.polbin" -- \
				/usr/bin/python3 -c "$srv" >"$T/$where" 2>&1 &
		else
			/usr/bin/python3 -c "$srv" >"$T/$where" 2>&1 &
		fi
		pid=$!
		i=0
		while [ $i -lt 50 ] && ! grep -q '^bind' "$T/$where"; do
			sleep 0.1
			i=$((i + 1))
		done
		port=$(sed -n 's/^port //p' "$T/$where")
		r=$(outside tcp 127.0.0.1 "${port:-1}")
		wait $pid
		eval "r_$where=\$r; b_$where=\$(sed -n 's/^bind: //p' \"\$T/\$where\")"
	done
	# shellcheck disable=SC2154
	expect_match "a client of the box's automatic port" "$r_box" \
		'^(errno=E|timeout)' &&
		expect "bind to a port of its own in the box" "$b_box" \
			"errno 1" &&
		expect "twin: the same server outside" "$r_outside" "box" &&
		expect "twin: its bind outside" "$b_outside" "ok"
}

# Under the cgroup backend the box stays in the caller's network
# namespace, whose abstract unix sockets are the host's (X11's, a
# container runtime's shim): Landlock's scope keeps them from the box
# (net_child_scope), and the box's own still work. filtered.pol has no fs
# section, so nothing else scopes it. Twin: the same client outside.
t_cgroup_abstract_host_unreachable() {
	name=polc-net-abstract-$$
	srv="import socket, time
s = socket.socket(socket.AF_UNIX); s.bind('\\0$name'); s.listen(4)
s.settimeout(6)
for i in range(2):
    try:
        c, a = s.accept(); c.send(b'host\\n'); c.close()
    except OSError:
        break"
	cli="import socket, sys
def go(n):
    c = socket.socket(socket.AF_UNIX)
    try:
        c.connect('\\0' + n); return c.recv(16).decode().strip() or 'empty'
    except OSError as e:
        return 'errno=%d' % e.errno
own = socket.socket(socket.AF_UNIX); own.bind('\\0$name-box'); own.listen(1)
print('host:', go('$name'))
c = socket.socket(socket.AF_UNIX); c.connect('\\0$name-box')
a, _ = own.accept(); a.send(b'own\\n'); print('own:', c.recv(16).decode().strip())"
	/usr/bin/python3 -c "$srv" &
	sp=$!
	sleep 0.3
	OUT=$("$POLEXEC" $(nb) "$ART/filtered.polbin" -- /usr/bin/python3 \
		-c "$cli" 2>"$T/err")
	RC=$?
	r_out=$(/usr/bin/python3 -c "import socket
c = socket.socket(socket.AF_UNIX); c.connect('\\0$name')
print(c.recv(16).decode().strip())" 2>&1)
	kill $sp 2>/dev/null
	wait $sp 2>/dev/null
	expect "exit" "$RC" 0 &&
		expect_match "the host's abstract socket" "$OUT" \
			'^host: errno=1$' &&
		expect_match "the box's own" "$OUT" '^own: own$' &&
		expect "twin: outside, the host's" "$r_out" host
}

# The policy says `backend cgroup`: a caller who may not attach programs
# (uid 65534) is refused, and so is --net-backend namespace; root runs it
# there. --net-backend cgroup with an artifact that has no programs (a
# plain net none) is refused.
t_backend_forced() {
	if ! is_root; then
		refusal "$ART/cgroup.polbin" &&
			expect_match "names what is missing" "$ERR" \
				'CAP_BPF and CAP_NET_ADMIN'
		return
	fi
	if [ "${NET_BACKEND:-}" != cgroup ]; then
		refusal "$ART/cgroup.polbin" &&
			expect_match "names the conflict" "$ERR" \
				"backend cgroup"
		return
	fi
	boxp "$ART/cgroup.polbin" -- "tcp $H1 8080" "tcp $H1 80" || return 1
	reached "h1:8080" "tcp $H1 8080" "h1:8080/tcp" &&
		blocked "h1:80" "tcp $H1 80" &&
		expect "record: egress" "$(rec .layers.net.egress)" \
			cgroup-ebpf &&
		refusal "$ART/net_none.polbin" &&
		expect_match "no programs to force" "$ERR" \
			'artifact has no cgroup programs'
}

# `backend cgroup namespace` (list.pol), in every pass with polexec's own
# choice (no --net-backend): the cgroup programs where they can be had and
# installed, else the namespace, which then really holds the box (h1:8080
# reached, h1:80 blocked, a bind to a chosen port allowed: no program of
# the cgroup backend is left on the box's cgroup, whose bind4 refuses it),
# and the record names the cause. As root: an install that fails at a load
# (bpffail 5) falls back, and refuses under `backend cgroup` and under
# --net-backend cgroup; one that fails at a later program, after others
# were attached (too few fds: EMFILE; list-lo.pol), falls back with every
# program detached again (the bind allowed, the unlisted port blocked). As
# uid 65534 (no CAP_BPF): the namespace, and why.
bind_probe="import socket
s = socket.socket()
try:
    s.bind(('127.0.0.1', $LO_OK + 7)); print('bind: ok')
except OSError as e:
    print('bind: errno', e.errno)"

# list_box: the probes in a list.polbin box, polexec's choice: OUT, ERR,
# RC; a refusal is a failure (said).
list_box() {
	rm -f "$T/rec.json"
	timeout -k 5 "$BOX_SECS" ${WRAP:-} "$POLEXEC" --record "$T/rec.json" \
		"$ART/list.polbin" -- /bin/sh -c "
		'$BIN/netprobe' tcp $H1 8080; '$BIN/netprobe' tcp $H1 80
		/usr/bin/python3 -c \"$bind_probe\"" \
		>"$T/stdout" 2>"$T/stderr" </dev/null
	RC=$?
	OUT=$(cat "$T/stdout")
	ERR=$(cat "$T/stderr")
	[ "$RC" -ne 125 ] && [ "$RC" -ne 124 ] && [ "$RC" -ne 137 ] &&
		return 0
	say "    FAIL: polexec did not run the box (exit $RC): $ERR"
	return 1
}

list_held_by_namespace() {
	reached "$1: h1:8080" "tcp $H1 8080" "h1:8080/tcp" &&
		blocked "$1: h1:80" "tcp $H1 80" &&
		expect "$1: a bind to a chosen port" "$(res bind)" ok &&
		expect "$1: record: egress" "$(rec .layers.net.egress)" \
			nft+pasta &&
		expect_in_blocked "$H1:80/tcp"
}

t_backend_list() {
	NET_BACKEND=
	if ! is_root; then
		list_box || return 1
		list_held_by_namespace "uid $(id -u)" &&
			expect_match "record: why" \
				"$(rec .layers.net.backend_fallback)" \
				'^cgroup: no CAP_BPF and CAP_NET_ADMIN' &&
			expect_match "warns" "$ERR" 'the network namespace enforces' ||
			return 1
		"$POLEXEC" --doctor "$ART/list.polbin" >"$T/doctor" 2>&1
		expect "doctor: exit" "$?" 0 &&
			expect_match "doctor: the namespace, next" \
				"$(grep 'net backend' "$T/doctor")" \
				'found +the network namespace, next in the policy.s .backend cgroup namespace. .the cgroup programs need CAP_BPF'
		return
	fi
	"$POLEXEC" --doctor "$ART/list.polbin" >"$T/doctor" 2>&1
	expect "doctor: exit" "$?" 0 &&
		expect_match "doctor: the programs first" \
			"$(grep 'net backend' "$T/doctor")" \
			'found +cgroup eBPF programs .* first in the policy.s .backend cgroup namespace.' ||
		return 1
	# twin: installed, the programs hold (and refuse the bind)
	list_box || return 1
	reached "cgroup: h1:8080" "tcp $H1 8080" "h1:8080/tcp" &&
		blocked "cgroup: h1:80" "tcp $H1 80" &&
		expect "cgroup: the bind refused" "$(res bind)" "errno 1" &&
		expect "cgroup: record: egress" "$(rec .layers.net.egress)" \
			cgroup-ebpf &&
		expect "cgroup: record: no fallback" \
			"$(rec .layers.net.backend_fallback)" null || return 1
	printf '#!/bin/sh\nexec "%s/bpffail" 5 "$@"\n' "$BIN" >"$T/wrap"
	chmod +x "$T/wrap"
	WRAP=$T/wrap
	list_box || return 1
	list_held_by_namespace "load fails" &&
		expect_match "load fails: record: why" \
			"$(rec .layers.net.backend_fallback)" \
			'^cgroup: load sock_create.*: Permission denied$' || return 1
	refusal "$ART/cgroup.polbin" &&
		expect_match "backend cgroup: refused" "$ERR" \
			'net: cgroup backend: load sock_create.*Permission denied' ||
		return 1
	refusal --net-backend=cgroup "$ART/list.polbin" &&
		expect_match "--net-backend cgroup: refused" "$ERR" \
			'net: cgroup backend: load sock_create.*Permission denied' ||
		return 1
	# too few fds: a later program fails after others were attached
	# (list-lo.pol: the namespace's relay, no pasta to starve)
	late=0
	for k in 10 11 12 13 14 15 16 17 18; do
		printf '#!/bin/sh\nulimit -n %s && exec "$@"\n' "$k" >"$T/wrap"
		chmod +x "$T/wrap"
		WRAP=$T/wrap
		rm -f "$T/rec.json"
		timeout -k 5 "$BOX_SECS" "$T/wrap" "$POLEXEC" \
			--record "$T/rec.json" "$ART/list-lo.polbin" -- \
			/bin/sh -c "'$BIN/netprobe' tcp 127.0.0.1 $LO_OK
			'$BIN/netprobe' tcp 127.0.0.1 $LO_NO
			/usr/bin/python3 -c \"$bind_probe\"" \
			>"$T/stdout" 2>"$T/stderr" </dev/null || continue
		OUT=$(cat "$T/stdout")
		why=$(rec .layers.net.backend_fallback)
		case $why in
		"cgroup: load sock_create"*) continue ;;
		"cgroup: load "*"No file descriptors available") ;;
		*) continue ;;
		esac
		late=$((late + 1))
		# (the listed port's relay may itself be short of fds here:
		# the bpffail box above reached its listed destination)
		blocked "fds $k: unlisted port" "tcp 127.0.0.1 $LO_NO" &&
			expect "fds $k: a bind to a chosen port" "$(res bind)" \
				ok &&
			expect "fds $k: record: egress" \
				"$(rec .layers.net.egress)" \
				"loopback ports via polexec" || return 1
	done
	WRAP=
	expect "a later program's load failed, and fell back" \
		"$([ $late -gt 0 ] && echo yes)" yes
}

# A socket of the caller's network on the box's stdin is a way around any
# backend (it belongs to neither the box's namespace nor its cgroup):
# refused. Twin: a Unix socket there runs.
t_outside_socket_refused() {
	hand="import socket, subprocess, sys
s = socket.socket(socket.AF_INET if sys.argv[1] == 'inet' else
                  socket.AF_UNIX)
sys.exit(subprocess.call(sys.argv[2:], stdin=s.fileno()))"
	/usr/bin/python3 -c "$hand" inet "$POLEXEC" $(nb) \
		"$ART/filtered.polbin" -- "$BIN/netprobe" fdtcp 0 $H1 80 \
		>"$T/out" 2>"$T/err"
	expect "an IP socket on stdin: exit" "$?" 125 &&
		expect_match "says why" "$(cat "$T/err")" \
			'fd 0 is a socket .family 2, type 1, protocol 6. of the caller.s network' || return 1
	/usr/bin/python3 -c "$hand" unix "$POLEXEC" $(nb) \
		"$ART/filtered.polbin" -- "$BIN/netprobe" fdtcp 0 $H1 80 \
		>"$T/out" 2>"$T/err"
	expect "twin: a Unix socket on stdin: the box ran" "$?" 1 &&
		expect_match "and its connect failed" "$(cat "$T/out")" \
			'errno=E'
}

# The box's cgroup goes when polexec is SIGKILLed (cgroup.c's keeper),
# which detaches the programs; seen while the box ran.
t_cgroup_nothing_left_behind() {
	"$POLEXEC" $(nb) "$ART/filtered.polbin" -- /bin/sleep 10 \
		>"$T/out" 2>"$T/err" &
	pe=$!
	i=0
	while [ $i -lt 50 ] && ! ls -d /sys/fs/cgroup/unified/polexec-$pe-* \
		>/dev/null 2>&1; do
		sleep 0.1
		i=$((i + 1))
	done
	seen=$(ls -d /sys/fs/cgroup/unified/polexec-$pe-* 2>/dev/null)
	kill -KILL $pe
	wait $pe
	i=0
	while [ $i -lt 50 ] && ls -d /sys/fs/cgroup/unified/polexec-$pe-* \
		>/dev/null 2>&1; do
		sleep 0.1
		i=$((i + 1))
	done
	expect_match "the box's cgroup while it ran" "$seen" \
		"^/sys/fs/cgroup/unified/polexec-$pe-" &&
		expect "none left after polexec's SIGKILL" \
			"$(ls -d /sys/fs/cgroup/unified/polexec-$pe-* 2>/dev/null)" ""
}

TESTS="
t_harness_test_hosts
t_none_no_route_no_host_loopback
t_none_loopback_listed_port
t_filtered_allowed_reached_others_blocked
t_filtered_udp_blocked_unless_listed
t_filtered_udp_replies_only_from_dest
t_filtered_ipv6
t_filtered_deny_carved_out_of_allow
t_filtered_pinned_names
t_filtered_pinned_names_in_view
t_filtered_pinned_names_in_view_files
t_filtered_variable_entry
t_filtered_dns_names
t_dns_search_ndots
t_dns_no_such_name
t_dns_numeric_names
t_dns_bad_servers
t_filtered_sockets_refused
t_vsock_refused
t_std_fd_sockets
t_caller_ignored_signals
t_filtered_tamper_proof
t_filtered_box_cannot_ptrace_pasta
t_no_relay_left_behind
t_loopback_box_cannot_ptrace_relay
t_relay_more_connections_than_slots
t_loopback_too_many_ports
t_filtered_loopback_port
t_no_pasta_left_behind
t_unprivileged_needs_tun
t_backend_forced
t_backend_list
t_outside_socket_refused
t_filtered_tfo_connect_mptcp
t_filtered_pinned_name_in_cidr
"

# The root pass's second round, NET_BACKEND=cgroup: the egress tests that
# hold for both backends, then the cgroup backend's own.
# The broker round (both passes, NET_BACKEND=broker): the egress tests
# that hold under the notify broker too (UDP where the policy lists it;
# its own ways around are tests/broker's), and the held-back ways around
# (raw, packet, netlink, io_uring, vsock, sockets handed over as fds 0-2).
BROKER_TESTS="
t_filtered_allowed_reached_others_blocked
t_filtered_udp_blocked_unless_listed
t_filtered_ipv6
t_filtered_deny_carved_out_of_allow
t_filtered_pinned_names
t_filtered_pinned_names_in_view
t_filtered_variable_entry
t_filtered_sockets_refused
t_std_fd_sockets
t_outside_socket_refused
"

CGROUP_TESTS="
t_filtered_allowed_reached_others_blocked
t_filtered_udp_blocked_unless_listed
t_filtered_ipv6
t_filtered_deny_carved_out_of_allow
t_filtered_pinned_names
t_filtered_pinned_name_in_cidr
t_filtered_pinned_names_in_view
t_filtered_pinned_names_in_view_files
t_filtered_variable_entry
t_backend_forced
t_outside_socket_refused
t_std_fd_sockets
t_cgroup_ways_around_connect
t_filtered_tfo_connect_mptcp
t_cgroup_install_failure_refuses
t_cgroup_box_cannot_undo
t_cgroup_loopback_ports
t_cgroup_listen_serves_nobody
t_cgroup_abstract_host_unreachable
t_cgroup_nothing_left_behind
"

# backend_pass BACKEND TESTS: those TESTS (of NET_ONLY, where set) again
# with --net-backend=BACKEND, each under a name of its own (BACKEND_t),
# so its records are kept apart
backend_pass() {
	NET_BACKEND=$1
	say "--- net suite as $WHO_RUNS, --net-backend=$1"
	for t in ${NET_ONLY:-$2}; do
		case " $(echo $2) " in *" $t "*) ;; *) continue ;; esac
		eval "$1_$t() { $t; }"
		in_scratch "$1_$t" box_stderr
	done
}

run_all() {
	say "--- net suite as $WHO_RUNS${NET_BACKEND:+, --net-backend=$NET_BACKEND}"
	for t in ${NET_ONLY:-$TESTS}; do
		case " $(echo $TESTS) " in *" $t "*) ;; *) continue ;; esac
		in_scratch "$t" box_stderr
	done
	is_root && backend_pass cgroup "$CGROUP_TESTS"
	backend_pass broker "$BROKER_TESTS"
	NET_BACKEND=
	is_root && NET_BACKEND=namespace
	records_check net "${NET_ONLY:-}"
	rm -rf "$SCRATCH"
}

# --- setup -----------------------------------------------------------------

# Binaries and artifacts in a temp dir every uid can read.
setup_shared() {
	netlab_shared net || return 1
	for pol in "$HERE"/*.pol; do
		name=$(basename "$pol" .pol)
		if ! "$B/polc" build "$pol" -o "$SHARED/art/$name.polbin" \
			>"$SHARED/art/$name.log" 2>&1; then
			say "net: polc build $pol failed:"
			cat "$SHARED/art/$name.log"
		fi
	done
	chmod -R a+rX "$SHARED"
}

# The DNS servers of the t_dns tests and t_filtered_dns_names, and the
# suite's resolv.conf naming the good one (the file netlab.sh bound over
# /etc/resolv.conf, rewritten in place). Bad servers on port 53: h1 never
# answers on IPv4 and says TC on IPv6; h2 answers garbage on IPv4 and a
# pointer loop on IPv6; the outer namespace's own 127.0.0.1 says
# SERVFAIL.
setup_dns() {
	start_dns "$HOLDER_3" "$H3" "$H3_6" \
		"--host-record=dns.test,$H1,$H1_6" \
		"--host-record=multi.test,$H1" "--host-record=multi.test,$H3" \
		"--host-record=v6only.test,$H1_6" \
		"--host-record=dual.test,$H2,$H2_6" \
		--cname=alias.test,dual.test \
		"--host-record=secret.test,$H2" \
		--txt-record=empty.lab.test,nothing \
		"--host-record=svc.lab.test,$H3" \
		"--host-record=api.corp,$H1" \
		"--host-record=api.corp.lab.test,$H2" &&
		start_server "$HOLDER_1" "$H1" h1dns mute:53 &&
		start_server "$HOLDER_1" "$H1_6" h1tc dnstc:53 &&
		start_server "$HOLDER_2" "$H2" h2dns udp:53 &&
		start_server "$HOLDER_2" "$H2_6" h2loop dnsloop:53 &&
		start_server "" 127.0.0.1 lofail dnsfail:53 || return 1
	printf '%s\n' "nameserver $H3" "nameserver $H3_6" "search lab.test" \
		"options timeout:2 attempts:2" >"$SHARED/resolv.conf"
}

# The strangers of t_filtered_udp_replies_only_from_dest: h2 knocking at
# the caller's address on its link, port 40000 (IPv4) and 40001 (IPv6),
# logs every uid can read.
setup_knockers() {
	start_server "$HOLDER_2" "$H2" knock4 knock:5355,10.77.2.1,40000 &&
		start_server "$HOLDER_2" "$H2_6" knock6 \
			knock:5355,fd77:2::1,40001 &&
		chmod 644 "$SHARED/server-knock4.log" "$SHARED/server-knock6.log"
}

# --- main ------------------------------------------------------------------

if [ -n "${NET_INNER:-}" ]; then
	# The unprivileged pass, started by the root pass below, in the same
	# outer namespaces.
	SHARED=$NET_INNER
	netlab_use net
	run_all
	[ -n "$failures" ] && say "failed ($WHO_RUNS):$failures"
	say "net-pass: $passed passed, $failed failed, $validated records valid"
	[ "$failed" -eq 0 ]
	exit
fi

# Here, when netlab_enter returns: root, pid 1 of the suite's own pid,
# mount and network namespaces.
netlab_enter net "$@"
setup_shared || fatal "cannot copy the binaries and build the policies"
setup_outer || fatal "cannot build the test hosts"
setup_dns || fatal "cannot start the DNS servers"
setup_knockers || fatal "cannot start h2's knockers"
netlab_use net
NET_BACKEND=namespace
run_all
[ -n "$failures" ] && say "failed ($WHO_RUNS):$failures"
unprivileged_pass net NET_INNER="$SHARED" ${NET_ONLY:+NET_ONLY="$NET_ONLY"}
say "net: $passed passed, $failed failed ($validated run records valid)"
[ "$failed" -eq 0 ]
