#!/bin/sh
# SPDX-License-Identifier: MIT
#
# polexec --record FILE follows docs/OUTPUT.md (issue 11, item 8): a new or
# a regular file gets a temporary file in the same folder, renamed into
# place when the record is written (a refusal's record too); a character
# device or a FIFO is written in place; a symbolic link, a folder, a block
# device or a socket is refused before the command runs. Each test asserts
# what is at the path afterwards (stat), what the record says (jq), and
# that no temporary file is left in the folder.
#
# Every node is one a test made in its own temp folder (mknod "$T/null" c
# 1 3, c 1 7 for a device whose writes fail, mkfifo), never the real
# /dev/null. As root the suite runs twice: as root, then as uid 65534 over
# a copy of the binaries (the tests that need mknod or mount run as root
# only). Ends with "record: N passed, N failed"; exits non-zero when any
# failed. RECORD_ONLY="t_a t_b" runs only those tests.
set -u

HERE=$(cd "$(dirname "$0")" && pwd)
. "$HERE/../lib.sh" # expect..., tally, in_scratch, unprivileged_pass
passed=0
failed=0
failures=
WHO_RUNS="uid $(id -u)"

# box FILE [CMD...]: polexec --record FILE over the plain policy: RC, ERR.
box() {
	bx_rec=$1
	shift
	[ $# -gt 0 ] || set -- /bin/true
	"$POLEXEC" --record "$bx_rec" "$ART/plain.polbin" -- "$@" \
		>"$T/stdout" 2>"$T/stderr" </dev/null
	RC=$?
	ERR=$(cat "$T/stderr")
}

# outcome FILE: the record's outcome, or "not JSON".
outcome() {
	jq -er .outcome "$1" 2>/dev/null || echo "not JSON"
}

# only_files NAME...: the folder holds exactly these (no .polc-* left).
only_files() {
	of_got=$(find "$T" -mindepth 1 -maxdepth 1 ! -name stdout \
		! -name stderr -printf '%f\n' | sort | tr '\n' ' ')
	of_want=$(printf '%s\n' "$@" | sort | tr '\n' ' ')
	expect "files in the folder" "$of_got" "$of_want"
}

t_new_file_mode_from_umask() {
	(umask 027 && box "$T/rec.json" /bin/sh -c 'exit 3'
	expect "exit" "$RC" 3 &&
		expect "outcome" "$(outcome "$T/rec.json")" exited &&
		expect "exit status" "$(jq -r .exit_status "$T/rec.json")" 3 &&
		expect "mode 0666 less the umask" "$(stat -c %a "$T/rec.json")" \
			640 &&
		only_files rec.json)
}

# A second hard link keeps the old bytes: replaced by a rename, never
# truncated and rewritten in place; the permission bits are kept.
t_regular_file_replaced_atomically() {
	echo old >"$T/rec.json" && chmod 604 "$T/rec.json" &&
		ln "$T/rec.json" "$T/keep" || return 1
	ino=$(stat -c %i "$T/rec.json")
	box "$T/rec.json"
	expect "exit" "$RC" 0 &&
		expect "outcome" "$(outcome "$T/rec.json")" exited &&
		expect "a new inode" \
			"$([ "$(stat -c %i "$T/rec.json")" != "$ino" ] && echo yes)" yes &&
		expect "the old link keeps the old bytes" "$(cat "$T/keep")" old &&
		expect "mode kept" "$(stat -c %a "$T/rec.json")" 604 &&
		only_files rec.json keep
}

# While the command runs the record is not at the path yet: a reader sees
# the old file or the whole new one, never a truncated one.
t_old_record_intact_while_running() {
	echo '{"old":1}' >"$T/rec.json" || return 1
	box "$T/rec.json" /bin/sh -c "cat '$T/rec.json' >'$T/seen'"
	expect "exit" "$RC" 0 &&
		expect "the box saw the old file" "$(cat "$T/seen")" '{"old":1}' &&
		expect "then the new one" "$(outcome "$T/rec.json")" exited &&
		only_files rec.json seen
}

t_refusal_record_put_in_place() {
	echo old >"$T/rec.json" || return 1
	"$POLEXEC" --record "$T/rec.json" "$T/missing.polbin" -- \
		/bin/sh -c "echo ran >'$T/canary'" 2>"$T/stderr"
	expect "exit" "$?" 125 &&
		expect "outcome" "$(outcome "$T/rec.json")" refused &&
		expect_match "reason" "$(jq -r .reason "$T/rec.json")" \
			'missing\.polbin' &&
		expect_absent "the command never ran" "$T/canary" &&
		only_files rec.json
}

# The path changed while the command ran: nothing is replaced, and the
# command's exit status stands.
t_changed_meanwhile_not_replaced() {
	echo old >"$T/rec.json" || return 1
	box "$T/rec.json" /bin/sh -c "rm '$T/rec.json' && mkfifo '$T/rec.json'
		exit 5"
	expect "exit" "$RC" 5 &&
		expect_match "says so" "$ERR" \
			"polexec: record: $T/rec.json: changed while polexec ran; nothing replaced" &&
		expect "still the FIFO the box made" "$(kind "$T/rec.json")" fifo &&
		only_files rec.json || return 1
	rm -f "$T/rec.json"
	box "$T/rec.json" /bin/sh -c "echo mine >'$T/rec.json'"
	expect "appeared: exit" "$RC" 0 &&
		expect_match "appeared: says so" "$ERR" \
			"appeared while polexec ran; nothing replaced" &&
		expect "appeared: kept" "$(cat "$T/rec.json")" mine &&
		only_files rec.json
}

t_char_device_written_in_place() {
	is_root || return 0
	mknod "$T/null" c 1 3 || return 1
	box "$T/null"
	expect "exit" "$RC" 0 && expect "stderr" "$ERR" "" &&
		expect "still the device" "$(kind "$T/null")" \
			"character special file 1:3" &&
		only_files null
}

# /dev/full's numbers: the write fails with ENOSPC, so polexec wrote into
# the device itself; the command's status stands.
t_char_device_write_error_reported() {
	is_root || return 0
	mknod "$T/full" c 1 7 || return 1
	box "$T/full" /bin/sh -c 'exit 4'
	expect "exit" "$RC" 4 &&
		expect "says why" "$ERR" \
			"polexec: record: $T/full: No space left on device" &&
		expect "still the device" "$(kind "$T/full")" \
			"character special file 1:7" &&
		only_files full
}

t_fifo_written_in_place() {
	mkfifo "$T/fifo" || return 1
	# bounded: a polexec that replaced the FIFO leaves this reader waiting
	timeout 10 cat "$T/fifo" >"$T/got" &
	reader=$!
	box "$T/fifo"
	wait $reader
	expect "exit" "$RC" 0 &&
		expect "still a FIFO" "$(kind "$T/fifo")" fifo &&
		expect "the reader got the record" "$(outcome "$T/got")" exited &&
		only_files fifo got
}

# The FIFO's reader left before the record was written: EPIPE is reported
# and the command's status stands (no SIGPIPE takes polexec down).
t_fifo_reader_gone_reported() {
	mkfifo "$T/fifo" || return 1
	(timeout 10 sh -c "exec 3<'$T/fifo'; exec 3<&-; : >'$T/closed'") &
	reader=$!
	box "$T/fifo" /bin/sh -c "i=0; while [ ! -e '$T/closed' ] &&
		[ \$i -lt 100 ]; do sleep 0.05; i=\$((i + 1)); done; exit 6"
	wait $reader
	expect "exit" "$RC" 6 &&
		expect "says why" "$ERR" \
			"polexec: record: $T/fifo: Broken pipe" &&
		expect "still a FIFO" "$(kind "$T/fifo")" fifo
}

# refused PATH WHY: polexec refused PATH before the command ran.
refused() {
	"$POLEXEC" --record "$1" "$ART/plain.polbin" -- \
		/bin/sh -c "echo ran >'$T/canary'" 2>"$T/stderr"
	expect "$1: exit" "$?" 125 &&
		expect_match "$1: says why" "$(cat "$T/stderr")" \
			"^polexec: record: $1: $2" &&
		expect_absent "$1: the command never ran" "$T/canary"
}

t_symlink_refused() {
	echo target >"$T/target" && ln -s target "$T/link" &&
		ln -s nowhere "$T/dangling" || return 1
	refused "$T/link" "is a symbolic link; polexec writes neither through nor over one" &&
		refused "$T/dangling" "is a symbolic link" &&
		expect "target untouched" "$(cat "$T/target")" target &&
		expect "still a link" "$(kind "$T/link")" "symbolic link" &&
		expect_absent "nothing made through the dangling link" \
			"$T/nowhere" &&
		only_files target link dangling
}

t_folder_block_device_socket_refused() {
	mkdir "$T/dir" || return 1
	refused "$T/dir" "is a directory" || return 1
	python3 -c "import socket,sys; socket.socket(socket.AF_UNIX).bind(sys.argv[1])" \
		"$T/sock" || return 1
	refused "$T/sock" "is a socket; polexec writes only regular files, character devices and FIFOs" ||
		return 1
	if is_root; then
		mknod "$T/blk" b 7 0 || return 1
		refused "$T/blk" "is a block device" &&
			expect "still the block device" "$(kind "$T/blk")" \
				"block special file 7:0" || return 1
	fi
	only_files dir sock $(is_root && echo blk)
}

# A file system without O_TMPFILE (ramfs): a named .polc-XXXXXX file,
# renamed into place, none left.
t_named_temporary_file_without_o_tmpfile() {
	is_root || return 0
	mkdir "$T/ram" && echo old >"$T/old" || return 1
	unshare --mount --propagation private /bin/sh -c "
		mount -t ramfs polc-ram '$T/ram' || exit 9
		'$POLEXEC' --record '$T/ram/new.json' '$ART/plain.polbin' -- \
			/bin/true || exit 1
		cp '$T/old' '$T/ram/rep.json' && ln '$T/ram/rep.json' '$T/ram/keep'
		'$POLEXEC' --record '$T/ram/rep.json' '$ART/plain.polbin' -- \
			/bin/true || exit 2
		jq -r .outcome '$T/ram/new.json' '$T/ram/rep.json' >'$T/outcomes'
		cat '$T/ram/keep' >'$T/kept'
		ls -A '$T/ram' >'$T/listing'" 2>"$T/stderr"
	expect "exit" "$?" 0 &&
		expect "outcomes" "$(cat "$T/outcomes")" "exited
exited" &&
		expect "the old link keeps the old bytes" "$(cat "$T/kept")" old &&
		expect "only the records and the link" \
			"$(tr '\n' ' ' <"$T/listing")" "keep new.json rep.json "
}

TESTS="
t_new_file_mode_from_umask
t_regular_file_replaced_atomically
t_old_record_intact_while_running
t_refusal_record_put_in_place
t_changed_meanwhile_not_replaced
t_char_device_written_in_place
t_char_device_write_error_reported
t_fifo_written_in_place
t_fifo_reader_gone_reported
t_symlink_refused
t_folder_block_device_socket_refused
t_named_temporary_file_without_o_tmpfile
"

run_all() {
	say "--- record suite as $WHO_RUNS"
	SCRATCH=$(mktemp -d /tmp/polc-record-run.XXXXXX) || exit 2
	for t in ${RECORD_ONLY:-$TESTS}; do
		in_scratch "$t"
	done
	rm -rf "$SCRATCH"
}

if [ -n "${RECORD_INNER:-}" ]; then
	SHARED=$RECORD_INNER
	ART=$SHARED/art
	POLEXEC=$SHARED/bin/polexec
	run_all
	[ -n "$failures" ] && say "failed ($WHO_RUNS):$failures"
	say "record-pass: $passed passed, $failed failed"
	[ "$failed" -eq 0 ]
	exit
fi

suite_paths
for f in polexec polc; do
	[ -x "$B/$f" ] || { say "record: $B/$f is missing: run make first"; exit 2; }
done
SHARED=$(mktemp -d /tmp/polc-record.XXXXXX) || exit 2
trap 'rm -rf "$SHARED"' EXIT
mkdir -p "$SHARED/bin" "$SHARED/art" &&
	cp "$B/polexec" "$HERE/run.sh" "$SHARED/bin/" &&
	support_copy "$SHARED" || exit 2
"$B/polc" build "$HERE/plain.pol" -o "$SHARED/art/plain.polbin" ||
	{ say "record: polc build plain.pol failed"; exit 2; }
chmod -R a+rX "$SHARED"
ART=$SHARED/art
POLEXEC=$SHARED/bin/polexec
run_all
[ -n "$failures" ] && say "failed ($WHO_RUNS):$failures"
is_root && unprivileged_pass record RECORD_INNER="$SHARED" \
	${RECORD_ONLY:+RECORD_ONLY="$RECORD_ONLY"}
say "record: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
