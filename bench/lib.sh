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

# bench_veth: in a throwaway network namespace, lo up and the only way
# out a veth pair whose far end is in the same namespace and has no
# address, with default routes (v4, v6) via 10.77.1.2 / fd77:1::2 on it:
# pasta finds the routable interface it copies, and no packet can leave.
bench_veth() {
	ip link set lo up
	ip link add nv1 type veth peer name nv1p
	ip addr add 10.77.1.1/24 dev nv1
	ip -6 addr add fd77:1::1/64 dev nv1 nodad
	ip link set nv1 up
	ip link set nv1p up
	ip route add default via 10.77.1.2 dev nv1
	ip -6 route add default via fd77:1::2 dev nv1
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
