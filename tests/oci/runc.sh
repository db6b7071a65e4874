#!/bin/sh
# SPDX-License-Identifier: MIT
#
# polc export oci in a real container runtime: Debian's runc runs a
# bundle whose root file system is busybox-static and a static probe,
# with the exported profile as linux.seccomp, and every answer is compared
# with what polexec answers under the same policy:
#
#   - an allowed call works (busybox echo, an AF_UNIX socket);
#   - a denied one is answered as the policy says (mkdir: EXDEV);
#   - an int argument is read as the kernel reads it: socket(AF_VSOCK)
#     and socket(0x100000028) (AF_VSOCK to the kernel) are both EPERM;
#   - the egress companions hold in the container too (AF_PACKET, also
#     with a dirty upper half: EACCES).
#
# Needs root (runc as root, with the cgroupfs driver on this hybrid host)
# and the Debian packages runc and busybox-static (make check's DEPS).
# Everything runs in a network namespace of its own; runc makes the
# container's own namespaces inside it.

set -u

HERE=$(cd "$(dirname "$0")" && pwd)
. "$HERE/../lib.sh" # expect..., suite_paths
suite_paths
root=$ROOT
POLC=${POLC:-$B/polc}
POLEXEC=${POLEXEC:-$B/polexec}
PROBE=${PROBE:-$B/tests/oci/probe}

if [ "$(id -u)" != 0 ]; then
	echo "runc: needs root (runc runs containers as root here)" >&2
	exit 2
fi
for t in runc busybox unshare jq; do
	command -v "$t" >/dev/null ||
		{ echo "runc: no $t (make deps installs it)" >&2; exit 2; }
done
for f in "$POLC" "$POLEXEC" "$PROBE"; do
	[ -x "$f" ] || { echo "runc: no $f (make tests)" >&2; exit 2; }
done
bb=$(command -v busybox)
case $(file -b "$bb") in
*statically*) ;;
*) echo "runc: $bb is not static (install busybox-static)" >&2; exit 2 ;;
esac

# The whole suite again inside a network namespace of its own.
if [ -z "${RUNC_SUITE_INNER:-}" ]; then
	RUNC_SUITE_INNER=1 exec unshare -n -- sh "$0" "$@"
fi

tmp=$(mktemp -d "${TMPDIR:-/tmp}/runc-suite.XXXXXX") || exit 2
state=$tmp/state
trap 'runc --root "$state" delete -f polc-oci-$$ >/dev/null 2>&1; rm -rf "$tmp"' EXIT

cat >"$tmp/box.pol" <<'EOF'
policy "runc-box" {
  syscalls default allow {
    errno(EXDEV) mkdir mkdirat
    errno(EPERM) socket if family == AF_VSOCK
  }
}
EOF
"$POLC" build "$tmp/box.pol" -o "$tmp/box.polbin" 2>/dev/null || exit 2
"$POLC" export oci "$tmp/box.pol" -o "$tmp/box.json" 2>"$tmp/export.err" || {
	cat "$tmp/export.err"
	exit 2
}

# The bundle: busybox and the probe in an empty root, runc's default
# spec with the profile as its seccomp section.
mkdir -p "$tmp/bundle/rootfs/bin" "$tmp/bundle/rootfs/tmp" "$state"
cp "$bb" "$tmp/bundle/rootfs/bin/busybox"
cp "$PROBE" "$tmp/bundle/rootfs/bin/probe"
for a in sh echo mkdir; do ln -s busybox "$tmp/bundle/rootfs/bin/$a"; done
(cd "$tmp/bundle" && runc spec) || exit 2
jq '.process.terminal = false | .root.readonly = false |
    .linux.seccomp = "@SECCOMP@"' "$tmp/bundle/config.json" \
	>"$tmp/template.json" || exit 2
profile=$tmp/box.json

n=0
# in_runc CMD...: the command in a fresh container, its output. The
# profile goes into config.json byte for byte: jq turns 64-bit numbers
# into doubles, and runc refuses 1.8446744073709552e19.
in_runc() {
	n=$((n + 1))
	jq --args '.process.args = $ARGS.positional' -- "$@" \
		<"$tmp/template.json" |
		awk -v f="$profile" '
			/"@SECCOMP@"/ {
				i = index($0, "\"@SECCOMP@\"")
				printf "%s", substr($0, 1, i - 1)
				while ((getline l < f) > 0)
					print l
				print substr($0, i + 11)
				next
			}
			{ print }' >"$tmp/bundle/config.json" &&
		timeout 60 runc --root "$state" run --bundle "$tmp/bundle" \
			"polc-oci-$$-$n" 2>&1
}

# in_polexec CMD...: the same under polexec and the policy itself.
in_polexec() {
	(cd "$tmp/bundle/rootfs" && "$POLEXEC" "$tmp/box.polbin" -- "$@") 2>&1
}

passed=0
failed=0
# same DESC EXPECTED CMD...: runc and polexec both answer EXPECTED.
same() {
	desc=$1
	want=$2
	shift 2
	got_runc=$(in_runc "$@")
	rm -rf "$tmp/bundle/rootfs/tmp/"*
	cmd=$1
	shift
	case $cmd in
	/bin/probe) got_polexec=$(in_polexec "$PROBE" "$@") ;;
	*) got_polexec=$(in_polexec "$bb" "${cmd##*/}" "$@") ;;
	esac
	if expect "$desc (runc)" "$got_runc" "$want" &&
		expect "$desc (polexec)" "$got_polexec" "$want"; then
		passed=$((passed + 1))
		echo "ok   $desc: $want"
	else
		failed=$((failed + 1))
	fi
}

# Allowed calls work.
same "busybox echo" "hello from the box" /bin/echo hello from the box
same "AF_UNIX socket" ok /bin/probe socket 1 1 0
# A denied call is answered as the policy says.
same "mkdir" "mkdir: can't create directory 'tmp/x': Invalid cross-device link" \
	/bin/mkdir tmp/x
same "probe mkdir" EXDEV /bin/probe mkdir tmp/y
# The int argument as the kernel reads it, upper half or not.
same "socket(AF_VSOCK)" EPERM /bin/probe socket 40 1 0
same "socket(0x100000028): AF_VSOCK to the kernel" EPERM \
	/bin/probe socket 0x100000028 1 0
same "socket(0x100000001): AF_UNIX to the kernel" ok \
	/bin/probe socket 0x100000001 1 0
# The egress companions travel with the export.
same "socket(AF_PACKET)" EACCES /bin/probe socket 17 3 0
same "socket(0x100000011): AF_PACKET to the kernel" EACCES \
	/bin/probe socket 0x100000011 3 0
same "socket(AF_NETLINK, NETLINK_AUDIT)" EACCES /bin/probe socket 16 3 9

# A default-deny policy of Docker's size: bench/profiles/agent.json
# imported, then exported again, runs busybox and answers as polexec.
"$POLC" import oci "$root/bench/profiles/agent.json" -o "$tmp/agent.pol" \
	2>/dev/null &&
	cp "$tmp/agent.pol" "$tmp/box.pol" &&
	"$POLC" build "$tmp/box.pol" -o "$tmp/box.polbin" 2>/dev/null &&
	"$POLC" export oci "$tmp/box.pol" -o "$tmp/agent.json" 2>/dev/null ||
	exit 2
profile=$tmp/agent.json
same "agent: busybox sh" "hello from sh" /bin/sh -c 'echo hello from sh'
same "agent: mkdir" ok /bin/probe mkdir tmp/agent
same "agent: AF_INET6 socket" ok /bin/probe socket 10 1 0
same "agent: socket(AF_VSOCK), the default" EPERM /bin/probe socket 40 1 0
same "agent: socket(0x100000001), AF_UNIX to the kernel" ok \
	/bin/probe socket 0x100000001 1 0

echo "runc ($(runc --version | head -n 1)): $passed passed, $failed failed"
[ "$failed" -eq 0 ]
