#!/usr/bin/env python3
"""commit_days.py - commits in zones far from UTC, and the days and years
the tool prints for them, against git's (t-commit-days.sh).

    python3 commit_days.py days N            a git fast-import stream
    python3 commit_days.py newyear N PER     another one
    python3 commit_days.py subjects N        another (t-subject.sh)
    python3 commit_days.py check WHAT OUT GIT

`days`: N commits over 2016..2019, each at 23:30 in zone -0500 (the next
day in UTC) or at 00:30 in zone +1100 (the day before in UTC); the newest
is 2019-12-31 23:30 -0500, 2020-01-01 in UTC: another day and another year.

`newyear`: N commits, PER a year from 1976, each within an hour of a new
year: at 23:xx on 31 December in zone -0500 (the next year in UTC) or at
00:xx on 1 January in zone +1100 (the year before in UTC), so that every
year dated by one of them is another one in UTC.

`check`: OUT is the tool's output, GIT git's view of every commit, one
line each: `git log --date=short --format='%H %ct %cd %cI'` for the days,
`git log --date=format:%Y --format='%H %ct %cd'` for the years.  Commits
are ordered by time, ties by ID, as the tool replays them.  WHAT:

  history-json   each length's collision date (git's %cI of the newer of
                 the pair), expected date (of commit number ceil(E)), and
                 the backtest's grid in the newest commit's zone
  history-csv    the same dates in the CSV
  history-text   the collided and expected days of the text (OUT.json:
                 the same repository's JSON, to name the commits)
  policy-json    policy's now_date: the newest commit's %cI
  years-policy-json, years-policy-text, years-history-json,
  years-history-text
                 a count reached already is dated by commit number ceil(c),
                 c the count scaled to the commits; its year must be git's
                 year of that commit (the starred cells, the quotes)

Exit 1 with the first difference (an AssertionError).
"""
import calendar
import csv
import json
import math
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import birthday  # noqa: E402


def commit(out, i, t, zone, msg=None):
    msg = msg or "c%d\n" % i
    out.append("commit refs/heads/main\nmark :%d\ncommitter C <c@example.com> %d %s\n"
               "data %d\n%s" % (i + 1, t, zone, len(msg), msg))
    if i:
        out.append("from :%d\n" % i)
    out.append("\n")


def days(n):
    start = calendar.timegm((2016, 1, 1, 0, 0, 0))
    end = calendar.timegm((2019, 12, 31, 0, 0, 0))
    out = []
    for i in range(n):
        day = start + (end - start) * i // (n - 1)
        day -= day % 86400
        if i % 2 == 0 or i == n - 1:
            commit(out, i, day + 23 * 3600 + 30 * 60 + 5 * 3600, "-0500")
        else:
            commit(out, i, day + 30 * 60 - 11 * 3600, "+1100")
    sys.stdout.write("".join(out))


def subjects(n):
    """t-subject.sh: N commits whose messages start with blank lines,
    indents, form feeds and vertical tabs, at 04:30 UTC (the day before
    west of UTC) or 21:00 UTC (the day after east of it)."""
    forms = ["  indented %d\f\n   second\tline  \n\nbody\n",
             "\n\n\tfirst %d\n\v\nthird\n\nbody\n",
             "plain %d  \n\f\nafter a form feed\n",
             "   %d\n"]
    zones = ["-0700", "+1130", "-1100", "+0000"]
    out = []
    for i in range(1, n + 1):
        t = 1143340200 + (i // 2) * 86400 + (i % 2) * 59400
        commit(out, i - 1, t, zones[(i // 4) % len(zones)], forms[i % len(forms)] % i)
    sys.stdout.write("".join(out))


def newyear(n, per):
    out = []
    for i in range(n):
        y, j = 1976 + i // per, i % per
        if j % 2 == 0:
            commit(out, i, calendar.timegm((y, 12, 31, 23, 0, 0)) + 5 * 3600 + j, "-0500")
        else:
            commit(out, i, calendar.timegm((y + 1, 1, 1, 0, 0, 0)) - 11 * 3600 + j, "+1100")
    sys.stdout.write("".join(out))


class Git:
    """git's commits: time, day or year, ISO date (%cI, "Z" for +00:00)."""

    def __init__(self, path):
        self.time, self.day, self.iso = {}, {}, {}
        for line in open(path):
            f = line.split()
            self.time[f[0]] = int(f[1])
            self.day[f[0]] = f[2]
            if len(f) > 3:
                self.iso[f[0]] = f[3].replace("+00:00", "Z")
        self.by_time = sorted(self.time, key=lambda h: (self.time[h], h))
        self.commits = len(self.by_time)

    def nth(self, c):
        """Commit number ceil(c), clamped to the history."""
        return self.by_time[min(max(math.ceil(c) - 1, 0), self.commits - 1)]

    def passed(self, L, p, n):
        """git's year of the commit at which a set of n IDs passed P = p at L chars."""
        return int(self.day[self.nth((birthday.capacity(L, p) + 1) * self.commits / n)])


# ---- days ----------------------------------------------------------------

def history_json(out, git):
    d = json.load(open(out))
    assert d["lengths"], "no collision to compare"
    for L, v in d["lengths"].items():
        assert v["date"] == git.iso[v["pair"][1]], (L, v["date"], v["pair"][1])
        if v["expected_date"] is not None:
            want = git.iso[git.nth(v["expected_commits"])]
            assert v["expected_date"] == want, (L, v["expected_date"], want)
    end = d["backtest"]["cutoffs"][0]["date"]
    assert end[-6:] == git.iso[git.by_time[-1]][-6:], ("the grid is not in the newest zone", end)
    return len(d["lengths"])


def history_csv(out, git):
    n = 0
    for row in csv.DictReader(open(out)):
        if row["collided"] == "1":
            n += 1
            assert row["date"] == git.iso[row["pair_newer"]], row
        if row["expected_date"]:
            want = git.iso[git.nth(float(row["expected_commits"]))]
            assert row["expected_date"] == want, (row, want)
    assert n, "no collision"
    return n


def history_text(out, git):
    d = {}
    for line in open(out):
        m = re.match(r"\s*(\d+)\s+(\d{4}-\d\d-\d\d)\s+[\d,]+\s+[\d,]+ \((\d{4}-\d\d-\d\d)\)\s",
                     line)
        if m:
            d[m.group(1)] = (m.group(2), m.group(3))
    assert d, "no collided row"
    js = json.load(open(out + ".json"))
    for L, (day, exp) in d.items():
        v = js["lengths"][L]
        assert day == git.day[v["pair"][1]], (L, day)
        assert exp == git.day[git.nth(v["expected_commits"])], (L, exp)
    return len(d)


def policy_json(out, git):
    d = json.load(open(out))
    assert d["now_from"] == "newest commit", d["now_from"]
    assert d["now_date"] == git.iso[git.by_time[-1]], d["now_date"]
    return 1


# ---- years of what was passed ----------------------------------------------

LEVELS = (("p01", 0.01), ("p50", 0.5))


def years_policy_json(out, git):
    d = json.load(open(out))
    seen = 0
    for name, s in d["sets"].items():
        for L, row in s["lengths"].items():
            for lvl, p in LEVELS:
                w = row[lvl]
                if w["state"] == "passed":
                    want = git.passed(int(L), p, s["count"])
                    assert math.floor(w["year"]) == want, (name, L, lvl, w["year"], want)
                    seen += 1
    return seen


def years_policy_text(out, git):
    text = open(out).read()
    counts = {"commits": git.commits, "commit-ish": git.commits, "all objects": git.commits + 1}
    seen = 0
    for part in re.split(r"\n(?=(?:commits|commit-ish|all objects): [\d,]+ now)", text):
        m = re.match(r"(commits|commit-ish|all objects): ([\d,]+) now", part)
        if not m:
            continue
        n = counts[m.group(1)]
        assert int(m.group(2).replace(",", "")) == n, m.group(0)
        for row in re.finditer(r"^\s+(\d+)\s.*?(\S+(?: \*)?)\s+(\S+(?: \*)?)$",
                               part.split("\n(")[0], re.M):
            for cell, (_, p) in zip(row.group(2, 3), LEVELS):
                if cell.endswith(" *"):
                    want = git.passed(int(row.group(1)), p, n)
                    assert int(cell[:-2]) == want, (m.group(1), row.group(0), want)
                    seen += 1
    for m in re.finditer(r"^\s+(\d+) chars: commits, .* passed 1% in (\d+)$", text, re.M):
        want = git.passed(int(m.group(1)), 0.01, git.commits)
        assert int(m.group(2)) == want, (m.group(0), want)
        seen += 1
    return seen


def years_history_json(out, git):
    seen = 0
    for L, v in json.load(open(out))["projection"]["lengths"].items():
        for lvl, p in LEVELS:
            w = v[lvl]
            for kind, n in (("commits", git.commits), ("objects", git.commits + 1)):
                if w[kind + "_reached"]:
                    want = git.passed(int(L), p, n)
                    assert math.floor(w[kind + "_year"]) == want, (L, lvl, kind, w, want)
                    seen += 1
    return seen


def years_history_text(out, git):
    seen = 0
    cell = r"\s+(\d+ \*|\S+)"
    for line in open(out):
        m = re.match(r"\s*(\d+)" + cell * 4 + r"\s*$", line)
        if not m:
            continue
        for c, p, n in zip(m.group(2, 3, 4, 5), (0.01, 0.5, 0.01, 0.5),
                           (git.commits, git.commits, git.commits + 1, git.commits + 1)):
            if c.endswith(" *"):
                want = git.passed(int(m.group(1)), p, n)
                assert int(c[:-2]) == want, (line, p, n, want)
                seen += 1
    return seen


CHECKS = {
    "history-json": history_json, "history-csv": history_csv, "history-text": history_text,
    "policy-json": policy_json,
    "years-policy-json": years_policy_json, "years-policy-text": years_policy_text,
    "years-history-json": years_history_json, "years-history-text": years_history_text,
}


def main():
    if sys.argv[1] == "days":
        days(int(sys.argv[2]))
        return
    if sys.argv[1] == "subjects":
        subjects(int(sys.argv[2]))
        return
    if sys.argv[1] == "newyear":
        newyear(int(sys.argv[2]), int(sys.argv[3]))
        return
    what, out, gitfile = sys.argv[2:5]
    seen = CHECKS[what](out, Git(gitfile))
    # nothing compared: a check that cannot fail
    assert seen >= (2 if what.startswith("years-") else 1), "only %d to compare" % seen


if __name__ == "__main__":
    main()
