#!/bin/sh
# SPDX-License-Identifier: MIT
#
# make deb-check: the package `make deb` built, installed in a clean
# Debian 12 root of its own ($B/debroot/root, made by debootstrap from
# the Debian mirror the machine's apt uses, once), then, in that root as
# its own mount namespace's root (pivot_root, so polexec may make user
# namespaces, which the kernel refuses in a chroot): `polc build` of every
# example, `polc selftest` of each (exit 0) as root and as uid 65534,
# `man polc`. Needs root and
# the Debian mirror; not part of `make check`.
#
# Safety: the checks run in new mount, pid and network namespaces; the
# network one has lo and a veth pair with a dead end (pasta needs a
# default route), and the root's own /etc/hosts pins api.anthropic.com
# (examples/agent.pol) to that dead end. Nothing of the host is written
# but $B/debroot.
#
# Ends with "deb: N passed, N failed".
set -u

HERE=$(cd "$(dirname "$0")" && pwd)
. "$HERE/../lib.sh"
suite_paths

R=$B/debroot/root
DEB=$(ls "$B"/deb/polc_*_amd64.deb 2>/dev/null | tail -n 1)
MIRROR=$(sed -n 's/^URIs: *//p' /etc/apt/sources.list.d/debian.sources \
	2>/dev/null | head -n 1)
MIRROR=${MIRROR:-http://deb.debian.org/debian}

is_root || { say "deb: needs root"; exit 2; }
[ -n "$DEB" ] || { say "deb: no package in $B/deb: make deb first"; exit 2; }
if [ ! -x "$R/usr/bin/apt-get" ]; then
	rm -rf "$R" && mkdir -p "$B/debroot" || exit 2
	say "deb: debootstrap bookworm from $MIRROR into $R"
	debootstrap --variant=minbase --include=man-db bookworm "$R" \
		"$MIRROR" >"$B/debroot/debootstrap.log" 2>&1 ||
		{ tail -n 5 "$B/debroot/debootstrap.log"; say "deb: debootstrap failed"; exit 2; }
fi
# The package, with what it depends on from the mirror.
cp "$DEB" "$R/tmp/polc.deb" && cp /etc/resolv.conf "$R/etc/resolv.conf" &&
	chroot "$R" sh -c 'dpkg --purge polc >/dev/null 2>&1; apt-get update -qq &&
		DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
		/tmp/polc.deb passt' >"$B/debroot/install.log" 2>&1 ||
	{ tail -n 5 "$B/debroot/install.log"; say "deb: install failed"; exit 2; }
rm -f "$R/tmp/polc.deb"
printf '127.0.0.1 localhost\n::1 localhost\n10.99.0.1 api.anthropic.com\n' \
	>"$R/etc/hosts"
rm -rf "$R/root/ex" && mkdir -p "$R/root/ex" "$R/.oldroot" &&
	cp "$ROOT"/examples/*.pol "$R/root/ex/" || exit 2
cat >"$R/root/check.sh" <<'IN'
#!/bin/sh
# In the Debian 12 root: each check a line "ok NAME" or "FAIL NAME: why".
cd /root/ex || exit 2
for p in *.pol; do
	if polc build "$p" -o "/root/${p%.pol}.polbin" 2>/root/err; then
		echo "ok build $p"
	else
		echo "FAIL build $p: $(cat /root/err)"
	fi
done
for p in *.pol; do
	polc selftest "/root/${p%.pol}.polbin" >/root/st.out 2>&1
	rc=$?
	if [ $rc -eq 0 ]; then
		echo "ok selftest $p: $(tail -n 1 /root/st.out)"
	else
		echo "FAIL selftest $p: exit $rc"
		sed 's/^/    /' /root/st.out
	fi
done
# and as uid 65534, as a user runs it: the artifacts where it may read
# them, its own TMPDIR (issue 27)
mkdir -p /tmp/nobody && chmod 1777 /tmp/nobody
for p in *.pol; do
	b=/tmp/nobody/${p%.pol}.polbin
	cp "/root/${p%.pol}.polbin" "$b" && chmod 644 "$b"
	setpriv --reuid=65534 --regid=65534 --clear-groups \
		env TMPDIR=/tmp/nobody polc selftest "$b" >/root/st.out 2>&1
	rc=$?
	if [ $rc -eq 0 ]; then
		echo "ok selftest as 65534 $p: $(tail -n 1 /root/st.out)"
	elif [ $rc -eq 2 ] && ! setpriv --reuid=65534 --regid=65534 \
		--clear-groups test -r /dev/net/tun -a -w /dev/net/tun &&
		grep -q 'pasta needs /dev/net/tun' /root/st.out; then
		# the host's /dev/net/tun is not this user's (udev's usual mode
		# is 0666; some hosts keep it 0600): polexec refuses, naming it
		echo "ok selftest as 65534 $p: refused, /dev/net/tun is not open to uid 65534 here"
	else
		echo "FAIL selftest as 65534 $p: exit $rc"
		sed 's/^/    /' /root/st.out
	fi
done
if MANWIDTH=80 man polc 2>/dev/null | grep -q '^NAME' &&
	man -w polc-selftest polexec polexec-bash >/dev/null; then
	echo "ok man polc"
else
	echo "FAIL man polc"
fi
echo "ok polc --version: $(polc --version | tr '\n' ' ')"
IN
chmod 755 "$R/root/check.sh"
unshare --mount --pid --fork --net sh -c '
	set -e
	ip link set lo up
	ip link add st0 type veth peer name st1
	ip addr add 10.99.0.2/24 dev st0
	ip link set st0 up
	ip link set st1 up
	ip route add default via 10.99.0.1
	mount --make-rprivate /
	mount --bind "$1" "$1"
	mount -t proc proc "$1/proc"
	mount --rbind /dev "$1/dev"
	mount --rbind /sys "$1/sys"
	mount -t tmpfs tmpfs "$1/tmp"
	cd "$1"
	pivot_root . .oldroot
	exec /usr/sbin/chroot . /bin/sh -c \
		"umount -l /.oldroot && exec /root/check.sh"
' sh "$R" >"$B/debroot/check.log" 2>&1
cat "$B/debroot/check.log"
passed=$(grep -c '^ok ' "$B/debroot/check.log")
failed=$(grep -c '^FAIL ' "$B/debroot/check.log")
[ "$passed" -gt 0 ] || failed=$((failed + 1))
say "deb: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
