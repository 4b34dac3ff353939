#!/usr/bin/env python3
"""formats_check.py - the formats people read, parsed back (t-formats.sh).

    python3 formats_check.py KIND FILES...

KIND and its files:
    csv|markdown|svg REPORT.json OUT       a report's format against its JSON
    classic OUT TYPE REPO...               git-unique-abbrev's layout, from
                                           tests/oracle.py's counter
    model-csv JSON OUT                     the model's formats against
    model-markdown|model-svg JSON OUT FROM TO     its JSON (the band FROM..TO)
    history-csv|history-markdown|history-svg JSON OUT
    xml OUT                                well-formed XML
    batch DIR FIRST LAST                   the jobs DIR/job<N>.args, N from
                                           FIRST to LAST: each a KIND and its
                                           files, NUL-separated

Prints the problems found (the first 20) and exits 1 if there are any.
In a batch (one process for many checks: t-formats.sh queues them), each
job's problems go to DIR/job<N>.out and a job without any gets
DIR/job<N>.ok; git lists each repository's objects once for all the jobs.
"""
import csv
import io
import json
import math
import os
import re
import subprocess
import sys
import xml.etree.ElementTree as ET
from collections import Counter

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import oracle  # noqa: E402  (tests/oracle.py: the brute-force counter)
# the birthday model (tests/birthday.py): the one copy of its formulas
from birthday import expected_prefixes, pairs  # noqa: E402

SETS = ["all", "commit", "commit-ish", "tree", "blob", "tag"]
TITLES = {"all": "all objects", "commit": "commits", "commit-ish": "commit-ish",
          "tree": "trees", "blob": "blobs", "tag": "tags"}
# one list of problems with tests/svgcheck.py's chart checks
from svgcheck import bad, expect  # noqa: E402


def close(a, b, rel=1e-8):
    return abs(a - b) <= rel * max(abs(a), abs(b)) + 1e-300


def grouped(n):
    # the one rule for counts (src/emit/fmt.h): grouped digits below 10^15, else 3 digits
    return "{:,}".format(n) if abs(n) < 10**15 else "%.3g" % n


def counts(rep, s, L):
    row = rep["types"][s]["lengths"].get(str(L))
    return (row["objects"], row["prefixes"]) if row else (0, 0)


def first_zero(table, value=lambda v: v):
    """The first length of a JSON table by length whose value is 0."""
    return min(int(k) for k, v in table.items() if value(v) == 0)


def last_len(rep):
    """The first length where every set and commit_vs_other is 0 (the JSON
    runs further: to 16 at least)."""
    keys = [first_zero(rep["types"][s]["lengths"], lambda v: v["objects"]) for s in SETS]
    keys.append(first_zero(rep["commit_vs_other"]))
    return max(keys)


def drawn(rep):
    """all objects and commits always, the others when they have IDs,
    commit-ish when there are tags"""
    return [s for s in SETS
            if s in ("all", "commit") or rep["types"]["tag" if s == "commit-ish" else s]["count"] > 0]


def check_csv(rep, path):
    text = open(path, encoding="utf-8", newline="").read()
    expect("\r" not in text, "csv: CR in the output")
    rows = list(csv.reader(io.StringIO(text)))
    header = ["length"] + ["%s_%s" % (s, m) for s in SETS
                           for m in ("objects", "prefixes", "expected_prefixes")]
    header += ["commit_vs_other", "repository", "reachable_from", "refs_walked", "missing_objects"]
    # the verdict's columns follow (t-verdict checks them)
    if not expect(rows and rows[0][:len(header)] == header, "csv: header %s" % (rows[:1],)):
        return
    header = rows[0]
    lengths = [int(r[0]) for r in rows[1:]]
    last = max([last_len(rep)] + [int(L) for L in rep.get("verdict", {}).get("lengths", {})])
    expect(lengths == list(range(4, last + 1)),
           "csv: lengths %s, want 4..%d" % (lengths, last))
    for r in rows[1:]:
        d = dict(zip(header, r))
        L = int(d["length"])
        expect(len(r) == len(header), "csv: row %d has %d fields" % (L, len(r)))
        for s in SETS:
            got = (int(d[s + "_objects"]), int(d[s + "_prefixes"]))
            expect(got == counts(rep, s, L),
                   "csv: %s at %d: %s, json %s" % (s, L, got, counts(rep, s, L)))
            e = float(d[s + "_expected_prefixes"])
            want = expected_prefixes(rep["types"][s]["count"], L)
            expect(close(e, want), "csv: %s expected at %d: %r, formula %r"
                   % (s, L, e, want))
        expect(int(d["commit_vs_other"]) == rep["commit_vs_other"].get(str(L), 0),
               "csv: commit_vs_other at %d" % L)
        expect(d["repository"] == " + ".join(rep["repositories"]),
               "csv: repository %r, json %r" % (d["repository"], rep["repositories"]))
        reach = rep.get("reachable")
        want = ["", "", ""] if not reach else [" ".join(reach["refs"]), str(reach["refs_walked"]),
                                               str(reach["missing"])]
        got = [d["reachable_from"], d["refs_walked"], d["missing_objects"]]
        expect(got == want, "csv: reachable columns %s, json %s" % (got, want))


def cells(line):
    return [c.strip() for c in line.strip().strip("|").split("|")]


def md_tables(lines):
    """The Markdown tables of a document: (header cells, rows of cells), in order."""
    out, cur = [], None
    for l in lines:
        if l.startswith("|"):
            c = [x.replace("\\~", "~").replace("\\|", "|") for x in cells(l)]
            if cur is None:
                cur = (c, [])
                out.append(cur)
            elif not l.startswith("|---"):
                cur[1].append(c)
        else:
            cur = None
    return out


def paragraphs(lines):
    """The paragraphs of a document, each one line (a mail's line breaks folded)."""
    out, cur = [], []
    for l in lines + [""]:
        if l.strip() and not l.startswith("|") and not l.startswith("#"):
            cur.append(l.strip())
        elif cur:
            out.append(" ".join(cur))
            cur = []
    return out


def check_markdown(rep, path):
    text = open(path, encoding="utf-8").read()
    lines = text.split("\n")
    # mail-sized: every line but the heading (it holds the paths) within 100 chars
    width = max(len(l) for l in lines[1:])
    expect(width <= 100, "markdown: a line of %d chars" % width)
    head = lines[0]
    expect(head.startswith("### Colliding abbreviated IDs: "), "markdown: heading %r" % head)
    expect(head.endswith(", %s objects (%s)" % (grouped(rep["objects"]), rep["hash"])),
           "markdown: heading %r lacks the object count" % head)
    # the repositories by name, never their local paths
    for repo in rep["repositories"]:
        name = repo.rstrip("/")
        name = name[:-5] if name.endswith("/.git") else name
        name = os.path.basename(name)
        name = name[:-4] if name.endswith(".git") and len(name) > 4 else name
        expect(name in head or "..." in head, "markdown: heading %r lacks %r" % (head, name))
        expect(repo not in head, "markdown: heading %r has the path %r" % (head, repo))
    tables = md_tables(lines)
    # the three tables of the report, then the verdict's
    ntab = 3 + ("verdict" in rep)
    if not expect(len(tables) == ntab, "markdown: %d tables, want %d" % (len(tables), ntab)):
        return
    rows = list(range(4, last_len(rep) + 1))
    sets = [s for s in drawn(rep) if s in ("all", "commit", "commit-ish")]
    types = [s for s in drawn(rep) if s in ("tree", "blob", "tag")]
    for (hdr, body), want, cvo in ((tables[0], sets, False), (tables[1], types, True)):
        wh = ["len"] + [TITLES[s] for s in want] + (["commit~other"] if cvo else [])
        expect(hdr == wh, "markdown: header %s, want %s" % (hdr, wh))
        expect([int(c[0]) for c in body] == rows, "markdown: rows of %s" % hdr)
        for c in body:
            L = int(c[0])
            expect(len(c) == len(hdr), "markdown: row %d has %d cells, header %d"
                   % (L, len(c), len(hdr)))
            for i, s in enumerate(want):
                m = re.fullmatch(r"([\d,]+) / ([\d,]+)", c[1 + i])
                if expect(m, "markdown: cell %r" % c[1 + i]):
                    expect(m.group(1) == grouped(counts(rep, s, L)[0]) and
                           m.group(2) == grouped(counts(rep, s, L)[1]),
                           "markdown: %s at %d: %s, json %s" % (s, L, c[1 + i], counts(rep, s, L)))
            if cvo:
                expect(c[-1] == grouped(rep["commit_vs_other"].get(str(L), 0)),
                       "markdown: commit~other at %d" % L)
    hdr, body = tables[2]
    expect(hdr == ["len", "all objects", "P(>=)", "commits", "P(>=)"], "markdown: model header %s" % hdr)
    for c in body:
        L = int(c[0])
        expect(len(c) == len(hdr), "markdown: model row %d has %d cells" % (L, len(c)))
        for i, s in enumerate(("all", "commit")):
            m = re.fullmatch(r"([\d,]+) / (.+)", c[1 + 2 * i])
            if not expect(m, "markdown: model cell %r" % c[1 + 2 * i]):
                continue
            expect(m.group(1) == grouped(counts(rep, s, L)[1]), "markdown: %s measured at %d" % (s, L))
            e = float(m.group(2).replace(",", ""))
            want = expected_prefixes(rep["types"][s]["count"], L)
            # printed with 2 decimals, 2 significant digits or as a whole number
            expect(abs(e - want) <= 0.0051 + 0.051 * want,
                   "markdown: %s expected at %d: %s, formula %g" % (s, L, m.group(2), want))
    mu = [p for p in paragraphs(lines) if p.startswith("**Min unique length:**")]
    if expect(len(mu) == 1, "markdown: no min unique line"):
        m = re.fullmatch(r"\*\*Min unique length:\*\* (.*); commits vs other types (\d+); "
                         r"git's auto abbreviation for ([\d,]+) objects: (\d+)", mu[0])
        if expect(m, "markdown: min unique line %r" % mu[0]):
            got = {} if m.group(1) == "(no objects)" else dict(
                (t, int(v)) for t, v in (re.fullmatch(r"(.*) (\d+)", p.strip()).groups()
                                         for p in m.group(1).split(",")))
            want = dict((TITLES[s], rep["types"][s]["min_unique_length"])
                        for s in SETS if rep["types"][s]["count"])
            expect(got == want, "markdown: min unique %s, json %s" % (got, want))
            expect(int(m.group(2)) == first_zero(rep["commit_vs_other"]),
                   "markdown: commits vs other")
            expect(m.group(3) == grouped(rep["objects"]), "markdown: count")
            expect(int(m.group(4)) == rep["git_auto_abbrev"], "markdown: auto abbrev")


from svgcheck import NS, classes, centre, y_ticks, x_ticks, check_12_16, tick_value  # noqa: E402


def check_svg(rep, path):
    root = ET.parse(path).getroot()
    expect(root.tag == NS + "svg", "svg: root %s" % root.tag)
    title = root.find(NS + "title").text
    expect(grouped(rep["objects"]) + " objects" in title, "svg: title %r" % title)
    for repo in rep["repositories"]:
        # named after the repository (its directory, less .git), not its path
        name = re.sub(r"(/\.git)?/*$", "", repo).rsplit("/", 1)[-1]
        name = name[:-4] if name.endswith(".git") and len(name) > 4 else name
        expect(name in title or "..." in title, "svg: title %r lacks %r" % (title, name))
        expect(repo not in title, "svg: title %r is a path" % title)
    frame = [e for e in root.iter(NS + "rect") if "frame" in classes(e)]
    if not expect(len(frame) == 1, "svg: no frame"):
        return
    fx, fy = float(frame[0].get("x")), float(frame[0].get("y"))
    fw, fh = float(frame[0].get("width")), float(frame[0].get("height"))

    series = {e.get("id"): e for e in root.iter(NS + "g")
              if (e.get("id") or "").startswith("series-")}
    want_ids = {"series-" + s for s in drawn(rep)}
    expect(set(series) == want_ids, "svg: series %s, want %s" % (sorted(series), sorted(want_ids)))
    xmax = max(first_zero(rep["types"][s]["lengths"], lambda v: v["objects"])
               for s in drawn(rep)) + 1
    xmax = min(max(xmax, 16), 2 * {"sha1": 20, "sha256": 32}[rep["hash"]])
    logfit = []  # (log10 prefixes, y) of circles and squares
    for s in drawn(rep):
        g = series.get("series-" + s)
        if g is None:
            continue
        expect({"series", "set-" + s} <= set(classes(g)), "svg: classes of %s" % s)
        lines = [e for e in g.iter(NS + "polyline") if "model" in classes(e)]
        if rep["types"][s]["count"] >= 2:
            if expect(len(lines) == 1, "svg: %s has %d model lines" % (s, len(lines))):
                pts = lines[0].get("points").split()
                expect(len(pts) == xmax - 3, "svg: %s model has %d points, want %d"
                       % (s, len(pts), xmax - 3))
                if s == "all" and len(pts) == xmax - 3:
                    n = rep["types"][s]["count"]
                    check_12_16(root, "svg: model of all objects",
                                float(pts[12 - 4].split(",")[1]), float(pts[16 - 4].split(",")[1]),
                                expected_prefixes(n, 12), expected_prefixes(n, 16))
        else:
            expect(not lines, "svg: a model line for %s (fewer than 2 IDs)" % s)
        points = [e for e in g.iter() if "point" in classes(e)]
        want = {int(L): v["prefixes"] for L, v in rep["types"][s]["lengths"].items()
                if v["prefixes"] > 0}
        got = {int(e.get("data-length")): int(e.get("data-prefixes")) for e in points}
        expect(len(points) == len(want) and got == want,
               "svg: points of %s %s, json %s" % (s, got, want))
        for e in points:
            if e.tag in (NS + "circle", NS + "rect"):
                x, y = centre(e)
                expect(fx <= x <= fx + fw and fy <= y <= fy + fh,
                       "svg: %s point at %d outside the plot" % (s, int(e.get("data-length"))))
                logfit.append((math.log10(int(e.get("data-prefixes"))), y))
    # a log scale: y = a + b log10(p), b < 0, for every point and every y tick
    ticks = y_ticks(root)
    expect(len(ticks) >= 2, "svg: fewer than 2 y ticks")
    if len(ticks) >= 2:
        (l0, y0), (l1, y1) = ticks[0], ticks[-1]
        b = (y1 - y0) / (l1 - l0)
        expect(b < 0, "svg: the y axis runs downwards")
        for lv, y in ticks + logfit:
            expect(abs(y0 + b * (lv - l0) - y) < 0.25,
                   "svg: y %.1f for log10 %.3f is off the log scale" % (y, lv))
        expect(all(abs(ticks[i + 1][0] - ticks[i][0] - (ticks[1][0] - ticks[0][0])) < 1e-9
                   for i in range(len(ticks) - 1)), "svg: y ticks not evenly spaced decades")
    xt = [int(t.find(NS + "text").text) for g in root.iter(NS + "g")
          if {"axis", "x"} <= set(classes(g))
          for t in g.iter(NS + "g") if "tick" in classes(t)]
    expect(xt == list(range(4, xmax + 1)), "svg: x ticks %s, want 4..%d" % (xt, xmax))
    labels = [e.text for e in root.iter(NS + "text") if "axis-label" in classes(e)]
    expect(labels == ["abbreviation length (hex chars)", "colliding prefixes (log scale)"],
           "svg: axis labels %s" % labels)
    legend = [e for e in root.iter(NS + "g") if "legend" in classes(e)]
    if expect(len(legend) == 1, "svg: no legend"):
        items = [e.get("data-set") for e in legend[0].iter(NS + "g")
                 if "legend-item" in classes(e) and e.get("data-set")]
        expect(items == drawn(rep), "svg: legend %s" % items)
    notes = " ".join(e.text for e in root.iter(NS + "text") if "note" in classes(e))
    notes = re.sub(r"\s+", " ", notes)
    for s in drawn(rep):
        t = rep["types"][s]
        if t["count"]:
            m = "%s from %d chars" % (TITLES[s], t["min_unique_length"])
        else:
            m = "%s (no IDs)" % TITLES[s]
        expect(m in notes, "svg: notes lack %r: %s" % (m, notes))


LISTED = {}


def listed(repo):
    """oracle.list_objects(repo)'s objects, asked of git once a process."""
    if repo not in LISTED:
        LISTED[repo] = oracle.list_objects(repo)[0]
    return LISTED[repo]


def classic_expected(repos, settype):
    """git-unique-abbrev's layout, from git's own listing and oracle.py."""
    objs, ish = {}, set()
    for r in repos:
        for oid, t in listed(r):
            if t == "commit-ish":
                ish.add(oid)
            else:
                objs[oid] = t
    ids = sorted(i for i, t in objs.items()
                 if settype in ("all", t) or (settype == "commit-ish" and (t == "commit" or i in ish)))
    st = oracle.set_stats(ids)
    out = ["%d objects" % st["count"]]
    # the classic layout stops at the first "0 / 0" line
    end = st["min_unique_length"] or 4
    for L in sorted(st["lengths"], key=int):
        v = st["lengths"][L]
        if int(L) <= end:
            out.append("%2d: %d / %d" % (int(L), v["objects"], v["prefixes"]))
    longest = end - 1
    if longest >= 4:
        c = Counter(i[:longest] for i in ids)
        out += [i for i in ids if c[i[:longest]] >= 2]
    return out


def check_classic(path, settype, repos):
    got = open(path, encoding="utf-8").read()
    expect(got.endswith("\n"), "classic: no final newline")
    got = got.split("\n")[:-1]
    want = classic_expected(repos, settype)
    for i, (g, w) in enumerate(zip(got, want)):
        if not expect(g == w, "classic line %d: %r, want %r" % (i + 1, g, w)):
            break
    expect(len(got) == len(want), "classic: %d lines, want %d" % (len(got), len(want)))
    # the layout of the seeds: "N objects", " L: a / b" right-aligned, 40-char IDs
    expect(re.fullmatch(r"\d+ objects", got[0] if got else ""), "classic: first line")
    for g in got[1:]:
        expect(re.fullmatch(r"[ \d]\d: \d+ / \d+|[0-9a-f]{40}|[0-9a-f]{64}", g),
               "classic: line %r" % g)


def check_model(js, path, kind, band):
    d = json.load(open(js))
    sets = d["sets"] if "sets" in d else {"all": d}
    if kind == "csv":
        rows = list(csv.reader(open(path, newline="")))
        meas = ["expected_pairs", "p_collision", "expected_objects", "expected_prefixes",
                "capacity_p01", "capacity_p50"]
        header = ["length"] + ["%s_%s" % (s, m) for s in sets for m in meas]
        if not expect(rows[0] == header, "model csv header %s" % rows[0]):
            return
        want_l = [int(L) for L in next(iter(sets.values()))["lengths"]]
        expect([int(r[0]) for r in rows[1:]] == want_l, "model csv: lengths")
        for r in rows[1:]:
            dd = dict(zip(header, r))
            L = r[0]
            for s, v in sets.items():
                for m in meas[:4]:
                    expect(close(float(dd[s + "_" + m]), v["lengths"][L][m], 1e-9),
                           "model csv %s %s at %s" % (s, m, L))
                n = int(v["objects"])
                expect(close(float(dd[s + "_expected_pairs"]), pairs(n, int(L)), 1e-9),
                       "model csv: %s pairs at %s vs formula" % (s, L))
                for m, k in (("capacity_p01", "p01"), ("capacity_p50", "p50")):
                    expect(close(float(dd[s + "_" + m]), float(v["capacity"][L][k]), 1e-9),
                           "model csv %s %s at %s" % (s, m, L))
    elif kind == "markdown":
        lines = open(path, encoding="utf-8").read().split("\n")
        expect(lines[0].startswith("### Birthday model: "), "model md heading")
        heads = [l for l in lines if l.startswith("#### ") and not l.startswith("#### Capacity")]
        expect([h.split(":")[0][5:] for h in heads] == [TITLES[s] for s in sets],
               "model md: set headings %s" % heads)
        tables = []
        for l in lines:
            if l.startswith("| len |"):
                tables.append([])
            elif l.startswith("|") and not l.startswith("|---") and tables:
                tables[-1].append(cells(l))
        # a table per set, then the capacity of each length: one table for every set
        expect(len(tables) == len(sets) + 1, "model md: %d tables" % len(tables))
        cap = tables.pop() if tables else []
        expect([int(c[0]) for c in cap] == band, "model md: capacity lengths")
        v0 = next(iter(sets.values()))
        for c in cap:
            for i, k in ((1, "p01"), (2, "p50")):
                want = v0["capacity"][c[0]][k]
                if isinstance(want, int):
                    expect(c[i] == grouped(want), "model md: capacity %s at %s: %s, json %s"
                           % (k, c[0], c[i], want))
                for s2, v2 in sets.items():
                    expect(v2["capacity"][c[0]][k] == want,
                           "model md: capacity of %s differs from the first set's" % s2)
        for (s, v), t in zip(sets.items(), tables):
            expect([int(c[0]) for c in t] == band, "model md: %s lengths" % s)
            for c in t:
                L = c[0]
                e = v["lengths"][L]["expected_pairs"]
                # from 100 on a whole count, grouped as the report's are
                if e >= 100 and e < 1e15:
                    expect(c[1] == grouped(round(e)), "model md: %s pairs at %s: %s, want %s"
                           % (s, L, c[1], grouped(round(e))))
                else:
                    expect(close(float(c[1]), e, 0.006), "model md: %s pairs at %s: %s" % (s, L, c[1]))
                # a P that rounds to 1 without being 1 is "> 0.999"
                pv = v["lengths"][L]["p_collision"]
                if c[2].startswith("> "):
                    expect(pv > float(c[2][2:]) and float("%.3g" % pv) >= 1,
                           "model md: %s P at %s: %s for %r" % (s, L, c[2], pv))
                else:
                    expect(close(float(c[2]), pv, 0.006), "model md: %s P at %s: %s" % (s, L, c[2]))
    else:
        root = ET.parse(path).getroot()
        # the chart's lengths: the band, widened to hold 12 and 16
        wide = list(range(min(band[0], 12), max(band[-1], 16) + 1))
        for s, v in sets.items():
            g = [e for e in root.iter(NS + "g") if e.get("id") == "series-" + s]
            if not expect(len(g) == 1, "model svg: no series-%s" % s):
                continue
            pts = [e for e in g[0].iter() if "point" in classes(e)]
            want = [L for L in wide if v["lengths"][str(L)]["p_collision"] > 0]
            expect([int(e.get("data-length")) for e in pts] == want,
                   "model svg: %s points %s, want %s" % (s, [e.get("data-length") for e in pts],
                                                        want))
            at = {int(e.get("data-length")): e for e in pts}
            if 12 in at and 16 in at and at[12].tag in (NS + "circle", NS + "rect"):
                check_12_16(root, "model svg: %s" % s, centre(at[12])[1], centre(at[16])[1],
                            v["lengths"]["12"]["p_collision"], v["lengths"]["16"]["p_collision"])
            for e in pts:
                L = e.get("data-length")
                expect(close(float(e.get("data-p")), v["lengths"][L]["p_collision"], 1e-5),
                       "model svg: %s P at %s" % (s, L))
        labels = [e.text for e in root.iter(NS + "text") if "axis-label" in classes(e)]
        expect(labels == ["abbreviation length (hex chars)", "P(collision) (log scale)"],
               "model svg: axis labels %s" % labels)


def iso_cell(d):
    """JSON's "2005-04-09T01:59:53Z" as the markdown shows it."""
    return d.replace("T", " ").rstrip("Z")


def year_cell(y, reached):
    return "never" if y is None else "%d%s" % (math.floor(y), " \\*" if reached else "")


def check_history(kind, js, path):
    d = json.load(open(js))
    lengths, not_yet = d["lengths"], d["not_yet"]
    proj = d["projection"]
    if kind == "csv":
        rows = list(csv.DictReader(open(path, newline="", encoding="utf-8")))
        want = sorted([int(L) for L in lengths] + [int(L) for L in not_yet])
        expect([int(r["length"]) for r in rows] == want,
               "history csv: lengths %s, want %s" % ([r["length"] for r in rows], want))
        for r in rows:
            L = r["length"]
            expect(r["repository"] == " + ".join(d["repositories"]), "history csv: repository")
            if L in lengths:
                j = lengths[L]
                got = (r["collided"], int(r["first_collision"]), r["date"],
                       int(r["commits_then"]), [r["pair_older"], r["pair_newer"]],
                       int(r["shared"]), r["expected_date"] or None)
                exp = ("1", j["first_collision"], j["date"], j["commits_then"], j["pair"],
                       j["shared"], j["expected_date"])
                expect(got == exp, "history csv %s: %s, json %s" % (L, got, exp))
                expect(close(float(r["p"]), j["p_by_then"], 1e-9), "history csv %s: p" % L)
            else:
                j = not_yet[L]
                expect(r["collided"] == "0" and not r["first_collision"] and not r["pair_older"],
                       "history csv %s: not yet" % L)
                expect(close(float(r["p"]), j["p_now"], 1e-9), "history csv %s: p now" % L)
            expect(close(float(r["expected_commits"]), j["expected_commits"], 1e-9),
                   "history csv %s: expected commits" % L)
            for c, pk, who in (("commits_p01_year", "p01", "commits"),
                               ("commits_p50_year", "p50", "commits"),
                               ("objects_p01_year", "p01", "objects"),
                               ("objects_p50_year", "p50", "objects")):
                if proj and L in proj["lengths"]:
                    y = proj["lengths"][L][pk][who + "_year"]
                    expect(r[c] == "never" if y is None else abs(float(r[c]) - y) <= 0.0051,
                           "history csv %s %s: %s, json %s" % (L, c, r[c], y))
                else:
                    expect(r[c] == "", "history csv %s %s: %r, want empty" % (L, c, r[c]))
    elif kind == "markdown":
        lines = open(path, encoding="utf-8").read().split("\n")
        expect(lines[0].startswith("### When each length stopped being unique: "),
               "history md: heading %r" % lines[0])
        expect(paragraphs(lines)[0].startswith("%s commit%s (%s)" % (
            grouped(d["commits"]), "" if d["commits"] == 1 else "s", d["hash"])),
               "history md: counts %r" % paragraphs(lines)[:1])
        # a mail's 80 columns, but for the heading (it holds the path)
        width = max(len(l) for l in lines[1:])
        expect(width <= 80, "history md: a line of %d chars" % width)
        rows = [cells(l) for l in lines if re.match(r"\| \d+ \| (\d{4}-|not yet)", l)]
        pairs = {m.group(1): m.group(2) for m in
                 (re.match(r"- (\d+): (`[0-9a-f]+` `[0-9a-f]+`)$", l) for l in lines) if m}
        expect(sorted(pairs) == sorted(lengths), "history md: pairs of %s, want %s"
               % (sorted(pairs), sorted(lengths)))
        seen = {}
        for c in rows:
            L = c[0]
            seen[L] = c
            if L in lengths:
                j = lengths[L]
                expect(c[1] == iso_cell(j["date"])[:10], "history md %s: date %s" % (L, c[1]))
                expect(c[2] == grouped(j["commits_then"]), "history md %s: commits %s" % (L, c[2]))
                want = grouped(round(j["expected_commits"]))
                if j["expected_date"]:
                    want += " (%s)" % iso_cell(j["expected_date"])[:10]
                expect(c[3] == want, "history md %s: model %s, want %s" % (L, c[3], want))
                expect(close(float(c[4]), j["p_by_then"], 0.051), "history md %s: P" % L)
                expect(len(c) == 5, "history md %s: %d cells" % (L, len(c)))
                a, b = re.findall(r"`([0-9a-f]+)`", pairs.get(L, "` ` ` `"))
                expect(j["pair"][0].startswith(a) and j["pair"][1].startswith(b) and
                       len(a) > j["shared"], "history md %s: pair %s" % (L, pairs.get(L)))
            else:
                expect(L in not_yet and c[1] == "not yet" and
                       c[2] == grouped(d["commits"]), "history md %s: %s" % (L, c))
                expect(close(float(c[4]), not_yet[L]["p_now"], 0.051), "history md %s: P now" % L)
        expect(all(L in seen for L in lengths), "history md: rows %s" % sorted(seen))
        if proj:
            q = proj["quote"]
            expect("**%s%s.**" % (q[0].upper(), q[1:]) in paragraphs(lines), "history md: no quote")
            for L, w in proj["lengths"].items():
                row = [cells(l) for l in lines if l.startswith("| %s | " % L)
                       and not re.match(r"\| \d+ \| (\d{4}-|not yet)", l)]
                if expect(len(row) == 1, "history md: projection row %s" % L):
                    want = [L, year_cell(w["p01"]["commits_year"], w["p01"]["commits_reached"]),
                            year_cell(w["p50"]["commits_year"], w["p50"]["commits_reached"]),
                            year_cell(w["p01"]["objects_year"], w["p01"]["objects_reached"]),
                            year_cell(w["p50"]["objects_year"], w["p50"]["objects_reached"])]
                    expect(row[0] == want, "history md: projection %s, want %s" % (row[0], want))
        else:
            expect(not any(l.startswith("**") for l in lines), "history md: a quote without projection")
    else:
        root = ET.parse(path).getroot()
        g = [e for e in root.iter(NS + "g") if e.get("id") == "series-commit"]
        if not expect(len(g) == 1, "history svg: no series-commit"):
            return
        pts = [e for e in g[0].iter() if "point" in classes(e)]
        got = {e.get("data-length"): (int(e.get("data-commits")), int(e.get("data-time")))
               for e in pts}
        want = {L: (j["commits_then"], j["first_collision"]) for L, j in lengths.items()}
        expect(len(pts) == len(want) and got == want, "history svg: points %s, json %s" % (got, want))
        ticks = []
        # the history's own axes (the projection under it has its own)
        for ax in root.findall(NS + "g"):
            if {"axis", "y"} <= set(classes(ax)):
                for t in ax.iter(NS + "g"):
                    if "tick" in classes(t):
                        v = tick_value(t.find(NS + "text").text)
                        ticks.append((math.log10(v), float(t.find(NS + "line").get("y1"))))
        if expect(len(ticks) >= 2, "history svg: y ticks"):
            (l0, y0), (l1, y1) = ticks[0], ticks[-1]
            b = (y1 - y0) / (l1 - l0)
            for e in pts:
                lv = math.log10(int(e.get("data-commits")))
                y = float(e.get("y")) + float(e.get("height")) / 2
                expect(abs(y0 + b * (lv - l0) - y) < 0.25, "history svg: point off the log scale")
        labels = [e.text for e in root.iter(NS + "text") if "axis-label" in classes(e)]
        expect(labels == ["abbreviation length (hex chars)", "commits then (log scale)"] +
               (["year", "commits (log scale)"] if proj else []),
               "history svg: axis labels %s" % labels)
        fits = [e for e in root.iter(NS + "path") if "fit" in classes(e)]
        expect(len(fits) == (2 if proj else 0), "history svg: %d fits drawn" % len(fits))
        now = [e for e in root.iter(NS + "g") if "now" in classes(e)]
        expect(d["commits"] == 0 or len(now) == 1, "history svg: no line for today's count")


def batch(d, first, last):
    """Each job of d (see the module's doc) checked with problems of its own."""
    for n in range(int(first), int(last) + 1):
        job = "%s/job%d" % (d, n)
        with open(job + ".args", "rb") as f:
            args = [os.fsdecode(x) for x in f.read().split(b"\0")[:-1]]
        del bad[:]
        try:
            run(["formats_check.py"] + args)
        except (Exception, SystemExit):  # a traceback or an exit fails the check, as alone
            import traceback
            bad.append(traceback.format_exc())
        with open(job + ".out", "w") as f:
            f.write("".join(b + "\n" for b in bad[:20]))
        if not bad:
            open(job + ".ok", "w").close()
    return 0


def main(a):
    if a[1] == "batch":
        return batch(*a[2:5])
    run(a)
    for b in bad[:20]:
        print(b)
    return 1 if bad else 0


def run(a):
    kind = a[1]
    if kind == "xml":
        ET.parse(a[2])  # well-formed, or a traceback
    elif kind.startswith("history-"):
        check_history(kind[8:], a[2], a[3])
    elif kind == "classic":
        check_classic(a[2], a[3], a[4:])
    elif kind.startswith("model-"):
        band = list(range(int(a[4]), int(a[5]) + 1)) if len(a) > 5 else None
        check_model(a[2], a[3], kind[6:], band)
    else:
        rep = json.load(open(a[2], encoding="utf-8"))
        {"csv": check_csv, "markdown": check_markdown, "svg": check_svg}[kind](rep, a[3])


if __name__ == "__main__":
    sys.exit(main(sys.argv))
