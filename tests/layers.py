#!/usr/bin/env python3
"""layers.py - src/ is layered; fail on an #include that goes against it.

Each folder of src/ is a layer (docs/architecture.md draws them):

    cmd      the command line: main, option parsing, one file per command
    emit     text, JSON, CSV, Markdown, SVG over the results structs
    verify   commit references in text, and their resolution (libgit2)
    walk     every (ID, type) of a repository once: the pack walker's
             steps, the libgit2 walker, the clone's view (--reachable)
    odb      object directories, packs and their indexes, loose objects,
             tag and commit headers, the commit-graph, the subject cache
    core     ID sets, statistics, model, projection, partial files, and
             the small helpers everything uses

Only walk, verify and cmd include libgit2's <git2.h>.
A file may include a header of its own folder or of a folder below it
(LOWER).  walk and verify are siblings: neither includes the other.
Headers are included by their bare names (every folder is on the
include path), so this script maps each name to its folder.  An include
that names no header of src/ (a system or library header) is not
checked.  Exit 0 when every include keeps the layers, else 1 with one
line per offending include.

KNOWN lists the includes that go against the layers today, each with the
reason; the list may only shrink (an entry no longer seen is an error
too, so the list cannot go stale).
"""
import os
import re
import sys

LOWER = {
    "core": set(),
    "odb": {"core"},
    "walk": {"odb", "core"},
    "verify": {"odb", "core"},
    "emit": {"verify", "odb", "core"},
    "cmd": {"emit", "verify", "walk", "odb", "core"},
}

# (file, header): the pack walker's internal header is still the API of
# the pack readers (objidx.c, objread.c) until they read through an odb
# handle of their own
KNOWN = {
    ("odb/objidx.c", "walk_pack_int.h"),
    ("odb/objread.c", "walk_pack_int.h"),
}

INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)
# only these layers talk to libgit2; the core, the object database and the
# emitters are unit-tested without it
GIT2 = {"walk", "verify", "cmd"}
GIT2_INCLUDE = re.compile(r'^\s*#\s*include\s+<git2[./]', re.M)


def main(argv):
    src = argv[1] if len(argv) > 1 else os.path.join(
        os.path.dirname(os.path.abspath(__file__)), "..", "src")
    where = {}
    files = []
    for layer in sorted(os.listdir(src)):
        path = os.path.join(src, layer)
        if not os.path.isdir(path):
            continue
        if layer not in LOWER:
            print("layers: src/%s/ is no layer of LOWER" % layer)
            return 1
        for name in sorted(os.listdir(path)):
            if name.endswith((".c", ".h")):
                if name in where:
                    print("layers: %s is in src/%s/ and src/%s/" % (name, where[name], layer))
                    return 1
                where[name] = layer
                files.append((layer, name))
    for name in sorted(os.listdir(src)):
        if name.endswith((".c", ".h")):
            print("layers: src/%s stands outside the layers' folders" % name)
            return 1
    bad = 0
    seen = set()
    for layer, name in files:
        with open(os.path.join(src, layer, name), encoding="utf-8") as f:
            text = f.read()
        if layer not in GIT2 and GIT2_INCLUDE.search(text):
            print("layers: src/%s/%s includes libgit2: only %s may"
                  % (layer, name, ", ".join(sorted(GIT2))))
            bad += 1
        for header in INCLUDE.findall(text):
            to = where.get(os.path.basename(header))
            if to is None or to == layer or to in LOWER[layer]:
                continue
            key = ("%s/%s" % (layer, name), header)
            if key in KNOWN:
                seen.add(key)
                continue
            print("layers: src/%s/%s includes %s (src/%s/): %s may include only %s"
                  % (layer, name, header, to, layer,
                     ", ".join(sorted(LOWER[layer])) or "its own folder"))
            bad += 1
    for key in sorted(KNOWN - seen):
        print("layers: %s no longer includes %s: remove it from KNOWN" % key)
        bad += 1
    if bad == 0:
        print("layers: %d files, every include keeps the layers (%d known exceptions)"
              % (len(files), len(KNOWN)))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
