#!/bin/sh
# SPDX-License-Identifier: MIT
#
# make demo: the real box, not the weakest one. examples/agent-local.pol
# (its own view of the files, net none with one host loopback port
# relayed, limits, a secret file) is compiled and shown; a model server
# of the demo's own on 127.0.0.1:8088 answers; a script in the box reads
# its key, asks the server, then tries what the policy refuses; the run
# record names the layers and the denial; the prover finds what a wider
# candidate policy adds; polc selftest probes the box on this host.
# Everything it writes is in $B/demo.
set -u
B=$(cd "${B:-build}" && pwd) || exit 1
D=$B/demo
PORT=8088

step() { printf '\n== %s\n' "$*"; }

rm -rf "$D" && mkdir -p "$D/ws" || exit 1
chmod 755 "$D" "$D/ws"
printf 'sk-demo-0123456789\n' >"$D/model.key" && chmod 644 "$D/model.key"

step "1. compile examples/agent-local.pol: the policy as polc understood it"
"$B/polc" build examples/agent-local.pol -o "$D/agent.polbin" 2>/dev/null ||
	exit 1
"$B/polc" dump "$D/agent.polbin" | sed -n '/^policy /,/^}/p' |
	grep -v '^    allow' | head -n 40
echo "  (the syscalls block's allow lines are left out here: polc dump shows them)"

step "2. a model server of the demo's own on 127.0.0.1:$PORT"
cat >"$D/server.py" <<'PY'
import http.server, sys
class H(http.server.BaseHTTPRequestHandler):
    def do_GET(self):
        ok = self.headers.get("Authorization") == "Bearer sk-demo-0123456789"
        self.send_response(200 if ok else 401)
        self.end_headers()
        self.wfile.write(b"model says: hello, box\n" if ok else b"no key\n")
    def log_message(self, *a):
        pass
s = http.server.HTTPServer(("127.0.0.1", int(sys.argv[1])), H)
s.timeout = 1
print("ready", flush=True)
for _ in range(60):
    s.handle_request()
PY
timeout 60 python3 "$D/server.py" "$PORT" >"$D/server.log" 2>&1 &
server=$!
i=0
until grep -q ready "$D/server.log" 2>/dev/null; do
	i=$((i + 1))
	[ $i -lt 50 ] || { echo "the server did not start: $(cat "$D/server.log")"; exit 1; }
	sleep 0.1
done
echo "  listening (pid $server)"

step "3. a script in the box: its key, the model, then what the policy refuses"
cat >"$D/ws/task.py" <<'PY'
import os, socket, urllib.request
key = open("/run/secrets/MODEL_KEY").read().strip()
print("key from /run/secrets/MODEL_KEY:", key[:7] + "...")
print("MODEL_KEY in the environment:", os.environ.get("MODEL_KEY"))
req = urllib.request.Request("http://127.0.0.1:8088/",
                             headers={"Authorization": "Bearer " + key})
print("GET 127.0.0.1:8088 ->", urllib.request.urlopen(req, timeout=5).read().decode().strip())
for what, act in [
    ("read /etc/shadow", lambda: open("/etc/shadow").read()),
    ("read ~/.ssh of the caller", lambda: os.listdir(os.path.expanduser("~root/.ssh"))),
    ("connect 127.0.0.1:22", lambda: socket.create_connection(("127.0.0.1", 22), 2)),
    ("setuid(0)", lambda: os.setuid(0)),
]:
    try:
        act()
        print(f"{what}: allowed")
    except OSError as e:
        print(f"{what}: refused ({e.strerror})")
PY
(cd "$D/ws" && "$B/polexec" --record ../run.json \
	--var WORKSPACE="$PWD" --var MODEL_KEY_FILE="$PWD/../model.key" \
	../agent.polbin -- python3 task.py) 2>&1 | sed 's/^/  box> /'
kill "$server" 2>/dev/null

step "4. the run record: each layer's tier, and the denial it names"
jq -r '.layers | to_entries[] | "  \(.key): \(.value.tier)\(if .value.mode then " (" + .value.mode + ")" else "" end)"' "$D/run.json"
jq -r '.denials[] | "  denial: \(.layer) \(.syscall // .destination) \(.action) by \(.by // "-") (\(.rule // ""))"' "$D/run.json"
echo "  (the whole record: $D/run.json)"

step "5. a candidate that widens the policy: polc check finds what it adds"
sed -e 's/loopback 8088/loopback 8088 5432/' \
	-e 's|rwx ${WORKSPACE}|rwx ${WORKSPACE}\n    ro /etc|' \
	examples/agent-local.pol >"$D/candidate.pol"
"$B/polc" check --boundary examples/agent-local.pol "$D/candidate.pol"
echo "  (exit $?: 1 is \"exceeds\", with the witnesses above)"

step "6. polc selftest: does the policy hold on this host, as $(id -un)?"
"$B/polc" selftest "$D/agent.polbin"
