#!/usr/bin/env python3
"""verify_check.py - checks of `git abbrev verify --format=json` that the
t-verify*.sh scripts share, and the inputs they generate.

    python3 verify_check.py CHECK JSON ARGS...

JSON is verify's output (patman's, its checkpatch output: text); ARGS are what the script knows from git (commit
IDs, subjects, the findings it planted).  A check prints what differs
(or raises AssertionError) and exits 1.  The helpers: kinds() lists the
findings of a commit and a given ID, one_error() the single error.
"""
import json
import os
import random
import re
import subprocess
import sys


def kinds(d, commit, given="", severity=False):
    """Sorted kinds (with severities if asked) of the findings of COMMIT
    (any, if empty) whose given ID begins GIVEN (any, if empty)."""
    return sorted((f["kind"], f["severity"]) if severity else f["kind"]
                  for f in d["findings"]
                  if (not commit or f["commit"] == commit)
                  and (not given or given.startswith(f["given_id"] or "-")))


def one_error(d):
    """The one finding of severity error."""
    f = [x for x in d["findings"] if x["severity"] == "error"]
    assert len(f) == 1, f
    return f[0]


def not_here(d, argv):
    """ERRORS SPEC...: verify reported ERRORS errors and, for each SPEC
    COMMIT:GIVEN:KIND[:SUGGESTION], COMMIT has exactly one not-here or
    unknown-id finding at the given ID GIVEN: of that KIND (not-here a
    warning, unknown-id an error), suggesting the commit SUGGESTION (full
    ID), or nothing when it is empty or left out."""
    bad = []
    for spec in argv[1:]:
        commit, given, kind, sug = (spec.split(":") + [""])[:4]
        fs = [f for f in d["findings"] if f["commit"] == commit and f["given_id"] == given
              and f["kind"] in ("not-here", "unknown-id")]
        sev = "warning" if kind == "not-here" else "error"
        got = fs[0]["suggestion"]["full_id"] if len(fs) == 1 and fs[0]["suggestion"] else ""
        if len(fs) != 1 or fs[0]["kind"] != kind or fs[0]["severity"] != sev or got != sug:
            bad.append("want %s %s (suggesting %r) for %s in %s, got %s" % (
                sev, kind, sug, given, commit[:12],
                [(f["kind"], f["severity"], f["message"], f["suggestion"]) for f in fs]))
    if d["errors"] != int(argv[0]):
        bad.append("errors: %d, want %s" % (d["errors"], argv[0]))
    return bad


def findings(d, argv):
    """ERRORS SPEC...: verify reported ERRORS errors ('-': any number) and,
    for each SPEC COMMIT:GIVEN:KIND,KIND..., the findings of COMMIT (any
    if empty) at the given ID GIVEN (any if empty) are those kinds (none
    if empty)."""
    bad = []
    if argv[0] != "-" and d["errors"] != int(argv[0]):
        bad.append("errors %d, want %s" % (d["errors"], argv[0]))
    for spec in argv[1:]:
        commit, given, want = spec.split(":")
        want = sorted(want.split(",")) if want else []
        got = kinds(d, commit, given)
        if got != want:
            bad.append("%s in %s: %s, want %s (%s)" % (
                given[:12] or "any", commit[:12] or "any", got, want,
                [(f["kind"], f["message"]) for f in d["findings"]
                 if f["commit"] == commit and given.startswith(f["given_id"] or "-")]))
    return bad


def suggested(d, argv):
    """FULL_ID: the one error is an unknown ID whose suggestion is FULL_ID
    ('none': no suggestion)."""
    f = one_error(d)
    assert f["kind"] == "unknown-id", f
    got = f["suggestion"]["full_id"] if f["suggestion"] else "none"
    assert got == argv[0], (got, argv[0])


def ranges(listing):
    """LISTING: lines "JSON<tab>WANT<tab>ORDER<tab>RANGE" (t-verify-range.sh):
    the commits of verify's JSON whose findings it lists (one finding
    each), in its order, are those of the file WANT (git rev-list RANGE)
    and, unless ORDER is '-', in the order of the file ORDER (libgit2's
    revwalk).  Prints what differs for each range that fails, exits 1 if
    any does."""
    bad = 0
    with open(listing, encoding="utf-8") as f:
        for line in f:
            path, want_path, order, rng = line.rstrip("\n").split("\t", 3)
            with open(path, encoding="utf-8") as j:
                got = []
                for x in json.load(j)["findings"]:
                    if not got or got[-1] != x["commit"]:
                        got.append(x["commit"])
            want = open(want_path).read().split()
            if sorted(got) != sorted(want):
                print("--range='%s': not the commits of git rev-list (%d for %d)"
                      % (rng, len(got), len(want)))
                bad += 1
            elif order != "-" and open(order).read().split() != got:
                print("--range='%s': not in libgit2's order" % rng)
                bad += 1
    sys.exit(1 if bad else 0)


def suggested_each(listing):
    """LISTING: lines "JSON<tab>FULL_ID<tab>LABEL", each JSON's one error
    an unknown ID suggesting FULL_ID (as `suggested`); prints "LABEL:
    what differs" for each that is not, and exits 1 if any."""
    bad = 0
    with open(listing, encoding="utf-8") as f:
        for line in f:
            path, want, label = line.rstrip("\n").split("\t", 2)
            try:
                with open(path, encoding="utf-8") as j:
                    suggested(json.load(j), [want])
            except (AssertionError, KeyError, TypeError, ValueError) as e:
                print("%s: %r" % (label, e))
                bad += 1
    sys.exit(1 if bad else 0)


def only_error(d, argv):
    """KIND GIVEN REFERENCES: the errors are one KIND at GIVEN, of REFERENCES."""
    f = [x for x in d["findings"] if x["severity"] == "error"]
    assert [(x["kind"], x["given_id"]) for x in f] == [(argv[0], argv[1])], f
    assert d["references"] == int(argv[2]), d["references"]


def at_given(d, argv):
    """GIVEN SEVERITY KIND ERRORS: the findings at GIVEN are one of SEVERITY
    and KIND, with no suggestion for a warning; ERRORS errors ('-': any)."""
    f = [(x["severity"], x["kind"]) + ((x["suggestion"],) if argv[1] == "warning" else ())
         for x in d["findings"] if x["given_id"] == argv[0]]
    want = (argv[1], argv[2]) + ((None,) if argv[1] == "warning" else ())
    assert f == [want], f
    assert argv[3] == "-" or d["errors"] == int(argv[3]), d


def good(d, argv):
    """REFERENCES: no findings in one input of REFERENCES references."""
    assert d == {"schema_version": 2, "findings": [], "inputs": 1, "references": int(argv[0]),
                 "errors": 0, "warnings": 0, "notes": 0}, d


def cases(d, argv):
    """t-verify.sh's cases.patch: the ambiguous ID, the ambiguous object."""
    a8, a, b, c8, c, s_c, cs, text = argv
    f = d["findings"]
    nlines = sum(1 for line in open(text) if line.startswith("cases.patch:"))
    assert len(f) == nlines == d["errors"] + d["warnings"], (len(f), nlines)
    assert d["inputs"] == 1 and d["references"] == 18 and d["errors"] == 11, d
    amb = [x for x in f if x["line"] == 11][0]
    assert amb["kind"] == "ambiguous" and amb["severity"] == "error", amb
    assert amb["given_id"] == a8 and amb["resolved_id"] is None and amb["reference"] == "fixes"
    assert {x["id"] for x in amb["candidates"]} == {a, b}
    assert amb["suggestion"]["full_id"] == a
    obj = [x for x in f if x["line"] == 13]
    assert [x["kind"] for x in obj] == ["ambiguous-object", "short-id"], obj
    assert obj[0]["severity"] == "warning" and obj[0]["resolved_id"] == c and obj[0]["subject"] == s_c
    assert obj[0]["suggestion"]["id"] == cs and obj[0]["suggestion"]["text"] == 'Fixes: %s ("%s")' % (cs, s_c)
    assert all(x["file"].endswith("cases.patch") for x in f)


def rebased(d, argv):
    """t-verify.sh's --range over a rebased branch: the one not-ancestor."""
    q3, c2, q2, q2s = argv
    [f] = d["findings"]
    assert f["commit"] == q3 and f["file"] == q3[:12] and f["line"] == 3, f
    assert f["kind"] == "not-ancestor" and f["resolved_id"] == c2, f
    assert f["suggestion"]["full_id"] == q2 and f["suggestion"]["text"] == 'Fixes: %s ("feature: add x")' % q2s
    assert d["inputs"] == 2 and d["references"] == 1, d


def parallel(d, argv):
    """t-verify-parallel.sh: a merged fix, a stray and a rebased-away ID."""
    fix, fix2, culprit, stray, gone, kept, unknown = argv
    bad = []
    want = [(fix, culprit, [("not-ancestor-merged", "warning")]),
            (fix2, stray, [("not-ancestor", "error")]),
            (fix2, gone, [("not-ancestor", "error")]),
            (fix2, unknown, [("unknown-id", "error")])]
    for c, g, w in want:
        if kinds(d, c, g, severity=True) != w:
            bad.append("%s in %s: %s, want %s" % (g[:12], c[:12], kinds(d, c, g, severity=True), w))
    sugg = [f["suggestion"] for f in d["findings"] if f["commit"] == fix2 and gone.startswith(f["given_id"])]
    if not sugg or not sugg[0] or not kept.startswith(sugg[0]["id"]):
        bad.append("rebased-away: suggestion %s, want %s" % (sugg, kept[:12]))
    if d["errors"] != 3:
        bad.append("errors %d, want 3" % d["errors"])
    return bad


def candidates(d, argv):
    """ID...: the one finding is an unknown ID with these candidates (all
    of subject "typos"), in this order, and no suggestion."""
    f = d["findings"]
    assert len(f) == 1 and f[0]["kind"] == "unknown-id", f
    assert f[0]["suggestion"] is None and f[0]["replacement"] is None, f[0]
    assert [c["id"] for c in f[0]["candidates"]] == argv, f[0]["candidates"]
    assert all(c["subject"] == "typos" for c in f[0]["candidates"])


def commit_suggests(d, argv):
    """COMMIT ID: the one finding of COMMIT is an unknown ID suggesting ID."""
    f = [x for x in d["findings"] if x["commit"] == argv[0]]
    assert len(f) == 1 and f[0]["kind"] == "unknown-id", f
    assert f[0]["suggestion"]["id"] == argv[1], f[0]["suggestion"]


def other_repo(d, argv):
    """t-verify-repo.sh: references found in MAINLINE (--repo) only; the
    subject of M there is git log's."""
    mainline, m, s_m = argv
    by = {}
    for f in d["findings"]:
        by.setdefault(f["line"], []).append(f)
    assert sorted(by) == [1, 2, 3, 4, 5], sorted(by)
    assert d["references"] == 5, d["references"]  # the bare hex of line 6 is none
    f = by[1][0]
    assert f["kind"] == "subject-mismatch" and f["severity"] == "error", f
    assert "not in this repository" in f["message"] and f["repository"] == mainline, f
    assert f["resolved_id"] == m and f["subject"] == s_m and f["suggestion"] is None, f
    f = by[2][0]
    assert f["kind"] == "ambiguous" and "not in this repository, and ambiguous in" in f["message"], f
    assert [x["kind"] for x in by[3]] == ["short-id"] and by[3][0]["repository"] == mainline, by[3]
    f = by[4][0]
    assert f["kind"] == "unknown-id" and "in none of the given repositories" in f["message"], f
    assert f["repository"] is None
    # no commit here has the subject, one of mainline's has (git log there is the oracle)
    subj = subprocess.run(["git", "-C", mainline, "log", "--all", "--format=%H %s"], check=True,
                          capture_output=True, text=True).stdout.splitlines()
    have = [line.split(" ", 1)[0] for line in subj if line.split(" ", 1)[1:] == [s_m]]
    assert have == [m], have
    assert re.search(r"; in %s, %s[0-9a-f]* has this subject$" % (re.escape(mainline), m[:12]),
                     f["message"]), f
    assert [x["kind"] for x in by[5]] == ["style"] and by[5][0]["resolved_id"] == m, by[5]


def cache_listing(d, argv):
    """CACHE LISTED: `cache --format=json` lists the tables of the cache
    directory CACHE with the file system's sizes, newest use first, each
    pack and whether it exists; those pairs are written to LISTED."""
    cache, listed = argv
    assert d["cache"] == cache, d["cache"]
    files = sorted(f for f in os.listdir(cache) if f.endswith(".subjects"))
    assert sorted(t["file"] for t in d["tables"]) == files, (d["tables"], files)
    assert d["size"] == sum(os.path.getsize(os.path.join(cache, f)) for f in files)
    for t in d["tables"]:
        assert t["size"] == os.path.getsize(os.path.join(cache, t["file"]))
        assert t["pack_exists"] == os.path.exists(t["pack"]), t
        assert os.path.basename(t["pack"])[:-5] == t["file"][:-9], t
    used = [t["last_used"] for t in d["tables"]]
    assert used == sorted(used, reverse=True), used
    with open(listed, "w") as f:
        for t in d["tables"]:
            print(t["pack"], t["pack_exists"], file=f)


def patman(path):
    """verify --format=checkpatch's output, read by U-Boot's
    tools/patman/checkpatch.py expressions: the findings of p.patch, and
    the totals line."""
    TYPE_NAME = r'([A-Z_]+:)?'
    RE_ERROR = re.compile(r'ERROR:%s (.*)' % TYPE_NAME)
    RE_WARNING = re.compile(r'WARNING:%s (.*)' % TYPE_NAME)
    RE_FILE = re.compile(r'#(\d+): (FILE: ([^:]*):(\d+):)?')
    RE_TOTAL = re.compile(r'total: (\d+) errors, (\d+) warnings, (\d+) lines checked')
    items, cur, total = [], None, None
    for line in open(path).read().split('\n'):
        m = RE_ERROR.match(line) or RE_WARNING.match(line)
        if m:
            cur = {'type': m.group(1)[:-1], 'level': line.split(':')[0]}
            items.append(cur)
            continue
        m = RE_FILE.match(line)
        if m:
            cur['file'], cur['line'] = m.group(3), int(m.group(4))
            assert int(m.group(1)) == cur['line']
        m = RE_TOTAL.match(line)
        if m:
            total = tuple(int(x) for x in m.groups()[:2])
    got = [(i['level'], i['type'], i['file'], i['line']) for i in items]
    want = [('ERROR', 'UNKNOWN_COMMIT_ID', 'p.patch', 5), ('ERROR', 'AMBIGUOUS_COMMIT_ID', 'p.patch', 6),
            ('WARNING', 'BAD_FIXES_TAG', 'p.patch', 6), ('ERROR', 'BAD_FIXES_TAG', 'p.patch', 7),
            ('WARNING', 'BAD_FIXES_TAG', 'p.patch', 8), ('ERROR', 'GIT_COMMIT_ID', 'p.patch', 9),
            ('WARNING', 'AMBIGUOUS_COMMIT_ID', 'p.patch', 10), ('WARNING', 'BAD_FIXES_TAG', 'p.patch', 10),
            ('ERROR', 'UNKNOWN_COMMIT_ID', 'p.patch', 11)]
    assert got == want, got
    assert total == (sum(1 for g in got if g[0] == 'ERROR'), sum(1 for g in got if g[0] == 'WARNING')), total


def big_input(ids_path, n):
    """N lines of text for the timed run, from `git log --format='%h %s'`:
    a Fixes: line, a quote in prose, prose without a reference, a "see"."""
    refs = [line.rstrip("\n").split(" ", 1) for line in open(ids_path)]
    out = []
    for i in range(int(n)):
        h, s = refs[i % len(refs)]
        k = i % 4
        if k == 0:
            out.append('Fixes: %s ("%s")' % (h, s))
        elif k == 1:
            out.append('As commit %s ("%s") did,' % (h, s))
        elif k == 2:
            out.append("plain prose without a reference, line %d" % i)
        else:
            out.append('see %s ("%s").' % (h, s))
    sys.stdout.write("\n".join(out) + "\n")


def garbage(kind):
    """Fixed-seed garbage on stdout: `random` (1 MiB of random bytes) or
    `tokens` (200,000 pieces of references, quotes, NULs and 0xff)."""
    if kind == "random":
        sys.stdout.buffer.write(random.Random(20241205).randbytes(1 << 20))
        return
    r = random.Random(7)
    words = [b"commit ", b"Fixes: ", b"1234567890ab", b" (\"", b"\")", b"\n", b"> ", b"\0", b"\xff"]
    sys.stdout.buffer.write(b"".join(r.choice(words) for _ in range(200000)))


if __name__ == "__main__":
    if sys.argv[1] in ("big_input", "patman", "garbage", "suggested_each", "ranges"):  # text, not JSON
        globals()[sys.argv[1]](*sys.argv[2:])
        sys.exit(0)
    with open(sys.argv[2], encoding="utf-8") as f:
        doc = json.load(f)
    bad = globals()[sys.argv[1]](doc, sys.argv[3:])
    if bad:
        print("\n".join(bad))
        sys.exit(1)
