#!/usr/bin/env python3
"""gen_repo.py - build test repositories with planted ID collisions.

    python3 gen_repo.py <dir> [--scenario NAME]

Scenarios (NAME):
  planted     (default) <dir> is a repository with a work tree and
              - two commits whose IDs share >= 8 hex chars,
              - a blob and a commit whose IDs share >= 8 hex chars,
              - two trees whose IDs share >= 7 hex chars,
              - annotated tags (of commits, of a tag, of a tree), a ref
                to a blob, several packs (git repack -d between
                batches, never -a), objects stored loose and packed, an
                object in two packs, and an unreachable loose blob.
  alternates  <dir>/upstream, and <dir>/downstream whose
              objects/info/alternates points at upstream's object store;
              a pair of commits sharing >= 8 hex chars is split between
              the two, and an upstream blob is also stored in downstream.
  forks       three separate repositories (no shared objects, no
              alternates), as verify --repo meets them: <dir>/stable
              (checked), <dir>/mainline (its upstream) with a pair of
              commits sharing >= 8 hex chars, and <dir>/other (one more
              project, a short history).
  many        <dir> holds 17000 small blobs (unreachable, packed) and one
              commit: enough objects for git's auto abbrev to pass 7.
  small       <dir> holds one commit of one file (3 objects).
  quoting     two pairs of commits sharing exactly 6 hex chars whose
              subjects need JSON escaping: quotes, backslash, tab, a
              control char, UTF-8; and Latin-1 bytes (not UTF-8).
  refs        <dir> holds what a hosting site's mirror has beside what a
              clone fetches: a main branch with an annotated tag, a topic
              branch, pull-request refs (refs/pull/1/head, /merge), a
              remote-tracking branch (refs/remotes/origin/old) and notes
              (refs/notes/commits), each with commits and blobs of its
              own; a lightweight tag on a pull-request commit, so some of
              its objects are a clone's too.
  empty       <dir> is a fresh repository without objects.
  sha256      <dir> is a SHA-256 repository with a short history.
  commitish   <dir> holds commits that share >= 7 hex chars with annotated
              tags: a tag of a commit, a tag of a tag of a commit (both
              commit-ish: `git log <prefix>` is ambiguous), a tag of a tree
              and a tag of a blob (not commit-ish: `git log <prefix>` finds
              the commit, `git show <prefix>` is ambiguous); and 40 release
              tags with long, similar messages, repacked with -f so that
              git stores tags as deltas of other tags; one tag left loose.
  asof        <dir> holds commits "cited 0" .. "cited 15" on main, then
              a commit citing each in a Fixes: tag by its first 6 hex
              chars, then on main a later commit (a descendant of the
              citing one) and on the branch side one forked from the root,
              each brute-forced to share >= 6 hex chars with a different
              cited commit: the prefixes were unique when written and are
              ambiguous now.  The side commit cites, by an ID of nothing,
              the subject of main's last commit, made after it.
  audit       <dir> holds one commit message per planted reference, each
              class of git abbrev audit (cite_audit.h) twice over 2018-2021,
              some in zones where the committer's year is not UTC's; "refs"
              lists each (class, written ID, right commit, citing commit).
  watch       <dir> holds 256 commits pushed (refs/remotes/origin/main),
              later ones citing one of them six times (four by 12 hex
              chars, two by 7), and on the topic branch checked out a
              commit brute-forced to share >= 7 hex chars with it.
  typo        <dir> holds "work 0" .. "work 7" on main, then "net: fix
              the leak" on main and a copy of it (the same subject) on the
              branch side, forked from "work 1", brute-forced to share >= 6
              hex chars with it, then "after 0" .. "after 2" on main (HEAD)
              and "side: only here" on side: IDs one hex char off a
              commit on HEAD, off both copies, or off one on side only.
  history     <dir> holds 400 commits whose committer dates grow
              exponentially over six years (pairs share a date, so ties
              are broken by ID), plus planted pairs of commits, both
              dated on purpose: sharing exactly 6 hex chars at
              HISTORY_PLANT6, >= 7 at HISTORY_PLANT7 (one of them
              unreachable: no ref), >= 9 at HISTORY_PLANT9.
  growth      <dir> holds 4000 commits on main whose count grows as
              50 e^(0.3 t) - 50 over the years from EPOCH (about 14.6
              years), nothing planted: IDs as random as git makes them.

Collisions are found by brute force: git's object ID is
sha1(b"<type> <size>\\0" + content), so candidate objects that differ only in a
fixed-width nonce are hashed with hashlib until two share the wanted prefix
(a birthday search: about 2^16 candidates for 32 bits).  The nonce sequence is
fixed and every byte (dates, names) is written by this script, so the same
IDs come out on every run and every git version.  The winners are written
with `git hash-object -w -t <type> --stdin`, and the ID git prints must equal
the one computed here.

With --built DIR, a scenario already built as DIR/<scenario> (its JSON in
DIR/<scenario>.json) is copied instead: `make check` builds each scenario
once into tests/fixtures/ of the build tree, and every script copies it.

`gen_repo.py near REPO OTHERS NHEX NOTE` writes into an existing REPO a
commit on main's tip whose first NHEX hex chars are those of one of the
commits listed in the file OTHERS (its message NOTE and a nonce), and
prints both IDs.

A JSON description of what was planted goes to stdout: the repositories,
and for each planted pair its IDs, types and shared length in hex chars.
Uses the standard library only.
"""
import argparse
import hashlib
import json
import math
import os
import re
import shutil
import subprocess
import sys
import tempfile

AUTHOR = b"A U Thor <author@example.com>"
COMMITTER = b"C O Mitter <committer@example.com>"
EPOCH = 1112911993  # the date git's own test suite uses


def git_env():
    env = {k: v for k, v in os.environ.items()
           if not (k.startswith("GIT_") and k not in ("GIT_EXEC_PATH",))}
    env.update({
        "LC_ALL": "C",
        "TZ": "UTC",
        "GIT_CONFIG_NOSYSTEM": "1",
        "GIT_CONFIG_GLOBAL": os.devnull,
        "GIT_AUTHOR_NAME": "A U Thor",
        "GIT_AUTHOR_EMAIL": "author@example.com",
        "GIT_AUTHOR_DATE": "%d +0000" % EPOCH,
        "GIT_COMMITTER_NAME": "C O Mitter",
        "GIT_COMMITTER_EMAIL": "committer@example.com",
        "GIT_COMMITTER_DATE": "%d +0000" % EPOCH,
        # glibc trims the top of the heap on every free past its threshold
        # and git fast-import grows it again for the next commit: a page
        # fault per page each time (76,000 for 4,200 commits); not
        # trimming changes only when memory goes back to the system
        "GLIBC_TUNABLES": "glibc.malloc.trim_threshold=268435456",
    })
    return env


ENV = git_env()


def die(msg):
    sys.stderr.write("gen_repo.py: %s\n" % msg)
    sys.exit(1)


def git(repo, *args, data=None, check=True):
    """Run git in `repo` (None: no -C); return stdout as bytes."""
    cmd = ["git"] + (["-C", repo] if repo else []) + list(args)
    p = subprocess.run(cmd, input=data, stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, env=ENV)
    if check and p.returncode != 0:
        die("%s failed (%d): %s" % (" ".join(cmd), p.returncode,
                                    p.stderr.decode(errors="replace").strip()))
    return p.stdout


def obj_id(otype, content, algo="sha1"):
    h = hashlib.new(algo)
    h.update(b"%s %d\0" % (otype.encode(), len(content)))
    h.update(content)
    return h.hexdigest()


def lcp(a, b):
    n = 0
    while n < len(a) and a[n] == b[n]:
        n += 1
    return n


def write_object(repo, otype, content, algo="sha1"):
    """Write exact bytes with hash-object; check git's ID against ours."""
    want = obj_id(otype, content, algo)
    got = git(repo, "hash-object", "-w", "-t", otype, "--stdin",
              data=content).decode().strip()
    if got != want:
        die("%s: git wrote %s, expected %s" % (otype, got, want))
    return got


def write_loose_copy(repo_gitdir, otype, content):
    """Store an object loose even when it already exists (packed or via an
    alternate), where `git hash-object -w` would only freshen it: let git
    write the loose file in a scratch repository and copy it over."""
    scratch = tempfile.mkdtemp(prefix="gen_repo.")
    try:
        git(None, "init", "-q", "--bare", scratch)
        oid = write_object(scratch, otype, content)
        rel = os.path.join("objects", oid[:2], oid[2:])
        dst = os.path.join(repo_gitdir, rel)
        os.makedirs(os.path.dirname(dst), exist_ok=True)
        shutil.copyfile(os.path.join(scratch, rel), dst)
    finally:
        shutil.rmtree(scratch)
    return oid


def commit_bytes(tree, parents, msg, when):
    lines = [b"tree " + tree.encode()]
    lines += [b"parent " + p.encode() for p in parents]
    lines.append(b"author %s %d +0000" % (AUTHOR, when))
    lines.append(b"committer %s %d +0000" % (COMMITTER, when))
    return b"\n".join(lines) + b"\n\n" + msg


def tag_bytes(target, ttype, name, msg, when):
    return (b"object %s\ntype %s\ntag %s\ntagger %s %d +0000\n\n%s"
            % (target.encode(), ttype.encode(), name.encode(), COMMITTER,
               when, msg))


class Family:
    """Candidates that differ only in a fixed-width nonce: the ID of
    candidate i is hash(header + head + nonce(i) + tail), SHA-1 unless
    `algo` says otherwise."""

    def __init__(self, otype, head, tail, width=8, algo="sha1"):
        self.otype, self.head, self.tail, self.width = otype, head, tail, width
        size = len(head) + width + len(tail)
        self.base = hashlib.new(algo, b"%s %d\0" % (otype.encode(), size) + head)

    def nonce(self, i):
        return b"%0*d" % (self.width, i)

    def content(self, i):
        return self.head + self.nonce(i) + self.tail

    def hexid(self, i):
        h = self.base.copy()
        h.update(self.nonce(i))
        h.update(self.tail)
        return h.hexdigest()


LIMIT = 4000000  # no search below should ever get near this


def birthday(fam, nhex, exact=False):
    """First pair of candidates of one family sharing nhex hex chars
    (exactly nhex if `exact`)."""
    seen = {}
    for i in range(LIMIT):
        h = fam.hexid(i)
        key = h[:nhex]
        j = seen.get(key)
        if j is None:
            seen[key] = i
        elif not exact or fam.hexid(j)[nhex] != h[nhex]:
            return j, i
    die("birthday search failed")


def cross_birthday(fa, fb, nhex):
    """First pair (a from fa, b from fb) sharing nhex hex chars."""
    seen_a, seen_b = {}, {}
    for i in range(LIMIT):
        ka, kb = fa.hexid(i)[:nhex], fb.hexid(i)[:nhex]
        if ka in seen_b:
            return i, seen_b[ka]
        seen_a.setdefault(ka, i)
        if kb in seen_a:
            return seen_a[kb], i
        seen_b.setdefault(kb, i)
    die("cross-type birthday search failed")


def fast_import_stream(branch, ncommits, start, when0, parent=None,
                       tag=None, extra_blobs=0):
    """A deterministic fast-import stream: `ncommits` commits on `branch`,
    each changing a few files in a small directory tree."""
    dirs = ["", "src/", "src/core/", "src/util/", "docs/", "lib/x/y/", "t/"]
    out = []
    for k in range(extra_blobs):
        data = b"loose change %d\n" % k
        out.append(b"blob\ndata %d\n%s\n" % (len(data), data))
    for n in range(ncommits):
        i = start + n
        when = when0 + 60 * n
        msg = b"%s: change %d\n" % (branch.encode(), i)
        out.append(b"commit refs/heads/%s\n" % branch.encode())
        out.append(b"author %s %d +0000\n" % (AUTHOR, when))
        out.append(b"committer %s %d +0000\n" % (COMMITTER, when))
        out.append(b"data %d\n%s\n" % (len(msg), msg))
        if n == 0 and parent:
            out.append(b"from %s\n" % parent.encode())
        for f in range(1 + i % 3):
            d = dirs[(i * 7 + f * 3) % len(dirs)]
            path = ("%sfile%d.txt" % (d, (i + f) % 5)).encode()
            data = b"%s revision %d part %d\n" % (path, i, f)
            data += b"line %d\n" % (i * i) * (1 + i % 4)
            out.append(b"M 100644 inline %s\ndata %d\n%s\n"
                       % (path, len(data), data))
    if tag:
        name, msg = tag
        out.append(b"tag %s\nfrom refs/heads/%s\n" % (name.encode(),
                                                       branch.encode()))
        out.append(b"tagger %s %d +0000\n" % (COMMITTER, when0))
        out.append(b"data %d\n%s\n" % (len(msg), msg))
    return b"".join(out)


def fast_import(repo, stream):
    git(repo, "fast-import", "--quiet", "--done", data=stream + b"done\n")


def init_repo(path, bare=False, fmt=None):
    args = ["init", "-q"]
    if bare:
        args.append("--bare")
    if fmt:
        args.append("--object-format=" + fmt)
    git(None, *(args + [path]))
    gitdir = path if bare else os.path.join(path, ".git")
    git(path, "symbolic-ref", "HEAD", "refs/heads/main")  # git < 2.28: no -b
    # no auto gc (it would merge the packs); fast-import always keeps a pack
    git(path, "config", "gc.auto", "0")
    git(path, "config", "fastimport.unpackLimit", "0")
    return gitdir


def rev(repo, name):
    return git(repo, "rev-parse", "--verify", "-q", name).decode().strip()


def all_objects(repo):
    out = git(repo, "cat-file", "--batch-all-objects",
              "--batch-check=%(objectname) %(objecttype)").decode()
    return dict(line.split() for line in out.splitlines())


def packs(gitdir):
    d = os.path.join(gitdir, "objects", "pack")
    return sorted(f for f in os.listdir(d) if f.endswith(".pack"))


def is_loose(gitdir, oid):
    return os.path.isfile(os.path.join(gitdir, "objects", oid[:2], oid[2:]))


def pack_ids(gitdir):
    """pack name -> set of IDs in it, read with git show-index."""
    d = os.path.join(gitdir, "objects", "pack")
    res = {}
    for p in packs(gitdir):
        with open(os.path.join(d, p[:-5] + ".idx"), "rb") as f:
            out = git(None, "show-index", data=f.read()).decode()
        res[p] = {line.split()[1] for line in out.splitlines()}
    return res


def pair(kind, ids, types):
    return {"kind": kind, "ids": list(ids), "types": list(types),
            "shared": lcp(*ids)}


def scenario_planted(d):
    gitdir = init_repo(d)
    info = {"repos": {"main": d}, "planted": []}

    # batch 1: history on main, one pack
    fast_import(d, fast_import_stream("main", 300, 0, EPOCH))
    tip = rev(d, "refs/heads/main")
    tree = rev(d, "refs/heads/main^{tree}")
    when = EPOCH + 100000

    # two commits sharing >= 8 hex chars
    fam = Family("commit",
                 commit_bytes(tree, [tip], b"planted commit collision, nonce ",
                              when), b"\n")
    i, j = birthday(fam, 8)
    a = write_object(d, "commit", fam.content(i))
    b = write_object(d, "commit", fam.content(j))
    git(d, "update-ref", "refs/heads/collide-a", a)
    git(d, "update-ref", "refs/heads/collide-b", b)
    info["planted"].append(pair("commit-commit", (a, b), ("commit", "commit")))
    commit_a_bytes = fam.content(i)

    # a blob and a commit sharing >= 8 hex chars
    fc = Family("commit",
                commit_bytes(tree, [tip], b"planted cross-type collision, nonce ",
                             when + 1), b"\n")
    fb = Family("blob", b"planted blob, nonce ", b"\n")
    ic, ib = cross_birthday(fc, fb, 8)
    c = write_object(d, "commit", fc.content(ic))
    bl = write_object(d, "blob", fb.content(ib))
    git(d, "update-ref", "refs/heads/cross", c)
    git(d, "update-ref", "refs/tags/cross-blob", bl)  # a tag to a blob
    info["planted"].append(pair("commit-blob", (c, bl), ("commit", "blob")))

    # two trees sharing >= 7 hex chars (one entry each, an existing blob)
    raw = bytes.fromhex(rev(d, "refs/heads/main:file0.txt"))
    ft = Family("tree", b"100644 planted-", b"\0" + raw)
    i, j = birthday(ft, 7)
    t1 = write_object(d, "tree", ft.content(i))
    t2 = write_object(d, "tree", ft.content(j))
    for n, t in enumerate((t1, t2)):
        cm = write_object(d, "commit", commit_bytes(
            t, [tip], b"planted tree %d\n" % n, when + 2))
        git(d, "update-ref", "refs/heads/tree-%d" % n, cm)
    info["planted"].append(pair("tree-tree", (t1, t2), ("tree", "tree")))

    # pack the loose objects into pack 2 (incremental: not -a)
    git(d, "repack", "-d", "-q")

    # batch 2: a topic branch with an annotated tag, pack 3 (fast-import)
    fast_import(d, fast_import_stream("topic", 80, 1000, EPOCH + 50000,
                                      parent=tip,
                                      tag=("v1.0", b"release 1.0\n")))
    tag1 = rev(d, "refs/tags/v1.0")

    # batch 3: loose commits and a second annotated tag, then pack 4
    parent = rev(d, "refs/heads/topic")
    ttree = rev(d, "refs/heads/topic^{tree}")
    for n in range(20):
        parent = write_object(d, "commit", commit_bytes(
            ttree, [parent], b"side commit %d\n" % n, when + 100 + n))
    git(d, "update-ref", "refs/heads/side", parent)
    tag2 = write_object(d, "tag", tag_bytes(parent, "commit", "v2.0",
                                             b"release 2.0\n", when + 200))
    git(d, "update-ref", "refs/tags/v2.0", tag2)
    git(d, "repack", "-d", "-q")

    # a tag of a tag, left loose; an unreachable loose blob
    tag3 = write_object(d, "tag", tag_bytes(tag2, "tag", "v2.0-signed",
                                             b"tag of a tag\n", when + 300))
    git(d, "update-ref", "refs/tags/v2.0-signed", tag3)
    # a tree reachable only through an annotated tag, with its own blob
    kb = write_object(d, "blob", b"only reachable through a tag\n")
    kt = write_object(d, "tree", b"100644 key.txt\0" + bytes.fromhex(kb))
    tag4 = write_object(d, "tag", tag_bytes(kt, "tree", "tree-tag",
                                             b"a tagged tree\n", when + 400))
    git(d, "update-ref", "refs/tags/tree-tag", tag4)
    dangling = write_object(d, "blob", b"nothing points at me\n")

    # objects stored twice: loose and packed ...
    write_loose_copy(gitdir, "commit", commit_a_bytes)
    write_loose_copy(gitdir, "tree", ft.content(i))
    twice = [a, t1]
    # ... and in two packs (pack 5 repeats objects of packs 1 and 2)
    blob0 = rev(d, "refs/heads/main~10:file1.txt")
    two_packs = [blob0, c]
    git(d, "pack-objects", "-q", os.path.join(gitdir, "objects", "pack", "pack"),
        data=("\n".join(two_packs) + "\n").encode())

    # a work tree with subdirectories
    git(d, "reset", "-q", "--hard", "refs/heads/main")

    # check what we claim
    objs = all_objects(d)
    pk = pack_ids(gitdir)
    if len(pk) < 4:
        die("expected >= 4 packs, found %d" % len(pk))
    for p in info["planted"]:
        for oid, t in zip(p["ids"], p["types"]):
            if objs.get(oid) != t:
                die("planted %s %s missing" % (t, oid))
    for oid in twice:
        if not is_loose(gitdir, oid) or not any(oid in s for s in pk.values()):
            die("%s is not both loose and packed" % oid)
    for oid in two_packs:
        if sum(oid in s for s in pk.values()) < 2:
            die("%s is not in two packs" % oid)
    if not is_loose(gitdir, dangling):
        die("dangling blob not loose")

    info.update({
        "tags": [tag1, tag2, tag3, tag4],
        "loose_and_packed": twice,
        "in_two_packs": two_packs,
        "unreachable": [dangling],
        "packs": len(pk),
        "objects": len(objs),
    })
    return info


def scenario_alternates(d):
    up = os.path.join(d, "upstream")
    down = os.path.join(d, "downstream")
    os.makedirs(d, exist_ok=True)
    up_git = init_repo(up)
    fast_import(up, fast_import_stream("main", 150, 0, EPOCH))
    tip = rev(up, "refs/heads/main")
    tree = rev(up, "refs/heads/main^{tree}")

    down_git = init_repo(down)
    with open(os.path.join(down_git, "objects", "info", "alternates"), "w") as f:
        f.write(os.path.abspath(os.path.join(up_git, "objects")) + "\n")
    fast_import(down, fast_import_stream("main", 120, 500, EPOCH + 90000,
                                         parent=tip))
    git(down, "reset", "-q", "--hard", "refs/heads/main")

    # a commit pair sharing >= 8 hex chars, one on each side
    fam = Family("commit",
                 commit_bytes(tree, [tip], b"split collision, nonce ",
                              EPOCH + 200000), b"\n")
    i, j = birthday(fam, 8)
    a = write_object(up, "commit", fam.content(i))
    git(up, "update-ref", "refs/heads/split", a)
    b = write_object(down, "commit", fam.content(j))
    git(down, "update-ref", "refs/heads/split", b)

    # an upstream object also stored in downstream (loose)
    blob = rev(up, "refs/heads/main:file2.txt")
    content = git(up, "cat-file", "blob", blob)
    write_loose_copy(down_git, "blob", content)

    up_objs, down_objs = all_objects(up), all_objects(down)
    if a not in down_objs:
        die("git does not list alternate objects in %s" % down)
    if b in up_objs:
        die("downstream commit leaked into upstream")
    if not is_loose(down_git, blob):
        die("blob copy not loose in downstream")
    return {
        "repos": {"upstream": up, "downstream": down},
        "planted": [dict(pair("commit-commit", (a, b), ("commit", "commit")),
                         where=["upstream", "downstream"])],
        "duplicated": [blob],
        "objects": {"upstream": len(up_objs), "downstream": len(down_objs)},
    }


def scenario_forks(d):
    repos = {k: os.path.join(d, k) for k in ("stable", "mainline", "other")}
    os.makedirs(d, exist_ok=True)
    for r in repos.values():
        init_repo(r)
    fast_import(repos["mainline"], fast_import_stream("mainline", 120, 0, EPOCH))
    fast_import(repos["stable"], fast_import_stream("stable", 80, 1000, EPOCH + 50000))
    fast_import(repos["other"], fast_import_stream("other", 10, 2000, EPOCH + 90000))
    tip = rev(repos["mainline"], "refs/heads/mainline")
    tree = rev(repos["mainline"], "refs/heads/mainline^{tree}")
    fam = Family("commit",
                 commit_bytes(tree, [tip], b"mainline collision, nonce ",
                              EPOCH + 200000), b"\n")
    i, j = birthday(fam, 8)
    a = write_object(repos["mainline"], "commit", fam.content(i))
    b = write_object(repos["mainline"], "commit", fam.content(j))
    git(repos["mainline"], "update-ref", "refs/heads/collide-a", a)
    git(repos["mainline"], "update-ref", "refs/heads/collide-b", b)
    objs = {k: set(all_objects(r)) for k, r in repos.items()}
    if objs["stable"] & objs["mainline"] or objs["stable"] & objs["other"]:
        die("the forks share objects")
    return {
        "repos": repos,
        "planted": [dict(pair("commit-commit", (a, b), ("commit", "commit")),
                         where=["mainline", "mainline"])],
        "objects": {k: len(v) for k, v in objs.items()},
    }


def prefix_match(fam, targets, nhex):
    """First candidate of fam whose first nhex hex chars are those of one
    of the targets (a preimage search over several targets at once)."""
    want = {t[:nhex]: t for t in targets}
    for i in range(16 * LIMIT):
        t = want.get(fam.hexid(i)[:nhex])
        if t:
            return i, t
    die("prefix search failed")


def scenario_asof(d):
    init_repo(d)
    blob = write_object(d, "blob", b"asof\n")
    tree = write_object(d, "tree", b"100644 f\0" + bytes.fromhex(blob))
    root = write_object(d, "commit", commit_bytes(tree, [], b"root\n", EPOCH))
    cited, tip = [], root
    for i in range(16):
        tip = write_object(d, "commit", commit_bytes(tree, [tip], b"cited %d\n" % i,
                                                     EPOCH + 100 * (i + 1)))
        cited.append(tip)
    msg = b"fix the cited commits\n\n" + b"".join(
        b'Fixes: %s ("cited %d")\n' % (c[:6].encode(), i) for i, c in enumerate(cited))
    citing = write_object(d, "commit", commit_bytes(tree, [tip], msg, EPOCH + 10000))
    fam = Family("commit", commit_bytes(tree, [citing], b"later on main, nonce ",
                                        EPOCH + 20000), b"\n")
    i, main_target = prefix_match(fam, cited, 6)
    later = write_object(d, "commit", fam.content(i))
    head = write_object(d, "commit", commit_bytes(tree, [later], b"after the later commit\n",
                                                  EPOCH + 30000))
    # its Fixes: tag names no object, by the subject of a commit made after it on main
    fam = Family("commit", commit_bytes(tree, [root], b"later on a side branch, nonce ",
                                        EPOCH + 25000),
                 b'\n\nFixes: 123456789abc ("after the later commit")\n')
    i, side_target = prefix_match(fam, [c for c in cited if c != main_target], 6)
    side = write_object(d, "commit", fam.content(i))
    git(d, "update-ref", "refs/heads/main", head)
    git(d, "update-ref", "refs/heads/side", side)
    git(d, "symbolic-ref", "HEAD", "refs/heads/main")
    return {
        "repos": {"asof": d},
        "citing": citing,
        "cited": cited,
        "planted": [dict(pair("commit-commit", (main_target, later), ("commit", "commit")),
                         where="main"),
                    dict(pair("commit-commit", (side_target, side), ("commit", "commit")),
                         where="side")],
    }


def scenario_quoting(d):
    init_repo(d)
    blob = write_object(d, "blob", b"x\n")
    tree = write_object(d, "tree", b"100644 x\0" + bytes.fromhex(blob))
    info = {"repos": {"main": d}, "planted": []}
    subjects = [
        # JSON must escape these; valid UTF-8
        b'say "hi" \\ back\tslash \x01 caf\xc3\xa9, nonce ',
        # Latin-1, not valid UTF-8 (old kernel history has such commits)
        b'Latin-1 caf\xe9 na\xefve, nonce ',
    ]
    for n, subject in enumerate(subjects):
        fam = Family("commit", commit_bytes(tree, [], subject, EPOCH + n),
                     b"\n\nbody\n")
        i, j = birthday(fam, 6, exact=True)
        a = write_object(d, "commit", fam.content(i))
        b = write_object(d, "commit", fam.content(j))
        git(d, "update-ref", "refs/heads/q%d-a" % n, a)
        git(d, "update-ref", "refs/heads/q%d-b" % n, b)
        info["planted"].append(pair("commit-commit", (a, b),
                                    ("commit", "commit")))
    git(d, "update-ref", "refs/heads/main", "refs/heads/q0-a")
    git(d, "reset", "-q", "--hard", "refs/heads/main")
    info["objects"] = len(all_objects(d))
    return info


def scenario_many(d):
    init_repo(d)
    fast_import(d, fast_import_stream("main", 1, 0, EPOCH, extra_blobs=17000))
    return {"repos": {"main": d}, "planted": [],
            "objects": len(all_objects(d))}


def scenario_small(d):
    init_repo(d)
    blob = write_object(d, "blob", b"hello\n")
    tree = write_object(d, "tree", b"100644 hello.txt\0" + bytes.fromhex(blob))
    commit = write_object(d, "commit",
                          commit_bytes(tree, [], b"one file\n", EPOCH))
    git(d, "update-ref", "refs/heads/main", commit)
    git(d, "reset", "-q", "--hard", "refs/heads/main")
    return {"repos": {"main": d}, "planted": [],
            "ids": {"blob": blob, "tree": tree, "commit": commit},
            "objects": 3}


def scenario_refs(d):
    init_repo(d)
    fast_import(d, fast_import_stream("main", 30, 0, EPOCH,
                                      tag=("v1.0", b"release\n")))
    main = rev(d, "refs/heads/main")
    fast_import(d, fast_import_stream("topic", 5, 100, EPOCH + 7200, parent=main))
    for branch, ref, n, start in (("pull1", "refs/pull/1/head", 6, 200),
                                  ("pull1m", "refs/pull/1/merge", 2, 300),
                                  ("old", "refs/remotes/origin/old", 4, 400)):
        parent = rev(d, "refs/pull/1/head") if branch == "pull1m" else main
        fast_import(d, fast_import_stream(branch, n, start, EPOCH + 3600 * start,
                                          parent=parent))
        git(d, "update-ref", ref, "refs/heads/" + branch)
        git(d, "update-ref", "-d", "refs/heads/" + branch)
    git(d, "update-ref", "refs/tags/light", "refs/pull/1/head~3")
    git(d, "notes", "add", "-m", "a note on main~3", "refs/heads/main~3")
    git(d, "reset", "-q", "--hard", "refs/heads/main")
    refs = git(d, "for-each-ref", "--format=%(refname)").decode().split()
    return {"repos": {"main": d}, "planted": [], "refs": refs,
            "objects": len(all_objects(d))}


def scenario_empty(d):
    init_repo(d)
    return {"repos": {"main": d}, "planted": [], "objects": 0}


def scenario_sha256(d):
    init_repo(d, fmt="sha256")
    fast_import(d, fast_import_stream("main", 40, 0, EPOCH))
    git(d, "reset", "-q", "--hard", "refs/heads/main")
    # two loose blobs whose SHA-256 IDs share exactly 6 hex chars: the
    # groups at 4 and 6 chars are never empty
    fam = Family("blob", b"planted sha256 blob, nonce ", b"\n", algo="sha256")
    i, j = birthday(fam, 6, exact=True)
    a, b = (write_object(d, "blob", fam.content(k), "sha256") for k in (i, j))
    return {"repos": {"main": d},
            "planted": [pair("blob-blob", (a, b), ("blob", "blob"))],
            "objects": len(all_objects(d))}


YEAR = 31556952
HISTORY_PLANT6 = EPOCH + 1 * YEAR
HISTORY_PLANT7 = EPOCH + 2 * YEAR + 12345
HISTORY_PLANT9 = EPOCH + 3 * YEAR


def history_stream(n, rate):
    """n commits on main whose count grows as 50 e^(rate t) - 50 over the
    years from EPOCH; commits 2k and 2k+1 share a date."""
    out = []
    for i in range(n):
        k = i - i % 2
        when = EPOCH + int(YEAR * math.log((k + 50) / 50) / rate)
        msg = b"history: change %d\n" % i
        data = b"file revision %d\n" % i
        out.append(b"commit refs/heads/main\n")
        out.append(b"author %s %d +0000\n" % (AUTHOR, when))
        out.append(b"committer %s %d +0000\n" % (COMMITTER, when))
        out.append(b"data %d\n%s\n" % (len(msg), msg))
        out.append(b"M 100644 inline file%d.txt\ndata %d\n%s\n"
                   % (i % 7, len(data), data))
    return b"".join(out)


def scenario_history(d):
    init_repo(d)
    fast_import(d, history_stream(400, 0.35))
    tip = rev(d, "refs/heads/main")
    tree = rev(d, "refs/heads/main^{tree}")
    info = {"repos": {"main": d}, "planted": []}

    # both commits of a pair carry the planted date: the replay puts the
    # one with the larger ID second (ties go by ID), at that date
    for nhex, when, msg, exact, reachable in (
            (6, HISTORY_PLANT6, b"planted 6, nonce ", True, True),
            (7, HISTORY_PLANT7, b"planted 7, nonce ", False, False),
            (9, HISTORY_PLANT9, b"planted 9, nonce ", False, True)):
        fam = Family("commit", commit_bytes(tree, [tip], msg, when), b"\n")
        i, j = birthday(fam, nhex, exact=exact)
        a = write_object(d, "commit", fam.content(i))
        b = write_object(d, "commit", fam.content(j))
        git(d, "update-ref", "refs/heads/planted%d-a" % nhex, a)
        if reachable:
            git(d, "update-ref", "refs/heads/planted%d-b" % nhex, b)
        p = pair("commit-commit", (a, b), ("commit", "commit"))
        p.update({"date": when, "reachable": [True, reachable]})
        info["planted"].append(p)
    git(d, "reset", "-q", "--hard", "refs/heads/main")
    info["objects"] = len(all_objects(d))
    return info


def scenario_growth(d):
    init_repo(d)
    fast_import(d, history_stream(4000, 0.3))
    return {"repos": {"main": d}, "objects": len(all_objects(d))}


def tag_of_family(target, ttype, name, when):
    """Tags of one target whose messages differ in a nonce."""
    head = tag_bytes(target, ttype, name, b"planted tag, nonce ", when)
    return Family("tag", head, b"\n")


def deltified_tags(gitdir):
    """IDs of the tags stored as deltas in the packs (git verify-pack)."""
    d = os.path.join(gitdir, "objects", "pack")
    res = []
    for p in packs(gitdir):
        out = git(None, "verify-pack", "-v", os.path.join(d, p[:-5] + ".idx")).decode()
        for line in out.splitlines():
            f = line.split()
            # "<id> <type> <size> <packed size> <offset> <depth> <base>"
            if len(f) == 7 and f[1] == "tag":
                res.append(f[0])
    return res


def scenario_commitish(d):
    gitdir = init_repo(d)
    info = {"repos": {"main": d}, "planted": []}
    fast_import(d, fast_import_stream("main", 40, 0, EPOCH))
    tip = rev(d, "refs/heads/main")
    tree = rev(d, "refs/heads/main^{tree}")
    blob = rev(d, "refs/heads/main:file0.txt")
    when = EPOCH + 100000

    inner = write_object(d, "tag", tag_bytes(tip, "commit", "inner",
                                              b"the inner tag of a chain\n", when))
    git(d, "update-ref", "refs/tags/inner", inner)
    # (kind, target, target type, commit-ish?)
    plants = [("tag-commit", tip, "commit", True),
              ("tag-tag-commit", inner, "tag", True),
              ("tag-tree", tree, "tree", False),
              ("tag-blob", blob, "blob", False)]
    for k, (kind, target, ttype, ish) in enumerate(plants):
        fc = Family("commit", commit_bytes(tree, [tip], b"planted beside a tag, nonce ",
                                           when + 10 + k), b"\n")
        ft = tag_of_family(target, ttype, kind, when + 20 + k)
        ic, it = cross_birthday(fc, ft, 7)
        c = write_object(d, "commit", fc.content(ic))
        t = write_object(d, "tag", ft.content(it))
        git(d, "update-ref", "refs/heads/" + kind, c)
        git(d, "update-ref", "refs/tags/" + kind, t)
        p = pair(kind, (c, t), ("commit", "tag"))
        p["commitish"] = ish
        info["planted"].append(p)

    # release tags with long, similar messages: repack -f deltifies them
    body = b"".join(b"signed-off line %d of a long release note\n" % n for n in range(60))
    for n in range(40):
        target = rev(d, "refs/heads/main~%d" % (n % 30))
        t = write_object(d, "tag", tag_bytes(target, "commit", "v%d" % n,
                                              b"release %d\n\n" % n + body, when + 100 + n))
        git(d, "update-ref", "refs/tags/v%d" % n, t)
    git(d, "repack", "-a", "-d", "-f", "-q", "--window=50", "--depth=50")
    deltas = deltified_tags(gitdir)
    if not deltas:
        die("no tag was stored as a delta")
    # a loose tag after the repack
    loose = write_object(d, "tag", tag_bytes(tip, "commit", "loose",
                                              b"a loose tag\n", when + 500))
    git(d, "update-ref", "refs/tags/loose", loose)
    if not is_loose(gitdir, loose):
        die("the loose tag is packed")
    objs = all_objects(d)
    for p in info["planted"]:
        for oid, t in zip(p["ids"], p["types"]):
            if objs.get(oid) != t:
                die("planted %s %s missing" % (t, oid))
    info.update({"deltified_tags": deltas, "loose_tags": [loose],
                 "objects": len(objs)})
    return info


# audit: the classes of cite_audit.h, each planted twice, in years of the citing commit
AUDIT_CLASSES = ["ok", "short", "ambiguous-today", "ambiguous", "wrong-found", "wrong",
                 "not-a-commit", "subject-mismatch", "not-ancestor", "another-project"]


def commit_bytes_tz(tree, parents, msg, when, tz):
    lines = [b"tree " + tree.encode()]
    lines += [b"parent " + p.encode() for p in parents]
    lines.append(b"author %s %d %s" % (AUTHOR, when, tz))
    lines.append(b"committer %s %d %s" % (COMMITTER, when, tz))
    return b"\n".join(lines) + b"\n\n" + msg


def scenario_audit(d):
    import calendar
    init_repo(d)
    blob = write_object(d, "blob", b"audit\n")
    tree = write_object(d, "tree", b"100644 f\0" + bytes.fromhex(blob))
    t0 = calendar.timegm((2017, 3, 1, 12, 0, 0))
    root = write_object(d, "commit", commit_bytes(tree, [], b"root\n", t0))
    cited, tip = [], root
    for i in range(16):
        tip = write_object(d, "commit", commit_bytes(tree, [tip], b"cited %d\n" % i,
                                                     t0 + 100 * (i + 1)))
        cited.append(tip)
    # two commits sharing 6 hex chars, both ancestors of every citing commit
    fam = Family("commit", commit_bytes(tree, [tip], b"twin, nonce ", t0 + 5000), b"\n")
    a, b = birthday(fam, 6)
    twins = [write_object(d, "commit", fam.content(a)), write_object(d, "commit", fam.content(b))]
    tip = write_object(d, "commit", commit_bytes(tree, twins, b"merge the twins\n", t0 + 6000))
    side = write_object(d, "commit", commit_bytes(tree, [root], b"side work\n", t0 + 7000))
    everything = set(all_objects(d)) | set(twins) | {side, tip}

    def fake(seed):
        # 12 hex chars that start no object's ID
        k = 0
        while True:
            h = hashlib.sha1(b"fake %s %d" % (seed, k)).hexdigest()[:12]
            if not any(o.startswith(h) for o in everything) and re.search("[a-f]", h):
                return h
            k += 1

    # later commits on side branches (made after, never ancestors of a citing
    # commit) brute-forced to share 6 hex chars with cited ones: ambiguous today
    later, amb_targets, left = [], [], cited[5:]
    for k in range(2):
        fam = Family("commit", commit_bytes(tree, [root], b"later on a side branch, nonce ",
                                            calendar.timegm((2022, 1, 1 + k, 0, 0, 0))), b"\n")
        i, c = prefix_match(fam, left, 6)
        later.append(write_object(d, "commit", fam.content(i)))
        amb_targets.append(c)
        left = [x for x in left if x != c]
    everything |= set(later)
    plan = []  # (class, year, month, day, hour, minute, tz)
    for k, cls in enumerate(AUDIT_CLASSES):
        plan.append((cls, 2018 + k % 4, 3, 1 + k, 10, 0, b"+0000"))
        plan.append((cls, 2019 + (2 * k) % 3, 6, 1 + k, 10, 0, b"-0700"))
    # the year is the committer's: 23:30 UTC on Dec 31st is next year at +0100
    plan.append(("ok", 2020, 12, 31, 23, 30, b"+0100"))
    plan.append(("short", 2021, 1, 1, 3, 0, b"-0500"))
    plan.sort(key=lambda p: (p[1], p[2], p[3], p[4]))
    refs, n_amb_today = [], 0
    for n, (cls, y, mo, dd, hh, mi, tz) in enumerate(plan):
        when = calendar.timegm((y, mo, dd, hh, mi, 0))
        right = None
        if cls == "ok":
            written, right, line = cited[0][:12], cited[0], b'Fixes: %s ("cited 0")'
        elif cls == "short":
            written, right, line = cited[1][:8], cited[1], b'Fixes: %s ("cited 1")'
        elif cls == "ambiguous-today":
            c = amb_targets[n_amb_today]
            n_amb_today += 1
            written, right = c[:6], c
            line = b'Fixes: %s ("cited ' + str(cited.index(c)).encode() + b'")'
        elif cls == "ambiguous":
            written, line = twins[0][:6], b'Fixes: %s ("merge the twins")'
        elif cls == "wrong-found":
            written, right, line = fake(b"found%d" % n), cited[2], b'Fixes: %s ("cited 2")'
        elif cls == "wrong":
            written, line = fake(b"wrong%d" % n), b'Fixes: %s ("no commit has this subject")'
        elif cls == "not-a-commit":
            written, line = blob[:12], b'Fixes: %s ("the blob")'
        elif cls == "subject-mismatch":
            written, line = cited[4][:12], b'Fixes: %s ("a subject nobody wrote")'
        elif cls == "not-ancestor":
            written, line = side[:12], b'Fixes: %s ("side work")'
        else:
            written = fake(b"other%d" % n)
            line = b'This is ported from Linux commit %s ("a kernel fix").'
        msg = b"cite %d\n\n" % n + (line % written.encode()) + b"\n"
        tip = write_object(d, "commit", commit_bytes_tz(tree, [tip], msg, when, tz))
        refs.append({"class": cls, "written": written, "right": right, "citing": tip,
                     "when": when, "tz": tz.decode()})
        everything.add(tip)
    git(d, "update-ref", "refs/heads/main", tip)
    git(d, "update-ref", "refs/heads/side", side)
    for k, c in enumerate(later):
        git(d, "update-ref", "refs/heads/later%d" % k, c)
    git(d, "symbolic-ref", "HEAD", "refs/heads/main")
    return {"repos": {"audit": d}, "refs": refs, "twins": twins, "later": later,
            "classes": AUDIT_CLASSES}


def scenario_watch(d):
    """A history of 256 commits pushed (refs/remotes/origin/main), one of
    them cited six times; on the topic branch checked out, a commit
    brute-forced to share >= 7 hex chars with that one."""
    init_repo(d)
    t0 = EPOCH
    fast_import(d, fast_import_stream("main", 256, 0, t0))
    base = rev(d, "main")
    commits = git(d, "rev-list", "main").decode().split()
    tree = rev(d, "main^{tree}")
    fam = Family("commit", commit_bytes(tree, [base], b"topic: crafted, nonce ", t0 + 100000),
                 b"\n")
    i, target = prefix_match(fam, commits, 7)
    crafted = write_object(d, "commit", fam.content(i))
    subject = git(d, "log", "-1", "--format=%s", target).decode().strip()
    # the pushed history goes on, citing the target: by 12 chars, and by 7
    tip, cites = base, []
    for k in range(6):
        n = 12 if k < 4 else 7
        msg = b'fix %d\n\nFixes: %s ("%s")\n' % (k, target[:n].encode(), subject.encode())
        tip = write_object(d, "commit", commit_bytes(tree, [tip], msg, t0 + 200000 + k))
        cites.append(n)
    git(d, "update-ref", "refs/heads/main", tip)
    git(d, "update-ref", "refs/remotes/origin/main", tip)
    git(d, "update-ref", "refs/heads/topic", crafted)
    git(d, "symbolic-ref", "HEAD", "refs/heads/topic")
    return {"repos": {"watch": d}, "crafted": crafted, "target": target,
            "shared": lcp(crafted, target), "cites": cites, "pushed": tip,
            "objects": len(all_objects(d))}


def scenario_typo(d):
    init_repo(d)
    blob = write_object(d, "blob", b"typo\n")
    tree = write_object(d, "tree", b"100644 f\0" + bytes.fromhex(blob))
    tip = write_object(d, "commit", commit_bytes(tree, [], b"root\n", EPOCH))
    work = []
    for i in range(8):
        tip = write_object(d, "commit", commit_bytes(tree, [tip], b"work %d\n" % i,
                                                     EPOCH + 100 * (i + 1)))
        work.append(tip)
    # the fix on main and its cherry-picked copy on side: one subject, >= 6 hex chars shared
    fa = Family("commit", commit_bytes(tree, [tip], b"net: fix the leak\n\nnonce ",
                                       EPOCH + 2000), b"\n")
    fb = Family("commit", commit_bytes(tree, [work[1]], b"net: fix the leak\n\n(cherry picked "
                                       b"from main) nonce ", EPOCH + 3000), b"\n")
    a, b = cross_birthday(fa, fb, 6)
    fix = write_object(d, "commit", fa.content(a))
    copy = write_object(d, "commit", fb.content(b))
    tip = fix
    for i in range(3):
        tip = write_object(d, "commit", commit_bytes(tree, [tip], b"after %d\n" % i,
                                                     EPOCH + 4000 + 100 * i))
    side = write_object(d, "commit", commit_bytes(tree, [copy], b"side: only here\n",
                                                  EPOCH + 5000))
    git(d, "update-ref", "refs/heads/main", tip)
    git(d, "update-ref", "refs/heads/side", side)
    git(d, "symbolic-ref", "HEAD", "refs/heads/main")
    git(d, "reset", "-q", "--hard")
    return {
        "repos": {"typo": d},
        "work": work,
        "fix": fix,
        "copy": copy,
        "side_only": side,
        "head": tip,
        "planted": [dict(pair("commit-commit", (fix, copy), ("commit", "commit")),
                         where="main and side")],
    }


SCENARIOS = {
    "commitish": scenario_commitish,
    "planted": scenario_planted,
    "alternates": scenario_alternates,
    "forks": scenario_forks,
    "many": scenario_many,
    "small": scenario_small,
    "quoting": scenario_quoting,
    "refs": scenario_refs,
    "empty": scenario_empty,
    "sha256": scenario_sha256,
    "history": scenario_history,
    "growth": scenario_growth,
    "asof": scenario_asof,
    "audit": scenario_audit,
    "watch": scenario_watch,
    "typo": scenario_typo,
}


def moved(v, src, d):
    """v (from a JSON of a repository built at src) with src's paths as d's."""
    if isinstance(v, dict):
        return {k: moved(x, src, d) for k, x in v.items()}
    if isinstance(v, list):
        return [moved(x, src, d) for x in v]
    if isinstance(v, str) and (v == src or v.startswith(src + os.sep)):
        return d + v[len(src):]
    return v


def copy_built(src, d):
    """The scenario built once at src (by `make check`, Makefile.am), copied
    to d: the files with their modes and dates, and the paths that name src
    (the JSON's, an alternates file's) made d's.  None if src was not built."""
    try:
        with open(src + ".json") as f:
            info = json.load(f)
    except FileNotFoundError:
        return None
    os.makedirs(d, exist_ok=True)
    cp = subprocess.run(["cp", "-a", src + "/.", d + "/"])
    if cp.returncode != 0:
        die("cannot copy %s to %s" % (src, d))
    bsrc, bd = os.fsencode(src), os.fsencode(d)
    for top, dirs, files in os.walk(bd):
        if top.endswith(b"/objects/info") and b"alternates" in files:
            path = os.path.join(top, b"alternates")
            with open(path, "rb") as f:
                lines = f.read().split(b"\n")
            lines = [bd + l[len(bsrc):] if l == bsrc or l.startswith(bsrc + b"/")
                     else l for l in lines]
            with open(path, "wb") as f:
                f.write(b"\n".join(lines))
    return moved(info, src, d)


def near(repo, others_file, nhex, note):
    """In REPO, a commit on main's tip (not on any ref) brute-forced so that
    its first NHEX hex chars are those of one of the commit IDs listed in
    OTHERS_FILE; prints its ID and that other's."""
    others = open(others_file).read().split()
    tip, tree = rev(repo, "main"), rev(repo, "main^{tree}")
    fam = Family("commit", commit_bytes(tree, [tip], note.encode() + b", nonce ",
                                        EPOCH + 300000), b"\n")
    i, other = prefix_match(fam, others, int(nhex))
    print(write_object(repo, "commit", fam.content(i)), other)


def main():
    if sys.argv[1:2] == ["near"]:
        # gen_repo.py near REPO OTHERS_FILE NHEX NOTE
        return near(*sys.argv[2:6])
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("dir")
    ap.add_argument("--scenario", default="planted", choices=sorted(SCENARIOS))
    ap.add_argument("--built", metavar="DIR",
                    help="copy DIR/<scenario> if it was built there (with its"
                    " DIR/<scenario>.json), else build as without it")
    args = ap.parse_args()
    d = os.path.abspath(args.dir)
    if os.path.exists(d) and os.listdir(d):
        die("%s exists and is not empty" % d)
    info = None
    if args.built:
        info = copy_built(os.path.join(os.path.abspath(args.built), args.scenario), d)
    if info is None:
        info = SCENARIOS[args.scenario](d)
    info["scenario"] = args.scenario
    json.dump(info, sys.stdout, indent=1, sort_keys=True)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
