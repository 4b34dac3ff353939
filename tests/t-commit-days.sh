#!/bin/sh
# t-commit-days.sh - a commit's day is its committer's own, as git shows
# it (`git log --date=short`, `%cI`), in every output of history and
# policy: the days of first collisions and expected moments, the oldest
# and newest commit, the fit's window, the backtest's grid and policy's
# "now" (the newest commit); and the year of what was passed already
# (`--date=format:%Y`), in SHA-1 and SHA-256 repositories alike.
#
# The repositories are made here with git fast-import (tests/commit_days.py
# writes the streams and compares every date the tool prints with git's
# own for the same commit): 500 commits over four years, each at 23:30 in
# zone -0500 (the next day in UTC) or at 00:30 in zone +1100 (the day
# before in UTC); the newest is 2019-12-31 23:30 -0500, 2020-01-01 in
# UTC: another day and another year.
. "$(dirname "$0")/setup.sh"

# days WHAT [GIT]: the dates of "$out" against git's (commit_days.py check)
days() {
	checks=$((checks + 1))
	"$PYTHON3" "$tests_dir/commit_days.py" check "$1" "$out" "${2:-$tmp/git-days}" \
		>"$tmp/py.out" 2>&1 || fail "$label $1: not git's dates: $(tail -1 "$tmp/py.out")"
}

# history_days REPO: every date of history's JSON, CSV and text
history_days() {
	git -C "$1" log --all --date=short --format='%H %ct %cd %cI' >"$tmp/git-days"
	[ "$(wc -l <"$tmp/git-days")" -eq 500 ] || die "not 500 commits"
	newest_day=$(sort -k2,2n -k1,1 "$tmp/git-days" | tail -1 | cut -d' ' -f3)
	oldest_day=$(sort -k2,2n -k1,1 "$tmp/git-days" | head -1 | cut -d' ' -f3)
	[ "$newest_day" = 2019-12-31 ] || die "the newest commit is dated $newest_day"

	say "$label history --format=json: each date is git's %cI of the commit it names"
	expect_exit 0 "$GIT_ABBREV" history --backtest --format=json "$1"
	days history-json
	say "$label history --format=csv: the same dates"
	expect_exit 0 "$GIT_ABBREV" history --format=csv "$1"
	days history-csv
	say "$label history (text): the days git log --date=short prints"
	expect_exit 0 "$GIT_ABBREV" history --backtest "$1"
	checks=$((checks + 1))
	grep -q "committed $oldest_day \.\. $newest_day" "$out" ||
		fail "$label: not committed $oldest_day .. $newest_day: $(head -1 "$out")"
	checks=$((checks + 1))
	grep -q "projected from $newest_day (the newest commit)" "$out" ||
		fail "$label: the fit's end is not $newest_day: $(grep 'projected from' "$out")"
	"$GIT_ABBREV" history --format=json "$1" >"$out.json" || : # (history-text fails)
	days history-text
}

r=$tmp/zones
git init -q "$r"
"$PYTHON3" "$tests_dir/commit_days.py" days 500 >"$tmp/stream"
fast_import -C "$r" <"$tmp/stream" || die "fast-import failed"
label=sha1
history_days "$r"

say "policy: the newest commit's day, in its zone"
expect_exit 0 "$GIT_ABBREV" policy "$r"
checks=$((checks + 1))
tr '\n' ' ' <"$out" | tr -s ' ' | grep -q "(sha1), $newest_day (the newest" ||
	fail "policy's now is not $newest_day: $(head -2 "$out")"
checks=$((checks + 1))
tr '\n' ' ' <"$out" | tr -s ' ' | grep -q "over $oldest_day \.\. $newest_day" ||
	fail "policy's window is not $oldest_day .. $newest_day: $(head -3 "$out")"
expect_exit 0 "$GIT_ABBREV" policy --format=json "$r"
days policy-json

# SHA-256: libgit2 cannot read the commits; the own reader reads their
# dates and zones, loose (fast-import told to leave them so), then packed
# without a commit-graph (the packs' commit tables)
if git init -q --object-format=sha256 "$tmp/probe256" 2>/dev/null; then
	r256=$tmp/zones256
	git init -q --object-format=sha256 "$r256"
	fast_import -C "$r256" -c fastimport.unpackLimit=100000 <"$tmp/stream" ||
		die "fast-import (sha256) failed"
	[ -z "$(ls "$r256/.git/objects/pack")" ] || die "the sha256 commits are not loose"
	label="sha256 loose"
	history_days "$r256"
	git -C "$r256" repack -adq
	label="sha256 packed"
	history_days "$r256"
	label=sha256
	say "sha256 policy: the newest commit's day, in its zone"
	expect_exit 0 "$GIT_ABBREV" policy --format=json "$r256"
	days policy-json
else
	say "git cannot make SHA-256 repositories here: their days are not checked"
fi

# The years of what was passed already ("2019 *" in policy's and history's
# tables, "passed 1% in 2019"): the year of the commit that dates it, as
# `git log --date=format:%Y` prints it.  2,000 commits within an hour of
# a new year, in zones -0500 and +1100: every year dated by a commit is
# another one in UTC; 4 to 6 chars pass 1% or 50% among them.
ny=$tmp/newyear
git init -q "$ny"
"$PYTHON3" "$tests_dir/commit_days.py" newyear 2000 40 >"$tmp/ny-stream"
fast_import -C "$ny" <"$tmp/ny-stream" || die "fast-import failed"
git -C "$ny" log --all --date=format:%Y --format='%H %ct %cd' >"$tmp/ny-years"
[ "$(wc -l <"$tmp/ny-years")" -eq 2000 ] || die "not 2000 commits"
label=newyear
say "policy: a level passed already is dated in its commit's own year"
expect_exit 0 "$GIT_ABBREV" policy --format=json --lengths=4..7 "$ny"
days years-policy-json "$tmp/ny-years"
expect_exit 0 "$GIT_ABBREV" policy --lengths=4..7 "$ny"
days years-policy-text "$tmp/ny-years"
# history's years table dates what was passed by the same code, from 10
# chars on: 148,000 commits or more (check_history dates them in zones)
finish
