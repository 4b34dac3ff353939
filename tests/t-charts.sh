#!/bin/sh
# t-charts.sh - the charts as a maintainer pastes them: every chart kind
# (report, model, history, history --backtest, policy, audit) on generated
# repositories and on model counts, checked by tests/chart_check.py: no
# text overlaps another text or crosses the plot's frame, no line passes
# through a text (text boxes from approximate glyph widths, see
# tests/svgcheck.py), 12 and 16 on every length axis and marked, the
# history's legend as drawn, the policy chart's P(collision) on a second
# axis of its own and its year lines told apart by colour and labels.

# shellcheck source-path=SCRIPTDIR source=setup.sh
. "$(dirname "$0")/setup.sh"

say "generating repositories: planted collisions, tags beside commits, years of history"
gen_repo "$tmp/planted" planted
gen_repo "$tmp/commitish" commitish
gen_repo "$tmp/history" history
gen_repo "$tmp/growth" growth
gen_repo "$tmp/audit" audit
mkdir "$tmp/svg"

chart() { # NAME ARGS...: git abbrev ARGS --format=svg into $tmp/svg/NAME.svg
	c_name=$1
	shift
	expect_exit 0 "$GIT_ABBREV" "$@" --format=svg
	cp "$out" "$tmp/svg/$c_name.svg"
}

for r in planted commitish history; do
	chart "report-$r" report "$tmp/$r"
	chart "history-$r" history "$tmp/$r"
	chart "policy-$r" policy "$tmp/$r"
done
for r in history growth; do
	chart "history-backtest-$r" history --backtest "$tmp/$r"
done
chart history-growth history "$tmp/growth"
chart policy-growth policy "$tmp/growth"
chart audit-audit audit -C "$tmp/audit"
chart policy-lengths policy --lengths=4..16 "$tmp/planted"
chart policy-kernel policy --objects=13021585 --commits=1300000 --growth=8%/year
chart policy-count policy --objects=13021585
for n in 2 1000 13021585 1000000000; do
	chart "model-$n" model --objects=$n
done
chart model-two model --objects=1000 --commits=300

say "every chart: no text over another, 12 and 16 marked, legends and axes as drawn"
checks=$((checks + 1))
if PYTHONPATH=$tests_dir "$PYTHON3" "$tests_dir/chart_check.py" "$tmp"/svg/*.svg >"$tmp/check.out" 2>&1; then
	:
else
	fail "charts"
	show "$tmp/check.out"
fi
finish
