#!/usr/bin/env python3
"""gc_race.py - was a walk taken during a prune one state of the repository?

  gc_race.py watch OBJDIR OUTFILE
      Watch every fan-out directory OBJDIR/xx with inotify (Linux) and
      write one line per loose object removed or moved away, its hex ID,
      in the order the kernel saw them, to OUTFILE; print "ready" on
      stdout once the watches are in place; stop on SIGTERM.  Exit status
      77 where there is no inotify.
  gc_race.py check BEFORE AFTER REMOVED DUMP...
      BEFORE, AFTER and each DUMP are walk_dump listings ("<hex> <type>"),
      REMOVED what `watch` wrote.  A walk that gives one state of the
      repository has every object of AFTER, nothing outside BEFORE, and
      of the objects removed it lacks exactly the first k removed, for
      some k: never one removed later without every one removed before.
      Prints one line per DUMP, in order: "DUMP ok before", "DUMP ok
      after", "DUMP ok between <k>", or "DUMP bad <reason>" for a walk of
      no state; exit status 1 when any DUMP is bad.

tests/t-gc-race.sh runs walks against `git prune` and `git gc`: a walk
that exits 0 must give one state.  A count that is neither the state
before nor the state after is then still a state the repository was in,
when the prune was held up (a loaded machine, a slow disk) for longer
than the walker's quiet rule: only a torn count is wrong.
"""
import ctypes
import ctypes.util
import os
import signal
import struct
import sys

IN_DELETE = 0x200
IN_MOVED_FROM = 0x40
IN_Q_OVERFLOW = 0x4000
HEX = set('0123456789abcdef')


def watch(objdir, outfile):
    libc = ctypes.CDLL(ctypes.util.find_library('c') or 'libc.so.6', use_errno=True)
    if not hasattr(libc, 'inotify_init'):
        sys.exit(77)
    fd = libc.inotify_init()
    if fd < 0:
        sys.exit(77)
    dirs = {}
    for name in sorted(os.listdir(objdir)):
        if len(name) == 2 and set(name) <= HEX:
            wd = libc.inotify_add_watch(fd, os.path.join(objdir, name).encode(),
                                        IN_DELETE | IN_MOVED_FROM)
            if wd < 0:
                sys.exit('gc_race: cannot watch %s/%s' % (objdir, name))
            dirs[wd] = name
    signal.signal(signal.SIGTERM, lambda *a: sys.exit(0))
    with open(outfile, 'w') as out:
        print('ready', flush=True)
        while True:
            buf = os.read(fd, 65536)
            at = 0
            while at < len(buf):
                wd, mask, _, size = struct.unpack_from('iIII', buf, at)
                name = buf[at + 16:at + 16 + size].rstrip(b'\0').decode()
                at += 16 + size
                if mask & IN_Q_OVERFLOW:
                    out.write('overflow\n')
                elif wd in dirs and len(name) >= 38 and set(name) <= HEX:
                    # (an event without a name is the directory's own)
                    out.write(dirs[wd] + name + '\n')
            out.flush()


def ids(path):
    with open(path) as f:
        return {line.split()[0] for line in f if line.strip()}


class NoState(Exception):
    pass


def verdict(before, after, removed, order, dump):
    """The state the walk `dump` gives: "before", "after" or "between <k>"."""
    if 'overflow' in removed:
        raise NoState('the inotify queue overflowed')
    if not after <= dump:
        raise NoState('%d objects of the state after are missing, e.g. %s'
                      % (len(after - dump), min(after - dump)))
    if not dump <= before:
        raise NoState('%d objects of neither state, e.g. %s' % (len(dump - before), min(dump - before)))
    missing = before - dump
    if not missing:
        return 'before'
    if missing == before - after:
        return 'after'
    never = missing - order.keys()
    if never:
        raise NoState('%s is missing but was never removed' % min(never))
    last = max(missing, key=order.get)
    for oid in removed[:order[last]]:
        if oid not in missing:
            raise NoState('torn: %s was removed after %s, but %s is counted and %s is not'
                          % (last, oid, oid, last))
    return 'between %d' % len(missing)


def check(before_path, after_path, removed_path, dump_paths):
    before, after = ids(before_path), ids(after_path)
    with open(removed_path) as f:
        removed = [line.strip() for line in f if line.strip()]
    order = {}
    for i, oid in enumerate(removed):
        order.setdefault(oid, i)
    bad = 0
    for path in dump_paths:
        try:
            print(path, 'ok', verdict(before, after, removed, order, ids(path)))
        except NoState as e:
            print(path, 'bad', e)
            bad = 1
    sys.exit(bad)


if __name__ == '__main__':
    if len(sys.argv) == 4 and sys.argv[1] == 'watch':
        watch(sys.argv[2], sys.argv[3])
    elif len(sys.argv) >= 6 and sys.argv[1] == 'check':
        check(*sys.argv[2:5], sys.argv[5:])
    else:
        sys.exit(__doc__)
