#!/usr/bin/env python3
"""backtest_check.py - the backtest's outputs against its JSON
(t-backtest.sh): what history --backtest and policy --backtest print.

    python3 backtest_check.py KIND FILES...

    rate BT.json                  the last cut-off's fit finds the growth the
                                  history was made with (N = 50 e^(0.3 t) - 50:
                                  a rate of 0.304 to 0.31 over its last five
                                  years), its prediction for the end close
    text TEXT BT.json             one row per prediction and length, misses
                                  starred, the hit rate, within 80 columns
    markdown MD BT.json           the same rows, misses starred
    svg SVG BT.json               the chart's points are the JSON's
    policy POLICY.json TEXT BT.json
                                  policy's backtest is history's; its table of
                                  the predictions for the end, and "measured"
    empty BT.json                 a history too short for a cut-off: nothing

An AssertionError (exit 1) names the first difference.
"""
import json
import re
import sys
import xml.etree.ElementTree as ET

NS = "{http://www.w3.org/2000/svg}"


def backtest(path):
    return json.load(open(path))["backtest"]


def rate(bt):
    b = backtest(bt)
    assert len(b["cutoffs"]) >= 5, b["cutoffs"]
    last = b["cutoffs"][-1]
    assert last["fit"] == "exponential", last
    assert 0.295 <= last["growth"] <= 0.32, last
    # and the prediction it makes for the end is close to the count there
    p = [p for p in b["predictions"] if p["cutoff"] == last["time"]]
    assert len(p) == 1 and abs(p[0]["commits_fitted"] / p[0]["commits"] - 1) < 0.05, p


def text(path, bt):
    text = open(path).read()
    b = backtest(bt)
    part = text[text.index("\nbacktest:"):]
    lines = part.splitlines()
    head = [i for i, l in enumerate(lines) if l.startswith("cut-off")]
    assert len(head) == 1, lines[:8]
    rows = []
    for l in lines[head[0] + 1:]:
        if l.startswith("("):
            break
        rows.append(l)
    assert len(rows) == b["total"], (len(rows), b["total"])
    starred = sum(l.rstrip().endswith("*") for l in rows)
    assert starred == b["total"] - b["hits"], (starred, b["hits"], b["total"])
    m = re.search(r"hit rate: (\d+) of (\d+) predictions", part)
    assert m and (int(m.group(1)), int(m.group(2))) == (b["hits"], b["total"]), m
    for L, v in b["by_length"].items():
        assert "%s chars %d of %d" % (L, v["hits"], v["predictions"]) in " ".join(part.split()), L
    assert max(len(l) for l in text.splitlines()) <= 80, max(text.splitlines(), key=len)


def markdown(path, bt):
    md = open(path).read()
    b = backtest(bt)
    part = md[md.index("#### Backtest"):]
    rows = [l for l in part.splitlines() if l.startswith("|")][2:]
    assert len(rows) == b["total"], (len(rows), b["total"])
    assert sum(l.endswith("\\* |") for l in rows) == b["total"] - b["hits"], rows[:4]


def svg(path, bt):
    b = backtest(bt)
    pts = [e for e in ET.parse(path).getroot().iter(NS + "circle")
           if "bt-point" in (e.get("class") or "")]
    want = sorted((int(L), c["colliding_prefixes"], c["low"], c["high"])
                  for p in b["predictions"] for L, c in p["lengths"].items())
    got = sorted((int(e.get("data-length")), int(e.get("data-measured")), int(e.get("data-low")),
                  int(e.get("data-high"))) for e in pts)
    assert got == want, (got[:5], want[:5])


def policy(pjson, ptext, bt):
    got = backtest(pjson)
    want = backtest(bt)
    assert got == want, "policy's backtest is not history's"
    text = open(ptext).read()
    part = text[text.index("\ntrack record:"):].splitlines()
    head = [i for i, l in enumerate(part) if l.startswith("cut-off")][0]
    rows = part[head + 1:]
    end = [p for p in want["predictions"] if p["time"] == want["end"]]
    assert len(end) == len([c for c in want["cutoffs"] if c["fit"]]), end
    for p, line in zip(end, rows):
        stars = sum(1 for L in want["lengths"] if not p["lengths"][str(L)]["hit"])
        assert line.count("*") == stars, (line, p)
    m = rows[len(end)].split()
    assert m[0] == "measured" and m[1].replace(",", "") == str(end[-1]["commits"]), m
    assert [int(v.replace(",", "")) for v in m[2:]] == \
        [end[-1]["lengths"][str(L)]["colliding_prefixes"] for L in want["lengths"]], m
    assert max(len(l) for l in text.splitlines()) <= 80


def empty(bt):
    b = backtest(bt)
    assert b["predictions"] == [] and b["total"] == 0 and b["cutoffs"] == [], b


def main(a):
    {"rate": rate, "text": text, "markdown": markdown, "svg": svg, "policy": policy,
     "empty": empty}[a[1]](*a[2:])


if __name__ == "__main__":
    main(sys.argv)
