#!/bin/sh
# t-perms.sh - a repository the user may not fully read: its pack
# directory, one loose object directory, or one pack file unreadable.
# Each is a one-line error naming what could not be read, exit 3, nothing
# on stdout (never a short count presented as whole).  Runs the tool as
# the unprivileged user nobody, since root reads everything; skipped
# where that is not possible.
. "$(dirname "$0")/setup.sh"

[ "$(id -u)" -eq 0 ] || skip "needs root to run the tool as another user"
command -v setpriv >/dev/null 2>&1 || skip "setpriv not found"
id nobody >/dev/null 2>&1 || skip "no user nobody"

# a world-readable place: the temp dir itself is private
pub=$tmp/pub
mkdir "$pub"
chmod 755 "$tmp" "$pub"
gen_repo "$pub/repo" planted
chmod -R a+rX "$pub"
# nobody's own repository (libgit2 refuses one owned by someone else)
chown -R nobody:nogroup "$pub/repo"
git config --global --add safe.directory '*' # for the oracle, run as root
mkdir "$pub/home"
chmod 755 "$pub/home"

# (a command prefix, not a function: expect_exit execs its command)
as_nobody="setpriv --reuid=nobody --regid=nogroup --clear-groups env HOME=$pub/home"

# shellcheck disable=SC2086
# the tool is readable and runnable by nobody only if its path is
checks=$((checks + 1))
if ! $as_nobody "$GIT_ABBREV" --version >/dev/null 2>&1; then
	skip "nobody cannot run $GIT_ABBREV (a private build directory)"
fi

expect_exit 0 $as_nobody "$GIT_ABBREV" --format=json "$pub/repo"
oracle_compare "readable by nobody" "$out" "$pub/repo"

obj=$pub/repo/.git/objects
unreadable() { # WHAT PATH: take PATH away, expect a clean failure naming it
	chown root:root "$2"
	chmod go-rwx "$2"
	expect_exit 3 $as_nobody "$GIT_ABBREV" --format=json "$pub/repo"
	one_line "$err" || fail "$1: not one line on stderr: $(cat "$err")"
	[ -s "$out" ] && fail "$1: printed on stdout"
	grep -q "ermission denied" "$err" || fail "$1: does not say why: $(cat "$err")"
	chmod go+rX "$2"
	chown nobody:nogroup "$2"
}
unreadable "the pack directory" "$obj/pack"
unreadable "a pack file" "$(ls "$obj"/pack/pack-*.pack | head -n 1)"
unreadable "a loose object directory" "$(ls -d "$obj"/[0-9a-f][0-9a-f] | head -n 1)"
unreadable "a loose object" "$(ls "$obj"/[0-9a-f][0-9a-f]/* | head -n 1)"
unreadable "the objects directory" "$obj"
finish
