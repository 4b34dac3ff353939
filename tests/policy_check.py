"""Checks of `git abbrev policy`, for tests/t-policy.sh.

    policy_check.py repo POLICY.json REPORT.json HISTORY.json REPO
        the JSON of a repository against the report (measured counts), the
        history (the fit), git (commit times, the oracle for dates already
        passed) and the birthday formulas computed here in 60 digits
    policy_check.py counts POLICY.json OBJECTS COMMITS GROWTH
        the JSON of counts given, grown by GROWTH as --growth says it
    policy_check.py measured POLICY.json REPORT.json
        the colliding prefixes of each set and length are the report's
        (a length the report does not list: none), the hash SHA-256
    policy_check.py formats POLICY.json TEXT MARKDOWN CSV SVG [TITLE]
        every format against the JSON: the same numbers, the text within
        80 columns, the chart's log axis (12 and 16 ticks, the model's
        points apart by its ratio: tests/svgcheck.py)

Prints the problems found and exits 1 if there are any.
"""
import csv
import io
import json
import math
import re
import subprocess
import sys
import xml.etree.ElementTree as ET
from decimal import Decimal, getcontext

from birthday import capacity, p_collision, pairs
from svgcheck import NS, bad, check_12_16, classes, expect, x_ticks

getcontext().prec = 60
YEAR = 31556952.0
TITLES = {"all": "all objects", "commit": "commits", "commit-ish": "commit-ish"}


def close(a, b, rel=1e-9):
    return abs(a - b) <= rel * max(abs(a), abs(b)) + 1e-300


def year_of(t):
    """A unix time as the decimal year projection.c gives (within years 1..9999)."""
    import datetime
    d = datetime.datetime.fromtimestamp(math.floor(t), datetime.timezone.utc)
    y0 = datetime.datetime(d.year, 1, 1, tzinfo=datetime.timezone.utc).timestamp()
    y1 = datetime.datetime(d.year + 1, 1, 1, tzinfo=datetime.timezone.utc).timestamp()
    return d.year + (t - y0) / (y1 - y0)


def commit_times(repo):
    """Committer times of every commit of the object database, ascending (git as the oracle)."""
    objs = subprocess.run(["git", "-C", repo, "cat-file", "--batch-all-objects",
                           "--batch-check=%(objecttype) %(objectname)"],
                          stdout=subprocess.PIPE, check=True, text=True).stdout.split("\n")
    ids = [l.split()[1] for l in objs if l.startswith("commit ")]
    out = subprocess.run(["git", "-C", repo, "cat-file", "--batch"], input=("\n".join(ids) + "\n").encode(),
                         stdout=subprocess.PIPE, check=True).stdout
    times = [int(m.group(1)) for m in re.finditer(rb"\ncommitter [^\n]*> (\d+) [-+]\d{4}\n", out)]
    expect(len(times) == len(ids), "git: %d commit times for %d commits" % (len(times), len(ids)))
    return sorted(times)


def factor(d, years):
    g = d["growth"]
    if g["law"] == "exponential":
        x = g["rate_per_year"] * years
        return math.exp(x) if x < 700 else math.inf
    return 1 + g["rate_per_year"] * years


def grown(d, n, years):
    """n grown for `years`: rounded once to a whole count (half away from
    zero, as C's round()), never below n"""
    m = n * factor(d, years)
    if math.isinf(m) or m > 1e300:
        return m
    return float(math.floor(max(m, n) + 0.5))


def check_when(d, what, w, n, L, p, times, commits):
    cap = capacity(L, p)
    expect(w["capacity"] == cap, "%s: capacity %s, want %d" % (what, w["capacity"], cap))
    if cap + 1 <= n:
        if not expect(w["state"] == "passed", "%s: %s, want passed" % (what, w["state"])):
            return
        if times:
            i = min(max(math.ceil((cap + 1) * commits / n) - 1, 0), len(times) - 1)
            expect(w["time"] == times[i], "%s: passed at %s, git says %d" % (what, w["time"], times[i]))
        else:
            expect(w["time"] is None, "%s: a date without a history" % what)
        return
    g = d["growth"]
    if g is None:
        expect(w["state"] == "unknown", "%s: %s without growth" % (what, w["state"]))
        return
    f = (cap + 1) / n if n else math.inf
    r = g["rate_per_year"]
    if r <= 0 or not math.isfinite(f):
        t = math.inf
    elif g["law"] == "exponential":
        t = d["now"] + YEAR * math.log(f) / r
    else:
        t = d["now"] + YEAR * (f - 1) / r
    if t > d["now"] + d["horizon_years"] * YEAR:
        expect(w["state"] == "beyond" and w["time"] is None, "%s: %s at %s, want beyond"
               % (what, w["state"], w["time"]))
    elif expect(w["state"] == "future", "%s: %s, want future at %s" % (what, w["state"], t)):
        expect(abs(w["time"] - t) < 2, "%s: at %s, want %s" % (what, w["time"], t))
        expect(abs(w["year"] - year_of(w["time"])) < 1e-6, "%s: year %s" % (what, w["year"]))


def check_sets(d, times, commits):
    for name, s in d["sets"].items():
        n = s["count"]
        for y in (5, 10, 20):
            if d["growth"] is None:
                expect(s["count_in_years"] is None, "%s: counts in years without growth" % name)
            else:
                got, want = s["count_in_years"][str(y)], grown(d, n, y)
                expect(got is None if math.isinf(want) or want > 1e300 else close(got, want),
                       "%s: count in %d years %s, want %s" % (name, y, got, want))
        for L, row in s["lengths"].items():
            L = int(L)
            what = "%s at %d" % (name, L)
            expect(close(row["expected_pairs"], float(pairs(n, L)), 1e-12), what + ": pairs")
            expect(close(row["p_now"], p_collision(n, L), 1e-9), what + ": P now %r, want %r"
                   % (row["p_now"], p_collision(n, L)))
            if d["growth"] is None:
                expect(row["p_in_years"] is None, what + ": P in years without growth")
            else:
                for y in (5, 10, 20):
                    m = grown(d, n, y)
                    if math.isinf(m):
                        want = 1.0
                    else:
                        e = Decimal(m) * (Decimal(m) - 1) / 2 / Decimal(16) ** L
                        want = float(1 - (-e).exp())
                    expect(close(row["p_in_years"][str(y)], want, 1e-8),
                           "%s: P in %d years %r, want %r" % (what, y, row["p_in_years"][str(y)], want))
            check_when(d, what + " 1%", row["p01"], n, L, 0.01, times, commits)
            check_when(d, what + " 50%", row["p50"], n, L, 0.5, times, commits)


def check_repo(a):
    d, rep, hist = (json.load(open(f, encoding="utf-8")) for f in a[:3])
    repo = a[3]
    expect(sorted(d["sets"]) == ["all", "commit", "commit-ish"], "sets %s" % sorted(d["sets"]))
    expect(d["repositories"] == rep["repositories"], "repositories %s" % d["repositories"])
    for name, s in d["sets"].items():
        t = rep["types"][name]
        expect(s["count"] == t["count"], "%s: count %d, report %d" % (name, s["count"], t["count"]))
        for L, row in s["lengths"].items():
            want = t["lengths"][L]["prefixes"] if L in t["lengths"] else 0
            expect(row["colliding_prefixes"] == want, "%s at %s: %s colliding, report %s"
                   % (name, L, row["colliding_prefixes"], want))
    # the growth is history's fit, relative to today's commits; none where
    # history fits none (a history of days)
    pj = hist["projection"]
    g = d["growth"]
    if pj is None:
        expect(g is None and hist["no_projection"], "growth %s where history has none: %s"
               % (g, hist["no_projection"]))
    elif expect(g is not None and g["source"] == "history", "growth %s" % g):
        expect(g["law"] == pj["fit"], "law %s, history %s" % (g["law"], pj["fit"]))
        want = (pj["fits"]["exponential"]["rate_per_year"] if pj["fit"] == "exponential"
                else pj["fits"]["linear"]["commits_per_year"] / hist["commits"])
        expect(close(g["rate_per_year"], want), "rate %r, history %r" % (g["rate_per_year"], want))
        expect(g["fit"]["from"] == pj["window"]["from"] and g["fit"]["to"] == pj["window"]["to"],
               "window %s, history %s" % (g["fit"], pj["window"]))
    times = commit_times(repo)
    expect(len(times) == d["sets"]["commit"]["count"], "git has %d commits" % len(times))
    check_sets(d, times, len(times))


def check_counts(a):
    d = json.load(open(a[0], encoding="utf-8"))
    objects, commits, growth = int(a[1]), int(a[2]), a[3]
    expect(sorted(d["sets"]) == ["all", "commit"], "sets %s" % sorted(d["sets"]))
    expect(d["sets"]["all"]["count"] == objects and d["sets"]["commit"]["count"] == commits,
           "counts")
    expect(d["repositories"] == [] and d["hash"] is None, "a repository for counts")
    g = d["growth"]
    m = re.fullmatch(r"([0-9.]+)(%/year| commits/year|/year|)", growth)
    if growth == "":
        expect(g is None, "growth %s without --growth" % g)
    elif m and m.group(2) == "%/year":
        expect(g["law"] == "exponential" and close(g["rate_per_year"], math.log1p(float(m.group(1)) / 100)),
               "growth %s for %s" % (g, growth))
    elif m:
        base = commits if m.group(2) == " commits/year" else objects
        expect(g["law"] == "linear" and close(g["rate_per_year"], float(m.group(1)) / base),
               "growth %s for %s" % (g, growth))
    else:
        expect(False, "a growth the checker cannot read: %s" % growth)
    check_sets(d, None, commits)


def check_measured(a):
    p = json.load(open(a[0], encoding="utf-8"))
    r = json.load(open(a[1], encoding="utf-8"))
    expect(p["hash"] == "sha256", "hash %s" % p["hash"])
    for s in ("commit", "all"):
        for L, row in p["sets"][s]["lengths"].items():
            lens = r["types"][s]["lengths"]
            want = lens[L]["prefixes"] if L in lens else 0
            expect(row["colliding_prefixes"] == want, "%s at %s: %s, the report %s" % (s, L, row, want))


def md_cells(line):
    return [c.strip() for c in line.strip().strip("|").split("|")]


def fmt_p(p, n=None, L=None):
    """Two digits, true as printed: "1" only when a collision is certain
    (more IDs than L-char prefixes), else "> 0.99" where it rounds to 1."""
    s = "%.2g" % p
    certain = n is not None and n > 16 ** L
    return "> 0.99" if float(s) >= 1 and not certain else s


def year_cell(d, w, markdown):
    if w["state"] == "future":
        return "%d" % math.floor(w["year"])
    if w["state"] == "passed":
        if w["time"] is None:
            return "passed"
        return "%d %s" % (math.floor(w["year"]), "\\*" if markdown else "*")
    if w["state"] == "beyond":
        return "%s%d" % ("\\>" if markdown else ">", math.floor(d["horizon_year"]))
    return "-"


def grouped(n):
    return "{:,}".format(n)


def check_formats(a):
    d = json.load(open(a[0], encoding="utf-8"))
    text, md, csvf, svg = (open(f, encoding="utf-8").read() for f in a[1:5])
    title = a[5] if len(a) > 5 else None
    order = [s for s in ("commit", "commit-ish", "all") if s in d["sets"]]
    lengths = sorted(int(L) for L in d["sets"][order[0]]["lengths"])
    # text: within 80 columns; the quotes are the JSON's, wrapped
    for i, line in enumerate(text.split("\n")):
        expect(len(line) <= 80, "text: line %d is %d columns" % (i + 1, len(line)))
    body = text.split("to quote (P(collision) = 1%):\n", 1)
    if expect(len(body) == 2, "text: no quotes"):
        quotes = re.sub(r"\n    ", " ", body[1]).strip().split("\n")
        want = [d["quotes"][str(L)] for L in lengths]
        expect([q.strip() for q in quotes] == want, "text: quotes %s, json %s" % (quotes, want))
    # markdown: one table per set, every cell from the JSON
    tables, cur = [], None
    for line in md.split("\n"):
        if line.startswith("|"):
            if cur is None:
                cur = []
                tables.append(cur)
            cur.append(md_cells(line))
        else:
            cur = None
    expect(len(tables) == len(order), "markdown: %d tables for %d sets" % (len(tables), len(order)))
    for name, t in zip(order, tables):
        s = d["sets"][name]
        expect(t[0] == ["len", "colliding", "expected", "P now", "P in 5y", "in 10y", "in 20y",
                        "1% in", "50% in"], "markdown: header %s" % t[0])
        expect([int(r[0]) for r in t[2:]] == lengths, "markdown: %s rows" % name)
        for r in t[2:]:
            row = s["lengths"][r[0]]
            what = "markdown: %s at %s" % (name, r[0])
            cp = row["colliding_prefixes"]
            expect(r[1] == ("-" if cp is None else grouped(cp)), "%s: colliding %s" % (what, r[1]))
            expect(r[3] == fmt_p(row["p_now"], s["count"], int(r[0])),
                   "%s: P now %s for %r" % (what, r[3], row["p_now"]))
            for i, y in enumerate(("5", "10", "20")):
                want = "-" if row["p_in_years"] is None else \
                    fmt_p(row["p_in_years"][y], s["count_in_years"][y] or math.inf, int(r[0]))
                expect(r[4 + i] == want, "%s: P in %s years %s, want %s" % (what, y, r[4 + i], want))
            expect(r[7] == year_cell(d, row["p01"], 1), "%s: 1%% in %s, want %s"
                   % (what, r[7], year_cell(d, row["p01"], 1)))
            expect(r[8] == year_cell(d, row["p50"], 1), "%s: 50%% in %s" % (what, r[8]))
    # the quotes are list items, wrapped at 80 columns under their text
    md_items = re.sub(r"\n  (?=\S)", " ", md)
    for L in lengths:
        expect("- %s\n" % d["quotes"][str(L)] in md_items, "markdown: no quote for %d" % L)
    # prose and list items fit 80 columns, as in the text layout (a table row cannot wrap)
    long_md = [l for l in md.split("\n") if len(l) > 80 and not l.startswith(("|", "#"))]
    expect(not long_md, "markdown: lines over 80 columns: %s" % long_md)
    # csv: a row per set and length, the JSON's values
    rows = list(csv.DictReader(io.StringIO(csvf)))
    expect(len(rows) == len(order) * len(lengths), "csv: %d rows" % len(rows))
    for r in rows:
        row = d["sets"][r["set"]]["lengths"][r["length"]]
        what = "csv: %s at %s" % (r["set"], r["length"])
        expect(int(r["count"]) == d["sets"][r["set"]]["count"], what + ": count")
        cp = row["colliding_prefixes"]
        expect(r["colliding_prefixes"] == ("" if cp is None else str(cp)), what + ": colliding")
        for k in ("expected_prefixes", "expected_pairs", "p_now"):
            expect(close(float(r[k]), row[k], 1e-9), "%s: %s %s" % (what, k, r[k]))
        for lv in ("p01", "p50"):
            w = row[lv]
            expect(r[lv + "_state"] == w["state"], "%s: %s state" % (what, lv))
            expect(float(r["capacity_" + lv]) == w["capacity"], "%s: %s capacity" % (what, lv))
            if w["year"] is None:
                expect(r[lv + "_year"] == "", "%s: %s year %s" % (what, lv, r[lv + "_year"]))
            else:
                expect(abs(float(r[lv + "_year"]) - w["year"]) < 0.01, "%s: %s year" % (what, lv))
    # svg: the model's points on a log axis, 12 and 16 ticks, measured points apart
    root = ET.fromstring(svg)
    if title:
        expect(root.find(NS + "title").text == title, "svg: title %r" % root.find(NS + "title").text)
    else:
        t = root.find(NS + "title").text
        for repo in d["repositories"]:
            expect(repo not in t, "svg: title %r is a path" % t)
    xt = x_ticks(root)
    expect("12" in xt and "16" in xt, "svg: x ticks %s" % sorted(xt))
    debate = [g.get("data-length") for g in root.iter(NS + "g") if "debate" in classes(g)]
    expect(debate == ["12", "16"], "svg: 12 and 16 not marked: %s" % debate)
    for name in order:
        g = [e for e in root.iter(NS + "g") if e.get("id") == "series-" + name]
        if not expect(len(g) == 1, "svg: no series-%s" % name):
            continue
        s = d["sets"][name]
        model = {int(e.get("data-length")): e for e in g[0].iter(NS + "circle")
                 if {"point", "model"} <= set(classes(e))}
        for L, e in model.items():
            expect(close(float(e.get("data-pairs")), s["lengths"][str(L)]["expected_pairs"], 1e-5),
                   "svg: %s model at %d" % (name, L))
        if 12 in model and 16 in model:
            check_12_16(root, "svg: %s" % name, float(model[12].get("cy")), float(model[16].get("cy")),
                        s["lengths"]["12"]["expected_pairs"], s["lengths"]["16"]["expected_pairs"])
        elif 12 in s["lengths"] and 16 in s["lengths"]:
            expect(s["count"] < 2, "svg: %s lacks the model's points at 12 or 16" % name)
        measured = sorted(int(e.get("data-length")) for e in g[0].iter()
                          if {"point", "measured"} <= set(classes(e)))
        want = sorted(int(L) for L, row in s["lengths"].items() if row["colliding_prefixes"])
        expect(measured == want, "svg: %s measured points %s, json %s" % (name, measured, want))
        proj = [e for e in g[0].iter(NS + "polyline") if "projection" in classes(e)]
        expect(len(proj) == (0 if d["growth"] is None else 3), "svg: %s: %d projections"
               % (name, len(proj)))
        for e in g[0].iter():
            if "measured" in classes(e) and "point" in classes(e):
                expect("model" not in classes(e), "svg: a point both measured and model")
    # two sets whose lines coincide (commit-ish beside commits differ by a
    # few tags): the one drawn first, under the other, must show around it
    drawn = [g for g in root.iter(NS + "g") if (g.get("id") or "").startswith("series-")]
    now = {}
    for g in drawn:
        line = [e for e in g.iter(NS + "polyline") if classes(e) == ["model"]]
        circles = {e.get("data-length"): float(e.get("r")) for e in g.iter(NS + "circle")
                   if {"point", "model"} <= set(classes(e))}
        if line:
            pts = [tuple(map(float, xy.split(","))) for xy in line[0].get("points").split()]
            now[g.get("id")] = (pts, float(line[0].get("stroke-width")), circles)
    ids = [g.get("id") for g in drawn if g.get("id") in now]
    for i, under in enumerate(ids):
        for over in ids[i + 1:]:
            (pu, wu, cu), (po, wo, co) = now[under], now[over]
            if len(pu) == len(po) and all(abs(a[1] - b[1]) < 3 for a, b in zip(pu, po)):
                expect(wu >= wo + 2, "svg: %s (%.1f px wide) is hidden under %s (%.1f px)"
                       % (under, wu, over, wo))
                expect(all(cu[L] >= co[L] + 1.5 for L in cu if L in co),
                       "svg: %s's circles are hidden under %s's" % (under, over))


def main(a):
    {"repo": check_repo, "counts": check_counts, "formats": check_formats,
     "measured": check_measured}[a[1]](a[2:])
    for b in bad[:30]:
        print(b)
    return 1 if bad else 0


sys.exit(main(sys.argv))
