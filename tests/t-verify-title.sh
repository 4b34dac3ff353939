#!/bin/sh
# t-verify-title.sh - a cited commit whose subject is a paragraph (no
# blank line after its title line): git's %s joins the paragraph, and a
# reference that writes the title line, as anyone quotes it, matches.
# Recall: a subject cut short of a one-line subject (no "..."), and the
# title with a word changed, stay subject-mismatch errors.
# Oracle: git log --format=%s (the paragraph) and the message's first
# line (git log --format=%B), compared here.

# shellcheck source-path=SCRIPTDIR source=setup.sh
. "$(dirname "$0")/setup.sh"

r=$tmp/title
git init -q "$r"
c() { commit_msg "$r" "$1"; } # message
c "base: first" >/dev/null
para=$(c "area: add the frob
with more words on a second line

The body.")
one=$(c "area: add the grob table for the lookups")
p12=$(git -C "$r" rev-parse --short=12 "$para")
o12=$(git -C "$r" rev-parse --short=12 "$one")
title=$(git -C "$r" log -1 --format=%B "$para" | head -1)
subj=$(git -C "$r" log -1 --format=%s "$para")
[ "$title" = "area: add the frob" ] && [ "$subj" != "$title" ] || die "the paragraph subject"
git -C "$r" log -1 --format=%s "$one" | grep -qx "area: add the grob table for the lookups" ||
	die "the one-line subject"
fix=$(c "area: fix the frob

Fixes: $p12 (\"$title\")")
cut=$(c "area: fix the grob

Fixes: $o12 (\"area: add the grob table\")")
word=$(c "area: fix the frob again

Fixes: $p12 (\"area: add the frobs\")")

expect_exit 1 -C "$r" "$GIT_ABBREV" verify --range=HEAD --format=json
py_check "the title line is not taken for the subject" verify_check.py findings "$out" 2 "$fix::" "$cut::subject-mismatch" "$word::subject-mismatch"
# a patch written now: the same
printf 'Fixes: %s ("%s")\n' "$p12" "$title" >"$tmp/patch"
expect_exit 0 -C "$r" "$GIT_ABBREV" verify "$tmp/patch"
finish
