#!/bin/sh
# t-backtest.sh - `git abbrev history --backtest` against an independent
# computation.
#
# A generated history of 4000 commits whose count grows as 50 e^(0.3 t) - 50
# (gen_repo.py --scenario growth, nothing planted) and the planted history
# (--scenario history, one commit unreachable): tests/backtest_oracle.py
# redoes every cut-off, fit, prediction, Poisson range and measured count
# from `git log` and `git cat-file --batch-all-objects`, and the JSON must
# match it under the default fit and two forced ones.  The last cut-off's
# fit must find the growth the history was made with; the text's table
# and hit rate and the chart's points must say what the JSON says; the
# chart passes tests/chart_check.py.  A history too short for a cut-off
# says so.

# shellcheck source-path=SCRIPTDIR source=setup.sh
. "$(dirname "$0")/setup.sh"

say "generating a history of known growth, and the planted one"
gen_repo "$tmp/growth" growth
gen_repo "$tmp/history" history
gen_repo "$tmp/small" small

oracle() { # LABEL JSON REPO [WINDOW FIT]
	o_label=$1
	shift
	checks=$((checks + 1))
	if "$PYTHON3" "$tests_dir/backtest_oracle.py" "$2" "$1" ${3:+"$3"} ${4:+"$4"} \
		>"$tmp/oracle.out" 2>&1; then
		:
	else
		fail "$o_label: the backtest differs from the oracle's"
		show "$tmp/oracle.out"
	fi
}

say "every cut-off, prediction and count as the oracle computes them"
for r in growth history; do
	expect_exit 0 "$GIT_ABBREV" history --backtest --format=json "$tmp/$r"
	cp "$out" "$tmp/$r.bt.json"
	oracle "$r" "$tmp/$r.bt.json" "$tmp/$r"
done
for opts in "1 linear" "10 exponential"; do
	# shellcheck disable=SC2086
	set -- $opts
	expect_exit 0 "$GIT_ABBREV" history --backtest --format=json --window-years="$1" \
		--fit="$2" "$tmp/growth"
	cp "$out" "$tmp/growth-$2.json"
	oracle "growth --window-years=$1 --fit=$2" "$tmp/growth-$2.json" "$tmp/growth" "$1" "$2"
done

say "the last cut-off's fit finds the growth the history was made with"
# N(t) = 50 e^(0.3 t) - 50: d ln N / dt = 0.3 e^(0.3 t) / (e^(0.3 t) - 1), 0.304 to
# 0.31 over the five years before the last cut-off (t = 7.6 .. 12.6 years)
checks=$((checks + 1))
"$PYTHON3" "$tests_dir/backtest_check.py" rate "$tmp/growth.bt.json" >"$tmp/rate.out" 2>&1 || { fail "known growth"; show "$tmp/rate.out"; }

say "the text: one row per prediction and length, misses starred, the hit rate"
expect_exit 0 "$GIT_ABBREV" history --backtest "$tmp/growth"
cp "$out" "$tmp/growth.txt"
checks=$((checks + 1))
"$PYTHON3" "$tests_dir/backtest_check.py" text "$tmp/growth.txt" "$tmp/growth.bt.json" >"$tmp/text.out" 2>&1 || { fail "text"; show "$tmp/text.out"; }

say "Markdown: the same rows, misses starred"
expect_exit 0 "$GIT_ABBREV" history --backtest --format=markdown "$tmp/growth"
checks=$((checks + 1))
"$PYTHON3" "$tests_dir/backtest_check.py" markdown "$out" "$tmp/growth.bt.json" >"$tmp/md.out" 2>&1 || { fail "markdown"; show "$tmp/md.out"; }

say "the chart: its points are the JSON's, and a reader can read it"
mkdir "$tmp/svg"
expect_exit 0 "$GIT_ABBREV" history --backtest --format=svg "$tmp/growth"
cp "$out" "$tmp/svg/history-growth.svg"
expect_exit 0 "$GIT_ABBREV" history --backtest --format=svg "$tmp/history"
cp "$out" "$tmp/svg/history-planted.svg"
checks=$((checks + 1))
if PYTHONPATH=$tests_dir "$PYTHON3" "$tests_dir/chart_check.py" "$tmp"/svg/*.svg >"$tmp/check.out" 2>&1; then
	:
else
	fail "charts"
	show "$tmp/check.out"
fi
checks=$((checks + 1))
"$PYTHON3" "$tests_dir/backtest_check.py" svg "$tmp/svg/history-growth.svg" "$tmp/growth.bt.json" >"$tmp/svg.out" 2>&1 || { fail "chart points"; show "$tmp/svg.out"; }

say "policy --backtest: the same numbers, the predictions for the end in a table"
expect_exit 0 "$GIT_ABBREV" policy --backtest --format=json "$tmp/growth"
cp "$out" "$tmp/policy.json"
expect_exit 0 "$GIT_ABBREV" policy --backtest "$tmp/growth"
cp "$out" "$tmp/policy.txt"
checks=$((checks + 1))
"$PYTHON3" "$tests_dir/backtest_check.py" policy "$tmp/policy.json" "$tmp/policy.txt" "$tmp/growth.bt.json" >"$tmp/policy.out" 2>&1 || { fail "policy --backtest"; show "$tmp/policy.out"; }
expect_exit 2 "$GIT_ABBREV" policy --backtest --objects=1000

say "a history too short for a cut-off says so"
expect_exit 0 "$GIT_ABBREV" history --backtest --format=json "$tmp/small"
checks=$((checks + 1))
"$PYTHON3" "$tests_dir/backtest_check.py" empty "$out" >"$tmp/small.out" 2>&1 ||
	{ fail "short history JSON"; show "$tmp/small.out"; }
expect_exit 0 "$GIT_ABBREV" history --backtest "$tmp/small"
checks=$((checks + 1))
grep -q "^backtest: none" "$out" || { fail "short history text"; show "$out"; }
expect_exit 0 "$GIT_ABBREV" history --backtest --format=svg "$tmp/small"
checks=$((checks + 1))
grep -q "No backtest" "$out" || { fail "short history chart"; show "$out"; }

finish
