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

# bench_outer NAME ARGS...: re-executes the calling script ($0 ARGS, as
# root) in a throwaway network and mount namespace, and exits with it;
# there (BENCH_OUTER=NAME) it returns, for bench_veth to make the only
# way out.
bench_outer() {
	[ "${BENCH_OUTER:-}" = "$1" ] && return 0
	[ "$(id -u)" = 0 ] || {
		echo "bench: $1.sh needs root" >&2
		exit 2
	}
	bo_name=$1
	shift
	BENCH_OUTER=$bo_name exec unshare --net --mount --propagation private \
		sh "$0" "$@"
}

# bench_web NAME PAGES SIZE PORT: W, a scratch folder removed at exit,
# with run/ (empty; a tmpfs mounted there is unmounted at exit) and www/:
# PAGES pages p0.txt, p1.txt, ... and big, a file of SIZE (truncate -s);
# a web server (python3 http.server) on 127.0.0.1:PORT serving www/, its
# pid in SRV, where the bench adds its other servers' (killed at exit).
# The bench stops when the server does not answer within 5 s.
bench_web() {
	W=$(mktemp -d "/tmp/polc-bench-$1.XXXXXX")
	SRV=
	trap bench_web_cleanup EXIT
	mkdir -p "$OUT" "$W/www" "$W/run"
	i=0
	while [ $i -lt "$2" ]; do
		echo "page $i" >"$W/www/p$i.txt"
		i=$((i + 1))
	done
	truncate -s "$3" "$W/www/big"
	(cd "$W/www" && exec python3 -m http.server --bind 127.0.0.1 "$4" \
		>/dev/null 2>&1) &
	SRV=$!
	i=0
	until curl -s -o /dev/null "http://127.0.0.1:$4/p0.txt"; do
		i=$((i + 1))
		[ $i -lt 50 ] || { echo "bench: the web server did not start" >&2; exit 1; }
		sleep 0.1
	done
}

bench_web_cleanup() {
	# shellcheck disable=SC2086
	kill $SRV 2>/dev/null || :
	! mountpoint -q "$W/run" || umount "$W/run" || :
	rm -rf "$W"
}

# bench_policy NAME: the policy on stdin, in $W/NAME.pol, compiled into
# $W/NAME.polbin.
bench_policy() {
	cat >"$W/$1.pol" &&
		"$POLC" build "$W/$1.pol" -o "$W/$1.polbin" 2>/dev/null
}

# ms SECONDS: in milliseconds, two decimals; ratio A B: A / B, three.
ms() { awk -v s="$1" 'BEGIN { printf "%.2f", s * 1000 }'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.3f", a / b }'; }
# hf_rows JSON time|throughput NAME...: a row per NAME, its median in ms
# and its ratio to the first NAME's (time: NAME / first; throughput:
# first / NAME); NAME alone, without a ratio, for a "-" second argument
hf_rows() {
	_j=$1 _k=$2
	shift 2
	_base=$(hf_median "$_j" "$1")
	for _n in "$@"; do
		_m=$(hf_median "$_j" "$_n")
		case $_k in
		time) _r="  $(ratio "$_m" "$_base")x" ;;
		throughput) _r="  $(ratio "$_base" "$_m")x" ;;
		*) _r= ;;
		esac
		printf '  %-10s %s%s\n' "$_n" "$(ms "$_m")" "$_r"
	done
}
