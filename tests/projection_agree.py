#!/usr/bin/env python3
"""projection_agree.py - history and policy project the same future.

    python3 projection_agree.py <repo> <history.json> <history.txt>
                                <policy.json> <policy.txt>

The JSON and text of `git abbrev history` and of `git abbrev policy`
(both with the same --fit and --window-years; policy with a horizon long
enough to date every length) of one repository.  Checked:

- the moment both count from is the repository's newest committer date,
  read from `git log --all --reflog --format=%ct` here (independently of
  the tool), and both print it;
- every length both date (history's 10..16, policy's lengths) passes 1%
  and 50% in the same year for commits and for all objects, and the same
  lengths are "passed already" in both;
- the projected counts agree: history's commits and objects at its
  horizon (10 years) are policy's commit and all counts in 10 years, whole
  numbers, and the text prints each one figure: the "commits in <year>"
  line, the "safe until" sentence and policy's set headings.

Exit 0 when all agree, else 1 with one line per disagreement.
"""
import json
import re
import subprocess
import sys


def newest_commit_time(repo):
    # every commit of the object database, as the tool counts them
    out = subprocess.run(
        ["git", "-C", repo, "cat-file", "--batch-all-objects",
         "--batch-check=%(objectname) %(objecttype)"],
        check=True, capture_output=True, text=True).stdout
    ids = [l.split()[0] for l in out.splitlines() if l.endswith(" commit")]
    out = subprocess.run(
        ["git", "-C", repo, "show", "-s", "--format=%ct", "--stdin"],
        input="\n".join(ids) + "\n", check=True, capture_output=True,
        text=True).stdout
    return max(int(t) for t in out.split())


def grouped(n):
    return "{:,}".format(int(n))


def main(argv):
    repo, hjson, htxt, pjson, ptxt = argv[1:6]
    h = json.load(open(hjson))
    p = json.load(open(pjson))
    history_text = open(htxt).read()
    policy_text = open(ptxt).read()
    bad = []
    newest = newest_commit_time(repo)
    proj = h["projection"]
    if proj is None:
        print("history: no projection")
        return 1
    if proj.get("projected_from") != newest:
        bad.append("history projects from %s, the newest commit is %d"
                   % (proj.get("projected_from"), newest))
    if p["now"] != newest or p.get("now_from") != "newest commit":
        bad.append("policy counts from %d (%s), the newest commit is %d"
                   % (p["now"], p.get("now_from"), newest))
    if "(the newest commit" not in policy_text:
        bad.append("policy's text does not say it counts from the newest commit")
    if "projected from" not in history_text:
        bad.append("history's text does not say where it projects from")
    dated = 0
    for L, w in proj["lengths"].items():
        for level in ("p01", "p50"):
            for hset, pset in (("commits", "commit"), ("objects", "all")):
                prow = p["sets"][pset]["lengths"].get(L)
                if prow is None:
                    continue
                pw = prow[level]
                hy, hreached = w[level][hset + "_year"], w[level][hset + "_reached"]
                if hreached != (pw["state"] == "passed"):
                    bad.append("%s chars %s %s: passed in history %s, policy says %s"
                               % (L, level, pset, hreached, pw["state"]))
                    continue
                if pw["state"] == "beyond" or hy is None or pw["year"] is None:
                    continue
                dated += 1
                if int(hy) != int(pw["year"]):
                    bad.append("%s chars %s %s: history %d, policy %d"
                               % (L, level, pset, int(hy), int(pw["year"])))
    if not dated:
        bad.append("no length dated by both: nothing compared")
    if proj["horizon_years"] != 10.0 or "10" not in p["sets"]["commit"]["count_in_years"]:
        bad.append("history's horizon is not policy's 10 years")
    else:
        for hkey, pset in (("commits_at_horizon", "commit"), ("objects_at_horizon", "all")):
            hc = proj[hkey]
            pc = p["sets"][pset]["count_in_years"]["10"]
            if hc != int(hc) or pc != int(pc):
                bad.append("%s: counts not whole: %r, %r" % (hkey, hc, pc))
            if hc != pc:
                bad.append("%s: history %r, policy %r" % (hkey, hc, pc))
        commits = grouped(proj["commits_at_horizon"])
        objects = grouped(proj["objects_at_horizon"])
        fit = proj["fit"]
        m = re.search(r"commits in \d+: ([\d,]+) by the (\w+) fit, ([\d,]+) by the (\w+) fit",
                      history_text)
        if not m:
            bad.append("history: no 'commits in <year>' line")
        else:
            chosen = m.group(1) if m.group(2) == fit else m.group(3)
            if chosen != commits:
                bad.append("history: 'commits in' prints %s, the projection %s"
                           % (chosen, commits))
        safe = re.sub(r"\s+", " ", history_text)
        if "at about %s commits and %s objects" % (commits, objects) not in safe:
            bad.append("history: the 'safe until' sentence does not print %s commits "
                       "and %s objects" % (commits, objects))
        flat = re.sub(r"\s+", " ", policy_text)
        for title, c in (("commits", commits), ("all objects", objects)):
            if not re.search(r"%s: [\d,]+ now; [\d,]+ in 5 years, %s in 10,"
                             % (title, re.escape(c)), flat):
                bad.append("policy: %s in 10 years is not printed as %s" % (title, c))
    for b in bad:
        print(b)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
