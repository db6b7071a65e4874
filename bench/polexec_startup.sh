#!/bin/sh
# SPDX-License-Identifier: MIT
#
# polexec's start-up cost and size (issue 3, bench (a) and (c)).
#
# (a) `polexec hello.polbin -- /bin/true` against `/bin/true` and
#     `bwrap --ro-bind / / /bin/true`, all in one hyperfine run (no shell,
#     warm-up first), as medians and ratios. Target: polexec adds at most
#     1 ms over /bin/true. `polexec --version` is timed too: the cost of
#     exec'ing polexec at all, the floor of what it can add on this kernel.
#     Peak RSS of each from /usr/bin/time -v.
# (c) polexec's size, stripped and static. Target: at most 128 KiB.
#
# RUNS=N overrides the number of runs (default 300). Results are printed
# and kept in $B/bench/polexec_startup.{json,txt}.
set -eu

HERE=$(cd "$(dirname "$0")" && pwd)
. "$HERE/lib.sh"
bench_setup 300 hyperfine jq bwrap
mkdir -p "$OUT"
"$B/polc" build "$ROOT/examples/hello.pol" -o "$OUT/hello.polbin"
# The policy must really let /bin/true run, or we would time a refusal.
"$POLEXEC" "$OUT/hello.polbin" -- /bin/true || {
	echo "bench: /bin/true does not run under hello.pol" >&2
	exit 1
}

hyperfine -N --style basic --warmup 30 --runs "$RUNS" \
	--export-json "$OUT/polexec_startup.json" \
	-n true "/bin/true" \
	-n polexec "$POLEXEC $OUT/hello.polbin -- /bin/true" \
	-n bwrap "bwrap --ro-bind / / /bin/true" \
	-n exec-floor "$POLEXEC --version" >"$OUT/hyperfine.txt"

median() {
	hf_median "$OUT/polexec_startup.json" "$1"
}

# The same commands, interleaved round by round, timed with a monotonic
# clock around each spawn; the spawn overhead is common to all four.
interleaved() {
	python3 - "$RUNS" "$POLEXEC" "$OUT/hello.polbin" <<'PY'
import statistics, subprocess, sys, time
runs, polexec, art = int(sys.argv[1]), sys.argv[2], sys.argv[3]
cmds = {
    "true": ["/bin/true"],
    "polexec": [polexec, art, "--", "/bin/true"],
    "bwrap": ["bwrap", "--ro-bind", "/", "/", "/bin/true"],
    "exec-floor": [polexec, "--version"],
}
t = {n: [] for n in cmds}
for i in range(runs):
    for n, argv in cmds.items():
        t0 = time.perf_counter_ns()
        subprocess.run(argv, check=True, stdout=subprocess.DEVNULL)
        t[n].append(time.perf_counter_ns() - t0)
m = {n: statistics.median(v) / 1e6 for n, v in t.items()}
print("  /bin/true %8.3f ms  polexec %8.3f ms  bwrap %8.3f ms  "
      "exec-floor %8.3f ms" % (m["true"], m["polexec"], m["bwrap"],
                               m["exec-floor"]))
print("  polexec / true %.2fx  polexec / bwrap %.2fx  polexec adds "
      "%.3f ms" % (m["polexec"] / m["true"], m["polexec"] / m["bwrap"],
                   m["polexec"] - m["true"]))
PY
}

t_true=$(median true)
t_polexec=$(median polexec)
t_bwrap=$(median bwrap)
t_floor=$(median exec-floor)
size=$(stat -c %s "$POLEXEC")
linkage=$(file -b "$POLEXEC" | grep -o 'statically linked' || echo dynamic)

{
	echo "polexec start-up, $RUNS runs each, medians (hyperfine -N):"
	awk -v t="$t_true" -v p="$t_polexec" -v w="$t_bwrap" -v f="$t_floor" '
	BEGIN {
		printf "  /bin/true                      %8.3f ms\n", t * 1000
		printf "  polexec hello.polbin -- true   %8.3f ms\n", p * 1000
		printf "  bwrap --ro-bind / / true       %8.3f ms\n", w * 1000
		printf "  polexec / true                 %8.2fx\n", p / t
		printf "  polexec / bwrap                %8.2fx\n", p / w
		printf "  polexec adds                   %8.3f ms (target <= 1 ms)\n",
			(p - t) * 1000
		printf "  of which exec of polexec       %8.3f ms (polexec --version)\n",
			f * 1000
		printf "  polexec'"'"'s own work             %8.3f ms (adds - exec)\n",
			(p - t - f) * 1000
	}'
	if command -v python3 >/dev/null; then
		echo "interleaved (each round runs every command once, so load" \
			"changes hit all alike), $RUNS rounds, medians:"
		interleaved
	fi
	echo "peak RSS (max of the process and its children, /usr/bin/time -v):"
	echo "  /bin/true                      $(peak_kib /bin/true) KiB"
	echo "  polexec hello.polbin -- true   $(peak_kib "$POLEXEC" \
		"$OUT/hello.polbin" -- /bin/true) KiB"
	echo "  bwrap --ro-bind / / true       $(peak_kib bwrap --ro-bind / / \
		/bin/true) KiB"
	echo "size:"
	echo "  polexec                        $size bytes" \
		"($((size / 1024)) KiB, $linkage; target <= 128 KiB static)"
} | tee "$OUT/polexec_startup.txt"

[ "$size" -le $((128 * 1024)) ] && [ "$linkage" = "statically linked" ]
