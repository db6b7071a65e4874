# SPDX-License-Identifier: MIT
# The container matrix's listener (run.sh): TCP and UDP on 127.0.0.1:PORT
# inside the container's own network namespace; writes what reached it
# ("tcp", "udp") to FILE. Ready when FILE.ready exists.
import select
import socket
import sys

port, out = int(sys.argv[1]), sys.argv[2]
t = socket.socket()
t.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
t.bind(("127.0.0.1", port))
t.listen(4)
u = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
u.bind(("127.0.0.1", port))
open(out + ".ready", "w").close()
while True:
    r, _, _ = select.select([t, u], [], [], 60)
    if not r:
        break
    with open(out, "a") as f:
        for s in r:
            if s is t:
                c, _ = t.accept()
                c.close()
                f.write("tcp\n")
            else:
                u.recv(64)
                f.write("udp\n")
