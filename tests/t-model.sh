#!/bin/sh
# t-model.sh - `git abbrev model`: the birthday model from counts.
#
# The seeds' 13,021,585 objects must give about 77 expected pairs at 10
# chars and 4.8 at 11; P(collision) stays in [0, 1] and falls with the
# length; the capacity at 1% is below the one at 50% and grows with the
# length.  Bad counts and options are usage errors: exit 2, a message on
# stderr, nothing on stdout.

. "$(dirname "$0")/setup.sh"

# json_check LABEL FILE PYTHON: run PYTHON with `d` = the parsed FILE
# (NaN/Infinity rejected) and tests/birthday.py's formulas as `birthday`;
# it raises AssertionError to fail the check.
json_check() {
	label=$1 file=$2 code=$3
	checks=$((checks + 1))
	if "$PYTHON3" - "$file" >"$tmp/py.out" 2>&1 <<PY
import json, sys
sys.path.insert(0, "$tests_dir")
import birthday
def no_const(c):
    raise ValueError("not JSON: " + c)
with open(sys.argv[1]) as f:
    d = json.load(f, parse_constant=no_const)
$code
PY
	then
		:
	else
		fail "$label"
		show "$tmp/py.out"
	fi
}

# Shared by the flat output and each set of the "sets" output.
cat >"$tmp/check_set.py" <<'PY'
def check_set(s, n, lengths):
    assert s["objects"] == n, s["objects"]
    keys = [str(L) for L in lengths]
    assert list(s["lengths"]) == keys, list(s["lengths"])
    assert list(s["capacity"]) == keys, list(s["capacity"])
    last = None
    for k in keys:
        row = s["lengths"][k]
        e, p = row["expected_pairs"], row["p_collision"]
        assert 0 <= p <= 1, (k, p)
        assert e >= 0, (k, e)
        if last is not None:
            assert p <= last, ("P rises", k)
            assert p < last or p == 1 or p == 0, ("P flat", k)
        last = p
        cap = s["capacity"][k]
        assert 0 < cap["p01"] < cap["p50"], (k, cap)
    for a, b in zip(keys, keys[1:]):
        assert s["capacity"][a]["p50"] < s["capacity"][b]["p50"], (a, b)
PY

say "model --objects=13021585 --format=json: the seeds' numbers"
expect_exit 0 "$GIT_ABBREV" model --objects=13021585 --format=json
[ -s "$err" ] && { checks=$((checks + 1)); fail "json run wrote to stderr"; show "$err"; }
cp "$out" "$tmp/seed.json"
json_check "seed JSON" "$tmp/seed.json" "
exec(open('$tmp/check_set.py').read())
check_set(d, 13021585, range(4, 41))
assert set(d) == {'schema_version', 'objects', 'lengths', 'capacity'}, list(d)
e10 = d['lengths']['10']['expected_pairs']
e11 = d['lengths']['11']['expected_pairs']
assert abs(e10 - 77) / 77 < 0.02, e10
assert abs(e11 - 4.8) / 4.8 < 0.02, e11
assert d['lengths']['4']['p_collision'] == 1
assert 0 < d['lengths']['40']['p_collision'] < 1e-30
# the closed forms, recomputed here (tests/birthday.py)
import math
for L in (10, 12, 16, 20):
    E, P = birthday.pairs(13021585, L), birthday.p_collision(13021585, L)
    row = d['lengths'][str(L)]
    assert abs(row['expected_pairs'] - E) <= 1e-12 * E, (L, row)
    assert abs(row['p_collision'] - P) <= 1e-12 * P, (L, row)
# capacity: the largest n with n(n-1)/2 <= -ln(1-p) 16^L
for L in range(4, 21):
    for key, p in (('p01', 0.01), ('p50', 0.5)):
        c = d['capacity'][str(L)][key]
        T = -math.log1p(-p) * 16**L
        assert c * (c - 1) / 2 <= T * (1 + 1e-12) and (c + 1) * c / 2 > T * (1 - 1e-12), (L, key, c)
"

say "model --objects --commits: one entry per set"
expect_exit 0 "$GIT_ABBREV" model --objects=13021585 --commits=1302158 --format=json
json_check "sets JSON" "$out" "
exec(open('$tmp/check_set.py').read())
assert list(d) == ['schema_version', 'sets'], list(d)
assert d['schema_version'] == 2, d['schema_version']
assert list(d['sets']) == ['all', 'commit'], list(d['sets'])
check_set(d['sets']['all'], 13021585, range(4, 41))
check_set(d['sets']['commit'], 1302158, range(4, 41))
assert d['sets']['commit']['lengths']['11']['expected_pairs'] < 0.05
"

say "--from / --to choose the lengths"
expect_exit 0 "$GIT_ABBREV" model --objects 1000 --format json --from=12 --to 14
json_check "--from/--to" "$out" "
assert list(d['lengths']) == ['12', '13', '14'], list(d['lengths'])
"

say "n = 0, 1 and the largest count"
expect_exit 0 "$GIT_ABBREV" model --objects=0 --format=json
json_check "n = 0" "$out" "
assert all(r['expected_pairs'] == 0 and r['p_collision'] == 0 for r in d['lengths'].values())
"
expect_exit 0 "$GIT_ABBREV" model --objects=1 --format=json
json_check "n = 1" "$out" "
assert all(r['p_collision'] == 0 for r in d['lengths'].values())
"
expect_exit 0 "$GIT_ABBREV" model --objects=9223372036854775807 --format=json
json_check "n = 2^63-1" "$out" "
exec(open('$tmp/check_set.py').read())
check_set(d, 9223372036854775807, range(4, 41))
assert d['lengths']['16']['p_collision'] == 1
"
# past JSON's 63-bit integers the count is a real (emit_json.c)
expect_exit 0 "$GIT_ABBREV" model --objects=18446744073709551615 --format=json
json_check "n = 2^64-1" "$out" "
exec(open('$tmp/check_set.py').read())
assert abs(d['objects'] - 2.0**64) <= 1e-12 * 2.0**64, d['objects']
d['objects'] = 18446744073709551615
check_set(d, 18446744073709551615, range(4, 41))
"

say "text: the useful band and the advice line"
expect_exit 0 "$GIT_ABBREV" model --objects=13021585
checks=$((checks + 1))
# P = 1 - exp(-77.1) is below 1: printed true at 3 digits, not as "1"
grep -q '^ 10  *77\.1  *> 0\.999 ' "$out" || { fail "text: no row '10  77.1  > 0.999'"; show "$out"; }
checks=$((checks + 1))
grep -q '^ 20 ' "$out" && ! grep -q '^  9 ' "$out" && ! grep -q '^ 21 ' "$out" ||
	{ fail "text: the band is not 10..20"; show "$out"; }
checks=$((checks + 1))
grep -q '^P(collision) <= 50% from 12 chars, <= 1% from 14 chars' "$out" ||
	{ fail "text: no advice line"; show "$out"; }
say "text: large expected values spelled in full, as the report spells them"
for fmt in text markdown; do
	expect_exit 0 "$GIT_ABBREV" model --objects=13021585 --from=4 --to=20 --format=$fmt
	checks=$((checks + 1))
	# (the capacity table's 10^15 and more are "%.3g", as fmt_count writes any count)
	grep -q 'e+' "$out" && { fail "$fmt: a number in C's e+ notation"; show "$out"; }
	# E at 8 chars and the expected objects / prefixes at 7, recomputed here
	row=$("$PYTHON3" -c '
import sys
sys.path.insert(0, sys.argv[1])
from birthday import pairs, expected_objects, expected_prefixes
n = 13021585
print("{:,.0f} {:,.0f} / {:,.0f}".format(pairs(n, 8), expected_objects(n, 7), expected_prefixes(n, 7)))' "$tests_dir")
	set -- $row
	checks=$((checks + 1))
	grep -Eq "^[| ]*8[| ]+$1 " "$out" || { fail "$fmt: no row '8  $1'"; show "$out"; }
	checks=$((checks + 1))
	grep -Eq "^[| ]*7[| ].* $2 / $4( |$)" "$out" || { fail "$fmt: no row '7 ... $2 / $4'"; show "$out"; }
done
expect_exit 0 "$GIT_ABBREV" model --objects=13021585 --from=4 --to=20 --format=svg
checks=$((checks + 1))
grep -q "<title>all, 8 chars: P = [^,]*, $1 expected pairs</title>" "$out" ||
	fail "svg: the point at 8 chars does not say '$1 expected pairs'"
expect_exit 0 "$GIT_ABBREV" model --objects=13021585 --commits=1302158 --format=text
checks=$((checks + 1))
grep -q '^commits: 1,302,158$' "$out" || { fail "text: no commits table"; show "$out"; }

say "help"
expect_exit 129 "$GIT_ABBREV" model --help
checks=$((checks + 1))
grep -q 'usage: git abbrev model' "$out" || fail "model --help: no usage on stdout"

say "usage errors: exit 2, message on stderr, nothing on stdout"
for args in "--objects=abc" "--objects=-1" "--objects=" "--objects" \
	"--objects=+5" "--objects=1e6" "--objects=18446744073709551616" \
	"--objects=99999999999999999999999" "--objects=10 --commits=11" \
	"--commits=-3" "--objects=10 --from=3" "--objects=10 --to=65" \
	"--objects=10 --from=20 --to=10" "--objects=10 --format=xml" \
	"--objects=10 --bogus"; do
	# shellcheck disable=SC2086
	expect_exit 2 "$GIT_ABBREV" model $args
	[ "$rc" -eq 2 ] || continue
	checks=$((checks + 1))
	[ -s "$err" ] || fail "model $args: no message on stderr"
	checks=$((checks + 1))
	[ ! -s "$out" ] || { fail "model $args: stdout is not empty"; show "$out"; }
done

say "the published kernel counts lie inside the model's 99% Poisson interval"
# git-unique-abbrev's tables of the kernel (v6.13-rc1 + stable, December
# 2024; v6.7-rc3 + stable, December 2023), "objects / prefixes" at each
# length, as posted to the kernel's list (docs/history.md cites them)
for pub in "13021585 9:2452/1226 10:186/93 11:12/6 12:0/0" \
	   "12000853 9:2106/1053 10:160/80 11:10/5"; do
	# shellcheck disable=SC2086
	set -- $pub
	n=$1
	shift
	expect_exit 0 "$GIT_ABBREV" model --format=json --objects="$n"
	cp "$out" "$tmp/pub.json"
	json_check "model --objects=$n against the published table" "$tmp/pub.json" "
# the central 99% of Poisson(m): lo, hi with P(X < lo) <= q, P(X > hi) <= q
interval = birthday.poisson_interval
for cell in '$*'.split():
    L, counts = cell.split(':')
    objs, pre = (int(x) for x in counts.split('/'))
    row = d['lengths'][L]
    # recomputed here, as the model's own numbers are what is tested
    want = birthday.pairs($n, int(L))
    assert abs(row['expected_pairs'] - want) <= 1e-9 * want, (L, row['expected_pairs'], want)
    mu = birthday.expected_prefixes($n, int(L))
    assert abs(row['expected_prefixes'] - mu) <= 1e-7 * max(1.0, mu), (L, row['expected_prefixes'], mu)
    lo, hi = interval(mu)
    assert lo <= pre <= hi, (L, pre, mu, lo, hi)
    # every colliding prefix of these tables holds two objects
    assert 2 * lo <= objs <= 2 * hi, (L, objs, lo, hi)
"
done

finish
