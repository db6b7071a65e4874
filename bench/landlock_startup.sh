#!/bin/sh
# SPDX-License-Identifier: MIT
#
# polexec's start-up cost with 50 Landlock rules against the seccomp-only
# baseline (issue 4). Both run /bin/true under the same seccomp filter
# (examples/hello.pol); the Landlock policy adds an fs section of 50 rules:
# rx /usr, ro /etc, and ro on 48 folders made here. So the difference is
# what the Landlock layer costs at start: the ABI probe, binding and opening
# 50 paths without following symlinks, the credential check of each
# readable folder (8 fstatat), 50 landlock_add_rule, landlock_restrict_self.
#
# Medians from one hyperfine run (no shell, warm-up first) and from an
# interleaved loop; peak RSS from /usr/bin/time -v. RUNS=N (default 300).
# Results are printed and kept in $B/bench/landlock_startup.{json,txt}.
set -eu

HERE=$(cd "$(dirname "$0")" && pwd)
. "$HERE/lib.sh"
bench_setup 300 hyperfine jq
mkdir -p "$OUT/ll-rules"

# The same filter in both policies: hello.pol's syscalls block.
syscalls=$(sed -n '/^  syscalls/,/^  }/p' "$ROOT/examples/hello.pol")
{
	echo 'policy "bench-landlock-50" {'
	echo "$syscalls"
	echo '  fs {'
	echo '    rx /usr'
	echo '    ro /etc'
	i=1
	while [ $i -le 48 ]; do
		d=$(printf '%s/ll-rules/d%02d' "$OUT" $i)
		mkdir -p "$d"
		echo "    ro $d"
		i=$((i + 1))
	done
	echo '  }'
	echo '}'
} >"$OUT/landlock50.pol"
"$POLC" build "$ROOT/examples/hello.pol" -o "$OUT/hello.polbin"
"$POLC" build "$OUT/landlock50.pol" -o "$OUT/landlock50.polbin"
rules=$("$POLC" dump "$OUT/landlock50.polbin" |
	sed -n 's/^  path rules: //p')
[ "$rules" = 50 ] || {
	echo "bench: expected 50 path rules, the artifact has $rules" >&2
	exit 1
}
# Both must really run /bin/true, or we would time a refusal.
for a in hello landlock50; do
	"$POLEXEC" "$OUT/$a.polbin" -- /bin/true || {
		echo "bench: /bin/true does not run under $a.polbin" >&2
		exit 1
	}
done
"$POLEXEC" --record "$OUT/landlock50.record.json" \
	"$OUT/landlock50.polbin" -- /bin/true
tier=$(jq -r .layers.landlock.tier "$OUT/landlock50.record.json")
[ "$tier" = enforced ] || {
	echo "bench: the Landlock layer is $tier, not enforced" >&2
	exit 1
}

hyperfine -N --style basic --warmup 30 --runs "$RUNS" \
	--export-json "$OUT/landlock_startup.json" \
	-n seccomp "$POLEXEC $OUT/hello.polbin -- /bin/true" \
	-n landlock50 "$POLEXEC $OUT/landlock50.polbin -- /bin/true" \
	-n true "/bin/true" >"$OUT/hyperfine-landlock.txt"

median() {
	hf_median "$OUT/landlock_startup.json" "$1"
}

interleaved() {
	python3 - "$RUNS" "$POLEXEC" "$OUT" <<'PY'
import statistics, subprocess, sys, time
runs, polexec, out = int(sys.argv[1]), sys.argv[2], sys.argv[3]
cmds = {
    "seccomp": [polexec, out + "/hello.polbin", "--", "/bin/true"],
    "landlock50": [polexec, out + "/landlock50.polbin", "--", "/bin/true"],
}
t = {n: [] for n in cmds}
for i in range(runs):
    for n, argv in cmds.items():
        t0 = time.perf_counter_ns()
        subprocess.run(argv, check=True, stdout=subprocess.DEVNULL)
        t[n].append(time.perf_counter_ns() - t0)
m = {n: statistics.median(v) / 1e6 for n, v in t.items()}
print("  seccomp only %8.3f ms  seccomp + 50 Landlock rules %8.3f ms"
      % (m["seccomp"], m["landlock50"]))
print("  ratio %.2fx, Landlock adds %.3f ms"
      % (m["landlock50"] / m["seccomp"], m["landlock50"] - m["seccomp"]))
PY
}

t_sc=$(median seccomp)
t_ll=$(median landlock50)
t_true=$(median true)
{
	echo "polexec start-up, 50 Landlock rules vs seccomp only," \
		"$RUNS runs each, medians (hyperfine -N):"
	awk -v s="$t_sc" -v l="$t_ll" -v t="$t_true" 'BEGIN {
		printf "  /bin/true                          %8.3f ms\n", t * 1000
		printf "  polexec hello.polbin (seccomp)     %8.3f ms\n", s * 1000
		printf "  polexec landlock50 (+50 rules)     %8.3f ms\n", l * 1000
		printf "  landlock50 / seccomp               %8.2fx\n", l / s
		printf "  the 50 Landlock rules add          %8.3f ms\n",
			(l - s) * 1000
	}'
	if command -v python3 >/dev/null; then
		echo "interleaved, $RUNS rounds, medians:"
		interleaved
	fi
	echo "peak RSS (/usr/bin/time -v):"
	echo "  seccomp only                       $(peak_kib "$POLEXEC" \
		"$OUT/hello.polbin" -- /bin/true) KiB"
	echo "  seccomp + 50 Landlock rules        $(peak_kib "$POLEXEC" \
		"$OUT/landlock50.polbin" -- /bin/true) KiB"
	echo "  polexec size                       $(stat -c %s "$POLEXEC")" \
		"bytes (target <= 131072)"
} | tee "$OUT/landlock_startup.txt"
