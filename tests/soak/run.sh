#!/bin/sh
# SPDX-License-Identifier: MIT
#
# The soak suite (issue 11, item 9): many boxes, in a row and at once,
# `net none` and `net filtered` (none.pol, filtered.pol), then nothing may
# be left behind: no process (pasta included), namespace, mount, cgroup
# (polexec-* folders, v1 and v2), temporary file (in /tmp and the record
# folder) or stray fd, and polexec's own peak memory (VmHWM) must be as
# high for the last boxes as for the first. Then polexec is killed with
# SIGKILL at moments drawn from a seeded generator across its start-up
# (measured first): again nothing may be left, and a command that ran must
# have run fully narrowed (Seccomp 2, NoNewPrivs 1, no capability, only
# fds 0 1 2, Landlock denying a file outside its grants).
#
# Every box runs tests/soak/progs/soaktool's probe, which writes a mark
# saying how it was narrowed; the suite compares a snapshot of what exists
# (soaktool snapshot) before and after each part.
#
# Isolation: the suite runs in the egress suite's laboratory (netlab.sh:
# its own network, mount and pid namespaces, test hosts for `net
# filtered`), with a tmpfs of its own on /tmp and in cgroups of its own
# (polc-soak-RANDOM in every hierarchy), so that other programs on the
# machine cannot make it see leftovers that are not polexec's, and
# nothing it does reaches the host's network. As root it runs twice: as
# root, then as uid 65534 (smaller counts) in the same namespaces.
#
# Counts: SOAK_SERIAL boxes in a row per policy (default 100), SOAK_WAVES
# waves of SOAK_PARALLEL at once (3 of 8), SOAK_KILLS kills (50, half per
# policy), SOAK_SEED the generator's seed (20261201). `make soak` runs
# 1000 in a row, 10 waves of 32, 500 kills. Loops are bounded; a wait
# for leftovers to go gives up after 10 s (a leftover stays).
#
# Ends with "soak: N passed, N failed"; exits non-zero when any failed.
set -u
export LC_ALL=C # one collation for sort and comm

HERE=$(cd "$(dirname "$0")" && pwd)
. "$HERE/../lib.sh" # say, expect..., tally, in_scratch, unprivileged_pass
# the laboratory's servers outlast `make soak` (they still stop by
# themselves)
NET_SERVER_SECS=${NET_SERVER_SECS:-3600}
# netlab_enter, setup_outer: tests/net's, or the copy beside the uid
# 65534 pass's copy of this script
if [ -e "$HERE/netlab.sh" ]; then
	. "$HERE/netlab.sh"
else
	. "$HERE/../net/netlab.sh"
fi

SERIAL=${SOAK_SERIAL:-100}
PARALLEL=${SOAK_PARALLEL:-8}
WAVES=${SOAK_WAVES:-3}
KILLS=${SOAK_KILLS:-50}
SEED=${SOAK_SEED:-20261201}
SAMPLE=5 # boxes at each end whose polexec is measured (at most half)
[ $((SERIAL / 2)) -ge $SAMPLE ] || SAMPLE=$((SERIAL / 2))

passed=0
failed=0
failures=
WHO_RUNS="uid $(id -u)"

# figure TEXT: a measurement for the report, not a pass/fail condition.
figure() {
	say "    figure ($WHO_RUNS): $*"
}

# --- one box ------------------------------------------------------------------

# The forbidden file is outside the box's view (an fs section gives the box
# a root of its own, docs/VIEW.md): not there at all, ENOENT.
MARK_RE='^seccomp=2 nnp=1 capeff=0{16} capprm=0{16} capbnd=0{16} fds=0,1,2 forbidden=ENOENT$'

# box_cmd POLICY NAME: the command line of box NAME, a word a line:
# polexec, its record, the probe and its mark (no path has a space).
box_cmd() {
	printf '%s\n' "$POLEXEC" --record "$RECDIR/$2.json" --var "BIN=$BIN" \
		--var "MARK=$MARKDIR" "$ART/$1.polbin" -- "$SC" probe \
		"$MARKDIR/$2" "$FORBIDDEN"
}

# box POLICY NAME: runs box NAME; 0 when polexec exited 0.
box() {
	"$POLEXEC" --record "$RECDIR/$2.json" --var "BIN=$BIN" \
		--var "MARK=$MARKDIR" "$ART/$1.polbin" -- "$SC" probe \
		"$MARKDIR/$2" "$FORBIDDEN" >>"$T/out" 2>>"$T/err" </dev/null
}

# narrowed NAME: box NAME's probe ran fully narrowed, by its mark.
narrowed() {
	expect_match "box $1 ran narrowed" "$(cat "$MARKDIR/$1" 2>&1)" \
		"$MARK_RE"
}

# recorded NAME: box NAME's record says it exited 0.
recorded() {
	expect "box $1's record" \
		"$(jq -r '.outcome + " " + (.exit_code | tostring)' \
			"$RECDIR/$1.json" 2>&1)" "exited 0"
}

# --- leftovers -------------------------------------------------------------

# snapshot: what exists, one sorted line each (soaktool snapshot); the
# boxes' marks and their finished records are expected, not leftovers.
# (Into a file first: a pipeline's other commands would be in it.)
snapshot() {
	"$SC" snapshot "$CGNAME" /tmp "$RECDIR" >"$T/snapshot.raw" &&
		grep -Ev "^entry $RECDIR/[a-z0-9]+\.json$" "$T/snapshot.raw" |
		sort -u
}

# nothing_left BEFORE: nothing is in the snapshot that was not in BEFORE
# (a file), waiting at most 10 s for what ends by itself (a killed
# polexec's children). What is gone (the laboratory's servers end by
# themselves) is not the boxes' doing.
nothing_left() {
	nl_i=0
	while :; do
		snapshot >"$T/after"
		comm -13 "$1" "$T/after" >"$T/new"
		[ -s "$T/new" ] || return 0
		[ $nl_i -lt 50 ] || break
		sleep 0.2
		nl_i=$((nl_i + 1))
	done
	say "    FAIL: left behind:"
	head -n 20 "$T/new" | sed 's/^/      /'
	return 1
}

# --- the tests -----------------------------------------------------------------

# hold POLICY NAME: box NAME, whose probe waits once it has written its
# mark; meanwhile polexec's VmHWM (kB) and, as root, its fd count are read
# into HWM and FDS.
hold() {
	"$POLEXEC" --record "$RECDIR/$2.json" --var "BIN=$BIN" \
		--var "MARK=$MARKDIR" "$ART/$1.polbin" -- "$SC" probe \
		"$MARKDIR/$2" "$FORBIDDEN" "$MARKDIR/go-$2" \
		>>"$T/out" 2>>"$T/err" </dev/null &
	h_pid=$!
	h_i=0
	while [ ! -e "$MARKDIR/$2" ] && [ $h_i -lt 200 ]; do
		sleep 0.05
		h_i=$((h_i + 1))
	done
	HWM=$(awk '/^VmHWM:/ { print $2 }' "/proc/$h_pid/status" 2>/dev/null)
	FDS=-
	is_root && FDS=$(ls "/proc/$h_pid/fd" 2>/dev/null | wc -l)
	: >"$MARKDIR/go-$2"
	wait $h_pid
}

# serial POLICY N: N boxes in a row; the first and last SAMPLE measured.
serial() {
	snapshot >"$T/before"
	first_hwm=0 last_hwm=0 first_fds= last_fds= bad=0
	i=1
	while [ $i -le "$2" ]; do
		if [ $i -le $SAMPLE ] || [ $i -gt $(($2 - SAMPLE)) ]; then
			hold "$1" "s$i" || bad=$((bad + 1))
			if [ $i -le $SAMPLE ]; then
				[ "${HWM:-0}" -gt $first_hwm ] && first_hwm=$HWM
				first_fds="$first_fds $FDS"
			else
				[ "${HWM:-0}" -gt $last_hwm ] && last_hwm=$HWM
				last_fds="$last_fds $FDS"
			fi
		else
			box "$1" "s$i" || bad=$((bad + 1))
		fi
		i=$((i + 1))
	done
	figure "$1: $2 in a row: polexec VmHWM first $SAMPLE max" \
		"$first_hwm kB, last $SAMPLE max $last_hwm kB; fds" \
		"first [$first_fds ] last [$last_fds ]"
	expect "$1: polexec exits that were not 0" "$bad" 0 || return 1
	i=1
	while [ $i -le "$2" ]; do
		narrowed "s$i" && recorded "s$i" || return 1
		i=$((i + 1))
	done
	# flat: the last boxes' polexec peaks no higher than the first's,
	# give or take a page table's growth (64 kB)
	expect "$1: VmHWM measured" "$([ "$first_hwm" -gt 0 ] && echo yes)" yes &&
		expect "$1: last VmHWM <= first + 64 kB" \
			"$([ "$last_hwm" -le $((first_hwm + 64)) ] && echo yes)" yes &&
		expect "$1: polexec's fds, last boxes as the first" \
			"$(printf '%s\n' $last_fds | sort -u)" \
			"$(printf '%s\n' $first_fds | sort -u)" &&
		nothing_left "$T/before"
}

# parallel POLICY: SOAK_WAVES waves of SOAK_PARALLEL boxes at once.
parallel() {
	snapshot >"$T/before"
	w=1
	while [ $w -le "$WAVES" ]; do
		pids=
		i=1
		while [ $i -le "$PARALLEL" ]; do
			box "$1" "p${w}x$i" &
			pids="$pids $!"
			i=$((i + 1))
		done
		bad=0
		for p in $pids; do
			wait "$p" || bad=$((bad + 1))
		done
		expect "$1: wave $w: polexec exits that were not 0" "$bad" 0 ||
			return 1
		w=$((w + 1))
	done
	figure "$1: $WAVES waves of $PARALLEL at once"
	w=1
	while [ $w -le "$WAVES" ]; do
		i=1
		while [ $i -le "$PARALLEL" ]; do
			narrowed "p${w}x$i" && recorded "p${w}x$i" || return 1
			i=$((i + 1))
		done
		w=$((w + 1))
	done
	nothing_left "$T/before"
}

t_serial_none() { serial none "$SERIAL"; }
t_serial_filtered() { serial filtered "$SERIAL"; }
t_parallel_none() { parallel none; }
t_parallel_filtered() { parallel filtered; }

# window POLICY: the start-up of POLICY's box in microseconds, from the
# fork to the probe's mark: the median of 5.
window() {
	for k in 1 2 3 4 5; do
		# shellcheck disable=SC2046
		"$SC" startup "$MARKDIR/w$1$k" -- $(box_cmd "$1" "w$1$k") \
			2>>"$T/err" </dev/null
	done | sort -n | sed -n 3p
}

# SIGKILL at a seeded moment of the start-up (up to 1.5 x its median, so
# that some land after the command started), SOAK_KILLS times, the two
# policies in turn. A probe that ran must have run narrowed; a record,
# when polexec got as far, is whole; nothing is left, after each kill.
t_killed_during_startup() {
	w_none=$(window none) && w_filtered=$(window filtered) || return 1
	expect_match "start-up measured" "$w_none $w_filtered" \
		'^[0-9]+ [0-9]+$' || return 1
	figure "start-up (median of 5): none $w_none us, filtered" \
		"$w_filtered us; kills over [0, 1.5 x that], seed $SEED"
	"$SC" delays "$SEED" "$KILLS" 1000000 >"$T/delays" || return 1
	snapshot >"$T/before"
	i=0 ran=0 notran=0 records=0
	while read -r frac; do
		pol=none
		win=$w_none
		if [ $((i % 2)) -eq 1 ]; then
			pol=filtered
			win=$w_filtered
		fi
		us=$((frac * win * 3 / 2 / 1000000))
		# shellcheck disable=SC2046
		"$SC" killafter "$us" -- $(box_cmd $pol "k$i") \
			>"$T/kill.out" 2>>"$T/err" </dev/null
		rc=$?
		if [ $rc -ne 0 ]; then
			say "    FAIL: kill $i ($pol, $us us): $(cat "$T/kill.out")"
			return 1
		fi
		if [ -e "$MARKDIR/k$i" ]; then
			narrowed "k$i" || { say "    kill $i ($pol, $us us)"; return 1; }
			ran=$((ran + 1))
		else
			notran=$((notran + 1))
		fi
		if [ -e "$RECDIR/k$i.json" ]; then
			expect "kill $i: a record there is whole" \
				"$(jq -r .outcome "$RECDIR/k$i.json" 2>&1)" \
				exited || return 1
			records=$((records + 1))
		fi
		nothing_left "$T/before" ||
			{ say "    after kill $i ($pol, $us us)"; return 1; }
		i=$((i + 1))
	done <"$T/delays"
	figure "$i kills: the probe ran (narrowed) in $ran, never" \
		"started in $notran; $records whole records"
	# how many landed before the command ran is a figure: timing, not
	# a condition
	expect "kills done" "$i" "$KILLS"
}

TESTS="
t_serial_none
t_serial_filtered
t_parallel_none
t_parallel_filtered
t_killed_during_startup
"

soak_fail_log() {
	if [ -s "$T/err" ]; then
		say "    polexec's stderr (last lines):"
		tail -n 5 "$T/err" | sed 's/^/      /'
	fi
}

run_all() {
	say "--- soak suite as $WHO_RUNS"
	BIN=$SHARED/bin
	ART=$SHARED/art
	POLEXEC=$BIN/polexec
	SC=$BIN/soaktool
	FORBIDDEN=$SHARED/forbidden
	SCRATCH=$(mktemp -d /tmp/polc-soak-run.XXXXXX) || exit 2
	chmod 755 "$SCRATCH"
	for t in ${SOAK_ONLY:-$TESTS}; do
		MARKDIR=$SCRATCH/mark-$t
		RECDIR=$SCRATCH/rec-$t
		mkdir "$MARKDIR" "$RECDIR" || exit 2
		in_scratch "$t" soak_fail_log
		rm -rf "$MARKDIR" "$RECDIR"
	done
	rm -rf "$SCRATCH"
}

# --- setup ------------------------------------------------------------------

setup_shared() {
	SHARED=$(mktemp -d /tmp/polc-soak.XXXXXX) || return 1
	chmod 755 "$SHARED"
	mkdir -p "$SHARED/bin" "$SHARED/art" || return 1
	for f in polexec polc tests/soak/soaktool tests/net/netprobe \
		tests/net/netserve; do
		[ -x "$B/$f" ] || { say "soak: $B/$f is missing: run make first"; return 1; }
		cp "$B/$f" "$SHARED/bin/" || return 1
	done
	cp "$HERE/run.sh" "$HERE/../net/netlab.sh" "$SHARED/bin/" || return 1
	support_copy "$SHARED" || return 1
	for pol in none filtered; do
		"$B/polc" build "$HERE/$pol.pol" -o "$SHARED/art/$pol.polbin" ||
			return 1
	done
	echo "not for the box" >"$SHARED/forbidden"
	chmod -R a+rX "$SHARED"
}

# The suite's own cgroup in every hierarchy polexec may use (v1 memory and
# pids, v2), so that only its boxes' polexec-* folders are below it.
cgroup_dirs() {
	awk '$0 ~ / - cgroup2? / && $4 == "/" {
		split($0, a, " - "); split(a[2], b, " ")
		if (b[1] == "cgroup2" || b[3] ~ /(^|,)(memory|pids)(,|$)/)
			print $5 }' /proc/self/mountinfo
}

enter_cgroups() {
	CGNAME=polc-soak-$(od -An -N4 -tx4 /dev/urandom | tr -d ' ')
	for d in $(cgroup_dirs); do
		mkdir "$d/$CGNAME" && echo $$ >"$d/$CGNAME/cgroup.procs" ||
			return 1
	done
}

leave_cgroups() {
	for d in $(cgroup_dirs); do
		[ -d "$d/$CGNAME" ] || continue
		# what a failed test left (found and said by then): not left on
		# the machine
		for c in "$d/$CGNAME"/polexec-*; do
			[ ! -d "$c" ] || rmdir "$c" 2>/dev/null
		done
		echo $$ >"$d/cgroup.procs" 2>/dev/null
		rmdir "$d/$CGNAME" 2>/dev/null ||
			say "soak: could not remove $d/$CGNAME"
	done
}

# --- main ---------------------------------------------------------------------

if [ -n "${SOAK_INNER:-}" ]; then
	SHARED=$SOAK_INNER
	run_all
	[ -n "$failures" ] && say "failed ($WHO_RUNS):$failures"
	say "soak-pass: $passed passed, $failed failed"
	[ "$failed" -eq 0 ]
	exit
fi

suite_paths
netlab_enter soak "$@"
# The suite mounts a /tmp of its own: a tree or build under the host's
# /tmp would vanish under it, so the host's /tmp is bound at /mnt first
# (in the suite's own mount namespace; the host's /mnt is untouched).
under_host_tmp() {
	case $1 in /tmp/*) printf '/mnt/%s' "${1#/tmp/}" ;; *) printf '%s' "$1" ;; esac
}
case "$ROOT/ $B/" in
/tmp/* | *" /tmp/"*)
	[ -d /mnt ] && mount --bind /tmp /mnt ||
		fatal "the tree is under /tmp and the host's /tmp cannot be bound at /mnt"
	HERE=$(under_host_tmp "$HERE")
	ROOT=$(under_host_tmp "$ROOT")
	B=$(under_host_tmp "$B")
	JSON_VALIDATOR=$(under_host_tmp "$JSON_VALIDATOR")
	SCHEMA_DIR=$(under_host_tmp "$SCHEMA_DIR")
	;;
esac
# a /tmp of the suite's own: what appears there is the boxes' doing
mount -t tmpfs -o mode=1777,size=256m polc-soak-tmp /tmp ||
	fatal "cannot mount a tmpfs on /tmp"
setup_shared || fatal "cannot copy the binaries and build the policies"
setup_outer || fatal "cannot build the test hosts"
enter_cgroups || fatal "cannot make the suite's own cgroups"
trap 'leave_cgroups; cleanup_outer' EXIT
run_all
[ -n "$failures" ] && say "failed ($WHO_RUNS):$failures"
unprivileged_pass soak SOAK_INNER="$SHARED" CGNAME="$CGNAME" \
	SOAK_SERIAL=$(((SERIAL + 3) / 4)) SOAK_PARALLEL="$PARALLEL" \
	SOAK_WAVES=1 SOAK_KILLS=$(((KILLS + 1) / 2)) SOAK_SEED="$SEED" \
	${SOAK_ONLY:+SOAK_ONLY="$SOAK_ONLY"}
say "soak: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
