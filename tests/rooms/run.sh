#!/bin/sh
# SPDX-License-Identifier: MIT
#
# polexec's rooms (docs/ARCHITECTURE.md, "polexec's rooms"): includes point
# down, from the phases (stub/*.c) through the layers' rooms to stub/lib/
# and the kernel ABI polc shares (abi/), so no circle can form between
# rooms. A function is called through its room's header (every public
# function is declared in its header and nowhere else), so an include
# that points up or sideways against the order below is a call that does.
# polc includes nothing of stub/.
#
# Each room and the rooms it may include besides itself:
#   abi       -
#   lib       abi artifact
#   landlock  lib abi artifact
#   box       landlock lib abi artifact
#   observe   box landlock lib abi artifact
#   net       observe box landlock lib abi artifact
#   limits    observe box lib abi artifact
#   (phases)  every room
cd "$(dirname "$0")/../.." || exit 2

allowed() {
	case $1 in
	abi) echo "abi" ;;
	lib) echo "lib abi artifact" ;;
	landlock) echo "landlock lib abi artifact" ;;
	box) echo "box landlock lib abi artifact" ;;
	observe) echo "observe box landlock lib abi artifact" ;;
	net) echo "net observe box landlock lib abi artifact" ;;
	limits) echo "limits observe box lib abi artifact" ;;
	phases) echo "phases box landlock observe net limits lib abi artifact" ;;
	*) return 1 ;;
	esac
}

# The room of a file of stub/ or abi/.
room_of() {
	case $1 in
	abi/*) echo abi ;;
	stub/*/*) d=${1#stub/}; echo "${d%%/*}" ;;
	stub/*) echo phases ;;
	esac
}

# The room an include names, seen from file $1: "room/x.h" through -Istub
# or -I., a bare "x.h" beside the file or in artifact/.
room_named() {
	case $2 in
	abi/*) echo abi ;;
	artifact/*) echo artifact ;;
	*/*) echo "${2%%/*}" ;;
	*)
		if [ -f "$(dirname "$1")/$2" ]; then
			room_of "$1"
		elif [ -f "artifact/$2" ]; then
			echo artifact
		else
			echo "?"
		fi
		;;
	esac
}

fail=0
n=0
for f in $(find stub abi -name '*.[ch]' | sort); do
	from=$(room_of "$f")
	if ! allowed "$from" >/dev/null; then
		echo "FAIL  rooms: $f is in no known room ($from)"
		fail=1
		continue
	fi
	for inc in $(sed -n 's/^#include "\([^"]*\)".*/\1/p' "$f"); do
		to=$(room_named "$f" "$inc")
		n=$((n + 1))
		case " $(allowed "$from") " in
		*" $to "*) ;;
		*)
			echo "FAIL  rooms: $f ($from) includes $inc ($to)"
			fail=1
			;;
		esac
	done
done

# polc's own folders include nothing of the stub.
up=$(grep -rln '#include "\(stub/\|[a-z_]*\.h"\)' compiler lang bpf artifact \
	--include='*.[ch]' 2>/dev/null | while read -r f; do
	for inc in $(sed -n 's/^#include "\([^"]*\)".*/\1/p' "$f"); do
		case $inc in
		stub/*) echo "$f: $inc" ;;
		esac
	done
done)
if [ -n "$up" ]; then
	echo "FAIL  rooms: polc includes the stub:"
	echo "$up"
	fail=1
fi

if [ "$n" -lt 100 ]; then
	echo "FAIL  rooms: only $n includes read: is the stub where it was?"
	fail=1
fi
[ "$fail" = 0 ] && echo "ok    rooms: $n includes of stub/ and abi/ point down"
exit "$fail"
