# Helpers shared by the bench scripts (sourced, not run).

# bench_setup RUNS TOOL...: from HERE (the script's folder) and the
# environment, ROOT, B (made absolute; default build), RUNS (default the
# first argument), OUT ($B/bench), POLEXEC (default $B/polexec) and POLC;
# then each TOOL, and /usr/bin/time, must be there, or the bench stops
# (exit 2) naming what is missing.
bench_setup() {
	ROOT=$(cd "$HERE/.." && pwd)
	B=${B:-build}
	case $B in /*) ;; *) B=$ROOT/$B ;; esac
	RUNS=${RUNS:-$1}
	shift
	OUT=$B/bench
	POLEXEC=${POLEXEC:-$B/polexec}
	POLC=$B/polc
	for tool in "$@"; do
		command -v "$tool" >/dev/null || {
			echo "bench: $tool is missing (make deps)" >&2
			exit 2
		}
	done
	[ -x /usr/bin/time ] ||
		{ echo "bench: /usr/bin/time is missing (make deps)" >&2; exit 2; }
}

# hf_median JSON NAME: the median, in seconds, of command NAME in a
# hyperfine --export-json file.
hf_median() {
	jq -r --arg n "$2" '.results[] | select(.command == $n) | .median' "$1"
}

# peak_kib CMD...: the peak resident set of CMD and its children, in KiB.
peak_kib() {
	/usr/bin/time -v "$@" 2>&1 >/dev/null |
		sed -n 's/.*Maximum resident set size (kbytes): //p'
}
