#!/usr/bin/env python3
"""jget.py - one value of a JSON file, for the test scripts (jget in setup.sh).

    python3 jget.py FILE EXPR

FILE is read as UTF-8 JSON ('-': stdin) into `d`; EXPR is a Python
expression over it, printed as print() prints it, e.g.

    jget "$out" 'd["types"]["commit"]["objects"]'
    jget "$out" 'd["reachable"]["refs"] == ["HEAD", "refs/heads/*"]'   # True
    jget "$repo.json" 'words(planted("commit-commit")["ids"])'

with two helpers: planted(KIND), the entry of gen_repo.py's "planted" list
of that kind, and words(V), a list as its items separated by spaces (for
the shell), anything else as str().  A missing key or a file that is not
JSON: a traceback and exit 1, so `x=$(jget ...)` stops a script (set -e).
"""
import json
import sys


def main():
    path, expr = sys.argv[1], sys.argv[2]
    if path == "-":
        d = json.load(sys.stdin)
    else:
        with open(path, encoding="utf-8") as f:
            d = json.load(f)

    def planted(kind):
        return [x for x in d["planted"] if x["kind"] == kind][0]

    def words(v):
        return " ".join(str(x) for x in v) if isinstance(v, list) else str(v)

    print(eval(expr, {"d": d, "planted": planted, "words": words}))


if __name__ == "__main__":
    main()
