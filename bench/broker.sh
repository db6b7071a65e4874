#!/bin/sh
# SPDX-License-Identifier: MIT
#
# The notify broker (issue 26) against the namespace backend and bare, in
# one run, inside a throwaway network and mount namespace whose only way
# out is a veth pair with no far end (bench_veth):
#
#   connect  the median of CONNECTS blocking connects from inside one box
#            to a server on the namespace's 127.0.0.1, the port listed as
#            `loopback` (broker: polexec's supervisor connects the box's
#            socket; namespace: polexec's relay), and bare
#   curl     200 requests, a connection each (HTTP/1.0; CURL_RUNS runs)
#   bulk     BULK (default 1G) from the same server over one connection
#            to /dev/null (BULK_RUNS runs); under the broker the bytes go
#            through the box's own socket, never through polexec
#   start    polexec -- /bin/true, broker and namespace (RUNS runs)
#   udp      the median of UDP_N round trips (sendto + recvfrom) from one
#            box to a UDP server on the namespace's 10.77.1.1, listed
#            `udp` (broker: polexec's supervisor sends each datagram from
#            its copy), and bare
#
# Medians and ratios, printed and kept in $B/bench/broker.txt. Timing is
# reported, never asserted. Needs root (namespaces).
set -eu

HERE=$(cd "$(dirname "$0")" && pwd)
. "$HERE/lib.sh"
bench_setup 50 hyperfine jq pasta unshare ip curl python3
CURL_RUNS=${CURL_RUNS:-10}
BULK_RUNS=${BULK_RUNS:-3}
BULK=${BULK:-1G}
CONNECTS=${CONNECTS:-2000}
UDP_N=${UDP_N:-2000}
PROBE=$B/tests/broker/brokerprobe

bench_outer broker "$@"
bench_veth
PORT=39311
LPORT=39312
bench_web broker 200 "$BULK" $PORT
# connect latency: a C acceptor with a deep backlog (http.server's is 5)
"$PROBE" logserve 127.0.0.1 $LPORT 600 "$W/accepts.log" >"$W/lserve.out" &
SRV="$SRV $!"

bench_policy filtered <<EOF
policy "bench-broker" {
  net filtered {
    allow 10.77.1.2:443
    loopback $PORT $LPORT
  }
}
EOF
UPORT=39313
bench_policy udp <<EOF
policy "bench-broker-udp" {
  net filtered backend broker {
    allow 10.77.1.1:$UPORT udp
  }
}
EOF
"$B/tests/net/netserve" 10.77.1.1 600 bench "udp:$UPORT" >"$W/userve.out" 2>&1 &
SRV="$SRV $!"
i=0
until "$PROBE" udp 10.77.1.1 $UPORT sendto | grep -q "bench:$UPORT/udp"; do
	i=$((i + 1))
	[ $i -lt 50 ] || { echo "bench: the UDP server did not start" >&2; exit 1; }
	sleep 0.1
done

BR="$POLEXEC --net-backend=broker $W/filtered.polbin --"
NS="$POLEXEC --net-backend=namespace $W/filtered.polbin --"
CURL="cd $W/run && /bin/rm -rf got && /bin/mkdir got && /usr/bin/curl -sS --fail -o 'got/#1' 'http://127.0.0.1:$PORT/p[0-199].txt'"
GET="/usr/bin/curl -sS --fail -o /dev/null http://127.0.0.1:$PORT/big"

# shellcheck disable=SC2086
lat() { "$@" "$PROBE" connlat 127.0.0.1 $LPORT "$CONNECTS" | sed 's/.*median_us=//'; }
LAT_BARE=$(lat)
# shellcheck disable=SC2086
LAT_BR=$(lat $BR)
# shellcheck disable=SC2086
LAT_NS=$(lat $NS)
ulat() { "$@" "$PROBE" udplat 10.77.1.1 $UPORT "$UDP_N" | sed 's/.*median_us=//'; }
UDP_BARE=$(ulat)
UDP_BR=$(ulat "$POLEXEC" "$W/udp.polbin" --)

hyperfine -N --style basic --warmup 5 --runs "$RUNS" \
	--export-json "$OUT/broker-start.json" \
	-n broker "$BR /bin/true" -n namespace "$NS /bin/true" >/dev/null
hyperfine --style basic --warmup 2 --runs "$CURL_RUNS" \
	--export-json "$OUT/broker-curl.json" \
	-n bare "$CURL" -n broker "$BR /bin/sh -c \"$CURL\"" \
	-n namespace "$NS /bin/sh -c \"$CURL\"" >/dev/null
hyperfine --style basic --warmup 1 --runs "$BULK_RUNS" \
	--export-json "$OUT/broker-bulk.json" \
	-n bare "$GET" -n broker "$BR $GET" -n namespace "$NS $GET" \
	>/dev/null

{
	echo "connect, median of $CONNECTS in one box (us; x bare):"
	for n in bare:$LAT_BARE broker:$LAT_BR namespace:$LAT_NS; do
		printf '  %-10s %s  %sx\n' "${n%%:*}" "${n#*:}" \
			"$(ratio "${n#*:}" "$LAT_BARE")"
	done
	echo "UDP round trip (sendto + recvfrom), median of $UDP_N in one box (us; x bare):"
	for n in bare:$UDP_BARE broker:$UDP_BR; do
		printf '  %-10s %s  %sx\n' "${n%%:*}" "${n#*:}" \
			"$(ratio "${n#*:}" "$UDP_BARE")"
	done
	echo "start of a box, median of $RUNS (ms):"
	hf_rows "$OUT/broker-start.json" - broker namespace
	echo "curl, 200 connections, median of $CURL_RUNS (ms; x bare):"
	hf_rows "$OUT/broker-curl.json" time bare broker namespace
	echo "$BULK over one connection, median of $BULK_RUNS (ms; throughput x bare):"
	hf_rows "$OUT/broker-bulk.json" throughput bare broker namespace
} | tee "$OUT/broker.txt"
