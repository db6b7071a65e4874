#!/bin/sh
# SPDX-License-Identifier: MIT
#
# polc's output files (docs/OUTPUT.md, issue 11 item 8): `build -o`,
# `--emit-bpf` and `fmt -w` write a character device or a FIFO in place,
# replace a regular file atomically (a temporary file in the same folder,
# renamed), and refuse symbolic links, folders, block devices and sockets.
#
# Every node is one this script made in its own temp folder: a character
# device with /dev/null's numbers (1:3) and one with /dev/full's (1:7),
# made with mknod, never the real /dev/null. mknod needs root: as another
# user this suite says so and fails (make check runs as root).
#
# Ends with "output: N passed, N failed"; exits non-zero when any failed.
set -u

HERE=$(cd "$(dirname "$0")" && pwd)
. "$HERE/../lib.sh" # expect..., suite_paths, in_scratch
suite_paths
POLC=$B/polc
POL=$ROOT/examples/hello.pol

passed=0
failed=0
failures=

# polc with its status and stderr captured: RC, ERR.
polc() {
	"$POLC" "$@" >"$T/stdout" 2>"$T/stderr"
	RC=$?
	ERR=$(cat "$T/stderr")
}

# The reference artifact: the same build into a fresh regular file.
reference() {
	"$POLC" build "$POL" -o "$T/ref.polbin" 2>/dev/null
}

# no_temp_files: the folder holds exactly the names given, no leftover
# temporary file of polc's.
no_temp_files() {
	got=$(find "$T" -mindepth 1 -maxdepth 1 ! -name stdout ! -name stderr \
		-printf '%f\n' | sort | tr '\n' ' ')
	want=$(printf '%s\n' "$@" | sort | tr '\n' ' ')
	expect "files in the folder" "$got" "$want"
}

t_char_device_written_in_place() {
	mknod "$T/null" c 1 3 && mknod "$T/bpf" c 1 3 || return 1
	polc build "$POL" -o "$T/null" --emit-bpf "$T/bpf"
	expect "exit" "$RC" 0 &&
		expect "-o: still the device" "$(kind "$T/null")" \
			"character special file 1:3" &&
		expect "--emit-bpf: still the device" "$(kind "$T/bpf")" \
			"character special file 1:3" &&
		no_temp_files null bpf
}

# /dev/full's numbers: a write there fails with ENOSPC, so polc must have
# written into the device itself (a rename would have succeeded).
t_char_device_write_error_reported() {
	mknod "$T/full" c 1 7 || return 1
	polc build "$POL" -o "$T/full"
	expect "exit" "$RC" 2 &&
		expect_match "says why" "$ERR" \
			"polc: write $T/full: No space left on device" &&
		expect "still the device" "$(kind "$T/full")" \
			"character special file 1:7" &&
		no_temp_files full || return 1
	# twin: the same build into a regular file succeeds
	polc build "$POL" -o "$T/x.polbin"
	expect "twin exit" "$RC" 0 &&
		expect "twin kind" "$(kind "$T/x.polbin")" "regular file"
}

t_failed_build_leaves_device() {
	mknod "$T/null" c 1 3 || return 1
	printf 'policy "bad" {\n  syscalls { allow opnat }\n}\n' >"$T/bad.pol"
	polc build "$T/bad.pol" -o "$T/null"
	expect "exit" "$RC" 2 &&
		expect_match "the error" "$ERR" "unknown syscall 'opnat'" &&
		expect "still the device" "$(kind "$T/null")" \
			"character special file 1:3"
}

t_fifo_written_in_place() {
	reference && mkfifo "$T/fifo" || return 1
	# bounded: a polc that replaced the FIFO leaves this reader waiting
	timeout 10 cat "$T/fifo" >"$T/got" &
	reader=$!
	polc build "$POL" -o "$T/fifo"
	wait $reader
	expect "exit" "$RC" 0 &&
		expect "still a FIFO" "$(kind "$T/fifo")" fifo &&
		expect "the reader got the artifact" \
			"$(cmp "$T/got" "$T/ref.polbin" 2>&1 && echo same)" same
}

# A second hard link keeps the old bytes: the file was replaced by a
# rename, never truncated and rewritten where a reader may be.
t_regular_file_replaced_atomically() {
	reference && echo old >"$T/out.polbin" && chmod 640 "$T/out.polbin" &&
		ln "$T/out.polbin" "$T/keep" || return 1
	ino=$(stat -c %i "$T/out.polbin")
	polc build "$POL" -o "$T/out.polbin"
	expect "exit" "$RC" 0 &&
		expect "the new bytes" \
			"$(cmp "$T/out.polbin" "$T/ref.polbin" 2>&1 && echo same)" same &&
		expect "a new inode" \
			"$([ "$(stat -c %i "$T/out.polbin")" != "$ino" ] && echo yes)" yes &&
		expect "the old link keeps the old bytes" "$(cat "$T/keep")" old &&
		expect "mode kept" "$(stat -c %a "$T/out.polbin")" 640 &&
		no_temp_files out.polbin keep ref.polbin
}

t_new_file_follows_umask() {
	(umask 027 && "$POLC" build "$POL" -o "$T/a.polbin") 2>"$T/stderr"
	expect "umask 027" "$(stat -c %a "$T/a.polbin")" 640 || return 1
	(umask 022 && "$POLC" build "$POL" -o "$T/b.polbin") 2>"$T/stderr"
	expect "umask 022" "$(stat -c %a "$T/b.polbin")" 644
}

t_symlink_refused() {
	echo target >"$T/target" && ln -s target "$T/link" &&
		ln -s missing "$T/dangling" || return 1
	polc build "$POL" -o "$T/link"
	expect "exit" "$RC" 2 &&
		expect_match "says why" "$ERR" \
			"polc: write $T/link: is a symbolic link" &&
		expect "still the link" "$(readlink "$T/link")" target &&
		expect "target untouched" "$(cat "$T/target")" target || return 1
	polc build "$POL" --emit-bpf "$T/dangling" -o "$T/x.polbin"
	expect "dangling: exit" "$RC" 2 &&
		expect_match "dangling: says why" "$ERR" "is a symbolic link" &&
		expect_absent "dangling: target not made" "$T/missing" &&
		expect_absent "dangling: no artifact either" "$T/x.polbin"
}

t_other_kinds_refused() {
	mkdir "$T/dir" && mknod "$T/blk" b 240 0 &&
		python3 -c 'import socket,sys; socket.socket(socket.AF_UNIX).bind(sys.argv[1])' \
			"$T/sock" || return 1
	polc build "$POL" -o "$T/dir"
	expect "folder: exit" "$RC" 2 &&
		expect_match "folder" "$ERR" "is a directory" || return 1
	polc build "$POL" -o "$T/blk"
	expect "block device: exit" "$RC" 2 &&
		expect_match "block device" "$ERR" "is a block device" &&
		expect "block device kept" "$(kind "$T/blk")" \
			"block special file f0:0" || return 1
	polc build "$POL" -o "$T/sock"
	expect "socket: exit" "$RC" 2 &&
		expect_match "socket" "$ERR" "is a socket" &&
		expect "socket kept" "$(kind "$T/sock")" socket
}

t_fmt_w_replaces_and_keeps_mode() {
	printf 'policy "p" {\nsyscalls {\nallow read\n}\n}\n' >"$T/p.pol" &&
		chmod 640 "$T/p.pol" && cp "$T/p.pol" "$T/orig" || return 1
	"$POLC" fmt "$T/p.pol" >"$T/want" || return 1
	expect_nomatch "the layout changes" "$(cmp "$T/want" "$T/orig")" '^$' ||
		return 1
	polc fmt -w "$T/p.pol"
	expect "exit" "$RC" 0 &&
		expect "formatted" "$(cat "$T/p.pol")" "$(cat "$T/want")" &&
		expect "mode kept" "$(stat -c %a "$T/p.pol")" 640 &&
		no_temp_files p.pol orig want || return 1
	ln -s p.pol "$T/link.pol"
	polc fmt -w "$T/link.pol"
	expect "link: exit" "$RC" 2 &&
		expect_match "link: says why" "$ERR" "is a symbolic link" &&
		expect "link kept" "$(readlink "$T/link.pol")" p.pol
}

t_dash_is_standard_output() {
	reference || return 1
	"$POLC" build "$POL" -o - >"$T/got" 2>"$T/stderr"
	expect "exit" "$?" 0 &&
		expect "the artifact on stdout" \
			"$(cmp "$T/got" "$T/ref.polbin" 2>&1 && echo same)" same &&
		expect_absent "no file named -" "$T/-"
}

TESTS="
t_char_device_written_in_place
t_char_device_write_error_reported
t_failed_build_leaves_device
t_fifo_written_in_place
t_regular_file_replaced_atomically
t_new_file_follows_umask
t_symlink_refused
t_other_kinds_refused
t_fmt_w_replaces_and_keeps_mode
t_dash_is_standard_output
"

if [ ! -x "$POLC" ]; then
	say "output: $POLC is missing: run make first"
	exit 2
fi
if [ "$(id -u)" != 0 ]; then
	say "output: this suite needs root (mknod of its own device nodes)"
	say "output: 0 passed, 1 failed"
	exit 1
fi
SCRATCH=$(mktemp -d /tmp/polc-output.XXXXXX) || exit 2
trap 'rm -rf "$SCRATCH"' EXIT
for t in ${OUTPUT_ONLY:-$TESTS}; do
	in_scratch "$t"
done
[ -n "$failures" ] && say "failed:$failures"
say "output: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
