#!/bin/sh
# SPDX-License-Identifier: MIT
#
# make install and make uninstall, into a DESTDIR temp folder only: the
# installed file list is exactly what the source tree says it should be;
# the installed polc finds its installed standard library (and only it),
# also after the tree is moved; the installed polc and polexec compile and
# run a policy that uses std/shell and std/base, and the run record matches
# the installed schema; every man page renders without a warning and
# names every subcommand and option the programs' --help lists; the bash
# completion offers them too; uninstall removes exactly what install put.
#
# Ends with "install: N passed, N failed"; exits non-zero when any failed.
set -u

HERE=$(cd "$(dirname "$0")" && pwd)
. "$HERE/../lib.sh" # expect..., suite_paths, tally, schema_check
suite_paths

passed=0
failed=0
failures=

T=$(mktemp -d /tmp/polc-install.XXXXXX) || exit 2
trap 'rm -rf "$T"' EXIT
D=$T/dest
P=/usr/local
I=$D$P

# mk TARGET [VAR=VALUE]...: make in the source tree, not as part of the
# make that runs this suite (no jobserver of its), output in $T/make.log.
mk() {
	env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL \
		make -C "$ROOT" --no-print-directory B="$B" "$@" \
		>"$T/make.log" 2>&1
}

# What install must put, from the source tree: one path a line, sorted.
expected_files() {
	{
		echo "$P/bin/polc"
		echo "$P/bin/polexec"
		echo "$P/bin/polexec-sh"
		echo "$P/bin/polexec-bash"
		echo "$P/lib/polc/polc-probe"
		echo "$P/share/bash-completion/completions/polexec-bash"
		(cd "$ROOT/stdlib-policies" && find . -name '*.pol') |
			sed "s|^\\./|$P/share/polc/stdlib-policies/|"
		for f in "$ROOT"/docs/schema/*.schema.json; do
			echo "$P/share/polc/schema/${f##*/}"
		done
		for f in "$ROOT"/docs/*.1; do
			echo "$P/share/man/man1/${f##*/}"
		done
		for f in "$ROOT"/contrib/bash-completion/*; do
			echo "$P/share/bash-completion/completions/${f##*/}"
		done
	} | sort
}

# Files and links under DIR, relative to it, sorted.
files_under() {
	(cd "$1" && find . ! -type d | sed 's|^\.||' | sort)
}

t_install_puts_the_file_list() {
	mk install DESTDIR="$D" PREFIX="$P" ||
		{ say "    FAIL: make install:"; sed 's/^/      /' "$T/make.log"; return 1; }
	expect "installed files" "$(files_under "$D" | tr '\n' ' ')" \
		"$(expected_files | tr '\n' ' ')" || return 1
	for f in $(files_under "$D"); do
		case $f in
		*/polexec-bash)
			# a link to polexec-sh, beside it
			expect "$f" "$(readlink "$D$f")" polexec-sh || return 1
			continue
			;;
		*/bin/* | */lib/polc/polc-probe) want=755 ;;
		*) want=644 ;;
		esac
		expect "mode of $f" "$(stat -c %a "$D$f")" "$want" || return 1
	done
	expect "the installed polexec is the built one" \
		"$(cmp "$I/bin/polexec" "$B/polexec" && echo same)" same
}

# use_std DIR POLC: a policy that uses std/shell (which uses std/base),
# built from DIR (not the source tree) with no -I and no POLC_PATH.
use_std() {
	mkdir -p "$1" && printf 'policy "inst" {\n  use std/shell\n}\n' \
		>"$1/p.pol" &&
		(cd "$1" && env -u POLC_PATH "$2" build p.pol -o p.polbin) \
			>"$T/polc.log" 2>&1
}

t_installed_polc_finds_its_stdlib() {
	expect "--version names the installed folder" \
		"$("$I/bin/polc" --version | sed -n 's/^standard library: //p')" \
		"$I/bin/../share/polc/stdlib-policies" || return 1
	use_std "$T/w" "$I/bin/polc" ||
		{ say "    FAIL: build with use std/shell: $(cat "$T/polc.log")"; return 1; }
	"$I/bin/polc" dump "$T/w/p.polbin" >"$T/dump" 2>&1 &&
		expect_match "dump" "$(cat "$T/dump")" 'inst' || return 1
	# twin: without the installed fragment the build fails, so it was
	# the installed one that was read (not the source tree's)
	mv "$I/share/polc/stdlib-policies/std/base.pol" "$T/base.pol" || return 1
	use_std "$T/w2" "$I/bin/polc"
	rc=$?
	mv "$T/base.pol" "$I/share/polc/stdlib-policies/std/base.pol" || return 1
	expect "without base.pol: exit" "$rc" 2 &&
		expect_match "without base.pol: says so" "$(cat "$T/polc.log")" \
			"fragment 'std/base' not found"
}

t_installed_tree_relocates() {
	mv "$D" "$T/moved" || return 1
	use_std "$T/w3" "$T/moved$P/bin/polc"
	rc=$?
	mv "$T/moved" "$D" || return 1
	expect "moved tree: build with use std/shell" "$rc" 0 ||
		{ cat "$T/polc.log"; return 1; }
}

t_installed_polexec_runs_and_records() {
	[ -f "$T/w/p.polbin" ] || use_std "$T/w" "$I/bin/polc" || return 1
	"$I/bin/polexec" --record "$T/w/rec.json" "$T/w/p.polbin" -- \
		/bin/sh -c 'exit 7' >"$T/out" 2>&1
	expect "exit status" "$?" 7 &&
		expect "version" "$("$I/bin/polexec" --version)" \
			"$("$B/polexec" --version)" || return 1
	# against the installed schema
	SCHEMA_DIR=$I/share/polc/schema schema_check run-record "$T/w/rec.json" ||
		{ say "    FAIL: the record: $SC_INVALID"; return 1; }
	# the installed shim runs the installed polexec beside it
	out=$(POLEXEC_ARTIFACT=$T/w/p.polbin "$I/bin/polexec-sh" -c 'echo ran; exit 4')
	expect "polexec-sh -c: exit" "$?" 4 &&
		expect "polexec-sh -c: output" "$out" ran &&
		expect "polexec-sh --version" "$("$I/bin/polexec-sh" --version)" \
			"polexec-sh: runs $("$B/polexec" --version)"
}

# usage_lines PROGRAM: the usage lines of PROGRAM --help (up to the first
# empty line). usage_subcommands: the word after "polc" on each.
# usage_options: every -x and --xyz on them. One a line, sorted.
usage_lines() {
	"$1" --help | sed -n '/^usage:/,/^$/p'
}
usage_subcommands() {
	sed -n 's/^\(usage:\)\{0,1\} *polc \([a-z][a-z]*\).*/\2/p' | sort -u
}
usage_options() {
	grep -oE '(^|[][ |])--?[A-Za-z][A-Za-z-]*' | sed 's/^[][ |]//' | sort -u
}

# has_item PAGE WORD: PAGE (rendered, in $text) has an item of its own for
# WORD (a tagged paragraph), not only a mention of it.
has_item() {
	printf '%s\n' "$text" | grep -Eq -- "^ {7}$2( |,|$)" && return 0
	say "    FAIL: $1 has no item for $2"
	return 1
}

t_man_pages_render_and_cover_usage() {
	for page in "$I"/share/man/man1/*.1; do
		name=${page##*/}
		name=${name%.1}
		warn=$(MANWIDTH=80 LC_ALL=C.UTF-8 man --warnings -l "$page" 2>&1 >/dev/null)
		expect "$name: warnings" "$warn" "" || return 1
		text=$(MANWIDTH=80 LC_ALL=C man -l "$page" 2>/dev/null)
		expect_match "$name: NAME" "$text" "^NAME" &&
			expect_match "$name: its name" "$text" "^ +$name(,.*)? +- " || return 1
	done
	# every installed program is named by a page (polexec-bash by
	# polexec-sh's)
	names=$(for page in "$I"/share/man/man1/*.1; do
		MANWIDTH=200 LC_ALL=C man -l "$page" 2>/dev/null |
			sed -n '/^NAME/{n;s/ - .*//;s/,/ /g;p;}'
	done)
	for prog in "$I"/bin/*; do
		expect_match "a man page names ${prog##*/}" "$names" \
			"(^| )${prog##*/}( |\$)" || return 1
	done
	text=$(MANWIDTH=200 LC_ALL=C man -l "$I/share/man/man1/polc.1")
	for w in $(usage_lines "$I/bin/polc" | usage_subcommands) \
		$(usage_lines "$I/bin/polc" | usage_options); do
		has_item polc.1 "$w" || return 1
	done
	text=$(MANWIDTH=200 LC_ALL=C man -l "$I/share/man/man1/polexec.1")
	for w in $(usage_lines "$I/bin/polexec" | usage_options); do
		has_item polexec.1 "$w" || return 1
	done
	text=$(MANWIDTH=200 LC_ALL=C man -l "$I/share/man/man1/polexec-sh.1")
	for w in $(usage_lines "$I/bin/polexec-sh" | usage_options); do
		has_item polexec-sh.1 "$w" || return 1
	done
}

# complete PROGRAM WORD...: what the installed completion (the file named
# PROGRAM) offers for the last WORD, one line, in a folder holding p.pol
# and p.polbin.
complete_words() {
	prog=$1
	shift
	mkdir -p "$T/c" && touch "$T/c/p.pol" "$T/c/p.polbin" || return 1
	# the function the file registers for PROGRAM (`complete -F FUNC`)
	(cd "$T/c" && bash -c '. "$1"; shift
		f=$(complete -p "$1" | sed -n "s/.* -F \([^ ]*\) .*/\1/p")
		COMP_WORDS=("$@"); COMP_CWORD=$((${#COMP_WORDS[@]} - 1)); "$f"
		printf "%s\n" "${COMPREPLY[@]}"' sh \
		"$I/share/bash-completion/completions/$prog" "$prog" "$@") |
		sort | tr '\n' ' '
}

t_completion_offers_usage() {
	got=$(complete_words polc "")
	for sub in $(usage_lines "$I/bin/polc" | usage_subcommands); do
		expect_match "polc completes $sub" "$got" "(^| )$sub " || return 1
		opts=$(usage_lines "$I/bin/polc" | grep -E "^(usage:)? *polc $sub " |
			usage_options)
		sgot=$(complete_words polc "$sub" -)
		for o in $opts; do
			expect_match "polc $sub completes $o" "$sgot" "(^| )$o " ||
				return 1
		done
	done
	got=$(complete_words polexec -)
	for o in $(usage_lines "$I/bin/polexec" | usage_options); do
		expect_match "polexec completes $o" "$got" "(^| )$o " || return 1
	done
	for shim in polexec-sh polexec-bash; do
		got=$(complete_words "$shim" -)
		for o in $(usage_lines "$I/bin/polexec-sh" | usage_options); do
			expect_match "$shim completes $o" "$got" "(^| )$o " ||
				return 1
		done
	done
	expect "polc build: the policy" "$(complete_words polc build p)" \
		"p.pol " &&
		expect "polexec: the artifact" "$(complete_words polexec p)" \
			"p.polbin " &&
		expect "polexec: -- after it" \
			"$(complete_words polexec p.polbin "")" "-- "
}

t_uninstall_removes_exactly_that() {
	# a file of the site's own in polc's folder is not ours to remove
	echo 'policy "x" {}' >"$I/share/polc/stdlib-policies/site.pol" ||
		return 1
	mk uninstall DESTDIR="$D" PREFIX="$P" ||
		{ say "    FAIL: make uninstall:"; sed 's/^/      /' "$T/make.log"; return 1; }
	expect "left: the site's file only" "$(files_under "$D" | tr '\n' ' ')" \
		"$P/share/polc/stdlib-policies/site.pol " || return 1
	rm "$I/share/polc/stdlib-policies/site.pol" &&
		mk uninstall DESTDIR="$D" PREFIX="$P" || return 1
	expect "no file left" "$(files_under "$D")" "" &&
		expect_absent "polc's folder" "$I/share/polc" || return 1
	# only the general folders install made remain
	left=$(cd "$D" && find . -type d | sed 's|^\.||' | sort | tr '\n' ' ')
	expect "folders left" "$left" \
		" /usr /usr/local /usr/local/bin /usr/local/lib /usr/local/share /usr/local/share/bash-completion /usr/local/share/bash-completion/completions /usr/local/share/man /usr/local/share/man/man1 "
}

t_other_prefix() {
	mk install DESTDIR="$T/opt" PREFIX=/opt/polc || return 1
	expect "files under /opt/polc" \
		"$(files_under "$T/opt" | sed 's|^/opt/polc|/usr/local|' | tr '\n' ' ')" \
		"$(expected_files | tr '\n' ' ')" || return 1
	use_std "$T/w4" "$T/opt/opt/polc/bin/polc" ||
		{ say "    FAIL: $(cat "$T/polc.log")"; return 1; }
	mk uninstall DESTDIR="$T/opt" PREFIX=/opt/polc &&
		expect "none left" "$(files_under "$T/opt")" ""
}

for f in "$B/polc" "$B/polexec" "$B/install/polc"; do
	[ -x "$f" ] || { say "install: $f is missing: run make first"; exit 2; }
done
for t in ${INSTALL_ONLY:-t_install_puts_the_file_list \
	t_installed_polc_finds_its_stdlib t_installed_tree_relocates \
	t_installed_polexec_runs_and_records \
	t_man_pages_render_and_cover_usage t_completion_offers_usage \
	t_uninstall_removes_exactly_that t_other_prefix}; do
	"$t"
	tally "$t" $?
done
[ -n "$failures" ] && say "failed:$failures"
say "install: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
