#!/bin/sh
# t-verify-forms.sh - every row of docs/verify-forms.md (the forms of
# commit references verify reads, and its verdict on each) run against a
# small repository: tests/verify_forms.py fills each row's placeholders from
# git, runs verify on the row alone and compares the verdict with the
# table's.  A row the tool disagrees with fails the test, so the page
# cannot drift.

# shellcheck source-path=SCRIPTDIR source=setup.sh
. "$(dirname "$0")/setup.sh"

repo=$tmp/r
G() { git -C "$repo" "$@"; }
n=0
commit() { # SUBJECT: a commit a day after the last
	n=$((n + 1))
	echo "$n" >"$repo/f$n"
	G add "f$n"
	GIT_AUTHOR_DATE="$((1112911993 + 86400 * n)) +0000" \
	GIT_COMMITTER_DATE="$((1112911993 + 86400 * n)) +0000" G commit -q -m "$1"
}
git init -q "$repo"
G checkout -q -b main
commit "base"
commit "area: make the loop end early when the list is empty"
commit "other: a different change"

checks=$((checks + 1))
if "$PYTHON3" "$tests_dir/verify_forms.py" "$srcdir/docs/verify-forms.md" "$repo" \
	"$GIT_ABBREV" >"$tmp/forms.out" 2>&1; then
	say "$(tail -1 "$tmp/forms.out")"
else
	fail "the table of forms and verify disagree"
	sed 's/^/    /' "$tmp/forms.out"
fi
finish
