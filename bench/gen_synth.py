#!/usr/bin/env python3
"""gen_synth.py - a Linux-shaped synthetic repository of a given size.

    python3 gen_synth.py [--objects N] [--packs K] [--depth D] [--seed S] <dir>

Makes <dir> a bare repository holding about N objects (default 2,000,000),
shaped like the Linux kernel's object store as far as an object walker
can tell:

  - about 1/8 commits, the rest nearly half trees and half blobs, and an
    annotated tag every 4000 commits;
  - a nested tree: 20 top-level directories of 20 subdirectories of 10
    leaf directories (4000 leaves, room for 15 files each), grown as the
    history touches them;
  - each commit changes 1-6 files of one leaf directory (sometimes of
    a second one too), which rewrites those blobs and every tree on their
    paths up to the root, as a real commit does;
  - blobs and trees stored as deltas: git fast-import deltifies each blob
    against the blob before it (every file starts with the same licence
    text, so nearly all blobs become deltas) and each tree against its
    previous version, all OFS_DELTA.  fast-import's chains run 0, 1, ..
    D and start again, so D (default 14) sets the mean delta depth, D/2:
    7 matches git.git's pack (66% deltas, mean depth 6.8).  The depth
    matters to the comparison: `git cat-file --batch-check` follows each
    object's chain to its base, so with fast-import's own default of 50
    git takes three times as long per object;
  - K packs (default: one per 4 million objects), cut with fast-import's
    `checkpoint`;
  - with --commit-graph, a commit-graph file (`git commit-graph write
    --reachable`), as a repository that git gc has seen has one; a fresh
    clone has none.

With --refs-every R (the kernel's rate is about 6), one commit message
in R also cites an earlier commit the way kernel messages do: a
`Fixes: <12 hex> ("subject")` trailer (70%) or `commit <12 hex>
("subject")` in prose (30%); 4% of them give another commit's subject
and 2% a wrong ID (one hex char changed), so `verify --range` has errors
to find and `verify` a subject index to build.  The IDs come from
fast-import itself (`get-mark`, asked in batches for a pool of earlier
commits, so the two processes rarely wait for each other).  Every
commit's subject is distinct ("subsystem L: change N").

The stream is written by this script into `git fast-import` through a
pipe, so the two run on two cores; 2M objects take about a minute.  The
same arguments give the same object IDs on every run (fixed seed, dates
and identities).  Prints a one-line summary of what was made.  Standard
library only.
"""
import argparse
import array
import os
import random
import subprocess
import sys
import time

TOP, MID, LEAF, FILES = 20, 20, 10, 15
TAG_EVERY = 4000
IDENT = b"A U Thor <author@example.com>"
EPOCH = 1104537600  # 2005-01-01

# every file starts with it, as kernel sources start with their licence
# boilerplate: what lets fast-import store most blobs as deltas
LICENSE = (b"// SPDX-License-Identifier: GPL-2.0-only\n/*\n"
           b" * This program is free software; you can redistribute it and/or modify\n"
           b" * it under the terms of the GNU General Public License version 2 as\n"
           b" * published by the Free Software Foundation.\n"
           b" *\n * This program is distributed in the hope that it will be useful,\n"
           b" * but WITHOUT ANY WARRANTY; without even the implied warranty of\n"
           b" * MERCHANTABILITY or FITNESS FOR A PARTICULAR PURPOSE.\n */\n")

WORDS = (b"static int void struct return if else for while unsigned long "
         b"const char size_t err goto out unlock lock dev priv data buf len "
         b"page node list head entry flags mask irq reg val ret count ops "
         b"init exit probe remove alloc free read write map sync queue").split()


def template_lines(rng, n):
    """A pool of C-looking lines the files draw from (shared, so blobs delta)."""
    out = []
    for i in range(n):
        k = rng.randrange(3, 9)
        words = b" ".join(rng.choice(WORDS) for _ in range(k))
        out.append(b"\t" * rng.randrange(0, 3) + words + b";\n")
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("dir")
    ap.add_argument("--objects", type=int, default=2_000_000)
    ap.add_argument("--packs", type=int, default=0,
                    help="number of packs (default: one per 4M objects)")
    ap.add_argument("--depth", type=int, default=14,
                    help="longest delta chain (default 14: mean depth 7)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--commit-graph", action="store_true",
                    help="write a commit-graph file after (as git gc does)")
    ap.add_argument("--refs-every", type=int, default=0,
                    help="one commit message in R cites an earlier commit (0: none)")
    a = ap.parse_args()
    if a.objects < 100:
        ap.error("--objects must be at least 100")
    packs = a.packs or max(1, (a.objects + 3_999_999) // 4_000_000)

    rng = random.Random(a.seed)
    pool = template_lines(rng, 512)
    env = dict(os.environ, GIT_CONFIG_NOSYSTEM="1", HOME="/nonexistent",
               LC_ALL="C", GIT_CONFIG_GLOBAL="/dev/null")
    subprocess.run(["git", "init", "-q", "--bare", a.dir], check=True, env=env)
    fi = subprocess.Popen(["git", "-C", a.dir, "fast-import", "--quiet",
                           "--depth=%d" % a.depth],
                          stdin=subprocess.PIPE, stdout=subprocess.PIPE, env=env,
                          bufsize=1 << 20)
    out = fi.stdin
    leaf_of = array.array("I")  # commit number - 1 -> its subject's leaf
    pool_refs = []              # (hex ID, subject) of earlier commits to cite
    nref = nwrong = 0
    start = time.time()

    bodies = {}     # file number -> its lines (chosen once from the pool)
    versions = {}   # file number -> edits so far
    nobj = ncommit = ntag = nblob = ntree = 0
    per_pack = -(-a.objects // packs)
    next_cut = per_pack
    # hot leaves: a few subsystems get most of the changes, as in Linux
    nleaves = TOP * MID * LEAF
    weights = [1.0 / (1 + (i % 97)) for i in range(nleaves)]
    cum, acc = [], 0.0
    for w in weights:
        acc += w
        cum.append(acc)

    while nobj < a.objects:
        leaves = rng.choices(range(nleaves), cum_weights=cum,
                             k=1 if rng.random() < 0.85 else 2)
        dirs = set()
        changes = []
        for leaf in leaves:
            t, m, l = leaf // (MID * LEAF), leaf // LEAF % MID, leaf % LEAF
            dirs.update({(t,), (t, m), (t, m, l)})
            k = rng.choice((1, 1, 1, 2, 2, 2, 3, 3, 4, 6))
            for f in rng.sample(range(FILES), k):
                changes.append((leaf * FILES + f, b"d%02d/s%02d/l%d/f%02d.c" % (t, m, l, f)))
        ncommit += 1
        when = EPOCH + ncommit * 300
        prose = trailer = b""
        if a.refs_every and pool_refs and rng.randrange(a.refs_every) == 0:
            hexid, subj = rng.choice(pool_refs)
            roll = rng.random()
            if roll < 0.04:
                subj = rng.choice(pool_refs)[1]
                nwrong += 1
            elif roll < 0.06:
                p = rng.randrange(12)
                hexid = hexid[:p] + b"%x" % ((int(hexid[p:p + 1], 16) + 1) % 16) + hexid[p + 1:]
                nwrong += 1
            nref += 1
            if rng.random() < 0.7:
                trailer = b"Fixes: %s (\"%s\")\n" % (hexid, subj)
            else:
                prose = (b"This undoes the locking of commit %s (\"%s\")\n"
                         b"for the fast path.\n\n" % (hexid, subj))
        leaf_of.append(leaves[0])
        msg = b"subsystem %d: change %d\n\n%s%sSigned-off-by: %s\n" % (
            leaves[0], ncommit, prose, trailer, IDENT)
        buf = [b"commit refs/heads/master\n", b"mark :%d\n" % ncommit,
               b"committer %s %d +0000\n" % (IDENT, when),
               b"data %d\n%s" % (len(msg), msg)]
        for fno, path in changes:
            body = bodies.get(fno)
            if body is None:
                body = bodies[fno] = b"".join(rng.sample(pool, 8))
            v = versions.get(fno, 0) + 1
            versions[fno] = v
            # unique content (the commit number), so every edit is a new blob
            data = b"%s/* %s v%d c%d */\n%s%s" % (LICENSE, path, v, ncommit, body,
                                                 pool[(fno + v) % len(pool)])
            buf.append(b"M 100644 inline %s\ndata %d\n%s\n" % (path, len(data), data))
        out.write(b"".join(buf))
        if a.refs_every and ncommit % 1000 == 0:
            # a fresh pool of earlier commits to cite, their IDs from fast-import
            nums = [rng.randrange(1, ncommit + 1) for _ in range(100)]
            out.write(b"".join(b"get-mark :%d\n" % n for n in nums))
            out.flush()
            pool_refs = [(fi.stdout.readline()[:12],
                          b"subsystem %d: change %d" % (leaf_of[n - 1], n)) for n in nums]
        nblob += len(changes)
        ntree += len(dirs) + 1
        nobj += 1 + len(changes) + len(dirs) + 1
        if ncommit % TAG_EVERY == 0:
            ntag += 1
            tmsg = b"release %d\n" % ntag
            out.write(b"tag v%d\nfrom refs/heads/master\ntagger %s %d +0000\ndata %d\n%s\n"
                      % (ntag, IDENT, when, len(tmsg), tmsg))
            nobj += 1
        if nobj >= next_cut and nobj < a.objects:
            out.write(b"checkpoint\n\n")
            next_cut += per_pack
    out.close()
    if fi.wait():
        sys.exit("gen_synth: git fast-import failed")
    if a.commit_graph:
        subprocess.run(["git", "-C", a.dir, "commit-graph", "write", "--reachable"],
                       check=True, env=env)
    print("gen_synth: %s: %d objects (%d commits, %d trees, %d blobs, %d tags; "
          "%d commits cite another, %d wrongly) in %.0f s"
          % (a.dir, nobj, ncommit, ntree, nblob, ntag, nref, nwrong, time.time() - start))


if __name__ == "__main__":
    main()
