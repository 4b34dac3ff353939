#!/usr/bin/env python3
"""report_check.py - checks of the commands that count shared prefixes
(report, ids, check, watch): their JSON, CSV and SVG against what
gen_repo.py planted and what git lists.  t-report.sh, t-ids.sh,
t-check.sh, t-clones.sh, t-commitish.sh, t-reachable.sh, t-watch.sh,
t-json-schema.sh and t-man.sh run them:

    python3 report_check.py CHECK ARGS...

    python3 report_check.py planted INFO.json TOOL.json
        the collisions gen_repo.py planted (INFO.json) show up in the
        tool's numbers (TOOL.json) and in its group listing, if it has one
    python3 report_check.py mentions TEXT N
        the text output TEXT prints the number N (as 2188, 2,188, 2 188
        or 2'188)
    and the rest, below, each with its arguments.

Prints what differs (or raises AssertionError) and exits 1 if anything
does; json_keys prints the keys of a report.
"""
import collections
import csv
import json
import os
import re
import sys
import xml.etree.ElementTree as ET

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from birthday import p_new  # noqa: E402

NS = "{http://www.w3.org/2000/svg}"


def load(path):
    with open(path, encoding="utf-8") as f:
        return json.load(f)

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


def ids_same(report_path, ids_path, objs):
    """ids's report of the IDs git lists is the report of the repository:
    every key, the same value (t-ids.sh)."""
    rep, ids = load(report_path), load(ids_path)
    bad = []

    def walk(a, b, path):
        """Every key of the report is in the ids report, with the same value
        (lists of groups compared whole; descriptions are the repository's)."""
        if isinstance(a, dict):
            for k, v in a.items():
                # the verdict needs commit dates, which an ID list has not
                if k == "description" or path + "/" + k in ("/types/commit-ish", "/verdict"):
                    continue
                if k not in b:
                    bad.append("missing " + path + "/" + k)
                elif k not in ("repositories",):
                    walk(v, b[k], path + "/" + k)
        elif isinstance(a, list):
            if len(a) != len(b):
                bad.append("length of " + path)
            for i, (x, y) in enumerate(zip(a, b)):
                walk(x, y, path + "/%d" % i)
        elif a != b and path not in ("/shallow", "/partial"):
            bad.append("%s: %r != %r" % (path, a, b))

    walk(rep, ids, "")
    assert ids["repositories"] == [objs], ids["repositories"]
    inp = ids["input"]
    assert inp["lines"] == ids["objects"] and inp["duplicates"] == 0 and inp["bad_lines"] == 0, inp
    assert inp["tags_peeled"] is False, inp
    assert rep["types"]["tag"]["count"] > 0, "the repository has no tag to peel"
    ish, com = ids["types"]["commit-ish"], ids["types"]["commit"]
    assert (ish["count"], ish["lengths"]) == (com["count"], com["lengths"]), "commit-ish is not the commits"
    return bad


def check_group(path, length, *ids):
    """check L --format=json: the two commits IDS collide at L, one group."""
    d = load(path)
    L, ids = int(length), set(ids)
    assert d["length"] == L and d["type"] == "commit" and d["collide"] is True, d
    assert d["colliding_objects"] == 2 and d["colliding_prefixes"] == 1, d
    g = d["groups"][0]
    assert {m["id"] for m in g["members"]} == ids, g
    assert g["prefix"] == sorted(ids)[0][:L] and g["shared"] == L, g


def natural(path):
    """The longest blob collision of 17000 blobs is likely by chance."""
    b = load(path)["types"]["blob"]["longest"]
    assert b["length"] >= 5 and b["improbable"] is False and b["p_random"] > 1e-3, b


def reachable_counts(all_path, reach_path, revlist):
    """--reachable counts what `git rev-list --objects` (REVLIST: ID TYPE
    lines) lists, and fewer blobs than the whole repository."""
    full, reach = load(all_path)["types"], load(reach_path)["types"]
    want = collections.Counter(line.split()[1] for line in open(revlist))
    for t in ("commit", "tree", "blob", "tag"):
        assert reach[t]["count"] == want[t], (t, reach[t]["count"], want[t])
    assert reach["all"]["count"] == sum(want.values())
    assert full["blob"]["count"] > reach["blob"]["count"], "unreachable blob not excluded"


def prefix_groups(path, ids_path, nhex="4"):
    """check NHEX --type=all: the groups at NHEX chars are those of git's
    IDs (IDS_PATH, one a line), whole SHA-256 IDs; there is one at least
    (the repository has a planted pair)."""
    d = load(path)
    nhex = int(nhex)
    ids = [line.strip() for line in open(ids_path)]
    want = collections.Counter(i[:nhex] for i in ids)
    want = {p: n for p, n in want.items() if n > 1}
    assert want, "git lists no IDs sharing %d chars" % nhex
    got = {g["prefix"]: len(g["members"]) for g in d["groups"]}
    assert got == want, (got, want)
    assert all(len(m["id"]) == 64 for g in d["groups"] for m in g["members"])


def commitish(pack_path, git2_path, reach_path, info_path):
    """The commit-ish set is the same by both walkers and --reachable, in a
    repository with deltified and loose tags."""
    pack, git2, reach = (load(f)["types"]["commit-ish"] for f in (pack_path, git2_path, reach_path))
    info = load(info_path)
    for other, name in ((git2, "libgit2"), (reach, "reachable")):
        for k in ("count", "min_unique_length", "lengths"):
            assert pack[k] == other[k], (name, k, pack[k], other[k])
    assert info["deltified_tags"] and info["loose_tags"], info


def svg_text_inside(path):
    """Every line of text is inside the picture (4 px from its bottom)."""
    root = ET.parse(path).getroot()
    low = max(float(t.get("y", 0)) for t in root.iter(NS + "text"))
    assert low <= float(root.get("height")) - 4, (low, root.get("height"))


def svg_refs(path, nrefs):
    """The SVG says which refs were walked, inside the picture."""
    g = [e for e in ET.parse(path).iter(NS + "g") if e.get("class") == "reachable"]
    text = " ".join(t.text for t in g[0].iter(NS + "text")) if g else ""
    assert text == "Reachable from HEAD, refs/heads/*, refs/tags/*: %s refs." % nrefs, text
    svg_text_inside(path)


def csv_refs(path, nrefs):
    """Each CSV row says which refs were walked: tags and HEAD, NREFS."""
    rows = list(csv.DictReader(open(path, newline="")))
    assert rows, "no rows"
    for r in rows:
        got = (r["reachable_from"], r["refs_walked"], r["missing_objects"])
        assert got == ("refs/tags/* HEAD", nrefs, "0"), got


def schema_versions(d, run, offered):
    """Each document DIR/NAME.json of RUN is an object with report's
    schema_version first; each command OFFERED --format=json is run."""
    run, offered = open(run).read().split(), open(offered).read().split()
    bad = []
    want = load(os.path.join(d, "report.json"))["schema_version"]
    if not (isinstance(want, int) and want >= 2):
        bad.append("report's schema_version %r" % want)
    for name in run:
        doc = load(os.path.join(d, name + ".json"))
        if not isinstance(doc, dict) or doc.get("schema_version") != want:
            bad.append("%s: schema_version %r, not %r" % (
                name, doc.get("schema_version") if isinstance(doc, dict) else type(doc).__name__, want))
        elif list(doc)[0] != "schema_version":
            bad.append("%s: the first key is %r, not schema_version" % (name, list(doc)[0]))
    for c in offered:
        if not any(n == c or n.startswith(c + "-") for n in run):
            bad.append("%s offers --format=json and is not run here" % c)
    return bad


def json_keys(path):
    """Prints every key of a report's JSON: the top's, each set's, its
    longest collision's, its groups' members' and its model rows'."""
    d = load(path)
    keys = set(d)
    for s in d["types"].values():
        keys |= set(s)
        keys |= set(s["longest"])
        for g in s["longest"]["groups"]:
            for m in g:
                keys |= set(m)
        for row in s.get("model", {}).values():
            keys |= set(row)
    print("\n".join(sorted(keys)))


def watch(path, crafted, target, shared, nobj):
    """watch --length=7: the one crafted commit, sharing SHARED chars with
    TARGET, improbable; P by the birthday model (one commit more among
    NOBJ objects)."""
    d = load(path)
    shared, nobj = int(shared), int(nobj)
    want_p = p_new(nobj, shared)  # one new commit, nobj objects
    f = d["found"]
    ok = (d["schema_version"] >= 2 and d["commits"] == 1 and len(f) == 1 and f[0]["commit"] == crafted
          and f[0]["other"] == target and f[0]["shared_length"] == shared and f[0]["cited"] == 6
          and f[0]["cited_ambiguous_now"] == 2 and f[0]["improbable"] is True
          and abs(f[0]["p_random"] - want_p) <= 0.02 * want_p and d["length"] == 7)
    return [] if ok else [json.dumps(d, indent=1) + " want p %s" % want_p]


def tables(path):
    """The JSON report without the names of its inputs: what two
    spellings of the same input must share."""
    r = load(path)
    r.pop("repositories", None)
    r.pop("input", None)
    return r


def tables_same(ref, listing):
    """REF LISTING: each JSON of the lines "JSON<tab>LABEL" of LISTING has
    the tables of REF (t-ids.sh); "LABEL: other numbers..." for each that
    has not."""
    want = json.dumps(tables(ref), sort_keys=True)
    bad = []
    with open(listing, encoding="utf-8") as f:
        for line in f:
            path, label = line.rstrip("\n").split("\t", 1)
            if json.dumps(tables(path), sort_keys=True) != want:
                bad.append("%s: other numbers than the plain list" % label)
    return bad


def ids_ish(ids_path, report_path, out_path):
    """Writes ids' JSON with the report's commit-ish set: an ID list cannot
    tell which tags peel to a commit, so the rest is compared alone."""
    ids, rep = json.load(open(ids_path)), json.load(open(report_path))
    ids["types"]["commit-ish"] = rep["types"]["commit-ish"]
    json.dump(ids, open(out_path, "w"))


def type_counts(*pairs):
    """REPORT GIT_COUNTS...: each report's objects per type are git's
    ("type count" lines, the types it has, in name order), t-pack-types.sh."""
    bad = []
    for report, counts in zip(pairs[::2], pairs[1::2]):
        d = load(report)
        got = ["%s %d" % (t, d["types"][t]["count"]) for t in ("blob", "commit", "tag", "tree")
               if d["types"][t]["count"]]
        want = open(counts).read().splitlines()
        if got != want:
            bad.append("%s: the counts per type are not git's: %s, git %s" % (report, got, want))
    return bad


def types_listed(path, cache):
    """`cache --format=json` lists the tables of the directory CACHE (types,
    subjects, times, notes), types tables among them."""
    d = load(path)
    files = sorted(f for f in os.listdir(cache)
                   if f.endswith((".types", ".subjects", ".times", ".notes")))
    listed = sorted(t["file"] for t in d["tables"])
    bad = [] if listed == files else ["listed %s, in the cache %s" % (listed, files)]
    if not any(f.endswith(".types") for f in files):
        bad.append("no types table in the cache: %s" % files)
    return bad


def svg_title(title, *paths):
    """TITLE SVG...: each chart's <title> and its title text are TITLE."""
    bad = []
    for p in paths:
        r = ET.parse(p).getroot()
        t = r.find(NS + "title")
        t = None if t is None else t.text
        texts = [x.text for x in r.iter(NS + "text") if x.get("class") == "title"]
        if t != title or title not in texts:
            bad.append("%s: <title> %r, title texts %r" % (p, t, texts))
    return bad


def same_but_verdict(whole, merged):
    """The merged parts are the whole run's JSON without its verdict."""
    a, b = json.load(open(whole)), json.load(open(merged))
    a.pop("verdict", None)
    return [] if a == b else ["the merged JSON is not the whole run's without its verdict"]


if __name__ == "__main__":
    bad = globals()[sys.argv[1]](*sys.argv[2:]) or []
    print("\n".join(bad), end="\n" if bad else "")
    sys.exit(1 if bad else 0)
