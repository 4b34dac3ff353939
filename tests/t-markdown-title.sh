#!/bin/sh
# t-markdown-title.sh - Markdown is pasted where our paths mean nothing:
# every command whose -h offers --format=markdown (from the tool's own
# help) heads its document with --title when given, and otherwise names
# a repository by its name, never by the local path it was read from;
# every title is a level-3 heading ("### "), the level of all of them.

# shellcheck source-path=SCRIPTDIR source=setup.sh
. "$(dirname "$0")/setup.sh"

r=$tmp/planted
gen_repo "$r" planted
real=$(cd "$r" && pwd -P)
git -C "$r" cat-file --batch-all-objects --batch-check >"$tmp/ids"
expect_exit 0 "$GIT_ABBREV" report --format=partial "$r"
cp "$out" "$tmp/part"

say "the commands that offer --format=markdown, from the tool's own help"
commands_offering markdown "$tmp/md-commands"

args() { # COMMAND: its arguments here
	case $1 in
	report | history | policy) echo "$r" ;;
	model) echo "--objects=1000" ;;
	audit) echo "-C $r" ;;
	ids) echo "$tmp/ids" ;;
	merge) echo "$tmp/part" ;;
	*) echo "?" ;;
	esac
}
title='Abbrev <12> & 16'
while read -r c; do
	a=$(args "$c")
	checks=$((checks + 1))
	if [ "$a" = "?" ]; then
		fail "$c offers --format=markdown and is not run here"
		continue
	fi
	# shellcheck disable=SC2086 # the arguments are words
	expect_exit 0 "$GIT_ABBREV" $c --format=markdown --title="$title" $a
	head=$(grep -m 1 '^#' "$out" || :)
	case $head in
	*"$title"*) ;;
	*) fail "$c --title: the heading is '$head'" ;;
	esac
	# one level for every command's title, so that documents pasted one
	# after another in an issue or a mail sit side by side
	checks=$((checks + 1))
	case $head in
	"### "*) ;;
	*) fail "$c: the title is not a level-3 heading: '$head'" ;;
	esac
	# shellcheck disable=SC2086
	expect_exit 0 "$GIT_ABBREV" $c --format=markdown $a
	checks=$((checks + 1))
	if grep -n -e "$tmp" -e "$real" "$out" >"$tmp/paths"; then
		fail "$c: a local path in the Markdown"
		show "$tmp/paths"
	fi
	case $c in
	report | history | policy)
		checks=$((checks + 1))
		grep -m 1 '^#' "$out" | grep -q '`planted`' ||
			fail "$c: the heading does not name the repository: $(grep -m 1 '^#' "$out")"
		;;
	esac
done <"$tmp/md-commands"
finish
