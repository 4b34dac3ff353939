#!/usr/bin/env python3
"""verdict_check.py - the verdict of the report and of check against policy,
git and the definitions of its words.

    verdict_check.py VERDICT.json POLICY.json REPO

VERDICT.json: `git abbrev report --format=json` (or check's) of REPO;
POLICY.json: `git abbrev policy --format=json --lengths=...` of the same
repository at the verdict's lengths.  Checks:
  - each length and set: the colliding prefixes, P now, P in 10 years and
    the year P passes 1% are policy's (the two runs are seconds apart: P
    and the year within a small tolerance);
  - the colliding prefixes of commits and of all objects are git's own
    (`git cat-file --batch-all-objects`, counted here);
  - the level of concern follows its definition (the man page's);
  - git's automatic length is the length of `git rev-parse --short HEAD`
    (HEAD unique at that length), and the count it changes at is the
    first power of two at which git's formula gives one more;
  - core.abbrev and the commit length suggested are the shortest lengths
    (never below git's own length)
    whose chance among the counts policy projects ten years on (or today's,
    without a growth) stays below 1% and where git shows no collision.
Exits 0, or 1 with a line per mismatch.
"""
import json
import subprocess
import sys
from collections import Counter

from birthday import p_collision

errors = []


def err(msg):
    errors.append(msg)


def close(a, b, rel=1e-6):
    if a is None or b is None:
        return a is None and b is None
    return abs(a - b) <= rel * max(abs(a), abs(b), 1e-300)


def git(repo, *args):
    return subprocess.run(["git", "-C", repo] + list(args), check=True,
                          capture_output=True, text=True).stdout


def colliding(ids, L):
    c = Counter(i[:L] for i in ids)
    return sum(1 for v in c.values() if v >= 2)


def git_auto(count):
    # git's formula (object-name.c): bits = msb + 1, (bits + 1) / 2, at least 7
    bits = count.bit_length()
    return max(7, (bits + 1) // 2)


def main(argv):
    v = json.load(open(argv[1]))["verdict"]
    pol = json.load(open(argv[2]))
    repo = argv[3]
    objs = git(repo, "cat-file", "--batch-all-objects",
               "--batch-check=%(objectname) %(objecttype)").split("\n")
    objs = [o.split() for o in objs if o]
    all_ids = [o[0] for o in objs]
    commits = [o[0] for o in objs if o[1] == "commit"]
    hexsz = len(all_ids[0])
    grown = v["growth"] is not None

    for L, row in v["lengths"].items():
        L = int(L)
        for name, s in row["sets"].items():
            p = pol["sets"][name]["lengths"][str(L)]
            what = "%s at %d" % (name, L)
            if s["colliding_prefixes"] != p["colliding_prefixes"]:
                err("%s: colliding %s, policy %s" % (what, s["colliding_prefixes"],
                                                     p["colliding_prefixes"]))
            if not close(s["p_now"], p["p_now"]):
                err("%s: P now %s, policy %s" % (what, s["p_now"], p["p_now"]))
            p10 = p["p_in_years"]["10"] if p["p_in_years"] else None
            if not close(s["p_in_years"], p10, 1e-4):
                err("%s: P in 10y %s, policy %s" % (what, s["p_in_years"], p10))
            if s["p01"]["state"] != p["p01"]["state"]:
                err("%s: 1%% state %s, policy %s" % (what, s["p01"]["state"],
                                                    p["p01"]["state"]))
            ya, yb = s["p01"]["year"], p["p01"]["year"]
            if (ya is None) != (yb is None) or (ya is not None and abs(ya - yb) > 0.01):
                err("%s: 1%% year %s, policy %s" % (what, ya, yb))
            ids = {"commit": commits, "all": all_ids}.get(name)
            if ids is not None and colliding(ids, L) != s["colliding_prefixes"]:
                err("%s: colliding %s, git's objects %d" % (what, s["colliding_prefixes"],
                                                           colliding(ids, L)))
            # the definition of the words
            if ((s["colliding_prefixes"] or 0) > 0 or s["p_now"] >= 0.01
                    or s["p01"]["state"] == "passed"):
                want = "act"
            elif grown and s["p_in_years"] >= 0.01:
                want = "watch"
            elif not grown and s["p_now"] >= 0.001:
                want = "watch"
            else:
                want = "none"
            if s["concern"] != want:
                err("%s: concern %s, by its definition %s" % (what, s["concern"], want))

    # git's own length
    short = git(repo, "rev-parse", "--short", "HEAD").strip()
    if len(short) != v["git_auto_abbrev"]:
        err("git's length %d (rev-parse --short HEAD %s), verdict %d"
            % (len(short), short, v["git_auto_abbrev"]))
    if v["git_objects"] != len(all_ids):
        err("objects %d, git's %d" % (v["git_objects"], len(all_ids)))
    if str(v["git_auto_abbrev"]) not in v["lengths"] or \
            not v["lengths"][str(v["git_auto_abbrev"])]["git_auto"]:
        err("git's length is not a row of the verdict")
    nxt = v["git_next_at"]
    if nxt is None or git_auto(nxt) != v["git_auto_abbrev"] + 1 or \
            git_auto(nxt - 1) != v["git_auto_abbrev"] or nxt & (nxt - 1):
        err("git's next length at %s objects" % nxt)
    for L in (12, 16):
        if str(L) not in v["lengths"]:
            err("no row for %d" % L)

    # the suggestions
    for name, ids, key in (("all", all_ids, "core_abbrev"), ("commit", commits, "commit_length")):
        ps = pol["sets"][name]
        n = ps["count_in_years"]["10"] if grown else ps["count"]
        want = next(L for L in range(4, hexsz + 1)
                    if p_collision(n, L) < 0.01 and colliding(ids, L) == 0)
        # never below git's own length (git rev-parse --short, checked above)
        want = max(want, v["git_auto_abbrev"])
        if v["suggest"][key] != want:
            err("suggested %s %d, want %d (%g IDs)" % (key, v["suggest"][key], want, n))
    if v["suggest"]["over_years"] != (10 if grown else 0):
        err("suggestion over %s years" % v["suggest"]["over_years"])

    for e in errors:
        print(e)
    return 1 if errors else 0


sys.exit(main(sys.argv))
