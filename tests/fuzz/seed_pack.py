#!/usr/bin/env python3
"""seed_pack.py - write the record-layout seeds of tests/fuzz/corpus-pack.

fuzz_pack.c builds object directories from records (tag byte: object
directory in the high nibble, file kind in the low one; 2-byte length;
bytes).  This script makes small real repositories with git and writes
one seed per shape the walker must handle: a pack with its .rev, two
packs, packs and loose objects, a bitmap, alternates (relative, through
a symlinked directory, absolute, missing, quoted, nested too deep, the
environment variable), and SHA-256.  Usage: seed_pack.py OUTDIR
"""
import os
import subprocess
import sys
import tempfile

# object directories, as fuzz_pack.c numbers them
D0, D1, D2, D3, D4, D5, D6 = range(7)
IDX_A, PACK_A, REV_A, IDX_B, PACK_B, REV_B, LOOSE, ALTERNATES, BITMAP_A, ENV = \
    0, 1, 2, 3, 4, 5, 6, 7, 8, 9
MIDX, MIDX_BITMAP, MIDX_REV = 10, 11, 12
# the names fuzz_pack.c gives packs A and B
PACK_NAMES = (b'pack-' + b'1' * 40, b'pack-' + b'2' * 40)

ENVIRON = dict(os.environ, GIT_AUTHOR_NAME='A U Thor', GIT_AUTHOR_EMAIL='a@example.com',
               GIT_COMMITTER_NAME='A U Thor', GIT_COMMITTER_EMAIL='a@example.com',
               GIT_AUTHOR_DATE='1700000000 +0000', GIT_COMMITTER_DATE='1700000000 +0000',
               GIT_CONFIG_NOSYSTEM='1', HOME='/nonexistent', TZ='UTC')
for k in ('GIT_DIR', 'GIT_OBJECT_DIRECTORY', 'GIT_ALTERNATE_OBJECT_DIRECTORIES'):
    ENVIRON.pop(k, None)


def git(repo, *args, stdin=None):
    return subprocess.run(('git', '-C', repo) + args, env=ENVIRON, input=stdin,
                          check=True, capture_output=True).stdout


def make_repo(path, commits, fmt='sha1'):
    """A repository of `commits` commits (a file each, one annotated tag)."""
    subprocess.run(('git', 'init', '-q', '--object-format=' + fmt, path), env=ENVIRON, check=True)
    git(path, 'config', 'pack.writeReverseIndex', 'true')
    for i in range(commits):
        with open(os.path.join(path, 'f%d' % (i % 3)), 'a') as f:
            f.write('line %d\n' % i)
        git(path, 'add', '.')
        git(path, 'commit', '-q', '-m', 'commit %d' % i)
    git(path, 'tag', '-a', '-m', 'a tag', 'v1')


def pack_files(repo):
    """(idx, pack, rev, bitmap) bytes of the repository's one pack."""
    pdir = os.path.join(repo, '.git/objects/pack')
    base = [f[:-4] for f in os.listdir(pdir) if f.endswith('.idx')]
    assert len(base) == 1, base
    out = []
    for ext in ('.idx', '.pack', '.rev', '.bitmap'):
        p = os.path.join(pdir, base[0] + ext)
        out.append(open(p, 'rb').read() if os.path.exists(p) else None)
    return out


def loose_objects(repo):
    """[(raw id, file bytes)] of the repository's loose objects."""
    odir = os.path.join(repo, '.git/objects')
    out = []
    for fan in sorted(os.listdir(odir)):
        if len(fan) != 2:
            continue
        for name in sorted(os.listdir(os.path.join(odir, fan))):
            out.append((bytes.fromhex(fan + name), open(os.path.join(odir, fan, name), 'rb').read()))
    return out


def rec(d, kind, data):
    if isinstance(data, str):
        data = data.encode()
    assert len(data) < 65536
    return bytes([d << 4 | kind]) + len(data).to_bytes(2, 'big') + data


def seed(flags, *records):
    return bytes([flags]) + b''.join(records)


def loose_recs(d, objs):
    return b''.join(rec(d, LOOSE, oid + body) for oid, body in objs)


def main(out):
    os.makedirs(out, exist_ok=True)
    seeds = {}
    with tempfile.TemporaryDirectory() as tmp:
        r = os.path.join(tmp, 'r')
        make_repo(r, 4)
        loose_first = loose_objects(r)
        git(r, 'repack', '-q', '-a', '-d')
        idx, pack, rev, _ = pack_files(r)
        # more history, loose: then a second pack of only the new objects
        for i in range(2):
            with open(os.path.join(r, 'g'), 'a') as f:
                f.write('more %d\n' % i)
            git(r, 'add', '.')
            git(r, 'commit', '-q', '-m', 'more %d' % i)
        loose_new = loose_objects(r)
        new_ids = b''.join(oid.hex().encode() + b'\n' for oid, _ in loose_new)
        two = os.path.join(tmp, 'two')
        os.makedirs(two)
        git(r, 'pack-objects', '-q', os.path.join(two, 'p'), stdin=new_ids)
        pb = [f for f in os.listdir(two) if f.endswith('.idx')][0][:-4]
        idx_b = open(os.path.join(two, pb + '.idx'), 'rb').read()
        pack_b = open(os.path.join(two, pb + '.pack'), 'rb').read()

        seeds['recs-pack-rev'] = seed(2, rec(D0, IDX_A, idx), rec(D0, PACK_A, pack),
                                      rec(D0, REV_A, rev))
        seeds['recs-two-packs'] = seed(2, rec(D0, IDX_A, idx), rec(D0, PACK_A, pack),
                                       rec(D0, REV_A, rev), rec(D0, IDX_B, idx_b),
                                       rec(D0, PACK_B, pack_b))
        # loose objects beside the packs, some of them in a pack as well
        seeds['recs-packs-loose'] = seed(2, rec(D0, IDX_A, idx), rec(D0, PACK_A, pack),
                                         loose_recs(D0, loose_new + loose_first[:3]))
        # alternates: relative, absolute ('%' is the temp dir), missing,
        # a comment, quoted; the alternate D1 is a symlinked directory whose
        # relative entry must be resolved from its real path (it names D2)
        seeds['recs-alternates'] = seed(
            2, rec(D0, ALTERNATES, '# comment\n../a1/objects\n%/n3/objects\nmissing/objects\n'
                   '"../n4/objects"\n'),
            rec(D1, ALTERNATES, '../../y/objs\n'),
            rec(D2, IDX_A, idx), rec(D2, PACK_A, pack), rec(D2, REV_A, rev),
            loose_recs(D1, loose_new[:2]), rec(D3, IDX_B, idx_b), rec(D3, PACK_B, pack_b),
            loose_recs(D0, loose_first[:1]), loose_recs(D4, loose_new[2:3]))
        # nested deeper than git's five: D0 -> D3 -> D4 -> D5 -> D6 -> D1 -> D2,
        # whose own alternates (back to D0) are ignored with a warning
        seeds['recs-alternates-deep'] = seed(
            2, rec(D0, ALTERNATES, '%/n3/objects\n'), rec(D3, ALTERNATES, '../../n4/objects\n'),
            rec(D4, ALTERNATES, '../../n5/objects\n'), rec(D5, ALTERNATES, '%/n6/objects\n'),
            rec(D6, ALTERNATES, '../../a1/objects\n'), rec(D1, ALTERNATES, '../../y/objs\n'),
            rec(D2, ALTERNATES, '../../../objects\n'),
            rec(D2, IDX_A, idx), rec(D2, PACK_A, pack), loose_recs(D6, loose_new[:1]))
        seeds['recs-env-alternates'] = seed(
            2, rec(0, ENV, '%/n3/objects:"%/n4/objects":%/missing'),
            rec(D3, IDX_A, idx), rec(D3, PACK_A, pack), rec(D3, REV_A, rev),
            loose_recs(D4, loose_new[:2]))

        b = os.path.join(tmp, 'b')
        make_repo(b, 3)
        git(b, 'repack', '-q', '-a', '-d', '-b')
        idx, pack, rev, bitmap = pack_files(b)
        assert bitmap
        seeds['recs-bitmap'] = seed(2, rec(D0, IDX_A, idx), rec(D0, PACK_A, pack),
                                    rec(D0, REV_A, rev), rec(D0, BITMAP_A, bitmap))

        # a multi-pack-index with a bitmap over two packs, the pack names
        # in its PNAM chunk those fuzz_pack.c writes (as long as git's)
        m = os.path.join(tmp, 'm')
        make_repo(m, 3)
        git(m, 'repack', '-q', '-a', '-d')
        for i in range(2):
            with open(os.path.join(m, 'h'), 'a') as f:
                f.write('later %d\n' % i)
            git(m, 'add', '.')
            git(m, 'commit', '-q', '-m', 'later %d' % i)
        git(m, 'repack', '-q', '-d')
        git(m, 'multi-pack-index', 'write', '--bitmap')
        pdir = os.path.join(m, '.git/objects/pack')
        names = sorted(f[:-4] for f in os.listdir(pdir) if f.endswith('.idx'))
        assert len(names) == 2, names
        midx = open(os.path.join(pdir, 'multi-pack-index'), 'rb').read()
        for real, fake in zip(names, PACK_NAMES):
            assert midx.count(real.encode()) == 1
            midx = midx.replace(real.encode(), fake)
        mbitmap = [f for f in os.listdir(pdir) if f.startswith('multi-pack-index-')
                   and f.endswith('.bitmap')]
        assert len(mbitmap) == 1, mbitmap
        recs = [rec(D0, MIDX, midx),
                rec(D0, MIDX_BITMAP, open(os.path.join(pdir, mbitmap[0]), 'rb').read())]
        for name, (ki, kp) in zip(names, ((IDX_A, PACK_A), (IDX_B, PACK_B))):
            recs.append(rec(D0, ki, open(os.path.join(pdir, name + '.idx'), 'rb').read()))
            recs.append(rec(D0, kp, open(os.path.join(pdir, name + '.pack'), 'rb').read()))
        seeds['recs-midx'] = seed(2, *recs)

        s = os.path.join(tmp, 's')
        make_repo(s, 3, 'sha256')
        loose = loose_objects(s)
        git(s, 'repack', '-q', '-a', '-d')
        idx, pack, rev, _ = pack_files(s)
        seeds['recs-sha256'] = seed(6, rec(D0, IDX_A, idx), rec(D0, PACK_A, pack),
                                    rec(D0, REV_A, rev), loose_recs(D0, loose[:2]))
    for name, data in seeds.items():
        with open(os.path.join(out, name), 'wb') as f:
            f.write(data)


if __name__ == '__main__':
    main(sys.argv[1])
