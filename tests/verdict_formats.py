#!/usr/bin/env python3
"""verdict_formats.py - the verdict as text and CSV print it, against its
JSON (t-verdict.sh; tests/verdict_check.py checks the JSON itself).

    python3 verdict_formats.py rows REPORT.json TEXT...
        each text's verdict rows: the JSON's lengths and concern, in order
    python3 verdict_formats.py check-csv CSV CHECK.json
        check --format=csv: one row per set and length of its verdict
    python3 verdict_formats.py report-csv CSV REPORT.json
        report --format=csv: the verdict's columns on the rows of its
        lengths, empty on the others; the counts the JSON's

An AssertionError (exit 1) names the first difference.
"""
import csv
import json
import math
import re
import sys


def rows(report, *texts):
    v = json.load(open(report))["verdict"]
    names = {"commit": "commits", "commit-ish": "commit-ish", "all": "all objects"}
    want = []
    for L, row in v["lengths"].items():
        for k in ("commit", "commit-ish", "all"):
            want.append((names[k], row["sets"][k]["concern"]))
    for path in texts:
        text = open(path).read()
        part = text[text.index("\nverdict:"):]
        got = re.findall(r"^[ 0-9git]*  (commits|commit-ish|all objects) .* (none|watch|act)$",
                         part, re.M)
        if got != want:
            raise AssertionError((path, got, want))


def check_csv(out, js):
    rows = list(csv.DictReader(open(out, newline="")))
    v = json.load(open(js))["verdict"]
    want = [(k, L) for k in ("commit", "commit-ish", "all") for L in v["lengths"]]
    assert [(r["set"], r["length"]) for r in rows] == want, ([(r["set"], r["length"]) for r in rows], want)
    for r in rows:
        j = v["lengths"][r["length"]]
        s = j["sets"][r["set"]]
        assert r["concern"] == s["concern"], (r, s)
        assert int(r["git_length"]) == j["git_auto"], (r, j)
        assert int(r["colliding_prefixes"] or -1) == (s["colliding_prefixes"] if s["colliding_prefixes"] is not None else -1), (r, s)
        assert math.isclose(float(r["p_now"]), s["p_now"], rel_tol=1e-9, abs_tol=1e-300), (r, s)
        assert r["p01_state"] == s["p01"]["state"], (r, s)
        assert int(r["suggest_core_abbrev"]) == v["suggest"]["core_abbrev"], r
        assert int(r["suggest_min_length"]) == v["suggest"]["commit_length"], r


def report_csv(out, js):
    rows = list(csv.DictReader(open(out, newline="")))
    rep = json.load(open(js))
    v = rep["verdict"]
    vl = [int(L) for L in v["lengths"]]
    assert 12 in vl and 16 in vl and 10 in vl, vl
    got = [int(r["length"]) for r in rows]
    assert got == list(range(4, max(vl) + 1)), got
    sets = sorted({k for j in v["lengths"].values() for k in j["sets"]})
    assert sets, v
    for r in rows:
        L = int(r["length"])
        for k in ("all", "commit"):
            # the JSON's counts; past its table (rows up to 16) none collide
            row = rep["types"][k]["lengths"].get(str(L))
            want = (row["objects"], row["prefixes"]) if row else (0, 0)
            assert (int(r[k + "_objects"]), int(r[k + "_prefixes"])) == want, (L, k, r)
        if L not in vl:
            for k in sets:
                for m in ("p_now", "capacity_p01", "p01_state", "p01_year", "concern"):
                    assert r["%s_%s" % (k, m)] == "", (L, k, m, r)
            continue
        j = v["lengths"][str(L)]
        assert int(r["git_length"]) == j["git_auto"], (r, j)
        for k, s in j["sets"].items():
            assert r[k + "_concern"] == s["concern"], (L, k, r, s)
            assert math.isclose(float(r[k + "_p_now"]), s["p_now"], rel_tol=1e-9, abs_tol=1e-300), (L, k)
            assert r[k + "_p01_state"] == s["p01"]["state"], (L, k)
        assert int(r["suggest_core_abbrev"]) == v["suggest"]["core_abbrev"], r
        assert int(r["suggest_min_length"]) == v["suggest"]["commit_length"], r
    assert sum(int(r["git_length"]) for r in rows) == 1, "git's own length on one row"


def main(a):
    {"rows": rows, "check-csv": check_csv, "report-csv": report_csv}[a[1]](*a[2:])


if __name__ == "__main__":
    main(sys.argv)
