#!/usr/bin/env python3
"""Re-run `git abbrev verify --range=HEAD` on mirrors and score its errors
against judgments.tsv.  Usage:
  judge.py [--judgments FILE] [--sample N] [--seed S] [--threshold T] BINARY MIRROR...
A MIRROR is a git dir (e.g. .../DPDK+dpdk/repo, or dpdk.git); its name is the
directory above 'repo' (DPDK+dpdk), else the directory's own without .git.  Deterministic: the sample of a repository
with more than T errors (default 150) is `sort | shuf -n N --random-source=<(yes S)`
over the finding keys.  Writes nothing but the cache (GIT_ABBREV_CACHE_DIR,
default a directory under the system's temporary directory) and the
out/ JSON (--outdir)."""
import argparse, json, os, subprocess, sys, time, collections
ap = argparse.ArgumentParser()
ap.add_argument('--judgments', default=os.path.join(os.path.dirname(os.path.abspath(__file__)), 'judgments.tsv'))
ap.add_argument('--sample', type=int, default=100)
ap.add_argument('--seed', default='2026')
ap.add_argument('--threshold', type=int, default=150)
ap.add_argument('--outdir', default=None)
ap.add_argument('binary'); ap.add_argument('mirrors', nargs='+')
a = ap.parse_args()
import tempfile
os.environ.setdefault('GIT_ABBREV_CACHE_DIR', os.path.join(tempfile.gettempdir(), 'git-abbrev-precision-cache'))
outdir = a.outdir or os.path.join(tempfile.gettempdir(), 'git-abbrev-precision-out')
os.makedirs(outdir, exist_ok=True)

def name_of(m):
    m = os.path.abspath(m).rstrip('/')
    return os.path.basename(os.path.dirname(m)) if os.path.basename(m) == 'repo' else os.path.basename(m).removesuffix('.git')

J = {}          # (repo, commit, key) -> row
for ln in open(a.judgments, encoding='utf-8'):
    if not ln.strip() or ln.startswith('#'): continue
    f = ln.rstrip('\n').split('\t')
    if len(f) < 6: continue
    J[(f[0], f[1], f[2])] = f
def loose(k):   # key without the L<line> part
    return k.rsplit(' L', 1)[0]
J2 = collections.defaultdict(list)
for (r, c, k), f in J.items(): J2[(r, c, loose(k))].append(f)

def body(mirror, c, cache={}):
    if (mirror, c) not in cache:
        raw = subprocess.run(['git', '-C', mirror, 'cat-file', 'commit', c], capture_output=True).stdout
        cache[(mirror, c)] = raw.split(b'\n\n', 1)[1] if b'\n\n' in raw else b''
    return cache[(mirror, c)]

rows, unjudged, stale = [], [], []
for m in a.mirrors:
    repo = name_of(m)
    t0 = time.time()
    p = subprocess.run(['nice', '-n', '10', a.binary, '-C', m, 'verify', '--range=HEAD', '--format=json'],
                       capture_output=True)
    dt = time.time() - t0
    if p.returncode not in (0, 1):
        print(f'{repo}: verify exited {p.returncode}: {p.stderr.decode()[:300]}', file=sys.stderr)
        continue
    open(os.path.join(outdir, repo + '.json'), 'wb').write(p.stdout)
    d = json.loads(p.stdout)
    errs = []
    for f in d['findings']:
        if f['severity'] != 'error': continue
        b = body(m, f['commit']); s = f['span']
        text = b[s['start']:s['end']].decode('utf-8', 'replace')
        wid = f['given_id'] or text.split('\n')[0][:60]
        errs.append((f['commit'], '%s %s L%d' % (wid, f['kind'], f['line']), text, f))
    errs.sort(key=lambda e: (e[0], e[1]))
    keys = ['%s\t%s' % (c, k) for c, k, _, _ in errs]
    if len(errs) > a.threshold:
        rnd = subprocess.run(['bash', '-c', f'printf "%s" "$KEYS" | sort | shuf -n {a.sample} --random-source=<(yes {a.seed})'],
                             env=dict(os.environ, KEYS='\n'.join(keys) + '\n', LC_ALL='C'), capture_output=True, text=True).stdout.split('\n')
        pick = set(x for x in rnd if x)
        sample = [e for e in errs if '%s\t%s' % (e[0], e[1]) in pick]
    else:
        sample = errs
    real = false = 0; classes = collections.Counter()
    for c, k, text, f in sample:
        j = J.get((repo, c, k))
        if j is None:
            cand = J2.get((repo, c, loose(k)), [])
            j = cand[0] if len(cand) == 1 else None
        if j is None:
            unjudged.append((repo, c, k, text.replace('\n', '⏎'), f['message'])); continue
        if j[3] == 'real': real += 1
        elif j[3] == 'false': false += 1; classes[j[4]] += 1
    judged = real + false
    rows.append((repo, d['inputs'], len(errs), len(sample), real, false,
                 '%.0f%%' % (100.0 * real / judged) if judged else '-', len(sample) - judged, dt, classes))

print('| repository | commits | errors | sample | real | false | precision | unjudged | verify time |')
print('|---|--:|--:|--:|--:|--:|--:|--:|--:|')
T = [0] * 6
for r in rows:
    print('| %s | %d | %d | %d | %d | %d | %s | %d | %.1f s |' % r[:9])
    for i, v in enumerate(r[1:6]): T[i] += v if isinstance(v, int) else 0
    T[5] += r[7]
if len(rows) > 1:
    tot = T[3] + T[4]
    print('| **all** | %d | %d | %d | %d | %d | %s | %d | |' % (T[0], T[1], T[2], T[3], T[4], '%.0f%%' % (100.0 * T[3] / tot) if tot else '-', T[5]))
print()
print('false alarms by class:')
allc = collections.Counter()
for r in rows: allc.update(r[9])
for c, n in allc.most_common(): print('  %-28s %d  (%s)' % (c, n, ', '.join('%s %d' % (r[0], r[9][c]) for r in rows if r[9][c])))
print()
print('findings with no judgment yet (%d):' % len(unjudged))
for u in unjudged: print('\t'.join(u))
