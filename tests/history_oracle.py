#!/usr/bin/env python3
"""history_oracle.py - history's answers redone from git's own commit dates
(t-history.sh): the replay in committer-time order, each length's first
collision, and the projection (the fit over the window's samples, the
years each length passes 1% and 50%, the safe lengths).

    from history_oracle import commit_times, replay, projection, year, lcp

commit_times(repo) reads git (`git log --all --format=%H %ct`, and the
unreachable commits that `git cat-file --batch-all-objects` lists); the
birthday formulas are tests/birthday.py's.
"""
import bisect
import calendar
import datetime
import math
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from birthday import capacity, min_length, p_collision  # noqa: E402,F401

YEAR = 31556952.0

def git(repo, *args, data=None):
    return subprocess.run(["git", "-C", repo] + list(args), input=data,
                          stdout=subprocess.PIPE, check=True).stdout.decode()

def commit_times(repo, reachable_only=False):
    """{id: committer time}: git log --all, plus the unreachable commits."""
    times = {}
    for line in git(repo, "log", "--all", "--format=%H %ct").splitlines():
        h, t = line.split()
        times[h] = int(t)
    if reachable_only:
        return times
    listed = git(repo, "cat-file", "--batch-all-objects",
                 "--batch-check=%(objectname) %(objecttype)").splitlines()
    rest = [l.split()[0] for l in listed if l.endswith(" commit")
            and l.split()[0] not in times]
    if rest:
        out = git(repo, "log", "--no-walk=unsorted", "--stdin", "--format=%H %ct",
                  data=("\n".join(rest) + "\n").encode())
        for line in out.splitlines():
            h, t = line.split()
            times[h] = int(t)
    return times

def lcp(a, b):
    n = 0
    while n < len(a) and a[n] == b[n]:
        n += 1
    return n

def replay(times):
    """{L: (time, commits then, shared, newer)}, and the sorted times."""
    order = sorted(times, key=lambda h: (times[h], h))
    seen, first, longest = [], {}, 0
    for k, h in enumerate(order, 1):
        i = bisect.bisect_left(seen, h)
        best = max([lcp(seen[j], h) for j in (i - 1, i) if 0 <= j < len(seen)] or [0])
        seen.insert(i, h)
        for L in range(longest + 1, best + 1):
            first[L] = (times[h], k, best, h)
        longest = max(longest, best)
    return first, longest, sorted(times.values())

def year(t):
    if t >= 253402300800:  # past 9999: mean years, as projection_year()
        return 1970 + t / YEAR
    d = datetime.datetime.fromtimestamp(int(math.floor(t)), datetime.timezone.utc)
    y0 = calendar.timegm((d.year, 1, 1, 0, 0, 0))
    y1 = calendar.timegm((d.year + 1, 1, 1, 0, 0, 0))
    return d.year + (t - y0) / (y1 - y0)

def fit(x, y):
    mx = sum(x) / len(x)
    my = sum(y) / len(y)
    sxx = sum((a - mx) ** 2 for a in x)
    sxy = sum((a - mx) * (b - my) for a, b in zip(x, y))
    g = sxy / sxx
    return my - g * mx, g

def projection(times, objects, window=5.0, kind="auto", target=0.01, horizon=10.0):
    n = len(times)
    end = times[-1]
    start = max(times[0], end - window * YEAR)
    K = 256
    xs, ns = [], []
    for i in range(K):
        t = start + (end - start) * i / (K - 1)
        xs.append((t - end) / YEAR)
        ns.append(bisect.bisect_right(times, t))
    fits = {}
    for name, f, inv in (("exponential", math.log, math.exp),
                         ("linear", lambda v: v, lambda v: v)):
        a, g = fit(xs, [f(v) for v in ns])
        err = math.sqrt(sum(((inv(a + g * x) - v) / v) ** 2 for x, v in zip(xs, ns)) / K)
        fits[name] = (a, g, err)
    if kind == "auto":
        kind = "linear" if fits["linear"][2] < fits["exponential"][2] else "exponential"
    g = fits[kind][1]
    def time_of(c, kind=kind):
        g = fits[kind][1]
        if kind == "exponential":
            return end + YEAR * math.log(c / n) / g
        return end + YEAR * (c - n) / g
    def count_at(t):
        x = (t - end) / YEAR
        return n * math.exp(g * x) if kind == "exponential" else n + g * x
    ratio = objects / n
    when = {}
    for L in range(10, 17):
        for key, p in (("p01", 0.01), ("p50", 0.5)):
            c = capacity(L, p) + 1
            ct = times[c - 1] if c <= n else time_of(c)
            ot = times[max(0, min(n - 1, math.ceil(c / ratio) - 1))] if c <= objects \
                else time_of(c / ratio)
            when[(L, key)] = (capacity(L, p), year(ct), c <= n, year(ot), c <= objects)
    h = max(count_at(end + horizon * YEAR), n)
    other = "linear" if kind == "exponential" else "exponential"
    c = capacity(12, 0.5) + 1
    other_years = (other, year(time_of(c, other)), year(time_of(c / ratio, other)))
    return {"fit": kind, "fits": fits, "ratio": ratio, "when": when, "other": other_years,
            "safe": (min_length(math.ceil(h), target), min_length(math.ceil(h * ratio), target)),
            "start": start, "end": end}
