#!/usr/bin/env python3
"""objidx_oracle.py - verify's ID lookup (objidx.h) against git's own answers.

    python3 objidx_oracle.py <walk_dump> <repo> <gitdir-objects> [<prefix>...]
    python3 objidx_oracle.py --tag-beside <commit> <n>

Asks `walk_dump --objidx` about prefixes of every object of the repository
(1 to 5 and 7 hex chars and the whole ID; more given on the command line) and
compares each answer with git's: the objects of a prefix and their types
with `git cat-file --batch-all-objects --batch-check` (and `git rev-parse
--disambiguate=<prefix>`), each one's unique length by git's rule over that
listing (checked on a sample by `git cat-file --batch-check`, which must
find the object at that length and call one hex char fewer ambiguous: what
`git rev-parse --short=4` computes), and whether a tag is commit-ish with
`git rev-parse --verify <tag>^{commit}`.  Prints the differences (none:
exit 0) and, last, how many answers were compared.  git answers each kind
of question in one process for all of them, not one process a question.

--tag-beside writes an annotated tag of <commit> (a SHA-1 ID) whose own ID
shares the commit's first <n> hex chars, found by brute force over a nonce
in its message (16^n tries on average), for `git hash-object -w -t tag`.
"""
import bisect
import hashlib
import subprocess
import sys


def git(repo, *args, stdin=None):
    return subprocess.run(["git", "-C", repo, *args], input=stdin, capture_output=True,
                          text=True, check=False)


def tag_beside(commit, n):
    for nonce in range(1 << 32):
        body = ("object %s\ntype commit\ntag beside\n"
                "tagger T <t@example.org> 1700000000 +0000\n\n"
                "a tag sharing its commit's first %d hex chars, nonce %08d\n"
                % (commit, n, nonce)).encode()
        if hashlib.sha1(b"tag %d\0" % len(body) + body).hexdigest()[:n] == commit[:n]:
            sys.stdout.buffer.write(body)
            return


def main():
    if sys.argv[1] == "--tag-beside":
        tag_beside(sys.argv[2], int(sys.argv[3]))
        return
    dump, repo, objdir = sys.argv[1:4]
    extra = sys.argv[4:]
    listing = git(repo, "cat-file", "--batch-all-objects", "--batch-check=%(objectname) %(objecttype)")
    if listing.returncode:
        sys.exit("cat-file: " + listing.stderr)
    types = dict(line.split() for line in listing.stdout.splitlines())
    hexsz = len(next(iter(types)))
    rawsz = hexsz // 2
    # one process asks them all: past its first thousand or so questions
    # objidx searches a two-byte fan-out of its own (FAN16_AFTER), so both
    # ways are compared, at every prefix length
    prefixes = sorted({h[:n] for h in types for n in (1, 2, 3, 4, 5, 7, hexsz)} | set(extra))
    got = subprocess.run([dump, "--objidx", "--rawsz=%d" % rawsz, objdir, *prefixes],
                         capture_output=True, text=True, check=False)
    if got.returncode:
        sys.exit("walk_dump: exit %d: %s" % (got.returncode, got.stderr))
    answers = {}
    for line in got.stdout.splitlines():
        f = line.split()
        answers.setdefault(f[0], []).append((f[1], f[2], int(f[3]), len(f) > 4))
    # git's rule over git's listing: one more than the most hex chars an ID
    # shares with a neighbour in sorted order, at least 4; git itself checks
    # it on the IDs of the prefixes given and on every 16th: the ID's first
    # L chars name it, its first L - 1 (when L > 4) are ambiguous, which is
    # what `git rev-parse --short=4` finds, asked of one `git cat-file`
    ids = sorted(types)
    lcp = [0] * len(ids)
    for i in range(1, len(ids)):
        a, b = ids[i - 1], ids[i]
        n = next((k for k in range(hexsz) if a[k] != b[k]), hexsz)
        lcp[i - 1] = max(lcp[i - 1], n)
        lcp[i] = max(lcp[i], n)
    unique = {h: max(4, lcp[i] + 1) for i, h in enumerate(ids)}
    sample = ids[::16] + [h for h in ids if any(h.startswith(e) for e in extra)]
    asked = []
    for h in sample:
        asked.append((h, h[:unique[h]], h))
        if unique[h] > 4:
            asked.append((h, h[:unique[h] - 1], h[:unique[h] - 1] + " ambiguous"))
    said = git(repo, "cat-file", "--batch-check=%(objectname)",
               stdin="".join(q + "\n" for _, q, _ in asked)).stdout.splitlines()
    if len(said) != len(asked):
        sys.exit("cat-file: %d answers to %d prefixes" % (len(said), len(asked)))
    for (h, q, want), line in zip(asked, said):
        if line != want:
            print("git cat-file --batch-check %s: %r, the neighbours say %d chars name %s" % (
                q, line, unique[h], h))
            sys.exit(1)
    tags = [h for h, t in types.items() if t == "tag"]
    commitish = {h for h in tags
                 if git(repo, "rev-parse", "-q", "--verify", h + "^{commit}").returncode == 0}
    # git's own listing beside the catalogue's (where two or more objects
    # share the prefix, the ones given, and every 32nd), from one `git
    # rev-parse` that answers each --disambiguate=<prefix> in turn, each
    # answer ended by the line that --is-bare-repository prints
    def wanted(p):
        return ids[bisect.bisect_left(ids, p):bisect.bisect_left(ids, p + "g")]
    listed = [p for k, p in enumerate(prefixes)
              if len(p) >= 4 and (len(wanted(p)) > 1 or p in extra or k % 32 == 0)]
    end = git(repo, "rev-parse", "--is-bare-repository").stdout.strip()
    args = []
    for p in listed:
        args += ["--disambiguate=" + p, "--is-bare-repository"]
    out = git(repo, "rev-parse", *args).stdout.split("\n")
    disambiguated, cur = {}, []
    for line in out:
        if line == end:
            disambiguated[listed[len(disambiguated)]] = cur
            cur = []
        elif line:
            cur.append(line)
    if end not in ("true", "false") or len(disambiguated) != len(listed) or cur:
        sys.exit("rev-parse --disambiguate: %d answers to %d prefixes" % (len(disambiguated), len(listed)))
    bad = 0
    for k, p in enumerate(prefixes):
        want = wanted(p)  # bisect: past every hex continuation
        if p in disambiguated:
            dis = disambiguated[p]
            if sorted(dis) != want:
                print("git itself disagrees for %s: %s / %s" % (p, dis, want))
                bad += 1
        have = answers.get(p, [])
        if [a[0] for a in have] != want:
            print("%s: objidx %s, git %s" % (p, [a[0] for a in have], want))
            bad += 1
            continue
        for h, t, L, ci in have:
            if t != types[h] or L != unique[h] or ci != (h in commitish):
                print("%s %s: objidx %s %d%s, git %s %d%s" % (
                    p, h, t, L, " commit-ish" if ci else "", types[h], unique[h],
                    " commit-ish" if h in commitish else ""))
                bad += 1
    print("%d prefixes, %d objects, %d tags (%d commit-ish) compared" % (
        len(prefixes), len(types), len(tags), len(commitish)))
    sys.exit(1 if bad else 0)


main()
