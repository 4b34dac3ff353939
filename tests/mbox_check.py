#!/usr/bin/env python3
"""mbox_check.py - the mail of t-verify-mbox.sh: made as a mailer sends
it, and verify's findings on it against git's own commit messages.

    python3 mbox_check.py mailer FP.mbox SERIES.mbox U3 U5 U6
    python3 mbox_check.py series DIR MBOX P1S P2S "U3 U4 U5"
    python3 mbox_check.py subject MBOX.json MESSAGE-ID
    python3 mbox_check.py crlf OUT.json C1.json C2.json
    python3 mbox_check.py alone OUT.json MESSAGE-ID ID

mailer: `git format-patch --stdout --thread --pretty=mboxrd`'s three
patches (FP.mbox) as a mailer sends them, to SERIES.mbox: a reference U3
below patch 1's --- line, patch 2 quoted-printable and patch 3 base64,
then a reply to patch 2 (multipart/alternative) quoting U5 and citing U6.

series: verify's JSON of the whole mbox (DIR/mbox.json) against its JSON
of each message as `git mailinfo` made it (DIR/o1.json..o4.json), message
by message, named by the Message-IDs DIR/id1..id4 that grep read from the
file: the same findings (a later patch citing an earlier one of the series
by P1S or P2S is a note in the mbox), each on an input line of its own
message that holds the reference, and none for the IDs never checked.

subject: the findings of MESSAGE-ID (patch 2) name it by its subject, the
RFC 2047 one decoded.
crlf: the two messages of crlf.mbox against git mailinfo's (C1, C2).
alone: one message alone, each finding named by its MESSAGE-ID, ID among them.
Exits 1 (with what differs) when they do not agree.
"""
import base64
import json
import quopri
import re
import sys


def mailer(src, dst, u3, u5, u6):
    data = open(src, "rb").read()
    msgs = re.split(rb"(?m)^(?=From [0-9a-f]{40} )", data)
    msgs = [m for m in msgs if m]
    assert len(msgs) == 3, len(msgs)
    def split(m):
        head, body = m.split(b"\n\n", 1)
        return head, body
    # patch 1: a note below the --- line (not the commit message)
    h, b = split(msgs[0])
    b = b.replace(b"\n---\n", b"\n---\nFixes: %s (\"below the cut\")\n" % u3.encode(), 1)
    msgs[0] = h + b"\n\n" + b
    # patch 2: quoted-printable; patch 3: base64
    for i, enc in ((1, b"quoted-printable"), (2, b"base64")):
        h, b = split(msgs[i])
        h = re.sub(rb"(?m)^Content-Transfer-Encoding: .*$", b"Content-Transfer-Encoding: " + enc, h)
        if b"Content-Transfer-Encoding" not in h:
            h += b"\nMIME-Version: 1.0\nContent-Type: text/plain; charset=UTF-8\nContent-Transfer-Encoding: " + enc
        b = quopri.encodestring(b) if i == 1 else base64.encodebytes(b)
        msgs[i] = h + b"\n\n" + b
    mid2 = re.search(rb"(?mi)^Message-ID: <([^>]*)>", msgs[1]).group(1)
    subj2 = re.search(rb"(?m)^Subject: (.*)$", msgs[1]).group(1)
    reply = (b"From mboxrd@z Thu Jan  1 00:00:00 1970\n"
             b"Message-ID: <reply.1@example.com>\n"
             b"In-Reply-To: <" + mid2 + b">\n"
             b"From: R E Viewer <reviewer@example.com>\n"
             b"Subject: Re: " + subj2 + b"\n"
             b"MIME-Version: 1.0\n"
             b"Content-Type: multipart/alternative; boundary=\"b1\"\n\n"
             b"--b1\nContent-Type: text/plain; charset=utf-8\n\n"
             b"> Fixes: " + u5.encode() + b" (\"quoted\")\n\n"
             b"Fixes: " + u6.encode() + b" (\"in a reply\")\n\n"
             b"--b1--\n")
    out = b""
    for m in msgs + [reply]:
        if out and not out.endswith(b"\n\n"):
            out += b"\n" if out.endswith(b"\n") else b"\n\n"
        out += m
    open(dst, "wb").write(out)


def series(tmp, mbox, p1s, p2s, never):
    never = never.split()
    d = json.load(open(tmp + "/mbox.json"))
    f = d["findings"]
    raw = open(mbox, "rb").read().decode("utf-8", "replace").split("\n")
    ids = [open("%s/id%d" % (tmp, i)).read().strip() for i in range(1, 5)]
    # the input lines of each message (From line to the next)
    starts = [i + 1 for i, l in enumerate(raw) if re.match(r"From ([0-9a-f]{40}|mboxrd@z) ", l)]
    bounds = list(zip(starts, starts[1:] + [len(raw) + 1]))
    assert len(bounds) == 4, bounds
    errs = []
    for i in range(4):
        o = json.load(open("%s/o%d.json" % (tmp, i + 1)))["findings"]
        mine = [x for x in f if x["message_id"] == ids[i]]
        want = sorted((x["given_id"], x["kind"]) for x in o)
        got = sorted((x["given_id"], x["kind"]) for x in mine)
        # a later patch citing an earlier one: unknown here, a note in the mbox
        series = {2: p1s, 3: p2s}.get(i + 1)
        if series:
            want = [w for w in want if not (w[0] == series and w[1] in ("unknown-id", "not-here"))]
            notes = [g for g in got if g[1] == "in-series"]
            if notes != [(series, "in-series")]:
                errs.append("message %d: in-series notes %s, want one for %s" % (i + 1, notes, series))
            got = [g for g in got if g[1] != "in-series"]
        if got != want:
            errs.append("message %d (%s): mbox %s, git's message %s" % (i + 1, ids[i], got, want))
        for x in mine:
            lo, hi = bounds[i]
            if not lo <= x["line"] < hi:
                errs.append("message %d: line %d outside %s" % (i + 1, x["line"], bounds[i]))
            # the line holds the reference, but in base64 (message 3) and past a soft break
            if i != 2 and x["given_id"] not in raw[x["line"] - 1] and \
               x["given_id"] not in (raw[x["line"] - 1] + raw[x["line"]]).replace("=\n", ""):
                errs.append("message %d: line %d is %r, no %s" % (i + 1, x["line"], raw[x["line"] - 1], x["given_id"]))
        if not mine and i != 3:
            errs.append("message %d: no findings" % (i + 1))
        if mine and any(x["patch"] is None or "PATCH" not in x["patch"] for x in mine) and i != 3:
            errs.append("message %d: no patch subject" % (i + 1))
    # the planted IDs below ---, in the diff and in the quoted reply: never
    for x in f:
        if x["given_id"] in never:
            errs.append("%s was checked: %s" % (x["given_id"], x))
    if errs:
        print("\n".join(errs))
        sys.exit(1)


def subject(path, mid):
    f = json.load(open(path))["findings"]
    p = {x["patch"] for x in f if x["message_id"] == mid}
    assert p == {"[PATCH 2/3] café: add two"}, p


def crlf(out, c1, c2):
    f = json.load(open(out))["findings"]
    for i, (mid, want) in enumerate((("crlf.1@example.com", c1), ("crlf.2@example.com", c2))):
        o = json.load(open(want))["findings"]
        got = sorted((x["given_id"], x["kind"]) for x in f if x["message_id"] == mid)
        exp = sorted((x["given_id"], x["kind"]) for x in o)
        assert got == exp and got, (mid, got, exp)
        assert {x["patch"] for x in f if x["message_id"] == mid} == \
            {["[PATCH v2 1/2] crlf: the mail's subject, folded", "[PATCH v2 2/2] crlf: two"][i]}


def alone(path, mid, given):
    f = json.load(open(path))["findings"]
    assert f and all(x["message_id"] == mid for x in f), f
    assert {x["given_id"] for x in f} >= {given}, f


if __name__ == "__main__":
    {"mailer": mailer, "series": series, "subject": subject, "crlf": crlf,
     "alone": alone}[sys.argv[1]](*sys.argv[2:])
