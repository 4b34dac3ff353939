#!/bin/sh
# t-watch.sh - `git abbrev watch` flags a new commit that shares a long
# prefix with an existing one.  gen_repo.py watch: 256 commits pushed
# (refs/remotes/origin/main), later ones citing one of them six times
# (four by 12 hex chars, two by 7); on the topic branch checked out, a
# commit brute-forced to share >= 7 hex chars with it.  Oracles: the
# generator's plan (which commits, how many citations), git rev-parse
# --disambiguate (the shared prefix names both), git rev-list (the range
# watched by default), the chance for random IDs computed here from the
# objects git lists.

# shellcheck source-path=SCRIPTDIR source=setup.sh
. "$(dirname "$0")/setup.sh"

r=$tmp/watch
gen_repo "$r" watch
J() { jget "$r.json" "$1"; }
crafted=$(J 'd["crafted"]')
target=$(J 'd["target"]')
shared=$(J 'd["shared"]')
[ "$shared" -ge 7 ] || die "the crafted commit shares $shared chars only"
git -C "$r" rev-parse --disambiguate="$(echo "$target" | cut -c1-"$shared")" | sort >"$tmp/both"
[ "$(cat "$tmp/both")" = "$(printf '%s\n' "$crafted" "$target" | sort)" ] ||
	die "the shared prefix does not name exactly the two commits"
# what the default range is: HEAD less the remote-tracking branches
[ "$(git -C "$r" rev-list HEAD --not --remotes)" = "$crafted" ] || die "the topic is not one commit"

say "the crafted commit: exit 1, both named, the citations, possibly crafted"
expect_exit 1 -C "$r" "$GIT_ABBREV" watch --length=7
grep -q "commit $crafted " "$out" || fail "the crafted commit is not named: $(cat "$out")"
grep -q "with commit $target " "$out" || fail "the cited commit is not named"
grep -q "shares $shared hex chars" "$out" || fail "not $shared shared chars"
grep -q "cited 6 times in the history, 2 of them by $shared hex chars or fewer: ambiguous now" "$out" ||
	fail "not its six citations, two of them ambiguous now: $(cat "$out")"
grep -q "possibly crafted" "$out" || fail "not called possibly crafted"

say "the JSON: the chance for random IDs, from the objects git lists"
nobj=$(git -C "$r" cat-file --batch-all-objects --batch-check | wc -l)
expect_exit 1 -C "$r" "$GIT_ABBREV" watch --length=7 --format=json
py_check "watch's JSON is not as planted" report_check.py watch "$out" "$crafted" "$target" "$shared" "$nobj"

say "a quiet history: the pushed commits, the default length (12)"
expect_exit 0 -C "$r" "$GIT_ABBREV" watch
[ -s "$out" ] && fail "watch at 12 chars said: $(cat "$out")"
# the pushed history alone (the crafted commit not fetched): nothing at 7 chars
git clone -q --no-local --bare --single-branch --branch main "$r" "$tmp/quiet.git"
git -C "$tmp/quiet.git" cat-file -e "$crafted" 2>/dev/null && die "the clone has the crafted commit"
expect_exit 0 -C "$tmp/quiet.git" "$GIT_ABBREV" watch --length=7 main
[ -s "$out" ] && fail "watch of the pushed history said: $(cat "$out")"
# in the repository with both, the cited commit is flagged too: it shares 7 chars
# with the crafted one, as random IDs among the range's 262 commits may
expect_exit 1 -C "$r" "$GIT_ABBREV" watch --length=7 origin/main
grep -q "commit $target " "$out" || fail "watch origin/main does not name the cited commit"
grep -q "possibly crafted" "$out" && fail "watch origin/main calls a 7-char share among 262 commits crafted"
git -C "$r" config abbrev.minLength 7
expect_exit 1 -C "$r" "$GIT_ABBREV" watch
git -C "$r" config --unset abbrev.minLength
expect_exit 2 -C "$r" "$GIT_ABBREV" watch no-such-rev
expect_exit 2 -C "$r" "$GIT_ABBREV" watch --length=3
finish
