#!/usr/bin/env python3
"""history_check.py - `git abbrev history` and `model <repo>` against
tests/history_oracle.py (git's own commit dates, the replay and the
projection redone) and git's counts: t-history.sh's checks.

    python3 history_check.py CHECK ARGS...

Each CHECK below reads its arguments as argv[1:] and raises
AssertionError (a traceback, exit 1) when the tool's answer is not the
oracle's.  JSON is read without NaN or Infinity (not JSON).  `span REPO`
prints the sentence history gives for a history of days, from git log.
"""
import json
import math
import os
import re
import sys
import time
import xml.etree.ElementTree as ET

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from history_oracle import commit_times, git, lcp, p_collision, projection, replay  # noqa: E402
from svgcheck import NS, tick_value  # noqa: E402


def load(path):
    def no_const(c):
        raise ValueError("not JSON: " + c)
    with open(path) as f:
        return json.load(f, parse_constant=no_const)


def history(argv):
    d = load(argv[1])
    repo, reachable_only = argv[2], argv[3] == 'reachable'
    same_replay(d, commit_times(repo, reachable_only))


def same_replay(d, times):
    """history's JSON D is the replay of TIMES; returns the longest
    prefix two of them share."""
    first, longest, sorted_times = replay(times)
    assert d['commits'] == len(times), (d['commits'], len(times))
    assert d['hash'] == {40: 'sha1', 64: 'sha256'}[len(next(iter(times)))], d['hash']
    assert d['first_commit'] == sorted_times[0] and d['last_commit'] == sorted_times[-1]
    want = [str(L) for L in range(4, longest + 1)]
    assert list(d['lengths']) == want, (list(d['lengths']), want)
    # lengths from 4: a history whose commits share fewer chars is unique from 4
    assert d['unique_from'] == max(longest + 1, 4), d['unique_from']
    for L in range(4, longest + 1):
        got = d['lengths'][str(L)]
        t, k, shared, newer = first[L]
        assert got['first_collision'] == t, (L, got, first[L])
        assert got['commits_then'] == k, (L, got, first[L])
        assert got['shared'] == shared, (L, got, first[L])
        older = got['pair'][0]
        assert got['pair'][1] == newer, (L, got, first[L])
        assert older in times and older != newer and lcp(older, newer) == shared, (L, got)
        assert (times[older], older) < (times[newer], newer), (L, got)
        e = math.sqrt(math.pi / 2 * 16 ** L) + 2 / 3
        assert abs(got['expected_commits'] - e) <= 1e-12 * e, (L, got)
        assert abs(got['p_by_then'] - p_collision(k, L)) <= 1e-9 * p_collision(k, L), (L, got)
        assert got['date'] == time.strftime('%Y-%m-%dT%H:%M:%SZ', time.gmtime(t)), got
    assert list(d['not_yet'])[0] == str(max(longest + 1, 4))
    return longest


def cache_replays(argv):
    """REPO JSON...: t-cache-history.sh's runs, each JSON the replay of
    its REPO (unreachable commits included, one of them there, and the
    planted 9-char pair); prints "bad JSON WHY" for each that is not,
    and exits 1 if any."""
    times, bad = {}, 0
    for repo, path in zip(argv[1::2], argv[2::2]):
        try:
            if repo not in times:
                times[repo] = (commit_times(repo), commit_times(repo, reachable_only=True))
            assert len(times[repo][0]) > len(times[repo][1]), "no unreachable commit"
            longest = same_replay(load(path), times[repo][0])
            assert longest >= 9, "the planted 9-char pair is missing"
        except (AssertionError, KeyError, ValueError) as e:
            print("bad %s %r" % (path, e))
            bad += 1
    sys.exit(1 if bad else 0)


def planted(argv):
    d = load(argv[1])
    g = load(argv[2])
    by_shared = {p['shared']: p for p in g['planted']}
    def at(L):
        return d['lengths'][str(L)]
    for L, p in ((9, by_shared[9]), (7, by_shared[7])):
        assert at(L)['first_collision'] == p['date'], (L, at(L), p)
        assert sorted(at(L)['pair']) == sorted(p['ids']), (L, at(L), p)
        # both carry the date: the larger ID is replayed second
        assert at(L)['pair'][1] == max(p['ids']), (L, at(L))
    assert by_shared[7]['reachable'] == [True, False]
    assert d['unique_from'] == 10, d['unique_from']
    assert at(6)['first_collision'] <= by_shared[6]['date']


def unreachable(argv):
    d = load(argv[1])
    g = load(argv[2])
    gone = [p['ids'][1] for p in g['planted'] if p['reachable'] == [True, False]]
    assert len(gone) == 1
    assert all(gone[0] not in row['pair'] for row in d['lengths'].values()), d['lengths']
    assert d['unique_from'] == 10


def same_history(argv):
    a = load(argv[1])
    b = load(argv[2])
    a.pop('repositories')
    b.pop('repositories')
    assert a == b, (a, b)


def projected(argv):
    d = load(argv[1])
    objects = int(argv[2])
    window, kind, target, horizon = float(argv[3]), argv[4], float(argv[5]), float(argv[6])
    times = sorted(commit_times(argv[7]).values())
    want = projection(times, objects, window, kind, target, horizon)
    p = d['projection']
    assert d['objects'] == objects, (d['objects'], objects)
    assert p['fit'] == want['fit'], (p['fit'], want['fit'])
    assert p['window']['from'] == int(want['start']) and p['window']['to'] == want['end'], p['window']
    assert p['window']['samples'] == 256
    ea, eg, ee = want['fits']['exponential']
    la, lg, le = want['fits']['linear']
    f = p['fits']
    assert abs(f['exponential']['rate_per_year'] - eg) <= 1e-9 * abs(eg), (f, eg)
    assert abs(f['exponential']['rms_relative_error'] - ee) <= 1e-9 * ee, (f, ee)
    assert abs(f['linear']['commits_per_year'] - lg) <= 1e-9 * abs(lg), (f, lg)
    assert abs(f['linear']['rms_relative_error'] - le) <= 1e-9 * le, (f, le)
    assert abs(p['objects_per_commit'] - want['ratio']) <= 1e-12 * want['ratio']
    assert list(p['lengths']) == [str(L) for L in range(10, 17)], list(p['lengths'])
    for (L, key), (cap, cy, cr, oy, orr) in want['when'].items():
        w = p['lengths'][str(L)][key]
        assert w['capacity'] == cap, (L, key, w, cap)
        assert abs(w['commits_year'] - cy) < 1e-6 and w['commits_reached'] == cr, (L, key, w, cy)
        assert abs(w['objects_year'] - oy) < 1e-6 and w['objects_reached'] == orr, (L, key, w, oy)
    assert p['target_p'] == target and p['horizon_years'] == horizon
    o = p['other_fit']
    assert o['fit'] == want['other'][0], (o, want['other'])
    assert abs(o['commits_year'] - want['other'][1]) < 1e-6, (o, want['other'])
    assert abs(o['objects_year'] - want['other'][2]) < 1e-6, (o, want['other'])
    assert (p['safe_length']['commit'], p['safe_length']['all']) == want['safe'], (p['safe_length'], want['safe'])
    q = p['quote']
    assert q.startswith('at the growth of the last '), q
    assert '12-char commit IDs ' in q and '; all objects ' in q, q
    assert str(int(math.floor(p['lengths']['12']['p50']['commits_year']))) in q, q


def no_projection(argv):
    d = load(argv[1])
    assert d['projection'] is None


def text(argv):
    d = load(argv[1])
    text = open(argv[2]).read()
    # the path, then the counts beside it or (a long path) on the next line
    assert text.startswith(argv[3] + ':'), text[:200]
    assert text[len(argv[3]) + 1:].lstrip(' \n').startswith(
        '{:,} commits (sha1), committed 2005-04-07 .. '.format(d['commits'])), text[:200]
    for L, row in d['lengths'].items():
        line = [l for l in text.splitlines() if l.startswith('%3s  ' % L)]
        assert line, ('no row', L)
        assert time.strftime('%Y-%m-%d', time.gmtime(row['first_collision'])) in line[0], line
        assert '{:,}'.format(row['commits_then']) in line[0], line
        assert row['pair'][0][:10] in line[0] and row['pair'][1][:10] in line[0], line
    assert ' 10  not yet ' in text, text
    # sentences wrap at 80 columns: compare them with the spaces folded
    flat = ' '.join(text.split())
    assert ' '.join(d['projection']['quote'].split()) + ' (with the ' in flat, d['projection']['quote']
    assert 'safe until ' in text


def union(argv):
    d = load(argv[1])
    t = commit_times(argv[2])
    t.update(commit_times(argv[3]))
    first, longest, _ = replay(t)
    assert d['commits'] == len(t), (d['commits'], len(t))
    assert d['unique_from'] == longest + 1
    for L in range(4, longest + 1):
        assert d['lengths'][str(L)]['first_collision'] == first[L][0], L
        assert d['lengths'][str(L)]['pair'][1] == first[L][3], L


def days(argv):
    d = load(argv[1])
    assert d['projection'] is None, d['projection']
    assert d['no_projection'] == argv[2], d['no_projection']


def years(argv):
    d = load(argv[1])
    assert d['projection'] is not None and d['no_projection'] is None, d['no_projection']


def empty(argv):
    d = load(argv[1])
    assert d['commits'] == 0 and d['lengths'] == {} and d['projection'] is None, d


def one_commit(argv):
    d = load(argv[1])
    assert d['commits'] == 1 and d['lengths'] == {} and d['unique_from'] == 4, d
    assert d['projection'] is None, d['projection']


def model(argv):
    d = load(argv[1])
    assert list(d) == ['schema_version', 'sets'], list(d)
    assert list(d['sets']) == ['all', 'commit'], list(d['sets'])
    assert d['sets']['all']['objects'] == int(argv[2]), (d['sets']['all']['objects'], argv[2])
    assert d['sets']['commit']['objects'] == int(argv[3]), (d['sets']['commit']['objects'], argv[3])
    assert list(d['sets']['all']['lengths'])[0] == '4'


def model_commits(argv):
    d = load(argv[1])
    assert d['sets']['commit']['objects'] == int(argv[2]), (d['sets']['commit'], argv[2])


def svg_projection(argv):
    """The SVG's projection panel: both fits end at the counts the text
    prints, on the panel's log axis, from one start."""
    text = open(argv[1]).read()
    m = re.search(r"^commits in (\d+): ([\d,]+) by the (\w+) fit, ([\d,]+) by the (\w+) fit$", text, re.M)
    assert m, "no 'commits in YEAR' line in the text"
    year, want = m.group(1), {m.group(3): m.group(2), m.group(5): m.group(4)}
    root = ET.parse(argv[2]).getroot()
    panel = [g for g in root.iter(NS + "g") if g.get("class") == "projection"]
    assert len(panel) == 1, "no projection panel"
    ticks = []
    for ax in panel[0].iter(NS + "g"):
        if ax.get("class") == "axis y":
            for t in ax.findall(NS + "g"):
                ticks.append((math.log10(tick_value(t.find(NS + "text").text)),
                              float(t.find(NS + "line").get("y1"))))
    (l0, y0), (l1, y1) = ticks[0], ticks[-1]
    fits = {e.get("data-fit"): e for e in panel[0].iter(NS + "path") if "fit" in e.get("class").split()}
    assert set(fits) == set(want), (sorted(fits), want)
    starts = set()
    for name, e in fits.items():
        assert e.get("data-end-year") == year, (name, e.get("data-end-year"), year)
        end = int(e.get("data-end-commits"))
        assert "{:,}".format(end) == want[name], (name, end, want[name])
        pts = [tuple(map(float, p.split())) for p in re.findall(r"[ML]([-\d.]+ [-\d.]+)", e.get("d"))]
        starts.add(pts[0])
        # the path ends at that count on the panel's log axis
        y = y0 + (y1 - y0) * (math.log10(end) - l0) / (l1 - l0)
        assert abs(pts[-1][1] - y) < 0.6, (name, pts[-1], y)
    assert len(starts) == 1, "the fits do not start at the same point (now)"
    spread = [e for e in panel[0].iter(NS + "path") if e.get("class") == "fit-spread"]
    assert len(spread) == 1, "no spread between the fits"
    labels = [e.text for e in panel[0].iter(NS + "text") if "fit-end" in e.get("class", "").split()]
    assert sorted(labels) == sorted("%s (%s)" % (v, k) for k, v in want.items()), labels


def span(argv):
    """Prints why a history of days has no projection, from git log."""
    t = [int(x) for x in git(argv[1], "log", "--all", "--format=%ct").split()]
    lo, hi = min(t), max(t)
    assert hi - lo < 31556952, "the alternates scenario spans a year or more"
    days = (hi - lo) // 86400
    span = "less than a day" if days < 1 else "%d day%s" % (days, "" if days == 1 else "s")

    def day(x):
        return time.strftime("%Y-%m-%d", time.gmtime(x))
    print("the history spans %s (%s .. %s), less than the year a growth is projected from"
          % (span, day(lo), day(hi)))


if __name__ == "__main__":
    globals()[sys.argv[1]](sys.argv[1:])
