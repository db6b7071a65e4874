#!/bin/sh
# SPDX-License-Identifier: MIT
#
# The cgroup eBPF egress backend against the namespace backend and bare
# (issue 25), in one run, inside a throwaway network and mount namespace
# whose only way out is a veth pair with no far end (as net_startup.sh):
#
#   start    polexec net-filtered.polbin -- /bin/true, --net-backend=cgroup
#            and =namespace; net none; /bin/true (hyperfine, RUNS runs)
#   rss      the peak resident set of each (/usr/bin/time -v)
#   curl     200 requests to a web server on the namespace's 127.0.0.1, a
#            connection each (HTTP/1.0), from a box whose policy lists the
#            port as `loopback` (cgroup: the box connects itself; namespace:
#            polexec's relay), and bare: CURL_RUNS rounds, each running
#            the three once in a rotating order (paired: a burst of the
#            other agents' load hits a round, not one of the three), the
#            files written to a tmpfs of the bench's own mount namespace
#            (on ext4 a quarter of curl's time was the inodes of the
#            previous round's files, removed and made again). Each round
#            also runs the three with 400 requests: a connection's own
#            cost, without the box's start, is (t400 - t200) / 200, and
#            its ratio the median of each round's against bare's
#   bulk     1 GiB from the same server over one connection to /dev/null
#            (BULK_RUNS runs), the same three ways
#
# Medians and ratios (curl: the median of each round's ratio to bare),
# printed and kept in $B/bench/ebpf.txt. Timing is
# reported, never asserted. Needs root (namespaces; CAP_BPF for the cgroup
# backend).
set -eu

HERE=$(cd "$(dirname "$0")" && pwd)
. "$HERE/lib.sh"
bench_setup 100 hyperfine jq pasta unshare ip curl python3
CURL_RUNS=${CURL_RUNS:-20}
BULK_RUNS=${BULK_RUNS:-5}

bench_outer ebpf "$@"
bench_veth
PORT=39301
bench_web ebpf 400 1G $PORT
mount -t tmpfs -o size=16m tmpfs "$W/run"

bench_policy filtered <<EOF
policy "bench-ebpf-filtered" {
  net filtered {
    allow 10.77.1.2:443
    allow 10.77.1.0/24:8000-8100
    allow [fd77:1::2]:443
    allow 10.77.1.2:53 udp
    loopback $PORT
  }
}
EOF
bench_policy none <<'EOF'
policy "bench-ebpf-none" {
  net none
}
EOF

CG="$POLEXEC --net-backend=cgroup $W/filtered.polbin --"
NS="$POLEXEC --net-backend=namespace $W/filtered.polbin --"
# absolute paths: the box's environment has no PATH
# curl_cmd N: N requests, a connection each
curl_cmd() {
	echo "cd $W/run && /bin/rm -rf got && /bin/mkdir got && /usr/bin/curl -sS --fail -o 'got/#1' 'http://127.0.0.1:$PORT/p[0-$(($1 - 1))].txt'"
}
BULK="/usr/bin/curl -sS --fail -o /dev/null http://127.0.0.1:$PORT/big"

hyperfine -N --style basic --warmup 10 --runs "$RUNS" \
	--export-json "$OUT/ebpf-start.json" \
	-n true /bin/true -n none "$POLEXEC $W/none.polbin -- /bin/true" \
	-n cgroup "$CG /bin/true" -n namespace "$NS /bin/true" >/dev/null
# curl, paired: round r runs bare, cgroup, namespace starting at r % 3
ns_now() { date +%s%N; }
# run_curl NAME N
run_curl() {
	c=$(curl_cmd "$2")
	case $1 in
	bare) sh -c "$c" ;;
	cgroup) $CG /bin/sh -c "$c" ;;
	namespace) $NS /bin/sh -c "$c" ;;
	esac >/dev/null
}
for n in bare cgroup namespace; do run_curl $n 200; done # warm-up
: >"$OUT/ebpf-curl.txt"
r=0
while [ $r -lt "$CURL_RUNS" ]; do
	case $((r % 3)) in
	0) order="bare cgroup namespace" ;;
	1) order="cgroup namespace bare" ;;
	*) order="namespace bare cgroup" ;;
	esac
	for k in 200 400; do
		for n in $order; do
			t0=$(ns_now)
			run_curl $n $k
			t1=$(ns_now)
			echo "$r $n $((t1 - t0)) $k" >>"$OUT/ebpf-curl.txt"
		done
	done
	r=$((r + 1))
done
hyperfine --style basic --warmup 1 --runs "$BULK_RUNS" \
	--export-json "$OUT/ebpf-bulk.json" \
	-n bare "$BULK" -n cgroup "$CG $BULK" -n namespace "$NS $BULK" \
	>/dev/null

median() { sort -n | awk '{ v[NR] = $1 } END {
	printf "%.3f", NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
# curl_median NAME: its median in ms; curl_ratio NAME: the median of
# each round's NAME / bare
curl_median() {
	awk -v n="$1" '$2 == n && $4 == 200 { print $3 / 1e6 }' \
		"$OUT/ebpf-curl.txt" | median
}
curl_ratio() {
	awk -v n="$1" '$4 != 200 { next } $2 == "bare" { b[$1] = $3 }
		$2 == n { t[$1] = $3 }
		END { for (r in t) print t[r] / b[r] }' "$OUT/ebpf-curl.txt" |
		median
}
# conn_us NAME: the median of each round's (t400 - t200) / 200, in us;
# conn_ratio NAME: the median of each round's that against bare's
conn_us() {
	awk -v n="$1" '$2 == n { t[$1, $4] = $3 }
		END { for (k in t) { split(k, x, SUBSEP)
			if (x[2] == 400) print (t[x[1], 400] - t[x[1], 200]) / 200e3 } }' \
		"$OUT/ebpf-curl.txt" | median
}
conn_ratio() {
	awk -v n="$1" '{ t[$1, $2, $4] = $3; r[$1] = 1 }
		END { for (i in r) {
			b = t[i, "bare", 400] - t[i, "bare", 200]
			if (b > 0) print (t[i, n, 400] - t[i, n, 200]) / b } }' \
		"$OUT/ebpf-curl.txt" | median
}
{
	echo "start of a box, median of $RUNS (ms):"
	hf_rows "$OUT/ebpf-start.json" - true none cgroup namespace
	echo "peak RSS (KiB):"
	# shellcheck disable=SC2086
	printf '  %-10s %s\n' none "$(peak_kib $POLEXEC "$W/none.polbin" -- /bin/true)" \
		cgroup "$(peak_kib $CG /bin/true)" \
		namespace "$(peak_kib $NS /bin/true)"
	echo "curl, 200 connections, $CURL_RUNS paired rounds (median ms; median of the rounds' x bare):"
	for n in bare cgroup namespace; do
		printf '  %-10s %s  %sx\n' $n "$(curl_median $n)" \
			"$(curl_ratio $n)"
	done
	echo "curl, one connection without the start: (400 - 200 connections) / 200, same rounds (median us; median of the rounds' x bare):"
	for n in bare cgroup namespace; do
		printf '  %-10s %s  %sx\n' $n "$(conn_us $n)" "$(conn_ratio $n)"
	done
	echo "1 GiB over one connection, median of $BULK_RUNS (ms; throughput x bare):"
	hf_rows "$OUT/ebpf-bulk.json" throughput bare cgroup namespace
} | tee "$OUT/ebpf.txt"
