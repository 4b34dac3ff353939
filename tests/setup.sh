# setup.sh - sourced by every tests/t-*.sh.
#
# Gives each test: `set -eu`, LC_ALL=C, a private temp dir ($tmp, removed on
# exit), a git environment with fixed identity, dates, TZ and an empty HOME
# so object IDs are the same on every machine, and helpers:
#   say MSG                 print what is being checked
#   fail MSG                record a failed check (the test goes on)
#   die MSG                 abort the test with status 1 (broken setup)
#   skip MSG                exit 77 (automake's "skipped")
#   finish                  exit 0 if nothing failed, else 1
#   expect_exit CODE [-C DIR] CMD...
#                           run CMD (in DIR), stdout to "$out", stderr to
#                           "$err", fail unless it exits with CODE ("3+":
#                           3 or more, but not killed by a signal; 129
#                           only when CODE is 129, -h's status); never
#                           aborts; sets $rc
#   one_line FILE           true if FILE is exactly one non-empty line
#   verify_summary N M E W  the line verify's text output ends with: "N
#                           references in M messages: E errors, W
#                           warnings", a count of 1 in the singular
#   gen_repo DIR SCENARIO   tests/gen_repo.py, its JSON to DIR.json (a copy
#                           of $ABBREV_FIXTURES/SCENARIO when `make check`
#                           built it there, as Makefile.am does)
#   jget FILE EXPR          the Python expression EXPR over `d`, FILE's
#                           JSON, printed (tests/jget.py)
#   wait_paused PID MARK WHAT
#                           wait for the background tool PID to reach its
#                           test hook's pause (the file MARK exists)
#   oracle_compare LABEL JSON REPO...
#                           compare the tool's JSON with tests/oracle.py
#   py_check LABEL MODULE ARGS...
#                           one counted check by tests/MODULE (Python),
#                           failed under LABEL if it exits non-zero
#
# Paths: the scripts are found beside this file ($tests_dir, from $0, so
# VPATH builds and `make distcheck` with a read-only source tree work); the
# binary is $GIT_ABBREV (exported by the Makefile), else src/git-abbrev of
# the build tree (the current directory or its parent).  Nothing is written
# outside $tmp.

set -eu
LC_ALL=C
export LC_ALL
unset LANG LANGUAGE || :

test_name=$(basename "$0" .sh)
tests_dir=$(cd "$(dirname "$0")" && pwd)
if [ -n "${srcdir:-}" ] && [ -f "$srcdir/tests/setup.sh" ]; then
	srcdir=$(cd "$srcdir" && pwd)
else
	srcdir=$(cd "$tests_dir/.." && pwd)
fi
export srcdir

skip() { echo "SKIP: $test_name: $*"; exit 77; }
die() { echo "ERROR: $test_name: $*" >&2; exit 1; }

command -v git >/dev/null 2>&1 || skip "git not found"
PYTHON3=${PYTHON3:-python3}
export PYTHON3
command -v "$PYTHON3" >/dev/null 2>&1 || skip "$PYTHON3 not found"

if [ -z "${GIT_ABBREV:-}" ]; then
	for c in "$PWD/src/git-abbrev" "$PWD/../src/git-abbrev" \
		 "$srcdir/src/git-abbrev"; do
		if [ -x "$c" ]; then GIT_ABBREV=$c; break; fi
	done
fi
[ -n "${GIT_ABBREV:-}" ] || die "no git-abbrev binary: set GIT_ABBREV"
case $GIT_ABBREV in
/*) ;;
*) GIT_ABBREV=$(cd "$(dirname "$GIT_ABBREV")" && pwd)/$(basename "$GIT_ABBREV") ;;
esac
[ -x "$GIT_ABBREV" ] || die "$GIT_ABBREV is not executable"
export GIT_ABBREV

tmp=$(mktemp -d "${TMPDIR:-/tmp}/git-abbrev-$test_name.XXXXXX") ||
	die "cannot create a temp dir"
tmp=$(cd "$tmp" && pwd -P)
# shellcheck disable=SC2154 # st is set inside the trap
trap 'st=$?; rm -rf "$tmp"; exit $st' EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# python3 itself, named once: a version manager's shim (pyenv's is a chain
# of shell scripts) finds the interpreter anew on every call, a second of
# a loaded machine each time, and the scripts call it hundreds of times.
# A directory of the test's own, first in PATH, serves `python3` and the
# `#!/usr/bin/env python3` helpers alike.  It starts python3 without the
# site module (-S): the helpers use the standard library only, and a
# site-packages .pth file (a distribution's, a sandbox's) may import
# modules at every start, more than many a helper's own work (95 ms of CPU
# a start on one machine, 37 without).
py=$("$PYTHON3" -S -c 'import sys; print(sys.executable)') && [ -x "$py" ] ||
	die "$PYTHON3 does not say where it is"
mkdir "$tmp/bin"
printf '#!/bin/sh\nexec '\''%s'\'' -S "$@"\n' "$(printf '%s' "$py" | sed "s/'/'\\\\''/g")" \
	>"$tmp/bin/python3"
chmod +x "$tmp/bin/python3"
PYTHON3=$tmp/bin/python3
PATH=$tmp/bin:$PATH
export PATH

# The git environment: nothing from the user, fixed identity and dates.
unset GIT_DIR GIT_WORK_TREE GIT_INDEX_FILE GIT_OBJECT_DIRECTORY \
      GIT_ALTERNATE_OBJECT_DIRECTORIES GIT_CEILING_DIRECTORIES \
      GIT_NAMESPACE GIT_COMMON_DIR GIT_CONFIG GIT_CONFIG_PARAMETERS \
      GIT_CONFIG_COUNT GIT_CONFIG_GLOBAL GIT_PREFIX XDG_CONFIG_HOME \
      GIT_TRACE GIT_PAGER PAGER XDG_CACHE_HOME || :
HOME=$tmp/home
mkdir "$HOME"
# verify's subject cache: in the test's own directory, never the user's
GIT_ABBREV_CACHE_DIR=$tmp/cache
GIT_CONFIG_NOSYSTEM=1
GIT_AUTHOR_NAME='A U Thor'
GIT_AUTHOR_EMAIL=author@example.com
GIT_AUTHOR_DATE='1112911993 +0000'
GIT_COMMITTER_NAME='C O Mitter'
GIT_COMMITTER_EMAIL=committer@example.com
GIT_COMMITTER_DATE='1112911993 +0000'
TZ=UTC
PYTHONDONTWRITEBYTECODE=1
export HOME GIT_ABBREV_CACHE_DIR GIT_CONFIG_NOSYSTEM GIT_AUTHOR_NAME GIT_AUTHOR_EMAIL \
       GIT_AUTHOR_DATE GIT_COMMITTER_NAME GIT_COMMITTER_EMAIL \
       GIT_COMMITTER_DATE TZ PYTHONDONTWRITEBYTECODE

failures=0
checks=0
runs=0

say() { echo "$test_name: $*"; }

fail() {
	echo "FAIL: $test_name: $*"
	failures=$((failures + 1))
}

finish() {
	if [ "$failures" -eq 0 ]; then
		say "all $checks checks passed"
		exit 0
	fi
	echo "$test_name: $failures of $checks checks FAILED"
	exit 1
}

# Show a captured file under a failure message (first lines only).
show() {
	[ -s "$1" ] || return 0
	sed -n '1,15s/^/    | /p' "$1"
}

expect_exit() {
	want=$1
	shift
	dir=.
	if [ "${1:-}" = -C ]; then
		dir=$2
		shift 2
	fi
	runs=$((runs + 1))
	checks=$((checks + 1))
	out=$tmp/run$runs.out
	err=$tmp/run$runs.err
	if (cd "$dir" && exec "$@") >"$out" 2>"$err"; then rc=0; else rc=$?; fi
	# 129 is -h's status (as git's); any other status past 128 a signal
	if [ "$rc" -ge 128 ] && [ "$rc" != "$want" ]; then
		fail "crashed (status $rc): $*"
		show "$err"
		return 0
	fi
	case $want in
	*+) [ "$rc" -ge "${want%+}" ] && return 0 ;;
	*) [ "$rc" -eq "$want" ] && return 0 ;;
	esac
	fail "exit $rc, want $want: $*"
	show "$err"
	return 0
}

# Exactly one line: non-empty, a single newline, at the end.
verify_summary() {
	_n() { if [ "$1" = 1 ]; then echo "1 $2"; else echo "$1 $2s"; fi; }
	echo "$(_n "$1" reference) in $(_n "$2" message): $(_n "$3" error), $(_n "$4" warning)"
}

# One commit in REPO with MESSAGE as given (git's cleanup only), changing
# the file f; prints its ID.  For the verify tests that craft messages.
commit_msg() { # REPO MESSAGE
	echo "$2" >>"$1/f"
	git -C "$1" add f
	printf '%s\n' "$2" | git -C "$1" commit -q -F -
	git -C "$1" rev-parse HEAD
}

# The commands whose `-h` offers --format=...FORMAT, read from the tool's
# own `help` and each command's `-h` (which exits 129, as git's), one a
# line into FILE: a test over every command with that format finds them
# here, so a new command cannot be left out of it.
commands_offering() { # FORMAT FILE
	expect_exit 0 "$GIT_ABBREV" help
	sed -n 's/^  \([a-z][a-z]*\)  .*/\1/p' "$out" >"$tmp/commands_offering"
	: >"$2"
	while read -r co_cmd; do
		expect_exit 129 "$GIT_ABBREV" "$co_cmd" -h
		if grep -q -- "--format=[a-z|]*$1" "$out"; then
			echo "$co_cmd" >>"$2"
		fi
	done <"$tmp/commands_offering"
}

one_line() {
	[ -s "$1" ] || return 1
	[ "$(wc -l <"$1" | tr -d ' ')" -eq 1 ] || return 1
	[ -z "$(tail -c 1 "$1")" ] || return 1
	[ "$(wc -c <"$1" | tr -d ' ')" -gt 1 ]
}

# Wait until the tool running in the background as PID has reached its
# test hook's pause (src/core/test_hooks.h: the file MARK, from
# GIT_ABBREV_TEST_PAUSED, exists), not for a fixed time: on a loaded
# machine it may take long to get there.  Dies if it never does.
wait_paused() { # PID MARK WHAT
	n=0
	while [ ! -e "$2" ] && kill -0 "$1" 2>/dev/null && [ "$n" -lt 1200 ]; do
		sleep 0.05
		n=$((n + 1))
	done
	[ -e "$2" ] || die "$3 never reached its pause"
}

gen_repo() {
	"$PYTHON3" "$tests_dir/gen_repo.py" "$1" --scenario "$2" \
		${ABBREV_FIXTURES:+--built "$ABBREV_FIXTURES"} >"$1.json" ||
		die "gen_repo.py $2 failed"
}

# small_history DIR WORD N [PER]: a repository of N commits, the i-th
# "WORD: change number i", PER of them (default 1) a minute, in one pack
small_history() {
	git init -q "$1"
	sh_i=1
	while [ "$sh_i" -le "$3" ]; do
		echo "$sh_i" >"$1/f$sh_i"
		git -C "$1" add "f$sh_i"
		GIT_COMMITTER_DATE="$((1112911993 + 60 * (sh_i / ${4:-1}))) +0000" \
			git -C "$1" commit -q -m "$2: change number $sh_i"
		sh_i=$((sh_i + 1))
	done
	git -C "$1" repack -q -a -d
}

# mark_unused FILE...: dated 2001, before any run marks them used
mark_unused() {
	touch -d '2001-01-01' "$@"
}
# all_used LABEL FILE...: one check, failed under LABEL unless every FILE
# was marked used (read) since mark_unused
all_used() {
	au_label=$1
	shift
	checks=$((checks + 1))
	[ -z "$(find "$@" ! -newermt '2002-01-01')" ] || fail "$au_label: a file was not read (not marked used)"
}

# crafted_pack A B: B's pack renamed to the checksum of A's (the two of
# the same object count), its .pack and .idx claiming it (the .idx's own
# checksum made right); prints that checksum (fails when it cannot)
crafted_pack() {
	cp_sum=$(ls "$1"/.git/objects/pack/*.pack | sed 's|.*/pack-||; s|\.pack$||')
	[ "$(git -C "$1" count-objects -v | grep in-pack)" = \
	  "$(git -C "$2" count-objects -v | grep in-pack)" ] || return 1
	"$PYTHON3" "$tests_dir/damage.py" pack-checksum "$2/.git/objects/pack" "$cp_sum" || return 1
	[ -f "$2/.git/objects/pack/pack-$cp_sum.idx" ] || return 1
	echo "$cp_sum"
}

# git fast-import [GIT-ARGS...] <stream, quiet: glibc's heap trimming off
# (gen_repo.py and the Check suites do the same), since fast-import
# otherwise gives its heap back and takes it again with brk() every few
# commits: t-commit-days' 500 commits faulted 116k pages, 50k without
fast_import() {
	GLIBC_TUNABLES=glibc.malloc.trim_threshold=268435456 git "$@" fast-import --quiet
}

jget() {
	"$PYTHON3" "$tests_dir/jget.py" "$@"
}

oracle_compare() {
	label=$1
	shift
	checks=$((checks + 1))
	if "$PYTHON3" "$tests_dir/oracle.py" --compare "$@" >"$tmp/compare.out" 2>&1
	then
		:
	else
		fail "$label: tool and oracle differ"
		sed 's/^/    /' "$tmp/compare.out"
	fi
}

# py_check LABEL MODULE ARGS...: one check by the Python module
# tests/MODULE, which prints what differs (or raises) and exits non-zero
# if anything does: the check fails under LABEL, its output shown.
py_check() {
	pc_label=$1 pc_module=$2
	shift 2
	checks=$((checks + 1))
	if "$PYTHON3" "$tests_dir/$pc_module" "$@" >"$tmp/py_check.out" 2>&1; then
		return 0
	fi
	fail "$pc_label"
	show "$tmp/py_check.out"
}
