#!/usr/bin/env python3
# seed_subjects.py - write the seeds of the subject cache's fuzz target
# (tests/fuzz/corpus-subjects): small valid cache files, laid out as
# src/odb/subject_cache.c's opening comment says, for SHA-1 and SHA-256.
import struct
import sys
import zlib


def table(rawsz, rows, nobjects):
    """rows: (subject, pos, time); keys are folded, sorted by key then pos,
    then the entries' indexes in position order."""
    ents = sorted(((" ".join(s.split()), s, p, t) for s, p, t in rows),
                  key=lambda r: (r[0].encode(), r[2]))
    text = b""
    entries = b""
    for key, subj, pos, time in ents:
        koff = len(text)
        text += key.encode() + b"\0"
        soff = koff
        if subj != key:
            soff = len(text)
            text += subj.encode() + b"\0"
        entries += struct.pack("<IIIIq", koff, soff, pos, 0, time)
    order = sorted(range(len(ents)), key=lambda i: ents[i][2])
    entries += b"".join(struct.pack("<I", i) for i in order)
    head = b"GABSUBJ\n" + struct.pack("<II", 2, rawsz) + bytes([0xab] * rawsz).ljust(32, b"\0")
    head += struct.pack("<IIQ", nobjects, len(ents), len(text))
    body = head + entries + text
    return body + struct.pack("<I", zlib.crc32(body))


ROWS = [("typos", 1, 200), ("typos", 5, 300), ("fix  the\tparser", 2, 100),
        ("parser: speed up", 3, 400), ("Merge branch 'maint'", 7, 50), ("a", 9, 1)]
out = sys.argv[1]
with open(out + "/sha1-six", "wb") as f:
    f.write(table(20, ROWS, 12))
with open(out + "/sha256-six", "wb") as f:
    f.write(table(32, ROWS, 12))
with open(out + "/sha1-empty", "wb") as f:
    f.write(table(20, [], 0))
