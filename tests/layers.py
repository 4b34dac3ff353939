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
No circle of calls between files: a file that calls a function defined
in another (a non-static function defined in one file only) depends on
it, and no file may depend on itself through others (the pack walker's
eight files once did: its entry file was also its helper file).
Headers are included by their bare names (every folder is on the
include path), so this script maps each name to its folder.  An include
that names no header of src/ (a system or library header) is not
checked.  Exit 0 when every include keeps the layers, else 1 with one
line per offending include.
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

INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)
# only these layers talk to libgit2; the core, the object database and the
# emitters are unit-tested without it
GIT2 = {"walk", "verify", "cmd"}
GIT2_INCLUDE = re.compile(r'^\s*#\s*include\s+<git2[./]', re.M)


DEFINITION = re.compile(r'^(?!static)[A-Za-z_][\w \*]*?\b([A-Za-z_]\w*)\s*\([^;{]*\)\s*\{', re.M)
COMMENT = re.compile(r'/\*.*?\*/', re.S)


def circles(src, files):
    """The sets of .c files that call each other round (Tarjan's SCCs)."""
    text = {}
    for layer, name in files:
        if name.endswith(".c"):
            with open(os.path.join(src, layer, name), encoding="utf-8") as f:
                text[layer + "/" + name] = COMMENT.sub("", f.read())
    where = {}
    for f, t in text.items():
        for m in DEFINITION.finditer(t):
            where.setdefault(m.group(1), set()).add(f)
    calls = {f: set() for f in text}
    words = {f: set(re.findall(r"\b[A-Za-z_]\w*\b", t)) for f, t in text.items()}
    for fn, defined in where.items():
        if len(defined) != 1:
            continue
        (home,) = defined
        for f in text:
            if f != home and fn in words[f]:
                calls[f].add(home)
    index, low, stack, on, found = {}, {}, [], set(), []

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in sorted(calls[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = []
            while True:
                w = stack.pop()
                on.discard(w)
                group.append(w)
                if w == v:
                    break
            if len(group) > 1:
                found.append(sorted(group))

    sys.setrecursionlimit(max(1000, 4 * len(text)))
    for v in sorted(text):
        if v not in index:
            visit(v)
    return found


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
            print("layers: src/%s/%s includes %s (src/%s/): %s may include only %s"
                  % (layer, name, header, to, layer,
                     ", ".join(sorted(LOWER[layer])) or "its own folder"))
            bad += 1
    for group in circles(src, files):
        print("layers: a circle of calls: %s" % " -> ".join("src/" + f for f in group))
        bad += 1
    if bad == 0:
        print("layers: %d files, every include keeps the layers, no circle of calls" % len(files))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
