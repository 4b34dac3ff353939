#!/usr/bin/env python3
"""verify_fix.py - the property that makes `verify --fix` safe, over every
message of a history.

    verify_fix.py GIT_ABBREV REPO [--make]

With --make, REPO is first made: 40 commits with plain subjects, then 100
whose messages cite them in every form verify reads (Fixes: tags, prose,
split over lines, git's dated form and the layouts people write, stable
kernel lines, reverts, quoted log output, unclosed subjects and ones that
lost their closing quote at a wrap, remarks after the subject, full IDs),
right and wrong (an ID with a
changed or upper-case hex char, too short, another commit's subject, a
subject with a word less), from a fixed seed.

Then for every commit message of REPO's history (git log --format=%B):
  1. `verify --fix` changes only reference spans: the output is the input
     with each span [start, end) of the JSON findings that carry a
     replacement put in its place, and nothing else;
  2. within a span, only the ID and the subject text change: the bytes
     before the ID, between the ID and the subject, and after the subject
     are the input's own (a split reference stays split, a stable line
     keeps its shape);
  3. `verify` of the output suggests nothing more: nothing --fix can mend;
  4. a full-length ID stays full length.
Prints one line of counts; exits 1 with the first failure on stderr.
"""
import json
import os
import random
import subprocess
import sys
import tempfile

ENV = dict(os.environ, GIT_CONFIG_NOSYSTEM="1", GIT_CONFIG_GLOBAL="/dev/null", LC_ALL="C",
           GIT_AUTHOR_NAME="A U Thor", GIT_AUTHOR_EMAIL="a@example.com",
           GIT_COMMITTER_NAME="C O Mitter", GIT_COMMITTER_EMAIL="c@example.com")


def git(repo, *args, data=None):
    return subprocess.run(["git", "-C", repo] + list(args), input=data, env=ENV, check=True,
                          stdout=subprocess.PIPE).stdout


def fast_import(repo, commits, start, parent):
    """commits: (subject, body); returns nothing, updates refs/heads/main."""
    out = []
    for i, (subject, body) in enumerate(commits):
        msg = (subject + "\n\n" + body).encode() if body else (subject + "\n").encode()
        when = 1700000000 + (start + i) * 60
        out.append(b"commit refs/heads/main\n")
        out.append(b"committer C O Mitter <c@example.com> %d +0000\n" % when)
        out.append(b"data %d\n%s\n" % (len(msg), msg))
        if parent and i == 0:
            out.append(b"from refs/heads/main^0\n")
        out.append(b"M 100644 inline f%d\ndata 2\n%d\n\n" % (start + i, (start + i) % 10))
    git(repo, "fast-import", "--quiet", data=b"".join(out))


def make(repo):
    rng = random.Random(12)
    subprocess.run(["git", "init", "-q", "-b", "main", repo], env=ENV, check=True)
    base = ["area%d: change the thing number %d" % (i % 5, i) for i in range(40)]
    base[7] = 'quote: say "hello" to `all` of them'
    base[8] = "a subject long enough to be wrapped over two lines in a message, as people do"
    fast_import(repo, [(s, "") for s in base], 0, False)
    ids = git(repo, "rev-list", "--reverse", "main").decode().split()
    subj = dict(zip(ids, base))

    def ref_id(c, n=12):
        h = c[:n]
        r = rng.random()
        if r < 0.15:  # a wrong hex char
            p = rng.randrange(n)
            h = h[:p] + "%x" % ((int(h[p], 16) + 1) % 16) + h[p + 1:]
        elif r < 0.25:
            h = h[:7]
        elif r < 0.32:
            h = h.upper()
        return h

    def wrap(s):
        words = s.split(" ")
        k = max(1, len(words) // 2)
        return " ".join(words[:k]), " ".join(words[k:])

    def ref_subj(c):
        s = subj[c]
        r = rng.random()
        if r < 0.12:
            s = subj[rng.choice(ids)]
        elif r < 0.2:
            s = s.rsplit(" ", 1)[0]
        return s

    forms = [
        lambda c: 'Fixes: %s ("%s")' % (ref_id(c), ref_subj(c)),
        lambda c: 'Fixes: %s (%s)' % (ref_id(c), ref_subj(c)),
        lambda c: 'Fixes: %s' % ref_id(c),
        lambda c: 'This was broken by commit %s ("%s"), which\nwe fix here.' % (ref_id(c), ref_subj(c)),
        lambda c: 'Since commit\n%s ("%s") the\nthing is off.' % (ref_id(c), ref_subj(c)),
        lambda c: 'In %s (%s, 2023-11-14) we broke it.' % (ref_id(c), ref_subj(c)),
        lambda c: 'Commit %s (%s - 2010-07-10) broke it.' % (ref_id(c), ref_subj(c)),
        lambda c: 'See commit %s ("%s" 2006-06-09).' % (ref_id(c), ref_subj(c)),
        lambda c: 'commit %s upstream.' % ref_id(c, 40),
        lambda c: '[ Upstream commit %s ]' % ref_id(c, 40),
        lambda c: 'This reverts commit %s.' % ref_id(c, 40),
        lambda c: 'As in:\n\n    commit %s\n    Author: A <a@b>\n\n        %s' % (c, subj[c]),
        lambda c: 'that commit %s\n("%s" 2008-07-3) was\nintended' % (ref_id(c, 7), ref_subj(c)),
        lambda c: 'Fixes: %s mailmap: %s' % (ref_id(c), subj[c]),
        # an unclosed subject, then a tag of its own
        lambda c: 'Fixes: %s ("%s\nFixes: %s ("%s")' % (ref_id(c), ref_subj(c), ref_id(c), ref_subj(c)),
        # a subject that lost its closing quote at a line wrap
        lambda c: 'Since commit %s ("%s\n%s) the loop ends.' % ((ref_id(c),) + wrap(ref_subj(c))),
        # a remark where a date may be
        lambda c: 'Fixes: %s ("%s", the second try)' % (ref_id(c), ref_subj(c)),
        # full IDs, in prose and upper case
        lambda c: 'Follow-up to commit %s ("%s").' % (ref_id(c, 40), ref_subj(c)),
        lambda c: '[ Upstream commit %s ]' % ref_id(c, 40).upper(),
    ]
    msgs = []
    for i in range(100):
        parts = []
        for _ in range(rng.choice((1, 1, 2, 3))):
            parts.append(rng.choice(forms)(rng.choice(ids)))
        body = "Some words.\n\n" + "\n\n".join(parts) + "\n\nSigned-off-by: A U Thor <a@example.com>\n"
        if rng.random() < 0.1:
            body = body.replace("\n", "\r\n")
        msgs.append(("topic: fix number %d" % i, body))
    fast_import(repo, msgs, 40, True)


def verify(tool, repo, paths, *args):
    r = subprocess.run([tool, "verify", "-C", repo, "--no-progress"] + list(args) + list(paths),
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    if r.returncode not in (0, 1):
        sys.exit("verify_fix: verify %s exited %d: %s" % (" ".join(args), r.returncode,
                                                           r.stderr.decode(errors="replace")))
    return r.stdout


def findings_by_file(tool, repo, paths):
    """One `verify --format=json` over every path: its findings, by path."""
    doc = json.loads(verify(tool, repo, paths, "--format=json"))
    if doc["inputs"] != len(paths):
        sys.exit("verify_fix: verify read %d inputs of %d" % (doc["inputs"], len(paths)))
    by = {p: [] for p in paths}
    for x in doc["findings"]:
        by[x["file"]].append(x)
    return by


def main():
    tool, repo = sys.argv[1], sys.argv[2]
    if "--make" in sys.argv[3:]:
        make(repo)
    commits = git(repo, "rev-list", "--all").decode().split()
    # every message at once (-z: NUL after each; --format=%B alone ends
    # each with a newline, which is part of what verify is given)
    log = git(repo, "log", "-z", "--no-walk=unsorted", "--format=%H%n%B", *commits)
    msgs = {}
    for entry in log.split(b"\0"):
        if entry:
            c, msg = entry.split(b"\n", 1)
            msgs[c.decode()] = msg + b"\n"
    if sorted(msgs) != sorted(commits):
        sys.exit("verify_fix: git log gave %d messages for %d commits" % (len(msgs), len(commits)))
    nfixed = nspans = 0
    with tempfile.TemporaryDirectory() as tmp:
        path = {}
        for i, c in enumerate(commits):
            path[c] = os.path.join(tmp, "msg%d" % i)
            with open(path[c], "wb") as f:
                f.write(msgs[c])
        # the findings of every message from one verify run (they are
        # each input's own: no message is read in the light of another)
        found = findings_by_file(tool, repo, [path[c] for c in commits])
        fixed_paths = []
        for c in commits:
            msg = msgs[c]
            findings = found[path[c]]
            fixed = verify(tool, repo, [path[c]], "--fix")
            spans = {}
            for x in findings:
                if x["replacement"] is not None:
                    spans[x["span"]["start"]] = x
            want, pos = [], 0
            for start in sorted(spans):
                x = spans[start]
                sp = x["span"]
                end = sp["end"]
                rep = x["replacement"].encode()
                i0, i1 = sp["id"]
                # 2: outside the ID and the subject, the span's own bytes
                head = msg[start:i0]
                if not rep.startswith(head):
                    sys.exit("verify_fix: %s: text before the ID changed: %r -> %r"
                             % (c, msg[start:end], rep))
                rest = rep[len(head):]
                hexlen = len(rest) - len(rest.lstrip(b"0123456789abcdef"))
                rest = rest[hexlen:]
                if sp["subject"]:
                    s0, s1 = sp["subject"]
                    mid, tail = msg[i1:s0], msg[s1:end]
                    ok = rest.startswith(mid) and rest.endswith(tail) and \
                        len(rest) >= len(mid) + len(tail)
                else:
                    ok = rest == msg[i1:end]
                # 4: a full ID stays full, in lower case
                if i1 - i0 == len(commits[0]) and hexlen != i1 - i0:
                    sys.exit("verify_fix: %s: a full ID shortened: %r -> %r"
                             % (c, msg[start:end], rep))
                if not hexlen or not ok:
                    sys.exit("verify_fix: %s: more than the ID and subject changed: %r -> %r"
                             % (c, msg[start:end], rep))
                want.append(msg[pos:start])
                want.append(rep)
                pos = end
                nspans += 1
            want.append(msg[pos:])
            # 1: nothing outside the spans changed
            if fixed != b"".join(want):
                sys.exit("verify_fix: %s: --fix changed text outside references:\n%r\n%r"
                         % (c, msg, fixed))
            if fixed != msg:
                nfixed += 1
                fixed_paths.append((c, path[c] + ".fixed", fixed))
                with open(path[c] + ".fixed", "wb") as f:
                    f.write(fixed)
        # 3: nothing left to mend, the rewritten messages in one verify run
        if fixed_paths:
            again = findings_by_file(tool, repo, [p for _, p, _ in fixed_paths])
            for c, p, fixed in fixed_paths:
                left = [x for x in again[p] if x["replacement"] is not None]
                if left:
                    sys.exit("verify_fix: %s: after --fix still to mend: %s\n%r"
                             % (c, left[0]["message"], fixed))
    print("verify_fix: %d messages, %d rewritten, %d references mended"
          % (len(commits), nfixed, nspans))


if __name__ == "__main__":
    main()
