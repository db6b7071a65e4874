#!/bin/sh
# SPDX-License-Identifier: MIT
#
# The cost of observing the box's denials (issue 12, docs/OBSERVE.md), one
# run, medians of ROUNDS (default 7):
#
#   1. a denied call: getppid denied by a rule, in a loop inside the box,
#      answered by polexec's supervisor (notified) against the kernel alone
#      (the same artifact and binary, with the test hook that installs the
#      decision program instead); ns per call
#   2. an allowed call (getpid) under the same two: the notify program
#      lets it through in the kernel, so the two should be equal
#   3. a workload, python3 starting and writing a file, under one policy
#      with and without the notification path; wall time and peak RSS
#   4. git checkout between two commits of FILES (default 3000) files,
#      under `observe destructive` against the same policy without it
#
# Uses build/tests/observe/polexec-hooks (polexec with the test hooks of
# stub/observe/supervise.c, never installed) for both sides of 1-3, so the binary
# is the same; 4 uses build/polexec. Needs root for nothing; run as any
# user. Prints a table for docs/BENCHMARKS.md.
set -eu
B=$(cd "${B:-build}" && pwd)
ROUNDS=${ROUNDS:-7}
FILES=${FILES:-3000}
HERE=$(cd "$(dirname "$0")" && pwd)
. "$HERE/lib.sh"
POLC=$B/polc
HOOKS=$B/tests/observe/polexec-hooks
POLEXEC=$B/polexec
PROBE=$B/tests/observe/obsprobe
for f in "$POLC" "$HOOKS" "$POLEXEC" "$PROBE"; do
	[ -x "$f" ] || { echo "bench: $f is missing: make all tests"; exit 2; }
done
W=$(mktemp -d /tmp/polc-bench-observe.XXXXXX)
trap 'rm -rf "$W"' EXIT

median() { sort -n | awk '{a[NR] = $1} END {print a[int((NR + 1) / 2)]}'; }
ms_now() { date +%s%N; }

cat >"$W/deny.pol" <<'EOF'
policy "bench-deny" {
  syscalls default allow {
    errno(EPERM) getppid
  }
}
EOF
cat >"$W/work.pol" <<EOF
policy "bench-work" {
  fs {
    rx /usr
    rw \${WORKSPACE}
    dev
  }
  syscalls default allow {
    errno(EPERM) ptrace
  }
}
EOF
sed 's/^    dev$/    dev\n    observe destructive/' "$W/work.pol" >"$W/observe.pol"
for p in deny work observe; do
	"$POLC" build "$W/$p.pol" -o "$W/$p.polbin" >/dev/null
done

# per_call MODE CALL N: median ns per call over ROUNDS boxes
per_call() {
	i=0
	while [ $i -lt "$ROUNDS" ]; do
		if [ "$1" = kernel ]; then
			POLEXEC_TEST_NO_OBSERVE=1 "$HOOKS" "$W/deny.polbin" -- \
				"$PROBE" time "$2" "$3"
		else
			"$HOOKS" "$W/deny.polbin" -- "$PROBE" time "$2" "$3"
		fi | sed -n 's/.*calls, \([0-9.]*\) ns per call.*/\1/p'
		i=$((i + 1))
	done | median
}

den_k=$(per_call kernel getppid 1000000)
den_n=$(per_call notified getppid 100000)
all_k=$(per_call kernel getpid 1000000)
all_n=$(per_call notified getpid 1000000)

# wall MODE POLBIN CMD...: median ms of ROUNDS runs in $W/ws
wall() {
	mode=$1 art=$2
	shift 2
	i=0
	while [ $i -lt "$ROUNDS" ]; do
		rm -rf "$W/ws" && mkdir "$W/ws"
		t0=$(ms_now)
		if [ "$mode" = kernel ]; then
			(cd "$W/ws" && POLEXEC_TEST_NO_OBSERVE=1 "$HOOKS" \
				--var WORKSPACE="$W/ws" "$art" -- "$@") >/dev/null
		else
			(cd "$W/ws" && "$HOOKS" --var WORKSPACE="$W/ws" "$art" \
				-- "$@") >/dev/null
		fi
		t1=$(ms_now)
		echo $(((t1 - t0) / 1000))
		i=$((i + 1))
	done | median
}
PY='import json; open("o.json", "w").write(json.dumps({"ok": 1}))'
py_k=$(wall kernel "$W/work.polbin" /usr/bin/python3 -c "$PY")
py_n=$(wall notified "$W/work.polbin" /usr/bin/python3 -c "$PY")
mkdir -p "$W/ws"
rss_k=$(cd "$W/ws" && POLEXEC_TEST_NO_OBSERVE=1 peak_kib "$HOOKS" \
	--var WORKSPACE="$W/ws" "$W/work.polbin" -- /usr/bin/python3 -c "$PY")
rss_n=$(cd "$W/ws" && peak_kib "$HOOKS" --var WORKSPACE="$W/ws" \
	"$W/work.polbin" -- /usr/bin/python3 -c "$PY")

# git: commit A with FILES files, commit B with every file changed and a
# third of them gone; checkouts between the two, alternating
G=$W/repo
mkdir "$G"
(
	cd "$G"
	git init -q .
	git config user.name bench && git config user.email bench@bench
	i=0
	while [ $i -lt "$FILES" ]; do
		d=d$((i % 30))
		mkdir -p $d && echo "a $i" >$d/f$i
		i=$((i + 1))
	done
	git add -A && git commit -q -m A && git tag A
	i=0
	while [ $i -lt "$FILES" ]; do
		d=d$((i % 30))
		if [ $((i % 3)) = 0 ]; then git rm -q $d/f$i; else echo "b $i" >$d/f$i; fi
		i=$((i + 1))
	done
	git add -A && git commit -q -m B && git tag B
)
# checkouts ART: median ms of ROUNDS checkouts (B, then A, ...)
checkouts() {
	i=0
	while [ $i -lt "$ROUNDS" ]; do
		to=A
		[ $((i % 2)) = 0 ] && to=B
		t0=$(ms_now)
		if [ "$1" = bare ]; then
			(cd "$G" && /usr/bin/git checkout -q "$to")
		else
			(cd "$G" && "$POLEXEC" --var WORKSPACE="$G" --record \
				"$W/git.json" "$1" -- /usr/bin/git checkout -q \
				"$to")
		fi
		t1=$(ms_now)
		echo $(((t1 - t0) / 1000))
		i=$((i + 1))
	done | median
}
(cd "$G" && git checkout -q A)
git_bare=$(checkouts bare)
(cd "$G" && git checkout -q A)
git_plain=$(checkouts "$W/work.polbin")
(cd "$G" && git checkout -q A)
git_obs=$(checkouts "$W/observe.polbin")
sides=$(jq -r '"\(.side_effects | length) kept, \(.side_effects_dropped) dropped"' "$W/git.json")

ratio() { awk -v a="$1" -v b="$2" 'BEGIN {printf "%.2fx", b / a}'; }
echo "polexec: $(stat -c %s "$POLEXEC") bytes; $ROUNDS rounds, medians"
echo
echo "| | kernel alone | notified | ratio |"
echo "|---|---|---|---|"
echo "| denied getppid, ns per call | $den_k | $den_n | $(ratio "$den_k" "$den_n") |"
echo "| allowed getpid, ns per call | $all_k | $all_n | $(ratio "$all_k" "$all_n") |"
echo "| python3 start and write, ms | $((py_k / 1000)).$(((py_k % 1000) / 100)) | $((py_n / 1000)).$(((py_n % 1000) / 100)) | $(ratio "$py_k" "$py_n") |"
echo "| python3 peak RSS, KiB | $rss_k | $rss_n | |"
echo
echo "| git checkout, $FILES files | no polexec | without observe | observe destructive | ratio |"
echo "|---|---|---|---|---|"
echo "| ms | $((git_bare / 1000)).$(((git_bare % 1000) / 100)) | $((git_plain / 1000)).$(((git_plain % 1000) / 100)) | $((git_obs / 1000)).$(((git_obs % 1000) / 100)) | $(ratio "$git_plain" "$git_obs") |"
echo
echo "side effects of the last observed checkout: $sides"
