#!/usr/bin/env python3
"""model_check.py - `git abbrev model` against tests/birthday.py's closed
forms: t-model.sh's checks.

    python3 model_check.py CHECK FILE ARGS...

Each CHECK reads the JSON FILE (NaN and Infinity rejected: not JSON) and
raises AssertionError (a traceback, exit 1) when the tool's answer is not
the formulas'.  `row N` prints the text table's numbers at 8 and 7 chars
for N objects, as the model spells them.
"""
import json
import math
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import birthday  # noqa: E402

LENGTHS = range(4, 41)


def load(path):
    def no_const(c):
        raise ValueError("not JSON: " + c)
    with open(path) as f:
        return json.load(f, parse_constant=no_const)


def check_set(s, n, lengths):
    """One set's table: its count, its lengths, P falling, capacity growing."""
    assert s["objects"] == n, s["objects"]
    keys = [str(L) for L in lengths]
    assert list(s["lengths"]) == keys, list(s["lengths"])
    assert list(s["capacity"]) == keys, list(s["capacity"])
    last = None
    for k in keys:
        row = s["lengths"][k]
        e, p = row["expected_pairs"], row["p_collision"]
        assert 0 <= p <= 1, (k, p)
        assert e >= 0, (k, e)
        if last is not None:
            assert p <= last, ("P rises", k)
            assert p < last or p == 1 or p == 0, ("P flat", k)
        last = p
        cap = s["capacity"][k]
        assert 0 < cap["p01"] < cap["p50"], (k, cap)
    for a, b in zip(keys, keys[1:]):
        assert s["capacity"][a]["p50"] < s["capacity"][b]["p50"], (a, b)


def seed(argv):
    """The seeds' 13,021,585 objects: about 77 pairs at 10 chars, 4.8 at 11."""
    d = load(argv[1])
    check_set(d, 13021585, LENGTHS)
    assert set(d) == {'schema_version', 'objects', 'lengths', 'capacity'}, list(d)
    e10 = d['lengths']['10']['expected_pairs']
    e11 = d['lengths']['11']['expected_pairs']
    assert abs(e10 - 77) / 77 < 0.02, e10
    assert abs(e11 - 4.8) / 4.8 < 0.02, e11
    assert d['lengths']['4']['p_collision'] == 1
    assert 0 < d['lengths']['40']['p_collision'] < 1e-30
    # the closed forms, recomputed here
    for L in (10, 12, 16, 20):
        E, P = birthday.pairs(13021585, L), birthday.p_collision(13021585, L)
        row = d['lengths'][str(L)]
        assert abs(row['expected_pairs'] - E) <= 1e-12 * E, (L, row)
        assert abs(row['p_collision'] - P) <= 1e-12 * P, (L, row)
    # capacity: the largest n with n(n-1)/2 <= -ln(1-p) 16^L
    for L in range(4, 21):
        for key, p in (('p01', 0.01), ('p50', 0.5)):
            c = d['capacity'][str(L)][key]
            T = -math.log1p(-p) * 16**L
            assert c * (c - 1) / 2 <= T * (1 + 1e-12) and (c + 1) * c / 2 > T * (1 - 1e-12), \
                (L, key, c)


def sets(argv):
    """--objects and --commits: one entry per set, in that order."""
    d = load(argv[1])
    assert list(d) == ['schema_version', 'sets'], list(d)
    assert d['schema_version'] == 2, d['schema_version']
    assert list(d['sets']) == ['all', 'commit'], list(d['sets'])
    check_set(d['sets']['all'], 13021585, LENGTHS)
    check_set(d['sets']['commit'], 1302158, LENGTHS)
    assert d['sets']['commit']['lengths']['11']['expected_pairs'] < 0.05


def lengths(argv):
    """Exactly the lengths FROM..TO."""
    d = load(argv[1])
    want = [str(L) for L in range(int(argv[2]), int(argv[3]) + 1)]
    assert list(d['lengths']) == want, list(d['lengths'])


def none(argv):
    """0 or 1 object: no pair, P = 0 (and, for 0, E = 0)."""
    d = load(argv[1])
    assert all(r['p_collision'] == 0 for r in d['lengths'].values())
    if argv[2] == '0':
        assert all(r['expected_pairs'] == 0 for r in d['lengths'].values())


def huge(argv):
    """2^63-1 (a JSON integer) and 2^64-1 (past 63 bits: a real)."""
    d = load(argv[1])
    n = int(argv[2])
    if n >= 2**63:
        assert abs(d['objects'] - float(n)) <= 1e-12 * float(n), d['objects']
        d['objects'] = n
    check_set(d, n, LENGTHS)
    assert d['lengths']['16']['p_collision'] == 1


def published(argv):
    """A published table's "objects/prefixes" cells (L:objs/pre) inside the
    model's central 99% Poisson interval, the model's numbers recomputed."""
    d = load(argv[1])
    n = int(argv[2])
    for cell in argv[3:]:
        L, counts = cell.split(':')
        objs, pre = (int(x) for x in counts.split('/'))
        row = d['lengths'][L]
        want = birthday.pairs(n, int(L))
        assert abs(row['expected_pairs'] - want) <= 1e-9 * want, (L, row['expected_pairs'], want)
        mu = birthday.expected_prefixes(n, int(L))
        assert abs(row['expected_prefixes'] - mu) <= 1e-7 * max(1.0, mu), \
            (L, row['expected_prefixes'], mu)
        lo, hi = birthday.poisson_interval(mu)
        assert lo <= pre <= hi, (L, pre, mu, lo, hi)
        # every colliding prefix of these tables holds two objects
        assert 2 * lo <= objs <= 2 * hi, (L, objs, lo, hi)


def row(argv):
    """Prints E at 8 chars and the expected objects / prefixes at 7 for N."""
    n = int(argv[1])
    print("{:,.0f} {:,.0f} / {:,.0f}".format(birthday.pairs(n, 8), birthday.expected_objects(n, 7),
                                             birthday.expected_prefixes(n, 7)))


if __name__ == "__main__":
    globals()[sys.argv[1]](sys.argv[1:])
