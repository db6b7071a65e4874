#!/bin/sh
# Times `polc check --boundary` of two 400-syscall policies with argument
# rules (bench/gen_policy's, and a copy that differs in a few rules), RUNS
# times, from sources and from artifacts (re-validation included), and
# reports the median, the spread and the peak memory. The target is a
# median of 200 ms or less from sources; timing is reported, not asserted.
set -eu
POLC=${POLC:-build/polc}
GEN=${GEN:-build/bench/gen_policy}
RUNS=${RUNS:-25}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

"$GEN" 400 >"$tmp/old.pol"
# A few rules apart: a personality value swapped, a narrower clone mask,
# the AF_PACKET exclusion dropped, ptrace answering EPERM instead of kill.
sed -e 's/0x20008, 0xffffffff}/0x20008, 0x400000}/' \
	-e 's/flags & NAMESPACE_FLAGS == 0/flags \& CLONE_NEWUSER == 0/' \
	-e 's/domain != AF_VSOCK \&\& domain != AF_PACKET/domain != AF_VSOCK/' \
	-e 's/kill ptrace /errno(EACCES) ptrace\n    kill /' \
	"$tmp/old.pol" >"$tmp/new.pol"
"$POLC" build "$tmp/old.pol" -o "$tmp/old.polbin"
"$POLC" build "$tmp/new.pol" -o "$tmp/new.polbin"
echo "policies: $(sed -n 's/^ *allow \([a-z_0-9 ]*\)$/\1/p' "$tmp/old.pol" |
	wc -w) syscalls allowed unconditionally, \
$("$POLC" dump "$tmp/old.polbin" | grep -c ' if ') argument rules each"
set +e
"$POLC" check --boundary "$tmp/old.pol" "$tmp/new.pol"
[ $? -eq 1 ] || { echo "expected exit 1 (exceeds)"; exit 1; }
set -e

ms() { # value in microseconds -> "12.3"
	echo "$(($1 / 1000)).$((($1 % 1000) / 100))"
}

run() { # LABEL OLD NEW
	i=0
	while [ $i -lt "$RUNS" ]; do
		s=$(date +%s%N)
		"$POLC" check --boundary "$2" "$3" >/dev/null || [ $? -eq 1 ]
		e=$(date +%s%N)
		echo $(((e - s) / 1000))
		i=$((i + 1))
	done | sort -n >"$tmp/us"
	med=$(awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}' "$tmp/us")
	echo "polc check, $1, $RUNS runs: median $(ms "$med") ms (min \
$(ms "$(head -1 "$tmp/us")"), max $(ms "$(tail -1 "$tmp/us")"))"
	if [ -x /usr/bin/time ]; then
		{ /usr/bin/time -v "$POLC" check --boundary "$2" "$3" \
			>/dev/null; } 2>&1 |
			sed -n 's/^\tMaximum resident set size (kbytes): /  peak RSS: /p' |
			sed 's/$/ KiB/'
	fi
}

run "sources" "$tmp/old.pol" "$tmp/new.pol"
run "artifacts" "$tmp/old.polbin" "$tmp/new.polbin"
