#!/bin/sh
# t-history.sh - `git abbrev history` and `git abbrev model <repo>` against
# git's own listing.
#
# A generated repository holds commits with planted dates and planted
# collisions (gen_repo.py --scenario history), one of them unreachable.
# An independent replay in Python, from `git log --all --format='%H %ct'`
# plus the unreachable commits that `git cat-file --batch-all-objects`
# lists, must give the same first collision (time, commits then, pair)
# for every length; the projection is recomputed from the same dates
# (the samples, both least-squares fits, the dates and the safe lengths).
# `model <repo>` must count what git counts.  Bad options are usage
# errors: exit 2, a message on stderr, nothing on stdout.

. "$(dirname "$0")/setup.sh"

# json_check LABEL PYTHON ARGS...: run PYTHON with sys.argv[1:] = ARGS; it
# raises AssertionError to fail the check.
json_check() {
	label=$1 code=$2
	shift 2
	checks=$((checks + 1))
	if "$PYTHON3" - "$@" >"$tmp/py.out" 2>&1 <<PY
import json, math, sys, time
sys.path.insert(0, "$tests_dir")
def load(path):
    def no_const(c):
        raise ValueError("not JSON: " + c)
    with open(path) as f:
        return json.load(f, parse_constant=no_const)
$code
PY
	then
		:
	else
		fail "$label"
		show "$tmp/py.out"
	fi
}

# The oracle (commit dates from git, the replay and the projection redone):
# tests/history_oracle.py, imported by every check below.

check_history() {
	label=$1 json=$2 repo=$3
	shift 3
	json_check "$label" "
from history_oracle import *
d = load(sys.argv[1])
repo, reachable_only = sys.argv[2], sys.argv[3] == 'reachable'
times = commit_times(repo, reachable_only)
first, longest, sorted_times = replay(times)
assert d['commits'] == len(times), (d['commits'], len(times))
assert d['hash'] == {40: 'sha1', 64: 'sha256'}[len(next(iter(times)))], d['hash']
assert d['first_commit'] == sorted_times[0] and d['last_commit'] == sorted_times[-1]
want = [str(L) for L in range(4, longest + 1)]
assert list(d['lengths']) == want, (list(d['lengths']), want)
# lengths from 4: a history whose commits share fewer chars is unique from 4
assert d['unique_from'] == max(longest + 1, 4), d['unique_from']
for L in range(4, longest + 1):
    got = d['lengths'][str(L)]
    t, k, shared, newer = first[L]
    assert got['first_collision'] == t, (L, got, first[L])
    assert got['commits_then'] == k, (L, got, first[L])
    assert got['shared'] == shared, (L, got, first[L])
    older = got['pair'][0]
    assert got['pair'][1] == newer, (L, got, first[L])
    assert older in times and older != newer and lcp(older, newer) == shared, (L, got)
    assert (times[older], older) < (times[newer], newer), (L, got)
    e = math.sqrt(math.pi / 2 * 16 ** L) + 2 / 3
    assert abs(got['expected_commits'] - e) <= 1e-12 * e, (L, got)
    assert abs(got['p_by_then'] - p_collision(k, L)) <= 1e-9 * p_collision(k, L), (L, got)
    assert got['date'] == time.strftime('%Y-%m-%dT%H:%M:%SZ', time.gmtime(t)), got
assert list(d['not_yet'])[0] == str(max(longest + 1, 4))
" "$json" "$repo" "$@"
}

gen_repo "$tmp/h" history
repo=$tmp/h

say "history --format=json: the replay against git's own dates"
expect_exit 0 "$GIT_ABBREV" history --format=json --no-progress "$repo"
cp "$out" "$tmp/hist.json"
checks=$((checks + 1))
[ ! -s "$err" ] || { fail "json run wrote to stderr"; show "$err"; }
check_history "replay (all commits)" "$tmp/hist.json" "$repo" all

say "the planted pairs show up where they were planted"
json_check "planted" "
d = load(sys.argv[1])
g = load(sys.argv[2])
by_shared = {p['shared']: p for p in g['planted']}
def at(L):
    return d['lengths'][str(L)]
for L, p in ((9, by_shared[9]), (7, by_shared[7])):
    assert at(L)['first_collision'] == p['date'], (L, at(L), p)
    assert sorted(at(L)['pair']) == sorted(p['ids']), (L, at(L), p)
    # both carry the date: the larger ID is replayed second
    assert at(L)['pair'][1] == max(p['ids']), (L, at(L))
assert by_shared[7]['reachable'] == [True, False]
assert d['unique_from'] == 10, d['unique_from']
assert at(6)['first_collision'] <= by_shared[6]['date']
" "$tmp/hist.json" "$tmp/h.json"

say "history --reachable: only what git log --all lists"
expect_exit 0 "$GIT_ABBREV" history --format=json --reachable "$repo"
cp "$out" "$tmp/hr.json"
check_history "replay (reachable)" "$tmp/hr.json" "$repo" reachable
json_check "the unreachable planted commit is left out" "
d = load(sys.argv[1])
g = load(sys.argv[2])
gone = [p['ids'][1] for p in g['planted'] if p['reachable'] == [True, False]]
assert len(gone) == 1
assert all(gone[0] not in row['pair'] for row in d['lengths'].values()), d['lengths']
assert d['unique_from'] == 10
" "$tmp/hr.json" "$tmp/h.json"

say "the libgit2 walker gives the same history"
expect_exit 0 "$GIT_ABBREV" history --format=json --walker=libgit2 "$repo"
checks=$((checks + 1))
cmp -s "$out" "$tmp/hist.json" || fail "--walker=libgit2 differs from the pack walker"

say "a commit-graph gives the dates the commits hold"
cp -a "$repo" "$tmp/hg"
git -C "$tmp/hg" commit-graph write --reachable >/dev/null 2>&1
checks=$((checks + 1))
ls "$tmp/hg"/.git/objects/info/commit-graph "$tmp/hg"/objects/info/commit-graph >/dev/null 2>&1 ||
	[ -n "$(find "$tmp/hg" -name commit-graph)" ] || fail "git wrote no commit-graph"
expect_exit 0 "$GIT_ABBREV" history --format=json --no-progress "$tmp/hg"
json_check "the same history through the commit-graph (and libgit2 for the commit it lacks)" "
a = load(sys.argv[1])
b = load(sys.argv[2])
a.pop('repositories')
b.pop('repositories')
assert a == b, (a, b)
" "$tmp/hist.json" "$out"

say "the projection, recomputed from the same dates"
objects=$(git -C "$repo" cat-file --batch-all-objects --batch-check | wc -l | tr -d ' ')
proj_check() {
	label=$1 json=$2
	shift 2
	json_check "$label" "
from history_oracle import *
d = load(sys.argv[1])
objects = int(sys.argv[2])
window, kind, target, horizon = float(sys.argv[3]), sys.argv[4], float(sys.argv[5]), float(sys.argv[6])
times = sorted(commit_times('$repo').values())
want = projection(times, objects, window, kind, target, horizon)
p = d['projection']
assert d['objects'] == objects, (d['objects'], objects)
assert p['fit'] == want['fit'], (p['fit'], want['fit'])
assert p['window']['from'] == int(want['start']) and p['window']['to'] == want['end'], p['window']
assert p['window']['samples'] == 256
ea, eg, ee = want['fits']['exponential']
la, lg, le = want['fits']['linear']
f = p['fits']
assert abs(f['exponential']['rate_per_year'] - eg) <= 1e-9 * abs(eg), (f, eg)
assert abs(f['exponential']['rms_relative_error'] - ee) <= 1e-9 * ee, (f, ee)
assert abs(f['linear']['commits_per_year'] - lg) <= 1e-9 * abs(lg), (f, lg)
assert abs(f['linear']['rms_relative_error'] - le) <= 1e-9 * le, (f, le)
assert abs(p['objects_per_commit'] - want['ratio']) <= 1e-12 * want['ratio']
assert list(p['lengths']) == [str(L) for L in range(10, 17)], list(p['lengths'])
for (L, key), (cap, cy, cr, oy, orr) in want['when'].items():
    w = p['lengths'][str(L)][key]
    assert w['capacity'] == cap, (L, key, w, cap)
    assert abs(w['commits_year'] - cy) < 1e-6 and w['commits_reached'] == cr, (L, key, w, cy)
    assert abs(w['objects_year'] - oy) < 1e-6 and w['objects_reached'] == orr, (L, key, w, oy)
assert p['target_p'] == target and p['horizon_years'] == horizon
o = p['other_fit']
assert o['fit'] == want['other'][0], (o, want['other'])
assert abs(o['commits_year'] - want['other'][1]) < 1e-6, (o, want['other'])
assert abs(o['objects_year'] - want['other'][2]) < 1e-6, (o, want['other'])
assert (p['safe_length']['commit'], p['safe_length']['all']) == want['safe'], (p['safe_length'], want['safe'])
q = p['quote']
assert q.startswith('at the growth of the last '), q
assert '12-char commit IDs ' in q and '; all objects ' in q, q
assert str(int(math.floor(p['lengths']['12']['p50']['commits_year']))) in q, q
" "$json" "$objects" "$@"
}
proj_check "projection (defaults)" "$tmp/hist.json" 5 auto 0.01 10
expect_exit 0 "$GIT_ABBREV" history --format=json --fit=linear --window-years=2 \
	--target-p=0.5 --horizon-years=20 "$repo"
proj_check "projection (linear, 2 years, P <= 50%, 20 years)" "$out" 2 linear 0.5 20
expect_exit 0 "$GIT_ABBREV" history --format=json --fit exponential --window-years 3.5 \
	--target-p 1e-6 --horizon-years 0 "$repo"
proj_check "projection (exponential, 3.5 years, 1e-6, now)" "$out" 3.5 exponential 1e-6 0
expect_exit 0 "$GIT_ABBREV" history --format=json --no-projection "$repo"
json_check "--no-projection" "
d = load(sys.argv[1])
assert d['projection'] is None
" "$out"

say "text: the table, the projection and the quotable line"
expect_exit 0 "$GIT_ABBREV" history "$repo"
cp "$out" "$tmp/h.txt"
json_check "text matches the JSON" "
d = load(sys.argv[1])
text = open(sys.argv[2]).read()
# the path, then the counts beside it or (a long path) on the next line
assert text.startswith(sys.argv[3] + ':'), text[:200]
assert text[len(sys.argv[3]) + 1:].lstrip(' \n').startswith(
    '{:,} commits (sha1), committed 2005-04-07 .. '.format(d['commits'])), text[:200]
for L, row in d['lengths'].items():
    line = [l for l in text.splitlines() if l.startswith('%3s  ' % L)]
    assert line, ('no row', L)
    assert time.strftime('%Y-%m-%d', time.gmtime(row['first_collision'])) in line[0], line
    assert '{:,}'.format(row['commits_then']) in line[0], line
    assert row['pair'][0][:10] in line[0] and row['pair'][1][:10] in line[0], line
assert ' 10  not yet ' in text, text
# sentences wrap at 80 columns: compare them with the spaces folded
flat = ' '.join(text.split())
assert ' '.join(d['projection']['quote'].split()) + ' (with the ' in flat, d['projection']['quote']
assert 'safe until ' in text
" "$tmp/hist.json" "$tmp/h.txt" "$repo"

say "svg: the projection, both fits ending at the numbers the text prints"
expect_exit 0 "$GIT_ABBREV" history --format=svg "$repo"
cp "$out" "$tmp/h.svg"
checks=$((checks + 1))
"$PYTHON3" - "$tmp/h.txt" "$tmp/h.svg" "$tests_dir" <<'EOF' || fail "svg: the projection is not the text's"
import math, re, sys, xml.etree.ElementTree as ET
sys.path.insert(0, sys.argv[3])
from svgcheck import NS, tick_value  # noqa: E402
text = open(sys.argv[1]).read()
m = re.search(r"^commits in (\d+): ([\d,]+) by the (\w+) fit, ([\d,]+) by the (\w+) fit$", text, re.M)
assert m, "no 'commits in YEAR' line in the text"
year, want = m.group(1), {m.group(3): m.group(2), m.group(5): m.group(4)}
root = ET.parse(sys.argv[2]).getroot()
panel = [g for g in root.iter(NS + "g") if g.get("class") == "projection"]
assert len(panel) == 1, "no projection panel"
ticks = []
for ax in panel[0].iter(NS + "g"):
    if ax.get("class") == "axis y":
        for t in ax.findall(NS + "g"):
            ticks.append((math.log10(tick_value(t.find(NS + "text").text)),
                          float(t.find(NS + "line").get("y1"))))
(l0, y0), (l1, y1) = ticks[0], ticks[-1]
fits = {e.get("data-fit"): e for e in panel[0].iter(NS + "path") if "fit" in e.get("class").split()}
assert set(fits) == set(want), (sorted(fits), want)
starts = set()
for name, e in fits.items():
    assert e.get("data-end-year") == year, (name, e.get("data-end-year"), year)
    end = int(e.get("data-end-commits"))
    assert "{:,}".format(end) == want[name], (name, end, want[name])
    pts = [tuple(map(float, p.split())) for p in re.findall(r"[ML]([-\d.]+ [-\d.]+)", e.get("d"))]
    starts.add(pts[0])
    # the path ends at that count on the panel's log axis
    y = y0 + (y1 - y0) * (math.log10(end) - l0) / (l1 - l0)
    assert abs(pts[-1][1] - y) < 0.6, (name, pts[-1], y)
assert len(starts) == 1, "the fits do not start at the same point (now)"
spread = [e for e in panel[0].iter(NS + "path") if e.get("class") == "fit-spread"]
assert len(spread) == 1, "no spread between the fits"
labels = [e.text for e in panel[0].iter(NS + "text") if "fit-end" in e.get("class", "").split()]
assert sorted(labels) == sorted("%s (%s)" % (v, k) for k, v in want.items()), labels
EOF

say "two repositories: the union, each commit once"
gen_repo "$tmp/alt" alternates
expect_exit 0 "$GIT_ABBREV" history --format=json "$tmp/alt/upstream" "$tmp/alt/downstream"
json_check "union" "
from history_oracle import *
d = load(sys.argv[1])
t = commit_times(sys.argv[2])
t.update(commit_times(sys.argv[3]))
first, longest, _ = replay(t)
assert d['commits'] == len(t), (d['commits'], len(t))
assert d['unique_from'] == longest + 1
for L in range(4, longest + 1):
    assert d['lengths'][str(L)]['first_collision'] == first[L][0], L
    assert d['lengths'][str(L)]['pair'][1] == first[L][3], L
" "$out" "$tmp/alt/upstream" "$tmp/alt/downstream"

say "a history of days: no projection, and why, in every format"
a=$tmp/alt/upstream
why=$("$PYTHON3" - "$a" <<'PY'
import subprocess, sys, time
t = [int(x) for x in subprocess.run(["git", "-C", sys.argv[1], "log", "--all", "--format=%ct"],
                                    stdout=subprocess.PIPE, check=True).stdout.split()]
lo, hi = min(t), max(t)
assert hi - lo < 31556952, "the alternates scenario spans a year or more"
days = (hi - lo) // 86400
span = "less than a day" if days < 1 else "%d day%s" % (days, "" if days == 1 else "s")
day = lambda x: time.strftime("%Y-%m-%d", time.gmtime(x))
print("the history spans %s (%s .. %s), less than the year a growth is projected from"
      % (span, day(lo), day(hi)))
PY
) || die "no span from git log"
expect_exit 0 "$GIT_ABBREV" history --format=json "$a"
json_check "days: JSON" "
d = load(sys.argv[1])
assert d['projection'] is None, d['projection']
assert d['no_projection'] == sys.argv[2], d['no_projection']
" "$out" "$why"
for f in text markdown svg; do
	expect_exit 0 "$GIT_ABBREV" history --format=$f "$a"
	checks=$((checks + 1))
	# the sentence, however the format wraps it
	tr '\n' ' ' <"$out" | sed 's/<[^>]*>/ /g; s/  */ /g' >"$tmp/joined"
	grep -qiF "no projection: $why" "$tmp/joined" || { fail "days, $f: no '$why'"; show "$out"; }
	checks=$((checks + 1))
	grep -qi 'growth of the commit count\|exponential\|class="projection' "$out" &&
		{ fail "days, $f: a growth fitted to days"; show "$out"; }
done
expect_exit 0 "$GIT_ABBREV" history --format=json "$tmp/h"
json_check "years: a projection, no reason against it" "
d = load(sys.argv[1])
assert d['projection'] is not None and d['no_projection'] is None, d['no_projection']
" "$out"

say "small repositories: empty, one commit"
gen_repo "$tmp/empty" empty
expect_exit 0 "$GIT_ABBREV" history --format=json "$tmp/empty"
json_check "empty" "
d = load(sys.argv[1])
assert d['commits'] == 0 and d['lengths'] == {} and d['projection'] is None, d
" "$out"
expect_exit 0 "$GIT_ABBREV" history "$tmp/empty"
checks=$((checks + 1))
grep -q 'fewer than two commits' "$out" || { fail "empty: no sentence"; show "$out"; }
gen_repo "$tmp/small" small
expect_exit 0 "$GIT_ABBREV" history --format=json "$tmp/small"
json_check "one commit" "
d = load(sys.argv[1])
assert d['commits'] == 1 and d['lengths'] == {} and d['unique_from'] == 4, d
assert d['projection'] is None, d['projection']
" "$out"
# one commit is "1 commit", in text, Markdown and the chart's title
for f in text markdown svg; do
	expect_exit 0 "$GIT_ABBREV" history --format=$f "$tmp/small"
	checks=$((checks + 1))
	grep -q '\(^\|[^0-9,]\)1 commit (sha1)' "$out" && ! grep -q '\(^\|[^0-9,]\)1 commits' "$out" ||
		{ fail "one commit, $f: not '1 commit'"; show "$out"; }
done

say "SHA-256: libgit2 cannot read the commits, the own reader dates them: the same replay"
if git init -q --object-format=sha256 "$tmp/probe256" 2>/dev/null; then
	gen_repo "$tmp/s256" sha256
	expect_exit 0 "$GIT_ABBREV" history --format=json "$tmp/s256"
	checks=$((checks + 1))
	[ ! -s "$err" ] || { fail "sha256: stderr is not empty"; show "$err"; }
	sha1_repo=$repo
	check_history "sha256 replay" "$out" "$tmp/s256" all
	repo=$sha1_repo
fi

say "model <repo>: n from the repository's sets, equal to git's counts"
commits=$(git -C "$repo" cat-file --batch-all-objects --batch-check='%(objecttype)' |
	grep -c '^commit$')
expect_exit 0 "$GIT_ABBREV" model --format=json "$repo"
json_check "model <repo>" "
d = load(sys.argv[1])
assert list(d) == ['schema_version', 'sets'], list(d)
assert list(d['sets']) == ['all', 'commit'], list(d['sets'])
assert d['sets']['all']['objects'] == int(sys.argv[2]), (d['sets']['all']['objects'], sys.argv[2])
assert d['sets']['commit']['objects'] == int(sys.argv[3]), (d['sets']['commit']['objects'], sys.argv[3])
assert list(d['sets']['all']['lengths'])[0] == '4'
" "$out" "$objects" "$commits"
reachable_commits=$(git -C "$repo" rev-list --all | wc -l | tr -d ' ')
expect_exit 0 "$GIT_ABBREV" model --format=json --reachable "$repo"
json_check "model --reachable <repo>" "
d = load(sys.argv[1])
assert d['sets']['commit']['objects'] == int(sys.argv[2]), (d['sets']['commit'], sys.argv[2])
" "$out" "$reachable_commits"
expect_exit 0 "$GIT_ABBREV" model "$repo"
checks=$((checks + 1))
grep -q "^commits: $commits\$" "$out" || { fail "model text: no commits table"; show "$out"; }
# no counts and no repository: the repository you stand in, as every other command
cp "$out" "$tmp/model-repo.txt"
expect_exit 0 -C "$repo" "$GIT_ABBREV" model
checks=$((checks + 1))
cmp -s "$out" "$tmp/model-repo.txt" || { fail "model in the repository: not model <repo>"; show "$out"; }
expect_exit 0 "$GIT_ABBREV" model -C "$repo" --format=json
checks=$((checks + 1))
python3 -c 'import json, sys; d = json.load(open(sys.argv[1])); assert d["sets"]["commit"]["objects"] == int(sys.argv[2])' \
	"$out" "$commits" || { fail "model -C <repo>: not the repository's commits"; show "$out"; }
mkdir "$tmp/notrepo.model"
GIT_CEILING_DIRECTORIES=$tmp expect_exit 3 -C "$tmp/notrepo.model" "$GIT_ABBREV" model
checks=$((checks + 1))
grep -qx "git-abbrev: not a git repository (or any of the parent directories): $tmp/notrepo.model" "$err" ||
	{ fail "model outside a repository: not git's words"; show "$err"; }
expect_exit 3+ "$GIT_ABBREV" model "$tmp/nonexistent"
checks=$((checks + 1))
one_line "$err" || { fail "model <bad repo>: not one line on stderr"; show "$err"; }

say "usage errors: exit 2, message on stderr, nothing on stdout"
for args in "--target-p=0" "--target-p=1" "--target-p=abc" "--target-p=" \
	"--horizon-years=-1" "--horizon-years=1001" "--window-years=0" \
	"--window-years=x" "--fit=cubic" "--fit" "--format=classic" "--bogus"; do
	# shellcheck disable=SC2086
	expect_exit 2 "$GIT_ABBREV" history $args "$repo"
	[ "$rc" -eq 2 ] || continue
	checks=$((checks + 1))
	[ -s "$err" ] || fail "history $args: no message on stderr"
	checks=$((checks + 1))
	[ ! -s "$out" ] || { fail "history $args: stdout is not empty"; show "$out"; }
done
expect_exit 2 "$GIT_ABBREV" model --objects=10 "$repo"
expect_exit 129 "$GIT_ABBREV" history --help
checks=$((checks + 1))
grep -q 'usage: git abbrev history' "$out" || fail "history --help: no usage on stdout"

finish
