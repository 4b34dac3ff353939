"""backtest_oracle.py - `history --backtest` redone from git's own listing.

    python3 backtest_oracle.py <repo> <history.json> [window-years] [fit]

Commit IDs and committer times from `git log --all --format='%H %ct'`
plus the commits `git cat-file --batch-all-objects` lists beside them;
then, independently of the C code: the grid of cut-offs (every two mean
years back from the newest commit while a year of commits precedes it),
the least-squares fits of the commit count at each cut-off (256 samples
of the window, ln N and N against t, the smaller RMS relative error when
auto), the predicted commit count at each later date, the birthday
model's colliding prefixes for it, the central 99% Poisson interval, and
the colliding prefixes among the commits dated up to each date, counted
by grouping the IDs under their L-char prefixes.  Every number of the
JSON's "backtest" must match.  Prints what differs; exits 1 if anything.
"""
import bisect
import json
import math
import sys

import birthday
from history_oracle import commit_times, git  # one reading of git's commit dates

YEAR = 31556952.0
STEP = 2.0
MAX_DATES = 16
MAX_LENS = 3
MIN_EXPECTED = 0.5
Q = 0.005
K = 256
MIN_LEN = 4

bad = []


def expect(ok, msg):
    if not ok:
        bad.append(msg)
    return ok



def fit_line(x, y):
    mx = sum(x) / len(x)
    my = sum(y) / len(y)
    sxx = sum((a - mx) ** 2 for a in x)
    sxy = sum((a - mx) * (b - my) for a, b in zip(x, y))
    g = sxy / sxx if sxx > 0 else 0.0
    return my - g * mx, g


def fit_at(times, cut, window, kind):
    """The fit at a cut-off: (kind, growth, count_at) or None (under a year)."""
    upto = [t for t in times if t <= cut]
    n = len(upto)
    if n < 2:
        return None
    end = min(upto[-1], cut)
    if end > upto[0] and end - upto[0] < YEAR:
        return None
    start = max(upto[0], end - window * YEAR)
    if not end - start > 0:
        return None
    xs, ns = [], []
    for i in range(K):
        t = start + (end - start) * i / (K - 1)
        xs.append((t - end) / YEAR)
        ns.append(bisect.bisect_right(upto, t))
    fits = {}
    for name, f, inv in (("exponential", math.log, math.exp), ("linear", lambda v: v, lambda v: v)):
        a, g = fit_line(xs, [f(v) for v in ns])
        err = math.sqrt(sum(((inv(a + g * x) - v) / v) ** 2 for x, v in zip(xs, ns)) / K)
        fits[name] = (g, err)
    if kind == "auto":
        kind = "linear" if fits["linear"][1] < fits["exponential"][1] else "exponential"
    g = fits[kind][0]
    wend = math.floor(end)

    def count_at(t):
        x = (t - wend) / YEAR
        return n * math.exp(g * x) if kind == "exponential" else n + g * x
    return kind, g, count_at


def expected_prefixes(n, L):
    """tests/birthday.py's, for a whole n (the projected count rounded)."""
    n = max(0, min(int(math.floor(n + 0.5)), 10 ** 18))
    return birthday.expected_prefixes(n, L)


def interval(mu):
    return birthday.poisson_interval(mu, Q)


def second_times(times, L):
    """For each L-char prefix shared by two or more commits: the second smallest time."""
    groups = {}
    for h, t in times.items():
        groups.setdefault(h[:L], []).append(t)
    return sorted(sorted(g)[1] for g in groups.values() if len(g) >= 2)


def main():
    repo, path = sys.argv[1], sys.argv[2]
    window = float(sys.argv[3]) if len(sys.argv) > 3 else 5.0
    kind = sys.argv[4] if len(sys.argv) > 4 else "auto"
    times = commit_times(repo)
    hexsz = len(next(iter(times)))
    ts = sorted(times.values())
    end = ts[-1]
    dates = []
    for k in range(MAX_DATES):
        t = end - k * STEP * YEAR
        if k and t - ts[0] < YEAR:
            break
        dates.append(math.floor(t))
    dates.reverse()
    nend = bisect.bisect_right(ts, end)
    lens = []
    for L in range(MIN_LEN, hexsz + 1):
        E = expected_prefixes(nend, L)
        sec = second_times(times, L)
        if not sec and E < MIN_EXPECTED:
            break
        if not E < 16.0 ** L / 10:
            continue
        if E < MIN_EXPECTED and not bisect.bisect_right(sec, end):
            continue
        lens.append(L)
    lens = lens[-MAX_LENS:]
    sec = {L: second_times(times, L) for L in lens}

    with open(path) as f:
        got = json.load(f)["backtest"]
    expect(got["lengths"] == lens, "lengths %s, the oracle's %s" % (got["lengths"], lens))
    expect([c["time"] for c in got["cutoffs"]] == dates[:-1],
           "cut-offs %s, the oracle's %s" % ([c["time"] for c in got["cutoffs"]], dates[:-1]))
    expect(got["end"] == dates[-1], "end %s, the oracle's %s" % (got["end"], dates[-1]))
    rows, hits, total = [], 0, 0
    fits = {}
    for c in range(len(dates) - 1):
        fit = fit_at(ts, dates[c], window, kind)
        fits[dates[c]] = fit
        if not fit:
            continue
        for a in range(c + 1, len(dates)):
            n_fit = fit[2](dates[a])
            cells = {}
            for L in lens:
                e = expected_prefixes(n_fit, L)
                lo, hi = interval(e)
                m = bisect.bisect_right(sec[L], dates[a])
                hit = lo <= m <= hi
                hits += hit
                total += 1
                cells[str(L)] = (e, lo, hi, m, hit)
            rows.append((dates[c], dates[a], n_fit, bisect.bisect_right(ts, dates[a]), cells))
    for c in got["cutoffs"]:
        fit = fits.get(c["time"])
        expect((c["fit"] is None) == (fit is None), "cut-off %s: fit %s, the oracle's %s"
               % (c["date"], c["fit"], fit and fit[0]))
        if fit and c["fit"]:
            expect(c["fit"] == fit[0] and abs(c["growth"] - fit[1]) <= 1e-9 * max(1, abs(fit[1])),
                   "cut-off %s: %s %r, the oracle's %s %r" % (c["date"], c["fit"], c["growth"],
                                                               fit[0], fit[1]))
        expect(c["commits"] == bisect.bisect_right(ts, c["time"]),
               "cut-off %s: %d commits, git lists %d" % (c["date"], c["commits"],
                                                         bisect.bisect_right(ts, c["time"])))
    expect(len(got["predictions"]) == len(rows), "%d predictions, the oracle's %d"
           % (len(got["predictions"]), len(rows)))
    for p, (cut, at, n_fit, n, cells) in zip(got["predictions"], rows):
        where = "cut-off %s, date %s" % (cut, at)
        expect((p["cutoff"], p["time"], p["commits"]) == (cut, at, n),
               "%s: %s" % (where, (p["cutoff"], p["time"], p["commits"])))
        expect(abs(p["commits_fitted"] - n_fit) <= 1e-9 * max(1.0, n_fit),
               "%s: fitted %r, the oracle's %r" % (where, p["commits_fitted"], n_fit))
        for L, (e, lo, hi, m, hit) in cells.items():
            g = p["lengths"][L]
            expect(abs(g["expected_prefixes"] - e) <= 1e-7 * max(1.0, e),
                   "%s, %s chars: expected %r, the oracle's %r" % (where, L, g["expected_prefixes"], e))
            expect((g["low"], g["high"], g["colliding_prefixes"], g["hit"]) == (lo, hi, m, hit),
                   "%s, %s chars: %s, the oracle's %s" % (where, L, (g["low"], g["high"],
                   g["colliding_prefixes"], g["hit"]), (lo, hi, m, hit)))
    expect((got["hits"], got["total"]) == (hits, total), "hits %d of %d, the oracle's %d of %d"
           % (got["hits"], got["total"], hits, total))
    for b in bad:
        print(b)
    print("oracle: %d cut-offs, %d predictions, %d hits; lengths %s" % (len(dates) - 1, total, hits, lens))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
