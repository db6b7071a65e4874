#!/bin/sh
# Times `polc build` of a 400-syscall policy with argument rules (translation
# validation included), N runs, and reports the median, the spread, and the
# peak memory. Timing is reported, never asserted.
set -eu
POLC=${POLC:-build/polc}
GEN=${GEN:-build/bench/gen_policy}
RUNS=${RUNS:-50}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

"$GEN" 400 >"$tmp/p.pol"
"$POLC" build "$tmp/p.pol" -o "$tmp/p.polbin"
echo "policy: $(grep -o 'allow [a-z_0-9]*' "$tmp/p.pol" | wc -l) allow lines, \
$(wc -c <"$tmp/p.polbin") byte artifact"

i=0
while [ $i -lt "$RUNS" ]; do
	s=$(date +%s%N)
	"$POLC" build "$tmp/p.pol" -o "$tmp/p.polbin"
	e=$(date +%s%N)
	echo $(((e - s) / 1000))
	i=$((i + 1))
done | sort -n >"$tmp/us"
med=$(awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}' "$tmp/us")
min=$(head -1 "$tmp/us")
max=$(tail -1 "$tmp/us")
echo "polc build, $RUNS runs: median $((med / 1000)).$(((med % 1000) / 100)) ms \
(min $((min / 1000)).$(((min % 1000) / 100)), max $((max / 1000)).$(((max % 1000) / 100)))"
if [ -x /usr/bin/time ]; then
	/usr/bin/time -v "$POLC" build "$tmp/p.pol" -o "$tmp/p.polbin" 2>&1 |
		sed -n 's/^\tMaximum resident set size (kbytes): /peak RSS: /p' |
		sed 's/$/ KiB/'
fi
