#!/bin/sh
# SPDX-License-Identifier: MIT
#
# Real workloads (issue 13) bare, under polexec with their preset, and
# under bubblewrap with the same view; one run, ROUNDS rounds (default 11),
# medians (and minimums), ratios to bare, peak RSS (/usr/bin/time -v). The
# workloads are tests/real's, larger:
#
#   shell   find | sort | head | xargs cat | sed | awk, tar czf, xargs wc
#           over 2,000 files (tests/real/shell.pol: std/shell)
#   python  json, sqlite3 (20,000 rows in a transaction), ssl's CAs,
#           subprocess, a multiprocessing pool (python.pol: std/python)
#   git     init, add and commit 300 files, branch, log, a local clone
#           (git.pol: std/git)
#   cc      make building 8 C files with gcc -O2 and running the program
#           (cc.pol: std/cc)
#   node    fs (500 files written, renamed, read) and child_process
#           (node.pol: std/npm)
#   start   /bin/true under shell's policy: what a box costs to set up
#           and take down
#   curl    200 requests to a web server on loopback, a connection each
#           (HTTP/1.0), and curl-ka: 50 requests on one connection
#           (HTTP/1.1 keep-alive); std/curl, `net none { loopback PORT }`:
#           through polexec's relay
#
# The policies are tests/real's .pol files, as a user writes them: the
# preset, the workspace, a net mode and limits (a cgroup as root). bwrap's
# view is read from the artifact (`polc dump`): the same binds, links,
# tmpfs, /dev, /proc, a pid namespace, a network namespace of its own for
# `net none`, the same environment; no seccomp, Landlock or limits. bwrap
# cannot forward one port itself; for curl its box gets one the way bwrap
# users give it: socat in the box listens on 127.0.0.1:PORT and connects
# to a Unix socket bound into the box, where socat outside connects to the
# host's port (a process a connection on each side: socat's fork). curl's
# fourth way, bwrap-hostnet, shares the host's network instead: no
# isolation, the floor. Bare runs with that environment and nothing else.
# Each round runs every workload three (curl: four) ways in a rotating
# order, each in a fresh copy of its workspace.
#
# Needs root: the script re-executes itself in a network namespace of its
# own (unshare --net), whose loopback alone the web server listens on; the
# server ends with the script (timeout). Results are printed and kept in
# $B/bench/real.txt. Nothing here is a test: a run whose outputs differ
# between the three ways stops the benchmark.
set -eu

HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/.." && pwd)
B=${B:-build}
case $B in /*) ;; *) B=$ROOT/$B ;; esac
ROUNDS=${ROUNDS:-11}
PORT=39451
POLC=$B/polc
POLEXEC=$B/polexec

for tool in bwrap python3 unshare ip gcc make git node curl socat; do
	command -v $tool >/dev/null || {
		echo "bench: $tool is missing (make deps)" >&2
		exit 2
	}
done
[ -x /usr/bin/time ] || { echo "bench: /usr/bin/time is missing" >&2; exit 2; }
for f in "$POLC" "$POLEXEC"; do
	[ -x "$f" ] || { echo "bench: $f is missing: make" >&2; exit 2; }
done
if [ -z "${REAL_BENCH_NETNS:-}" ]; then
	[ "$(id -u)" = 0 ] || { echo "bench: needs root (unshare --net)" >&2; exit 2; }
	REAL_BENCH_NETNS=1 exec unshare --net sh "$0" "$@"
fi
# lo, and a veth pair with the default route: pasta, which carries the
# curl box's loopback port, wants an external interface to copy. Both ends
# are in this namespace, which has no link out and does not forward: a
# packet routed there is dropped.
ip link set lo up &&
	ip link add bench0 type veth peer name bench1 &&
	ip addr add 10.78.0.1/24 dev bench0 &&
	ip link set bench0 up && ip link set bench1 up &&
	ip route add default via 10.78.0.2 dev bench0 ||
	{ echo "bench: cannot set up the namespace's interfaces" >&2; exit 1; }

OUT=$B/bench
mkdir -p "$OUT"
W=$(mktemp -d /tmp/polc-bench-real.XXXXXX)
chmod 755 "$W"
SERVER=
# shellcheck disable=SC2086 # pids
trap '[ -z "$SERVER" ] || kill $SERVER 2>/dev/null; rm -rf "$W"' EXIT
FX=$W/fx
mkdir -p "$FX/start" "$FX/shell/src" "$FX/python" "$FX/git" "$FX/cc" \
	"$FX/node" "$FX/curl" "$W/www" "$W/art"

# --- the fixtures: each workload's workspace and command ----------------------

python3 - "$FX" "$W/www" <<'PY'
import os, sys
fx, www = sys.argv[1], sys.argv[2]
for d in range(20):
    os.makedirs(f"{fx}/shell/src/d{d:02}")
    for f in range(100):
        with open(f"{fx}/shell/src/d{d:02}/f{f:03}.txt", "w") as o:
            o.write("".join(f"line {d} {f} {i} alpha beta\n" for i in range(40)))
os.makedirs(f"{fx}/git/files")
for f in range(300):
    with open(f"{fx}/git/files/f{f:04}.txt", "w") as o:
        o.write(f"file {f}\n" * 20)
for f in range(200):
    with open(f"{www}/p{f}.txt", "w") as o:
        o.write(f"page {f}\n" * 100)
PY
cat >"$FX/python/mods.py" <<'EOF'
import json, multiprocessing, sqlite3, ssl, subprocess

def square(x):
    return x * x

if __name__ == "__main__":
    data = [{"n": i, "s": str(i) * 5} for i in range(50000)]
    back = json.loads(json.dumps(data))
    db = sqlite3.connect("t.db")
    db.execute("create table t (x integer, s text)")
    with db:
        db.executemany("insert into t values (?, ?)",
                       ((d["n"], d["s"]) for d in back[:20000]))
    total = db.execute("select sum(x) from t").fetchone()[0]
    ctx = ssl.create_default_context()
    sub = subprocess.run(["sh", "-c", "echo $((6 * 7))"],
                         capture_output=True, text=True).stdout.strip()
    with multiprocessing.Pool(2) as pool:
        mp = sum(pool.map(square, range(1000)))
    print(total, ctx.cert_store_stats()["x509_ca"] > 0, sub, mp)
EOF
i=0
while [ $i -lt 8 ]; do
	printf 'int f%d(int x) { int s = 0; for (int i = 0; i < x; i++) s += i %% (%d + 3); return s; }\n' \
		$i $i >"$FX/cc/f$i.c"
	i=$((i + 1))
done
{
	echo '#include <stdio.h>'
	i=0
	while [ $i -lt 8 ]; do echo "int f$i(int);"; i=$((i + 1)); done
	echo 'int main(void) { int s = 0;'
	i=0
	while [ $i -lt 8 ]; do echo "s += f$i(1000);"; i=$((i + 1)); done
	printf '%s\n' 'printf("%d\n", s); return 0; }'
} >"$FX/cc/main.c"
printf 'OBJS = main.o f0.o f1.o f2.o f3.o f4.o f5.o f6.o f7.o\nprog: $(OBJS)\n\t$(CC) -o $@ $(OBJS)\n%%.o: %%.c\n\t$(CC) -O2 -c $<\n' \
	>"$FX/cc/Makefile"
cat >"$FX/node/n.js" <<'EOF'
const fs = require("fs"), cp = require("child_process");
fs.mkdirSync("nd/sub", { recursive: true });
for (let i = 0; i < 500; i++) fs.writeFileSync(`nd/f${i}.txt`, `node ${i}\n`.repeat(20));
for (let i = 0; i < 500; i++) fs.renameSync(`nd/f${i}.txt`, `nd/sub/f${i}.txt`);
let n = 0;
for (const f of fs.readdirSync("nd/sub")) n += fs.readFileSync(`nd/sub/${f}`).length;
let s = 0;
for (let i = 0; i < 10; i++) s += +cp.execFileSync("sh", ["-c", `echo ${i}`], { encoding: "utf8" });
console.log(n, s);
EOF

# Each workload: its policy, net none or loopback, and its command.
SH_CMD='find src -type f | sort | head -n 400 | xargs cat | sed "s/alpha/ALPHA/" |
awk "{ n += length(\$0) } END { print n }"
tar czf out.tgz src && find src -name "*.txt" | xargs -n 100 wc -l | tail -n 1'
GIT_CMD='set -e
git init -q -b main r && cp -r files r/ && cd r
git -c user.email=b@test.invalid -c user.name=B add .
git -c user.email=b@test.invalid -c user.name=B commit -qm one
git branch topic && git log --oneline | wc -l && cd .. && git clone -q r c &&
ls c/files | wc -l'
CC_CMD='make -s CC=gcc && ./prog'
CURL_CMD="mkdir -p got && curl -sS --fail -o 'got/#1' 'http://127.0.0.1:$PORT/p[0-199].txt' && cat got/* | wc -l"
CURL_KA_CMD="mkdir -p got && curl -sS --fail -o 'got/#1' 'http://127.0.0.1:$((PORT + 1))/p[0-49].txt' && cat got/* | wc -l"

cat >"$W/curl.pol" <<EOF
policy "bench-curl" {
  use std/curl
  fs { rw \${WORKSPACE} }
  net none { loopback $PORT $((PORT + 1)) }
  syscalls default kill_process {}
  limits { memory 1GiB; pids 128; wall 2m }
  env { set HOME=\${WORKSPACE} }
}
EOF
# tests/real's policies; git's and node's without the loopback port of
# the suite's git daemon and npm registry, which these workloads do not use
for n in shell python git cc node; do
	sed 's/net none { loopback [0-9]* }/net none/' "$ROOT/tests/real/$n.pol" \
		>"$W/$n.pol"
	"$POLC" build -I "$ROOT/stdlib-policies" "$W/$n.pol" \
		-o "$W/art/$n.polbin" 2>"$W/art/$n.log" ||
		{ cat "$W/art/$n.log" >&2; exit 1; }
done
"$POLC" build -I "$ROOT/stdlib-policies" "$W/curl.pol" -o "$W/art/curl.polbin"

# PORT: HTTP/1.0, a connection a request; PORT + 1: HTTP/1.1, so that curl
# keeps one connection (and TCP_NODELAY, as servers set it)
for v in 1.0 1.1; do
	p=$PORT
	[ $v = 1.0 ] || p=$((PORT + 1))
	timeout 900 /usr/bin/python3 -c 'import functools, http.server, sys
h = http.server.SimpleHTTPRequestHandler
h.protocol_version = "HTTP/" + sys.argv[3]
h.disable_nagle_algorithm = True
http.server.ThreadingHTTPServer(("127.0.0.1", int(sys.argv[2])),
    functools.partial(h, directory=sys.argv[1])).serve_forever()' \
		"$W/www" "$p" "$v" >"$W/server-$v.log" 2>&1 &
	SERVER="$SERVER $!"
	i=0
	until curl -s -o /dev/null "http://127.0.0.1:$p/p0.txt"; do
		i=$((i + 1))
		[ $i -lt 50 ] || { echo "bench: no web server on $p" >&2; exit 1; }
		sleep 0.1
	done
done

# bwrap's bridges to the two ports (see the top): the outer socat of each,
# a Unix socket in $W/relay, which the curl boxes see as /run/relay.
mkdir -p "$W/relay"
for p in $PORT $((PORT + 1)); do
	timeout 900 socat "UNIX-LISTEN:$W/relay/$p.sock,fork,mode=0777" \
		"TCP:127.0.0.1:$p" >"$W/relay-$p.log" 2>&1 &
	SERVER="$SERVER $!"
done
i=0
until [ -S "$W/relay/$PORT.sock" ] && [ -S "$W/relay/$((PORT + 1)).sock" ]; do
	i=$((i + 1))
	[ $i -lt 50 ] || { echo "bench: no socat bridge" >&2; exit 1; }
	sleep 0.1
done
# The box's end, before the command: socat listening on the box's
# 127.0.0.1:P, waited for in /proc/net/tcp (state 0A, LISTEN).
BRIDGE='p=$1; shift
socat "TCP-LISTEN:$p,bind=127.0.0.1,fork,reuseaddr" "UNIX-CONNECT:/run/relay/$p.sock" &
hex=$(printf %04X "$p"); i=0
until grep -q ":$hex 00000000:0000 0A" /proc/net/tcp; do
	i=$((i + 1)); [ $i -lt 5000 ] || exit 111
done
exec "$@"'

# bwrap_view ART NET: bwrap's arguments for the view of ART (read from
# polc dump), the workspace $W/ws, and a network namespace of its own
# unless NET is "shared". bwrap mounts in the order given: a path before
# the paths below it (the workspace is under /tmp).
bwrap_view() {
	"$POLC" dump "$1" | awk -v ws="$W/ws" '
		/^\[view\]/ { on = 1; next }
		/^\[/ { on = 0 }
		!on { next }
		{ gsub(/\$\{WORKSPACE\}/, ws); sub(/,$/, "", $2) }
		$1 == "bind" && / rw / { print $2 "\t--bind " $2 " " $2 }
		$1 == "bind" && / ro / { print $2 "\t--ro-bind-try " $2 " " $2 }
		$1 == "tmpfs" && $3 == "size" { print $2 "\t--size " $4 " --tmpfs " $2; next }
		$1 == "tmpfs" { print $2 "\t--tmpfs " $2 }
		$1 == "dev" { print $2 "\t--dev " $2 }
		$1 == "proc" { print $2 "\t--proc " $2 }
		$1 == "link" { print $2 "\tlink" }' | sort |
		while IFS="$(printf '\t')" read -r path op; do
			# the links polexec copies from the host, where it has them
			if [ "$op" = link ]; then
				[ ! -L "$path" ] ||
					printf ' --symlink %s %s' "$(readlink "$path")" "$path"
			else
				printf ' %s' "$op"
			fi
		done
	printf ' --unshare-pid --die-with-parent'
	[ "$2" = shared ] || printf ' --unshare-net'
	[ "$2" != bridged ] || printf ' --bind %s /run/relay' "$W/relay"
	printf ' --chdir %s' "$W/ws"
}

{
	for n in shell python git cc node; do
		printf '%s\t%s\n' "$n" "$(bwrap_view "$W/art/$n.polbin" none)"
	done
	for n in curl curl-ka; do
		printf '%s\t%s\n' "$n" "$(bwrap_view "$W/art/curl.polbin" bridged)"
		printf '%s/hostnet\t%s\n' "$n" \
			"$(bwrap_view "$W/art/curl.polbin" shared)"
	done
	printf 'start\t%s\n' "$(bwrap_view "$W/art/shell.polbin" none)"
} >"$W/views"

python3 - "$W" "$ROUNDS" "$POLEXEC" "$OUT/real.txt" \
	"$SH_CMD" "$GIT_CMD" "$CC_CMD" "$CURL_CMD" "$CURL_KA_CMD" "$BRIDGE" \
	"$PORT" <<'PY'
import os, shutil, statistics, subprocess, sys, time
w, rounds, polexec, report = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4]
sh_cmd, git_cmd, cc_cmd, curl_cmd, curl_ka_cmd, bridge = sys.argv[5:11]
port = int(sys.argv[11])
ws = w + "/ws"
views = dict(l.rstrip("\n").split("\t", 1) for l in open(w + "/views"))
cmds = {
    "start": ["/bin/true"],
    "shell": ["/bin/sh", "-c", sh_cmd],
    "python": ["/usr/bin/python3", "mods.py"],
    "git": ["/bin/sh", "-c", git_cmd],
    "cc": ["/bin/sh", "-c", cc_cmd],
    "node": ["/usr/bin/node", "n.js"],
    "curl": ["/bin/sh", "-c", curl_cmd],
    "curl-ka": ["/bin/sh", "-c", curl_ka_cmd],
}
# REAL_ONLY="curl curl-ka": those workloads alone (a quick look, not a
# report to keep)
only = os.environ.get("REAL_ONLY", "").split()
if only:
    cmds = {n: c for n, c in cmds.items() if n in only}
# the policy of each (curl-ka: curl's, start: shell's), and its workspace
# (fx/NAME, or its policy's)
art = {n: n for n in cmds}
art["curl-ka"] = "curl"
art["start"] = "shell"
# the box's environment, as the policies set it (polexec itself runs in
# the caller's: the box's HOME is the policy's)
env = {"PATH": "/usr/local/bin:/usr/bin:/bin", "HOME": ws, "LANG": "C.UTF-8"}
setenv = []
for k, v in env.items():
    setenv += ["--setenv", k, v]

# curl's port in the box (curl-ka's is the next one), for bwrap's bridge
bridged = {"curl": port, "curl-ka": port + 1}

def argv(way, name, cmd):
    if way == "bare":
        return cmd
    if way == "polexec":
        return [polexec, "--var", "WORKSPACE=" + ws,
                f"{w}/art/{art[name]}.polbin", "--"] + cmd
    if way == "bwrap-hostnet":
        return ["bwrap"] + views[name + "/hostnet"].split() + \
            ["--clearenv"] + setenv + ["--"] + cmd
    if name in bridged:
        cmd = ["/bin/sh", "-c", bridge, "bridge", str(bridged[name])] + cmd
    return ["bwrap"] + views[name].split() + ["--clearenv"] + setenv + \
        ["--"] + cmd

def peak(path):
    return next(int(l.split(":")[1]) for l in open(path)
                if "Maximum resident set size" in l)

# Peak RSS twice: the workload's, by /usr/bin/time -v inside (the same
# for the three ways: its file is in the workspace), and the way's whole
# tree's, by /usr/bin/time -v outside. bwrap's outer figure is bwrap's
# alone: its first process takes the box's exit status from its init over
# an eventfd and exits without reaping it, so getrusage never counts the
# box. polexec reaps its box, so its outer figure is the box's peak.
def run(way, name):
    shutil.rmtree(ws, ignore_errors=True)
    fx = f"{w}/fx/{name}"
    shutil.copytree(fx if os.path.isdir(fx) else f"{w}/fx/{art[name]}", ws,
                    symlinks=True)
    os.chmod(ws, 0o755)
    inner = ["/usr/bin/time", "-v", "-o", ws + "/.rss"] + cmds[name]
    t0 = time.perf_counter_ns()
    p = subprocess.run(["/usr/bin/time", "-v", "-o", w + "/rss"] +
                       argv(way, name, inner),
                       cwd=ws, env=os.environ if way == "polexec" else env,
                       stdin=subprocess.DEVNULL,
                       capture_output=True, text=True)
    ms = (time.perf_counter_ns() - t0) / 1e6
    if p.returncode != 0:
        sys.exit(f"bench: {name} {way} exited {p.returncode}:\n{p.stderr}")
    return ms, (peak(ws + "/.rss"), peak(w + "/rss")), p.stdout

def ways_of(n):
    return ["bare", "polexec", "bwrap"] + \
        (["bwrap-hostnet"] if n in bridged else [])
t = {(n, x): [] for n in cmds for x in ways_of(n)}
rss = {(n, x): [] for n in cmds for x in ways_of(n)}
for r in range(rounds + 1):
    for n in cmds:
        outs = {}
        ways = ways_of(n)
        for x in ways[r % len(ways):] + ways[:r % len(ways)]:
            ms, kib, out = run(x, n)
            outs[x] = out
            if r > 0:  # round 0 warms the caches
                t[n, x].append(ms)
                rss[n, x].append(kib)
        if len(set(outs.values())) != 1:
            sys.exit(f"bench: {n}: the ways printed different things: {outs}")
med = {k: statistics.median(v) for k, v in t.items()}
mrss = {k: statistics.median(r[0] for r in v) for k, v in rss.items()}
orss = {k: statistics.median(r[1] for r in v) for k, v in rss.items()}
low = {k: min(v) for k, v in t.items()}
lines = [f"{rounds} rounds, medians (minimums): wall time in ms; ratios and "
         "differences of the medians to bare",
         "| workload | bare | polexec | bwrap | polexec/bare | bwrap/bare | polexec - bare | bwrap - bare |",
         "|---|---|---|---|---|---|---|---|"]
for n in cmds:
    b, p, q = med[n, "bare"], med[n, "polexec"], med[n, "bwrap"]
    lines.append(f"| {n} | {b:.1f} ({low[n, 'bare']:.1f}) | "
                 f"{p:.1f} ({low[n, 'polexec']:.1f}) | "
                 f"{q:.1f} ({low[n, 'bwrap']:.1f}) | {p / b:.3f}x | "
                 f"{q / b:.3f}x | {p - b:+.1f} | {q - b:+.1f} |")
# Paired: each round runs the three ways back to back, so the ratio
# within a round cancels what drifts between rounds (this machine's
# medians spread by a fifth); the median of those ratios, and the
# rounds' spread of them (lowest and highest).
lines += ["", "paired: the median of each round's ratio to that round's bare "
          "(lowest - highest)",
          "| workload | polexec/bare | bwrap/bare | polexec/bwrap |",
          "|---|---|---|---|"]
def paired(a, c):
    r = [x / y for x, y in zip(t[n, a], t[n, c])]
    return f"{statistics.median(r):.3f}x ({min(r):.2f} - {max(r):.2f})"
for n in cmds:
    lines.append(f"| {n} | {paired('polexec', 'bare')} | "
                 f"{paired('bwrap', 'bare')} | {paired('polexec', 'bwrap')} |")
hn = [n for n in cmds if n in bridged]
if hn:
    lines += ["", "curl's fourth way: bwrap sharing the host's network (no "
              "isolation), medians and paired ratios",
              "| workload | bwrap-hostnet | bwrap-hostnet/bare | "
              "polexec/bwrap-hostnet |", "|---|---|---|---|"]
    for n in hn:
        lines.append(f"| {n} | {med[n, 'bwrap-hostnet']:.1f} | "
                     f"{paired('bwrap-hostnet', 'bare')} | "
                     f"{paired('polexec', 'bwrap-hostnet')} |")
lines += ["", "peak RSS in KiB, medians: the workload's (time -v inside), "
          "and the way's tree (time -v outside; bwrap: bwrap's own)",
          "| workload | bare | polexec | bwrap | polexec, outside | bwrap, outside |",
          "|---|---|---|---|---|---|"]
for n in cmds:
    lines.append(f"| {n} | {mrss[n, 'bare']:,.0f} | {mrss[n, 'polexec']:,.0f} | "
                 f"{mrss[n, 'bwrap']:,.0f} | {orss[n, 'polexec']:,.0f} | "
                 f"{orss[n, 'bwrap']:,.0f} |")
text = "\n".join(lines)
print(text)
open(report, "w").write(text + "\n")
PY
