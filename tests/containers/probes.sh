#!/bin/sh
# SPDX-License-Identifier: MIT
# The box's probes in the container matrix (run.sh): each prints
# NAME=ok or NAME=denied. PORT: the container's listener (TCP and UDP on
# 127.0.0.1, outside the box, inside the container's own network).
p() { if eval "$2" >/dev/null 2>&1; then echo "$1=ok"; else echo "$1=denied"; fi; }
p devnull 'echo x 2>/dev/null >/dev/null'
p mktemp 'f=$(mktemp) && rm -f "$f"'
p proc 'head -c 1 /proc/self/status'
p python3 'python3 -c "import tempfile; tempfile.TemporaryFile()"'
p git 'cd "$HOME" && rm -rf r && git init -q r'
p canary 'cat /work/canary'
p write_outside 'echo x >/work/outside.$$'
p tcp "python3 -c 'import socket; socket.create_connection((\"127.0.0.1\", $PORT), 2)'"
p udp "python3 -c 'import socket; s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM); s.sendto(b\"udp\", (\"127.0.0.1\", $PORT))'"
# the children are killed and reaped before the probe ends: where the box
# has no pid namespace of its own (the landlock rung) they would outlive
# it and count against the uid's RLIMIT_NPROC in the next box
p pids "python3 -c 'import os, signal
kids = []
try:
    for i in range(100):
        pid = os.fork()
        if pid == 0:
            signal.pause()
            os._exit(0)
        kids.append(pid)
finally:
    for k in kids:
        os.kill(k, signal.SIGKILL)
        os.waitpid(k, 0)'"
p memory "python3 -c 'b = bytearray(512 << 20); b[-1] = 1'"
exit 0
