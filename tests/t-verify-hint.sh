#!/bin/sh
# t-verify-hint.sh - a run that meets references to another project's
# commits (not-here: the text names them so) and is given no --repo says,
# on the line before its summary, how many there were, which project the
# text names, and that --repo=<a clone of it> checks them, with the count
# of unknown IDs; given the other project's clone with --repo, or with no
# such reference, or in JSON, it says nothing of the kind.  Built here
# with git: an "upstream" repository and a port citing two of its commits
# as "Ported from Linux commit <id>", plus one Fixes: tag whose ID names
# nothing; and a port that names its upstream only as "upstream" (no
# project in the hint).
# Oracle: git rev-parse --disambiguate (which repository has each ID).

# shellcheck source-path=SCRIPTDIR source=setup.sh
. "$(dirname "$0")/setup.sh"

up=$tmp/upstream r=$tmp/port
git init -q "$up"
git init -q "$r"
U1=$(commit_msg "$up" "lib: add frob" | cut -c1-12)
U2=$(commit_msg "$up" "lib: add grob" | cut -c1-12)
X=0000000000ab
commit_msg "$r" "base: first" >/dev/null
commit_msg "$r" "$(printf 'lib: port frob\n\nPorted from Linux commit %s ("lib: add frob").' "$U1")" >/dev/null
commit_msg "$r" "$(printf 'lib: port grob\n\nPorted from Linux commit %s ("lib: add grob").' "$U2")" >/dev/null
fix=$(commit_msg "$r" "$(printf 'lib: fix hrob\n\nFixes: %s ("lib: add hrob")' "$X")")
for x in "$U1" "$U2" "$X"; do
	[ -z "$(git -C "$r" rev-parse --disambiguate="$x")" ] || die "$x names an object in the port"
done
[ "$(git -C "$up" rev-parse --disambiguate="$U1" | wc -l)" -eq 1 ] || die "$U1 not upstream's"
[ "$(git -C "$up" rev-parse --disambiguate="$U2" | wc -l)" -eq 1 ] || die "$U2 not upstream's"
[ -z "$(git -C "$up" rev-parse --disambiguate="$X")" ] || die "$X names an object upstream"

hint="hint: 2 references are to commits not in this repository (the text names Linux most\
 often): --repo=<a clone of it> checks them, and the 1 unknown ID if it is its"
expect_exit 1 -C "$r" "$GIT_ABBREV" verify --range=HEAD
[ "$(tail -n 2 "$out" | head -n 1)" = "$hint" ] ||
	{ fail "no hint of --repo before the summary"; show "$out"; }
tail -n 1 "$out" | grep -q '^3 references in 4 messages: 1 error, ' ||
	{ fail "the summary is not the last line"; show "$out"; }
[ "$(grep -c '^hint:' "$out")" -eq 1 ] || { fail "the hint is not said once"; show "$out"; }

# given the clone: the two are right there, no hint (the unknown ID stays an error)
expect_exit 1 -C "$r" "$GIT_ABBREV" verify --range=HEAD --repo="$up"
grep -q '^hint:' "$out" && { fail "a hint although --repo was given"; show "$out"; }
grep -q "$X" "$out" || { fail "the unknown ID is not reported with --repo"; show "$out"; }

# no reference to another project's commit: no hint
expect_exit 1 -C "$r" "$GIT_ABBREV" verify --range="$fix^!"
grep -q '^hint:' "$out" && { fail "a hint with no other project's reference"; show "$out"; }

# "upstream" names no project
r2=$tmp/port2
git init -q "$r2"
commit_msg "$r2" "$(printf 'lib: port frob\n\nPorted from upstream commit %s ("lib: add frob").' "$U1")" >/dev/null
[ -z "$(git -C "$r2" rev-parse --disambiguate="$U1")" ] || die "$U1 names an object in port2"
expect_exit 1 -C "$r2" "$GIT_ABBREV" verify --range=HEAD
[ "$(tail -n 2 "$out" | head -n 1)" = "hint: 1 reference is to commits not in this repository:\
 --repo=<a clone of the other project> checks it" ] || { fail "hint with no project named"; show "$out"; }

# JSON: a document, nothing else
expect_exit 1 -C "$r" "$GIT_ABBREV" verify --range=HEAD --format=json
jget "$out" 1 >/dev/null 2>&1 ||
	{ fail "JSON output is not one document"; show "$out"; }
finish
