#!/usr/bin/env python3
"""midx_rev.py - give a multi-pack-index the layout of git 2.31-2.34.

    midx_rev.py PACKDIR
    midx_rev.py --swap REVFILE

git 2.35 and later keep a multi-pack-index's reverse index in its RIDX
chunk; git 2.31-2.34 wrote it beside the index instead, as
multi-pack-index-<checksum>.rev ("RIDX", version 1, the hash's number,
the entries, the index's checksum, the file's own).  This rewrites
PACKDIR/multi-pack-index without its RIDX chunk (the other chunks and the
trailing checksum kept, so the bitmap's name and header still fit) and
writes that .rev file, for tests/t-midx.sh (git 2.39 here writes only the
chunk).  SHA-1 only.  With --swap, swap the first two entries of a .rev
file instead: a reverse index out of pack order.
"""
import hashlib
import os
import struct
import sys

RAWSZ = 20


def main(pdir):
    path = os.path.join(pdir, 'multi-pack-index')
    data = open(path, 'rb').read()
    nchunks = data[6]
    rows = [struct.unpack('>4sQ', data[12 + 12 * i:24 + 12 * i]) for i in range(nchunks + 1)]
    chunks = [(rows[i][0], data[rows[i][1]:rows[i + 1][1]]) for i in range(nchunks)]
    ridx = [body for name, body in chunks if name == b'RIDX']
    if len(ridx) != 1:
        sys.exit('midx_rev.py: %s has no RIDX chunk' % path)
    kept = [(name, body) for name, body in chunks if name != b'RIDX']
    checksum = data[-RAWSZ:]
    at = 12 + 12 * (len(kept) + 1)
    table = b''
    for name, body in kept:
        table += struct.pack('>4sQ', name, at)
        at += len(body)
    table += struct.pack('>4sQ', b'\0\0\0\0', at)
    header = data[:6] + bytes([len(kept)]) + data[7:12]
    out = header + table + b''.join(body for _, body in kept) + checksum
    rev = b'RIDX' + struct.pack('>II', 1, 1) + ridx[0] + checksum
    rev += hashlib.sha1(rev).digest()
    os.chmod(path, 0o644)
    with open(path, 'wb') as f:
        f.write(out)
    with open(os.path.join(pdir, 'multi-pack-index-%s.rev' % checksum.hex()), 'wb') as f:
        f.write(rev)


def swap(path):
    d = bytearray(open(path, 'rb').read())
    d[12:16], d[16:20] = d[16:20], d[12:16]
    with open(path, 'wb') as f:
        f.write(d)


if __name__ == '__main__':
    if sys.argv[1] == '--swap':
        swap(sys.argv[2])
    else:
        main(sys.argv[1])
