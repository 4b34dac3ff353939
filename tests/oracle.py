#!/usr/bin/env python3
"""oracle.py - the report of docs/json.md, computed the slow and obvious way.

    python3 oracle.py <repo>...                  print the expected JSON
    python3 oracle.py --compare TOOL.json <repo>...
                                                 compare the tool's JSON with it
    python3 oracle.py --selftest                 check the counting on fixed IDs
    --reachable (before the repos): only objects reachable from HEAD, the
    branches and the tags (what a clone receives), as
    `git rev-list --objects --missing=print HEAD --branches --tags` lists them;
    --refs=P (repeatable, implies --reachable): from the refs P names instead:
    "HEAD", a glob given to `git rev-list --glob=P`, or a name without a
    wildcard, listed by `git for-each-ref P` (the ref and those below it).
    Objects rev-list prints as missing ("?id") are not counted; --compare
    checks their number against the tool's "reachable"."missing".

The object list comes from git itself:
    git -C <repo> cat-file --batch-all-objects \\
        --batch-check='%(objectname) %(objecttype)'
which covers loose objects, every pack and the alternates.  Several repos are
a union; an ID listed twice counts once.

Every number is counted by brute force, independently of the tool's
sorted-neighbour method: for each length L, Counter(id[:L]) over the set,
"objects" = IDs whose prefix count is >= 2, "prefixes" = prefixes whose count
is >= 2, for L = 4 through 16 and at least one length past the last
collision (docs/json.md).  commit_vs_other[L] = commits whose L-prefix is
also the prefix of a non-commit.  The "commit-ish" set is the commits and the
tags that git itself peels to a commit: each tag is asked as "<tag>^{commit}"
of `git cat-file --batch-check`, which answers with a commit or "missing".  git_auto_abbrev follows git's repo_find_unique_abbrev_r():
len = msb(count) + 1 bits (msb(0) = msb(1) = 0), halved and rounded up, and
at least 7 (FALLBACK_DEFAULT_ABBREV).

--compare checks only the keys docs/json.md promises (objects, hash,
types.<set>.count / min_unique_length / lengths, commit_vs_other,
git_auto_abbrev); extra keys and "repositories" are ignored.  It exits 0 when
they all match, 1 (listing the differences) otherwise.
Uses the standard library only.
"""
import json
import os
import subprocess
import sys
from collections import Counter

TYPES = ("commit", "tree", "blob", "tag")
SETS = TYPES + ("commit-ish", "all")
MIN_LEN = 4  # git's shortest abbreviation
LENGTHS_TO = 16  # every table runs at least this far
SCHEMA_VERSION = 2


def rev_list_args(repo, refs, env):
    """rev-list's arguments for the ref patterns (None: a clone's refs)."""
    head = subprocess.run(["git", "-C", repo, "rev-parse", "--verify", "-q", "HEAD"],
                          stdout=subprocess.PIPE, env=env).returncode == 0
    if refs is None:
        return (["HEAD"] if head else []) + ["--branches", "--tags"]
    args = []
    for p in refs:
        if p == "HEAD":
            args += ["HEAD"] if head else []
        elif any(c in p for c in "*?["):
            args.append("--glob=" + p)
        else:
            args += subprocess.run(["git", "-C", repo, "for-each-ref",
                                    "--format=%(refname)", p], stdout=subprocess.PIPE,
                                   env=env, check=True).stdout.decode().split()
    return args


def list_objects(repo, reachable=False, refs=None):
    """[(hexid, type)] of every object git sees in `repo` (only those
    reachable from the refs, if `reachable`: see rev_list_args()), the
    hash, and the number of objects reachable but missing."""
    env = dict(os.environ, LC_ALL="C")
    top = subprocess.run(["git", "-C", repo, "rev-parse", "--git-dir"],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                         env=env)
    if top.returncode != 0:
        sys.exit("oracle.py: %s: %s" % (repo, top.stderr.decode().strip()))
    # extensions.objectformat is unset for SHA-1 (works with any git version)
    fmt = subprocess.run(["git", "-C", repo, "config", "extensions.objectformat"],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                         env=env)
    hashname = fmt.stdout.decode().strip().lower() or "sha1"
    ids = None
    missing = 0
    if reachable:
        p = subprocess.run(["git", "-C", repo, "rev-list", "--objects", "--missing=print"]
                           + rev_list_args(repo, refs, env) + ["--"],
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                           env=env)
        if p.returncode != 0:
            sys.exit("oracle.py: rev-list in %s failed: %s"
                     % (repo, p.stderr.decode().strip()))
        lines = p.stdout.splitlines()
        missing = len(set(line for line in lines if line.startswith(b"?")))
        ids = b"".join(line.split(b" ")[0] + b"\n"
                       for line in lines if not line.startswith(b"?"))
    p = subprocess.run(["git", "-C", repo, "cat-file"] +
                       ([] if reachable else ["--batch-all-objects"]) +
                       ["--batch-check=%(objectname) %(objecttype)"],
                       input=ids, stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, env=env)
    if p.returncode != 0:
        sys.exit("oracle.py: cat-file in %s failed: %s"
                 % (repo, p.stderr.decode().strip()))
    objs = [tuple(line.split()) for line in p.stdout.decode().splitlines()]
    for o in objs:
        if len(o) != 2 or o[1] not in TYPES:
            sys.exit("oracle.py: %s: git cannot read object: %s"
                     % (repo, " ".join(o)))
    tags = [oid for oid, t in objs if t == "tag"]
    p = subprocess.run(["git", "-C", repo, "cat-file",
                        "--batch-check=%(objectname) %(objecttype)"],
                       input="".join("%s^{commit}\n" % t for t in tags).encode(),
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env)
    if p.returncode != 0:
        sys.exit("oracle.py: cat-file in %s failed: %s"
                 % (repo, p.stderr.decode().strip()))
    peeled = p.stdout.decode().splitlines()
    if len(peeled) != len(tags):
        sys.exit("oracle.py: %s: %d tags, %d answers" % (repo, len(tags), len(peeled)))
    objs += [(t, "commit-ish") for t, line in zip(tags, peeled)
             if line.split()[-1] == "commit"]
    return objs, hashname, missing


def msb(x):
    """Index of the highest set bit, as git's msb(): msb(0) = msb(1) = 0."""
    r = 0
    while x > 1:
        x >>= 1
        r += 1
    return r


def git_auto_abbrev(count):
    bits = msb(count) + 1
    return max(7, (bits + 1) // 2)


def set_stats(ids):
    """count, min_unique_length and lengths of one set of hex IDs."""
    ids = sorted(set(ids))
    lengths = {}
    L = MIN_LEN
    first_zero = None
    while first_zero is None or L <= LENGTHS_TO:
        c = Counter(i[:L] for i in ids)
        objects = sum(n for n in c.values() if n >= 2)
        prefixes = sum(1 for n in c.values() if n >= 2)
        lengths[str(L)] = {"objects": objects, "prefixes": prefixes}
        if objects == 0 and first_zero is None:
            first_zero = L
        L += 1
    return {"count": len(ids), "min_unique_length": first_zero if ids else None,
            "lengths": lengths}


def commit_vs_other(by_type):
    commits = by_type["commit"]
    others = [i for t in TYPES if t != "commit" for i in by_type[t]]
    res = {}
    L = MIN_LEN
    done = False
    while not done or L <= LENGTHS_TO:
        other = set(i[:L] for i in others)
        n = sum(1 for i in commits if i[:L] in other)
        res[str(L)] = n
        done = done or n == 0
        L += 1
    return res


def report(objs, hashname, repos):
    types = {}
    ish = set(oid for oid, t in objs if t == "commit-ish")
    for oid, t in objs:
        if t == "commit-ish":
            continue
        if oid in types and types[oid] != t:
            sys.exit("oracle.py: %s listed as %s and %s" % (oid, types[oid], t))
        types[oid] = t
    by_type = {t: [] for t in TYPES}
    for oid, t in types.items():
        by_type[t].append(oid)
    out = {
        "schema_version": SCHEMA_VERSION,
        "objects": len(types),
        "hash": hashname,
        "repositories": repos,
        "types": {t: set_stats(by_type[t]) for t in TYPES},
        "commit_vs_other": commit_vs_other(by_type),
        "git_auto_abbrev": git_auto_abbrev(len(types)),
    }
    out["types"]["all"] = set_stats(list(types))
    out["types"]["commit-ish"] = set_stats(by_type["commit"] + sorted(ish))
    return out


def oracle(repos, reachable=False, refs=None):
    objs, hashes, missing = [], set(), 0
    for r in repos:
        o, h, m = list_objects(r, reachable, refs)
        objs += o
        hashes.add(h)
        missing += m
    if len(hashes) != 1:
        sys.exit("oracle.py: repositories mix hash functions: %s" % sorted(hashes))
    out = report(objs, hashes.pop(), repos)
    if reachable:
        out["reachable"] = {"missing": missing}
    return out


def compare(tool, want):
    """Differences between the tool's JSON and the oracle's, contract keys only."""
    diffs = []

    def get(d, path):
        for k in path:
            if not isinstance(d, dict) or k not in d:
                return KeyError
            d = d[k]
        return d

    def check(path, exp):
        got = get(tool, path)
        if got is KeyError:
            diffs.append("%s: missing (want %s)" % (".".join(path), json.dumps(exp)))
        elif got != exp or type(got) is not type(exp):
            diffs.append("%s: got %s, want %s"
                         % (".".join(path), json.dumps(got), json.dumps(exp)))

    check(["schema_version"], want["schema_version"])
    check(["objects"], want["objects"])
    check(["hash"], want["hash"])
    for s in SETS:
        for k in ("count", "min_unique_length", "lengths"):
            check(["types", s, k], want["types"][s][k])
    check(["commit_vs_other"], want["commit_vs_other"])
    check(["git_auto_abbrev"], want["git_auto_abbrev"])
    if "reachable" in want:
        check(["reachable", "missing"], want["reachable"]["missing"])
    return diffs


def selftest():
    """Hand-counted cases; fails loudly if the counting is wrong."""
    ok = True

    def expect(what, got, want):
        nonlocal ok
        if got != want:
            ok = False
            print("selftest %s: got %s, want %s" % (what, got, want))

    for n, want in [(0, 7), (1, 7), (2, 7), (8191, 7), (8192, 7), (16383, 7),
                    (16384, 8), (65535, 8), (65536, 9), (13021585, 12),
                    (2 ** 32, 17)]:
        expect("git_auto_abbrev(%d)" % n, git_auto_abbrev(n), want)
    def upto(lengths, last=LENGTHS_TO):
        """lengths as given, then zeros through `last`"""
        res = {str(L): {"objects": 0, "prefixes": 0} for L in range(MIN_LEN, last + 1)}
        res.update(lengths)
        return res

    z = "0" * 34
    objs = [
        ("abcd00" + z, "commit"),
        ("abcd01" + z, "commit"),   # shares 5 with the first
        ("abcd11" + z, "blob"),     # shares 4 with both commits
        ("ffff12" + z, "tree"),
        ("ffff13" + z, "tag"),      # shares 5 with the tree
        ("12345" + "6" * 35, "commit"),
        ("abcd00" + z, "commit"),   # listed twice (two packs): counts once
        ("ffff13" + z, "commit-ish"),  # the tag peels to a commit
    ]
    r = report(objs, "sha1", ["x"])
    expect("objects", r["objects"], 6)
    expect("commit", r["types"]["commit"], {
        "count": 3, "min_unique_length": 6,
        "lengths": upto({"4": {"objects": 2, "prefixes": 1},
                         "5": {"objects": 2, "prefixes": 1}})})
    expect("all", r["types"]["all"], {
        "count": 6, "min_unique_length": 6,
        "lengths": upto({"4": {"objects": 5, "prefixes": 2},
                         "5": {"objects": 4, "prefixes": 2}})})
    expect("blob", r["types"]["blob"], {
        "count": 1, "min_unique_length": 4, "lengths": upto({})})
    expect("tag", r["types"]["tag"]["min_unique_length"], 4)
    # commit-ish: the 3 commits and the tag, which shares 4 with no commit
    expect("commit-ish", r["types"]["commit-ish"], {
        "count": 4, "min_unique_length": 6,
        "lengths": upto({"4": {"objects": 2, "prefixes": 1},
                         "5": {"objects": 2, "prefixes": 1}})})
    expect("cvo", r["commit_vs_other"], {str(L): 2 if L == 4 else 0
                                         for L in range(MIN_LEN, LENGTHS_TO + 1)})
    # a collision past 16 chars: the table runs one length past it
    long_pair = [("1" * 20 + "a" + "0" * 19, "blob"), ("1" * 20 + "b" + "0" * 19, "blob")]
    lb = report(long_pair, "sha1", ["x"])["types"]["blob"]
    expect("past 16", (lb["min_unique_length"], max(int(k) for k in lb["lengths"]),
                       lb["lengths"]["20"]), (21, 21, {"objects": 2, "prefixes": 1}))
    e = report([], "sha1", [])
    expect("empty", e["types"]["all"], {
        "count": 0, "min_unique_length": None, "lengths": upto({})})
    expect("empty cvo", e["commit_vs_other"], {str(L): 0 for L in range(MIN_LEN, LENGTHS_TO + 1)})
    expect("empty auto", e["git_auto_abbrev"], 7)
    # compare() flags a wrong number, a missing key and a string for an int
    bad = json.loads(json.dumps(r))
    bad["types"]["tag"]["lengths"]["4"]["objects"] = 1
    del bad["commit_vs_other"]
    bad["objects"] = "6"
    bad["extra"] = True
    expect("compare", len(compare(bad, r)), 3)
    expect("compare ok", compare(json.loads(json.dumps(r)), r), [])
    print("oracle selftest: %s" % ("ok" if ok else "FAILED"))
    return 0 if ok else 1


def main(argv):
    if argv == ["--selftest"]:
        return selftest()
    tool_file = None
    if argv[:1] == ["--compare"]:
        if len(argv) < 2:
            sys.exit("usage: oracle.py --compare TOOL.json <repo>...")
        tool_file, argv = argv[1], argv[2:]
    reachable, refs = False, None
    while argv and (argv[0] == "--reachable" or argv[0].startswith("--refs=")):
        reachable = True
        if argv[0] != "--reachable":
            refs = (refs or []) + [argv[0][len("--refs="):]]
        argv = argv[1:]
    if not argv or argv[0].startswith("-"):
        sys.exit("usage: oracle.py [--compare TOOL.json] [--reachable] [--refs=P...]"
                 " <repo>... | --selftest")
    want = oracle(argv, reachable, refs)
    if tool_file is None:
        json.dump(want, sys.stdout, indent=1, sort_keys=True)
        sys.stdout.write("\n")
        return 0
    try:
        with open(tool_file, encoding="utf-8") as f:
            tool = json.load(f)
    except ValueError as e:
        print("%s: not one JSON document: %s" % (tool_file, e))
        return 1
    diffs = compare(tool, want)
    for d in diffs:
        print("  mismatch %s" % d)
    return 1 if diffs else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
