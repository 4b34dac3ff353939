#!/usr/bin/env python3
"""audit_check.py - `git abbrev audit`'s outputs against what gen_repo.py
planted (t-audit.sh).

    python3 audit_check.py PLAN.json DIR REPO

PLAN.json is gen_repo.py's description of the audit scenario: each
planted reference with its class, citing commit, committer time and zone.
DIR holds git's year of each citing commit (DIR/years: `git log
--date=short --format='%H %cd'`) and the tool's outputs of REPO: out.json,
out.csv, out.txt, out.map, out.md, out.svg.  The tally of the plan by the
committer's year (in the committer's zone, checked against git's) is the
oracle of every count of the JSON, CSV and text, the shares, the quote,
the prefixes ambiguous today (`git rev-parse --disambiguate`), the map of
wrong references and the SVG's bars.  Prints what differs; exits 1 if
anything does.
"""
import csv
import datetime
import json
import subprocess
import sys
import xml.etree.ElementTree as ET

plan, tmp, repo = json.load(open(sys.argv[1])), sys.argv[2], sys.argv[3]
bad = []
classes = plan["classes"]
git_year = {}
for line in open(tmp + "/years"):
    h, day = line.split()
    git_year[h] = int(day[:4])
tally, total = {}, {c: 0 for c in classes}
for ref in plan["refs"]:
    tz = ref["tz"]
    off = (1 if tz[0] == "+" else -1) * (int(tz[1:3]) * 60 + int(tz[3:5]))
    y = (datetime.datetime(1970, 1, 1) + datetime.timedelta(seconds=ref["when"] + 60 * off)).year
    if git_year[ref["citing"]] != y:
        bad.append("the tally's year %d of %s is not git's %d" % (y, ref["citing"], git_year[ref["citing"]]))
    tally.setdefault(y, {c: 0 for c in classes})[ref["class"]] += 1
    total[ref["class"]] += 1
nrefs = len(plan["refs"])
if len(tally) < 4:
    bad.append("the plan spans %d years, not several" % len(tally))
if not any(r["tz"] != "+0000" and git_year[r["citing"]] != datetime.datetime.utcfromtimestamp(r["when"]).year
           for r in plan["refs"]):
    bad.append("no commit whose committer's year is not UTC's")

# JSON; the tool's order of the classes for the CSV and text columns
d = json.load(open(tmp + "/out.json"))
if sorted(c["name"] for c in d["classes"]) != sorted(classes):
    bad.append("json classes %s" % d["classes"])
classes = [c["name"] for c in d["classes"]]
if d["schema_version"] < 2 or d["references"] != nrefs:
    bad.append("json: %s references, want %d" % (d["references"], nrefs))
got = {y["year"]: y["counts"] for y in d["years"]}
if sorted(got) != sorted(tally):
    bad.append("json years %s, want %s" % (sorted(got), sorted(tally)))
for y in tally:
    for c in classes:
        if got.get(y, {}).get(c) != tally[y][c]:
            bad.append("json %d %s: %s, want %d" % (y, c, got.get(y, {}).get(c), tally[y][c]))
for c in classes:
    if d["total"]["counts"][c] != total[c]:
        bad.append("json total %s: %s, want %d" % (c, d["total"]["counts"][c], total[c]))
    want = 100.0 * total[c] / nrefs
    if abs(d["total"]["shares"][c] - want) > 1e-3:
        bad.append("json share %s: %s, want %s" % (c, d["total"]["shares"][c], want))
if abs(sum(d["total"]["shares"].values()) - 100) > 1e-3:
    bad.append("json shares sum to %s" % sum(d["total"]["shares"].values()))
wrong = total["wrong-found"] + total["wrong"] + total["not-a-commit"]
if d["wrong"] != wrong or d["ambiguous_when_written"] != total["ambiguous"]:
    bad.append("json wrong %s, ambiguous %s" % (d["wrong"], d["ambiguous_when_written"]))
quote = "of %d references since %d, %d are wrong (%.1f%%), %d were ambiguous when written (%.1f%%)" % (
    nrefs, min(tally), wrong, 100.0 * wrong / nrefs, total["ambiguous"], 100.0 * total["ambiguous"] / nrefs)
if d["quote"] != quote:
    bad.append("json quote %r, want %r" % (d["quote"], quote))

# CSV
rows = list(csv.reader(open(tmp + "/out.csv")))
if rows[0] != ["year", "references"] + classes:
    bad.append("csv header %s" % rows[0])
for row in rows[1:]:
    want = total if row[0] == "total" else tally.get(int(row[0]), {})
    n = nrefs if row[0] == "total" else sum(want.values())
    if [int(x) for x in row[1:]] != [n] + [want.get(c, 0) for c in classes]:
        bad.append("csv row %s" % row)
if len(rows) != len(tally) + 2:
    bad.append("csv has %d rows, want %d" % (len(rows), len(tally) + 2))

# text: the table within 80 columns, its rows and shares, the quote
text = open(tmp + "/out.txt").read().split("\n")
for line in text:
    if len(line) > 80 and line != quote:
        bad.append("text line of %d columns: %r" % (len(line), line))
table = {l.split()[0]: l.split()[1:] for l in text if l[:4].isdigit() or l.startswith(("total", "share"))}
for y in tally:
    if [int(x) for x in table.get(str(y), [])] != [tally[y][c] for c in classes] + [sum(tally[y].values())]:
        bad.append("text row %d: %s" % (y, table.get(str(y))))
shares = [float(x.rstrip("%")) for x in table["share"][:-1]]
if abs(sum(shares) - 100) > 0.05 * len(shares) or table["share"][-1] != "100.0%":
    bad.append("text shares %s sum to %s" % (table["share"], sum(shares)))
if quote not in text:
    bad.append("text lacks the quote %r" % quote)
if "> " + quote not in open(tmp + "/out.md").read():
    bad.append("markdown lacks the quote")

# the prefixes ambiguous today, as git sees them
listed = {l.split()[0] for l in text[text.index("cited prefixes ambiguous today:") + 1:] if l.startswith("  ") and "start with it" in l}
want = {r["written"] for r in plan["refs"] if r["class"] in ("ambiguous", "ambiguous-today")}
if listed != want:
    bad.append("ambiguous today: %s, want %s" % (sorted(listed), sorted(want)))
for p in want:
    n = len(subprocess.run(["git", "-C", repo, "rev-parse", "--disambiguate=" + p],
                           capture_output=True, text=True).stdout.split())
    if n < 2:
        bad.append("%s names %d objects, git says" % (p, n))

# map: each wrong reference, the right commit or NOT_VALID, the citing commit
want = sorted("%s %s %s" % (r["written"], r["right"] or "NOT_VALID", r["citing"])
              for r in plan["refs"] if r["class"] in ("wrong-found", "wrong", "not-a-commit"))
got = sorted(open(tmp + "/out.map").read().splitlines())
if got != want:
    bad.append("map:\n%s\nwant:\n%s" % ("\n".join(got), "\n".join(want)))

# svg: well-formed, a bar group per year with its references
root = ET.parse(tmp + "/out.svg").getroot()
years = {int(g.get("data-year")): int(g.get("data-references"))
         for g in root.iter("{http://www.w3.org/2000/svg}g") if g.get("data-year")}
if years != {y: sum(v.values()) for y, v in tally.items()}:
    bad.append("svg years %s" % years)
for b in bad:
    print(b)
sys.exit(1 if bad else 0)
