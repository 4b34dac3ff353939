#!/bin/sh
# t-audit.sh - `git abbrev audit` counts every reference of a history by
# class and year.  gen_repo.py audit plants each class of cite_audit.h
# twice (and two more), each in a commit of its own dated over 2018-2021,
# in zones where the committer's year is not UTC's (23:30 UTC on Dec 31st
# at +0100).  Oracles: the generator's list of what it planted, tallied
# by tests/audit_check.py; the year of each citing commit as `git log
# --date=short` prints its committer date; `git rev-parse --disambiguate`
# for the prefixes ambiguous today.  Every count of the JSON, CSV and text is
# checked against the tally, the shares sum to 100%, --format=map lists
# exactly the wrong references, the text stays within 80 columns: the
# checks are tests/audit_check.py's.

# shellcheck source-path=SCRIPTDIR source=setup.sh
. "$(dirname "$0")/setup.sh"

r=$tmp/audit
gen_repo "$r" audit
export GIT_ABBREV_CACHE_DIR="$tmp/cache"

# git's own year of each commit: the committer date in the committer's zone
git -C "$r" log --date=short --format='%H %cd' main >"$tmp/years"

expect_exit 0 -C "$r" "$GIT_ABBREV" audit --format=json
cp "$out" "$tmp/out.json"
expect_exit 0 -C "$r" "$GIT_ABBREV" audit --format=csv
cp "$out" "$tmp/out.csv"
expect_exit 0 -C "$r" "$GIT_ABBREV" audit
cp "$out" "$tmp/out.txt"
expect_exit 0 -C "$r" "$GIT_ABBREV" audit --format=map
cp "$out" "$tmp/out.map"
expect_exit 0 -C "$r" "$GIT_ABBREV" audit --format=markdown
cp "$out" "$tmp/out.md"
expect_exit 0 -C "$r" "$GIT_ABBREV" audit --format=svg
cp "$out" "$tmp/out.svg"

"$PYTHON3" "$tests_dir/audit_check.py" "$r.json" "$tmp" "$r" ||
	fail "audit's counts are not those planted"

say "a range A..B: its 3 commits only"
expect_exit 0 -C "$r" "$GIT_ABBREV" audit --format=json "$(git -C "$r" rev-parse main~3)..main"
[ "$(jget "$out" 'd["commits"]')" = 3 ] || fail "audit A..B read other than its 3 commits"
expect_exit 2 -C "$r" "$GIT_ABBREV" audit no-such-rev
expect_exit 2 -C "$r" "$GIT_ABBREV" audit --format=nope
expect_exit 2 -C "$r" "$GIT_ABBREV" audit HEAD HEAD~1
finish
