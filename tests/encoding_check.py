#!/usr/bin/env python3
"""encoding_check.py - strings that are not UTF-8 in the tool's JSON and
SVG, against the one rule (t-encoding.sh): valid UTF-8 is kept, any other
byte is the Latin-1 character of its value.

    python3 encoding_check.py CHECK FILE [REPO]

CHECK, on FILE (the tool's output) of REPO (the repository whose path has
the bytes \\377\\376 and whose commits have Latin-1 subjects):
    report-repositories  report's "repositories": REPO's path by the rule,
                         then the small repository's
    report-subjects      each commit of report's longest groups described
                         by its subject as `git cat-file commit` has it,
                         by the rule; the Latin-1 one among them
    check                check's "repositories" and its groups' descriptions
    history              history's "repositories"
    svg                  the chart names the repository (the path's last
                         part) in Latin-1 characters, never U+FFFD
An assertion that fails is a traceback and exit 1.
"""
import codecs
import json
import os
import subprocess
import sys
import xml.etree.ElementTree as E

codecs.register_error("latin1", lambda e: (e.object[e.start:e.start + 1].decode("latin-1"), e.start + 1))


def want(b):
    return b.decode("utf-8", "latin1")


def subject(repo, oid):
    raw = subprocess.run(["git", "-C", repo, "cat-file", "commit", oid],
                         stdout=subprocess.PIPE, check=True).stdout
    return want(raw.split(b"\n\n", 1)[1].split(b"\n", 1)[0])


def check_members(repo, members):
    assert members, "no members"
    for m in members:
        assert "description" in m, ("no description", m)
        assert m["description"].startswith('("' + subject(repo, m["id"]) + '")'), (m, subject(repo, m["id"]))


def main(kind, path, repo=None):
    if kind == "svg":
        text = "".join(E.parse(path).getroot().itertext())
        assert "bad-\u00ff\u00fe-repo" in text, text[:300]
        assert "bad-\u00ff\u00fe-dir" not in text, "the chart shows the path"
        assert "\ufffd" not in text
        return
    d = json.load(open(path, encoding="utf-8"))
    raw = os.fsencode(repo)
    if kind == "report-repositories":
        r = d["repositories"]
        assert len(r) == 2 and r[0] == want(raw) and r[1].endswith("/small"), r
    elif kind == "report-subjects":
        groups = d["types"]["commit"]["longest"]["groups"]
        assert len(groups) == 2, groups
        for g in groups:
            check_members(repo, g)
        assert any("caf\u00e9 na\u00efve" in m["description"] for g in groups for m in g), groups
    elif kind == "check":
        assert d["repositories"] == [want(raw)], d["repositories"]
        assert len(d["groups"]) == 2, d["groups"]
        for g in d["groups"]:
            check_members(repo, g["members"])
    elif kind == "history":
        assert d["repositories"] == [want(raw)], d["repositories"]
    else:
        sys.exit("encoding_check.py: no check %r" % kind)


if __name__ == "__main__":
    main(*sys.argv[1:])
