#!/bin/sh
# SPDX-License-Identifier: MIT
#
# The network layer's start-up cost (issue 5). In one hyperfine run (no
# shell, warm-up first), inside a throwaway network and mount namespace:
#
#   polexec none.polbin -- /bin/true       net none: a user+network namespace
#   polexec filtered.polbin -- /bin/true   net filtered, four allows: pasta
#                                          and the nft table as well
#   unshare -Urn true                      the namespaces alone
#   bwrap --unshare-net --ro-bind / / true
#   pasta --config-net -- true             pasta alone (as root with
#                                          --runas 0 -q; see below)
#   /bin/true
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
# Needs root (for the namespace). RUNS=N (default 200). Results are printed
# and kept in $B/bench/net_startup.{json,txt}.
set -eu

HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/.." && pwd)
B=${B:-build}
case $B in /*) ;; *) B=$ROOT/$B ;; esac
RUNS=${RUNS:-200}
OUT=$B/bench
POLEXEC=$B/polexec
POLC=$B/polc

if [ -z "${BENCH_NET_OUTER:-}" ]; then
	[ "$(id -u)" = 0 ] || {
		echo "bench: net_startup.sh needs root (a throwaway network" \
			"namespace)" >&2
		exit 2
	}
	for tool in hyperfine jq bwrap pasta unshare ip; do
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
ip link set lo up
ip link add nv1 type veth peer name nv1p
ip addr add 10.77.1.1/24 dev nv1
ip -6 addr add fd77:1::1/64 dev nv1 nodad
ip link set nv1 up
ip link set nv1p up
ip route add default via 10.77.1.2 dev nv1
ip -6 route add default via fd77:1::2 dev nv1

mkdir -p "$OUT"
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
NAMES="true none filtered unshare bwrap pasta"
# The commands, read through eval "cmd=\$cmd_NAME".
# shellcheck disable=SC2034
{
cmd_true="/bin/true"
cmd_none="$POLEXEC $OUT/net-none.polbin -- /bin/true"
cmd_filtered="$POLEXEC $OUT/net-filtered.polbin -- /bin/true"
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

. "$HERE/lib.sh"

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

t_true=$(ms true)
t_none=$(ms none)
t_filt=$(ms filtered)
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
	[ -n "$pending" ] && echo "pending (did not run here):$pending"
	true
} | tee "$OUT/net_startup.txt"
