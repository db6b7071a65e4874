#!/bin/sh
# SPDX-License-Identifier: MIT
#
# Real programs under the runtime presets (stdlib-policies/std/), as a
# user runs them: bash and coreutils, Debian's python3 (json, sqlite3,
# ssl, subprocess, multiprocessing, a venv, pip from an index on the
# host's loopback), git (a local clone, a fetch from a git daemon on the
# host's loopback), curl (one web server allowed, another refused), gcc,
# clang and make, Debian's node and npm (a tarball, a registry on the
# host's loopback), and the examples (examples/agent.pol, ci.pol,
# data.pol). Each policy is a preset, a workspace, a net mode and limits
# (the .pol files beside this script); their default kills, so a call no
# rule covers ends the program and its exit status shows it.
#
# Each test asserts what the programs did (their output, the files they
# left, read back outside the box) and what the run record says: every
# layer enforced, nothing blocked unless the test tried it, no denial.
# Where a test is refused something, a twin shows the same thing working
# where the policy allows it.
#
# Safety: as tests/net, the script re-executes itself in throwaway outer
# network, mount and pid namespaces (tests/net/netlab.sh) whose only
# "internet" is test hosts; its "host loopback" is that namespace's, and
# every server (python3 -m http.server, git daemon) is the suite's own,
# bounded by timeout(1) and killed at the end. No packet reaches a real
# address. Needs root; as root it runs twice: as root, then as uid 65534
# over a copy of the binaries and artifacts.
#
# Ends with "real: N passed, N failed"; REAL_ONLY="t_a t_b" runs only
# those tests; B=DIR picks the build folder.
# shellcheck source-path=SCRIPTDIR
set -u

HERE=$(cd "$(dirname "$0")" && pwd)
BOX_SECS=${REAL_BOX_SECS:-120}

passed=0
failed=0
failures=
WHO_RUNS="uid $(id -u)"

# expect..., in_scratch, records_check: tests/lib.sh; the laboratory,
# the copy for the uid 65534 pass, box_stderr, box_ran and rec:
# tests/net/netlab.sh (both copied beside bin/run.sh for that pass)
. "$HERE/../lib.sh"
# shellcheck source=../net/netlab.sh
. "$HERE/../net/netlab.sh"
suite_paths

# Host loopback ports of the suite's servers (the policies name them).
PORT_PIP=39411
PORT_GIT=39412
PORT_NPM=39413
# The pip index again, on a port no policy lists.
PORT_PIP_OTHER=39414
# The web servers on test hosts h1 and h2.
PORT_WEB=8000

# --- helpers -----------------------------------------------------------------

# rbox ART [POLEXEC OPTIONS...] -- CMD...: CMD in a box of $ART/ART.polbin,
# started in the workspace $T/ws (bound as ${WORKSPACE}), with a run
# record in $T/rec.json: OUT, ERR, RC. Returns 1 (and says so) when
# polexec refused (exit 125) or did not end within BOX_SECS.
rbox() {
	rb_art=$ART/$1.polbin
	shift
	rb_opts=
	while [ $# -gt 0 ] && [ "$1" != -- ]; do
		rb_opts="$rb_opts $1"
		shift
	done
	shift
	mkdir -p "$T/ws" || return 1
	# The namespace backend, as for any caller: root would get the cgroup
	# programs (docs/EGRESS.md), which tests/net checks.
	# shellcheck disable=SC2086
	(cd "$T/ws" && exec timeout -k 5 "$BOX_SECS" "$POLEXEC" \
		--net-backend=namespace \
		--record "$T/rec.json" --var WORKSPACE="$T/ws" $rb_opts \
		"$rb_art" -- "$@") >"$T/stdout" 2>"$T/stderr" </dev/null
	box_ran $? # netlab.sh
}

# ran_clean DESC [MODE]: the box exited 0 and its record says so; every
# layer enforced (net in MODE, default none), nothing blocked, and no
# denial.
ran_clean() {
	rc_mode=${2:-none}
	expect "$1: exit" "$RC" 0 &&
		expect "$1: record's exit" "$(rec .exit_code)" 0 &&
		expect "$1: seccomp" "$(rec .layers.seccomp.tier)" enforced &&
		expect "$1: landlock" "$(rec .layers.landlock.tier)" enforced &&
		expect "$1: view" "$(rec .layers.view.tier)/$(rec .layers.view.root)" \
			enforced/own &&
		expect "$1: net" "$(rec .layers.net.tier)/$(rec .layers.net.mode)" \
			"enforced/$rc_mode" &&
		expect "$1: blocked" "$(rec '.layers.net.blocked // [] | length')" 0 &&
		denials_are "$1" ""
}

# denials_are DESC EXPECTED: polexec observed the box's seccomp denials
# (docs/OBSERVE.md: each errno and kill_process answer is recorded), and
# the record's denials, one line each, in the order first seen, are
# EXPECTED: "seccomp CALL ACTION BY" or "net DESTINATION ACTION". None was
# dropped. Landlock's denials are the audit log's (off here, or root's
# only); with a view, a path outside the grants is not there (ENOENT) and
# no layer denies it: a test sees those in what the program did.
denials_are() {
	expect "$1: seccomp observed" "$(rec .observation.seccomp)" notified &&
		expect "$1: denials" "$(rec '.denials |
			if type == "array" then .[] |
				if .layer == "net" then "net \(.destination) \(.action)"
				else "\(.layer) \(.call) \(.action) \(.by)" end
			else "(no denials array)" end')" "$2" &&
		expect "$1: denials dropped" "$(rec .denials_dropped)" 0
}

# outside CMD...: CMD here, outside any box, in the workspace: OUT_REF.
outside() {
	mkdir -p "$T/ws" &&
		OUT_REF=$(cd "$T/ws" && "$@" 2>&1)
}

# wait_port ADDR PORT: a server accepts connections there (bounded: 10 s).
wait_port() {
	wp_i=0
	until timeout 2 bash -c "exec 3<>/dev/tcp/$1/$2" 2>/dev/null; do
		wp_i=$((wp_i + 1))
		[ $wp_i -lt 100 ] || return 1
		sleep 0.1
	done
}

# --- the shell -----------------------------------------------------------------

# Coreutils that write, in bash: each file they leave is read back here.
t_bash_coreutils_write() {
	rbox shell -- /bin/bash -c 'set -e
mkdir -p d/sub && touch d/a && : >d/created && echo text >d/e
chmod 640 d/a && ln -s e d/link && ln d/e d/hard && cp d/e d/copy
mv d/copy d/moved && rm d/created && rmdir d/sub
t=$(mktemp) && echo tmp >"$t" && cat "$t"
printf "one\ntwo\n" >d/s && sed -i "s/two/TWO/" d/s
creat() { : >"$1"; }; creat d/new
echo "$t"'
	ran_clean "bash" || return 1
	tmpf=$(printf '%s\n' "$OUT" | sed -n 2p)
	expect "output" "$(printf '%s\n' "$OUT" | sed 2d)" tmp &&
		expect_match "mktemp's file" "$tmpf" '^/tmp/tmp\.' &&
		expect "mode" "$(stat -c %a "$T/ws/d/a")" 640 &&
		expect "symlink" "$(readlink "$T/ws/d/link")" e &&
		expect "hard link" "$(stat -c %h "$T/ws/d/e")" 2 &&
		expect "moved" "$(cat "$T/ws/d/moved")" text &&
		expect_absent "copy (moved)" "$T/ws/d/copy" &&
		expect_absent "rm" "$T/ws/d/created" &&
		expect_absent "rmdir" "$T/ws/d/sub" &&
		expect "sed -i" "$(cat "$T/ws/d/s")" "$(printf 'one\nTWO')" &&
		expect "creat" "$(kind "$T/ws/d/new")" "regular empty file" &&
		expect_absent "the box's own /tmp: its file is not here" "$tmpf"
}

# find | sort | head, sed, awk, tar czf, xargs: a pipeline over files the
# test made; the archive is listed here.
t_shell_pipeline() {
	mkdir -p "$T/ws/src/a" "$T/ws/src/b" || return 1
	for n in 3 1 4 1 5 9 2 6; do
		printf 'line %s\n' "$n" >>"$T/ws/src/a/f$n.txt"
	done
	printf 'x,1\ny,2\nz,3\n' >"$T/ws/src/b/t.csv"
	rbox shell -- /bin/sh -c 'find src -name "*.txt" | sort | head -n 3 |
xargs cat | sed "s/line/L/" | tr "\n" " "; echo
awk -F, "{ s += \$2 } END { print s }" src/b/t.csv
tar czf out.tgz src && find src -type f | xargs -n 2 wc -l | tail -n 1'
	ran_clean "pipeline" || return 1
	expect "find|sort|head|xargs|sed" "$(printf '%s\n' "$OUT" | sed -n 1p)" \
		"L 1 L 1 L 2 L 3 " &&
		expect "awk" "$(printf '%s\n' "$OUT" | sed -n 2p)" 6 &&
		expect "tar czf: the archive" \
			"$(tar tzf "$T/ws/out.tgz" | grep -c '\.txt$\|\.csv$')" 8
}

# --- python ------------------------------------------------------------------

# `use std/shell` plus `ro /etc`: the box starts (polexec refused it with
# "localtime is a symbolic link" before polc resolved the preset's follow
# rule), reads the zone through the link, and the host's /etc is there.
t_shell_etc_grant() {
	rbox shell-etc -- /bin/sh -c 'readlink /etc/localtime
head -c 4 /etc/localtime; echo; date +%Z >/dev/null && echo date
test -r /etc/os-release && echo os-release'
	ran_clean "std/shell + ro /etc" || return 1
	expect "the link, the zone, date, /etc" "$OUT" \
		"$(readlink /etc/localtime)
TZif
date
os-release"
}

# A sleep stopped and continued (Ctrl-Z then fg, a debugger, strace -f):
# the kernel resumes its clock_nanosleep with restart_syscall, which
# std/base lacked, so under std/shell's box sleep died (killed here,
# "cannot read realtime clock" under errno(EPERM)). The test waits until
# the sleep is inside clock_nanosleep (/proc/PID/syscall), so the stop
# interrupts that call; twin: the same without a stop.
t_shell_stop_cont() {
	rbox shell -- /bin/sh -c 'sleep 3 & p=$!
i=0
until [ "$(cut -d" " -f1 /proc/$p/syscall 2>/dev/null)" = 230 ]; do
	i=$((i + 1)); [ $i -lt 400 ] || { echo "never in clock_nanosleep"; break; }
	sleep 0.05
done
kill -STOP $p; kill -CONT $p; wait $p; echo "stopped, continued: $?"
sleep 0.1; echo "plain: $?"'
	ran_clean "sleep stopped and continued" &&
		expect "sleep's status" "$OUT" "stopped, continued: 0
plain: 0"
}

# std/agent/claude-code as Claude Code uses it, python3 standing in for
# the harness (tests/harness drives the real one): its config file is
# saved the way Claude Code saves it, a temporary file renamed over it,
# in CLAUDE_CONFIG_DIR, which the preset sets inside the granted
# ~/.claude (with only ~/.claude.json granted the rename could not work);
# it waits for a child on a pidfd (pidfd_open, which the preset lacked).
# HOME is the test's: ~ is the caller's HOME.
t_claude_preset_config_and_pidfd() {
	mkdir -p "$T/home/.claude" "$T/cc" || return 1
	tc_home=$HOME
	HOME=$T/home
	export HOME
	rbox claude --var CLAUDE_CODE_DIR="$T/cc" -- /usr/bin/python3 -c '
import os, subprocess
d = os.environ.get("CLAUDE_CONFIG_DIR", "")
print("config dir", d == os.environ["HOME"] + "/.claude")
t = d + "/.claude.json.tmp.1.abc"
with open(t, "w") as f:
    f.write("{\"saved\": 1}")
os.rename(t, d + "/.claude.json")
c = subprocess.Popen(["/bin/true"])
fd = os.pidfd_open(c.pid)
os.waitid(os.P_PIDFD, fd, os.WEXITED)
print("pidfd", fd > 2)'
	tc_rc=$?
	HOME=$tc_home
	export HOME
	[ $tc_rc = 0 ] || return 1
	ran_clean "claude-code preset" || return 1
	expect "config dir, pidfd" "$OUT" "config dir True
pidfd True" &&
		expect "saved, read back outside" \
			"$(cat "$T/home/.claude/.claude.json")" '{"saved": 1}'
}

# The box's pid 1 is polexec's copy: its /proc/1/cmdline showed polexec's
# whole host command line (the artifact's path, --var values, the record's
# path) where pid 1 is visible (root, with pasta's user namespace). It
# shows "polexec" and nothing else now; its environ, the host's, is not
# readable (and wiped). Hidden (uid 65534) is fine too.
t_box_pid1_shows_nothing_of_the_host() {
	mkdir -p "$T/home/.claude" "$T/cc" || return 1
	tp_home=$HOME
	HOME=$T/home
	export HOME
	rbox claude-filtered --var CLAUDE_CODE_DIR="$T/cc" \
		--var HOST_WORD=host-secret-word -- /bin/sh -c '
if [ -e /proc/1/cmdline ]; then tr "\0" "\n" </proc/1/cmdline | grep .; fi
cat /proc/1/environ 2>/dev/null | tr "\0" "\n" | grep .
echo end'
	tp_rc=$?
	HOME=$tp_home
	export HOME
	[ $tp_rc = 0 ] || return 1
	ran_clean "pid 1" || return 1
	case $OUT in
	"polexec
end" | end) ;;
	*)
		say "    FAIL: /proc/1 shows: $(printf '%s' "$OUT" | head -c 300)"
		return 1
		;;
	esac
	expect_nomatch "no host word" "$OUT" 'host-secret-word|--var|\.polbin'
}

t_python_modules() {
	mkdir -p "$T/ws" || return 1
	cat >"$T/ws/mods.py" <<'EOF'
import json, multiprocessing, os, sqlite3, ssl, subprocess

def square(x):
    return x * x

if __name__ == "__main__":
    out = {}
    out["json"] = json.loads(json.dumps({"a": [1, 2]}))["a"]
    db = sqlite3.connect("t.db")
    db.execute("create table t (x integer)")
    db.execute("begin")
    db.executemany("insert into t values (?)", [(i,) for i in range(100)])
    out["journal"] = os.path.exists("t.db-journal")
    db.commit()
    db.close()
    ctx = ssl.create_default_context()
    ctx.load_default_certs()
    out["cas"] = ctx.cert_store_stats()["x509_ca"]
    out["sub"] = subprocess.run(["sh", "-c", "echo $((6 * 7))"],
                                capture_output=True, text=True).stdout.strip()
    with multiprocessing.Pool(2) as pool:
        out["mp"] = sum(pool.map(square, range(10)))
    print(json.dumps(out, sort_keys=True))
EOF
	rbox python -- /usr/bin/python3 mods.py
	ran_clean "python3" || return 1
	# the CA count as this machine's python3 sees it, outside the box
	cas=$(/usr/bin/python3 -c 'import ssl
c = ssl.create_default_context(); c.load_default_certs()
print(c.cert_store_stats()["x509_ca"])')
	expect "modules" "$OUT" \
		"{\"cas\": $cas, \"journal\": true, \"json\": [1, 2], \"mp\": 285, \"sub\": \"42\"}" &&
		expect_match "some CAs" "$cas" '^[1-9][0-9]*$' &&
		expect "the database, read here" \
			"$(/usr/bin/python3 -c 'import sqlite3
print(sqlite3.connect("'"$T/ws/t.db"'").execute("select sum(x) from t").fetchone()[0])')" \
			4950 &&
		expect_absent "journal gone after commit" "$T/ws/t.db-journal"
}

# A venv, and pip installing a wheel from the suite's index on the host's
# 127.0.0.1 (loopback PORT_PIP), which logs what it served.
t_python_venv_pip() {
	rbox pip -- /bin/sh -c "/usr/bin/python3 -m venv venv &&
venv/bin/pip install -q --no-cache-dir --retries 0 --timeout 10 \
--index-url http://127.0.0.1:$PORT_PIP/simple/ polc-tiny &&
venv/bin/python -c 'import polc_tiny, sys; print(polc_tiny.twice(21), sys.prefix)'"
	ran_clean "venv and pip" || return 1
	expect "installed and imported" "$OUT" "42 $T/ws/venv" &&
		expect_match "the wheel came from the suite's index" \
			"$(cat "$SHARED/pypi.log")" \
			'"GET /simple/polc-tiny/polc_tiny-1.0-py3-none-any.whl HTTP/1.1" 200' &&
		expect_match "in the venv's site-packages" \
			"$(ls "$T"/ws/venv/lib/python3*/site-packages)" '^polc_tiny$' || return 1
	# twin: the same index on a host loopback port the policy does not
	# list answers here, and is out of the box's reach
	expect "the unlisted port answers here" \
		"$(curl -sS --max-time 5 "http://127.0.0.1:$PORT_PIP_OTHER/simple/" |
			grep -c polc-tiny)" 1 || return 1
	# (-vv: pip says why it could not fetch the index only at debug level)
	rbox pip -- venv/bin/pip install -vv --no-cache-dir --retries 0 \
		--timeout 5 --index-url "http://127.0.0.1:$PORT_PIP_OTHER/simple/" \
		--force-reinstall polc-tiny
	expect "unlisted port: pip fails" "$RC" 1 &&
		expect_match "unlisted port: refused" "$OUT$ERR" \
			"Could not fetch URL http://127.0.0.1:$PORT_PIP_OTHER/.*Errno 111\\] Connection refused" &&
		expect_nomatch "unlisted port: the server saw no request for it" \
			"$(cat "$SHARED/pypi-other.log")" 'GET /simple/polc-tiny/'
}

# --- git -------------------------------------------------------------------

t_git_local() {
	rbox git -- /bin/sh -c 'set -e
git init -q -b main r && cd r
git config user.email box@test.invalid && git config user.name Box
echo one >f && git add f && git commit -qm one
git branch topic && git checkout -q topic && echo two >>f && git commit -qam two
git log --format=%s | tr "\n" " "; git branch --list | tr -d " *\n"; echo
cd .. && git clone -q r c && git -C c log --format=%s | tr "\n" " "; echo'
	ran_clean "git" || return 1
	expect "log, branches" "$(printf '%s\n' "$OUT" | sed -n 1p)" \
		"two one maintopic" &&
		expect "clone" "$(printf '%s\n' "$OUT" | sed -n 2p)" "two one " &&
		expect "the clone's HEAD, read here" \
			"$(git -C "$T/ws/c" rev-parse HEAD)" \
			"$(git -C "$T/ws/r" rev-parse topic)"
}

# A clone and a fetch from the suite's git daemon on the host's 127.0.0.1
# (--export-all --base-path $SHARED/git), a repository of the test's own;
# between the two boxes the test adds a commit, which the fetch brings.
t_git_daemon_fetch() {
	repo=r-$(id -u)-$$.git
	git init -q --bare -b main "$SHARED/git/$repo" &&
		git clone -q "$SHARED/git/$repo" "$T/seed" 2>/dev/null &&
		git -C "$T/seed" -c user.email=t@test.invalid -c user.name=T \
			commit -q --allow-empty -m served &&
		git -C "$T/seed" push -q origin HEAD:main || return 1
	rbox git -- git clone -q "git://127.0.0.1:$PORT_GIT/$repo" c
	ran_clean "git clone git://" || return 1
	expect "cloned" "$(git -C "$T/ws/c" log --format=%s)" served || return 1
	git -C "$T/seed" -c user.email=t@test.invalid -c user.name=T \
		commit -q --allow-empty -m second &&
		git -C "$T/seed" push -q origin HEAD:main || return 1
	rbox git -- git -C c fetch -q origin
	ran_clean "git fetch" &&
		expect "fetched" "$(git -C "$T/ws/c" rev-parse origin/main)" \
			"$(git -C "$T/seed" rev-parse HEAD)"
}

# --- curl --------------------------------------------------------------------

# curl reaches svc.test (h1) on the allowed port; h2's server, which
# answers outside the box, is refused inside and named in the record.
t_curl_allowed_and_refused() {
	outside curl -sS --max-time 5 "http://$H2:$PORT_WEB/page.txt"
	expect "h2 answers outside the box" "$OUT_REF" "a page for curl" ||
		return 1
	rbox curl -- curl -sS --max-time 5 "http://svc.test:$PORT_WEB/page.txt"
	ran_clean "curl svc.test" filtered &&
		expect "the page" "$OUT" "a page for curl" &&
		expect "egress" "$(rec .layers.net.egress)" nft+pasta || return 1
	rbox curl -- curl -sS --max-time 5 "http://$H2:$PORT_WEB/page.txt"
	expect "h2: curl's exit (could not connect)" "$RC" 7 &&
		expect "h2: nothing printed" "$OUT" "" &&
		expect "h2: the record's blocked destination" \
			"$(rec '.layers.net.blocked[]?')" "$H2:$PORT_WEB/tcp" &&
		denials_are "h2" "net $H2:$PORT_WEB/tcp blocked"
}

# --- gcc, clang, make --------------------------------------------------------

t_cc_make_run() {
	mkdir -p "$T/ws/p" && cd "$T/ws/p" || return 1
	printf '#include <stdio.h>\n#include "twice.h"\nint main(void) { printf("%%d\\n", twice(21)); return 0; }\n' >main.c
	printf 'int twice(int);\n' >twice.h
	printf '#include "twice.h"\nint twice(int x) { return 2 * x; }\n' >twice.c
	printf 'prog: main.o twice.o\n\t$(CC) -o $@ main.o twice.o\n%%.o: %%.c twice.h\n\t$(CC) -O2 -c $<\nclean:\n\trm -f prog *.o\n' >Makefile
	cd "$T" || return 1
	rbox cc -- /bin/sh -c 'cd p && make -s CC=gcc && ./prog && make -s clean &&
make -s CC=clang && ./prog'
	ran_clean "gcc, clang, make" || return 1
	expect "built and ran, twice" "$OUT" "$(printf '42\n42')" &&
		expect "what clang built runs here too" "$("$T/ws/p/prog")" 42
}

# --- node and npm ------------------------------------------------------------

t_node_fs_child_process() {
	mkdir -p "$T/ws" || return 1
	cat >"$T/ws/n.js" <<'EOF'
const fs = require("fs"), cp = require("child_process"), os = require("os");
fs.mkdirSync("nd/sub", { recursive: true });
fs.writeFileSync("nd/a.txt", "from node\n");
fs.renameSync("nd/a.txt", "nd/sub/b.txt");
const sync = cp.execFileSync("sh", ["-c", "echo $((6 * 7))"], { encoding: "utf8" }).trim();
cp.exec("cat nd/sub/b.txt", (err, out) => {
  console.log(JSON.stringify({ sync, async: out.trim(), err: !!err, cpus: os.cpus().length > 0 }));
});
EOF
	rbox node -- /usr/bin/node n.js
	ran_clean "node" || return 1
	expect "output" "$OUT" \
		'{"sync":"42","async":"from node","err":false,"cpus":true}' &&
		expect "the file, read here" "$(cat "$T/ws/nd/sub/b.txt")" "from node"
}

# npm pack of a tiny package, npm install of the tarball, and npm install
# of the same package from the suite's registry on the host's 127.0.0.1.
t_npm_tarball_and_registry() {
	mkdir -p "$T/ws/pkg" "$T/ws/app" "$T/ws/app2" || return 1
	printf '{"name": "polc-tiny-pkg", "version": "1.0.0", "main": "index.js"}\n' \
		>"$T/ws/pkg/package.json"
	echo 'module.exports = (x) => 2 * x;' >"$T/ws/pkg/index.js"
	printf '{"name": "app", "version": "1.0.0"}\n' >"$T/ws/app/package.json"
	cp "$T/ws/app/package.json" "$T/ws/app2/package.json"
	rbox node -- /bin/sh -c 'set -e
npm pack -q ./pkg >/dev/null
cd app && npm install -s ../polc-tiny-pkg-1.0.0.tgz
node -e "console.log(require(\"polc-tiny-pkg\")(21))"'
	ran_clean "npm pack, npm install TARBALL" || return 1
	expect "installed from the tarball" "$OUT" 42 &&
		expect "package.json names it" \
			"$(jq -r '.dependencies["polc-tiny-pkg"]' "$T/ws/app/package.json")" \
			"file:../polc-tiny-pkg-1.0.0.tgz" || return 1
	rbox node -- /bin/sh -c "cd app2 &&
npm install -s --registry http://127.0.0.1:$PORT_NPM/ tiny-polc &&
node -e 'console.log(require(\"tiny-polc\")(21))'"
	ran_clean "npm install from the registry" &&
		expect "installed from the registry" "$OUT" 42 &&
		expect "resolved from it" \
			"$(jq -r '.packages["node_modules/tiny-polc"].resolved' "$T/ws/app2/package-lock.json")" \
			"http://127.0.0.1:$PORT_NPM/tiny-polc/-/tiny-polc-1.0.0.tgz"
}

# --- the examples --------------------------------------------------------------

# examples/agent.pol: a script reaches api.anthropic.com (pinned to h1,
# whose test server answers on 443) with the key from its secret file;
# another destination is refused and recorded.
t_example_agent() {
	mkdir -p "$T/ws" || return 1
	printf 'sk-test-%s\n' "$$" >"$T/key" && chmod 600 "$T/key" || return 1
	cat >"$T/ws/agent.py" <<'EOF'
import socket
key = open("/run/secrets/ANTHROPIC_API_KEY").read().strip()
with socket.create_connection(("api.anthropic.com", 443), timeout=5) as s:
    print(s.makefile().readline().strip(), key)
try:
    socket.create_connection(("10.77.2.2", 443), timeout=5)
    print("other: reached")
except OSError as e:
    print("other:", e.__class__.__name__)
EOF
	rbox ex-agent --var ANTHROPIC_KEY_FILE="$T/key" -- python3 agent.py
	expect "exit" "$RC" 0 &&
		expect "output" "$OUT" "$(printf 'h1:443/tcp sk-test-%s\nother: ConnectionRefusedError' "$$")" &&
		expect "net" "$(rec .layers.net.tier)/$(rec .layers.net.mode)" \
			enforced/filtered &&
		expect "blocked" "$(rec '.layers.net.blocked[]?')" "$H2:443/tcp" &&
		expect "secrets" "$(rec '.secrets | join(",")')" ANTHROPIC_API_KEY &&
		denials_are "agent" "net $H2:443/tcp blocked" &&
		expect_nomatch "the key in no record" "$(cat "$T/rec.json")" \
			"sk-test-$$"
}

# examples/ci.pol: a CI job checks out a repository (read-only source),
# builds it with make and gcc, and runs its tests with python3.
t_example_ci() {
	mkdir -p "$T/src" || return 1
	git init -q -b main "$T/src/proj" && (cd "$T/src/proj" &&
		printf 'int add(int a, int b) { return a + b; }\n' >add.c &&
		printf '#include <stdio.h>\nint add(int, int);\nint main(void) { printf("%%d\\n", add(40, 2)); return 0; }\n' >main.c &&
		printf 'all: calc\ncalc: main.c add.c\n\t$(CC) -O2 -o $@ main.c add.c\ntest: calc\n\tpython3 test_calc.py\n' >Makefile &&
		printf 'import subprocess\nout = subprocess.run(["./calc"], capture_output=True, text=True).stdout\nassert out == "42\\n", out\nprint("tests passed")\n' >test_calc.py &&
		git add . && git -c user.email=t@test.invalid -c user.name=T \
			commit -qm proj) || return 1
	rbox ex-ci --var SRC="$T/src" -- /bin/sh -c "git clone -q '$T/src/proj' job && cd job && make -s test"
	ran_clean "ci job" &&
		expect "tests ran" "$OUT" "tests passed" || return 1
	# twin: the source is read-only in the box
	rbox ex-ci --var SRC="$T/src" -- /bin/sh -c "echo x >'$T/src/proj/f'"
	# (a read-only mount of the view: the kernel's EROFS, no layer's denial)
	expect "source: write refused" "$RC" 2 &&
		expect_match "source: read-only" "$ERR" 'Read-only file system' &&
		denials_are "source" "" &&
		expect_absent "source: nothing written" "$T/src/proj/f"
}

# examples/data.pol: a python script reads ${DATA} (read-only), writes its
# results to ${OUT_DIR}; no network.
t_example_data() {
	mkdir -p "$T/ws" || return 1
	mkdir -p "$T/data" "$T/out" || return 1
	printf 'city,temp\nOslo,4\nRome,18\nCairo,29\n' >"$T/data/t.csv"
	cat >"$T/ws/report.py" <<'EOF'
import csv, json, os, statistics
rows = list(csv.DictReader(open(os.environ["DATA"] + "/t.csv")))
temps = [int(r["temp"]) for r in rows]
with open(os.environ["OUT_DIR"] + "/report.json", "w") as f:
    json.dump({"n": len(rows), "mean": statistics.mean(temps)}, f)
print(len(rows))
EOF
	rbox ex-data --var DATA="$T/data" --var OUT_DIR="$T/out" -- \
		python3 report.py
	ran_clean "data script" || return 1
	expect "output" "$OUT" 3 &&
		expect "the report, read here" "$(cat "$T/out/report.json")" \
			'{"n": 3, "mean": 17}' || return 1
	# twins: the data and the script are read-only, and the script has no
	# network socket at all (std/python has none: EPERM, the default)
	rbox ex-data --var DATA="$T/data" --var OUT_DIR="$T/out" -- \
		python3 -c 'import os, socket
for f in (os.environ["DATA"] + "/t.csv", "report.py"):
    try:
        open(f, "a")
        print("writable")
    except OSError as e:
        print(e.strerror)
try:
    socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    print("socket")
except OSError as e:
    print(e.strerror)'
	expect "twins" "$OUT" "$(printf 'Read-only file system\nRead-only file system\nOperation not permitted')" &&
		denials_are "twins" \
			"seccomp socket(AF_INET, SOCK_STREAM|SOCK_CLOEXEC, 0) errno(EPERM) default" &&
		expect "data unchanged" "$(wc -l <"$T/data/t.csv")" 4
}

# --- the policies ------------------------------------------------------------

# Each policy here and each example built without a warning or an error
# (notes, which say what a policy decided over a preset, are allowed), in
# well under the kernel's 4,096 instructions; and every runtime preset in
# one policy composes (no two presets disagree on a rule).
t_policies_build_quietly() {
	for log in "$ART"/*.log; do
		expect "polc build ${log##*/}" \
			"$(grep -E ': (warning|error): ' "$log")" "" || return 1
	done
	for art in "$ART"/*.polbin; do
		n=$("$BIN/polc" dump "$art" |
			sed -n 's/^\[seccomp\] type 3, critical, \([0-9]*\) bytes$/\1/p')
		expect_match "${art##*/}: seccomp bytes" "$n" '^[0-9]+$' || return 1
		if [ $((n / 8)) -gt 4096 ]; then
			say "    FAIL: ${art##*/}: $((n / 8)) instructions"
			return 1
		fi
	done
	{
		echo 'policy "every-preset" {'
		for p in shell python pip node npm git cc curl sockets certs; do
			echo "  use std/$p"
		done
		echo '  fs { rwx ${WORKSPACE} }'
		echo '  net filtered'
		echo '  syscalls default errno(EPERM) {}'
		echo '}'
	} >"$T/every.pol"
	"$BIN/polc" build -I "$SHARED/stdlib-policies" "$T/every.pol" \
		-o "$T/every.polbin" >"$T/build.log" 2>&1
	expect "every preset at once: exit" "$?" 0 &&
		expect "every preset at once: quiet" "$(cat "$T/build.log")" ""
}

TESTS="
t_policies_build_quietly
t_bash_coreutils_write
t_shell_pipeline
t_shell_etc_grant
t_shell_stop_cont
t_claude_preset_config_and_pidfd
t_box_pid1_shows_nothing_of_the_host
t_python_modules
t_python_venv_pip
t_git_local
t_git_daemon_fetch
t_curl_allowed_and_refused
t_cc_make_run
t_node_fs_child_process
t_npm_tarball_and_registry
t_example_agent
t_example_ci
t_example_data
"

run_all() {
	say "--- real suite as $WHO_RUNS"
	for t in ${REAL_ONLY:-$TESTS}; do
		in_scratch "$t" box_stderr
	done
	records_check real "${REAL_ONLY:-}"
	rm -rf "$SCRATCH"
}

# --- setup -------------------------------------------------------------------

# Binaries, artifacts and fixtures in a folder every uid can read.
setup_shared() {
	netlab_shared real &&
		mkdir -p "$SHARED/git" "$SHARED/www" &&
		cp -r "$ROOT/stdlib-policies" "$SHARED/" || return 1
	for pol in "$HERE"/*.pol "$ROOT"/examples/agent.pol \
		"$ROOT"/examples/ci.pol "$ROOT"/examples/data.pol; do
		name=$(basename "$pol" .pol)
		case $pol in */examples/*) name=ex-$name ;; esac
		"$B/polc" build -I "$SHARED/stdlib-policies" "$pol" \
			-o "$SHARED/art/$name.polbin" >"$SHARED/art/$name.log" 2>&1 ||
			{ say "real: polc build $pol:"; cat "$SHARED/art/$name.log"; return 1; }
	done
	# the fixtures: a wheel and its index, an npm registry, a web page
	/usr/bin/python3 "$HERE/mkwheel.py" "$SHARED/pypi" || return 1
	mkdir -p "$SHARED/npmpkg" &&
		printf '{"name": "tiny-polc", "version": "1.0.0", "main": "index.js"}\n' \
			>"$SHARED/npmpkg/package.json" &&
		echo 'module.exports = (x) => 2 * x;' >"$SHARED/npmpkg/index.js" &&
		(cd "$SHARED" && npm_config_update_notifier=false \
			npm pack -q ./npmpkg >/dev/null 2>&1) &&
		/usr/bin/python3 "$HERE/mkregistry.py" "$SHARED/tiny-polc-1.0.0.tgz" \
			"$SHARED/npm" "http://127.0.0.1:$PORT_NPM" || return 1
	echo "a page for curl" >"$SHARED/www/page.txt"
	# each pass makes its own repositories for the git daemon
	chmod 1777 "$SHARED/git"
	chmod -R a+rX "$SHARED"
}

# serve NAME CMD...: CMD in the background, bounded by SERVER_SECS, its
# output in $SHARED/NAME.log, its pid in SERVERS (netlab's cleanup kills
# them; the pid namespace ends whatever is left).
serve() {
	sv_name=$1
	shift
	timeout -k 2 "$SERVER_SECS" "$@" >"$SHARED/$sv_name.log" 2>&1 &
	SERVERS="$SERVERS $!"
}

# The suite's servers: the pip index, the git daemon and the npm registry
# on this namespace's 127.0.0.1 (the boxes' host loopback), and a web
# server on h1 and one on h2. api.anthropic.com is h1 in this mount
# namespace's hosts file.
setup_servers() {
	serve pypi /usr/bin/python3 -m http.server --bind 127.0.0.1 \
		--directory "$SHARED/pypi" "$PORT_PIP"
	serve pypi-other /usr/bin/python3 -m http.server --bind 127.0.0.1 \
		--directory "$SHARED/pypi" "$PORT_PIP_OTHER"
	serve npm /usr/bin/python3 -m http.server --bind 127.0.0.1 \
		--directory "$SHARED/npm" "$PORT_NPM"
	serve git git -c safe.directory='*' daemon --listen=127.0.0.1 \
		--port="$PORT_GIT" --export-all --base-path="$SHARED/git" \
		--reuseaddr "$SHARED/git"
	serve web1 nsenter -t "$HOLDER_1" -n /usr/bin/python3 -m http.server \
		--bind "$H1" --directory "$SHARED/www" "$PORT_WEB"
	serve web2 nsenter -t "$HOLDER_2" -n /usr/bin/python3 -m http.server \
		--bind "$H2" --directory "$SHARED/www" "$PORT_WEB"
	for p in "127.0.0.1 $PORT_PIP" "127.0.0.1 $PORT_PIP_OTHER" \
		"127.0.0.1 $PORT_NPM" \
		"127.0.0.1 $PORT_GIT" "$H1 $PORT_WEB" "$H2 $PORT_WEB"; do
		# shellcheck disable=SC2086
		wait_port $p || { say "real: no server on $p"; return 1; }
	done
	# netlab's hosts file and api.anthropic.com, over netlab's (unmounted
	# at exit, so that netlab's cleanup can remove the files)
	{ cat "$SHARED/hosts" && echo "$H1 api.anthropic.com"; } \
		>"$SHARED/hosts-real" &&
		chmod 644 "$SHARED/hosts-real" &&
		mount --bind "$SHARED/hosts-real" /etc/hosts &&
		trap 'umount /etc/hosts 2>/dev/null; cleanup_outer' EXIT
}

# --- main --------------------------------------------------------------------

if [ -n "${REAL_INNER:-}" ]; then
	# The unprivileged pass, started by the root pass below, in the same
	# outer namespaces, with the same servers.
	SHARED=$REAL_INNER
	netlab_use real
	# git outside the boxes reads HOME's config: one of this pass's own
	HOME=$SCRATCH
	export HOME
	run_all
	[ -n "$failures" ] && say "failed ($WHO_RUNS):$failures"
	say "real-pass: $passed passed, $failed failed, $validated records valid"
	[ "$failed" -eq 0 ]
	exit
fi

netlab_enter real "$@"
setup_shared || fatal "cannot copy the binaries, build the policies and fixtures"
setup_outer || fatal "cannot build the test hosts"
setup_servers || fatal "cannot start the servers"
netlab_use real
run_all
[ -n "$failures" ] && say "failed ($WHO_RUNS):$failures"
unprivileged_pass real REAL_INNER="$SHARED" ${REAL_ONLY:+REAL_ONLY="$REAL_ONLY"}
say "real: $passed passed, $failed failed ($validated run records valid)"
[ "$failed" -eq 0 ]
