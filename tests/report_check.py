#!/usr/bin/env python3
"""report_check.py - checks of `git abbrev report` that t-report.sh runs.

    python3 report_check.py planted INFO.json TOOL.json
        the collisions gen_repo.py planted (INFO.json) show up in the
        tool's numbers (TOOL.json) and in its group listing, if it has one
    python3 report_check.py mentions TEXT N
        the text output TEXT prints the number N (as 2188, 2,188, 2 188
        or 2'188)

Prints what differs and exits 1 if anything does.
"""
import json
import re
import sys

HEXID = re.compile(r"^[0-9a-f]{40}([0-9a-f]{24})?$")


def ids_in(x):
    """Full IDs anywhere in x, except inside "lengths"."""
    if isinstance(x, str):
        return {x} if HEXID.match(x) else set()
    if isinstance(x, list):
        return set().union(*map(ids_in, x)) if x else set()
    if isinstance(x, dict):
        return set().union(set(), *(ids_in(v) for k, v in x.items()
                                    if k != "lengths"))
    return set()


def planted(info_path, tool_path):
    info = json.load(open(info_path, encoding="utf-8"))
    tool = json.load(open(tool_path, encoding="utf-8"))
    bad = []
    for p in info["planted"]:
        n, ids = p["shared"], p["ids"]
        sets = ["all"] + ([p["types"][0]] if p["types"][0] == p["types"][1] else [])
        for s in sets:
            t = tool["types"][s]
            if t["min_unique_length"] < n + 1:
                bad.append("%s: types.%s.min_unique_length %d < %d"
                           % (p["kind"], s, t["min_unique_length"], n + 1))
            row = t["lengths"].get(str(n), {})
            if row.get("objects", 0) < 2 or row.get("prefixes", 0) < 1:
                bad.append("%s: types.%s.lengths.%d = %s, want >= 2 objects"
                           % (p["kind"], s, n, row))
            listed = ids_in(t)
            if listed and t["min_unique_length"] == n + 1:
                missing = [i for i in ids if i not in listed]
                if missing:
                    bad.append("%s: %s missing from the groups of types.%s"
                               % (p["kind"], " ".join(missing), s))
        if sorted(p["types"]) == ["blob", "commit"]:
            if tool["commit_vs_other"].get(str(n), 0) < 1:
                bad.append("%s: commit_vs_other.%d = %s, want >= 1"
                           % (p["kind"], n, tool["commit_vs_other"].get(str(n))))
    if len(info.get("tags", [])) > tool["types"]["tag"]["count"]:
        bad.append("types.tag.count %d < %d planted tags"
                   % (tool["types"]["tag"]["count"], len(info["tags"])))
    return bad


def mentions(text_path, n):
    text = open(text_path, encoding="utf-8", errors="replace").read()
    n = int(n)
    # 2188, 2,188, 2 188, 2'188 all count
    nums = {int(re.sub(r"[,' _]", "", m)) for m in
            re.findall(r"(?<![\d.])\d{1,3}(?:[,' _]\d{3})+(?![\d.])|(?<![\d.])\d+(?![\d.])", text)}
    return [] if n in nums else ["%d is not among the numbers of %s" % (n, text_path)]


if __name__ == "__main__":
    bad = {"planted": planted, "mentions": mentions}[sys.argv[1]](*sys.argv[2:])
    print("\n".join(bad))
    sys.exit(1 if bad else 0)
