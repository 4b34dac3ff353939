#!/bin/sh
# t-help-width.sh - every line of the help fits in 80 columns: `git abbrev
# -h`, `help`, and for each command of the command table (the words of
# --git-completion-helper=commands) its -h, `help --usage <cmd>` and the
# usage a usage error prints.  Nothing is lost in the wrapping: every
# option the completion offers starts a line of the command's -h, and the
# help's words are the words of the table's help, in order.
. "$(dirname "$0")/setup.sh"

# width LABEL FILE: at most 80 columns in every line of FILE
width() {
	checks=$((checks + 1))
	[ -s "$2" ] || { fail "$1: nothing printed"; return 0; }
	LC_ALL=C.UTF-8 awk 'length > 80 { print length ": " $0 }' "$2" >"$tmp/wide"
	[ ! -s "$tmp/wide" ] || { fail "$1: lines over 80 columns"; sed -n '1,5s/^/    | /p' "$tmp/wide"; }
}

expect_exit 129 "$GIT_ABBREV" -h
width "git abbrev -h" "$out"
cp "$out" "$tmp/top"
expect_exit 0 "$GIT_ABBREV" help
width "git abbrev help" "$out"

expect_exit 0 "$GIT_ABBREV" --git-completion-helper=commands
cmds=$(cat "$out")
n=0
for c in $cmds; do
	n=$((n + 1))
	checks=$((checks + 1))
	grep -q "^  $c " "$tmp/top" || fail "git abbrev -h does not list $c"
	expect_exit 129 "$GIT_ABBREV" "$c" -h
	width "$c -h" "$out"
	cp "$out" "$tmp/h.$c"
	expect_exit 0 "$GIT_ABBREV" help --usage "$c"
	width "help --usage $c" "$out"
	checks=$((checks + 1))
	cmp -s "$out" "$tmp/h.$c" || fail "help --usage $c is not $c -h"
	expect_exit 2 "$GIT_ABBREV" "$c" --no-such-option-here
	width "$c --no-such-option-here (the usage on stderr)" "$err"
	# every option the completion offers begins a line of -h
	expect_exit 0 "$GIT_ABBREV" "$c" --git-completion-helper
	for o in $(cat "$out"); do
		checks=$((checks + 1))
		o=${o%=}
		grep -Eq "^ +(-., )?$o([=| ]|\$)" "$tmp/h.$c" || fail "$c -h: no line for $o"
	done
done
checks=$((checks + 1))
[ "$n" -ge 10 ] || fail "only $n commands in the table: $cmds"
finish
