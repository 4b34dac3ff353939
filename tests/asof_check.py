#!/usr/bin/env python3
"""asof_check.py - verify --range's notes on IDs unique when written and
ambiguous now, against git's view (t-verify-asof.sh).

    python3 asof_check.py OUT CITING NOBJ P6 LATER CITED P6 LATER CITED

OUT is `verify --range --format=json`; CITING the commit that quotes the
two 6-char IDs; NOBJ the objects git lists (`git cat-file
--batch-all-objects`); then for each quoted ID (main's, side's) the
prefix, the later commit that shares it and the commit it named when
written.  The citing commit has exactly two notes, one per ID, each an
"ambiguous-later" note naming the later commit, the shared length, and
the chance of random IDs sharing 6 chars among NOBJ (tests/birthday.py).
Prints the JSON and exits 1 when anything differs.
"""
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import birthday  # noqa: E402


def main(a):
    out, citing, nobj = a[1], a[2], int(a[3])
    d = json.load(open(out))
    want = {a[4]: (a[5], a[6]), a[7]: (a[8], a[9])}
    p_want = birthday.p_collision(nobj, 6)
    notes = [f for f in d["findings"] if f["commit"] == citing]
    ok = d["errors"] == 0 and d["warnings"] == 0 and d["notes"] == 2 and len(notes) == 2
    for f in notes:
        later, cited = want.get(f["given_id"], (None, None))
        at = f["as_of"] or {}
        ok = ok and f["kind"] == "ambiguous-later" and f["severity"] == "note" \
            and f["resolved_id"] == cited and f["suggestion"] is None \
            and at.get("unique_when_written") is True and at.get("ambiguous_now") is True \
            and [c["id"] for c in at.get("later", [])] == [later] \
            and at.get("shared_length") == len(os.path.commonprefix([later, cited])) \
            and abs(at.get("p_random", 0) - p_want) <= 1e-9 * p_want \
            and at.get("improbable") is (p_want < 1e-4) \
            and later[:7] in f["message"] and "possibly crafted" in f["message"]
    if not ok:
        print(json.dumps(d, indent=1))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
