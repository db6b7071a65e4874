#!/bin/sh
# SPDX-License-Identifier: MIT
#
# The network layer's start-up cost (issue 5). In one hyperfine run (no
# shell, warm-up first), inside a throwaway network and mount namespace:
#
#   polexec none.polbin -- /bin/true       net none: a user+network namespace
#   polexec filtered.polbin -- /bin/true   net filtered, four allows: pasta
#                                          and the nft table as well
#   polexec names-addr.polbin -- ...       net filtered, the four addresses
#                                          of the two names below, written
#   polexec names-dns.polbin -- /bin/true  the same, two host names pinned
#                                          from DNS (A and AAAA each)
#   polexec names-hosts.polbin -- ...      the same, two host names pinned
#                                          from the hosts file
#   unshare -Urn true                      the namespaces alone
#   bwrap --unshare-net --ro-bind / / true
#   pasta --config-net -- true             pasta alone (as root with
#                                          --runas 0 -q; see below)
#   /bin/true
#
# and polexec's resolver alone (resolve_time, bench/resolve_time.c): the
# median of RUNS lookups of a name from DNS and of one from the hosts
# file, what a name adds beside an address without pasta's noise.
#
# Medians and ratios; targets: filtered <= pasta alone + 5 ms, none <=
# bwrap. Peak RSS of each from /usr/bin/time -v. Timing is reported, never
# asserted. A command that does not run here (polexec refusing a layer it
# does not enforce yet) is left out and reported as pending.
#
# The namespace's only way out is a veth pair whose far end is in the same
# namespace and has no address: a default route (v4 and v6) via 10.77.1.2 /
# fd77:1::2 on it gives pasta the routable interface it copies, and no
# packet can leave. pasta, started as root, would drop to nobody and then
# fail to map it in its user namespace (it hangs here); `--runas 0` keeps
# root, `-q` silences its notices. That is what "pasta alone" is given.
#
# The names: d1.bench and d2.bench are answered by a dnsmasq (Debian
# package dnsmasq-base) on the namespace's own 127.0.0.53, from its command
# line alone, named by a resolv.conf bound over the real one in the
# bench's mount namespace; h1.bench and h2.bench are in a hosts file bound
# over /etc/hosts there.
#
# Needs root (for the namespace). RUNS=N (default 200); POLEXEC=FILE times
# another polexec (an older build, for a before/after). Results are
# printed and kept in $B/bench/net_startup.{json,txt}.
set -eu

HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/.." && pwd)
B=${B:-build}
case $B in /*) ;; *) B=$ROOT/$B ;; esac
RUNS=${RUNS:-200}
OUT=$B/bench
POLEXEC=${POLEXEC:-$B/polexec}
POLC=$B/polc
RESOLVE_TIME=$B/bench/resolve_time

if [ -z "${BENCH_NET_OUTER:-}" ]; then
	[ "$(id -u)" = 0 ] || {
		echo "bench: net_startup.sh needs root (a throwaway network" \
			"namespace)" >&2
		exit 2
	}
	[ -x "$RESOLVE_TIME" ] || {
		echo "bench: $RESOLVE_TIME is missing (make bench-net)" >&2
		exit 2
	}
	for tool in hyperfine jq bwrap pasta unshare ip dnsmasq; do
		command -v $tool >/dev/null || {
			echo "bench: $tool is missing (make deps)" >&2
			exit 2
		}
	done
	[ -x /usr/bin/time ] || {
		echo "bench: /usr/bin/time is missing (apt-get install time)" >&2
		exit 2
	}
	BENCH_NET_OUTER=1 exec unshare --net --mount --propagation private \
		sh "$0" "$@"
fi

# In the throwaway namespace.
. "$HERE/lib.sh"
bench_veth

mkdir -p "$OUT"
# The names: two from DNS (dnsmasq on 127.0.0.53, which stops by itself
# after 30 minutes, and is killed at the end), two from the hosts file,
# and their addresses written out: what a name costs is the difference.
ip addr add 127.0.0.53/8 dev lo 2>/dev/null || true
timeout -s KILL 1800 dnsmasq --keep-in-foreground --conf-file=/dev/null \
	--no-resolv --no-hosts --port 53 --listen-address 127.0.0.53 \
	--bind-interfaces --pid-file= --local=/bench/ --log-facility=- \
	--host-record=d1.bench,10.77.1.2,fd77:1::2 \
	--host-record=d2.bench,10.77.1.3,fd77:1::3 >"$OUT/dnsmasq.log" 2>&1 &
DNS_PID=$!
trap 'kill -KILL $DNS_PID 2>/dev/null' EXIT
printf '%s\n' "nameserver 127.0.0.53" "options timeout:2 attempts:2" \
	>"$OUT/resolv.conf"
printf '%s\n' "127.0.0.1 localhost" "10.77.1.2 h1.bench" "fd77:1::2 h1.bench" \
	"10.77.1.3 h2.bench" "fd77:1::3 h2.bench" >"$OUT/hosts"
mount --bind "$OUT/resolv.conf" /etc/resolv.conf
mount --bind "$OUT/hosts" /etc/hosts
for src in dns hosts; do
	p=$(printf '%s' $src | cut -c1)
	cat >"$OUT/net-names-$src.pol" <<EOF
policy "bench-net-names-$src" {
  net filtered {
    allow ${p}1.bench:443
    allow ${p}2.bench:443
  }
}
EOF
	"$POLC" build "$OUT/net-names-$src.pol" \
		-o "$OUT/net-names-$src.polbin" 2>/dev/null
done
cat >"$OUT/net-names-addr.pol" <<'EOF'
policy "bench-net-names-addr" {
  net filtered {
    allow 10.77.1.2:443
    allow [fd77:1::2]:443
    allow 10.77.1.3:443
    allow [fd77:1::3]:443
  }
}
EOF
"$POLC" build "$OUT/net-names-addr.pol" -o "$OUT/net-names-addr.polbin" \
	2>/dev/null
i=0
until grep -q 'started, version' "$OUT/dnsmasq.log" 2>/dev/null; do
	i=$((i + 1))
	[ $i -lt 50 ] || { echo "bench: dnsmasq did not start" >&2; exit 1; }
	sleep 0.1
done
cat >"$OUT/net-none.pol" <<'EOF'
policy "bench-net-none" {
  net none
}
EOF
cat >"$OUT/net-filtered.pol" <<'EOF'
policy "bench-net-filtered" {
  net filtered {
    allow 10.77.1.2:443
    allow 10.77.1.0/24:8000-8100
    allow [fd77:1::2]:443
    allow 10.77.1.2:53 udp
  }
}
EOF
"$POLC" build "$OUT/net-none.pol" -o "$OUT/net-none.polbin"
"$POLC" build "$OUT/net-filtered.pol" -o "$OUT/net-filtered.polbin" \
	2>"$OUT/net-filtered.log" || {
	cat "$OUT/net-filtered.log" >&2
	exit 1
}

pasta_args=--config-net
[ "$(id -u)" = 0 ] && pasta_args="-q --runas 0 --config-net"

# Every command must really run here, or it is left out (timing a refusal
# would mean nothing).
NAMES="true none filtered addr dns hosts unshare bwrap pasta"
# The commands, read through eval "cmd=\$cmd_NAME".
# shellcheck disable=SC2034
{
cmd_true="/bin/true"
cmd_none="$POLEXEC $OUT/net-none.polbin -- /bin/true"
cmd_filtered="$POLEXEC $OUT/net-filtered.polbin -- /bin/true"
cmd_addr="$POLEXEC $OUT/net-names-addr.polbin -- /bin/true"
cmd_dns="$POLEXEC $OUT/net-names-dns.polbin -- /bin/true"
cmd_hosts="$POLEXEC $OUT/net-names-hosts.polbin -- /bin/true"
cmd_unshare="unshare -Urn /bin/true"
cmd_bwrap="bwrap --unshare-net --ro-bind / / /bin/true"
cmd_pasta="pasta $pasta_args -- /bin/true"
}

set --
pending=
ran=
for name in $NAMES; do
	eval "cmd=\$cmd_$name"
	# shellcheck disable=SC2086,SC2154
	if timeout 20 $cmd >"$OUT/net-$name.check" 2>&1; then
		set -- "$@" -n "$name" "$cmd"
		ran="$ran $name"
	else
		pending="$pending $name"
		echo "bench: $name does not run here, left out:" \
			"$(head -n 3 "$OUT/net-$name.check" | tr '\n' ' ')" >&2
	fi
done

hyperfine -N --style basic --warmup 20 --runs "$RUNS" \
	--export-json "$OUT/net_startup.json" "$@" >"$OUT/hyperfine-net.txt"

ran() { case " $ran " in *" $1 "*) return 0 ;; esac; return 1; }

ms() { # NAME: its median in ms, or "pending"
	if ran "$1"; then
		hf_median "$OUT/net_startup.json" "$1" |
			awk '{ printf "%.3f", $1 * 1000 }'
	else
		printf pending
	fi
}

rss() { # NAME: its peak RSS in KiB, or "pending"
	if ran "$1"; then
		eval "cmd=\$cmd_$1"
		# shellcheck disable=SC2086
		peak_kib $cmd
	else
		printf pending
	fi
}

# ratio A B: A / B, or pending; diff A B: A - B in ms, or pending
ratio() {
	case "$1$2" in *pending*) printf pending ;; *)
		awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2fx", a / b }' ;; esac
}
diff_ms() {
	case "$1$2" in *pending*) printf pending ;; *)
		awk -v a="$1" -v b="$2" 'BEGIN { printf "%+.3f ms", a - b }' ;; esac
}

"$RESOLVE_TIME" "$RUNS" d1.bench h1.bench >"$OUT/resolve_time.txt" || exit 1
t_true=$(ms true)
t_none=$(ms none)
t_filt=$(ms filtered)
t_addr=$(ms addr)
t_dns=$(ms dns)
t_hosts=$(ms hosts)
t_us=$(ms unshare)
t_bw=$(ms bwrap)
t_pa=$(ms pasta)
{
	echo "network start-up, $RUNS runs each, medians (hyperfine -N)," \
		"uid $(id -u):"
	printf '  %-40s %10s ms  %8s KiB\n' "/bin/true" "$t_true" "$(rss true)"
	printf '  %-40s %10s ms  %8s KiB\n' "polexec net none" "$t_none" \
		"$(rss none)"
	printf '  %-40s %10s ms  %8s KiB\n' "polexec net filtered (4 allows)" \
		"$t_filt" "$(rss filtered)"
	printf '  %-40s %10s ms  %8s KiB\n' "polexec filtered, 4 addresses" \
		"$t_addr" "$(rss addr)"
	printf '  %-40s %10s ms  %8s KiB\n' "polexec filtered, 2 names (DNS)" \
		"$t_dns" "$(rss dns)"
	printf '  %-40s %10s ms  %8s KiB\n' "polexec filtered, 2 names (hosts)" \
		"$t_hosts" "$(rss hosts)"
	printf '  %-40s %10s ms  %8s KiB\n' "unshare -Urn true" "$t_us" \
		"$(rss unshare)"
	printf '  %-40s %10s ms  %8s KiB\n' "bwrap --unshare-net --ro-bind / /" \
		"$t_bw" "$(rss bwrap)"
	printf '  %-40s %10s ms  %8s KiB\n' "pasta $pasta_args -- true" \
		"$t_pa" "$(rss pasta)"
	echo "ratios and targets:"
	echo "  none / bwrap               $(ratio "$t_none" "$t_bw")" \
		"(target <= 1.00x)"
	echo "  none - unshare -Urn        $(diff_ms "$t_none" "$t_us")"
	echo "  filtered - pasta alone     $(diff_ms "$t_filt" "$t_pa")" \
		"(target <= +5 ms)"
	echo "  filtered / none            $(ratio "$t_filt" "$t_none")"
	echo "  2 names (DNS) - addresses  $(diff_ms "$t_dns" "$t_addr")"
	echo "  2 names (hosts) - addresses $(diff_ms "$t_hosts" "$t_addr")"
	echo "polexec's resolver alone ($RUNS lookups each, medians):"
	sed 's/^/  /' "$OUT/resolve_time.txt"
	[ -n "$pending" ] && echo "pending (did not run here):$pending"
	true
} | tee "$OUT/net_startup.txt"
