#!/bin/sh
# SPDX-License-Identifier: MIT
#
# polexec's start-up with the box's own view (issue 11) against
# bubblewrap making the same view. polexec: an fs section of 10 grants
# (rx /usr, ro /etc, ro on 8 folders made here), tmpfs /tmp, dev /dev,
# proc /proc; that is a mount namespace on a fresh tmpfs, a pid namespace
# with its init, the merged-/usr links, Landlock's 10 rules and the
# seccomp companions. bwrap: the same --ro-bind's and links, --tmpfs /tmp
# --dev /dev --proc /proc --unshare-pid. Both run /usr/bin/true.
#
# Medians from one hyperfine run (no shell, warm-up first) and from an
# interleaved loop; peak RSS from /usr/bin/time -v. RUNS=N (default 300).
# Results are printed and kept in $B/bench/view_startup.{json,txt}.
set -eu

HERE=$(cd "$(dirname "$0")" && pwd)
. "$HERE/lib.sh"
bench_setup 300 hyperfine jq bwrap python3
mkdir -p "$OUT/view-grants"

binds="--ro-bind /usr /usr --ro-bind /etc /etc"
{
	echo 'policy "bench-view" {'
	echo '  fs {'
	echo '    rx /usr'
	echo '    ro /etc'
	i=1
	while [ $i -le 8 ]; do
		d=$(printf '%s/view-grants/d%02d' "$OUT" $i)
		mkdir -p "$d"
		echo "    ro $d"
		binds="$binds --ro-bind $d $d"
		i=$((i + 1))
	done
	echo '    tmpfs /tmp'
	echo '    dev /dev'
	echo '    proc /proc'
	echo '  }'
	echo '}'
} >"$OUT/view10.pol"
# the links polexec copies from the host, for bwrap too
for l in bin sbin lib lib32 lib64 libx32; do
	[ -L "/$l" ] && binds="$binds --symlink $(readlink "/$l") /$l"
done
bwrap_args="$binds --tmpfs /tmp --dev /dev --proc /proc --unshare-pid"
"$POLC" build "$OUT/view10.pol" -o "$OUT/view10.polbin"
# shellcheck disable=SC2086
bwrap $bwrap_args /usr/bin/true || {
	echo "bench: bwrap cannot run /usr/bin/true here" >&2
	exit 1
}
"$POLEXEC" --record "$OUT/view10.record.json" "$OUT/view10.polbin" -- \
	/usr/bin/true
for l in view landlock; do
	t=$(jq -r ".layers.$l.tier" "$OUT/view10.record.json")
	[ "$t" = enforced ] || {
		echo "bench: the $l layer is $t, not enforced" >&2
		exit 1
	}
done

hyperfine -N --style basic --warmup 30 --runs "$RUNS" \
	--export-json "$OUT/view_startup.json" \
	-n polexec "$POLEXEC $OUT/view10.polbin -- /usr/bin/true" \
	-n bwrap "bwrap $bwrap_args /usr/bin/true" \
	-n true "/usr/bin/true" >"$OUT/hyperfine-view.txt"

interleaved() {
	python3 - "$RUNS" "$POLEXEC" "$OUT" "$bwrap_args" <<'PY'
import statistics, subprocess, sys, time
runs, polexec, out, bw = int(sys.argv[1]), sys.argv[2], sys.argv[3], sys.argv[4]
cmds = {
    "polexec": [polexec, out + "/view10.polbin", "--", "/usr/bin/true"],
    "bwrap": ["bwrap"] + bw.split() + ["/usr/bin/true"],
}
t = {n: [] for n in cmds}
for i in range(runs):
    for n, argv in cmds.items():
        t0 = time.perf_counter_ns()
        subprocess.run(argv, check=True, stdout=subprocess.DEVNULL)
        t[n].append(time.perf_counter_ns() - t0)
m = {n: statistics.median(v) / 1e6 for n, v in t.items()}
print("  polexec %8.3f ms  bwrap %8.3f ms  ratio %.2fx"
      % (m["polexec"], m["bwrap"], m["polexec"] / m["bwrap"]))
PY
}

t_p=$(hf_median "$OUT/view_startup.json" polexec)
t_b=$(hf_median "$OUT/view_startup.json" bwrap)
t_t=$(hf_median "$OUT/view_startup.json" true)
{
	echo "start-up with a view of 10 grants, tmpfs /tmp, /dev, /proc," \
		"a pid namespace; $RUNS runs each, medians (hyperfine -N):"
	awk -v p="$t_p" -v b="$t_b" -v t="$t_t" 'BEGIN {
		printf "  /usr/bin/true                      %8.3f ms\n", t * 1000
		printf "  polexec view10.polbin              %8.3f ms\n", p * 1000
		printf "  bwrap, the same view               %8.3f ms\n", b * 1000
		printf "  polexec / bwrap                    %8.2fx (target <= 0.8x)\n", p / b
	}'
	echo "interleaved, $RUNS rounds, medians:"
	interleaved
	echo "peak RSS (/usr/bin/time -v):"
	echo "  polexec                            $(peak_kib "$POLEXEC" \
		"$OUT/view10.polbin" -- /usr/bin/true) KiB"
	# shellcheck disable=SC2086
	echo "  bwrap                              $(peak_kib bwrap \
		$bwrap_args /usr/bin/true) KiB"
	echo "  polexec size                       $(stat -c %s "$POLEXEC")" \
		"bytes (target <= 163840)"
} | tee "$OUT/view_startup.txt"
