#!/bin/sh
# t-commit-days.sh - a commit's day is its committer's own, as git shows
# it (`git log --date=short`, `%cI`), in every output of history and
# policy: the days of first collisions and expected moments, the oldest
# and newest commit, the fit's window, the backtest's grid and policy's
# "now" (the newest commit).
#
# The repository is made here with git fast-import: 500 commits over four
# years, each at 23:30 in zone -0500 (the next day in UTC) or at 00:30 in
# zone +1100 (the day before in UTC); the newest is 2019-12-31 23:30
# -0500, 2020-01-01 in UTC: another day and another year.  Every date the
# tool prints is compared with git's own for the same commit.
. "$(dirname "$0")/setup.sh"

r=$tmp/zones
git init -q "$r"
"$PYTHON3" - >"$tmp/stream" <<'EOF'
import calendar
n = 500
start = calendar.timegm((2016, 1, 1, 0, 0, 0))
end = calendar.timegm((2019, 12, 31, 0, 0, 0))
out = []
for i in range(n):
    day = start + (end - start) * i // (n - 1)
    day -= day % 86400
    if i % 2 == 0 or i == n - 1:
        t, zone = day + 23 * 3600 + 30 * 60 + 5 * 3600, "-0500"
    else:
        t, zone = day + 30 * 60 - 11 * 3600, "+1100"
    msg = "c%d\n" % i
    out.append("commit refs/heads/main\nmark :%d\ncommitter C <c@example.com> %d %s\n"
               "data %d\n%s" % (i + 1, t, zone, len(msg), msg))
    if i:
        out.append("from :%d\n" % i)
    out.append("\n")
print("".join(out), end="")
EOF
git -C "$r" fast-import --quiet <"$tmp/stream" || die "fast-import failed"
# git's view: ID, committer time, day and ISO date of every commit
git -C "$r" log --all --date=short --format='%H %ct %cd %cI' >"$tmp/git-days"
[ "$(wc -l <"$tmp/git-days")" -eq 500 ] || die "not 500 commits"
newest_day=$(sort -k2,2n -k1,1 "$tmp/git-days" | tail -1 | cut -d' ' -f3)
oldest_day=$(sort -k2,2n -k1,1 "$tmp/git-days" | head -1 | cut -d' ' -f3)
[ "$newest_day" = 2019-12-31 ] || die "the newest commit is dated $newest_day"

# check LABEL PYTHON: run PYTHON with the tool's output in sys.argv[1] and
# git's days in sys.argv[2]; an AssertionError fails the check
check() {
	checks=$((checks + 1))
	"$PYTHON3" - "$out" "$tmp/git-days" >"$tmp/py.out" 2>&1 <<PY || fail "$1: $(cat "$tmp/py.out")"
import csv, json, math, sys
git = {}
for line in open(sys.argv[2]):
    h, ct, day, iso = line.split()
    git[h] = (int(ct), day, iso.replace("+00:00", "Z"))
by_time = sorted(git, key=lambda h: (git[h][0], h))
$2
PY
}

say "history --format=json: each date is git's %cI of the commit it names"
expect_exit 0 "$GIT_ABBREV" history --backtest --format=json "$r"
check "history json" '
d = json.load(open(sys.argv[1]))
assert d["lengths"], "no collision to compare"
for L, v in d["lengths"].items():
    assert v["date"] == git[v["pair"][1]][2], (L, v["date"], git[v["pair"][1]])
    if v["expected_date"] is not None:
        k = math.ceil(v["expected_commits"])
        assert v["expected_date"] == git[by_time[k - 1]][2], (L, v["expected_date"])
end = d["backtest"]["cutoffs"][0]["date"]
assert end[-6:] == git[by_time[-1]][2][-6:], ("the grid is not in the newest zone", end)
'
say "history --format=csv: the same dates"
expect_exit 0 "$GIT_ABBREV" history --format=csv "$r"
check "history csv" '
rows = list(csv.DictReader(open(sys.argv[1])))
n = 0
for row in rows:
    if row["collided"] == "1":
        n += 1
        assert row["date"] == git[row["pair_newer"]][2], row
    if row["expected_date"]:
        k = math.ceil(float(row["expected_commits"]))
        assert row["expected_date"] == git[by_time[k - 1]][2], row
assert n, "no collision"
'
say "history (text): the days git log --date=short prints"
expect_exit 0 "$GIT_ABBREV" history --backtest "$r"
checks=$((checks + 1))
grep -q "committed $oldest_day \.\. $newest_day" "$out" ||
	fail "not committed $oldest_day .. $newest_day: $(head -1 "$out")"
checks=$((checks + 1))
grep -q "projected from $newest_day (the newest commit)" "$out" ||
	fail "the fit's end is not $newest_day: $(grep 'projected from' "$out")"
"$GIT_ABBREV" history --format=json "$r" >"$out.json" || die "history json"
check "history text: the collided and expected days" '
import re
d = {}
for line in open(sys.argv[1]):
    m = re.match(r"\s*(\d+)\s+(\d{4}-\d\d-\d\d)\s+[\d,]+\s+[\d,]+ \((\d{4}-\d\d-\d\d)\)\s", line)
    if m:
        d[m.group(1)] = (m.group(2), m.group(3))
assert d, "no collided row"
js = json.load(open(sys.argv[1] + ".json"))
for L, (day, exp) in d.items():
    v = js["lengths"][L]
    assert day == git[v["pair"][1]][1], (L, day)
    assert exp == git[by_time[math.ceil(v["expected_commits"]) - 1]][1], (L, exp)
'

say "policy: the newest commit's day, in its zone"
expect_exit 0 "$GIT_ABBREV" policy "$r"
checks=$((checks + 1))
tr '\n' ' ' <"$out" | tr -s ' ' | grep -q "(sha1), $newest_day (the newest" ||
	fail "policy's now is not $newest_day: $(head -2 "$out")"
checks=$((checks + 1))
tr '\n' ' ' <"$out" | tr -s ' ' | grep -q "over $oldest_day \.\. $newest_day" ||
	fail "policy's window is not $oldest_day .. $newest_day: $(head -3 "$out")"
expect_exit 0 "$GIT_ABBREV" policy --format=json "$r"
check "policy json now_date" '
d = json.load(open(sys.argv[1]))
assert d["now_from"] == "newest commit"
assert d["now_date"] == git[by_time[-1]][2], d["now_date"]
'
finish
