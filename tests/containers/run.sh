#!/bin/sh
# SPDX-License-Identifier: MIT
#
# The container matrix (issue 24, docs/CONTAINERS.md): polexec inside runc
# containers shaped as users run it, each cell a policy in a shape:
#
#   A  docker run defaults: root, Docker's default capabilities, Docker's
#      default seccomp profile (converted as moby's daemon converts it:
#      moby_seccomp.py), masked /proc paths
#   B  devcontainer / CI: uid 1000, no capability, no_new_privs, the same
#      profile
#   C  restricted pod: uid 1000, no capability, no_new_privs, the runtime
#      default profile (Docker's), read-only root
#   S  A with --cap-add SYS_ADMIN: Docker's profile then allows unshare
#      and mount, not pivot_root; no CAP_NET_ADMIN
#   T  A with --cap-add SYS_PTRACE: Docker's profile then allows
#      pidfd_getfd, which the notify broker takes the box's sockets with
#   D  root, every capability, seccomp unconfined, masked /proc paths
#   P  --privileged: D without masked paths, /sys and cgroups read-write
#   U  docs/KUBERNETES.md's pod for the box's own view: C (runAsUser 1000,
#      runAsNonRoot, allowPrivilegeEscalation false, capabilities drop
#      ALL, readOnlyRootFilesystem) with seccompProfile Localhost: the
#      runtime default plus the calls the box's setup makes
#      (polexec-seccomp.json), and procMount Unmasked
#   L  D under a seccomp profile that refuses interface configuration
#      (ioctl SIOCSIFFLAGS): the box's network namespace can be made, its
#      loopback not brought up
#
# C is docs/KUBERNETES.md's restricted pod (the Pod Security Standard
# "restricted": runAsNonRoot, runAsUser 1000, allowPrivilegeEscalation
# false, drop ALL, seccompProfile RuntimeDefault, readOnlyRootFilesystem)
# and A its pod as root with the runtime's defaults.
#
# Policies: best.pol (fs best_effort, net none), require.pol (the same
# requiring the view), user.pol (best.pol with user 1000:1000),
# filtered.pol (best.pol with net filtered: the container's listener's
# TCP port only), and every example (examples/*.pol). In each
# cell, inside the container (cell.sh): `polexec --doctor`, then the box
# running probes.sh beside a TCP and UDP listener of the container's own.
# A cell passes when either
#   - polexec refused (125) with a message, and doctor did not pass it; or
#   - the box ran, and every layer's record holds: with Landlock on, the
#     canary outside the grants and a write outside the workspace are
#     denied; with net none (enforced or degraded) the listener heard
#     nothing; a memory or pids cap the record says enforced stops a
#     512 MiB allocation or 100 processes; with an fs section, /dev/null, mktemp, /proc/self, python3
#     and git work; doctor said "degraded" where the run was; and under
#     the notify broker its ways around (broker_ways) were all closed;
# and in both cases the three agree: `polc doctor` (its own policy: fs
# best_effort, net none, tried by polexec --doctor), `polexec --doctor`
# and the run give the view and net none the same rung, or the run
# refused the layer polc doctor did not find; and `polc selftest` of the
# same artifact agrees with the box's probes: a property it says held
# (or degraded) is one the probes found denied, one it says open they
# found open (fs.read-outside and the canary, fs.write-outside and the
# write, net.tcp-unlisted and net.udp-unlisted and the listener, the
# memory and pids caps).
#
# The bundles' root is an empty folder of the suite's own with the host's
# /usr bound read-only; every container has its own network namespace,
# and the whole suite runs in one more (unshare -n). Needs root, runc, jq,
# python3. CONTAINERS_SHAPES / CONTAINERS_POLICIES pick cells; `make
# check` runs the matrix's policies, ci and shell in every shape,
# `make check-containers` (CONTAINERS_ALL=1) every example too.

set -u
HERE=$(cd "$(dirname "$0")" && pwd)
. "$HERE/../lib.sh"
suite_paths
root=$ROOT
POLC=${POLC:-$B/polc}
POLEXEC=${POLEXEC:-$B/polexec}
PROFILE=${DOCKER_PROFILE:-$root/tests/containers/docker-default.json}

if [ "$(id -u)" != 0 ]; then
	echo "containers: needs root (runc runs containers as root here)" >&2
	exit 2
fi
for t in runc jq python3 unshare; do
	command -v "$t" >/dev/null ||
		{ echo "containers: no $t (make deps installs it)" >&2; exit 2; }
done
if [ -z "${CONTAINERS_INNER:-}" ]; then
	CONTAINERS_INNER=1 exec unshare -n -- sh "$0" "$@"
fi

tmp=$(mktemp -d /tmp/polc-containers.XXXXXX) || exit 2
state=$tmp/state
cleanup() {
	for c in $(runc --root "$state" list -q 2>/dev/null); do
		runc --root "$state" delete -f "$c" >/dev/null 2>&1
	done
	# CONTAINERS_KEEP=1: every cell's files stay, for a look
	[ -n "${CONTAINERS_KEEP:-}" ] && echo "containers: kept $tmp" ||
		rm -rf "$tmp"
}
trap cleanup EXIT
mkdir -p "$state" "$tmp/work/out" "$tmp/work/src" "$tmp/rootfs"
chmod 755 "$tmp" "$tmp/work" "$tmp/work/src"
chmod 777 "$tmp/work/out"
cp "$POLEXEC" "$POLC" "${PROBE:-$B/polc-probe}" "$HERE/probes.sh" \
	"$HERE/cell.sh" "$HERE/listen.py" \
	"${BROKERPROBE:-$B/tests/broker/brokerprobe}" "$tmp/work/" || exit 2
echo canary-outside >"$tmp/work/canary"
echo not-a-key >"$tmp/work/key"
chmod 644 "$tmp/work/canary" "$tmp/work/key"
# make check: the matrix's policies, ci and shell; make check-containers
# (CONTAINERS_ALL=1): every example too
POLICIES=${CONTAINERS_POLICIES:-best require user filtered ci shell${CONTAINERS_ALL:+ agent agent-local data hello}}
for p in $POLICIES; do
	case $p in
	best | require | user | filtered) src=$HERE/$p.pol ;;
	*) src=$root/examples/$p.pol ;;
	esac
	"$POLC" build "$src" -o "$tmp/work/$p.polbin" 2>"$tmp/build.log" ||
		{ cat "$tmp/build.log"; exit 2; }
done
chmod -R a+rX "$tmp/work"

# The root: the host's /usr (bound read-only by the spec), the merged-/usr
# links, a passwd with uid 1000, empty mount points.
r=$tmp/rootfs
mkdir -p "$r/usr" "$r/etc" "$r/tmp" "$r/work" "$r/proc" "$r/dev" "$r/sys" \
	"$r/run"
chmod 1777 "$r/tmp"
for l in bin lib lib64 sbin; do
	[ -L "/$l" ] && ln -s "$(readlink "/$l")" "$r/$l"
done
printf 'root:x:0:0:root:/root:/bin/sh\nu:x:1000:1000:u:/work:/bin/sh\n' \
	>"$r/etc/passwd"
printf 'root:x:0:\nu:x:1000:\n' >"$r/etc/group"
# what every image has, and the view covers with the pinned names
printf '127.0.0.1 localhost\n::1 localhost\n' >"$r/etc/hosts"
cp /etc/ld.so.cache "$r/etc/" 2>/dev/null # what an image has; std/ grants it
(cd "$tmp" && runc spec) || exit 2

DOCKER_CAPS=CAP_CHOWN,CAP_DAC_OVERRIDE,CAP_FSETID,CAP_FOWNER,CAP_MKNOD,CAP_NET_RAW,CAP_SETGID,CAP_SETUID,CAP_SETFCAP,CAP_SETPCAP,CAP_NET_BIND_SERVICE,CAP_SYS_CHROOT,CAP_KILL,CAP_AUDIT_WRITE
# every capability this suite holds itself (a machine may hold back some)
ALL_CAPS=$(python3 -c '
names = """CHOWN DAC_OVERRIDE DAC_READ_SEARCH FOWNER FSETID KILL SETGID SETUID SETPCAP LINUX_IMMUTABLE NET_BIND_SERVICE NET_BROADCAST NET_ADMIN NET_RAW IPC_LOCK IPC_OWNER SYS_MODULE SYS_RAWIO SYS_CHROOT SYS_PTRACE SYS_PACCT SYS_ADMIN SYS_BOOT SYS_NICE SYS_RESOURCE SYS_TIME SYS_TTY_CONFIG MKNOD LEASE AUDIT_WRITE AUDIT_CONTROL SETFCAP MAC_OVERRIDE MAC_ADMIN SYSLOG WAKE_ALARM BLOCK_SUSPEND AUDIT_READ PERFMON BPF CHECKPOINT_RESTORE""".split()
bnd = int([l for l in open("/proc/self/status") if l.startswith("CapBnd:")][0].split()[1], 16)
print(",".join("CAP_" + n for i, n in enumerate(names) if bnd >> i & 1))')
python3 "$HERE/moby_seccomp.py" "$PROFILE" "$DOCKER_CAPS" \
	>"$tmp/seccomp-docker.json" &&
	python3 "$HERE/moby_seccomp.py" "$PROFILE" "" \
		>"$tmp/seccomp-nocaps.json" &&
	python3 "$HERE/moby_seccomp.py" "$PROFILE" "$DOCKER_CAPS,CAP_SYS_ADMIN" \
		>"$tmp/seccomp-sysadmin.json" &&
	python3 "$HERE/moby_seccomp.py" "$PROFILE" "" \
		"$HERE/polexec-seccomp.json" >"$tmp/seccomp-pod.json" &&
	python3 "$HERE/moby_seccomp.py" "$PROFILE" "$DOCKER_CAPS,CAP_SYS_PTRACE" \
		>"$tmp/seccomp-ptrace.json" || exit 2
# L's: everything allowed but bringing an interface up (SIOCSIFFLAGS)
printf '%s\n' '{"defaultAction": "SCMP_ACT_ALLOW",
 "architectures": ["SCMP_ARCH_X86_64", "SCMP_ARCH_X86", "SCMP_ARCH_X32"],
 "syscalls": [{"names": ["ioctl"], "action": "SCMP_ACT_ERRNO",
  "errnoRet": 1, "args": [{"index": 1, "value": 35092, "op": "SCMP_CMP_EQ"}]}]}' \
	>"$tmp/seccomp-nolo.json"

# config SHAPE POLICY CELL: the bundle's config.json for one cell.
config() {
	case $1 in
	A) uid=0 caps=$DOCKER_CAPS sc=docker nnp=false ro=false priv=0 ;;
	B) uid=1000 caps= sc=nocaps nnp=true ro=false priv=0 ;;
	C) uid=1000 caps= sc=nocaps nnp=true ro=true priv=0 ;;
	S) uid=0 caps=$DOCKER_CAPS,CAP_SYS_ADMIN sc=sysadmin nnp=false ro=false priv=0 ;;
	T) uid=0 caps=$DOCKER_CAPS,CAP_SYS_PTRACE sc=ptrace nnp=false ro=false priv=0 ;;
	D) uid=0 caps=$ALL_CAPS sc= nnp=false ro=false priv=0 ;;
	P) uid=0 caps=$ALL_CAPS sc= nnp=false ro=false priv=1 ;;
	U) uid=1000 caps= sc=pod nnp=true ro=true priv=2 ;;
	L) uid=0 caps=$ALL_CAPS sc=nolo nnp=false ro=false priv=0 ;;
	esac
	jq --arg caps "$caps" --argjson uid $uid --argjson nnp $nnp \
		--argjson ro $ro --argjson priv $priv --arg work "$tmp/work" \
		--arg rootfs "$r" --arg pol "$2" --arg cell "$3" '
		($caps | split(",") | map(select(. != ""))) as $c |
		.root = {path: $rootfs, readonly: $ro} |
		.process.terminal = false |
		.process.user = {uid: $uid, gid: $uid} |
		.process.noNewPrivileges = $nnp |
		.process.capabilities = {bounding: $c, effective: $c,
			permitted: $c} |
		.process.env = ["PATH=/usr/bin:/bin", "HOME=/work/out",
			"LANG=C.UTF-8"] |
		.process.cwd = "/work" |
		.process.args = ["/bin/sh", "/work/cell.sh", $pol, $cell] |
		.mounts += [
			{destination: "/usr", type: "bind", source: "/usr",
			 options: ["rbind", "ro", "nosuid", "nodev"]},
			{destination: "/work", type: "bind", source: $work,
			 options: ["rbind", "rw"]}] |
		if $priv == 1 then
			del(.linux.maskedPaths) | del(.linux.readonlyPaths) |
			.mounts |= map(if .destination == "/sys" or
				.destination == "/sys/fs/cgroup"
				then .options |= map(select(. != "ro"))
				else . end) |
			.linux.resources.devices = [{allow: true, access: "rwm"}]
		elif $priv == 2 then
			# procMount: Unmasked
			del(.linux.maskedPaths) | del(.linux.readonlyPaths)
		else . end' "$tmp/config.json" >"$tmp/cell.json" || return 1
	if [ -n "$sc" ]; then
		jq --slurpfile s "$tmp/seccomp-$sc.json" '.linux.seccomp = $s[0]' \
			"$tmp/cell.json" >"$tmp/config-run.json"
	else
		cp "$tmp/cell.json" "$tmp/config-run.json"
	fi
	mkdir -p "$tmp/bundle-$3"
	mv "$tmp/config-run.json" "$tmp/bundle-$3/config.json"
}

# d_view FILE: the view's rung a doctor's lines name (pivot_root, chroot,
# landlock), MISSING, or none (no view line)
d_view() {
	l=$(grep -m 1 '^  view ' "$1") || { echo none; return; }
	case $(echo "$l" | awk '{print $2}') in
	MISSING) echo MISSING ;;
	*) echo "$l" | grep -o 'rung [a-z_]*' | head -n 1 | cut -d' ' -f2 ;;
	esac
}
# d_net FILE: net none's rung a doctor's lines name (namespace, seccomp),
# MISSING, or none
d_net() {
	if grep -Eq '^  net (loopback|none) +MISSING' "$1"; then
		echo MISSING
	elif grep -Eq '^  net none +found' "$1"; then
		echo namespace
	elif grep -Eq '^  net none +degraded' "$1"; then
		echo seccomp
	else
		echo none
	fi
}
# agree WHO DOCTORFILE: the rungs WHO names against the run's (rc, rec,
# the refusal msg); appends to why
agree() {
	dv=$(d_view "$2")
	dn=$(d_net "$2")
	# polc doctor's own policy is net none without loopback ports; one
	# with ports takes another ladder (the namespace and polexec's
	# relay, the cgroup programs, the notify broker), which polexec
	# --doctor of the artifact names: polc doctor's net rung says
	# nothing of it
	if [ "$1" = "polc doctor" ] && "$POLC" dump "$tmp/work/$3.polbin" |
		grep -q '^  host loopback TCP ports'; then
		dn=none
	fi
	if [ "$rc" = 125 ]; then
		case $msg in
		"polexec: view:"*)
			case $dv in pivot_root | chroot)
				why="${why}$1 gave the view rung $dv, the run refused it; " ;;
			esac ;;
		"polexec: net: the box's own network namespace"*)
			case $dn in namespace | seccomp)
				why="${why}$1 gave net none rung $dn, the run refused it; " ;;
			esac ;;
		esac
		return
	fi
	rv=$(jq -r '.layers.view | if .tier == "off" then "off"
		else (.rung // .root) end' "$rec")
	rn=$(jq -r '.layers.net | if .mode != "none" then "off"
		else (.rung // "namespace") | sub("\\+.*"; "") end' "$rec")
	# a policy whose view requires pivot_root or chroot: landlock is a
	# refusal, not a rung the run could take
	[ "$rv" = off ] || [ "$dv" = none ] || [ "$rv" = "$dv" ] ||
		why="${why}$1 said view $dv, the run took $rv; "
	[ "$rn" = off ] || [ "$dn" = none ] || [ "$rn" = "$dn" ] ||
		why="${why}$1 said net none $dn, the run took $rn; "
}
# selftest_agrees POLICY: polc selftest's verdicts against the probes
selftest_agrees() {
	src=$o/selftest.json
	src_rc=$(cat "$o/selftest.rc" 2>/dev/null) || src_rc=none
	if [ "$rc" = 125 ]; then
		[ "$src_rc" = 2 ] ||
			why="${why}selftest exit $src_rc where polexec refused; "
		st="selftest: refused"
		return
	fi
	# a policy with no folder the probe may run from (no executable
	# grant holds it, no ${VAR} folder is writable and executable: the
	# installed probe is under /usr, this one in /work): not run
	if [ "$src_rc" = 2 ] &&
		grep -q 'grants no folder the probe can run from' "$o/selftest.err"; then
		st="selftest: not run (no folder of the policy's may run the probe)"
		return
	fi
	case $src_rc in 0 | 1) ;; *)
		why="${why}selftest exit $src_rc: $(head -c 300 "$o/selftest.err"); "
		st="selftest: error"
		return ;;
	esac
	bad=$(jq -r '.properties[] | select(.verdict == "twin failed" or
		.verdict == "error") | "\(.property) \(.verdict): \(.detail)"' \
		"$src" | head -n 3 | tr '\n' ';')
	[ -z "$bad" ] || why="${why}selftest: $bad "
	pairs="fs.read-outside:canary fs.write-outside:write_outside
		net.tcp-unlisted:tcp net.udp-unlisted:udp"
	# best.pol and require.pol's caps are what probes.sh goes past
	case $1 in best | require | user)
		pairs="$pairs limits.memory:memory limits.pids:pids" ;;
	esac
	for pr in $pairs; do
		v=$(jq -r --arg p "${pr%%:*}" \
			'.properties[] | select(.property == $p) | .verdict' "$src")
		case $v in
		held | degraded) want=denied ;;
		open) want=ok ;;
		*) continue ;;
		esac
		# a box killed before its probes (examples/hello.pol kills
		# the shell) found nothing
		grep -q "^${pr#*:}=" "$o/probes.txt" || continue
		got "${pr#*:}" "$want" ||
			why="${why}selftest says ${pr%%:*} $v, the probe ${pr#*:} found $(grep "^${pr#*:}=" "$o/probes.txt" | cut -d= -f2); "
	done
	st="selftest: $(jq -r '[.properties[] | select(.verdict == "held")] |
		length' "$src") held, $(jq -r '[.properties[] |
		select(.verdict == "degraded")] | length' "$src") degraded, $(jq -r '[.properties[] |
		select(.verdict == "open")] | length' "$src") open$(jq -r '[.properties[] |
		select(.verdict == "open") | .property] | if length > 0 then
		" (" + join(" ") + ")" else "" end' "$src")"
}

# broker_ways: under the notify broker, the ways around it (cell.sh) from
# a box: a sibling thread rewriting the address (2,000 connects), the fd
# swapped by dup2, AF_UNSPEC then the unlisted port, TCP Fast Open
# (sendmmsg with MSG_FASTOPEN: the unlisted port refused, the listed one
# reached); the unlisted server heard no box, and heard the twin outside
broker_ways() {
	[ "$(jq -r .layers.net.egress "$rec")" = "notify broker" ] || return 0
	bw() { awk -v l="$1: " 'index($0, l) == 1 {
		print substr($0, length(l) + 1); exit }' "$o/broker.txt"; }
	[ "$(cat "$o/broker.rc" 2>/dev/null)" = 0 ] ||
		why="${why}the broker's probes' box failed: $(head -c 200 "$o/broker.err"); "
	bk_race=$(bw "race 127.0.0.1 39200 127.0.0.1 39201 2000")
	case $bk_race in
	"good=0 "* | "") why="${why}race: the listed port not reached ($bk_race); " ;;
	*" bad=0 "*) ;;
	*) why="${why}race: the unlisted port reached ($bk_race); " ;;
	esac
	[ "$(bw "dupswap 127.0.0.1 39201 200")" = "bad=0 connected=0" ] ||
		why="${why}dupswap: $(bw "dupswap 127.0.0.1 39201 200"); "
	case $(bw "unspec 127.0.0.1 39200 127.0.0.1 39201") in
	"first=logserve bad=errno=EPERM again=logserve") ;;
	*) why="${why}unspec: $(bw "unspec 127.0.0.1 39200 127.0.0.1 39201"); " ;;
	esac
	[ "$(bw "tfommsg 127.0.0.1 39201")" = errno=EPERM ] ||
		why="${why}tfommsg: $(bw "tfommsg 127.0.0.1 39201"); "
	[ "$(bw "tfommsg 127.0.0.1 39200")" = ok ] ||
		why="${why}tfommsg to the listed port: $(bw "tfommsg 127.0.0.1 39200"); "
	[ "$(cat "$o/unlisted.box")" = 0 ] ||
		why="${why}the unlisted port heard the box; "
	[ "$(cat "$o/unlisted.twin")" -gt 0 ] 2>/dev/null ||
		why="${why}twin: the unlisted port not reached from outside; "
	line="$line, broker ways held (race $bk_race)"
}

passed=0
failed=0
matrix=
# cell SHAPE POLICY: runs it and judges it; one line of the matrix.
cell() {
	c=$1-$2
	o=$tmp/work/out/$c
	config "$1" "$2" "$c" || { failed=$((failed + 1)); return; }
	timeout 120 runc --root "$state" run --bundle "$tmp/bundle-$c" \
		"polc-ct-$$-$c" >"$tmp/runc-$c.log" 2>&1
	runc --root "$state" delete -f "polc-ct-$$-$c" >/dev/null 2>&1
	why=
	msg=
	st=
	rc=$(cat "$o/rc" 2>/dev/null) || rc=none
	drc=$(cat "$o/doctor.rc" 2>/dev/null) || drc=none
	if [ "$rc" = none ]; then
		why="the cell did not run: $(tail -n 3 "$tmp/runc-$c.log")"
	elif [ "$rc" = 125 ]; then
		# the refusal, not a warning before it
		msg=$(grep '^polexec: ' "$o/stderr.txt" |
			grep -v '^polexec: warning: ' | head -n 1)
		[ -n "$msg" ] || why="refused without a message"
		[ "$drc" != 0 ] || why="${why}doctor passed what was refused; "
		line="refused: ${msg#polexec: }"
	else
		rec=$o/rec.json
		t() { jq -r ".layers.$1.tier" "$rec"; }
		got() { grep -q "^$1=$2\$" "$o/probes.txt"; }
		# what a shell needs, wherever the policy has an fs section
		# that grants it (a syscalls-only policy may refuse python3's
		# calls, examples/data.pol has no /tmp and no git, by design)
		case $2 in best | require | user | ci) shell=1 ;; *) shell= ;; esac
		if [ "$(t view)" != off ] && [ -n "$shell" ]; then
			for f in devnull mktemp proc python3 git; do
				got $f ok || why="$why$f failed; "
			done
		fi
		if [ "$(t landlock)" != off ]; then
			got canary denied || why="${why}canary read; "
			got write_outside denied || why="${why}wrote outside; "
		fi
		# --privileged mounts the v1 hierarchies read-write: used
		case $1:$(t limits) in
		P:degraded*) why="${why}limits degraded under --privileged; " ;;
		esac
		# best.pol, require.pol and user.pol cap memory at 256 MiB,
		# pids at 64
		for l in memory pids; do
			case $2 in best | require | user) ;; *) continue ;; esac
			[ "$(jq -r ".limits.$l.status // empty" "$rec")" != enforced ] ||
				got $l denied || why="${why}past the $l cap; "
		done
		case $(jq -r .layers.net.mode "$rec") in
		none)
			[ ! -s "$o/heard" ] ||
				why="${why}the listener heard $(tr '\n' ' ' <"$o/heard"); "
			;;
		filtered)
			# the listed TCP port reached, the UDP datagram not
			got tcp ok && grep -qx tcp "$o/heard" ||
				why="${why}the listed port was not reached; "
			! grep -qx udp "$o/heard" ||
				why="${why}the listener heard UDP; "
			;;
		esac
		[ "$drc" = 0 ] || why="${why}doctor refused what ran; "
		for l in view net; do
			case $(t $l) in
			degraded*)
				# the layer's own line, not any degraded one
				grep -Eq "^  $l( [a-z]+)? +degraded" "$o/doctor.txt" ||
					why="${why}doctor did not say $l degraded; "
				;;
			esac
		done
		lim=$(jq -r '[.limits // {} | to_entries[] |
			select(.key == "memory" or .key == "pids") |
			"\(.key) \(.value.tier)"] | join(" ")' "$rec")
		line="limits ${lim:-none} $(t limits | cut -c1-8), view $(jq -r '.layers.view | (.rung // .root) + (if .replaced.tmp then " (TMPDIR " + .replaced.tmp + ")" else "" end) + (if .proc then " (proc " + .proc + ")" else "" end)' "$rec") $(t view | cut -c1-8), net $(jq -r '.layers.net.rung // .layers.net.mode' "$rec") $(t net | cut -c1-8)"
		broker_ways
	fi
	msg=${msg:-}
	rec=$o/rec.json
	got() { grep -q "^$1=$2\$" "$o/probes.txt"; }
	if [ "$rc" != none ]; then
		sed -n '/^what a box gets here/,$p' "$o/polc-doctor.txt" \
			>"$o/polc-doctor-box.txt"
		grep -q '^  view ' "$o/polc-doctor-box.txt" ||
			why="${why}polc doctor tried no box: $(grep -m 1 MISSING "$o/polc-doctor-box.txt"); "
		agree "polc doctor" "$o/polc-doctor-box.txt" "$2"
		agree "polexec --doctor" "$o/doctor.txt" "$2"
		selftest_agrees "$2"
	fi
	if [ -z "$why" ]; then
		passed=$((passed + 1))
		echo "ok   $1 $2: $line (doctor $drc; $st)"
	else
		failed=$((failed + 1))
		echo "FAIL $1 $2: $why"
		sed 's/^/     /' "$o/stderr.txt" "$o/probes.txt" "$o/doctor.txt" \
			"$o/polc-doctor-box.txt" 2>/dev/null | head -n 60
	fi
	matrix="$matrix
| $1 | $2 | $line |"
}

for s in ${CONTAINERS_SHAPES:-A B C U S T D P L}; do
	for p in $POLICIES; do
		cell "$s" "$p"
	done
done
if [ -n "${CONTAINERS_MATRIX:-}" ]; then
	printf '| shape | policy | what polexec gave |\n|---|---|---|%s\n' \
		"$matrix" >"$CONTAINERS_MATRIX"
fi
echo "containers: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
