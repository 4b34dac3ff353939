#!/bin/sh
# t-model.sh - `git abbrev model`: the birthday model from counts.
#
# The seeds' 13,021,585 objects must give about 77 expected pairs at 10
# chars and 4.8 at 11; P(collision) stays in [0, 1] and falls with the
# length; the capacity at 1% is below the one at 50% and grows with the
# length.  Bad counts and options are usage errors: exit 2, a message on
# stderr, nothing on stdout.

. "$(dirname "$0")/setup.sh"

say "model --objects=13021585 --format=json: the seeds' numbers"
expect_exit 0 "$GIT_ABBREV" model --objects=13021585 --format=json
[ -s "$err" ] && { checks=$((checks + 1)); fail "json run wrote to stderr"; show "$err"; }
cp "$out" "$tmp/seed.json"
py_check "seed JSON" model_check.py seed "$tmp/seed.json"

say "model --objects --commits: one entry per set"
expect_exit 0 "$GIT_ABBREV" model --objects=13021585 --commits=1302158 --format=json
py_check "sets JSON" model_check.py sets "$out"

say "--from / --to choose the lengths"
expect_exit 0 "$GIT_ABBREV" model --objects 1000 --format json --from=12 --to 14
py_check "--from/--to" model_check.py lengths "$out" 12 14

say "n = 0, 1 and the largest count"
expect_exit 0 "$GIT_ABBREV" model --objects=0 --format=json
py_check "n = 0" model_check.py none "$out" 0
expect_exit 0 "$GIT_ABBREV" model --objects=1 --format=json
py_check "n = 1" model_check.py none "$out" 1
expect_exit 0 "$GIT_ABBREV" model --objects=9223372036854775807 --format=json
py_check "n = 2^63-1" model_check.py huge "$out" 9223372036854775807
# past JSON's 63-bit integers the count is a real (emit_json.c)
expect_exit 0 "$GIT_ABBREV" model --objects=18446744073709551615 --format=json
py_check "n = 2^64-1" model_check.py huge "$out" 18446744073709551615

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
	row=$("$PYTHON3" "$tests_dir/model_check.py" row 13021585)
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
	py_check "model --objects=$n against the published table" model_check.py published \
		"$tmp/pub.json" "$n" "$@"
done

finish
