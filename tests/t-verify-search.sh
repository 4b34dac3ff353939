#!/bin/sh
# t-verify-search.sh - which commit verify takes for a reference's subject
# when several commits have it.  A repository as a hosting site's mirror
# has it: main holds the merged version of a commit, a pull request's ref
# (refs/pull/1/head) an older, never-merged version with the same subject;
# three commits on main share the subject "typos".  A wrong ID with the
# merged subject must lead to main's commit (not the older pull request's),
# and a wrong ID with "typos" must list the three as candidates, nearest
# first, in text and JSON, with no suggestion, and --fix must leave the
# text alone.  Every ID and subject comes from git.

# shellcheck source-path=SCRIPTDIR source=setup.sh
. "$(dirname "$0")/setup.sh"

repo=$tmp/r
G() { git -C "$repo" "$@"; }
n=0
commit() { # SUBJECT: a commit on the branch checked out, a minute after the last; $last
	n=$((n + 1))
	echo "$n" >"$repo/f$n"
	G add "f$n"
	GIT_COMMITTER_DATE="$((1112911993 + 60 * n)) +0000" G commit -q -m "$1"
	last=$(G rev-parse HEAD)
}
git init -q "$repo"
G checkout -q -b main
commit "base"
# the pull request's version, older, never merged
G checkout -q -b pr
commit "graph: write chains"; PR=$last
G checkout -q main
G update-ref refs/pull/1/head "$PR"
G branch -q -D pr
commit "typos"; T1=$last
commit "graph: write chains"; MAIN=$last
commit "typos"; T2=$last
commit "between"
commit "typos"; T3=$last
commit "tip"
short() { G rev-parse --short=12 "$1"; }
[ "$(G log -1 --format=%s "$PR")" = "$(G log -1 --format=%s "$MAIN")" ] || die "subjects differ"
[ -z "$(G branch -a --contains "$PR")" ] || die "the pull request's commit is on a branch"
U=0000000000ab
[ -z "$(G rev-parse --disambiguate=$U)" ] || die "$U names an object"

# ---- the merged commit, not the pull request's older copy ----------------------
printf 'Fixes: %s ("graph: write chains")\n' "$U" >"$tmp/one.txt"
expect_exit 1 -C "$repo" "$GIT_ABBREV" verify "$tmp/one.txt"
grep -q "suggestion: Fixes: $(short "$MAIN") (\"graph: write chains\")" "$out" ||
	{ fail "the reachable commit is not the one suggested"; show "$out"; }
grep -q "$(short "$PR")" "$out" && { fail "the pull request's commit is named"; show "$out"; }
expect_exit 1 -C "$repo" "$GIT_ABBREV" verify --fix "$tmp/one.txt"
printf 'Fixes: %s ("graph: write chains")\n' "$(short "$MAIN")" >"$tmp/one.want"
cmp -s "$out" "$tmp/one.want" || { fail "--fix did not take main's commit"; show "$out"; }

# ---- three commits with the subject: candidates, no suggestion, no fix ---------
printf 'Intro.\n\nFixes: %s ("typos")\n' "$U" >"$tmp/typos.txt"
expect_exit 1 -C "$repo" "$GIT_ABBREV" verify "$tmp/typos.txt"
grep -q "error: $U names no object in this repository; 3 commits have this subject" "$out" ||
	{ fail "several commits not said"; show "$out"; }
# newest first (a file has no commit to be near): T3, T2, T1
grep 'candidate:' "$out" >"$tmp/cands"
printf '    candidate: %s ("typos")\n' "$T3" "$T2" "$T1" >"$tmp/cands.want"
cmp -s "$tmp/cands" "$tmp/cands.want" || { fail "candidates"; show "$tmp/cands"; }
grep -q suggestion "$out" && { fail "a suggestion among several"; show "$out"; }
expect_exit 1 -C "$repo" "$GIT_ABBREV" verify --fix "$tmp/typos.txt"
cmp -s "$out" "$tmp/typos.txt" || { fail "--fix rewrote a reference with several candidates"; show "$out"; }
expect_exit 1 -C "$repo" "$GIT_ABBREV" verify --format=json "$tmp/typos.txt"
py_check "JSON candidates" verify_check.py candidates "$out" "$T3" "$T2" "$T1"

# ---- --range: the one ancestor of the commit checked is the one meant ----------
# a commit after T2 (so T3 is no ancestor of it) fixing "typos": T1 and T2 remain,
# nearest first; and one after T1 only (a branch from MAIN's parent) takes T1
G checkout -q -b side "$T1"
printf 'x\n' >"$repo/side"
G add side
GIT_COMMITTER_DATE="$((1112911993 + 6000)) +0000" G commit -q -m "side fix

Fixes: $U (\"typos\")"
SIDE=$(G rev-parse HEAD)
G checkout -q main
expect_exit 1 -C "$repo" "$GIT_ABBREV" verify --range="$SIDE" --format=json
py_check "--range: the one ancestor" verify_check.py commit_suggests "$out" "$SIDE" "$(short "$T1")"

# ---- nine commits with the subject: the eight nearest listed, and said so ------
for k in 1 2 3 4 5 6; do commit "typos"; done
expect_exit 1 -C "$repo" "$GIT_ABBREV" verify "$tmp/typos.txt"
grep -q "; 9 commits have this subject, none told apart as the one meant (the 8 nearest listed)" "$out" ||
	{ fail "nine candidates not said"; show "$out"; }
[ "$(grep -c 'candidate:' "$out")" -eq 8 ] || { fail "not 8 candidates listed"; show "$out"; }
grep -q "candidate: $T1 " "$out" && { fail "the oldest of nine listed"; show "$out"; }

finish
