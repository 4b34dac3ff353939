#!/bin/sh
# t-verify-unclosed.sh - a subject that is never closed (its ")" lost,
# or its closing quote followed by a comma at a line wrap): the parser
# ends it at its line's end, and when its words are the start of the
# commit's subject it is a layout warning (with the style warning), not
# a subject-mismatch error; the next line's Fixes: tag is its own.
# Recall: an unclosed subject with a word changed stays an error.
# Oracle: git log --format=%s of each cited commit, compared here.

# shellcheck source-path=SCRIPTDIR source=setup.sh
. "$(dirname "$0")/setup.sh"

r=$tmp/unclosed
git init -q "$r"
c() { commit_msg "$r" "$1"; } # message
c "base: first" >/dev/null
a=$(c "area: don't die in get_options().")
b=$(c "area: don't die in parse_priority().")
w=$(c "area: mark packets as \"untracked\" after call to ct().")
a12=$(git -C "$r" rev-parse --short=12 "$a")
b12=$(git -C "$r" rev-parse --short=12 "$b")
w12=$(git -C "$r" rev-parse --short=12 "$w")
for x in "$a:area: don't die in get_options()." "$b:area: don't die in parse_priority()." \
	"$w:area: mark packets as \"untracked\" after call to ct()."; do
	[ "$(git -C "$r" log -1 --format=%s "${x%%:*}")" = "${x#*:}" ] || die "subject of ${x%%:*}"
done
lost=$(c "area: fix both

Fixes: $a12 (\"area: don't die in get_options().\"
Fixes: $b12 (\"area: don't die in parse_priority().\")")
wrap=$(c "area: report ct fields

With commit $w12 (\"area: mark packets as \"untracked\" after
call to ct()\", after the ct() action, the state is set.")
word=$(c "area: fix it again

Fixes: $a12 (\"area: don't dye in get_options().\"")

expect_exit 1 -C "$r" "$GIT_ABBREV" verify --range=HEAD --format=json
py_check "unclosed subjects misjudged" verify_check.py findings "$out" 1 "$lost:$a:layout,style" "$lost:$b:" "$wrap:$w:layout,style" "$word:$a:style,subject-mismatch"
finish
