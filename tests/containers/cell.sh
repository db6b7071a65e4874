#!/bin/sh
# SPDX-License-Identifier: MIT
# One cell of the container matrix (run.sh), inside the container:
# polc doctor and polexec --doctor, then the box with its probes, then
# polc selftest of the same artifact, for POLICY; everything into
# /work/out/CELL. The listener runs beside the box, in the container.
pol=$1
cell=$2
o=/work/out/$cell
mkdir -p "$o/ws" "$o/data" "$o/out" &&
	chmod 777 "$o" "$o/ws" "$o/data" "$o/out" &&
	cp /work/probes.sh "$o/ws/probes.sh" # inside the box's grants
export PORT=39200
python3 /work/listen.py "$PORT" "$o/heard" &
l=$!
i=0
while [ ! -e "$o/heard.ready" ] && [ $i -lt 100 ]; do
	sleep 0.05
	i=$((i + 1))
done
vars="--var WS=$o/ws --var WORKSPACE=$o/ws --var SRC=/work/src
	--var DATA=$o/data --var OUT_DIR=$o/out --var MODEL_KEY_FILE=/work/key
	--var ANTHROPIC_KEY_FILE=/work/key"
/work/polc doctor >"$o/polc-doctor.txt" 2>&1
echo $? >"$o/polc-doctor.rc"
/work/polexec --doctor /work/$pol.polbin >"$o/doctor.txt" 2>&1
echo $? >"$o/doctor.rc"
/work/polexec --record "$o/rec.json" $vars /work/$pol.polbin -- \
	/bin/sh "$o/ws/probes.sh" >"$o/probes.txt" 2>"$o/stderr.txt"
echo $? >"$o/rc"
kill $l 2>/dev/null
wait $l 2>/dev/null
# Where the box got the notify broker (filtered.pol in shape T), the ways
# around it (tests/broker's probes) from a box of the same policy: the
# listed port and a second one the policy does not list, each served by a
# server that logs every peer it accepts. Twin: the same probe outside the
# box reaches the unlisted one.
if [ "$pol" = filtered ] &&
	jq -e '.layers.net.egress == "notify broker"' "$o/rec.json" \
		>/dev/null 2>&1; then
	U=39201
	: >"$o/listed.log"
	: >"$o/unlisted.log"
	/work/brokerprobe logserve 127.0.0.1 $PORT 60 "$o/listed.log" \
		>"$o/listed.ready" 2>&1 &
	g=$!
	/work/brokerprobe logserve 127.0.0.1 $U 60 "$o/unlisted.log" \
		>"$o/unlisted.ready" 2>&1 &
	u=$!
	cp /work/brokerprobe "$o/ws/brokerprobe"
	i=0
	until grep -q ready "$o/listed.ready" &&
		grep -q ready "$o/unlisted.ready" || [ $i -ge 100 ]; do
		sleep 0.05
		i=$((i + 1))
	done
	bp=$o/ws/brokerprobe
	/work/polexec --quiet $vars /work/$pol.polbin -- /bin/sh -c "
		$bp race 127.0.0.1 $PORT 127.0.0.1 $U 2000
		$bp dupswap 127.0.0.1 $U 200
		$bp unspec 127.0.0.1 $PORT 127.0.0.1 $U
		$bp tfommsg 127.0.0.1 $U
		$bp tfommsg 127.0.0.1 $PORT" >"$o/broker.txt" 2>"$o/broker.err"
	echo $? >"$o/broker.rc"
	wc -l <"$o/unlisted.log" >"$o/unlisted.box"
	/work/brokerprobe unspec 127.0.0.1 $PORT 127.0.0.1 $U \
		>"$o/broker-twin.txt" 2>&1
	wc -l <"$o/unlisted.log" >"$o/unlisted.twin"
	kill $g $u 2>/dev/null
	wait $g $u 2>/dev/null
fi
# the selftest's canaries and its own listeners, in a folder of its own
# (the root may be read-only)
mkdir -p "$o/st"
TMPDIR=$o/st /work/polc selftest --json /work/$pol.polbin \
	>"$o/selftest.json" 2>"$o/selftest.err"
echo $? >"$o/selftest.rc"
exit 0
