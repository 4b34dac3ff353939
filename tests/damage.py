#!/usr/bin/env python3
"""damage.py - the damaged object stores of t-damage.sh, written byte by byte.

    python3 damage.py loose REPO SIZE
    python3 damage.py idx-offset IDX HEXID OFFSET
    python3 damage.py midx-offset MIDX HEXID OFFSET
    python3 damage.py loose-short FILE CUT
    python3 damage.py pack-checksum PACKDIR SUM
    python3 damage.py flip-merge TOOL PART REST FLIP
    python3 damage.py entries IDX
    python3 damage.py unsort IDX
    python3 damage.py deflate FILE TEXT [FILE TEXT]...
    python3 damage.py notes same|quiet|stamp KEY FILE...
    python3 damage.py notes other KEY FROM SUM COUNT FILE [SUM COUNT FILE]...

loose: a loose blob in REPO whose header says SIZE (the content is
"hello\\n" whatever it says); prints its ID.
idx-offset: the offset of HEXID in the pack index IDX (version 2) made
OFFSET.  midx-offset: the same in a multi-pack-index's OOFF chunk.
loose-short: the loose object FILE rewritten with a header that says CUT
bytes fewer than its content has (git: "corrupt loose object").
pack-checksum: the one pack of PACKDIR renamed to the checksum SUM (hex),
its .pack and .idx claiming it (the .idx's own checksum made right), its
other files removed (t-cache-trust.sh: two packs of one name).
flip-merge: 300 times, one random byte of the `ids --save` part PART
flipped into FLIP, and `TOOL merge FLIP REST` must refuse it: exit 3,
nothing on stdout, one line on stderr (t-merge-tamper.sh); exits 1 at
the first that is not refused.
entries: the entries of the pack of the index IDX (version 1 or 2, SHA-1),
in pack order, one "offset type header-length id" line each (type: the
entry header's raw type, 6 OFS_DELTA, 7 REF_DELTA).  unsort: in the
version 2 index IDX, the name after the first two names of one first byte
copied over the first (the names no longer sorted, the fan-out still
right).  deflate: each FILE written as TEXT (backslash escapes such as
\\x00 read) compressed by zlib, a loose object's form (t-walk-pack.sh).
notes: verify's per-pack notes files (pack-<hex>.notes: a header of 152
bytes and the pack's path, the build stamp, the notes (pairs of u32),
the rows and bytes of the messages' digests, an 8-byte seal and a
CRC-32) edited, their CRC made right, and but for quiet sealed again
with the cache's KEY file (HMAC-SHA256, its first 8 bytes): same, as they
are; quiet, every note "nothing to check, 0 lines" (KEY unused); stamp,
another build's stamp; other, FROM's notes written to each FILE claiming
the pack checksum SUM (hex) and object count COUNT (t-verify-notes.sh).
"""
import glob
import hashlib
import hmac
import os
import random
import struct
import subprocess
import sys
import zlib


def loose(repo, size):
    c = b"blob " + size.encode() + b"\0hello\n"
    h = hashlib.sha1(c).hexdigest()
    d = os.path.join(repo, ".git", "objects", h[:2])
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, h[2:]), "wb") as f:
        f.write(zlib.compress(c))
    print(h)


def loose_short(path, cut):
    raw = zlib.decompress(open(path, "rb").read())
    kind, rest = raw.split(b" ", 1)
    body = rest.split(b"\0", 1)[1]
    os.chmod(path, 0o644)
    with open(path, "wb") as f:
        f.write(zlib.compress(kind + b" %d\0" % (len(body) - int(cut)) + body))


def idx_offset(idx, hexid, off):
    hexid, off = bytes.fromhex(hexid), int(off)
    d = bytearray(open(idx, "rb").read())
    assert d[:4] == b"\377tOc" and struct.unpack(">I", d[4:8])[0] == 2
    n = struct.unpack(">I", d[8 + 1020:8 + 1024])[0]
    rs = len(hexid)
    names = 8 + 1024
    i = next(i for i in range(n) if d[names + i * rs:names + (i + 1) * rs] == hexid)
    o = names + n * rs + n * 4 + i * 4
    d[o:o + 4] = struct.pack(">I", off)
    open(idx, "wb").write(d)


def midx_offset(p, hexid, off):
    hexid, off = bytes.fromhex(hexid), int(off)
    d = bytearray(open(p, "rb").read())
    assert d[:4] == b"MIDX" and d[7] == 0
    rs = len(hexid)
    chunks = {}
    for i in range(d[6] + 1):
        row = 12 + 12 * i
        chunks[bytes(d[row:row + 4])] = struct.unpack(">Q", d[row + 4:row + 12])[0]
    oidl, ooff = chunks[b"OIDL"], chunks[b"OOFF"]
    n = struct.unpack(">I", d[chunks[b"OIDF"] + 1020:chunks[b"OIDF"] + 1024])[0]
    i = next(i for i in range(n) if d[oidl + i * rs:oidl + (i + 1) * rs] == hexid)
    d[ooff + 8 * i + 4:ooff + 8 * i + 8] = struct.pack(">I", off)
    open(p, "wb").write(d)


def pack_checksum(d, hexsum):
    want = bytes.fromhex(hexsum)
    pack = glob.glob(d + '/pack-*.pack')[0]
    idx = pack[:-5] + '.idx'
    for f in glob.glob(pack[:-5] + '.*'):
        if not f.endswith(('.pack', '.idx')):
            os.remove(f)
    p = open(pack, 'rb').read()
    open(pack, 'wb').write(p[:-len(want)] + want)
    i = open(idx, 'rb').read()
    i = i[:-2 * len(want)] + want
    i += hashlib.new('sha1' if len(want) == 20 else 'sha256', i).digest()
    open(idx, 'wb').write(i)
    new = d + '/pack-' + hexsum
    os.rename(pack, new + '.pack')
    os.rename(idx, new + '.idx')


def flip_merge(tool, part, rest, flip):
    data = open(part, "rb").read()
    rng = random.Random(25)
    for _ in range(300):
        b = bytearray(data)
        i = rng.randrange(len(b))
        b[i] ^= rng.randrange(1, 256)
        open(flip, "wb").write(bytes(b))
        p = subprocess.run([tool, "merge", flip, rest], capture_output=True)
        lines = p.stderr.decode("utf-8", "replace").splitlines()
        if p.returncode != 3 or p.stdout or len(lines) != 1:
            print("byte %d: exit %d, stdout %d bytes, stderr %r" % (i, p.returncode, len(p.stdout), lines))
            sys.exit(1)


def idx_entries(path, rawsz=20):
    """(offset, hex id) of each entry of the pack index PATH, v1 or v2."""
    d = open(path, "rb").read()
    if d[:4] == b"\377tOc":
        n = struct.unpack(">I", d[8 + 1020:8 + 1024])[0]
        names = 8 + 1024
        off32 = names + n * rawsz + n * 4
        off64 = off32 + n * 4
        out = []
        for i in range(n):
            o = struct.unpack(">I", d[off32 + 4 * i:off32 + 4 * i + 4])[0]
            if o & 0x80000000:
                k = o & 0x7fffffff
                o = struct.unpack(">Q", d[off64 + 8 * k:off64 + 8 * k + 8])[0]
            out.append((o, d[names + i * rawsz:names + (i + 1) * rawsz].hex()))
        return out
    n = struct.unpack(">I", d[1020:1024])[0]
    return [(struct.unpack(">I", d[1024 + i * 24:1028 + i * 24])[0],
             d[1028 + i * 24:1048 + i * 24].hex()) for i in range(n)]


def entries(idx):
    pack = open(idx[:-4] + ".pack", "rb").read()
    for off, oid in sorted(idx_entries(idx)):
        p = off
        c = pack[p]
        p += 1
        t = (c >> 4) & 7
        while c & 0x80:
            c = pack[p]
            p += 1
        print(off, t, p - off, oid)


def unsort(idx):
    d = bytearray(open(idx, "rb").read())
    n = struct.unpack(">I", d[8 + 1020:8 + 1024])[0]

    def at(i):
        return 8 + 1024 + 20 * i
    i = next(i for i in range(n - 1) if d[at(i)] == d[at(i + 1)])
    d[at(i):at(i) + 20] = d[at(i + 1):at(i + 1) + 20]
    open(idx, "wb").write(d)


def deflate(*pairs):
    for path, text in zip(pairs[::2], pairs[1::2]):
        with open(path, "wb") as f:
            f.write(zlib.compress(text.encode().decode("unicode_escape").encode("latin-1")))


def notes_edit(b, what, key, other=None, count=0):
    plen = struct.unpack_from('<I', b, 144)[0]
    at = 152 + plen
    slen = struct.unpack_from('<I', b, at)[0]
    pairs = at + 4 + (slen + 3) // 4 * 4
    n = struct.unpack_from('<I', b, 52)[0]
    if what == 'quiet':
        for i in range(n):
            struct.pack_into('<I', b, pairs + 8 * i + 4, 0)
    elif what == 'stamp':
        b[at + 4 + slen - 1] ^= 1
    elif what == 'other':
        b[16:16 + len(other)] = other
        struct.pack_into('<I', b, 48, count)
    if what != 'quiet':
        mac = hmac.new(key, bytes(b[:len(b) - 12]), hashlib.sha256).digest()[:8]
        b[len(b) - 12:len(b) - 4] = mac
    struct.pack_into('<I', b, len(b) - 4, zlib.crc32(bytes(b[:len(b) - 4])))
    return b


def notes(what, keyfile, *args):
    key = open(keyfile, 'rb').read() if what != 'quiet' else b''
    if what == 'other':
        src = open(args[0], 'rb').read()
        for i in range(1, len(args), 3):
            b = notes_edit(bytearray(src), what, key, bytes.fromhex(args[i]), int(args[i + 1]))
            open(args[i + 2], 'wb').write(b)
        return
    assert what in ('same', 'quiet', 'stamp'), what
    for path in args:
        b = notes_edit(bytearray(open(path, 'rb').read()), what, key)
        open(path, 'wb').write(b)


if __name__ == "__main__":
    {"loose": loose, "loose-short": loose_short, "idx-offset": idx_offset,
     "midx-offset": midx_offset, "pack-checksum": pack_checksum,
     "flip-merge": flip_merge, "entries": entries, "unsort": unsort,
     "deflate": deflate, "notes": notes}[sys.argv[1]](*sys.argv[2:])
